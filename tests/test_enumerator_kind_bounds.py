"""Issue #34: `require c is K and c.cost <= you.mana` (`c` a parameter, `cost` a printed property
nothing writes) also tests, before `c`'s domain is listed, the least cost among the cards of kind
K against the mana (`enumerators.KIND_BOUNDS`): Clash of Decks' spell window before each attack
lists nothing while the mana is spent, without going through the hand. The options offered at
every decision are those of the tests without the bound; a cost written from outside the rules
(`State.props`) turns the bound off."""

from __future__ import annotations

import random

from madang.build import enumerators
from madang.game.api import load_program, new_game
from madang.runtime.engine import enumerate_actions
from minirules import write_ruleset
from playthrough import compiled_with, enumerator_code, first_test, offers


def _built(name: str, bounds: bool, monkeypatch):
    return compiled_with(name, enumerators, "KIND_BOUNDS", bounds, monkeypatch)


def test_the_spells_least_cost_is_tested_before_the_hand_is_listed(monkeypatch):
    bound, plain = load_program("clash_of_decks"), _built("clash_of_decks", False, monkeypatch)
    for action in ("cast", "summon"):
        assert "1 <= st.pcounters['mana'][you_]" in first_test(enumerator_code(bound, action))
        assert "'mana'" not in first_test(enumerator_code(plain, action))
    for seed in range(4):
        assert offers(bound, seed) == offers(plain, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
counter gold: per player = 0
counter bought = 0

kind gem:
    cost: number
kind rock:
    cost: number

action buy(c: card from you.hand) in act:
    require c is gem and c.cost <= you.gold
    you.gold -= c.cost
    bought += 1

action sell(c: card from you.hand, q: player from players) in act:
    require you.gold > c.cost and c is rock and q != you
    you.gold -= 1

action earn in act:
    require you.gold < 6
    you.gold += 1

setup:
    for p in players:
        create "Ruby" in p.hand
        create "Opal" in p.hand
        create "Flint" in p.hand
        create "Stone" in p.hand

flow:
    repeat 15 times:
        for p in players:
            turn p:
                window act by p once
"""
CARDS = (
    "cards:\n  - {name: Ruby, type: gem, cost: 2}\n  - {name: Opal, type: gem, cost: 3}\n"
    "  - {name: Flint, type: rock, cost: 1}\n  - {name: Stone, type: rock, cost: 4}\n"
)


def test_a_kinds_least_cost_decides_only_listings_with_no_option(tmp_path, monkeypatch):
    """`buy` (gems, least cost 2) and `sell` (`you.gold > c.cost`, rocks, least cost 1) test the
    bound before the hand; both bounds fail at some decisions and pass at others (gold 0 below
    both, 1 between them, 2 and 3 above both but below Opal's and Stone's costs), and each
    decision offers what the tests without the bounds offered."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="bounds")
    bound, plain = _built(folder, True, monkeypatch), _built(folder, False, monkeypatch)
    assert "2 <= st.pcounters['gold'][you_]" in first_test(enumerator_code(bound, "buy"))
    assert "st.pcounters['gold'][you_] > 1" in first_test(enumerator_code(bound, "sell"))
    assert not any(x.endswith(": return") for x in enumerator_code(plain, "buy").split("\n"))
    golds = set()
    for seed in range(10):
        assert offers(bound, seed) == offers(plain, seed), f"seed {seed}"
        g = new_game(bound, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            golds.add(st.pcounters["gold"][st.pending.player])
            g.apply_action(rng.randrange(len(st.pending.values)))
    assert {0, 1, 2, 3} <= golds  # below both bounds, between them, above both


def test_a_cost_written_from_outside_the_rules_turns_the_bound_off(tmp_path):
    """A cost in `State.props` (a scenario's write) may be below the kind's least printed cost:
    the bound is not tested then, and the gem it made cheap is offered."""
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="outside"))
    g = new_game(prog, seed=0, memory=False)
    st, buy = g.st, [a for a in prog.actions if a.name == "buy"]
    p = st.pending.player
    hand = st.zones[st.g.zone_base["hand"] + p]
    ruby = next(o for o in hand if prog.cards[st.obj_card[o]].name == "Ruby")
    st.pcounters["gold"][p] = 0
    assert enumerate_actions(st, buy, p) == []
    st.props["cost"] = {ruby: 0}
    assert [v[1] for v in enumerate_actions(st, buy, p)] == [[ruby]]

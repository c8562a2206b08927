"""Issue #34: a domain computed at each binding that is a zone's objects where a condition holds
(or what of each: `(Z where C).name`), or `unique` of that, is written as statements in an
action's enumerator (`enumerators.DOMAIN_LOOPS`): the zone charged as `_each` charges it, a loop
appending each match's value, then `unique`'s charge and its repeats dropped. Cthulhu Wars'
movers' names per area (`march`, `march_also`) are such domains. The states, the work charged
and the options are those of the comprehension and `_unique` at every decision."""

from __future__ import annotations

import pytest
from madang.build import enumerators
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime.errors import RulesError
from minirules import write_ruleset
from playthrough import compiled_with, decisions, enumerator_code, offers


def _built(name: str, loops: bool, monkeypatch):
    return compiled_with(name, enumerators, "DOMAIN_LOOPS", loops, monkeypatch)


def test_game_of_thrones_plays_as_before(monkeypatch):
    """Its marshalling's cards of a kind in the hand: domains kept for a listing, as loops."""
    loops = load_program("game_of_thrones_2p")
    whole = _built("game_of_thrones_2p", False, monkeypatch)

    def written(prog) -> int:
        return sum(a.fast_enum.generated.count(" = []\n") for a in prog.actions if a.fast_enum)

    assert written(loops) >= written(whole) + 3
    for seed in range(2):
        assert decisions(loops, seed) == decisions(whole, seed), f"seed {seed}"


def test_the_movers_names_are_a_loop_and_play_as_before(monkeypatch):
    loops, whole = load_program("cthulhu_wars"), _built("cthulhu_wars", False, monkeypatch)
    for action in ("march", "march_also"):
        code = enumerator_code(loops, action)
        assert "list(dict.fromkeys(d1))" in code and "_unique_" not in code
        assert "_unique_" in enumerator_code(whole, action)
    for seed in range(3):  # the digest and the work charged at every decision
        assert decisions(loops, seed) == decisions(whole, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
counter n = 0

kind piece:
    cost: number

action buy(q: player from players, nm: text from unique((q.hand where it.cost > 0).name)) in act:
    require q != you or n % 2 == 0
    move first(q.hand where it.name == nm) to you.hand
    n += 1

action sell(q: player from players, c: card from q.hand where it.cost > 1) in act:
    require q == you
    move c to nth(players, (you.seat + 1) % player_count).hand
    n += 1

action toss(c: card from you.hand where it.cost == 0) in act:
    require n % 3 == 1
    move c to nth(players, (you.seat + 1) % player_count).hand
    n += 1

setup:
    for p in players:
        create "Free" in p.hand
        create "Cheap" in p.hand
        create "Cheap" in p.hand
        create "Dear" in p.hand

flow:
    repeat 10 times:
        for p in players:
            turn p:
                window act by p once
"""
CARDS = (
    "cards:\n  - {name: Free, type: piece, cost: 0}\n  - {name: Cheap, type: piece, cost: 1}\n"
    "  - {name: Dear, type: piece, cost: 3}\n"
)


def test_a_zone_where_domain_and_its_unique_offer_what_the_comprehensions_offered(
    tmp_path, monkeypatch
):
    """`buy`'s names (two Cheap pieces: one name) and `sell`'s cards are domains read per
    player, so computed at each binding, `toss`'s once per listing: written as loops, each
    decision offers the same options with the same state and work charged as with the
    comprehension and `_unique`."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="loops")
    loops, whole = _built(folder, True, monkeypatch), _built(folder, False, monkeypatch)
    assert "dict.fromkeys" in enumerator_code(loops, "buy")
    assert "for it0 in zg0_:" in enumerator_code(loops, "sell")
    assert "for it0 in zg0_:" not in enumerator_code(whole, "sell")
    toss = enumerator_code(loops, "toss")  # a domain kept for the listing: its loop
    assert "if d0 is None:\n        zg0_ = st.zones[" in toss and "for it0 in zg0_:" in toss
    g = new_game(loops, seed=0, memory=False)
    names = [v[1][1] for v in g.st.pending.values if v[0] == 0 and v[1][0] == 0]
    assert names == ["Cheap", "Dear"]  # the repeated name offered once, in the hand's order
    for seed in range(10):
        assert offers(loops, seed) == offers(whole, seed), f"seed {seed}"
        assert decisions(loops, seed) == decisions(whole, seed), f"seed {seed}"


BIG = """\
zone pile: per player, ordered, owner sees
counter n = 0

kind piece:
    size: number

action look(p: player from players, nm: text from unique((p.pile where it.size > 0).name)) in act:
    n += 1

setup:
    for p in players:
        repeat 1500 times:
            create "Small" in p.pile

flow:
    for p in players:
        turn p:
            window act by p once
"""


@pytest.mark.parametrize("charged", ["a list", "unique"])
def test_a_domain_too_long_for_the_budget_ends_the_listing_as_before(
    tmp_path, monkeypatch, charged
):
    """The piles (1,500 pieces each) charged in the listing pass the budget: the loop's charge
    of the zone, or `unique`'s of the names, raises the error `_each` or `_unique` raised."""
    folder = write_ruleset(tmp_path, BIG, "cards:\n  - {name: Small, type: piece, size: 1}\n")
    steps = 3500 if charged == "a list" else 5000  # (the setup 3,000, a pile 1,500, its names)
    extra = f"settings: {{max_steps: {steps}}}\n"
    (tmp_path / "ruleset.yaml").write_text((tmp_path / "ruleset.yaml").read_text() + extra)
    seen = []
    for loops in (True, False):
        monkeypatch.setattr(enumerators, "DOMAIN_LOOPS", loops)
        prog = api._load_cached.__wrapped__(folder, ())
        assert ("dict.fromkeys" in enumerator_code(prog, "look")) is loops
        with pytest.raises(RulesError, match=f"{charged}: more than {steps:,} steps") as err:
            new_game(prog, seed=0, memory=False)
        seen.append(str(err.value))
    assert seen[0] == seen[1]

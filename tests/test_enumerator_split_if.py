"""Issue #34: a `require` part `if C then A else B` (a definition's body too, `may_summon` of
Cthulhu Wars) is split by level in an action's enumerator (`enumerators.SPLIT_IF`): the parts of
A and B that read only outer names are tested at the outer loop, `(A0 if C else B0)`, and a
definition's computed argument (`summon_cost(you, nm)`) is written where its parameter is read.
Summon's `acted == 0` is then tested once per listing, before the monsters' names are listed,
not once per name. The options offered at every decision are those of the whole test."""

from __future__ import annotations

import random

from madang.build import enumerators
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, enumerator_code, first_test, offers


def _built(name: str, split: bool, monkeypatch):
    return compiled_with(name, enumerators, "SPLIT_IF", split, monkeypatch)


def test_summons_acted_test_is_made_before_the_names_are_listed(monkeypatch):
    split, whole = load_program("cthulhu_wars"), _built("cthulhu_wars", False, monkeypatch)
    first = first_test(enumerator_code(split, "summon"))
    assert "'acted'" in first and "'fid'" in first and " else " in first
    returns = [x for x in enumerator_code(whole, "summon").split("\n") if x.endswith(": return")]
    assert returns == ["    if not h1: return"]  # (the areas made first: enumerators.EMPTY_FIRST)
    for seed in range(3):
        assert offers(split, seed) == offers(whole, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
counter n = 0
counter mode: per player = 0
counter used: per player = 0
counter gold: per player = 3

kind piece:
    cost: number

define cost_of(p: player, nm: text) = first(p.hand where it.name == nm).cost
define ok(p: player, c: number) = if p.mode > 0 then p.gold > 0 and p.gold >= c else p.used == 0 and p.gold >= c + 1

action buy(nm: text from unique((you.hand where it.cost > 0).name), q: player from players) in act:
    require ok(you, cost_of(you, nm)) and q != you
    you.gold -= cost_of(you, nm)
    you.mode = 1 - you.mode
    n += 1

action earn in act:
    require you.gold < 7
    you.gold += 2
    you.used = 1 - you.used

setup:
    for p in players:
        create "Cheap" in p.hand
        create "Dear" in p.hand
        create "Dear" in p.hand

flow:
    repeat 12 times:
        for p in players:
            turn p:
                window act by p once
"""
CARDS = "cards:\n  - {name: Cheap, type: piece, cost: 1}\n  - {name: Dear, type: piece, cost: 3}\n"


def test_an_if_split_by_level_offers_what_the_whole_if_offered(tmp_path, monkeypatch):
    """`ok(you, cost_of(you, nm))`: the parts that read only the counters tested once per
    listing, `(gold > 0 if mode > 0 else used == 0)`, the cost's parts per name. Every branch
    matters in these games (a `used` player in `mode` 1 may buy, in `mode` 0 may not), and each
    decision offers what the whole test offered."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="split")
    split, whole = _built(folder, True, monkeypatch), _built(folder, False, monkeypatch)
    first = first_test(enumerator_code(split, "buy"))
    assert "'mode'" in first and "'used'" in first and "'cost'" not in first
    assert "'cost'" in enumerator_code(split, "buy").split(first)[1]
    assert not any(x.endswith(": return") for x in enumerator_code(whole, "buy").split("\n"))
    cases = set()
    for seed in range(12):
        assert offers(split, seed) == offers(whole, seed), f"seed {seed}"
        g = new_game(split, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            p = st.pending.player
            mode, used = st.pcounters["mode"][p], st.pcounters["used"][p]
            buys = any(v[0] == 0 for v in st.pending.values if isinstance(v, list))
            cases.add((mode, used, buys))
            g.apply_action(rng.randrange(len(st.pending.values)))
    # both branches decided listings: bought while used in mode 1, never while used in mode 0
    assert (1, 1, True) in cases and (0, 0, True) in cases
    assert (0, 1, True) not in cases and (0, 1, False) in cases

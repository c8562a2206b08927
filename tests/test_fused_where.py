"""#34: a `where` over a `where` of pure tests (written so, or a definition's body written
inline) goes through its items in one loop (`CodeGen.where_parts`); `count(L where P) > 0`,
`== 0` and the like stop at the first match (`CodeGen._some_match`). The fast code must play
the same games as the general code, charging no more work."""

from __future__ import annotations

import pytest
from madang.build import codegen
from madang.game import api
from madang.game.api import load_program, new_game
from minirules import UNITS, write_ruleset
from playthrough import offers, work

CARDS = (
    "cards: [{name: A, type: unit, hp: 1}, {name: B, type: unit, hp: 2},"
    " {name: C, type: unit, hp: 3}, {name: D, type: unit, hp: 7}]\n"
)

DEFINES = (
    "define tops(p: player) = objects(p.top) where it.hp > 0\n"
    "define mids(p: player) = tops(p) where it.hp > 1\n"
    "define inner(p: player, lo: number) = mids(p) where it.hp < lo\n"
    "define kinds = [1, 2, 3, 9] where count(inner(first(players), it)) > 0\n"
    "define noneleft = [1, 2, 3, 9] where count(inner(first(players), it)) == 0\n"
)

SETUP = (
    "flow:\n"
    '    create "A" in first(players).top\n    create "B" in first(players).top\n'
    '    create "C" in first(players).top\n    create "D" in first(players).top\n'
    '    create "A" in last(players).top\n'
)


def _game(tmp_path, rules: str):
    folder = write_ruleset(tmp_path, UNITS + DEFINES + rules, CARDS, 2, name="fw")
    return new_game(folder, seed=1)


def _all_code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    return "\n".join(code)


def test_a_where_over_inlined_wheres_is_one_loop_with_the_same_matches(tmp_path):
    rules = SETUP + (
        "    n = count(inner(first(players), 4)) * 100 + count(mids(last(players)))\n"
        "    m = sum(objects(inner(first(players), 8)).hp)\n"
        "    k = count(kinds) * 10 + count(noneleft)\n"
    )
    g = _game(tmp_path, rules)
    c = g.st.counters
    assert c["n"] == 200  # B and C; seat 2 holds only A
    assert c["m"] == 12  # B, C, D
    assert c["k"] == 2 * 10 + 2  # hp < 3 (B), hp < 9 (B, C, D); none under 1 or 2
    code = _all_code(g.st.g.prog)
    # one comprehension over the zone, the three levels' tests joined with `and`
    assert "for it0 in _each(st, st.zones[" in code
    assert "_each(st, ([it0" not in code and "_each(st, [it0" not in code
    assert "any(True for it1 in _each(st, st.zones[" in code


def test_the_fused_loop_charges_the_innermost_items_once(tmp_path, monkeypatch):
    rules = SETUP + "    n = count(mids(first(players)))\n"
    folder = write_ruleset(tmp_path, UNITS + DEFINES + rules, CARDS, 2, name="fw")
    fused = new_game(api._load_cached.__wrapped__(folder, ()), seed=1).st
    monkeypatch.setattr(codegen, "FUSE", False)
    nested = new_game(api._load_cached.__wrapped__(folder, ()), seed=1).st
    assert fused.counters["n"] == nested.counters["n"] == 3
    # nested: the zone's 4 objects, then the 4 of `tops`; fused: the zone's 4 once
    assert nested.work - fused.work == 4


@pytest.mark.parametrize(
    "test, value",
    [
        ("count(mids(first(players))) > 0", 1),
        ("count(mids(last(players))) > 0", 0),
        ("count(mids(first(players))) >= 1", 1),
        ("0 < count(mids(first(players)))", 1),
        ("count(mids(first(players))) != 0", 1),
        ("count(mids(first(players))) == 0", 0),
        ("count(mids(last(players))) == 0", 1),
        ("count(mids(last(players))) < 1", 1),
        ("0 == count(mids(last(players)))", 1),
        ("count(mids(first(players))) <= 0", 0),
    ],
)
def test_a_count_compared_with_none_stops_at_the_first_match(tmp_path, test, value):
    g = _game(tmp_path, SETUP + f"    if {test}:\n        n = 1\n")
    assert g.st.counters["n"] == value
    assert "any(True for it0 in _each(st, st.zones[" in _all_code(g.st.g.prog)


@pytest.mark.parametrize(
    "test, value",
    [
        ("count(mids(first(players))) > 1", 1),  # a count, not a test of emptiness
        ("count(mids(first(players))) == 3", 1),
        ("count(objects(first(players).top)) > 0", 1),  # no `where`: a zone's length
    ],
)
def test_other_comparisons_of_a_count_are_counted(tmp_path, test, value):
    g = _game(tmp_path, SETUP + f"    if {test}:\n        n = 1\n")
    assert g.st.counters["n"] == value
    assert "any(" not in _all_code(g.st.g.prog)


def test_a_test_that_draws_or_calls_a_definition_keeps_the_general_code(tmp_path):
    rules = (
        "define deep(k: number) = if k <= 0 then 0 else deep(k - 1)\n"
        + SETUP
        + "    n = count(mids(first(players)) where random([1, 2]) == 1)\n"
        "    if count(objects(first(players).top) where random([1, 2]) == 1) > 0:\n"
        "        m = 1\n"
        "    if count(mids(first(players)) where deep(it.hp) == 0) > 0:\n"
        "        k = 1\n"
    )
    g = _game(tmp_path, rules)
    code = _all_code(g.st.g.prog)
    assert "any(" not in code  # every item tested: the same draws as written
    assert "_each(st, ([it0" in code or "_each(st, [it0" in code  # the inner list kept
    assert g.st.counters["k"] == 1


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_fused_tests_play_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast = load_program(ruleset)
    monkeypatch.setattr(codegen, "FUSE", False)
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    if ruleset == "game_of_thrones_2p":
        assert _all_code(general) != _all_code(fast)  # the general code, really
    for seed in range(3):
        assert offers(fast, seed) == offers(general, seed)  # states and options
        assert all(a <= b for a, b in zip(work(fast, seed), work(general, seed)))

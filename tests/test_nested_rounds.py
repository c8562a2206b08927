"""#34: an outer flattened loop whose rounds run in Python holds an inner loop's rounds run in
Python (build/resumable.py `NESTED_ROUNDS`, `_Emitter._flow`), and a block's own function
entered at its first section runs it without the sections' dispatch (`FRESH_STARTS`,
`fresh_start`). The same games, state for state, work and steps, as with either off; a save
made where the inner body waited plays on in the other code."""

from __future__ import annotations

import re

import pytest
import test_branched_rounds as branched
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps
from test_branched_rounds import CARDS, CHECK, _code, saves_inside_play_on

# (the kind, zone, counters and verbs of test_branched_rounds: `hit` may wait, `maybe_end` wins)
BODY = (
    branched.BODY[: branched.BODY.index("@CHECK@")]
    + """@CHECK@
flow:
    create "A" in box
    create "A" in box
    for k in [1, 2, 3]:
        total += k
        for x in [1, 2, 3, 4, 5]:
            if x == 2:
                total += 1
            elif x == 3 or x == 5:
                if total > 10:
                    choose e from [1, 2] by first(players) "e"
                    total += e
                hit(x + k)
            else:
                hit(x)
            if total > 120:
                break
            maybe_end()
        for u in box:
            if u.hp < 3:
                u.hp += 1
            hit(u.hp + k)
    choose f from [1, 2] by first(players) "f"
"""
)


def _rules(checks: bool) -> str:
    return BODY.replace("@CHECK@", CHECK if checks else "")


def _dispatch(code: str) -> str:
    """The sections' dispatch of a block's function, after its fresh entry (if any)."""
    return code[code.index("\n    while True:\n") :]


@pytest.mark.parametrize("checks", [False, True])
def test_an_outer_loop_s_rounds_hold_the_inner_ones_and_play_the_same(
    checks, tmp_path, monkeypatch
):
    folder = write_ruleset(tmp_path, _rules(checks), CARDS, name="nr")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "NESTED_ROUNDS", False, monkeypatch)
    # the outer loop's rounds in Python, each inner loop's inside them (and kept in their
    # own head's section for a resumption there); without: the outer goes through sections
    sections = re.split(r"\n +if pc == \d+:\n", _dispatch(_code(fast)))
    (outer,) = [x for x in sections if "_fit0 = _items" in x]
    assert outer.count("while True:") == 3 and "_fit1 = _items" in outer and "_fit2" in outer
    assert "_fit0" not in _code(general) and "_fit1" in _code(general)
    fired, waited, ended = 0, 0, 0
    for seed in range(10):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed)
        fired += a[-1][4]["fired"]
        waited += len(a)
        ended += a[-1][3] and a[-1][4]["total"] <= 130  # (won inside the rounds)
    assert waited > 10 * 4 and (fired > 0 or not checks) and ended > 0


@pytest.mark.parametrize("checks", [False, True])
def test_a_save_inside_the_inner_rounds_plays_on_in_the_other_code(checks, tmp_path, monkeypatch):
    """A save made at a choice inside the inner loops' rounds (the body's own, a called
    verb's, a check's), loaded into the code whose outer rounds go through the sections (and
    the other way round), plays on as the game went: both loops' places are in the env."""
    folder = write_ruleset(tmp_path, _rules(checks), CARDS, name="ns")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "NESTED_ROUNDS", False, monkeypatch)
    inside = saves_inside_play_on(fast, general)
    assert inside >= {"e", "y"} and ("z" in inside or not checks)


@pytest.mark.parametrize("checks", [False, True])
def test_a_fresh_entry_runs_without_the_dispatch_and_plays_the_same(checks, tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, _rules(checks), CARDS, name="nf")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "FRESH_STARTS", False, monkeypatch)
    # the flow's function: an entry at its first section before the dispatch; without, none
    fresh = _code(fast).split("\n    while True:\n")[0]
    assert "\n    if pc == 0:\n" in fresh and "_fi1" in fresh
    assert "\n    if pc == 0:\n" not in _code(general)
    for seed in range(10):
        assert decision_steps(fast, seed) == decision_steps(general, seed)


def test_the_game_ended_in_a_later_outer_round_leaves_both_places(tmp_path, monkeypatch):
    """The game ends in an outer round after the first of a run that never waited (a verb
    that never waits wins inside the inner rounds): the flow's frame left holds both loops'
    places, as every round through the heads wrote them."""
    rules = (
        "counter total = 0\n\n"
        "verb maybe_end():\n    if total > 8:\n        win first(players)\n\n"
        "flow:\n"
        '    choose s from [1, 2] by first(players) "s"\n'
        "    for k in [1, 2, 3]:\n"
        "        for x in [1, 2, 3]:\n"
        "            if x == 9:\n"
        '                choose t from [1, 2] by first(players) "t"\n'
        "            elif x > s:\n                total += 2\n"
        "            else:\n                total += 1\n"
        "            maybe_end()\n"
    )
    folder = write_ruleset(tmp_path, rules, "cards: []\n", name="ne")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "NESTED_ROUNDS", False, monkeypatch)
    assert "_fit0" in _code(fast) and "_fit0" not in _code(general)
    for seed in range(4):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed) and a[-1][3]


@pytest.mark.parametrize("switch", ["NESTED_ROUNDS", "FRESH_STARTS"])
def test_the_bundled_games_play_the_same_with_either_off(switch, monkeypatch):
    fast = load_program("clash_of_decks")
    general = compiled_with("clash_of_decks", resumable, switch, False, monkeypatch)
    for seed in range(3):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

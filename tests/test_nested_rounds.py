"""#34: an outer flattened loop whose rounds run in Python holds an inner loop's rounds run in
Python (build/resumable.py `NESTED_ROUNDS`, `_Emitter._flow`), and a block's own function
entered at its first section runs it without the sections' dispatch (`FRESH_STARTS`,
`fresh_start`). The same games, state for state, work and steps, as with either off; a save
made where the inner body waited plays on in the other code."""

from __future__ import annotations

import random
import re

import pytest
from madang.build import resumable
from madang.game.api import GameState, load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

BODY = """\
kind unit:
    hp: number
zone box: shared, public
counter total = 0
counter fired = 0

# may wait (a choice), but only when x > 3
verb hit(x: number):
    total += x
    if x > 3:
        choose y from [1, 2] by first(players) "y"
        total += y

# never waits; may end the game inside the inner rounds (`if st.over: return` after its call)
verb maybe_end():
    if total > 90:
        win first(players)

@CHECK@
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
# a check that fires in the middle of the rounds and waits for a choice there
CHECK = """\
check big if total >= 15 and fired == 0:
    fired += 1
    choose z from [5, 6] by first(players) "z"
    total += z
"""
CARDS = "cards: [{name: A, type: unit, hp: 1}]\n"
INSIDE = ("e", "y", "z")  # the choices made inside the inner loops' rounds


def _rules(checks: bool) -> str:
    return BODY.replace("@CHECK@", CHECK if checks else "")


def _code(prog) -> str:
    return prog.blocks[prog.flow_block][0].fn.generated


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
    inside = set()
    for seed in range(4):
        for a, b in ((fast, general), (general, fast)):
            g = new_game(a, seed=seed, memory=False)
            rng = random.Random(seed)
            while not g.st.over:
                if g.st.pending.prompt in INSIDE:
                    inside.add(g.st.pending.prompt)
                    rest = random.Random(seed * 7 + len(g.st.frames))
                    h = GameState.from_json(g.to_json(), b)
                    answers = [rest.randrange(2) for _ in range(60)]
                    assert _played(g.clone(), answers) == _played(h, answers)
                g.apply_action(rng.randrange(len(g.st.pending.values)))
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


def _played(g, answers: list[int]) -> str:
    for k in answers:
        if g.st.over:
            break
        g.apply_action(k % len(g.st.pending.values))
    return g.digest()


@pytest.mark.parametrize("switch", ["NESTED_ROUNDS", "FRESH_STARTS"])
def test_the_bundled_games_play_the_same_with_either_off(switch, monkeypatch):
    fast = load_program("clash_of_decks")
    general = compiled_with("clash_of_decks", resumable, switch, False, monkeypatch)
    for seed in range(3):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

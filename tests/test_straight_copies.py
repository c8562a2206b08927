"""#34: a verb's or an action's frameless copy is always started at its first section and never
resumed (a frame it makes resumes in the block's own function), so where its jumps all go
forward it is written without the sections' dispatch (build/resumable.py `straightened`): each
section followed by the code of the section it goes to. The same states, work and steps at
every decision as the copy with its sections dispatched."""

from __future__ import annotations

import re

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps
from test_quick_calls import RULES, _quick


def test_a_copy_whose_jumps_go_forward_has_no_dispatch(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="sc")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "STRAIGHT_COPIES", False, monkeypatch)
    for verb in ("hit", "outer", "ending"):
        code, before = _quick(fast, verb)[0].generated, _quick(general, verb)[0].generated
        assert "while True:" in before and "if pc == " in before  # (the dispatched copy)
        assert "while True:" not in code and "if pc == " not in code
        assert not re.search(r"(?m)^ *pc = ", code)  # (no jumps: `fpc` is the frame's pc)
    for seed in range(12):
        assert decision_steps(fast, seed) == decision_steps(general, seed)


def test_a_copy_with_a_jump_back_keeps_its_dispatch(tmp_path):
    """A loop whose rounds go through the sections (`repeat`: no rounds in Python) around a
    call that may wait jumps back: that copy is dispatched as before."""
    rules = (
        "counter n = 0\n\n"
        "verb one():\n"
        "    if n > 100:\n"
        '        choose y from [1, 2] by first(players) "y"\n'
        "    n += 1\n\n"
        "verb twice():\n"
        "    repeat 2 times:\n"
        "        one()\n"
        "        n += 1\n\n"
        "flow:\n    twice()\n    twice()\n"
    )
    prog = load_program(write_ruleset(tmp_path, rules, "cards: []\n", name="sb"))
    fn, quick = _quick(prog, "twice")
    assert quick and "if pc == " in fn.generated and "_one_q_" in fn.generated
    assert "if pc == " not in _quick(prog, "one")[0].generated


@pytest.mark.parametrize(
    "ruleset,seeds",
    [("clash_of_decks", 3), ("nivel_arena", 1), ("game_of_thrones_2p", 1), ("cthulhu_wars", 1)],
)
def test_straight_copies_play_the_bundled_games_as_the_dispatched(ruleset, seeds, monkeypatch):
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "STRAIGHT_COPIES", False, monkeypatch)
    if ruleset == "clash_of_decks":  # (the attack: a `while` whose rounds run in Python)
        code = _quick(fast, "attack")[0].generated
        assert "if pc == " not in code and "while True:" in code and "break" in code
    for seed in range(seeds):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

"""#34: in rules without state checks or triggers, only a statement that waits puts a frame on
the stack, and every one is followed by a return, so a frameless copy of a verb that reached
its end has nothing above it and nothing pending: that end returns without testing for them
(build/resumable.py `ALONE_ENDS`, `quick_variant`'s `alone`). The games, their frames, work and
steps must be those of the tested end; rules with a trigger or a check keep the test."""

from __future__ import annotations

import re

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps
from test_quick_calls import RULES as CALLS

# test_quick_calls' verbs and flow without its check (a verb that may wait, nested copies, a
# `require`, the game's end inside a nested call, a verb that always waits)
RULES = re.sub(r"# a check that waits.*?\n\n(?=flow:)", "", CALLS, flags=re.S)

TESTED = "if len(st.frames) == n0 and st.pending is None:"


def _copies(prog) -> str:
    """The generated Python of the verbs' frameless copies."""
    fns = prog.blocks[prog.flow_block][0].fn.__globals__.values()
    return "\n".join(
        v[0].generated
        for v in fns
        if isinstance(v, list) and v and hasattr(v[0], "generated") and v[0].__name__.endswith("_q")
    )


def test_a_copy_alone_ends_as_the_tested_one(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="alone")
    fast = load_program(folder)
    tested = compiled_with(folder, resumable, "ALONE_ENDS", False, monkeypatch)
    assert "check " not in RULES and "_hit_m" in _copies(fast) and TESTED not in _copies(fast)
    assert TESTED in _copies(tested)
    for seed in range(10):
        assert decision_steps(fast, seed) == decision_steps(tested, seed)


@pytest.mark.parametrize(
    "extra",
    [
        "counter seen = 0\n\nafter hit(x):\n    seen += 1\n",
        "check many if total > 50:\n    later += 1\n",
    ],
)
def test_a_trigger_or_a_check_keeps_the_test(tmp_path, extra):
    """A trigger's block or a check's is pushed above a copy without a return after it."""
    prog = load_program(write_ruleset(tmp_path, RULES + "\n" + extra, "cards: []\n", name="kept"))
    assert TESTED in _copies(prog)


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_alone_ends_play_the_bundled_games_as_the_tested_ones(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    tested = compiled_with(ruleset, resumable, "ALONE_ENDS", False, monkeypatch)
    assert TESTED not in _copies(fast) and TESTED in _copies(tested)
    for seed in range(2 if ruleset == "clash_of_decks" else 1):
        assert decision_steps(fast, seed) == decision_steps(tested, seed)

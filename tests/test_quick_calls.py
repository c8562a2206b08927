"""#34: a call of a verb that may wait runs its block's frameless copy (build/resumable.py
`quick_variant`), which makes the verb's frame only where the block waits or needs one
(engine.quick_sink, quick_hand_over). The frame made late must be the one `call_from` made at
once: the same states (frames, their `pc` and names), work and steps at every decision, also
when a check's frames, a nested call that waits or the game's end leave it in place."""

from __future__ import annotations

import re

import pytest
from madang.build import resumable
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

RULES = """\
counter total = 0
counter fired = 0
counter later = 0

# may wait, but only when x > 2 (so most calls never need a frame)
verb hit(x: number):
    total += x
    if x > 2:
        choose y from [1, 2] by first(players) "y"
        total += y
    total += 1

# calls one that may wait (nested frameless copies), then leaves through a require
verb outer(x: number):
    hit(x)
    require x < 4
    later += 1

# the game ends inside a nested call: the frames left are those `call_from` would leave
verb ending(x: number):
    hit(x)
    if total > 200:
        win first(players)
    later += 10

# waits at once on every way through it: no frameless copy, `call_from` written for it
verb asks(x: number):
    choose w from [1, 2] by first(players) "w"
    total += w + x

# a check that waits fires in the middle of a verb: the verb's frame goes under the check's
check big if total >= 20 and fired == 0:
    fired += 1
    choose z from [5, 6] by first(players) "z"
    total += z

flow:
    outer(1)
    outer(3)
    outer(5)
    asks(1)
    repeat 6 times:
        outer(2)
        hit(3)
    ending(1)
    total += 300
    ending(1)
    later += 1000
"""


def _quick(prog, verb: str):
    """The function a call of `verb` runs (its holder's), and whether it is a frameless copy."""
    fn = next(
        v[0]
        for k, v in prog.blocks[prog.verbs[verb].body][0].fn.__globals__.items()
        if k.startswith(f"_{verb}_q_") and isinstance(v, list)
    )
    return fn, fn.__name__.endswith("_q")  # (else `call_from` written for it: `_f`)


def test_frameless_calls_leave_the_frames_call_from_leaves(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="qc")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "QUICK_CALLS", False, monkeypatch)
    for verb in ("hit", "outer", "ending"):
        fn, quick = _quick(fast, verb)
        assert quick, verb
        assert "_quick_sink(" in fn.generated
    fn, quick = _quick(fast, "asks")
    assert not quick and fn.__name__.endswith("_f") and "callee = _new(_Frame)" in fn.generated
    # `hit`'s choice needs its frame: that section is run by the block's own function
    assert re.search(r"\n +_hit_m\d+\(st, callee, \d+\)\n", _quick(fast, "hit")[0].generated)
    code = "\n".join(s.fn.generated for b in general.blocks for s in b[:1] if hasattr(s, "fn"))
    assert "_q_" not in code and "_call_from(st, fr" in code  # the general code, really
    ended = 0
    for seed in range(12):
        a, b = decision_steps(fast, seed), decision_steps(general, seed)
        assert a == b
        ended += a[-1][3]
    assert ended == 12
    g = new_game(fast, seed=0, memory=False)
    while not g.st.over:
        g.apply_action(0)
    # the game ended inside `ending` (total 300 + ...): the last `later += 1000` never ran,
    # and the frames of the flow and of `ending` stayed, as call_from leaves them
    assert g.st.counters["later"] < 1000 and g.st.counters["fired"] == 1
    assert len(g.st.frames) >= 2


def test_a_recursive_verb_keeps_its_frames(tmp_path, monkeypatch):
    """A verb that may call itself is called through `call_from`, whose frames the budget
    counts: no frameless copy, no unbounded Python recursion."""
    rules = (
        "counter n = 0\n\n"
        "verb down(x: number):\n"
        "    if x > 0:\n"
        '        choose y from [1] by first(players) "y"\n'
        "        n += y\n"
        "        down(x - 1)\n\n"
        "flow:\n    down(3)\n"
    )
    prog = load_program(write_ruleset(tmp_path, rules, "cards: []\n", name="qr"))
    fn = prog.blocks[prog.verbs["down"].body][0].fn
    assert "_call_from(st, fr," in fn.generated and "_down_q_" not in fn.generated
    g = new_game(prog, seed=1, memory=False)
    while not g.st.over:
        g.apply_action(0)
    assert g.st.counters["n"] == 3


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_frameless_calls_play_the_bundled_games_as_call_from(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "QUICK_CALLS", False, monkeypatch)
    copies = sum(
        s.fn.generated.count("_q_") for b in fast.blocks for s in b[:1] if hasattr(s, "fn")
    )
    assert copies > 0
    for seed in range(3):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

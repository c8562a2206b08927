"""#34: a statement's object whose `exec` reads only its frame's names (a scope, a window:
`Stmt.ENV_ONLY`) is run in a verb's frameless copy with the call's names (build/resumable.py
`ENV_ONLY_COPIES`), and the verb's frame is made only where the block waits, under the
object's frames (engine.quick_sink). That frame must be the one the section run in the verb's
frame left: the same states (frames, their `pc` and names), work and steps at every decision,
with and without state checks, and when the game ends inside the scope."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

RULES = """\
counter total = 0
counter rounds = 0

action add(x: number from [1, 2]) in act:
    total += x
    if total > 90:
        win you

action big(x: number from [3, 4]) in act:
    require total > 5
    total += x

# a phase whose window waits, names written before and read after it, then a turn's scope
verb play(p: player, k: number):
    let first_k = k + 1
    phase acting:
        window act by p
        total += first_k
    let later = first_k + total
    total += later % 3
    turn p:
        if k > 2:
            window act by p

# a phase whose window has nothing to offer most of the time (passed without waiting)
verb quiet(p: player):
    phase still:
        if total > 1000:
            window act by p
    rounds += 1

flow:
    repeat 8 times:
        rounds += 1
        for p in players:
            quiet(p)
            play(p, rounds)
"""

CHECK = "\ncheck many if total > 40 and rounds < 100:\n    rounds += 100\n"


def _copy(prog, verb: str) -> str:
    """The generated Python of the function a call of `verb` runs."""
    fns = prog.blocks[prog.flow_block][0].fn.__globals__
    return next(v[0] for k, v in fns.items() if k.startswith(f"_{verb}_q_"))


@pytest.mark.parametrize("extra", ["", CHECK])
def test_env_only_objects_in_copies_leave_the_framed_states(tmp_path, monkeypatch, extra):
    folder = write_ruleset(tmp_path, RULES + extra, "cards: []\n", name="envonly")
    fast = load_program(folder)
    framed = compiled_with(folder, resumable, "ENV_ONLY_COPIES", False, monkeypatch)
    for verb in ("play", "quiet"):
        assert _copy(fast, verb).__name__.endswith("_q")
        assert "_Env(env=env)" in _copy(fast, verb).generated
        assert "_Env(" not in _copy(framed, verb).generated
    for seed in range(8):
        assert decision_steps(fast, seed) == decision_steps(framed, seed)


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "game_of_thrones_2p"])
def test_env_only_copies_play_the_bundled_games_as_framed(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    framed = compiled_with(ruleset, resumable, "ENV_ONLY_COPIES", False, monkeypatch)
    for seed in range(2 if ruleset == "clash_of_decks" else 1):
        assert decision_steps(fast, seed) == decision_steps(framed, seed)

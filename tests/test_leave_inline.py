"""#34: a `require` that fails, or a `return`, in a block run in its own FUNC frame (a verb's,
an action's or a listener's body) leaves the frame inline (build/resumable.py `_Emitter.leave`,
engine.leave_func): no statement object, no condition's function, the sections numbered as
before. It must leave where the rules say, mark the same checks and play the bundled games as
the delegated statement did, at every decision, with the same step count."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decisions

RULES = """\
counter total = 0
counter left = 0
counter done = 0
counter acted = 0

# a verb that waits (so it runs in a frame of its own), then requires
verb gate(x: number):
    choose y from [1, 2] by first(players) "y"
    require x + y > 2
    total += x + y

# a `return` inside a flattened loop around a decision, and inside a branch
verb early(x: number):
    for i in range(3):
        choose z from [1, 0] by first(players) "z"
        if z == 1 and i == x:
            return
        left += 1
    done += 1

action poke in main:
    acted += 1
    require acted > 1
    acted += 10

flow:
    gate(1)
    gate(5)
    early(0)
    early(1)
    repeat 2 times:
        window main by first(players) once
"""


def _first_options(prog) -> dict:
    """The counters at the end of the game when every decision takes its first option."""
    g = new_game(prog, seed=1, memory=False)
    while not g.st.over and g.st.pending is not None:
        g.apply_action(0)
    return dict(g.st.counters), g.st.steps


def test_a_require_or_return_leaves_its_frame_where_the_rules_say(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="lv")
    prog = load_program(folder)
    codes = [prog.blocks[prog.verbs[v].body][0].fn for v in ("gate", "early")]
    for fn in codes:
        assert "_leave_func(st, fr)" in fn.generated
        assert not [s for s in fn.delegated if type(s).__name__ in ("Require", "Return")]
    got, steps = _first_options(prog)
    # gate(1) picks 1: 1 + 1 > 2 fails, nothing added; gate(5): 6. early(0) returns at once;
    # early(1) counts one round, then returns; neither reaches `done`. The first `poke`
    # fails its require after its first statement, the second goes on.
    assert got == {"total": 6, "left": 1, "done": 0, "acted": 12}
    general = compiled_with(folder, resumable, "LEAVE_INLINE", False, monkeypatch)
    fn = general.blocks[general.verbs["gate"].body][0].fn
    assert "_leave_func" not in fn.generated  # the general code, really
    assert _first_options(general) == (got, steps)
    for seed in range(4):
        assert decisions(prog, seed) == decisions(general, seed)


def test_a_require_in_a_nested_frame_is_still_the_statements_object(tmp_path):
    """Inside a block with a frame of its own (a `hold:`), the FUNC frame is not the innermost:
    the require is delegated, which unwinds the frames between."""
    rules = (
        "counter total = 0\n\n"
        "verb v(x: number):\n"
        "    hold:\n"
        "        require x > 1\n"
        "        total += 1\n"
        "    total += 10\n\n"
        "flow:\n    v(1)\n    v(2)\n"
    )
    prog = load_program(write_ruleset(tmp_path, rules, "cards: []\n", name="lh"))
    g = new_game(prog, seed=1, memory=False)
    assert g.st.counters["total"] == 11  # v(1) leaves the verb from inside the hold
    code = "\n".join(s.fn.generated for b in prog.blocks for s in b if hasattr(s, "fn"))
    assert code.count("_leave_func(") == 0


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_leaving_inline_plays_the_bundled_games_as_the_statements_objects(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "LEAVE_INLINE", False, monkeypatch)

    def leaves(prog) -> int:
        return sum(
            s.fn.generated.count("_leave_func(")
            for b in prog.blocks
            for s in b[:1]
            if hasattr(s, "fn")
        )

    assert leaves(general) == 0
    if ruleset != "cthulhu_wars":  # (no require or return in its verbs' bodies)
        assert leaves(fast) > 0
    for seed in range(3):
        a = _steps(fast, seed)
        assert a == _steps(general, seed)


def _steps(prog, seed: int) -> list:
    import random

    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < 300:
        seen.append((g.digest(), g.st.work, g.st.steps))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen

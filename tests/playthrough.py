"""What the tests that compare two compilations of a ruleset play: a seeded random game, and at
each decision the state's digest and the work charged (tests/test_loop_code.py,
tests/test_held_names.py: the fast code must play the bundled games as the general code)."""

from __future__ import annotations

import random

from madang.game.api import new_game


def decisions(prog, seed: int, limit: int = 400) -> list:
    """The state's digest and the work charged at each decision of a seeded random game."""
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((g.digest(), g.st.work))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen

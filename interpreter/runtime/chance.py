"""Chance as decisions: the outcomes of a game's random operations, given from outside.

Every random operation of the rules (a shuffle, `random`, `roll`, `shuffled`) asks
`State.rand_below(n)` for a number in 0..n-1. Simulation answers from the state's own fast
generator. A game played with *explicit* chance (game/api.py, the OpenSpiel adapter) sets a
`Tape` on the state instead: each call reads the next outcome on the tape, and once the tape
runs out it raises `NeedChance(n)` — a chance node with n equally likely outcomes. A shuffle of
n objects is n-1 such draws (n, n-1, ..., 2 outcomes: Fisher-Yates, the last object going
where it must), a die of 6 faces one draw of 6. A random operation of a single outcome is not a
chance node. The step is then replayed from the last decision with the longer tape (the
engine is deterministic given its answers), so the interpreter never has to stop inside an
expression.
"""

from __future__ import annotations


class NeedChance(BaseException):
    """Raised by a random operation whose outcome is not on the tape yet.

    A BaseException, so that no handler of the rules' errors mistakes it for one."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class Tape:
    """The outcomes already chosen for the random operations of one step, read in order."""

    __slots__ = ("outcomes", "pos")

    def __init__(self, outcomes: list[int]):
        self.outcomes = outcomes
        self.pos = 0

    def next(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.pos < len(self.outcomes):
            k = self.outcomes[self.pos]
            self.pos += 1
            if not 0 <= k < n:
                raise ValueError(f"chance outcome {k} is not one of 0..{n - 1}")
            return k
        raise NeedChance(n)

"""What each seat has seen so far, in order: perfect-recall information states for solvers.

A seat's information state is the sequence of its observations and of the decisions it saw
being taken: its own choices, and the others' as far as it may see them (runtime/seen.py: a
card picked from a hidden hand is "P2 decides"). Two histories a seat cannot tell apart give
the same sequence; two it can tell apart never do, even when they end in the same view (the
current observation alone merges them). The record grows by one entry per decision: the
decision as each seat saw it, then each seat's observation once the game waits again (after
the chance nodes between, whose outcomes a seat knows only through what it then sees).
"""

from __future__ import annotations

import numpy as np

from ..runtime import engine, seen
from .api import GameState


class Recall:
    """Per seat: the text of each decision and observation seen, and one tensor row for each
    of the last `depth` steps: who decided (relative to the seat), the action id when the seat
    saw it, then the seat's observation tensor once the game waited again."""

    __slots__ = ("texts", "rows", "marks", "depth")

    def __init__(self, nplayers: int, depth: int):
        self.texts: list[list[str]] = [[] for _ in range(nplayers)]
        self.rows: list[list[np.ndarray]] = [[] for _ in range(nplayers)]
        self.marks: list[np.ndarray | None] = [None] * nplayers
        self.depth = depth

    def clone(self) -> Recall:
        c = Recall.__new__(Recall)
        c.texts = [t[:] for t in self.texts]
        c.rows = [t[:] for t in self.rows]  # the arrays are never changed: shared
        c.marks = self.marks[:]
        c.depth = self.depth
        return c

    def decided(self, game: GameState, option: int, action_id: int, space_size: int) -> None:
        """Before the decision's answer is applied: the decision as each seat sees it."""
        st = game.st
        d = st.pending
        n = st.g.nplayers
        who = seen.decision_seers(st, d, d.values[option])
        label = engine.decision_labels(st)[option]
        for p in range(n):
            sees = who is seen.EVERYONE or p in who
            self.texts[p].append(
                f"P{d.player + 1}: {label}" if sees else f"P{d.player + 1} decides"
            )
            if self.depth:
                mark = np.zeros(n + 2, np.float32)
                mark[(d.player - p) % n] = 1.0
                mark[n] = 1.0  # the step began with a decision
                mark[n + 1] = (action_id + 1) / space_size if sees else 0.0
                self.marks[p] = mark

    def observed(self, n: int, text, tensor) -> None:
        """The game waits for a decision again (or is over): each seat's view then."""
        for p in range(n):
            self.texts[p].append(text(p))
            if self.depth:
                mark = self.marks[p]
                mark = np.zeros(n + 2, np.float32) if mark is None else mark
                self.marks[p] = None
                rows = self.rows[p]
                rows.append(np.concatenate([mark, tensor(p)]))
                if len(rows) > self.depth:
                    del rows[0]

    def text(self, p: int) -> str:
        return f"P{p + 1}\n" + "\n".join(self.texts[p])

    def tensor(self, p: int, out: np.ndarray) -> None:
        """The last `depth` rows of seat p, the latest first, zeros beyond the game's start."""
        out[:] = 0.0
        rows = self.rows[p]
        if not rows:
            return
        width = len(rows[0])
        for k, row in enumerate(reversed(rows)):
            out[k * width : (k + 1) * width] = row

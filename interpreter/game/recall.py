"""What each seat has seen so far, in order: perfect-recall information states for solvers.

A seat's information state is the sequence of its observations and of the decisions it saw
being taken: its own choices, and the others' as far as it may see them (runtime/seen.py: a
card picked from a hidden hand is "P2 decides"). Two histories a seat cannot tell apart give
the same sequence; two it can tell apart never do, even when they end in the same view (the
current observation alone merges them). The record grows by one entry per decision: the
decision as each seat saw it, then each seat's observation once the game waits again (after
the chance nodes between, whose outcomes a seat knows only through what it then sees).

Texts are written as the game goes; tensors are made only when asked, from the states kept
for the last `depth` steps (a state of an explicit-chance game is never changed once the
game moves on, so keeping it costs nothing).

A resampled state (OpenSpiel's `resample_from_infostate` for seat p) is another history p
cannot tell from the real one, so every seat's recall in it is made from p's alone
(`resampled`): p's is the real one; another seat's past is what p saw of it (p's texts, and for
tensors, p's samples of the kept states, each decision's action as p saw it), then that seat's
view of the sample. Nothing of the other seats' real recall is read.
"""

from __future__ import annotations

import random

import numpy as np

from ..runtime import seen
from . import optionlabels
from .api import GameState


class Recall:
    """Per seat, the text of each decision and observation seen; for the last `depth` steps,
    the decision that began the step (who, the action id, who saw it) and the state after."""

    __slots__ = ("texts", "steps", "depth", "_decision")

    def __init__(self, nplayers: int, depth: int):
        self.texts: list[list[str]] = [[] for _ in range(nplayers)]
        self.steps: list[tuple] = []  # (decider, action id, seers or None, state)
        self.depth = depth
        self._decision: tuple = (-1, -1, None)

    def clone(self) -> Recall:
        c = Recall.__new__(Recall)
        c.texts = [t[:] for t in self.texts]
        c.steps = self.steps[:]  # the states kept are never changed: shared
        c.depth = self.depth
        c._decision = self._decision
        return c

    def __deepcopy__(self, memo) -> Recall:
        return self.clone()

    def __getstate__(self) -> dict:
        """Pickled (OpenSpiel serialises a state's attributes) with each kept state as its
        save: a state holds the compiled ruleset, which does not pickle."""
        steps = [(*step[:3], GameState(step[3]).to_json(), *step[4:]) for step in self.steps]
        return {"texts": self.texts, "steps": steps, "depth": self.depth, "d": self._decision}

    def __setstate__(self, data: dict) -> None:
        self.texts, self.depth, self._decision = data["texts"], data["depth"], data["d"]
        self.steps = [
            (*step[:3], GameState.from_json(step[3]).st, *(tuple(x) for x in step[4:]))
            for step in data["steps"]
        ]

    def resampled(self, view: int, game: GameState, text, seed: int) -> Recall:
        """This recall as it would read in `game`, a sample of the real state for seat `view`
        (see the module doc); `text(p)`: seat p's view of `game`, `seed`: the sample's."""
        c = self.clone()
        mine = self.texts[view]
        note = f"(sampled for P{view + 1}: the past as P{view + 1} saw it)"
        for p in range(len(c.texts)):
            if p != view:
                c.texts[p] = [note, *mine, text(p)]
        c.steps = [
            (d, a, w if w is None or view in w else frozenset(), st, (view, seed + k))
            for k, (d, a, w, st, *_) in enumerate(self.steps)
        ]
        return c

    def decided(self, game: GameState, option: int, action_id: int) -> None:
        """Before the decision's answer is applied: the decision as each seat sees it."""
        st = game.st
        d = st.pending
        who = seen.decision_seers(st, d, d.values[option])
        label = optionlabels.decision_labels(st)[option]
        for p, texts in enumerate(self.texts):
            sees = who is seen.EVERYONE or p in who
            texts.append(f"P{d.player + 1}: {label}" if sees else f"P{d.player + 1} decides")
        self._decision = (d.player, action_id, None if who is seen.EVERYONE else who)

    def observed(self, game: GameState, text) -> None:
        """The game waits for a decision again (or is over): each seat's view then."""
        for p, texts in enumerate(self.texts):
            texts.append(text(p))
        if self.depth:
            st = game.st if game.chance == "explicit" else game.st.clone()
            self.steps.append((*self._decision, st))
            if len(self.steps) > self.depth:
                del self.steps[0]
        self._decision = (-1, -1, None)

    def text(self, p: int) -> str:
        return f"P{p + 1}\n" + "\n".join(self.texts[p])

    def tensor(self, p: int, out: np.ndarray, space_size: int) -> None:
        """The last `depth` steps as seat p saw them, the latest first, zeros before the
        game's start. A step's row: who decided (one-hot, relative to p), whether a decision
        began it, the action id (divided by the number of ids) when p saw it, then p's observation tensor."""
        out[:] = 0.0
        k = 0
        for decider, action_id, who, st, *sampled in reversed(self.steps):
            game = GameState(st)
            if sampled and sampled[0][0] != p:  # a resampled past: p's as its viewer saw it
                view, seed = sampled[0]
                game = game.determinize(view, random.Random(seed))
            obs = game.observation_tensor(p).reshape(-1)
            n = st.g.nplayers
            width = n + 2 + len(obs)
            row = out[k * width : (k + 1) * width]
            if decider >= 0:
                row[(decider - p) % n] = 1.0
                row[n] = 1.0
                if who is None or p in who:
                    row[n + 1] = (action_id + 1) / space_size
            row[n + 2 :] = obs
            k += 1

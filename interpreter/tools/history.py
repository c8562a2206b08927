"""A replayed game's states, one per decision, kept small: a copy of the game every `every`
decisions and the choices between them; a state in between is re-played when asked for.

`madang serve` holds several replays of thousands of decisions each; a full copy per decision
(about 10-20 kB each) would let a few uploads fill the server's memory.
"""

from __future__ import annotations

from ..game.api import GameState


class History:
    """Behaves as the list of states of a replay: `len`, `h[i]` (negative too), `h[-1]`."""

    def __init__(self, start: GameState, every: int = 25) -> None:
        self.every = every
        self.checkpoints = [start.clone()]
        self.choices: list[int] = []
        self._last: tuple[int, GameState] | None = None  # the state asked for last, re-used

    def append_move(self, game: GameState, choice: int) -> None:
        """Record that `choice` was taken; `game` is the state after it."""
        self.choices.append(choice)
        if len(self.choices) % self.every == 0:
            self.checkpoints.append(game.clone())

    def __len__(self) -> int:
        return len(self.choices) + 1

    def __getitem__(self, step: int) -> GameState:
        n = len(self)
        if step < 0:
            step += n
        if not 0 <= step < n:
            raise IndexError(step)
        base = step - step % self.every
        last = self._last
        if last is not None and base <= last[0] <= step:
            at, game = last[0], last[1].clone()
        else:
            at, game = base, self.checkpoints[base // self.every].clone()
        for k in self.choices[at:step]:
            game.apply_action(k)
        self._last = (step, game)
        return game

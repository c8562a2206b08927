"""A player's observation as a fixed-shape array of numbers, for learning code.

The same visibility as `GameState.observation`: a zone the player may see gives how many of each
card definition it holds; any zone gives its size. Per-player zones and counters are rotated so
that the observer's own come first, so one network can play every seat. The layout, in order:

- zones: for each zone instance, `cards + 1` numbers (count of each card definition if visible,
  else zeros; then the zone's size);
- numeric properties declared in `ruleset.yaml` (`observation: {properties: [...]}`): for each
  zone instance and each property, the sum over its visible objects;
- global counters, per-player counters (rotated), per-area counters, in name order (a counter
  declared `in LOW..HIGH` has those bounds in `bounds()`);
- the seat to act and the seat whose turn it is, one-hot relative to the observer; the round.

Values that are not numbers (texts, lists, none) count as 0.
"""

from __future__ import annotations

import numpy as np

from ..runtime.budget import MAX_NUMBER
from ..runtime.state import State

NUMBER_LIMIT = float(MAX_NUMBER)  # the largest number a game may hold


class ObservationEncoder:
    """The layout of one program's observation tensor for a number of players."""

    def __init__(self, prog, nplayers: int, zone_info: list[tuple[str, int]], areas: int):
        self.prog = prog
        self.nplayers = nplayers
        self.ncards = len(prog.cards)
        self.zone_info = list(zone_info)
        self.areas = areas
        spec = (prog.meta.get("observation") or {}) if isinstance(prog.meta, dict) else {}
        self.properties = [str(p) for p in spec.get("properties") or []]
        self.global_counters = sorted(n for n, c in prog.counters.items() if c.scope == "global")
        self.player_counters = sorted(n for n, c in prog.counters.items() if c.scope == "player")
        self.area_counters = sorted(n for n, c in prog.counters.items() if c.scope == "area")
        nz = len(self.zone_info)
        self.size = (
            nz * (self.ncards + 1)
            + nz * len(self.properties)
            + len(self.global_counters)
            + len(self.player_counters) * nplayers
            + len(self.area_counters) * areas
            + 2 * nplayers
            + 1
        )

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every entry, finite: counts, sizes and the round are at least 0, the
        one-hots 0 or 1, a counter declared `in LOW..HIGH` within its range (the engine holds
        every write to it), and every other number within the language's ±2^62
        (runtime/budget.py)."""
        nz = len(self.zone_info)
        low = np.full(self.size, -NUMBER_LIMIT, np.float32)
        high = np.full(self.size, NUMBER_LIMIT, np.float32)
        low[: nz * (self.ncards + 1)] = 0.0  # counts and sizes
        i = nz * (self.ncards + 1) + nz * len(self.properties)
        for names, each in (
            (self.global_counters, 1),
            (self.player_counters, self.nplayers),
            (self.area_counters, self.areas),
        ):
            for name in names:
                c = self.prog.counters[name]
                if c.low is not None:
                    low[i : i + each] = c.low
                if c.high is not None:
                    high[i : i + each] = c.high
                i += each
        onehots = self.size - 2 * self.nplayers - 1
        low[onehots:] = 0.0
        high[onehots : self.size - 1] = 1.0
        return low, high

    def _order(self, player: int) -> list[int]:
        """Zone instances with per-player ones rotated to start at the observer."""
        out = []
        for z, (name, owner) in enumerate(self.zone_info):
            if owner >= 0 and self.prog.zones[name].scope == "player":
                base = z - owner
                out.append(base + (owner + player) % self.nplayers)
            else:
                out.append(z)
        return out

    def encode(self, st: State, player: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        prog, n = self.prog, self.nplayers
        visible = []
        i = 0
        for z in self._order(player):
            name, owner = self.zone_info[z]
            vis = prog.zones[name].visibility
            seen = vis == "public" or (vis == "owner" and owner == player)
            visible.append(seen)
            objs = st.zones[z]
            if seen:
                for o in objs:
                    out[i + st.obj_card[o]] += 1
            out[i + self.ncards] = len(objs)
            i += self.ncards + 1
        for z, seen in zip(self._order(player), visible):
            for prop in self.properties:
                if seen:
                    total = 0
                    for o in st.zones[z]:
                        v = _read(st, o, prop)
                        total += v
                    out[i] = total
                i += 1
        for name in self.global_counters:
            out[i] = _number(st.counters.get(name))
            i += 1
        for name in self.player_counters:
            values = st.pcounters.get(name) or [0] * n
            for k in range(n):
                out[i] = _number(values[(player + k) % n])
                i += 1
        for name in self.area_counters:
            values = st.acounters.get(name) or [0] * self.areas
            for a in range(self.areas):
                out[i] = _number(values[a] if a < len(values) else 0)
                i += 1
        if st.pending is not None and not st.over:
            out[i + (st.pending.player - player) % n] = 1
        i += n
        if isinstance(st.active, int) and st.active >= 0:
            out[i + (st.active - player) % n] = 1
        i += n
        out[i] = _number(st.round)
        return out


def _read(st: State, obj: int, prop: str) -> float:
    """The value in force (base plus modifiers), as `obj.prop` reads in the rules."""
    return _number(st.g.prog.read_prop(st, obj, prop))


def _number(v) -> float:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        return float(v)
    return 0.0

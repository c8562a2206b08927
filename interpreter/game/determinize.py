"""Sampling a state a player cannot tell from the real one (determinization), for search.

A seat sees public zones and its own `owner sees` zones; of every other zone it sees only how
many objects lie there. `determinize(st, seat, rng)` re-deals those unseen objects among the
unseen places: objects that look alike from outside (same owner, same kind: the same card back)
trade places at random; everything the seat sees stays put, and the random generator is
re-seeded, so future shuffles and dice are unknown too. The sample depends only on what the
seat may see and on `rng`: the same observation and the same `rng` give the same sample,
whatever the hidden cards really are.

Objects revealed to the seat (`reveal`) stay put while they stay where they were. Limits:
knowledge that is not in the state (a card seen earlier, then shuffled away) is not remembered;
kinds count as visible backs.
"""

from __future__ import annotations

import random

from ..runtime.seen import known_to
from ..runtime.state import MASK64, State


def hidden_slots(st: State, seat: int) -> dict[tuple, list[tuple[int, int]]]:
    """Where `seat` cannot see: (owner, kind) -> [(zone instance, index)], in a fixed order."""
    g = st.g
    prog = g.prog
    cards = prog.cards
    groups: dict[tuple, list[tuple[int, int]]] = {}
    for z, (name, owner) in enumerate(g.zone_info):
        vis = prog.zones[name].visibility
        if vis == "public" or (vis == "owner" and owner == seat):
            continue
        for i, o in enumerate(st.zones[z]):
            if st.shown and seat in known_to(st, o):
                continue  # revealed to this seat: it stays where it is
            key = (st.obj_owner[o], cards[st.obj_card[o]].kind)
            groups.setdefault(key, []).append((z, i))
    return groups


def determinize(st: State, seat: int, rng: random.Random) -> State:
    """A copy of `st` with what `seat` cannot see re-dealt at random (see the module doc)."""
    c = st.clone()
    groups = hidden_slots(c, seat)
    for key in sorted(groups, key=repr):
        slots = groups[key]
        if len(slots) < 2:
            continue
        objs = sorted((c.obj_card[c.zones[z][i]], c.zones[z][i]) for z, i in slots)
        order = [o for _, o in objs]
        rng.shuffle(order)
        for (z, i), o in zip(slots, order):
            c.zones[z][i] = o
            c.obj_zone[o] = z
    c.zmemo = None  # it placed objects itself (State.zone_kept)
    c.rng = rng.getrandbits(64) & MASK64
    return c


__all__ = ["determinize", "hidden_slots"]

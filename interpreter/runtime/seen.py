"""Who may see the objects a log entry names: the log is the full story, and each seat's
narration must show only what that seat may know (tools/narration.py reads these marks).

An entry that names objects some seat may not see gets `"seen": [...]`, one item per named
value (a decision's choice, an action's or event's arguments, a move's objects, a trigger's
source, a logged value): `null` when every seat may see it, else the list of seats that may.
Entries that name nothing secret get no mark, so public games log exactly as before.
"""

from __future__ import annotations

EVERYONE = None


def object_seers(st, o) -> frozenset[int] | None:
    """The seats that see object `o` where it is now (None: every seat)."""
    if not isinstance(o, int) or isinstance(o, bool) or not 0 <= o < len(st.obj_zone):
        return EVERYONE
    z = st.obj_zone[o]
    if z is None or z < 0:
        return EVERYONE
    there = zone_seers(st, z)
    if there is EVERYONE or not st.shown:
        return there
    return there | known_to(st, o)


def known_to(st, o: int) -> frozenset[int]:
    """The players `o` was revealed to since it last changed zones (`reveal`)."""
    if not st.shown:
        return frozenset()
    moves = st.obj_moves[o]
    return frozenset(s[1] for s in st.shown if s[0] == o and s[2] == moves)


# ---------------------------------------------------------------- what a seat remembers
# State.kept: (object, seat, moves, position known), for the agents' samples (game/determinize).
# A seat remembers an object it saw (where it lay, or revealed to it) going into a zone it does
# not see, for as long as it can follow it: the entry lasts while the object stays in that zone
# (its `moves` count), and says whether the seat also knows its place there. A seat follows the
# events every seat sees: a zone's count, and the place a rule puts an object (front or back).


def track_move(st, o: int, old: int, new: int, where: str) -> None:
    """Before `o` moves from zone `old` to `new` (`where`: front, back or at an index): what
    each seat remembers, updated from what it sees of the move alone."""
    kept = st.kept
    there = zone_seers(st, new)
    if not kept and (there is EVERYONE or old == new):
        return  # nothing remembered, nothing to remember
    before = object_seers(st, o) if old >= 0 else frozenset()
    ends = where != "at"
    out = []
    for e in kept:
        x, p, moves, pos = e
        z = st.obj_zone[x]
        if x == o:
            if old == new:  # moved within its zone: still there, its place unknown
                out.append((x, p, moves, pos and ends and (before is EVERYONE or p in before)))
            continue  # it leaves: kept below if the seat saw it leave
        if z == old and old != new:
            if before is EVERYONE or p in before:
                out.append(e)  # the seat saw which one left, and from where
            elif (there is EVERYONE or p in there) and st.obj_card[x] != st.obj_card[o]:
                # it sees which card left, not from where (nor which of two copies): an object
                # at an end stays there
                objs = st.zones[old]
                out.append((x, p, moves, pos and (objs[0] == x or objs[-1] == x)))
            # else: any object of that zone may have left: the seat forgets them all
        elif z == new:
            keep = ends and (old != new or before is EVERYONE or p in before)
            out.append(e if keep or not pos else (x, p, moves, False))
        else:
            out.append(e)
    if old != new and there is not EVERYONE:
        moves = st.obj_moves[o] + 1
        for p in range(st.g.nplayers) if before is EVERYONE else sorted(before):
            if p not in there:
                out.append((o, p, moves, ends))
    st.kept = tuple(out)


def track_removal(st, o: int, old: int) -> None:
    """Before `o` leaves the game from zone `old`: a seat that does not see which object left
    forgets what it remembered of that zone."""
    before = object_seers(st, o)
    st.kept = tuple(
        e
        for e in st.kept
        if e[0] != o and (st.obj_zone[e[0]] != old or before is EVERYONE or e[1] in before)
    )


def track_shuffle(st, z: int) -> None:
    """Zone `z` is shuffled: the seats still know what is in it, not where."""
    st.kept = tuple(e if st.obj_zone[e[0]] != z else (*e[:3], False) for e in st.kept)


def remembered(st, seat: int) -> dict[int, bool]:
    """The objects `seat` remembers where it does not see them: object -> its place known."""
    out = {}
    if st.kept:
        moves = st.obj_moves
        for o, p, m, pos in st.kept:
            if p == seat and moves[o] == m:
                out[o] = pos
    return out


def value_seers(st, v, t) -> frozenset[int] | None:
    """The seats that may see every object in value `v` of static type `t`."""
    if v is None or isinstance(v, bool):
        return EVERYONE
    if t == "object" or t == "card":
        return object_seers(st, v) if isinstance(v, int) else EVERYONE
    if t == "trigger" and isinstance(v, list | tuple) and len(v) > 1:
        return object_seers(st, v[1]) if v[1] is not None else EVERYONE
    if isinstance(v, list | tuple) and isinstance(t, tuple):
        out = EVERYONE
        for x in v:
            out = narrower(out, value_seers(st, x, t[1]))
        return out
    return EVERYONE


def action_seers(st, value) -> frozenset[int] | None:
    """A window's option `[action index, args, source]`: the seats that may see its arguments."""
    act = st.g.prog.actions[value[0]]
    out = EVERYONE
    for a, t in zip(value[1], act.param_types):
        out = narrower(out, value_seers(st, a, t))
    return out


def narrower(a, b):
    """Both known: the seats that see a and b."""
    if a is EVERYONE:
        return b
    if b is EVERYONE:
        return a
    return a & b


def wider(a, b):
    """Either known (a move: seen where it was or where it goes)."""
    if a is EVERYONE or b is EVERYONE:
        return EVERYONE
    return a | b


def mark(entry: dict, seers: list) -> dict:
    """Adds `seen` to `entry` when some named value is not seen by everyone."""
    if any(s is not EVERYONE for s in seers):
        entry["seen"] = [None if s is EVERYONE else sorted(s) for s in seers]
    return entry


def zone_seers(st, z: int) -> frozenset[int] | None:
    """The seats that see the contents of zone instance `z` (fixed for a game: found once)."""
    seen = st.g.zone_seen
    if seen is None:
        g = st.g
        seen = g.zone_seen = [_zone_seers(g, k) for k in range(len(g.zone_info))]
    return seen[z]


def _zone_seers(g, z: int) -> frozenset[int] | None:
    name, owner = g.zone_info[z]
    vis = g.prog.zones[name].visibility
    if vis == "public":
        return EVERYONE
    if vis == "owner" and owner >= 0 and g.prog.zones[name].scope == "player":
        return frozenset((owner,))
    return frozenset()


def origin(st, what) -> list:
    """Before a move: who sees each moving object where it is now."""
    objs = what if isinstance(what, list) else [what]
    return [object_seers(st, o) for o in objs]


def moved(st, entry: dict, objs: list, z: int, was: list | None) -> dict:
    """A move's entry, marked: an object is known to those who saw it before or see it now."""
    there = zone_seers(st, z)
    before = was if was is not None and len(was) == len(objs) else [EVERYONE] * len(objs)
    return mark(entry, [wider(b, there) for b in before])


def decision_seers(st, d, value) -> frozenset[int] | None:
    """Who may see what a decision's chosen value names (the decider always may)."""
    if d.kind == "window":
        out = EVERYONE if isinstance(value, str) else action_seers(st, value)
    elif isinstance(value, list) and not isinstance(d.type, tuple) and d.type != "trigger":
        out = EVERYONE
        for x in value:
            out = narrower(out, value_seers(st, x, d.type))
    else:
        out = value_seers(st, value, d.type)
    if out is EVERYONE and _names_cards(st, value):
        out = frozenset()  # a card picked by name (building a hand) is the picker's secret
    return out if out is EVERYONE else out | {d.player}


def _names_cards(st, value) -> bool:
    """Whether a chosen value is a card's name (or a list of them), not an object."""
    names = st.g.prog.card_index
    if isinstance(value, str):
        return value in names
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(x, str) and x in names for x in value)
    )


def prompt_seers(st, prompt: str, decider: int) -> frozenset[int] | None:
    """Who may read a decision's prompt: one that names a card some seat may not see (an
    optional response offered by a card in hand) is kept from that seat."""
    if not prompt:
        return EVERYONE
    out = EVERYONE
    cards = st.g.prog.cards
    for z, zone in enumerate(st.zones):
        if not zone:
            continue
        who = zone_seers(st, z)
        if who is EVERYONE:
            continue
        for o in zone:
            if cards[st.obj_card[o]].name in prompt:
                out = narrower(out, who)
    return out if out is EVERYONE else out | {decider}


__all__ = [
    "object_seers",
    "value_seers",
    "action_seers",
    "decision_seers",
    "mark",
    "moved",
    "origin",
    "zone_seers",
    "prompt_seers",
    "track_move",
    "track_removal",
    "track_shuffle",
    "remembered",
]

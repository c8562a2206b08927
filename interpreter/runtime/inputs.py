"""The parts of a state that an expression reads, found from build/depends.py's read tokens, as
values to compare: a state check found false on one state is false on any state equal in those
parts (engine.run_checks). Kept per game (`Game.kept_points`), never in the state: saves,
clones and digests do not see them (issue #34, step 4)."""

from __future__ import annotations

import weakref
from operator import attrgetter, itemgetter

_LISTS = {"grants": "grants", "lki": "lki", "lost": "lost", "owner": "obj_owner"}


def reader(g, toks, cards: bool = True, compiled: bool = True):
    """A function giving the parts of a state of game `g` other than its zones that tokens
    `toks` name, as a list of the state's own values (`point` copies them): the objects' cards
    (an object's kind) unless `cards` is false, then the lists, scope, properties and counters
    named. None when they may read something these parts do not hold (`*`, the effect in
    progress, a token not known).

    The cards may be left out when the zones read are known and marked (`State.zdirty`): an
    object's card is set when it is made in a zone (a change of that zone) and changed only
    on a copy of the state made to be searched (game/determinize.py), whose points are its
    own.

    `compiled`: one function reading every part in one list display (no call per part: a
    kept check's parts are read at most of its due check points, issue #34); else the same
    parts read one by one (the tests compare the two)."""
    if toks is None:
        return None
    prog = g.prog
    slots = prog.prop_slots or {}
    lists = ["obj_card"] if cards else []  # lists of the state
    scope = False
    rows: list[int] = []  # laid out properties (State.pv): a row holds what `props` says
    props: list[str] = []  # other properties: what statements wrote (else the cards')
    counters: list[tuple[str, str]] = []  # (the state's table, the counter's name)
    sums = sorted(t[3:] for t in toks if t.startswith("kt:"))  # kept totals compared
    kt = "kt" in toks and not sums  # else by the number of their making (`kept_totals`)
    for t in sorted(toks):
        kind, _, name = t.partition(":")
        if t == "kt" or kind == "kt":  # the kept totals of continuous modifiers: below
            pass
        elif t in _LISTS:
            lists.append(_LISTS[t])
        elif t == "zones":  # compared on their own (`same`)
            pass
        elif t == "scope":
            scope = True
        elif kind == "mods" and name:
            if "mods" not in lists:
                lists.append("mods")
        elif kind == "counter" and name:
            c = prog.counters.get(name)
            tables = [_TABLES[c.scope]] if c is not None and c.scope in _TABLES else _ALL
            counters += [(table, name) for table in tables]
        elif kind == "prop" and name:
            if name in slots:
                rows.append(slots[name])
            else:
                props.append(name)
        else:
            return None
    if scope:  # (what the names of depends.NAME_READS read: no name reads the phase)
        lists += ["active", "first", "direction", "turn", "round"]
    if compiled:  # (names from the rules only as string literals, slots as numbers)
        parts = [f"st.{a}" for a in lists] + [f"st.pv[{int(k)}]" for k in rows]
        parts += [f"(st.props.get({p!r}) or _EMPTY)" for p in props]
        parts += [f"st.{table}.get({c!r})" for table, c in counters]
        # (the kept totals as they are, found only when they are not: `kept_sums`)
        parts += [f"((st.kt or _kept_totals(st))[1].get({p!r}) or _sums(st, {p!r}))" for p in sums]
        if kt:
            parts.append("(st.kt or _kept_totals(st))[2]")
        env = {"_EMPTY": {}, "_kept_totals": kept_totals, "_sums": prog.kept_sums}
        env["__builtins__"] = {}
        return eval("lambda st: [" + ", ".join(parts) + "]", env)  # noqa: S307
    get = _getter(attrgetter, lists) if lists else lambda st: ()  # (a tuple, in one C call)
    rget = _getter(itemgetter, rows) if rows else None

    def read(st) -> list:
        out = [*get(st)]
        if rget is not None:
            out += rget(st.pv)
        for p in props:
            out.append(st.props.get(p) or {})
        for table, c in counters:  # (a player's or an area's counters: lists, copied by `point`)
            out.append(getattr(st, table).get(c))
        for p in sums:
            out.append(prog.kept_sums(st, p))
        if kt:
            out.append((st.kt or kept_totals(st))[2])
        return out

    return read


_TABLES = {"global": "counters", "player": "pcounters", "area": "acounters"}
_ALL = ["counters", "pcounters", "acounters"]


def kept_totals(st) -> list:
    """The state's kept totals of continuous modifiers (`State.kt`, effects.prop_reader), made
    empty if there are none: [the bits of the zone instances they read by name, {kept
    property: every object's totals}, a number new per game and making, the bits of the
    other active zones (where their sources are), the cards of their sources]: a move in or
    out of a zone of the first bits forgets them, and in or out of the others a move of one
    of those cards (engine's moves). A check that reads them is kept false while the totals
    of each property it reads are equal (token `kt:P`, `ContinuousEffects.kept_sums`), or
    else the number (token `kt`)."""
    kt = st.kt
    if kt is None:
        kept = st.g.kept_points
        masks = kept.get("kept_totals")
        if masks is None:
            masks = kept["kept_totals"] = _layout_masks(st.g)
        serial = kept["kept_serial"] = kept.get("kept_serial", 0) + 1
        kt = st.kt = [masks[0], {}, serial, masks[1], masks[2]]
    return kt


def _layout_masks(g) -> tuple:
    """`_kept_masks` of game `g`, made once per program and layout of zones."""
    return per_layout(_masks, g, _kept_masks)


def per_layout(table: weakref.WeakKeyDictionary, g, make):
    """`make(g)`, made once per program and layout of zones and kept in `table`: the games of
    one program and number of players share their `zone_info` (runtime/setup.py), so what is
    made from the program and the layout alone serves them all."""
    by_layout = table.get(g.prog)
    if by_layout is None:
        by_layout = table[g.prog] = {}
    got = by_layout.get(id(g.zone_info))
    if got is None or got[0] is not g.zone_info:
        if len(by_layout) > 16:  # (games laid out on their own: loaded, edited by tools)
            by_layout.clear()
        got = by_layout[id(g.zone_info)] = (g.zone_info, make(g))
    return got[1]


# By program (kept while it lives): by the id of a layout's `zone_info`, (it, its masks).
_masks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _kept_masks(g) -> tuple:
    """Per game: the bits of the zones kept totals read by name (`Program.kept_zones`; -1:
    any), those of the other active zones, and the cards whose objects are their sources
    there: those of the kept modifiers, and of continuous grants when they read keywords."""
    prog = g.prog
    zones = prog.kept_zones
    if zones is None:
        return -1, 0, frozenset()
    named = zone_mask(g, zones - {"@active"})
    active = zone_mask(g, frozenset({"@active"})) & ~named if "@active" in zones else 0
    cards = frozenset().union(*(prog.static_cards.get(p, ()) for p in prog.kept_props))
    if "grants" in prog.kept_reads:
        cards = cards.union(*(sa.card_set for sa in prog.statics_grant))
    return named, active, cards


def _getter(make, keys: list):
    """`make(*keys)` (an attrgetter or itemgetter), giving a tuple even for one key."""
    if len(keys) == 1:
        one = make(keys[0])
        return lambda x: (one(x),)
    return make(*keys)


def zone_mask(g, zones: frozenset) -> int:
    """The bits of the zone instances of game `g` named in `zones` (depends.check_zones;
    `@active`: the active zones), as `State.zdirty` marks them."""
    active = g.active_set if "@active" in zones else ()
    mask = 0
    for z, (name, _) in enumerate(g.zone_info):
        if name in zones or z in active:
            mask |= 1 << z
    return mask


def point(st, inputs: list, zmask: int | None = None) -> list:
    """What `inputs` (a reader's list) are now, kept as they are, with what says the zones
    are unchanged: without `zmask`, the state's memo of its zones (`State.zone_kept`: emptied
    by every change of a zone, never shared with another state; made here if there is none):
    [the memo, the inputs]; with it (the zones read are known), the state itself and the
    zones changed since, as engine.run_checks gathers them from `State.zdirty`: [the state,
    0, the inputs]."""
    # a reader's parts are lists and dictionaries of the state, or values nothing changes
    kept = [x[:] if type(x) is list else dict(x) if type(x) is dict else x for x in inputs]
    if zmask is not None:
        return [st, 0, kept]
    memo = st.zmemo
    if memo is None:
        memo = st.zmemo = {}
    return [memo, kept]


def same(st, pt: list, inputs: list, zmask: int | None = None) -> bool:
    """Whether `st` is the state of point `pt` with its zones unchanged since (the same memo;
    with `zmask`, none of those zones changed), and equal in what a reader reads."""
    if zmask is None:
        return pt[0] is st.zmemo and pt[1] == inputs
    return pt[0] is st and not pt[1] & zmask and pt[2] == inputs

"""The parts of a state that an expression reads, found from build/depends.py's read tokens, as
values to compare: a state check found false on one state is false on any state equal in those
parts (engine.run_checks). Kept per game (`Game.kept_points`), never in the state: saves,
clones and digests do not see them (issue #34, step 4)."""

from __future__ import annotations

from operator import attrgetter

_LISTS = {"grants": "grants", "lki": "lki", "lost": "lost", "owner": "obj_owner"}


def reader(prog, toks):
    """A function giving the parts of a state other than its zones that tokens `toks` name,
    as a list of the state's own values (`point` copies them): the objects' cards always (an
    object's kind), then the lists, scope, properties and counters named. None when they may
    read something these parts do not hold (`*`, the effect in progress, a token not known)."""
    if toks is None:
        return None
    slots = prog.prop_slots or {}
    lists = ["obj_card"]  # lists of the state
    scope = False
    rows: list[int] = []  # laid out properties (State.pv): a row holds what `props` says
    props: list[str] = []  # other properties: what statements wrote (else the cards')
    counters: list[str] = []
    for t in sorted(toks):
        kind, _, name = t.partition(":")
        if t in _LISTS:
            lists.append(_LISTS[t])
        elif t == "zones":  # compared on their own (`same`)
            pass
        elif t == "scope":  # what the names of depends.NAME_READS read (no name reads the phase)
            scope = True
        elif kind == "mods" and name:
            if "mods" not in lists:
                lists.append("mods")
        elif kind == "counter" and name:
            counters.append(name)
        elif kind == "prop" and name:
            if name in slots:
                rows.append(slots[name])
            else:
                props.append(name)
        else:
            return None
    get = attrgetter(*lists)
    one = len(lists) == 1

    def read(st) -> list:
        out = [get(st)] if one else list(get(st))
        if scope:
            out.append((st.active, st.first, st.direction, st.turn, st.round))
        pv = st.pv
        for k in rows:
            out.append(pv[k])
        for p in props:
            out.append(st.props.get(p) or {})
        for c in counters:  # (a player's or an area's counters: their values, as they are now)
            pc, ac = st.pcounters.get(c), st.acounters.get(c)
            out.append((st.counters.get(c), pc and tuple(pc), ac and tuple(ac)))
        return out

    return read


def point(st, inputs: list) -> list:
    """What `inputs` (a reader's list) are now, kept as they are, with the state's memo of its
    zones (`State.zone_kept`: emptied by every change of a zone, never shared with another
    state; made here if there is none): [the memo, the inputs]."""
    memo = st.zmemo
    if memo is None:
        memo = st.zmemo = {}
    # a reader's parts are lists and dictionaries of the state, or values nothing changes
    kept = [x[:] if type(x) is list else dict(x) if type(x) is dict else x for x in inputs]
    return [memo, kept]


def same(st, pt: list, inputs: list) -> bool:
    """Whether `st` is the state of point `pt`, its zones unchanged since (the same memo), and
    equal in what a reader reads."""
    return pt[0] is st.zmemo and pt[1] == inputs

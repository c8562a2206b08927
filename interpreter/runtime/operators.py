"""What generated code calls besides the built-ins: the language's operators on its values
(`+` on lists and texts, comparisons with none, `in` a zone, `x[i]`) and the properties every
object has (`x.owner`, `x.zone`, `x.position`, `x.name`). One library: the built-in functions
of the same meaning (`owner(x)`, `position(x)`) are these functions (runtime/builtins.py).
A property of none is none."""

from __future__ import annotations

from itertools import compress

from . import budget
from .engine import in_effect
from .errors import RulesError

MAX_NUMBER = budget.MAX_NUMBER


def _players(st):
    lost = st.lost
    if not lost:
        return list(range(st.g.nplayers))
    return [q for q in range(st.g.nplayers) if q not in lost]


def _first_opponent(st, p):
    """`first(opponents(p))` without the list: seat 0 unless `p` is 0 while nobody has lost
    (builtins._opponents: the seats other than `p` that have not lost, in order)."""
    if not st.lost:
        return 0 if p != 0 else (1 if st.g.nplayers > 1 else None)
    for q in range(st.g.nplayers):
        if q != p and q not in st.lost:
            return q
    return None


def _seq(st, v):
    s = v if isinstance(v, list) else st.zones[v] if isinstance(v, int) else []
    st.work += len(s)
    if st.work > st.work_limit:
        budget.charge(st, 0, "a list")
    return s


def _listed(st, v) -> list:
    """A value the checker knows as a list that may be a zone given for it (a definition's or
    verb's `list` parameter): a list, the zone's objects, or none as no objects. Nothing is
    charged (a property of each item: `l.p`)."""
    return v if isinstance(v, list) else st.zones[v] if isinstance(v, int) else []


def _each(st, s):
    """`_seq` for what the compiler knows is a list or range (a zone's contents, `adjacent`,
    a `where`): the same charge, without the type tests."""
    st.work += len(s)
    if st.work > st.work_limit:
        budget.charge(st, 0, "a list")
    return s


def _each_flat(st, zs):
    """`_each` of the objects of the zones `zs` (a slice of `st.zones`), charged by their
    number as the flattened list would be, for a comprehension that goes through each zone."""
    st.work += sum(map(len, zs))
    if st.work > st.work_limit:
        budget.charge(st, 0, "a list")
    return zs


def _times(st, n, where: str):
    if n > 0:
        budget.charge(st, n, where)
    return range(n)


def _too_deep(where: str):
    """A definition calling itself deeper than Python allows: an error of the rules (raised
    again by the callers above if there is no space left to raise it here)."""
    raise budget.OutOfBudget(
        f"{where}: definitions nested too deeply (a definition that calls itself without end?)"
    )


def _mul(x, y):
    """`x * y`, a number of sensible size (`budget.number`, its test written out: one call)."""
    v = x * y
    if v.__class__ is int and -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    return budget.number(v)


def _plus(st, x, y, where="+"):
    """`+` on lists and texts: a value built is charged by its size, so that doubling a text
    or a list ends in a budget error long before memory runs out."""
    if isinstance(x, list) or isinstance(y, list):
        v = (x if isinstance(x, list) else [x]) + (y if isinstance(y, list) else [y])
    elif isinstance(x, str) or isinstance(y, str):
        v = f"{x}{y}"
    else:
        return x + y
    if st is not None:
        st.work += len(v)
        if st.work > st.work_limit:
            budget.charge(st, 0, f"{where}: a text or list joined with '+'")
    return v


def _join(st, x: list, y: list, where: str) -> list:
    """`_plus` of two values the compiler knows are lists (no type tests): the same list and
    charge."""
    v = x + y
    st.work += len(v)
    if st.work > st.work_limit:
        budget.charge(st, 0, f"{where}: a text or list joined with '+'")
    return v


def _div(x, y, span):
    if y == 0:
        raise RulesError(f"{span}: division by zero")
    return x // y


def _mod(x, y, span):
    if y == 0:
        raise RulesError(f"{span}: division by zero")
    return x % y


def _lt(x, y):
    return x is not None and y is not None and x < y


def _le(x, y):
    return x is not None and y is not None and x <= y


def _gt(x, y):
    return x is not None and y is not None and x > y


def _ge(x, y):
    return x is not None and y is not None and x >= y


def _contains(st, x, c):
    if isinstance(c, (list, dict)):
        return x in c
    return x is not None and c is not None and st.obj_zone[x] == c


def _in_seat_zones(st, x, names):
    """`x in flatten(players.A + players.B ...)` without the list of objects: an object (an
    int naming one, the only values equal to one) is in it when its zone is one of those
    zones of a seat not lost, since each object is in the contents of its zone alone; any
    other value (none) is compared with the list made."""
    zones = st.obj_zone
    g = st.g
    if type(x) is int and 0 <= x < len(zones):
        z = zones[x]
        if z is None:
            return False
        for name in names:
            d = z - g.zone_base[name]
            if 0 <= d < g.nplayers:
                return d not in st.lost
        return False
    seats = _players(st)
    return x in [o for name in names for q in seats for o in st.zones[g.zone_base[name] + q]]


def _index(st, v, i):
    if isinstance(v, list):
        return v[i] if isinstance(i, int) and -len(v) <= i < len(v) else None
    if isinstance(v, dict):
        return v.get(i if not isinstance(i, int) or i in v else str(i))
    if isinstance(v, int) and st is not None:
        z = st.zones[v]
        return z[i] if 0 <= i < len(z) else None
    return None


def _dget(st, v, name):
    if isinstance(v, dict):
        return v.get(name)
    if isinstance(v, int) and st is not None and st.g.area_props:
        return st.g.area_props[v].get(name)
    return None


def _fact(st, a, name):
    return None if a is None else st.g.area_props[a].get(name)


def _owner(st, o):
    return None if o is None else st.obj_owner[o]


def _zone_of(st, o):
    return None if o is None else st.obj_zone[o]


class _NoCard:
    """What `x.name` and `x.kind` read when `x` is none: none, as every other property of it."""

    name = kind = None


def _card_of(st, o):
    return _NoCard if o is None else st.g.prog.cards[st.obj_card[o]]


def _position(st, o):
    if o is None:
        return None
    z = st.obj_zone[o]
    return st.zones[z].index(o) if z >= 0 else -1


HELPERS = {
    "_players": _players, "_first_opponent": _first_opponent, "_in_seat_zones": _in_seat_zones, "_seq": _seq, "_each": _each, "_each_flat": _each_flat, "_listed": _listed, "_plus": _plus, "_join": _join, "_div": _div, "_mod": _mod,
    "_lt": _lt, "_le": _le, "_gt": _gt, "_ge": _ge, "_contains": _contains, "_index": _index,
    "_dget": _dget, "_owner": _owner, "_zone_of": _zone_of, "_position": _position, "_card_of": _card_of,
    "_fact": _fact, "_times": _times, "_mul": _mul, "_compress": compress,
    "_charge": budget.charge, "_charges": budget.charges, "_OutOfBudget": budget.OutOfBudget, "_in_effect": in_effect, "_too_deep": _too_deep,
}  # fmt: skip

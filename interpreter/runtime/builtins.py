"""The core library's implementations: the built-in functions, the same for every ruleset.

Their names, arity and types are the checker's (language/signatures.py). Each function takes the game state first. Values are plain data: players, objects, zones and
areas are integers (their type is known statically), keywords and card names are strings.
"""

from __future__ import annotations

from collections.abc import Callable

from . import budget
from .errors import RulesError
from .operators import _card_of, _owner, _position, _zone_of


def _items(st, v) -> list:
    """Lists stay lists; a zone (an int in a zone position) is read as its contents."""
    return v if isinstance(v, list) else st.zones[v]


def _count(st, v, none_error: str = "count(none)"):
    """The items of a list, or the objects of a zone; none is the rules' error `none_error`
    (the compiler gives the place and what was none)."""
    if isinstance(v, list):
        return len(v)
    if v is None:
        raise RulesError(none_error)
    return len(st.zones[v])


def _sum(st, v):
    return sum(v)


def _max(st, *a):
    if len(a) == 2:  # `max(x, 0)` of two numbers: no list made (a hot built-in)
        x, y = a
        if x.__class__ is int and y.__class__ is int:
            return x if x >= y else y
    elif len(a) == 1 and a[0].__class__ is list and None not in a[0]:  # nothing to drop
        return max(a[0]) if a[0] else 0
    v = _numbers(st, a)
    return max(v) if v else 0


def _min(st, *a):
    if len(a) == 2:  # as `_max`
        x, y = a
        if x.__class__ is int and y.__class__ is int:
            return x if x <= y else y
    elif len(a) == 1 and a[0].__class__ is list and None not in a[0]:  # as `_max`
        return min(a[0]) if a[0] else 0
    v = _numbers(st, a)
    return min(v) if v else 0


def _numbers(st, a) -> list:
    """The arguments of max/min (one list, or several values) without `none`s: no value."""
    v = a[0] if len(a) == 1 else list(a)
    if v is None or isinstance(v, int):
        v = [] if v is None else [v]
    return [x for x in _items(st, v) if x is not None]


def _first(st, v, k=None):
    v = v if isinstance(v, list) else st.zones[v]  # _items, written out: a hot built-in
    if k is not None:
        return v[:k]
    return v[0] if v else None


def _last(st, v, k=None):
    v = v if isinstance(v, list) else st.zones[v]  # _items, written out
    if k is not None:
        return v[-k:] if k > 0 else []
    return v[-1] if v else None


def _at(st, v, i):
    v = v if isinstance(v, list) else st.zones[v]  # _items, written out: a hot built-in
    return v[i] if 0 <= i < len(v) else None


def _behind(st, o):
    if o is None:
        raise RulesError("behind() of none")
    z = st.zones[st.obj_zone[o]]
    i = z.index(o) + 1
    return z[i] if i < len(z) else None


def _ahead(st, o):
    if o is None:
        raise RulesError("ahead() of none")
    z = st.zones[st.obj_zone[o]]
    i = z.index(o) - 1
    return z[i] if i >= 0 else None


def _neighbours(st, o):
    if o is None:
        raise RulesError("neighbours() of none")
    z = st.zones[st.obj_zone[o]]
    i = z.index(o)
    return [z[j] for j in (i - 1, i + 1) if 0 <= j < len(z)]


def _opponents(st, p):
    if st.lost:
        return [q for q in range(st.g.nplayers) if q != p and q not in st.lost]
    n = st.g.nplayers  # no player has left (a hot built-in: no test of each against them)
    if n == 2 and (p == 0 or p == 1) and p.__class__ is int:
        return [1 - p]
    return [q for q in range(n) if q != p]


def _next_player(st, p):
    n = st.g.nplayers
    if not st.lost:  # the first one along is playing (a hot built-in)
        return (p + st.direction) % n
    for k in range(1, n + 1):
        q = (p + k * st.direction) % n
        if q not in st.lost:
            return q
    return p


def _random(st, v):
    v = _items(st, v)
    return v[st.rand_below(len(v))] if v else None


def _roll(st, count, sides=6):
    budget.charge(st, max(count, 0), "roll")
    return [st.rand_below(sides) + 1 for _ in range(max(count, 0))]


def _shuffled(st, v):
    v = list(_items(st, v))
    budget.charge(st, len(v), "shuffled")
    st.shuffle(v)
    return v


def _reversed(st, v):
    return list(reversed(_items(st, v)))


def _range(st, a, b=None):
    w = st.work + max((b - a) if b is not None else a, 0)  # `budget.charge` written out
    st.work = w
    if w > st.work_limit:
        budget.charge(st, 0, "range")
    return list(range(a, b)) if b is not None else list(range(a))


def _index_of(st, v, x):
    v = v if isinstance(v, list) else st.zones[v]  # _items, written out
    return v.index(x) if x in v else -1


def _take(st, v, k):
    return list(_items(st, v)[: max(k, 0)])


def _drop(st, v, k):
    return list(_items(st, v)[max(k, 0) :])


def _contents(st, z):
    return list(st.zones[z])


def _flatten(st, v):
    budget.charge(st, len(v), "flatten")
    out = []
    for x in v:
        if isinstance(x, list):
            out.extend(x)
        elif isinstance(x, int):
            out.extend(st.zones[x])
    return out


def _card_name(st, o):
    return _card_of(st, o).name


def _exists(st, v):
    return v is not None


def _abs(st, v):
    return abs(v)


def _any(st, v):
    return bool(v) and any(v)


def _all(st, v):
    return all(v)


def _adjacent(st, a):
    return list(st.g.adjacency[a])


def _area_named(st, name):
    return st.g.area_index.get(name)


def _sorted_by(st, v, key_values):
    """`v` in the order of its keys, equal keys in `v`'s order; charged by the length, written
    out (`budget.charge` only to raise)."""
    n = len(v)
    w = st.work + n
    st.work = w
    if w > st.work_limit:
        budget.charge(st, 0, "sorted")
    if n < 2 and key_values.__class__ is list:  # nothing to compare (a list of one item)
        return list(v) if key_values else []  # (zip's length: the shorter list's)
    pairs = sorted(zip(key_values, range(n)))
    return [v[i] for _, i in pairs]


def _unique(st, v):
    """The items of `v` without repeats, in the order first met; charged by the length,
    written out (`budget.charge` only to raise)."""
    n = len(v)
    w = st.work + n
    st.work = w
    if w > st.work_limit:
        budget.charge(st, 0, "unique")
    if n < 2:  # nothing to repeat (most lists of names per area)
        return list(v)
    seen, out = set(), []
    for x in v:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def _keyword_arg(st, o, kw, i=0):
    if o is None:
        return None
    args = st.g.prog.keyword_args(st, o, kw)
    return args[i] if args and i < len(args) else None


def _keyword_values(st, o, kw, i=0):
    if o is None:
        return []
    return [a[i] if i < len(a) else None for a in st.g.prog.keyword_instances(st, o, kw)]


def _from_zone(st, o):
    if o is None:
        return None
    z = st.obj_from[o]
    return None if z < 0 else z


def _matches(st, o, cond):
    """Whether `o` meets a condition argument: `it` is `o`; `this` and `you` are the object that
    has the keyword (read off it by `keyword_arg`, effects.carried) and its owner."""
    if o is None or not (isinstance(cond, list) and len(cond) in (2, 3) and cond[0] == "cond"):
        return False
    env = {"it": o}
    if len(cond) == 3 and cond[2] is not None:
        env["this"], env["you"] = cond[2], st.obj_owner[cond[2]]
    return bool(st.g.prog.conditions[cond[1]](st, env))


def _ceil_div(st, a, b):
    return -((-a) // b)


def _zone_area(st, z):
    if z is None or z < 0:
        return None
    name, k = st.g.zone_info[z]
    return k if st.g.prog.zones[name].scope == "area" else None


def _objects(st, v):
    return list(_items(st, v)) if v is not None else []


def _fail(st, message):
    raise RulesError(str(message))


# The implementations of the built-in functions; their signatures are language/signatures.py.
BUILTIN_FUNCS: dict[str, Callable] = {
    "count": _count,
    "sum": _sum,
    "max": _max,
    "min": _min,
    "first": _first,
    "last": _last,
    "nth": _at,
    "position": _position,
    "behind": _behind,
    "ahead": _ahead,
    "neighbours": _neighbours,
    "opponents": _opponents,
    "next_player": _next_player,
    "random": _random,
    "roll": _roll,
    "shuffled": _shuffled,
    "reversed": _reversed,
    "range": _range,
    "index_of": _index_of,
    "take": _take,
    "drop": _drop,
    "contents": _contents,
    "flatten": _flatten,
    "card_name": _card_name,
    "exists": _exists,
    "abs": _abs,
    "any": _any,
    "all": _all,
    "zone_of": _zone_of,
    "owner": _owner,
    "from_zone": _from_zone,
    "adjacent": _adjacent,
    "area": _area_named,
    "sorted_by": _sorted_by,
    "unique": _unique,
    "keyword_arg": _keyword_arg,
    "keyword_values": _keyword_values,
    "matches": _matches,
    "ceil_div": _ceil_div,
    "zone_area": _zone_area,
    "fail": _fail,
    "objects": _objects,
}

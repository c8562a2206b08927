"""The core library: built-in names, functions and attributes, the same for every ruleset.

Each function takes the game state first. Values are plain data: players, objects, zones and
areas are integers (their type is known statically), keywords and card names are strings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..language.symbols import (
    ANY,
    AREA,
    BOOL,
    NUMBER,
    OBJECT,
    PLAYER,
    TEXT,
    ZONE,
    elem_type,
    list_of,
)
from . import budget
from .errors import RulesError


@dataclass(frozen=True)
class Builtin:
    fn: Callable
    min_args: int
    max_args: int
    returns: object  # a type, or a function of the argument types
    doc: str


def _items(st, v) -> list:
    """Lists stay lists; a zone (an int in a zone position) is read as its contents."""
    return v if isinstance(v, list) else st.zones[v]


def _elem(ts):
    return elem_type(ts[0]) if ts else ANY


def _same(ts):
    return ts[0] if ts else ANY


def _some(ts):
    """`first(l, k)` / `last(l, k)`: a list like l (of a zone: of its objects)."""
    return list_of(OBJECT) if ts[0] == ZONE else ts[0]


def _count(st, v):
    return len(v) if isinstance(v, list) else len(st.zones[v])


def _sum(st, v):
    return sum(v)


def _max(st, *a):
    v = _numbers(st, a)
    return max(v) if v else 0


def _min(st, *a):
    v = _numbers(st, a)
    return min(v) if v else 0


def _numbers(st, a) -> list:
    """The arguments of max/min (one list, or several values) without `none`s: no value."""
    v = a[0] if len(a) == 1 else list(a)
    if v is None or isinstance(v, int):
        v = [] if v is None else [v]
    return [x for x in _items(st, v) if x is not None]


def _first(st, v, k=None):
    v = _items(st, v)
    if k is not None:
        return v[:k]
    return v[0] if v else None


def _last(st, v, k=None):
    v = _items(st, v)
    if k is not None:
        return v[-k:] if k > 0 else []
    return v[-1] if v else None


def _at(st, v, i):
    v = _items(st, v)
    return v[i] if 0 <= i < len(v) else None


def _position(st, o):
    if o is None:
        raise RulesError("position() of none")
    z = st.obj_zone[o]
    return st.zones[z].index(o) if z >= 0 else -1


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
    return [q for q in range(st.g.nplayers) if q != p and q not in st.lost]


def _next_player(st, p):
    n = st.g.nplayers
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
    budget.charge(st, max((b - a) if b is not None else a, 0), "range")
    return list(range(a, b)) if b is not None else list(range(a))


def _index_of(st, v, x):
    v = _items(st, v)
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
    return st.g.prog.cards[st.obj_card[o]].name


def _exists(st, v):
    return v is not None


def _abs(st, v):
    return abs(v)


def _any(st, v):
    return bool(v) and any(v)


def _all(st, v):
    return all(v)


def _zone_of(st, o):
    return None if o is None else st.obj_zone[o]


def _owner(st, o):
    return None if o is None else st.obj_owner[o]


def _adjacent(st, a):
    return list(st.g.adjacency[a])


def _area_named(st, name):
    return st.g.area_index.get(name)


def _sorted_by(st, v, key_values):
    budget.charge(st, len(v), "sorted")
    pairs = sorted(zip(key_values, range(len(v))))
    return [v[i] for _, i in pairs]


def _unique(st, v):
    budget.charge(st, len(v), "unique")
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
    if o is None or not (isinstance(cond, list) and len(cond) == 2 and cond[0] == "cond"):
        return False
    return bool(st.g.prog.conditions[cond[1]](st, {"it": o}))


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


BUILTIN_FUNCS: dict[str, Builtin] = {
    "count": Builtin(_count, 1, 1, NUMBER, "number of items of a list or objects in a zone"),
    "sum": Builtin(_sum, 1, 1, NUMBER, "sum of a list of numbers"),
    "max": Builtin(_max, 1, 9, NUMBER, "largest of a list or of the arguments, none ignored"),
    "min": Builtin(_min, 1, 9, NUMBER, "smallest of a list or of the arguments, none ignored"),
    "first": Builtin(
        _first,
        1,
        2,
        lambda ts: _some(ts) if len(ts) > 1 else _elem(ts),
        "first item (none if empty); first(l, k): the first k",
    ),
    "last": Builtin(
        _last,
        1,
        2,
        lambda ts: _some(ts) if len(ts) > 1 else _elem(ts),
        "last item (none if empty); last(l, k): the last k",
    ),
    "nth": Builtin(_at, 2, 2, _elem, "the item at an index counted from 0 (none if out of range)"),
    "position": Builtin(_position, 1, 1, NUMBER, "index of an object in its zone, from 0"),
    "behind": Builtin(
        _behind, 1, 1, OBJECT, "the next object after it in its zone (none at the end)"
    ),
    "ahead": Builtin(_ahead, 1, 1, OBJECT, "the object before it in its zone (none at the front)"),
    "neighbours": Builtin(
        _neighbours, 1, 1, list_of(OBJECT), "the objects directly before and after it in its zone"
    ),
    "opponents": Builtin(_opponents, 1, 1, list_of(PLAYER), "the other players still in the game"),
    "next_player": Builtin(
        _next_player, 1, 1, PLAYER, "the next player in turn order and direction"
    ),
    "random": Builtin(_random, 1, 1, _elem, "an item picked with the game's random generator"),
    "roll": Builtin(_roll, 1, 2, list_of(NUMBER), "roll(n, sides=6): n dice"),
    "shuffled": Builtin(
        _shuffled, 1, 1, lambda ts: list_of(_elem(ts)), "a shuffled copy of a list"
    ),
    "reversed": Builtin(_reversed, 1, 1, lambda ts: list_of(_elem(ts)), "a list in reverse order"),
    "range": Builtin(
        _range, 1, 2, list_of(NUMBER), "range(n) or range(a, b): numbers from a to b-1"
    ),
    "index_of": Builtin(_index_of, 2, 2, NUMBER, "index of an item in a list (-1 if absent)"),
    "take": Builtin(_take, 2, 2, lambda ts: list_of(_elem(ts)), "the first k items"),
    "drop": Builtin(_drop, 2, 2, lambda ts: list_of(_elem(ts)), "all but the first k items"),
    "contents": Builtin(_contents, 1, 1, list_of(OBJECT), "the objects in a zone, in order"),
    "flatten": Builtin(
        _flatten,
        1,
        1,
        lambda ts: (
            list_of(OBJECT)
            if ts and ts[0] in (("list", ZONE),)
            else (
                ts[0][1]
                if ts and isinstance(ts[0], tuple) and isinstance(ts[0][1], tuple)
                else list_of(ANY)
            )
        ),
        "the items of a list of lists, or the objects of a list of zones, in order",
    ),
    "card_name": Builtin(_card_name, 1, 1, TEXT, "the card name of an object"),
    "exists": Builtin(_exists, 1, 1, BOOL, "whether a value is not none"),
    "abs": Builtin(_abs, 1, 1, NUMBER, "absolute value"),
    "any": Builtin(_any, 1, 1, BOOL, "whether any item of a list of booleans is true"),
    "all": Builtin(_all, 1, 1, BOOL, "whether every item of a list of booleans is true"),
    "zone_of": Builtin(_zone_of, 1, 1, ZONE, "the zone an object is in"),
    "owner": Builtin(_owner, 1, 1, PLAYER, "the owner of an object"),
    "from_zone": Builtin(
        _from_zone, 1, 1, ZONE, "the zone an object was in before its last move (none: created)"
    ),
    "adjacent": Builtin(_adjacent, 1, 1, list_of(AREA), "the areas adjacent to an area"),
    "area": Builtin(_area_named, 1, 1, AREA, "the area with a name"),
    "sorted_by": Builtin(
        _sorted_by,
        2,
        2,
        lambda ts: ts[0] if ts else ANY,
        "items sorted by a parallel list of keys (stable)",
    ),
    "unique": Builtin(_unique, 1, 1, _same, "items without repeats, first occurrence kept"),
    "keyword_arg": Builtin(
        _keyword_arg,
        2,
        3,
        ANY,
        "the argument of a keyword on an object, printed or granted (none for none)",
    ),
    "keyword_values": Builtin(
        _keyword_values,
        2,
        3,
        list_of(ANY),
        "the argument of every instance of a keyword on an object: printed, then granted",
    ),
    "matches": Builtin(
        _matches,
        2,
        2,
        BOOL,
        "whether an object meets a condition argument of a keyword (`K[cost 2 이하]`)",
    ),
    "ceil_div": Builtin(_ceil_div, 2, 2, NUMBER, "a / b rounded up"),
    "zone_area": Builtin(
        _zone_area, 1, 1, AREA, "the area of a per-area zone (none for any other zone)"
    ),
    "fail": Builtin(
        _fail,
        1,
        1,
        ANY,
        "stop the game with a rules error carrying this message (a refused deck, an impossible position)",
    ),
    "objects": Builtin(
        _objects,
        1,
        1,
        list_of(OBJECT),
        "a list or zone read as a list of objects (typed: choices show card names)",
    ),
}

# Names with a meaning in every ruleset (option and data are read with a dot: option.NAME).
BUILTIN_NAMES: dict[str, object] = {
    "players": list_of(PLAYER),
    "active": PLAYER,
    "first_player": PLAYER,
    "turn_direction": NUMBER,
    "turn_number": NUMBER,
    "round_number": NUMBER,
    "player_count": NUMBER,
    "areas": list_of(AREA),
    "option": ANY,
    "data": ANY,
}

OBJECT_ATTRS: dict[str, object] = {
    "owner": PLAYER,
    "zone": ZONE,
    "position": NUMBER,
    "name": TEXT,
    "kind": TEXT,
    "id": NUMBER,
}

PLAYER_ATTRS: dict[str, object] = {
    "seat": NUMBER,
}

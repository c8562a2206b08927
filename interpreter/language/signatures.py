"""The built-in functions, names and attributes as the checker sees them: arity, result type
and a line of documentation, the same for every ruleset. Their implementations are the run
time's (runtime/builtins.py), keyed by the same names; a test keeps the two tables in step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .symbols import ANY, AREA, BOOL, NUMBER, OBJECT, PLAYER, TEXT, ZONE, elem_type, list_of


@dataclass(frozen=True)
class Signature:
    min_args: int
    max_args: int
    returns: object | Callable  # a type, or a function of the argument types
    doc: str


def _elem(ts):
    return elem_type(ts[0]) if ts else ANY


def _same(ts):
    return ts[0] if ts else ANY


def _some(ts):
    """`first(l, k)` / `last(l, k)`: a list like l (of a zone: of its objects)."""
    return list_of(OBJECT) if ts[0] == ZONE else ts[0]


BUILTIN_SIGS: dict[str, Signature] = {
    "count": Signature(1, 1, NUMBER, "number of items of a list or objects in a zone"),
    "sum": Signature(1, 1, NUMBER, "sum of a list of numbers"),
    "max": Signature(1, 9, NUMBER, "largest of a list or of the arguments, none ignored"),
    "min": Signature(1, 9, NUMBER, "smallest of a list or of the arguments, none ignored"),
    "first": Signature(
        1,
        2,
        lambda ts: _some(ts) if len(ts) > 1 else _elem(ts),
        "first item (none if empty); first(l, k): the first k",
    ),
    "last": Signature(
        1,
        2,
        lambda ts: _some(ts) if len(ts) > 1 else _elem(ts),
        "last item (none if empty); last(l, k): the last k",
    ),
    "nth": Signature(2, 2, _elem, "the item at an index counted from 0 (none if out of range)"),
    "position": Signature(1, 1, NUMBER, "index of an object in its zone, from 0"),
    "behind": Signature(1, 1, OBJECT, "the next object after it in its zone (none at the end)"),
    "ahead": Signature(1, 1, OBJECT, "the object before it in its zone (none at the front)"),
    "neighbours": Signature(
        1, 1, list_of(OBJECT), "the objects directly before and after it in its zone"
    ),
    "opponents": Signature(1, 1, list_of(PLAYER), "the other players still in the game"),
    "next_player": Signature(1, 1, PLAYER, "the next player in turn order and direction"),
    "random": Signature(1, 1, _elem, "an item picked with the game's random generator"),
    "roll": Signature(1, 2, list_of(NUMBER), "roll(n, sides=6): n dice"),
    "shuffled": Signature(1, 1, lambda ts: list_of(_elem(ts)), "a shuffled copy of a list"),
    "reversed": Signature(1, 1, lambda ts: list_of(_elem(ts)), "a list in reverse order"),
    "range": Signature(1, 2, list_of(NUMBER), "range(n) or range(a, b): numbers from a to b-1"),
    "index_of": Signature(2, 2, NUMBER, "index of an item in a list (-1 if absent)"),
    "take": Signature(2, 2, lambda ts: list_of(_elem(ts)), "the first k items"),
    "drop": Signature(2, 2, lambda ts: list_of(_elem(ts)), "all but the first k items"),
    "contents": Signature(1, 1, list_of(OBJECT), "the objects in a zone, in order"),
    "flatten": Signature(
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
    "card_name": Signature(1, 1, TEXT, "the card name of an object"),
    "exists": Signature(1, 1, BOOL, "whether a value is not none"),
    "abs": Signature(1, 1, NUMBER, "absolute value"),
    "any": Signature(1, 1, BOOL, "whether any item of a list of booleans is true"),
    "all": Signature(1, 1, BOOL, "whether every item of a list of booleans is true"),
    "zone_of": Signature(1, 1, ZONE, "the zone an object is in"),
    "owner": Signature(1, 1, PLAYER, "the owner of an object"),
    "from_zone": Signature(
        1, 1, ZONE, "the zone an object was in before its last move (none: created)"
    ),
    "adjacent": Signature(1, 1, list_of(AREA), "the areas adjacent to an area"),
    "area": Signature(1, 1, AREA, "the area with a name"),
    "sorted_by": Signature(
        2,
        2,
        lambda ts: ts[0] if ts else ANY,
        "items sorted by a parallel list of keys (stable)",
    ),
    "unique": Signature(1, 1, _same, "items without repeats, first occurrence kept"),
    "keyword_arg": Signature(
        2,
        3,
        ANY,
        "the argument of a keyword on an object, printed or granted (none for none)",
    ),
    "keyword_values": Signature(
        2,
        3,
        list_of(ANY),
        "the argument of every instance of a keyword on an object: printed, then granted",
    ),
    "matches": Signature(
        2,
        2,
        BOOL,
        "whether an object meets a condition argument of a keyword (`K[cost 2 이하]`)",
    ),
    "ceil_div": Signature(2, 2, NUMBER, "a / b rounded up"),
    "zone_area": Signature(1, 1, AREA, "the area of a per-area zone (none for any other zone)"),
    "fail": Signature(
        1,
        1,
        ANY,
        "stop the game with a rules error carrying this message (a refused deck, an impossible position)",
    ),
    "objects": Signature(
        1,
        1,
        list_of(OBJECT),
        "a list or zone read as a list of objects (typed: choices show card names)",
    ),
}

# The arguments (by position) that must be a list or a zone: a number, card or player there is
# a checker's error, not a count of the wrong zone or a Python error at play.
SEQUENCE_ARGS: dict[str, tuple[int, ...]] = {
    "count": (0,), "sum": (0,), "first": (0,), "last": (0,), "nth": (0,), "random": (0,),
    "shuffled": (0,), "reversed": (0,), "index_of": (0,), "take": (0,), "drop": (0,),
    "contents": (0,), "flatten": (0,), "any": (0,), "all": (0,), "sorted_by": (0, 1),
    "unique": (0,), "objects": (0,),
}  # fmt: skip

# Names with a meaning in every ruleset (option and data are read with a dot: option.NAME).
BUILTIN_NAMES: dict[str, object] = {
    "players": list_of(PLAYER),
    "active": PLAYER,
    "first_player": PLAYER,
    "turn_direction": NUMBER,
    "turn_number": NUMBER,
    "resolving": BOOL,  # an effect (an object's ability) is being processed: engine.in_effect
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

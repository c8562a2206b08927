"""What a line of a game log may hold, checked before `madang replay` narrates it.

A log is a file anyone can edit; the narrator reads the fields that the engine writes
(runtime/engine.py, runtime/seen.py) and trusts their types. A crafted line (a player that does
not play, a list where a name goes, a number where a list goes) is refused here with what is
wrong, instead of being narrated as if it were true or failing inside the narrator.
"""

from __future__ import annotations

_TEXT = (str,)
_SCALAR = (str, int, float, bool, type(None))


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _player(x, n: int) -> bool:
    return _is_int(x) and 0 <= x < n


def _players(x, n: int) -> bool:
    return isinstance(x, list) and all(_player(p, n) for p in x)


def _names(x) -> bool:
    """A list of what the engine labels values with: texts and numbers (none for no value)."""
    return isinstance(x, list) and all(isinstance(v, _SCALAR) for v in x)


def problem(entry: object, nplayers: int) -> str | None:
    """Why `entry` is not a line the engine writes for a game of `nplayers`, or None."""
    if not isinstance(entry, dict):
        return f"a JSON {type(entry).__name__}, not an object"
    checks = {
        "turn": lambda v: _is_int(v) and v >= 0,
        "round": lambda v: _is_int(v) and v >= 0,
        "player": lambda v: _player(v, nplayers),
        "phase": lambda v: isinstance(v, _TEXT),
        "decision": lambda v: isinstance(v, _TEXT),
        "action": lambda v: isinstance(v, _TEXT),
        "event": lambda v: isinstance(v, _TEXT),
        "trigger": lambda v: isinstance(v, _TEXT),
        "replaced": lambda v: isinstance(v, _TEXT),
        "args": _names_or_nested,
        "move": _names,
        "reveal": _names,
        "game_over": lambda v: _players(v, nplayers),
        "lost": lambda v: _players(v, nplayers),
        "seen": lambda v: (
            isinstance(v, list) and all(s is None or _players(s, nplayers) for s in v)
        ),
        "source": lambda v: isinstance(v, _SCALAR),
        "fizzled": lambda v: isinstance(v, _SCALAR),
        "log": lambda v: isinstance(v, _SCALAR),
    }
    for key, ok in checks.items():
        if key in entry and not ok(entry[key]):
            return f"its {key!r} is not what a log holds there ({_short(entry[key])})"
    if "to" in entry and not (
        isinstance(entry["to"], _TEXT) if "move" in entry else _players(entry["to"], nplayers)
    ):
        return f"its 'to' is not what a log holds there ({_short(entry['to'])})"
    named = entry.get("move", entry.get("reveal"))
    if "seen" in entry and named is not None and len(entry["seen"]) != len(named):
        return "its 'seen' does not match the values it names"
    return None


def _names_or_nested(x) -> bool:
    """An event's or an action's arguments: values, and lists of values (a list argument)."""
    return isinstance(x, list) and all(isinstance(v, _SCALAR) or _names(v) for v in x)


def _short(v) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."

"""A definition's value when one of its list arguments is empty, found from its body once.

`strength(l, p) = sum(l.attack) + 2 * count(l where ...) + bonus(count(l), -1) + (if ... then
count(l) else 0)` is 0 for any `p` when `l` is empty: every part is a count or a sum over `l`,
a definition of such, or a branch whose two sides are equal. The compiled definition then
answers an empty `l` at once, without its body (`CodeGen.compile`'s `empty`): an enumerator
that asks for the strength of the player's part of every contested place asks it mostly of
nothing. Only a body that may be left uncomputed (`CodeGen._skippable`: no random draw,
nothing that raises) is folded, so the game is the same and only the work of the body is saved.
"""

from __future__ import annotations

from ..language import nodes as n
from ..language import resolved as rv

UNKNOWN = object()  # a value that depends on the state or on an unknown argument
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
DEPTH = 8  # definitions folded inside one another


def empty_value(syms, res: rv.Resolved, skippable, d) -> tuple[str, object] | None:
    """(parameter, value) when definition `d`'s value is `value` whenever that parameter is an
    empty list, whatever the others and the state hold; None if no parameter gives one."""
    if not skippable(d.decl.body, {d.name}):
        return None
    for q in d.params:
        env = {p.name: UNKNOWN for p in d.params}
        env[q.name] = []
        v = _Folder(syms, res, skippable).fold(d.decl.body, env, (d.name,))
        if v is not UNKNOWN and (v is None or type(v) in (int, bool, str)):
            return q.name, v
    return None


def _int(v) -> bool:
    return type(v) is int


class _Folder:
    def __init__(self, syms, res: rv.Resolved, skippable):
        self.s, self.r, self.skippable = syms, res, skippable

    def fold(self, e, env: dict, seen: tuple):
        """The value of `e` with the local names of `env`, or UNKNOWN."""
        r = self.r
        match e:
            case n.Num() | n.Str():
                return e.value
            case n.Const():
                return e.value
            case n.Name():
                ref = r.name_of(e)
                return env.get(e.name, UNKNOWN) if isinstance(ref, rv.LocalRef) else UNKNOWN
            case n.Attr():  # `l.combat` of a list: the list of their values
                return [] if r.maps_list(e) and self.fold(e.obj, env, seen) == [] else UNKNOWN
            case n.Where():
                return [] if self.fold(e.items, env, seen) == [] else UNKNOWN
            case n.Neg():
                v = self.fold(e.expr, env, seen)
                return -v if _int(v) else UNKNOWN
            case n.Not():
                v = self.fold(e.expr, env, seen)
                return (not v) if type(v) is bool else UNKNOWN
            case n.BoolOp():
                return self.bool_op(e, env, seen)
            case n.BinOp():
                a, b = self.fold(e.left, env, seen), self.fold(e.right, env, seen)
                if not (_int(a) and _int(b)):
                    return UNKNOWN
                op = _ARITH.get(e.op) or _COMPARE.get(e.op)
                return op(a, b) if op is not None else UNKNOWN
            case n.IfExpr():
                c = self.fold(e.cond, env, seen)
                if c is True:
                    return self.fold(e.then, env, seen)
                if c is False:
                    return self.fold(e.orelse, env, seen)
                a, b = self.fold(e.then, env, seen), self.fold(e.orelse, env, seen)
                same = a is not UNKNOWN and type(a) is type(b) and a == b
                return a if same else UNKNOWN
            case n.Call():
                return self.call(e, env, seen)
        return UNKNOWN

    def bool_op(self, e: n.BoolOp, env: dict, seen: tuple):
        stop = e.op == "or"  # the value that decides: true for `or`, false for `and`
        for x in e.items:
            v = self.fold(x, env, seen)
            if type(v) is not bool:
                return UNKNOWN
            if v is stop:
                return v
        return not stop

    def call(self, e: n.Call, env: dict, seen: tuple):
        ref = self.r.call_of(e)
        args = [self.fold(a, env, seen) for a in e.args]
        if isinstance(ref, rv.BuiltinRef):
            if ref.name in ("sum", "count") and len(args) == 1 and args[0] == []:
                return 0
            if ref.name in ("max", "min") and len(args) > 1 and all(map(_int, args)):
                return max(args) if ref.name == "max" else min(args)
            return UNKNOWN
        if isinstance(ref, rv.DefineRef) and ref.name not in seen and len(seen) < DEPTH:
            d = self.s.defines.get(ref.name)
            if d is None or len(d.params) != len(args):
                return UNKNOWN
            inner = {q.name: a for q, a in zip(d.params, args)}
            return self.fold(d.decl.body, inner, seen + (ref.name,))
        return UNKNOWN

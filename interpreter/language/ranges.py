"""Counters' declared ranges (`counter hp: per player in 0..30 = 8`, or open on one side:
`in 0..`): the values a counter may hold, which the run time enforces at every write and the
observation tensor reports as its bounds. Here each range is resolved to whole numbers, with a
located error for a bound that is not one, a range that holds nothing, and a start value outside
it."""

from __future__ import annotations

from collections.abc import Callable

from . import nodes as n
from .diagnostics import Diagnostics

_ARITHMETIC = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}


def whole(e: n.Expr, syms, used: list | None = None, seen: tuple = ()) -> int | None:
    """The whole number a constant expression stands for (a number, its negation, sums and
    products of such, the name of a definition without parameters that is one), else None.
    The definitions it reads are appended to `used`."""
    match e:
        case n.Num(value=v) if not isinstance(v, bool):
            return v
        case n.Neg(expr=x):
            v = whole(x, syms, used, seen)
            return -v if v is not None else None
        case n.BinOp(op=op, left=a, right=b) if op in _ARITHMETIC:
            x, y = whole(a, syms, used, seen), whole(b, syms, used, seen)
            return _ARITHMETIC[op](x, y) if x is not None and y is not None else None
        case n.Name(name=name):
            d = syms.defines.get(name)
            if d is None or d.params or d.name in seen or d.decl is None:
                return None
            if used is not None:
                used.append(d)
            return whole(d.decl.body, syms, used, seen + (d.name,))
    return None


def shown(low: int | None, high: int | None) -> str:
    """A range as it is written: `0..10`, `0..`, `..10`."""
    return f"{'' if low is None else low}..{'' if high is None else high}"


def resolve(syms, diags: Diagnostics, mark_used: Callable[[object], None]) -> None:
    """Set each ranged counter's `range` to (low, high), or report why it cannot be."""
    for c in syms.unique(syms.counters):
        if c.bounds is None:
            continue
        if c.bounds == (None, None):
            diags.error(
                f"the range of counter '{c.name}' has no bound",
                c.span,
                "write `in LOW..HIGH`, or leave out one side: `in 0..`",
                code="counter-range",
            )
            continue
        used: list = []
        low, high = (whole(b, syms, used) if b is not None else None for b in c.bounds)
        for sym in used:
            mark_used(sym)
        bad = False
        for b, v in zip(c.bounds, (low, high)):
            if b is not None and v is None:
                bad = True
                what = b.name if isinstance(b, n.Name) else "this bound"
                diags.error(
                    f"the range of counter '{c.name}': '{what}' is not a whole number",
                    b.span,
                    "a bound is a whole number or the name of a definition without parameters"
                    " that is one (`define most = 15`)",
                    code="counter-range",
                )
        if bad:
            continue
        if low is not None and high is not None and low > high:
            diags.error(
                f"the range of counter '{c.name}' is empty: {low} is more than {high}",
                c.bounds[0].span,
                "write the lower bound first: `in LOW..HIGH`",
                code="counter-range",
            )
            continue
        if isinstance(c.default, n.Str | n.Const):
            diags.error(
                f"counter '{c.name}' has a range, so it starts at a number, not"
                f" {_literal(c.default)}",
                c.default.span,
                code="counter-range",
            )
            continue
        start = whole(c.default, syms) if c.default is not None else 0
        if start is not None and not (
            (low is None or low <= start) and (high is None or start <= high)
        ):
            diags.error(
                f"counter '{c.name}' starts at {start}, outside its range {shown(low, high)}",
                c.default.span if c.default is not None else c.span,
                None if c.default is not None else "without `= START` a counter starts at 0",
                code="counter-range",
            )
        c.range = (low, high)


def _literal(e: n.Str | n.Const) -> str:
    if isinstance(e, n.Str):
        return f'"{e.value}"'
    return {None: "none", True: "true", False: "false"}[e.value]

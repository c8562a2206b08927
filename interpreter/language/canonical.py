"""One spelling per concept: the AST rewrites `madang fmt` applies before printing.

The language keeps a few second spellings because both read naturally, but prints one:

- `when` is `after` (the parser already stores both as `after`);
- `zone_of(x)` is `x.zone` (a property of the object, like `x.owner`; `zone` is a reserved word,
  so no kind can have a field that would hide it);
- `take(l, k)` is `first(l, k)` (with `last(l, k)` and `drop(l, k)` beside it);
- `after X(c) if c == this` is `after X(this)` when `c` is used nowhere else in the ability
  (a self-bound trigger; the same for `before` and `instead of`).

A module that defines its own `zone_of` or `take` keeps its calls as written.
"""

from __future__ import annotations

from dataclasses import replace

from . import nodes as n

REWRITTEN = ("zone_of", "take")


def canonical(tree, shadowed: frozenset[str] = frozenset()):
    """`tree` with the second spellings replaced by the canonical ones (spans kept)."""
    if isinstance(tree, n.Module):
        declared = {
            name for d in tree.decls if isinstance(d, n.DefineDecl | n.VerbDecl) for name in d.names
        }
        shadowed = shadowed | (declared & set(REWRITTEN))
    return _Canonical(shadowed).rewrite(tree)


class _Canonical(n.NodeTransformer):
    def __init__(self, shadowed: frozenset[str]):
        self.shadowed = shadowed

    def visit_Call(self, x: n.Call) -> n.Node:
        if x.func not in self.shadowed:
            if x.func == "zone_of" and len(x.args) == 1:
                return n.Attr(self.visit(x.args[0]), "zone", span=x.span)
            if x.func == "take" and len(x.args) == 2:
                return n.Call("first", self.rewrite(x.args), span=x.span)
        return self.generic_visit(x)

    def visit_Trigger(self, x: n.Trigger) -> n.Node:
        x = self.generic_visit(x)
        changed = {}
        if x.timing == "when":
            changed["timing"] = "after"
        bound = _self_bound(x.binds, x.cond, x)
        if bound is not None:
            changed["binds"], changed["cond"] = bound
        return replace(x, **changed) if changed else x


def _is_self_test(e, name: str) -> bool:
    """`name == this` or `this == name`."""
    if not (isinstance(e, n.BinOp) and e.op == "=="):
        return False
    sides = (e.left, e.right)
    return any(isinstance(a, n.Name) and a.name == name for a in sides) and any(
        isinstance(b, n.Special) and b.which == "this" for b in sides
    )


def _self_bound(binds, cond, trig: n.Trigger):
    """(binds, cond) of `trig` written as a self-bound trigger, or None if it is not one."""
    if n.SELF in binds or cond is None:
        return None
    first, rest = cond, None
    if isinstance(cond, n.BoolOp) and cond.op == "and":
        first = cond.items[0]
        rest = (
            cond.items[1]
            if len(cond.items) == 2
            else n.BoolOp("and", cond.items[1:], span=cond.span)
        )
    for name in binds:
        if not _is_self_test(first, name):
            continue
        others = [rest, trig.body, trig.optional_by]
        if any(_mentions(o, name) for o in others):
            return None
        return tuple(n.SELF if b == name else b for b in binds), rest
    return None


def _mentions(x, name: str) -> bool:
    """Whether `name` is read or bound anywhere in `x` (conservative: any use counts)."""
    if isinstance(x, str):
        return x == name
    if isinstance(x, tuple | list):
        return any(_mentions(i, name) for i in x)
    if not isinstance(x, n.Node):
        return False
    for node in x.walk():
        for _, v in node.iter_fields():
            if v == name or (isinstance(v, tuple) and name in v):  # a name, or bound names
                return True
    return False

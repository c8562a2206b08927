"""One spelling per concept: the AST rewrites `madang fmt` applies before printing.

The language keeps a few second spellings because both read naturally, but prints one:

- `when` is `after` (the parser already stores both as `after`);
- `zone_of(x)` is `x.zone` (a property of the object, like `x.owner`; `zone` is a reserved word,
  so no kind can have a field that would hide it);
- `take(l, k)` is `first(l, k)` (with `last(l, k)` and `drop(l, k)` beside it).

A module that defines its own `zone_of` or `take` keeps its calls as written.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from . import nodes as n

REWRITTEN = ("zone_of", "take")


def canonical(tree, shadowed: frozenset[str] = frozenset()):
    """`tree` with the second spellings replaced by the canonical ones (spans kept)."""
    if isinstance(tree, n.Module):
        declared = {
            name for d in tree.decls if isinstance(d, n.DefineDecl | n.VerbDecl) for name in d.names
        }
        shadowed = shadowed | (declared & set(REWRITTEN))
    return _rewrite(tree, shadowed)


def _rewrite(x, shadowed):
    if isinstance(x, tuple):
        return tuple(_rewrite(i, shadowed) for i in x)
    if isinstance(x, list):
        return [_rewrite(i, shadowed) for i in x]
    if not is_dataclass(x) or not isinstance(x, n.Node):
        return x
    if isinstance(x, n.Call) and x.func not in shadowed:
        if x.func == "zone_of" and len(x.args) == 1:
            return n.Attr(_rewrite(x.args[0], shadowed), "zone", span=x.span)
        if x.func == "take" and len(x.args) == 2:
            return n.Call("first", _rewrite(x.args, shadowed), span=x.span)
    changed = {}
    for f in fields(x):
        if f.name == "span":
            continue
        v = getattr(x, f.name)
        nv = _rewrite(v, shadowed)
        if nv is not v:
            changed[f.name] = nv
    if isinstance(x, n.Trigger) and x.timing == "when":
        changed["timing"] = "after"
    if not changed:
        return x
    values = {f.name: getattr(x, f.name) for f in fields(x) if f.name != "span"}
    return type(x)(**{**values, **changed}, span=x.span)

"""Rewrites between parsing and checking: the parser's tree is what was written, and the checker
and the back end see one plain form of each construct.

- A self-bound event pattern, `after destroy(this) [if COND]` (also `before`, `instead of`,
  `cost`, a timing word's head and its use): the parser binds the name `SELF`, which no source
  text can write; here the condition becomes `SELF == this [and COND]`, so the back end sees an
  ordinary binding and condition.

Every node keeps its source position: the test added stands at the event's name, and the
condition as written keeps its own spans, so an error inside it points at its line and column.
`madang fmt` prints the parser's tree, which never holds the added test.
"""

from __future__ import annotations

from dataclasses import replace

from . import nodes as n
from .diagnostics import Span


def desugar(tree):
    """`tree` (a module, a card text, a block; None passes through) in its plain form."""
    return None if tree is None else _Desugar().visit(tree)


def self_bound(binds: tuple[str, ...], cond: n.Expr | None, span: Span | None):
    """The condition of an event pattern binding `binds`: `SELF == this [and cond]` when it
    binds `this`, else `cond` itself."""
    if n.SELF not in binds or has_self_test(cond):
        return cond
    test = n.BinOp("==", n.Name(n.SELF, span=span), n.Special("this", span=span), span=span)
    return test if cond is None else n.BoolOp("and", (test, cond), span=span)


_TEST = n.BinOp("==", n.Name(n.SELF, span=None), n.Special("this", span=None), span=None)


def has_self_test(cond) -> bool:
    """Whether `cond` already starts with the test `self_bound` adds (nodes compare without
    their spans): desugaring a tree twice changes nothing."""
    first = cond.items[0] if isinstance(cond, n.BoolOp) and cond.op == "and" else cond
    return first == _TEST


class _Desugar(n.NodeTransformer):
    def visit_Trigger(self, x: n.Trigger) -> n.Node:
        x = self.generic_visit(x)
        return _with_cond(x, self_bound(x.binds, x.cond, x.event_span))

    def visit_TimingDecl(self, x: n.TimingDecl) -> n.Node:
        x = self.generic_visit(x)
        if x.event is None:
            return x
        return _with_cond(x, self_bound(x.binds, x.cond, x.event_span))

    def visit_Conditioned(self, x: n.Conditioned) -> n.Node:
        x = self.generic_visit(x)
        if x.event is None:
            return x
        _, binds, span = x.event
        return _with_cond(x, self_bound(binds, x.cond, span))


def _with_cond(x, cond):
    return x if cond is x.cond else replace(x, cond=cond)

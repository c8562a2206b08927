"""The one tree rewrite and the one visitor of language/nodes.py, which desugaring, `madang fmt`'s
canonical spellings and definitions' parameter substitution share."""

from madang.language import nodes as n
from madang.language.diagnostics import Diagnostics
from madang.language.parser import Origin, parse_module
from madang.language.symbols import substitute

SRC = """\
counter total = 0

flow:
    total += 1 + count(players)
    if total > 2:
        log zone_of(first(players))
"""


def _module():
    diags = Diagnostics()
    mod = parse_module(SRC, Origin("t.madang"), diags)
    assert mod is not None and not diags.has_errors()
    return mod


class _Names(n.NodeVisitor):
    def __init__(self):
        self.seen = []

    def visit_Name(self, node):
        self.seen.append(node.name)


class _Double(n.NodeTransformer):
    def visit_Num(self, node):
        return n.Num(node.value * 2, span=node.span)


def test_the_visitor_calls_the_method_of_each_class_and_walks_the_rest():
    v = _Names()
    v.visit(_module())
    assert v.seen == ["total", "players", "total", "players"]


def test_the_transformer_rebuilds_only_what_changed_and_keeps_spans():
    mod = _module()
    new = _Double().visit(mod)
    flow = mod.decls[1].body.body
    new_flow = new.decls[1].body.body
    assert new is not mod
    assert [x.value for x in new.walk() if isinstance(x, n.Num)] == [0, 2, 4]
    assign, if_ = new_flow
    assert assign.value.left.span == flow[0].value.left.span  # a new node, at its old place
    assert assign.value.right is flow[0].value.right  # count(players): untouched, not copied
    assert if_.branches[0][1] is flow[1].branches[0][1]  # the if's block holds no number


def test_an_unchanged_tree_is_returned_as_is():
    mod = _module()
    assert n.NodeTransformer().visit(mod) is mod


def test_substitute_replaces_names_by_expressions():
    mod = _module()
    e = mod.decls[1].body.body[0].value  # 1 + count(players)
    seven = n.Num(7, span=e.span)
    out = substitute(e, {"players": seven})
    assert out.right.args == (seven,)
    assert out.left is e.left


def test_walk_can_leave_out_subtrees():
    mod = _module()
    kept = list(mod.walk(prune=lambda x: isinstance(x, n.Block)))
    assert not any(isinstance(x, n.Stmt) for x in kept)
    assert any(isinstance(x, n.CounterDecl) for x in kept)

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


ACTION = "action a(n: number from [1]) in w once per turn per n as b:\n    x += n\n"


def _action():
    diags = Diagnostics()
    mod = parse_module("counter x = 0\n" + ACTION, Origin("t.madang"), diags)
    assert mod is not None
    return mod.decls[1]


def test_a_node_s_fields_are_its_fields_but_its_span():
    # Python's ast.iter_fields: what the walk, the rewrite, the dump and the fingerprint read
    names = [name for name, _ in _action().iter_fields()]
    assert names[:4] == ["names", "params", "windows", "body"] and "span" not in names


def test_the_fingerprint_visitor_writes_fields_without_positions():
    from madang.build.fingerprint import digest, shape

    out: list[str] = []
    shape(_action(), out)
    assert "".join(out) == (
        "ActionDecl(names=['a',],params=[Param(name='n',type=TypeRef(name='number',of=None,),"
        "domain=ListExpr(items=[Num(value=1,),],),),],windows=['w',],body=Block(body=[Assign("
        "target=Name(name='x',),op='+=',value=Name(name='n',),),],),limit='turn',limit_by='n',"
        "limit_as='b',limit_as_span=,)"
    )
    moved = parse_module("\n\ncounter x = 0\n\n" + ACTION, Origin("u.madang"), Diagnostics())
    assert digest(moved.decls[1]) == digest(_action())


def test_the_dump_visitor_writes_a_block_s_statements_and_leaves_inline():
    from madang.language.fmt import dump_ast

    assert dump_ast(_action().body) == (
        "Block @2:60\n"
        "  - Assign @3:5\n"
        "    target: Name(name='x') @3:5\n"
        "    op: '+='\n"
        "    value: Name(name='n') @3:10\n"
    )

"""Desugaring is a pass of its own between parsing and checking (language/desugar.py): the
parser's tree is what was written, and an error inside a desugared construct points at its
line and column."""

import pytest
from madang.build.loader import load_ruleset
from madang.language import nodes as n
from madang.language.desugar import desugar
from madang.language.diagnostics import Diagnostics
from madang.language.parser import Origin, parse_module

TRIGGER = "keyword sturdy:\n    after hit(this) if 2 > 1:\n        pass\n"


def _trigger(tree):
    return tree.decls[0].items[0]


def test_the_parser_keeps_a_self_bound_pattern_as_written():
    diags = Diagnostics()
    trig = _trigger(parse_module(TRIGGER, Origin("k.madang"), diags))
    assert trig.binds == (n.SELF,)
    assert isinstance(trig.cond, n.BinOp) and trig.cond.op == ">"  # no added test


def test_desugaring_adds_the_test_and_keeps_positions():
    tree = parse_module(TRIGGER, Origin("k.madang"), Diagnostics())
    before = _trigger(tree)
    after = _trigger(desugar(tree))
    test, cond = after.cond.items
    assert test == n.BinOp("==", n.Name(n.SELF, span=None), n.Special("this", span=None), span=None)
    assert (test.span.line, test.span.col) == (2, 11)  # at the event's name: `hit`
    assert cond is before.cond  # the condition as written: the same node, at its place
    assert desugar(desugar(tree)) == desugar(tree)  # twice changes nothing


RULES = """\
kind unit:
    power: number

zone field: per player

event hit(u: object)
event turn_begins(p: player)

keyword sturdy:
    after hit(this) if unknown_name > 1:
        pass

keyword hasty:
    after turn_begins(this):
        pass

flow:
    emit hit(first(you.field))
    emit turn_begins(you)
"""


@pytest.fixture
def errors(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "name: ds\ntitle: {en: Ds}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: U, type: unit, power: 1, text: 'sturdy, hasty'}\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(RULES, encoding="utf-8")
    diags = Diagnostics()
    load_ruleset(tmp_path, diags)
    return {(d.span.line, d.span.col): d.message for d in diags.items if d.severity == "error"}


def test_an_error_in_the_condition_of_a_self_bound_trigger_is_at_its_place(errors):
    assert errors.get((10, 24)) == "unknown name 'unknown_name'"


def test_an_error_in_the_added_test_is_at_the_event(errors):
    # `this` is an object; turn_begins's argument a player: the added `SELF == this` says so
    # at the event's name, line 14 column 11, not at 1:1
    assert "comparing player with object" in errors.get((14, 11), "")

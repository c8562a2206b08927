"""The checker's findings reach the build stage as typed records looked up by node
(language/resolved.py), not string-tagged tuples keyed by `id(node)`."""

import dataclasses

import pytest
from madang.build.loader import load_ruleset
from madang.language import nodes as n
from madang.language import resolved as rv
from madang.language.diagnostics import Diagnostics

RULES = """\
kind token:
    power: number

zone box: shared, public
zone pile: per player

counter gold = 0
counter score: per player = 0

define strong = count(box where it.power > 1)

verb bump(t: object):
    t.power += 1

flow:
    create "T" in box
    gold += strong
    you.score = gold
    let scores = players.score
    for t in box:
        bump(t)
    first_player = you
    log you.pile.size
"""


@pytest.fixture
def checked(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "name: res\ntitle: {en: Res}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: T, type: token, power: 2}\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(RULES, encoding="utf-8")
    diags = Diagnostics()
    comp = load_ruleset(tmp_path, diags).compiler
    assert not diags.has_errors(), diags.render()
    nodes = [x for b in comp.s.flow for x in b.walk()]
    nodes += [x for d in comp.s.unique(comp.s.defines) for x in d.decl.walk()]
    nodes += [x for v in comp.s.unique(comp.s.verbs) for x in v.decl.walk()]
    return comp.r, nodes


def _find(nodes, cls, **fields):
    return next(
        x for x in nodes if type(x) is cls and all(getattr(x, k) == v for k, v in fields.items())
    )


def test_names_attributes_and_calls_are_typed_records(checked):
    r, nodes = checked
    assert r.name_of(_find(nodes, n.Name, name="gold")) == rv.CounterRef("gold")
    assert r.name_of(_find(nodes, n.Name, name="strong")) == rv.DefineRef("strong")
    assert r.name_of(_find(nodes, n.Name, name="box")) == rv.ZoneRef("box")
    assert r.name_of(_find(nodes, n.Name, name="t")) == rv.LocalRef("t")
    assert r.name_of(_find(nodes, n.Name, name="first_player")) == rv.GameRef("first_player")
    assert r.attr_of(_find(nodes, n.Attr, name="power")) == rv.ObjProp("power")
    assert r.attr_of(_find(nodes, n.Attr, name="pile")) == rv.PlayerZone("pile")
    assert r.call_of(_find(nodes, n.Call, func="count")) == rv.BuiltinRef("count")
    assert r.call_of(_find(nodes, n.CallStmt, verb="bump")) == rv.VerbRef("bump")
    # a record's class is its meaning: a built-in `count` is not a definition named `count`
    assert rv.BuiltinRef("count") != rv.DefineRef("count")


def test_a_list_attribute_maps_and_operands_are_typed(checked):
    r, nodes = checked
    each = [x for x in nodes if isinstance(x, n.Attr) and x.name == "score"]
    assert [r.attr_of(x) for x in each] == [rv.PlayerCounter("score")] * 2
    assert sorted(r.maps_list(x) for x in each) == [False, True]  # you.score, players.score
    cmp = _find(nodes, n.BinOp, op=">")
    assert r.operand_types(cmp) == ("number", "number")
    assert r.type_of(_find(nodes, n.Log)) == "number"


def test_lookup_is_by_identity_not_by_equal_value(checked):
    r, nodes = checked
    gold = _find(nodes, n.Name, name="gold")
    twin = n.Name("gold", span=gold.span)
    assert twin == gold  # nodes compare by value...
    assert r.name_of(twin) is None  # ...but a finding belongs to the node it was made for


def test_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        rv.CounterRef("gold").name = "silver"

"""Safe YAML loading: plain data, exact positions, and hostile input as diagnostics."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from madang.language import yamlsrc
from madang.language.diagnostics import Diagnostics, Span
from madang.language.sources import decode
from madang.language.yamlsrc import MAX_DEPTH, load_yaml
from quick import examples

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if yaml.__with_libyaml__ else [])


@pytest.fixture(params=LOADERS, ids=lambda loader: loader.__name__)
def loader(request, monkeypatch):
    """Run a test with libyaml's parser and with the pure-Python fallback."""
    monkeypatch.setattr(yamlsrc, "_LOADER", request.param)
    return request.param


def load(text: str, file: str = "t.yaml"):
    diags = Diagnostics()
    return load_yaml(text, file, diags), diags


def load_ok(text: str):
    doc, diags = load(text)
    assert doc is not None and not diags.items, diags.render()
    return doc


def only_error(diags: Diagnostics):
    assert len(diags.items) == 1, diags.render()
    return diags.items[0]


def char_at(text: str, line: int, col: int) -> str:
    return text.splitlines()[line - 1][col - 1]


# -- data ----------------------------------------------------------------------------------------


def test_plain_scalars_become_python_values(loader):
    doc = load_ok(
        "i: 42\nf: 2.5\nt: true\nn: null\ne:\ns: hello\nq: '7'\nh: 관통\n"
        "d: 2024-01-31\nx: !!str 12\nl: [1, two]\nm: {a: 1}\n"
    )
    assert doc.data == {
        "i": 42,
        "f": 2.5,
        "t": True,
        "n": None,
        "e": None,
        "s": "hello",
        "q": "7",
        "h": "관통",
        "d": "2024-01-31",  # timestamps stay text: the data is plain JSON-like values
        "x": "12",
        "l": [1, "two"],
        "m": {"a": 1},
    }


def test_non_string_keys_are_kept(loader):
    doc = load_ok("cost: {7: 1, 8: 2}\n")
    assert doc.data == {"cost": {7: 1, 8: 2}}
    assert doc.span(("cost", 8)) == Span("t.yaml", 1, 17, 1, 18)
    # JSON sees keys as text: a path from a JSON Schema error finds them too.
    assert doc.span(("cost", "8")) == doc.span(("cost", 8))
    assert doc.key_span(("cost", "7")) == Span("t.yaml", 1, 8, 1, 9)


def test_aliases_and_merge_keys(loader):
    doc = load_ok("base: &b {cost: 1, attack: 2}\ncard:\n  <<: *b\n  attack: 5\nlist: [*b, *b]\n")
    assert doc.data["card"] == {"attack": 5, "cost": 1}
    assert doc.data["list"] == [{"cost": 1, "attack": 2}] * 2
    assert doc.span(("card", "attack")) == Span("t.yaml", 4, 11, 4, 12)
    # a merged value is located where it is written
    assert doc.span(("card", "cost")) == Span("t.yaml", 1, 17, 1, 18)


def test_empty_documents_give_none(loader):
    for text in ["", "\n\n", "# only a comment\n", "---\n", "---\n...\n"]:
        doc, diags = load(text)
        assert doc is not None and doc.data is None and not diags.items, repr(text)
        assert doc.span(()).line >= 1


# -- positions -----------------------------------------------------------------------------------

CARDS = """\
ruleset: clash_of_decks
cards:
  - name: BARON
    cost: 3
    traits: [beast, big]
    text: "분노, 관통"
"""


def test_spans_of_values(loader):
    doc = load_ok(CARDS)
    assert doc.span(("ruleset",)) == Span("t.yaml", 1, 10, 1, 24)
    assert doc.span(("cards", 0, "name")) == Span("t.yaml", 3, 11, 3, 16)
    assert doc.span(("cards", 0, "cost")) == Span("t.yaml", 4, 11, 4, 12)
    assert doc.span(("cards", 0, "traits", 1)) == Span("t.yaml", 5, 21, 5, 24)
    assert doc.span(("cards", 0, "traits")) == Span("t.yaml", 5, 13, 5, 25)
    assert doc.span(("cards", 0, "text")) == Span("t.yaml", 6, 11, 6, 19)  # quotes included
    assert (doc.span(("cards", 0)).line, doc.span(("cards", 0)).col) == (3, 5)
    assert (doc.span(("cards",)).line, doc.span(("cards",)).col) == (3, 3)
    assert (doc.span(()).line, doc.span(()).col) == (1, 1)


def test_key_spans(loader):
    doc = load_ok(CARDS)
    assert doc.key_span(("cards", 0, "cost")) == Span("t.yaml", 4, 5, 4, 9)
    assert doc.key_span(("ruleset",)) == Span("t.yaml", 1, 1, 1, 8)
    # list items have no key: the value's span
    assert doc.key_span(("cards", 0)) == doc.span(("cards", 0))


def test_missing_paths_fall_back_to_the_nearest_parent(loader):
    doc = load_ok(CARDS)
    assert doc.span(("cards", 0, "health")) == doc.span(("cards", 0))
    assert doc.span(("cards", 7, "x")) == doc.span(("cards",))
    assert doc.key_span(("cards", 0, "health")) == doc.span(("cards", 0))
    assert doc.node(("cards", 0, "health")) is None
    assert doc.has(("cards", 0, "cost"))


def test_source_gives_the_text_as_written(loader):
    doc = load_ok("a: yes\nb: '3'\nc: |\n  x\n")
    assert doc.source(("a",)) == "yes"
    assert doc.source(("b",)) == "'3'"
    assert doc.source(("c",)) is None  # spans several lines


def assert_maps(doc, text: str, path, value_line: int, value_col: int) -> None:
    """A position inside the string, through text_origin, lands on the same character."""
    value = doc.data
    for step in path:
        value = value[step]
    origin = doc.text_origin(path)
    span = origin.span(value_line, value_col)
    expected = value.split("\n")[value_line - 1][value_col - 1]
    assert char_at(text, span.line, span.col) == expected
    assert span.file == "t.yaml"


TEXTS = """\
plain: 관통 2 then 분노
single: '분노, 관통'
double: "hello 관"
block: |
  첫 줄
    둘째 줄
  셋
nested:
  - text: |2
        indented 관통
      less
folded: >
  접힌 줄
gap: |

  after a blank line 관
"""


def test_text_origin_of_plain_and_quoted_scalars(loader):
    doc = load_ok(TEXTS)
    assert vars(doc.text_origin(("plain",))) == {
        "file": "t.yaml",
        "line": 1,
        "col": 8,
        "indent": None,
    }
    assert (doc.text_origin(("single",)).line, doc.text_origin(("single",)).col) == (2, 10)
    assert (doc.text_origin(("double",)).line, doc.text_origin(("double",)).col) == (3, 10)
    for path in [("plain",), ("single",), ("double",)]:
        value = doc.data[path[0]]
        for col in range(1, len(value) + 1):
            assert_maps(doc, TEXTS, path, 1, col)
    # a caret over '관통' in the plain scalar
    span = doc.text_origin(("plain",)).span(1, 1, 1, 3)
    assert span == Span("t.yaml", 1, 8, 1, 10)
    assert TEXTS.splitlines()[0][span.col - 1 : span.end_col - 1] == "관통"


def test_text_origin_of_block_scalars(loader):
    doc = load_ok(TEXTS)
    origin = doc.text_origin(("block",))
    assert vars(origin) == {"file": "t.yaml", "line": 5, "col": 3, "indent": 3}
    value = doc.data["block"]
    assert value == "첫 줄\n  둘째 줄\n셋\n"
    for line_no, line in enumerate(value.split("\n")[:3], start=1):
        for col in range(1, len(line) + 1):
            assert_maps(doc, TEXTS, ("block",), line_no, col)
    # explicit indentation indicator: the content keeps its extra spaces
    nested = ("nested", 0, "text")
    assert doc.data["nested"][0]["text"] == "  indented 관통\nless\n"
    assert vars(doc.text_origin(nested))["indent"] == 7
    assert_maps(doc, TEXTS, nested, 1, 12)
    assert_maps(doc, TEXTS, nested, 2, 1)
    # folded: the first line maps exactly
    assert_maps(doc, TEXTS, ("folded",), 1, 4)
    # leading blank lines are part of the text: line 1 of the value is the blank file line 15
    assert doc.data["gap"] == "\nafter a blank line 관\n"
    assert doc.text_origin(("gap",)).line == 15
    assert_maps(doc, TEXTS, ("gap",), 2, 20)


def test_text_origin_with_windows_line_ends(loader):
    text = "a: 1\r\ntext: |\r\n  관통\r\n  분노\r\n"
    doc = load_ok(text)
    origin = doc.text_origin(("text",))
    assert (origin.line, origin.col) == (3, 3)
    span = origin.span(2, 2)  # '노' of '분노'
    assert (span.line, span.col) == (4, 4)
    assert char_at(text, 4, 4) == "노"


# -- hostile input -------------------------------------------------------------------------------

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_alias_bomb_is_refused(loader):
    doc, diags = load(BILLION_LAUGHS)  # refused while counting, never expanded
    assert doc is None
    d = only_error(diags)
    assert d.message == "YAML aliases expand too far (more than 100,000 values)"
    assert (d.span.line, d.span.col) == (6, 8)
    assert d.code == "yaml-alias-bomb"


def test_modest_aliases_are_fine(loader):
    doc = load_ok("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n")
    assert doc.data["b"] == [[1, 2, 3]] * 3


@pytest.mark.parametrize(
    "text, line, col",
    [
        ("[" * 10_000, 1, MAX_DEPTH + 1),
        ("{a: " * 10_000, 1, 4 * MAX_DEPTH + 1),
        ("".join(f"{' ' * i}- \n" for i in range(0, 2 * 500, 2)), MAX_DEPTH + 1, 2 * MAX_DEPTH + 1),
    ],
    ids=["flow-seq", "flow-map", "block-seq"],
)
def test_deep_nesting_is_refused(loader, text, line, col):
    doc, diags = load(text)
    assert doc is None
    d = only_error(diags)
    assert d.message == "YAML nested too deeply (more than 100 levels)"
    assert (d.span.line, d.span.col) == (line, col)


def test_nesting_at_the_limit_is_fine(loader):
    doc = load_ok("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    depth, value = 0, doc.data
    while isinstance(value, list):
        depth, value = depth + 1, value[0] if value else None
    assert depth == MAX_DEPTH


def test_deep_nesting_through_aliases_is_refused(loader):
    deep = "[" * 60 + "]" * 60
    doc, diags = load(
        f"a: &a {deep}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*a]]]]]]]]\n"
    )
    assert doc is None
    assert "nested too deeply" in only_error(diags).message


def test_recursive_alias_is_refused(loader):
    doc, diags = load("a: &a [1, *a]\n")
    assert doc is None
    d = only_error(diags)
    assert d.message == "alias '*a' refers to a value that contains it"
    assert (d.span.line, d.span.col) == (1, 11)


def test_unknown_alias(loader):
    doc, diags = load("a: *nope\n")
    assert doc is None
    assert only_error(diags).message == "unknown alias '*nope'"


@pytest.mark.parametrize(
    "text, tag, col",
    [
        ("x: !!python/object/apply:os.system ['ls']\n", "!!python/object/apply:os.system", 4),
        ("x: !!python/name:os.system ''\n", "!!python/name:os.system", 4),
        ("x: !!python/object:builtins.dict {}\n", "!!python/object:builtins.dict", 4),
        ("x: !!binary aGVsbG8=\n", "!!binary", 4),
        ("x: !!set {a, b}\n", "!!set", 4),
        ("x: !!omap [a: 1]\n", "!!omap", 4),
        ("x: !card {cost: 1}\n", "!card", 4),
        ("- !!seq {a: 1}\n", "!!seq", 3),
    ],
)
def test_unsupported_tags_are_refused(loader, text, tag, col):
    doc, diags = load(text)
    assert doc is None
    d = only_error(diags)
    assert d.message == f"unsupported YAML tag '{tag}'"
    assert (d.span.line, d.span.col) == (1, col)
    assert d.code == "yaml-tag"


def test_all_bad_tags_are_reported(loader):
    doc, diags = load("a: !!python/tuple [1]\nb: !!python/none ''\n")
    assert doc is None
    assert [d.span.line for d in diags.items] == [1, 2]


@pytest.mark.parametrize(
    "text", ["a: !!int\n", "a: !!float ''\n", "a: !!int 0x\n", "a: !!bool maybe\n"]
)
def test_invalid_explicit_scalars_never_raise(loader, text):
    doc, diags = load(text)
    assert doc is None
    assert only_error(diags).message.endswith("is not a valid " + text.split()[1])


def test_invalid_explicit_scalar(loader):
    doc, diags = load("a: !!int twelve\n")
    assert doc is None
    d = only_error(diags)
    assert d.message == "'twelve' is not a valid !!int"
    assert d.span == Span("t.yaml", 1, 4, 1, 16)


def test_duplicate_keys(loader):
    doc, diags = load("name: a\ncost: 1\ncards:\n  - {x: 1, x: 2}\ncost: 2\n")
    assert [(d.message, d.span.line, d.span.col) for d in diags.items] == [
        ("duplicate key 'x' (first at line 4)", 4, 12),
        ("duplicate key 'cost' (first at line 2)", 5, 1),
    ]
    # the data stays usable (the first value is kept), so later checks can run
    assert doc is not None and doc.data["cost"] == 1 and doc.data["cards"] == [{"x": 1}]
    assert diags.items[1].span == Span("t.yaml", 5, 1, 5, 5)


def test_duplicate_number_keys(loader):
    _, diags = load("cost: {7: 1, 7: 2}\n")
    assert only_error(diags).message == "duplicate key 7 (first at line 1)"


def test_collection_as_key(loader):
    doc, diags = load("? [a, b]\n: 1\n")
    assert doc is None
    d = only_error(diags)
    assert d.message == "a mapping key must be a single value, not a list or mapping"
    assert (d.span.line, d.span.col) == (1, 3)


def test_several_documents(loader):
    doc, diags = load("a: 1\n---\nb: 2\n")
    assert doc is None
    d = only_error(diags)
    assert d.message == "more than one YAML document in this file"
    assert (d.span.line, d.span.col) == (2, 1)


@pytest.mark.parametrize(
    "text, line, col",
    [
        ("a: [1, 2\nb: 3\n", 2, 2),
        ("a: 1\n b: 2\n", 2, 3),
        ('a: "open\n', 2, 1),
        ("a: b: c\n", 1, 5),
        ("cards:\n  - name: x\n   cost: 1\n", 3, 4),
        ("- a\nb: 1\n", 2, 1),
    ],
)
def test_syntax_errors_are_located(loader, text, line, col):
    doc, diags = load(text)
    assert doc is None
    d = only_error(diags)
    assert d.message.startswith("invalid YAML: ")
    assert (d.span.line, d.span.col) == (line, col)
    assert d.code == "yaml-syntax"


def test_tab_indentation_gets_a_hint(loader):
    _, diags = load("a:\n\tb: 1\n")
    d = only_error(diags)
    assert (d.span.line, d.span.col) == (2, 1)
    assert d.hint == "indent YAML with spaces, not tabs"


def test_control_character_is_located_after_hangul(loader):
    _, diags = load("이름: 관통\n설명: 분노 \x07\n")
    d = only_error(diags)
    assert d.message == "character U+0007 is not allowed in YAML"
    assert (d.span.line, d.span.col) == (2, 8)


def test_lone_surrogate(loader):
    doc, diags = load("a: b\ud800\n")
    assert doc is None
    assert len(diags.errors) == 1 and diags.errors[0].span.line == 1


def test_invalid_utf8_and_binary_go_through_decode():
    diags = Diagnostics()
    assert decode(b"name: \xea\xb4\x80\xff", "c.yaml", diags) is None
    assert diags.items[0].message == "invalid UTF-8 (byte 0xff)"
    assert diags.items[0].span.line == 1
    diags = Diagnostics()
    assert decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "c.yaml", diags) is None
    assert diags.items[0].code == "binary"


def test_binary_like_text_never_raises(loader):
    junk = bytes(range(1, 256)).decode("latin-1") * 4
    doc, diags = load(junk)
    assert doc is None and diags.has_errors()


def test_rendered_error_points_at_the_character(loader):
    doc, diags = load("a: 1\n관통: [1, 2\n")
    assert doc is None
    out = diags.render()
    assert out.startswith("t.yaml:3:1: error: invalid YAML")


# -- speed ---------------------------------------------------------------------------------------

CARD = """\
  - name: BARON{i}
    type: creature
    cost: 3
    attack: 3
    health: 5
    text: "분노, 관통"
    traits: [beast, big]
    id: ST01-{i:03d}
"""


def test_a_thousand_cards_load_with_positions():
    # Its speed is measured by `madang bench` (check throughput), not asserted here.
    text = "ruleset: clash_of_decks\ncards:\n" + "".join(CARD.format(i=i) for i in range(1000))
    doc, diags = load(text)
    assert doc is not None and not diags.items
    assert len(doc.data["cards"]) == 1000
    assert doc.span(("cards", 999, "cost")) == Span("t.yaml", 7997, 11, 7997, 12)


# -- never an exception --------------------------------------------------------------------------

YAML_PIECES = st.sampled_from(
    list("abc:-[]{},&*!|>'\"#?%@`\n\t 0123456789.") + ["관", "\r", "\x07", "<<", "!!python/"]
)
YAML_TEXT = st.lists(YAML_PIECES, max_size=40).map("".join)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAML_TEXT | st.text(max_size=60))
def test_random_text_never_raises(text):
    diags = Diagnostics()
    doc = load_yaml(text, "r.yaml", diags)
    assert doc is not None or diags.has_errors()
    for d in diags.items:
        assert d.span.line >= 1 and d.span.col >= 1


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=80))
def test_random_bytes_never_raise(data):
    diags = Diagnostics()
    text = decode(data, "r.yaml", diags)
    if text is not None:
        load_yaml(text, "r.yaml", diags)
    for d in diags.items:
        assert d.span.line >= 1


# PyYAML's dumper writes NEL and the Unicode line separators raw, then cannot read them back.
PLAIN_TEXT = st.text(
    st.characters(codec="utf-8", exclude_characters="\x85\u2028\u2029"), max_size=8
)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | PLAIN_TEXT,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(PLAIN_TEXT.filter(bool), inner, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_dumped_data_loads_back(data):
    text = yaml.safe_dump({"root": data}, allow_unicode=True)
    doc = load_ok(text)
    assert doc.data == {"root": data}

"""JSON Schemas of ruleset and card files, and their errors as located, readable diagnostics."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from madang.language.diagnostics import Diagnostics, Span
from madang.language.schema import RULESET_SCHEMA, card_schema, validate
from madang.language.yamlsrc import load_yaml
from quick import examples

CREATURE = {"cost": ("number", True), "attack": ("number", True), "health": ("number", True)}
SPELL = {"cost": ("number", True), "school": ("keyword", False), "tags": ("list of text", False)}
ITEM = {
    "cost": ("number", False),
    "hp": ("number", False),
    "magic": ("bool", False),
    "x": ("?", True),
}
KINDS = {"creature": CREATURE, "크리처": CREATURE, "spell": SPELL, "item": ITEM}
CARDS_SCHEMA = card_schema("clash_of_decks", KINDS)

# jsonschema's own wording must never reach the user
JSONSCHEMA_WORDING = ["is not of type", "Additional properties", "is a required property"]
DICT_REPR = re.compile(r"\{'[^']*': ")  # a Python dict printed into a message


def check(text: str, schema: dict, file: str = "t.yaml") -> Diagnostics:
    diags = Diagnostics()
    doc = load_yaml(text, file, diags)
    assert doc is not None, diags.render()
    ok = validate(doc.data, schema, doc, diags)
    assert ok == (not diags.errors)
    for d in diags.items:
        assert not any(w in d.message for w in JSONSCHEMA_WORDING), d.message
        assert not DICT_REPR.search(d.message), d.message
    return diags


def errors(text: str, schema: dict) -> list[tuple[str, int, int]]:
    return [(d.message, d.span.line, d.span.col) for d in check(text, schema).errors]


def test_schemas_are_valid_draft_2020_12():
    Draft202012Validator.check_schema(RULESET_SCHEMA)
    Draft202012Validator.check_schema(CARDS_SCHEMA)
    assert RULESET_SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# -- ruleset.yaml --------------------------------------------------------------------------------

RULESET = """\
name: clash_of_decks
title: {en: Clash of Decks, ko: 클래시 오브 덱}
description: {en: A duel of creature decks, ko: 크리처 덱의 대결}
players: 2
language: ko
files: [rules.madang, keywords/pierce.madang]
cards: [cards.yaml]
options:
  attack_order:
    default: farthest_first
    values: [farthest_first, nearest_first]
    per_seat: false
    description: {en: Which creature attacks first, ko: 공격 순서}
  hand_size:
    default: 7
    cost: {7: 1, 8: 2}
  difficulty: {default: easy, values: [easy, normal]}
  fortress_start: {default: false}
budget:
  points_from: difficulty
  points: {easy: 1, normal: 2}
  refund: {fortress_start: 1}
data: {deck_size: 40, anything: [1, {goes: here}]}
settings:
  auto_single: true
  trigger_order: active_first
  max_steps: 2000000
scenarios: scenarios
"""


def test_a_full_ruleset_is_valid():
    assert check(RULESET, RULESET_SCHEMA).items == []


def test_players_may_be_a_range():
    text = RULESET.replace("players: 2", "players: {min: 2, max: 4}")
    assert check(text, RULESET_SCHEMA).items == []


def test_minimal_ruleset():
    text = "name: x\ntitle: {en: X}\nplayers: 1\nfiles: [a.madang]\n"
    assert check(text, RULESET_SCHEMA).items == []


def test_unknown_top_level_key_points_at_the_key_with_a_hint():
    diags = check(RULESET + "langauge: en\n", RULESET_SCHEMA)
    [d] = diags.errors
    assert d.message == "unknown key 'langauge'"
    assert d.span == Span("t.yaml", 29, 1, 29, 9)
    assert d.hint == "did you mean 'language'?"
    assert d.code == "schema"


def test_missing_required_keys_point_at_the_mapping():
    text = "name: x\nplayers: 2\n"
    assert errors(text, RULESET_SCHEMA) == [
        ("missing required key 'title'", 1, 1),
        ("missing required key 'files'", 1, 1),
    ]


def test_nested_missing_key_names_its_mapping():
    text = RULESET.replace("{en: Clash of Decks, ko: 클래시 오브 덱}", "{ko: 클래시 오브 덱}")
    assert errors(text, RULESET_SCHEMA) == [("missing required key 'en' in 'title'", 2, 8)]


def test_wrong_types_say_what_was_expected():
    text = RULESET.replace("max_steps: 2000000", "max_steps: lots").replace(
        "per_seat: false", "per_seat: maybe"
    )
    assert errors(text, RULESET_SCHEMA) == [
        ("'per_seat' must be true or false, got string 'maybe'", 12, 15),
        ("'max_steps' must be an integer, got string 'lots'", 27, 14),
    ]


def test_players_alternatives():
    base = "name: x\ntitle: {en: X}\nfiles: [a]\nplayers: "
    assert errors(base + "two\n", RULESET_SCHEMA) == [
        (
            "'players' must be a number of players up to 16, or a range such as {min: 2, max: 4}, "
            "got string 'two'",
            4,
            10,
        )
    ]
    # a mapping: explain the mapping alternative only
    assert errors(base + '{min: 2, max: "4"}\n', RULESET_SCHEMA) == [
        ("'max' must be an integer, got string '4'", 4, 24)
    ]
    assert errors(base + "{min: 2}\n", RULESET_SCHEMA) == [
        ("missing required key 'max' in 'players'", 4, 10)
    ]
    assert errors(base + "0\n", RULESET_SCHEMA) == [("'players' must be at least 1, got 0", 4, 10)]


def test_quoted_number_gets_a_hint():
    text = RULESET.replace("max_steps: 2000000", 'max_steps: "2000000"')
    [d] = check(text, RULESET_SCHEMA).errors
    assert d.hint == "write 2000000 without quotes"


def test_enum_with_did_you_mean():
    text = RULESET.replace("trigger_order: active_first", "trigger_order: activ_first")
    [d] = check(text, RULESET_SCHEMA).errors
    assert d.message == (
        "'trigger_order' must be one of 'active_first', 'turn_order', 'timestamp', 'chosen', "
        "'by_owner'; got 'activ_first'"
    )
    assert (d.span.line, d.span.col) == (26, 18)
    assert d.hint == "did you mean 'active_first'?"


def test_name_must_be_an_identifier():
    text = RULESET.replace("name: clash_of_decks", "name: Clash of Decks")
    assert errors(text, RULESET_SCHEMA) == [
        (
            "'name' must be an identifier of lowercase letters a-z, digits and _, "
            "got 'Clash of Decks'",
            1,
            7,
        )
    ]


def test_option_names_and_fields():
    text = RULESET.replace("  hand_size:", "  Hand-Size:").replace(
        "    cost: {7: 1, 8: 2}", "    cots: {7: 1, 8: 2}"
    )
    diags = check(text, RULESET_SCHEMA)
    assert [(d.message, d.span.line, d.span.col, d.hint) for d in diags.errors] == [
        (
            "key 'Hand-Size' is not a valid name: it must be an identifier of lowercase "
            "letters a-z, digits and _",
            14,
            3,
            None,
        ),
        ("unknown key 'cots' in 'Hand-Size'", 16, 5, "did you mean 'cost'?"),
    ]


def test_option_needs_a_default_and_costs_are_integers():
    text = RULESET.replace("    default: 7\n", "").replace("8: 2}", "8: two}")
    assert errors(text, RULESET_SCHEMA) == [
        ("missing required key 'default' in 'hand_size'", 15, 5),
        ("'8' must be an integer, got string 'two'", 15, 21),
    ]


def test_files_must_be_relative_and_not_empty():
    base = "name: x\ntitle: {en: X}\nplayers: 2\n"
    assert errors(base + "files: []\n", RULESET_SCHEMA) == [("'files' must not be empty", 4, 8)]
    assert errors(base + "files: [/etc/passwd, ../up.madang, ok/a.madang]\n", RULESET_SCHEMA) == [
        (
            "entry 1 of 'files' must be a relative path inside the ruleset folder, "
            "got '/etc/passwd'",
            4,
            9,
        ),
        (
            "entry 2 of 'files' must be a relative path inside the ruleset folder, "
            "got '../up.madang'",
            4,
            22,
        ),
    ]


def test_repeated_option_value():
    text = RULESET.replace("[easy, normal]", "[easy, normal, easy]")
    assert errors(text, RULESET_SCHEMA) == [("'values' lists 'easy' twice", 17, 54)]


def test_yaml_no_as_a_language_key():
    text = RULESET.replace("ko: 클래시 오브 덱}", "no: Klasj}")
    [d] = check(text, RULESET_SCHEMA).errors
    assert d.message == "key 'false' is not a language code such as 'en' or 'ko'"
    assert (d.span.line, d.span.col) == (2, 29)
    assert "quotes" in d.hint


def test_settings_are_closed():
    text = RULESET.replace("  auto_single: true", "  auto_single: true\n  max_step: 3")
    [d] = check(text, RULESET_SCHEMA).errors
    assert (d.message, d.hint) == (
        "unknown key 'max_step' in 'settings'",
        "did you mean 'max_steps'?",
    )


def test_empty_and_non_mapping_files():
    assert errors("", RULESET_SCHEMA) == [("the file is empty", 1, 1)]
    assert errors("- a\n", RULESET_SCHEMA) == [("the file must be a mapping, got a list", 1, 1)]


def test_all_errors_are_reported():
    text = "name: X\ntitle: 3\nplayers: -1\nfiles: [1]\nbogus: 1\n"
    assert len(check(text, RULESET_SCHEMA).errors) == 5


# -- card files ----------------------------------------------------------------------------------

CARDS = """\
# yaml-language-server: $schema=cards.schema.json
ruleset: clash_of_decks
cards:
  - name: BARON
    type: creature
    cost: 3
    attack: 3
    health: 5
    text: "분노, 관통"
    traits: [beast]
    id: ST01-002
    copies: 1
    ja: {name: バロン, text: 怒り}
    origin: {set: ST01}
  - name: 트롤
    type: 크리처
    cost: 5
    attack: 4
    health: 6
  - name: ZAP
    type: spell
    cost: 1
    tags: [fast, cheap]
  - {name: RING, type: item, hp: 2, x: anything, magic: true}
"""


def test_a_valid_card_file():
    assert check(CARDS, CARDS_SCHEMA).items == []
    assert CARDS_SCHEMA["properties"]["cards"]["items"]["properties"]["type"]["enum"] == [
        "creature",
        "크리처",
        "spell",
        "item",
    ]


def test_card_field_of_the_wrong_type():
    text = CARDS.replace("cost: 3", 'cost: "3"')
    [d] = check(text, CARDS_SCHEMA).errors
    assert d.message == "'cost' must be an integer, got string '3'"
    assert d.span == Span("t.yaml", 6, 11, 6, 14)
    assert d.hint == "write 3 without quotes"


def test_unknown_card_field_with_hint():
    text = CARDS.replace("    health: 6", "    helth: 6")
    assert [
        (d.message, d.span.line, d.span.col, d.hint) for d in check(text, CARDS_SCHEMA).errors
    ] == [
        ("missing required key 'health' in card '트롤'", 15, 5, None),
        ("unknown key 'helth' in card '트롤'", 19, 5, "did you mean 'health'?"),
    ]


def test_fields_of_another_kind_are_unknown():
    text = CARDS.replace("    tags: [fast, cheap]", "    attack: 2")
    [d] = check(text, CARDS_SCHEMA).errors
    assert d.message == "unknown key 'attack' in card 'ZAP'"
    assert d.span == Span("t.yaml", 23, 5, 23, 11)


def test_unknown_kind():
    text = CARDS.replace("type: spell", "type: spel")
    [d] = check(text, CARDS_SCHEMA).errors
    assert d.message == "'type' must be one of 'creature', '크리처', 'spell', 'item'; got 'spel'"
    assert (d.span.line, d.span.col, d.hint) == (21, 11, "did you mean 'spell'?")


def test_card_without_name_or_type():
    text = "cards:\n  - cost: 1\n  - name: A\n"
    assert errors(text, CARDS_SCHEMA) == [
        ("missing required key 'name' in card 1", 2, 5),
        ("missing required key 'type' in card 1", 2, 5),
        ("missing required key 'type' in card 'A'", 3, 5),
    ]


def test_text_fields_and_yaml_surprises():
    text = CARDS.replace("id: ST01-002", "id: 12").replace("tags: [fast, cheap]", "school: yes")
    diags = check(text, CARDS_SCHEMA)
    assert [(d.message, d.hint) for d in diags.errors] == [
        ("'id' must be a string, got integer 12", 'write "12" in quotes to keep it as text'),
        (
            "'school' must be a string, got boolean true",
            'YAML reads yes as true; write "yes" for text',
        ),
    ]


def test_translations():
    text = CARDS.replace("ja: {name: バロン, text: 怒り}", "ja: バロン")
    [d] = check(text, CARDS_SCHEMA).errors
    assert d.message == "'ja' must be a mapping, got string 'バロン'"
    # a two-letter key that is not a language is a typo, not a translation
    text = CARDS.replace("    copies: 1", "    cp: 1")
    [d] = check(text, CARDS_SCHEMA).errors
    assert (d.message, d.span.line, d.span.col) == ("unknown key 'cp' in card 'BARON'", 12, 5)
    # a kind's own two-letter field is a field
    assert check(CARDS.replace("hp: 2", "hp: 3, fr: {name: Anneau}"), CARDS_SCHEMA).items == []
    assert errors(CARDS.replace("hp: 2", "hp: {a: 1}"), CARDS_SCHEMA) == [
        ("'hp' must be an integer, got a mapping", 24, 34)
    ]


def test_card_lists_and_bools():
    text = CARDS.replace("traits: [beast]", "traits: beast").replace("magic: true", "magic: 1")
    assert errors(text, CARDS_SCHEMA) == [
        ("'traits' must be a list, got string 'beast'", 10, 13),
        ("'magic' must be true or false, got integer 1", 24, 57),
    ]


def test_ruleset_name_must_match():
    text = CARDS.replace("ruleset: clash_of_decks", "ruleset: nivel_arena")
    assert errors(text, CARDS_SCHEMA) == [
        ("'ruleset' must be 'clash_of_decks', got 'nivel_arena'", 2, 10)
    ]


def test_card_file_top_level():
    assert errors("ruleset: clash_of_decks\ncard: []\n", CARDS_SCHEMA) == [
        ("missing required key 'cards'", 1, 1),
        ("unknown key 'card'", 2, 1),
    ]


def test_a_thousand_cards_validate():
    # The speed is measured by `madang bench` (check throughput), not asserted here.
    card = "  - {{name: C{i}, type: creature, cost: 1, attack: 2, health: 3, text: 관통}}\n"
    text = "cards:\n" + "".join(card.format(i=i) for i in range(1000))
    assert check(text, CARDS_SCHEMA).items == []


# -- never an exception --------------------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6) | st.floats(-2, 2),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["name", "type", "cost", "cards", "x", "ja", "title", "en"])
            | st.integers(0, 3)
            | st.booleans(),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@pytest.mark.parametrize("schema", [RULESET_SCHEMA, CARDS_SCHEMA], ids=["ruleset", "cards"])
@settings(max_examples=examples(150), deadline=None)
@given(data=JSONISH)
def test_any_data_gives_located_diagnostics(schema, data):
    text = yaml.safe_dump(data, allow_unicode=True)
    diags = Diagnostics()
    doc = load_yaml(text, "r.yaml", diags)
    if doc is None:
        return
    validate(doc.data, schema, doc, diags)
    for d in diags.items:
        assert d.span.line >= 1 and d.span.col >= 1
        assert not any(w in d.message for w in JSONSCHEMA_WORDING), d.message
        assert not DICT_REPR.search(d.message), d.message


def test_validating_part_of_a_file():
    text = "scenario: first turn\nsetup:\n  cards:\n    - {name: A, type: spell, cost: x}\n"
    diags = Diagnostics()
    doc = load_yaml(text, "s.yaml", diags)
    assert not validate(doc.data["setup"], CARDS_SCHEMA, doc, diags, at=("setup",))
    [d] = diags.errors
    assert (d.message, d.span.line, d.span.col) == (
        "'cost' must be an integer, got string 'x'",
        4,
        36,
    )

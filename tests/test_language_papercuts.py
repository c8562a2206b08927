"""Small things the language got in the way of (#31, met writing classic games): a window
that must be acted in, kinds without fields, `check` and `at` as names, a verb named without
its `()`, `card_name(none)`."""

from __future__ import annotations

import textwrap

import madang
import pytest
from madang.language.diagnostics import Diagnostics
from madang.language.fmt import format_module
from madang.language.parser import Origin, parse_module

RULESET = """name: small
title: {en: small}
players: 2
files: [rules.madang]
cards: [cards.yaml]
settings:
  auto_single: false
"""
CARDS = """ruleset: small
cards:
  - {name: TOKEN, type: token}
"""


def make(tmp_path, rules: str):
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "rules.madang").write_text(textwrap.dedent(rules))
    return tmp_path


def errors(tmp_path) -> str:
    with pytest.raises(madang.MadangError) as e:
        madang.load_program(tmp_path)
    return e.value.diags.render()


# A kind without fields; `check` and `at` as a counter, a parameter and a local; `at` still
# the keyword of `move ... to ZONE at INDEX` and `check` of a state check.
NAMES = """
kind token

zone pile: shared, public
counter at = 0
counter check = 0

verb bump(check: number):
    at += check

check over if at > 3:
    win first(players)

action go() in main:
    bump(1)

action stop() in main:
    require at > 100

setup:
    create "TOKEN" in pile as a
    create "TOKEN" in pile as b
    move b to pile at 0
    check = position(a)

flow:
    let p = first(players)
    repeat until false:
        turn p:
            window main by p once must
        p = next_player(p)
"""


def test_check_and_at_are_names_except_where_they_begin_a_check_or_follow_move_to(tmp_path):
    game = madang.new_game(make(tmp_path, NAMES))
    st = game.st
    assert st.counters["check"] == 1  # b moved to the front: a is second
    assert game.action_labels() == ["go"]  # `must`: no pass while an action is legal
    for _ in range(4):
        game.apply_action(0)
    assert game.is_terminal() and game.winners == [0] and st.counters["at"] == 4


def test_a_window_that_must_be_acted_in_offers_pass_when_nothing_is_legal(tmp_path):
    rules = NAMES.replace("    bump(1)", "    require at < 0\n    bump(1)")
    game = madang.new_game(make(tmp_path, rules.replace("over if at > 3", "over if at > 99")))
    assert game.action_labels() == ["pass"]


def test_must_and_field_less_kinds_format_and_read_back():
    text = textwrap.dedent(NAMES).lstrip()
    diags = Diagnostics()
    module = parse_module(text, Origin("rules.madang"), diags)
    assert not diags.has_errors()
    once = format_module(module)
    assert "kind token\n" in once and "window main by p once must" in once
    assert format_module(parse_module(once, Origin("again.madang"), diags)) == once
    spelled = text.replace("once must", "once pass if false")
    out = format_module(parse_module(spelled, Origin("spelled.madang"), diags))
    assert "once must" in out  # `pass if false` is written back as `must`


def test_a_verb_named_without_brackets_is_a_located_error(tmp_path):
    text = errors(make(tmp_path, NAMES.replace("    bump(1)", "    bump")))
    assert "rules.madang:15:5: error: 'bump' on its own is not a statement" in text
    assert "write bump() with its arguments" in text


def test_card_name_of_none_is_none(tmp_path):
    rules = NAMES.replace(
        "    check = position(a)", "    if card_name(none) == none:\n        at = 2"
    )
    game = madang.new_game(make(tmp_path, rules))
    assert game.st.counters["at"] == 2

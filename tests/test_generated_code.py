"""The generated Python reads like the rules it came from (#33): names from the source, each
statement's place in the rules beside it, and no wrapping a reader has to see through."""

from __future__ import annotations

import re

from madang.game.api import load_program


def generated(ruleset: str, verb: str) -> str:
    prog = load_program(ruleset)
    block = prog.verbs[verb].body
    return "\n".join(
        getattr(s, "fn", None).generated
        for s in prog.blocks[block]
        if getattr(getattr(s, "fn", None), "generated", None)
    )


def test_constants_are_named_after_what_they_are_in_the_rules():
    code = generated("clash_of_decks", "attack")
    assert "_count_" in code and "_first_" in code  # built-ins by their names
    assert "_damage_tower_" in code  # a verb by its name
    assert not re.search(r"\b_k\d+\b", code)


def test_each_statement_names_its_line_in_the_rules():
    code = generated("clash_of_decks", "attack")
    assert re.search(r"  # rules\.madang:\d+$", code, re.M)


def test_a_condition_is_not_wrapped_and_an_over_test_is_not_repeated():
    code = generated("clash_of_decks", "attack")
    for line in code.splitlines():
        if line.lstrip().startswith(("if ", "elif ")):
            assert not line.lstrip().startswith(("if (True if", "elif (True if")), line
    assert not re.search(r"^( *)if st\.over: return\n\1if st\.over: return$", code, re.M)

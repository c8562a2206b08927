"""Rules that hand a built-in the wrong kind of value, or a none where a player is needed, get
the rules' error at their place, never a count of the wrong zone nor a Python error shown as
madang's own ("Bad input gets a clear, located error")."""

import pytest
from madang.game.api import MadangError, load_program, new_game
from madang.runtime.errors import RulesError
from madang.tools.simulate import internal_error, simulate
from minirules import write_ruleset

HEAD = """kind unit:
    hp: number
zone hand: per player, ordered, owner sees
counter n = 0
"""
CARDS = "cards: [{name: A, type: unit, hp: 1}]\n"


def errors(tmp_path, body: str) -> list[tuple[int, int, str]]:
    with pytest.raises(MadangError) as err:
        load_program(write_ruleset(tmp_path, HEAD + body, CARDS))
    return [(d.span.line, d.span.col, d.message) for d in err.value.diags.errors]


@pytest.mark.parametrize(
    ("call", "func", "col", "what"),
    [
        ("count(c)", "count", 15, "object"),
        ("count(first(players))", "count", 15, "player"),
        ("sum(3)", "sum", 13, "number"),
        ("first(c)", "first", 15, "object"),
        ("count(sorted_by(players, 1))", "sorted_by", 34, "number"),
    ],
)
def test_a_card_player_or_number_where_a_list_or_zone_is_needed_is_the_checkers_error(
    tmp_path, call, func, col, what
):
    # `count(c)` of a card read the zone whose number is the card's: a silent wrong count
    body = f"flow:\n    let c = first(objects(first(players).hand))\n    n = {call}\n"
    found = errors(tmp_path, body)
    assert (7, col, f"'{func}' needs a list or a zone here, got {what}") in found, found


def test_lists_zones_and_untyped_values_still_pass(tmp_path):
    body = (
        "flow:\n    let p = first(players)\n    n = count(p.hand) + count(players)"
        " + count(objects(p.hand)) + sum([1, 2]) + count(sorted_by(players, [2, 1]))\n"
    )
    assert load_program(write_ruleset(tmp_path, HEAD + body, CARDS)) is not None


NONE_PLAYER = HEAD + "flow:\n    let p = first(players where it.seat == 9)\n    n = count(p.hand)\n"


def test_a_none_players_zone_is_a_rules_error_at_its_line(tmp_path):
    # the generated code reads a player's zone without a none test: the Python error it gives
    # is turned into the rules' error at the line that read it
    prog = load_program(write_ruleset(tmp_path, NONE_PLAYER, CARDS))
    with pytest.raises(RulesError) as err:
        new_game(prog, seed=1)
    assert "r.madang:7: a value is none where the rules need one" in str(err.value)


def test_simulate_reports_it_as_the_rules_error_not_an_internal_one(tmp_path):
    report = simulate(write_ruleset(tmp_path, NONE_PLAYER, CARDS), games=1, jobs=1)
    (message,) = report["errors"]
    assert "r.madang:7: a value is none where the rules need one" in message
    assert "internal error" not in message


def test_an_internal_error_keeps_the_place_in_the_rules_it_was_running():
    e = ValueError("boom\n  twice")
    e.add_note("while running the rules at r.madang:12")
    assert (
        internal_error(e)
        == "internal error: ValueError: boom twice (while running the rules at r.madang:12)"
    )

"""`none` given to a built-in is a defined value, not an internal error (issue 19: `max`/`min`
with `none`, `keyword_arg(none, K)` crashed games with `internal error: TypeError`)."""

import pytest
from madang.runtime.errors import RulesError
from test_semantics import run

RULES = """
keyword 관통/pierce[n: number]
setup:
    let nobody = first(first(players).hand)
    mark = max(3, nobody) * 100 + min([nobody, 2, 5]) * 10 + max([nobody])
    if keyword_arg(nobody, 관통) == none:
        mark += 1
flow:
    lose first(players)
"""


def test_none_is_left_out_of_max_and_min_and_has_no_keyword_argument(tmp_path):
    g = run(tmp_path, RULES)
    assert g.st.counters["mark"] == 3 * 100 + 2 * 10 + 0 + 1


OF_NOTHING = """
setup:
    let nobody = first(first(players).hand)
    if nobody.zone == none and nobody.position == none:
        mark += 1
    if nobody.name == none and nobody.kind == none and nobody.owner == none:
        mark += 10
flow:
    lose first(players)
"""


def test_the_properties_of_none_are_none(tmp_path):
    # #10: `x.zone` and `x.position` of an empty value gave none on one back end and an internal
    # error on the other; with one back end every built-in property of none is none.
    g = run(tmp_path, OF_NOTHING)
    assert g.st.counters["mark"] == 11


ONE_LIBRARY = """
setup:
    let nobody = first(first(players).hand)
    if position(nobody) == nobody.position and owner(nobody) == nobody.owner:
        mark += 1
    if zone_of(nobody) == nobody.zone and card_name(nobody) == nobody.name:
        mark += 10
flow:
    lose first(players)
"""


def test_a_built_in_function_and_the_property_of_the_same_name_agree_on_none(tmp_path):
    # #33: `position(x)` of none stopped the game while `x.position` was none: two helper
    # libraries. Now the built-ins are the property readers (runtime/operators.py).
    g = run(tmp_path, ONE_LIBRARY)
    assert g.st.counters["mark"] == 11


COUNT_OF_NOTHING = """
setup:
    let nobody = first(first(players).hand)
    mark = count(first(players).hand where it == nobody)
    mark += count(WHAT)
flow:
    lose first(players)
"""


def test_count_of_none_is_a_rules_error_naming_what_was_none(tmp_path):
    # #34: `count(none)` ended in Python's "list indices must be integers": now the rules' error
    # at the call, naming the argument that was none
    # (`count(nobody)` of a card is the checker's error now: tests/test_located_errors.py)
    for what in ("nobody.zone", "first([nobody.zone])"):
        folder = tmp_path / what.replace(".", "_")
        folder.mkdir()
        with pytest.raises(RulesError) as err:
            run(folder, COUNT_OF_NOTHING.replace("WHAT", what))
        assert str(err.value).endswith(
            f"tiny.madang:12:13: count({what}): {what} is none, not a list nor a zone"
        )

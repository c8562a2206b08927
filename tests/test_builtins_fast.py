"""Issue #34: `max`/`min` of two numbers without a list, and `sorted_by` of fewer than two items
without the sort (runtime/builtins.py), give what the general paths give, with the same work
charged and the same error past the budget."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from madang.runtime import builtins as B
from madang.runtime.budget import Budget, OutOfBudget


def _general_max(st, *a):
    v = B._numbers(st, a)
    return max(v) if v else 0


def _general_min(st, *a):
    v = B._numbers(st, a)
    return min(v) if v else 0


def _general_sorted_by(st, v, keys):
    pairs = sorted(zip(keys, range(len(v))))
    return [v[i] for _, i in pairs]


VALUES = [None, -3, 0, 2, 7, True, False, [], [4, None, 1]]


@pytest.mark.parametrize("x, y", list(itertools.product(VALUES[:7], repeat=2)))
def test_max_and_min_of_two_give_the_general_value(x, y):
    st = Budget()
    assert B._max(st, x, y) == _general_max(st, x, y)
    assert type(B._max(st, x, y)) is type(_general_max(st, x, y))
    assert B._min(st, x, y) == _general_min(st, x, y)
    assert type(B._min(st, x, y)) is type(_general_min(st, x, y))


def test_max_and_min_of_one_list_or_three_values_are_unchanged():
    st = Budget()
    assert B._max(st, [4, None, 1]) == 4 and B._min(st, [4, None, 1]) == 1
    assert B._max(st, 2, None, 5) == 5 and B._min(st, 2, None, 5) == 2
    assert B._max(st, []) == 0 and B._min(st, None) == 0


@pytest.mark.parametrize(
    "v, keys",
    [([], []), ([7], [True]), ([7], [None]), ([7], []), ([7, 8], [1]), ([3, 1, 2], [2, 0, 1])],
)
def test_sorted_by_gives_the_general_order_and_charges_the_length(v, keys):
    st = Budget()
    got = B._sorted_by(st, v, keys)
    assert got == _general_sorted_by(st, v, keys)
    assert got is not v  # a new list, as the sort made
    assert st.work == len(v)


def test_sorted_by_past_the_budget_raises_before_sorting():
    st = Budget(1)
    st.work = 1
    with pytest.raises(OutOfBudget, match="sorted: more than"):
        B._sorted_by(st, [5], [None])


@pytest.mark.parametrize("v", [[], [3], [2, 9, -1], [None], [4, None, 1], [True, 0], ["b", "a"]])
def test_max_and_min_of_one_list_give_the_general_value(v):
    st = Budget()
    assert B._max(st, v) == _general_max(st, v) and B._min(st, v) == _general_min(st, v)


class _Game:
    def __init__(self, n):
        self.nplayers = n


@pytest.mark.parametrize("n, lost", [(2, []), (2, [1]), (3, []), (4, [2]), (1, [])])
def test_opponents_are_the_others_still_playing(n, lost):
    st = SimpleNamespace(work=0, work_limit=100, g=_Game(n), lost=lost)
    for p in [*range(n), None]:
        want = [q for q in range(n) if q != p and q not in lost]
        assert B._opponents(st, p) == want, (n, lost, p)


def test_range_charges_its_length_and_raises_past_the_budget():
    st = Budget(10)
    assert B._range(st, 2, 6) == [2, 3, 4, 5] and st.work == 4
    assert B._range(st, 3) == [0, 1, 2] and st.work == 7
    assert B._range(st, 5, 1) == [] and st.work == 7
    with pytest.raises(OutOfBudget, match="range: more than"):
        B._range(st, 4)


@pytest.mark.parametrize("n, lost", [(2, []), (2, [1]), (3, []), (4, [2]), (4, [0, 1, 2])])
def test_next_player_is_the_first_one_along_still_playing(n, lost):
    for direction in (1, -1):
        st = SimpleNamespace(g=_Game(n), lost=lost, direction=direction)
        for p in range(n):
            along = [(p + k * direction) % n for k in range(1, n + 1)]
            want = next((q for q in along if q not in lost), p)
            assert B._next_player(st, p) == want, (n, lost, direction, p)

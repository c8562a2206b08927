"""Issue #34: `max`/`min` of two numbers without a list, and `sorted_by` of fewer than two items
without the sort (runtime/builtins.py), give what the general paths give, with the same work
charged and the same error past the budget."""

from __future__ import annotations

import itertools

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

"""Issue #34: a choice of several picks whose most (or least) is written `count(E)`, its options
`E` or `objects(E)`, and E draws no random number takes the number of options found with them
and charges what they charged (compiler.counts_options, engine._counted), instead of listing
them again. The states, the questions and the work charged are those found with the count
computed (engine.CHOICE_COUNTED off), at every decision and at the budget's edge."""

from __future__ import annotations

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime.errors import RulesError
from madang.runtime.program import Program
from minirules import write_ruleset


def _choices(prog: Program) -> list[E.Choose]:
    """The choices of several picks among the statements of `prog`."""
    return [s for s in prog.stmts if isinstance(s, E.Choose) and s.lo is not None]


def _calls(monkeypatch) -> list[bool]:
    """Each use of the count found with the options: whether it was past the budget."""
    seen, counted = [], E._counted

    def spy(st, env, fn, found, spent):
        seen.append(st.work + spent > st.work_limit)
        return counted(st, env, fn, found, spent)

    monkeypatch.setattr(E, "_counted", spy)
    return seen


def _step(g, k: int, on: bool, monkeypatch) -> None:
    monkeypatch.setattr(E, "CHOICE_COUNTED", on)
    g.apply_action(k)


def test_counted_choices_play_the_same_games_with_the_same_work(monkeypatch):
    prog = load_program("game_of_thrones_2p")
    assert sum(c.counted == 2 for c in _choices(prog)) == 2  # attackers, defenders
    monkeypatch.setattr(Program, "verify_checks", False)  # (no count computed to compare)
    seen = _calls(monkeypatch)
    for seed in range(3):
        monkeypatch.setattr(E, "CHOICE_COUNTED", True)
        a = new_game(prog, seed=seed, memory=False)
        monkeypatch.setattr(E, "CHOICE_COUNTED", False)
        b = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not a.st.over:
            assert (a.st.pending.values, a.st.work) == (b.st.pending.values, b.st.work)
            k = rng.randrange(len(a.st.pending.values))
            _step(a, k, True, monkeypatch)
            _step(b, k, False, monkeypatch)
        assert b.st.over and a.digest() == b.digest()
    assert len(seen) > 10


RULES = """\
zone pile: per player, ordered, owner sees
counter n = 0

kind piece:
    size: number

define big(p: player) = p.pile where it.size > 1

setup:
    for p in players:
        repeat 12 times:
            create "Small" in p.pile
            create "Big" in p.pile

flow:
    for p in players:
        turn p:
            choose w from players by p "start"
            choose x[1..count(big(p))] from objects(big(p)) by p "pick"
            choose y[count(big(p))..count(big(p))] from big(p) by p "all"
            choose z[1..count(shuffled(big(p)))] from objects(shuffled(big(p))) by p "drawn"
            choose v[1..count(big(p))] from objects(big(w)) by p "other"
            n += count(x)
"""
CARDS = "cards:\n  - {name: Small, type: piece, size: 1}\n  - {name: Big, type: piece, size: 2}\n"


def test_only_a_count_of_the_same_options_without_a_random_draw_is_counted(tmp_path):
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="counted"))
    # `objects(E)` and `E` with their counts; a random draw, another list: computed
    assert [c.counted for c in _choices(prog)] == [2, 3, 0, 0]


def _outcome(g) -> tuple:
    """The first pick's question after the first answer, or the rules error it met."""
    try:
        g.apply_action(0)
    except RulesError as err:
        return str(err), g.st.work
    return g.st.pending.values, g.st.work


def test_a_count_past_the_budget_raises_the_same_error_with_the_same_work(tmp_path, monkeypatch):
    """The options charge 24 steps and their count 24 more: for each budget, the first
    choice's question or error and the work charged are those with the count computed."""
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="counted"))
    monkeypatch.setattr(Program, "verify_checks", False)
    seen = _calls(monkeypatch)
    start = new_game(prog, seed=0, memory=False)
    most = start.st.g.max_steps
    try:
        for steps in range(0, 60):
            start.st.g.max_steps = steps  # (the budget of the stretch after the first answer)
            got = []
            for on in (True, False):
                monkeypatch.setattr(E, "CHOICE_COUNTED", on)
                got.append(_outcome(start.clone()))
            assert got[0] == got[1], steps
    finally:
        start.st.g.max_steps = most
    assert True in seen and False in seen  # the count both past the budget and within it


def test_the_checks_of_the_test_suite_compare_the_count_with_the_one_computed(
    tmp_path, monkeypatch
):
    """With `Program.verify_checks` (the test suite's), the count is computed as well and a
    number found that differs from it is an error."""
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="counted"))
    assert Program.verify_checks
    g = new_game(prog, seed=0, memory=False)
    g.apply_action(0)
    assert len(g.st.pending.values) == 12
    counted = E._counted
    monkeypatch.setattr(E, "_counted", lambda st, env, fn, n, w: counted(st, env, fn, n + 1, w))
    g = new_game(prog, seed=0, memory=False)
    with pytest.raises(AssertionError, match="count of its options"):
        g.apply_action(0)

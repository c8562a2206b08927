"""A definition's value for an empty list argument, found once from its body (build/fold.py):
the compiled definition returns it without computing the body. Found only where it holds
whatever the other arguments and the state are, and only for a body that may be left
uncomputed; the games are the same with and without it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from madang.build import compiler as C
from madang.game import api
from madang.game.api import new_game
from minirules import write_ruleset

RULES = """\
zone hand: per player, hidden
zone pile: per player, public
counter bonus = 0
counter mark: per player = 0

kind piece:
    size: number

define others(p: player, c: card) = p.hand where it != c
define pair(k: number, d: number) = if k > 0 then max(k + d, 0) else 0
define score(l: list of card, p: player) = sum(l.size) + 3 * count(l) + (if p.mark > 0 then count(l where it.size > 1) else 0) + pair(count(l where it.size == 2), 5)
define plus_bonus(l: list of card) = count(l) + count(l) + bonus
define halves(l: list of card) = ceil_div(count(l), 2) + count(l)
define differ(l: list of card, p: player) = count(l) + (if p.mark > 0 then count(l) else 1)
define chained(l: list of card) = score(l, you) + count(l)

action play(c: card from you.hand) in act:
    require score(others(you, c), you) + plus_bonus(others(you, c)) + halves(others(you, c)) >= 0
    require (count(you.hand) == 1 and score(others(you, c), you) + chained(others(you, c)) == 0) or (count(you.hand) > 1 and differ(others(you, c), you) + chained(others(you, c)) <= bonus + 14)
    move c to you.pile

action fetch(c: card from you.pile) in act:
    move c to you.hand
    bonus += 1
    you.mark += 1

setup:
    for p in players:
        repeat 2 times:
            create "Piece" in p.hand for p

flow:
    repeat 6 times:
        for p in players:
            turn p:
                window act by p once
"""


PIECE = "cards:\n  - {name: Piece, type: piece, size: 2}\n"


def _ruleset(tmp_path: Path) -> str:
    return write_ruleset(tmp_path, RULES, PIECE, name="folds")


def _folds_found(monkeypatch, ref: str) -> dict:
    """The definitions folded while `ref` compiles, with their (parameter, value)."""
    found = {}
    real = C.empty_value

    def spy(syms, res, skippable, d):
        got = found[d.name] = real(syms, res, skippable, d)
        return got

    monkeypatch.setattr(C, "empty_value", spy)
    api._load_cached.cache_clear()
    try:
        api.load_program(ref)
    finally:
        api._load_cached.cache_clear()
    return found


def test_the_values_for_an_empty_list_are_found_only_where_they_hold(tmp_path, monkeypatch):
    found = _folds_found(monkeypatch, _ruleset(tmp_path))
    assert found["score"] == ("l", 0)  # sums and counts of nothing, equal branches, pair(0, 5)
    assert found["chained"] == ("l", 0)  # through another definition's fold
    assert found["plus_bonus"] is None  # reads a counter
    assert found["halves"] is None  # ceil_div may raise: the body is always computed
    assert found["differ"] is None  # its branches differ on the empty list
    assert found["pair"] is None  # no list parameter gives one value


def test_cthulhu_wars_strength_of_no_units_is_zero(monkeypatch):
    found = _folds_found(monkeypatch, "cthulhu_wars")
    assert found["power_of"] == ("l", 0)
    assert found["capacity"] == ("l", 0)


def _digests(ref: str, seeds) -> list[str]:
    api._load_cached.cache_clear()
    prog = api.load_program(ref)
    api._load_cached.cache_clear()
    out = []
    for seed in seeds:
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
        out.append(g.digest())
    return out


@pytest.mark.parametrize("name", ["cthulhu_wars", "folds"])
def test_the_games_are_the_same_without_the_fold(name, tmp_path, monkeypatch):
    ref = _ruleset(tmp_path) if name == "folds" else name
    seeds = range(3) if name == "cthulhu_wars" else range(20)
    folded = _digests(ref, seeds)
    monkeypatch.setattr(C, "empty_value", lambda *a: None)
    assert _digests(ref, seeds) == folded


def test_a_wrong_value_would_change_the_games(tmp_path, monkeypatch):
    """The small ruleset's options depend on the folded values: folding `score` to 7 instead
    of 0 changes its games, so the test above compares something."""
    ref = _ruleset(tmp_path)
    right = _digests(ref, range(20))
    real = C.empty_value

    def wrong(syms, res, skippable, d):
        got = real(syms, res, skippable, d)
        return (got[0], 7) if d.name == "score" else got

    monkeypatch.setattr(C, "empty_value", wrong)
    assert _digests(ref, range(20)) != right

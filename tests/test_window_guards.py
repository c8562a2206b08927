"""Issue #34: an enumerator's first test that reads only counters is also a function of its own
(`ActionRT.guard`, one per distinct source, `enumerators.SHARED_GUARDS`); a window whose
actions share one tests it once per listing and lists only the actions whose guard passes
(`engine._guarded`, `engine.ENUM_GUARDS`): Cthulhu Wars' action window after the turn's action
no longer calls a dozen enumerators that each fail on the player's `acted` counter. The options
offered and the states are those of the listing without the guards at every decision."""

from __future__ import annotations

import random

import pytest
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from minirules import write_ruleset
from playthrough import offers

RULESETS = ["cthulhu_wars", "clash_of_decks", "nivel_arena", "game_of_thrones_2p"]


def _both_ways(prog, seed: int, monkeypatch) -> tuple[list, list]:
    """The offers of one seeded game with the window's shared guards and without them (the
    windows' kept orders are per game, so each new game reads `ENUM_GUARDS` afresh)."""
    guarded = offers(prog, seed)
    monkeypatch.setattr(E, "ENUM_GUARDS", False)
    plain = offers(prog, seed)
    monkeypatch.setattr(E, "ENUM_GUARDS", True)
    return guarded, plain


@pytest.mark.parametrize("name", RULESETS)
def test_the_options_are_those_without_the_shared_guards(name, monkeypatch):
    prog = load_program(name)
    for seed in range(3):
        guarded, plain = _both_ways(prog, seed, monkeypatch)
        assert guarded == plain, f"seed {seed}"


def test_cthulhu_wars_actions_share_the_acted_test():
    """A dozen of the rules' own actions start with the same test of `acted` and `power`: one
    guard function, whose source is the enumerators' first test."""
    prog = load_program("cthulhu_wars")
    by_guard: dict = {}
    for a in prog.actions:
        if a.guard is not None:
            by_guard.setdefault(a.guard, []).append(a)
    shared, acts = max(by_guard.items(), key=lambda kv: len(kv[1]))
    assert len(acts) >= 10
    src = shared.generated.split("return bool(", 1)[1].rsplit(")", 1)[0]
    assert "st.pcounters['acted'][you_] == 0" in src
    for a in acts:  # the enumerator's test before any domain starts with it
        first = next(x for x in a.fast_enum.generated.split("\n") if x.endswith(": return"))
        assert first.strip().startswith(f"if not ({src}")


RULES = """\
counter acted: per player = 0
counter power: per player = 3

action dig in act:
    require you.acted == 0 and you.power >= 1
    you.power -= 1
    you.acted = 1

action build(q: player from players) in act:
    require you.acted == 0 and you.power >= 2 and q != you
    you.power -= 2
    you.acted = 1

action rest in act:
    require you.power < 3
    you.power += 1

action wait in act:
    require you.acted == 1
    you.acted = 0

flow:
    repeat 20 times:
        for p in players:
            turn p:
                window act by p once
"""


def _small(tmp_path):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="guards")
    return api._load_cached.__wrapped__(folder, ())


def test_a_shared_test_decides_which_actions_are_listed(tmp_path, monkeypatch):
    """`dig` and `build` start with `you.acted == 0`: listed only where it holds, the same
    options as without the guard in ten seeded games, with the guard failing at some listings
    and passing at others."""
    prog = _small(tmp_path)
    dig, build, rest, wait = prog.actions
    assert dig.guard is not None and dig.guard is build.guard
    assert rest.guard is not None and rest.guard is not dig.guard
    outcomes = set()
    for seed in range(10):
        guarded, plain = _both_ways(prog, seed, monkeypatch)
        assert guarded == plain, f"seed {seed}"
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            outcomes.add(st.pcounters["acted"][st.pending.player])
            g.apply_action(rng.randrange(len(st.pending.values)))
        guards, kept = next(o[2:4] for o in g.st.g.action_orders.values() if o[0] is False)
        assert guards == (dig.guard,)  # the guards of one action alone are not tested apart
        assert set(kept) == {(True,), (False,)}  # both outcomes listed
        assert [r[1] for r in kept[(False,)][0]] == [rest, wait]  # (rows, their calls)
    assert outcomes == {0, 1}


def test_a_failing_guard_leaves_its_actions_out(tmp_path):
    """The listing follows the guard, not the enumerators' own test: a guard that always fails
    leaves `dig` and `build` out even where `acted` is 0 (so the tests above see the path)."""
    prog = _small(tmp_path)
    g = new_game(prog, seed=0, memory=False)
    st = g.st
    acts = list(prog.actions)
    p = st.pending.player
    names = [prog.actions[v[0]].name for v in E.enumerate_actions(st, acts, p)]
    assert names == ["dig", "build"]
    never = lambda st, you: False  # noqa: E731
    for a in acts[:2]:  # a program of this test's own (`_small` compiles afresh)
        a.guard = never
    g2 = new_game(prog, seed=0, memory=False)
    assert E.enumerate_actions(g2.st, acts, p) == []

"""Issue #34: a window whose actions are all the rules' own without limit or cost (`direct`)
and share no first test is listed by their enumerators directly (`Window._solo`: one action's
function, or a tuple of them called in order), not through `engine.enumerate_actions`. Seeded
random games play the same (their options at every decision and their end states) as with
every window listed by `enumerate_actions`, and the path is the one taken where it applies."""

from __future__ import annotations

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E

RULESETS = ["clash_of_decks", "cthulhu_wars", "nivel_arena", "game_of_thrones_2p"]


def windows_of(prog) -> list:
    return [s for s in prog.stmts if isinstance(s, E.Window)]


def play(prog, seeds, kinds: set | None) -> list:
    """Each seeded random game's options at every decision, and its end state's digest; with
    `kinds` None every window is listed through `enumerate_actions`, else the kinds of the
    windows' direct listings found are added to it."""
    out = []
    for seed in seeds:
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        if kinds is None:
            for w in windows_of(prog):
                st.g.listings[w] = False
        offered = []
        while not st.over:
            offered.append([list(v) if isinstance(v, list) else v for v in st.pending.values])
            g.apply_action(rng.randrange(len(st.pending.values)))
        out.append((offered, g.digest()))
        if kinds is not None:
            kinds |= {type(v) for v in st.g.listings.values() if v is not False}
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_windows_listed_directly_play_as_through_enumerate_actions(name):
    prog = load_program(name)
    kinds: set = set()
    direct = play(prog, range(6), kinds)
    general = play(prog, range(6), None)  # every window through enumerate_actions
    assert direct == general
    if name == "clash_of_decks":  # the spell window (cast) and the summoning one (two)
        assert kinds >= {tuple, type(lambda: 0)}


def test_which_windows_are_listed_directly(monkeypatch):
    """Not a window with a card's own action, an action with a limit or a cost, or actions
    that share a first test (`_guarded`'s: those are tested once per listing instead), found
    from the program alone; kept per game, not in the shared program."""
    for name in RULESETS:
        prog = load_program(name)
        g = new_game(prog, seed=0, memory=False).st.g
        for w in windows_of(prog):
            got = w._solo(g)
            assert g.listings[w] is got
            acts = w.actions
            guards = [a.guard for a in acts if a.guard is not None]
            if not all(a.direct for a in acts) or len(set(guards)) < len(guards):
                assert got is False, (name, w.name)
            elif len(acts) == 1:
                assert got is acts[0].fast_enum
            else:
                assert got == tuple(a.fast_enum for a in acts)
        assert new_game(prog, seed=1, memory=False).st.g.listings is not g.listings
    cth = load_program("cthulhu_wars")
    g = new_game(cth, seed=0, memory=False).st.g
    guarded = [w for w in windows_of(cth) if E._guarded(w.actions)[0] is False]
    assert guarded and all(w._solo(g) is False for w in guarded)
    monkeypatch.setattr(E, "ENUM_GUARDS", False)  # a toggle of the guards changes nothing here
    assert all(w._solo(g) is False for w in guarded)
    assert any(w._solo(g) for w in windows_of(cth))  # the more-moves window: one action
    got = load_program("game_of_thrones_2p")
    g = new_game(got, seed=0, memory=False).st.g
    assert all(w._solo(g) is False for w in windows_of(got))  # cards' own actions in each

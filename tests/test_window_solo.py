"""Issue #34: a window whose actions are all the rules' own without limit or cost (`direct`)
and share no first test is listed by their enumerators directly (`Window.solo`, planned when the
program is compiled: one action's function, or a tuple of them called in order), not through
`engine.enumerate_actions`. Seeded random games play the same (their options at every decision
and their end states) as with every window listed by `enumerate_actions`, and the path is the
one taken where it applies."""

from __future__ import annotations

import functools
import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E

RULESETS = ["clash_of_decks", "cthulhu_wars", "nivel_arena", "game_of_thrones_2p"]


def windows_of(prog) -> list:
    return [s for s in prog.stmts if isinstance(s, E.Window)]


def play(prog, seeds) -> list:
    """Each seeded random game's options at every decision, and its end state's digest."""
    out = []
    for seed in seeds:
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        offered = []
        while not st.over:
            offered.append([list(v) if isinstance(v, list) else v for v in st.pending.values])
            g.apply_action(rng.randrange(len(st.pending.values)))
        out.append((offered, g.digest()))
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_windows_listed_directly_play_as_through_enumerate_actions(name, monkeypatch):
    prog = load_program(name)
    direct = play(prog, range(6))
    kinds = {type(w.solo) for w in windows_of(prog) if w.solo is not False}
    for w in windows_of(prog):  # every window through enumerate_actions (restored after)
        monkeypatch.setattr(w, "solo", False)
        monkeypatch.setattr(w, "one", None)
        monkeypatch.setattr(w, "cards", None)
        monkeypatch.setattr(w, "listing", functools.partial(E.listed_actions, w.actions))
    general = play(prog, range(6))
    assert direct == general
    if name == "clash_of_decks":  # the spell window (cast) and the summoning one (two)
        assert kinds >= {tuple, type(lambda: 0)}


def test_which_windows_are_listed_directly(monkeypatch):
    """Not a window with a card's own action, an action with a limit or a cost, or actions
    that share a first test (`_guarded`'s: those are tested once per listing instead), found
    from the program alone when it is compiled."""
    for name in RULESETS:
        prog = load_program(name)
        for w in windows_of(prog):
            got = w.solo
            acts = w.actions
            guards = [a.guard for a in acts if a.guard is not None]
            if not all(a.direct for a in acts) or len(set(guards)) < len(guards):
                assert got is False, (name, w.name)
            elif len(acts) == 1:
                assert got is acts[0].fast_enum is w.one
            else:
                assert got == tuple(a.fast_enum for a in acts)
            assert w.one is (got if len(acts) == 1 and got is not False else None)
    cth = load_program("cthulhu_wars")
    guarded = [w for w in windows_of(cth) if E._guarded(w.actions)[0] is False]
    assert guarded and all(w.solo is False for w in guarded)
    monkeypatch.setattr(E, "ENUM_GUARDS", False)  # a toggle of the guards changes nothing here
    for w in guarded:
        w.plan_listing()
    assert all(w.solo is False for w in guarded)
    assert any(w.solo for w in windows_of(cth))  # the more-moves window: one action
    got = load_program("game_of_thrones_2p")
    assert all(w.solo is False for w in windows_of(got))  # cards' own actions in each


def test_a_window_with_cards_own_actions_keeps_their_order():
    """A window with a card's own action keeps the order of its actions by card from the program
    (`Window.cards`, `engine._by_card`), listed by `card_listing` without the game's look-up;
    the others have none. (Their games: the test above, with `cards` cleared.)"""
    for name in RULESETS:
        for w in windows_of(load_program(name)):
            if any(a.origin == "card" for a in w.actions):
                assert w.cards == E._by_card(w.actions) and w.cards[1], (name, w.name)
            else:
                assert w.cards is None, (name, w.name)
    assert all(w.cards for w in windows_of(load_program("game_of_thrones_2p")))


def test_a_listing_with_no_limit_used_calls_the_enumerators_in_a_row(monkeypatch):
    """While `State.used` is empty, a window listed by `enumerate_actions` without a card's own
    action calls each action's enumerator from one tuple (`_free_calls`: a limited action's as
    a direct one's); Cthulhu Wars' seeded games play the same with the rows' own tests."""
    prog = load_program("cthulhu_wars")
    taken = play(prog, range(3))
    g = new_game(prog, seed=0, memory=False)
    kept = [o for o in g.st.g.action_orders.values() if o[0] is False]
    assert kept and all(calls is not None for _, calls in kept[0][3].values())
    limited = [a for a in prog.actions if a.origin == "global" and a.limit is not None]
    assert limited and E._free_calls(tuple((None, a) for a in limited)) == tuple(
        a.fast_enum for a in limited
    )
    monkeypatch.setattr(E, "_free_calls", lambda rows: None)
    assert play(prog, range(3)) == taken

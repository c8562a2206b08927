"""Issue #34: a window's options are listed from a plan kept until a zone changes
(engine._present_actions: the rules' own actions, and each card's own with the objects of that
card present, whose owner is tested at each listing; a window without cards' own actions calls
each action's enumerator from a tuple kept per list of actions, `engine._action_order`, and a
rules' own action with a limit or a cost is listed without a list of sources). At every window
of seeded random games of the bundled rulesets, the options offered are those of the general
listing: every action of the window, in the order written, each source's options by its
enumerator (`reference_enumerate`), on a copy of the state."""

from __future__ import annotations

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime.effects import acting
from madang.runtime.program import Program
from playthrough import windows

RULESETS = ["cthulhu_wars", "clash_of_decks", "nivel_arena", "game_of_thrones_2p"]


def all_present(st) -> dict[int, list[int]]:
    """The objects of every card where its abilities are in force (its zones, else the active
    ones), by card, in zone order: found here by a pass over the active zones."""
    present: dict[int, list[int]] = {}
    in_force = st.g.card_zones
    for z in st.g.active_zones:
        for o in st.zones[z]:
            c = st.obj_card[o]
            if in_force is None or z in in_force[c]:
                present.setdefault(c, []).append(o)
    return present


def reference_enumerate(act, st, player, values) -> None:
    """An action's options the general way, written out here (not `ActionRT.enumerate`, whose
    rules' own action takes a shorter path): its sources found afresh, those whose limit is
    used up left out, each source's options listed, then the options whose limit per argument
    is used up or whose costs cannot be paid left out."""
    if act.origin == "global":
        sources = [None]
    elif act.origin == "card":
        present = all_present(st)
        sources = [o for o in present.get(act.card_index, ()) if st.obj_owner[o] == player]
    else:
        sources = [
            o for o in acting(st) if st.obj_owner[o] == player and act.prog.has(st, o, act.owner)
        ]
    if act.limit is not None and act.limit_by is None:
        sources = [s for s in sources if act.used_key(st, player, s, ()) not in st.used]
    start = len(values)
    for src in sources:
        env = {"you": player} if src is None else {"you": player, "this": src}
        act.fast_enum(st, env, src, values, E.NO_CACHE)
    if act.limit_by is not None:
        values[start:] = [
            v for v in values[start:] if act.used_key(st, player, v[2], v[1]) not in st.used
        ]
    values[start:] = [v for v in values[start:] if act.payable(st, v[1], player)]


def general_listing(st, actions, player) -> list:
    """Each action's options listed the general way (its sources found afresh), in order."""
    c = st.clone()
    c.forget_kept()
    values: list = []
    for act in actions:
        reference_enumerate(act, c, player, values)
    return values


def play_and_compare(prog, seed: int) -> tuple[int, int]:
    """(windows compared, of which with a card's own action offered) in one seeded game."""
    checked = by_card = 0
    for st, w, got in windows(prog, seed):
        assert got == general_listing(st, w.actions, st.pending.player), f"seed {seed}"
        checked += 1
        by_card += any(v[2] is not None for v in got)
    return checked, by_card


@pytest.mark.parametrize("name", RULESETS)
def test_a_windows_options_are_those_of_the_general_listing(name):
    prog = load_program(name)
    checked = by_card = 0
    for seed in range(8):
        c, b = play_and_compare(prog, seed)
        checked, by_card = checked + c, by_card + b
    assert checked > 0
    if name == "game_of_thrones_2p":  # its windows offer cards' own actions, of both players
        assert by_card > 0


@pytest.mark.parametrize("name", RULESETS)
def test_the_objects_present_kept_are_those_of_every_card_with_abilities(name, monkeypatch):
    """At every decision of seeded random games (the suite's own check off, so that what is kept
    is used), the objects present kept (`objects_by_card`, `State.kw`) are those of a pass over
    the active zones for every card with abilities of its own; no other card is looked up."""
    prog = load_program(name)  # (compiled as the suite plays: conftest.py)
    monkeypatch.setattr(Program, "verify_checks", False)
    cards = {a.card_index for a in prog.actions if a.origin == "card"}
    cards |= {lst.card_index for lst in prog.listener_by_id.values() if lst.origin == "card"}
    found = 0
    for seed in range(4):
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            want = {c: objs for c, objs in all_present(st).items() if c in cards}
            assert E.objects_by_card(st) == want, f"seed {seed}"
            found += sum(map(len, want.values()))
            g.apply_action(rng.randrange(len(st.pending.values)))
    assert found > 0 or not cards


def test_a_card_action_is_offered_only_to_its_objects_owner():
    """The plan keeps a card's objects present of every owner; each listing keeps the player's
    own (the other player's objects offer nothing)."""
    prog = load_program("game_of_thrones_2p")
    seen = 0
    for seed in range(8):
        g = new_game(prog, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            p = st.pending
            if p.kind == "window":
                for v in p.values:
                    if v != E.DONE and v[2] is not None:
                        assert st.obj_owner[v[2]] == p.player
                        seen += 1
            g.apply_action(rng.randrange(len(p.values)))
    assert seen > 0


def test_a_move_keeps_the_window_plans_but_for_a_card_with_abilities_where_in_force():
    """`State.kw` (the windows' plans and the objects present by card) is kept as it is across
    moves of objects of cards without abilities of their own and moves outside the zones where
    a card's abilities are in force, written in place when an object of a card with abilities
    comes or goes there (engine.present_moved), and not shared by a clone."""
    prog = load_program("game_of_thrones_2p")
    g = new_game(prog, seed=1, memory=False)
    rng, st = random.Random(1), g.st
    while st.kw is None or not st.kw[1]:
        g.apply_action(rng.randrange(len(st.pending.values)))
    cards = st.kw[0]
    assert cards == E._ability_cards(st.g) and cards
    assert st.clone().kw is None
    other = next(o for o in range(len(st.obj_card)) if st.obj_card[o] not in cards)
    kept = st.kw
    E.move_object(st, other, st.obj_zone[other], "back")
    assert st.kw is kept
    in_force = st.g.card_zones
    away = next(
        o for o in range(len(st.obj_card))
        if st.obj_card[o] in cards and st.obj_zone[o] >= 0
        and st.obj_zone[o] not in in_force[st.obj_card[o]]
    )  # fmt: skip
    E.move_object(st, away, st.obj_zone[away], "back")
    assert st.kw is kept
    present = E.objects_by_card(st)
    mine = next(o for objs in present.values() for o in objs)
    E.move_object(st, mine, st.obj_zone[mine], "back")
    assert st.kw is kept and E.objects_by_card(st) is present
    assert present == all_present_of(st, cards)


def all_present_of(st, cards) -> dict[int, list[int]]:
    """`all_present` of the cards `cards` only."""
    return {c: objs for c, objs in all_present(st).items() if c in cards}


@pytest.mark.parametrize("seed", range(4))
def test_a_move_writes_the_objects_present_and_keeps_the_other_cards_window_plans(seed):
    """Objects of cards with abilities moved at random (to the back, the front or an index of
    any zone) at a decision of a seeded random game: `State.kw` stays the same tuple, its
    objects present by card equal to those found afresh; when a move makes a card present or
    no longer present, the plans of the windows without actions of that card are kept as they
    were and those with its actions are made again (engine.present_moved); every plan kept
    equals one made afresh."""
    prog = load_program("game_of_thrones_2p")
    # the windows' actions and orders, by the key of their plans
    listed = {id(w.actions): (w.actions, w.cards) for w in prog.stmts if type(w) is E.Window}
    g = new_game(prog, seed=seed, memory=False)
    rng, st = random.Random(seed), g.st
    for _ in range(20 + 10 * seed):
        g.apply_action(rng.randrange(len(st.pending.values)))
    kw = st.kw
    assert kw is not None and E.PRESENT in kw[1]
    cards = kw[0]
    kept_plans = 0
    for _ in range(40):  # (the game does not go on: the moves are not the rules')
        objs = [o for o, z in enumerate(st.obj_zone) if z >= 0 and st.obj_card[o] in cards]
        o = rng.choice(objs)
        z = rng.randrange(len(st.zones))
        before = dict(kw[1])
        had = set(kw[1][E.PRESENT])
        where = rng.choice(["back", "front", "at"])
        E.move_object(st, o, z, where, rng.randrange(len(st.zones[z]) + 1))
        assert st.kw is kw and kw[1][E.PRESENT] == all_present_of(st, cards)
        card = st.obj_card[o]
        changed = (card in kw[1][E.PRESENT]) != (card in had)
        for key, plan in before.items():
            if key is E.PRESENT:
                continue
            if changed and card in kw[2][key]:
                assert key not in kw[1]  # its window lists an action of the card: made again
            else:
                assert kw[1][key] is plan
                kept_plans += 1
        for key, plan in kw[1].items():
            if key is not E.PRESENT:
                assert plan == E._present_actions(st, *listed[key])
        E.objects_by_card(st)  # (found again after a shuffle or a removal: none here)
    assert kept_plans > 0


def test_the_next_pick_of_a_question_is_found_from_the_last(monkeypatch):
    """A question of several picks keeps what it found for its next pick; the suite's
    `verify_checks` finds it afresh and fails on a difference (Choose._verify_kept). The
    seeded games of Game of Thrones take that path."""
    prog = load_program("game_of_thrones_2p")
    assert prog.verify_checks
    seen = []
    verify = E.Choose._verify_kept

    def counted(self, *args):
        seen.append(self.span)
        return verify(self, *args)

    monkeypatch.setattr(E.Choose, "_verify_kept", counted)
    for seed in range(4):
        g = new_game(prog, seed=seed, memory=seed % 2 == 0)
        rng = random.Random(seed)
        while not g.st.over:
            if rng.random() < 0.2:  # a clone answers on its own: it finds its question afresh
                c = g.clone()
                if not c.st.over:
                    c.apply_action(rng.randrange(len(c.st.pending.values)))
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert len(seen) > 20

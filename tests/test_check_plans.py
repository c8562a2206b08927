"""The checks' plan (engine._check_plan: each check's reader of what it reads, the bits of its
zones, its kept domain's zones) and the kept totals' masks are made once per program and
layout of zones (engine.game_plan, inputs._layout_masks) and shared by its games: making them
per game (the readers' `eval`) cost 1-2% of a random game (issue #34). A shared plan must be
the one a game would make for itself, and a game of another layout must get its own."""

import random

from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime import inputs
from minirules import write_ruleset

SEATS = """\
kind token:
    power: number

zone box: per player, public
zone pile: per player, public
zone heap: shared, public

check weak for t in flatten(players.box) if t.power <= 0:
    move t to heap

check strong if count(flatten(players.box) where it.power >= 5) > 0:
    for p in players:
        p.n += 1

counter n: per player = 0

flow:
    for p in players:
        create "T" in p.pile
"""


def _same_plan(g, st) -> None:
    """The plan `g` shares equals one made afresh for it: the same checks, bits, zone masks
    and domains, and readers that read the same parts of `st`."""
    shared = g.kept_points["plan"]
    fresh = E._check_plan(g)
    assert len(shared[0]) == len(fresh[0]) > 0
    for a, b in zip(shared[0], fresh[0]):
        assert a[0] is b[0] and a[1] == b[1] and a[3:] == b[3:]
        assert (a[2] is None) == (b[2] is None)
        if a[2] is not None:
            assert a[2](st) == b[2](st)
    assert shared[1:] == fresh[1:]
    assert g.zone_checks == E.zone_checks(g)


def test_the_games_of_a_program_share_one_plan_equal_to_their_own():
    """Game of Thrones and Nivel Arena: every game of one program gets the same plan object
    (made once), and at each decision of a seeded game it equals the one made for that game;
    the kept totals' masks are shared the same way."""
    for name in ("game_of_thrones_2p", "nivel_arena"):
        prog = load_program(name)
        games = [new_game(prog, seed=s, memory=False) for s in range(3)]
        plans = {id(g.st.g.kept_points["plan"]) for g in games}
        assert len(plans) == 1
        g = games[0]
        rng = random.Random(0)
        for _ in range(40):
            if g.st.over:
                break
            _same_plan(g.st.g, g.st)
            g.apply_action(rng.randrange(len(g.st.pending.values)))
        masks = {id(inputs._layout_masks(x.st.g)) for x in games}
        assert len(masks) == 1
        assert inputs._layout_masks(g.st.g) == inputs._kept_masks(g.st.g)


def test_a_game_of_another_layout_gets_its_own_plan(tmp_path):
    """A ruleset for two or three players: the games of each number of players share a plan,
    the two plans differ in their zones' bits (three boxes, not two), and each game's checks
    fire on its own boxes."""
    folder = write_ruleset(
        tmp_path, SEATS, "cards: [{name: T, type: token, power: 0}]\n", players="{min: 2, max: 3}"
    )
    prog = load_program(folder)
    two = [new_game(prog, {}, seed=s) for s in range(2)]
    three = [new_game(prog, {"players": 3}, seed=s) for s in range(2)]
    p2, p3 = (g.st.g.kept_points["plan"] for g in (two[0], three[0]))
    assert two[1].st.g.kept_points["plan"] is p2 and three[1].st.g.kept_points["plan"] is p3
    assert p2 is not p3 and p2[2] != p3[2]  # the kept domain's zones: two boxes, three boxes
    for g in two + three:
        _same_plan(g.st.g, g.st)
    st = three[0].st
    box = st.g.zone_base["box"] + 2
    o = E.create_card(st, "T", box, None, "test")
    st.dirty |= prog.check_bits
    E.run_checks(st)
    assert st.frames and st.frames[-1].env.get("t") == o  # the third seat's box is read

"""The checks' plan (engine._check_plan: each check's reader of what it reads, the bits of its
zones, its kept domain's zones) and the kept totals' masks are made once per program and
layout of zones (engine.game_plan, inputs._layout_masks) and shared by its games: making them
per game (the readers' `eval`) cost 1-2% of a random game (issue #34). A shared plan must be
the one a game would make for itself, and a game of another layout must get its own."""

import random

import pytest
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime import inputs
from madang.runtime.program import Program
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
        assert a[0] is b[0] and a[1] == b[1] and a[5] == b[5]
        if a[2] is None and b[2] is not None:  # no longer kept false (`_settle`)
            assert a[6] is None and a[3] is None
            assert a[4] == (None if a[5] is None else ("domain", a[1]))
            continue
        assert a[3:5] == b[3:5] and (a[2] is None) == (b[2] is None)
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


RARE = """\
kind token:
    power: number

zone box: shared, public
zone pile: shared, public
counter n = 0

check full if count(box) >= 50:
    move first(box) to pile

flow:
    repeat 3 times:
        create "T" in pile
    repeat until n >= 40:
        choose t from pile by first(players) "t"
        move t to box
        move first(box) to pile
        n += 1
"""


def test_a_kept_check_whose_points_seldom_hold_is_no_longer_kept(tmp_path, monkeypatch):
    """A check kept false by its zone (`box`), which every round's moves make due, is not
    found false by its point after a move: after `TRIAL` such due points it is evaluated
    whenever due, in this and the next games of the program (the shared plan), and the games
    play as before (skipped checks are evaluated anyway under the tests: verify_checks)."""
    monkeypatch.setattr(E, "TRIAL", 16)
    folder = write_ruleset(tmp_path, RARE, "cards: [{name: T, type: token, power: 0}]\n")
    prog = load_program(folder)
    (chk,) = prog.checks
    assert chk.reads is not None and chk.zones == {"box"}
    evaluated = []
    fire = E.Check.fire
    monkeypatch.setattr(E.Check, "fire", lambda c, s: evaluated.append(1) or fire(c, s))
    g = new_game(prog, {}, seed=1)
    row = g.st.g.kept_points["plan"][0][0]
    assert row[2] is not None and row[6] is not None

    def forced() -> int:  # due twice on the same state: how many evaluations
        evaluated.clear()
        for _ in range(2):
            g.st.dirty |= prog.check_bits
            E.run_checks(g.st)
        return len(evaluated)

    assert forced() <= 1  # kept false on the same state
    rng = random.Random(1)
    while not g.st.over and row[6] is not None and row[6][0] < E.TRIAL:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert not g.st.over
    (row,) = g.st.g.kept_points["plan"][0]
    assert row[2] is None and row[6] is None  # settled: no longer kept, nor counted
    assert forced() == 2
    h = new_game(prog, {}, seed=2)
    assert h.st.g.kept_points["plan"][0][0][2] is None


def test_a_kept_check_whose_points_hold_stays_kept():
    """Nivel Arena's `파워0` (its points hold at about two thirds of its due points): after
    enough games to settle it, it is still kept false; `_settle` keeps a row whose points
    held at a quarter of its due points or more, and drops one below."""
    prog = load_program("nivel_arena")
    for seed in range(6):
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    rows = g.st.g.kept_points["plan"][0]
    (row,) = [r for r in rows if r[0].name == "파워0"]
    assert row[2] is not None and row[6] is None
    fresh = E._check_plan(g.st.g)[0]
    (i,) = [k for k, r in enumerate(fresh) if r[0].name == "파워0"]
    fresh[i][6][:] = [300, 100]  # held at 100 of 400 due points: a quarter, kept
    E._settle(fresh, fresh[i][0])
    assert fresh[i][2] is not None and fresh[i][6] is None
    fresh = E._check_plan(g.st.g)[0]
    fresh[i][6][:] = [301, 100]  # fewer than a quarter: no longer kept
    E._settle(fresh, fresh[i][0])
    assert fresh[i][2] is None and fresh[i][3] is None and fresh[i][6] is None


def test_the_comparing_tests_see_a_game_charge_the_same_whatever_was_played_before(monkeypatch):
    # A program's shared plan learns from its games (`_settle` after `TRIAL` points), which
    # changes the work charged, never the game: tests/playthrough.py forgets what was learned
    # before each game it compares, so the tests that compare two compilations do not depend
    # on which tests played the program `load_program` keeps before them in their process.
    # (Under the tests' verify_checks the skipped checks are evaluated anyway, which hides it.)
    from playthrough import decision_steps

    prog = load_program("game_of_thrones_2p")  # (compiled as the suite plays: conftest.py)
    monkeypatch.setattr(Program, "verify_checks", False)
    first = decision_steps(prog, 0)
    for seed in range(100, 130):  # enough points for its checks to settle
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    learned = []  # the same game on what the plan learned: it charges other work
    g = new_game(prog, seed=0, memory=False)
    rng = random.Random(0)
    while not g.st.over:
        learned.append(g.st.work)
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert learned != [row[1] for row in first[:-1]]
    assert decision_steps(prog, 0) == first


def test_a_kept_program_is_compiled_only_with_the_suites_check_on(tmp_path, monkeypatch):
    # The compiled reads of modified properties check themselves (and charge that check's work)
    # only if `Program.verify_checks` was on when the program was compiled: a program compiled
    # with it off charges other work at the same decisions of the same game. So a program
    # `load_program` keeps must never be compiled inside a test that turned the check off, or
    # every later comparison in its worker would see another game's work (tests/conftest.py).
    from playthrough import decision_steps

    on = api._load_cached.__wrapped__("nivel_arena", ())
    monkeypatch.setattr(Program, "verify_checks", False)
    off = api._load_cached.__wrapped__("nivel_arena", ())
    monkeypatch.setattr(Program, "verify_checks", True)
    played_on, played_off = decision_steps(on, 0), decision_steps(off, 0)
    assert [row[0] for row in played_on] == [row[0] for row in played_off]  # the same game
    assert [row[1] for row in played_on] != [row[1] for row in played_off]  # other work

    folder = write_ruleset(tmp_path, SEATS, "cards: [{name: T, type: token, power: 0}]\n")
    monkeypatch.setattr(Program, "verify_checks", False)
    with pytest.raises(AssertionError, match="verify_checks off"):
        load_program(folder)
    monkeypatch.setattr(Program, "verify_checks", True)
    assert str(load_program(folder).folder) == str(folder)

"""Issue #34: a deferred listing's loop over the areas whose first test is whether an object
of `you` is in the area's zone goes only through the areas where `you` owns objects
(`enumerators.OWNED_AREAS`), the other zones charged from one total; the counts it reads
(`State.kn`, runtime/owned.py) are kept by the moves, made and removed objects, and forgotten
where an owner changes. The same games, the same work and errors at every budget."""

from __future__ import annotations

import random

from madang.build import enumerators
from madang.game.api import load_program, new_game
from madang.runtime.owned import owned
from minirules import ROUNDS, four_areas
from playthrough import compiled_without, decisions
from test_deferred_charges import RULES as HOPS
from test_deferred_charges import _compare

SWITCH = (enumerators, "OWNED_AREAS")


def _fast(prog, action: str) -> str:
    return next(a for a in prog.actions if a.name == action).fast_enum.generated


def _counts(kn: tuple) -> tuple:
    """`State.kn` without the items of zone -1 (what they add up means nothing)."""
    rows, totals, base = kn
    return [r[:-1] for r in rows], totals[:-1], base


def _kept_counts_hold(prog, seed: int, limit: int = 400) -> int:
    """At each decision of a seeded random game, the counts the state keeps (when it has
    them) equal those built afresh from its zones: how many decisions had them."""
    g = new_game(prog, seed=seed, memory=False)
    rng, st, held = random.Random(seed), g.st, 0
    while not st.over and limit:
        if st.kn is not None:
            kept, st.kn = st.kn, None
            assert _counts(kept) == _counts(owned(st)), f"seed {seed}"
            held += 1
            assert st.clone().kn is None  # (a clone builds its own)
        g.apply_action(rng.randrange(len(st.pending.values)))
        limit -= 1
    return held


def test_cthulhu_wars_moves_go_through_the_areas_of_their_units_and_play_as_before(
    monkeypatch,
):
    prog = load_program("cthulhu_wars")
    for action in ("march", "march_also", "capture"):
        assert "_compress(enumerate(zs_), kn_[0][you_]" in _fast(prog, action), action
    assert "dw_ += kn_[1][zk_] * 2" in _fast(prog, "capture")  # (its `else` charges again)
    off = compiled_without("cthulhu_wars", monkeypatch, SWITCH)
    assert not any("kn_" in a.fast_enum.generated for a in off.actions)
    for seed in (0, 3):
        assert decisions(prog, seed, 150) == decisions(off, seed, 150), seed
    assert _kept_counts_hold(prog, 2) > 50


def test_cthulhu_wars_listings_raise_the_same_errors_at_every_budget():
    compared, errors = _compare(load_program("cthulhu_wars"), 2, range(3, 60, 7))
    assert compared > 300 and errors > 300


RULES = """\
zone units: per area, public
zone pool: shared, public
counter tally = 0

kind piece:
    size: number

define near(a: area) = areas where it != a and count(adjacent(it) where it in adjacent(a)) > 0

action hop(a: area from areas, nm: text from unique((a.units where it.owner == you).name), b: area from near(a)) in act:
    require exists(first(a.units where it.owner == you))
    move first(a.units where it.owner == you and it.name == nm) to b.units
    tally += 1

action poke(a: area from areas) in act:
    require exists(first(a.units where it.owner == you and it.size > 1)) or exists(first(a.units where it.owner == you and it.size == 1))
    tally += 1

action spawn(a: area from areas) in act:
    require tally % 3 == 0
    create "Small" in a.units for you

action drop(a: area from areas) in act:
    require exists(first(a.units where it.owner == you))
    remove first(a.units where it.owner == you)

action gift(a: area from areas, q: player from players) in act:
    require q != you and exists(first(a.units where it.owner == you and it.size > 1))
    first(a.units where it.owner == you and it.size > 1).owner = q

action bench(a: area from areas) in act:
    require exists(first(a.units where it.owner == you))
    move first(a.units where it.owner == you) to pool

"""
# the setup of tests/test_deferred_charges.py's pieces, and one more piece in area D
RULES += HOPS[HOPS.index("setup:") :].rstrip("\n") + '\n    create "Small" in area("D").units\n\n'


def test_a_small_ruleset_with_objects_made_removed_and_given_away(tmp_path, monkeypatch):
    """Pieces hopping, made, removed, moved out of the map and given to another player
    (their counts forgotten), one made in the setup for the active seat: the same states and work as without the
    owned areas over 12 seeded games, the kept counts those of the zones at every decision,
    and every listing at every budget as the listing charged one by one."""
    folder = four_areas(tmp_path, RULES + ROUNDS, "owned")
    on, off = load_program(folder), compiled_without(folder, monkeypatch, SWITCH)
    assert "_compress(enumerate(zs_), kn_[0][you_]" in on.actions[0].fast_enum.generated
    assert "dw_ += kn_[1][zk_] * 2" in on.actions[1].fast_enum.generated
    for seed in range(12):
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
        assert _kept_counts_hold(on, seed) > 0
    compared, errors = _compare(on, 0, range(8))
    assert compared > 200 and errors > 200


def test_a_move_not_written_into_the_counts_is_seen(tmp_path):
    """`_kept_counts_hold` finds counts that a move did not write (so the test above fails
    where the moves do not keep them), and a listing reading them lists other options."""
    from madang.runtime import engine

    folder = four_areas(tmp_path, RULES + ROUNDS, "owned_stale")
    prog = load_program(folder)
    g = new_game(prog, seed=0, memory=False)
    st = g.st
    kn = owned(st)
    a = st.zones[st.g.zone_base["units"]]
    o = next(x for x in a if st.obj_owner[x] == 1)  # the second seat's piece of area A,
    # moved to D (where that seat has none) unseen
    st.kn = None
    engine.move_object(st, o, st.g.zone_base["units"] + 3, "back")
    assert _counts(kn) != _counts(owned(st))
    values: list = []
    hop = prog.actions[0].fast_enum
    hop(st.clone(), {"you": st.obj_owner[o]}, None, values, {})
    st.kn = kn
    stale: list = []
    hop(st, {"you": st.obj_owner[o]}, None, stale, {})
    assert stale != values


# a movers' domain narrower than the scan's test (`it.size > 0` after the owner): its scan and
# its loop made one (`OWNED_ONE_LOOP`)
CLIMB = """\
action climb(a: area from areas, nm: text from unique((a.units where it.owner == you and it.size > 1).name), b: area from near(a)) in act:
    require exists(first(a.units where it.owner == you))
    move first(a.units where it.owner == you and it.name == nm) to b.units
    tally += 1

"""
ONE_LOOP = (enumerators, "OWNED_ONE_LOOP")
LATE_CHECK = (enumerators, "OWNED_LATE_CHECK")
HELD_ONCE = (enumerators, "OWNED_HELD_ONCE")
CHECK = "if dw_ > rm_: raise _Again"


def _climb(prog) -> str:
    return next(a for a in prog.actions if a.name == "climb").fast_enum


def test_a_scan_to_an_object_of_mine_and_the_domain_after_it_made_one_loop(tmp_path, monkeypatch):
    """Where the counts say the seat owns an object of the area's zone, the scan to the
    first one cannot fail: it and the domain's loop over the rest become one loop over the
    zone testing the owner first; the area's budget test is left to the one before its
    options (`OWNED_LATE_CHECK`); the destinations held per area computed once before the
    names' loop and charged once (`OWNED_HELD_ONCE`). The same states and work as without
    them over 8 seeded games, every listing at every budget as charged one by one; in Cthulhu Wars the
    moves' listings have the one loop and play as before."""
    folder = four_areas(tmp_path, RULES + CLIMB + ROUNDS, "one_loop")
    on = load_program(folder)
    off = compiled_without(folder, monkeypatch, ONE_LOOP, LATE_CHECK, HELD_ONCE)
    fast, slow = _climb(on).generated, _climb(off).generated
    assert "zi_" not in fast and "_compress(enumerate(zs_), kn_[0][you_]" in fast
    assert "zi_ = iter(zg0_)" in slow  # (the scan, as without the switches)
    assert "dw_ += len(d2) * len(d1)" in fast and "h2" in slow and "h2" not in fast
    assert fast.count(CHECK) == slow.count(CHECK) - 1 > 0
    for seed in range(8):
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
    compared, errors = _compare(on, 0, range(5))
    assert compared > 200 and errors > 200
    prog = load_program("cthulhu_wars")
    cw_off = compiled_without("cthulhu_wars", monkeypatch, ONE_LOOP, LATE_CHECK, HELD_ONCE)
    for action in ("march", "march_also"):
        assert "zi_" not in _fast(prog, action) and "zi_" in _fast(cw_off, action), action
        assert "h2" not in _fast(prog, action) and "h2" in _fast(cw_off, action), action
    assert decisions(prog, 1, 100) == decisions(cw_off, 1, 100)

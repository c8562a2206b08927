"""A state check that reads modified values is kept false while none of the zones it reads
changed (`State.zdirty`, marked wherever a zone changes and gathered by engine.run_checks) and
the rest of what it reads is equal (build/depends.py's `check_zones`, runtime/inputs.py;
issue #34 step 4). The tests evaluate every check skipped so, every domain kept until a zone
changes and every modifier found once per check point afresh, and fail if one differs
(`Program.verify_checks`, set by conftest.py)."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E

RULESETS = ["nivel_arena", "game_of_thrones_2p", "clash_of_decks", "cthulhu_wars"]


def test_the_zones_a_check_reads_are_found_by_name():
    """Nivel Arena's check of units without power reads the lanes itself, not the decks and
    hands; the continuous modifiers of power read the active zones too (where their sources
    are; their `equipped_unit(this)` reads a zone of an object found there), which the kept
    totals' bits (State.kt) follow; Game of Thrones' check of the power needed to win reads
    the play areas only: without a domain, it is kept false too."""
    prog = load_program("nivel_arena")
    nivel = {c.name: c for c in prog.checks}
    power = nivel["파워0"]
    assert power.zones == {"lane1", "lane2", "lane3"}
    assert prog.kept_zones == {"lane1", "lane2", "lane3", "skills", "@active"}
    assert nivel["장착조건확인"].zoned  # its domain reads zones only: kept until one changes
    (got,) = load_program("game_of_thrones_2p").checks
    assert got.zones == {"play_area"} and got.reads is not None
    assert nivel["장착조건확인"].reads is None  # a domain, most often empty: evaluated


@pytest.mark.parametrize("name", RULESETS)
def test_kept_checks_and_domains_are_those_found_afresh_in_random_games(name, monkeypatch):
    """Every check skipped as kept false is evaluated (verify_quiet raises if it holds), every
    kept domain and modifier is computed again and compared; clones play on too."""
    prog = load_program(name)
    assert prog.verify_checks
    skipped = []
    quiet = E.Check.verify_quiet

    def verify(self, st):
        if st.dirty & self.bit:
            skipped.append(self.name)
        quiet(self, st)

    monkeypatch.setattr(E.Check, "verify_quiet", verify)
    # a plan of its own, whose checks stay kept (Game of Thrones' would stop being kept after
    # 256 due points that its points did not hold: engine._settle)
    monkeypatch.setattr(E, "TRIAL", 10**9)
    E._plans.pop(prog, None)
    for seed in range(6):
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
            if rng.random() < 0.1:
                g = g.clone()
    # (Game of Thrones: about nine a game, since a decision answered, a require and a move
    # from a zone it does not read mark its check no more)
    least = {"nivel_arena": 300, "game_of_thrones_2p": 30}
    if name in least:
        assert len(skipped) > least[name]


def _lane_and_hand(st):
    zi = st.g.zone_info
    lanes = [z for z in st.g.active_zones if zi[z][0].startswith("lane")]
    return lanes, zi


def test_a_dropped_zone_mark_is_caught(monkeypatch):
    """A unit without power moved from a hand into an empty lane: only zones changed, so the
    check is evaluated again because the lane's bit is marked, and fires. With the marks of
    moves dropped it would be kept false, and the tests' evaluation of skipped checks fails."""
    prog = load_program("nivel_arena")
    (chk,) = [c for c in prog.checks if c.name == "파워0"]

    def setup():
        g = new_game(prog, seed=2, memory=False)
        st = g.st
        rng = random.Random(2)
        lanes, zi = _lane_and_hand(st)
        while True:
            g.apply_action(rng.randrange(len(st.pending.values)))
            for o in (o for z, (n, _) in enumerate(zi) if n == "hand" for o in st.zones[z]):
                if prog.cards[st.obj_card[o]].kind == "unit":
                    empty = [z for z in lanes if not st.zones[z] and zi[z][1] == st.obj_owner[o]]
                    if empty:
                        st.set_prop(o, "파워", 0)  # a write of a field it reads: evaluated
                        assert prog.base_prop(st, o, "파워") == 0
                        st.dirty = -1
                        E.run_checks(st)  # false: the unit is in a hand
                        assert not st.dirty & chk.bit
                        return st, o, empty[0]

    st, unit, lane = setup()
    E.move_object(st, unit, lane, "back")
    assert st.zdirty >> lane & 1
    st.dirty = -1
    frames = len(st.frames)
    E.run_checks(st)
    assert len(st.frames) == frames + 1  # evaluated again: it holds, its block is pushed

    move = E.move_object

    def unmarked(st, o, z, where, index=0):
        before, kt = st.zdirty, st.kt
        move(st, o, z, where, index)
        st.zdirty, st.kt = before, kt  # the marks dropped (the lane's bit, the kept totals)

    st, unit, lane = setup()
    monkeypatch.setattr(E, "move_object", unmarked)
    E.move_object(st, unit, lane, "back")
    st.dirty = -1
    with pytest.raises(AssertionError, match="holds but was not due"):
        E.run_checks(st)

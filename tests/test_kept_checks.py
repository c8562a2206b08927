"""A state check that reads modified values is kept false per game while the state's zones and
what its condition reads (build/depends.py's tokens) are as they were when it was found false
(runtime/inputs.py, engine.run_checks; issue #34 step 4). Every check skipped so is evaluated
anyway in the tests and must be false (Program.verify_checks, set by conftest.py)."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import effects, inputs
from madang.runtime import engine as E

RULESETS = ["nivel_arena", "game_of_thrones_2p", "clash_of_decks", "cthulhu_wars"]


@pytest.mark.parametrize("name", RULESETS)
def test_no_check_kept_false_holds_in_random_games(name, monkeypatch):
    prog = load_program(name)
    assert prog.verify_checks
    kept = []
    quiet = E.Check.verify_quiet

    def skipped(self, st):  # a check not evaluated: not due, or due and kept false
        if st.dirty & self.bit:
            kept.append(self.name)
        quiet(self, st)  # raises if it holds

    monkeypatch.setattr(E.Check, "verify_quiet", skipped)
    for seed in range(3):
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
            if rng.random() < 0.2:  # clones share the game, and what it keeps
                g = g.clone()
    if name == "nivel_arena":  # its check of units without power reads modified powers
        assert len(kept) > 500
    if not any(c.reads for c in prog.checks):
        assert kept == []


def test_a_check_kept_false_is_evaluated_again_once_what_it_reads_changed(monkeypatch):
    """Nivel Arena's check of units without power reads modified values: found false, it is
    not evaluated again on the same state, nor after a change of what it does not read; after
    a change of what it reads it is."""
    prog = load_program("nivel_arena")
    (chk,) = [c for c in prog.checks if c.reads is not None and "mods:파워" in c.reads]
    # the zones it reads are known by name: the lanes, not the decks and hands; what the
    # continuous modifiers of power read (the active zones, where their sources are, fields,
    # counters, ...) is one number, that of the state's kept totals (State.kt)
    assert chk.zones == {"lane1", "lane2", "lane3"} and "kt" in chk.reads
    g = new_game(prog, seed=2, memory=False)
    st = g.st
    rng = random.Random(2)
    lanes = [z for z in st.g.active_zones if st.g.zone_info[z][0].startswith("lane")]
    while not any(st.zones[z] for z in lanes):
        g.apply_action(rng.randrange(len(st.pending.values)))
    calls = []
    fire = E.Check.fire
    monkeypatch.setattr(E.Check, "fire", lambda c, s: (c is chk and calls.append(1)) or fire(c, s))

    def evaluated() -> int:
        calls.clear()
        st.dirty = -1
        E.run_checks(st)
        return len(calls)

    evaluated()  # (kept false already, if it was at the last check point of the game)
    assert evaluated() == 0  # the same state: kept false
    st.pcounters["doomed"][0] += 1  # a counter it does not read
    assert evaluated() == 0
    unit = next(o for z in lanes for o in st.zones[z])
    st.mods = st.mods + [(unit, "파워", -1, None, 0)]  # a modifier of power: evaluated again
    assert evaluated() == 1
    assert evaluated() == 0
    empty = next(z for z in lanes if not st.zones[z] and st.g.zone_info[z][1] == st.obj_owner[unit])
    E.move_object(st, unit, empty, "back")  # from lane to lane: only the zones changed
    assert evaluated() == 1
    assert evaluated() == 0
    deck = next(z for z in range(len(st.zones)) if st.g.zone_info[z][0] == "deck" and st.zones[z])
    hand = next(
        z for z in range(len(st.zones)) if st.g.zone_info[z] == ("hand", st.g.zone_info[deck][1])
    )
    E.move_object(st, st.zones[deck][0], hand, "back")  # a draw: a zone it does not read
    assert evaluated() == 0
    E.forget_kept(st, "scope")  # (a turn began) the modifiers' kept totals are forgotten,
    assert st.kt is None and evaluated() == 0  # found again equal: still kept false
    assert st.kt is not None and "파워" in st.kt[1]
    c = st.clone()  # a clone's zones are its own: evaluated on it once
    c.dirty = -1
    E.run_checks(c)
    assert calls == [1]
    # the totals found again differ for one unit: evaluated again (not by the condition, which
    # the tests' compiled reads compare with the general way)
    monkeypatch.setattr(E.Check, "fire", lambda c, s: c is chk and calls.append(1) and False)
    st.kt = None
    inputs.kept_totals(st)[1]["파워"] = {unit: (effects._MISSING, True, 7)}
    assert evaluated() == 1


@pytest.mark.parametrize("name", ["nivel_arena", "game_of_thrones_2p"])
def test_an_answer_alone_makes_no_check_due(name, monkeypatch):
    """The run after an answered decision keeps the checks' marks as the question left them
    (the answer changed nothing a check reads), where a tool's run marks every check due: the
    same games with fewer checks due when they are run."""
    prog = load_program(name)
    run = E.run

    def play(marks_all: bool) -> tuple[int, list[str]]:
        due = []  # each check found due by run_checks: evaluated, or found as it was kept
        fire, quiet = E.Check.fire, E.Check.verify_quiet
        monkeypatch.setattr(E.Check, "fire", lambda c, s: due.append(1) or fire(c, s))

        def kept_or_not_due(c, s):
            if s.dirty & c.bit:
                due.append(1)
            quiet(c, s)

        monkeypatch.setattr(E.Check, "verify_quiet", kept_or_not_due)
        if marks_all:
            monkeypatch.setattr(E, "run", lambda st, answered=False: run(st))
        digests = []
        for seed in range(2):
            g = new_game(prog, seed=seed, memory=False)
            rng = random.Random(seed)
            while not g.st.over:
                g.apply_action(rng.randrange(len(g.st.pending.values)))
            digests.append(g.digest())
        monkeypatch.undo()
        return len(due), digests

    kept, same = play(False)
    every, before = play(True)
    assert same == before
    assert kept < every


def test_a_tool_that_changes_a_state_itself_makes_every_check_due():
    g = new_game(load_program("nivel_arena"), seed=0, memory=False)
    g.st.dirty = 0
    g.st.forget_kept()  # a sample, a seat's view: objects placed or cards changed by a tool
    assert g.st.dirty == -1

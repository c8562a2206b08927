"""The parts a kept state check reads, read by one compiled function (runtime/inputs.reader):
the same values, in the same order, as read one by one, at every decision of seeded games of
the rulesets whose checks are kept; a written part makes the point differ."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import inputs


def _readers(g):
    """Each kept check's compiled and general readers, as run_checks makes them."""
    out = []
    for chk in g.prog.checks:
        if chk.reads is None:
            continue
        cards = chk.zones is None
        fast = inputs.reader(g, chk.reads, cards=cards)
        slow = inputs.reader(g, chk.reads, cards=cards, compiled=False)
        if fast is not None:
            out.append((chk.name, fast, slow))
    return out


@pytest.mark.parametrize("name", ["game_of_thrones_2p", "nivel_arena"])
def test_a_compiled_reader_reads_what_the_general_one_does(name):
    prog = load_program(name)
    seen = 0
    for seed in range(3):
        g = new_game(prog, seed=seed, memory=False)
        readers = _readers(g.st.g)
        assert readers  # (each of these rulesets keeps a check)
        rng, st = random.Random(seed), g.st
        while not st.over and seen < 600:
            for chk, fast, slow in readers:
                got, want = fast(st), slow(st)
                assert got == want, chk
                assert [type(x) for x in got] == [type(x) for x in want], chk
                seen += 1
            g.apply_action(rng.randrange(len(st.pending.values)))
    assert seen >= 300


def test_a_written_counter_makes_a_point_differ():
    # Game of Thrones' `권력15` reads each house's power: a point made before a gain differs
    prog = load_program("game_of_thrones_2p")
    g = new_game(prog, seed=1, memory=False)
    ((_, read, _),) = _readers(g.st.g)
    st = g.st
    pt = inputs.point(st, read(st), 0)
    assert inputs.same(st, pt, read(st), 0)
    st.pcounters["가문권력"][0] += 1
    assert not inputs.same(st, pt, read(st), 0)


def test_a_kept_checks_totals_are_those_found_afresh():
    """Nivel Arena's `파워0` reads power's kept totals themselves (`kt:파워`), not the number of
    their making: at every decision of seeded games, what its reader gives for them equals the
    totals found on a copy of the state that keeps nothing (a clone starts without them)."""
    prog = load_program("nivel_arena")
    (chk,) = [c for c in prog.checks if c.reads is not None and "kt:파워" in c.reads]
    seen = 0
    for seed in range(3):
        g = new_game(prog, seed=seed, memory=False)
        read = inputs.reader(g.st.g, chk.reads, cards=chk.zones is None)
        rng, st = random.Random(seed), g.st
        while not st.over:
            totals = read(st)[-1]  # (the kept totals come last)
            assert type(totals) is dict
            c = st.clone()
            assert c.kt is None
            assert totals == prog.kept_sums(c, "파워")
            seen += bool(totals)  # (some unit's power modified)
            g.apply_action(rng.randrange(len(st.pending.values)))
    assert seen >= 20


def test_totals_that_cannot_be_found_equal_nothing():
    # (an amount reading the same property while they are found: then no point is the same)
    prog = load_program("nivel_arena")
    st = new_game(prog, seed=1, memory=False).st
    st.kt = None
    st.g.read_cache = {("summing", "파워"): True}
    try:
        got = prog.kept_sums(st, "파워")
        assert type(got) is object and got != prog.kept_sums(st, "파워")
    finally:
        st.g.read_cache = None

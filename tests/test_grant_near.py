"""`grant K to neighbours(this)` asked the other way round (effects._granted_by, `StaticRT.near`):
whether `o` is granted K is asked of o's own neighbours, at most two objects, instead of every
source in force (Clash of Decks' 아우라, NOTES 5). It must answer as the general lookup does."""

import random

from madang.game.api import load_program, new_game
from madang.tools.simulate import pairings
from minirules import write_ruleset

MARKS = ["광역", "관통", "분노", "보호", "견고함", "맹공", "질주"]


def _answers_agree(prog, g) -> int:
    """Asks every object of the state for every mark both ways; the number of grants found."""
    st, found = g.st, 0
    for o in range(len(st.obj_card)):
        for kw in MARKS:
            got = prog.granted_args(st, o, kw)
            assert got == prog._granted(st, o, kw), (o, kw)
            found += got is not None
    return found


def test_the_aura_grant_is_asked_of_the_objects_neighbours():
    prog = load_program("clash_of_decks")
    assert [sa.near for sa in prog.statics_grant] == [False, True]  # the automa's, 아우라's


def test_the_neighbours_answer_is_the_general_one_at_every_decision():
    # decks 2 to 4 hold the 아우라 creatures; the decks cycled as bench plays them
    prog = load_program("clash_of_decks")
    free, combos = pairings(prog, {})
    granted = 0
    for i in range(24):
        opts = {k: list(v) for k, v in zip(free, combos[i % len(combos)])}
        g = new_game(prog, opts, seed=i, memory=False)
        rng = random.Random(i)
        while not g.st.over:
            granted += _answers_agree(prog, g)
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert granted > 50  # the auras granted something often enough to be tested


RULES = """\
keyword mark for unit
keyword glow[k: keyword] for unit:
    grant k to neighbours(this)
kind unit:
    hp: number
zone row: per player, ordered, public, active
zone box: per player, ordered, public
counter n = 0

setup:
    let p = first(players)
    create "Lamp" in p.row
    create "Plain" in p.row
    create "Plain" in p.row
    create "Lamp" in p.box
    create "Plain" in p.box
flow:
    let p = first(players)
    for u in objects(p.row) + objects(p.box):
        if u has mark:
            n += 1
    let lamp = first(objects(p.row))
    move last(objects(p.row)) to front of p.row
    if lamp has mark:
        n += 100
    for u in objects(p.row):
        if u has mark:
            n += 1000
    remove lamp
    for u in objects(p.row) + [lamp]:
        if u has mark:
            n += 10
    lose p
"""
CARDS = (
    "cards:\n  - {name: Lamp, type: unit, hp: 1, text: 'glow[mark]'}\n"
    "  - {name: Plain, type: unit, hp: 1}\n"
)


def test_a_source_out_of_force_or_removed_grants_nothing(tmp_path):
    # the lamp in the row grants its one neighbour; the lamp in the box (not active) none;
    # a plain moved before it makes the lamp the neighbour of two, not granted itself; once
    # removed, nothing is granted (nor the lamp, out of every zone)
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS))
    assert [sa.near for sa in prog.statics_grant] == [True]
    g = new_game(prog, seed=1)
    assert g.st.counters["n"] == 2001  # 1, then both plains beside the lamp
    st = g.st
    for o in range(len(st.obj_card)):  # the general lookup agrees on every object at the end
        assert prog.granted_args(st, o, "mark") == prog._granted(st, o, "mark") is None

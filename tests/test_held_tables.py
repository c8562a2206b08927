"""#34: a loop that writes a laid-out property at every round finds the property's table
(`st.props`' dictionary) and its row of the layout (`st.pv`) once before its first round, and a
write makes what is none (build/stmtgen.py `HOLD_TABLES`: plain loops; build/resumable.py
`_held_tables`: a straight loop's rounds with state checks between its writes). The same
games, state for state, work and steps, as with the tables found at every write."""

from __future__ import annotations

import random

import pytest
from madang.build import stmtgen
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

CARDS = "cards: [{name: A, type: unit, hp: 1, mark: 0}, {name: B, type: unit, hp: 2, mark: 0}]\n"

# no state checks: plain loops, one over an empty zone (its table is not made), nested loops
# writing the same property, a write in a branch, and a write after a choice
PLAIN = """\
kind unit:
    hp: number
    mark: number
zone box: shared, public
zone spare: shared, public
flow:
    create "A" in box
    create "B" in box
    repeat 4 times:
        for u in spare:
            u.mark = 5
        for u in box:
            u.hp += 1
            if u.hp > 3:
                u.mark += 1
            for v in box:
                v.hp += 1
        choose e from [1, 2] by first(players) "e"
        for u in box:
            u.mark = u.mark + e
"""

# a check that fires inside a straight loop's rounds, before the loop's first write of the
# property, and writes it itself (the table the loop then writes to is the check's)
CHECKED = """\
kind unit:
    hp: number
    mark: number
zone box: shared, public
counter total = 0
counter fired = 0
check marked if total >= 3:
    total = 0
    fired += 1
    for w in box:
        w.mark += 10
flow:
    create "A" in box
    create "B" in box
    create "A" in box
    repeat 3 times:
        for u in box:
            total += 3
            u.mark += 1
            u.hp += 1
        choose e from [1, 2] by first(players) "e"
        total += e
"""


def _codes(prog) -> str:
    """The generated Python of every block's functions."""
    fns = (getattr(s, "fn", None) for block in prog.blocks for s in block)
    return "\n".join(getattr(fn, "generated", "") for fn in fns)


@pytest.mark.parametrize("rules", [PLAIN, CHECKED], ids=["plain", "checked"])
def test_held_tables_play_as_the_tables_found_at_each_write(rules, tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, rules, CARDS)
    held = load_program(folder)
    general = compiled_with(folder, stmtgen, "HOLD_TABLES", False, monkeypatch)
    assert "st.pvo & 2 else None" in _codes(held)  # `mark`'s row found before the rounds
    assert " else None" not in _codes(general)
    for seed in range(8):
        steps = decision_steps(held, seed)
        assert steps == decision_steps(general, seed)
        assert rules is PLAIN or steps[-1][4]["fired"] >= 2


def test_a_clone_keeps_its_rows_when_the_original_writes_in_a_loop(tmp_path):
    """A clone shares the layout's rows: the loop's first write after it copies the row
    (`State.own`), so neither game sees the other's writes."""
    prog = load_program(write_ruleset(tmp_path, PLAIN, CARDS))
    for seed in range(4):
        alone = decision_steps(prog, seed)
        g = new_game(prog, seed=seed, memory=False)
        rng, seen = random.Random(seed), []
        while not g.st.over:
            seen.append((g.digest(), g.st.work, g.st.steps))
            c = g.clone()
            other = random.Random(seed + 100)
            while not c.st.over:  # the clone plays on, writing the rows it shares
                c.apply_action(other.randrange(len(c.st.pending.values)))
            g.apply_action(rng.randrange(len(g.st.pending.values)))
        assert seen == [x[:3] for x in alone[:-1]]


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "game_of_thrones_2p"])
def test_held_tables_play_the_bundled_games_as_before(ruleset, monkeypatch):
    held = load_program(ruleset)
    general = compiled_with(ruleset, stmtgen, "HOLD_TABLES", False, monkeypatch)
    assert decision_steps(held, 1) == decision_steps(general, 1)

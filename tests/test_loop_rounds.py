"""#34: a flattened `for` whose body is straight code with state checks runs its rounds as a
Python loop in its head's section (build/resumable.py `_Emitter.rounds`), the body's sections
kept for a resumption after a check that starts a block: the same games, state for state,
work and steps, as with every round through the sections."""

from __future__ import annotations

import random

import pytest
from madang.build import resumable
from madang.game.api import GameState, load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

# a check that fires in the middle of a loop's rounds and waits for a choice there
RULES = """\
kind unit:
    hp: number
zone box: shared, public
counter total = 0
counter rounds = 0
counter hits = 0
check over if total >= 7:
    hits += 1
    total = 0
    choose d from [1, 2] by first(players) "d"
    rounds += d
flow:
    create "A" in box
    create "A" in box
    repeat 3 times:
        for x in [1, 2, 3, 4, 5]:
            total += x
            rounds += 1
        for u in box:
            u.hp += 1
            total += 1
        choose e from [1, 2] by first(players) "e"
        total += e
"""
CARDS = "cards: [{name: A, type: unit, hp: 1}]\n"


def _code(prog) -> str:
    return prog.blocks[prog.flow_block][0].fn.generated


def test_a_straight_loop_runs_its_rounds_in_python_and_plays_the_same(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, CARDS)
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "LOOP_ROUNDS", False, monkeypatch)
    assert _code(fast).count("while True:") == 3 and _code(general).count("while True:") == 1
    hits = set()
    for seed in range(10):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed)
        hits.add(a[-1][4]["hits"])
    assert max(hits) >= 2  # the check fired inside the loop, the game resumed there


def test_a_save_inside_the_loop_plays_on_in_the_other_code(tmp_path, monkeypatch):
    """A save made at the check's choice inside the loop's rounds, loaded into the code with
    every round through the sections (and the other way round), plays on as the game went."""
    folder = write_ruleset(tmp_path, RULES, CARDS)
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "LOOP_ROUNDS", False, monkeypatch)
    inside = 0
    for seed in range(6):
        for a, b in ((fast, general), (general, fast)):
            g = new_game(a, seed=seed, memory=False)
            rng = random.Random(seed)
            while not g.st.over:
                if g.st.pending.prompt == "d":
                    inside += 1
                    rest = random.Random(seed * 7 + len(g.st.frames))
                    h = GameState.from_json(g.to_json(), b)
                    answers = [rest.randrange(2) for _ in range(40)]
                    assert _played(g.clone(), answers) == _played(h, answers)
                g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert inside >= 4


def _played(g, answers: list[int]) -> str:
    for k in answers:
        if g.st.over:
            break
        g.apply_action(k % len(g.st.pending.values))
    return g.digest()


@pytest.mark.parametrize("ruleset", ["game_of_thrones_2p", "nivel_arena"])
def test_loop_rounds_play_the_bundled_games_as_the_sections(ruleset, monkeypatch):
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "LOOP_ROUNDS", False, monkeypatch)
    for seed in range(2):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

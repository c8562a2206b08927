"""#34: a flattened `for` whose body branches, waits or calls a verb that may wait runs its
rounds as a Python loop in its head's section (build/resumable.py `_Emitter.branched`): the
body's sections written once more as nested Python, each branch going on with the code that
follows it, the sections kept for a resumption where the body waited. The same games, state
for state, work and steps, as with every round through the sections; a save made where the
body waited plays on in the other code."""

from __future__ import annotations

import random

import pytest
from madang.build import resumable
from madang.game.api import GameState, load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

BODY = """\
kind unit:
    hp: number
zone box: shared, public
counter total = 0
counter fired = 0

# may wait (a choice), but only when x > 3
verb hit(x: number):
    total += x
    if x > 3:
        choose y from [1, 2] by first(players) "y"
        total += y

# never waits; may end the game inside the loops' rounds (`if st.over: return` after its call)
verb maybe_end():
    if total > 110:
        win first(players)

@CHECK@
flow:
    create "A" in box
    create "A" in box
    repeat 4 times:
        for x in [1, 2, 3, 4, 5, 6]:
            if x == 2:
                total += 1
            elif x == 3 or x == 5:
                if total > 10:
                    choose e from [1, 2] by first(players) "e"
                    total += e
                hit(x)
            else:
                hit(x + 1)
            if total > 150:
                break
            total += 1
            maybe_end()
        for u in box:
            if u.hp < 3:
                u.hp += 1
            hit(u.hp + 2)
"""
# a check that fires in the middle of the rounds and waits for a choice there
CHECK = """\
check big if total >= 15 and fired == 0:
    fired += 1
    choose z from [5, 6] by first(players) "z"
    total += z
"""
CARDS = "cards: [{name: A, type: unit, hp: 1}]\n"
INSIDE = ("e", "y", "z")  # the choices made inside the loops' rounds


def _rules(checks: bool) -> str:
    return BODY.replace("@CHECK@", CHECK if checks else "")


def _code(prog) -> str:
    return prog.blocks[prog.flow_block][0].fn.generated


@pytest.mark.parametrize("checks", [False, True])
def test_a_branched_loop_runs_its_rounds_in_python_and_plays_the_same(
    checks, tmp_path, monkeypatch
):
    folder = write_ruleset(tmp_path, _rules(checks), CARDS, name="br")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "BRANCHED_ROUNDS", False, monkeypatch)
    # both loops' rounds in Python (each with its round's place written before a return)
    assert _code(fast).count("_fi") > 6 and "_fi" not in _code(general)
    assert _code(fast).count("while True:") == 3 and _code(general).count("while True:") == 1
    fired, waited, ended = 0, 0, 0
    for seed in range(12):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed)
        fired += a[-1][4]["fired"]
        waited += len(a)
        ended += a[-1][3]  # (over inside the rounds: the frames left hold the round's place)
    assert waited > 12 * 4 and (fired > 0 or not checks) and ended > 0


@pytest.mark.parametrize("checks", [False, True])
def test_a_save_inside_the_rounds_plays_on_in_the_other_code(checks, tmp_path, monkeypatch):
    """A save made at a choice inside the rounds (the body's own, a called verb's, a
    check's), loaded into the code with every round through the sections (and the other way
    round), plays on as the game went."""
    folder = write_ruleset(tmp_path, _rules(checks), CARDS, name="bs")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "BRANCHED_ROUNDS", False, monkeypatch)
    inside = saves_inside_play_on(fast, general)
    assert inside >= {"e", "y"} and ("z" in inside or not checks)


def test_the_game_ended_in_a_later_round_leaves_the_round_s_place(tmp_path, monkeypatch):
    """The game ends in a round after the first of a run of rounds that never waited (a
    verb that never waits wins, then `if st.over: return`): the flow's frame left holds the
    round's place, as every round through the head wrote it."""
    rules = (
        "counter total = 0\n\n"
        "verb maybe_end():\n    if total > 4:\n        win first(players)\n\n"
        "flow:\n"
        '    choose s from [1, 2] by first(players) "s"\n'
        "    for x in [1, 2, 3, 4, 5, 6]:\n"
        "        if x == 9:\n"
        '            choose t from [1, 2] by first(players) "t"\n'
        "        elif x > s:\n            total += 2\n"
        "        else:\n            total += 1\n"
        "        maybe_end()\n"
    )
    folder = write_ruleset(tmp_path, rules, "cards: []\n", name="be")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "BRANCHED_ROUNDS", False, monkeypatch)
    assert "_fi" in _code(fast) and "_fi" not in _code(general)
    for seed in range(4):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed) and a[-1][3]


def saves_inside_play_on(fast, general) -> set[str]:
    """Saves made at each choice inside the rounds (`INSIDE`) of 4 seeded games, loaded into
    the other code (both ways), play on as the game went; the prompts met there."""
    inside = set()
    for seed in range(4):
        for a, b in ((fast, general), (general, fast)):
            g = new_game(a, seed=seed, memory=False)
            rng = random.Random(seed)
            while not g.st.over:
                if g.st.pending.prompt in INSIDE:
                    inside.add(g.st.pending.prompt)
                    rest = random.Random(seed * 7 + len(g.st.frames))
                    h = GameState.from_json(g.to_json(), b)
                    answers = [rest.randrange(2) for _ in range(60)]
                    assert _played(g.clone(), answers) == _played(h, answers)
                g.apply_action(rng.randrange(len(g.st.pending.values)))
    return inside


def _played(g, answers: list[int]) -> str:
    for k in answers:
        if g.st.over:
            break
        g.apply_action(k % len(g.st.pending.values))
    return g.digest()


@pytest.mark.parametrize(
    "ruleset,seeds", [("clash_of_decks", 3), ("game_of_thrones_2p", 1), ("cthulhu_wars", 1)]
)
def test_branched_rounds_play_the_bundled_games_as_the_sections(ruleset, seeds, monkeypatch):
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "BRANCHED_ROUNDS", False, monkeypatch)
    code = [s.fn.generated for b in fast.blocks for s in b[:1] if hasattr(s, "fn")]
    assert any("_fit" in c and ".exec(st, fr)" in c for c in code) or ruleset != "clash_of_decks"
    for seed in range(seeds):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

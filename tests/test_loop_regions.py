"""#34: a flattened loop's sections are dispatched inside a `while` of their own, and a
section that jumps forward falls through (build/resumable.py `_regions`): a jump back to the
loop's head tests the sections from there, not from the block's first. Only the tests of
`pc` on the way differ: the same sections run in the same order, so the same states, frames,
work and steps at every decision as with `LOOP_REGIONS` off."""

from __future__ import annotations

import random
import re

import pytest
from madang.build import resumable
from madang.game.api import GameState, load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with

# Loops around choices (flattened), nested three deep; branches that jump back (`if` at the
# end of a round) and forward (past a choice); a `break` out of an inner loop to its exit; a
# `while` and a `repeat`; the same shapes in a verb run by its frameless copy; a check that
# waits fires inside a loop.
RULES = """\
counter total = 0
counter rounds = 0
counter fired = 0

verb inner(n: number):
    for x in [1, 2, 3]:
        if x == n:
            bonus_hit()
        if x > 1 and total % 2 == 0:
            choose y from [1, 2] by first(players) "y"
            total += y
        rounds += 1

verb bonus_hit():
    total += 100

check big if total >= 40 and fired == 0:
    fired += 1
    choose z from [5, 6] by first(players) "z"
    total += z

flow:
    for a in [1, 2]:
        for b in [1, 2, 3]:
            if b == 2 and total % 3 == 0:
                break
            repeat 2 times:
                if total % 2 == 1:
                    choose w from [1, 2, 3] by first(players) "w"
                    total += w
                else:
                    total += 1
            inner(b)
        let k = 0
        while k < 3:
            k += 1
            if total % 5 == 0:
                choose v from [1, 2] by first(players) "v"
                total += v
    win first(players)
"""


def _play(prog, seed: int) -> list:
    """The state's digest, work and steps at each decision and at the end."""
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < 400:
        seen.append((g.digest(), g.st.work, g.st.steps))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    seen.append((g.digest(), g.st.work, g.st.steps, g.st.over))
    return seen


def _code(prog) -> str:
    """The generated functions of every block, and the frameless copies of the verbs."""
    blocks = [s.fn.generated for b in prog.blocks for s in b[:1] if hasattr(s, "fn")]
    copies = [v.quick[0].generated for v in prog.verbs.values() if v.quick]
    return "\n".join(blocks + copies)


_REGION = re.compile(r"\n( +)while (\d+) <= pc <= (\d+):\n")


def test_loops_dispatched_from_their_heads_play_as_before(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="lr")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "LOOP_REGIONS", False, monkeypatch)
    code, plain = _code(fast), _code(general)
    regions = _REGION.findall(code)
    assert len(regions) >= 5 and not _REGION.search(plain)
    assert any(len(pad) > 8 for pad, _, _ in regions)  # a loop's region inside another's
    assert "_inner_" in code and "def _inner_m" in code
    # fewer `continue`s: a forward jump falls through to its section
    assert code.count("continue\n") < plain.count("continue\n")
    ended = 0
    for seed in range(16):
        a, b = _play(fast, seed), _play(general, seed)
        assert a == b
        ended += a[-1][3]
    assert ended == 16


def test_a_save_resumes_in_a_loop_with_either_dispatch(tmp_path, monkeypatch):
    """The frames' sections are the same numbers: a game saved inside a loop by one code goes
    on in the other as in its own, at every decision of a seeded game."""
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="ls")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "LOOP_REGIONS", False, monkeypatch)
    g = new_game(fast, seed=5, memory=False)
    rng = random.Random(5)
    saves = 0
    while not g.st.over:
        a = rng.randrange(len(g.st.pending.values))
        text = g.to_json()
        other = GameState.from_json(text, general)
        g.apply_action(a)
        other.apply_action(a)
        assert other.digest() == g.digest()
        saves += 1
    assert saves > 3


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_loop_regions_play_the_bundled_games_as_before(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "LOOP_REGIONS", False, monkeypatch)
    assert _REGION.search(_code(fast)) and not _REGION.search(_code(general))
    for seed in range(3):
        assert _play(fast, seed) == _play(general, seed)

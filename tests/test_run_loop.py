"""Issue #34: the run loop (engine.run) steps by a `for` over its step numbers, calls a block's
section by the program's tables of sections' counts and functions (`Program.block_lens`,
`block_fns`), leaves a plain block's end without the tests of a decision, and marks what a
statement's end makes due only where a state check reads it. It must take the same steps as the
loop written out here as it was (a counter added after each step, the block's entries, every
end marked): the same states, work and steps at every decision of seeded games, and the same
error, at the same step, where no decision comes."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import budget
from madang.runtime import engine as E
from madang.runtime.errors import RulesError
from madang.runtime.program import _block_fn
from minirules import write_ruleset
from playthrough import decision_steps


def general_run(st, answered: bool = False) -> None:
    """engine.run as it was: a step counted after it is taken, the limit tested after each."""
    g = st.g
    prog = g.prog
    blocks, stmts, frames = prog.blocks, prog.stmts, st.frames
    limit = st.steps + g.max_steps
    steps = st.steps
    if not answered:
        st.dirty = -1
    budget.start(st)
    try:
        while st.pending is None and not st.over:
            if not frames:
                E.end_without_result(st)
                break
            fr = frames[-1]
            blk = blocks[fr.block]
            pc = fr.pc
            if (
                pc < prog.block_lens[fr.block]
            ):  # (a block's last sections that only end it: not run)
                fr.pc = pc + 1
                blk[pc].fn(st, fr, pc)
            elif fr.ctl < 0:
                if frames and frames[-1] is fr:
                    frames.pop()
                    if E.EFFECT in fr.env:
                        E.effect_ended(st, fr.env)
            else:
                owner = stmts[fr.ctl]
                st.dirty |= owner.END_DIRTY
                if not owner.at_end(st, fr) and frames and frames[-1] is fr:
                    frames.pop()
            steps += 1
            if steps > limit:
                raise RulesError(
                    f"no decision within {g.max_steps:,} steps (a loop that never ends?);"
                    f" settings.max_steps sets this budget, up to {budget.CEILING:,}"
                )
    finally:
        st.steps = steps


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_run_loop_takes_the_steps_of_the_general_one(ruleset, monkeypatch):
    prog = load_program(ruleset)
    seeds = range(3) if ruleset == "clash_of_decks" else range(1)
    fast = [decision_steps(prog, seed, 150) for seed in seeds]
    monkeypatch.setattr(E, "run", general_run)
    assert [decision_steps(prog, seed, 150) for seed in seeds] == fast


LEDUC = Path(__file__).parent.parent / "docs" / "examples" / "leduc_poker"


def _load_script(name: str):
    """A measuring script of scripts/ imported as a module (its `game_digest`)."""
    path = Path(__file__).parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_script_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_step_stopped_by_a_chance_node_is_not_counted(monkeypatch):
    """With explicit chance a step stops inside a statement at each random operation (a chance
    node, `NeedChance`): the state there has the steps taken before it, as the general loop
    left it, at every node of seeded games."""

    def nodes() -> list:
        seen = []
        for seed in range(4):
            g = new_game(LEDUC, seed=seed, chance="explicit", memory=False)
            rng = random.Random(seed)
            while not g.is_terminal():
                seen.append((g.is_chance_node(), g.digest(), g.st.steps))
                g.apply_action(rng.randrange(len(g.legal_actions())))
        return seen

    fast = nodes()
    assert sum(chance for chance, _, _ in fast) > 4  # (chance nodes after decisions too)
    monkeypatch.setattr(E, "run", general_run)
    assert nodes() == fast


SPIN = """\
counter n = 0

flow:
    phase main:
        window main by first(players)
    while n >= 0:
        phase spin:
            n += 1

action go in main:
    n += 0
"""


def _spin(folder: str) -> tuple:
    g = new_game(load_program(folder), seed=0, memory=False)
    with pytest.raises(RulesError) as err:
        g.apply_action(g.st.pending.values.index(E.DONE))  # pass: the spin starts
    return str(err.value), g.st.steps, g.st.counters["n"], len(g.st.frames)


# a window whose one action is taken again and again: no decision, no loop statement
WINDOW_SPIN = """\
counter n = 0

flow:
    phase main:
        window main by first(players)
    phase spin:
        window spin by first(players) must

action go in main:
    n += 0

action again in spin:
    n += 1
"""


def test_a_loop_without_a_decision_stops_at_the_step_it_did(tmp_path, monkeypatch):
    """A window whose one action is taken at once, again and again, never reaches a decision
    (one action run inside the window's step, the next started for the run loop: two a step):
    the loop's error at the same step, the state where it stopped the same."""
    folder = write_ruleset(tmp_path, WINDOW_SPIN, "cards: []\n")
    (tmp_path / "ruleset.yaml").write_text(
        (tmp_path / "ruleset.yaml").read_text() + "settings: {max_steps: 301}\n"
    )
    got = _spin(folder)
    assert "no decision within 301 steps" in got[0]
    assert got[1:3] == (304, 200)  # (two actions every three steps)
    monkeypatch.setattr(E, "run", general_run)
    api._load_cached.cache_clear()
    assert _spin(folder) == got


def test_a_while_of_phases_stops_by_the_work_budget(tmp_path, monkeypatch):
    """A `while` whose rounds are a phase each, each phase's body run by its scope's `exec`
    without a step: the `while`'s own work budget stops it, at the same place either loop."""
    folder = write_ruleset(tmp_path, SPIN, "cards: []\n")
    (tmp_path / "ruleset.yaml").write_text(
        (tmp_path / "ruleset.yaml").read_text() + "settings: {max_steps: 301}\n"
    )
    got = _spin(folder)
    assert "more than 301 steps of work" in got[0]
    monkeypatch.setattr(E, "run", general_run)
    api._load_cached.cache_clear()
    assert _spin(folder) == got


def test_a_flow_that_ends_without_a_result_counts_no_step_for_it(tmp_path, monkeypatch):
    """The flow's last frame popped, the game ends where no frame is left: no step counted."""
    folder = write_ruleset(
        tmp_path, SPIN.replace("    while n >= 0:", "    if n < 0:"), "cards: []\n"
    )

    def end() -> tuple:
        g = new_game(load_program(folder), seed=0, memory=False)
        g.apply_action(g.st.pending.values.index(E.DONE))
        return g.st.over, g.st.winners, g.st.steps, g.digest()

    got = end()
    assert got[:2] == (True, [])
    monkeypatch.setattr(E, "run", general_run)
    api._load_cached.cache_clear()
    assert end() == got


def test_the_tables_of_the_blocks_are_their_sections():
    """Each compiled block's count of sections and its one function, as the run loop reads
    them; a block of sections with functions of their own is called through each section."""
    for name in ["clash_of_decks", "game_of_thrones_2p"]:
        prog = load_program(name)
        for blk, fn, live in zip(prog.blocks, prog.block_fns, prog.block_lens):
            if blk:
                assert fn is blk[0].fn
                assert live == blk[0].fn.live <= len(blk)

    class Part:
        def __init__(self, tag):
            self.fn = lambda st, fr, pc: seen.append((tag, pc))

    seen: list = []
    fn = _block_fn((Part("a"), Part("b")))
    fn(None, None, 1)
    fn(None, None, 0)
    assert seen == [("b", 1), ("a", 0)]


_DIGESTS = _load_script("digests")


def _game_only(prog, seed: int, limit: int = 150) -> list:
    """The game's own state (`digests.py --game-only`: no steps, no frames' sections) and work
    at each decision of a seeded random game."""
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((_DIGESTS.game_digest(g), g.st.work))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    seen.append((_DIGESTS.game_digest(g), g.st.work, g.st.over))
    return seen


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "game_of_thrones_2p"])
def test_a_block_s_last_sections_that_only_end_it_are_not_run(ruleset, monkeypatch):
    """A phase's body that ends with a window: the frame resumed after the window is at the
    block's end (`Program.block_lens` counts the sections before it), and the games are the
    same as when that section is run (every block's full count)."""
    prog = load_program(ruleset)
    short = [i for i, blk in enumerate(prog.blocks) if blk and prog.block_lens[i] < len(blk)]
    assert short  # (the phases' bodies that end with a window, at least)
    for i in short:
        lines = prog.blocks[i][0].fn.generated.split("\n")
        k = prog.block_lens[i]
        at = lines.index(f"        if pc == {k}:")
        assert [x.strip() for x in lines[at + 1 : at + 3]] == [
            f"fr.pc = {len(prog.blocks[i])}",
            "return",
        ]
    fast = [_game_only(prog, seed) for seed in range(2)]
    live = prog.block_lens[:]
    prog.block_lens[:] = [len(b) for b in prog.blocks]  # (in place: `loop_tables` holds it)
    try:
        assert [_game_only(prog, seed) for seed in range(2)] == fast
    finally:
        prog.block_lens[:] = live

"""Issue #34: a decision's round trip in fewer operations. `GameState.apply_action` answers a
plain decision itself (no `_run` frame); the run loop reads its tables in one tuple
(`Program.loop_tables`); a statement's object whose `exec` went on in place says so (true:
nothing asked, pushed, left or ended, its frame on top with its `pc` as it was) and the
generated code of a ruleset without state checks skips its test after the call
(`resumable.delegate`). Each must play the same games as the general path."""

from __future__ import annotations

import random

import pytest
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from playthrough import unlearned

IN_PLACE = (E.ScopeStmt, E.Window, E.Choose)  # the objects whose `exec` may return true


def _steps(prog, seed: int, answer, limit: int = 80) -> list:
    """The state's digest, work and steps at each decision of a seeded random game whose
    decisions are answered by `answer(game, option)`."""
    unlearned(prog)
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((g.digest(), g.st.work, g.st.steps))
        answer(g, rng.randrange(len(g.st.pending.values)))
    seen.append((g.digest(), g.st.work, g.st.steps, g.st.over))
    return seen


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_an_answer_taken_in_apply_action_plays_as_run(ruleset, monkeypatch):
    """The same states, work and steps as each answer through `_run` (its log and chance
    cases), and `_run` is not called for a plain game's answers."""
    prog = load_program(ruleset)
    general = [_steps(prog, seed, lambda g, a: g._run(g.st, a)) for seed in range(2)]
    calls = []
    run = api.GameState._run
    monkeypatch.setattr(api.GameState, "_run", lambda g, st, a: calls.append(a) or run(g, st, a))
    assert [_steps(prog, seed, api.GameState.apply_action) for seed in range(2)] == general
    assert not calls


def _watched(monkeypatch, seen: list) -> None:
    """Each object's `exec` that returns true is checked: its frame on top with its `pc`,
    nothing pending, the game not over (what lets the generated code skip its test)."""
    for cls in IN_PLACE:
        plain = cls.exec

        def exec_(self, st, fr, plain=plain):
            pc, depth = getattr(fr, "pc", None), len(st.frames)
            went_on = plain(self, st, fr)
            if went_on:
                if isinstance(fr, E.Frame):
                    assert st.frames[-1] is fr and fr.pc == pc, self.span
                else:  # a verb's names in its frameless copy: nothing left above its caller
                    assert len(st.frames) == depth, self.span
                assert st.pending is None and not st.over, self.span
                seen.append(type(self).__name__)
            return went_on

        monkeypatch.setattr(cls, "exec", exec_)


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars", "game_of_thrones_2p"])
def test_an_exec_that_returns_true_went_on_in_place(ruleset, monkeypatch):
    seen: list = []
    _watched(monkeypatch, seen)
    prog = load_program(ruleset)
    for seed in range(2):
        _steps(prog, seed, api.GameState.apply_action, limit=60)
    assert seen  # (every ruleset has a window with nothing to do, or a scope done in place)


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_the_games_are_the_same_with_every_test_after_an_exec(ruleset, monkeypatch):
    """An `exec` that returns None is tested after, as before: the same games."""
    prog = load_program(ruleset)
    fast = [_steps(prog, seed, api.GameState.apply_action) for seed in range(2)]
    for cls in IN_PLACE:
        monkeypatch.setattr(
            cls, "exec", lambda self, st, fr, plain=cls.exec: plain(self, st, fr) and None
        )
    assert [_steps(prog, seed, api.GameState.apply_action) for seed in range(2)] == fast


def _delegated_calls(prog) -> list[str]:
    """The lines of the blocks' generated code that call a statement's object."""
    fns = {s.fn for blk in prog.blocks for s in blk}
    return [
        x.strip()
        for fn in fns
        for x in getattr(fn, "generated", "").split("\n")
        if ".exec(st, fr)" in x
    ]


def test_the_test_after_an_object_is_skipped_only_without_checks():
    """Without state checks the call is `if not OBJECT.exec(st, fr):` (`elif` after a probed
    window: build/resumable.py `_Emitter.probe`) with the test under it;
    with checks (what the object made due is marked and run first) it is a plain call."""
    calls = _delegated_calls(load_program("clash_of_decks"))
    assert calls and all(x.startswith(("if not _", "elif not _")) for x in calls)
    calls = _delegated_calls(load_program("game_of_thrones_2p"))
    assert calls and not any(x.startswith("if not ") for x in calls)


def test_the_run_loop_s_tables_are_the_program_s_own_lists():
    """`loop_tables` holds the lists themselves (they grow as blocks and statements are added),
    so a program never runs with tables of another time."""
    prog = load_program("clash_of_decks")
    lens, fns, stmts, checks = prog.loop_tables
    assert lens is prog.block_lens and fns is prog.block_fns
    assert stmts is prog.stmts and checks is prog.checks
    assert len(lens) == len(fns) == len(prog.blocks)


def test_a_listing_s_calls_in_a_row_call_each_enumerator_in_order():
    """`_in_a_row` makes one function that calls each enumerator with a listing's arguments
    (`src` None), in order; None stays None."""
    got: list = []
    fns = tuple(
        (lambda st, env, src, values, cache, k=k: got.append((k, st, env, src, cache)))
        for k in range(5)
    )
    E._in_a_row(fns)("st", "env", [], "cache")
    assert got == [(k, "st", "env", None, "cache") for k in range(5)]
    assert E._in_a_row(fns) is E._in_a_row(fns)  # (made once per tuple)
    assert E._in_a_row(None) is None


def test_cthulhu_wars_plays_the_same_with_its_listings_calls_in_a_loop(monkeypatch):
    """The made function against the loop it replaces, on Cthulhu Wars' action window."""
    prog = load_program("cthulhu_wars")
    fast = [_steps(prog, seed, api.GameState.apply_action) for seed in range(2)]

    def looped(calls):
        if calls is None:
            return None

        def each(st, env, values, cache):
            for f in calls:
                f(st, env, None, values, cache)

        return each

    monkeypatch.setattr(E, "_in_a_row", looped)
    assert [_steps(prog, seed, api.GameState.apply_action) for seed in range(2)] == fast

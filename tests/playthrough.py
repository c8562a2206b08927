"""What the tests that compare two compilations of a ruleset play: a seeded random game, and at
each decision the state's digest and the work charged (tests/test_loop_code.py,
tests/test_held_names.py: the fast code must play the bundled games as the general code), or
the options offered (the enumerators' tests); and the compilations themselves."""

from __future__ import annotations

import random

from madang.game import api
from madang.game.api import new_game
from madang.runtime import budget, setup
from madang.runtime import engine as E
from madang.runtime.errors import RulesError
from madang.runtime.state import WINDOW


def unlearned(prog) -> None:
    """Forget what earlier games taught `prog`'s shared checks' plan (engine.run_checks: a check
    that is rarely found false stops being kept false after `TRIAL` points counted over all the
    program's games). That changes which states a check is evaluated on, so the work charged,
    never what a game does; without this, the work of a game played with the program
    `load_program` keeps would depend on which tests played it before in the same process.
    What the games of the program and options share (`setup._kept_tables`: the kept domains,
    the fields every game starts with) is forgotten too, so that a comparison starts the kept
    program as a new process would, whatever a test before it set while it made its games."""
    E._plans.pop(prog, None)
    setup._kept.pop(prog, None)


def decisions(prog, seed: int, limit: int = 400) -> list:
    """The state's digest and the work charged at each decision of a seeded random game."""
    unlearned(prog)
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((g.digest(), g.st.work))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen


def decision_steps(prog, seed: int, limit: int = 400) -> list:
    """The state's digest, work and steps at each decision of a seeded random game, and at
    its end with whether it is over and its counters (a compilation that keeps the steps)."""
    unlearned(prog)
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((g.digest(), g.st.work, g.st.steps))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    seen.append((g.digest(), g.st.work, g.st.steps, g.st.over, dict(g.st.counters)))
    return seen


def work(prog, seed: int, limit: int = 400) -> list:
    """The work charged up to each decision of a seeded random game (a cheaper compilation
    charges no more than the general one)."""
    unlearned(prog)
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append(g.st.work)
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen


def offers(prog, seed: int, limit: int = 400) -> list:
    """The state's digest and the options offered at each decision of a seeded random game
    (not the work charged: a test made before a domain leaves the domain uncomputed)."""
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < limit:
        seen.append((g.digest(), repr(g.st.pending.values)))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen


def played_within(prog, steps: int, monkeypatch, limit: int = 3) -> list | str:
    """The state's digest and the work at the first decisions of a seeded random game played
    with `steps` of budget (the ceiling set to it), or the budget's error where one is raised
    (tests/test_joined_charges.py, tests/test_deferred_charges.py)."""
    monkeypatch.setattr(budget, "CEILING", steps)
    try:
        g = new_game(prog, seed=0, memory=False)
        rng, seen = random.Random(0), []
        while not g.st.over and len(seen) < limit:
            seen.append((g.digest(), g.st.work))
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    except RulesError as e:
        return str(e)
    return seen


def compiled_with(name: str, module, switch: str, value, monkeypatch):
    """The bundled ruleset `name` compiled afresh with `module.switch` set to `value` (the
    program `load_program` keeps is left as it is, and the switch set back)."""
    was = getattr(module, switch)
    monkeypatch.setattr(module, switch, value)
    prog = api._load_cached.__wrapped__(name, ())
    monkeypatch.setattr(module, switch, was)
    return prog


def compiled_without(name: str, monkeypatch, *switches) -> object:
    """The bundled ruleset `name` compiled afresh with every `(module, switch)` of `switches`
    off (each set back afterwards): the general code a fast path is compared with."""
    *rest, (module, switch) = switches
    was = [getattr(m, k) for m, k in rest]
    for m, k in rest:
        monkeypatch.setattr(m, k, False)
    prog = compiled_with(name, module, switch, False, monkeypatch)
    for (m, k), v in zip(rest, was):
        monkeypatch.setattr(m, k, v)
    return prog


def enumerator_code(prog, action: str) -> str:
    """The generated Python of an action's enumerator, charging as written (its `exact`
    where its charges are added up: build/enumerators.DEFERRED_CHARGES)."""
    fn = next(a for a in prog.actions if a.name == action).fast_enum
    return getattr(fn, "exact", fn).generated


def first_test(code: str) -> str:
    """An enumerator's test before any domain (its line ending in `return`)."""
    return next(x for x in code.split("\n") if x.endswith(": return"))


def windows(prog, seed: int, memory: bool = False):
    """The windows of a seeded random game as it plays: at each decision that is a window's,
    (the state, the window statement, the options offered without `done`); the game goes on
    with a seeded random option after each (tests/test_window_listing.py,
    tests/test_kept_domains.py, tests/test_enumerators.py compare listings there)."""
    g = new_game(prog, seed=seed, memory=memory)
    rng, st = random.Random(seed), g.st
    while not st.over:
        p = st.pending
        if p.kind == "window" and st.frames[-1].kind == WINDOW:
            yield st, prog.stmts[st.frames[-1].ctl], [v for v in p.values if v != E.DONE]
        g.apply_action(rng.randrange(len(p.values)))

"""Issue #34: the domains a game keeps by what they read (`Game.domains`: they read only the
names bound before them, `you` and counters, besides the map, options and data) are kept for
every game of the same program and options too (`Game.shared`, runtime/setup.py), with the work
each charged: a game that finds one there takes it and charges that work
(`enumerators.SHARED_ROWS`), so it plays and charges as if it had computed it, and a playout
does not compute Cthulhu Wars' destinations within two steps again."""

from __future__ import annotations

import random

from madang.build import enumerators
from madang.game.api import load_program, new_game
from madang.runtime import setup
from playthrough import compiled_with, decisions, enumerator_code

ROW = "st.g.shared.get(((4, 2, you_, tuple(st.pcounters['fid'])), v0))"


def _played(prog, seed: int, options=None):
    g = new_game(prog, options, seed=seed, memory=False)
    rng = random.Random(seed)
    while not g.st.over:
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return g


def test_the_games_of_one_program_and_options_share_their_kept_domains():
    prog = load_program("cthulhu_wars")
    assert ROW in enumerator_code(prog, "march_also")
    first, second = _played(prog, 1), _played(prog, 2)
    assert first.st.g.shared is second.st.g.shared and first.st.g.shared
    assert first.st.g.domains is not second.st.g.domains  # (each game's own rows, as before)
    other = new_game(prog, {"abandon": not first.st.g.options.get("abandon")}, seed=1)
    assert other.st.g.shared is not first.st.g.shared  # other options: kept apart
    kept = dict(first.st.g.shared)
    _played(prog, 1)  # the same game again: every domain it keeps is found, none computed
    assert first.st.g.shared == kept
    assert all(type(v) is tuple and len(v) == 2 for v in kept.values())  # (the domain, its work)


def test_a_game_that_finds_its_domains_plays_and_charges_as_one_that_computes_them(monkeypatch):
    on = load_program("cthulhu_wars")
    off = compiled_with("cthulhu_wars", enumerators, "SHARED_ROWS", False, monkeypatch)
    assert ROW not in enumerator_code(off, "march_also")
    for seed in range(3):
        _played(on, seed)  # (its domains now kept: the game below finds them all)
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


def test_a_full_table_is_started_again(monkeypatch):
    prog = load_program("cthulhu_wars")
    monkeypatch.setattr(setup, "KEPT_MAX", 0)
    first = _played(prog, 1)
    assert first.st.g.shared  # (more than none: the next game gets a new one)
    assert new_game(prog, seed=2).st.g.shared is not first.st.g.shared

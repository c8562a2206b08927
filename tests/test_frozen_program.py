"""The compiled Program is shared by every game of a ruleset (`load_program` caches it), so
playing must never write into it: what the run time keeps while playing lives in the game
(`Game`: read caches, cycle guard, action orders) or the state (docs/engine.md, "Stages")."""

from __future__ import annotations

import random

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game


def shape(x, depth: int = 0):
    """A picture of a value deep enough to see a cache filled or a field set: containers by
    their sizes and items, objects by their attributes."""
    if depth > 3:
        return type(x).__name__
    if isinstance(x, dict):
        return ("dict", len(x), tuple(sorted((repr(k), shape(v, depth + 1)) for k, v in x.items())))
    if isinstance(x, (list, tuple, set, frozenset)):
        items = sorted(x, key=repr) if isinstance(x, (set, frozenset)) else x
        return (type(x).__name__, len(x), tuple(shape(v, depth + 1) for v in items))
    if isinstance(x, (int, float, str, bool, type(None))):
        return x
    if callable(x):
        return ("fn", id(x))
    slots = getattr(type(x), "__slots__", ())
    attrs = dict(getattr(x, "__dict__", {}))
    for s in slots:
        if hasattr(x, s):
            attrs[s] = getattr(x, s)
    return (type(x).__name__, tuple(sorted((k, shape(v, depth + 1)) for k, v in attrs.items())))


@pytest.mark.parametrize("ruleset", bundled_names())
def test_playing_games_writes_nothing_into_the_shared_program(ruleset):
    prog = load_program(ruleset)
    before = {k: shape(v) for k, v in vars(prog).items()}
    for seed in range(3):
        game = new_game(prog, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_terminal():
                break
            game.apply_action(rng.choice(game.legal_actions()))
        game.clone().to_json()
    after = {k: shape(v) for k, v in vars(prog).items()}
    changed = sorted(k for k in before if before[k] != after.get(k))
    assert not changed, f"fields of the Program written while playing: {changed}"

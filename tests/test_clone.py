"""A clone is a complete, independent copy (runtime/state.py `State.clone`): solvers clone at
every node, so it is written for speed, and this test holds it to the same contract as before:
equal data, no mutable container shared, and frames that share their names in the original
share them in the copy."""

from __future__ import annotations

import random

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game


def assert_independent(st, c) -> None:
    assert c.to_data() == st.to_data()
    for name in ("zones", "obj_card", "obj_zone", "obj_owner", "obj_from", "obj_moves",
                 "shown", "lki", "props", "counters", "pcounters", "acounters", "mods",
                 "grants", "frames", "used", "lost", "winners"):  # fmt: skip
        assert getattr(c, name) is not getattr(st, name), name
    assert all(a is not b for a, b in zip(c.zones, st.zones))
    assert all(c.props[k] is not st.props[k] for k in st.props)
    assert all(c.pcounters[k] is not st.pcounters[k] for k in st.pcounters)
    assert all(c.acounters[k] is not st.acounters[k] for k in st.acounters)
    for f, k in zip(st.frames, c.frames):
        assert k is not f and k.env is not f.env
        assert (k.extra is None) == (f.extra is None) and (not f.extra or k.extra is not f.extra)
    same = [[i for i, g in enumerate(st.frames) if g.env is f.env] for f in st.frames]
    assert same == [[i for i, g in enumerate(c.frames) if g.env is k.env] for k in c.frames]


@pytest.mark.parametrize("name", bundled_names())
def test_a_clone_is_complete_and_shares_nothing_mutable(name):
    prog = load_program(name)
    rng = random.Random(7)
    for seed in range(3):
        g = new_game(prog, seed=seed)
        k = 0
        while not g.is_terminal() and k < 400:
            if k % 7 == 0:
                c = g.st.clone()
                assert_independent(g.st, c)
                # playing on in the clone leaves the original as it was
                before = g.st.to_data()
                h = g.clone()
                if not h.is_terminal():
                    h.apply_action(rng.randrange(len(h.legal_actions())))
                assert g.st.to_data() == before
            g.apply_action(rng.randrange(len(g.legal_actions())))
            k += 1

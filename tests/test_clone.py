"""A clone is a complete, independent copy (runtime/state.py `State.clone`): solvers clone at
every node, so it is written for speed, and this test holds it to the same contract as before:
equal data, no mutable container shared that either state writes in place, and frames that
share their names in the original share them in the copy. What a clone shares until the first
write (zones' lists, `obj_card` and `obj_owner`, the layout's rows with their properties'
written values) is marked as no state's own in both, so that a write copies it first; what no
one writes in place (`shown`, `lki`, `winners`, `mods`, `grants`, `used`, `lost`, a scope
frame's `extra`) is shared."""

from __future__ import annotations

import random

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game
from madang.runtime.state import SCOPE, Frame


def assert_independent(st, c) -> None:
    assert c.to_data() == st.to_data()
    for name in ("zones", "obj_zone", "obj_from", "obj_moves",
                 "props", "counters", "pcounters", "acounters", "frames", "pv"):  # fmt: skip
        assert getattr(c, name) is not getattr(st, name), name
    # replaced on change, never written in place: shared
    for name in ("mods", "grants", "used", "lost", "shown", "lki", "winners"):
        assert getattr(c, name) is getattr(st, name), name
    # shared until a write: owned by neither
    assert st.zo == c.zo == 0 and st.oo is c.oo is False and st.pvo == c.pvo == 0
    slots = st.g.prog.prop_slots or {}
    assert all(c.props[k] is not st.props[k] for k in st.props if k not in slots)
    assert all(c.pcounters[k] is not st.pcounters[k] for k in st.pcounters)
    assert all(c.acounters[k] is not st.acounters[k] for k in st.acounters)
    for f, k in zip(st.frames, c.frames):
        assert k is not f and k.env is not f.env and isinstance(k, Frame)
        assert (k.extra is None) == (f.extra is None)
        # a scope's (the phase it restores, never written in place) is shared, others copied
        assert not f.extra or (k.extra is f.extra) == (f.kind == SCOPE)
    same = [[i for i, g in enumerate(st.frames) if g.env is f.env] for f in st.frames]
    assert same == [[i for i, g in enumerate(c.frames) if g.env is k.env] for k in c.frames]


def assert_owned_apart(a, b) -> None:
    """What either of two states owns (to write in place) is not the other's."""
    for z, (x, y) in enumerate(zip(a.zones, b.zones)):
        assert x is not y or not (a.zo >> z & 1 or b.zo >> z & 1), z
    assert a.obj_card is not b.obj_card or not (a.oo or b.oo)
    assert a.obj_owner is not b.obj_owner or not (a.oo or b.oo)
    names = list(a.g.prog.prop_slots or ())
    for k, (x, y) in enumerate(zip(a.pv, b.pv)):
        mine = a.pvo >> k & 1 or b.pvo >> k & 1
        assert x is not y or not mine, k
        d, e = a.props.get(names[k]), b.props.get(names[k])
        assert d is None or d is not e or not mine, names[k]


@pytest.mark.parametrize("name", bundled_names())
def test_a_clone_is_complete_and_shares_nothing_mutable(name):
    prog = load_program(name)
    rng = random.Random(7)
    for seed in range(3):
        g = new_game(prog, seed=seed)
        k = 0
        while not g.is_terminal() and k < 400:
            c = None
            if k % 7 == 0:
                c = g.st.clone()
                assert_independent(g.st, c)
                kept = c.to_data()
                # playing on in a clone leaves the original as it was
                before = g.st.to_data()
                h = g.clone()
                if not h.is_terminal():
                    h.apply_action(rng.randrange(len(h.legal_actions())))
                assert g.st.to_data() == before
                assert_owned_apart(g.st, h.st)
            g.apply_action(rng.randrange(len(g.legal_actions())))
            if c is not None:  # and playing on in the original leaves the clone as it was
                assert c.to_data() == kept
                assert_owned_apart(g.st, c)
            k += 1


def test_a_game_clone_copies_every_field_of_the_game():
    """`GameState.clone` sets each field itself (no `__init__`): a field added there and not
    to `clone` fails here; the chance tape is the clone's own."""
    for chance in ("sampled", "explicit"):
        g = new_game(load_program("clash_of_decks"), seed=1, chance=chance)
        c = g.clone()
        assert type(c) is type(g) and vars(c).keys() == vars(g).keys()
        assert all(v is vars(g)[k] for k, v in vars(c).items() if k not in ("st", "_tape"))
        assert c._tape == g._tape and c._tape is not g._tape

"""A statement's move of one object and a statement's new object are done in one Python call
(runtime/engine.py `move_objects`, `create_card`: the work is written there, and the engine's
`move_object` / `create_object` call them), and each does what the other way does."""

from __future__ import annotations

import random
import sys

from madang.game.api import load_program, new_game
from madang.runtime import engine as E


def mid_game(seed: int = 3):
    g = new_game(load_program("clash_of_decks"), seed=seed, memory=False)
    rng = random.Random(seed)
    for _ in range(12):
        g.apply_action(rng.randrange(len(g.legal_actions())))
    return g.st


def placed(st) -> tuple[int, int]:
    """An object in a zone, and another zone."""
    o = next(o for o, z in enumerate(st.obj_zone) if z >= 0)
    return o, next(z for z in range(len(st.zones)) if z != st.obj_zone[o])


def calls_of(fn, *args) -> list[str]:
    """The Python functions called while `fn(*args)` runs, in order."""
    seen: list[str] = []
    sys.setprofile(
        lambda frame, event, _: seen.append(frame.f_code.co_name) if event == "call" else None
    )
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return [c for c in seen if c != "<lambda>"]


def test_a_statements_move_and_create_are_one_call_each():
    st = mid_game()
    o, z = placed(st)
    name = next(iter(st.g.prog.card_index))
    assert calls_of(E.move_objects, st, o, z, "back", 0, "rules:1:1") == ["move_objects"]
    assert calls_of(E.create_card, st, name, z, None, "rules:1:1") == ["create_card"]


def test_each_way_of_moving_and_making_does_the_same():
    st = mid_game()
    o, z = placed(st)
    name = next(iter(st.g.prog.card_index))
    for where, idx in (("back", 0), ("front", 0), ("at", 1)):
        a, b, c = st.clone(), st.clone(), st.clone()
        E.move_objects(a, o, z, where, idx, "rules:1:1")
        E.move_object(b, o, z, where, idx)
        c.log = []  # a logged move goes through the list's path
        E.move_objects(c, [o], z, where, idx, "rules:1:1")
        assert a.to_data() == b.to_data() == c.to_data() and c.log, where
        assert a.obj_zone[o] == z and a.zdirty & 1 << z
    a, b = st.clone(), st.clone()
    owner = st.g.zone_player[z] if st.g.zone_player[z] >= 0 else st.active
    made = E.create_card(a, name, z, None, "rules:1:1")
    assert made == E.create_object(b, st.g.prog.card_index[name], z, owner)
    assert a.to_data() == b.to_data() and a.pv == a.layout() == b.pv

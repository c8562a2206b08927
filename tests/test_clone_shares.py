"""What a clone shares with its original until the first write (runtime/state.py: the zones'
lists, `obj_card` and `obj_owner`, the layout's rows with their properties' written values;
the modifiers, grants, `once per` records and players out, which their writers replace): each
write path copies first, on either side, so that the other state stays as it was and the
layout stays what `props` and the cards make it (`State.layout`)."""

from __future__ import annotations

import random

import pytest
from madang.game import api
from madang.game.api import new_game
from madang.runtime import engine as E


def mid_game(name: str, seed: int = 3):
    """A state 40 decisions in, on a compilation of its own (the cached programs' kept plans
    stay those of the other tests' games)."""
    prog = api._load_cached.__wrapped__(name, ())
    g = new_game(prog, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if g.is_terminal():
            break
        g.apply_action(rng.randrange(len(g.legal_actions())))
    return g


def placed(st) -> tuple[int, int]:
    """An object in a zone and another zone."""
    o = next(o for o, z in enumerate(st.obj_zone) if z >= 0)
    return o, next(z for z in range(len(st.zones)) if z != st.obj_zone[o])


def written(st) -> tuple[int, str]:
    """An object some property was written to, and that property."""
    name, d = next((n, d) for n, d in st.props.items() if d)
    return next(iter(d)), name


WRITES = {
    "move": lambda st: E.move_object(st, *placed(st), "back"),
    "move within": lambda st: E.move_object(st, placed(st)[0], st.obj_zone[placed(st)[0]], "front"),
    "create": lambda st: E.create_object(st, 0, placed(st)[1], 0),
    "remove": lambda st: E.remove_objects(st, placed(st)[0]),
    "shuffle": lambda st: E.shuffle_zone(st, max(range(len(st.zones)), key=lambda z: len(st.zones[z]))),
    "owner": lambda st: E.set_owner(st, placed(st)[0], 1 - st.obj_owner[placed(st)[0]]),
    "set prop": lambda st: st.set_prop(*written(st), 99),
    "new prop": lambda st: st.set_prop(placed(st)[0], next(iter(st.g.prog.prop_slots)), 98),
    "drop props": lambda st: st.drop_props([written(st)[0]]),
    "drop, new cards": lambda st: st.drop_props([written(st)[0]], new_cards=True),
    # replaced, never written in place: shared by a clone (State.clone)
    "modify": lambda st: E.AddModifier.run(st, placed(st)[0], "p", 1, "turn", False),
    "grant": lambda st: E.AddModifier.run(st, placed(st)[0], "k", None, "turn", True),
    "lose": lambda st: E.win_or_lose(st, [1], True),
}  # fmt: skip


@pytest.mark.parametrize("name", ["clash_of_decks", "game_of_thrones_2p"])
def test_each_write_after_a_clone_leaves_the_other_state_as_it_was(name):
    g = mid_game(name)
    for what, write in WRITES.items():
        for side in (0, 1):  # the clone written, then the original
            st = g.st.clone()  # (a copy to write on either side of)
            c = st.clone()
            mine, other = (c, st) if side == 0 else (st, c)
            kept = other.to_data()
            write(mine)
            assert other.to_data() == kept, (what, side)
            assert mine.to_data() != kept or what in ("move within", "shuffle"), (what, side)
            for s in (mine, other):
                assert s.pv == s.layout(), (what, side)


def test_an_action_used_once_per_period_after_a_clone_leaves_the_other_state_as_it_was():
    """`State.used`, shared by a clone, is replaced by the action's start, not appended to."""
    g = mid_game("game_of_thrones_2p")
    prog = g.st.g.prog
    i = next(i for i, a in enumerate(prog.actions) if a.limit is not None)
    for side in (0, 1):
        st = g.st.clone()
        c = st.clone()
        mine, other = (c, st) if side == 0 else (st, c)
        kept = other.to_data()
        o = placed(mine)[0]
        E.start_action(mine, (i, (o,) * len(prog.actions[i].param_names), o), 0)
        assert len(mine.used) == len(other.used) + 1
        assert other.to_data() == kept, side


def test_a_sample_leaves_its_state_as_it_was():
    g = mid_game("game_of_thrones_2p")
    kept = g.st.to_data()
    for seed in range(5):
        s = g.determinize(0, random.Random(seed))
        assert g.st.to_data() == kept
        assert s.st.pv == s.st.layout()
    h = g.clone()
    s = h.determinize(1, random.Random(9))
    assert h.st.to_data() == kept and s.st.pv == s.st.layout()


def test_a_state_never_cloned_writes_in_place():
    st = mid_game("clash_of_decks").st
    zones, cards = st.zones[:], st.obj_card
    o, z = placed(st)
    E.move_object(st, o, z, "back")
    assert all(a is b for a, b in zip(st.zones, zones)) and st.obj_card is cards
    assert st.zo == -1 and st.oo and st.pvo == -1

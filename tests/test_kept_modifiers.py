"""The map of a property's continuous modifiers is kept from one check point to the next while
the parts of the state the effects read are equal (effects.ContinuousEffects._statics_map,
`statics_inputs`; issue #34 step 4). Every kept map used is compared here with one built
afresh, and every modified value read through it with the value computed without any map."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import effects
from madang.runtime.effects import _MISSING, ContinuousEffects

RULESETS = ["nivel_arena", "game_of_thrones_2p", "clash_of_decks", "cthulhu_wars"]


def _through_map(st, found, o, name) -> tuple:
    """`_statics_on`'s answer for `o` from a map of modifiers: (set value, any adds, sum)."""
    setv, added, total = _MISSING, False, 0
    for sa, _src, env in found.get(o, ()):
        v = sa.value(st, env)
        if sa.op == "set":
            setv = v
        else:
            added, total = True, total + v
    return setv, added, total


def play_checked(name: str, seeds: range, monkeypatch) -> dict:
    """Random games of `name` in which every map of modifiers a check point uses, kept or
    built, is checked against the modifiers found object by object without a map."""
    prog = load_program(name)
    seen = {"kept": 0, "built": 0, "values": 0}
    build = ContinuousEffects._build_statics_map
    get = ContinuousEffects._statics_map

    def counting_build(self, st, nm, cache):
        if cache:  # not verify_checks' fresh map (built on a cache of its own)
            seen["built"] += 1
        return build(self, st, nm, cache)

    def checked(self, st, nm, cache):
        first = cache.get(("statics", nm)) is None and ("building", nm) not in cache
        before = st.g.statics_kept.get(nm)
        found = get(self, st, nm, cache)
        if not first or found is None:
            return found
        if before is not None and found is before[3]:  # (verify_checks built a fresh one too)
            seen["kept"] += 1
        outer, st.g.read_cache = st.g.read_cache, None
        reading = set(st.g.reading)  # the read that asked for the map is in progress
        st.g.reading.clear()
        try:  # every object, hit or not: as read without a map, object by object
            for o in range(len(st.obj_card)):
                if effects.in_force(st, o) or o in found:
                    assert _through_map(st, found, o, nm) == self._statics_on(st, o, nm), (o, nm)
                    seen["values"] += 1
        finally:
            st.g.read_cache = outer
            st.g.reading.update(reading)
        return found

    monkeypatch.setattr(ContinuousEffects, "_build_statics_map", counting_build)
    monkeypatch.setattr(ContinuousEffects, "_statics_map", checked)
    for seed in seeds:
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
            if rng.random() < 0.2:  # clones share the game (and its kept maps)
                g = g.clone()
    return seen


@pytest.mark.parametrize("name", RULESETS)
def test_kept_modifiers_are_those_of_the_state_at_every_check_point(name, monkeypatch):
    # conftest sets Program.verify_checks: each kept map used is also compared with a fresh one
    seen = play_checked(name, range(3), monkeypatch)
    prog = load_program(name)
    if name == "nivel_arena":  # checks read modified powers: most check points keep the map
        assert seen["kept"] > seen["built"] > 0
        assert seen["values"] > 1000
    if not prog.checks or not prog.statics_prop:
        assert seen == {"kept": 0, "built": 0, "values": 0}


def test_a_kept_map_is_not_used_once_what_the_effects_read_changed():
    """After a move, a change of the active player or a clone's own change, the next check
    point builds the map again; with nothing changed it uses the kept one."""
    from madang.runtime import engine as E

    prog = load_program("nivel_arena")
    g = new_game(prog, seed=2, memory=False)
    st = g.st
    rng = random.Random(2)
    while not any(st.zones[z] for z in st.g.active_zones[2:]):  # until a unit is in a lane
        g.apply_action(rng.randrange(len(st.pending.values)))
    names = sorted(prog.statics_prop)

    def maps(s):
        s.g.read_cache = {}
        try:
            return [prog._statics_map(s, nm, s.g.read_cache) for nm in names]
        finally:
            s.g.read_cache = None

    first = maps(st)
    assert all(a is b for a, b in zip(maps(st), first))  # nothing changed: the kept maps
    c = st.clone()
    assert all(a is b for a, b in zip(maps(c), first))  # a clone's equal zones: the same
    unit = next(o for z in st.g.active_zones[2:] for o in st.zones[z])
    E.move_object(c, unit, c.g.zone_base["trashzone"] + c.obj_owner[unit], "back")
    moved = maps(c)
    assert all(a is not b for a, b in zip(moved, first))
    assert all(unit not in m for m in moved)
    again = maps(st)  # the original did not change: equal to what it had, built again or not
    assert [effects._entries(m) for m in again] == [effects._entries(m) for m in first]
    st.active = 1 - st.active
    turned = maps(st)
    assert all(a is not b for a, b in zip(turned, again))
    assert all(a is b for a, b in zip(maps(st), turned))
    for _ in range(2):  # a field they read: written in a row a clone shares, then in place
        before = maps(st)
        st.set_prop(unit, "awakened", not prog.read_prop(st, unit, "awakened"))
        assert all(a is not b for a, b in zip(maps(st), before))

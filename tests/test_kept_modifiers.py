"""What holds on any state equal in what it reads is kept per game (runtime/inputs.py; issue #34
step 4): the map of a property's continuous modifiers, from one check point to the next
(effects.ContinuousEffects._statics_map), and a state check that reads modified values, while
found false (engine.run_checks). Every kept map used is compared here with one built afresh,
every modified value read through it with the value computed without any map, and every check
skipped as kept false is evaluated anyway and must be false (Program.verify_checks)."""

import random

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import effects
from madang.runtime import engine as E
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
    seen = {"kept": 0, "built": 0, "values": 0, "checks kept": 0}
    build = ContinuousEffects._build_statics_map
    get = ContinuousEffects._statics_map

    def counting_build(self, st, nm, cache):
        if cache:  # not verify_checks' fresh map (built on a cache of its own)
            seen["built"] += 1
        return build(self, st, nm, cache)

    def checked(self, st, nm, cache):
        first = cache.get(("statics", nm)) is None and ("building", nm) not in cache
        point = st.g.kept_points.get(effects._POINT)
        before = None if point is None else point[2].get(nm)
        found = get(self, st, nm, cache)
        if not first or found is None:
            return found
        if before is not None and found is before:  # (verify_checks built a fresh one too)
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

    quiet = E.Check.verify_quiet

    def kept_false(self, st):  # called for a check skipped: not due, or kept false
        if st.dirty & self.bit:
            seen["checks kept"] += 1
        quiet(self, st)

    monkeypatch.setattr(ContinuousEffects, "_build_statics_map", counting_build)
    monkeypatch.setattr(ContinuousEffects, "_statics_map", checked)
    monkeypatch.setattr(E.Check, "verify_quiet", kept_false)
    for seed in seeds:
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
            if rng.random() < 0.2:  # clones share the game (and what it keeps)
                g = g.clone()
    return seen


@pytest.mark.parametrize("name", RULESETS)
def test_kept_modifiers_are_those_of_the_state_at_every_check_point(name, monkeypatch):
    # conftest sets Program.verify_checks: each kept map used is also compared with a fresh one
    seen = play_checked(name, range(3), monkeypatch)
    prog = load_program(name)
    if name == "nivel_arena":  # a check reads modified powers: most check points keep the map
        assert seen["kept"] > seen["built"] > 0
        assert seen["values"] > 1000
        assert seen["checks kept"] > 500
    if not prog.checks or not prog.statics_prop:
        assert seen == {"kept": 0, "built": 0, "values": 0, "checks kept": 0}


def test_a_kept_map_is_not_used_once_what_the_effects_read_changed():
    """After a move, a change of the active player or of a field the effects read, the next
    check point builds the map again; with nothing changed it uses the kept one. A clone has
    zones of its own, so it builds its own."""
    prog = load_program("nivel_arena")
    g = new_game(prog, seed=2, memory=False)
    st = g.st
    rng = random.Random(2)
    lanes = [z for z in st.g.active_zones if st.g.zone_info[z][0].startswith("lane")]
    while not any(st.zones[z] for z in lanes):  # until a unit is in a lane
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
    theirs = maps(c)
    assert [effects._entries(m) for m in theirs] == [effects._entries(m) for m in first]
    unit = next(o for z in lanes for o in st.zones[z])
    E.move_object(c, unit, c.g.zone_base["trashzone"] + c.obj_owner[unit], "back")
    moved = maps(c)
    assert all(a is not b for a, b in zip(moved, theirs))
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


def test_a_check_kept_false_is_evaluated_again_once_what_it_reads_changed(monkeypatch):
    """Nivel Arena's check of units without power reads modified values: found false, it is
    not evaluated again on the same state, nor after a change of what it does not read; after
    a change of what it reads it is."""
    prog = load_program("nivel_arena")
    (chk,) = [c for c in prog.checks if c.reads is not None]
    assert "mods:파워" in chk.reads
    assert all(c.reads is None for c in prog.checks if c is not chk)  # cheap: evaluated
    g = new_game(prog, seed=2, memory=False)
    st = g.st
    rng = random.Random(2)
    lanes = [z for z in st.g.active_zones if st.g.zone_info[z][0].startswith("lane")]
    while not any(st.zones[z] for z in lanes):
        g.apply_action(rng.randrange(len(st.pending.values)))
    calls = []
    fire = E.Check.fire
    monkeypatch.setattr(E.Check, "fire", lambda c, s: (c is chk and calls.append(1)) or fire(c, s))

    def evaluated() -> int:
        calls.clear()
        st.dirty = -1
        E.run_checks(st)
        return len(calls)

    evaluated()  # (kept false already, if it was at the last check point of the game)
    assert evaluated() == 0  # the same state: kept false
    st.counters["damage_depth"] = st.counters["damage_depth"]
    st.pcounters["doomed"][0] += 1  # a counter it does not read
    assert evaluated() == 0
    unit = next(o for z in lanes for o in st.zones[z])
    st.mods = st.mods + [(unit, "파워", -1, None, 0)]  # a modifier of power: evaluated again
    assert evaluated() == 1
    assert evaluated() == 0
    E.move_object(st, unit, st.g.zone_base["trashzone"] + st.obj_owner[unit], "back")
    assert evaluated() == 1

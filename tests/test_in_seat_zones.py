"""#34: `x in flatten(players.A + players.B)` (or a definition without parameters whose body
is one) written as one call, `operators._in_seat_zones`, which reads the item's zone instead
of making the list of every object of those zones. It must answer as Python's `in` on that
list does, for objects, numbers, none and with seats lost, and play the same games."""

from __future__ import annotations

import random

import pytest
from madang.build.codegen import CodeGen
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import operators
from playthrough import decisions


def _listed(st, names) -> list:
    seats = operators._players(st)
    return [o for name in names for q in seats for o in st.zones[st.g.zone_base[name] + q]]


def _all_code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    code += [a.fast_enum.generated for a in prog.actions if a.fast_enum is not None]
    return "\n".join(code)


@pytest.mark.parametrize("lost", [(), (0,), (1,), (0, 1)])
def test_an_item_is_in_the_seats_zones_as_in_their_list(lost):
    prog = load_program("clash_of_decks")
    g = new_game(prog, seed=2, memory=False)
    rng, st = random.Random(2), g.st
    for _ in range(40):  # creatures in play on both sides
        if st.over:
            break
        g.apply_action(rng.randrange(len(st.pending.values)))
    assert any(st.zones[z] for z in range(len(st.g.zone_info)))  # objects to look up
    st.lost = set(lost)
    seat_zones = [z.name for z in prog.zones.values() if z.scope == "player"]
    assert seat_zones
    n = len(st.obj_zone)
    items = [None, True, False, -1, -n, n, n + 5, "x", [], *range(n)]
    for k in range(1, 3):
        for picked in (seat_zones[i : i + k] for i in range(len(seat_zones))):
            listed = _listed(st, picked)
            for x in items:
                assert operators._in_seat_zones(st, x, tuple(picked)) == (x in listed), (x, picked)


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_seats_zones_looked_up_play_the_bundled_games_as_the_list(ruleset, monkeypatch):
    fast = load_program(ruleset)
    monkeypatch.setattr(CodeGen, "_flat_seat_zones", lambda self, e: None)
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    if ruleset == "clash_of_decks":  # `c in all_creatures` in `attack`'s loop
        assert "_in_seat_zones" in _all_code(fast)
        assert "_in_seat_zones" not in _all_code(general)
    for seed in range(3):
        assert decisions(fast, seed) == decisions(general, seed)  # states and work charged

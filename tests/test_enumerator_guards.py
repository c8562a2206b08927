"""Issue #34: an action's enumerator tests the zone of a `where` in its tests and domains for
emptiness before going through it (`([...] if (zg0_ := st.zones[z]) else [])`: an empty zone
charges nothing, so nothing but the comprehension's frame is saved), and reads each zone name's
base index once (`zb0_ = st.g.zone_base['units']`). The bundled games, played with and without
the guards, are the same states with the same work charged at every decision."""

from __future__ import annotations

import pytest
from madang.build import codegen
from madang.game import api
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import decisions


def _unguarded(name: str, monkeypatch):
    monkeypatch.setattr(codegen, "GUARD_EMPTY", False)
    prog = api._load_cached.__wrapped__(name, ())
    monkeypatch.setattr(codegen, "GUARD_EMPTY", True)
    return prog


def _code(prog, action: str) -> str:
    return next(a for a in prog.actions if a.name == action).fast_enum.generated


def test_a_units_test_per_area_reads_the_zone_once_and_skips_an_empty_one():
    code = _code(load_program("cthulhu_wars"), "march_also")
    assert "zb0_ = st.g.zone_base['units']" in code
    assert code.count("st.g.zone_base") == 1  # read once, before the loops
    # `has_units(you, a)`: the area's units tested for emptiness before the comprehension
    assert "if (zg0_ := st.zones[(zb0_ + v0)]) else []) != [])" in code


@pytest.mark.parametrize(
    "name", ["cthulhu_wars", "game_of_thrones_2p", "nivel_arena", "clash_of_decks"]
)
def test_guarded_enumerators_play_the_games_the_general_ones_play(name, monkeypatch):
    guarded, general = load_program(name), _unguarded(name, monkeypatch)
    assert " := st.zones[" not in "".join(a.fast_enum.generated for a in general.actions)
    for seed in range(3):
        assert decisions(guarded, seed) == decisions(general, seed), f"seed {seed}"


NESTED = """\
zone hand: per player, ordered, owner sees
counter turns = 0

kind piece:
    size: number

action nested(c: card from you.hand) in act:
    require exists(first((you.hand where it.size > 1) where it.size < c.size + 2))
    turns += 1

setup:
    for p in players:
        create "Small" in p.hand
        create "Big" in p.hand

flow:
    repeat 2 times:
        for p in players:
            turn p:
                window act by p once
"""


def test_a_where_inside_the_items_of_another_is_written_without_its_guard(tmp_path):
    """Python refuses an assignment expression in a comprehension's items: there the inner
    `where` goes through its zone as before, and the options are still listed."""
    cards = (
        "cards:\n  - {name: Small, type: piece, size: 1}\n  - {name: Big, type: piece, size: 3}\n"
    )
    prog = load_program(write_ruleset(tmp_path, NESTED, cards, name="nested"))
    code = _code(prog, "nested")
    assert ":= st.zones[" not in code and "_each(st, st.zones[" in code
    g = new_game(prog, seed=0, memory=False)
    hand = g.st.zones[g.st.g.zone_base["hand"] + g.st.pending.player]
    # the Big piece (size 3) is in the hand: it matches for c = Small (3 < 3) no, c = Big yes
    assert [v[1] for v in g.st.pending.values if v[0] == 0] == [[hand[1]]]

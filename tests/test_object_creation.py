"""Objects made while playing (engine.create_object, create_card): each new object's row of
values in the state's layout comes from its card's tuple (setup.card_slots, the slots by
card), and an object made with no owner given gets its zone's player, else the active one
(`Game.zone_player`, laid out once per program and players). Both must give what the generic
ways give: the cards' values slot by slot, the zone's scope looked up by name."""

from __future__ import annotations

import pytest
from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game
from madang.runtime import engine, setup


@pytest.mark.parametrize("ruleset", bundled_names())
def test_a_cards_slot_values_are_its_values_in_each_slot(ruleset):
    prog = load_program(ruleset)
    slots = prog.slot_cards()
    rows = setup.card_slots(prog)
    assert len(rows) == len(prog.cards)
    for c, row in enumerate(rows):
        assert row == tuple(t[c] for t in slots)
        assert row == tuple(prog.cards[c].props.get(name) for name in prog.prop_slots)


# (rulesets without state checks: a game of one counts in no check's shared plan)
@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_an_object_made_without_an_owner_gets_its_zones_player_else_the_active_one(ruleset):
    prog = load_program(ruleset)
    st = new_game(prog, seed=3).st
    g = st.g
    name = prog.cards[0].name
    for z, (zname, zowner) in enumerate(g.zone_info):
        for active in range(g.nplayers):
            st.active = active
            o = engine.create_card(st, name, z, None, "test")
            scope = prog.zones[zname].scope
            assert st.obj_owner[o] == (zowner if scope == "player" else active)
            assert st.obj_zone[o] == z and st.zones[z][-1] == o
            assert [row[o] for row in st.pv] == [t[0] for t in prog.slot_cards()]
    assert st.pv == st.layout()

"""#34: `setup.make_game` starts a game from the fields every game of its program and options
starts with (`setup._made`, found once), not by `Game`'s `__init__` and the settings, layout
and tables read again: each field is set, the tables a game fills as it plays (`setup.FRESH`)
and its options are its own, the rest is the same for every such game (the windows' orders
too, while `engine.ENUM_GUARDS` is on)."""

from __future__ import annotations

import dataclasses

import pytest
from madang.game.api import load_program, new_game, resolve_options
from madang.runtime import engine as E
from madang.runtime import setup
from madang.runtime.state import Game


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_a_made_game_has_every_field_its_own_tables_and_the_others_shared(ruleset, monkeypatch):
    prog = load_program(ruleset)
    a, b = (new_game(prog, seed=s, memory=False).st.g for s in (3, 4))
    names = {f.name for f in dataclasses.fields(Game)}
    assert set(vars(a)) == set(vars(b)) == names
    assert (a.seed, b.seed) == (3, 4)
    assert a.options == b.options == resolve_options(prog, None)[0]
    assert a.options is not b.options
    for name, value in a.options.items():
        if isinstance(value, list):
            assert value is not b.options[name]
    for name, _make in setup.FRESH:
        assert getattr(a, name) is not getattr(b, name)
    shared = names - set(setup.PER_GAME)
    assert shared >= {"zone_base", "laid", "slot_names", "auto_single", "zone_player"}
    for name in shared - {"action_cards", "zone_checks", "zone_seen", "read_cache"}:
        assert getattr(a, name) is getattr(b, name), name  # (set while playing: per game)
    fresh = Game(prog, a.nplayers, a.options, 3)
    for name in ("reading", "kept_points", "domains"):
        assert getattr(setup.make_game(prog, None, 5), name) == getattr(fresh, name)
    # the windows' orders: one table while the shared guards are on, else each game's own
    assert a.action_orders is b.action_orders
    assert a.action_orders or ruleset == "clash_of_decks"  # (its windows: none listed so)
    monkeypatch.setattr(E, "ENUM_GUARDS", False)
    off = [setup.make_game(prog, None, s).action_orders for s in (6, 7)]
    assert off[0] == off[1] == {} and off[0] is not off[1]

"""#34: `setup.make_game` starts a game from the fields every game of its program and options
starts with (`setup._made`, found once), not by `Game`'s `__init__` and the settings, layout
and tables read again: each field is set, the tables a game fills as it plays (`setup.FRESH`)
and its options are its own (the windows' orders and the grants' tables among them: a flag or a
charge of work must not pass from one game to the next), the rest is the same for every such
game."""

from __future__ import annotations

import dataclasses

import pytest
from madang.game.api import load_program, new_game, resolve_options
from madang.runtime import setup
from madang.runtime.state import Game


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_a_made_game_has_every_field_its_own_tables_and_the_others_shared(ruleset):
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
    # the windows' orders and the grants' tables: each game's own, whatever the guards
    assert {"action_orders", "grant_cards"} <= {name for name, _make in setup.FRESH}
    assert a.action_orders is not b.action_orders and a.grant_cards is not b.grant_cards

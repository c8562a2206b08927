"""An event's stages taken without the calls that find nothing (engine.Call.stage,
push_triggers, collect): no listener before it goes straight on to its block, an `after` with
no trigger found resolves nothing, and a self-bound card listener (`after E(this)`) tests the
object its event names instead of finding every object present by card. The same games, state
for state and work for work, as the general way, which asks every timing for its triggers."""

import pytest
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import decisions


class _NoneListening(list):
    """An empty list of listeners that reads as not empty: the general way is taken."""

    def __bool__(self) -> bool:
        return True


def _general(prog, monkeypatch) -> None:
    """Every listened verb asks each timing for its triggers, as before the shortcuts."""
    for verb in prog.verbs.values():
        if verb.listened:
            listeners = dict(verb.listeners)
            for timing in ("before", "when"):
                listeners.setdefault(timing, _NoneListening())
            monkeypatch.setattr(verb, "listeners", listeners)


@pytest.mark.parametrize("name", ["game_of_thrones_2p", "nivel_arena", "clash_of_decks"])
def test_events_without_listeners_before_play_the_same_games(name, monkeypatch):
    prog = load_program(name)
    fast = [decisions(prog, seed, 150) for seed in range(3)]
    _general(prog, monkeypatch)
    assert [decisions(prog, seed, 150) for seed in range(3)] == fast


RULES = """\
kind unit:
    power: number
zone table: shared, public, active
zone box: shared, public
counter mark = 0
event poke(u: card)
verb ask_number(u: card):
    choose n from [1, 2] by first(players) "how many"
    mark = mark * 10 + n
flow:
    create "A" in table
    create "A" in box
    turn first(players):
        emit poke(first(box))
        emit poke(first(table))
        ask_number(first(table))
"""
CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "after poke(this):\\n    mark = mark * 10 + 7\\n"}
"""


def test_a_self_bound_listener_fires_only_for_its_object_in_force(tmp_path):
    # the A in the box is not in force: its `poke` finds no trigger; the A on the table's does
    g = new_game(write_ruleset(tmp_path, RULES, CARDS), {}, seed=1)
    assert g.st.counters["mark"] == 7
    g.apply_action(1)
    assert g.st.counters["mark"] == 72

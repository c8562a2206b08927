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


ASKING = """\
kind unit:
    power: number
zone table: shared, public, active
counter mark = 0
event bell
flow:
    create "A" in table
    turn first(players):
        emit bell()
        emit bell()
"""
ASKING_CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "after bell:\\n    choose n from [1, 2] by first(players) \\"ring\\"\\n    mark = mark * 10 + n\\n"}
"""


def test_an_event_without_a_block_keeps_its_frame_only_under_its_triggers(tmp_path):
    # `bell` has no block and only an `after` listener: its frame is made when a trigger is
    # found, at its last stage, under the trigger's block, which asks; then it ends
    from madang.runtime.state import EVENT

    g = new_game(write_ruleset(tmp_path, ASKING, ASKING_CARDS), {}, seed=1)
    events = [f for f in g.st.frames if f.kind == EVENT]
    assert [f.extra["stage"] for f in events] == [3]
    assert g.st.frames.index(events[0]) == len(g.st.frames) - 2  # the trigger's block above it
    g.apply_action(1)
    assert g.st.counters["mark"] == 2
    assert [f.extra["stage"] for f in g.st.frames if f.kind == EVENT] == [3]
    g.apply_action(0)
    assert g.st.counters["mark"] == 21
    assert not [f for f in g.st.frames if f.kind == EVENT]


def test_an_event_without_a_block_plays_as_the_general_way(tmp_path, monkeypatch):
    prog = load_program(write_ruleset(tmp_path, ASKING, ASKING_CARDS))
    fast = [decisions(prog, seed, 20) for seed in range(2)]
    _general(prog, monkeypatch)
    assert [decisions(prog, seed, 20) for seed in range(2)] == fast

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


BLOCKS = """\
kind unit:
    power: number
zone table: shared, public, active
counter mark = 0
verb tap(u: card):
    mark = mark * 10 + 3
verb ring(u: card):
    choose n from [1, 2] by first(players) "how many"
    mark = mark * 10 + n
flow:
    create "A" in table
    turn first(players):
        tap(first(table))
        ring(first(table))
        mark = mark * 10 + 9
"""
BLOCKS_CARDS = """\
cards:
  - name: A
    type: unit
    power: 1
    text: |
      after tap(this):
          mark = mark * 10 + 5
      after ring(this):
          mark = mark * 10 + 7
"""


def test_a_verb_with_a_block_keeps_its_frame_only_while_its_block_waits(tmp_path):
    # `tap` ends at once: its trigger is found as its block ends (3, then 5), and no frame of
    # it is left; `ring` asks inside its block: its frame is under the block's, at stage 2,
    # as the general way leaves it, and its trigger resolves after the answer
    from madang.runtime.state import EVENT, FUNC

    g = new_game(write_ruleset(tmp_path, BLOCKS, BLOCKS_CARDS), {}, seed=1)
    assert g.st.counters["mark"] == 35
    frames = g.st.frames
    events = [f for f in frames if f.kind == EVENT]
    assert [f.extra["stage"] for f in events] == [2]
    assert frames[-1].kind == FUNC and frames[-2] is events[0]  # the block above its event
    g.apply_action(1)
    assert g.st.counters["mark"] == 35279
    assert g.st.over or not [f for f in g.st.frames if f.kind == EVENT]


def test_a_verb_with_a_block_plays_as_the_general_way(tmp_path, monkeypatch):
    prog = load_program(write_ruleset(tmp_path, BLOCKS, BLOCKS_CARDS))
    fast = [decisions(prog, seed, 20) for seed in range(2)]
    _general(prog, monkeypatch)
    assert [decisions(prog, seed, 20) for seed in range(2)] == fast


ROLLING = """\
kind unit:
    power: number
zone table: shared, public, active
counter mark = 0
verb throw(u: card):
    mark = mark * 10 + random([1, 2, 3])
flow:
    create "A" in table
    turn first(players):
        throw(first(table))
        choose n from [1, 2] by first(players) "again"
        mark = mark * 10 + n
        throw(first(table))
"""
ROLLING_CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "after throw(this):\\n    mark = mark * 10 + 7\\n"}
"""


def _nodes(prog) -> list:
    """The digest at each node of every way an explicit-chance game goes, and at chance nodes
    the frames of the step stopped there."""
    seen = []

    def walk(g):
        frames = [(f.kind, f.extra) for f in g.st.frames] if g.is_chance_node() else None
        seen.append((g.is_chance_node(), g.digest(), frames))
        if g.is_terminal():
            seen.append(g.st.counters["mark"])
            return
        for k in range(len(g.legal_actions())):
            c = g.clone()
            c.apply_action(g.legal_actions()[k])
            walk(c)

    walk(new_game(prog, {}, chance="explicit"))
    return seen


def test_a_verb_with_a_block_stopped_for_chance_is_the_general_way(tmp_path, monkeypatch):
    # the block of `throw` stops at its random pick: the state at that chance node has the
    # event's frame under the block's, as the general way has it
    prog = load_program(write_ruleset(tmp_path, ROLLING, ROLLING_CARDS))
    fast = _nodes(prog)
    assert sum(1 for x in fast if isinstance(x, int)) == 18  # 3 × 2 × 3 games
    assert 17117 in fast and 37237 in fast  # (a throw, its trigger, n, a throw, its trigger)
    _general(prog, monkeypatch)
    assert _nodes(prog) == fast

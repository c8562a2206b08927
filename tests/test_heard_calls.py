"""#34: a call of a verb or event that triggers listen to computes its arguments in the
generated block and starts its object with them (build/resumable.py `_Emitter.heard`,
engine.Call.bound), and a verb's frameless copy runs such a call without its frame. The same
games, state for state, work and steps, as with the call's object computing its arguments
(`HEARD_INLINE` off). A card's listener finds its sources from an index of the objects by
card when the map of every card present is not kept (engine.card_objects), as from the map."""

from __future__ import annotations

import re

import pytest
from madang.build import resumable
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

RULES = """\
kind unit:
    power: number
zone table: shared, public, active
zone box: shared, public
counter mark = 0
counter seen = 0
event poke(u: card, n: number)
event tally(p: player)
verb boom(u: card):
    mark = mark * 10 + 1
    if mark > 100000:
        return
    choose k from [1, 2] by first(players) "boom"
    mark = mark + k
# leaves through a `return` and raises a listened event: a frameless copy runs both
verb settle(n: number):
    if n > 2:
        emit tally(first(players))
        return
    emit poke(first(table), n + random([0, 1]))
    seen += 1
after tally(p) if p == first(players):
    seen += 100
flow:
    create "A" in table
    create "B" in table
    create "A" in box
    repeat 4 times:
        turn first(players):
            emit poke(first(box), 1)
            emit poke(last(table), random([1, 2, 3]))
            boom(first(table))
            settle(random([1, 2, 3]))
            choose n from [1, 2, 3] by first(players) "n"
            settle(n)
"""
CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "after poke(this, n) if n > 1:\\n    mark = mark * 10 + n\\n"}
  - name: B
    type: unit
    power: 2
    text: |
      after poke(u, n) if n == 2:
          seen += 10
      after boom(u):
          seen += 1000
"""


def _code(prog) -> str:
    return "\n".join(s.fn.generated for b in prog.blocks for s in b[:1] if hasattr(s, "fn"))


def test_a_listened_call_plays_as_its_object_computing_its_arguments(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, CARDS, name="hc")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "HEARD_INLINE", False, monkeypatch)
    assert ".bound(st, " in _code(fast) and not re.search(r"_Call_\d+\.exec\(", _code(fast))
    assert ".bound(st, " not in _code(general) and re.search(r"_Call_\d+\.exec\(", _code(general))
    # `settle` leaves through a marked `return` and raises listened events: it has a copy
    assert fast.verbs["settle"].quick[0].__name__.endswith("_q")
    counters = set()
    for seed in range(12):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed)
        counters.add((a[-1][4]["seen"] >= 100, a[-1][4]["seen"] % 100 >= 10))
    assert (True, True) in counters  # both kinds of listener fired in some game


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_listened_calls_play_the_bundled_games_as_their_objects(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "HEARD_INLINE", False, monkeypatch)
    for seed in range(3):
        assert decision_steps(fast, seed) == decision_steps(general, seed)


def test_card_listeners_find_their_sources_without_the_map_of_every_card(tmp_path, monkeypatch):
    """Without windows listing cards' actions, a card listener's sources come from the index
    of objects by card (no `objects_by_card` made); with the map forced they are the same."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="hm")
    prog = load_program(folder)
    made = []
    real = E._objects_by_card
    monkeypatch.setattr(E, "_objects_by_card", lambda st: made.append(1) or real(st))
    indexed = [decision_steps(prog, seed) for seed in range(6)]
    assert not made
    monkeypatch.setattr(E, "_cards_act", lambda g: True)  # the map, as windows make it
    assert [decision_steps(prog, seed) for seed in range(6)] == indexed
    assert made
    g = new_game(prog, seed=0, memory=False)
    b = next(o for o in range(len(g.st.obj_card)) if prog.cards[g.st.obj_card[o]].name == "B")
    assert E.card_objects(g.st, g.st.obj_card[b]) == [b]
    assert E.in_force_of(g.st, E.card_objects(g.st, g.st.obj_card[b])) == [b]

"""An event's listeners split once per program (engine.heard_plans, `Game.heard`): a card's
listeners bound to their own object (`after E(this)`) are gone through only for the card of
the object the event names, the others all (engine.collect). The same games, state for state,
work and steps, as with every listener gone through."""

from __future__ import annotations

import weakref

from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime import setup
from minirules import write_ruleset
from playthrough import decision_steps

RULES = """\
kind unit:
    power: number
counter seen = 0
counter mark = 0
zone box: shared, public
zone table: shared, public, active
event poke(u: card, n: number)
flow:
    create "A" in table
    create "B" in table
    create "C" in table
    create "A" in box
    repeat 5 times:
        turn first(players):
            choose k from [0, 1, 2] by first(players) "which"
            emit poke(nth(table, k), random([1, 2, 3]))
            emit poke(first(box), 2)
"""
CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "after poke(this, n) if n > 1:\\n    mark = mark * 10 + n\\n"}
  - {name: B, type: unit, power: 2, text: "after poke(this, n):\\n    seen += n\\n"}
  - {name: C, type: unit, power: 3, text: "after poke(u, n) if n == 2:\n    seen += 10\n"}
"""


def _generic(monkeypatch) -> None:
    """Every listener gone through, as before the split (a fresh table of plans)."""
    monkeypatch.setattr(E, "_heard_plan", lambda lsts: lsts)
    monkeypatch.setattr(setup, "_heard", weakref.WeakKeyDictionary())


def test_listeners_bound_to_their_object_are_split_by_card(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "HEARD_SPLIT", 2)
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="hp"))
    lsts = prog.verbs["poke"].listeners["after"]
    plan = E._heard_plan(lsts)
    assert plan[0] is lsts and [lst.card_index for lst in plan[1]] == [prog.card_index["C"]]
    (name, by_card), *more = plan[2]
    assert not more and name == "u"
    assert set(by_card) == {prog.card_index["A"], prog.card_index["B"]}
    monkeypatch.setattr(E, "HEARD_SPLIT", 3)
    assert E._heard_plan(lsts) is lsts  # (two bound: not worth the split)


def test_the_split_plays_as_every_listener_gone_through(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "HEARD_SPLIT", 1)
    prog = load_program(write_ruleset(tmp_path, RULES, CARDS, name="hp"))
    assert new_game(prog, seed=0, memory=False).st.g.heard  # (split: two bound, at least one)
    split = [decision_steps(prog, seed) for seed in range(8)]
    assert any(s[-1][4]["mark"] and s[-1][4]["seen"] % 10 for s in split)  # each kind fired
    _generic(monkeypatch)
    prog2 = load_program(write_ruleset(tmp_path, RULES, CARDS, name="hp"))
    assert [decision_steps(prog2, seed) for seed in range(8)] == split


def test_a_bundled_game_plays_alike_with_the_split(monkeypatch):
    # a compilation of its own: games of the cached program would count in its checks' shared
    # plan (engine._settle) and change what later tests of it compare
    prog = api._load_cached.__wrapped__("nivel_arena", ())
    g = new_game(prog, seed=0, memory=False)
    assert g.st.g.heard and all(p[0] is not p[1] for p in g.st.g.heard.values())
    split = [decision_steps(prog, seed) for seed in range(2)]
    _generic(monkeypatch)
    assert new_game(prog, seed=0, memory=False).st.g.heard is None
    assert [decision_steps(prog, seed) for seed in range(2)] == split

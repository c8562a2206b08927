"""The sources of an event's listeners found cheaply (engine.collect): a keyword's holders from
the objects of the cards that print it, those in force (`engine.in_force_of`, in any order: the
triggers found are sorted by their sources' places), and a self-bound pattern's (`after
E(this)`) only the object the event names (`ListenerRT.self_arg`). The same triggers, in the
same order, as before."""

import pytest
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import decisions

RULES = """\
kind unit:
    power: number
keyword ringer for unit
zone table: shared, public, active
counter mark = 0
event bell
event poke(u: card)
flow:
    create "B" in table
    create "A" in table
    create "B" in table
    turn first(players):
        emit bell()
        emit poke(last(table))
"""
CARDS = """\
cards:
  - {name: A, type: unit, power: 1, text: "ringer\\nafter poke(this):\\n    mark = mark * 10 + 7\\n"}
  - {name: B, type: unit, power: 2, text: "ringer\\nafter poke(this):\\n    mark = mark * 10 + 8\\n"}
"""
KEYWORD = """\
keyword ringer:
    after bell:
        mark = mark * 10 + this.power
"""


def test_a_keywords_holders_resolve_in_their_places_order(tmp_path):
    # B, A, B in the table: their `ringer` triggers resolve in that order (zone order), though
    # the objects present are grouped by card (A's first); then only the last B's `poke(this)`
    folder = write_ruleset(
        tmp_path, RULES.replace("keyword ringer for unit\n", "") + KEYWORD, CARDS
    )
    g = new_game(folder, {}, seed=1)
    assert g.st.counters["mark"] == 2128


def test_a_self_bound_listener_has_the_events_parameter():
    # Nivel Arena: `after attack_declared(this)` (an attacker's own) is self-bound; an item's
    # `after attack_declared(a) if a == equipped_unit(this)` is not
    prog = load_program("nivel_arena")
    verb = prog.verbs["attack_declared"]
    by_card = {prog.cards[lst.card_index].name: lst for lst in verb.listeners["after"]}
    assert by_card["バイパー"].self_arg == verb.param_names[0]
    assert by_card["レアメタルブーツ"].self_arg is None
    assert all(lst.origin != "global" for lst in prog.listener_by_id.values() if lst.self_arg)


@pytest.mark.parametrize("name", ["nivel_arena", "game_of_thrones_2p", "clash_of_decks"])
def test_self_bound_sources_play_the_same_games(name, monkeypatch):
    # every decision of seeded random games: the same state and work with each self-bound
    # listener's sources narrowed to the object its event names, and without
    prog = load_program(name)
    fast = [decisions(prog, seed, 150) for seed in range(3)]
    for lst in prog.listener_by_id.values():
        monkeypatch.setattr(lst, "self_arg", None)
    assert [decisions(prog, seed, 150) for seed in range(3)] == fast


def test_a_keywords_holder_out_of_play_does_not_fire(tmp_path):
    # an A and a B in the box (no abilities in force there) and one B on the table: only the
    # table's B rings, though the box's objects are among the objects of the printing cards
    rules = (RULES.replace("keyword ringer for unit\n", "") + KEYWORD).replace(
        "zone table: shared, public, active\n",
        "zone table: shared, public, active\nzone box: shared, public\n",
    )
    rules = rules.replace(
        '    create "B" in table\n    create "A" in table\n    create "B" in table\n',
        '    create "A" in box\n    create "B" in box\n    create "B" in table\n',
    )
    g = new_game(write_ruleset(tmp_path, rules, CARDS), {}, seed=1)
    assert g.st.counters["mark"] == 28

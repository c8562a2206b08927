"""Issue #34: an enumerator's parameters held as objects, and kinds read from a table.

- `enumerators.HELD_PARAMS`: a parameter whose domain holds objects only (a zone's contents, a
  `where` over them, `first(L, k)` of such a list) is tested without none tests, as a `where`'s
  item is: Clash of Decks' `cast` and `summon` (`playable(you)`).
- `codegen.KIND_TABLES`: `x is K` of an object is a read of a table of each card's truth for `K`
  (no read of the card's kind nor comparison); of a name that may be none, after its none test.

The options, the states and the work charged are those of the general code at every decision."""

from __future__ import annotations

from madang.build import codegen, enumerators
from madang.game.api import load_program
from minirules import ROUNDS, write_ruleset
from playthrough import compiled_with, compiled_without, decisions, enumerator_code, offers, windows


def _general(name: str, monkeypatch):
    """`name` compiled with neither switch."""
    return compiled_without(
        name, monkeypatch, (codegen, "KIND_TABLES"), (enumerators, "HELD_PARAMS")
    )


def test_clash_of_decks_tests_its_cards_without_none_tests_and_plays_as_before(monkeypatch):
    on, off = load_program("clash_of_decks"), _general("clash_of_decks", monkeypatch)
    for action in ("cast", "summon"):
        tests = [x for x in enumerator_code(on, action).split("\n") if "continue" in x]
        assert tests and all("v0 is not None" not in x and ".kind ==" not in x for x in tests)
        assert "_kind_" in tests[0]
        assert "v0 is not None" in enumerator_code(off, action)
        assert "_kind_" not in enumerator_code(off, action)
    for seed in range(3):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
zone pile: per player, ordered, owner sees
counter n = 0

kind piece:
    cost: number

kind charm:
    cost: number

action play(c: card from first(you.hand where it.cost >= 0, 2), z: zone from [you.pile]) in act:
    require c is piece and c.cost <= count(you.pile) + 1
    move c to z

action peek(c: card from [first(you.hand)]) in act:
    require c is charm
    move c to you.pile

action tally() in act:
    let t = first(you.hand)
    if t is piece:
        n += 1
    move first(you.pile) to you.hand

setup:
    for p in players:
        create "Cheap" in p.hand
        create "Glint" in p.hand
        create "Dear" in p.hand
        create "Glint" in p.hand
        create "Cheap" in p.hand
"""

CARDS = (
    "cards:\n  - {name: Cheap, type: piece, cost: 0}\n"
    "  - {name: Dear, type: piece, cost: 2}\n"
    "  - {name: Glint, type: charm, cost: 1}\n"
)


def test_a_small_ruleset_offers_what_the_general_code_offered(tmp_path, monkeypatch):
    """A slice of a hand's `where` is held (no none test); a list of a first card that may be
    none is not; a name that may be none is tested for none before the kind's table."""
    folder = write_ruleset(tmp_path, RULES + ROUNDS, CARDS, name="held")
    on = compiled_with(folder, enumerators, "HELD_PARAMS", True, monkeypatch)
    off = _general(folder, monkeypatch)
    play = enumerator_code(on, "play")
    assert "v0 is not None" not in play and "_kind_piece_" in play
    assert "v0 is not None" in enumerator_code(on, "peek")  # `[first(you.hand)]` may hold none
    empty = False  # a hand found empty (`first(you.hand)` none) at some decision
    for seed in range(12):
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
        for st, _, _ in windows(on, seed):
            empty = empty or any(
                not st.zones[st.g.zone_base["hand"] + q] for q in range(st.g.nplayers)
            )
    assert empty

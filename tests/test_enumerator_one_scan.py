"""Issue #34: a zone an enumerator's test goes through is not gone through again from its start.

- `SCAN_DOMAINS`: a parameter's domain `(Z where C and D).x` (or `unique` of it) right after a
  test part `exists(first(Z where C))` on the same zone goes on from the test's first match
  (an iterator of the zone): Cthulhu Wars' movers' names per area after `has_units(you, a)`.
- `OR_ONE_SCAN`: a test part `exists(first(Z where A and B)) or exists(first(Z where A and C))`
  goes through Z once: Cthulhu Wars' capture (a great old one or a monster of the player).

The options, the states and the work charged are those of the two passes at every decision."""

from __future__ import annotations

from madang.build import enumerators
from madang.game.api import load_program
from minirules import ROUNDS, write_ruleset
from playthrough import compiled_with, compiled_without, decisions, enumerator_code, offers, windows


def _without(name: str, monkeypatch):
    """`name` compiled with neither switch."""
    return compiled_without(
        name, monkeypatch, (enumerators, "OR_ONE_SCAN"), (enumerators, "SCAN_DOMAINS")
    )


def test_cthulhu_wars_goes_through_an_area_once_and_plays_as_before(monkeypatch):
    on, off = load_program("cthulhu_wars"), _without("cthulhu_wars", monkeypatch)
    for action in ("march", "march_also"):
        assert "zi_ = iter(zg0_)" in enumerator_code(on, action)
        assert "zi_" not in enumerator_code(off, action)
    assert "zf_ = False" in enumerator_code(on, "capture")
    assert "zf_" not in enumerator_code(off, "capture")
    for seed in range(3):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
counter n = 0

kind piece:
    cost: number
    color: text

action buy(q: player from players, nm: text from unique((q.hand where it.cost > 0 and it.color != "green").name)) in act:
    require exists(first(q.hand where it.cost > 0))
    move first(q.hand where it.name == nm) to you.hand
    n += 1

action give(q: player from players) in act:
    require exists(first(q.hand where it.cost > 1 and it.color == "red")) or exists(first(q.hand where it.cost > 1 and it.color == "blue"))
    move first(q.hand) to nth(players, (q.seat + 1) % player_count).hand

setup:
    for p in players:
        create "Green" in p.hand
        create "Free" in p.hand
    create "Red" in nth(players, 0).hand
    create "Blue" in nth(players, 1).hand
    create "Dear" in nth(players, 1).hand

"""

CARDS = (
    "cards:\n  - {name: Red, type: piece, cost: 2, color: red}\n"
    "  - {name: Blue, type: piece, cost: 1, color: blue}\n"
    "  - {name: Dear, type: piece, cost: 3, color: blue}\n"
    "  - {name: Green, type: piece, cost: 1, color: green}\n"
    "  - {name: Free, type: piece, cost: 0, color: red}\n"
)


def test_a_small_ruleset_offers_what_the_two_passes_offered(tmp_path, monkeypatch):
    """The pieces go round: a hand's first match of `cost > 0` is or is not green (the
    domain's own test), with or without pieces before it; a hand holds a red piece of cost 2,
    a blue of cost 3 or only cheaper ones (`give`'s two tests)."""
    folder = write_ruleset(tmp_path, RULES + ROUNDS, CARDS, name="onescan")
    on = compiled_with(folder, enumerators, "SCAN_DOMAINS", True, monkeypatch)
    off = _without(folder, monkeypatch)
    assert "zi_ = iter(zg0_)" in enumerator_code(on, "buy")
    assert "zf_ = False" in enumerator_code(on, "give")
    decided, firsts = set(), set()  # which scan decided `give`; `buy`'s first match
    for seed in range(12):
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
        for st, _, _ in windows(on, seed):
            for q in range(st.g.nplayers):
                hand = [
                    on.cards[st.obj_card[o]].props for o in st.zones[st.g.zone_base["hand"] + q]
                ]
                dear = {c["color"] for c in hand if c["cost"] > 1}
                decided.add("red" if "red" in dear else "blue" if "blue" in dear else None)
                k = next((i for i, c in enumerate(hand) if c["cost"] > 0), None)
                if k is not None:  # (whether it is green, whether objects come before it)
                    firsts.add((hand[k]["color"] == "green", k > 0))
    assert decided == {"red", "blue", None}
    assert len(firsts) == 4


# the zone, kind and setup of RULES, an action whose first test charges per object tested
CHARGING = (
    RULES[: RULES.index("action buy")]
    + """\
define rich(p: player) = p.hand where count(p.hand where it.cost > 1) > it.cost

action take(q: player from players, nm: text from unique((q.hand where count(q.hand where it.cost > 1) > it.cost and it.color != "green").name)) in act:
    require exists(first(rich(q)))
    move first(q.hand where it.name == nm) to you.hand
    n += 1
"""
    + RULES[RULES.index("setup:") :]
)


def test_a_first_test_that_charges_is_not_shared_with_the_domain(tmp_path, monkeypatch):
    """The test's condition goes through a list of its own (charged per object tested): the
    domain after it tests it on every object again, as before, so the work is the same."""
    folder = write_ruleset(tmp_path, CHARGING + ROUNDS, CARDS, name="charging")
    on = compiled_with(folder, enumerators, "SCAN_DOMAINS", True, monkeypatch)
    off = _without(folder, monkeypatch)
    code = enumerator_code(on, "take")
    assert "for it0 in zg0_:" in code and "_each(st, zg1_)" in code and "zi_" not in code
    for seed in range(4):
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"

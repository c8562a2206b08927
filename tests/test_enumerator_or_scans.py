"""Issue #34: a `require` part `X or Y` whose first item is whether an object of a zone matches
(`exists(first(Z where P))`, P pure) is written as statements in an action's enumerator
(`enumerators.OR_SCANS`): X's zone charged, then gone through to its first match, and Y tested
only when none matched (each further item that is such a test the same way). Cthulhu Wars'
capture (`has_cls(p, a, "goo") or has_cls(p, a, "monster")`) and recruit are such parts. The
states, the work charged and the options are those of the whole `or` at every decision."""

from __future__ import annotations

from madang.build import enumerators
from minirules import ROUNDS, write_ruleset
from playthrough import compiled_with, decisions, enumerator_code, offers, windows


def _built(name: str, on: bool, monkeypatch):
    return compiled_with(name, enumerators, "OR_SCANS", on, monkeypatch)


def test_captures_test_goes_through_the_area_once_per_class_and_plays_as_before(monkeypatch):
    monkeypatch.setattr(enumerators, "OR_ONE_SCAN", False)  # one pass for both: its own test
    on, off = _built("cthulhu_wars", True, monkeypatch), _built("cthulhu_wars", False, monkeypatch)
    code = enumerator_code(on, "capture")
    goo, monster = code.index("== 'goo'): break"), code.index("== 'monster'): break")
    assert goo < code.index("if not zg0_:\n", goo) < monster  # the monsters only without a goo
    assert "!= [])) or" not in code.split("for v0, zg0_ in ")[1].split("\n")[1]
    assert "!= [])) or" in enumerator_code(off, "capture")
    for seed in range(3):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


RULES = """\
zone hand: per player, ordered, owner sees
counter n = 0
counter gold: per player = 0

kind piece:
    color: text

define holds(p: player, c: text) = exists(first(p.hand where it.color == c))

action pass_on(q: player from players) in act:
    require holds(q, "red") or holds(q, "blue") or q.gold > 2
    move first(q.hand) to nth(players, (q.seat + 1) % player_count).hand
    n += 1

action earn in act:
    require not holds(you, "red") or you.gold < 2
    you.gold += 1

setup:
    for p in players:
        create "Green" in p.hand
    create "Red" in nth(players, 0).hand
    create "Blue" in nth(players, 1).hand

"""

CARDS = (
    "cards:\n  - {name: Red, type: piece, color: red}\n  - {name: Blue, type: piece, color: blue}\n"
    "  - {name: Green, type: piece, color: green}\n"
)


def test_an_or_of_zone_tests_offers_what_the_whole_or_offered(tmp_path, monkeypatch):
    """`holds(q, "red") or holds(q, "blue") or q.gold > 2` per player: a red piece, else a blue
    one, else the gold decides; the pieces go round, so each item decides some listings."""
    folder = write_ruleset(tmp_path, RULES + ROUNDS, CARDS, name="either")
    on, off = _built(folder, True, monkeypatch), _built(folder, False, monkeypatch)
    code = enumerator_code(on, "pass_on")
    red, blue = code.index("== 'red'): break"), code.index("== 'blue'): break")
    assert red < blue < code.index("if not ((cr0_[v0] > 2)): continue")  # the row: ROW_LOCALS
    assert "!= []" not in code.split("for v0 in d0:")[1]
    assert "!= []" in enumerator_code(off, "pass_on")
    decided = set()  # which item decided, per player and listing
    for seed in range(12):
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
        for st, _, _ in windows(on, seed):
            for q in range(st.g.nplayers):
                hand = st.zones[st.g.zone_base["hand"] + q]
                colors = {on.cards[st.obj_card[o]].props["color"] for o in hand}
                gold = st.pcounters["gold"][q] > 2
                decided.add("red" if "red" in colors else "blue" if "blue" in colors else gold)
    assert decided == {"red", "blue", True, False}

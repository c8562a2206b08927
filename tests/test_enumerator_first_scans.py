"""Issue #34: a test part that is whether a `where` over a zone has a first match written through
a definition (`exists(first(keepers(you, a)))`, the definition's body `a.units where ...`), its
condition fusible, is gone through to its first match in an action's enumerator
(`enumerators.FIRST_SCANS`), as `exists(first(Z where P))` written directly already was: no
list of all the matches. Cthulhu Wars' build_gate and control_gate are such parts. The options
and states are those of the list at every decision; the work charged is no more (the objects
after the first match are not tested, and a condition's own lists are charged only for the
objects it tests)."""

from __future__ import annotations

from madang.build import enumerators
from madang.game.api import load_program
from minirules import ROUNDS, write_ruleset
from playthrough import compiled_with, enumerator_code, offers, windows, work
from test_enumerator_or_scans import CARDS
from test_enumerator_or_scans import RULES as OR_RULES

LISTED = " or (None,))[0] is not None"


def _built(name: str, on: bool, monkeypatch):
    return compiled_with(name, enumerators, "FIRST_SCANS", on, monkeypatch)


def test_build_gates_keepers_are_gone_through_to_the_first_and_play_as_before(monkeypatch):
    on, off = load_program("cthulhu_wars"), _built("cthulhu_wars", False, monkeypatch)
    code = enumerator_code(on, "build_gate")
    assert LISTED not in code and "== 'cultist') or" in code.split("for it0 in zg0_:")[1]
    assert LISTED in enumerator_code(off, "build_gate")
    for seed in range(3):  # the states and options at every decision, the work no more
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
        assert all(a <= b for a, b in zip(work(on, seed), work(off, seed), strict=True))


# the pieces, setup and flow of tests/test_enumerator_or_scans.py (a red, a blue, greens)
RULES = (
    """\
zone hand: per player, ordered, owner sees
counter n = 0

kind piece:
    color: text

define reds(p: player) = p.hand where it.color == "red"

action pass_on(q: player from players) in act:
    require exists(first(reds(q)))
    move first(reds(q)) to nth(players, (q.seat + 1) % player_count).hand
    n += 1

action wait in act:
    require not exists(first(reds(you)))
    n += 2

"""
    + OR_RULES[OR_RULES.index("setup:") :]
    + ROUNDS
)


def test_a_first_match_through_a_definition_offers_what_the_list_offered(tmp_path, monkeypatch):
    """`exists(first(reds(q)))` per player and its `not` for the player acting: the red piece
    goes round, so each player's hand holds it in some listings and not in others."""
    folder = write_ruleset(tmp_path, RULES, CARDS, name="firsts")
    on, off = _built(folder, True, monkeypatch), _built(folder, False, monkeypatch)
    code = enumerator_code(on, "pass_on")
    assert LISTED not in code and "== 'red'): break" in code
    assert LISTED in enumerator_code(off, "pass_on")
    assert LISTED not in enumerator_code(on, "wait")  # (its `not`: a match found fails it)
    held = set()
    for seed in range(10):
        assert offers(on, seed) == offers(off, seed), f"seed {seed}"
        assert work(on, seed) == work(off, seed), f"seed {seed}"  # (one red: the same objects)
        for st, _, _ in windows(on, seed):
            for q in range(st.g.nplayers):
                hand = st.zones[st.g.zone_base["hand"] + q]
                held.add(any(on.cards[st.obj_card[o]].props["color"] == "red" for o in hand))
    assert held == {True, False}

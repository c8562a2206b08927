"""Issue #34: an enumerator keeps the values of its `require` tests that read only names bound
at an outer loop (build/hoist.py): `fits_cost(you, c, z)`'s `field_cost(you)` and `size_of(you)`
once per listing, not per card and lane. The options, in their order, are those listed without
(enumerators.KEEP_OUTER off), at every decision of seeded random games."""

from __future__ import annotations

import random
import re

import pytest
from madang.build import enumerators
from madang.game import api
from madang.game.api import load_program, new_game
from minirules import write_ruleset


def _unkept(name: str, monkeypatch):
    monkeypatch.setattr(enumerators, "KEEP_OUTER", False)
    prog = api._load_cached.__wrapped__(name, ())
    monkeypatch.setattr(enumerators, "KEEP_OUTER", True)
    return prog


def test_a_value_reading_only_you_is_kept_per_listing():
    code = next(a for a in load_program("nivel_arena").actions if a.name == "배치")
    code = code.fast_enum.generated
    head, inner = code.rsplit("for v1 in d1:", 1)
    # `field_cost(you)`, `size_of(you)`: holders reset before the loops, filled in the inner
    # loop when first needed; `unit_in(z)`: a value per lane, kept for the loop over the hand
    kept = re.findall(r"^ +(k\d+) = None$", head, re.M)
    per_lane = re.findall(r"^ +(km\d+) = \{\}$", head, re.M)
    assert len(kept) == 2 and per_lane
    for k in kept:
        assert f"({k} if {k} is not None else ({k} := " in inner
    for k in per_lane:
        assert f"({k}[v1] if v1 in {k} else {k}.setdefault(v1, " in code
    assert "_fits_cost_" not in code and "_field_cost_" not in code


@pytest.mark.parametrize("name", ["nivel_arena", "cthulhu_wars", "game_of_thrones_2p"])
def test_kept_values_list_the_options_listed_without_them(name, monkeypatch):
    kept, unkept = load_program(name), _unkept(name, monkeypatch)
    unkept_code = "".join(a.fast_enum.generated for a in unkept.actions)
    assert not re.search(r"\bk\d+ := ", unkept_code) and "km0" not in unkept_code
    decisions = 0
    for seed in range(4):
        a, b = new_game(kept, seed=seed, memory=False), new_game(unkept, seed=seed, memory=False)
        rng = random.Random(seed)
        while not a.st.over:
            assert a.st.pending.values == b.st.pending.values, f"seed {seed}"
            k = rng.randrange(len(a.st.pending.values))
            a.apply_action(k)
            b.apply_action(k)
            decisions += 1
        assert b.st.over
    assert decisions > 100


FILTERS = """\
zone hand: per player, ordered, owner sees
counter turns = 0

kind piece:
    size: number

action first_may_raise(c: card from you.hand, q: player from players) in act:
    require c is piece and 12 % (index_of(players, q) + 1) == 0 and q != you
    turns += 1

action later_may_raise(c: card from you.hand, q: player from players) in act:
    require c is piece and c.size + index_of(players, q) > 0 and 12 % (index_of(players, q) + 1) == 0
    turns += 1

setup:
    for p in players:
        create "Piece" in p.hand
        create "Piece" in p.hand

flow:
    repeat 3 times:
        for p in players:
            turn p:
                window act by p once
"""


def test_a_kept_domain_is_filtered_by_the_tests_of_its_parameter_alone(tmp_path):
    """The players, kept for the loop over the hand, are filtered once by the tests that read
    only `q`: `q != you` (no error possible) wherever it is, a test that may raise (`%`) only
    when it is the loop's first and the loop's other tests cannot raise, so that the first
    error, if any, is the same."""
    cards = "cards:\n  - {name: Piece, type: piece, size: 2}\n"
    prog = load_program(write_ruleset(tmp_path, FILTERS, cards, players=3, name="filters"))
    code = {a.name: a.fast_enum.generated for a in prog.actions}
    kept, inner = code["first_may_raise"].rsplit("for v1 in d1:", 1)
    assert "12 % " not in code["first_may_raise"]  # `_mod`, the error's place
    assert "_mod(12" in kept and "v1 != you_" in kept and "h1.append(v1)" in kept
    assert "_mod" not in inner and "v1 != you_" not in inner
    kept, inner = code["later_may_raise"].rsplit("for v1 in d1:", 1)
    assert "h1.append" not in kept and "_mod(12" in inner
    g = new_game(prog, seed=0, memory=False)
    opts = g.st.pending.values
    # 12 % 1, 12 % 2, 12 % 3 are 0: every other player, for each of the two pieces
    assert sorted(v[1] for v in opts if v[0] == 0) == sorted(
        [c, q] for c in g.st.zones[g.st.g.zone_base["hand"]] for q in (1, 2)
    )

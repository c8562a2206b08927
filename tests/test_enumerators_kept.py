"""Issue #34: an enumerator keeps the values of its `require` tests that read only names bound
at an outer loop (build/hoist.py): `fits_cost(you, c, z)`'s `field_cost(you)` and `size_of(you)`
once per listing, not per card and lane. The options, in their order, are those listed without
(codegen.KEEP_OUTER off), at every decision of seeded random games."""

from __future__ import annotations

import random

import pytest
from madang.build import codegen
from madang.game import api
from madang.game.api import load_program, new_game


def _unkept(name: str, monkeypatch):
    monkeypatch.setattr(codegen, "KEEP_OUTER", False)
    prog = api._load_cached.__wrapped__(name, ())
    monkeypatch.setattr(codegen, "KEEP_OUTER", True)
    return prog


def test_a_value_reading_only_you_is_kept_per_listing():
    code = next(a for a in load_program("nivel_arena").actions if a.name == "배치")
    code = code.fast_enum.generated
    head, inner = code.rsplit("for v1 in d1:", 1)
    # the holders are reset before the loops and filled in the inner loop when first needed
    assert "k0 = None" in head and "k1 = None" in head
    assert "(k0 if k0 is not None else (k0 := " in inner
    assert "_fits_cost_" not in code and "_field_cost_" not in code


@pytest.mark.parametrize("name", ["nivel_arena", "cthulhu_wars"])
def test_kept_values_list_the_options_listed_without_them(name, monkeypatch):
    kept, unkept = load_program(name), _unkept(name, monkeypatch)
    assert "k0 = None" not in "".join(a.fast_enum.generated for a in unkept.actions)
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

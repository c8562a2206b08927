"""Issue #34: the work charged in fewer operations, the same work at every decision.

- `enumerators.SCAN_ONE_CHARGE`: a domain gone on from a test's first match (`SCAN_DOMAINS`)
  charged after its pure scan (and after `unique` dropped its repeats), its charges and the
  next one in a row made as one sum with one budget test (`budget.charges` finds the error of
  the first to pass the budget, only where the sum passed it).
- `codegen.AREAS_FLAT`: `flatten` of one zone of every area gone through as the slice of
  `st.zones` that holds them, and a `where` over it as one comprehension over those zones and
  their objects (`_each_flat` charges their number, as the flattened list was).
- `codegen.LISTED_ONCE`: a definition's list parameter read only as a loop's items or `_seq`
  of it made a list once at the body's start.
- `enumerators.OBJ_ROWS`: the objects' owners and cards read in a listing's loops through
  locals read once a listing.
- `codegen.COUNT_HAVING`: `count(areas where A and exists(first(Z where C)))` as the set of
  the areas in one comprehension that goes on into Z.

The states, the work charged and the budget's errors are those of the general code."""

from __future__ import annotations

import pytest
from madang.build import codegen, enumerators
from madang.game.api import load_program
from madang.runtime import budget
from minirules import ROUNDS, four_areas
from playthrough import compiled_without, decisions, enumerator_code, played_within

SWITCHES = (
    (enumerators, "SCAN_ONE_CHARGE"),
    (codegen, "AREAS_FLAT"),
    (codegen, "LISTED_ONCE"),
    (enumerators, "OBJ_ROWS"),
    (codegen, "COUNT_HAVING"),
)


def _code(prog) -> str:
    """The generated Python of the program's blocks, listings and definitions."""
    ns = prog.blocks[prog.flow_block][0].fn.__globals__
    fns = [v[0] for k, v in ns.items() if "_args_" in k and isinstance(v, list) and v]
    fns += [s.fn for b in prog.blocks for s in b] + [a.fast_enum for a in prog.actions]
    return "\n".join(getattr(f, "generated", "") or "" for f in fns)


def test_charges_made_as_one_raise_the_error_of_the_first_to_pass_the_budget():
    st = budget.Budget(10)
    st.work = 4 + 3 + 5  # `st.work += 3 + 5` after 4: past 10 at the second part
    with pytest.raises(budget.OutOfBudget, match="^unique: more than 10 steps"):
        budget.charges(st, 3, "a list", 5, "unique", 0, "action a")
    assert st.work == 12
    st.work = 9 + 2 + 0 + 1
    with pytest.raises(budget.OutOfBudget, match="^a list: more than 10 steps"):
        budget.charges(st, 2, "a list", 0, "unique", 1, "action a")
    assert st.work == 11


def test_cthulhu_wars_charges_its_scans_as_one_and_plays_as_before(monkeypatch):
    on, off = load_program("cthulhu_wars"), compiled_without("cthulhu_wars", monkeypatch, *SWITCHES)
    march = enumerator_code(on, "march_also")
    assert "st.work += len(zg0_) * 2 + nu_ + len(d1)" in march
    assert (
        "_charges(st, len(zg0_) * 2, 'a list', nu_, 'unique', len(d1), 'action march_also')"
        in march
    )
    assert "_each_flat(st, st.zones[" in enumerator_code(on, "avatar")
    assert "own_ = st.obj_owner" in march and "ocd_ = st.obj_card" in march
    code, general = _code(on), _code(off)
    assert "_a0 = _a0 if _a0.__class__ is list else _listed(st, _a0)" in code
    assert "len({it0 for it0 in _compress(_each(st, range(len(st.g.areas)))" in code
    for shape in ("_charges", "_each_flat", "nu_", "own_", "_a0 = _a0", "len({"):
        assert shape not in general, shape
    for seed in range(1):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


RULES = """\
zone units: per area, public
counter tally = 0

kind piece:
    size: number

define holds(p: player, a: area) = exists(first(a.units where it.owner == p))
define on_map(p: player) = flatten(areas.units) where it.owner == p
define heavy(l: list of card) = sum(l.size) + count(l where it.size > 1)
define held(p: player) = count(areas where holds(p, it))

action hop(a: area from areas, nm: text from unique((a.units where it.owner == you and it.size > 0).name), b: area from adjacent(a)) in act:
    require holds(you, a)
    move first(a.units where it.owner == you and it.name == nm) to b.units
    tally += count(on_map(you)) + count(flatten(areas.units) where it.size > 1)
    tally += heavy(a.units) + heavy(on_map(you)) + held(you)

action look(a: area from areas) in act:
    require count(on_map(you) where it.size > 1) > 1 and holds(you, a)
    tally += 1

setup:
    for p in players:
        create "Big" in area("A").units for p
        create "Small" in area("C").units for p
        create "Big" in area("C").units for p
        create "Small" in area("C").units for p
        create "Small" in area("D").units for p

"""


def _small(folder):
    return four_areas(folder, RULES + ROUNDS, "hops")


def test_a_small_ruleset_charges_the_same_work_and_errors(tmp_path, monkeypatch):
    """Pieces hopping between areas (a domain of names gone on from a scan, `unique`, then
    the destinations) and counts over every area's pieces, in a listing and in a statement:
    the same states and work over 12 seeded games, and at every budget around the first
    listings the same error (or none)."""
    folder = _small(tmp_path)
    on, off = load_program(folder), compiled_without(folder, monkeypatch, *SWITCHES)
    assert "_charges(st, len(zg0_) * 2, 'a list', nu_, 'unique'" in enumerator_code(on, "hop")
    assert "_each_flat" in enumerator_code(on, "look")
    assert "_each_flat" not in enumerator_code(off, "look")
    code = _code(on)
    assert "_a0 = _a0 if _a0.__class__ is list" in code and "len({it0 for it0 in" in code
    assert "_a0 = _a0" not in _code(off) and "len({" not in _code(off)
    for seed in range(12):
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"
    first = decisions(on, 0)[0][1]  # the work up to the first decision
    seen = set()
    for steps in range(max(first - 60, 1), first + 2):
        got = played_within(on, steps, monkeypatch)
        assert got == played_within(off, steps, monkeypatch), steps
        seen.add(got.split(":")[0] if isinstance(got, str) else "")
    assert {"a list", "unique", "action hop"} <= seen

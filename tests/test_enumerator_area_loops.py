"""Issue #34: loops over the areas and their tests in fewer Python operations.

- `enumerators.AREA_ZONES`: a parameter over every area whose body first reads the area's zone
  goes through the areas with their zones (`enumerate` of a slice of `st.zones`); one whose
  first test is `c > 0` of an area counter never below 0 (its range's low bound is 0 or more)
  goes through the areas whose `c` is not 0 (`itertools.compress`), as does a kept filter of
  such a parameter; `codegen.AREAS_ABOVE_ZERO`: `areas where c > 0 and R` likewise.
- `enumerators.SCAN_CHARGES`: a zone's test and the domain gone on from its first match
  (`SCAN_DOMAINS`) charge the zone once for both where the test found a match.
- `enumerators.ROW_LOCALS`: a counter's row read at a loop's value, a game counter, a
  property's row and whether a printed property was written read once a listing.
- `codegen.WHERE_TRUTH`: a `where`'s test written as a condition (no `True if ... else False`).

The states and the work charged are those of the general code at every decision."""

from __future__ import annotations

from madang.build import codegen, enumerators
from madang.game.api import load_program
from minirules import ROUNDS, four_areas
from playthrough import compiled_without, decisions, enumerator_code

SWITCHES = (
    (enumerators, "AREA_ZONES"),
    (enumerators, "SCAN_CHARGES"),
    (enumerators, "ROW_LOCALS"),
    (codegen, "WHERE_TRUTH"),
    (codegen, "AREAS_ABOVE_ZERO"),
)


def _general(name: str, monkeypatch):
    return compiled_without(name, monkeypatch, *SWITCHES)


def test_cthulhu_wars_loops_over_its_areas_in_fewer_operations_and_plays_as_before(monkeypatch):
    on, off = load_program("cthulhu_wars"), _general("cthulhu_wars", monkeypatch)
    march, gate = enumerator_code(on, "march_also"), enumerator_code(on, "control_gate")
    assert "for v0, zg0_ in enumerate(st.zones[" in march
    assert "st.work += len(zg0_) * 2" in march
    assert "lv0_ = st.counters['stamp']" in march
    assert "for v0 in _compress(d0, st.acounters['gate']):" in gate
    assert "for v1 in _compress(d1, st.acounters['gate']):" in enumerator_code(on, "summon")
    assert "(True if" not in enumerator_code(on, "abandon_gate")
    general = "".join(a.fast_enum.generated for a in off.actions)
    for shape in ("enumerate(st.zones[", "* 2", "lv0_", "_compress", "cr0_"):
        assert shape not in general, shape
    assert "(True if" in enumerator_code(off, "abandon_gate")
    for seed in range(2):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


RULES = """\
zone units: per area, public
counter gate: per area in 0..1 = 0
counter mark: per area in -1..1 = 0
counter tally = 0

kind piece:
    size: number

define holds(p: player, a: area) = exists(first(a.units where it.owner == p))
define gates(p: player) = count(areas where it.gate > 0 and holds(p, it))
define marks(p: player) = count(areas where it.mark > 0 and holds(p, it))

action raise(a: area from areas) in act:
    require a.gate == 0 and holds(you, a)
    a.gate = 1

action lower(a: area from areas) in act:
    require a.gate > 0 and holds(you, a)
    a.gate = 0
    a.mark = -1

action bump(a: area from areas) in act:
    require a.mark > 0
    a.mark = a.mark - 1

action lift(a: area from areas) in act:
    require a.mark < 1 and not holds(you, a)
    a.mark = a.mark + 1

action plant(k: number from [1, 2], a: area from areas) in act:
    require a.gate > 0 and holds(you, a)
    tally += k

action hop(a: area from areas, nm: text from unique((a.units where it.owner == you and it.size > 0).name), b: area from adjacent(a)) in act:
    require holds(you, a)
    move first(a.units where it.owner == you and it.name == nm) to b.units
    tally += gates(you) + marks(you)

setup:
    for p in players:
        create "Big" in area("A").units for p
        create "Small" in area("C").units for p

"""


def _small(folder):
    return four_areas(folder, RULES + ROUNDS, "gates")


def test_a_small_ruleset_lists_and_counts_what_the_general_code_did(tmp_path, monkeypatch):
    """Gates raised and lowered where a player holds an area, a mark that goes below 0 (so its
    `> 0` is never a loop over the nonzero areas), pieces hopping between areas, and the
    counts of gated or marked areas in a statement: the same states and work at every
    decision over 12 seeded games."""
    folder = _small(tmp_path)
    on, off = load_program(folder), _general(folder, monkeypatch)
    assert "for v0 in _compress(d0, st.acounters['gate']):" in enumerator_code(on, "lower")
    assert "for v1 in _compress(d1, st.acounters['gate']):" in enumerator_code(on, "plant")
    assert "_compress" not in enumerator_code(on, "bump")  # `mark` may be -1
    assert "for v0, zg0_ in enumerate(st.zones[" in enumerator_code(on, "hop")
    assert "st.work += len(zg0_) * 2" in enumerator_code(on, "hop")
    body = "".join(_blocks(on))
    assert "_compress(_each(st, range(len(st.g.areas))), st.acounters['gate'])" in body
    assert "st.acounters['mark'])" not in body and "_compress" not in "".join(_blocks(off))
    for seed in range(12):
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"


def _blocks(prog):
    """The generated Python of the program's blocks (the actions' bodies among them)."""
    for block in prog.blocks:
        for s in block:
            yield getattr(getattr(s, "fn", None), "generated", "")

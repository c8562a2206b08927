"""Issue #34: an action's enumerator does less work per listing and lists the same options.

A `require` calling a definition whose body is an `and` is split at the body's parts, each
tested at the first loop where what it reads is bound; the options, and their order, are those
of the same test written so that it cannot be split."""

from __future__ import annotations

import random
import re

from madang.game.api import load_program, new_game
from madang.runtime.state import WINDOW
from playthrough import enumerator_code, windows

RULES = """\
zone units: per area, public
counter turns = 0

kind piece:
    size: number

define mine(p: player, a: area) = exists(first(a.units where it.owner == p))
define meets(p: player, q: player, a: area) = q != p and mine(q, a) and mine(p, a) and turns < 40

action fight(a: area from areas, q: player from players) in act:
    require meets(you, q, a)
    move first(a.units where it.owner == q) to area("A").units

action fight_whole(a: area from areas, q: player from players) in act:
    require not not meets(you, q, a)
    move first(a.units where it.owner == q) to area("A").units

action hop(a: area from areas, b: area from adjacent(a)) in act:
    require mine(you, a)
    move first(a.units where it.owner == you) to b.units

setup:
    for p in players:
        for a in areas:
            create "Piece" in a.units for p

flow:
    repeat 30 times:
        for p in players:
            turn p:
                turns += 1
                window act by p once
"""


def small_game(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(
        "name: meets\ntitle: {en: Meets}\nplayers: 3\nfiles: [r.madang]\ncards: [cards.yaml]\n"
        "maps:\n  m:\n    areas:\n      A: {adjacent: [B]}\n      B: {adjacent: [A, C]}\n"
        "      C: {adjacent: [B]}\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - {name: Piece, type: piece, size: 1}\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(RULES, encoding="utf-8")
    return load_program(str(tmp_path))


def test_a_definition_s_parts_are_tested_where_their_names_are_bound(tmp_path):
    prog = small_game(tmp_path)
    code = {a.name: a.fast_enum.generated for a in prog.actions}
    # `mine(p, a)` and `turns < 40` of `meets` read no `q`: tested in the loop over the areas,
    # before the loop over the players; the whole test (`not not`) is in the inner loop
    outer, inner = code["fight"].rsplit("for v1 in d1:", 1)
    assert "own_[it0] == you_" in outer and "st.counters['turns'] < 40" in outer
    assert "own_[it0] == v1" in inner  # (the owners' list read once: OBJ_ROWS)
    # `q != p` reads only q: the players, kept for the loops over the areas, filtered once
    assert "if (v1 != you_): h1.append(v1)" in outer and "v1 != you_" not in inner
    assert "turns" not in inner and "_meets_" not in code["fight"]
    outer, inner = code["fight_whole"].split("for v1 in d1:")
    # (the counter read once a listing, before the loops: ROW_LOCALS)
    assert "(lv0_ < 40)" not in outer and "(lv0_ < 40)" in inner


def test_the_split_test_lists_the_options_of_the_whole_test(tmp_path):
    prog = small_game(tmp_path)
    ids = {a.name: a.id for a in prog.actions}
    seen = 0
    for seed in range(6):
        for _, _, opts in windows(prog, seed):
            split = [v[1] for v in opts if v[0] == ids["fight"]]
            whole = [v[1] for v in opts if v[0] == ids["fight_whole"]]
            assert split == whole, f"seed {seed}"
            seen += len(split)
    assert seen > 0


LAZY = """\
zone hand: per player, ordered, owner sees
counter n = 0
counter m = 0
counter k = 0

kind unit:
    power: number

define total(p: player) = sum(objects(p.hand).power)
define afford(c: number) = n > 0 and n >= c
define twice(c: number) = c + c
define each_over(p: player, c: number) = count(p.hand where it.power > c)

flow:
    create "A" in first(players).hand
    if afford(total(first(players)) + 1):
        m = 1
    if afford(sum(roll(1))):
        m = 2
    k = twice(total(first(players)))
    k = each_over(first(players), total(first(players)) - 1)
"""


def test_an_argument_used_at_most_once_on_every_path_is_written_inline(tmp_path):
    """A definition whose argument is computed (`afford(total(p) + 1)`) is written at its use,
    the argument where the body reads it, after `n > 0`: not computed when that is false. An
    argument that draws at random, or is read twice, or once per item, keeps the call."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: lazy\ntitle: {en: Lazy}\nplayers: 2\nfiles: [r.madang]\ncards: [cards.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "cards.yaml").write_text(
        "cards: [{name: A, type: unit, power: 2}]\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(LAZY, encoding="utf-8")
    prog = load_program(str(tmp_path))
    code = prog.blocks[prog.flow_block][0].fn.generated
    first_if = next(x for x in code.splitlines() if x.endswith("# r.madang:16"))
    assert "_afford_" not in first_if and "(st.counters['n'] > 0) and" in first_if
    assert "sum(" in first_if.split("(st.counters['n'] > 0) and", 1)[1]
    assert code.count("_afford_") == 1  # `afford(sum(roll(1)))`: called
    assert "_twice_" in code and "_each_over_" in code
    g = new_game(prog, seed=1, memory=False)
    assert g.st.counters["m"] == 0 and g.st.counters["k"] == 1  # n is 0: neither holds


def test_a_property_of_the_matches_of_a_where_is_one_comprehension():
    """`unique((a.units where it.owner == p and ...).name)`: the names of the matches in one
    comprehension over the zone, not a list of the matches and then a list of their names (in
    an enumerator's domain computed per binding, that comprehension is written as one loop
    appending the names: tests/test_enumerator_domain_loops.py)."""
    prog = load_program("cthulhu_wars")
    code = enumerator_code(prog, "march")
    lines = code.splitlines()
    at = lines.index("        d1 = []", lines.index("        h2 = None"))
    loop = lines[at : at + 7]  # the area's units gone through once (from the test's first
    # match on: tests/test_enumerator_one_scan.py), then charged with the test's (SCAN_CHARGES)
    # and `unique`'s and the action's in one sum (SCAN_ONE_CHARGE)
    assert loop[2] == "        for it0 in zi_:" and " for " not in loop[3], loop
    # the name read from a table by card (codegen: CodeGen._printed)
    assert re.search(r": d1\.append\(_name_\w*\[ocd_\[it0\]\]\)$", loop[3]), loop
    assert loop[6] == "        st.work += len(zg0_) * 2 + nu_ + len(d1)", loop


def test_an_enumerator_leaves_the_shared_env_as_it_found_it():
    """A window's listing gives all its actions' enumerators one env (engine.enumerate_actions):
    each takes out the parameters it wrote, so the next one sees only `you`."""
    for name in ("cthulhu_wars", "nivel_arena"):
        prog = load_program(name)
        g = new_game(prog, seed=3, memory=False)
        rng, st, seen = random.Random(3), g.st, 0
        while not st.over and seen < 40:
            p = st.pending
            if p.kind == "window" and st.frames[-1].kind == WINDOW:
                env = {"you": p.player}
                for act in prog.stmts[st.frames[-1].ctl].actions:
                    if act.direct:
                        act.fast_enum(st, env, None, [], {})
                        assert env == {"you": p.player}, act.name
                seen += 1
            g.apply_action(rng.randrange(len(p.values)))
        assert seen > 0

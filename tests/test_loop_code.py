"""#34: a statement's loop over a zone or a list charges the budget itself (no `_seq` call),
and its name is known to hold an object (a zone's objects) or a zone (`[p.top, p.bottom]`)
in its body, so reads, writes and `x in zone` there skip their none tests and helpers;
`first`, `last` (also of k items) and `reversed` of a list or zone are written out. The fast code must play
the same games, charging the same work, as the general code it replaces. A condition compiled
as a function of its own reads its local names from the env once."""

from __future__ import annotations

import contextlib
import re

import pytest
from madang.build import codegen
from madang.build.codegen import CodeGen
from madang.game import api
from madang.game.api import load_program, new_game
from minirules import UNIT_CARDS, UNITS, write_ruleset
from playthrough import decisions


def _ruleset(tmp_path, flow: str):
    rules = UNITS + "define lanes(p: player) = [p.top, p.low]\n\n" + flow
    return write_ruleset(tmp_path, rules, UNIT_CARDS, name="lp")


FLOW = (
    "flow:\n"
    '    create "A" in first(players).top\n'
    '    create "B" in first(players).top\n'
    '    create "B" in first(players).low\n'
    "    for u in first(players).top:\n"
    "        u.hp = u.hp + 10\n"
    "    for lane in lanes(first(players)):\n"
    "        for u in reversed(lane):\n"
    "            if u in lane:\n"
    "                n = n + u.hp\n"
    "    m = first(reversed(first(players).top)).hp\n"
    "    if first(last(players).top) == none and last(last(players).low) == none:\n"
    "        k = last(first(players).top).hp\n"
    "    j = first(last(first(players).top, 1)).hp * 10 + count(first(first(players).top, 5))"
    " + count(last(first(players).low, 0))\n"
)


def test_a_loop_over_a_zone_charges_inline_and_its_name_holds_an_object(tmp_path):
    g = new_game(_ruleset(tmp_path, FLOW), seed=1)
    c = g.st.counters
    # 11 + 12 over the top lane, 2 over the low one; the top reversed starts with B (12)
    assert (c["n"], c["m"], c["k"]) == (25, 12, 12)
    assert c["j"] == 122  # the last one of the top (B, 12), both of the top, none of the low
    prog = g.st.g.prog
    code = prog.blocks[prog.flow_block][0].fn.generated
    assert "_seq(" not in code and "_contains(" not in code
    assert "_first_" not in code and "_last_" not in code and "_reversed_" not in code
    assert re.search(r"st\.work \+= len\(_t\d+\)\n\s+if st\.work > st\.work_limit: _charge", code)
    assert "_none_target" not in code  # `u.hp = ...`: `u` is one of the zone's objects
    assert re.search(r"\(st\.obj_zone\[\w+\] == \w+\)", code)  # `u in lane`, no none test
    assert "[::-1]" in code and "or (None,))[0]" in code and "or (None,))[-1]" in code
    assert "[-1:]" in code and "[:5]" in code  # first/last(L, k): slices


def test_a_loop_whose_body_binds_its_name_again_keeps_the_none_tests(tmp_path):
    flow = (
        "flow:\n"
        '    create "A" in first(players).top\n'
        "    for u in first(players).top:\n"
        "        u.hp = 5\n"
        "        let u = none\n"
        "        n = n + 1\n"
    )
    g = new_game(_ruleset(tmp_path, flow), seed=1)
    assert g.st.counters["n"] == 1
    prog = g.st.g.prog
    assert "_none_target" in prog.blocks[prog.flow_block][0].fn.generated


def test_a_loop_charges_the_work_of_its_list(tmp_path):
    """The inline charge ends a game that goes through too long a zone, as `_seq` did."""
    flow = (
        "flow:\n"
        "    repeat 4000 times:\n"
        '        create "A" in first(players).top\n'
        "    repeat 1000 times:\n"
        "        for u in first(players).top:\n"
        "            n = n + 1\n"
    )
    with pytest.raises(Exception, match="a list: more than .* steps of work"):
        new_game(_ruleset(tmp_path, flow), seed=1)


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_fast_loops_play_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast = load_program(ruleset)
    monkeypatch.setattr(CodeGen, "loop_items", lambda self, e, its=(): None)
    monkeypatch.setattr(CodeGen, "loop_holds", lambda self, s: contextlib.nullcontext())
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    code = "\n".join(
        s.fn.generated for b in general.blocks for s in b if getattr(s.fn, "generated", None)
    )
    assert "st.work += len(_items)" not in code  # the general code, really
    for seed in range(3):
        assert decisions(fast, seed) == decisions(general, seed)


def test_a_condition_reads_its_names_from_the_env_once():
    """A `require`'s condition (a function of its own) loads `c` once into a variable, so that
    `c.fresh` and `c has K` are read inline rather than through `_bslot` and `_has`."""
    prog = load_program("clash_of_decks")
    # (the verb's block tests it inline, build/resumable.py `leave`: its object is still made)
    reqs = [s for s in prog.stmts if type(s).__name__ == "Require"]
    (req,) = [s for s in reqs if "'분노'" in s.cond.generated]  # attack's `not c.fresh or ...`
    code = req.cond.generated
    assert code.count("env.get('c')") == 1 and "_n0 = env.get('c')" in code
    assert "_bslot(" not in code and "_has(" not in code


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_conditions_reading_names_once_play_the_bundled_games_as_before(ruleset, monkeypatch):
    """The same states at every decision, with conditions reading their names once and
    comparisons with a literal as `(x or 0) > c`, or without (a definition written inline
    where its argument is now a variable's read charges a step less than its call: the work
    is not compared)."""
    fast = load_program(ruleset)
    monkeypatch.setattr(codegen, "_names_read_here", lambda e, res: {})
    monkeypatch.setattr(codegen, "_or_zero", lambda e, a, b, op: None)
    general = api._load_cached.__wrapped__(str(fast.folder), ())

    def conds(prog) -> list[str]:
        """The generated expression functions (`_e...`) of the program's namespace."""
        fn = next(s.fn for b in prog.blocks for s in b if hasattr(s.fn, "__globals__"))
        found = [getattr(v, "generated", None) for v in list(fn.__globals__.values())]
        return [c for c in found if isinstance(c, str) and c.startswith("def _e")]

    assert any("_n0 = env.get(" in c for c in conds(fast))  # the fast code, really
    assert not any("_n0 = env.get(" in c for c in conds(general))  # and the general
    for seed in range(3):
        assert [d for d, _ in decisions(fast, seed)] == [d for d, _ in decisions(general, seed)]


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("literal_left", [False, True])
def test_a_comparison_with_a_literal_as_or_zero_agrees_with_the_helper(op, literal_left):
    """`(x or 0) op c` is written only where none and 0 compare alike; where it is, it gives
    what `_gt` and the others give for none and for every number around c."""
    from madang.language import nodes as n
    from madang.runtime.operators import HELPERS

    helper = HELPERS[{"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}[op]]
    written = 0
    for c in range(-3, 4):
        lit, name = n.Num(span=None, value=c), n.Name(span=None, name="x")
        sides = (lit, name) if literal_left else (name, lit)
        e = n.BinOp(op=op, left=sides[0], right=sides[1], span=None)
        src = codegen._or_zero(e, "x", "x", op)
        if src is None:
            continue
        written += 1
        for x in (None, -4, -3, -2, -1, 0, 1, 2, 3, 4):
            got = eval(src, {"x": x})  # noqa: S307 - the generated source under test
            want = helper(c, x) if literal_left else helper(x, c)
            assert got == want, (src, x, c)
    assert written >= 3

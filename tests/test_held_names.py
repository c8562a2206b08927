"""#34: the checker records the type of each value a statement binds to a local name
(`Resolved.binding_type`), and the generated code holds a `let`'s name as a zone, a list or a
number (never none) where its first `let` runs before every other read and binding of it and
every binding gives such a value (`CodeGen.held_names`): `count`, `first`, `x in L` and loops
of such a name are written out, comparisons of such a number need no helper. The fast code
must play the same games, charging the same work, as the general code."""

from __future__ import annotations

import pytest
from madang.build import codegen
from madang.build.codegen import CodeGen
from madang.build.loader import load_ruleset
from madang.game import api
from madang.game.api import load_program, new_game
from madang.language import nodes as n
from madang.language.diagnostics import Diagnostics
from minirules import UNIT_CARDS, UNITS, write_ruleset
from playthrough import compiled_with, decisions


def _ruleset(tmp_path, flow: str):
    rules = UNITS + "define side(p: player) = if n == 0 then p.top else p.low\n\n" + flow
    return write_ruleset(tmp_path, rules, UNIT_CARDS, name="hn")


def _code(g) -> str:
    prog = g.st.g.prog
    return prog.blocks[prog.flow_block][0].fn.generated


HELD = (
    "flow:\n"
    '    create "A" in first(players).top\n'
    '    create "B" in first(players).top\n'
    "    let z = side(first(players))\n"
    "    let xs = [first(first(players).low)]\n"
    "    let c = count(z)\n"
    "    if c > 1:\n"
    "        xs = xs + [last(z)]\n"
    "        c += 1\n"
    "    for x in xs:\n"
    "        if x in z:\n"
    "            j = j + x.hp\n"
    "    m = count(xs) * 10 + c\n"
    "    k = first(z).hp\n"
)


def test_a_lets_zone_list_and_number_are_written_out(tmp_path):
    g = new_game(_ruleset(tmp_path, HELD), seed=1)
    c = g.st.counters
    # two in the top; xs: none (the low is empty) and B; c: 2, then 3
    assert (c["m"], c["k"], c["j"]) == (23, 1, 2)
    code = _code(g)
    for helper in ("_count_", "_first_", "_last_", "_seq(", "_gt(", "_contains("):
        assert helper not in code, helper
    assert "len(st.zones[" in code and "or (None,))[0]" in code


@pytest.mark.parametrize(
    "rebind",
    [
        "    if n == 1:\n        z = none\n",  # assigned a value that may be none
        "    for z in [first(players).low]:\n        n = n + 0\n",  # bound by a loop
    ],
)
def test_a_let_bound_again_otherwise_keeps_the_helpers(tmp_path, rebind):
    flow = (
        "flow:\n"
        '    create "A" in first(players).top\n'
        "    let z = first(players).top\n" + rebind + "    m = count(z)\n"
    )
    g = new_game(_ruleset(tmp_path, flow), seed=1)
    assert "_count_" in _code(g)


def test_a_let_in_one_branch_only_is_not_held_after_it(tmp_path):
    flow = (
        "flow:\n"
        '    create "A" in first(players).top\n'
        "    if n == 1:\n"
        "        let z = first(players).top\n"
        "    m = count(objects(z))\n"
    )
    g = new_game(_ruleset(tmp_path, flow), seed=1)
    assert g.st.counters["m"] == 0  # `z` was never bound: none, no objects
    assert "list(st.zones[" not in _code(g)


def test_the_checker_records_the_types_of_bindings():
    loaded = load_ruleset("clash_of_decks", Diagnostics())
    res, verbs = loaded.compiler.r, loaded.syms.verbs
    seen = {
        (type(x).__name__, x.name): res.binding_type(x)
        for name in ("attack", "strike")
        for x in verbs[name].decl.body.walk()
        if isinstance(x, n.Let | n.For) and x.name in ("foes", "hits", "t")
    }
    assert seen == {
        ("Let", "foes"): "zone",  # `facing(c.zone)`: a definition's zone
        ("Let", "hits"): ("list", "object"),
        ("For", "t"): "object",
    }


def _all_code(prog) -> str:
    return "\n".join(
        s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)
    )


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_held_names_play_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast = load_program(ruleset)
    monkeypatch.setattr(CodeGen, "held_names", lambda self, stmts: {})
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    assert _all_code(general) != _all_code(fast)  # the general code, really
    for seed in range(3):
        assert decisions(fast, seed) == decisions(general, seed)


GRANTS = (
    "keyword swift for unit\n"
    "keyword sure for unit\n"
    "grant sure to flatten([first(players).low])\n\n"
    "flow:\n"
    '    create "A" in first(players).top\n'
    '    create "B" in first(players).low\n'
    "    for u in first(players).top:\n"
    "        if u has swift:\n"
    "            n = n + 1\n"
    "        grant swift to u\n"
    "        if u has swift:\n"
    "            m = m + 1\n"
    "    for u in first(players).low:\n"
    "        if u has sure:\n"
    "            j = j + 1\n"
    "        if u has swift:\n"
    "            k = k + 1\n"
)


def test_has_asks_the_grants_only_when_some_may_give_the_keyword(tmp_path, monkeypatch):
    """A keyword granted by a statement, or by a continuous ability, is still seen when the
    generated `has` skips asking for grants where none may give the keyword: with `may_grant`'s
    kept answer read in place (`codegen.KO_READ`, no call of `_mg`) and without (`_mg`)."""
    folder = _ruleset(tmp_path, GRANTS)
    for ko_read in (True, False):
        prog = compiled_with(str(folder), codegen, "KO_READ", ko_read, monkeypatch)
        g = new_game(prog, seed=1)
        c = g.st.counters
        assert (c["n"], c["m"], c["j"], c["k"]) == (0, 1, 1, 0)
        assert ("_kog(st.ko or _NOKO, " in _code(g)) == ko_read
        assert ("(st.grants or _mg(st, " in _code(g)) != ko_read


def _never(st, kw):
    raise AssertionError("may_grant called")


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_has_without_asking_plays_the_bundled_games_as_before(ruleset, monkeypatch):
    """The kept answer read in place (`KO_READ`: `_mg` never called) plays the games of the
    code that asks the grants at every `has`."""
    fast = compiled_with(ruleset, codegen, "KO_READ", True, monkeypatch)
    fast_fns = [s.fn for b in fast.blocks for s in b if getattr(s.fn, "generated", None)]
    fast_fns[0].__globals__["_mg"] = _never
    general = compiled_with(ruleset, codegen, "KO_READ", False, monkeypatch)
    fns = [s.fn for b in general.blocks for s in b if getattr(s.fn, "generated", None)]
    fns[0].__globals__["_mg"] = lambda st, kw: True  # the grants always asked, as before
    for seed in range(3):
        assert decisions(fast, seed) == decisions(general, seed)

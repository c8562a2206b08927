"""#34: what the generated statements read and write fewer times (docs/speed.md, h48p).

- `codegen.KIND_TABLES` also covers `x has K`: a constant keyword printed on a card is read from
  a table of each card's truth for K, not looked up in the card's set of keywords.
- `stmtgen.BIND_READS`: an object's zone or owner read three times or more in a `let`'s value
  (a definition written inline whose parameter is `c.zone`) is found once, before it.
- `stmtgen.UNREAD_WRITES`: a verb's function that never waits writes a name to its env (the
  call's own dictionary) only where it reads the name from there, and reads from it only the
  call's `you` and arguments (the others start as none).

Each plays the same games, charging the same work, as the code without it."""

from __future__ import annotations

import pytest
from madang.build import codegen, stmtgen
from madang.game.api import new_game
from minirules import UNIT_CARDS, UNITS, write_ruleset
from playthrough import compiled_with, decisions

RULES = (
    UNITS
    + """\
define foe(z: zone) = if z == z.owner.top then z.owner.low else z.owner.top

verb tally(p: player):
    let c = first(p.top)
    let z = foe(c.zone)
    let single = count(p.top)
    let twice = count(z)
    for u in p.top:
        j = j + u.hp + twice + twice
    n = n + single
    m = m + count(z)

verb both():  # (a verb called from another's statements: a function that never waits)
    tally(first(players))
    tally(last(players))

flow:
    create "A" in first(players).top
    create "B" in first(players).top
    create "B" in first(players).low
    create "A" in last(players).top
    both()
    k = 1
"""
)


def _fns(prog) -> str:
    """The generated Python of every function in the program's namespace (its blocks, its
    verbs that never wait, its expressions)."""
    ns = next(s.fn for block in prog.blocks for s in block if hasattr(s, "fn")).__globals__
    fns = [v[0] if isinstance(v, list) and v else v for v in ns.values()]
    return "\n".join(getattr(f, "generated", "") for f in fns if callable(f))


@pytest.mark.parametrize("module, switch", [(stmtgen, "BIND_READS"), (stmtgen, "UNREAD_WRITES")])
def test_a_small_ruleset_plays_as_without_it(tmp_path, monkeypatch, module, switch):
    folder = write_ruleset(tmp_path, RULES, UNIT_CARDS, name="sr")
    on = compiled_with(folder, module, switch, True, monkeypatch)
    off = compiled_with(folder, module, switch, False, monkeypatch)
    g_on, g_off = new_game(on, seed=0), new_game(off, seed=0)
    c = g_on.st.counters
    # the first player: units of hp 1 and 2 on top, one below (twice: 1); the other: hp 1
    assert (c["n"], c["m"], c["j"]) == (2 + 1, 1 + 0, (1 + 2 + 2 * 2) + 1)
    assert g_on.digest() == g_off.digest() and g_on.st.work == g_off.st.work


def test_the_small_rulesets_code(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, UNIT_CARDS, name="sr")
    on = compiled_with(folder, stmtgen, "BIND_READS", True, monkeypatch)
    code = next(x for x in _fns(on).split("\n\n") if x.startswith("def _tally_f"))
    assert "= (None if _l0 is None else st.obj_zone[_l0])" in code  # c.zone found once
    assert "env['twice']" not in code and "env['u']" not in code  # read from variables only
    assert "env['single'] = " in code  # read once: from the env
    assert "_l0 = None" in code and "env.get('c')" not in code  # not the call's: none at first


@pytest.mark.parametrize(
    "module, switch",
    [(codegen, "KIND_TABLES"), (stmtgen, "BIND_READS"), (stmtgen, "UNREAD_WRITES")],
)
def test_clash_of_decks_plays_as_without_it(monkeypatch, module, switch):
    on = compiled_with("clash_of_decks", module, switch, True, monkeypatch)
    off = compiled_with("clash_of_decks", module, switch, False, monkeypatch)
    assert ("_kw_" in _fns(on)) != ("_kw_" in _fns(off)) or switch != "KIND_TABLES"
    for seed in range(2):  # the digest and the work charged at every decision
        assert decisions(on, seed) == decisions(off, seed), f"seed {seed}"

"""#34: what a verb's frameless copy (build/resumable.py `quick_variant`) writes to and reads from
its env, the call's own dictionary until the copy makes its frame (docs/speed.md, h49g):

- `stmtgen.DEFERRED_WRITES`: a name other than the call's, bound to a value that is never none,
  is written to the env only where the env leaves the function (`_quick_sink`, a hand-over):
  the frame made there, saved and resumed, holds what it held when every write went through;
- `stmtgen.GIVEN_SUBSCRIPT`: the call's `you` and arguments read as `env['k']`;
- `codegen.SEAT_FLATTEN`: `flatten(players.A + players.B)` as one comprehension over the zones'
  bases and the seats.

Each plays the same games (the whole state, frames' names included, and the work and steps at
every decision) as the code without it."""

from __future__ import annotations

import pytest
from madang.build import codegen, stmtgen
from madang.game.api import new_game
from minirules import UNIT_CARDS, UNITS, write_ruleset
from playthrough import compiled_with, decision_steps

RULES = (
    UNITS
    + """\
define all_units = flatten(players.top + players.low)

# may wait (a choice when the player's top holds two units or more): its frameless copy
verb pick(p: player):
    let many = count(p.top)
    let units = [first(p.top)]
    let asked = false
    let none_yet = first(p.low)
    if many > 1:
        asked = true
        choose c from p.top by p "pick"
        j = j + c.hp
    n = n + many + count(units)
    if asked and none_yet == none:
        m = m + 1
    for u in all_units:
        k = k + u.hp

flow:
    create "A" in first(players).top
    create "B" in first(players).top
    create "B" in last(players).low
    create "A" in last(players).top
    for p in players:
        pick(p)
    pick(first(players))
"""
)

SWITCHES = [
    (stmtgen, "DEFERRED_WRITES"),
    (stmtgen, "GIVEN_SUBSCRIPT"),
    (codegen, "SEAT_FLATTEN"),
]


def _quick_code(prog) -> str:
    """The generated Python of the verb `pick`'s frameless copy."""
    return next(v for v in prog.verbs.values() if v.name == "pick").quick[0].generated


def _play(prog) -> list:
    """Every decision's digest, work and steps, and the counters at the end."""
    g = new_game(prog, seed=0)
    seen = []
    while not g.st.over and g.st.pending is not None:
        seen.append((g.digest(), g.st.work, g.st.steps))
        g.apply_action(len(g.st.pending.values) - 1)
    return seen + [(g.digest(), dict(g.st.counters))]


@pytest.mark.parametrize("module, switch", SWITCHES)
def test_a_small_ruleset_plays_as_without_it(tmp_path, monkeypatch, module, switch):
    folder = write_ruleset(tmp_path, RULES, UNIT_CARDS, name="fe")
    on = compiled_with(folder, module, switch, True, monkeypatch)
    off = compiled_with(folder, module, switch, False, monkeypatch)
    played = _play(on)
    assert played == _play(off)
    # the first player chose twice (the last unit, hp 2), with nothing below; all units: 6 hp
    assert played[-1][1] == {"n": 3 + 2 + 3, "m": 2, "j": 2 + 2, "k": 6 * 3}


def test_the_frameless_copys_env(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, UNIT_CARDS, name="fe")
    code = _quick_code(compiled_with(folder, stmtgen, "DEFERRED_WRITES", True, monkeypatch))
    old = _quick_code(compiled_with(folder, stmtgen, "DEFERRED_WRITES", False, monkeypatch))
    for name in ("many", "units", "asked"):  # never none: written where the env leaves
        assert f"env['{name}'] = " in old
        assert f" is not None: env['{name}'] = " in code
        assert f"env['{name}'] = _" not in code.replace(" is not None: env[", "")
    assert "env['none_yet'] = " in code  # may be none: written as it was
    assert "env['p']" in code and "env.get('p')" not in code  # the call's: by subscript
    for z in ("top", "low"):  # each name's zones of the seats one slice (`SEAT_SLICES`)
        b = f"st.g.zone_base[{z!r}]"
        assert f"*_chain(st.zones[{b} : {b} + st.g.nplayers] if not st.lost" in code


@pytest.mark.parametrize("module, switch", SWITCHES)
def test_clash_of_decks_plays_as_without_it(monkeypatch, module, switch):
    on = compiled_with("clash_of_decks", module, switch, True, monkeypatch)
    off = compiled_with("clash_of_decks", module, switch, False, monkeypatch)
    for seed in range(2):
        assert decision_steps(on, seed) == decision_steps(off, seed), f"seed {seed}"

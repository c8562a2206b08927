"""#34: the expressions' Python written with less work where the compiler knows more
(`codegen.FRESH_LISTS`, `JOIN_LISTS`, `PLAIN_DEFINES`, `KINDS_JOINED`, `NAME_TABLES`,
`_NONZERO`, `_seat_number`, `CodeGen._printed`): a list written anew is neither copied nor
tested for none, and a property of a `where`'s matches is read in its comprehension; `+` of
two lists without type tests; a definition whose body is a count compared without `_lt`; an
`or` of kinds, a name against a text, a card's name and kind read from tables by card; `%` by
the seats or a literal as Python's. The code must play the same games as the general code,
charging no more work."""

from __future__ import annotations

import re

import pytest
from madang.build import codegen
from madang.build.codegen import CodeGen
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import operators
from minirules import write_ruleset
from playthrough import decisions

CARDS = (
    "cards:\n  - {name: A, type: unit, hp: 1}\n  - {name: B, type: unit, hp: 2}\n"
    "  - {name: C, type: gear, hp: 4}\n  - {name: D, type: spot, hp: 8}\n"
)
RULES = """\
kind unit:
    hp: number
kind gear:
    hp: number
kind spot:
    hp: number
zone top: per player, ordered, owner sees
counter n = 0
counter m = 0
counter k = 0
counter j = 0
counter s = 0
counter t = 0
define units_of(p: player) = objects(p.top) where it is unit or it is spot
define many(p: player) = count(units_of(p))
define named(p: player, x: text) = count(p.top where it.name == x)
flow:
    for p in players:
        create A in p.top
        create B in p.top
        create C in p.top
        create D in p.top
    n = sum(objects(units_of(first(players))).hp)
    m = count(objects(units_of(first(players)))) * 10
    m = m + count(units_of(first(players)) + (first(players).top where it is gear))
    if many(first(players)) < 4:
        k = named(first(players), "B") * 10 + count(first(players).top where it.name != "A")
    for c in units_of(first(players)):
        j = j * 10 + c.hp
    s = nth(players, (8 + n) % player_count).seat * 10 + (n % 4)
    t = count(first(players).top where it.name == first(first(players).top).name)
"""


def _all_code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    code += [a.fast_enum.generated for a in prog.actions if a.fast_enum is not None]
    return "\n".join(code)


def _general(monkeypatch) -> None:
    """The general code: each mechanism of this file turned off."""
    flags = ("FRESH_LISTS", "JOIN_LISTS", "PLAIN_DEFINES", "KINDS_JOINED", "NAME_TABLES")
    for flag in (*flags, "BOUNDS_JOINED", "MIN_MAX", "SEAT_SLICES", "ZONES_JOINED"):
        monkeypatch.setattr(codegen, flag, False)
    monkeypatch.setattr(codegen, "_NONZERO", codegen.re.compile("(?!)"))
    monkeypatch.setattr(codegen, "_seat_number", lambda src: False)
    monkeypatch.setattr(
        CodeGen, "_printed", lambda self, o, name: f"CARDS[st.obj_card[{o}]].{name}"
    )


def _counters(tmp_path, name):
    g = new_game(write_ruleset(tmp_path / name, RULES, CARDS, players=3, name=name), seed=1)
    return g.st.counters, _all_code(g.st.g.prog)


def test_the_written_code_computes_what_the_general_code_does(tmp_path, monkeypatch):
    (tmp_path / "f").mkdir()
    (tmp_path / "g").mkdir()
    fast, code = _counters(tmp_path, "f")
    assert (fast["n"], fast["m"], fast["k"], fast["j"]) == (11, 34, 13, 128)
    assert (fast["s"], fast["t"]) == (1 * 10 + 3, 1)
    assert "list(([" not in code and "or [])" not in code  # no copies, no none tests
    assert "_join(st, " in code and "_plus(" not in code
    assert "_mod(" not in code and "_at_" not in code and "CARDS[" not in code
    assert "_lt(" not in code  # `many(p) < 4`: a count, never none
    monkeypatch.undo()
    _general(monkeypatch)
    general, slow = _counters(tmp_path, "g")
    assert "_plus(" in slow and "_mod(" in slow and "CARDS[" in slow and "_lt(" in slow
    assert dict(general) == dict(fast)


def test_join_charges_as_plus_does():
    class St:
        work, work_limit = 0, 10

    a, b = St(), St()
    assert operators._join(a, [1, 2], [3], "x") == operators._plus(b, [1, 2], [3], "x")
    assert a.work == b.work == 3
    a.work = b.work = 9
    for st in (a, b):
        with pytest.raises(Exception, match="joined with"):
            (operators._join if st is a else operators._plus)(st, [1], [2], "here")


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_written_code_plays_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast = load_program(ruleset)
    _general(monkeypatch)
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    assert _all_code(general) != _all_code(fast)  # the general code, really
    for seed in range(2):
        fast_seen, general_seen = decisions(fast, seed), decisions(general, seed)
        assert [d for d, _ in fast_seen] == [d for d, _ in general_seen]  # the same states
        # and no more work: a shorter body may be written inline where a call was charged
        assert all(a <= b for (_, a), (_, b) in zip(fast_seen, general_seen))


UNITS = "cards:\n  - {name: A, type: unit, hp: 1}\n  - {name: B, type: unit, hp: 2}\n"
SHAPES = """\
kind unit:
    hp: number
zone top: per player, ordered, owner sees
zone bottom: per player, ordered, owner sees
COUNTERS\
counter gold: per player = 0
define able(p: player, x: number) = p.gold > 0 and p.gold >= x
define bonus(k: number, x: number) = if k > 0 then max(k + x, 0) + min(k - x, 1) else 0
define all_units = flatten(players.top + players.bottom)
define lanes(p: player) = [p.top, p.bottom]
flow:
    for p in players:
        create A in p.top
        create B in p.bottom
        p.gold = p.seat
    n = 2
    if n > 0 and n >= 2 and n < 9 and n <= 2:
        a = 1
    for p in players:
        if able(p, 2):
            b = b * 10 + p.seat
    c = max(players.gold) * 10 + min(players.gold)
    if max(players.gold) >= 2:
        d = bonus(c, 3) * 100 + bonus(0, 3) + bonus(2, -9)
    for p in players:
        e = e + count(flatten(lanes(p)))
    e = e + sum(all_units.hp) * 10
    lose first(players)
    f = sum(all_units.hp) * 10 + count(all_units)
    for p in players:
        g = g + count(flatten(lanes(p)))
""".replace("COUNTERS", "".join(f"counter {c} = 0\n" for c in "nabcdefg"))


def test_bounds_min_max_and_seat_zones_compute_what_the_general_code_does(tmp_path, monkeypatch):
    """`BOUNDS_JOINED`, `MIN_MAX`, `SEAT_SLICES` (while nobody has lost and after) and
    `ZONES_JOINED`: the same values as the general code, none of its helpers or loops."""

    def counters(name):
        (tmp_path / name).mkdir()
        rs = write_ruleset(tmp_path / name, SHAPES, UNITS, players=3, name=name)
        g = new_game(rs, seed=1)
        return g.st.counters, _all_code(g.st.g.prog)

    fast, code = counters("f")
    assert (fast["a"], fast["b"], fast["c"]) == (1, 2, 20)
    assert (fast["d"], fast["e"], fast["f"], fast["g"]) == (2400 + 0 + 1, 96, 64, 4)
    assert (
        "['n'] > 0)" not in code and "(st.counters['n'] >= 2) and (st.counters['n'] <= 2)" in code
    )
    assert not re.search(r"_(max|min)_\d+\(", code) and "_ge(" not in code
    assert "default=0)" in code and "for _fz" not in code and "*st.zones[" in code
    monkeypatch.undo()
    _general(monkeypatch)
    general, slow = counters("g")
    assert re.search(r"_max_\d+\(", slow) and "['n'] > 0)" in slow and "for _fz" in slow
    assert dict(general) == dict(fast)


def test_bounds_joined_keeps_the_stricter_bound_of_one_number():
    j = codegen.bounds_joined
    x, y = "st.counters['x']", "st.pcounters['y'][p]"
    assert j([f"({x} > 0)", f"({x} >= 1)"]) == [f"({x} >= 1)"]
    assert j([f"({x} >= 3)", f"({x} > 3)", f"({x} > 1)"]) == [f"({x} > 3)"]
    assert j([f"({x} < 3)", f"(2 >= {x})"]) == [f"({x} <= 2)"]
    assert j([f"({x} < 3)", f"({x} > 0)", f"({y} >= 1)"]) == [
        f"({x} < 3)",
        f"({x} > 0)",
        f"({y} >= 1)",
    ]
    f = "st.pcounters['y'][f(p)]"  # a read that calls something: left as written
    assert j([f"({f} > 0)", f"({f} >= 1)"]) == [f"({f} > 0)", f"({f} >= 1)"]
    for v in range(-3, 5):  # the same truth for any number
        for a, b in [(f"({x} > 0)", f"({x} >= 2)"), (f"({x} < 3)", f"(1 > {x})")]:
            both = eval(f"{a} and {b}", {"st": _St(v)})
            (one,) = j([a, b])
            assert eval(one, {"st": _St(v)}) == both


class _St:
    def __init__(self, v):
        self.counters = {"x": v}

"""#34: the generated expressions' calls made cheaper without changing a game.

- A definition the generated code calls (one not written inline) is a function of `st`, `you`,
  `this` and its arguments in order (`CodeGen.define_args`): no dictionary built per call, its
  parameters Python variables of its body; its body is its own (the definitions written
  inline around its first call do not limit what is written inline in it).
- `x.p <= n` of a number property nothing writes or modifies, against a number never none, is
  the comparison written out (`CodeGen._printed_compare`): a card without `p` compares false
  (a table of the values with infinity for none), a value written from outside the rules
  still goes through `_le`.
- `first(opponents(p))` of a name is the seat itself while nobody has lost.
- Definitions are written inline up to six deep (`INLINE_DEPTH`), and a table read by an
  object's owner or zone (`st.obj_owner[x]`, `st.g.zone_info[st.obj_zone[x]][1]`) counts as
  an argument read again at no cost (`_READ`).

The fast code must play the bundled games as the general code: the same states and options at
every decision, and the work charged less or at most a percent more (a call written inline
charges no step of its own, but all its body goes through)."""

from __future__ import annotations

import re

import pytest
from madang.build import codegen
from madang.game import api
from madang.game.api import new_game
from madang.runtime.errors import RulesError
from madang.runtime.program import Program
from minirules import write_ruleset
from playthrough import offers, work

RULES = (
    "kind unit:\n    hp: number\nkind rock:\n    heavy: bool = false\n"
    "zone top: per player, ordered, owner sees\nzone low: per player, ordered, owner sees\n"
    "counter n = 0\ncounter m = 0\ncounter k = 0\ncounter j = 0\n"
    "counter a = 0\ncounter b = 0\ncounter c = 0\n"
    "define twice(x: number) = x + x\n"
    "define deep(d: number) = if d <= 0 then 0 else 1 + deep(d - 1)\n"
    "define base = count(first(players).top)\n"
    "define big(l: list of card) = count(l where it.hp > 1) + 0 * count(l)\n"
    "define small(u: card) = u.hp <= n and exists(u)\n"
    "define foe(p: player) = first(opponents(p))\n"
)
CARDS = (
    "cards: [{name: A, type: unit, hp: 1}, {name: B, type: unit, hp: 2}, {name: R, type: rock}]\n"
)
FLOW = (
    "flow:\n"
    '    create "A" in first(players).top\n'
    '    create "B" in first(players).top\n'
    '    create "R" in first(players).top\n'
    "    n = twice(count(first(players).top) + 1)\n"  # 8
    "    m = deep(count(first(players).top) + 2)\n"  # 5
    "    k = base + big(objects(first(players).top))\n"  # 3 + 1
    "    j = big([])\n"  # the body's value on no items (build/fold.py)
    "    n = 1\n"
    "    a = count(first(players).top where it.hp <= n)\n"  # A (R has none: false)
    "    b = count(first(players).top where it.hp >= n)\n"  # A, B
    "    c = count(first(players).top where n < it.hp)\n"  # B
    "    j = if small(last(first(players).top)) then 1 else 0\n"  # R: no hp
)


def _game(tmp_path, flow: str = FLOW, players: int = 2):
    return new_game(write_ruleset(tmp_path, RULES + flow, CARDS, players, name="da"), seed=1)


def _flow_code(g) -> str:
    prog = g.st.g.prog
    return prog.blocks[prog.flow_block][0].fn.generated


def _ns(g) -> dict:
    prog = g.st.g.prog
    return prog.blocks[prog.flow_block][0].fn.__globals__


def test_definitions_are_called_with_their_arguments_in_order(tmp_path):
    g = _game(tmp_path)
    c = g.st.counters
    assert (c["m"], c["k"], c["j"]) == (5, 4, 0)
    code = _flow_code(g)
    assert "_twice_args_" in code and "_deep_args_" in code and "_big_args_" in code
    assert "'you':" not in code  # no dictionary per call
    assert re.search(r"_twice_args_\d+\[0\]\(st, \(len\(", code)  # neither you nor this
    deep = next(v for k, v in _ns(g).items() if k.startswith("_deep_args_"))[0]
    assert "deep_args_" in deep.generated and "env" not in deep.generated  # itself, by its args


def test_a_definition_called_too_deep_is_still_the_rules_error(tmp_path):
    flow = "flow:\n    m = deep(100000)\n"
    with pytest.raises(RulesError, match="deep|work"):
        _game(tmp_path, flow)


def test_a_card_number_is_compared_without_the_helper(tmp_path):
    g = _game(tmp_path)
    c = g.st.counters
    assert (c["a"], c["b"], c["c"]) == (1, 2, 1)
    tail = _flow_code(g).split("n = 1")[-1]
    assert "_card_hp_hi_" in tail and "_card_hp_lo_" in tail
    assert "_le((" not in tail and "_le(_oprop(st, it0, 'hp')" in tail  # only when written


def test_a_card_number_written_from_outside_the_rules_is_read_as_written(tmp_path):
    g = _game(tmp_path)
    st = g.st
    small = next(v for k, v in _ns(g).items() if k.startswith("_small_args_"))[0]
    assert "_card_hp_hi_" in small.generated
    a, b, r = st.zones[st.g.zone_base["top"] + 0]
    assert [small(st, o) for o in (a, b, r, None)] == [True, False, False, False]
    st.props["hp"] = {a: 9, r: 0, b: None}  # as a scenario's position writes it
    assert [small(st, o) for o in (a, b, r)] == [False, False, True]


@pytest.mark.parametrize("lost", [False, True])
def test_the_first_opponent_of_a_name_is_the_seat_while_nobody_lost(tmp_path, lost):
    flow = (
        "flow:\n"
        "    for p in players:\n"
        "        n = n * 10 + foe(p).seat + 1\n"
        + ("    lose nth(players, 0)\n" if lost else "")
        + "    for p in players:\n"
        "        m = m * 10 + foe(p).seat + 1\n"
    )
    g = _game(tmp_path, flow, players=3)
    c = g.st.counters
    assert c["n"] == 211
    assert c["m"] == (32 if lost else 211)  # after seat 0 lost: seats 1 and 2 face each other
    assert "if not st.lost else _first_opponent(st, " in _flow_code(g)


def _all_code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    code += [a.fast_enum.generated for a in prog.actions if a.fast_enum is not None]
    return "\n".join(code)


def _both(ruleset, monkeypatch):
    """The bundled ruleset compiled afresh with the cheaper calls and without them."""
    fast = api._load_cached.__wrapped__(ruleset, ())
    for switch in ("DEF_ARGS", "CARD_CMP", "SEAT_INLINE"):
        monkeypatch.setattr(codegen, switch, False)
    general = api._load_cached.__wrapped__(ruleset, ())
    assert _all_code(general) != _all_code(fast)  # the general code, really
    return fast, general


RULESETS = ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_cheaper_calls_play_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast, general = _both(ruleset, monkeypatch)
    for seed in range(3):
        assert offers(fast, seed) == offers(general, seed)  # states and options


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_cheaper_calls_charge_about_the_same_work(ruleset, monkeypatch):
    # as a game charges it, without the suite's checks made again (Program.verify_checks):
    # a call charges one step, a body written inline what it goes through (all of it, where
    # the call would give its value on no items at once), so a little more or less
    monkeypatch.setattr(Program, "verify_checks", False)
    fast, general = _both(ruleset, monkeypatch)
    for seed in range(3):
        pairs = zip(work(fast, seed), work(general, seed))
        assert all(a <= b + b // 100 + 1 for a, b in pairs)

"""#34: the expressions' helper calls written out where the generated code knows enough
(`CodeGen._seats`, `codegen._SMALL`): `first(players)`, `last(players)` and `nth(players, k)`
are the seats while nobody has lost, `first(opponents(p))` is one call without the list
(`operators._first_opponent`), and a product of a literal and the number of seats needs no
`_mul`. The fast code must play the same games as the general code, charging no more work."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from madang.build import codegen
from madang.build.codegen import CodeGen
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import builtins, operators
from minirules import UNIT_CARDS, UNITS, write_ruleset
from playthrough import decisions


def _game(tmp_path, rules: str, players: int = 2):
    return new_game(write_ruleset(tmp_path, UNITS + rules, UNIT_CARDS, players, name="ih"), seed=1)


def _all_code(prog) -> str:
    code = [s.fn.generated for b in prog.blocks for s in b if getattr(s.fn, "generated", None)]
    code += [a.fast_enum.generated for a in prog.actions if a.fast_enum is not None]
    return "\n".join(code)


SEATS = (
    "flow:\n"
    "    n = first(players).seat\n    m = last(players).seat\n"
    "    k = first(opponents(first(players))).seat\n    j = nth(players, 1).seat\n"
    "    lose first(players)\n"
    "    n = first(players).seat * 10 + last(players).seat\n"
    "    m = first(opponents(first(players))).seat * 10 + nth(players, 0).seat\n"
    "    m = m + 3 * player_count\n"
    "    k = first(opponents(last(players))).seat\n"
)


def test_the_seats_are_written_out_and_follow_the_players_who_lost(tmp_path):
    g = _game(tmp_path, SEATS, players=3)
    c = g.st.counters
    # after seat 0 lost: players are 1 and 2
    assert (c["n"], c["m"], c["k"]) == (12, 21 + 9, 1)
    code = _all_code(g.st.g.prog)
    assert "_players(st) or (None,)" in code  # the general branch, for after a loss
    assert "if not st.lost else" in code and "(3 * st.g.nplayers)" in code
    assert "_first_opponent(st, " in code and "_opponents_" not in code


def test_the_seats_before_anyone_lost(tmp_path):
    rules = SEATS.split("    lose")[0]
    c = _game(tmp_path, rules, players=3).st.counters
    assert (c["n"], c["m"], c["k"], c["j"]) == (0, 2, 1, 1)


@pytest.mark.parametrize("lost", [(), (0,), (1,), (0, 2), (1, 2), (0, 1, 2)])
def test_first_opponent_is_the_first_of_the_opponents(lost):
    st = SimpleNamespace(lost=set(lost), g=SimpleNamespace(nplayers=3))
    for p in (None, 0, 1, 2, 5):
        got = operators._first_opponent(st, p)
        assert got == (builtins._opponents(st, p) or [None])[0], (p, lost)


def test_a_product_too_large_is_still_a_rules_error(tmp_path):
    rules = "flow:\n    n = 3\n    repeat 80 times:\n        n = n * n\n"
    with pytest.raises(Exception, match="number too large"):
        _game(tmp_path, rules)
    assert operators._mul(3, 4) == 12 and operators._mul([1], 2) == [1, 1]


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_the_written_out_helpers_play_the_bundled_games_as_the_general_code(ruleset, monkeypatch):
    fast = load_program(ruleset)
    monkeypatch.setattr(codegen, "_SMALL", codegen.re.compile("(?!)"))
    monkeypatch.setattr(CodeGen, "_seats", lambda self, name, e, src, its: None)
    general = api._load_cached.__wrapped__(str(fast.folder), ())
    assert _all_code(general) != _all_code(fast)  # the general code, really
    for seed in range(3):
        fast_seen, general_seen = decisions(fast, seed), decisions(general, seed)
        assert [d for d, _ in fast_seen] == [d for d, _ in general_seen]  # the same states
        # and no more work: a shorter body may be written inline where a call was charged
        assert all(a <= b for (_, a), (_, b) in zip(fast_seen, general_seen))

"""Counters' declared ranges (#31): `counter NAME: SCOPE in LOW..HIGH = START`.

The checker reports a range that cannot hold, the run time refuses a write outside it with a
located error, the formatter keeps it, and the observation tensor's bounds (PettingZoo's Box)
are the declared ones. tests/rulesets/ranges is the small ruleset these run."""

from __future__ import annotations

import textwrap
from pathlib import Path

import madang
import numpy as np
import pytest
from madang.language.diagnostics import Diagnostics
from madang.language.fmt import format_module
from madang.language.parser import Origin, parse_module
from madang.runtime.errors import RulesError

RANGES = Path(__file__).parent / "rulesets" / "ranges"
RULESET = """name: small
title: {en: small}
players: 2
files: [rules.madang]
"""
FLOW = """
flow:
    repeat until false:
        turn first(players):
            window main by first(players)
"""


def errors(tmp_path, rules: str) -> str:
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "rules.madang").write_text(textwrap.dedent(rules) + FLOW)
    with pytest.raises(madang.MadangError) as e:
        madang.load_program(tmp_path)
    return e.value.diags.render()


# ---------------------------------------------------------------- the checker


def test_a_range_that_cannot_hold_is_a_located_error(tmp_path):
    text = errors(
        tmp_path,
        """\
        define most = 5
        define f(p: player) = 3
        counter a in 5..1 = 3
        counter b in 0..nothing = 0
        counter c in 0..f = 0
        counter d in 1..most
        counter e in 1..most = 9
        counter g: per player in 0..3 = none
        counter h in ..
        counter i in ..-1 = 0
        action go(x: number from [0]) in main:
            a += 1
            b += 1
            c += 1
            d += 1
            e += 1
            you.g += 1
            h += 1
            i += 1
        """,
    )
    assert "rules.madang:3:14: error: the range of counter 'a' is empty: 5 is more than 1" in text
    assert "rules.madang:4:17: error: the range of counter 'b': 'nothing' is not a whole" in text
    assert "rules.madang:5:17: error: the range of counter 'c': 'f' is not a whole number" in text
    assert "rules.madang:6:1: error: counter 'd' starts at 0, outside its range 1..5" in text
    assert "without `= START` a counter starts at 0" in text
    assert "rules.madang:7:24: error: counter 'e' starts at 9, outside its range 1..5" in text
    assert "rules.madang:8:33: error: counter 'g' has a range, so it starts at a number" in text
    assert "rules.madang:9:1: error: the range of counter 'h' has no bound" in text
    assert "rules.madang:10:21: error: counter 'i' starts at 0, outside its range ..-1" in text


def test_bounds_may_be_definitions_of_constants_and_one_side_may_be_open():
    prog = madang.load_program(RANGES)
    power, score, heat, free = (prog.counters[k] for k in ("power", "score", "heat", "free"))
    assert (power.low, power.high, power.scope) == (0, 10, "player")
    assert (score.low, score.high) == (-2, 5)  # `in floor..most`: two definitions
    assert (heat.low, heat.high) == (0, None)  # `in 0..`
    assert (free.low, free.high) == (None, None)


def test_the_formatter_keeps_the_range_in_both_spellings():
    src = (RANGES / "ranges.madang").read_text()
    module = parse_module(src, Origin("ranges.madang"), Diagnostics())
    assert format_module(module, source=src) == src
    korean = format_module(module, lang="ko", source=src)
    assert "카운터 power/권능: per player 안에 0..10 = option.start" in korean
    assert "카운터 heat 안에 0.." in korean
    again = parse_module(korean, Origin("ranges.madang"), Diagnostics())
    assert format_module(again, source=korean) == src


# ---------------------------------------------------------------- the run time


def test_a_write_outside_the_range_is_a_rules_error_naming_counter_value_and_range():
    game = madang.new_game(RANGES, seed=0)
    with pytest.raises(RulesError) as e:
        game.apply_label("spend 0")  # power 3 - 4
    assert str(e.value).endswith(
        "ranges.madang:15:5: counter 'power' of P1 is -1, outside its range 0..10"
    )


def test_a_start_value_outside_the_range_is_refused_at_the_declaration():
    with pytest.raises(RulesError, match=r"ranges.madang:6:1: counter 'power' of P1 is 40"):
        madang.new_game(RANGES, {"start": 40}, seed=0)


def test_writes_inside_the_range_and_to_open_sides_play_on():
    game = madang.new_game(RANGES, seed=0)
    for _ in range(6):  # heat is `in 0..`: no upper limit; free has no range
        game.apply_label("warm 0")
    assert game.st.counters["heat"] == 6 and game.st.counters["free"] == 600


# ---------------------------------------------------------------- observation bounds


def test_the_box_has_the_declared_bounds_and_wide_ones_elsewhere():
    from madang.game.pettingzoo import env

    e = env(str(RANGES))
    box = e.observation_space("player_0")["observation"]
    game = madang.new_game(RANGES, seed=0)
    game.observation_tensor(0)
    enc = game.st.g.observation_encoder
    i = len(enc.zone_info) * (enc.ncards + 1) + len(enc.zone_info) * len(enc.properties)
    # global counters in name order (free, heat), then per-player ones (power, score) per seat
    assert enc.global_counters == ["free", "heat"]
    assert enc.player_counters == ["power", "score"]
    wide = float(np.float32(2**62))
    assert list(box.low[i : i + 6]) == [-wide, 0, 0, 0, -2, -2]
    assert list(box.high[i : i + 6]) == [wide, wide, 10, 10, 5, 5]


# Every bundled ruleset: a few random games' observations lie in the Box, for every seat.
@pytest.mark.parametrize(
    ("name", "options", "games"),
    [
        ("clash_of_decks", {}, 3),
        pytest.param("nivel_arena", {}, 2, marks=pytest.mark.slow),
        pytest.param("game_of_thrones_2p", {}, 2, marks=pytest.mark.slow),
        pytest.param("cthulhu_wars", {"players": 3}, 1, marks=pytest.mark.slow),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_observations_of_random_games_stay_within_the_box(name, options, games):
    from madang.game.pettingzoo import env

    e = env(name, options)
    for seed in range(games):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            assert e.observation_space(agent).contains(obs), (seed, agent)
            e.step(
                None
                if terminated or truncated
                else e.action_space(agent).sample(obs["action_mask"])
            )


def test_bundled_rulesets_declare_the_rulebooks_ranges():
    nivel = madang.load_program("nivel_arena").counters["레벨"]
    assert (nivel.low, nivel.high) == (1, 10)  # 4.6.2.1, 4.6.3
    mana = madang.load_program("clash_of_decks").counters["mana"]
    assert (mana.low, mana.high) == (0, None)  # a deck of one's own may hold more than 8
    power = madang.load_program("cthulhu_wars").counters["power"]
    assert (power.low, power.high) == (0, None)


# ---------------------------------------------------------------- the editor


def test_the_language_server_shows_the_range_and_locates_a_bad_one(tmp_path):
    from madang.tools.lsp import Workspace, formatted, hover_text, semantic_tokens

    ws = Workspace()
    rules = RANGES / "ranges.madang"
    analysis = ws.analyse(rules)
    assert [d for d in analysis.diagnostics if d.severity == "error"] == []
    hover = hover_text(ws, analysis, "power") or ""
    assert "counter power/권능: per player in 0..10 = option.start" in hover
    assert semantic_tokens(rules.read_text(), analysis)
    assert formatted(rules, rules.read_text()) in (None, rules.read_text())
    (tmp_path / "ruleset.yaml").write_text(RULESET)
    (tmp_path / "rules.madang").write_text("counter a in 5..1 = 3" + FLOW)
    bad = [d for d in ws.analyse(tmp_path / "rules.madang").diagnostics if d.severity == "error"]
    assert [(d.message, d.span.line, d.span.col) for d in bad] == [
        ("the range of counter 'a' is empty: 5 is more than 1", 1, 14)
    ]

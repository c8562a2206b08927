"""`once per S as LIMIT`: actions that share one limit, and limits per a named phase
(docs/language.md 4.8; Cthulhu Wars' battles, second actions and The Thousand Forms)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from madang import MadangError, load_program, new_game

REPO = Path(__file__).resolve().parent.parent

RULES = """\
counter score: per player = 0
flow:
    repeat 2 times:
        phase market/시장:
            repeat 2 times:
                for p in players:
                    turn p:
                        window main by p
action jab(n: number from [1, 2]) in main once per turn per n as strike:
    you.score += n
action hook(n: number from [1, 2]) in main once per turn per n as strike:
    you.score += 10 * n
action cross(n: number from [1, 2]) in main once per turn per n as hook:
    you.score += 100 * n
action bank in main once per 시장:
    you.score += 1000
action kick in main:
    you.score += 5
"""


def ruleset(tmp_path: Path, rules: str = RULES) -> str:
    (tmp_path / "limits.madang").write_text(rules, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: shared\ntitle: {en: Shared limits}\nplayers: 2\nfiles: [limits.madang]\n",
        encoding="utf-8",
    )
    return str(tmp_path)


ALL = ["jab 1", "jab 2", "hook 1", "hook 2", "cross 1", "cross 2", "bank", "kick", "pass"]


def test_actions_that_share_a_limit_use_it_up_together(tmp_path):
    # `as strike` on jab and hook, `as hook` on cross: one use per value of n per turn for the
    # three (Cthulhu Wars: a normal or an unlimited battle, once per area per turn)
    from madang.game.api import GameState

    g = new_game(ruleset(tmp_path), {}, seed=1)
    assert g.action_labels() == ALL
    g.apply_label("hook 1")
    assert g.action_labels() == ["jab 2", "hook 2", "cross 2", "bank", "kick", "pass"]
    g.apply_label("cross 2")
    assert g.action_labels() == ["bank", "kick", "pass"]
    assert GameState.from_json(g.to_json()).action_labels() == ["bank", "kick", "pass"]
    assert g.st.pcounters["score"] == [210, 0]
    g.apply_label("pass")  # the turn ends, and with it the limit
    assert g.action_labels() == ALL


def test_a_limit_per_named_phase_lasts_the_phase_not_the_turn(tmp_path):
    # `once per 시장` (a spelling of the phase `market`): the player's later turns of the same
    # phase find it used; the next phase starts it again (The Thousand Forms, once per Action
    # phase while the phase holds many turns)
    g = new_game(ruleset(tmp_path), {}, seed=1)
    g.apply_label("bank")
    assert "bank" not in g.action_labels()
    g.apply_label("pass")
    assert "bank" in g.action_labels()  # the other player's own limit
    g.apply_label("pass")
    assert g.current_player() == 0 and "bank" not in g.action_labels()  # same phase
    g.apply_label("pass")
    g.apply_label("pass")
    assert g.current_player() == 0 and "bank" in g.action_labels()  # the next phase


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        (
            "action bank in main once per 시장:",
            "action bank in main once per turn as kick:",
            (15, 38),
            "action 'kick' has no `once per` limit to share",
        ),
        (
            "action bank in main once per 시장:",
            "action bank in main once per turn as strik:",
            (15, 38),
            "no other action shares the limit 'strik'",
        ),
        (
            "hook(n: number from [1, 2]) in main once per turn per n as strike:",
            "hook(n: number from [1, 2]) in main once per round per n as strike:",
            (11, 68),
            "the limit 'strike' is once per turn",
        ),
        (
            "hook(n: number from [1, 2]) in main once per turn per n as strike:",
            "hook(n: number from [1, 2]) in main once per turn as strike:",
            (11, 61),
            "this action counts it per player",
        ),
        (
            "action bank in main once per 시장:",
            "action bank in main once per markt:",
            (15, 1),
            "'markt' is not a scope",
        ),
    ],
)
def test_a_shared_limit_that_does_not_add_up_is_a_located_error(tmp_path, old, new, where, message):
    assert old in RULES
    with pytest.raises(MadangError) as e:
        load_program(ruleset(tmp_path, RULES.replace(old, new)))
    [d] = [d for d in e.value.diags.items if message in d.message]
    assert (d.span.line, d.span.col) == where


def test_a_trigger_shares_no_limit(tmp_path):
    rules = RULES + "after jab(n) once per turn as strike:\n    you.score += 1\n"
    with pytest.raises(MadangError) as e:
        load_program(ruleset(tmp_path, rules))
    [d] = [d for d in e.value.diags.items if "a trigger or replacement" in d.message]
    assert (d.span.line, d.span.col) == (19, 31)


def test_an_unknown_scope_names_the_phase_it_may_mean(tmp_path):
    rules = RULES.replace("once per 시장:", "once per markt:")
    with pytest.raises(MadangError) as e:
        load_program(ruleset(tmp_path, rules))
    [d] = [d for d in e.value.diags.items if "'markt' is not a scope" in d.message]
    assert "market" in (d.hint or "")


def test_a_shared_limit_prints_back():
    from madang.language.diagnostics import Diagnostics
    from madang.language.fmt import format_source

    text = "action hook(n: number from [1, 2]) in main once per turn per n as strike:\n    pass\n"
    assert format_source(text, "x.madang", Diagnostics()) == text


def test_cthulhu_wars_keeps_no_hand_made_limit():
    # 규칙서 전투 / 무제한 전투, ruling 23, The Thousand Forms: limits of the language, not counters
    # the rules set and compare (rulesets/cthulhu_wars/scenarios/*once_per*, second_action_shared)
    prog = load_program(str(REPO / "rulesets/cthulhu_wars"))
    limits = {a.name: (a.limit, a.limit_key) for a in prog.actions if a.limit is not None}
    key = {a.name: f"a{a.id}" for a in prog.actions}
    assert limits["battle"] == limits["unlimited_battle"] == ("turn", key["battle"])
    assert limits["screaming_dead"] == limits["he_who"] == ("turn", key["screaming_dead"])
    assert limits["thousand_forms"] == ("actions", key["thousand_forms"])
    text = "".join(f.read_text("utf-8") for f in (REPO / "rulesets/cthulhu_wars").glob("*.madang"))
    assert not re.findall(r"\b(fought|second_used|forms_used)\b", text)

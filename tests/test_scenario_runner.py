"""The scenario runner: good scenarios pass, and a broken one fails saying what and where."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from madang.tools.scenario import (
    ScenarioError,
    find_scenarios,
    load_scenario,
    run_paths,
    run_scenario,
)

TESTS = Path(__file__).resolve().parent
EXAMPLES = TESTS / "scenarios"

HEAD = """\
ruleset: clash_of_decks
rule: "규칙서 2단계 – 소환"
setup:
  active: P1
  turn: 3
  zones:
    hand#1: [TOWER, BARON, ZOMBIE, BRUTE]
    hand#2: [TOWER, OGRE, GNOME]
start: |
  turn P1:
      play_turn(P1)
steps:
"""


def write(tmp_path: Path, text: str, name: str = "scenario.yaml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(tmp_path: Path, steps: str, head: str = HEAD):
    path = write(tmp_path, head + steps)
    return path, run_scenario(load_scenario(path))


def line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if fragment in ln)


def load_error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ScenarioError) as e:
        load_scenario(write(tmp_path, text))
    return str(e.value)


# ---------------------------------------------------------------- passing


def test_the_example_scenarios_pass():
    report = run_paths([str(EXAMPLES)])
    assert report.failed == 0, report.render()
    assert report.passed == len(report.results) >= 6
    assert report.render().endswith(f"{report.passed} passed, 0 failed\n")


def test_a_script_of_choices_and_expectations_passes(tmp_path):
    _, r = run(
        tmp_path,
        """\
  - expect:
      player: P1
      prompt: 소환
      player_counters: {mana: [4, 0]}
      options: [summon BARON top#1, summon BARON bottom#1, summon ZOMBIE top#1,
                summon ZOMBIE bottom#1, summon BRUTE top#1, summon BRUTE bottom#1, pass]
  - choose: [summon ZOMBIE top#1, {index: 0}]   # then BARON top#1
  - expect:
      zones: {top#1: [ZOMBIE, BARON], hand#1: [TOWER, BRUTE]}
      cards: {"top#1/-1": BARON}
      counts: {hand#1: 2}
      props: {"top#1/0": {fresh: false, damage: 0}}   # reset at the end of the turn
      events: [summon, "place(ZOMBIE, top#1)", "place(BARON, top#1)"]
      no_events: [damage_tower]
      over: true
      winner: none
""",
    )
    assert r.ok, r.message
    assert r.rule == "규칙서 2단계 – 소환" and r.name == "scenario"


def test_an_expected_rules_error_passes(tmp_path):
    _, r = run(
        tmp_path,
        "  - error: \"cannot set 'damage' of none\"\n",
        head=HEAD.replace("  turn P1:\n      play_turn(P1)\n", "  first(P1.top).damage = 1\n"),
    )
    assert r.ok, r.message


def test_without_setup_the_rulesets_own_setup_and_flow_run(tmp_path):
    path = write(
        tmp_path,
        """\
ruleset: clash_of_decks
rule: "규칙서 준비: 감시탑 카드를 손패의 가장 왼쪽에"
options: {deck: [1, 2]}
seed: 3
steps:
  - expect:
      cards: {"hand#1/0": TOWER, "hand#2/0": TOWER}
      counts: {hand#1: 9, hand#2: 9}
      turn: 1
""",
    )
    r = run_scenario(load_scenario(path))
    assert r.ok, r.message


# ---------------------------------------------------------------- failing, with the reason


def test_a_wrong_expectation_fails_with_expected_and_actual(tmp_path):
    path, r = run(
        tmp_path,
        """\
  - choose: summon BARON top#1
  - expect:
      zones: {top#1: [ZOMBIE]}
      player_counters: {mana: [2, 0]}
""",
    )
    assert not r.ok
    line = line_of(path, "- expect:")
    assert r.message.startswith(f"{path}:{line}: step 2 (expect):")
    assert "top#1: expected [ZOMBIE]" in r.message and "got [BARON]" in r.message
    assert "mana: expected [2, 0], got [1, 0]" in r.message


def test_an_illegal_choice_fails_listing_the_legal_options(tmp_path):
    path, r = run(tmp_path, "  - choose: summon BARON top#3\n")
    assert not r.ok
    assert r.message.startswith(f"{path}:{line_of(path, 'top#3')}: step 1 (choose):")
    assert "'summon BARON top#3' is not a legal option; P1 decides '소환' among:" in r.message
    assert "    0: summon BARON top#1\n" in r.message and "    6: pass" in r.message
    assert "did you mean 'summon BARON top#1'?" in r.message


def test_a_choice_by_index_out_of_range_fails(tmp_path):
    _, r = run(tmp_path, "  - choose: [summon BARON top#1, {index: 9}]\n")
    assert not r.ok
    assert "step 1 (choose) (choice 2 of 2): no option 9: P1 decides '소환' among 3" in r.message


def test_a_choice_by_the_wrong_player_fails(tmp_path):
    _, r = run(tmp_path, "  - choose: pass\n    by: P2\n")
    assert not r.ok and "P2 was to choose, but P1 decides '소환'" in r.message


def test_a_choice_after_the_game_ended_fails(tmp_path):
    _, r = run(tmp_path, "  - choose: pass\n  - choose: pass\n")
    assert not r.ok and "step 2 (choose): nothing to choose: the game is over" in r.message


def test_an_unknown_key_is_a_located_error_with_a_suggestion(tmp_path):
    msg = load_error(tmp_path, HEAD + "  - expect: {optons: [pass]}\n  - expext: {}\n")
    assert "scenario.yaml:13:14: error: unknown key 'optons' in expect" in msg
    assert "did you mean 'options'?" in msg
    assert "scenario.yaml:14:5: error: unknown key 'expext' in step 2" in msg
    assert "did you mean 'expect'?" in msg


def test_an_unknown_top_level_key_is_an_error(tmp_path):
    msg = load_error(tmp_path, HEAD.replace("setup:", "setpu:") + "  - choose: pass\n")
    assert "unknown key 'setpu' in a scenario" in msg and "did you mean 'setup'?" in msg


def test_a_scenario_without_a_rule_fails(tmp_path):
    path = write(tmp_path, HEAD.replace('rule: "규칙서 2단계 – 소환"\n', "") + "  - choose: pass\n")
    msg = load_error(tmp_path, path.read_text(encoding="utf-8"))
    assert "error: a scenario must name the rule it checks" in msg
    report = run_paths([str(path)])
    assert report.failed == 1 and "must name the rule" in report.results[0].message


def test_an_expected_error_that_is_not_raised_fails(tmp_path):
    path, r = run(tmp_path, '  - choose: pass\n  - error: "division by zero"\n')
    assert not r.ok
    assert f"{path}:{line_of(path, 'division')}: step 2 (error)" in r.message
    assert "expected an error containing 'division by zero', but none was raised" in r.message


def test_an_error_with_another_message_fails(tmp_path):
    _, r = run(
        tmp_path,
        '  - error: "division by zero"\n',
        head=HEAD.replace("  turn P1:\n      play_turn(P1)\n", "  first(P1.top).damage = 1\n"),
    )
    assert not r.ok
    assert "the error raised at the start was:" in r.message and "of none" in r.message


def test_an_unexpected_rules_error_fails(tmp_path):
    _, r = run(
        tmp_path,
        "  - expect: {over: true}\n",
        head=HEAD.replace("  turn P1:\n      play_turn(P1)\n", "  first(P1.top).damage = 1\n"),
    )
    assert not r.ok
    assert "step 1 (expect): the rules raised an error at the start:" in r.message


def test_nothing_may_follow_an_error_step(tmp_path):
    msg = load_error(tmp_path, HEAD + '  - error: "x"\n  - choose: pass\n')
    assert "nothing can follow an `error:` step" in msg


def test_events_not_logged_are_listed(tmp_path):
    _, r = run(tmp_path, '  - choose: pass\n  - expect: {events: [attack, "end_of_turn(P2)"]}\n')
    assert not r.ok
    assert "events: 'attack' was not logged; events since the previous expect:" in r.message
    assert "    end_of_turn(P1)" in r.message


def test_an_event_that_should_not_happen(tmp_path):
    _, r = run(tmp_path, "  - choose: summon BARON top#1\n  - expect: {no_events: [place]}\n")
    assert (
        not r.ok and "'place' should not happen, but was logged: place(BARON, top#1)" in r.message
    )


def test_winner_expected_while_the_game_goes_on(tmp_path):
    _, r = run(tmp_path, "  - expect: {winner: P1}\n")
    assert not r.ok and "winner: expected winner P1, but P1 decides '소환'" in r.message


def test_names_unknown_to_the_ruleset_are_located_errors(tmp_path):
    path, r = run(
        tmp_path,
        "  - expect: {zones: {top#3: [BARN]}, counters: {kils: 0}, events: [plac], player: P3}\n",
    )
    assert not r.ok
    line = line_of(path, "top#3")
    for text in (
        f"{path}:{line}:22: error: no zone 'top#3'",
        "error: no card named 'BARN'",
        "did you mean 'BARON'?",
        "error: no counter 'kils'",
        "did you mean 'kills'?",
        "error: no event or action 'plac'",
        "error: no player P3: this game has 2 players",
    ):
        assert text in r.message


def test_errors_in_start_statements_are_located_in_the_scenario(tmp_path):
    path, r = run(
        tmp_path, "  - choose: pass\n", head=HEAD.replace("play_turn(P1)", "play_tun(P1)")
    )
    assert not r.ok
    assert f"{path}:{line_of(path, 'play_tun')}:7: error: unknown verb 'play_tun'" in r.message
    assert "did you mean 'play_turn'?" in r.message


def test_errors_in_inline_cards_are_located_in_the_scenario(tmp_path):
    cards = "cards:\n  - name: WALL\n    type: creature\n    cost: 1\n    attack: 0\n"
    cards += "    health: 1\n    text: 견고합\n"
    path = write(tmp_path, HEAD.replace("setup:", cards + "setup:") + "  - choose: pass\n")
    r = run_scenario(load_scenario(path))
    assert not r.ok
    assert f"{path}:{line_of(path, '견고합')}:11: error: unknown keyword '견고합'" in r.message


def test_setup_values_are_checked_against_the_ruleset(tmp_path):
    head = HEAD.replace(
        "  zones:", '  props: {"hand#1/1": {fortress: true}, "hand#1/9": {damage: 1}}\n  zones:'
    )
    _, r = run(tmp_path, "  - choose: pass\n", head=head)
    assert not r.ok
    assert "a creature (BARON) has no property 'fortress'" in r.message
    assert "'hand#1/9': setup puts 4 card(s) in hand#1" in r.message


def test_bad_options_fail_at_the_options_line(tmp_path):
    head = HEAD.replace("setup:", "options: {attack_order: sideways}\nsetup:")
    path, r = run(tmp_path, "  - choose: pass\n", head=head)
    assert not r.ok
    assert r.message.startswith(f"{path}:{line_of(path, 'sideways')}: error: option attack_order")


# ---------------------------------------------------------------- files and folders


def test_folders_are_searched_for_scenarios_only(tmp_path):
    write(tmp_path, HEAD + "  - choose: pass\n", "a/one.yaml")
    write(tmp_path, "ruleset: clash_of_decks\ncards: []\n", "a/cards.yaml")  # not a scenario
    write(tmp_path, HEAD + "  - choose: nope\n", "a/b/two.yaml")
    found = find_scenarios([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["a/b/two.yaml", "a/one.yaml"]
    report = run_paths([str(tmp_path)], verbose=True)
    assert (report.passed, report.failed) == (1, 1)
    text = report.render()
    assert "PASS one" in text and "FAIL two" in text and "— 규칙서 2단계 – 소환" in text
    assert text.endswith("1 passed, 1 failed\n")


def test_a_missing_path_fails(tmp_path):
    report = run_paths([str(tmp_path / "nowhere.yaml")])
    assert report.failed == 1 and "no such file or folder" in report.results[0].message


def test_invalid_yaml_fails_with_its_position(tmp_path):
    report = run_paths([str(write(tmp_path, "rule: x\nsteps: [\n"))])
    assert report.failed == 1 and "invalid YAML" in report.results[0].message


# ---------------------------------------------------------------- the pytest plugin


def test_pytest_collects_scenarios_of_rulesets_and_tests(tmp_path):
    """A copy of the plugin in a scratch repository: items named <ruleset>/<stem>, the rule in
    the failure report, and a ruleset without a scenarios folder."""
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n", encoding="utf-8")
    shutil.copy(TESTS / "conftest.py", write(tmp_path, "", "tests/conftest.py"))
    write(tmp_path, HEAD + "  - choose: pass\n", "tests/scenarios/good.yaml")
    write(tmp_path, HEAD + "  - expect: {player: P2}\n", "rulesets/mygame/scenarios/bad.yaml")
    (tmp_path / "rulesets" / "other").mkdir()  # no scenarios folder yet
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "PASSED tests/scenarios/good.yaml::clash_of_decks/good" in out
    assert "FAILED rulesets/mygame/scenarios/bad.yaml::mygame/bad" in out
    assert "rule: 규칙서 2단계 – 소환" in out
    assert "player: expected P2 to decide, got P1 ('소환')" in out


def test_a_ruleset_given_as_a_path_relative_to_the_scenario(tmp_path):
    shutil.copytree(TESTS / "rulesets" / "mini", tmp_path / "games" / "mini")
    path = write(
        tmp_path,
        """\
ruleset: ../games/mini
rule: "mini: a played card goes to the field"
seed: 1
steps:
  - expect: {player: P1, options_include: [play Pawn, pass]}
  - choose: play Pawn
  - expect: {zones: {field#1: [Pawn]}, events: ["play(Pawn)"]}
""",
        "scenarios/play.yaml",
    )
    r = run_scenario(load_scenario(path))
    assert r.ok, r.message


BOARD_RULES = """\
counter heat: per area = 0

flow:
    area("Hill").heat = 2
"""

BOARD_META = """\
name: board
title: {en: Board}
players: 2
files: [board.madang]
maps:
  land:
    areas:
      Hill: {adjacent: [Vale]}
      Vale: {adjacent: [Hill]}
"""


def test_per_area_counters_are_expected_by_area_name(tmp_path):
    write(tmp_path, BOARD_META, "board/ruleset.yaml")
    write(tmp_path, BOARD_RULES, "board/board.madang")

    def board(name: str, expect: str):
        text = f'ruleset: .\nrule: "per-area counters"\nsteps:\n  - expect: {expect}\n'
        return run_scenario(load_scenario(write(tmp_path, text, f"board/{name}.yaml")))

    r = board("ok", "{area_counters: {heat: {Hill: 2, Vale: 0}}}")
    assert r.ok, r.message
    r = board("bad", "{area_counters: {heat: {Vale: 1}}}")
    assert not r.ok and "heat@Vale: expected 1, got 0" in r.message
    r = board("typo", "{area_counters: {heat: {Hil: 1}}}")
    assert not r.ok and "no area 'Hil'" in r.message and "did you mean 'Hill'" in r.message


def test_sees_checks_what_each_player_may_see(tmp_path):
    # docs/scenarios.md `sees`: a hand is its owner's; the other player sees only its size.
    path, r = run(
        tmp_path,
        """\
  - expect:
      sees:
        P1: {hand#1: [TOWER, BARON, ZOMBIE, BRUTE], hand#2: 3, top#1: []}
        P2: {hand#1: 4, hand#2: [TOWER, OGRE, GNOME]}
""",
    )
    assert r.ok, r.message
    path, r = run(
        tmp_path,
        """\
  - expect:
      sees: {P2: {hand#1: [TOWER, BARON, ZOMBIE, BRUTE], hand#2: 2}}
""",
    )
    assert not r.ok
    assert (
        "P2 sees hand#1: expected [TOWER, BARON, ZOMBIE, BRUTE], sees only a count (4)" in r.message
    )
    assert "P2 sees hand#2: expected only a count (2), sees [TOWER, OGRE, GNOME]" in r.message


def test_sees_with_a_number_fails_when_a_card_of_the_zone_is_seen(tmp_path):
    # docs/scenarios.md `sees`: a number means only a count is visible; a hand of which P2 was
    # shown a card (reveal) is not that (issue 32: it used to pass).
    head = HEAD.replace(
        "      play_turn(P1)\n", "      reveal first(P1.hand) to players\n      play_turn(P1)\n"
    )
    path, r = run(tmp_path, "  - expect:\n      sees: {P2: {hand#1: 4}}\n", head)
    assert not r.ok
    assert "P2 sees hand#1: expected only a count (4), sees [TOWER, ?, ?, ?]" in r.message
    path, r = run(
        tmp_path, "  - expect:\n      sees: {P2: {hand#1: [TOWER, '?', '?', '?']}}\n", head
    )
    assert r.ok, r.message


# ---------------------------------------------------------------- start_at (docs/scenarios.md)

AT_HEAD = """\
ruleset: game_of_thrones_2p
rule: "규칙서 라운드: 일곱 단계"
setup:
  round: 1
  player_counters: {시작: [1, 0], 황금: [3, 5]}
"""


def test_a_scenario_starts_at_a_phase_of_the_flow_and_the_flow_goes_on(tmp_path):
    path, r = run(
        tmp_path,
        "  - expect: {events: [징세단계, 플롯단계], no_events: [세움단계], phase: 플롯, round: 2}\n",
        head=AT_HEAD + "start_at: 징세\nsteps:\n",
    )
    assert r.ok, r.message


def test_a_point_the_flow_lacks_is_a_located_error_with_its_points(tmp_path):
    path, r = run(tmp_path, "  - expect: {round: 1}\n", head=AT_HEAD + "start_at: 징새\nsteps:\n")
    assert not r.ok
    assert f"{path}:{line_of(path, 'start_at')}:11: error: no point '징새' in the flow" in r.message
    assert "did you mean '징세'?" in r.message


def test_names_given_at_a_point_are_checked_against_the_flow(tmp_path):
    head = HEAD.replace("start: |\n  turn P1:\n      play_turn(P1)\n", "")
    path, r = run(
        tmp_path,
        "  - expect: {active: P2}\n",
        head=head.replace("steps:\n", "start_at: {point: turn, let: {q: P2, p: P3}}\nsteps:\n"),
    )
    assert not r.ok
    line = line_of(path, "start_at")
    assert f"{path}:{line}:31: error: the flow has no name 'q' at turn" in r.message
    assert "error: no player P3: this game has 2 players" in r.message


def test_start_and_start_at_are_not_both_given(tmp_path):
    text = HEAD.replace("steps:\n", "start_at: turn\nsteps:\n  - expect: {turn: 4}\n")
    assert "a scenario has `start:` or `start_at:`, not both" in load_error(tmp_path, text)


def test_a_flow_name_without_a_let_must_be_given_at_the_point(tmp_path):
    rules = tmp_path / "tiny"
    rules.mkdir()
    (rules / "ruleset.yaml").write_text(
        "name: tiny\ntitle: {en: Tiny}\nplayers: 2\nfiles: [tiny.madang]\ncards: []\n",
        encoding="utf-8",
    )
    (rules / "tiny.madang").write_text(
        "counter mark = 0\n\nflow:\n"
        '    choose c from [1, 2] by first(players) "pick"\n'
        "    phase alpha:\n        mark += c\n",
        encoding="utf-8",
    )
    head = 'ruleset: tiny\nrule: "x"\nsetup: {}\n'
    path, r = run(
        tmp_path, "  - expect: {counters: {mark: 2}}\n", head + "start_at: alpha\nsteps:\n"
    )
    assert not r.ok
    assert f"{path}:4:11: error: the flow's name 'c' (" in r.message
    assert "tiny.madang:4:5) has no value at alpha" in r.message
    assert "hint: give it: start_at: {point: alpha, let: {c: ...}}" in r.message
    text = head + "start_at: {point: alpha, let: {c: 2}}\nsteps:\n"
    path, r = run(tmp_path, "  - expect: {counters: {mark: 2}, over: true}\n", text)
    assert r.ok, r.message

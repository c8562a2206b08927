"""The command line: exit codes, JSON outputs, save/load, simulate's determinism."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from madang.cli import main

BROKEN = Path(__file__).parent / "broken" / "cards"


def run(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "madang", *args], capture_output=True, text=True, input=stdin, timeout=300)


@pytest.mark.parametrize("cmd", ["check", "schema", "parse", "fmt", "list", "play", "simulate", "test", "bench", "replay"])
def test_every_command_has_help(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main([cmd, "--help"])
    assert e.value.code == 0
    assert "usage: madang " + cmd in capsys.readouterr().out


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate"])
    assert e.value.code == 2
    assert main([]) == 2
    assert main(["play", "clash_of_decks", "--option", "nonsense"]) == 2


def test_check_clean_ruleset_exits_0(capsys):
    assert main(["check", "clash_of_decks"]) == 0
    assert "no problems" in capsys.readouterr().out


def test_check_broken_card_file_exits_1_with_location(capsys):
    path = str(BROKEN / "misspelt-keyword.yaml")
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    assert "misspelt-keyword.yaml:8:11: error: unknown keyword '관퉁'" in out
    assert "hint: did you mean '관통'?" in out


def test_check_json_lists_the_diagnostics(capsys):
    assert main(["check", str(BROKEN / "misspelt-keyword.yaml"), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert [(d["line"], d["column"], d["severity"]) for d in diags] == [(8, 11, "error")]


def test_schema_prints_json(capsys):
    assert main(["schema", "clash_of_decks"]) == 0
    schema = json.loads(capsys.readouterr().out)
    published = json.loads((Path(__file__).parents[1] / "docs" / "schemas" / "clash_of_decks.cards.json").read_text(encoding="utf-8"))
    assert schema == published


def test_unknown_ruleset_and_bad_option_exit_1(capsys):
    assert main(["play", "no_such_game"]) == 1
    assert main(["play", "clash_of_decks", "--option", "deck=9"]) == 1
    err = capsys.readouterr().err
    assert "unknown ruleset 'no_such_game'" in err and "deck" in err


def test_save_load_gives_the_same_game_as_playing_through(tmp_path, capsys):
    save = tmp_path / "s.json"
    assert main(["play", "clash_of_decks", "--seats", "random,random", "--seed", "5", "--format", "json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["play", "clash_of_decks", "--seats", "random,random", "--seed", "5", "--max-decisions", "40", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--seats", "random,random", "--format", "json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert (resumed["winners"], resumed["digest"]) == (whole["winners"], whole["digest"])


def test_corrupt_save_is_refused_and_not_overwritten(tmp_path, capsys):
    save = tmp_path / "s.json"
    save.write_text("{not json", encoding="utf-8")
    assert main(["play", "--load", str(save), "--save", str(save)]) == 1
    assert save.read_text(encoding="utf-8") == "{not json"
    assert "not a madang save file" in capsys.readouterr().err


def test_simulate_json_is_the_same_whatever_the_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        assert main(["simulate", "clash_of_decks", "--games", "24", "--seed", "3", "--jobs", jobs, "--format", "json"]) == 0
        r = json.loads(capsys.readouterr().out)
        r.pop("timing")
        outs.append(r)
    assert outs[0] == outs[1]
    assert set(outs[0]["by_option"]["deck"]) == {"1", "2", "3", "4"}
    assert sum(s["wins"] for s in outs[0]["seats"]) + outs[0]["draws"] + outs[0]["no_winner"] == 24


def test_human_agent_asks_again_on_nonsense():
    from madang.agents import HumanAgent
    from madang.api import new_game

    g = new_game("clash_of_decks", {}, seed=1)
    out = io.StringIO()
    agent = HumanAgent(stdin=io.StringIO("banana\n999\npass\n"), stdout=out)
    choice = agent.choose(g, g.current_player())
    assert g.action_labels()[choice] == "pass"
    assert out.getvalue().count("please type a number") == 2


def test_human_at_end_of_input_stops_cleanly():
    r = run("play", "clash_of_decks", "--seats", "human,random", stdin="")
    assert r.returncode == 1 and "Traceback" not in r.stderr and "input ended" in r.stderr


def test_log_and_replay(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "clash_of_decks", "--seed", "2", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "턴 1" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 1


def test_test_command_ends_with_counts():
    r = run("test", str(Path(__file__).parent / "scenarios"))
    assert r.returncode == 0
    assert r.stdout.strip().splitlines()[-1].endswith("passed, 0 failed")

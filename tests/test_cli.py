"""The command line: exit codes, help, JSON outputs, save/load, simulate's determinism, the
human at the terminal, logs and replays. Fast: games are short and few."""

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from madang.game.api import GameState
from madang.tools import cli
from madang.tools.cli import main

HERE = Path(__file__).parent
BROKEN = HERE / "broken"
CLASH = "clash_of_decks"
COMMANDS = [
    "serve",
    "lsp",
    "check",
    "schema",
    "parse",
    "fmt",
    "compile",
    "list",
    "play",
    "simulate",
    "tournament",
    "test",
    "bench",
    "replay",
]


def run(*args, stdin: str | None = None, **kw) -> subprocess.CompletedProcess:
    """`python -m madang ARGS` in a process of its own: for what only a process shows (its exit
    status after a usage error, a signal)."""
    return subprocess.run([sys.executable, "-m", "madang", *map(str, args)], capture_output=True, text=True,
                          input=stdin, timeout=300, **kw)  # fmt: skip


@pytest.fixture
def madang(monkeypatch, capsys):
    """`madang ARGS` run by main() in this process, as `run` would in a child (no interpreter to
    start, no rules to load again): exit code, stdout and stderr, `stdin` as the input."""

    def call(*args, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return call


def out_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------- usage, help, exit codes


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_has_help(cmd, capsys):
    assert main([cmd, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: madang " + cmd) and "exit codes" in out


def test_top_level_help_and_version(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(c in out for c in COMMANDS)
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("madang ")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["simulate"],  # missing RULESET
        ["frobnicate"],  # unknown command
        ["play", CLASH, "--bogus"],  # unknown flag
        ["simulate", CLASH, "--games", "many"],  # not a number
        ["play", CLASH, "--option", "nonsense"],  # not KEY=VALUE
        ["play", CLASH, "--format", "xml"],
        ["play"],  # neither RULESET nor --load
        ["simulate", CLASH, "--jobs", "0"],
        ["play", CLASH, "--max-decisions", "-1"],
    ],
)
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_usage_error_exit_code_of_the_process():
    r = run("simulate")
    assert (
        r.returncode == 2 and "usage: madang simulate" in r.stderr and "Traceback" not in r.stderr
    )
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("madang ")


def test_interrupt_exits_130_and_internal_errors_show_no_traceback(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    def buggy(args):
        raise ValueError("boom")

    monkeypatch.setattr(cli, "cmd_list", interrupted)
    assert main(["list"]) == 130
    monkeypatch.setattr(cli, "cmd_list", buggy)
    monkeypatch.delenv("MADANG_DEBUG", raising=False)
    assert main(["list"]) == 1
    err = capsys.readouterr().err
    assert "internal error: ValueError: boom" in err and "Traceback" not in err


def test_an_internal_error_in_generated_code_names_the_rules_line(monkeypatch, capsys):
    from madang.runtime import engine

    def buggy(*args):
        raise ValueError("boom")

    monkeypatch.setattr(engine, "shuffle_zone", buggy)
    monkeypatch.delenv("MADANG_DEBUG", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", CLASH]) == 1
    err = capsys.readouterr().err
    assert "internal error: ValueError: boom" in err and "Traceback" not in err
    assert re.search(r"while running the rules at \S*clash_of_decks/\w+\.madang:\d+", err)


def test_colours_only_on_a_terminal_without_no_color(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert cli.color_ok(Tty()) and not cli.color_ok(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not cli.color_ok(Tty())


# ---------------------------------------------------------------- check, schema, parse, fmt, list


def test_check_clean_ruleset_exits_0(capsys):
    assert main(["check", CLASH]) == 0
    assert "ok: no problems found" in capsys.readouterr().out


def test_check_a_language_file_of_a_ruleset_and_its_ruleset_yaml(capsys):
    folder = Path(cli.__file__).parent / "rulesets" / CLASH
    if not folder.is_dir():
        folder = HERE.parent / "rulesets" / CLASH
    assert main(["check", str(folder / "rules.madang"), str(folder / "ruleset.yaml")]) == 0
    assert "ok: no problems found" in capsys.readouterr().out


def test_check_broken_card_file_exits_1_with_location(capsys):
    assert main(["check", str(BROKEN / "cards" / "misspelt-keyword.yaml")]) == 1
    out = capsys.readouterr().out
    assert "misspelt-keyword.yaml:8:11: error: unknown keyword '관퉁'" in out
    assert "hint: did you mean '관통'?" in out
    assert out.rstrip().endswith("1 error, 0 warnings")


def test_check_json_lists_the_diagnostics(capsys):
    assert main(["check", str(BROKEN / "cards" / "misspelt-keyword.yaml"), "--format", "json"]) == 1
    diags = out_json(capsys)
    assert [(d["line"], d["column"], d["severity"]) for d in diags] == [(8, 11, "error")]
    assert main(["check", CLASH, "--format", "json"]) == 0
    assert out_json(capsys) == []


def test_check_unknown_ruleset_exits_1(capsys):
    assert main(["check", "no_such_game"]) == 1
    assert "unknown ruleset 'no_such_game'" in capsys.readouterr().out


def test_strict_makes_warnings_fail(tmp_path, capsys):
    folder = tmp_path / "warn"
    folder.mkdir()
    shutil.copy(BROKEN / "lang" / "_base.madang", folder / "base.madang")
    shutil.copy(BROKEN / "lang" / "unused-verb-warning.madang", folder / "extra.madang")
    (folder / "ruleset.yaml").write_text(
        "name: warn\ntitle: {en: Warn}\nplayers: 2\nfiles: [base.madang, extra.madang]\n",
        encoding="utf-8",
    )
    assert main(["check", str(folder)]) == 0
    assert "warning: verb 'unused_thing' is never used" in capsys.readouterr().out
    assert main(["check", "--strict", str(folder)]) == 1


def test_schema_prints_json(capsys):
    assert main(["schema", CLASH]) == 0
    schema = out_json(capsys)
    published = HERE.parent / "docs" / "schemas" / f"{CLASH}.cards.json"
    if published.is_file():
        assert schema == json.loads(published.read_text(encoding="utf-8"))
    assert main(["schema", "no_such_game"]) == 1


def test_parse_prints_the_tree_and_reports_syntax_errors(capsys):
    assert main(["parse", str(BROKEN / "lang" / "_base.madang")]) == 0
    assert "destroy" in capsys.readouterr().out
    assert main(["parse", str(BROKEN / "lang" / "syntax-missing-colon.madang")]) == 1
    assert "error" in capsys.readouterr().err


def test_fmt_prints_checks_and_rewrites(tmp_path, capsys):
    src = tmp_path / "a.madang"
    src.write_text("verb   heal(u: card):\n    pass\n", encoding="utf-8")
    assert main(["fmt", str(src)]) == 0
    canonical = capsys.readouterr().out
    assert canonical.startswith("verb heal(u: card):")
    assert main(["fmt", "--check", str(src)]) == 1
    assert "would be reformatted" in capsys.readouterr().out
    assert main(["fmt", "--write", str(src)]) == 0
    assert src.read_text(encoding="utf-8") == canonical
    assert main(["fmt", "--check", str(src)]) == 0
    assert main(["fmt", str(BROKEN / "lang" / "syntax-missing-colon.madang")]) == 1


def test_list_text_and_json(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(CLASH) or f"\n{CLASH}" in out
    assert "--option deck=1  [1, 2, 3, 4]  (per seat" in out
    assert main(["list", "--format", "json"]) == 0
    rows = {r["name"]: r for r in out_json(capsys)}
    assert rows[CLASH]["players"] == {"min": 2, "max": 2}
    assert rows[CLASH]["options"]["deck"]["per_seat"] is True


# ---------------------------------------------------------------- play: bad input


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "no_such_game"], "unknown ruleset 'no_such_game'"),
        (["play", CLASH, "--option", "deck=9"], "option deck='9' is not allowed"),
        (["play", CLASH, "--option", "colour=red"], "unknown option 'colour'"),
        (["play", CLASH, "--seats", "random,random,random"], "this game has 2 seats"),
        (["play", CLASH, "--seats", "wizard"], "unknown agent 'wizard'"),
        (["play", CLASH, "--seats", "scripted:banana"], "'banana' is not an option; options: "),
        (["play", CLASH, "--cards", "/no/such/cards.yaml"], "cards.yaml"),
        (["simulate", CLASH, "--seats", "human", "--games", "2"], "simulate plays without people"),
    ],
)
def test_bad_input_exits_1_with_a_clear_message(argv, message, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# ---------------------------------------------------------------- play, save, load


def play_json(capsys, *argv) -> dict:
    assert main(["play", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_play_json_result(capsys):
    r = play_json(capsys, CLASH, "--seats", "random,random", "--seed", "5")
    assert r["finished"] is True and r["winners"] in ([1], [2])
    assert sorted(r["returns"]) == [-1.0, 1.0] and r["decisions"] > 0 and r["turns"] > 0
    assert len(r["digest"]) == 64
    assert (
        play_json(capsys, CLASH, "--seats", "random", "--seed", "5") == r
    )  # one agent for all seats


def test_save_load_gives_the_same_game_as_playing_through(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    whole = play_json(capsys, CLASH, "--seats", "random,random", "--seed", "5")
    assert (
        main(
            [
                "play",
                CLASH,
                "--seats",
                "random,random",
                "--seed",
                "5",
                "--max-decisions",
                "40",
                "--save",
                "s.json",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("stopped after 40 decisions")
    resumed = play_json(capsys, "--load", "s.json", "--seats", "random,random")
    assert (resumed["winners"], resumed["digest"], resumed["decisions"]) == (
        whole["winners"], whole["digest"], whole["decisions"])  # fmt: skip


def test_save_and_resume_in_the_middle_several_times(tmp_path, capsys):
    save = str(tmp_path / "s.json")
    whole = play_json(capsys, CLASH, "--seed", "8", "--option", "deck=2,4")
    play_json(
        capsys, CLASH, "--seed", "8", "--option", "deck=2,4", "--max-decisions", "7", "--save", save
    )
    for _ in range(3):
        r = play_json(capsys, "--load", save, "--max-decisions", "5", "--save", save)
    while not r["finished"]:
        r = play_json(capsys, "--load", save, "--max-decisions", "10", "--save", save)
    assert (r["winners"], r["digest"]) == (whole["winners"], whole["digest"])


def test_the_exact_commands_of_the_issue(tmp_path, madang):
    whole = madang(
        "play", CLASH, "--seats", "random,random", "--seed", "5", "--format", "json", cwd=tmp_path
    )
    first = madang(
        "play",
        CLASH,
        "--seats",
        "random,random",
        "--seed",
        "5",
        "--max-decisions",
        "40",
        "--save",
        "s.json",
        cwd=tmp_path,
    )
    resumed = madang(
        "play", "--load", "s.json", "--seats", "random,random", "--format", "json", cwd=tmp_path
    )
    assert whole.returncode == first.returncode == resumed.returncode == 0
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert a["decisions"] > 40 and first.stdout.startswith(
        "stopped after 40 decisions; saved to s.json"
    )
    assert (a["winners"], a["digest"], a["decisions"]) == (
        b["winners"],
        b["digest"],
        b["decisions"],
    )


def test_max_decisions_0_saves_the_start(tmp_path, capsys):
    save = tmp_path / "start.json"
    r = play_json(capsys, CLASH, "--seed", "3", "--max-decisions", "0", "--save", str(save))
    assert r["finished"] is False and r["decisions"] == 0 and r["winners"] == []
    assert json.loads(save.read_text(encoding="utf-8"))["format"].startswith("madang-save")


@pytest.mark.parametrize(
    "content", ["{not json", '{"format": "something-else"}', "[1, 2, 3]", "", "\udcff"]
)
def test_corrupt_or_foreign_save_is_refused_and_not_overwritten(tmp_path, capsys, content):
    save = tmp_path / "s.json"
    save.write_bytes(content.encode("utf-8", "surrogateescape"))
    before = save.read_bytes()
    assert main(["play", "--load", str(save), "--save", str(save)]) == 1
    assert save.read_bytes() == before
    err = capsys.readouterr().err
    assert "save file" in err and "Traceback" not in err


def test_a_save_with_a_damaged_state_is_refused(tmp_path, capsys):
    save = tmp_path / "s.json"
    play_json(capsys, CLASH, "--max-decisions", "3", "--save", str(save))
    doc = json.loads(save.read_text(encoding="utf-8"))
    doc["state"] = {"nonsense": True}
    save.write_text(json.dumps(doc), encoding="utf-8")
    before = save.read_bytes()
    assert main(["play", "--load", str(save), "--save", str(save)]) == 1
    assert save.read_bytes() == before
    assert "Traceback" not in capsys.readouterr().err


def test_a_failed_run_does_not_overwrite_the_save(tmp_path, capsys):
    save = tmp_path / "s.json"
    play_json(capsys, CLASH, "--seed", "4", "--max-decisions", "3", "--save", str(save))
    before = save.read_bytes()
    # the script runs out after one choice: the run fails, the save stays as it was
    assert main(["play", "--load", str(save), "--seats", "scripted:0", "--save", str(save)]) == 1
    assert "script of choices ran out" in capsys.readouterr().err
    assert save.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name != "s.json"]  # no temporary file left


def test_a_game_with_extra_cards_resumes_with_the_same_cards(tmp_path, capsys):
    cards = HERE.parent / "docs" / "examples" / "my_cards.yaml"
    save = tmp_path / "s.json"
    whole = play_json(capsys, CLASH, "--cards", str(cards), "--seed", "2")
    play_json(
        capsys,
        CLASH,
        "--cards",
        str(cards),
        "--seed",
        "2",
        "--max-decisions",
        "5",
        "--save",
        str(save),
    )
    assert json.loads(save.read_text())["cards"] == [str(cards.resolve())]
    resumed = play_json(capsys, "--load", str(save))  # the save names its card files
    assert resumed["digest"] == whole["digest"]
    again = play_json(capsys, "--load", str(save), "--cards", str(cards))
    assert again["digest"] == whole["digest"]


def test_load_note_about_ignored_arguments(tmp_path, capsys):
    save = tmp_path / "s.json"
    play_json(capsys, CLASH, "--max-decisions", "2", "--save", str(save))
    assert main(["play", CLASH, "--load", str(save), "--seed", "9", "--format", "json"]) == 0
    assert "RULESET, --seed ignored" in capsys.readouterr().err


# ---------------------------------------------------------------- the human at the terminal


def test_human_is_asked_again_on_nonsense_then_plays(madang):
    r = madang(
        "play",
        CLASH,
        "--seats",
        "human,random",
        "--seed",
        "1",
        "--max-decisions",
        "1",
        stdin="banana\n999\n\npass\n",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("is not an option") == 2 and "empty answer" in r.stdout
    assert "P1 선택 (" in r.stdout and "): pass" in r.stdout
    assert "stopped after 1 decision" in r.stdout
    assert "Traceback" not in r.stderr


def test_human_at_end_of_input_stops_cleanly_and_saves(tmp_path, madang):
    # #15: nothing is lost: with --save, a game stopped by the end of input or `quit` is saved
    # where it stopped, and the message says how to go on.
    save = tmp_path / "s.json"
    save.write_text("an older save", encoding="utf-8")
    r = madang("play", CLASH, "--seats", "human,random", "--save", save, stdin="")
    assert r.returncode == 1 and "Traceback" not in r.stderr and "input ended" in r.stderr
    assert f"madang play --load {save}" in r.stderr
    first = GameState.from_json(save.read_text(encoding="utf-8"))
    assert not first.is_terminal()
    r = madang("play", CLASH, "--seats", "human,random", "--save", save, stdin="1\nquit\n")
    assert r.returncode == 1 and "the player quit" in r.stderr
    later = GameState.from_json(save.read_text(encoding="utf-8"))
    assert later.st.decisions > first.st.decisions


def test_ctrl_c_while_a_human_decides_saves_the_game(tmp_path):
    import signal
    import time

    save = tmp_path / "s.json"
    proc = subprocess.Popen([sys.executable, "-m", "madang", "play", CLASH, "--seats", "human,random",
                             "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        proc.stdin.write("1\n")
        proc.stdin.flush()
        seen, deadline = "", time.monotonic() + 60
        while seen.count("P1>") < 2 and time.monotonic() < deadline:  # asked a second time
            ch = proc.stdout.read(1)
            if not ch:
                break
            seen += ch
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert GameState.from_json(save.read_text(encoding="utf-8")).st.decisions >= 1


def test_human_in_solo_mode_plays_against_the_automa(madang):
    r = madang("play", CLASH, "--option", "mode=solo", "--seats", "human", "--seed", "2", "--max-decisions", "2",
            stdin="0\n0\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "P2 to decide" not in r.stdout  # the automa is never asked


# ---------------------------------------------------------------- log and replay


def test_log_is_json_lines_with_a_header_and_replays(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    r = play_json(capsys, CLASH, "--seed", "2", "--log", str(log))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    header = lines[0]
    assert (
        header["ruleset"] == CLASH
        and header["seed"] == 2
        and header["options"]["deck"] == ["1", "1"]
    )
    assert sum("decision" in e for e in lines) == r["decisions"]
    assert {"turn": 1, "player": 0} in lines or any(e.get("turn") == 1 for e in lines)
    assert lines[-1] == {"game_over": [p - 1 for p in r["winners"]]} or any(
        "game_over" in e for e in lines
    )
    assert main(["replay", str(log)]) == 0
    ko = capsys.readouterr().out
    assert "턴 1" in ko and "게임 종료" in ko and "공격" in ko
    assert main(["replay", str(log), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "turn 1" in en and "game over" in en and " attacks" in en and "턴" not in en
    assert "attack(" not in en  # the view's English sentences, not the verb's call


def test_same_seed_same_log(tmp_path, capsys):
    logs = []
    for k in range(2):
        log = tmp_path / f"{k}.jsonl"
        play_json(capsys, CLASH, "--seed", "6", "--log", str(log))
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]


def test_replay_of_a_missing_or_foreign_file_exits_1(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "not a madang log file" in capsys.readouterr().err


def test_verbose_play_narrates(capsys):
    assert main(["play", CLASH, "--seed", "2", "--max-decisions", "6", "-v", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "turn 1: P" in out and "chooses (" in out


# ---------------------------------------------------------------- simulate


def simulate_json(capsys, *argv) -> dict:
    code = main(["simulate", CLASH, *argv, "--format", "json"])
    r = out_json(capsys)
    r["_code"] = code
    return r


def test_simulate_json_is_the_same_whatever_the_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        r = simulate_json(capsys, "--games", "24", "--seed", "3", "--jobs", jobs)
        assert r["_code"] == 0
        assert set(r.pop("timing")) >= {"seconds", "jobs"}
        outs.append(r)
    assert outs[0] == outs[1]
    r = outs[0]
    assert set(r["by_option"]["deck"]) == {"1", "2", "3", "4"}
    assert sum(v["games"] for v in r["by_option"]["deck"].values()) == 48
    assert len(r["pairings"]) == 12 and "deck=1,2" in r["pairings"]
    assert sum(s["wins"] for s in r["seats"]) + r["draws"] + r["no_winner"] == 24
    for s in r["seats"]:
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["rate"] <= hi <= 1
    assert r["decisions"]["min"] <= r["decisions"]["mean"] <= r["decisions"]["max"]


def test_simulate_game_i_is_play_with_seed_plus_i(capsys):
    r = simulate_json(capsys, "--games", "1", "--seed", "5", "--option", "deck=1")
    p = play_json(capsys, CLASH, "--seed", "5")
    assert r["decisions"]["max"] == p["decisions"] and r["seats"][p["winners"][0] - 1]["wins"] == 1


def test_simulate_fixed_option_and_solo(capsys):
    r = simulate_json(
        capsys, "--games", "6", "--option", "mode=solo", "--option", "deck=2", "--jobs", "1"
    )
    assert r["_code"] == 0 and r["varied"] == [] and "by_option" not in r
    assert r["finished"] == 6


def test_simulate_unfinished_games_are_counted(capsys):
    r = simulate_json(capsys, "--games", "4", "--max-decisions", "3", "--jobs", "1")
    assert r["unfinished"] == 4 and r["finished"] == 0 and r["decisions"]["max"] == 3


def test_simulate_counts_rules_errors_without_crashing(tmp_path, capsys):
    from madang.build.loader import find_ruleset
    from madang.language.diagnostics import Diagnostics

    src = find_ruleset(CLASH, Diagnostics())
    folder = tmp_path / "clash"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("scenarios"))
    rules = folder / "formats.madang"
    text = rules.read_text(encoding="utf-8")
    assert 'create "TOWER" in p.hand' in text  # a card missing only when a game is set up
    rules.write_text(
        text.replace('create "TOWER" in p.hand', 'create "ZOMBIEE" in p.hand'), encoding="utf-8"
    )
    assert main(["simulate", str(folder), "--games", "12", "--jobs", "1", "--format", "json"]) == 1
    r = out_json(capsys)
    ((message, e),) = r["errors"].items()
    assert "ZOMBIEE" in message and e["games"] == r["error_games"] == r["games"] - r["finished"] > 0
    assert isinstance(e["first_seed"], int)
    assert main(["simulate", str(folder), "--games", "12", "--jobs", "1"]) == 1
    assert "error ×" in capsys.readouterr().out


def test_simulate_text_report(capsys):
    assert main(["simulate", CLASH, "--games", "12", "--seed", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        "P1 wins" in out and "by deck:" in out and "95% CI" in out and "decisions per game" in out
    )


# ---------------------------------------------------------------- test, bench


def test_test_command_ends_with_counts(tmp_path, madang):
    r = madang("test", HERE / "scenarios" / "mana_regeneration.yaml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"
    bad = tmp_path / "wrong.yaml"
    text = (
        HERE.parent / "rulesets" / CLASH / "scenarios" / "turn-mana-first-player-six.yaml"
    ).read_text(encoding="utf-8")
    bad.write_text(text.replace("mana: [0, 6]", "mana: [0, 7]"), encoding="utf-8")
    r = madang("test", bad, HERE / "scenarios" / "mana_regeneration.yaml")
    assert r.returncode == 1
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_bench_json_with_a_baseline(tmp_path, capsys):
    anchor = tmp_path / "anchor.py"
    anchor.write_text(
        'import json\nprint(json.dumps({"playouts_per_s": 1000.0, "decisions_per_s": 20000}))\n',
        encoding="utf-8",
    )
    assert (
        main(["bench", CLASH, "--games", "3", "--baseline", str(anchor), "--format", "json"]) == 0
    )
    r = out_json(capsys)
    c = r["rulesets"][CLASH]
    for key in (
        "load_cold_s",
        "load_warm_s",
        "check_1000_cards_s",
        "clone_us",
        "sample_us",
        "save_ms",
        "load_ms",
        "save_bytes",
    ):
        assert key in c, key
    assert c["check_1000_cards_errors"] == 0
    assert c["playouts"]["games"] == 3 and c["playouts"]["decisions_per_s"] > 0
    assert c["mcts_iterations_per_s"] > 0 and c["mcts_iterations"] == 100  # #34: search speed
    assert r["baseline"]["ratio_playouts"] > 0 and r["baseline"]["ruleset"] == CLASH
    assert main(["bench", "no_such_game"]) == 1


# ---------------------------------------------------------------- pytest's and ruff's conventions


def test_test_command_selects_with_k_and_stops_with_x(tmp_path, capsys):
    """`-k` keeps scenarios whose path, name or rule contains the words; `-x` stops at the first
    failure; `-q` gives one line per failure."""
    assert main(["test", CLASH, "-k", "mana and not automa", "--format", "json"]) == 0
    report = out_json(capsys)
    assert report["passed"] > 0 and report["deselected"] > 0
    assert all(
        "mana" in (r["path"] + r["name"] + (r["rule"] or "")).lower() for r in report["results"]
    )
    good = HERE.parent / "rulesets" / CLASH / "scenarios" / "turn-mana-first-player-six.yaml"
    for n in (1, 2):
        (tmp_path / f"bad{n}.yaml").write_text(
            good.read_text(encoding="utf-8").replace("mana: [0, 6]", "mana: [0, 7]"),
            encoding="utf-8",
        )
    assert main(["test", str(tmp_path), "-x", "-q"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL bad1 ") and len(out) == 2
    assert out[-1] == "0 passed, 1 failed, stopped at the first failure"


def test_test_command_exits_5_when_nothing_is_collected(tmp_path, capsys):
    assert main(["test", str(tmp_path)]) == 5
    assert "no scenarios found" in capsys.readouterr().err
    assert main(["test", CLASH, "-k", "no_scenario_is_named_like_this"]) == 5
    assert main(["test", "-k", "(mana"]) == 2


def test_test_command_defaults_to_the_bundled_scenarios(capsys):
    assert main(["test", "-q", "-k", "mana_regeneration or turn-mana-first-player-six"]) == 0
    assert capsys.readouterr().out.strip().startswith("1 passed, 0 failed")


def test_check_of_a_missing_file_says_so(capsys):
    assert main(["check", "no_such_cards.yaml"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("no_such_cards.yaml: error: no such file or folder")
    assert "unknown ruleset" not in out


def test_replay_of_a_save_says_why_it_cannot(tmp_path, capsys):
    save = tmp_path / "s.json"
    assert (
        main(["play", CLASH, "--seats", "random,random", "--seed", "1", "--save", str(save)]) == 0
    )
    capsys.readouterr()
    assert main(["replay", str(save)]) == 1
    err = capsys.readouterr().err
    assert "is a save, not a log" in err and "--load" in err


# ---------------------------------------------------------------- compile (#10)


def test_compile_lists_what_became_generated_python(capsys):
    assert main(["compile", CLASH, "--format", "json"]) == 0
    rows = {r["name"]: r for r in out_json(capsys)}
    # attack's body is one generated function, its `require` tested in it (resumable.leave);
    # attack_phase's scope is run by its object from there: no statement is a step of the
    # run loop of its own
    assert rows["attack"]["kind"] == "verb" and rows["attack"]["generated"] == 1
    assert rows["attack"]["objects"] == 0 and rows["attack"]["steps"] == 0
    assert rows["attack_phase"]["objects"] >= 1 and rows["attack_phase"]["steps"] == 0
    assert rows["summon"]["kind"] == "action"
    assert main(["compile", "game_of_thrones_2p", "--format", "json"]) == 0
    rows = out_json(capsys)
    triggers = [r for r in rows if r["kind"] == "trigger"]
    assert triggers and all(r["generated"] > 0 for r in triggers)
    assert not any(r["steps"] for r in rows)


def test_compile_show_prints_the_generated_source_of_a_verb(capsys):
    assert main(["compile", CLASH, "--show", "attack"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verb attack\n")
    # the whole body is one function, resumable at numbered sections
    assert "generated Python, " in out and "def _attack_m" in out and "if pc == 1:" in out
    assert "_leave_func(st, fr)" in out  # its `require` leaves the block from here
    assert "run by their objects" not in out  # nothing else is a statement's object
    # strike may wait for a decision: the generated code starts its block and returns if it did
    assert "if _strike_q_" in out and "'target': " in out  # strike's frameless copy (#34)
    assert "legal options:" not in out  # an action's enumerator belongs to the action
    assert main(["compile", CLASH, "--show", "attack_phase"]) == 0
    out = capsys.readouterr().out
    assert "run by their objects" in out and "ScopeStmt" in out and "Window" in out
    assert main(["compile", CLASH, "--show", "summon"]) == 0
    assert "legal options:" in capsys.readouterr().out
    assert main(["compile", "nivel_arena", "--show", "check 파워0"]) == 0
    assert capsys.readouterr().out.startswith("check 파워0\n  condition:")


def test_compile_show_of_an_unknown_name_suggests_the_nearest(capsys):
    assert main(["compile", CLASH, "--show", "atack"]) == 2
    assert "did you mean 'attack'?" in capsys.readouterr().err


def test_a_quit_game_resumes_with_its_seats_by_the_command_it_prints(tmp_path, capsys, monkeypatch):
    # issue #35: the person and the agent with its settings are saved; --load reuses them
    save = tmp_path / "s.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("0\nquit\n"))
    seats = "human,greedy"
    assert main(["play", CLASH, "--seats", seats, "--save", str(save), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    command = err.split("go on with: ")[1].rstrip(")\n")
    assert command == f"madang play --load {save} --save {save} --lang en"
    assert json.loads(save.read_text(encoding="utf-8"))["seats"] == ["human", "greedy"]
    monkeypatch.setattr("sys.stdin", io.StringIO("0\nquit\n"))
    assert main(command.split()[1:]) == 1  # the person is asked again: the seats came back
    out, err = capsys.readouterr()
    assert "P1> 0" in out and "seats from" in err and "the player quit" in err
    # --seats overrides the saved ones
    r = play_json(capsys, "--load", str(save), "--seats", "random", "--max-decisions", "3")
    assert r["decisions"] >= 3

"""#12, hangs and memory: small inputs that pass `check` must not hang a command or exhaust memory.

Each case is a tiny ruleset doing one expensive thing the red-team pass found; the command runs in
a child process with a time limit, so that a regression fails here instead of hanging the suite.
Every case must end in a clean rules error (exit 1, a message naming the construct, no
traceback) well within the limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

RULESET = """\
name: atk
title: {{en: Attack}}
players: {{min: 2, max: 2}}
files: [atk.madang]
cards: [cards.yaml]
{extra}
"""

RULES = """\
kind unit:
    power: number
keyword pierce[n: number]
zone hand: per player, ordered, owner sees
counter n = 2
{extra}
action finish(x: number from [0]) in main:
    win you
setup:
{setup}
flow:
    repeat until false:
        turn first(players):
            window main by first(players)
"""


def make(folder: Path, setup="n = 2", extra="", yaml_extra="", cards="cards: []") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(RULESET.format(extra=yaml_extra), encoding="utf-8")
    body = textwrap.indent(textwrap.dedent(setup), "    ")
    (folder / "atk.madang").write_text(RULES.format(extra=extra, setup=body), encoding="utf-8")
    (folder / "cards.yaml").write_text(f"ruleset: atk\n{cards}\n", encoding="utf-8")
    return folder


def madang(*args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [sys.executable, "-m", "madang", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


# name: (ruleset parts, what the error must say)
CASES = {
    "a huge repeat": (dict(setup="repeat 1000000000 times:\n    n += 1"), "repeat"),
    "repeated squaring": (dict(setup="repeat 60 times:\n    n = n * n"), "number too large"),
    "repeated doubling": (dict(setup="repeat 3000000 times:\n    n = n + n"), "repeat"),
    "sorting a long list again and again": (
        dict(setup="repeat 100000 times:\n    n = count(shuffled(range(20000)))"),
        "steps of work",
    ),
    "a nested count over ranges": (
        dict(setup="n = count(range(100000) where count(range(100000)) > 0)"),
        "steps of work",
    ),
    # a zone's objects iterated are charged inline (`_each`), also in `exists` written as a list
    "nested tests over a zone's objects": (
        dict(
            setup='repeat 3000 times:\n    create "A" in first(players).hand\n'
            "n = count(first(players).hand where count(first(players).hand where"
            " exists(first(first(players).hand where it.power > 0))) > 0)",
            cards="cards: [{name: A, type: unit, power: 1}]",
        ),
        "steps of work",
    ),
    "an action over a product of large domains": (
        dict(
            extra="action big(x: number from range(100000), y: number from range(100000)) in main:"
            "\n    n += 1"
        ),
        "action big",
    ),
    "max_steps of 10^21 stays under the ceiling": (
        dict(
            yaml_extra="settings: {max_steps: 1000000000000000000000}",
            setup="while true:\n    n += 1",
        ),
        "steps of work without a decision",
    ),
    "a verb calling itself": (dict(extra="verb f():\n    n += 1\n    f()", setup="f()"), "calls"),
    "a definition calling itself twice": (
        dict(extra="define d(k: number) = d(k + 1) + d(k + 1)", setup="n = d(0)"),
        "nested too deeply",
    ),
}


# the cases that take a second or more of work before their error: CI runs them, the quick loop
# keeps the others
SLOW_CASES = {
    "an action over a product of large domains",
    "max_steps of 10^21 stays under the ceiling",
}


@pytest.mark.parametrize(
    "case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CASES else c for c in CASES]
)
def test_play_ends_with_a_clean_rules_error(case, tmp_path):
    parts, says = CASES[case]
    folder = make(tmp_path / "atk", **parts)
    args = ["play", str(folder), "--seats", "first,first", "--max-decisions", "5"]
    if "ceiling" in case:  # the person running madang sets the ceiling; keep the test quick
        args += ["--max-work", "3000000"]
    r = madang(*args)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert says in r.stdout + r.stderr, r.stdout + r.stderr


def test_a_keyword_argument_evaluated_while_loading_has_a_budget(tmp_path):
    """`check` folds constant keyword arguments; a costly one is an error at its location."""
    card = "{name: A, type: unit, power: 1, text: 'pierce[count(range(100000) where count(range(100000)) > 0)]'}"
    folder = make(tmp_path / "atk", cards=f"cards:\n  - {card}")
    r = madang("check", str(folder))
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "cards.yaml:3:" in out and "steps of work" in out, out
    assert "Traceback" not in out


def test_the_ruleset_budget_is_kept_below_the_ceiling_given_on_the_command_line(tmp_path):
    folder = make(tmp_path / "atk", setup="while true:\n    n += 1")
    r = madang("play", str(folder), "--seats", "first,first", "--max-work", "1000")
    assert r.returncode == 1 and "more than 1,000 steps of work without a decision" in r.stderr, (
        r.stderr
    )
    r = madang("play", str(folder), "--seats", "first,first", "--max-work", "0")
    assert r.returncode == 2 and "--max-work" in r.stderr


def test_a_long_legal_game_is_not_a_hang():
    """The budget is per stretch between decisions: a game of many decisions by a player who
    always takes the first option ends by the decision limit, not as a rules error."""
    from madang.tools.simulate import simulate

    out = simulate("clash_of_decks", 2, seed=1, jobs=1, seats=["first", "first"])
    assert not out.get("errors"), out.get("errors")


# ---------------------------------------------------------------- inputs


def test_special_files_are_refused_not_read(tmp_path):
    """Sizes from `stat` are 0 for devices: /dev/zero used to be read until memory ran out, and a
    FIFO made `check` wait for a writer forever."""
    folder = make(tmp_path / "atk")
    r = madang("play", str(folder), "--cards", "/dev/zero", "--seats", "first,first", timeout=60)
    assert r.returncode == 1 and "not a regular file" in r.stderr, r.stderr
    (folder / "cards.yaml").unlink()
    os.mkfifo(folder / "cards.yaml")
    r = madang("check", str(folder), timeout=60)
    assert r.returncode == 1 and "cards.yaml" in r.stdout, r.stdout + r.stderr
    (folder / "more.madang").symlink_to("/dev/zero")
    r = madang("check", str(folder / "more.madang"), timeout=60)
    assert r.returncode == 1 and "not a regular file" in r.stdout, r.stdout + r.stderr
    r = madang("play", "--load", "/dev/zero", timeout=60)
    assert r.returncode == 1 and "not a regular file" in r.stderr, r.stderr
    r = madang("replay", "/dev/zero", timeout=60)
    assert r.returncode == 1 and "not a regular file" in r.stderr, r.stderr


def test_a_file_is_measured_by_what_is_read(tmp_path, monkeypatch):
    from madang.language import sources
    from madang.language.diagnostics import Diagnostics

    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.madang"
    big.write_text("# x\n" * 1000, encoding="utf-8")
    diags = Diagnostics()
    assert sources.read_text(big, diags) is None
    assert "too large" in diags.render(color=False)


def test_a_link_out_of_the_ruleset_is_reported_and_never_read(tmp_path):
    secret = tmp_path / "secret.madang"
    secret.write_text("SECRET-FIRST-LINE = 1\n", encoding="utf-8")
    folder = make(tmp_path / "atk")
    (folder / "more.madang").symlink_to(secret)
    meta = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    (folder / "ruleset.yaml").write_text(
        meta.replace("files: [atk.madang]", "files: [atk.madang, more.madang]"), encoding="utf-8"
    )
    r = madang("check", str(folder))
    assert r.returncode == 1 and "outside the ruleset folder" in r.stdout, r.stdout + r.stderr
    assert "SECRET-FIRST-LINE" not in r.stdout + r.stderr


@pytest.mark.parametrize(
    "name, says",
    [("Evil\x1b[2J", "control character (U+001B)"), ("Ev\u202eil", "bidirectional")],
)
def test_escape_codes_and_bidi_marks_in_names_are_refused(tmp_path, name, says):
    folder = make(tmp_path / "atk", cards=f'cards:\n  - {{name: "{name}", type: unit, power: 1}}')
    r = madang("check", str(folder))
    assert r.returncode == 1 and says in r.stdout + r.stderr, r.stdout + r.stderr
    assert "cards.yaml:3:" in r.stdout
    assert "\x1b" not in r.stdout + r.stderr


def test_names_are_one_spelling_whatever_the_unicode_form(tmp_path):
    """한 typed as a composed syllable (NFC) and as jamo (NFD) is the same card name."""
    import unicodedata

    nfc, nfd = "한칼", unicodedata.normalize("NFD", "한칼")
    assert nfc != nfd
    cards = f"cards:\n  - {{name: {nfc}, type: unit, power: 1}}\n  - {{name: {nfd}, type: unit, power: 2}}"
    folder = make(tmp_path / "atk", cards=cards)
    r = madang("check", str(folder))
    assert r.returncode == 1 and "is already defined" in r.stdout, r.stdout + r.stderr


def test_narration_blanks_are_parameter_names_only(tmp_path):
    """`"{k:>1500000000}"` used to print a 1.5 GB line."""
    folder = make(
        tmp_path / "atk", extra='verb say(k: number) "{k:>1500000000}":\n    n += k', setup="say(1)"
    )
    r = madang("check", str(folder))
    assert r.returncode == 1 and "a blank holds a parameter's name only" in r.stdout, r.stdout
    from madang.language.templates import fill, problems

    assert fill("{{k}} is {k}", {"k": "3"}) == "{k} is 3"
    assert problems("{k.__class__} {x} {", {"k"}) == [
        "'{k.__class__}': a blank holds a parameter's name only",
        "'{x}' is not a parameter (parameters: k)",
        "a lone '{' (write '{{' for a brace)",
    ]


def test_a_long_chain_of_operators_is_a_located_error(tmp_path):
    """About 250 unbracketed operators used to crash `check` with Python's 'too many nested
    parentheses'."""
    folder = make(tmp_path / "atk", setup="n = " + " + ".join(["1"] * 400))
    r = madang("check", str(folder))
    assert r.returncode == 1 and "atk.madang:10:" in r.stdout, r.stdout
    assert "operators in one statement" in r.stdout and "internal error" not in r.stderr


def test_players_and_per_seat_pairings_are_limited(tmp_path):
    folder = make(tmp_path / "atk")
    meta = folder / "ruleset.yaml"
    meta.write_text(meta.read_text().replace("max: 2}", "max: 100000000}"), encoding="utf-8")
    r = madang("check", str(folder))
    assert r.returncode == 1 and "'max' must be at most 16" in r.stdout, r.stdout
    meta.write_text(
        meta.read_text().replace("max: 100000000}", "max: 16}")
        + "options:\n  deck:\n    per_seat: true\n    default: a\n    values: [a, b, c, d, e, f, g, h]\n",
        encoding="utf-8",
    )
    r = madang("simulate", str(folder), "--option", "players=16", "--games", "3")
    assert r.returncode == 1 and "ways to give the seats their deck" in r.stderr, r.stderr


def test_replay_shows_escape_codes_from_a_log_as_text(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(
        '{"ruleset": "nowhere-\\u001b[2J", "format": "madang-log"}\n{"turn": 1, "player": 0}\n',
        encoding="utf-8",
    )
    r = madang("replay", str(log))
    assert "\x1b" not in r.stdout + r.stderr


def test_brackets_and_operators_in_strings_and_comments_do_not_count():
    """The depth guard and the unclosed-bracket hint read one scan of the text: brackets and
    operators inside a string or after `#` are not nesting (a string may hold any text)."""
    from madang.language.diagnostics import Diagnostics
    from madang.language.parser import MAX_DEPTH, Origin, parse_module
    from madang.language.syntax_errors import code_chars

    deep = "(" * (MAX_DEPTH + 5)
    text = f'define s = "{deep} \\" {"+" * 300}" # {deep}\ndefine t = [1, 2]\n'
    diags = Diagnostics()
    assert parse_module(text, Origin("strings.madang"), diags) is not None, diags.errors
    chars = "".join(ch for ch, _, _ in code_chars(text))
    assert chars == 'define s = " #\ndefine t = [1, 2]\n'
    unclosed = 'define u = ("(" + 1\n'
    diags = Diagnostics()
    assert parse_module(unclosed, Origin("u.madang"), diags) is None
    (error,) = diags.errors
    assert error.message == "'(' is never closed" and str(error.span) == "u.madang:1:12", error

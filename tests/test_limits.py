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
        "no decision within",
    ),
    "a verb calling itself": (dict(extra="verb f():\n    n += 1\n    f()", setup="f()"), "calls"),
    "a definition calling itself twice": (
        dict(extra="define d(k: number) = d(k + 1) + d(k + 1)", setup="n = d(0)"),
        "nested too deeply",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_play_ends_with_a_clean_rules_error(case, tmp_path):
    parts, says = CASES[case]
    folder = make(tmp_path / "atk", **parts)
    args = ["play", str(folder), "--seats", "first,first", "--max-decisions", "5"]
    if "ceiling" in case:  # the person running madang sets the ceiling; keep the test quick
        args += ["--max-work", "3000000"]
    r = madang(*args)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert says in r.stderr, r.stderr


def test_a_keyword_argument_evaluated_while_loading_has_a_budget(tmp_path):
    """`check` folds constant keyword arguments; a costly one is an error at its location."""
    card = "{name: A, type: unit, power: 1, text: 'pierce[count(range(100000) where count(range(100000)) > 0)]'}"
    folder = make(tmp_path / "atk", cards=f"cards:\n  - {card}")
    r = madang("check", str(folder))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "cards.yaml:3:" in r.stderr and "steps of work" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_the_ruleset_budget_is_kept_below_the_ceiling_given_on_the_command_line(tmp_path):
    folder = make(tmp_path / "atk", setup="while true:\n    n += 1")
    r = madang("play", str(folder), "--seats", "first,first", "--max-work", "1000")
    assert r.returncode == 1 and "no decision within 1,000 steps" in r.stderr, r.stderr
    r = madang("play", str(folder), "--seats", "first,first", "--max-work", "0")
    assert r.returncode == 2 and "--max-work" in r.stderr


def test_a_long_legal_game_is_not_a_hang():
    """The budget is per stretch between decisions: a game of many decisions by a player who
    always takes the first option ends by the decision limit, not as a rules error."""
    from madang.tools.simulate import simulate

    out = simulate("clash_of_decks", 2, seed=1, jobs=1, seats=["first", "first"])
    assert not out.get("errors"), out.get("errors")

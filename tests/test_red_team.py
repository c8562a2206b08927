"""#29, the second red-team pass: one regression test per finding outside the server.

Each hostile input is tiny; each command runs in a child process with a time limit, so that a
regression fails here instead of hanging the suite. Every case must end in a clean error (a
located diagnostic or a refusal, never a traceback) well within the limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

FIB = "define fib(k: number) = if k < 2 then k else fib(k - 1) + fib(k - 2)\n"

RULES = """\
{fib}kind unit:
    power: number{default}
keyword pierce[n: number]
keyword storm[n: number]{implied}
zone hand: per player, ordered, owner sees
zone deck: per player, ordered, hidden
counter n = 2
{extra}
action finish(x: number from [0]) in main:
    win you
setup:
    n = 2
    for p in players:
        create "A" in p.hand
flow:
    repeat until false:
        turn first(players):
            window main by first(players)
"""

DECKS = """\
options:
  deck: {default: d, per_seat: true}
decks:
  option: deck
  zone: deck
  files: [d.yaml]
"""


def make(folder: Path, default="", implied="", extra="", text="", decks=False, meta="") -> Path:
    """A small ruleset `atk` in `folder` with one card A; the arguments put a hostile
    expression where the red team found one."""
    folder.mkdir(parents=True, exist_ok=True)
    head = "name: atk\ntitle: {en: Attack}\nplayers: {min: 2, max: 2}\n"
    head += "files: [atk.madang]\ncards: [cards.yaml]\n" + meta
    if decks:
        head += DECKS
        (folder / "d.yaml").write_text("ruleset: atk\nname: d\ncards:\n  A: 1\n", encoding="utf-8")
    (folder / "ruleset.yaml").write_text(head, encoding="utf-8")
    rules = RULES.format(fib=FIB, default=default, implied=implied, extra=extra)
    (folder / "atk.madang").write_text(rules, encoding="utf-8")
    card = "  - name: A\n    type: unit\n    power: 1\n"
    if text:
        card += "    text: |\n" + textwrap.indent(text, "      ") + "\n"
    (folder / "cards.yaml").write_text(f"ruleset: atk\ncards:\n{card}", encoding="utf-8")
    return folder


def madang(*args: str, timeout: float = 60, cwd=None, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [sys.executable, "-m", "madang", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
        **kw,
    )


def clean(r: subprocess.CompletedProcess, code: int = 1) -> str:
    out = r.stdout + r.stderr
    assert r.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    return out


# ---------------------------------------------------------------- every evaluation is charged

# where a recursive definition was evaluated without a budget: (ruleset parts, file of the error)
CARRIERS = {
    "a field default": (dict(default=" = fib(60)"), "atk.madang:3:21"),
    "a keyword argument on a card": (dict(text="pierce[fib(60)]"), "cards.yaml:7:"),
    "an implied keyword's argument": (
        dict(implied=":\n    pierce[fib(60)]", text="storm[1]"),
        "atk.madang:6:",
    ),
    "a deck rule": (dict(extra='rule "r": fib(60) > 0', decks=True), "atk.madang:9:1"),
}


@pytest.mark.parametrize("case", list(CARRIERS))
def test_check_ends_with_a_located_budget_error(case, tmp_path):
    parts, where = CARRIERS[case]
    folder = make(tmp_path / "atk", **parts)
    t = time.monotonic()
    out = clean(madang("check", str(folder)))
    assert time.monotonic() - t < 30
    assert where in out and "definition fib" in out and "steps of work" in out, out


@pytest.mark.parametrize(
    "parts",
    [
        dict(text="cost put(this):\n    require fib(60) > 0",
             extra="action put(c: card from you.hand) in main:\n    n += 1"),
        dict(extra="action slow(x: number from [0]) in main:\n    require fib(60) > 0\n    n += 1"),
    ],
    ids=["a card's cost", "an action's require"],
)  # fmt: skip
def test_play_ends_with_a_budget_error_in_play(parts, tmp_path):
    folder = make(tmp_path / "atk", **parts)
    out = clean(madang("play", str(folder), "--seats", "first,first"))
    assert "definition fib" in out and "steps of work without a decision" in out, out


def test_play_with_cards_test_and_replay_are_bounded(tmp_path):
    """The same hostile field default through `play --cards`, `test` and `replay` of a log
    that names the folder."""
    folder = make(tmp_path / "atk", default=" = fib(60)")
    more = tmp_path / "more.yaml"
    more.write_text("ruleset: atk\ncards:\n  - {name: B, type: unit, power: 2}\n", "utf-8")
    out = clean(madang("play", str(folder), "--cards", str(more), "--seats", "first,first"))
    assert "steps of work" in out
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"ruleset: {folder}\nrule: x\nsteps:\n  - expect: {{over: true}}\n", "utf-8"
    )
    out = clean(madang("test", str(scenario)))
    assert "steps of work" in out
    log = tmp_path / "game.log"
    header = {"madang_log": 1, "ruleset": "atk", "ruleset_path": str(folder), "cards": [],
              "options": {}, "seed": 0, "from_decision": 0}  # fmt: skip
    log.write_text(json.dumps(header) + "\n" + json.dumps({"e": "turn"}) + "\n", "utf-8")
    r = madang("replay", str(log))
    assert "Traceback" not in r.stderr and "cannot load the ruleset" in r.stderr, r


def test_the_language_server_answers_a_deck_beside_a_hostile_ruleset(tmp_path):
    """The language server checks a deck file with its ruleset compiled: a hostile definition
    is a diagnostic, not a hang (the same Workspace the server uses, in a child process)."""
    folder = make(tmp_path / "atk", default=" = fib(60)", decks=True)
    mine = folder / "mine.yaml"
    mine.write_text("ruleset: atk\nname: mine\ncards:\n  A: 1\n", encoding="utf-8")
    code = (
        "import sys\nfrom pathlib import Path\nfrom madang.tools.lsp import Workspace\n"
        "for f in sys.argv[1:]:\n"
        "    for d in Workspace().analyse(Path(f)).diagnostics:\n"
        "        print(d.severity, d.span, d.message)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, str(mine), str(folder / "d.yaml")],
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stderr
    errors = [ln for ln in r.stdout.splitlines() if ln.startswith("error")]
    assert len(errors) == 2 and all("definition fib" in e for e in errors), r.stdout
    assert "already" not in r.stdout  # a ruleset's own deck is not loaded twice


def test_recursion_depth_is_an_error_not_a_crash(tmp_path):
    deep = "define deep(k: number) = if k == 0 then 0 else deep(k - 1) + 1\n"
    folder = make(tmp_path / "atk", extra=deep, default=" = deep(1000000)")
    out = clean(madang("check", str(folder)))
    assert "atk.madang:3:" in out and "nested too deeply" in out, out


@pytest.mark.parametrize(
    "setup, says",
    [
        ('let s = "ab"\nrepeat 60 times:\n    s = s + s', "joined with '+'"),
        ("let s = [1]\nrepeat 60 times:\n    s = s + s", "joined with '+'"),
        ("order xs from range(1000000)", "order"),
    ],
    ids=["doubling a text", "doubling a list", "order over a huge list"],
)
def test_built_values_are_charged_by_their_size(setup, says, tmp_path):
    folder = make(tmp_path / "atk")
    rules = (folder / "atk.madang").read_text(encoding="utf-8")
    body = textwrap.indent(setup, "    ")
    (folder / "atk.madang").write_text(rules.replace("    n = 2\n", body + "\n", 1), "utf-8")
    out = clean(madang("play", str(folder), "--seats", "first,first"))
    assert says in out and "steps of work" in out, out

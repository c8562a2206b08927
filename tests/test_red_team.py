"""#29, the second red-team pass: one regression test per finding outside the server.

Each hostile input is tiny; each command runs in a child process with a time limit, so that a
regression fails here instead of hanging the suite. Every case must end in a clean error (a
located diagnostic or a refusal, never a traceback) well within the limit.
"""

from __future__ import annotations

import json
import os
import signal
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


DEEP = "define deep(k: number) = if k == 0 then 0 else deep(k - 1) + 1\n"


@pytest.mark.parametrize(
    "command, parts, where",
    [
        ("check", dict(extra=DEEP, default=" = deep(1000000)"), "atk.madang:3:"),
        ("check", dict(extra=DEEP + 'rule "r": deep(1000000) > 0', decks=True), "atk.madang:10:"),
        ("play", dict(extra=DEEP + "action slow(x: number from [0]) in main:\n"
                      "    require deep(1000000) > 0\n    n += 1"), "definition deep"),
    ],
    ids=["a field default", "a deck rule", "an action's require"],
)  # fmt: skip
def test_recursion_depth_is_an_error_not_a_crash(command, parts, where, tmp_path):
    folder = make(tmp_path / "atk", **parts)
    args = ["--seats", "first,first"] if command == "play" else []
    out = clean(madang(command, str(folder), *args))
    assert where in out and "nested too deeply" in out, out


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


# ---------------------------------------------------------------- endless games, bounded flags

ENDLESS = """\
counter n = 0
action step(x: number from [0, 1]) in main:
    n += 1
flow:
    repeat until false:
        window main by first(players)
"""


def endless(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(
        "name: inf\ntitle: {en: Inf}\nplayers: {min: 2, max: 2}\nfiles: [inf.madang]\n", "utf-8"
    )
    (folder / "inf.madang").write_text(ENDLESS, encoding="utf-8")
    return folder


@pytest.mark.slow
def test_play_of_agents_alone_in_an_endless_game_stops_at_a_decision_cap(tmp_path):
    folder = endless(tmp_path / "inf")
    out = clean(madang("play", str(folder), "--seats", "first,first", timeout=120))
    assert "no end after 100,000 decisions" in out and "--max-decisions" in out, out
    r = madang("simulate", str(folder), "--seats", "first", "--games", "1", "--jobs", "1")
    assert r.returncode == 0 and "reached the decision limit" in r.stderr, r.stderr


def test_an_explicit_decision_cap_stops_play_without_an_error(tmp_path):
    folder = endless(tmp_path / "inf")
    r = madang("play", str(folder), "--seats", "first,first", "--max-decisions", "50")
    assert r.returncode == 0 and "stopped after 50 decisions" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "inf", "--games", "100000000000000000000000"],
        ["simulate", "inf", "--max-decisions", "-1"],
        ["play", "inf", "--max-decisions", "-1"],
        ["tournament", "inf", "--seats", "first,first", "--games", "0"],
        ["simulate", "inf", "--jobs", "100000"],
        ["bench", "inf", "--games", "99999999999999"],
        ["check", "inf", "--max-work", "10000000000000000000000"],
    ],
    ids=lambda a: " ".join(a[0:1] + a[2:3]),
)
def test_counts_out_of_range_are_refused(args):
    r = madang(*args)
    assert r.returncode == 2 and "out of range" in r.stderr, r.stderr


# ---------------------------------------------------------------- no output over an input


@pytest.fixture
def table(tmp_path):
    """A folder with a deck, a script for a scripted seat and a copy of a ruleset."""
    import shutil

    repo = Path(__file__).resolve().parents[1]
    shutil.copy(repo / "rulesets" / "clash_of_decks" / "decks" / "1.yaml", tmp_path / "d.yaml")
    (tmp_path / "script.txt").write_text("0\n", encoding="utf-8")
    shutil.copytree(repo / "rulesets" / "clash_of_decks", tmp_path / "clash")
    return tmp_path


@pytest.mark.parametrize(
    "args, says",
    [
        (["clash_of_decks", "--deck", "d.yaml", "--save", "d.yaml"], "--save d.yaml would write over --deck d.yaml"),
        (["clash_of_decks", "--deck", "d.yaml", "--log", "d.yaml"], "--log d.yaml would write over --deck d.yaml"),
        (["clash_of_decks", "--seats", "scripted:@script.txt,first", "--log", "script.txt"],
         "--log script.txt would write over --seats script.txt"),
        (["clash", "--log", "clash/rules.madang"], "would write over the ruleset's file"),
        (["clash", "--save", "clash/cards.yaml"], "would write over the ruleset's file"),
        (["clash_of_decks", "--deck", "d.yaml", "--save", "hard.yaml"], "--save hard.yaml would write over --deck d.yaml"),
    ],
    ids=["save over a deck", "log over a deck", "log over a script", "log over a ruleset's source",
         "save over a ruleset's cards", "save over a hard link to a deck"],
)  # fmt: skip
def test_an_output_over_an_input_is_refused_before_anything_is_written(table, args, says):
    os.link(table / "d.yaml", table / "hard.yaml")
    before = {p: p.read_bytes() for p in table.rglob("*") if p.is_file()}
    r = (
        madang("play", *args, "--seats", "first", cwd=table)
        if "--seats" not in args
        else (madang("play", *args, cwd=table))
    )
    out = clean(r, 2)
    assert says in out, out
    assert {p: p.read_bytes() for p in table.rglob("*") if p.is_file()} == before


def test_a_log_over_a_hard_link_to_the_save_it_resumes_is_refused(table):
    r = madang("play", "clash_of_decks", "--seats", "first", "--save", "g.json",
               "--max-decisions", "3", cwd=table)  # fmt: skip
    assert r.returncode == 0, r.stderr
    os.link(table / "g.json", table / "h.json")
    saved = (table / "g.json").read_bytes()
    r = madang("play", "--load", "g.json", "--log", "h.json", "--seats", "first", cwd=table)
    assert "--log h.json would write over --load g.json" in clean(r, 2)
    assert (table / "g.json").read_bytes() == saved


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_a_human_game_stopped_by_a_signal_is_saved(sig, tmp_path):
    folder = endless(tmp_path / "inf")
    save = tmp_path / "g.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    p = subprocess.Popen(
        [sys.executable, "-m", "madang", "play", str(folder), "--seats", "human,first",
         "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "P1" not in (p.stdout.readline() or "P1") and time.monotonic() < deadline:
            pass  # until the game asks the person at the table
        p.send_signal(getattr(signal, sig))
        _, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert f"stopped by {sig}" in err and save.is_file(), err
    r = madang("play", "--load", str(save), "--seats", "first", "--max-decisions", "1")
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------- accepted but wrong


def _save() -> dict:
    from madang.game.api import new_game

    g = new_game("clash_of_decks", seed=3)
    for _ in range(6):
        g.apply_action(0)
    return json.loads(g.to_json())


# hand edits that the engine would have played on (each keeps the save's shape)
SAVE_EDITS = {
    "a winner while the game goes on": (
        lambda s: s.__setitem__("winners", [0]),
        "state.winners: the game has winners but is not over",
    ),
    "a winner who also lost": (
        lambda s: s.update(winners=[0], lost=[0], over=True, pending=None),
        "state.winners[0]: player 0 has also lost",
    ),
    "no decision and not over": (
        lambda s: s.__setitem__("pending", None),
        "neither over nor waiting for a decision",
    ),
    "a property of no object": (
        lambda s: s["props"].setdefault("power", []).append([10**6, 3]),
        "no object 1000000",
    ),
    "a modifier from the future": (
        lambda s: s["mods"].append([0, "power", 1, "turn", 10**9, "add"]),
        "timestamp 1000000000",
    ),
    "an object from no zone": (
        lambda s: s["objects"]["from"].__setitem__(0, 10**6),
        "state.objects.from[0]: no zone",
    ),
}


@pytest.mark.parametrize("edit", list(SAVE_EDITS))
def test_an_impossible_save_is_refused(edit):
    from madang.game.api import GameState, MadangError

    change, says = SAVE_EDITS[edit]
    doc = _save()
    change(doc["state"])
    with pytest.raises(MadangError, match="corrupt save file") as e:
        GameState.from_json(json.dumps(doc))
    assert says in str(e.value)


def test_saves_of_every_bundled_ruleset_still_load():
    """The checks above refuse no state the engine writes: saves taken along random games."""
    import random

    from madang.build.loader import bundled_names
    from madang.game.api import GameState, new_game

    for name in bundled_names():
        g, rng = new_game(name, seed=1), random.Random(1)
        for k in range(120):
            if k % 15 == 0 or g.is_terminal():
                GameState.from_json(g.to_json())
            if g.is_terminal():
                break
            g.apply_action(rng.randrange(len(g.legal_actions())))


def test_a_control_character_in_a_card_name_is_a_located_error(tmp_path):
    folder = make(tmp_path / "atk")
    cards = (folder / "cards.yaml").read_text(encoding="utf-8")
    (folder / "cards.yaml").write_text(cards.replace("name: A", 'name: "A\\e[2J"'), "utf-8")
    out = clean(madang("check", str(folder)))
    assert "cards.yaml:3:11" in out and "control character \\x1b" in out, out
    assert "\x1b" not in out


def test_min_players_above_max_is_a_located_error(tmp_path):
    folder = make(tmp_path / "atk")
    meta = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    (folder / "ruleset.yaml").write_text(meta.replace("{min: 2,", "{min: 5,"), "utf-8")
    out = clean(madang("check", str(folder)))
    assert "ruleset.yaml:3:16" in out and "min 5 is above max 2" in out, out


@pytest.mark.parametrize("kind", ["cards", "deck"])
def test_an_unknown_ruleset_in_a_card_file_is_located_at_its_line(kind, tmp_path):
    f = tmp_path / "x.yaml"
    body = "cards:\n  - {name: A}\n" if kind == "cards" else "name: d\ncards:\n  A: 1\n"
    f.write_text("# a comment\nruleset: nosuch\n" + body, encoding="utf-8")
    out = clean(madang("check", str(f)))
    assert "x.yaml:2:10: error: unknown ruleset 'nosuch'" in out, out


def test_the_first_line_of_a_file_that_is_no_source_is_never_shown(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-FIRST-LINE:x:0:0\n", encoding="utf-8")
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "ruleset.yaml").symlink_to(secret)
    out = clean(madang("check", str(folder)))
    assert "outside the ruleset folder" in out and "SECRET" not in out, out
    # a save whose `cards` names it
    doc = _save()
    doc["cards"] = [str(secret)]
    save = tmp_path / "g.json"
    save.write_text(json.dumps(doc), encoding="utf-8")
    out = clean(madang("play", "--load", str(save)))
    assert "secret.txt" in out and "SECRET" not in out, out


CRAFTED = [
    "[1, 2, 3]",
    '{"move": 5, "to": ["x"]}',
    '{"turn": "abc", "player": {"a": 1}}',
    '{"event": 7, "args": 9}',
    '{"decision": "Play?", "player": 99, "choice": "x"}',
    '{"game_over": [5]}',
    '{"phase": ["x"]}',
]


def test_crafted_replay_lines_are_refused_at_their_line(tmp_path):
    log = tmp_path / "game.log"
    r = madang("play", "clash_of_decks", "--seats", "random", "--log", str(log),
               "--max-decisions", "5")  # fmt: skip
    assert r.returncode == 0, r.stderr
    real = log.read_text(encoding="utf-8").splitlines()
    assert madang("replay", "-v", str(log)).returncode == 0
    for line in CRAFTED:
        log.write_text("\n".join([real[0], real[1], line, *real[2:]]) + "\n", "utf-8")
        r = madang("replay", str(log))
        out = clean(r)
        assert "game.log:3:1: not a line madang writes" in out, (line, out)
        assert "1 unreadable line" in out

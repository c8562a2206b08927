"""Issue #34: a window whose `by` is a plain local name reads its players from the frame's
environment (`Window.by_name`, set by the compiler) instead of calling the expression's
function; any other `by` (a definition, `you`, one kept by what it reads) is found as before.
Seeded random games play the same with every window's `by` computed (`test_window_solo.play`:
the options at every decision and the end state's digest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from madang.game.api import load_program
from madang.runtime import engine as E
from test_window_solo import play

RULES = """\
counter score: per player = 0
define leader = first(players where it.score >= 0)
flow:
    repeat 3 times:
        for p in players:
            turn p:
                window main by p
                let both = [p, first(opponents(p))]
                window all by both
                window lead by leader
action poke(n: number from [1, 2]) in main, all, lead:
    require you.score < 9
    you.score += n
action nudge in all:
    require you.score < 12
    you.score += 3
"""


def ruleset(tmp_path: Path) -> str:
    (tmp_path / "by.madang").write_text(RULES, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: byname\ntitle: {en: By name}\nplayers: 2\nfiles: [by.madang]\n", encoding="utf-8"
    )
    return str(tmp_path)


def windows_of(prog) -> dict[str, E.Window]:
    return {s.name: s for s in prog.stmts if isinstance(s, E.Window)}


def test_only_a_plain_local_name_is_read_from_the_environment(tmp_path):
    ws = windows_of(load_program(ruleset(tmp_path)))
    assert ws["main"].by_name == "p" and ws["all"].by_name == "both"
    assert ws["lead"].by_name is None  # a definition: its function (or kept)
    clash = windows_of(load_program("clash_of_decks"))
    assert all(w.by_name == "p" for w in clash.values())


@pytest.mark.parametrize("name", ["small", "clash_of_decks"])
def test_windows_by_a_local_name_play_as_with_by_computed(tmp_path, monkeypatch, name):
    prog = load_program(ruleset(tmp_path) if name == "small" else name)
    read = play(prog, range(4))
    named = [w for w in windows_of(prog).values() if w.by_name is not None]
    assert named
    for w in named:  # every window's `by` through its function (restored after)
        monkeypatch.setattr(w, "by_name", None)
    assert play(prog, range(4)) == read

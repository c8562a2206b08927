"""Issue #34: a window's `by` that reads only counters, the players out and the turn order
(build/depends.py `fixed_reads`) is kept per game with what it read (`Game.domains`, under its
text) and found again only when one of those changed (engine.Window.exec). The suite's
`verify_checks` evaluates `by` at every window and fails on a difference."""

from __future__ import annotations

import pytest
from madang.game.api import load_program, new_game
from madang.runtime import engine as E
from madang.runtime.program import Program
from minirules import write_ruleset
from playthrough import windows

RULES = """
counter lead = 0
counter bumps = 0
zone pile: per player, ordered, owner sees
kind unit:
    hp: number

define seating = if lead == 0 then players else reversed(players)
define holders = players where count(it.pile) > 0

action swap in w:
    lead = 1 - lead
action bump in w:
    require bumps < 3
    bumps += 1

flow:
    repeat until false:
        window w by seating
        window h by holders
"""


def kept_windows(prog) -> dict[str, E.Window]:
    return {s.name: s for s in prog.stmts if isinstance(s, E.Window)}


def test_what_a_window_by_reads_decides_whether_it_is_kept(tmp_path):
    prog = load_program(write_ruleset(tmp_path, RULES, "cards: [{name: A, type: unit, hp: 1}]\n"))
    ws = kept_windows(prog)
    assert ws["w"].by_read is not None  # counters and the players out only
    assert ws["h"].by_read is None  # it reads a zone
    got = load_program("game_of_thrones_2p")
    assert all(w.by_read is not None for w in kept_windows(got).values())  # `by 순서`
    clash = load_program("clash_of_decks")
    assert all(w.by_read is None for w in kept_windows(clash).values())  # `by p`: a local name


@pytest.mark.parametrize("verify", [False, True])
def test_a_counter_the_players_order_reads_finds_it_again(tmp_path, monkeypatch, verify):
    """Without the suite's check (`verify` false) the kept order is what the game uses: the
    first player of each window follows `lead` (it fails if `lead` is left out of the key)."""
    prog = load_program(write_ruleset(tmp_path, RULES, "cards: [{name: A, type: unit, hp: 1}]\n"))
    monkeypatch.setattr(Program, "verify_checks", verify)
    g = new_game(prog, {}, seed=1)
    st = g.st

    def answer(label: str) -> None:
        g.apply_action(g.action_labels().index(label))

    for opener in (0, 1, 0, 1):  # each window: its first player swaps, the other passes
        assert st.pending.kind == "window" and g.current_player() == opener
        answer("swap")
        assert g.current_player() == 1 - opener
        answer("pass")
        answer("pass")
    assert st.counters["lead"] == 0 and g.current_player() == 0
    for opener in (0, 0):  # a counter `by` does not read: the order kept, the same
        answer("bump")
        answer("pass")
        answer("pass")
        assert g.current_player() == opener
    keys = [k for k in st.g.domains if k[0] == "by"]
    assert len(keys) == 1  # one kept point per text of `by`, found again as `lead` changes


@pytest.mark.parametrize("name", ["game_of_thrones_2p"])
def test_the_kept_players_are_those_of_by_at_every_window(name, monkeypatch):
    """Seeded random games, with the suite's check off: at every decision of a window whose
    `by` is kept, the window's players are what `by` gives there (a fresh evaluation)."""
    prog = load_program(name)  # (compiled as the suite plays: conftest.py)
    monkeypatch.setattr(Program, "verify_checks", False)
    seen = 0
    for seed in range(4):
        for st, w, _ in windows(prog, seed):
            if w.by_read is not None:
                fr = st.frames[-1]
                by = w.by(st, fr.env)
                assert fr.items == (by if isinstance(by, list) else [by])
                seen += 1
    assert seen > 100

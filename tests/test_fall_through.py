"""#34: a section whose last jump goes to a later section falls through the tests of the
sections between (build/resumable.py `fall_through`) instead of going back to the first test:
the same games, state for state, work and steps, as with every jump going back."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

# a loop whose body branches forward (past a choice) and back (the next round), and an `elif`
RULES = """\
counter total = 0
counter rounds = 0
flow:
    repeat 3 times:
        for x in [1, 2, 3, 4]:
            if total > 6:
                choose d from [1, 2] by first(players) "d"
                total += d
            elif x == 2:
                total += 1
            else:
                total += x
            rounds += 1
        choose e from [1, 2] by first(players) "e"
        total += e
"""


def _flow_code(prog) -> str:
    return prog.blocks[prog.flow_block][0].fn.generated


def _closing_jumps(code: str) -> list[tuple[int, int, bool]]:
    """Each section's last `pc = T` at its level: (section, T, followed by `continue`)."""
    out, section, lines = [], -1, code.split("\n")
    for k, x in enumerate(lines):
        head = x.strip()
        if head.startswith("if pc == "):
            section = int(head[9:-1])
        elif head.startswith("pc = ") and section >= 0:
            nxt = lines[k + 1].strip() if k + 1 < len(lines) else ""
            out.append((section, int(head[5:]), nxt == "continue"))
    return out


def test_forward_jumps_fall_through_and_play_the_same(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "FALL_THROUGH", False, monkeypatch)
    jumps = _closing_jumps(_flow_code(fast))
    # forward jumps without their `continue`; every jump back keeps its own
    assert any(t > k and not cont for k, t, cont in jumps)
    assert all(cont for k, t, cont in jumps if t <= k)
    assert _flow_code(fast).count("continue") < _flow_code(general).count("continue")
    for seed in range(8):
        assert decision_steps(fast, seed) == decision_steps(general, seed)


def test_a_branch_keeps_continue_in_the_arms_that_go_back():
    code = "\n".join(
        [
            "def f(st, fr, pc):",
            "    while True:",
            "        if pc == 0:",
            "            st.append(0)",
            "            pc = 1",
            "        if pc == 1:",
            "            st.append(1)",
            "            if len(st) > 6:",
            "                pc = 3",
            "            elif len(st) % 3 == 0:",
            "                pc = 0",
            "            else:",
            "                pc = 2",
            "            continue",
            "        if pc == 2:",
            "            st.append(2)",
            "            pc = 1",
            "            continue",
            "        if pc == 3:",
            "            st.append(3)",
            "            return st",
            "        raise RulesError(f'no section {pc}')",
            "",
        ]
    )
    moved = resumable.fall_through(code)
    lines = moved.split("\n")
    assert lines[10:12] == ["                pc = 0", "                continue"]
    assert "            continue" not in lines[8:15]  # the branch's own: gone
    runs = []
    for text in (code, moved):
        ns: dict = {"RulesError": RuntimeError}
        exec(text, ns)
        runs.append(ns["f"]([], None, 0))
    assert runs[0] == runs[1] == [0, 1, 2, 1, 2, 1, 0, 1, 3]  # every arm taken


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "game_of_thrones_2p"])
def test_fall_through_plays_the_bundled_games_as_jumps_back(ruleset, monkeypatch):
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "FALL_THROUGH", False, monkeypatch)
    for seed in range(2):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

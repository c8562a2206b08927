"""#34: a generated block of many sections finds a section through its group's range
(build/resumable.py `dispatched`), not by testing every section before it in turn: the same
games, state for state, work and steps, as with the sections tested in turn."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

# a loop at the end of a long block: each round jumps back past the sections before it
RULES = """\
counter total = 0
counter rounds = 0
flow:
    repeat 3 times:
        choose a from [1, 2] by first(players) "a"
        total += a
        choose b from [1, 2] by first(players) "b"
        total += b
        choose c from [1, 2] by first(players) "c"
        total += c
        for x in [1, 2, 3, 4, 5, 6]:
            total += x
            if total > 40:
                choose d from [1, 2] by first(players) "d"
                total += d
            rounds += 1
        choose e from [1, 2] by first(players) "e"
        total += e
"""


def _flow_code(prog) -> str:
    return prog.blocks[prog.flow_block][0].fn.generated


def test_a_long_block_finds_its_sections_by_group(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="dg")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "DISPATCH_GROUPS", False, monkeypatch)
    assert "        if pc < " in _flow_code(fast) and " if pc < " not in _flow_code(general)
    ends = set()
    for seed in range(8):
        a = decision_steps(fast, seed)
        assert a == decision_steps(general, seed)
        ends.add(a[-1][4]["rounds"])
    assert ends == {18}


def test_grouping_keeps_every_section_in_order():
    code = "\n".join(
        ["def f(st, fr, pc):", "    while True:"]
        + [x for k in range(20) for x in (f"        if pc == {k}:", f"            pc = {k + 1}")]
        + ["        raise RulesError('no section')", ""]
    )
    grouped = resumable.dispatched(code)
    assert grouped.count("        if pc < ") == 4  # groups of 4 (the square root of 20)
    assert [x.strip() for x in grouped.split("\n") if "pc ==" in x] == [
        x.strip() for x in code.split("\n") if "pc ==" in x
    ]
    ns: dict = {"RulesError": RuntimeError}
    exec(grouped, ns)  # each section from any start runs on to the end
    with pytest.raises(RuntimeError):
        ns["f"](None, None, 7)


@pytest.mark.parametrize("ruleset", ["nivel_arena", "game_of_thrones_2p", "cthulhu_wars"])
def test_grouped_sections_play_the_bundled_games_as_in_turn(ruleset, monkeypatch):
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "DISPATCH_GROUPS", False, monkeypatch)
    for seed in range(2):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

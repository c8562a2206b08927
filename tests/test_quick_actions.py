"""#34: an action taken in a window runs its block's frameless copy (build/resumable.py
`action_quick`, engine.start_action), which makes the action's frame only where the block
waits. The frame made late must be the one `start_action` pushed at once: the same states
(frames, their `pc` and names), work and steps at every decision, also when a check's frames
or a choice leave it in place, and when the game ends inside the action or at its end."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program, new_game
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

RULES = """\
counter total = 0
counter fired = 0
counter rounds = 0

# never waits
action add(x: number from [1, 2]) in act:
    total += x

# waits on one branch only (a choice), then goes on
action ask(x: number from [3, 4]) in act:
    total += x
    if x > 3:
        choose y from [1, 2] by you "y"
        total += y
    total += 1

# the game may end at the block's end, or in its middle (then it stops there)
action finish(x: number from [5]) in act:
    require total > 30
    total += 100
    if rounds > 7:
        win you
        total += 1000
    total += x

# leaves through a `require` in its body: keeps its frame (no copy)
action leave(x: number from [6]) in act:
    total += 1
    require total < 25
    total += x

# a check that waits fires in the middle of an action: its frame goes under the check's
check big if total >= 20 and fired == 0:
    fired += 1
    choose z from [5, 6] by first(players) "z"
    total += z

flow:
    repeat 12 times:
        rounds += 1
        for p in players:
            turn p:
                window act by p
"""


def _copies(prog) -> dict[str, bool]:
    return {a.name: a.quick is not None for a in prog.actions}


def test_frameless_actions_leave_the_frames_start_action_leaves(tmp_path, monkeypatch):
    folder = write_ruleset(tmp_path, RULES, "cards: []\n", name="qa")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "QUICK_ACTIONS", False, monkeypatch)
    assert _copies(fast) == {"add": True, "ask": True, "finish": True, "leave": False}
    assert not any(_copies(general).values())  # the general code, really
    ask = next(a for a in fast.actions if a.name == "ask")
    assert "_quick_sink(" in ask.quick.generated and "_ask_m" in ask.quick.generated
    over = 0
    for seed in range(16):
        a, b = decision_steps(fast, seed), decision_steps(general, seed)
        assert a == b
        over += a[-1][3]
    assert over > 0  # some games ended inside `finish`
    g = new_game(fast, seed=0, memory=False)
    stop = next(a.id for a in fast.actions if a.name == "finish")
    while not g.st.over:  # `add` up to 31, then pass until `finish` wins
        values, st = g.st.pending.values, g.st
        won = [k for k, v in enumerate(values) if isinstance(v, list) and v[0] == stop]
        if won and st.counters["rounds"] > 7:
            g.apply_action(won[0])
        else:
            small = st.counters["total"] <= 31 and st.pending.kind == "window"
            g.apply_action(0 if small else len(values) - 1)
    # the game ended inside `finish` (`win`, then no more), and its frame stayed, as it did
    assert 100 < g.st.counters["total"] < 1000 and g.st.frames
    assert g.st.frames[-1].block == fast.actions[stop].body


def test_an_action_whose_block_ends_the_game_leaves_its_frame(tmp_path, monkeypatch):
    """The block ended at its last statement as the game did: the framed run leaves its
    ended frame on top (start_action does not pop it), and so must the copy's caller."""
    rules = (
        "counter n = 0\n\n"
        "action stop(x: number from [1]) in act:\n"
        "    n += x\n"
        "    win you\n\n"
        "flow:\n    for p in players:\n        turn p:\n            window act by p\n"
    )
    folder = write_ruleset(tmp_path, rules, "cards: []\n", name="qe")
    fast = load_program(folder)
    general = compiled_with(folder, resumable, "QUICK_ACTIONS", False, monkeypatch)
    assert _copies(fast) == {"stop": True}
    for seed in range(3):
        a, b = decision_steps(fast, seed), decision_steps(general, seed)
        assert a == b and a[-1][3]
    g = new_game(fast, seed=0, memory=False)
    g.apply_action(0)
    assert g.st.over and g.st.frames[-1].block == fast.actions[0].body


@pytest.mark.parametrize(
    "ruleset,seeds",
    [("clash_of_decks", 4), ("nivel_arena", 1), ("game_of_thrones_2p", 1), ("cthulhu_wars", 1)],
)
def test_frameless_actions_play_the_bundled_games_as_before(ruleset, seeds, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    general = compiled_with(ruleset, resumable, "QUICK_ACTIONS", False, monkeypatch)
    assert any(_copies(fast).values()) and not any(_copies(general).values())
    for seed in range(seeds):
        assert decision_steps(fast, seed) == decision_steps(general, seed)

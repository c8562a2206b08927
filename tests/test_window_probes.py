"""#34: a window of one named player in rules without state checks is written into the
generated section that reaches it (build/resumable.py `WINDOW_PROBES`, `_Emitter.probe`): its
options found there as `Window.exec` finds them (one action's enumerator, or the window's
listing), nothing more where it offers nothing, else its question asked by `Window.offer`;
any other case runs `exec`. The same states, work and steps at every decision as with every
window run by its `exec`: a window of one action and one of two, offering nothing, one option
or several, with `pass if`, `once`, a window by a list of players, and inside a verb's
frameless copy and a flow's framed block."""

from __future__ import annotations

import pytest
from madang.build import resumable
from madang.game.api import load_program
from minirules import write_ruleset
from playthrough import compiled_with, decision_steps

RULES = """\
counter total = 0
counter rounds = 0

action add(x: number from [1, 2]) in act:
    total += x
    if total > 90:
        win you

action big(x: number from [3, 4]) in act:
    require total > 5
    total += x

action one_more() in lone:
    require total % 3 == 0
    total += 1

# windows of one named player: two actions, one action with none or one option, `pass if`
verb play(p: player, k: number):
    let first_k = k + 1
    phase acting:
        window act by p
        total += first_k
    window lone by p
    if k > 3:
        window act by p pass if total > 30
    window lone by p once

# a window by a list of players (run by its exec)
verb all_of(k: number):
    let them = players
    if k % 2 == 0:
        window lone by them

flow:
    repeat 8 times:
        rounds += 1
        for p in players:
            play(p, rounds)
            window lone by p
        all_of(rounds)
"""

CHECK = "\ncheck many if total > 40 and rounds < 100:\n    rounds += 100\n"


def _generated(prog) -> str:
    """The generated Python of every block function of the flow's and the verbs' blocks."""
    fns = prog.blocks[prog.flow_block][0].fn.__globals__
    texts = [getattr(v, "generated", "") for v in fns.values() if callable(v)]
    texts += [v[0].generated for k, v in fns.items() if k.startswith("_") and "_q_" in k]
    return "\n".join(t for t in texts if t)


@pytest.mark.parametrize("extra", ["", CHECK])
def test_probed_windows_play_as_their_exec(tmp_path, monkeypatch, extra):
    folder = write_ruleset(tmp_path, RULES + extra, "cards: []\n", name="probes")
    fast = load_program(folder)
    plain = compiled_with(folder, resumable, "WINDOW_PROBES", False, monkeypatch)
    assert ".offer(" not in _generated(plain)
    # (with a state check every window runs its exec: the check may run between its steps)
    assert (".offer(st, _Env(env=env)" in _generated(fast)) == (not extra)
    assert (".offer(st, fr," in _generated(fast)) == (not extra)
    for seed in range(8):
        assert decision_steps(fast, seed) == decision_steps(plain, seed)


@pytest.mark.parametrize("ruleset", ["clash_of_decks", "cthulhu_wars"])
def test_probed_windows_play_the_bundled_games_as_their_exec(ruleset, monkeypatch):
    """The same states, work and steps at every decision of seeded random games."""
    fast = load_program(ruleset)
    plain = compiled_with(ruleset, resumable, "WINDOW_PROBES", False, monkeypatch)
    assert ".offer(" in _generated(fast) and ".offer(" not in _generated(plain)
    for seed in range(2 if ruleset == "clash_of_decks" else 1):
        assert decision_steps(fast, seed) == decision_steps(plain, seed)

"""Issue #34: a rules' own action with a `once per` limit and no additional cost is listed by
`engine.enumerate_actions` itself (its enumerator called with the window's shared names, its
limit tested once, the arguments whose limit is used up found once per listing), not through
`ActionRT.enumerate`. The options are those of the general listing
(tests/test_window_listing.py's `reference_enumerate`) at every window, those with limits used
included, and the path is the one taken."""

from __future__ import annotations

from pathlib import Path

import pytest
from madang.game.api import load_program, new_game
from madang.runtime.program import ActionRT
from playthrough import windows
from test_window_listing import general_listing

RULES = """\
counter score: per player = 0
flow:
    repeat 2 times:
        phase market/시장:
            repeat 2 times:
                for p in players:
                    turn p:
                        window main by p
action jab(n: number from [1, 2, 3]) in main once per turn per n:
    you.score += n
action bank in main once per 시장:
    you.score += 1000
action kick in main:
    you.score += 5
"""


def ruleset(tmp_path: Path) -> str:
    (tmp_path / "limits.madang").write_text(RULES, encoding="utf-8")
    (tmp_path / "ruleset.yaml").write_text(
        "name: limited\ntitle: {en: Limited}\nplayers: 2\nfiles: [limits.madang]\n",
        encoding="utf-8",
    )
    return str(tmp_path)


def test_a_rules_limited_action_is_listed_without_its_general_path(tmp_path, monkeypatch):
    def general(*_a, **_k):
        raise AssertionError("ActionRT.enumerate called for a rules' own limited action")

    monkeypatch.setattr(ActionRT, "enumerate", general)
    g = new_game(ruleset(tmp_path), {}, seed=1)
    assert g.action_labels() == ["jab 1", "jab 2", "jab 3", "bank", "kick", "pass"]
    g.apply_label("jab 2")  # per argument: jab 2 used up this turn, jab 1 and 3 not
    assert g.action_labels() == ["jab 1", "jab 3", "bank", "kick", "pass"]
    g.apply_label("bank")  # once per phase: gone until the phase ends
    g.apply_label("jab 3")
    assert g.action_labels() == ["jab 1", "kick", "pass"]
    g.apply_label("pass")  # the next player's turn: their own limits
    assert g.action_labels() == ["jab 1", "jab 2", "jab 3", "bank", "kick", "pass"]
    g.apply_label("pass")  # the first player's second turn: jab again, bank still used
    assert g.action_labels() == ["jab 1", "jab 2", "jab 3", "kick", "pass"]


def test_options_with_limits_used_are_those_of_the_general_listing(tmp_path):
    prog = load_program(ruleset(tmp_path))
    checked = used = 0
    for seed in range(10):
        for st, w, got in windows(prog, seed):
            assert got == general_listing(st, w.actions, st.pending.player), f"seed {seed}"
            checked += 1
            used += bool(st.used)
    assert checked > 0 and used > checked // 2


@pytest.mark.parametrize("name", ["cthulhu_wars"])
def test_a_bundled_rulesets_limits_per_argument_are_left_out_as_in_general(name):
    """Cthulhu Wars' battles, once per area per turn (`as battle` shared with the unlimited
    one), and its actions once per turn: compared where some limit is used."""
    prog = load_program(name)
    limited = [a for a in prog.actions if a.origin == "global" and a.limit is not None]
    assert any(a.limit_by is not None for a in limited)
    used = 0
    for seed in range(6):
        for st, w, got in windows(prog, seed):
            if st.used and any(a in limited for a in w.actions):
                assert got == general_listing(st, w.actions, st.pending.player), f"seed {seed}"
                used += 1
    assert used > 0


def test_a_listing_leaves_the_windows_shared_names_as_they_were(tmp_path):
    """The limited actions' enumerators share the window's names with the others (each takes
    its parameters out when it ends): after each, only `you` is there."""
    prog = load_program(ruleset(tmp_path))
    limited = [a for a in prog.actions if a.limit is not None]
    saved = {a: a.fast_enum for a in limited}
    envs: list = []

    def spying(fast):
        def spy(st, env, src, values, cache):
            fast(st, env, src, values, cache)
            envs.append(dict(env))

        return spy

    try:
        for a in limited:
            a.fast_enum = spying(saved[a])
        players = set()
        for seed in range(3):
            for st, _w, _got in windows(prog, seed):
                players.add(st.pending.player)
    finally:
        for a in limited:
            a.fast_enum = saved[a]
    assert envs and all(set(e) == {"you"} for e in envs)
    assert players == {0, 1}

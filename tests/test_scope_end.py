"""#34: a scope's end (`turn`, `round`, `phase`: engine.ScopeStmt.at_end) with nothing lasting
until it (no modifier, grant or use of a limit) only restores the phase, without the filters
of the modifiers, grants and limits used. It must play the bundled games as the general end,
written out here as it was (the same states, work and steps at every decision)."""

from __future__ import annotations

import random

import pytest
from madang.game import api
from madang.game.api import load_program, new_game
from madang.runtime import engine as E


def general_at_end(self, st, fr):
    """ScopeStmt.at_end's general way, for every scope's end."""
    names = self.names
    other = E.turn_of(st.active) if self.kind == "turn" else self.name
    mods, grants = st.mods, st.grants
    if mods:
        st.mods = [m for m in mods if m[3] not in names and m[3] != other]
    if grants:
        st.grants = [m for m in grants if m[2] not in names and m[2] != other]
        E.forget_kept(st, "grants")
    if len(st.mods) != len(mods) or len(st.grants) != len(grants):
        st.dirty |= st.g.prog.expire_checks
    if st.used:
        st.used = [u for u in st.used if u[2] not in names]
    if self.kind == "phase":
        st.phase = fr.extra["phase"]
    return False


def _steps(prog, seed: int) -> list:
    g = new_game(prog, seed=seed, memory=False)
    rng, seen = random.Random(seed), []
    while not g.st.over and len(seen) < 300:
        seen.append((g.digest(), g.st.work, g.st.steps, g.st.phase))
        g.apply_action(rng.randrange(len(g.st.pending.values)))
    return seen


@pytest.mark.parametrize(
    "ruleset", ["clash_of_decks", "nivel_arena", "game_of_thrones_2p", "cthulhu_wars"]
)
def test_a_scopes_short_end_plays_the_bundled_games_as_the_general_one(ruleset, monkeypatch):
    prog = load_program(ruleset)
    fast = [_steps(prog, seed) for seed in range(3)]
    monkeypatch.setattr(E.ScopeStmt, "at_end", general_at_end)
    assert [_steps(prog, seed) for seed in range(3)] == fast


def test_a_scopes_end_still_ends_what_lasts_until_it(tmp_path):
    """With a limit used in the phase, the general way runs: the limit is free again after the
    phase, and the phase's name is the outer one again."""
    (tmp_path / "ruleset.yaml").write_text(
        "name: se\ntitle: {en: se}\nplayers: 2\nfiles: [r.madang]\n", encoding="utf-8"
    )
    (tmp_path / "r.madang").write_text(
        "counter n = 0\n\n"
        "flow:\n"
        "    repeat 2 times:\n"
        "        phase main:\n"
        "            window main by first(players)\n\n"
        "action tick in main once per main:\n"
        "    n += 1\n",
        encoding="utf-8",
    )
    g = api.new_game(load_program(str(tmp_path)), seed=1, memory=False)
    for _ in range(2):  # tick offered again: the use in the phase before ended with it
        assert g.st.phase == "main" and len(g.st.pending.values) == 2
        g.apply_action(next(k for k, v in enumerate(g.st.pending.values) if v != E.DONE))
    # (after each tick only pass is left: taken at once, the phase ends with a limit used)
    assert g.st.over and g.st.counters["n"] == 2 and not g.st.used
    assert g.st.phase != "main"  # the outer phase's name again

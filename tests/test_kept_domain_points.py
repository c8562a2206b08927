"""A state check over a domain kept by its zones (engine._kept_domain) is run by `run_checks`
from its kept point in place, and a domain found empty fires nothing without `fire_over`
(issue #34: Nivel Arena's item check is due at most check points, its domain empty at most
of them). Under the tests each kept domain is also compared with the one found afresh
(`Program.verify_checks`, conftest.py)."""

import random

from madang.game.api import load_program, new_game
from madang.runtime import engine as E


def test_an_empty_kept_domain_is_not_handed_to_fire_over(monkeypatch):
    """Random games of Nivel Arena: `fire_over` is never given an empty domain (it is given the
    items when there are some; what the check does is kept by the digests' games)."""
    prog = load_program("nivel_arena")
    assert any(c.zoned and c.domain_zones for c in prog.checks)
    calls = {"items": 0, "empty": 0}
    fire_over = E.Check.fire_over

    def counted(self, st, items):
        calls["items"] += 1
        calls["empty"] += not items
        return fire_over(self, st, items)

    monkeypatch.setattr(E.Check, "fire_over", counted)
    for seed in range(4):
        g = new_game(prog, seed=seed, memory=False)
        rng = random.Random(seed)
        while not g.st.over:
            g.apply_action(rng.randrange(len(g.st.pending.values)))
    assert calls["items"] > 0 and calls["empty"] == 0

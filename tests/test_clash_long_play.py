"""Clash of Decks: 500 random games of each mode and format end without an error (issue 4)."""

import pytest
from madang.simulate import simulate

MODES = {
    "duel-quick": {},
    "duel-draft": {"format": "draft"},
    "duel-instant": {"format": "instant"},
    "solo-quick": {"mode": "solo"},
    "solo-draft": {"mode": "solo", "format": "draft"},
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_five_hundred_random_games_end_cleanly(mode):
    r = simulate("clash_of_decks", 500, seed=11, jobs=2, options=MODES[mode], max_decisions=5000)
    assert r["errors"] == {} and r["unfinished"] == 0
    assert r["finished"] == 500
    assert sum(s["wins"] for s in r["seats"]) + r["draws"] + r["no_winner"] == 500

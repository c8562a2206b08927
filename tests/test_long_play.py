"""Long random play: many games of every bundled ruleset, each mode, end without an error and
with a result (issues 4–7: "a test that plays N random games to the end without an error")."""

import pytest
from madang.tools.simulate import simulate

RUNS = {
    # name: (ruleset, options, games)
    "clash-duel-quick": ("clash_of_decks", {}, 500),
    "clash-duel-draft": ("clash_of_decks", {"format": "draft"}, 500),
    "clash-duel-instant": ("clash_of_decks", {"format": "instant"}, 500),
    "clash-solo-quick": ("clash_of_decks", {"mode": "solo"}, 500),
    "clash-solo-draft": ("clash_of_decks", {"mode": "solo", "format": "draft"}, 500),
    "nivel": ("nivel_arena", {}, 300),
    "got": ("game_of_thrones_2p", {}, 300),
    "got-plot-draft": ("game_of_thrones_2p", {"plot_draft": "true"}, 100),
    "cthulhu-4p": ("cthulhu_wars", {"players": "4", "earth_map": "earth35"}, 100),
    "cthulhu-3p": ("cthulhu_wars", {"players": "3"}, 100),
}


@pytest.mark.slow
@pytest.mark.parametrize("run", sorted(RUNS))
def test_random_games_end_cleanly(run):
    ruleset, options, games = RUNS[run]
    r = simulate(ruleset, games, seed=11, jobs=2, options=options, max_decisions=20000)
    assert r["errors"] == {}, r["errors"]
    assert r["unfinished"] == 0 and r["finished"] == games
    assert sum(s["wins"] for s in r["seats"]) + r["draws"] + r["no_winner"] == games

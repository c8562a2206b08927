"""OpenSpiel's own imperfect-information search runs on the adapter: `resample_from_infostate`
draws from the sampler madang's agents use (game/determinize.py), so `ISMCTSBot` plays whole
games of every bundled ruleset (the long ones with the slow tests)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import madang.game.openspiel  # noqa: E402, F401
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

RULESETS = [
    ("clash_of_decks", ""),
    ("nivel_arena", ""),
    ("game_of_thrones_2p", ""),
    ("cthulhu_wars", "players:2"),
]
PARAMS = [
    pytest.param(*r, id=r[0], marks=() if r[0] == "clash_of_decks" else pytest.mark.slow)
    for r in RULESETS
]


def step(state, rng: random.Random) -> None:
    """One move at random: a chance outcome by its probability, else a legal action."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_resampled_state_looks_the_same_to_the_seat_and_hides_the_rest():
    game = pyspiel.load_game("madang", {"ruleset": "nivel_arena", "seed": 4})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        step(state, rng)
    while state.is_chance_node():
        step(state, rng)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(6)]
    for s in samples:
        assert s.observation_string(seat) == state.observation_string(seat)
        assert s.legal_actions() == state.legal_actions()
        assert s.game_state.st.rng != state.game_state.st.rng
    other = 1 - seat
    assert len({s.observation_string(other) for s in samples}) > 1  # the rest is re-dealt
    assert state.game_state.st.to_data() == state.clone().game_state.st.to_data()  # untouched


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_ismcts_bot_plays_whole_games(name, options):
    game = pyspiel.load_game("madang", {"ruleset": name, "options": options, "seed": 3})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        2.0,
        4,
        random_state=rng,
    )
    state = game.new_initial_state()
    searched = 0
    moves = random.Random(1)
    while not state.is_terminal():
        if not state.is_chance_node() and state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            step(state, moves)
    assert searched > 0
    assert state.game_state.is_terminal()  # the game's own end, not the adapter's limit

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
        2,  # simulations a move: each is a whole random game from a resampled state
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


def test_every_seats_recall_in_a_resampled_state_comes_from_the_seat_resampled_for():
    # The seat's own information state is the root's; another seat's is made from the seat's
    # alone (what it saw of the past, then the other's view of the sample): the other's real
    # recall is never read, and its latest view is the sample's.
    from madang.game.api import GameState
    from madang.tools.nopeek import redeal

    game = pyspiel.load_game("madang", {"ruleset": "nivel_arena", "seed": 4})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(40):
        step(state, rng)
    while state.is_chance_node():
        step(state, rng)
    seat = state.current_player()
    other = 1 - seat
    # A root the seat cannot tell apart: unseen cards re-dealt, the other seat's recall changed.
    twin = state.clone()
    twin.game_state = redeal(state.game_state, seat, random.Random(3))
    twin.recall.texts[other] = ["something else"] * 3
    twin.recall.steps = [
        (*s[:3], redeal(GameState(s[3]), seat, random.Random(k)).st)
        for k, s in enumerate(state.recall.steps)
    ]
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    for u in (0.1, 0.3, 0.5, 0.7):
        a = state.resample_from_infostate(seat, lambda u=u: u)
        b = twin.resample_from_infostate(seat, lambda u=u: u)
        assert a.information_state_string(seat) == state.information_state_string(seat)
        for p in (seat, other):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.information_state_string(p).endswith(a.observation_string(p))
            obs.set_from(a, p)
            tensor = obs.tensor.copy()
            obs.set_from(b, p)
            assert np.array_equal(tensor, obs.tensor)
        assert a.information_state_string(other) != state.information_state_string(other)
        # play goes on from the sample: each seat's recall grows from there
        before = a.information_state_string(other)
        a.apply_action(a.legal_actions()[0])
        assert a.information_state_string(other).startswith(before)

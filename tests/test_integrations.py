"""The research adapters: stable action ids, observation tensors, PettingZoo, OpenSpiel, Ray.

The adapters' own test suites judge the API: PettingZoo's `api_test` and `seed_test`, and
OpenSpiel's `random_sim_test`, for every bundled ruleset."""

from __future__ import annotations

import random

import madang
import numpy as np
import pytest
from madang.game.optionlabels import plain_labels

RULESETS = [
    ("clash_of_decks", {}),
    ("nivel_arena", {}),
    ("game_of_thrones_2p", {}),
    ("cthulhu_wars", {"players": 3}),
]
IDS = [name for name, _ in RULESETS]
# The adapters' own API suites on every ruleset: Clash of Decks in the quick loop, the longer
# games only with the slow tests (CI runs them all).
EVERY_RULESET = [
    pytest.param(*r, id=r[0], marks=() if r[0] == "clash_of_decks" else pytest.mark.slow)
    for r in RULESETS
]


def random_states(name: str, options: dict, games: int, seed: int = 0):
    """Every decision point of a few random games."""
    rng = random.Random(seed)
    for g in range(games):
        game = madang.new_game(name, options, seed=seed + g)
        while not game.is_terminal():
            yield game
            game.apply_action(rng.randrange(len(game.legal_actions())))


# ---------------------------------------------------------------- stable action ids


@pytest.mark.parametrize(("name", "options"), RULESETS, ids=IDS)
def test_action_ids_are_distinct_and_play_the_same_move(name, options):
    for game in random_states(name, options, 2):
        ids = game.legal_action_ids()
        assert len(ids) == len(set(ids)) == len(game.legal_actions())
        assert all(0 <= i < game.action_space().size for i in ids)
        k = len(ids) // 2
        by_index, by_id = game.clone(), game.clone()
        by_index.apply_action(k)
        by_id.apply_action_id(ids[k])
        assert by_index.digest() == by_id.digest()


def test_an_id_means_the_same_move_in_every_state():
    """The id of an option is computed from what it is: the same card played with the same
    arguments has the same id whatever its position in the hand, in any game."""
    meaning: dict[int, str] = {}
    for game in random_states("clash_of_decks", {}, 6):
        labels = plain_labels(game.st)  # by the cards alone: copies read alike
        for i, plain in zip(game.legal_action_ids(), labels):
            if i >= game.action_space().fallback_start:
                continue
            if game.action_space().describe(i).endswith("#1"):  # the first of alike options
                assert meaning.setdefault(i, plain) == plain
    assert len(meaning) > 20


def test_describe_names_the_region_and_the_card():
    game = madang.new_game("clash_of_decks", {}, seed=1)
    space = game.action_space()
    assert space.describe(0) == "pass / done"
    ids = game.legal_action_ids()
    labels = game.action_labels()
    k = next(j for j, lab in enumerate(labels) if lab != "pass")
    card = labels[k].split()[1]
    assert card in space.describe(ids[k])
    with pytest.raises(madang.MadangError, match="not legal now"):
        game.apply_action_id(space.size - 1)


# ---------------------------------------------------------------- observation tensors


@pytest.mark.parametrize(("name", "options"), RULESETS, ids=IDS)
def test_observation_tensors_have_one_shape_and_hide_what_the_seat_cannot_see(name, options):
    shapes = set()
    for game in random_states(name, options, 1):
        st = game.st
        for p in range(st.g.nplayers):
            t = game.observation_tensor(p)
            shapes.add(t.shape)
            obs = game.observation(p)
            # the per-card counts of a hidden zone are all zero; its size is there
            enc = st.g.observation_encoder
            for row, z in enumerate(enc._order(p)):
                label = st.g.zone_label(z)
                block = t[row * (enc.ncards + 1) : (row + 1) * (enc.ncards + 1)]
                assert block[-1] == len(st.zones[z])
                if isinstance(obs["zones"][label], dict):
                    assert not block[:-1].any(), label
    assert len(shapes) == 1


def test_the_tensor_does_not_change_when_only_hidden_cards_change():
    """Swapping two cards inside the opponent's hidden hand (or deck) changes nothing P1 sees."""
    game = madang.new_game("nivel_arena", {}, seed=4)
    st = game.st
    before = game.observation_tensor(0)
    for z, (name, owner) in enumerate(st.g.zone_info):
        if owner == 1 and st.g.prog.zones[name].visibility != "public" and len(st.zones[z]) >= 2:
            st.zones[z][0], st.zones[z][1] = st.zones[z][1], st.zones[z][0]
    assert np.array_equal(before, game.observation_tensor(0))


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize(("name", "options"), EVERY_RULESET)
def test_pettingzoo_api_and_seed_tests_pass(name, options):
    from madang.game.pettingzoo import env
    from pettingzoo.test import api_test, seed_test

    api_test(env(name, options), num_cycles=200)
    seed_test(lambda: env(name, options), num_cycles=200)


def test_pettingzoo_render_is_the_seats_text_view():
    from madang.game.pettingzoo import env

    e = env("clash_of_decks", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    seat = e.game.current_player()
    assert f"hand#{2 - seat}: 9 hidden" in text  # the opponent's hand is a count
    assert f"P{seat + 1} " in text.splitlines()[-1]  # the question to the seat that acts


# ---------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize(("name", "options"), EVERY_RULESET)
def test_openspiel_random_sim_test_and_serialisation(name, options):
    import madang.game.openspiel  # noqa: F401
    import pyspiel

    text = ";".join(f"{k}:{v}" for k, v in options.items())
    game = pyspiel.load_game("madang", {"ruleset": name, "options": text, "seed": 5})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    # the setup's first shuffle: its first draw has one outcome per object shuffled
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) > 1 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())  # replays chance outcomes and moves
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    for p in range(game.num_players()):
        assert again.information_state_string(p) == state.information_state_string(p)


def test_openspiel_mcts_bot_plays_a_game():
    import madang.game.openspiel  # noqa: F401
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("madang", {"ruleset": "clash_of_decks", "seed": 2})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = (
            bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
        )
        state.apply_action(action)
    assert sorted(state.returns()) == [-1.0, 1.0]


# ---------------------------------------------------------------- Ray


@pytest.mark.slow
def test_ray_backend_matches_local_jobs_on_the_same_seed():
    from madang.tools.simulate import simulate

    local = simulate("clash_of_decks", 150, seed=11, jobs=2)
    ray = simulate("clash_of_decks", 150, seed=11, backend="ray")
    for report in (local, ray):
        report.pop("timing")
    assert local == ray


@pytest.mark.slow
def test_ray_workers_keep_the_ceiling_on_work_given_here(tmp_path):
    # #12: --max-work is the person's limit on every evaluation; Ray workers share no memory
    # with the command line, so they are told it with each chunk of games.
    from madang.runtime import budget
    from madang.tools.simulate import simulate
    from test_limits import make

    folder = make(tmp_path / "atk", setup="while true:\n    n += 1")
    before = budget.CEILING
    budget.set_ceiling(1000)
    try:
        report = simulate(str(folder), 2, seed=1, backend="ray")
    finally:
        budget.set_ceiling(before)
    assert report["error_games"] == 2
    assert "more than 1,000 steps of work without a decision" in str(report)


def test_pettingzoo_observation_bounds_are_finite_and_hold():
    from madang.game.pettingzoo import env

    e = env("clash_of_decks")
    box = e.observation_space("player_0")["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert (box.low[:10] == 0).all() and (box.high[-3:-1] == 1).all()  # counts; one-hots
    e.reset(seed=2)
    for n, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        assert box.contains(obs["observation"])
        if n > 60:
            break
        e.step(
            None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        )

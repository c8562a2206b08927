"""Classic games written in the language (docs/examples/) against OpenSpiel's own
implementations: the same game trees, information states and CFR+ values (#31).

They prove the adapter's exact chance (runtime/chance.py: a shuffle as successive uniform
draws, a random pick, a die), the ruleset's `payoff(p)` as returns, and perfect-recall
information states (game/recall.py): a solver sees the game the rules define."""

from __future__ import annotations

from pathlib import Path

import madang
import pytest

pyspiel = pytest.importorskip("pyspiel")
import madang.game.openspiel  # noqa: E402,F401
from open_spiel.python.algorithms import cfr, expected_game_score  # noqa: E402

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def load(name: str, options: str = ""):
    return pyspiel.load_game("madang", {"ruleset": str(EXAMPLES / name), "options": options})


def information_states(game) -> tuple[int, int]:
    """(distinct information states at decision nodes, nodes) of the whole tree."""
    seen: set[str] = set()
    nodes = 0

    def walk(s):
        nonlocal nodes
        nodes += 1
        if s.is_terminal():
            return
        if s.is_chance_node():
            assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
            for a, _ in s.chance_outcomes():
                walk(s.child(a))
            return
        seen.add(s.information_state_string())
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    return len(seen), nodes


def cfr_plus_value(game, iterations: int) -> list[float]:
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    state = game.new_initial_state()
    return list(expected_game_score.policy_value(state, [policy] * game.num_players()))


# ---------------------------------------------------------------- tic-tac-toe


def test_tic_tac_toe_has_openspiels_games_and_positions():
    """255,168 games and 5,478 positions (the empty grid and the ends included), counted on
    both games by one memoised walk: a position is its grid and the player to move."""

    def count(root, key, children):
        memo: dict = {}

        def games(s):
            k = key(s)
            if k not in memo:
                kids = children(s)
                memo[k] = 1 if not kids else sum(games(c) for c in kids)
            return memo[k]

        return games(root), len(memo)

    def native_children(s):
        return [] if s.is_terminal() else [s.child(a) for a in s.legal_actions()]

    def children(g):
        out = []
        for a in g.legal_actions():
            c = g.clone()
            c.apply_action(a)
            out.append(c)
        return out

    def key(g):
        st = g.st
        grid = tuple(tuple(st.obj_card[o] for o in z) for z in st.zones)
        return grid, g.current_player(), g.is_terminal()

    native = count(pyspiel.load_game("tic_tac_toe").new_initial_state(), str, native_children)
    ours = count(madang.new_game(EXAMPLES / "tic_tac_toe"), key, children)
    assert native == (255_168, 5_478)
    assert ours == native


def test_tic_tac_toe_returns_are_win_and_loss_without_a_payoff():
    game = madang.new_game(EXAMPLES / "tic_tac_toe")
    for cell in (0, 3, 0, 2, 0):  # a1, b1, a2, c1, a3: the first row for crosses
        game.apply_action(cell)
    assert game.is_terminal() and game.returns() == [1.0, -1.0]


# ---------------------------------------------------------------- Kuhn poker


def test_kuhn_poker_through_load_game_has_12_information_states_and_its_value():
    """#31's done-when: `define payoff(p: player) = p.net`, loaded with pyspiel.load_game,
    12 information states, and CFR+ reaching the first player's value -1/18 in 200
    iterations; with the very numbers of OpenSpiel's own kuhn_poker."""
    game = load("kuhn_poker")
    assert information_states(game) == information_states(pyspiel.load_game("kuhn_poker"))
    assert information_states(game)[0] == 12
    value = cfr_plus_value(game, 200)
    assert value[0] == pytest.approx(-1 / 18, abs=0.002)
    assert value == pytest.approx(cfr_plus_value(pyspiel.load_game("kuhn_poker"), 200), abs=1e-9)


def test_kuhn_poker_pays_the_chips_and_says_so_in_its_type():
    game = load("kuhn_poker")
    # a payoff without a declared range or sum: general-sum, unbounded
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    for outcome in (2, 0):  # the shuffle: KING to the back, then JACK: P1 QUEEN, P2 JACK
        assert state.is_chance_node()
        state.apply_action(outcome)
    assert "hand#1: QUEEN" in state.observation_string(0)
    assert "hand#2: JACK" in state.observation_string(1)

    def play(label):
        (action,) = [a for a in state.legal_actions() if state.action_to_string(a) == label]
        state.apply_action(action)

    play("bet")
    play("call")
    assert state.is_terminal() and state.returns() == [2.0, -2.0]


# ---------------------------------------------------------------- Leduc poker


@pytest.mark.slow
def test_leduc_poker_has_openspiels_936_information_states():
    ours, native = (
        information_states(load("leduc_poker")),
        information_states(pyspiel.load_game("leduc_poker")),
    )
    assert native == (936, 9_457)
    assert ours == native


@pytest.mark.slow
def test_leduc_poker_cfr_plus_values_are_openspiels():
    """The same tree and payoffs give CFR+ the same numbers at every iteration."""
    game = load("leduc_poker")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-13.0, 13.0)
    ours = cfr_plus_value(game, 3)
    assert ours == pytest.approx(cfr_plus_value(pyspiel.load_game("leduc_poker"), 3), abs=1e-9)


# ---------------------------------------------------------------- Liar's dice


def test_liars_dice_with_three_faces_has_openspiels_information_states():
    native = pyspiel.load_game("liars_dice", {"dice_sides": 3})
    assert information_states(load("liars_dice", "sides:3")) == information_states(native)


@pytest.mark.slow
def test_liars_dice_has_openspiels_24576_information_states():
    ours = information_states(load("liars_dice"))
    assert ours == information_states(pyspiel.load_game("liars_dice")) == (24_576, 294_883)


@pytest.mark.slow
def test_liars_dice_cfr_plus_values_are_openspiels():
    native = pyspiel.load_game("liars_dice", {"dice_sides": 3})
    ours = cfr_plus_value(load("liars_dice", "sides:3"), 10)
    assert ours == pytest.approx(cfr_plus_value(native, 10), abs=1e-9)


@pytest.mark.parametrize("name", ["tic_tac_toe", "kuhn_poker", "leduc_poker", "liars_dice"])
def test_the_adapters_own_suites_pass_on_the_classic_games(name):
    from madang.game.pettingzoo import env
    from pettingzoo.test import api_test, seed_test

    pyspiel.random_sim_test(load(name), num_sims=3, serialize=True, verbose=False)
    api_test(env(str(EXAMPLES / name), chance="explicit"), num_cycles=50)
    seed_test(lambda: env(str(EXAMPLES / name), chance="explicit"), num_cycles=50)


def test_pettingzoo_rewards_are_the_payoff():
    from madang.game.pettingzoo import env

    e = env(str(EXAMPLES / "leduc_poker"), chance="explicit")
    e.reset(seed=4)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        labels = dict(zip(e.game.action_labels(), e.game.legal_action_ids()))
        e.step(labels.get("raise", labels["call"]))
    # raising whenever allowed, calling otherwise: each puts in 1 + 2 + 2 + 4 + 4 chips, and the
    # showdown pays them to the better hand (or splits the pot)
    assert sum(totals.values()) == 0 and abs(totals["player_0"]) in (0.0, 13.0)

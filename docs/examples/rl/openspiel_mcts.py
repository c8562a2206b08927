"""OpenSpiel's MCTS bot against a random bot on a madang ruleset.

    pip install 'madang[rl]'
    python docs/examples/rl/openspiel_mcts.py --games 10 --simulations 100

The bot searches clones of the true state, so it knows the hidden cards (OpenSpiel's MCTS is a
perfect-information search); madang's own `mcts` agent samples hidden cards instead.
"""

from __future__ import annotations

import argparse

import madang.game.openspiel  # noqa: F401  (registers the game "madang")
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot


def play(game, bots, rng) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():  # a shuffle's draw or a die: its outcomes, equally likely
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="clash_of_decks")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=100)
    args = ap.parse_args()
    rng = np.random.RandomState(0)
    wins = 0
    for g in range(args.games):
        game = pyspiel.load_game("madang", {"ruleset": args.ruleset, "seed": g})
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = mcts.MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng)
        seat = g % 2  # swap seats
        bots = [UniformRandomBot(p, rng) for p in range(game.num_players())]
        bots[seat] = searcher
        returns = play(game, bots, rng)
        wins += returns[seat] > 0
    print(f"MCTS ({args.simulations} simulations) won {wins} of {args.games} against random")


if __name__ == "__main__":
    main()

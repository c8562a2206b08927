"""Train a linear policy with REINFORCE on a madang ruleset through PettingZoo, against random.

    pip install 'madang[rl]'
    python docs/examples/rl/pettingzoo_reinforce.py --episodes 400

Numpy only, to show the interface: the observation tensor, the action mask over the ruleset's
stable action ids, and rewards at the end of the game. The policy scores each legal id with one
weight vector per id (a table the size of the action space, filled lazily).
"""

from __future__ import annotations

import argparse

import numpy as np
from madang.game.pettingzoo import env


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max()
    p = np.exp(z)
    return p / p.sum()


def run(episodes: int, learner: str, learn: bool, weights: dict, rng, lr: float, e) -> float:
    wins = 0
    for _ in range(episodes):
        e.reset(seed=int(rng.integers(1 << 30)))
        trace = []  # (features, legal ids, chosen index)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                if agent == learner:
                    wins += reward > 0
                    if learn:
                        for x, legal, k in trace:
                            logits = np.array(
                                [weights.setdefault(a, np.zeros_like(x)) @ x for a in legal]
                            )
                            p = softmax(logits)
                            for j, a in enumerate(legal):
                                weights[a] += lr * reward * ((j == k) - p[j]) * x
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if agent == learner:
                x = obs["observation"] / (1.0 + np.abs(obs["observation"]).max())
                logits = np.array([weights.setdefault(a, np.zeros_like(x)) @ x for a in legal])
                k = int(rng.choice(len(legal), p=softmax(logits)))
                trace.append((x, legal, k))
                e.step(int(legal[k]))
            else:
                e.step(int(rng.choice(legal)))
    return wins / episodes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="clash_of_decks")
    ap.add_argument("--episodes", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.05)
    args = ap.parse_args()
    e = env(args.ruleset)
    rng = np.random.default_rng(0)
    weights: dict = {}
    before = run(200, "player_0", False, weights, rng, args.lr, e)
    run(args.episodes, "player_0", True, weights, rng, args.lr, e)
    after = run(200, "player_0", False, weights, rng, args.lr, e)
    print(f"win rate of player_0 against random: {before:.0%} before training, {after:.0%} after")


if __name__ == "__main__":
    main()

"""Digests of seeded random games of every bundled ruleset, to show a change keeps the games.

    python scripts/digests.py [N] [--game-only] > before.txt    (then again after, and diff)

Each line: ruleset, seed, decisions, and the hash of the whole saved state at the end.
`--game-only` leaves out what only the run loop's bookkeeping holds (its step count and the
frames' block, section and statement numbers), for a change that reorganises the run loop
without changing the game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from madang.build.loader import bundled_names
from madang.game.api import load_program, new_game


def game_digest(g) -> str:
    data = g.st.to_data()
    data.pop("steps")
    data["frames"] = [[f[2], f[4], f[5], f[6], f[7]] for f in data["frames"]]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="?", type=int, default=20, help="seeds 0..N-1 per ruleset")
    ap.add_argument("--game-only", action="store_true", help="without the run loop's bookkeeping")
    args = ap.parse_args()
    for name in bundled_names():
        prog = load_program(name)
        for seed in range(args.games):
            g = new_game(prog, seed=seed)
            rng = random.Random(seed)
            k = 0
            while not g.is_terminal() and k < 3000:
                g.apply_action(rng.choice(g.legal_actions()))
                k += 1
            print(name, seed, k, game_digest(g) if args.game_only else g.digest(), flush=True)


if __name__ == "__main__":
    main()

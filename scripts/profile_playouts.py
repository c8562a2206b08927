"""Where a ruleset's random playouts spend their time: cProfile's functions by own time.

    python scripts/profile_playouts.py RULESET [GAMES] [--top K]

Plays the games once to warm up (compiling, the kept domains), then again under the profiler,
as `madang bench` plays them (random moves, no seats' memory of hidden cards).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random

from madang.game.api import load_program, new_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("games", nargs="?", type=int, default=10)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    prog = load_program(args.ruleset)

    def play() -> None:
        for seed in range(args.games):
            g = new_game(prog, seed=seed, memory=False)
            rng, st = random.Random(seed), g.st
            while not st.over:
                g.apply_action(rng.randrange(len(st.pending.values)))

    play()
    profiler = cProfile.Profile()
    profiler.runcall(play)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()

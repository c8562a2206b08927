"""Compare the speed of two versions of madang on the same seeded random games.

    python scripts/speed_ab.py A B [RULESET ...] [--repeats R] [--games N] [--memory] [--cycle]

A and B are git revisions (`45ea169`, `HEAD`) or folders holding `interpreter/`, `grammar/` and
`rulesets/` (`.` is the working tree). Both versions are imported side by side in one process;
the games are cut into chunks and each chunk is played R times by each version, alternating, and
its least CPU time kept. So a busy machine slows both alike and a burst of load is dropped:
ratios hold to a few percent where wall-clock runs a minute apart differ by more. Each move is
`Random(seed).randrange(len(options))`, as in `madang bench`, without the seats' memory of
hidden cards unless --memory (bench and search samples play without it). The games play the
ruleset's default options unless --cycle: then game i gets the i-th assignment of the per-seat
options (decks) to the seats, as `madang bench` and `simulate` cycle them.
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = {
    "clash_of_decks": (100, 10),
    "nivel_arena": (12, 4),
    "game_of_thrones_2p": (12, 4),
    "cthulhu_wars": (12, 4),
}
PARTS = ("interpreter", "grammar", "rulesets")


def version(spec: str, into: Path) -> Path:
    """A folder with the version's sources: `spec` itself, or `git archive` of a revision."""
    here = Path(spec)
    if here.is_dir() and all((here / p).is_dir() for p in PARTS):
        return here
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", spec, *PARTS], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def load(tag: str, src: Path, root: Path):
    """Import the version under the package name `tag`: its api and its rulesets' folder."""
    shutil.copytree(src / "interpreter", root / tag)
    shutil.copytree(src / "grammar", root / tag / "grammar")
    return importlib.import_module(tag + ".game.api"), src / "rulesets"


def load_both(a: str, b: str, root: Path) -> dict:
    """Versions `a` and `b` imported as `version_a` and `version_b` from folder `root` (put
    first on the import path): by tag, the version's api and its rulesets' folder."""
    sys.path.insert(0, str(root))
    return {
        tag: load(tag, version(spec, root / ("src_" + tag)), root)
        for tag, spec in (("version_a", a), ("version_b", b))
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="a git revision or a folder")
    ap.add_argument("b", help="a git revision or a folder")
    ap.add_argument("rulesets", nargs="*", default=list(GAMES), help="default: the four bundled")
    ap.add_argument("--repeats", type=int, default=5, help="plays of each chunk per version")
    ap.add_argument("--games", type=int, help="games per ruleset (default 100 Clash, 12 others)")
    ap.add_argument("--memory", action="store_true", help="keep the seats' memory of hidden cards")
    ap.add_argument("--cycle", action="store_true", help="per-seat options cycled as bench does")
    args = ap.parse_intermixed_args()  # rulesets before or after the options
    with tempfile.TemporaryDirectory(prefix="speed_ab_") as tmp:
        versions = load_both(args.a, args.b, Path(tmp))
        kw = {} if args.memory else {"memory": False}
        for name in args.rulesets:
            n, per = GAMES.get(name, (12, 4))
            if args.games:
                n, per = args.games, max(1, args.games // 6)
            progs = {t: api.load_program(str(rs / name)) for t, (api, rs) in versions.items()}
            free, combos = [], [()]
            if args.cycle:  # the first version's `simulate.pairings`, as tools/bench.py uses it
                sim = importlib.import_module("version_a.tools.simulate")
                free, combos = sim.pairings(progs["version_a"], {})
            total = dict.fromkeys(versions, 0.0)
            for start in range(0, n, per):
                best = dict.fromkeys(versions, float("inf"))
                for rep in range(args.repeats):
                    for t in sorted(versions, reverse=rep % 2 == 1):
                        api = versions[t][0]
                        began = time.process_time()
                        for seed in range(start, min(n, start + per)):
                            opts = {k: list(v) for k, v in zip(free, combos[seed % len(combos)])}
                            g = api.new_game(progs[t], opts, seed=seed, **kw)
                            rng, st = random.Random(seed), g.st
                            while not st.over:
                                g.apply_action(rng.randrange(len(st.pending.values)))
                        best[t] = min(best[t], time.process_time() - began)
                for t in versions:
                    total[t] += best[t]
            a, b = n / total["version_a"], n / total["version_b"]
            cycled = f" ({', '.join(free)} cycled: {len(combos)} ways)" if free else ""
            print(f"{name}: A {a:.1f}/s  B {b:.1f}/s  B/A {b / a:.3f}{cycled}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

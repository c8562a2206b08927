"""Count the work of two versions of madang on the same seeded random games: Python bytecodes
and frames a game, which load cannot move.

    python scripts/count_work.py A B [RULESET ...] [--games N] [--cycle] [--top K]

A and B are git revisions or folders, as for scripts/speed_ab.py (both are imported side by side
in one process). Each game is played once per version under `sys.settrace` with opcode events,
after one warm-up game (the kept plans and domains a program makes on its first games). Two runs
of the same code give the same counts, so a change of 1% is read at once where a timed A/B on a
busy host cannot resolve 2%. A count is not a time: a bytecode that calls into C (a list's
`sort`, a dict's `copy`) counts one. --top K lists the K functions that gained or lost most.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed_ab import load_both  # noqa: E402  (the same versions, imported the same way)

GAMES = {"clash_of_decks": 30, "nivel_arena": 3, "game_of_thrones_2p": 3, "cthulhu_wars": 3}


def play(api, prog, seeds, free, combos) -> None:
    for seed in seeds:
        opts = {k: list(v) for k, v in zip(free, combos[seed % len(combos)])}
        g = api.new_game(prog, opts, seed=seed, memory=False)
        rng, st = random.Random(seed), g.st
        while not st.over:
            g.apply_action(rng.randrange(len(st.pending.values)))


def count(api, prog, seeds, free, combos) -> tuple[Counter, Counter]:
    """Bytecodes and frames by function (file's last part, first line, name)."""
    ops: Counter = Counter()
    frames: Counter = Counter()

    def trace(frame, event, arg):
        code = frame.f_code
        key = (code.co_filename.rsplit("/", 1)[-1], code.co_firstlineno, code.co_name)
        if event == "opcode":
            ops[key] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
            frames[key] += 1
        return trace

    sys.settrace(trace)
    try:
        play(api, prog, seeds, free, combos)
    finally:
        sys.settrace(None)
    return ops, frames


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="a git revision or a folder")
    ap.add_argument("b", help="a git revision or a folder")
    ap.add_argument("rulesets", nargs="*", default=list(GAMES), help="default: the four bundled")
    ap.add_argument("--games", type=int, help="games per ruleset (default 30 Clash, 3 others)")
    ap.add_argument("--cycle", action="store_true", help="per-seat options cycled as bench does")
    ap.add_argument("--top", type=int, default=0, help="the functions whose counts moved most")
    args = ap.parse_intermixed_args()
    with tempfile.TemporaryDirectory(prefix="count_work_") as tmp:
        versions = load_both(args.a, args.b, Path(tmp))
        for name in args.rulesets:
            n = args.games or GAMES.get(name, 3)
            progs = {t: api.load_program(str(rs / name)) for t, (api, rs) in versions.items()}
            free, combos = [], [()]
            if args.cycle:
                sim = importlib.import_module("version_a.tools.simulate")
                free, combos = sim.pairings(progs["version_a"], {})
            found = {}
            for t, (api, _) in versions.items():
                play(api, progs[t], [10**6], [], [()])  # warm-up: kept plans and domains
                found[t] = count(api, progs[t], range(n), free, combos)
            (oa, fa), (ob, fb) = found["version_a"], found["version_b"]
            a_ops, b_ops, a_fr, b_fr = (sum(c.values()) / n for c in (oa, ob, fa, fb))
            print(
                f"{name}: bytecodes a game A {a_ops:,.0f}  B {b_ops:,.0f}  B/A {b_ops / a_ops:.4f}"
                f"  frames A {a_fr:,.0f}  B {b_fr:,.0f}  B/A {b_fr / a_fr:.4f}",
                flush=True,
            )
            if args.top:
                moved = Counter(ob)
                moved.subtract(oa)  # (generated functions keep their names between versions)
                worst = sorted((kv for kv in moved.items() if kv[1]), key=lambda kv: -abs(kv[1]))
                for (file, line, fn), d in worst[: args.top]:
                    print(f"  {d / n:+12,.0f}  {fn} ({file}:{line})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`madang bench`: load-and-check time, random playouts per second, clone and save/load costs.

Figures are read from here, never asserted in tests. Per ruleset:

- cold load and check: `load_ruleset` in a fresh `python -c` process (best of 3), with the time
  to import madang shown apart; warm: the same in this process (best of 3);
- check throughput: a generated standalone file of 1,000 cards (copies of the ruleset's cards
  under new names) loaded as extra cards, minus the load without it;
- random playouts in one process (uniform choices; per-seat options cycled as `simulate` does;
  no seat's memory of hidden cards, as in search's samples):
  playouts and decisions per second of wall time and per second of CPU time
  (`time.process_time`), decisions and turns per game (`--games` playouts, fewer when they take
  more than `--seconds`);
- a mid-game state (a random game stopped half-way): clone time (median of 2,000, µs),
  to_json / from_json time (median of 50, ms), and the size of its save in bytes;
- MCTS search speed: `mcts:100` deciding at four positions of a random game, iterations per
  second of CPU time (what search agents get from the playouts' speed).

A hand-written anchor named with `--baseline PATH` (a script printing one JSON line with
playouts_per_s and decisions_per_s, such as the scripts of `../shared/bench/`) runs in the same
session, alternately with the first ruleset's playouts, and the ratio is reported, in wall time
and in CPU time (the anchor's CPU time measured around its run in its own process): on a shared
computer the wall time of each moves with the load, the CPU time much less.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..build.loader import find_ruleset, load_ruleset
from ..game.api import GameState, load_program, new_game
from ..language.diagnostics import Diagnostics
from .simulate import pairings

COLD_CODE = """
import json, sys, time
t0 = time.perf_counter()
from madang.language.diagnostics import Diagnostics
from madang.build.loader import load_ruleset
t1 = time.perf_counter()
d = Diagnostics()
load_ruleset(sys.argv[1], d)
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "errors": len(d.errors)}))
"""


def cold_load(ref: str, runs: int = 3) -> dict:
    """Best of `runs` fresh processes: the import of madang, and load + check of the ruleset."""
    best = None
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", COLD_CODE, ref], capture_output=True, text=True, timeout=300
        )
        try:
            r = json.loads(out.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            continue
        if best is None or r["import_s"] + r["load_s"] < best["import_s"] + best["load_s"]:
            best = r
    if best is None:
        return {"load_cold_s": None}
    return {"load_cold_s": round(best["import_s"] + best["load_s"], 3),
            "load_cold_import_s": round(best["import_s"], 3), "load_cold_check_s": round(best["load_s"], 3)}  # fmt: skip


def warm_load_seconds(ref: str, extra: list[str] = (), runs: int = 3) -> tuple[float, int]:
    """Best time of `runs` loads in this process, and the number of errors reported."""
    best, errors = float("inf"), 0
    for _ in range(runs):
        d = Diagnostics()
        t = time.perf_counter()
        load_ruleset(ref, d, list(extra))
        best = min(best, time.perf_counter() - t)
        errors = len(d.errors)
    return best, errors


def card_rows(ref: str) -> tuple[dict, list[dict]]:
    """A ruleset's ruleset.yaml and the rows of its card files (to make renamed copies of)."""
    import yaml

    folder = find_ruleset(ref, Diagnostics())
    meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
    rows = []
    for rel in meta.get("cards") or []:
        doc = yaml.safe_load((folder / rel).read_text(encoding="utf-8")) or {}
        rows += (doc.get("cards") if isinstance(doc, dict) else doc) or []
    return meta, [r for r in rows if isinstance(r, dict) and "name" in r]


def thousand_cards(
    ref: str, n: int = 1000, games: int = 0, budget_s: float | None = None
) -> dict | None:
    """Check throughput: the extra time to load `n` generated cards with the ruleset; with
    `games`, also the playouts per second with those cards loaded but never dealt (what unused
    cards cost a game)."""
    import yaml

    meta, rows = card_rows(ref)
    if not rows:
        return None
    cards = []
    for i in range(n):
        c = dict(rows[i % len(rows)])
        c["name"] = f"GENERATED_{i:04d}"
        c.pop("id", None)
        cards.append(c)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{n}_cards.yaml"
        path.write_text(yaml.safe_dump({"ruleset": meta["name"], "cards": cards}, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")  # fmt: skip
        with_cards, errors = warm_load_seconds(ref, [str(path)])
        without, _ = warm_load_seconds(ref)
        out = {
            "check_1000_cards_s": round(max(with_cards - without, 0.0), 3),
            "check_1000_cards_errors": errors,
        }
        if games and not errors:
            p = playouts(ref, games, budget_s=budget_s, extra=[str(path)])
            out["playouts_1000_unused_per_s"] = p["playouts_per_s"]
            out["playouts_1000_unused_per_cpu_s"] = p["playouts_per_cpu_s"]
    return out


def playouts(ref: str, games: int, seed: int = 0, budget_s: float | None = None,
             extra: list[str] = ()) -> dict:  # fmt: skip
    """Random playouts in this process: uniform choices, per-seat values cycled; at most `games`,
    and no more once `budget_s` seconds have passed (at least one game). No seat samples in
    them, so none keeps a memory of hidden cards (`new_game(memory=False)`), as in the samples
    searches play in."""
    prog = load_program(ref, tuple(extra))
    free, combos = pairings(prog, {})
    decisions = turns = 0
    t, cpu = time.perf_counter(), time.process_time()
    played = 0
    for i in range(games):
        if budget_s is not None and i and time.perf_counter() - t > budget_s:
            break
        opts = {k: list(v) for k, v in zip(free, combos[i % len(combos)])}
        g = new_game(prog, opts, seed + i, memory=False)
        rng = random.Random(seed + i)
        st = g.st
        while not st.over:
            g.apply_action(rng.randrange(len(st.pending.values)))
        decisions += st.decisions
        turns += st.turn
        played += 1
    dt, dc = time.perf_counter() - t, max(time.process_time() - cpu, 1e-9)
    return {"games": played, "seconds": round(dt, 3), "playouts_per_s": round(played / dt, 1),
            "decisions_per_s": round(decisions / dt), "mean_decisions": round(decisions / played, 1),
            "mean_turns": round(turns / played, 1), "cpu_seconds": round(dc, 6),
            "playouts_per_cpu_s": round(played / dc, 1), "decisions_per_cpu_s": round(decisions / dc)}  # fmt: skip


def mid_game(ref: str, seed: int = 3) -> GameState:
    """A random game stopped half-way through (by decisions)."""
    prog = load_program(ref)
    probe = new_game(prog, {}, seed)
    rng = random.Random(seed)
    while not probe.is_terminal():
        probe.apply_action(rng.randrange(len(probe.legal_actions())))
    g = new_game(prog, {}, seed)
    rng = random.Random(seed)
    for _ in range(probe.st.decisions // 2):
        g.apply_action(rng.randrange(len(g.legal_actions())))
    return g


def mcts_rate(ref: str, iterations: int = 100, positions: int = 4, seed: int = 5) -> dict:
    """MCTS search speed, what search costs at the playouts' speed: `mcts:N` deciding at positions
    over a random game (its seat's decisions), iterations per second of CPU time."""
    from .agents import make_agent

    prog = load_program(ref)
    probe = new_game(prog, {}, seed)
    rng = random.Random(seed)
    while not probe.is_terminal():
        probe.apply_action(rng.randrange(len(probe.legal_actions())))
    total = probe.st.decisions
    at = sorted({max(0, total * (k + 1) // (positions + 1)) for k in range(positions)})
    g = new_game(prog, {}, seed)
    rng = random.Random(seed)
    agent = make_agent(f"mcts:{iterations}")
    searched, cpu = 0, 0.0
    for k in range(total):
        if g.is_terminal():
            break
        if k in at and len(g.legal_actions()) > 1:
            t = time.process_time()
            agent.choose(g)
            cpu += time.process_time() - t
            searched += 1
        g.apply_action(rng.randrange(len(g.legal_actions())))
    if not searched:
        return {"mcts_iterations_per_s": None}
    return {"mcts_iterations_per_s": round(searched * iterations / cpu, 1),
            "mcts_seconds_per_move": round(cpu / searched, 3), "mcts_iterations": iterations}  # fmt: skip


def state_costs(ref: str) -> dict:
    g = mid_game(ref)
    clones = []
    for _ in range(2000):
        t = time.perf_counter()
        g.clone()
        clones.append(time.perf_counter() - t)
    # what a search pays per iteration instead: a sample of what the seat deciding cannot see
    seat, rng, samples = max(g.current_player(), 0), random.Random(0), []
    for _ in range(2000):
        t = time.perf_counter()
        g.determinize(seat, rng)
        samples.append(time.perf_counter() - t)
    text = g.to_json()
    saves, loads = [], []
    for _ in range(50):
        t = time.perf_counter()
        text = g.to_json()
        saves.append(time.perf_counter() - t)
        t = time.perf_counter()
        GameState.from_json(text)
        loads.append(time.perf_counter() - t)
    return {"mid_game_decisions": g.st.decisions, "clone_us": round(statistics.median(clones) * 1e6, 1),
            "sample_us": round(statistics.median(samples) * 1e6, 1),
            "save_ms": round(statistics.median(saves) * 1e3, 3), "load_ms": round(statistics.median(loads) * 1e3, 3),
            "save_bytes": len(text.encode())}  # fmt: skip


# The anchor runs in a process of its own under this wrapper, which measures the CPU time of the
# script's run (`time.process_time` around it: the import of Python itself is left out), so that
# its ratio to ours holds on a loaded computer, where wall time does not.
BASELINE_WRAPPER = """
import contextlib, io, json, os, runpy, sys, time
path = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path[0] = os.path.dirname(os.path.abspath(path))
out = io.StringIO()
wall, cpu = time.perf_counter(), time.process_time()
try:
    with contextlib.redirect_stdout(out):
        runpy.run_path(path, run_name="__main__")
except SystemExit:
    pass
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
sys.stdout.write(out.getvalue())
print(json.dumps({"cpu_seconds": cpu, "wall_seconds": wall}))
"""


def run_baseline(path: Path, games: int) -> dict | None:
    """The anchor's own figures (its last JSON line), with its CPU time (`cpu_seconds`) and the
    rates per CPU second (`playouts_per_cpu_s`, `decisions_per_cpu_s`); the games it played
    are its `games` if it says, else the number asked for."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", BASELINE_WRAPPER, str(path), str(games)],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        lines = out.stdout.strip().splitlines()
        clock, r = json.loads(lines[-1]), json.loads(lines[-2])
    except (ValueError, IndexError, OSError, subprocess.TimeoutExpired):
        return None
    if not (isinstance(r, dict) and "playouts_per_s" in r and "decisions_per_s" in r):
        return None
    cpu = clock.get("cpu_seconds")
    if isinstance(cpu, (int, float)) and cpu > 0:
        played = r.get("games", games)
        # its decisions: its own rate times its own seconds, else times the wall time measured here
        seconds = r.get("seconds", clock.get("wall_seconds", 0))
        decisions = r["decisions_per_s"] * seconds
        r = {**r, "cpu_seconds": round(cpu, 6), "playouts_per_cpu_s": round(played / cpu, 1),
             "decisions_per_cpu_s": round(decisions / cpu)}  # fmt: skip
    return r


def bench(refs: list[str], games: int = 300, baseline: str | None = None, progress=None,
          budget_s: float | None = 20.0) -> dict:  # fmt: skip
    say = progress or (lambda msg: None)
    out: dict = {"python": sys.version.split()[0], "rulesets": {}}
    for ref in refs:
        say(f"{ref}: loading")
        r = dict(cold_load(ref))
        warm, _ = warm_load_seconds(ref)
        r["load_warm_s"] = round(warm, 3)
        say(f"{ref}: 1,000 cards")
        k = thousand_cards(ref, games=games, budget_s=budget_s)
        if k is not None:
            r.update(k)
        say(f"{ref}: {games} playouts")
        r["playouts"] = playouts(ref, games, budget_s=budget_s)
        say(f"{ref}: clone, save, load")
        r.update(state_costs(ref))
        say(f"{ref}: mcts search")
        r.update(mcts_rate(ref))
        out["rulesets"][ref] = r
    # The anchor is a program: it runs only when named with --baseline, never found by walking
    # folders (a planted `*_baseline.py` above the current folder would run).
    found = (Path(baseline), refs[0]) if baseline else None
    if baseline and not Path(baseline).is_file():
        out["baseline"] = {"script": baseline, "error": "no such file"}
    elif found is not None and refs:
        path, anchor = found
        # The computer's speed drifts: run the anchor and ours alternately, keep the best of each
        # (by wall time and by CPU time apart: the best run of one need not be that of the other).
        b, mine = None, out["rulesets"][anchor]["playouts"]
        b_cpu, mine_cpu = None, mine
        for k in range(3):
            say(f"baseline {path.name}: round {k + 1} of 3")
            r = run_baseline(path, max(games, 1000))
            if r and (b is None or r["playouts_per_s"] > b["playouts_per_s"]):
                b = r
            if r and "cpu_seconds" in r:
                if b_cpu is None or r["playouts_per_cpu_s"] > b_cpu["playouts_per_cpu_s"]:
                    b_cpu = r
            m = playouts(anchor, games, budget_s=budget_s)
            if m["playouts_per_s"] > mine["playouts_per_s"]:
                mine = m
            if m["playouts_per_cpu_s"] > mine_cpu["playouts_per_cpu_s"]:
                mine_cpu = m
        out["rulesets"][anchor]["playouts"] = {**mine, **_cpu_part(mine_cpu)}
        if b:
            out["baseline"] = {
                "script": str(path),
                "ruleset": anchor,
                **b,
                "ratio_playouts": round(b["playouts_per_s"] / mine["playouts_per_s"], 2),
                "ratio_decisions": round(b["decisions_per_s"] / mine["decisions_per_s"], 2),
                "note": "best of 3 alternating runs of each; ratio = hand-written / interpreted",
            }
            if b_cpu is not None:
                out["baseline"].update(_cpu_part(b_cpu))
                out["baseline"]["ratio_playouts_cpu"] = round(
                    b_cpu["playouts_per_cpu_s"] / mine_cpu["playouts_per_cpu_s"], 3
                )
                out["baseline"]["ratio_decisions_cpu"] = round(
                    b_cpu["decisions_per_cpu_s"] / mine_cpu["decisions_per_cpu_s"], 3
                )
        else:
            out["baseline"] = {
                "script": str(path),
                "error": "the script did not print a JSON line with playouts_per_s",
            }
    say("")
    return out


def _cpu_part(r: dict) -> dict:
    return {k: r[k] for k in ("cpu_seconds", "playouts_per_cpu_s", "decisions_per_cpu_s")}


def render(result: dict) -> str:
    lines = []
    for ref, r in result["rulesets"].items():
        p = r["playouts"]
        lines.append(ref)
        if r.get("load_cold_s") is not None:
            lines.append(f"  load and check: {r['load_cold_s']} s cold (import {r['load_cold_import_s']} s + "
                         f"check {r['load_cold_check_s']} s), {r['load_warm_s']} s warm")  # fmt: skip
        else:
            lines.append(f"  load and check: cold run failed, {r['load_warm_s']} s warm")
        if "check_1000_cards_s" in r:
            errs = r["check_1000_cards_errors"]
            lines.append(
                f"  1,000 cards checked in {r['check_1000_cards_s']} s"
                + (f" ({errs} errors)" if errs else "")
            )
        lines.append(f"  random playouts: {p['playouts_per_s']}/s, {p['decisions_per_s']} decisions/s; "
                     f"{p['mean_decisions']} decisions and {p['mean_turns']} turns per game ({p['games']} games)")  # fmt: skip
        lines.append(
            f"  per CPU second: {p['playouts_per_cpu_s']} playouts, {p['decisions_per_cpu_s']} decisions"
        )
        if "playouts_1000_unused_per_s" in r:
            u = r["playouts_1000_unused_per_s"]
            line = f"  with 1,000 unused cards loaded: {u}/s ({u / p['playouts_per_s']:.0%} of the speed without"
            uc = r.get("playouts_1000_unused_per_cpu_s")
            if uc:  # the share in CPU time: what the load of the computer moves less
                line += f"; {uc} per CPU second, {uc / p['playouts_per_cpu_s']:.0%}"
            lines.append(line + ")")
        lines.append(f"  mid-game state ({r['mid_game_decisions']} decisions in): clone {r['clone_us']} µs, "
                     f"sample {r['sample_us']} µs, "
                     f"to_json {r['save_ms']} ms, from_json {r['load_ms']} ms, save {r['save_bytes']:,} bytes")  # fmt: skip
        if r.get("mcts_iterations_per_s"):
            lines.append(f"  mcts search: {r['mcts_iterations_per_s']} iterations/s of CPU "
                         f"({r['mcts_seconds_per_move']} s a move at mcts:{r['mcts_iterations']})")  # fmt: skip
    b = result.get("baseline")
    if b and "error" in b:
        lines.append(f"baseline {b['script']}: {b['error']}")
    elif b:
        lines.append(f"baseline {b['script']} ({b['ruleset']}): {b['playouts_per_s']} playouts/s, "
                     f"{b['decisions_per_s']} decisions/s")  # fmt: skip
        lines.append(f"  hand-written / interpreted: {b['ratio_playouts']}× in playouts/s, "
                     f"{b['ratio_decisions']}× in decisions/s")  # fmt: skip
        if "ratio_playouts_cpu" in b:
            lines.append(f"  per CPU second: {b['playouts_per_cpu_s']} playouts, {b['decisions_per_cpu_s']} "
                         f"decisions; hand-written / interpreted: {b['ratio_playouts_cpu']}× in playouts, "
                         f"{b['ratio_decisions_cpu']}× in decisions")  # fmt: skip
    return "\n".join(lines) + "\n"

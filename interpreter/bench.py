"""`madang bench`: load-and-check time, random playouts per second, clone and save/load times.

Figures are read from here, never asserted in tests. A hand-written anchor (a script printing
one JSON line with playouts_per_s and decisions_per_s) can run in the same session for a ratio.
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

from .api import GameState, load_program, new_game
from .diagnostics import Diagnostics
from .loader import find_ruleset, load_ruleset
from .simulate import pairings


def cold_load_seconds(ref: str) -> float:
    code = (
        "import time; t=time.perf_counter();"
        "from madang.diagnostics import Diagnostics; from madang.loader import load_ruleset;"
        f"d=Diagnostics(); load_ruleset({ref!r}, d); print(time.perf_counter()-t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return float("nan")


def warm_load_seconds(ref: str, extra: list[str] = ()) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        load_ruleset(ref, Diagnostics(), list(extra))
        best = min(best, time.perf_counter() - t)
    return best


def thousand_cards_seconds(ref: str) -> float | None:
    """Check throughput: the extra time to load 1,000 generated cards with the ruleset."""
    import yaml

    folder = find_ruleset(ref, Diagnostics())
    meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
    rows = []
    for rel in meta.get("cards") or []:
        rows += (yaml.safe_load((folder / rel).read_text(encoding="utf-8")) or {}).get("cards") or []
    if not rows:
        return None
    cards = []
    for i in range(1000):
        c = dict(rows[i % len(rows)])
        c["name"] = f"GENERATED_{i}"
        cards.append(c)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "thousand.yaml"
        path.write_text(yaml.safe_dump({"ruleset": meta["name"], "cards": cards}, allow_unicode=True), encoding="utf-8")
        return max(warm_load_seconds(ref, [str(path)]) - warm_load_seconds(ref), 0.0)


def playouts(ref: str, games: int, seed: int = 0) -> dict:
    prog = load_program(ref)
    free, combos = pairings(prog, {})
    decisions = turns = 0
    t = time.perf_counter()
    for i in range(games):
        opts = {k: ",".join(map(str, v)) for k, v in zip(free, combos[i % len(combos)])}
        g = new_game(prog, opts, seed + i)
        rng = random.Random(seed + i)
        while not g.is_terminal():
            g.apply_action(rng.randrange(len(g.legal_actions())))
        decisions += g.st.decisions
        turns += g.st.turn
    dt = time.perf_counter() - t
    return {"games": games, "seconds": round(dt, 3), "playouts_per_s": round(games / dt, 1),
            "decisions_per_s": round(decisions / dt), "mean_decisions": round(decisions / games, 1),
            "mean_turns": round(turns / games, 1)}  # fmt: skip


def mid_game(ref: str, seed: int = 3) -> GameState:
    prog = load_program(ref)
    g = new_game(prog, {}, seed)
    rng = random.Random(seed)
    total = []
    probe = new_game(prog, {}, seed)
    while not probe.is_terminal():
        probe.apply_action(rng.randrange(len(probe.legal_actions())))
        total.append(0)
    rng = random.Random(seed)
    for _ in range(len(total) // 2):
        g.apply_action(rng.randrange(len(g.legal_actions())))
    return g


def state_costs(ref: str) -> dict:
    g = mid_game(ref)
    clones = []
    for _ in range(2000):
        t = time.perf_counter()
        g.clone()
        clones.append(time.perf_counter() - t)
    text = g.to_json()
    saves, loads = [], []
    for _ in range(50):
        t = time.perf_counter()
        text = g.to_json()
        saves.append(time.perf_counter() - t)
        t = time.perf_counter()
        GameState.from_json(text)
        loads.append(time.perf_counter() - t)
    return {"clone_us": round(statistics.median(clones) * 1e6, 1), "save_ms": round(statistics.median(saves) * 1e3, 3),
            "load_ms": round(statistics.median(loads) * 1e3, 3), "save_bytes": len(text.encode())}  # fmt: skip


def find_baseline(refs: list[str]) -> tuple[Path, str] | None:
    """A hand-written anchor for one of the rulesets: `shared/bench/<prefix>_baseline.py` beside
    the repository, where <prefix> starts the ruleset's name."""
    here = Path(__file__).resolve()
    for base in [Path.cwd(), *Path.cwd().parents, *here.parents]:
        folder = base / "shared" / "bench"
        if folder.is_dir():
            for script in sorted(folder.glob("*_baseline.py")):
                prefix = script.stem[: -len("_baseline")]
                for ref in refs:
                    if Path(ref).name.startswith(prefix):
                        return script, ref
    return None


def run_baseline(path: Path, games: int) -> dict | None:
    out = subprocess.run([sys.executable, str(path), str(games)], capture_output=True, text=True, timeout=600)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def bench(refs: list[str], games: int = 300, baseline: str | None = None) -> dict:
    out = {"rulesets": {}}
    for ref in refs:
        r = {
            "load_cold_s": round(cold_load_seconds(ref), 3),
            "load_warm_s": round(warm_load_seconds(ref), 3),
        }
        k = thousand_cards_seconds(ref)
        if k is not None:
            r["check_1000_cards_s"] = round(k, 3)
        r["playouts"] = playouts(ref, games)
        r.update(state_costs(ref))
        out["rulesets"][ref] = r
    found = (Path(baseline), refs[0]) if baseline else find_baseline(refs)
    if found is not None and found[0].is_file():
        path, anchor = found
        # The computer's speed drifts: run the anchor and ours alternately, keep the best of each.
        b, mine = None, out["rulesets"][anchor]["playouts"]
        for _ in range(3):
            r = run_baseline(path, max(games, 1000))
            if r and (b is None or r["playouts_per_s"] > b["playouts_per_s"]):
                b = r
            m = playouts(anchor, games)
            if m["playouts_per_s"] > mine["playouts_per_s"]:
                mine = m
        out["rulesets"][anchor]["playouts"] = mine
        if b:
            out["baseline"] = {
                "script": str(path),
                "ruleset": anchor,
                **b,
                "ratio_playouts": round(b["playouts_per_s"] / mine["playouts_per_s"], 2),
                "ratio_decisions": round(b["decisions_per_s"] / mine["decisions_per_s"], 2),
                "note": "best of 3 alternating runs of each",
            }
    return out

"""Many games between agents, on all local cores, keeping only running totals.

Game i uses seed `seed + i`; rulesets with per-seat options (a deck, a faction) cycle through
every ordering of distinct values unless the option is fixed. The result outside its `timing`
key depends only on the ruleset, options, seats, seed and number of games, never on `--jobs`.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor

from .agents import make_agent
from .api import GameState, load_program, new_game, resolve_options
from .builtins import RulesError


def pairings(prog, options: dict) -> tuple[list[str], list[tuple]]:
    """The per-seat options left free, and every assignment of their values to the seats."""
    specs = prog.meta.get("options") or {}
    _, nplayers = resolve_options(prog, options)
    free = [k for k, s in specs.items() if s.get("per_seat") and k not in options]
    if not free:
        return [], [()]
    combos = []
    per_option = []
    for k in free:
        values = specs[k].get("values") or [specs[k].get("default")]
        if len(values) >= nplayers:
            per_option.append(list(itertools.permutations(values, nplayers)))
        else:
            per_option.append(list(itertools.product(values, repeat=nplayers)))
    for combo in itertools.product(*per_option):
        combos.append(combo)
    return free, combos


def play_one(ref: str, cards: tuple, options: dict, seed: int, seats: list[str], max_decisions: int) -> dict:
    prog = load_program(ref, cards)
    try:
        game = new_game(prog, options, seed)
        agents = [make_agent(s) for s in seats]
        while not game.is_terminal():
            if game.st.decisions >= max_decisions:
                return {"unfinished": True, "decisions": game.st.decisions, "turns": game.st.turn, "rounds": game.st.round}
            seat = game.current_player()
            game.apply_action(agents[seat % len(agents)].choose(game, seat))
        st = game.st
        return {"winners": list(st.winners), "lost": list(st.lost), "n": st.g.nplayers, "decisions": st.decisions, "turns": st.turn, "rounds": st.round}
    except RulesError as e:
        return {"error": str(e)[:300]}


def _job(args):
    return play_one(*args)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (round((c - r) / d, 4), round((c + r) / d, 4))


class Totals:
    def __init__(self, nseats: int, free: list[str]):
        self.games = 0
        self.seat_wins = [0] * nseats
        self.draws = 0
        self.nobody = 0
        self.unfinished = 0
        self.errors: dict[str, int] = {}
        self.by_value: dict[str, dict] = {k: {} for k in free}
        self.sums = {"decisions": [0, None, None], "turns": [0, None, None], "rounds": [0, None, None]}
        self.finished = 0

    def add(self, r: dict, combo: tuple, free: list[str]) -> None:
        self.games += 1
        if "error" in r:
            self.errors[r["error"]] = self.errors.get(r["error"], 0) + 1
            return
        for key in self.sums:
            v = r.get(key, 0)
            s = self.sums[key]
            s[0] += v
            s[1] = v if s[1] is None else min(s[1], v)
            s[2] = v if s[2] is None else max(s[2], v)
        if r.get("unfinished"):
            self.unfinished += 1
            return
        self.finished += 1
        winners = r["winners"]
        if not winners:
            if len(r["lost"]) == r["n"]:
                self.nobody += 1
            else:
                self.draws += 1
        for w in winners:
            self.seat_wins[w] += 1
        for k, values in zip(free, combo):
            for seat, v in enumerate(values):
                slot = self.by_value[k].setdefault(str(v), [0, 0])
                slot[0] += 1
                slot[1] += 1 if seat in winners else 0

    def report(self) -> dict:
        n = self.games
        out = {
            "games": n,
            "finished": self.finished,
            "seats": [
                {"seat": i + 1, "wins": w, "rate": round(w / n, 4) if n else 0.0, "ci95": list(wilson(w, n))}
                for i, w in enumerate(self.seat_wins)
            ],
            "draws": self.draws,
            "no_winner": self.nobody,
            "unfinished": self.unfinished,
            "errors": dict(sorted(self.errors.items())),
        }
        for k, table in self.by_value.items():
            out.setdefault("by_option", {})[k] = {
                v: {"games": g, "wins": w, "rate": round(w / g, 4) if g else 0.0, "ci95": list(wilson(w, g))}
                for v, (g, w) in sorted(table.items())
            }
        played = max(n - sum(self.errors.values()), 1)
        for key, (total, lo, hi) in self.sums.items():
            out[key] = {"mean": round(total / played, 2), "min": lo or 0, "max": hi or 0}
        return out


def simulate(ref: str, games: int, seed: int = 0, jobs: int | None = None, seats: list[str] | None = None,
             options: dict | None = None, cards: tuple = (), max_decisions: int = 100_000, progress=None) -> dict:
    options = dict(options or {})
    prog = load_program(ref, cards)
    _, nplayers = resolve_options(prog, options)
    seats = seats or ["random"] * nplayers
    free, combos = pairings(prog, options)
    tasks = []
    for i in range(games):
        combo = combos[i % len(combos)]
        opts = dict(options)
        for k, values in zip(free, combo):
            opts[k] = ",".join(map(str, values))
        tasks.append((ref, tuple(cards), opts, seed + i, seats, max_decisions))
    totals = Totals(nplayers, free)
    start = time.perf_counter()
    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1 or games < 4:
        results = map(_job, tasks)
        for i, r in enumerate(results):
            totals.add(r, combos[i % len(combos)], free)
            if progress:
                progress(i + 1)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            chunk = max(1, min(50, games // (jobs * 8) or 1))
            for i, r in enumerate(pool.map(_job, tasks, chunksize=chunk)):
                totals.add(r, combos[i % len(combos)], free)
                if progress:
                    progress(i + 1)
    seconds = time.perf_counter() - start
    out = {"ruleset": prog.name, "seed": seed, "seats": seats, "options": options, **totals.report()}
    out["timing"] = {"seconds": round(seconds, 3), "games_per_s": round(games / seconds, 1) if seconds else None, "jobs": jobs}
    return out


__all__ = ["simulate", "pairings", "wilson", "GameState"]

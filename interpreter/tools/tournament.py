"""Round-robin tournaments between agents, with win rates, intervals and ratings.

Every *lineup* (an assignment of agents to seats) plays `games` games, game i with seed
`seed + i`, so that swapped seats get the same deals. Two-player rulesets play every pair of
agents in both seat orders; with more seats, every choice of agents (all of them when there are
fewer agents than seats, cycled to fill the seats) in every rotation. Per-seat options left free
(a deck per seat, say) cycle as in `madang simulate`.

Results are gathered in game order whatever `jobs` is, so everything outside `timing` depends
only on the arguments. Ratings are OpenSkill (Plackett–Luce) when the `openskill` package is
installed, else Elo; both are updated game by game in that order.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from ..game.api import MadangError, load_program, new_game, resolve_options
from ..runtime.errors import RulesError
from .agents import Decision, make_agent
from .intervals import wilson
from .simulate import internal_error, local_cpus, pairings

_MOVES = None  # a shared counter of moves played, in worker processes (for the progress bar)


def lineups(agents: list[str], nplayers: int) -> list[tuple[int, ...]]:
    """Which agent (an index into `agents`) sits in each seat, for every lineup to play."""
    k = len(agents)
    if k < 2:
        raise MadangError("a tournament needs at least two agents (--seats A,B,...)")
    if nplayers == 2:
        return [o for i, j in itertools.combinations(range(k), 2) for o in ((i, j), (j, i))]
    if k <= nplayers:
        return [tuple((r + s) % k for s in range(nplayers)) for r in range(max(k, nplayers))]
    out = []
    for combo in itertools.combinations(range(k), nplayers):
        out += [tuple(combo[(r + s) % nplayers] for s in range(nplayers)) for r in range(nplayers)]
    return out


def play(prog, options: dict, seed: int, specs: list[str], max_decisions: int) -> dict:
    """One game; per seat the time spent deciding, the decisions and the search iterations."""
    n = 0
    # seconds, decisions, iterations, playout decisions, CPU seconds (this process's)
    stats = [[0.0, 0, 0, 0, 0.0] for _ in specs]
    try:
        agents = [make_agent(s) for s in specs]
        game = new_game(prog, options, seed, memory=any(a.samples for a in agents))
        st = game.st
        while not st.over:
            if st.decisions >= max_decisions:
                return {"unfinished": True, "decisions": st.decisions, "stats": stats}
            d = Decision(game)
            agent = agents[d.seat]
            t, cpu = time.perf_counter(), time.process_time()
            a = agent.decide(d)
            row = stats[d.seat]
            row[0] += time.perf_counter() - t
            row[4] += time.process_time() - cpu
            row[1] += 1
            search = getattr(agent, "last", None)
            if search is not None:
                row[2] += search.done
                row[3] += search.playout_decisions
                agent.last = None
            game.apply_action(a)
            n += 1
            if _MOVES is not None and n % 8 == 0:
                with _MOVES.get_lock():
                    _MOVES.value += 8
        return {"winners": list(st.winners), "lost": list(st.lost), "decisions": st.decisions,
                "stats": stats}  # fmt: skip
    except (RulesError, MadangError) as e:
        return {"error": " ".join(str(e).split())[:300], "stats": stats}
    except RecursionError:
        return {"error": "internal error: RecursionError", "stats": stats}
    except Exception as e:  # an engine bug must not lose a long tournament
        return {"error": internal_error(e), "stats": stats}


def _init(counter) -> None:
    global _MOVES
    _MOVES = counter
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _task(t):
    ref, cards, options, seed, specs, max_decisions = t
    return play(load_program(ref, cards), options, seed, specs, max_decisions)


class Ratings:
    """OpenSkill (Plackett–Luce) when installed, else Elo (K = 16), one update per game."""

    def __init__(self, names: list[str]):
        self.names = names
        try:
            from openskill.models import PlackettLuce

            self.model = PlackettLuce()
            self.r = [self.model.rating(name=nm) for nm in names]
            self.kind = "openskill"
        except ImportError:
            self.model = None
            self.r = [1500.0] * len(names)
            self.kind = "elo"

    def game(self, seated: list[int], winners: list[int]) -> None:
        """`seated[s]` is the agent in seat s; winners rank first, everybody else next."""
        if len(set(seated)) < 2:
            return  # an agent against itself says nothing about ratings
        ranks = [1 if s in winners else 2 for s in range(len(seated))]
        if self.model is not None:
            teams = [[self.r[a]] for a in seated]
            new = self.model.rate(teams, ranks=ranks)
            for a, team in zip(seated, new):
                self.r[a] = team[0]
            return
        deltas = [0.0] * len(self.r)
        for s, t in itertools.combinations(range(len(seated)), 2):
            a, b = seated[s], seated[t]
            if a == b:
                continue
            expect = 1.0 / (1.0 + 10 ** ((self.r[b] - self.r[a]) / 400.0))
            got = 1.0 if ranks[s] < ranks[t] else 0.0 if ranks[s] > ranks[t] else 0.5
            deltas[a] += 16 * (got - expect)
            deltas[b] -= 16 * (got - expect)
        self.r = [r + d for r, d in zip(self.r, deltas)]

    def report(self) -> list[dict]:
        if self.model is not None:
            return [{"mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
                     "ordinal": round(r.ordinal(), 2)} for r in self.r]  # fmt: skip
        return [{"elo": round(r, 1)} for r in self.r]


def tournament(ref: str, agents: list[str], games: int, seed: int = 0, jobs: int | None = None,
               options: dict | None = None, cards: tuple = (), max_decisions: int = 100_000,
               progress=None) -> dict:  # fmt: skip
    """Play the round-robin and return the report (plain data; wall-clock figures under
    `timing`). `progress(games_done, games_total, moves)` is called now and then."""
    if games < 1:
        raise MadangError("--games must be 1 or more")
    options = dict(options or {})
    ref = str(ref)
    cards = tuple(str(c) for c in cards)
    prog = load_program(ref, cards)
    _, nplayers = resolve_options(prog, options)
    agents = [a.strip() for a in agents if a.strip()]
    for a in agents:
        if a.partition(":")[0] in ("human", "scripted"):
            raise MadangError("tournaments play without people or scripts: use random, first, "
                              "greedy or mcts...")  # fmt: skip
        make_agent(a)  # an unknown agent fails here, once
    free, combos = pairings(prog, options)
    lines = lineups(agents, nplayers)
    tasks, meta = [], []
    for li, line in enumerate(lines):
        for i in range(games):
            opts = dict(options)
            for k, values in zip(free, combos[i % len(combos)]):
                opts[k] = list(values)
            tasks.append((ref, cards, opts, seed + i, [agents[a] for a in line], max_decisions))
            meta.append((li, line))
    jobs = max(1, min(jobs or local_cpus(), len(tasks)))
    results: list = [None] * len(tasks)
    begin = time.perf_counter()
    counter = multiprocessing.Value("q", 0)
    done = 0
    if jobs == 1:
        global _MOVES
        _MOVES = counter
        try:
            for i, t in enumerate(tasks):
                results[i] = _task(t)
                done += 1
                if progress:
                    progress(done, len(tasks), counter.value)
        finally:
            _MOVES = None
    else:
        pool = ProcessPoolExecutor(jobs, initializer=_init, initargs=(counter,))
        try:
            futures = {pool.submit(_task, t): i for i, t in enumerate(tasks)}
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for f in finished:
                    results[futures[f]] = f.result()
                    done += 1
                if progress:
                    progress(done, len(tasks), counter.value)
        except BaseException:
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            raise
        pool.shutdown(wait=True)
    seconds = time.perf_counter() - begin
    return _report(prog.name, agents, lines, meta, results, games, seed, options, jobs, seconds)


def _report(name, agents, lines, meta, results, games, seed, options, jobs, seconds) -> dict:
    k = len(agents)
    ratings = Ratings(agents)
    per = [{"games": 0, "wins": 0, "draws": 0, "unfinished": 0, "errors": 0} for _ in agents]
    timing = [[0.0, 0, 0, 0, 0.0] for _ in agents]
    h2h = [[[0, 0] for _ in agents] for _ in agents]  # [a][b] = [games, wins of a]
    by_line = [{"seats": [agents[a] for a in line], "games": 0, "wins": [0] * len(line),
                "no_winner": 0} for line in lines]  # fmt: skip
    no_winner = errors = unfinished = 0
    error_kinds: dict[str, int] = {}
    for (li, line), r in zip(meta, results):
        for s, a in enumerate(line):
            for x in range(5):
                timing[a][x] += r["stats"][s][x]
        if "error" in r:
            errors += 1
            error_kinds[r["error"]] = error_kinds.get(r["error"], 0) + 1
            for a in set(line):
                per[a]["errors"] += 1
            continue
        if r.get("unfinished"):
            unfinished += 1
            for a in set(line):
                per[a]["unfinished"] += 1
            continue
        winners = r["winners"]
        row = by_line[li]
        row["games"] += 1
        row["no_winner"] += not winners
        no_winner += not winners
        for w in winners:
            row["wins"][w] += 1
        for s, a in enumerate(line):
            per[a]["games"] += 1
            per[a]["wins"] += s in winners
            per[a]["draws"] += not winners
        for s, t in itertools.permutations(range(len(line)), 2):
            a, b = line[s], line[t]
            if a != b:
                h2h[a][b][0] += 1
                h2h[a][b][1] += s in winners
        ratings.game(list(line), winners)
    rated = ratings.report()
    table = []
    for a in range(k):
        p = per[a]
        sec, dec, its, pdec, cpu = timing[a]
        table.append({
            "agent": agents[a], **p,
            "rate": round(p["wins"] / p["games"], 4) if p["games"] else 0.0,
            "ci95": list(wilson(p["wins"], p["games"])),
            "rating": rated[a],
            "ms_per_move": round(1000 * sec / dec, 2) if dec else None,
            "cpu_ms_per_move": round(1000 * cpu / dec, 2) if dec else None,
            "iterations_per_move": round(its / dec, 1) if dec and its else None,
            "playouts_per_s": round(its / sec, 1) if sec and its else None,
            "playout_decisions_per_s": round(pdec / sec) if sec and pdec else None,
        })  # fmt: skip
    head = {}
    for a in range(k):
        for b in range(k):
            g, w = h2h[a][b]
            if a != b and g:
                head[f"{agents[a]} vs {agents[b]}"] = {
                    "games": g,
                    "wins": w,
                    "rate": round(w / g, 4),
                    "ci95": list(wilson(w, g)),
                }
    total = len(results)
    return {
        "ruleset": name, "agents": agents, "seed": seed, "options": options,
        "games_per_lineup": games, "games": total, "finished": total - errors - unfinished,
        "no_winner": no_winner, "unfinished": unfinished, "error_games": errors,
        "errors": error_kinds, "rating_system": ratings.kind, "standings": table,
        "head_to_head": head, "lineups": by_line,
        "timing": {"seconds": round(seconds, 2), "jobs": jobs},
    }  # fmt: skip


def render(result: dict) -> str:
    """The report as text for a terminal."""
    out = [
        f"{result['ruleset']}: {result['games']} games ({result['games_per_lineup']} per lineup), "
        f"seed {result['seed']}, rating: {result['rating_system']}"
    ]
    width = max(len(r["agent"]) for r in result["standings"])
    for r in sorted(result["standings"], key=_rank_key, reverse=True):
        lo, hi = r["ci95"]
        rating = r["rating"]
        rt = (f"ordinal {rating['ordinal']:6.2f} (μ {rating['mu']:.1f} σ {rating['sigma']:.1f})"
              if "mu" in rating else f"Elo {rating['elo']:.0f}")  # fmt: skip
        speed = "-"
        if r["ms_per_move"] is not None:
            speed = f"{r['ms_per_move']} ms/move ({r['cpu_ms_per_move']} ms of CPU)"
        if r["playouts_per_s"]:
            speed += f", {r['iterations_per_move']} playouts/move, {r['playouts_per_s']} playouts/s"
        out.append(
            f"  {r['agent']:<{width}}  wins {r['wins']:>4}/{r['games']:<4} {r['rate']:6.1%} "
            f"(95% CI {lo:.1%}–{hi:.1%})  {rt}  {speed}"
        )
    if result["head_to_head"]:
        out.append("  head to head (wins of the first):")
        for key, h in result["head_to_head"].items():
            lo, hi = h["ci95"]
            out.append(f"    {key}: {h['wins']}/{h['games']} {h['rate']:.1%} "
                       f"(95% CI {lo:.1%}–{hi:.1%})")  # fmt: skip
    out.append(
        f"  no winner {result['no_winner']}, unfinished {result['unfinished']}, "
        f"errors {result['error_games']}; {result['timing']['seconds']} s on "
        f"{result['timing']['jobs']} job(s)"
    )
    for msg, n in result["errors"].items():
        out.append(f"  error ×{n}: {msg}")
    return "\n".join(out)


def _rank_key(r: dict):
    rating = r["rating"]
    return rating.get("ordinal", rating.get("elo", 0.0)), r["rate"]


class Bars:
    """Progress bars on stderr (games, and moves played so far), only when it is a terminal."""

    def __init__(self):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)  # fmt: skip
        self.games = self.bar.add_task("games", total=None)
        self.moves = self.bar.add_task("moves", total=None)

    def __enter__(self):
        self.bar.start()
        return self

    def __exit__(self, *exc):
        self.bar.stop()

    def __call__(self, done: int, total: int, moves: int) -> None:
        self.bar.update(self.games, completed=done, total=total)
        self.bar.update(self.moves, completed=moves)


__all__ = ["tournament", "lineups", "render", "play", "Ratings", "Bars"]

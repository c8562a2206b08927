"""Many games between agents, on all local cores, keeping only running totals.

Game i uses seed `seed + i`. Rulesets with per-seat options (`per_seat: true`: a deck, a
faction) cycle through every assignment of distinct values to the seats unless the option is
fixed with `--option`, and the report gives the win rate of every value as well as of every seat.

Games are played in chunks whose size depends only on the number of games; chunk totals are
merged in game order. So the result outside its `timing` key depends only on the ruleset,
options, agents, seed and number of games, never on `--jobs`. Memory does not grow with the
number of games: only totals are kept (and at most MAX_ERROR_KINDS distinct error messages).
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..game.api import (
    MadangError,
    load_program,
    new_game,
    resolve_options,
)
from ..runtime import budget
from ..runtime.errors import RulesError
from . import cardstats
from .agents import Decision, make_agent
from .intervals import wilson

MAX_ERROR_KINDS = 20
MAX_PAIRINGS = 100_000  # assignments of per-seat option values to seats, listed up front
STATS = ("decisions", "turns", "rounds")


def local_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pairings(prog, options: dict, gauntlet: tuple | None = None) -> tuple[list[str], list[tuple]]:
    """The per-seat options left free, and every assignment of their values to the seats: the
    orderings of distinct values (for two seats and decks 1–4: (1,2), (1,3) ... (4,3)), or every
    assignment when there are fewer values than seats.

    A `gauntlet` (deck, opponents) keeps the assignments of the deck option where that deck
    plays in one seat and only the opponents (None: every other deck) in the others."""
    specs = prog.meta.get("options") or {}
    _, nplayers = resolve_options(prog, options)
    free = [k for k, s in specs.items() if s.get("per_seat") and k not in options]
    if not free:
        return [], [()]
    sizes = [len(specs[k].get("values") or [0]) for k in free]
    total = math.prod(math.perm(v, nplayers) if v >= nplayers else v**nplayers for v in sizes)
    if total > MAX_PAIRINGS:
        raise MadangError(
            f"{total:,} ways to give the seats their {', '.join(free)}: more than {MAX_PAIRINGS:,};"
            " fix some with --option NAME=VALUE"
        )
    per_option = []
    for k in free:
        values = specs[k].get("values") or [specs[k].get("default")]
        if len(values) >= nplayers:
            per_option.append(list(itertools.permutations(values, nplayers)))
        else:
            per_option.append(list(itertools.product(values, repeat=nplayers)))
    combos = list(itertools.product(*per_option))
    if gauntlet is not None:
        option = (prog.meta.get("decks") or {}).get("option")
        if option not in free:
            raise MadangError("--against needs a ruleset whose decks are chosen per seat")
        focus, against = gauntlet
        values = [str(v) for v in specs[option].get("values") or []]
        for name in against or []:
            if name not in values:
                raise MadangError(f"--against {name}: no such deck; decks: {', '.join(values)}")
        k = free.index(option)
        combos = [
            c
            for c in combos
            if list(c[k]).count(focus) == 1
            and all(v == focus or v != focus and (against is None or v in against) for v in c[k])
        ]
    return free, combos


def seat_specs(seats: list[str] | None, nplayers: int) -> list[str]:
    """One agent name per seat: a single name stands for every seat."""
    seats = [s.strip() for s in seats or ["random"]]
    if len(seats) == 1:
        return seats * nplayers
    if len(seats) != nplayers:
        raise MadangError(f"this game has {nplayers} seats but --seats names {len(seats)} agents")
    return seats


def play_one(prog, options: dict, seed: int, seats: list[str], max_decisions: int,
             by_card: bool = False) -> dict:  # fmt: skip
    """One game to its end (or the decision limit); a rules error is a result, not a crash."""
    try:
        watch = None
        if by_card:
            from ..game.position import Position
            from .cardstats import CardWatch

            pos = Position.new(prog, options, seed, log=False)
            watch = CardWatch(prog, pos.st.g.nplayers)
            pos.keep_log(watch)
            pos.run()
            game = pos.game
            agents = [make_agent(s) for s in seats]
        else:
            agents = [make_agent(s) for s in seats]
            game = new_game(prog, options, seed, memory=any(a.samples for a in agents))
        st = game.st
        while not st.over:
            if st.decisions >= max_decisions:
                return {
                    "unfinished": True,
                    "decisions": st.decisions,
                    "turns": st.turn,
                    "rounds": st.round,
                }
            if watch is not None:
                watch.sample(st)
            d = Decision(game)
            game.apply_action(agents[d.seat].decide(d))
        out = {"winners": list(st.winners), "lost": list(st.lost), "n": st.g.nplayers,
               "decisions": st.decisions, "turns": st.turn, "rounds": st.round}  # fmt: skip
        if watch is not None:
            watch.sample(st)
            out["cards"] = watch.tally(out["winners"], seat_decks(prog, options))
        return out
    except (RulesError, MadangError) as e:
        return {"error": " ".join(str(e).split())[:300]}
    except RecursionError:
        return {"error": "internal error: RecursionError"}
    except Exception as e:  # an engine bug must not lose a run of thousands of games
        return {"error": internal_error(e)}


def internal_error(e: Exception) -> str:
    """A game's Python error on one line, with the place in the rules it was running
    (codegen.note_rules_place) when it was inside them."""
    where = [str(x) for x in getattr(e, "__notes__", ())]
    text = " ".join(f"{type(e).__name__}: {e}".split())[:250]
    return f"internal error: {text}" + "".join(f" ({w})" for w in where)


def seat_decks(prog, options: dict) -> list[str] | None:
    """The deck of every seat (the ruleset's deck option), or None without one."""
    option = (prog.meta.get("decks") or {}).get("option")
    if not option:
        return None
    value = resolve_options(prog, options)[0].get(option)
    return [str(v) for v in value] if isinstance(value, list) else None


def _combo_key(free: list[str], combo: tuple) -> str:
    return " ".join(f"{k}={','.join(map(str, v))}" for k, v in zip(free, combo))


class Totals:
    """Running totals of a run; `merge` adds another's (later games) into this one."""

    def __init__(self, nseats: int, free: list[str]):
        self.free = free
        self.games = 0
        self.finished = 0
        self.unfinished = 0
        self.seat_wins = [0] * nseats
        self.draws = 0
        self.nobody = 0
        self.shared = 0
        self.errors: dict[str, list[int]] = {}  # message -> [games, first seed]
        self.other_errors = 0
        self.by_value: dict[str, dict[str, list[int]]] = {
            k: {} for k in free
        }  # value -> [seat-games, wins]
        self.by_pairing: dict[str, list] = {}  # "deck=1,2" -> [games, draws, wins per seat]
        self.stats = {k: [0, None, None] for k in STATS}  # total, min, max over games played
        self.turns: dict[int, int] = {}  # turns -> finished games that took that many
        self.by_card: dict[tuple, list[int]] = {}  # (card, deck, seat) -> counts (cardstats.py)

    def add(self, r: dict, combo: tuple, seed: int) -> None:
        self.games += 1
        if "error" in r:
            self._error(r["error"], 1, seed)
            return
        for key, s in self.stats.items():
            v = r.get(key, 0)
            s[0] += v
            s[1] = v if s[1] is None else min(s[1], v)
            s[2] = v if s[2] is None else max(s[2], v)
        if r.get("unfinished"):
            self.unfinished += 1
            return
        self.finished += 1
        self.turns[r["turns"]] = self.turns.get(r["turns"], 0) + 1
        if "cards" in r:
            cardstats.merge(self.by_card, r["cards"])
        winners = r["winners"]
        if not winners:
            if len(r["lost"]) == r["n"]:
                self.nobody += 1
            else:
                self.draws += 1
        elif len(winners) > 1:
            self.shared += 1
        for w in winners:
            self.seat_wins[w] += 1
        for k, values in zip(self.free, combo):
            for seat, v in enumerate(values):
                slot = self.by_value[k].setdefault(str(v), [0, 0])
                slot[0] += 1
                slot[1] += seat in winners
        if self.free:
            row = self.by_pairing.setdefault(
                _combo_key(self.free, combo), [0, 0, [0] * len(self.seat_wins)]
            )
            row[0] += 1
            row[1] += not winners
            for w in winners:
                row[2][w] += 1

    def _error(self, message: str, count: int, seed: int) -> None:
        slot = self.errors.get(message)
        if slot is not None:
            slot[0] += count
        elif len(self.errors) < MAX_ERROR_KINDS:
            self.errors[message] = [count, seed]
        else:
            self.other_errors += count

    def merge(self, o: Totals) -> None:
        """Add the totals of games played after ours (the order keeps the result deterministic)."""
        self.games += o.games
        self.finished += o.finished
        self.unfinished += o.unfinished
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, o.seat_wins)]
        self.draws += o.draws
        self.nobody += o.nobody
        self.shared += o.shared
        for t, c in o.turns.items():
            self.turns[t] = self.turns.get(t, 0) + c
        cardstats.merge(self.by_card, o.by_card)
        for msg, (count, seed) in o.errors.items():
            self._error(msg, count, seed)
        self.other_errors += o.other_errors
        for k, table in o.by_value.items():
            mine = self.by_value.setdefault(k, {})
            for v, (g, w) in table.items():
                slot = mine.setdefault(v, [0, 0])
                slot[0] += g
                slot[1] += w
        for key, (g, dr, wins) in o.by_pairing.items():
            row = self.by_pairing.setdefault(key, [0, 0, [0] * len(wins)])
            row[0] += g
            row[1] += dr
            row[2] = [a + b for a, b in zip(row[2], wins)]
        for key, s in self.stats.items():
            t, lo, hi = o.stats[key]
            if lo is None:
                continue
            s[0] += t
            s[1] = lo if s[1] is None else min(s[1], lo)
            s[2] = hi if s[2] is None else max(s[2], hi)

    def report(self, kinds: dict | None = None, costs: dict | None = None) -> dict:
        n = self.finished
        errors = sum(c for c, _ in self.errors.values()) + self.other_errors
        out = {
            "games": self.games,
            "finished": n,
            "unfinished": self.unfinished,
            "errors": {m: {"games": c, "first_seed": s} for m, (c, s) in self.errors.items()},
            "error_games": errors,
            "seats": [
                {
                    "seat": i + 1,
                    "wins": w,
                    "rate": round(w / n, 4) if n else 0.0,
                    "ci95": list(wilson(w, n)),
                }
                for i, w in enumerate(self.seat_wins)
            ],
            "draws": self.draws,
            "no_winner": self.nobody,
            "shared_wins": self.shared,
        }
        if self.other_errors:
            out["errors"]["(other messages)"] = {"games": self.other_errors, "first_seed": None}
        if self.by_value:
            out["by_option"] = {
                k: {v: {"games": g, "wins": w, "rate": round(w / g, 4) if g else 0.0, "ci95": list(wilson(w, g))}
                    for v, (g, w) in sorted(table.items(), key=lambda kv: _value_order(kv[0]))}
                for k, table in self.by_value.items()
            }  # fmt: skip
            out["pairings"] = {
                key: {"games": g, "draws": dr, "wins": wins}
                for key, (g, dr, wins) in self.by_pairing.items()
            }
        out["turn_counts"] = {str(t): c for t, c in sorted(self.turns.items())}
        if self.by_card:
            out["cards"] = cardstats.report(self.by_card, kinds, costs)
        played = self.games - errors
        for key, (total, lo, hi) in self.stats.items():
            out[key] = {
                "mean": round(total / played, 2) if played else 0.0,
                "min": lo or 0,
                "max": hi or 0,
            }
        return out


def inputs(prog, files: tuple[str, ...]) -> dict:
    """What a run ran: the madang version, the ruleset with its fingerprints (the digests saves
    carry), and each card or deck file given with its SHA-256, so a result can be traced back."""
    import hashlib

    from .. import __version__
    from ..build.loader import card_set_file, card_set_sources
    from ..language.decks import looks_like_deck

    def shown(f) -> str:
        rel = os.path.relpath(f)
        return str(f) if rel.startswith("..") else rel

    listed = []
    for path in files:
        parts = [path] if os.path.isfile(path) else [card_set_file(path)]
        for f in [*parts, *card_set_sources(path)]:
            try:
                digest = hashlib.sha256(open(f, "rb").read()).hexdigest()
            except OSError:
                digest = None
            role = "language" if str(f).endswith(".madang") else "cards"
            if str(f).endswith((".yaml", ".yml")) and looks_like_deck(str(f)):
                role = "deck"
            listed.append({"path": shown(f), "role": role, "sha256": digest})
    return {"madang": __version__, "ruleset": prog.name,
            "fingerprints": dict(getattr(prog, "fingerprints", None) or {}), "files": listed}  # fmt: skip


def card_facts(prog) -> tuple[dict[str, str], dict[str, object]]:
    """Each card's kind and cost (the property `decks: cost:` names), for the card table."""
    kinds, costs = {}, {}
    prop = (prog.meta.get("decks") or {}).get("cost")
    for c in prog.cards:
        kinds[c.name] = c.kind
        cost = (c.props or {}).get(prop) if prop and isinstance(c.props, dict) else None
        if isinstance(cost, (int, float)) and not isinstance(cost, bool):
            costs[c.name] = cost
    return kinds, costs


def _value_order(v: str):
    return (0, int(v), "") if v.lstrip("-").isdigit() else (1, 0, v)


def chunk_size(games: int) -> int:
    """Games per task: a function of the number of games only (never of --jobs)."""
    return max(1, min(100, games // 64))


def _worker_init(ceiling: int = budget.CEILING) -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback from every worker),
    die with the parent however it ends (Linux), and allow the work the parent allows."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by fork
    budget.set_ceiling(ceiling)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: SIGTERM when the parent exits
    except (OSError, AttributeError):
        pass


class _Sigterm:
    """SIGTERM to the parent: unwind (which stops the workers), then exit as the signal would.
    While tasks are being submitted it only notes the signal: unwinding out of the executor's
    submit() would leave its lock held and deadlock the shutdown."""

    def __init__(self):
        self.ready = False
        self.got = False

    def __call__(self, signum, frame):
        if not self.ready:
            self.got = True
            return
        raise SystemExit(128 + signal.SIGTERM)

    def arm(self) -> None:
        self.ready = True
        if self.got:
            raise SystemExit(128 + signal.SIGTERM)


def _results(tasks, futures, lost: list[int]):
    """Each chunk's totals in order; a chunk whose worker died (killed, out of memory) is
    counted in `lost` and skipped, so the games already finished are kept."""
    for t, f in zip(tasks, futures):
        try:
            yield f.result()
        except BrokenProcessPool:
            lost.append(t[8])


def _run_chunk(task) -> Totals:
    ref, cards, options, free, combos, seats, seed, start, count, max_decisions, nplayers = task[
        :11
    ]
    by_card = task[11]
    prog = load_program(ref, cards)
    totals = Totals(nplayers, free)
    for i in range(start, start + count):
        combo = combos[i % len(combos)]
        opts = dict(options)
        for k, values in zip(free, combo):
            opts[k] = list(values)
        totals.add(play_one(prog, opts, seed + i, seats, max_decisions, by_card), combo, seed + i)
    return totals


def _run_ray_chunk(task_and_ceiling) -> Totals:
    """A chunk on a Ray worker, which shares no memory with us: it is told the ceiling on work
    that --max-work set here."""
    task, ceiling = task_and_ceiling
    budget.set_ceiling(ceiling)
    return _run_chunk(task)


def simulate(ref: str, games: int, seed: int = 0, jobs: int | None = None, seats: list[str] | None = None,
             options: dict | None = None, cards: tuple = (), max_decisions: int = 100_000, progress=None,
             backend: str = "local", address: str | None = None, gauntlet: tuple | None = None,
             by_card: bool = False, card_model: bool = False) -> dict:  # fmt: skip
    """Play `games` games and return the report (plain data; wall-clock figures under `timing`).
    `progress(done)` is called as games complete."""
    if games < 0:
        raise MadangError("--games must be 0 or more")
    options = dict(options or {})
    ref = str(ref)
    cards = tuple(str(c) for c in cards)
    prog = load_program(ref, cards)
    _, nplayers = resolve_options(prog, options)
    seats = seat_specs(seats, nplayers)
    for s in seats:
        if s == "human":
            raise MadangError(
                "simulate plays without people: seats may be random, first, greedy, mcts... or scripted:..."
            )
        make_agent(s)  # an unknown agent fails here, once, not in every game
    free, combos = pairings(prog, options, gauntlet)
    size = chunk_size(games)
    tasks = [
        (
            ref,
            cards,
            options,
            free,
            combos,
            seats,
            seed,
            start,
            min(size, games - start),
            max_decisions,
            nplayers,
            by_card,
        )
        for start in range(0, games, size)
    ]
    totals = Totals(nplayers, free)
    jobs = min(max(1, jobs or local_cpus()), local_cpus())  # more processes than cores: no faster
    jobs = min(jobs, max(1, len(tasks)))
    lost: list[int] = []
    begin = time.perf_counter()
    if backend == "ray":
        from .raybackend import run_chunks

        results = run_chunks(_run_ray_chunk, [(t, budget.CEILING) for t in tasks], address)
        pool = None
    elif jobs == 1:
        results = map(_run_chunk, tasks)
        pool = None
    else:
        pool = ProcessPoolExecutor(jobs, initializer=_worker_init, initargs=(budget.CEILING,))
    old_term = None
    sigterm = _Sigterm()
    if pool is not None and threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, sigterm)
    try:
        if pool is not None:
            results = _results(tasks, [pool.submit(_run_chunk, t) for t in tasks], lost)
            sigterm.arm()
        for part in results:
            totals.merge(part)
            if progress:
                progress(totals.games)
    except BaseException:
        if pool is not None:  # interrupted or failed: stop our workers now, not after their chunks
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            pool = None
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    seconds = time.perf_counter() - begin
    out = {"ruleset": prog.name, "seed": seed, "agents": seats, "options": options, "varied": free,
           "max_decisions": max_decisions, "inputs": inputs(prog, cards),
           **totals.report(*card_facts(prog))}  # fmt: skip
    if card_model and out.get("cards"):
        cardstats.fit_models(totals.by_card, out["cards"])
    if lost:
        out["lost"] = {
            "games": sum(lost),
            "why": "a worker process died (killed, or out of memory); the other games are kept",
        }
    out["timing"] = {
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1) if seconds else None,
        "decisions_per_s": round(totals.stats["decisions"][0] / seconds) if seconds else None,
        "jobs": jobs,
        "backend": backend,
    }
    return out


__all__ = ["simulate", "pairings", "seat_specs", "play_one", "Totals", "local_cpus"]

"""Where a served game does its work: searching agents in a few worker processes, each move
under a time limit, and a game's own steps in a few daemon threads (`Lane`).

The event loop of `madang serve` only routes messages. A worker process gets the game as its
save (`GameState.to_json`) and an agent built from checked numbers (`kind`, `iterations`),
never from a client's text. A worker that overruns a move's limit is killed and replaced, so a
slow agent holds one worker for a bounded time and never the server; the caller then plays a
random option. Worker processes and lane threads are daemons: stopping the server never waits
for a move to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import queue
import signal
import threading
from collections.abc import Callable
from typing import Any

from ..runtime import budget

SPAWN = multiprocessing.get_context("spawn")  # never fork a process that runs threads
LOAD_SECONDS = 60.0  # a fresh worker's import and the ruleset's first load
GRACE_SECONDS = 1.0  # beyond the agent's own time limit, before its worker is killed


def _work(conn) -> None:
    """A worker process: (kind, iterations, seconds, work ceiling, save) in; "loaded", then an
    index out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server, which stops us
    from ..game.api import GameState
    from .agents import GreedyAgent, MCTSAgent

    while True:
        try:
            kind, iterations, seconds, ceiling, save = conn.recv()
        except (EOFError, OSError):
            return
        try:
            budget.set_ceiling(ceiling)  # the server's --max-work
            game = GameState.from_json(save)
            conn.send(("loaded", None))
            if kind == "greedy":
                agent = GreedyAgent()
            else:
                agent = MCTSAgent(iterations=iterations, seconds=seconds)
            conn.send(("ok", agent.choose(game)))
        except (EOFError, OSError):
            return
        except Exception as e:  # the server plays a random option instead and says why
            conn.send(("error", f"{type(e).__name__}: {e}"))


class _Worker:
    def __init__(self) -> None:
        self.conn, child = SPAWN.Pipe()
        self.proc = SPAWN.Process(target=_work, args=(child,), daemon=True, name="madang-agent")
        self.proc.start()
        child.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.proc.terminate()  # SIGTERM: a worker has no handler for it
            self.proc.join(1.0)
        with contextlib.suppress(OSError):
            self.conn.close()


class AgentPool:
    """At most `workers` searching agents think at once; the others wait their turn in order.
    An agent has `seconds` a move (MCTS stops itself then; a worker still busy a second later
    is killed)."""

    def __init__(self, workers: int, seconds: float) -> None:
        self.workers = workers
        self.seconds = seconds
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self.thinking = 0  # moves in progress (the game loaded in a worker)
        self.closed = False

    async def choose(self, kind: str, iterations: int | None, save: str) -> int | str:
        """The option index the agent picks, or a sentence saying why it picked none."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            if self.closed:
                return "the server is stopping"
            worker = self._idle.pop() if self._idle else _Worker()
            self._busy.add(worker)
            ok = False
            try:
                worker.conn.send((kind, iterations, self.seconds, budget.CEILING, save))
                status, value = await _receive(worker.conn, LOAD_SECONDS)
                if status == "loaded":
                    self.thinking += 1
                    try:
                        status, value = await _receive(worker.conn, self.seconds + GRACE_SECONDS)
                    finally:
                        self.thinking -= 1
                ok = status == "ok"
                return value if ok else str(value)
            except TimeoutError:
                return f"it took more than {self.seconds:g} s"
            except (EOFError, OSError):
                return "its worker stopped"
            finally:
                self._busy.discard(worker)
                if ok and not self.closed:
                    self._idle.append(worker)
                else:
                    worker.stop()

    def close(self) -> None:
        """Stop every worker now (a move in progress is dropped)."""
        self.closed = True
        for w in [*self._idle, *self._busy]:
            w.stop()
        self._idle.clear()


async def _receive(conn, timeout: float) -> tuple[str, Any]:
    """One message from a worker, without blocking the event loop."""
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    fd = conn.fileno()
    loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
    try:
        if not conn.poll():
            await asyncio.wait_for(ready, timeout)
    finally:
        loop.remove_reader(fd)
    return conn.recv()


class Lane:
    """A few daemon threads for a game's own steps (loading a ruleset, applying a move, agents
    that answer at once), so the event loop stays free and stopping never waits for them."""

    def __init__(self, threads: int) -> None:
        self.size = threads
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    async def run(self, fn: Callable, *args):
        if not self._threads:
            for i in range(self.size):
                t = threading.Thread(target=self._serve, daemon=True, name=f"madang-lane-{i}")
                t.start()
                self._threads.append(t)
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._jobs.put((loop, done, fn, args))
        return await done

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, done, fn, args = job
            try:
                result, error = fn(*args), None
            except BaseException as e:  # handed to the awaiting coroutine
                result, error = None, e
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, done, result, error)

    def close(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)
        self._threads.clear()


def _settle(done: asyncio.Future, result, error) -> None:
    if done.done():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)

"""`simulate --backend ray`: the same chunks of games as `--jobs`, run as Ray tasks.

Ray is an optional extra (`pip install 'madang[ray]'`). Each chunk is a task that returns the
totals of its games only (never per-game records), so the driver's memory stays flat however
many games run; a task whose worker dies is retried by Ray. The chunks and their seeds are the
ones `--jobs` uses and their totals are merged in chunk order, so both back ends give the same
report for the same seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

RETRIES = 3  # a task whose worker process dies is run again this many times
IN_FLIGHT = 64  # tasks submitted ahead of the merge


def run_chunks(run_chunk: Callable, tasks: list, address: str | None = None) -> Iterator:
    """The results of `run_chunk(task)` for every task, in task order."""
    try:
        import ray
    except ImportError:
        from ..game.api import MadangError

        raise MadangError("--backend ray needs Ray: pip install 'madang[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
    remote = ray.remote(max_retries=RETRIES)(run_chunk)
    try:
        pending = [remote.remote(t) for t in tasks[:IN_FLIGHT]]
        next_task = len(pending)
        while pending:
            first = pending.pop(0)
            yield ray.get(first)
            if next_task < len(tasks):
                pending.append(remote.remote(tasks[next_task]))
                next_task += 1
    finally:
        if started:
            ray.shutdown()

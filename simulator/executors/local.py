"""The local executor: episodes on this process's event loop, or on `workers` forked processes."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable, Iterable
from itertools import islice

from simulator.runs.episode import RUN_STOPPERS, Planned

from .parent_death import die_with_parent
from .play import ExecutorError, PlaySettings, RefusalWatch, play_episodes, share


def _worker(
    settings: PlaySettings, planned: Iterable[Planned], index: int, workers: int, parent: int, queue, stop
) -> None:
    """A worker process: walk the plan, play its share of the episodes (every `workers`-th from
    `index`), sending each record to the parent, then how many it did not play because the run
    was stopped. It dies with `parent` (no model request outlives the process that records it)."""
    die_with_parent(parent)
    try:
        mine = islice(planned, index, None, workers)
        queue.put({"worker_done": asyncio.run(play_episodes(settings, mine, queue.put, stop))})
    except RUN_STOPPERS as exc:  # the run's own files failed: the parent stops the run with this very error
        stop.set()
        queue.put({"worker_stop": exc})
    except BaseException as exc:  # the parent reports it; nothing already sent is lost
        queue.put({"worker_error": f"{type(exc).__name__}: {exc}"})


def play_local(settings: PlaySettings, planned: Iterable[Planned], emit: Callable[[dict], None]) -> None:
    """Play every episode, in this process or spread over `settings.workers` processes (each with
    its share of the episodes and of the concurrency, walking `planned` itself: a list, or a
    plan that pickles where processes are spawned); records reach `emit` in this process, one
    at a time. A refusal no retry fixes stops every process (RefusalWatch)."""
    workers = settings.workers or 1
    if workers == 1:
        watch = RefusalWatch(emit, threading.Event())
        watch.check(asyncio.run(play_episodes(settings, planned, watch.emit, watch.flag)))
        return
    import multiprocessing
    from dataclasses import replace
    from queue import Empty

    # fork where the platform has it: workers start at once, without importing everything again
    ctx = multiprocessing.get_context("fork") if sys.platform == "linux" else multiprocessing.get_context("spawn")
    queue, watch = ctx.Queue(), RefusalWatch(emit, ctx.Event())
    each = replace(settings, concurrency=share(settings.concurrency, workers))
    procs = [
        ctx.Process(target=_worker, args=(each, planned, i, workers, os.getpid(), queue, watch.flag), daemon=True)
        for i in range(workers)
    ]
    for proc in procs:
        proc.start()
    running, errors, not_played, stopper = len(procs), [], 0, None
    while running:
        try:
            item = queue.get(timeout=5)
        except Empty:
            dead = [p for p in procs if not p.is_alive() and p.exitcode != 0]
            if dead:  # killed without a word (out of memory, a signal): what it sent is kept
                raise ExecutorError(f"a worker process died (exit code {dead[0].exitcode})") from None
            continue
        if item.keys() & {"worker_done", "worker_error", "worker_stop"}:
            running -= 1
            not_played += item.get("worker_done", 0)
            errors += [item["worker_error"]] if "worker_error" in item else []
            stopper = stopper or item.get("worker_stop")
            continue
        watch.emit(item)
    for proc in procs:
        proc.join()
    if stopper is not None:  # what every worker sent is kept; the run stops as it would in one process
        raise stopper
    problems = [watch.message(not_played)] + [
        f"{len(errors)} worker process(es) failed: {'; '.join(errors)}" if errors else ""
    ]
    if any(problems):
        raise ExecutorError("; ".join(filter(None, problems)))

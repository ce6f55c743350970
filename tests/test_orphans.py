"""No orphan workers (issue 11 item 3): SIGKILL of a `crmarena run` with `workers: 2` takes its
worker processes with it, so no model request is sent once the process that records the
results is gone; the run folder is free again and the same command resumes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.runs.run import RunFolderLock
from simulator.runs.transcript import read_records
from tests.fake_openai import fake_key, reply, slow
from tests.test_faults import KEY_ENV, _planned_ids, model
from tests.test_run import _config

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc"),
    pytest.mark.filterwarnings("ignore:Resolved model mismatch"),
]


def wait_for(condition, timeout: float = 60, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    """Live child processes of `pid` (zombies, which send nothing, left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                found.append(int(entry.name))
    return found


def descendants(pid: int) -> list[int]:
    """Live descendants of `pid`, children first."""
    found = children(pid)
    return found + [d for child in found for d in descendants(child)]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Stamped:
    """A responder that notes when each request arrived and answers slowly (episodes stay in flight)."""

    def __init__(self, pause: float):
        self.pause, self.times, self.lock = pause, [], threading.Lock()

    def __call__(self, body: dict) -> dict:
        with self.lock:
            self.times.append(time.monotonic())
        return slow(self.pause, then=reply("I could not find it.")) if self.pause else reply("I could not find it.")


# The bound, plus slack for what the test's own clock adds under load (2 busy cores): the
# server stamps a request when its handler thread has read it, and the killed process stops
# when the kernel next schedules it; each is a few scheduler slices (tens of ms), well under this.
STOP_WITHIN_S, SLACK_S = 1.0, 0.5


def assert_requests_stopped(stamped: Stamped, killed_at: float, players: list[int], what: str) -> None:
    """No request reached the server later than STOP_WITHIN_S (+ slack) after `killed_at` (the
    server's clock, read just before the SIGKILL), and the `players` ended (a generous wait: the
    timing assertion is on the requests, checked first)."""
    deadline = time.monotonic() + 60
    while any(alive(pid) for pid in players) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(STOP_WITHIN_S + SLACK_S)  # (a request still on its way would be stamped by now)
    late = [round(t - killed_at, 2) for t in stamped.times if t > killed_at + STOP_WITHIN_S + SLACK_S]
    assert not late, f"{len(late)} requests arrived later than allowed, the first {late[:5]} s after the kill"
    assert not any(alive(pid) for pid in players), f"{what} still running 60 s after the kill"


def start_slow_run(tmp_path, fake_openai, monkeypatch, stderr=subprocess.DEVNULL, **changes):
    """A `crmarena run` subprocess of 40 episodes on 2 workers whose model answers slowly (0.5 s),
    so episodes are in flight when it is killed: (the process, the server's Stamped, the config)."""
    monkeypatch.setenv(KEY_ENV, fake_key("orphans"))
    fake_openai.responder = stamped = Stamped(pause=0.5)
    config = _config(
        tmp_path,
        agent={"kind": "function_calling", "model": model(fake_openai, timeout=5)},
        modes=["full", "sharded"],
        trials=4,
        concurrency=4,
        workers=2,
        **changes,
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "run", "--config", str(config), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env=os.environ.copy(),
    )
    return run, stamped, config


@pytest.mark.slow
def test_sigkill_of_the_run_takes_its_workers_and_their_requests_with_it(tmp_path, org_cache, fake_openai, monkeypatch):
    run, stamped, config = start_slow_run(tmp_path, fake_openai, monkeypatch, stderr=subprocess.PIPE)
    workers: list[int] = []
    try:
        wait_for(lambda: len(stamped.times) >= 4 or run.poll() is not None, what="model requests from the run")
        assert run.poll() is None, run.stderr.read().decode()
        workers = children(run.pid)
        assert len(workers) == 2  # the two forked workers, each with episodes in flight
        killed_at = time.monotonic()
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        assert_requests_stopped(stamped, killed_at, workers, "the orphaned workers")
    finally:
        if run.poll() is None:
            run.kill()
        run.stderr.close()
        for pid in workers:  # (only if they outlived the test's wait)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)

    folder = tmp_path / "runs" / "t"
    RunFolderLock(folder).acquire().release()  # no surviving process holds the run folder
    stamped.pause = 0
    assert main(["run", "--config", str(config), "-q"]) == 0  # the same command resumes and finishes
    records = list(read_records(folder / "transcripts.jsonl"))
    assert {r["episode_id"] for r in records} == _planned_ids(config)
    assert len(records) == len(_planned_ids(config)) == 40  # each episode once


@pytest.mark.slow
def test_sigkill_of_a_ray_driver_stops_its_actors_requests_at_once(tmp_path, org_cache, fake_openai, monkeypatch):
    """Ray ends a dead driver's actors by itself, but only 1-2 s later (measured: 12 more requests);
    actors on the driver's node watch it and end within a fraction of a second."""
    pytest.importorskip("ray", reason="the Ray executor's tests need the `ray` extra (part of `test`)")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)  # (the run starts its own local Ray instance)
    run, stamped, _ = start_slow_run(tmp_path, fake_openai, monkeypatch, executor="ray")
    ray_processes: list[int] = []
    try:
        wait_for(
            lambda: len(stamped.times) >= 4 or run.poll() is not None,
            timeout=240,
            what="model requests from the Ray actors",
        )
        assert run.poll() is None
        ray_processes = descendants(run.pid)
        actors = [pid for pid in ray_processes if cmdline(pid).startswith("ray::EpisodeActor")]
        assert len(actors) == 2
        killed_at = time.monotonic()
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        assert_requests_stopped(stamped, killed_at, actors, "the Ray actors")
    finally:
        if run.poll() is None:
            run.kill()
        for pid in ray_processes:  # (what Ray itself leaves behind: its agents, re-parented to pid 1)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def _child(started, may_end) -> None:
    started.set()
    may_end.wait(60)


def test_a_forked_child_does_not_keep_the_run_folder_locked(tmp_path):
    """A worker forked while the run holds the folder's lock closes its copy of the lock's
    descriptor: once the run lets go (or dies), the folder is free even while the child lives."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    lock, started, may_end = RunFolderLock(tmp_path).acquire(), ctx.Event(), ctx.Event()
    child = ctx.Process(target=_child, args=(started, may_end), daemon=True)
    child.start()
    try:
        assert started.wait(60)  # (the child runs: past its at-fork handlers)
        lock.release()
        RunFolderLock(tmp_path).acquire().release()  # free, though the child still runs
        assert child.is_alive()
    finally:
        may_end.set()
        child.join(timeout=30)

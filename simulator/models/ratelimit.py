"""Rate limits for model calls: a per-machine shared bucket, and an adaptive cap on calls in flight.

`SharedBucket` holds a model's requests-per-minute and tokens-per-minute buckets, and a pause
every caller honours (a provider's Retry-After), in a 32-byte file under
`cache_dir()/ratelimits/` (one per provider, base_url and model), read and written under
`fcntl.flock`. The parent, forked `workers` and the Ray actors of one node share it without any
wiring through the executors, and so do two runs on one machine. A killed process leaves a
whole state (the lock goes with its file descriptor; a cut or garbled file reads as a full
bucket). Across Ray nodes nothing is shared: each node has its own file, so k nodes may
together send k x rpm; give each node its share (rpm / k) or play on one node.

A bucket refills at its rate per MINUTE and holds at most one second's worth (rpm/60
requests, at least one; likewise tokens), so a server enforcing its limit over any window
sees a steady rate, not a minute's burst. A request costing more tokens than the bucket
holds waits for a full bucket and leaves it in debt.

`AdaptiveConcurrency` bounds the calls in flight of one model in one event loop (AIMD): a 429
halves the cap (never below 1), a run of `cap` successes adds one (never above the model's
`max_concurrency`). A measured cap (`LatencyRounds`: a local server's default) starts at one
call in flight instead and follows the server's latency: it doubles per round while the time per
request stays flat and the cap is used, then grows by one, and comes down to what kept pace
when the time per request rises (a Vegas-style limiter); 429s and timeouts cut it as above.
`ServerPace` (a sibling file of the bucket's, shared the same way) does the same for timeouts
across processes (cut from the loop's cap), holds the timeout a slow server earned (doubled
after a second timeout in a row at one call in flight, halved by each answer down to twice the
recent answers' latency, so that it comes back to the configured value once the server answers
at once) and the answered requests' latency; the loop's bound is the lower of the two caps. A
pace untouched for longer than any of its requests can take (STALE_MIN + 2 x its timeout) is
forgotten. Calls in flight (and a measured cap) are counted per loop, never in a file, so a
killed process holds no place.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import math
import os
import struct
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

from simulator.models.cache import cache_dir

MINUTE = 60.0  # seconds in a rate's minute; tests shorten it (monkeypatched before workers fork)
_STATE = struct.Struct("<4d")


@dataclass
class _State:
    requests: float  # in the bucket now
    tokens: float  # may be negative: a debt left by a large request
    updated: float  # time.time() of the last refill
    paused_until: float  # time.time() before which no request may go


def state_path(scope: str, suffix: str = ""):
    """The file under cache_dir()/ratelimits/ that holds a scope's shared state."""
    return cache_dir() / "ratelimits" / (hashlib.sha256(scope.encode()).hexdigest()[:32] + suffix)


class SharedBucket:
    """The rpm/tpm buckets and the shared pause of one model on this machine (see the module)."""

    def __init__(self, scope: str, rpm: int | None = None, tpm: int | None = None):
        self.path = state_path(scope)
        self.rpm, self.tpm = rpm, tpm
        self.burst_requests = max(1.0, rpm / 60) if rpm else 0.0
        self.burst_tokens = max(1.0, tpm / 60) if tpm else 0.0

    async def acquire(self, tokens: int = 0) -> None:
        """Wait until a request of about `tokens` prompt tokens may go, and take its share."""
        while (wait := self._take(tokens)) > 0:
            await asyncio.sleep(wait)

    def pause(self, seconds: float) -> None:
        """No caller on this machine sends a request for `seconds` from now."""
        if seconds > 0:
            with self._locked() as state:
                state.paused_until = max(state.paused_until, time.time() + seconds)

    def settle(self, tokens: float) -> None:
        """Charge `tokens` more (the actual usage above the estimate), or refund them if negative."""
        if self.tpm and tokens:
            with self._locked() as state:
                state.tokens = min(self.burst_tokens, state.tokens - tokens)

    def check(self) -> None:
        """Raise OSError now if the bucket's file cannot be opened, rather than at the first request."""
        with self._locked():
            pass

    def _take(self, tokens: int) -> float:
        """Take a request and `tokens` and return 0, or return the seconds to wait first (without
        rpm or tpm, only the pause is read: nothing is taken, nothing written)."""
        with self._locked(write=bool(self.rpm or self.tpm)) as state:
            now = time.time()
            if state.paused_until > now:
                return state.paused_until - now
            wait = max(
                _shortfall(state.requests, 1, self.rpm, self.burst_requests),
                _shortfall(state.tokens, tokens, self.tpm, self.burst_tokens),
            )
            if wait <= 0:
                state.requests -= 1 if self.rpm else 0
                state.tokens -= tokens if self.tpm else 0
            return wait

    def _locked(self, write: bool = True):
        """The refilled state under an exclusive lock, written back on the way out (or, not
        `write`, under a shared lock, read only)."""
        return _locked_record(self.path, _STATE, self._refilled, write)

    def _refilled(self, data: bytes, now: float) -> _State:
        values = _STATE.unpack(data) if len(data) == _STATE.size else ()
        if not values or not all(map(math.isfinite, values)) or values[2] > now + 1:
            # new, cut by a crash, or written before the clock was set back: a full bucket, no pause
            return _State(self.burst_requests, self.burst_tokens, now, 0.0)
        state = _State(*values)
        elapsed = max(0.0, now - state.updated)
        if self.rpm:
            state.requests = min(self.burst_requests, state.requests + elapsed * self.rpm / MINUTE)
        if self.tpm:
            state.tokens = min(self.burst_tokens, state.tokens + elapsed * self.tpm / MINUTE)
        state.updated = now
        return state


@contextmanager
def _locked_record(path, layout: struct.Struct, read, write: bool = True):
    """`read(bytes, now)` of the file at `path` under an exclusive lock (held for microseconds;
    released by close, or by death), packed with `layout` and written back on the way out; not
    `write`: under a shared lock, and not written (a read on every model call)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except FileNotFoundError:  # (its folder is made on first use only: this runs on every model call)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
        state = read(os.pread(fd, layout.size, 0), time.time())
        yield state
        if write:
            os.pwrite(fd, layout.pack(*vars(state).values()), 0)  # (fields in order; flat, unlike astuple)
    finally:
        os.close(fd)


def _shortfall(level: float, cost: float, per_minute: int | None, burst: float) -> float:
    """Seconds until a bucket at `level` (refilling at `per_minute`) can pay `cost` (capped at its burst)."""
    if not per_minute or cost <= 0:
        return 0.0
    need = min(cost, burst)
    return 0.0 if level >= need else (need - level) * MINUTE / per_minute


FLAT = 1.2  # a round's time per request at most this times the base: the server kept pace
RISEN = 1.5  # above this times the base: requests queue at the server, the cap comes down


class LatencyRounds:
    """The calls in flight a server keeps pace with, measured. A round is `cap` answers of requests
    sent since the cap last changed (from the first request sent after the change: when a cut
    lets one go, the calls sent before it no longer queue at the server). Its typical latency
    (the mean of its fastest 90%: a slow new connection or two do not cut the cap) against the
    base (the lowest round's so far, measured afresh by a round at one call in flight) decides
    the next cap: at most FLAT times the base, with the cap used (that many calls were in
    flight), it doubles (slow start, until the first cut) or grows by one; above RISEN times the
    base it comes down to cap x base / latency (the calls the server served without queueing),
    at least one less; between, it holds. A timeout at k calls in flight keeps the cap below k
    from then on (a serial server whose timeout is under twice its latency stays at one)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.base = math.inf
        self.slow_start = True
        self.below = math.inf  # the cap at the last timeout: never reached again
        self.restart()

    def restart(self, slow_start: bool = True) -> None:
        """A new round from the next request sent (a cut also ends slow start)."""
        self.slow_start = self.slow_start and slow_start
        self.started, self.busiest = math.inf, 0
        self.latencies: list[float] = []

    def saw(self, in_flight: int) -> None:
        """A request is sent, with `in_flight` calls in flight now (itself included)."""
        if self.started == math.inf:
            self.started = self.clock()
        self.busiest = max(self.busiest, in_flight)

    def answered(self, cap: int, seconds: float, sent: float, ceiling: int) -> int:
        """The cap after an answer in `seconds` to a request sent at `sent` (the clock's time)."""
        if sent < self.started:  # sent in an earlier round, at another cap
            return cap
        self.latencies.append(seconds)
        if len(self.latencies) < cap:
            return cap
        typical = _lower_mean(self.latencies)
        self.base = typical if cap == 1 else min(self.base, typical)
        ratio, used = typical / self.base, self.busiest >= cap
        if ratio > RISEN:
            cap = max(1, min(cap - 1, int(cap / ratio)))
        elif ratio <= FLAT and used:
            cap = min(ceiling, self.below - 1, 2 * cap if self.slow_start else cap + 1)
        self.restart(slow_start=ratio <= RISEN)
        return cap


def _lower_mean(latencies: list[float]) -> float:
    """The mean of the fastest 90% of `latencies` (all of them, up to 9)."""
    kept = sorted(latencies)[: math.ceil(0.9 * len(latencies))]
    return sum(kept) / len(kept)


class AdaptiveConcurrency:
    """At most `cap` calls in flight (AIMD between 1 and `ceiling`, see the module; `measured`: a
    LatencyRounds cap from one call in flight up). The 429s of requests sent before the last cut
    count as one: a burst of refusals halves the cap once."""

    def __init__(self, ceiling: int, pace: ServerPace | None = None, measured: bool = False):
        self.ceiling = ceiling
        self.rounds = LatencyRounds() if measured else None
        self.cap = 1 if measured else ceiling
        self.pace = pace  # the server's pace, shared by the machine's processes: its cap binds too
        self.in_flight = 0
        self._streak = 0
        self._cut_at = -math.inf
        self._waiters: set[asyncio.Future] = set()

    @asynccontextmanager
    async def slot(self):
        """Hold one of the `cap` places for a call (its retries included). (The limit is at least
        one: with no call in flight, the server's pace is not read.)"""
        while self.in_flight and self.in_flight >= self.limit():
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.add(waiter)
            try:
                await waiter
            finally:
                self._waiters.discard(waiter)
        self.in_flight += 1
        if self.rounds:
            self.rounds.saw(self.in_flight)
        try:
            yield
        finally:
            self.in_flight -= 1
            for waiter in self._waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def limit(self) -> int:
        """The calls in flight allowed now: this loop's cap, and the server's pace's."""
        return min(self.cap, self.pace.cap(self.ceiling)) if self.pace else self.cap

    def refused(self, sent_at: float) -> None:
        """A request sent at `sent_at` (time.monotonic()) met a 429."""
        self._streak = 0
        if sent_at > self._cut_at:
            self._cut(max(1, self.cap // 2))
            self._cut_at = time.monotonic()

    def timed_out(self, sent_at: float, timeout: float) -> Timeout:
        """A request sent at `sent_at` (time.time()) got no answer in `timeout` seconds (the
        server's pace is cut from this loop's cap, and a measured cap follows it down)."""
        assert self.pace is not None, "a timeout is told to the server's pace: give the limit one"
        news = self.pace.timed_out(sent_at, self.cap, timeout)
        if self.rounds and news.cut and self.cap > 1:  # (at one call in flight: a slow request, not too many)
            self.rounds.below = min(self.rounds.below, self.cap)
        if self.rounds:
            self._cut(self.pace.cap(self.cap))
        return news

    def succeeded(self, seconds: float | None = None, sent: float | None = None) -> None:
        """A request sent at `sent` (time.monotonic()) was answered after `seconds` (told to the
        server's pace, and to a measured cap)."""
        if self.pace and seconds is not None:
            self.pace.answered(seconds, self.ceiling)
        if self.rounds:
            if seconds is not None and sent is not None:
                self.cap = self.rounds.answered(self.cap, seconds, sent, self.ceiling)
            return
        self._streak += 1
        if self._streak >= self.cap and self.cap < self.ceiling:
            self.cap, self._streak = self.cap + 1, 0

    def _cut(self, cap: int) -> None:
        self.cap = cap
        if self.rounds:
            self.rounds.restart(slow_start=False)


MAX_TIMEOUT = 900.0  # seconds: the longest a raised timeout gets
STALE_MIN = 60.0  # seconds: a pace untouched this long plus twice its timeout starts afresh
RECENT = 0.25  # weight of the latest answer in the recent latency (an exponential moving average)
_PACE = struct.Struct("<12d")


@dataclass
class _Pace:
    cap: float  # calls in flight allowed after timeouts (0: no cut, the model's max_concurrency)
    timeout: float  # seconds per request after raises (0: the spec's)
    cut_at: float  # time.time() of the last cut
    streak: float  # successes since the cap last changed
    timeouts: float  # requests timed out
    at_one: float  # timeouts in a row of requests sent at one call in flight
    ok: float  # requests answered
    ok_seconds: float  # their latency, summed
    warned: float  # the process group that named the server slow (0: none yet)
    recent: float  # seconds per answered request, recent ones weighing most (RECENT)
    waited: float  # the timeout of the last request that timed out
    updated: float  # time.time() of the last change (last: _paced reads it from the end)


@dataclass(frozen=True)
class Timeout:
    """What a timeout changed: the timeouts so far, the measured seconds per answered request
    (None before any), the raised timeout (None if not raised), whether to name the server now,
    whether it cut the calls in flight (the first of a burst)."""

    timeouts: int
    seconds_per_request: float | None
    raised_to: float | None
    name_it: bool
    cut: bool = False


class ServerPace:
    """How hard a model server may be pressed, shared like the bucket (a sibling file): the calls
    in flight allowed after timeouts (AIMD: a timeout halves it, never below 1; a run of `cap`
    answers adds one), the timeout (doubled, up to MAX_TIMEOUT, after a second timeout in a row
    at one call in flight; halved by each answer, never below twice the recent latency), and the
    answered requests' latency. Timeouts of requests sent before the last cut count as one. A
    garbled, cut or stale file reads as a fresh pace."""

    def __init__(self, scope: str):
        self.path = state_path(scope, ".pace")

    def cap(self, ceiling: int) -> int:
        with self._locked(write=False) as pace:
            return min(ceiling, int(pace.cap) or ceiling)

    def timeout(self, default: float) -> float:
        with self._locked(write=False) as pace:
            return max(default, pace.timeout)

    def timed_out(self, sent_at: float, ceiling: int, timeout: float) -> Timeout:
        """A request sent at `sent_at` (time.time()) with `timeout` seconds got no answer."""
        with self._locked() as pace:
            cap, raised = min(ceiling, int(pace.cap) or ceiling), None
            fresh = sent_at > pace.cut_at  # sent after the last cut: not the same burst
            pace.timeouts, pace.waited = pace.timeouts + 1, timeout
            pace.at_one = pace.at_one + 1 if cap == 1 and fresh else 0
            if pace.at_one >= 2 and max(timeout, pace.timeout) < MAX_TIMEOUT:
                pace.timeout = raised = min(MAX_TIMEOUT, 2 * max(timeout, pace.timeout))
                pace.at_one = 0
            if fresh:
                pace.cap, pace.cut_at, pace.streak = max(1, cap // 2), pace.updated, 0
            name_it = pace.timeouts >= 2 and pace.warned != os.getpgrp()
            if name_it:
                pace.warned = os.getpgrp()
            return Timeout(int(pace.timeouts), pace.ok_seconds / pace.ok if pace.ok else None, raised, name_it, fresh)

    def answered(self, seconds: float, ceiling: int) -> None:
        """A request was answered after `seconds`."""
        with self._locked() as pace:
            pace.recent = seconds if not pace.ok else RECENT * seconds + (1 - RECENT) * pace.recent
            pace.ok, pace.ok_seconds, pace.at_one = pace.ok + 1, pace.ok_seconds + seconds, 0
            pace.timeout = max(2 * pace.recent, pace.timeout / 2) if pace.timeout else 0.0
            if pace.cap:
                pace.streak += 1
                if pace.streak >= pace.cap:
                    pace.cap, pace.streak = (0 if pace.cap + 1 >= ceiling else pace.cap + 1), 0

    def _locked(self, write: bool = True):
        return _locked_record(self.path, _PACE, _paced, write)


def _paced(data: bytes, now: float) -> _Pace:
    values = _PACE.unpack(data) if len(data) == _PACE.size else ()
    if not values or not all(map(math.isfinite, values)) or not now - _stale_after(values) < values[-1] <= now + 1:
        values = (0.0,) * (_PACE.size // 8)  # new, cut, garbled, stale or from the future: afresh
    pace = _Pace(*values)
    pace.cap, pace.timeout = max(0.0, pace.cap), min(MAX_TIMEOUT, max(0.0, pace.timeout))
    pace.updated = now
    return pace


def _stale_after(values: tuple[float, ...]) -> float:
    """Seconds untouched after which no request of a pace (its `values`) can be in flight or waiting."""
    pace = _Pace(*values)
    return STALE_MIN + 2 * min(MAX_TIMEOUT, max(pace.timeout, pace.waited, 0.0))

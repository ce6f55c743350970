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
`max_concurrency`).
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
from dataclasses import astuple, dataclass

from .cache import cache_dir

MINUTE = 60.0  # seconds in a rate's minute; tests shorten it (monkeypatched before workers fork)
_STATE = struct.Struct("<4d")


@dataclass
class _State:
    requests: float  # in the bucket now
    tokens: float  # may be negative: a debt left by a large request
    updated: float  # time.time() of the last refill
    paused_until: float  # time.time() before which no request may go


class SharedBucket:
    """The rpm/tpm buckets and the shared pause of one model on this machine (see the module)."""

    def __init__(self, scope: str, rpm: int | None = None, tpm: int | None = None):
        self.path = cache_dir() / "ratelimits" / hashlib.sha256(scope.encode()).hexdigest()[:32]
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
        """Take a request and `tokens` and return 0, or return the seconds to wait first."""
        with self._locked() as state:
            now = time.time()
            if state.paused_until > now:
                return state.paused_until - now
            wait = max(_shortfall(state.requests, 1, self.rpm, self.burst_requests),
                       _shortfall(state.tokens, tokens, self.tpm, self.burst_tokens))
            if wait <= 0:
                state.requests -= 1 if self.rpm else 0
                state.tokens -= tokens if self.tpm else 0
            return wait

    @contextmanager
    def _locked(self):
        """The refilled state under an exclusive lock, written back on the way out."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # held for microseconds; released by close, or by death
            state = self._refilled(os.pread(fd, _STATE.size, 0), time.time())
            yield state
            os.pwrite(fd, _STATE.pack(*astuple(state)), 0)
        finally:
            os.close(fd)

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


def _shortfall(level: float, cost: float, per_minute: int | None, burst: float) -> float:
    """Seconds until a bucket at `level` (refilling at `per_minute`) can pay `cost` (capped at its burst)."""
    if not per_minute or cost <= 0:
        return 0.0
    need = min(cost, burst)
    return 0.0 if level >= need else (need - level) * MINUTE / per_minute


class AdaptiveConcurrency:
    """At most `cap` calls in flight (AIMD between 1 and `ceiling`, see the module). The 429s of
    requests sent before the last cut count as one: a burst of refusals halves the cap once."""

    def __init__(self, ceiling: int):
        self.ceiling = self.cap = ceiling
        self.in_flight = 0
        self._streak = 0
        self._cut_at = -math.inf
        self._waiters: set[asyncio.Future] = set()

    @asynccontextmanager
    async def slot(self):
        """Hold one of the `cap` places for a call (its retries included)."""
        while self.in_flight >= self.cap:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.add(waiter)
            try:
                await waiter
            finally:
                self._waiters.discard(waiter)
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            for waiter in self._waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def refused(self, sent_at: float) -> None:
        """A request sent at `sent_at` (time.monotonic()) met a 429."""
        self._streak = 0
        if sent_at > self._cut_at:
            self.cap = max(1, self.cap // 2)
            self._cut_at = time.monotonic()

    def succeeded(self) -> None:
        self._streak += 1
        if self._streak >= self.cap and self.cap < self.ceiling:
            self.cap, self._streak = self.cap + 1, 0

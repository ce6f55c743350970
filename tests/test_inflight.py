"""The calls in flight to a local server, measured (issue 32, item 9): from one up while the time
per request stays flat, down when it rises; a spec's own max_concurrency is a ceiling.

Most tests drive `AdaptiveConcurrency(measured=True)` against a simulated server on a virtual
clock (N requests worked on at once, each taking a fixed latency, the rest queued first come
first served), so they measure the limiter, not the machine's load. The last ones go through
the real client path (build_client, the built-in chat client) against tests/fake_openai.py.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from dataclasses import dataclass, field

import pytest

from simulator.models import clients as models
from simulator.models.clients import build_client, parse_model_spec
from simulator.models.ratelimit import AdaptiveConcurrency, ServerPace
from tests.fake_openai import reply


@dataclass
class Played:
    caps: list[int] = field(default_factory=list)  # the cap after each answer
    latencies: list[float] = field(default_factory=list)  # per answer, in order
    finished: list[float] = field(default_factory=list)  # virtual time of each answer
    busiest: int = 0  # the most requests in flight at once
    timeouts: int = 0  # answers later than the timeout (told to the limiter as timeouts)

    def throughput(self, skip: int = 0) -> float:
        """Answers per second after the first `skip` answers (the ramp)."""
        start = self.finished[skip - 1] if skip else 0.0
        return (len(self.finished) - skip) / (self.finished[-1] - start)


def play(at_once, latency: float, callers: int, answers: int, ceiling: int = 128, timeout: float = 0) -> Played:
    """`callers` callers asking as fast as the limiter lets them until `answers` answers, against a
    server working on `at_once(t)` requests at a time (first come, first served), `latency` each.
    With a `timeout`, a later answer is a timeout (told when it comes; needs CRMARENA_CACHE set)."""
    now = [0.0]
    limit = AdaptiveConcurrency(ceiling, ServerPace(f"sim|{time.time()}") if timeout else None, measured=True)
    limit.rounds.clock = lambda: now[0]
    limit.rounds.restart()
    queue: list[float] = []  # sent times of queued requests, in order
    working: list[tuple[float, float]] = []  # (done at, sent at)
    played = Played()
    while len(played.latencies) < answers:
        while limit.in_flight < min(callers, limit.limit()):  # what slot() lets through
            limit.in_flight += 1
            limit.rounds.saw(limit.in_flight)
            played.busiest = max(played.busiest, limit.in_flight)
            queue.append(now[0])
        while queue and len(working) < at_once(now[0]):
            heapq.heappush(working, (now[0] + latency, queue.pop(0)))
        now[0], sent = heapq.heappop(working)
        limit.in_flight -= 1
        if timeout and now[0] - sent > timeout:
            played.timeouts += 1
            limit.timed_out(time.time(), timeout)
        else:
            limit.succeeded(now[0] - sent, sent)
        played.caps.append(limit.cap)
        played.latencies.append(now[0] - sent)
        played.finished.append(now[0])
    return played


def servers(n: int):
    return lambda _t: n


@pytest.mark.parametrize(
    "n, latency",
    [(1, 0.05), (2, 1.5), (3, 0.2), (4, 0.05), (7, 0.4), (12, 3.0), (16, 0.08), (33, 0.5), (64, 0.25), (100, 1.0)],
)
def test_throughput_is_at_least_90_percent_of_the_servers_for_any_width(n, latency):
    """Enough callers (150) to use any width: answers per second, after the ramp (the first 2 x n
    answers), are >= 90% of n / latency, and no caller waits more than twice the latency."""
    played = play(servers(n), latency, callers=150, answers=max(400, 30 * n))
    ideal = n / latency
    assert played.throughput(skip=2 * n) >= 0.9 * ideal, (played.throughput(skip=2 * n), ideal)
    settled = played.latencies[len(played.latencies) // 2 :]
    assert max(settled) <= 2 * latency + 1e-9  # the queue stays short: no timeout storm ahead


def test_a_4_wide_server_reaches_4_in_flight_within_a_dozen_answers():
    played = play(servers(4), 0.05, callers=32, answers=100)
    assert played.caps[0] == 2 and max(played.caps[:12]) >= 4
    assert max(played.caps) == 8  # slow start overshoots once, by one doubling
    assert all(4 <= cap <= 6 for cap in played.caps[40:])  # then settles at the server's width, not above 1.5 x


@pytest.mark.parametrize("latency, timeout", [(2.0, 5.0), (0.3, 0.7), (10.0, 25.0)])
def test_a_serial_slow_server_keeps_one_or_two_in_flight_and_nothing_would_time_out(latency, timeout):
    played = play(servers(1), latency, callers=64, answers=200)
    assert set(played.caps) <= {1, 2}
    assert max(played.latencies) <= 2 * latency + 1e-9 < timeout
    assert played.throughput() >= 0.99 / latency


@pytest.mark.parametrize(
    "latency, timeout, callers",
    [(2.0, 3.0, 64), (2.0, 2.5, 8), (0.3, 0.5, 16), (10.0, 19.0, 4), (1.0, 1.01, 2), (60.0, 90.0, 32)],
)
def test_a_timeout_at_two_in_flight_keeps_a_serial_server_at_one(latency, timeout, callers, tmp_path, monkeypatch):
    """The timeout is under twice the latency: the one probe of two calls in flight costs two
    timeouts at most (the second request queued behind the first), and the cap stays at one from
    then on (no timeout every few requests)."""
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    played = play(servers(1), latency, callers=callers, answers=300, timeout=timeout)
    assert played.timeouts <= 2 and set(played.caps[10:]) == {1}
    assert played.throughput() >= 0.98 / latency


def test_a_burst_of_timeouts_does_not_stick_the_cap_below_the_servers_width(tmp_path, monkeypatch):
    """64 requests time out together at 64 in flight (a hiccup): the cap halves once, and the
    ceiling it keeps is 63, not the halved 32 each later timeout of the burst would give."""
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    limit = AdaptiveConcurrency(128, ServerPace("burst|test"), measured=True)
    limit.cap = 64
    sent = time.time()
    for _ in range(64):
        limit.timed_out(sent, 1.0)
    assert limit.cap == 32 and limit.rounds.below == 64


@pytest.mark.parametrize("callers", [1, 3, 8, 20])
def test_the_cap_grows_only_as_far_as_it_is_used(callers):
    """Fewer callers than the server serves: the cap stops at twice the callers (it grows only
    when every place was taken), and the callers get the server's whole speed."""
    played = play(servers(64), 0.1, callers=callers, answers=300)
    assert max(played.caps) <= max(2, 2 * callers) and played.busiest == callers
    assert played.throughput(skip=20) >= 0.99 * callers / 0.1


@pytest.mark.parametrize("ceiling", [1, 2, 3, 5, 32, 100])
def test_a_ceiling_is_never_passed(ceiling):
    played = play(servers(64), 0.1, callers=100, answers=300, ceiling=ceiling)
    assert played.busiest == max(played.caps) == ceiling


def test_a_server_that_gets_busier_gets_fewer_calls():
    """The server's width falls from 16 to 2 at t = 5 s (someone else's load): the cap comes down
    to at most 3 within a few rounds, and the callers' waits return to below twice the latency."""
    played = play(lambda t: 16 if t < 5 else 2, 0.1, callers=64, answers=1200)
    after = [cap for cap, t in zip(played.caps, played.finished) if t > 8]
    assert after and max(after) <= 3
    late = [lat for lat, t in zip(played.latencies, played.finished) if t > 8]
    assert max(late) <= 2 * 0.1 + 1e-9


def test_no_answers_no_growth_and_a_429_or_timeout_cuts_it(tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    limit = AdaptiveConcurrency(64, ServerPace("inflight|test"), measured=True)
    assert limit.cap == limit.limit() == 1
    limit.succeeded()  # an answer without a latency (a cached reply) measures nothing
    assert limit.cap == 1
    limit.cap = 8
    limit.refused(sent_at=float("inf"))
    assert limit.cap == 4 and not limit.rounds.slow_start
    limit.cap = 16
    limit.timed_out(time.time(), 1.0)  # the server's pace is cut from this loop's 16, and the loop follows
    assert limit.cap == limit.limit() == limit.pace.cap(64) == 8


# ---------------------------------------------------------------- the real client path


def _local(server, **extra):
    return parse_model_spec({"model": "fake-model", "base_url": server.base_url, **extra}, "agent.model")


async def _ask_many(spec, callers: int, each: int):
    from autogen_core.models import UserMessage

    client = build_client(spec)
    try:

        async def caller():
            for _ in range(each):
                await client.create([UserMessage(content="How many open cases?", source="user")])

        await asyncio.gather(*(caller() for _ in range(callers)))
        return models._concurrency(spec)
    finally:
        await client.close()


@pytest.mark.slow
def test_a_local_4_wide_server_gets_4_calls_at_once_through_the_client(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    fake_openai.serve_at_once(4, 0.5)  # long enough that a loaded machine's delays do not read as queueing
    fake_openai.responder = lambda body: reply("ok")
    spec = _local(fake_openai)
    assert spec.measure_concurrency and spec.max_concurrency > 4
    limit = asyncio.run(_ask_many(spec, callers=16, each=3))  # 48 requests: rounds of 1, 2, 4 (8, then 4..6)
    # The server got 4 at once. The cap the rounds end on is at most one below its width: a round whose
    # time per request reads just over RISEN (a loaded machine's jitter) cuts 5 to int(5 / 1.5x) = 3.
    assert fake_openai.most_at_once == 4 and limit.cap >= 3
    assert len(fake_openai.requests) == 48


@pytest.mark.slow
def test_a_local_serial_server_gets_no_timeouts_through_the_client(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    fake_openai.serve_one_at_a_time(0.25)
    fake_openai.responder = lambda body: reply("ok")
    spec = _local(fake_openai, timeout=1.2)  # 4 requests queued would time out; 2 do not
    limit = asyncio.run(_ask_many(spec, callers=8, each=2))
    assert limit.cap <= 2 and len(fake_openai.requests) == 16  # every request once: none timed out


def test_a_specs_own_max_concurrency_is_a_fixed_ceiling(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    fake_openai.serve_at_once(16, 0.1)
    fake_openai.responder = lambda body: reply("ok")
    spec = _local(fake_openai, max_concurrency=3)
    assert not spec.measure_concurrency
    asyncio.run(_ask_many(spec, callers=12, each=1))  # 12 at once, served in rounds of 3
    assert fake_openai.most_at_once == 3


@pytest.mark.parametrize(
    "extra, expected",
    [
        ({}, (128, True)),
        ({"max_concurrency": 16}, (16, False)),
        ({"max_concurrency": 16, "measure_concurrency": True}, (16, True)),
        ({"measure_concurrency": False}, (128, False)),
    ],
)
def test_who_sets_the_cap_of_a_local_server(extra, expected):
    spec = parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:8000/v1", **extra}, "agent.model")
    assert (spec.max_concurrency, spec.measure_concurrency) == expected


def test_a_remote_server_may_be_measured_too_and_a_bad_flag_is_one_line(monkeypatch):
    from simulator.models.clients import ModelConfigError

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-inflight")
    spec = parse_model_spec({"model": "openai/gpt-4o", "measure_concurrency": True, "max_concurrency": 32}, "m")
    assert (spec.max_concurrency, spec.measure_concurrency) == (32, True)
    with pytest.raises(ModelConfigError, match="measure_concurrency must be a boolean, got 'yes'"):
        parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:8/v1", "measure_concurrency": "yes"}, "m")


def test_the_slow_server_line_names_a_measured_cap(fake_openai, tmp_path, monkeypatch):
    from loguru import logger

    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    fake_openai.serve_one_at_a_time(0.3)
    fake_openai.responder = lambda body: reply("ok")
    lines: list[str] = []
    sink = logger.add(lines.append, level="WARNING", format="{message}")
    logger.enable("simulator")
    try:
        asyncio.run(_ask_many(_local(fake_openai, timeout=0.2, retries={"attempts": 4, "max_wait": 0.2}), 2, 1))
    finally:
        logger.remove(sink)
    named = [line for line in lines if line.startswith("slow model server")]
    assert len(named) == 1 and "agent.model.max_concurrency (now measured: 1 of 128) lower" in named[0], named

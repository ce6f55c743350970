"""Slow model servers (issue 17): a server that answers one request at a time, slower than the
timeout allows under concurrency, finishes every episode with each timed-out request sent again
once at most and one line naming the server; local servers get CPU-friendly defaults; the
dry run's probe times one tiny request.

Timings are conditions, not measurements: the fake server works WORK seconds per request, one
at a time, and the timeout is 2.5 x WORK, so with 4 calls in flight the 3rd and 4th time out
and with 2 in flight none does (a margin of WORK / 2 for a loaded machine). max_wait is above the
timeout, so a timed-out request waits the whole timeout (the server finishes it) before it goes again.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter

import pytest
from loguru import logger

from simulator.cli import main
from simulator.models.clients import LOCAL_CEILING, LOCAL_DEFAULTS, build_client, parse_model_spec
from simulator.models.probe import PROBE_TOKENS, expected_duration, probe, probe_lines
from simulator.models.ratelimit import MAX_TIMEOUT, ServerPace
from simulator.runs.transcript import read_records
from tests.fake_openai import reply, slow
from tests.test_run import _config

pytestmark = pytest.mark.filterwarnings("ignore:Resolved model mismatch")
WORK = 0.6  # seconds the one-at-a-time server works on each request
SLOW_LINE = "slow model server"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def warnings():
    lines: list[str] = []
    sink = logger.add(lines.append, level="WARNING", format="{message}")
    logger.enable("simulator")
    yield lines
    logger.remove(sink)


def model(server, **extra) -> dict:
    return {"model": "fake-model", "base_url": server.base_url, **extra}


def ask(client, text: str = "How many open cases?"):
    from autogen_core.models import UserMessage

    return client.create([UserMessage(content=text, source="user")])


# ---------------------------------------------------------------- the acceptance run


@pytest.mark.slow
def test_a_one_at_a_time_server_under_concurrency_finishes_every_episode(tmp_path, capsys, org_cache, fake_openai):
    fake_openai.serve_one_at_a_time(WORK)
    fake_openai.responder = lambda body: reply("I could not find it.")
    agent = {
        "kind": "function_calling",
        "model": model(fake_openai, max_concurrency=4, timeout=2.5 * WORK, retries={"attempts": 6, "max_wait": 2.0}),
    }
    config = _config(
        tmp_path,
        tasks=["knowledge_qa", "handle_time"],
        instances_per_task=2,
        modes=["full"],
        agent=agent,
        concurrency=4,
    )
    assert main(["run", "--config", str(config), "-q"]) == 0
    err = capsys.readouterr().err
    records = list(read_records(tmp_path / "runs" / "t" / "transcripts.jsonl"))
    assert len(records) == 4
    assert all(r["termination"]["reason"] != "infra_error" for r in records), [r["termination"] for r in records]
    sends = Counter(json.dumps(body["messages"], sort_keys=True) for body in fake_openai.requests)
    assert max(sends.values()) == 2, sends.values()  # timeouts happened; each was sent again once
    assert err.count(SLOW_LINE) == 1, err
    (line,) = [line for line in err.splitlines() if SLOW_LINE in line]
    assert fake_openai.base_url in line and "fake-model" in line and "answered requests took" in line
    assert "agent.model.timeout (now 1.5 s)" in line and "agent.model.max_concurrency (now 4)" in line


# ---------------------------------------------------------------- the pace


def test_timeouts_halve_the_shared_cap_once_per_burst_and_answers_win_it_back(tmp_path):
    pace, other = ServerPace("s"), ServerPace("s")  # two processes' views of one server
    before = time.time()
    first = pace.timed_out(before, 8, 10)
    assert other.cap(8) == 4 and not first.name_it and first.seconds_per_request is None
    second = other.timed_out(before, 8, 10)  # sent before the cut: the same burst
    assert pace.cap(8) == 4 and second.name_it and second.timeouts == 2
    assert not pace.timed_out(time.time(), 8, 10).name_it  # named once per run
    assert pace.cap(8) == 2
    for _ in range(2):
        pace.answered(3.0, 8)
    assert pace.cap(8) == 3
    assert other.timed_out(time.time(), 8, 10).seconds_per_request == 3.0


def test_a_second_timeout_in_a_row_at_one_call_doubles_the_timeout_up_to_the_cap():
    pace = ServerPace("t")
    assert pace.timed_out(time.time(), 1, 10).raised_to is None
    assert pace.timed_out(time.time(), 1, 10).raised_to == 20 and pace.timeout(10) == 20
    pace.timed_out(time.time(), 1, 10)
    pace.answered(1.0, 1)  # an answer breaks the run of timeouts
    assert pace.timed_out(time.time(), 1, 10).raised_to is None
    for _ in range(14):  # (the answer halved the raised timeout: one doubling more)
        pace.timed_out(time.time(), 1, 10)
    assert pace.timeout(10) == MAX_TIMEOUT


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\xff" * 80], ids=["empty", "cut", "nan"])
def test_a_damaged_pace_file_reads_as_a_fresh_pace(damage):
    pace = ServerPace("damaged")
    pace.timed_out(time.time(), 4, 10)
    pace.path.write_bytes(damage)  # what a crash or a stray write may leave
    assert pace.cap(4) == 4 and pace.timeout(10) == 10


@pytest.mark.slow
def test_a_raised_timeout_is_used_and_said_once(fake_openai, warnings):
    """max_concurrency 1, timeout 0.5 s, a server taking 0.8 s: two timeouts in a row raise the
    timeout to 1 s, and the third attempt gets its answer."""
    fake_openai.enqueue(slow(0.8), slow(0.8), slow(0.8, then=reply("late but fine")))
    client = build_client(parse_model_spec(model(fake_openai, max_concurrency=1, timeout=0.5), "s.yaml: agent.model"))
    assert asyncio.run(ask(client)).content == "late but fine"
    assert len(fake_openai.requests) == 3 and client.retries_used == 2
    raised = [line for line in warnings if "timeout raised to 1 s" in line]
    assert len(raised) == 1 and "s.yaml: agent.model.timeout" in raised[0]
    assert sum(SLOW_LINE in line for line in warnings) == 1


# ---------------------------------------------------------------- local defaults


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9999/v1",
        "http://localhost/v1",
        "http://[::1]:5000/v1",
        "http://gpu-box:11434/v1",
        "http://10.0.0.5:1234/v1",
    ],
)
def test_local_servers_get_measured_calls_in_flight_recorded_in_the_settings(url):
    spec = parse_model_spec({"model": "m", "base_url": url}, "agent.model")
    assert (
        (spec.max_concurrency, spec.measure_concurrency, spec.timeout, spec.max_tokens)
        == (LOCAL_CEILING, True, 300.0, 512)
        == tuple(LOCAL_DEFAULTS.values())
    )
    assert {k: spec.settings()[k] for k in LOCAL_DEFAULTS} == LOCAL_DEFAULTS


def test_ollama_is_a_local_server_and_a_remote_api_is_not():
    assert parse_model_spec("ollama/qwen2.5:1.5b", "m").measure_concurrency
    for url in ("https://api.example.com/v1", "http://gpu-box:8000/v1"):  # (a vLLM box is no CPU server)
        remote = parse_model_spec({"model": "m", "base_url": url}, "m")
        assert (remote.max_concurrency, remote.measure_concurrency, remote.timeout, remote.max_tokens) == (
            4,
            False,
            120.0,
            None,
        )
        assert "measure_concurrency" not in remote.settings()


def test_a_specs_own_values_win_over_the_local_defaults():
    spec = parse_model_spec(
        {"model": "m", "base_url": "http://127.0.0.1:8080/v1", "max_concurrency": 3, "timeout": 30, "max_tokens": 64},
        "m",
    )
    assert (spec.max_concurrency, spec.measure_concurrency, spec.timeout, spec.max_tokens) == (3, False, 30, 64)


# ---------------------------------------------------------------- the probe


def test_the_probe_sends_one_tiny_request_and_times_it(fake_openai):
    fake_openai.enqueue(slow(0.3, then=reply("OK")))
    result = probe(parse_model_spec(model(fake_openai), "agent.model"))
    assert result.error is None and result.latency_s >= 0.3 and "fake-model" in result.server
    (body,) = fake_openai.requests
    assert body["max_tokens"] == PROBE_TOKENS and len(body["messages"]) == 1


def test_the_probe_of_a_server_that_is_not_there_is_one_line():
    result = probe(parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:9/v1", "timeout": 5}, "m"))
    assert result.latency_s is None and "APIConnectionError" in result.error and "\n" not in result.error


def test_the_expected_duration_and_the_dry_run_lines(tmp_path, fake_openai):
    from simulator.runs.config import load_config

    assert expected_duration(10, 6, 2.0, 4) == 30.0
    fake_openai.enqueue(slow(0.2, then=reply("OK")))
    cfg = load_config(_config(tmp_path, agent={"kind": "function_calling", "model": model(fake_openai)}))
    lines = probe_lines(cfg, [{"role": "agent", "calls": 100}])
    assert len(fake_openai.requests) == 1 and len(lines) == 2
    assert re.search(
        r"100 calls, 1 to 4 at a time as the server keeps pace \(2\d s at one at a time\): "
        r"at least [56] s$",
        lines[0],
    ), lines[0]  # (0.2 s x 100 / 4; measured, from 1 to 4)
    assert lines[1].startswith("expected duration: at least ")


def test_dry_run_probes_each_model_server_once_unless_told_not_to(tmp_path, capsys, org_cache, fake_openai):
    from simulator.cli import main

    fake_openai.enqueue(reply("OK"))
    path = _config(tmp_path, agent={"kind": "function_calling", "model": model(fake_openai)})
    assert main(["run", "--config", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "probe " in out and "expected duration: at least" in out and len(fake_openai.requests) == 1
    assert main(["run", "--config", str(path), "--dry-run", "--no-probe"]) == 0
    assert "probe " not in capsys.readouterr().out and len(fake_openai.requests) == 1
    assert not (tmp_path / "runs").exists()


# ---------------------------------------------------------------- adapting both ways (issue 32 item 2)


def _raised(pace: ServerPace, configured: float, times: int) -> float:
    """The pace's timeout after `times` pairs of timeouts in a row at one call in flight."""
    for _ in range(2 * times):
        pace.timed_out(time.time(), 1, pace.timeout(configured))
    return pace.timeout(configured)


@pytest.mark.parametrize("configured,times", [(5, 3), (0.5, 6), (30, 1)])
def test_a_raised_timeout_comes_back_down_as_requests_are_answered(configured, times):
    pace = ServerPace(f"down-{configured}")
    assert _raised(pace, configured, times) == configured * 2**times
    for _ in range(times + 1):
        pace.answered(0.01, 1)
    assert pace.timeout(configured) == configured


def test_a_server_that_answers_slowly_keeps_the_timeout_its_answers_need():
    pace = ServerPace("slow-answers")
    _raised(pace, 5, 4)  # 80 s
    for _ in range(10):
        pace.answered(30.0, 1)  # every answer takes 30 s: a timeout of 5 s would cut them all
    assert 60.0 <= pace.timeout(5) < 80


@pytest.mark.parametrize("age,fresh", [(10.0, False), (59.0, False), (200.0, True), (3000.0, True)])
def test_a_pace_is_forgotten_once_untouched_longer_than_its_requests_can_take(monkeypatch, age, fresh):
    """Raised to 40 s with the cap cut: nothing can be in flight after 60 s + 2 x 40 s untouched."""
    from simulator.models import ratelimit

    pace = ServerPace(f"stale-{age}")
    _raised(pace, 10, 2)
    assert (pace.timeout(10), pace.cap(8)) == (40, 1)
    now = time.time()
    monkeypatch.setattr(ratelimit.time, "time", lambda: now + age)
    assert (pace.timeout(10) == 10 and pace.cap(8) == 8) is fresh


def test_a_retry_after_a_timeout_waits_at_most_max_wait(fake_openai):
    arrivals: list[float] = []

    def respond(body):
        arrivals.append(time.monotonic())
        return slow(1.0) if len(arrivals) == 1 else reply("fine")

    fake_openai.responder = respond
    client = build_client(
        parse_model_spec(model(fake_openai, timeout=0.3, retries={"attempts": 2, "max_wait": 0.05}), "m")
    )
    assert asyncio.run(ask(client)).content == "fine"
    assert arrivals[1] - arrivals[0] < 0.3 + 0.05 + 0.2  # the timeout, max_wait, and slack for a loaded machine


def _throughput(server, name: str, seconds: float, faults_until: float = 0.0, measure_from: float = 0.0) -> float:
    """Answers a second, from `measure_from` (monotonic) on, of 4 callers asking for `seconds`; until
    `faults_until` (monotonic) half the requests (drawn with a fixed seed) hang past any timeout,
    the others are answered at once, as every request is after that."""
    import random

    from simulator.infra.errors import InfraError

    draw = random.Random(32)

    def respond(body):
        hang = time.monotonic() < faults_until and draw.random() < 0.8
        return slow(5.0, then=reply("too late")) if hang else reply("at once")

    server.responder = respond
    spec = parse_model_spec(
        {
            "model": name,
            "base_url": server.base_url,
            "max_concurrency": 1,
            "timeout": 0.2,
            "retries": {"attempts": 50, "max_wait": 0.1},
        },
        "m",
    )

    async def run() -> list[float]:
        client, done, end = build_client(spec), [], time.monotonic() + seconds

        async def caller():
            while time.monotonic() < end:
                try:
                    await ask(client)
                    done.append(time.monotonic())
                except InfraError:
                    pass

        await asyncio.gather(*(caller() for _ in range(4)))
        return done

    start = time.monotonic()
    done = [t for t in asyncio.run(run()) if t >= max(measure_from, start)]
    return len(done) / (time.monotonic() - max(measure_from, start))


@pytest.mark.slow
def test_throughput_recovers_once_a_server_stops_hanging(fake_openai):
    """For 6 s half the requests hang (runs of timeouts raise the timeout); from then on every
    request is answered at once: the raised timeout comes back to the configured one, and half a
    second later throughput is back near a run that never met a fault (at least 60% here, on a
    loaded test machine; benchmarks/timeout_recovery.py measures it quietly: 93-126%, target 80%)."""
    from simulator.models.clients import _scope
    from simulator.models.ratelimit import ServerPace

    _throughput(fake_openai, "warm-up", 0.5)  # (imports and first connections: not in either figure)
    baseline = _throughput(fake_openai, "fault-free", 3.0)
    start = time.monotonic()
    recovered = _throughput(fake_openai, "faulty", 9.5, faults_until=start + 6.0, measure_from=start + 6.5)
    spec = parse_model_spec({"model": "faulty", "base_url": fake_openai.base_url, "timeout": 0.2}, "m")
    assert ServerPace(_scope(spec)).timeout(0.2) < 0.4  # (was: raised to 0.4, 0.8, ... and kept for an hour)
    assert recovered >= 0.6 * baseline, (recovered, baseline)

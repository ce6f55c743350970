"""Fault tolerance against a local fault-injecting OpenAI-compatible server (tests/fake_openai.py).

The real OpenAI client (through simulator.models.clients.build_client) meets 429s with Retry-After,
5xx, client timeouts, dropped connections, truncated JSON bodies and slow replies: transient
faults are retried within the spec's attempts; what still fails is an InfraError, which ends
its episode as `infra_error` (never the agent's failure), counted in summary.json, and played
again alone by `crmarena run --retry-failed`. No episode is ever lost.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.infra.errors import InfraError
from simulator.models.clients import build_client, parse_model_spec
from simulator.runs.transcript import read_records
from tests.fake_openai import MAX_PAUSE, FakeOpenAI, drop, error, fake_key, reply, slow, truncated
from tests.test_run import _config

KEY_ENV = "FAULTS_KEY"
pytestmark = pytest.mark.filterwarnings("ignore:Resolved model mismatch")


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, fake_key("faults"))


def model(server, attempts: int = 3, max_wait: float = 0.05, **extra) -> dict:
    return {
        "model": "fake-model",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "retries": {"attempts": attempts, "max_wait": max_wait},
        **extra,
    }


def client_for(server, **kwargs):
    return build_client(parse_model_spec(model(server, **kwargs), "faults: agent.model"))


def create(client) -> tuple[str, float]:
    """The reply's content and the seconds the call took (retries included)."""
    from autogen_core.models import UserMessage

    started = time.monotonic()
    result = asyncio.run(client.create([UserMessage(content="How many open cases?", source="user")]))
    return result.content, time.monotonic() - started


def fails(client) -> tuple[InfraError, float]:
    started = time.monotonic()
    with pytest.raises(InfraError) as caught:
        create(client)
    return caught.value, time.monotonic() - started


# ---------------------------------------------------------------- one client, one fault at a time


def test_429_with_retry_after_is_waited_for_then_succeeds(fake_openai):
    fake_openai.enqueue(error(429, retry_after=0.2), reply("ok"))
    client = client_for(fake_openai, max_wait=0.3)
    content, elapsed = create(client)
    assert content == "ok" and elapsed >= 0.2
    assert client.retries_used == 1 and len(fake_openai.requests) == 2
    assert client.drain_usage().calls == 1  # the failed attempt is no call


def test_500s_then_success_within_the_attempts(fake_openai):
    fake_openai.enqueue(error(500), error(503), reply("ok"))
    client = client_for(fake_openai, attempts=3)
    assert create(client)[0] == "ok"
    assert client.retries_used == 2 and len(fake_openai.requests) == 3


def test_persistent_500s_are_an_infra_error_after_the_attempts(fake_openai):
    fake_openai.responder = lambda body: error(500)
    client = client_for(fake_openai, attempts=3)
    exc, _ = fails(client)
    assert "HTTP 500" in str(exc) and "after 3 attempt(s)" in str(exc)
    assert client.retries_used == 2 and len(fake_openai.requests) == 3


def test_a_client_timeout_is_retried_then_succeeds(fake_openai):
    fake_openai.enqueue(slow(1.0), reply("ok"))
    client = client_for(fake_openai, timeout=0.2)
    content, elapsed = create(client)
    assert content == "ok" and client.retries_used == 1 and 0.2 <= elapsed < 1.0


def test_persistent_timeouts_are_an_infra_error_in_bounded_time(fake_openai):
    fake_openai.responder = lambda body: slow(1.0)
    client = client_for(fake_openai, attempts=2, timeout=0.2)
    exc, elapsed = fails(client)
    assert "APITimeoutError after 2 attempt(s)" in str(exc)
    assert elapsed < 2 * (0.2 + 0.05) + 0.5  # the timeout is per attempt, never the server's 1 s
    deadline = time.monotonic() + 10  # (a loaded server may log the abandoned second request late)
    while len(fake_openai.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(fake_openai.requests) == 2 and client.retries_used == 1


@pytest.mark.parametrize("reset", [False, True], ids=["fin", "rst"])
def test_a_dropped_connection_is_retried(fake_openai, reset):
    fake_openai.enqueue(drop(reset=reset), reply("ok"))
    client = client_for(fake_openai)
    assert create(client)[0] == "ok"
    assert client.retries_used == 1 and len(fake_openai.requests) == 2


def test_persistent_drops_are_an_infra_error(fake_openai):
    fake_openai.responder = lambda body: drop()
    exc, _ = fails(client_for(fake_openai, attempts=3))
    assert "APIConnectionError after 3 attempt(s)" in str(exc) and len(fake_openai.requests) == 3


@pytest.mark.parametrize("honest_length", [True, False], ids=["cut-json", "cut-mid-body"])
def test_a_truncated_json_body_is_a_transport_fault_and_retried(fake_openai, honest_length):
    # cut-json: a whole HTTP message whose JSON is cut off (the SDK raises JSONDecodeError);
    # cut-mid-body: fewer bytes than Content-Length, then the connection closes
    fake_openai.enqueue(truncated(reply("lost"), honest_length=honest_length), reply("ok"))
    client = client_for(fake_openai)
    assert create(client)[0] == "ok"
    assert client.retries_used == 1 and len(fake_openai.requests) == 2


def test_persistently_truncated_bodies_are_an_infra_error_not_the_agents_failure(fake_openai):
    fake_openai.responder = lambda body: truncated(keep=0.6)
    client = client_for(fake_openai, attempts=2)
    exc, _ = fails(client)  # an InfraError, never a bare JSONDecodeError (which reads as agent_error)
    assert "JSONDecodeError after 2 attempt(s)" in str(exc) and len(fake_openai.requests) == 2


def test_a_slow_reply_within_the_timeout_just_succeeds(fake_openai):
    fake_openai.enqueue(slow(0.5, then=reply("worth the wait")))
    client = client_for(fake_openai, timeout=3)
    content, elapsed = create(client)
    assert content == "worth the wait" and elapsed >= 0.5
    assert client.retries_used == 0 and len(fake_openai.requests) == 1


def test_the_fake_server_stays_bounded():
    with pytest.raises(ValueError, match="pauses"):
        slow(MAX_PAUSE + 1)
    with FakeOpenAI() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        server.responder = lambda body: slow(MAX_PAUSE)
        fails(client_for(server, attempts=1, timeout=0.2))  # leaves a handler holding the request
        started = time.monotonic()
    assert time.monotonic() - started < 2  # stopping cuts the pause short


# ---------------------------------------------------------------- whole runs


class FaultScripts:
    """A responder that gives each episode (told apart by its first user message) its own
    script: a list of faults for its first requests, then a reply, or one fault forever."""

    def __init__(self, scripts: list[list[dict] | dict]):
        self.scripts, self.lock = list(scripts), threading.Lock()
        self.assigned: dict[str, list[dict] | dict] = {}
        self.calls: Counter = Counter()
        self.healthy = False  # the server has recovered: every request gets a reply

    def __call__(self, body: dict) -> dict:
        episode = next(m["content"] for m in body["messages"] if m["role"] == "user")
        with self.lock:
            if episode not in self.assigned:
                self.assigned[episode] = self.scripts.pop(0) if self.scripts else []
            n, script = self.calls[episode], self.assigned[episode]
            self.calls[episode] += 1
        if self.healthy:
            return reply("I could not find it.")
        if isinstance(script, dict):
            return script
        return script[n] if n < len(script) else reply("I could not find it.")


def _planned_ids(config: Path) -> set[str]:
    from simulator.runs.config import load_config
    from simulator.runs.run import cached_org, plan

    cfg = load_config(config)
    return {p.spec.episode_id for p in plan(cfg, cfg.name, [cached_org(c) for c in cfg.orgs])}


@pytest.mark.slow
def test_a_faulty_provider_run_loses_nothing_and_retry_failed_recovers_it(tmp_path, capsys, org_cache, fake_openai):
    scripts = FaultScripts(
        [
            [error(429, retry_after=0.2)],  # recovers after the wait
            [error(500), error(502)],  # recovers on the third attempt
            [drop(), truncated()],  # recovers on the third attempt
            error(500),  # never recovers: infra_error
            slow(1.0),  # slower than the 0.3 s timeout, always: infra_error
        ]
    )
    fake_openai.responder = scripts
    config = _config(
        tmp_path,
        agent={"kind": "function_calling", "model": model(fake_openai, attempts=3, max_wait=0.25, timeout=0.3)},
        modes=["full"],
    )  # 5 task types x 1 instance x 1 persona: 5 episodes
    planned = _planned_ids(config)
    assert len(planned) == 5

    assert main(["run", "--config", str(config), "-q"]) == 1  # the run goes on past the failures, then says so
    folder = tmp_path / "runs" / "t"
    first = list(read_records(folder / "transcripts.jsonl"))
    assert {r["episode_id"] for r in first} == planned and len(first) == 5  # nothing lost
    failed = {r["episode_id"]: r for r in first if r["termination"]["reason"] == "infra_error"}
    assert len(failed) == 2
    details = sorted(r["termination"]["detail"] for r in failed.values())
    assert all(d.startswith("openai_compatible/fake-model: ") for d in details)  # names the model
    assert "APITimeoutError after 3 attempt(s)" in details[0]
    assert "HTTP 500 (InternalServerError) after 3 attempt(s)" in details[1]
    for rec in failed.values():
        assert rec["agent"]["model"]["model"] == "fake-model" and rec["scores"]["rules"]["success"] is None
    for rec in first:
        if rec["episode_id"] not in failed:  # the transient faults were retried away
            assert rec["termination"]["reason"] not in ("infra_error", "agent_error"), rec["termination"]
            assert rec["scores"]["rules"]["scored"] is not False
    recovering = [e for e, s in scripts.assigned.items() if isinstance(s, list)]
    assert all(scripts.calls[e] > len(scripts.assigned[e]) for e in recovering)  # faults, then a reply
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["episodes"] == 5 and summary["counts"]["infra_errors"] == 2
    assert summary["counts"]["by_termination"]["infra_error"] == 2
    assert summary["counts"]["scored"] == 3
    out, err = capsys.readouterr()
    assert "2 infra errors" in out and "2 of 5 episode(s) ended in infra_error" in err and "--retry-failed" in err

    # the server recovers; --retry-failed plays the two failed episodes again, and only them
    scripts.healthy, scripts.calls = True, Counter()
    assert main(["run", "--config", str(config), "-q", "--retry-failed"]) == 0
    assert "3 of 5 episodes already done" in capsys.readouterr().err
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 7 and records[:5] == first  # appended, nothing rewritten
    assert {r["episode_id"] for r in records[5:]} == set(failed)
    assert all(r["termination"]["reason"] != "infra_error" for r in records[5:])
    retried_episodes = set(scripts.calls)
    assert retried_episodes == {e for e, s in scripts.assigned.items() if isinstance(s, dict)}
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["episodes"] == 5 and summary["counts"]["infra_errors"] == 0
    assert summary["counts"]["scored"] == 5 and "infra_error" not in summary["counts"]["by_termination"]
    assert {r["episode_id"] for r in records} == planned

    # and a plain resume has nothing left to play
    assert main(["run", "--config", str(config), "-q"]) == 0
    assert len(list(read_records(folder / "transcripts.jsonl"))) == 7


@pytest.mark.parametrize("workers", [1, 2])
def test_a_refusal_no_retry_fixes_stops_the_run_and_retry_failed_finishes_it(
    tmp_path, capsys, org_cache, fake_openai, workers
):
    """A bad key (401) on a paid sweep: one refused episode per process, no further episode
    starts, exit 1 with what to do; once fixed, --retry-failed plays the rest and the refused."""
    refused = {"on": True}
    fake_openai.responder = lambda body: (
        error(401, body='{"error": {"message": "Incorrect API key"}}')
        if refused["on"]
        else reply("I could not find it.")
    )
    config = _config(
        tmp_path,
        agent={"kind": "function_calling", "model": model(fake_openai)},
        modes=["full", "sharded"],
        concurrency=workers,
        workers=workers,
    )  # 10 episodes
    assert main(["run", "--config", str(config), "-q"]) == 1
    err = capsys.readouterr().err
    assert "stopped: the provider refused" in err and "HTTP 401" in err and "--retry-failed" in err
    folder = tmp_path / "runs" / "t"
    first = list(read_records(folder / "transcripts.jsonl"))
    # at most one refusal per process, then no call (a process that had not started its first episode
    # when another met the refusal, as on a loaded machine, plays none)
    assert 1 <= len(first) <= workers and len(first) == len(fake_openai.requests)
    assert f"{10 - len(first)} episode(s) not played" in err and "Traceback" not in err
    assert all(r["termination"]["reason"] == "infra_error" and r["termination"]["fatal"] for r in first)
    assert (folder / "report.md").is_file()

    refused["on"] = False
    assert main(["run", "--config", str(config), "-q", "--retry-failed"]) == 0
    records = list(read_records(folder / "transcripts.jsonl"))
    latest = {r["episode_id"]: r for r in records}
    assert len(latest) == len(_planned_ids(config)) == 10 and len(records) == 10 + len(first)
    assert all(r["termination"]["reason"] != "infra_error" for r in latest.values())
    assert all("fatal" not in r["termination"] for r in latest.values())  # written only when true


def test_one_models_refusal_stops_every_variant_in_every_process(tmp_path, capsys, org_cache, fake_openai):
    """Two agent variants on two worker processes (each process gets one variant): a 404 for
    one model stops the other process too, not only the one that met it."""
    fake_openai.responder = lambda body: (
        error(404, body='{"error": {"message": "model not found"}}') if body["model"] == "gone-model" else slow(0.2)
    )
    agents = [
        {"kind": "function_calling", "model": {**model(fake_openai), "model": name}}
        for name in ("gone-model", "fake-model")
    ]
    config = _config(tmp_path, agent=agents, modes=["full", "sharded"], concurrency=2, workers=2)  # 20 episodes
    assert main(["run", "--config", str(config), "-q"]) == 1
    err = capsys.readouterr().err
    records = list(read_records(tmp_path / "runs" / "t" / "transcripts.jsonl"))
    assert sum(r["termination"].get("fatal", False) for r in records) >= 1
    assert len(records) < 10  # the healthy variant's process stopped too (it alone has 10 episodes)
    assert f"{20 - len(records)} episode(s) not played" in err

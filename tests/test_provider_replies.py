"""Malformed provider replies (tests/fake_openai.py's `malformed`): a 200 whose body is a provider
error `{"error": {...}}`, has empty choices, or a choice without a message. Each is retried like
a 5xx; when the retries run out it is an InfraError naming the provider's message (redacted),
so the episode ends as `infra_error` on every side (agent, LLM person, judge), never as the
agent's failure, and `crmarena run --retry-failed` plays it again."""

from __future__ import annotations

import asyncio
import json

import pytest

from simulator.cli import main
from simulator.infra.errors import InfraError
from simulator.models.clients import build_client, parse_model_spec
from simulator.runs.transcript import read_records
from tests.fake_openai import error, malformed, reply
from tests.test_judge import exact_record
from tests.test_run import _config

KEY_ENV, KEY = "PROVIDER_REPLIES_KEY", "gsk_live0123456789abcdef"  # not key-shaped: only its value redacts it
ECHO = f"Upstream overloaded for key {KEY}"  # a provider error that echoes the key
KINDS = {
    "error": "provider error in a 200 reply: Upstream overloaded for key [redacted]",
    "no_choices": "a 200 reply without choices",
    "no_message": "a 200 reply whose choice has no message",
}
pytestmark = pytest.mark.filterwarnings("ignore:Resolved model mismatch")


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)


def model(server, attempts: int = 2) -> dict:
    return {
        "model": "fake-model",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "retries": {"attempts": attempts, "max_wait": 0.01},
    }


def create(client) -> str:
    from autogen_core.models import UserMessage

    return asyncio.run(client.create([UserMessage(content="How many open cases?", source="user")])).content


# ---------------------------------------------------------------- the client


@pytest.mark.parametrize("kind", KINDS)
def test_a_malformed_reply_is_retried_like_a_5xx(fake_openai, kind):
    fake_openai.enqueue(malformed(kind, ECHO), reply("ok"))
    client = build_client(parse_model_spec(model(fake_openai), "t: agent.model"))
    assert create(client) == "ok"
    assert client.retries_used == 1 and len(fake_openai.requests) == 2
    assert client.drain_usage().calls == 1  # the malformed attempt is no call


@pytest.mark.parametrize("kind", KINDS)
def test_persistent_malformed_replies_are_an_infra_error_saying_what_came_back(fake_openai, kind):
    fake_openai.responder = lambda body: malformed(kind, ECHO)
    client = build_client(parse_model_spec(model(fake_openai, attempts=3), "t: agent.model"))
    with pytest.raises(InfraError) as caught:
        create(client)
    assert str(caught.value) == f"openai_compatible/fake-model: {KINDS[kind]} after 3 attempt(s)"
    assert not caught.value.fatal and len(fake_openai.requests) == 3


# ---------------------------------------------------------------- every side of a run


def _play(tmp_path, **sides) -> dict:
    """Run one episode (knowledge_qa, full) and return its record (the exit status is issue 11 item 7's)."""
    config = _config(tmp_path, tasks=["knowledge_qa"], modes=["full"], concurrency=1, **sides)
    main(["run", "--config", str(config), "-q"])
    (record,) = read_records(tmp_path / "runs" / "t" / "transcripts.jsonl")
    return record


def _assert_infra_error(record: dict) -> None:
    termination = record["termination"]
    assert termination["reason"] == "infra_error", termination
    assert f"openai_compatible/fake-model: {KINDS['error']} after 2 attempt(s)" in termination["detail"]
    assert KEY not in str(record) and record["scores"]["rules"]["success"] is None


@pytest.mark.parametrize("kind", ["function_calling", "react"])
def test_the_agents_malformed_replies_end_as_infra_error_and_retry_failed_replays_them(
    tmp_path, capsys, org_cache, fake_openai, kind
):
    fake_openai.responder = lambda body: malformed("error", ECHO)
    config_changes = {"agent": {"kind": kind, "model": model(fake_openai)}}
    _assert_infra_error(_play(tmp_path, **config_changes))

    fake_openai.responder = lambda body: reply("I could not find it.")
    config = tmp_path / "run.yaml"
    assert main(["run", "--config", str(config), "-q", "--retry-failed"]) == 0
    first, again = read_records(tmp_path / "runs" / "t" / "transcripts.jsonl")
    assert again["episode_id"] == first["episode_id"]
    assert again["termination"]["reason"] not in ("infra_error", "agent_error"), again["termination"]


def test_the_persons_malformed_replies_end_as_infra_error(tmp_path, capsys, org_cache, fake_openai):
    fake_openai.responder = lambda body: malformed("error", ECHO)
    record = _play(tmp_path, user={"kind": "llm", "model": model(fake_openai)})  # the oracle agent calls no model
    _assert_infra_error(record)


def test_the_judges_malformed_replies_are_no_verdict_an_infra_error(fake_openai):
    from evaluators.judge import Judge

    fake_openai.responder = lambda body: malformed("error", ECHO)
    judge = Judge(build_client(parse_model_spec(model(fake_openai), "t: judge")), max_attempts=2)
    verdict = asyncio.run(judge.judge(exact_record()))
    assert verdict["valid"] is False and verdict["success"] is None and verdict["infra_error"] is True
    assert verdict["error"] == f"judge model failed: openai_compatible/fake-model: {KINDS['error']} after 2 attempt(s)"
    assert len(fake_openai.requests) == 2  # the client's retries, not more verdict attempts


def test_a_reply_missing_fields_the_type_requires_is_still_read(fake_openai):
    """Local servers leave out id, created, model, object or usage: such a reply is taken as the
    SDK takes it (constructed unchecked), not refused."""
    bare = {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "bare but fine"}, "finish_reason": "stop"}]
    }
    fake_openai.enqueue(error(200, body=json.dumps(bare)))
    client = build_client(parse_model_spec(model(fake_openai), "t: agent.model"))
    assert create(client) == "bare but fine"
    assert client.drain_usage().prompt_tokens > 0  # no usage in the reply: counted offline

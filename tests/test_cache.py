"""The response cache: keys that separate what shapes a reply, replies that survive a round trip."""

from __future__ import annotations

from autogen_core import FunctionCall
from autogen_core.models import CreateResult, RequestUsage, SystemMessage, UserMessage
from pydantic import BaseModel

from simulator.models.cache import ResponseCache, request_key

SETTINGS = {"provider": "openai", "model": "gpt-4o-mini", "temperature": 0.2, "max_concurrency": 4}
MESSAGES = [SystemMessage(content="You are a CRM assistant."), UserMessage(content="Who closed most?", source="user")]


class Turn(BaseModel):
    message: str


def test_keys_separate_everything_that_shapes_a_reply():
    base = request_key(SETTINGS, MESSAGES, scope="trial=0")
    assert base == request_key(dict(SETTINGS), list(MESSAGES), scope="trial=0")
    assert base == request_key(
        {**SETTINGS, "max_concurrency": 50, "retries": {"attempts": 9}}, MESSAGES, scope="trial=0"
    )  # limits and retries do not change a reply
    variants = [
        request_key({**SETTINGS, "model": "gpt-4o"}, MESSAGES, scope="trial=0"),
        request_key({**SETTINGS, "temperature": 0.7}, MESSAGES, scope="trial=0"),
        request_key(SETTINGS, MESSAGES[:1], scope="trial=0"),
        request_key(SETTINGS, MESSAGES, scope="trial=1"),
        request_key(SETTINGS, MESSAGES, json_output=Turn, scope="trial=0"),
        request_key(SETTINGS, MESSAGES, extra={"seed": 3}, scope="trial=0"),
    ]
    assert len({base, *variants}) == 1 + len(variants)


def test_replies_round_trip_and_are_shared_between_connections(tmp_path):
    import asyncio

    path = tmp_path / "cache.sqlite"
    reply = CreateResult(
        finish_reason="function_calls",
        cached=False,
        usage=RequestUsage(prompt_tokens=5, completion_tokens=2),
        content=[FunctionCall(id="c1", name="soql", arguments='{"query": "SELECT Id FROM User"}')],
    )
    key = request_key(SETTINGS, MESSAGES)
    writer = ResponseCache(path)
    assert asyncio.run(writer.get(key)) is None
    asyncio.run(writer.put(key, reply))
    reader = ResponseCache(path)  # another process would open it the same way
    got = asyncio.run(reader.get(key))
    assert got.cached is True and got.content == reply.content and got.usage == reply.usage
    writer.close()
    reader.close()


def test_a_cached_run_replays_with_zero_model_calls(tmp_path, monkeypatch, org_cache, fake_openai):
    import json

    import yaml

    from simulator.cli import main
    from simulator.runs.transcript import read_records
    from tests.fake_openai import never_the_same
    from tests.test_run import _model_config

    monkeypatch.setenv("FAKE_LLM_KEY", "sk-test-cache-0000000")
    fake_openai.responder = never_the_same()
    config = _model_config(tmp_path, fake_openai.base_url)
    data = yaml.safe_load(config.read_text())
    data["cache"] = str(tmp_path / "replies.sqlite")
    config.write_text(yaml.safe_dump(data))

    assert main(["run", "--config", str(config), "-q"]) == 0
    first_calls = len(fake_openai.requests)
    assert first_calls > 0
    assert main(["run", "--config", str(config), "-q", "--fresh"]) == 0
    assert len(fake_openai.requests) == first_calls  # the second run asked the model nothing
    runs = sorted((tmp_path / "runs").iterdir())
    conversations = [[json.dumps(r["messages"]) for r in read_records(folder / "transcripts.jsonl")] for folder in runs]
    assert conversations[0] == conversations[1] and len(conversations[0]) == 2

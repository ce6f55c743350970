"""The model client's lean paths send the same requests as the SDK's and autogen's own code:
kept message and tool conversions (models._keep_conversions) and reused request heads
(models._reuse_request_heads), compared byte for byte on a fake server for a function-calling
agent and a structured-output caller, first calls and repeated ones."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from simulator import models
from simulator.models import build_client, parse_model_spec
from tests.fake_openai import FakeOpenAI, reply, tool_call

KEY_ENV = "CRMARENA_TEST_BODIES_KEY"
# (the SDK's parsed completion, dumped by autogen, warns about its `parsed` field; not ours)
pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")


class Turn(BaseModel):
    message: str
    done: bool


async def lookup(city: str) -> str:
    """The weather in a city."""
    return f"Sunny in {city}."


async def conversation(server: FakeOpenAI) -> None:
    """An agent with a tool over two user messages (tool call, answer, answer), then a caller with a
    structured output over two turns, the second with a raised timeout (a new request head)."""
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.messages import TextMessage
    from autogen_core import CancellationToken

    spec = parse_model_spec({"model": "fake-model", "base_url": server.base_url, "api_key_env": KEY_ENV,
                             "timeout": 30, "max_concurrency": 2}, "test")
    agent = AssistantAgent("agent", model_client=build_client(spec), tools=[lookup], system_message="Be brief.",
                           max_tool_iterations=2)
    for text in ("Weather in Paris?", "And now?"):
        await agent.on_messages([TextMessage(content=text, source="user")], CancellationToken())
    person = AssistantAgent("person", model_client=build_client(spec), system_message="You are a person.",
                            output_content_type=Turn)
    for text in ("Say hello.", "Say bye."):
        await person.on_messages([TextMessage(content=text, source="harness")], CancellationToken())
    client = build_client(spec)
    client._timeout = lambda: 45.0  # as a slow server's pace raises it: the request's own timeout
    from autogen_core.models import UserMessage
    await client.create([UserMessage(content="Once more.", source="harness")])


def script(server: FakeOpenAI) -> None:
    turn = '{"message": "Hello.", "done": false}'
    server.enqueue(tool_call("lookup", {"city": "Paris"}), reply("Sunny."), tool_call("lookup", {"city": "Rome"}),
                   reply("Sunny too."), reply(turn), reply(turn), reply("Again."))


def sent(lean: bool, monkeypatch) -> tuple[list[bytes], list[dict]]:
    """The bodies and headers a fake server receives for the conversation, with the lean paths or without."""
    from autogen_ext.models.openai import _openai_client as autogen_openai

    with monkeypatch.context() as patch:
        models._keep_conversions()  # installed once per process: undone here for the plain run
        if not lean:
            for name in ("to_oai_type", "convert_tools"):
                patch.setattr(autogen_openai, name, getattr(autogen_openai, name).__wrapped__)
            patch.setattr(models, "_reuse_request_heads", lambda sdk: None)
        with FakeOpenAI() as server:
            script(server)
            asyncio.run(conversation(server))
            assert not server.queue, "every scripted reply was asked for"
            return server.bodies, server.headers


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    monkeypatch.setenv(KEY_ENV, "sk-test-bodies-0123456789")
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path))


def test_the_same_requests_go_out(monkeypatch):
    plain_bodies, plain_headers = sent(False, monkeypatch)
    lean_bodies, lean_headers = sent(True, monkeypatch)
    assert len(plain_bodies) == 7
    assert lean_bodies == plain_bodies
    ignore = {"host"}  # the fake server's port differs between the runs
    strip = lambda headers: [{k: v for k, v in h.items() if k.lower() not in ignore} for h in headers]  # noqa: E731
    assert strip(lean_headers) == strip(plain_headers)
    lower = [{k.lower(): v for k, v in h.items()} for h in lean_headers]
    assert [h.get("x-stainless-read-timeout") for h in lower] == ["30"] * 6 + ["45.0"]
    assert sum("x-stainless-helper-method" in h for h in lower) == 2  # the structured-output calls


def test_a_reassigned_message_field_is_converted_again():
    from autogen_core.models import AssistantMessage

    calls = []
    convert = models._per_message(lambda message, **settings: calls.append(message.thought) or [{"t": message.thought}])
    message = AssistantMessage(content="hi", source="a", thought="first")
    assert convert(message, model="m") == convert(message, model="m") == [{"t": "first"}]
    message.thought = None  # (autogen's docs show a context clearing thoughts this way)
    assert convert(message, model="m") == [{"t": None}]
    assert convert(message, model="other") == [{"t": None}]
    assert calls == ["first", None, None]


def test_kept_tool_conversions_hold_the_schemas_not_the_tools():
    """A tool leads back to its agent and episode; the conversion kept for its schema must not keep
    the episode alive (it held the last 64 tool lists, so up to 64 finished episodes)."""
    import gc
    import weakref

    class Episode:
        pass

    class Tool:
        def __init__(self, schema: dict, episode: Episode):
            self.schema, self.episode = schema, episode

    schema = {"name": "soql", "description": "query", "parameters": {"type": "object", "properties": {}}}
    calls = []
    convert = models._per_tool_list(lambda tools: calls.append(1) or [dict(t) for t in tools])
    episode = Episode()
    gone = weakref.ref(episode)
    assert convert([Tool(schema, episode)]) == [schema]
    assert convert([Tool(schema, Episode())]) == [schema] and calls == [1]  # the same schema: kept
    del episode
    gc.collect()
    assert gone() is None
    assert convert([{**schema}]) == [schema] and calls == [1, 1]  # another schema object: converted

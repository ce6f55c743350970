"""simulator.models.chat_completions: the SDK-free client against autogen's OpenAIChatCompletionClient.

autogen 0.7's client (on the OpenAI SDK) is the oracle: both clients talk to the same scripted
FakeOpenAI server, which records the request bodies; the bodies sent and the results returned
must be the same. No network, no real key.
"""

from __future__ import annotations

import asyncio
import enum
import json
from typing import Any, Literal

import httpx
import pytest
from autogen_core import FunctionCall, Image
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import FunctionTool
from pydantic import BaseModel, Field

from simulator.models.chat_completions import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    OpenAIChatClient,
    endpoint,
    response_format,
    strict_json_schema,
)
from simulator.models.clients import MalformedReply
from tests.conftest import tls_context
from tests.fake_openai import FakeOpenAI, error, fake_key, malformed, reply, slow, truncated

MODEL = "fake-model"  # not an OpenAI name: autogen takes the model_info given, and resolves nothing
KEY = fake_key("chat")
INFO = {"vision": False, "function_calling": True, "json_output": True, "structured_output": True, "family": "unknown"}
SETTINGS = {"temperature": 0.2, "max_tokens": 256}
# warnings on what is sent on purpose: a dict of arguments, finish_reason "stop" beside calls, a
# parsed reply (the SDK's serializer), a reply to gpt-4o-mini from "gpt-4o-mini", an R1 without <think>
pytestmark = pytest.mark.filterwarnings(
    "ignore:Tool call function arguments",
    "ignore:Finish reason mismatch",
    "ignore:Pydantic serializer warnings",
    "ignore:Resolved model mismatch",
    "ignore:Could not find <think>",
    "ignore:R1-style reply with",
    "ignore:Found </think> before <think>",
)


@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as running:  # one for the module: stopping one takes 0.5 s
        yield running


@pytest.fixture
def fake_openai(server):
    """The module's server, cleared."""
    for kept in (server.queue, server.requests, server.headers, server.bodies, server.refused):
        kept.clear()
    server.responder = None
    return server


def ours(base_url: str, info: dict | None = None, timeout: float = 30.0, model: str = MODEL) -> OpenAIChatClient:
    return OpenAIChatClient(
        model=model,
        http=httpx.AsyncClient(verify=tls_context()),
        model_info=info or INFO,
        api_key=KEY,
        base_url=base_url,
        create_args=SETTINGS,
        timeout=timeout,
    )


def autogens(base_url: str, info: dict | None = None, timeout: float = 30.0, model: str = MODEL) -> Any:
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    return OpenAIChatCompletionClient(
        model=model, base_url=base_url, api_key=KEY, max_retries=0, model_info=info or INFO, timeout=timeout, **SETTINGS
    )


async def _create(client: Any, messages: list, kwargs: dict) -> Any:
    try:
        return await client.create(messages, **kwargs)
    finally:
        await client.close()


def create(client: Any, messages: list, **kwargs: Any) -> Any:
    return asyncio.run(_create(client, messages, kwargs))


def raised(client: Any, messages: list, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as caught:
        create(client, messages, **kwargs)
    return caught.value


# ---------------------------------------------------------------- what a call holds


def lookup_account(name: str, limit: int = 5) -> str:
    """Find accounts by name."""
    return name


def run_soql(query: str) -> str:
    return query


ACCOUNT_TOOL = FunctionTool(lookup_account, description="Find accounts by name.")
OTHER_TOOL = FunctionTool(run_soql, name="soql", description="Run a SOQL query.")
BARE_SCHEMA = {"name": "count_cases", "parameters": {"type": "object", "properties": {}}}
FULL_SCHEMA = {
    "name": "close_case",
    "description": "Close a case.",
    "strict": True,
    "parameters": {
        "type": "object",
        "properties": {"case_id": {"type": "string"}},
        "required": ["case_id"],
        "additionalProperties": False,
    },
}


class Color(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    """Where someone lives."""

    city: str
    zip: str | None = None


class Contact(BaseModel):
    name: str = Field(description="Full name.")
    home: Address = Field(description="The home address.")  # a $ref beside a description
    work: Address | None = None
    past: list[Address]
    tags: list[str]
    tier: Literal["gold", "silver"]
    color: Color
    note: str | None = None


CONTACT = Contact(name="Ann Lee", home=Address(city="Oslo"), past=[], tags=["vip"], tier="gold", color=Color.RED)


def answer(kwargs: dict) -> dict:
    """A reply valid for the call's json_output (the SDK parses a structured reply)."""
    model = kwargs.get("json_output")
    sample = CONTACT if model is Contact else Address(city="Oslo") if isinstance(model, type) else None
    return reply(sample.model_dump_json() if sample else "ok")


def user(text: str = "How many open cases?", source: str = "user") -> UserMessage:
    return UserMessage(content=text, source=source)


def calls() -> list[FunctionCall]:
    return [
        FunctionCall(id="c1", name="soql", arguments='{"query": "SELECT Id FROM Case"}'),
        FunctionCall(id="c2", name="lookup_account", arguments='{"name": "Acme"}'),
    ]


def results() -> FunctionExecutionResultMessage:
    return FunctionExecutionResultMessage(
        content=[
            FunctionExecutionResult(call_id="c1", content="[3 rows]", name="soql", is_error=False),
            FunctionExecutionResult(call_id="c2", content="Error: none", name="lookup_account", is_error=True),
        ]
    )


def history() -> list:
    return [
        SystemMessage(content="You are a CRM agent."),
        user(),
        AssistantMessage(content="Which account?", source="agent"),
        user("Acme, please.", "person_1"),
    ]


def tool_rounds(thought: str | None) -> list:
    return [
        SystemMessage(content="Use the tools."),
        user(),
        AssistantMessage(content=calls(), source="agent", thought=thought),
        results(),
    ]


def odd() -> list:
    """Empty and blank texts, which autogen sends differently to Gemini, Claude and Mistral models."""
    return [
        SystemMessage(content=""),
        user("   "),
        AssistantMessage(content="", source="agent"),
        AssistantMessage(content=calls(), source="agent"),
        results(),
        AssistantMessage(content=calls(), source="agent", thought=""),
        results(),
        user(""),
        AssistantMessage(content="Done.  \n", source="agent"),
    ]


PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def case(messages: Any, info: dict = INFO, model: str = MODEL, **kwargs: Any) -> tuple:
    return messages, kwargs, info, model


BODIES = {  # name: (messages, create's keyword arguments, model_info, model)
    "history": case(history),
    "tool calls": case(lambda: tool_rounds(None)),
    "tool calls with thought": case(lambda: tool_rounds("Let me look.")),
    "user parts": case(lambda: [UserMessage(content=["first part", "second part"], source="user")]),
    "user image": case(
        lambda: [UserMessage(content=["See:", Image.from_base64(PIXEL)], source="user")], {**INFO, "vision": True}
    ),
    "tools auto": case(history, tools=[ACCOUNT_TOOL, BARE_SCHEMA, FULL_SCHEMA]),
    "tools required": case(history, tools=[ACCOUNT_TOOL, OTHER_TOOL], tool_choice="required"),
    "tools none": case(history, tools=[BARE_SCHEMA], tool_choice="none"),
    "tool chosen": case(history, tools=[ACCOUNT_TOOL, OTHER_TOOL], tool_choice=OTHER_TOOL),
    "json true": case(history, json_output=True),
    "json false": case(history, json_output=False),
    "json model": case(history, json_output=Contact),
    "json model, strict tool": case(history, json_output=Address, tools=[FULL_SCHEMA]),
    "response_format arg": case(
        history,
        extra_create_args={
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "answer",
                    "strict": True,
                    "schema": {
                        "type": "object",
                        "properties": {"a": {"type": "integer"}},
                        "required": ["a"],
                        "additionalProperties": False,
                    },
                },
            }
        },
    ),
    "settings args": case(history, extra_create_args={"temperature": 0.5, "seed": 3}),
    "extra_body": case(history, extra_create_args={"extra_body": {"top_k": 3}, "timeout": 20}),
    "system message stripped": case(lambda: [SystemMessage(content="Be brief.\n\n"), user()]),
    "system messages merged": case(lambda: [SystemMessage(content="One."), SystemMessage(content="Two.\n"), user()]),
    "system messages kept": case(
        lambda: [SystemMessage(content="One."), SystemMessage(content="Two."), user()],
        {**INFO, "multiple_system_messages": True},
    ),
    # autogen's variants by model family, named in model_info or found from the model's name
    **{
        f"blanks, {model}": case(odd, model=model)
        for model in (
            "gpt-4o-mini",
            "gemini-1.5-flash",
            "claude-3-5-haiku-20241022",
            "claude-x",
            "mistral-large-latest",
            "llama3.2",
        )
    },
    **{
        f"blanks, family {family}": case(odd, {**INFO, "family": family})
        for family in ("gemini-2.0-flash", "claude-3-5-sonnet", "mistral", "r1")
    },
}


@pytest.mark.parametrize("name", BODIES)
def test_request_body_is_autogens(fake_openai, name):
    messages, kwargs, info, model = BODIES[name]
    fake_openai.enqueue(answer(kwargs), answer(kwargs))
    create(autogens(fake_openai.base_url, info, model=model), messages(), **kwargs)
    create(ours(fake_openai.base_url, info, model=model), messages(), **kwargs)
    theirs, mine = ({k: v for k, v in body.items() if k != "stream"} for body in fake_openai.requests)
    assert mine == theirs
    assert fake_openai.requests[0]["stream"] is False and "stream" not in fake_openai.requests[1]


def test_merged_system_message_is_one(fake_openai):
    """(What the parity above compares, stated: two system messages in a row become one.)"""
    fake_openai.enqueue(reply("ok"))
    create(ours(fake_openai.base_url), BODIES["system messages merged"][0]())
    assert fake_openai.requests[0]["messages"][0] == {"role": "system", "content": "One.\nTwo."}


# ---------------------------------------------------------------- results


def completion(message: dict, finish_reason: str | None = "stop", usage: dict | None = None) -> dict:
    """A 200 with this exact chat completion (no defaults added by the fake)."""
    body = {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish_reason}],
    }
    if usage is not None:
        body["usage"] = usage
    return error(200, body=json.dumps(body))


USAGE = {"prompt_tokens": 21, "completion_tokens": 4, "total_tokens": 25}
CALL = {"id": "call_9", "type": "function", "function": {"name": "soql", "arguments": '{"query": "x"}'}}
R1 = {**INFO, "family": "r1"}
RESULTS = {  # name: (scripted reply, model_info, create's keyword arguments)
    "text": (reply("Hello there."), INFO, {}),
    "tool call": (completion({"content": None, "tool_calls": [CALL]}, "tool_calls", USAGE), INFO, {}),
    "tool calls beside text": (
        completion({"content": "Checking.", "tool_calls": [CALL, {**CALL, "id": "call_10"}]}, "stop", USAGE),
        INFO,
        {},
    ),
    "empty text beside a call": (completion({"content": "", "tool_calls": [CALL]}, "tool_calls", USAGE), INFO, {}),
    "arguments as an object": (
        completion(
            {
                "content": None,
                "tool_calls": [{**CALL, "function": {"name": "soql", "arguments": {"query": "x", "n": [1, 2]}}}],
            },
            "tool_calls",
            USAGE,
        ),
        INFO,
        {},
    ),
    "invalid tool name": (
        completion(
            {"content": None, "tool_calls": [{**CALL, "function": {"name": "crm.soql query!", "arguments": "{}"}}]},
            "tool_calls",
            USAGE,
        ),
        INFO,
        {},
    ),
    "reasoning_content": (
        completion({"content": "42", "reasoning_content": "Six times seven."}, "stop", USAGE),
        INFO,
        {},
    ),
    "no usage": (completion({"content": "Fine."}), INFO, {}),
    "null content": (completion({"content": None}, "stop", USAGE), INFO, {}),
    "length": (completion({"content": "Cut"}, "length", USAGE), INFO, {}),
    "content_filter": (completion({"content": ""}, "content_filter", USAGE), INFO, {}),
    "r1 think": (completion({"content": "<think>Count them.</think> There are 3."}, "stop", USAGE), R1, {}),
    "r1 without think": (completion({"content": "There are 3."}, "stop", USAGE), R1, {}),
    "r1 think reversed": (completion({"content": "</think>a<think> b"}, "stop", USAGE), R1, {}),
    "end_turn": (completion({"content": "Done."}, "end_turn", USAGE), INFO, {}),
    "odd finish reason": (completion({"content": "Done."}, "STOP_SEQUENCE", USAGE), INFO, {}),
    "r1 reasoning_content": (
        completion({"content": "<think>a</think>b", "reasoning_content": "r"}, "stop", USAGE),
        R1,
        {},
    ),
    "logprobs": (
        error(
            200,
            body=json.dumps(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": MODEL,
                    "usage": USAGE,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "Hi"},
                            "finish_reason": "stop",
                            "logprobs": {
                                "content": [
                                    {
                                        "token": "Hi",
                                        "logprob": -0.25,
                                        "bytes": [72, 105],
                                        "top_logprobs": [
                                            {"token": "Hi", "logprob": -0.25, "bytes": [72, 105]},
                                            {"token": "Yo", "logprob": -2.0, "bytes": None},
                                        ],
                                    }
                                ]
                            },
                        }
                    ],
                }
            ),
        ),
        INFO,
        {},
    ),
    "structured": (reply('{"city": "Oslo", "zip": null}'), INFO, {"json_output": Address}),
}


@pytest.mark.parametrize("name", RESULTS)
def test_result_is_autogens(fake_openai, name):
    scripted, info, kwargs = RESULTS[name]
    fake_openai.enqueue(scripted, scripted)
    theirs = create(autogens(fake_openai.base_url, info), [user()], **kwargs)
    mine = create(ours(fake_openai.base_url, info), [user()], **kwargs)
    assert mine.model_dump() == theirs.model_dump()


def test_result_examples(fake_openai):
    """(What the parity above compares, stated for three replies.)"""
    scripted = [RESULTS[name][0] for name in ("tool calls beside text", "invalid tool name", "no usage")]
    fake_openai.enqueue(*scripted)
    beside, renamed, unused = (create(ours(fake_openai.base_url), [user()]) for _ in scripted)
    assert (beside.finish_reason, beside.thought, [c.id for c in beside.content]) == (
        "function_calls",
        "Checking.",
        ["call_9", "call_10"],
    )
    assert renamed.content[0].name == "crm_soql_query_"
    assert (unused.usage.prompt_tokens, unused.usage.completion_tokens) == (0, 0)


def test_usage_adds_up(fake_openai):
    fake_openai.enqueue(
        reply("a", prompt_tokens=10, completion_tokens=2), reply("b", prompt_tokens=5, completion_tokens=1)
    )
    client = ours(fake_openai.base_url)

    async def twice():
        await client.create([user()])
        await client.create([user()])
        await client.close()

    asyncio.run(twice())
    assert (client.total_usage().prompt_tokens, client.total_usage().completion_tokens) == (15, 3)


# ---------------------------------------------------------------- errors

ERRORS = {  # name: (scripted reply, the error's class name, also autogen's SDK client's)
    "400": (error(400), "BadRequestError", True),
    "401": (error(401), "AuthenticationError", True),
    "422": (error(422), "UnprocessableEntityError", True),
    "429": (error(429, retry_after=0.5), "RateLimitError", True),
    "503": (error(503), "InternalServerError", True),
    "418": (error(418), "APIStatusError", True),
    "truncated": (truncated(), "JSONDecodeError", True),
    "no choices": (malformed("no_choices"), "MalformedReply", False),
    "no message": (malformed("no_message"), "MalformedReply", False),
    "error body": (malformed("error"), "MalformedReply", False),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors(fake_openai, name):
    scripted, kind, sdk_too = ERRORS[name]
    fake_openai.enqueue(scripted, scripted)
    exc = raised(ours(fake_openai.base_url), [user()])
    assert type(exc).__name__ == kind
    assert len(fake_openai.requests) == 1  # the client itself never retries
    if sdk_too:
        assert type(raised(autogens(fake_openai.base_url), [user()])).__name__ == kind
    if name.isdigit():
        assert isinstance(exc, APIStatusError) and exc.status_code == int(name)
        assert "scripted" in str(exc)
    if kind == "MalformedReply":
        assert isinstance(exc, MalformedReply)
    if kind == "JSONDecodeError":
        assert isinstance(exc, json.JSONDecodeError)


def test_rate_limit_keeps_retry_after(fake_openai):
    fake_openai.enqueue(error(429, retry_after=0.5))
    exc = raised(ours(fake_openai.base_url), [user()])
    assert exc.response.headers["retry-after"] == "0.5"


def test_connection_refused():
    exc = raised(ours("http://127.0.0.1:9/v1"), [user()])
    assert type(exc) is APIConnectionError
    assert type(raised(autogens("http://127.0.0.1:9/v1"), [user()])).__name__ == "APIConnectionError"


def test_read_timeout(fake_openai):
    fake_openai.enqueue(slow(3.0), slow(3.0))
    exc = raised(ours(fake_openai.base_url, timeout=0.2), [user()])
    assert type(exc) is APITimeoutError and isinstance(exc, APIConnectionError)
    assert type(raised(autogens(fake_openai.base_url, timeout=0.2), [user()])).__name__ == "APITimeoutError"


def test_a_body_that_cannot_be_decoded_is_a_connection_error_retried_by_the_model_client(monkeypatch):
    """A 200 whose gzip body is corrupt (httpx's DecodingError, no TransportError): no answer,
    as the SDK counts it, so the model client retries it and ends in InfraError, never blaming
    the agent."""
    import socket
    import threading

    from simulator.infra.errors import InfraError
    from simulator.models.clients import build_client, parse_model_spec

    hits, listener = [], socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                while b"\r\n\r\n" not in (data := conn.recv(65536)):
                    pass
                hits.append(data)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                    b"Content-Length: 16\r\nConnection: close\r\n\r\nthis is not gzip"
                )

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    try:
        exc = raised(ours(url), [user()])
        assert type(exc) is APIConnectionError and type(exc.__cause__).__name__ == "DecodingError"
        monkeypatch.setenv("K", KEY)
        client = build_client(
            parse_model_spec(
                {"model": "m", "base_url": url, "api_key_env": "K", "retries": {"attempts": 3, "max_wait": 0}}, "t"
            )
        )
        with pytest.raises(InfraError, match="APIConnectionError after 3 attempt"):
            asyncio.run(client.create([user()]))
        assert len(hits) == 4
    finally:
        listener.shutdown(socket.SHUT_RDWR)  # (wakes the accept: no thread is left behind)
        listener.close()
        server.join(5)
    assert not server.is_alive()


@pytest.mark.parametrize(
    "base_url, url",
    [
        ("http://h:8000/v1", "http://h:8000/v1/chat/completions"),
        ("http://h:8000/v1/", "http://h:8000/v1/chat/completions"),
        (
            "https://gw.example/openai/v1?api-version=2024-10-21",
            "https://gw.example/openai/v1/chat/completions?api-version=2024-10-21",
        ),  # (the SDK put the path after it)
    ],
)
def test_the_endpoint_keeps_the_base_urls_query(base_url, url):
    assert endpoint(base_url) == url


def test_an_extra_query_is_added_to_the_base_urls_own():
    client = ours("https://gw.example/openai/v1?api-version=2024-10-21")
    request = client._request({"model": MODEL}, {"extra_query": {"deployment": "d1"}})
    assert str(request.url) == "https://gw.example/openai/v1/chat/completions?api-version=2024-10-21&deployment=d1"
    assert str(client._request({}, {"extra_query": {}}).url).endswith("?api-version=2024-10-21")


# ---------------------------------------------------------------- structured-output schemas


def output_types() -> dict[str, type]:
    from evaluators.judge import VerdictSchema
    from simulator.users.llm import PersonTurn

    return {"PersonTurn": PersonTurn, "VerdictSchema": VerdictSchema, "Contact": Contact, "Address": Address}


@pytest.mark.parametrize("name", ["PersonTurn", "VerdictSchema", "Contact", "Address"])
def test_response_format_is_the_sdks(name):
    from openai.lib._parsing import type_to_response_format_param

    model = output_types()[name]
    expected = type_to_response_format_param(model)
    assert response_format(model) == expected
    assert strict_json_schema(model.model_json_schema()) == expected["json_schema"]["schema"]


def test_strict_schema_rules():
    """(What the parity above compares, stated for Contact.)"""
    schema = strict_json_schema(Contact.model_json_schema())
    assert schema["additionalProperties"] is False and schema["required"] == list(Contact.model_fields)
    assert schema["properties"]["home"]["description"] == "The home address."
    assert "$ref" not in schema["properties"]["home"] and schema["properties"]["home"]["type"] == "object"
    assert "default" not in schema["properties"]["note"]
    assert schema["$defs"]["Address"]["required"] == ["city", "zip"]


# ---------------------------------------------------------------- refused before any request

REFUSED = {  # name: (model_info, messages, create's keyword arguments)
    "json without json_output": ({**INFO, "json_output": False}, [user()], {"json_output": True}),
    "model without structured_output": ({**INFO, "structured_output": False}, [user()], {"json_output": Address}),
    "tools without function_calling": ({**INFO, "function_calling": False}, [user()], {"tools": [ACCOUNT_TOOL]}),
    "tool_choice not among tools": (INFO, [user()], {"tools": [ACCOUNT_TOOL], "tool_choice": OTHER_TOOL}),
    "tool_choice without tools": (INFO, [user()], {"tool_choice": OTHER_TOOL}),
    "invalid user name": (INFO, [user(source="the user")], {}),
    "invalid assistant name": (INFO, [user(), AssistantMessage(content="Hi", source="the agent")], {}),
    "image without vision": (INFO, [UserMessage(content=["See:", Image.from_base64(PIXEL)], source="user")], {}),
    "json_output neither bool nor model": (INFO, [user()], {"json_output": {"type": "json_object"}}),
    "invalid tool name": (INFO, [user()], {"tools": [{**BARE_SCHEMA, "name": "count cases"}]}),
    "system messages apart": (INFO, [SystemMessage(content="a"), user(), SystemMessage(content="b")], {}),
}


@pytest.mark.parametrize("name", REFUSED)
def test_refused_without_a_request(fake_openai, name):
    info, messages, kwargs = REFUSED[name]
    assert isinstance(raised(autogens(fake_openai.base_url, info), messages, **kwargs), ValueError)
    assert isinstance(raised(ours(fake_openai.base_url, info), messages, **kwargs), ValueError)
    assert fake_openai.requests == []


# ---------------------------------------------------------------- where the clients differ, on purpose


@pytest.mark.parametrize(
    "kwargs",
    [
        # any argument goes to the server (an OpenAI-compatible server's own, such as top_k); autogen
        # allows only the SDK's create() arguments
        {"extra_create_args": {"top_k": 3}},
        # the server judges tools beside a structured output; the SDK's parse() wants them strict
        {"json_output": Address, "tools": [ACCOUNT_TOOL]},
    ],
)
def test_sent_where_autogen_refuses(fake_openai, kwargs):
    fake_openai.enqueue(answer(kwargs))
    assert isinstance(raised(autogens(fake_openai.base_url), history(), **kwargs), ValueError)
    create(ours(fake_openai.base_url), history(), **kwargs)
    assert len(fake_openai.requests) == 1


def test_legacy_response_format_class_is_refused(fake_openai):
    """A pydantic class as extra_create_args' response_format (deprecated in autogen, which then
    parses): refused before any request; json_output is the way."""
    with pytest.raises(TypeError):
        create(ours(fake_openai.base_url), history(), extra_create_args={"response_format": Address})
    assert fake_openai.requests == []


def test_replies_autogen_fails_on(fake_openai):
    """Usage with null counts (autogen: a TypeError), a call without an id or arguments (autogen:
    None in FunctionCall's str fields): read as 0, "" and "{}"."""
    fake_openai.enqueue(
        completion({"content": "x"}, "stop", {"prompt_tokens": None, "completion_tokens": None}),
        completion(
            {"content": None, "tool_calls": [{"type": "function", "function": {"name": "soql"}}]}, "tool_calls", USAGE
        ),
    )
    unused, call = (create(ours(fake_openai.base_url), [user()]) for _ in range(2))
    assert (unused.usage.prompt_tokens, unused.usage.completion_tokens) == (0, 0)
    assert (call.content[0].id, call.content[0].arguments) == ("", "{}")


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "stop",
        "STOP",
        "length",
        "content_filter",
        "tool_calls",
        "function_calls",
        "end_turn",
        "End_Turn",
        "max_tokens",
        "",
    ],
)
def test_finish_reasons_read_as_autogens_own_helper_reads_them(raw):
    """simulator.models.completions writes what autogen keeps in a private module; while that module exists,
    both agree (they are compared on every reply in test_result_is_autogens too)."""
    from simulator.models.completions import finish_reason

    private = pytest.importorskip("autogen_ext.models._utils.normalize_stop_reason")
    assert finish_reason(raw) == private.normalize_stop_reason(raw)


@pytest.mark.parametrize(
    "content",
    [
        "<think>a</think>b",
        "  <think> x y </think>\n z ",
        "no think",
        "<think>open",
        "</think>a<think>b",
        "pre <think>t</think> post",
        "<think></think>",
    ],
)
def test_r1_thoughts_split_as_autogens_own_helper_splits_them(content):
    from simulator.models.completions import split_thought

    private = pytest.importorskip("autogen_ext.models._utils.parse_r1_content")
    assert split_thought(content) == private.parse_r1_content(content)

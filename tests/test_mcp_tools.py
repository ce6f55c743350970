"""The CRM tools as an MCP server, through the official SDK's client: the tool gateway of this process
(one token per bound CrmTools), `serve-tools` over streamable HTTP (one isolated session per MCP session)
and over stdio, and their user errors."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import os
import subprocess
import sys
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx
import pytest

from simulator.crm.describe import describe_object, describe_schema
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.servers.mcp_tools import MCP_TOOLS, ToolGateway
from tests.conftest import http
from tests.fake_openai import fake_key, reply, tool_call

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
QUERY = "SELECT Id, Subject, Status FROM Case ORDER BY Id LIMIT 5"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@asynccontextmanager
async def _http_session(url: str, token: str | None):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx.AsyncClient(headers=headers) as http,
        streamable_http_client(url, http_client=http) as streams,
        ClientSession(*streams[:2]) as session,
    ):
        await session.initialize()
        yield session


async def _text(session, name: str, **arguments) -> tuple[str, bool]:
    result = await session.call_tool(name, arguments)
    [content] = result.content
    return content.text, result.isError


@pytest.fixture
def gateway():
    gateway = ToolGateway()
    yield gateway
    gateway.stop()


@pytest.fixture
def org_file(org_paths):
    path = org_paths["b2b"]
    before = _sha(path)
    yield path
    assert _sha(path) == before  # no server ever writes the org file


# ------------------------------------------------------------------ the gateway


def test_list_tools_gives_the_six_tools_with_docstrings_and_schemas(gateway, b2b_org):
    async def go():
        async with _http_session(gateway.url, gateway.bind(CrmTools(OrgSession(b2b_org)))) as session:
            return (await session.list_tools()).tools

    tools = {t.name: t for t in asyncio.run(go())}
    assert tuple(tools) == MCP_TOOLS
    for name in ("soql", "sosl", "assign_case", "assign_lead", "update_record"):
        method = getattr(CrmTools, name)
        params = list(inspect.signature(method).parameters)[1:]
        assert tools[name].description == inspect.getdoc(method)
        assert list(tools[name].inputSchema["properties"]) == params == tools[name].inputSchema["required"]
        assert all(p["type"] == "string" for p in tools[name].inputSchema["properties"].values())
    assert "object_name" in tools["describe"].inputSchema["properties"]
    assert "required" not in tools["describe"].inputSchema


def test_results_are_the_in_process_texts_and_writes_land_in_the_bound_session(gateway, b2b_org, org_file):
    session = OrgSession(b2b_org)
    tools, reference = CrmTools(session), CrmTools(OrgSession(b2b_org))
    calls = []
    token = gateway.bind(tools, lambda *call: calls.append(call))
    case_id = json.loads(reference.soql(QUERY))["records"][0]["Id"]
    user_id = json.loads(reference.soql("SELECT Id FROM User ORDER BY Id DESC LIMIT 1"))["records"][0]["Id"]

    async def go():
        async with _http_session(gateway.url, token) as mcp:
            return [
                await _text(mcp, "soql", query=QUERY),
                await _text(mcp, "sosl", search="FIND {printer} RETURNING Case(Id, Subject)"),
                await _text(mcp, "soql", query="SELECT Nope__c FROM Case"),
                await _text(mcp, "describe", object_name="Case"),
                await _text(mcp, "describe"),
                await _text(mcp, "describe", object_name="Nope"),
                await _text(mcp, "assign_case", case_id=case_id, user_id=user_id),
            ]

    soql, sosl, bad, case, listing, unknown, assign = asyncio.run(go())
    assert soql == (reference.soql(QUERY), False)
    assert sosl == (reference.sosl("FIND {printer} RETURNING Case(Id, Subject)"), False)
    assert bad == (reference.soql("SELECT Nope__c FROM Case"), True) and "INVALID_FIELD" in bad[0]
    assert case == (describe_object(b2b_org.schema, b2b_org.schema.get("Case")), False)
    assert listing == (describe_schema(b2b_org.schema), False)
    assert unknown[1] is True and "INVALID_TYPE" in unknown[0]
    assert json.loads(assign[0])["success"] is True and session.has_writes
    assert (
        json.loads(tools.soql(f"SELECT OwnerId FROM Case WHERE Id = '{case_id}'"))["records"][0]["OwnerId"] == user_id
    )
    assert [name for name, _, _ in calls] == ["soql", "sosl", "soql", "describe", "describe", "describe", "assign_case"]
    assert calls[0] == ("soql", {"query": QUERY}, soql[0])


def test_no_token_a_wrong_one_or_an_unbound_one_gets_401(gateway, b2b_org):
    calls = []
    token = gateway.bind(CrmTools(OrgSession(b2b_org)), lambda *call: calls.append(call))
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "soql", "arguments": {"query": QUERY}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Basic {token}"},
        {"Authorization": "Bearer \u00e9t\u00e9".encode("latin-1")},
    ):
        response = http("POST", gateway.url, json=body, headers={**accept, **headers})
        assert response.status_code == 401 and response.json()["error"] == "invalid_token"
    gateway.unbind(token)
    with pytest.raises(Exception):
        asyncio.run(_text_once(gateway.url, token))
    assert calls == []


async def _text_once(url: str, token: str):
    async with _http_session(url, token) as session:
        return await _text(session, "soql", query=QUERY)


def test_a_large_request_body_is_refused(gateway, b2b_org):
    token = gateway.bind(CrmTools(OrgSession(b2b_org)))
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"pad": "x" * (2 << 20)}}
    response = http(
        "POST",
        gateway.url,
        json=body,
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"},
    )
    assert response.status_code == 413


def test_shared_gateway_is_one_per_process():
    assert ToolGateway.shared() is ToolGateway.shared()
    assert ToolGateway.shared().url.startswith("http://127.0.0.1:") and ToolGateway.shared().url.endswith("/mcp")


def _child_gateway(parent_url: str, out) -> None:
    gateway = ToolGateway.shared()
    status = http("POST", gateway.url, json={}, timeout=20).status_code  # (no token: 401 from a live server)
    out.put((gateway.url != parent_url, status))


def test_a_forked_worker_starts_its_own_gateway():
    """The parent's server thread does not survive a fork: a worker forked after the parent started its
    gateway must not hand its episodes a URL nobody serves."""
    import multiprocessing

    parent = ToolGateway.shared()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_child_gateway, args=(parent.url, out))
    child.start()
    assert out.get(timeout=60) == (True, 401)
    child.join(timeout=30)


# ------------------------------------------------------------------ serve-tools


@contextmanager
def _serve_http(org_file: Path, *extra: str):
    """`serve-tools ORG --transport http` in a child process: yields (url, token)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simulator.cli",
            "serve-tools",
            str(org_file),
            "--transport",
            "http",
            "--port",
            "0",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )
    try:
        url = proc.stdout.readline().split(" at ")[1].strip()
        token = proc.stdout.readline().split(": ")[1].strip()
        yield url, token
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_tools_http_isolates_mcp_sessions(org_file, b2b_org):
    reference = CrmTools(OrgSession(b2b_org))
    lead_id, owner = json.loads(reference.soql("SELECT Id, OwnerId FROM Lead ORDER BY Id LIMIT 1"))["records"][
        0
    ].values()
    other = next(
        r["Id"] for r in json.loads(reference.soql("SELECT Id FROM User ORDER BY Id"))["records"] if r["Id"] != owner
    )
    owner_query = f"SELECT OwnerId FROM Lead WHERE Id = '{lead_id}'"

    async def go(url, token):
        async with _http_session(url, token) as a, _http_session(url, token) as b:
            assert json.loads((await _text(a, "assign_lead", lead_id=lead_id, user_id=other))[0])["success"]
            seen_a = json.loads((await _text(a, "soql", query=owner_query))[0])
            seen_b = json.loads((await _text(b, "soql", query=owner_query))[0])
            same = await _text(b, "soql", query=QUERY)
            return seen_a["records"][0]["OwnerId"], seen_b["records"][0]["OwnerId"], same

    with _serve_http(org_file) as (url, token):
        assert url.startswith("http://127.0.0.1:") and len(token) >= 20
        seen_a, seen_b, same = asyncio.run(go(url, token))
        assert http("POST", url, json={}).status_code == 401
    assert (seen_a, seen_b) == (other, owner)
    assert same == (reference.soql(QUERY), False)


def test_serve_tools_stdio_is_one_session(org_file, b2b_org):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    reference = CrmTools(OrgSession(b2b_org))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simulator.cli", "serve-tools", str(org_file)], env=ENV, cwd=str(ROOT)
    )

    async def go():
        # errlog given: its default is the sys.stderr of whenever mcp.client.stdio was first imported,
        # which after an earlier test's capsys is a capture object with no file descriptor.
        async with stdio_client(params, errlog=sys.stderr) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            names = [t.name for t in (await session.list_tools()).tools]
            return names, await _text(session, "soql", query=QUERY)

    names, soql = asyncio.run(go())
    assert tuple(names) == MCP_TOOLS and soql == (reference.soql(QUERY), False)


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simulator.cli", "serve-tools", *args],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=60,
    )


def test_user_errors_are_one_line(tmp_path, org_file):
    missing = _run_cli(str(tmp_path / "none.db"), "--transport", "http")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no org file" in missing.stderr
    with _serve_http(org_file) as (url, _token):
        port = url.split(":")[2].split("/")[0]
        busy = _run_cli(str(org_file), "--transport", "http", "--port", port)
    assert busy.returncode == 2 and busy.stderr.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in busy.stderr


# ------------------------------------------------------------------ the function-calling agent, tools: mcp


def _client(server):
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    info = {
        "vision": False,
        "function_calling": True,
        "json_output": False,
        "family": "unknown",
        "structured_output": False,
    }
    return OpenAIChatCompletionClient(
        model="fake-model", base_url=server.base_url, api_key=fake_key("mcp"), model_info=info, max_retries=0
    )


def _model_steps(messages: list[dict]) -> list[dict]:
    """The oracle's steps as scripted completions: each of its tool calls, each of its replies."""
    return [
        tool_call(m["tool_calls"][0]["name"], m["tool_calls"][0]["arguments"], m["tool_calls"][0]["id"])
        if m.get("tool_calls")
        else reply(m["content"])
        for m in messages
        if m["role"] == "assistant"
    ]


def _episode(spec, org, agent):
    from evaluators.observer import score
    from simulator.records import parse_record
    from simulator.runs.episode import run_episode
    from simulator.users.scripted import ScriptedUser
    from tests.conftest import seat_of

    data = asyncio.run(run_episode(spec, org, agent, ScriptedUser(spec.seed), seat=seat_of(agent))).to_json()
    return {**data, "scores": score(parse_record(data))}


def _specs(org):
    from simulator.agents.prompts import system_prompt
    from simulator.runs.episode import EpisodeSpec
    from simulator.tasks.generate import generate_instances
    from simulator.users.personas import load_personas, persona_pool_for

    schema_text = describe_schema(org.schema, detailed=True)
    personas = list(load_personas().values())
    for number, inst in enumerate(generate_instances(org, 1)):
        persona = next(p for p in personas if p.pool == persona_pool_for(inst.persona_pool, inst.org))
        prompt = system_prompt(inst, schema_text, protocol="function", privacy_aware=False)
        yield EpisodeSpec(f"e{number}", "r1", inst, "sharded", persona, prompt, seed=number)


@pytest.mark.slow
def test_function_agent_over_mcp_plays_every_task_type_as_in_process(fake_openai, b2b_org):
    from simulator.agents.function_calling import FunctionCallingAgent
    from simulator.agents.oracle import OracleAgent

    played = []
    for spec in _specs(b2b_org):
        oracle = _episode(spec, b2b_org, OracleAgent())
        runs = {}
        for tools in ("inprocess", "mcp"):
            fake_openai.enqueue(*_model_steps(oracle["messages"]))
            runs[tools] = _episode(spec, b2b_org, FunctionCallingAgent(_client(fake_openai), tools=tools))
            assert not fake_openai.queue, spec.instance.task  # every oracle step was replayed
        inprocess, mcp = runs["inprocess"], runs["mcp"]
        assert mcp["agent"].pop("tools") == "mcp" and inprocess["agent"] == mcp["agent"]
        for key in ("messages", "final_answer", "termination", "state", "scores"):
            assert inprocess[key] == mcp[key], (spec.instance.task, key)
        results = [(m["content"], m["is_error"]) for m in mcp["messages"] if m["role"] == "tool"]
        assert results == [(m["content"], m["is_error"]) for m in oracle["messages"] if m["role"] == "tool"]
        assert mcp["scores"]["rules"] == oracle["scores"]["rules"], spec.instance.task
        played.append((spec.instance.task, len(results)))
    assert len(played) >= 19 and sum(calls for _, calls in played) > 2 * len(played)
    assert not ToolGateway.shared()._bindings  # each episode's token was unbound at close


def test_one_call_per_step_over_mcp_refuses_the_second_call_before_it_is_sent(fake_openai, b2b_org):
    from simulator.agents.base import AgentSetup
    from simulator.agents.function_calling import ONE_CALL_NOTICE, FunctionCallingAgent

    case = json.loads(CrmTools(OrgSession(b2b_org)).soql(QUERY))["records"][0]["Id"]
    user = json.loads(CrmTools(OrgSession(b2b_org)).soql("SELECT Id FROM User LIMIT 1"))["records"][0]["Id"]
    calls = [("soql", {"query": QUERY}), ("assign_case", {"case_id": case, "user_id": user})]
    two_calls = {
        "message": {
            "role": "assistant",
            "content": "Two.",
            "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(calls)
            ],
        },
        "usage": {"prompt_tokens": 1, "completion_tokens": 1},
    }

    async def play(tools: str, session: OrgSession):
        agent = FunctionCallingAgent(_client(fake_openai), tools=tools)
        await agent.start(AgentSetup(CrmTools(session), "You are a CRM assistant.", 5))
        try:
            return (await agent.respond("Hi", 1)).messages
        finally:
            await agent.close()

    turns = {}
    for tools in ("inprocess", "mcp"):
        fake_openai.enqueue(two_calls, reply("Done."))
        session = OrgSession(b2b_org)
        turns[tools] = asyncio.run(play(tools, session))
        assert not session.has_writes  # the refused write never ran
    assert turns["mcp"] == turns["inprocess"]
    assert [(m["content"], m["is_error"]) for m in turns["mcp"][2:]] == [(ONE_CALL_NOTICE, True)]
    tool_names = [t["function"]["name"] for t in fake_openai.requests[-1]["tools"]]
    assert tool_names == ["soql", "sosl", "assign_case", "assign_lead", "update_record"]  # no describe


def test_served_connections_are_not_delayed():
    """serve-tools and serve-org listen through background.listen: asyncio sets TCP_NODELAY on accepted
    connections only for a socket made with proto IPPROTO_TCP; without it every reply waited for a
    delayed ACK (about 40 ms a tool call)."""
    import socket

    from simulator.servers.background import listen

    async def accepted_nodelay() -> int:
        seen = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport):
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        server = await asyncio.get_running_loop().create_server(Probe, sock=listen("127.0.0.1", 0))
        _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) == 1


def test_serve_tools_holds_a_bounded_number_of_sessions(b2b_org):
    """Each MCP session that writes holds a copy of the org: past the cap the oldest is closed, and its
    later calls are refused rather than served from a fresh copy that forgot its writes."""
    from types import SimpleNamespace

    from simulator.servers.mcp_tools import SessionTools

    class McpSession:  # (a stand-in for the SDK's session object: the key sessions are told apart by)
        pass

    tools = SessionTools(b2b_org, max_sessions=2)
    sessions = [McpSession() for _ in range(3)]
    first, second = (tools(SimpleNamespace(session=s)) for s in sessions[:2])
    assert tools(SimpleNamespace(session=sessions[0])) is first  # one binding per session
    tools(SimpleNamespace(session=sessions[2]))  # a third: the oldest goes
    with pytest.raises(LookupError, match="at most 2 sessions"):
        tools(SimpleNamespace(session=sessions[0]))
    assert tools(SimpleNamespace(session=sessions[1])) is second
    assert json.loads(second.call("soql", {"query": "SELECT Id FROM User LIMIT 1"}))["records"]


def test_a_failure_inside_a_call_is_an_error_result_and_still_recorded(b2b_org):
    from simulator.servers.mcp_tools import Binding

    seen = []

    def broken_gate(name: str):
        raise RuntimeError("a bug")

    binding = Binding(CrmTools(OrgSession(b2b_org)), on_call=lambda *call: seen.append(call), gate=broken_gate)
    text = binding.call("soql", {"query": "SELECT Id FROM User LIMIT 1"})
    assert json.loads(text)["error"][0]["errorCode"] == "UNKNOWN_EXCEPTION"
    assert seen == [("soql", {"query": "SELECT Id FROM User LIMIT 1"}, text)]

"""A remote agent endpoint (docs/remote-agent.md) serving our oracle, for tests of the remote path.

`remote_oracle_app()` is a Starlette app: per session an OracleAgent, briefed from each message's
`brief` (the remote agent's calibration mode). The oracle's solver is synchronous: each message
runs it on a worker thread, whose tool calls go over MCP, through the session's grant, with the
SDK's client (an MCP session opened, on the server's event loop, for each message that needs tools).
`failing_app(kind)` is an endpoint that answers messages badly, in the way `kind` says;
`calling_app(calls, reply, results)` one that makes the given tool calls and answers `reply`;
`salesforce_app(act, reply, results)` one that acts with simple-salesforce on the session's REST grant.
"""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import Callable
from typing import Any

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from simulator.agents.base import AgentSetup
from simulator.agents.oracle import OracleAgent, OracleBrief
from simulator.crm.store import OrgMeta
from simulator.crm.tools import CrmTools
from simulator.tasks.instance import Instance


class McpTools:
    """CrmTools-shaped tools (same methods and signatures) whose calls go to the MCP session of the
    message being answered (`session`, living on `loop`); called from a worker thread."""

    session: ClientSession
    loop: asyncio.AbstractEventLoop

    def __getattr__(self, name: str):
        method = getattr(CrmTools, name)
        signature = inspect.signature(method)

        def call(*args: Any) -> str:
            arguments = dict(signature.bind(None, *args).arguments)
            arguments.pop("self")
            future = asyncio.run_coroutine_threadsafe(self.session.call_tool(name, arguments), self.loop)
            return future.result(timeout=60).content[0].text

        call.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
        return call


class OracleSession:
    """One session: the oracle, briefed from the latest message."""

    def __init__(self, opened: dict):
        self.opened, self.oracle, self.tools = opened, OracleAgent(), McpTools()
        self.http = httpx.AsyncClient(headers=opened["tools"]["headers"], timeout=60)  # (one per session: making
        # one costs tens of milliseconds)
        self.revealed: frozenset[str] = frozenset()
        self.started = False

    async def answer(self, body: dict) -> str:
        brief = body["brief"]
        self.revealed = frozenset(brief["revealed"])
        if not self.started:
            self.oracle.brief(
                OracleBrief(
                    Instance.from_json(brief["instance"]), OrgMeta.from_rows(brief["meta"]), lambda: self.revealed
                )
            )
            await self.oracle.start(AgentSetup(self.tools, self.opened["system_prompt"], self.opened["max_steps"]))
            self.started = True
        if self.oracle.missing():  # it asks for a shard: no tools needed
            return (await self.oracle.respond(body["message"], body["turn"])).reply
        async with (
            streamable_http_client(self.opened["tools"]["mcp_url"], http_client=self.http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            self.tools.session, self.tools.loop = session, asyncio.get_running_loop()
            turn = await anyio.to_thread.run_sync(
                lambda: asyncio.run(self.oracle.respond(body["message"], body["turn"]))
            )
        return turn.reply


def remote_oracle_app() -> Starlette:
    """The protocol's three requests, each session an oracle."""
    sessions: dict[str, OracleSession] = {}

    async def open_session(request: Request) -> JSONResponse:
        session_id = uuid.uuid4().hex
        sessions[session_id] = OracleSession(await request.json())
        return JSONResponse({"session_id": session_id})

    async def message(request: Request) -> JSONResponse:
        session = sessions.get(request.path_params["session_id"])
        if session is None:
            return JSONResponse({"error": "no such session"}, status_code=404)
        reply = await session.answer(await request.json())
        return JSONResponse({"reply": reply, "usage": {"prompt_tokens": 3, "completion_tokens": 2}})

    async def close(request: Request) -> Response:
        session = sessions.pop(request.path_params["session_id"], None)
        if session is not None:
            await session.http.aclose()
        return Response(status_code=204)

    return _app(open_session, message, close)


FAILURES = {
    "500": lambda: JSONResponse({"error": "boom"}, status_code=500),
    "html": lambda: HTMLResponse("<html><body>Bad gateway page</body></html>"),
    "no_reply": lambda: JSONResponse({"no_reply": 1}),
    "422": lambda: JSONResponse({"detail": "unprocessable"}, status_code=422),
    "401": lambda: JSONResponse({"detail": "bad key"}, status_code=401),
    "503": lambda: JSONResponse({"error": "overloaded"}, status_code=503),
}


def failing_app(kind: str, *, delay_s: float = 0.0, counts: dict | None = None, opening: bool = False) -> Starlette:
    """An endpoint that opens sessions (with `opening`, answers that too as FAILURES[kind]), then answers
    every message as FAILURES[kind] (after `delay_s`); `counts` (if given) counts the requests by path kind."""
    counts = {} if counts is None else counts

    async def open_session(request: Request) -> Response:
        counts["open"] = counts.get("open", 0) + 1
        return FAILURES[kind]() if opening else JSONResponse({"session_id": "s1"})

    async def message(request: Request) -> Response:
        counts["message"] = counts.get("message", 0) + 1
        await anyio.sleep(delay_s)
        return FAILURES[kind]()

    async def close(request: Request) -> Response:
        counts["close"] = counts.get("close", 0) + 1
        return Response(status_code=204)

    return _app(open_session, message, close)


def calling_app(calls: list[tuple[str, dict]], reply: str, results: list, *, after_reply: bool = False) -> Starlette:
    """An endpoint that, on each message, makes `calls` ((tool name, arguments), sent as they are:
    unknown tools and malformed arguments too) over MCP, keeps their results in `results` (text,
    isError), and answers `reply`; with `after_reply`, it makes the calls only after answering."""
    sessions: dict[str, dict] = {}

    async def open_session(request: Request) -> JSONResponse:
        sessions["s1"] = await request.json()
        return JSONResponse({"session_id": "s1"})

    async def call_all() -> None:
        grant = sessions["s1"]["tools"]
        async with (
            httpx.AsyncClient(headers=grant["headers"], timeout=60) as http,
            streamable_http_client(grant["mcp_url"], http_client=http) as (read, write, _),
            ClientSession(read, write) as tools,
        ):
            await tools.initialize()
            for name, arguments in calls:
                result = await tools.call_tool(name, arguments)
                results.append((result.content[0].text, result.isError))

    async def call_all_late() -> None:
        try:
            await call_all()
        except Exception as exc:  # (the episode ended and its token was revoked: the MCP client fails)
            results.append((f"failed: {exc!r}", True))

    async def message(request: Request) -> Response:
        if after_reply:
            return JSONResponse({"reply": reply}, background=BackgroundTask(call_all_late))
        await call_all()
        return JSONResponse({"reply": reply})

    async def close(request: Request) -> Response:
        return Response(status_code=204)

    return _app(open_session, message, close)


def _app(open_session, message, close) -> Starlette:
    return Starlette(
        routes=[
            Route("/sessions", open_session, methods=["POST"]),
            Route("/sessions/{session_id}/messages", message, methods=["POST"]),
            Route("/sessions/{session_id}", close, methods=["DELETE"]),
        ]
    )


def salesforce_app(
    act: Callable[[Any, int], Any], reply: str, results: list, *, after_reply: bool = False
) -> Starlette:
    """An endpoint that, on each message, runs `act(client, turn)` on a worker thread with a simple-salesforce
    client on the session's REST grant (`salesforce`), keeps what it returns or raises in `results`, and
    answers `reply`; with `after_reply`, it acts only after answering."""
    from simple_salesforce import Salesforce

    from simulator.servers.sf_client import local_session

    opened: dict = {}

    async def open_session(request: Request) -> JSONResponse:
        opened.update(await request.json())
        return JSONResponse({"session_id": "s1"})

    def run(turn: int) -> None:
        grant = opened["salesforce"]
        client = Salesforce(
            instance_url=grant["instance_url"],
            session_id=grant["access_token"],
            version=grant["version"],
            session=local_session(grant["instance_url"]),
        )
        try:
            results.append(act(client, turn))
        except Exception as exc:  # (a refusal: the test reads it)
            results.append(exc)

    async def message(request: Request) -> Response:
        turn = (await request.json())["turn"]
        if after_reply:
            return JSONResponse({"reply": reply}, background=BackgroundTask(anyio.to_thread.run_sync, run, turn))
        await anyio.to_thread.run_sync(run, turn)
        return JSONResponse({"reply": reply})

    async def close(request: Request) -> Response:
        return Response(status_code=204)

    return _app(open_session, message, close)

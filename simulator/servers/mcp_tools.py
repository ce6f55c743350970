"""The CRM tools as an MCP server (the official `mcp` SDK's low-level server).

Six tools, the `CrmTools` methods (same docstrings, same JSON text results): soql, sosl, describe (the
schema text of `crmarena org describe`), assign_case, assign_lead and update_record.
A result that is a Salesforce error is also marked `isError`.

Two ways to serve them over streamable HTTP on 127.0.0.1, each behind a bearer token and a request
size cap: `ToolGateway` (in this process, one token per bound `CrmTools`: how in-process episodes
hand their own tools to agents that take tools over MCP; on request it also grants the Salesforce
REST API on the bound episode's session, its requests gated and reported as the MCP calls are)
and `crmarena serve-tools ORG` (one isolated `OrgSession` per MCP session; or one session for the
process over stdio).
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import secrets
import threading
import typing
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..agents.llm import failed
from ..crm.errors import SalesforceError
from ..crm.tools import CrmTools, session_of
from .background import BackgroundServer

MAX_SESSIONS = 64  # MCP sessions served at once by serve-tools over HTTP
MCP_TOOLS = ("soql", "sosl", "describe", "assign_case", "assign_lead", "update_record")
MAX_BODY_BYTES = 1 << 20  # a tool call is a short JSON-RPC message; a larger body is refused (413)
OnCall = Callable[[str, dict, str], None]


@dataclass
class Binding:
    """What one token's (or one MCP session's) tool calls run on."""

    tools: CrmTools
    on_call: OnCall | None = None
    gate: Callable[[str], str | None] | None = None  # a refusal text when a call may not run now

    def call(self, name: str, arguments: dict) -> str:
        """Run the tool `name` unless `gate` refuses it, and tell `on_call` of every call, refused,
        unknown and malformed ones too (the transcript holds whatever the agent sent)."""
        try:
            text = (self.gate(name) if self.gate is not None else None) or self._run(name, arguments)
        except Exception as exc:  # (a bug here: still an error result, recorded, never a lost call)
            text = _tool_error("UNKNOWN_EXCEPTION", f"An unexpected error occurred: {type(exc).__name__}")
        if self.on_call is not None:
            self.on_call(name, arguments, text)
        return text

    def _run(self, name: str, arguments: dict) -> str:
        if name not in MCP_TOOLS:
            return _tool_error("INVALID_TOOL", f"Unknown tool: {name}; the tools are {', '.join(MCP_TOOLS)}")
        method = getattr(self.tools, name)
        try:
            inspect.signature(method).bind(**arguments)
        except TypeError as exc:
            return _tool_error("INVALID_ARGUMENTS", f"{name}: {exc}")
        wrong = sorted(key for key, value in arguments.items() if not isinstance(value, str))
        if wrong:  # (every tool parameter is a string, as the schema says)
            return _tool_error("INVALID_ARGUMENTS", f"{name}: {', '.join(wrong)} must be a string")
        return method(**arguments)


def _tool_error(code: str, message: str) -> str:
    return SalesforceError(code, message).tool_text()


def _input_schema(func: Callable[..., str]) -> dict:
    """The JSON schema of `func`'s parameters (after self), as autogen's FunctionTool writes it."""
    import pydantic

    hints = typing.get_type_hints(func)
    params = list(inspect.signature(func).parameters.values())[1:]
    fields: dict[str, Any] = {p.name: (hints[p.name], ... if p.default is p.empty else p.default) for p in params}
    model: type[pydantic.BaseModel] = pydantic.create_model(func.__name__, **fields)
    json_schema = model.model_json_schema()
    json_schema.pop("title", None)
    return {**json_schema, "additionalProperties": False}


def tool_list() -> list:
    """The MCP tool definitions: name, the method's docstring, its parameters' JSON schema."""
    from mcp import types

    return [
        types.Tool(
            name=name,
            description=inspect.getdoc(getattr(CrmTools, name)),
            inputSchema=_input_schema(getattr(CrmTools, name)),
        )
        for name in MCP_TOOLS
    ]


def tool_server(resolve: Callable[[Any], Binding]) -> Any:
    """A low-level MCP server whose tool calls run on `resolve(request_context)`."""
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server

    server = Server("crmarena-tools")
    tools = tool_list()

    @server.list_tools()
    async def list_tools() -> list:
        return tools

    @server.call_tool(validate_input=False)  # (Binding.call checks and records malformed calls itself)
    async def call_tool(name: str, arguments: dict) -> types.CallToolResult:
        binding = resolve(server.request_context)  # (the request's context: read on this task)
        text = await anyio.to_thread.run_sync(binding.call, name, arguments or {})  # a slow query holds no other
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=failed(text))

    return server


def bearer_token(scope: dict) -> str:
    """The token of an `Authorization: Bearer <token>` header of an ASGI scope, or ""."""
    for key, value in scope.get("headers", ()):
        if key == b"authorization":
            kind, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if kind.lower() == "bearer" else ""
    return ""


def _not_a_closed_stream(record: logging.LogRecord) -> bool:
    """False for the SDK's traceback about a client that closed its session while its server-to-client
    stream was open (every session's normal end, not an error): a log filter."""
    import anyio

    return not (record.exc_info and isinstance(record.exc_info[1], anyio.ClosedResourceError))


def http_app(server: Any, authorized: Callable[[str], bool], *, max_body: int = MAX_BODY_BYTES) -> Any:
    """A Starlette app serving `server` at /mcp (streamable HTTP, stateful sessions, JSON replies) to
    requests whose bearer token is `authorized`; 401 for the rest, 413 for bodies over `max_body`,
    400 (JSON-RPC's parse error) for a body that is not UTF-8 JSON of bounded depth (inputs.parse_json)."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(server, json_response=True, max_request_body_size=max_body)
    transport_log = logging.getLogger("mcp.server.streamable_http")
    if _not_a_closed_stream not in transport_log.filters:
        transport_log.addFilter(_not_a_closed_stream)

    class Guarded:
        async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
            if not authorized(bearer_token(scope)):
                response = JSONResponse(
                    {"error": "invalid_token", "error_description": "a valid bearer token is required"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
            if scope.get("method") == "POST":
                body = await _whole_body(receive, max_body)
                problem = _body_problem(body)
                if problem is not None:
                    await problem(scope, receive, send)
                    return
                assert body is not None  # (past the cap it is refused above)
                receive = _replayed(body, receive)
            await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any):
        async with manager.run():
            yield

    return Starlette(routes=[Route("/mcp", endpoint=Guarded())], lifespan=lifespan)


async def _whole_body(receive: Any, cap: int) -> bytes | None:
    """An ASGI request's body, or None once it passes `cap` bytes (read no further)."""
    body = bytearray()
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > cap:
            return None
        if not message.get("more_body"):
            return bytes(body)


def _body_problem(body: bytes | None) -> Any:
    """The response refusing `body` (413 past the cap, 400 for what parse_json refuses), or None."""
    from starlette.responses import JSONResponse

    from simulator.infra.inputs import parse_json

    if body is None:
        code, status, message = -32600, 413, "Request body too large"
    else:
        try:
            parse_json(body)
            return None
        except ValueError as exc:
            code, status, message = -32700, 400, f"Parse error: the body is {exc}"
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}, status)


def _replayed(body: bytes, receive: Any) -> Any:
    """An ASGI receive that gives `body` (already read) first, then what `receive` gives."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> dict:
        return pending.pop() if pending else await receive()

    return replay


class ToolGateway:
    """The CRM tools over MCP streamable HTTP on 127.0.0.1 (a BackgroundServer, started on first use),
    one bearer token per bound tool set; and, for bound tool sets that ask (`salesforce`), the
    Salesforce REST API (salesforce_rest: one app and server per org file, made on first use, its
    logins' credentials random and never told)."""

    _shared: ClassVar[ToolGateway | None] = None
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self._bindings: dict[str, Binding] = {}
        self._rest_servers: dict[str, tuple[Any, BackgroundServer]] = {}  # org file -> its REST app, served
        self._rest_tokens: dict[str, tuple[Any, str]] = {}  # MCP token -> (REST app, access token)
        self._lock = threading.Lock()
        self._pid = os.getpid()
        app = http_app(tool_server(self._binding_of), self._bindings.__contains__)
        self._server = BackgroundServer(app).start()
        self.url = f"{self._server.url}/mcp"

    @classmethod
    def shared(cls) -> ToolGateway:
        """The process's gateway, started lazily, thread-safe; a forked child starts its own (the
        parent's server thread does not survive the fork)."""
        with cls._shared_lock:
            if cls._shared is None or cls._shared._pid != os.getpid():
                cls._shared = cls()
            return cls._shared

    def bind(
        self, tools: CrmTools, on_call: OnCall | None = None, gate: Callable[[str], str | None] | None = None
    ) -> str:
        """A new bearer token whose MCP sessions call `tools` (the episode's own CrmTools, so writes land in
        the episode's session); `on_call(name, arguments, result_text)` after every call; `gate(name)`
        before each, returning a refusal text when it may not run."""
        token = secrets.token_urlsafe(24)
        self._bindings[token] = Binding(tools, on_call, gate)
        return token

    def salesforce(self, token: str) -> dict[str, str]:
        """A Salesforce REST API grant on the session of the tools bound to `token` (the protocol's
        `salesforce`: instance_url, access_token, version), its requests passed by the binding's gate
        and reported to its on_call as tool calls; revoked with the token by `unbind`."""
        from .salesforce_rest import API_VERSIONS, attach_session

        binding = self._bindings[token]
        session = session_of(binding.tools)
        app, server = self._rest_server(session.org)
        access = attach_session(app, session, on_call=binding.on_call, gate=binding.gate)
        with self._lock:
            self._rest_tokens[token] = (app, access)
        return {"instance_url": server.url, "access_token": access, "version": API_VERSIONS[-1]}

    def unbind(self, token: str) -> None:
        self._bindings.pop(token, None)
        with self._lock:
            rest = self._rest_tokens.pop(token, None)
        if rest is not None:
            from .salesforce_rest import detach_session

            detach_session(*rest)

    def _rest_server(self, org: Any) -> tuple[Any, BackgroundServer]:
        """The REST app of `org`'s file and its running server (started on first use)."""
        from .rest_sessions import Credentials
        from .salesforce_rest import create_app

        key = str(org.path.resolve())
        with self._lock:
            if key not in self._rest_servers:
                app = create_app(org, Credentials.generate())
                self._rest_servers[key] = app, BackgroundServer(app).start()
            return self._rest_servers[key]

    def _binding_of(self, context: Any) -> Binding:
        binding = self._bindings.get(bearer_token(context.request.scope))
        if binding is None:  # (unbound while its request was under way)
            raise LookupError("the tools of this token are no longer served")
        return binding

    def stop(self) -> None:
        """Stop serving (a gateway that is not the shared one)."""
        for server in [self._server, *(server for _, server in self._rest_servers.values())]:
            server.stop()


class SessionTools:
    """One isolated OrgSession (and its CrmTools) per MCP session, made on its first tool call and
    dropped with it; at most `max_sessions` live (each that writes holds a copy of the org): a new one
    past that closes the oldest, whose later calls are refused."""

    def __init__(self, org: Any, max_sessions: int = MAX_SESSIONS) -> None:
        self.org = org
        self.max_sessions = max_sessions
        self._bindings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # MCP session -> (Binding, OrgSession)
        self._closed: weakref.WeakSet = weakref.WeakSet()
        self._lock = threading.Lock()

    def __call__(self, context: Any) -> Binding:
        from ..crm.session import OrgSession

        with self._lock:
            held = self._bindings.get(context.session)
            if held is None:
                if context.session in self._closed:
                    raise LookupError(
                        f"this MCP session was closed: the server holds at most {self.max_sessions} "
                        "sessions and more were opened since; open a new one"
                    )
                self._make_room()
                session = OrgSession(self.org)
                held = self._bindings[context.session] = (Binding(CrmTools(session)), session)
            return held[0]

    def _make_room(self) -> None:
        """Close the oldest sessions until one more fits (dicts keep insertion order)."""
        while len(self._bindings) >= self.max_sessions:
            oldest = next(iter(self._bindings.keys()))
            _, session = self._bindings.pop(oldest)
            session.close()
            self._closed.add(oldest)

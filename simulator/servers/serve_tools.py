"""`crmarena serve-tools ORG`: the CRM tools of an org file as an MCP server, over stdio (one session
for the process) or streamable HTTP (one isolated session per MCP session, behind a bearer token).

Also runnable as `python -m simulator.servers.serve_tools ORG ...`.
"""

from __future__ import annotations

import argparse
import secrets
import socket
import sys
from typing import Any

from .mcp_tools import Binding, SessionTools, http_app, tool_server


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("org", help="the org file (.db) whose tools to serve")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                        help="stdio (default: one session for the process) or streamable HTTP")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP: the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="HTTP: the port (default: a free one, printed)")
    parser.add_argument("--token", help="HTTP: the bearer token clients must send (default: a new one, printed)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 with one line on stderr for a bad org file or a port in use."""
    from ..crm.store import Org, OrgFileError

    try:
        org = Org(args.org).verify(check_hash=False)
    except OrgFileError as exc:
        return _fail(str(exc))
    if args.transport == "stdio":
        import anyio
        anyio.run(_serve_stdio, org)
        return 0
    try:
        sock = _listen(args.host, args.port)
    except OSError as exc:
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    token = args.token or secrets.token_urlsafe(24)
    host, port = sock.getsockname()[:2]
    print(f"MCP tools of {org.path} at http://{host}:{port}/mcp\nbearer token: {token}", flush=True)
    _serve_http(org, token, sock)
    return 0


def _fail(line: str) -> int:
    print(f"crmarena serve-tools: {line}", file=sys.stderr)
    return 2


async def _serve_stdio(org: Any) -> None:
    from mcp.server.stdio import stdio_server

    from ..crm.session import OrgSession
    from ..crm.tools import CrmTools

    binding = Binding(CrmTools(OrgSession(org)), org.schema)
    server = tool_server(lambda _context: binding)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # (proto named: asyncio sets TCP_NODELAY on accepted connections only when it is IPPROTO_TCP; with
    # proto 0 every reply waits on delayed ACKs, about 40 ms a call)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until the server runs
    except OSError:
        sock.close()
        raise
    return sock


def _serve_http(org: Any, token: str, sock: socket.socket) -> None:
    import uvicorn

    app = http_app(tool_server(SessionTools(org)), lambda given: secrets.compare_digest(given.encode(), token.encode()))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2))
    server.run(sockets=[sock])


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="crmarena serve-tools", description=__doc__.splitlines()[0])
    add_arguments(_parser)
    sys.exit(run(_parser.parse_args()))

"""`crmarena serve-tools ORG`: the CRM tools of an org file as an MCP server, over stdio (one session
for the process) or streamable HTTP (one isolated session per MCP session, behind a bearer token).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("org", help="the org file (.db) whose tools to serve")
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default: one session for the process) or streamable HTTP",
    )
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
    from .background import listen, url_of

    try:
        sock = listen(args.host, args.port)
    except OSError as exc:
        return _fail(str(exc))
    import secrets

    token = args.token or secrets.token_urlsafe(24)
    print(f"MCP tools of {org.path} at {url_of(sock)}/mcp\nbearer token: {token}", flush=True)
    _serve_http(org, token, sock)
    return 0


def _fail(line: str) -> int:
    print(f"crmarena serve-tools: {line}", file=sys.stderr)
    return 2


async def _serve_stdio(org: Any) -> None:
    from mcp.server.stdio import stdio_server

    from ..crm.session import OrgSession
    from ..crm.tools import CrmTools
    from .mcp_tools import Binding, tool_server

    binding = Binding(CrmTools(OrgSession(org)))
    server = tool_server(lambda _context: binding)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _serve_http(org: Any, token: str, sock: socket.socket) -> None:
    import secrets

    from .background import serve_forever
    from .mcp_tools import SessionTools, http_app, tool_server

    app = http_app(tool_server(SessionTools(org)), lambda given: secrets.compare_digest(given.encode(), token.encode()))
    serve_forever(app, sock)

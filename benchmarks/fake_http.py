"""The benchmarks' minimal HTTP/1.1 JSON server (asyncio streams, keep-alive, 127.0.0.1): a
model server stand-in whose CPU is its own process's, not the harness's."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

Route = Callable[[str, str, bytes], Awaitable[bytes]]  # (method, path, body) -> the JSON reply's bytes


async def serve_http(route: Route, ready: Callable[[int], None], backlog: int = 256) -> None:
    """Serve `route` on a free port of 127.0.0.1 (given to `ready`) until cancelled; every reply
    is 200 with a JSON body."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                method, path, _ = line.decode().split(" ", 2)
                length = 0
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = header.decode().partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                body = await reader.readexactly(length) if length else b""
                data = await route(method, path, body)
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(data) + data
                )
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=backlog)
    ready(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()

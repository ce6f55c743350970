"""A lean HTTP/1.1 transport for the model clients' httpx client: plain http:// model servers
(vLLM, llama.cpp, LM Studio, Ollama, fakes) over asyncio streams with keep-alive.

httpx's own transport (httpcore over anyio) costs about 1.3 ms of CPU and 3 ms of wall time per
request on a 2-core machine, and sends the head and the body of a request in two writes (two
wake-ups of the server); this one costs about 0.1 ms and writes once. Everything else stays
httpx's and the client's (simulator.models.chat_completions): headers, timeouts, errors, parsing.

Only requests to http:// URLs with a whole body come here; https (TLS: the cloud APIs, where
the network dominates) and streamed request bodies take httpx's default transport, made by
`fallback()` when first needed (with importing httpcore ~0.13 s, benchmarks/RESULTS.md, which a
run against a plain http:// server never pays). With proxies set in the environment this transport
is not used at all (httpx applies them only to transports it makes: models._http_client).
Responses with a Content-Length are read whole under the read timeout; chunked or
close-delimited ones (streaming) are streamed, each read under the read timeout. Failures raise
httpx's own exceptions (ConnectError, ConnectTimeout, ReadTimeout, ReadError,
RemoteProtocolError), which the client maps to APIConnectionError / APITimeoutError as with
httpcore. A connection goes back to the pool only after its whole response was read; a cancelled
or failed request closes its connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

MAX_IDLE = 64  # idle keep-alive connections kept per host and port
MAX_HEAD = 64 * 1024  # bytes: the longest response head accepted


def transport_class(httpx: Any) -> type:
    """The transport class for an httpx-compatible library (`httpx`, or a library with its API)."""

    Stream = type("Stream", (_Stream, httpx.AsyncByteStream), {})

    class PlainHTTPTransport(httpx.AsyncBaseTransport):
        """http:// requests over pooled asyncio streams; the rest through `fallback()`'s transport."""

        def __init__(self, fallback: Callable[[], Any]):
            self._make_fallback = fallback
            self._fallback: httpx.AsyncBaseTransport | None = None
            self._idle: dict[tuple[str, int], list[_Connection]] = {}

        async def handle_async_request(self, request: Any) -> Any:
            if request.url.scheme != "http" or "transfer-encoding" in request.headers:
                if self._fallback is None:
                    self._fallback = self._make_fallback()
                return await self._fallback.handle_async_request(request)
            body = await request.aread()
            timeouts = request.extensions.get("timeout") or {}
            key = (request.url.host, request.url.port or 80)
            conn = self._reuse(key) or await _connect(httpx, request, key, timeouts.get("connect"))
            try:
                conn.writer.write(_head(request, len(body)) + body)
                status, reason, headers, length, chunked, keep = await _response_head(
                    httpx, request, conn, timeouts.get("read")
                )
                extensions = {"http_version": b"HTTP/1.1", "reason_phrase": reason}
                if length is not None:
                    content = await _read(httpx, request, conn.reader.readexactly(length), timeouts.get("read"))
                    self._release(key, conn, keep)
                    return httpx.Response(status, headers=headers, content=content, extensions=extensions)
            except BaseException:
                conn.close()
                raise
            stream = Stream(
                httpx, request, conn, chunked, timeouts.get("read"), lambda: self._release(key, conn, keep and chunked)
            )
            return httpx.Response(status, headers=headers, stream=stream, extensions=extensions)

        def _reuse(self, key: tuple[str, int]) -> _Connection | None:
            idle = self._idle.get(key)
            while idle:
                conn = idle.pop()
                if conn.usable():
                    return conn
                conn.close()
            return None

        def _release(self, key: tuple[str, int], conn: _Connection, keep: bool) -> None:
            idle = self._idle.setdefault(key, [])
            if keep and conn.usable() and len(idle) < MAX_IDLE:
                idle.append(conn)
            else:
                conn.close()

        async def aclose(self) -> None:
            for idle in self._idle.values():
                for conn in idle:
                    conn.close()
            self._idle.clear()
            if self._fallback is not None:
                await self._fallback.aclose()

    return PlainHTTPTransport


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    def usable(self) -> bool:
        """Open, and nothing unread from the server (a closed keep-alive reads as EOF)."""
        return not (self.writer.is_closing() or self.reader.at_eof() or self.reader._buffer)  # type: ignore[attr-defined]  # (asyncio has no public peek)

    def close(self) -> None:
        self.writer.close()


async def _connect(httpx: Any, request: Any, key: tuple[str, int], timeout: float | None) -> _Connection:
    try:
        async with asyncio.timeout(timeout):
            return _Connection(*await asyncio.open_connection(*key))
    except TimeoutError as exc:
        raise httpx.ConnectTimeout(f"connecting to {key[0]}:{key[1]} timed out", request=request) from exc
    except OSError as exc:
        raise httpx.ConnectError(str(exc) or type(exc).__name__, request=request) from exc


def _head(request: Any, length: int) -> bytes:
    """The request line and headers (httpx's, with Host; Content-Length set to the body's)."""
    target = request.url.raw_path
    lines = [b"%s %s HTTP/1.1" % (request.method.encode(), target)]
    lines += [name + b": " + value for name, value in request.headers.raw if name.lower() != b"content-length"]
    if length or request.method not in ("GET", "HEAD"):
        lines.append(b"Content-Length: %d" % length)
    return b"\r\n".join(lines) + b"\r\n\r\n"


async def _read(httpx: Any, request: Any, awaitable: Any, timeout: float | None) -> Any:
    """`awaitable` (a read) under `timeout`, failures as httpx's exceptions."""
    try:
        async with asyncio.timeout(timeout):
            return await awaitable
    except TimeoutError as exc:
        raise httpx.ReadTimeout("timed out reading the response", request=request) from exc
    except asyncio.IncompleteReadError as exc:
        raise httpx.RemoteProtocolError(
            "peer closed connection without sending complete message body", request=request
        ) from exc
    except asyncio.LimitOverrunError as exc:
        raise httpx.RemoteProtocolError("response line or header too long", request=request) from exc
    except OSError as exc:
        raise httpx.ReadError(str(exc) or type(exc).__name__, request=request) from exc


async def _response_head(httpx: Any, request: Any, conn: _Connection, timeout: float | None):
    """(status, reason, headers, content length or None, chunked, keep-alive); 1xx skipped."""
    while True:
        raw = await _read(httpx, request, conn.reader.readuntil(b"\r\n\r\n"), timeout)
        if len(raw) > MAX_HEAD:
            raise httpx.RemoteProtocolError("response head too long", request=request)
        status_line, *lines = raw[:-4].split(b"\r\n")
        try:
            version, status, *reason = status_line.split(b" ", 2)
            status = int(status)
        except ValueError:
            raise httpx.RemoteProtocolError(f"malformed status line {status_line[:80]!r}", request=request) from None
        if 100 <= status < 200 and status != 101:
            continue
        headers = [tuple(part.strip() for part in line.split(b":", 1)) for line in lines if b":" in line]
        found = {name.lower(): value for name, value in headers}
        chunked = b"chunked" in found.get(b"transfer-encoding", b"").lower()
        length = None if chunked or b"content-length" not in found else int(found[b"content-length"])
        if length is None and (request.method == "HEAD" or status in (204, 304)):
            length = 0
        connection = found.get(b"connection", b"").lower()
        keep = (version == b"HTTP/1.1" and b"close" not in connection) or b"keep-alive" in connection
        return status, reason[0] if reason else b"", headers, length, chunked, keep


class _Stream:
    """A streamed response body (chunked, or until the server closes); releases its connection
    when read to the end, closes it when closed early."""

    def __init__(self, httpx: Any, request: Any, conn: _Connection, chunked: bool, timeout: float | None, release: Any):
        self._httpx, self._request, self._conn = httpx, request, conn
        self._chunked, self._timeout, self._release, self._done = chunked, timeout, release, False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        read = self._chunks() if self._chunked else self._until_eof()
        async for part in read:
            yield part
        self._done = True
        self._release()

    async def _until_eof(self) -> AsyncIterator[bytes]:
        while part := await self._read(self._conn.reader.read(65536)):
            yield part

    async def _chunks(self) -> AsyncIterator[bytes]:
        reader = self._conn.reader
        while True:
            size_line = await self._read(reader.readuntil(b"\r\n"))
            try:
                size = int(size_line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise self._httpx.RemoteProtocolError("malformed chunk size", request=self._request) from None
            if size == 0:
                while await self._read(reader.readuntil(b"\r\n")) != b"\r\n":
                    pass  # trailers
                return
            data = await self._read(reader.readexactly(size + 2))
            yield data[:-2]

    def _read(self, awaitable: Any) -> Any:
        return _read(self._httpx, self._request, awaitable, self._timeout)

    async def aclose(self) -> None:
        if not self._done:
            self._conn.close()

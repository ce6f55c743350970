"""simulator.models.http_transport under the built-in chat client (build_client), against an HTTP/1.1
server (uvicorn on 127.0.0.1): keep-alive reuse, streamed (chunked) replies, a server that
closes an idle connection, a slow server (read timeout). tests/fake_openai.py (HTTP/1.0, one
connection per request) covers drops, resets and cut bodies in test_faults.py."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from simulator.models.clients import build_client, parse_model_spec
from simulator.servers.background import BackgroundServer

KEY_ENV = "CRMARENA_TRANSPORT_TEST_KEY"


def completion(text: str) -> dict:
    return {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }


def chunk(delta: dict, finish: str | None = None) -> str:
    body = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


def app(seen: list, pause: list):
    async def chat(request: Request):
        body = await request.json()
        seen.append({"peer": request.client.port, "auth": request.headers.get("authorization"), "body": body})
        if pause:
            await asyncio.sleep(pause[0])
        if body.get("stream"):
            parts = [
                chunk({"role": "assistant", "content": "Hel"}),
                chunk({"content": "lo"}),
                chunk({}, "stop"),
                "data: [DONE]\n\n",
            ]
            return StreamingResponse(iter(parts), media_type="text/event-stream")  # chunked
        return JSONResponse(completion(f"reply {len(seen)}"))

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test-transport-0123")
    seen, pause = [], []
    with BackgroundServer(app(seen, pause)) as running:
        yield running, seen, pause


def client_for(running, **options):
    return build_client(
        parse_model_spec(
            {
                "model": "m",
                "base_url": f"{running.url}/v1",
                "api_key_env": KEY_ENV,
                "retries": {"attempts": 1, "max_wait": 0},
                **options,
            },
            "t: model",
        )
    )


def ask(client, times: int = 1) -> list[str]:
    from autogen_core.models import UserMessage

    async def go():
        return [(await client.create([UserMessage(content=f"q{i}", source="user")])).content for i in range(times)]

    return asyncio.run(go())


def test_requests_reuse_one_keep_alive_connection_and_carry_the_key(server):
    running, seen, _ = server
    client = client_for(running)
    assert type(client.inner._http._transport).__name__ == "PlainHTTPTransport"
    assert ask(client, times=3) == ["reply 1", "reply 2", "reply 3"]
    assert len({s["peer"] for s in seen}) == 1  # one TCP connection for the three requests
    assert {s["auth"] for s in seen} == {"Bearer sk-test-transport-0123"}
    assert [s["body"]["messages"][-1]["content"] for s in seen] == ["q0", "q1", "q2"]
    assert client.inner._http._transport._fallback is None  # (no TLS context, no connection pool made)


def test_an_https_request_goes_through_the_librarys_transport_made_when_first_needed(monkeypatch):
    """An https:// server (none listening here): the request reaches the library's own transport,
    made at that moment, and its connection failure ends as the client's InfraError."""
    import socket

    import httpx

    from simulator.infra.errors import InfraError

    with socket.create_server(("127.0.0.1", 0)) as free:
        port = free.getsockname()[1]
    monkeypatch.setenv(KEY_ENV, "sk-test-transport-0123")
    client = build_client(
        parse_model_spec(
            {
                "model": "m",
                "base_url": f"https://127.0.0.1:{port}/v1",
                "api_key_env": KEY_ENV,
                "retries": {"attempts": 1},
            },
            "t: model",
        )
    )
    transport = client.inner._http._transport
    assert transport._fallback is None
    with pytest.raises(InfraError, match="APIConnectionError"):
        ask(client)
    assert isinstance(transport._fallback, httpx.AsyncHTTPTransport)


def test_a_streamed_chunked_reply_arrives_whole(server):
    from autogen_core.models import CreateResult, UserMessage

    running, _, _ = server
    client = client_for(running)

    async def go():
        return [part async for part in client.create_stream([UserMessage(content="hi", source="user")])]

    parts = asyncio.run(go())
    assert [p for p in parts if isinstance(p, str)] == ["Hel", "lo"]
    assert isinstance(parts[-1], CreateResult) and parts[-1].content == "Hello"


def test_a_cancelled_stream_stops_reading(server):
    from autogen_core import CancellationToken
    from autogen_core.models import UserMessage

    running, seen, _ = server
    client, token = client_for(running), CancellationToken()

    async def go():
        parts = []
        async for part in client.create_stream([UserMessage(content="hi", source="user")], cancellation_token=token):
            parts.append(part)
            token.cancel()
        return parts

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(go())
    assert len(seen) == 1


@pytest.mark.slow
def test_a_stream_cancelled_while_the_server_is_silent_stops_at_once(server):
    """The token is linked to each wait (the reply's head, each line), not checked between lines."""
    import time

    from autogen_core import CancellationToken
    from autogen_core.models import UserMessage

    running, seen, pause = server
    pause.append(3.0)  # the server answers after 3 s
    client, token = client_for(running), CancellationToken()

    async def go():
        asyncio.get_running_loop().call_later(0.2, token.cancel)
        return [
            part
            async for part in client.create_stream([UserMessage(content="hi", source="user")], cancellation_token=token)
        ]

    started = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(go())
    assert time.monotonic() - started < 2.0 and len(seen) == 1


def read_request(conn) -> tuple[bytes, bytes]:
    """An HTTP/1.1 request's head and body, read whole from a socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(
        next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    )
    while len(body) < length:
        body += conn.recv(65536)
    return head, body


def test_a_connection_the_server_closed_while_idle_is_not_reused(monkeypatch):
    """An HTTP/1.1 server that closes each connection after answering (Connection: close)."""
    import socket
    import threading

    answered = []
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        for _ in range(2):
            conn, _ = listener.accept()
            with conn:
                read_request(conn)
                reply = json.dumps(completion(f"closed {len(answered)}")).encode()
                answered.append(1)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(reply) + reply
                )

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    monkeypatch.setenv(KEY_ENV, "sk-test-transport-0123")
    try:
        client = build_client(
            parse_model_spec(
                {
                    "model": "m",
                    "base_url": f"http://127.0.0.1:{listener.getsockname()[1]}/v1",
                    "api_key_env": KEY_ENV,
                    "retries": {"attempts": 1},
                },
                "t: model",
            )
        )
        assert ask(client, times=2) == ["closed 0", "closed 1"]
    finally:
        listener.close()


def test_a_slow_server_is_a_timeout(server):
    from simulator.infra.errors import InfraError

    running, _, pause = server
    pause.append(1.0)  # (the server thread stops after it: a longer pause only slows the teardown)
    with pytest.raises(InfraError, match="APITimeoutError"):
        ask(client_for(running, timeout=0.3))


def test_certificates_that_cannot_be_loaded_are_a_config_error_for_an_https_server(monkeypatch, tmp_path):
    from simulator.models import clients as models
    from simulator.models.clients import ModelConfigError

    monkeypatch.setenv(KEY_ENV, "sk-test-transport-0123")
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    models._ssl_context.cache_clear()
    try:
        with pytest.raises(ModelConfigError, match=r"cannot load the TLS certificates .*SSL_CERT_FILE"):
            build_client(
                parse_model_spec(
                    {"model": "m", "base_url": "https://127.0.0.1:9/v1", "api_key_env": KEY_ENV}, "t: model"
                )
            )
        plain = build_client(
            parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key_env": KEY_ENV}, "t: model")
        )
        assert plain.inner._http._transport._fallback is None  # (no TLS needed, none loaded)
    finally:
        models._ssl_context.cache_clear()


def test_proxies_set_in_the_environment_carry_the_requests(monkeypatch):
    """HTTP_PROXY names a proxy on 127.0.0.1; the model server's name does not resolve, so the reply
    can only come through the proxy, which is sent the request for the server's URL."""
    import socket
    import threading

    heads = []
    listener = socket.create_server(("127.0.0.1", 0))

    def proxy():
        conn, _ = listener.accept()
        with conn:
            heads.append(read_request(conn)[0])
            reply = json.dumps(completion("through the proxy")).encode()
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(reply) + reply
            )

    threading.Thread(target=proxy, daemon=True).start()
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY", "https_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{listener.getsockname()[1]}")
    monkeypatch.setenv(KEY_ENV, "sk-test-transport-0123")
    try:
        client = build_client(
            parse_model_spec(
                {
                    "model": "m",
                    "base_url": "http://model-server.invalid/v1",
                    "api_key_env": KEY_ENV,
                    "retries": {"attempts": 1},
                },
                "t: model",
            )
        )
        assert ask(client) == ["through the proxy"]
    finally:
        listener.close()
    assert heads[0].startswith(b"POST http://model-server.invalid/v1/chat/completions HTTP/1.1")

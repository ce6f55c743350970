"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests with the real OpenAI client.

    with FakeOpenAI() as server:
        server.enqueue(reply("Hello"), tool_call("soql", {"query": "..."}), error(429, retry_after=0))
        client = OpenAIChatCompletionClient(model="m", base_url=server.base_url, api_key="sk-test", ...)

Each POST to /v1/chat/completions takes the next scripted response (or asks `responder`,
a function of the request body, when the queue is empty). Requests are kept in `requests`.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def reply(content: str, *, prompt_tokens: int = 11, completion_tokens: int = 7) -> dict:
    """A plain assistant reply."""
    return {"message": {"role": "assistant", "content": content},
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}


def tool_call(name: str, arguments: dict | str, call_id: str = "call_1") -> dict:
    """An assistant reply that calls one tool (`arguments` as a dict, or raw text to send malformed JSON)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}]},
        "usage": {"prompt_tokens": 13, "completion_tokens": 5}}


def error(status: int, *, retry_after: float | None = None, body: str = '{"error": {"message": "scripted"}}') -> dict:
    """An HTTP error response."""
    return {"status": status, "retry_after": retry_after, "body": body}


class FakeOpenAI:
    """The server; use as a context manager."""

    def __init__(self) -> None:
        self.queue: deque[dict] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.responder: Callable[[dict], dict] | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def enqueue(self, *responses: dict) -> None:
        with self._lock:
            self.queue.extend(responses)

    def _next(self, body: dict) -> dict:
        with self._lock:
            self.requests.append(body)
            if self.queue:
                return self.queue.popleft()
        if self.responder is None:
            return error(500, body='{"error": {"message": "no scripted response left"}}')
        return self.responder(body)

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                fake.headers.append(dict(self.headers))
                scripted = fake._next(body)
                if "status" in scripted:
                    self._send(scripted["status"], scripted["body"].encode(), scripted.get("retry_after"))
                    return
                message = scripted["message"]
                usage = dict(scripted["usage"])
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                out = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0,
                       "model": body.get("model", "fake"), "usage": usage,
                       "choices": [{"index": 0, "message": message,
                                    "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}]}
                self._send(200, json.dumps(out).encode())

            def _send(self, status: int, data: bytes, retry_after: float | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if retry_after is not None:
                    self.send_header("Retry-After", str(retry_after))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: Any) -> None:
                pass

        return Handler

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests with the real OpenAI client.

    with FakeOpenAI() as server:
        server.enqueue(reply("Hello"), tool_call("soql", {"query": "..."}), error(429, retry_after=0))
        client = OpenAIChatCompletionClient(model="m", base_url=server.base_url, api_key="sk-test", ...)

Each POST to /v1/chat/completions takes the next scripted response (or asks `responder`,
a function of the request body, when the queue is empty). Requests are kept in `requests` (and
as sent, with their headers, in `bodies` and `headers`).

Faults, for the fault-tolerance tests: `error(429, retry_after=0.2)` (an HTTP error),
`drop()` (the connection is closed without any response), `truncated(reply(...))` (a 200
whose JSON body is cut off), `slow(seconds, then=reply(...))` (the answer after a pause),
`malformed("error" | "no_choices" | "no_message")` (a 200 without a completion).
Everything stays bounded: pauses are capped at MAX_PAUSE and cut short when the server stops.

A server-side rate limit: `server.limit_rate(60, per=60.0)` answers at most 60 requests in any
60 s; beyond that a request gets a 429 with Retry-After (the seconds until a place frees) and
is kept in `refused`, not in `requests`.

A one-at-a-time server (llama-cpp-python on a CPU): `server.serve_one_at_a_time(0.4)`
works 0.4 s on each request, one request after another, and finishes a request whose client
gave up (timed out) before it starts on the next. `server.serve_at_once(4, 0.4)` works on up to
4 requests at once (a GPU server's batch) and queues the rest.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def fake_key(label: str) -> str:
    """A made-up API key for tests, shaped like OpenAI's (so redaction by shape applies too); built
    at run time so that no key-shaped literal is committed."""
    return "sk-" + f"test-{label}-0123456789"


def reply(content: str, *, prompt_tokens: int = 11, completion_tokens: int = 7) -> dict:
    """A plain assistant reply."""
    return {
        "message": {"role": "assistant", "content": content},
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
    }


def tool_call(name: str, arguments: dict | str, call_id: str = "call_1") -> dict:
    """An assistant reply that calls one tool (`arguments` as a dict, or raw text to send malformed JSON)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}],
        },
        "usage": {"prompt_tokens": 13, "completion_tokens": 5},
    }


def error(status: int, *, retry_after: float | None = None, body: str = '{"error": {"message": "scripted"}}') -> dict:
    """An HTTP error response."""
    return {"status": status, "retry_after": retry_after, "body": body}


def malformed(kind: str = "error", message: str = "Upstream overloaded") -> dict:
    """A 200 that holds no completion: an `{"error": {...}}` body with `message` ("error"), empty
    choices ("no_choices") or a choice without a message ("no_message")."""
    head = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake"}
    bodies = {
        "error": {"error": {"message": message, "type": "server_error", "code": 503}},
        "no_choices": {**head, "choices": []},
        "no_message": {**head, "choices": [{"index": 0, "finish_reason": "stop"}]},
    }
    return error(200, body=json.dumps(bodies[kind]))


MAX_PAUSE = 10.0  # seconds: the longest a scripted `slow` may hold a request


def drop(*, reset: bool = False) -> dict:
    """Read the request, then close the connection without a response (`reset`: with a TCP RST)."""
    return {"drop": True, "reset": reset}


def truncated(scripted: dict | None = None, *, keep: float = 0.5, honest_length: bool = True) -> dict:
    """A 200 whose JSON body (of `scripted`, a reply by default) is cut to `keep` of its bytes.

    `honest_length` (the default): Content-Length matches the cut body, so the HTTP message is
    whole and only the JSON is broken (a proxy or server that cut it). Otherwise Content-Length
    announces the whole body and the connection closes after the cut (a reply dropped mid-body).
    """
    return {"truncate": scripted or reply("cut off"), "keep": keep, "honest_length": honest_length}


def slow(seconds: float, then: dict | None = None) -> dict:
    """Wait `seconds` (at most MAX_PAUSE) before sending `then` (a reply by default)."""
    if not 0 <= seconds <= MAX_PAUSE:
        raise ValueError(f"slow() pauses 0..{MAX_PAUSE} s, not {seconds}")
    return {"sleep": seconds, "then": then or reply("slow but fine")}


def never_the_same():
    """A responder whose every reply differs (a SOQL call, then a numbered answer to its result):
    a conversation replayed identically must have come from a cache."""
    answers = iter(range(10**6))

    def respond(body: dict) -> dict:
        if body["messages"][-1]["role"] == "tool":
            return reply(f"Reply number {next(answers)}.")
        return tool_call("soql", {"query": "SELECT Id FROM User LIMIT 1"}, call_id=f"c{next(answers)}")

    return respond


class _Gate:
    """`n` holders at a time, let in first come, first served (a Semaphore lets a newcomer barge in)."""

    def __init__(self, n: int) -> None:
        self._n, self._taken, self._released = n, 0, 0
        self._turn = threading.Condition()

    def __enter__(self) -> None:
        with self._turn:
            ticket, self._taken = self._taken, self._taken + 1
            self._turn.wait_for(lambda: ticket < self._released + self._n)

    def __exit__(self, *_: Any) -> None:
        with self._turn:
            self._released += 1
            self._turn.notify_all()


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # (socketserver's 5 drops a burst of new connections: a 1 s SYN retry)


class FakeOpenAI:
    """The server; use as a context manager."""

    def __init__(self) -> None:
        self.queue: deque[dict] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.bodies: list[bytes] = []  # every POST's body as sent
        self.responder: Callable[[dict], dict] | None = None
        self.refused: list[dict[str, Any]] = []  # requests turned away by the rate limit
        self._rate: tuple[int, float] | None = None
        self._work: float | None = None  # seconds of work per request, served one at a time
        self._worker = _Gate(1)  # held by the requests being worked on
        self.working = self.most_at_once = 0  # requests being worked on now, and the most at once
        self._answered_at: deque[float] = deque()  # monotonic times of the requests in the window
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # cuts pauses short when the server stops
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._server.handle_error = lambda *_: None  # a client that gave up (timed out) is no error here
        # (socketserver polls for shutdown every 0.5 s by default: half a second of every test's teardown)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def enqueue(self, *responses: dict) -> None:
        with self._lock:
            self.queue.extend(responses)

    def limit_rate(self, requests: int, per: float) -> None:
        """Answer at most `requests` requests in any `per` seconds (a sliding window); refuse the rest."""
        with self._lock:
            self._rate = (requests, per)

    def serve_one_at_a_time(self, seconds: float) -> None:
        """Work `seconds` (at most MAX_PAUSE) on each request, one request at a time."""
        self.serve_at_once(1, seconds)

    def serve_at_once(self, requests: int, seconds: float) -> None:
        """Work `seconds` (at most MAX_PAUSE) on each request, `requests` at a time; the rest wait."""
        if not 0 <= seconds <= MAX_PAUSE or requests < 1:
            raise ValueError(f"work of 0..{MAX_PAUSE} s per request, at least 1 at a time, not {requests} x {seconds}")
        self._work, self._worker = seconds, _Gate(requests)

    @contextmanager
    def _at_work(self):
        """Count a request as worked on (`working`, `most_at_once`) while it is."""
        with self._lock:
            self.working += 1
            self.most_at_once = max(self.most_at_once, self.working)
        try:
            yield
        finally:
            with self._lock:
                self.working -= 1

    def _over_limit(self) -> float:
        """Seconds until the rate limit admits a request (0: admitted now, and counted); call locked."""
        if self._rate is None:
            return 0.0
        limit, window = self._rate
        now = time.monotonic()
        while self._answered_at and self._answered_at[0] <= now - window:
            self._answered_at.popleft()
        if len(self._answered_at) >= limit:
            return self._answered_at[0] + window - now
        self._answered_at.append(now)
        return 0.0

    def _next(self, body: dict) -> dict:
        with self._lock:
            wait = self._over_limit()
            if wait > 0:
                self.refused.append(body)
                return error(
                    429,
                    retry_after=round(wait + 0.0005, 3),
                    body='{"error": {"message": "Rate limit reached", "type": "requests"}}',
                )
            self.requests.append(body)
            if self.queue:
                return self.queue.popleft()
        if self.responder is None:
            return error(500, body='{"error": {"message": "no scripted response left"}}')
        return self.responder(body)

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.loads(raw or b"{}")
                fake.headers.append(dict(self.headers))
                fake.bodies.append(raw)
                scripted = fake._next(body)
                if fake._work is None:
                    return self._answer(scripted, body)
                with fake._worker, fake._at_work():  # queued behind the requests that came first
                    if fake._stopping.wait(fake._work):
                        return self._drop(reset=False)
                    return self._answer(scripted, body)

            def _answer(self, scripted: dict, body: dict) -> None:
                if "sleep" in scripted:
                    if fake._stopping.wait(scripted["sleep"]):
                        return self._drop(reset=False)
                    return self._answer(scripted["then"], body)
                if "drop" in scripted:
                    return self._drop(scripted["reset"])
                if "status" in scripted:
                    return self._send(scripted["status"], scripted["body"].encode(), scripted.get("retry_after"))
                if "truncate" in scripted:
                    whole = self._completion(scripted["truncate"], body)
                    cut = whole[: max(1, int(len(whole) * scripted["keep"]))]
                    self._send(200, cut, length=len(cut) if scripted["honest_length"] else len(whole))
                    if not scripted["honest_length"]:
                        self._drop(reset=False)
                    return None
                return self._send(200, self._completion(scripted, body))

            def _completion(self, scripted: dict, body: dict) -> bytes:
                message = scripted["message"]
                usage = dict(scripted["usage"])
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                out = {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "fake"),
                    "usage": usage,
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                        }
                    ],
                }
                return json.dumps(out).encode()

            def _drop(self, reset: bool) -> None:
                """Close the connection now, without (the rest of) a response."""
                self.close_connection = True
                try:
                    self.wfile.flush()
                    if reset:  # SO_LINGER 0: the close sends RST instead of FIN
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    else:
                        self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self.connection.close()

            def _send(
                self, status: int, data: bytes, retry_after: float | None = None, length: int | None = None
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data) if length is None else length))
                if retry_after is not None:
                    self.send_header("Retry-After", str(retry_after))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: Any) -> None:
                pass

        return Handler

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

"""The remote agent: an agent under test served behind an HTTP endpoint (docs/remote-agent.md).

Each episode opens a session on the endpoint, posts every person message and relays the reply.
The endpoint reaches the episode's tools over MCP, through the process's tool gateway
(simulator.servers.mcp_tools) with a bearer token bound to this episode's tools alone, and over the
Salesforce REST API with an access token on this episode's session; the gateway reports each call
(each REST request) here, so the transcript holds every tool call and result whatever the
endpoint says. The endpoint is the agent under test, so its failures are the agent's (AgentError:
`agent_error`, scored as a failure): unreachable or 5xx after retries, too slow, a malformed
answer. An agent cannot make an episode unscored by failing. Only an endpoint that has not yet
opened one session in this process, and refuses our credentials (401, 403), has no such path
(404, 405 on opening) or cannot be reached, stops the run (a fatal InfraError: a config error,
before anything was played against it; a refused request is named with its URL). The endpoint's
own `headers` (an API key) are remembered as secrets and never written.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from simulator.infra.errors import AgentError, InfraError
from simulator.infra.secrets import public_url, redact, remember_config
from simulator.models.usage import Usage
from simulator.runs.transcript import message

from .base import Agent, AgentSetup, AgentTurn
from .llm import failed

if TYPE_CHECKING:
    import ssl

    from .oracle import OracleBrief

RETRIES = 2  # more attempts after a refused connection or a 5xx answer
RETRY_WAIT_S = 0.5  # the first wait between attempts (doubled each time, with jitter)
FATAL = (401, 403)  # the endpoint refuses our credentials: no episode of the run can pass
WHO = "remote agent"  # how errors name the endpoint: "remote agent <url>: ..."
_ANSWERED: set[str] = set()  # endpoints that opened a session in this process: their failures are theirs


def _at(url: str, path: str) -> str:
    """The endpoint `url` (keeping its query, e.g. a key) with `path` added to its path."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + path, parts.query, ""))


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for every episode's client (making one costs tens of milliseconds)."""
    return httpx.create_ssl_context()


class _Transient(Exception):
    """A failure worth another attempt of a request that is safe to send twice (a 5xx, a broken
    connection)."""


class _Unsent(_Transient):
    """A request that never reached the endpoint (a refused connection): safe to send again."""


class ToolLog:
    """The tool calls the gateway reports for one episode, as transcript messages of the current
    turn (the same shape as the oracle's RecordingTools). Calls arrive on the gateway's thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: list[dict[str, Any]] = []
        self._count = 0
        self.turn = 0
        self._open = False  # a turn is in progress: tools run only then
        self._budget = self._used = 0
        self.over_budget = False

    def begin(self, turn: int, budget: int) -> None:
        """A turn starts: its calls are recorded under `turn`, at most `budget` of them run."""
        with self._lock:
            self.turn, self._budget, self._used, self.over_budget, self._open = turn, budget, 0, False, True

    def end(self) -> None:
        """The turn is answered: later calls are refused (they could change what is scored)."""
        with self._lock:
            self._open = False

    def gate(self, name: str) -> str | None:
        """Why the call may not run (a refusal the agent reads), or None: outside a turn, or past the
        turn's step budget (as in-process agents, which cannot call past it either)."""
        with self._lock:
            if not self._open:
                return _refusal("no turn is in progress: tools run only while the agent answers a message")
            if self._used >= self._budget:
                self.over_budget = True
                return _refusal(f"this turn's step budget of {self._budget} tool calls is spent")
            self._used += 1
            return None

    def __call__(self, name: str, arguments: dict, result: str) -> None:
        with self._lock:
            self._count += 1
            call_id = f"call-{self._count}"
            self._messages += [
                message(
                    "assistant",
                    "",
                    self.turn,
                    tool_calls=[{"id": call_id, "name": name, "arguments": json.dumps(arguments)}],
                ),
                message("tool", result, self.turn, call_id=call_id, name=name, is_error=failed(result)),
            ]

    def take(self) -> list[dict[str, Any]]:
        """The messages recorded since the last take."""
        with self._lock:
            taken, self._messages = self._messages, []
        return taken


def _refusal(why: str) -> str:
    from ..crm.errors import SalesforceError

    return SalesforceError("REQUEST_LIMIT_EXCEEDED", f"Not run: {why}.").tool_text()


def _from_environment(names: Mapping[str, str]) -> dict[str, str]:
    """Header values read from environment variables ({header: variable}), so that an endpoint's key
    lives in no config file and travels in no pickle (Ray)."""
    missing = [variable for variable in names.values() if not os.environ.get(variable)]
    if missing:
        raise ValueError(f"a remote agent's headers_env names unset environment variable(s): {', '.join(missing)}")
    return {header: os.environ[variable] for header, variable in names.items()}


class RemoteAgent(Agent):
    """An agent behind `url`, spoken to with the protocol of docs/remote-agent.md.

    `briefed`: calibration only; each message also carries the oracle's brief (the instance).
    `headers`: sent on every request to the endpoint (an API key), never recorded; `headers_env`:
    headers whose values are read from environment variables ({header: variable}).
    """

    def __init__(
        self,
        url: str,
        *,
        briefed: bool = False,
        timeout_s: float = 300.0,
        headers: Mapping[str, str] | None = None,
        headers_env: Mapping[str, str] | None = None,
        gateway: Any = None,
    ):
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"a remote agent's url must start with http:// or https://, got {public_url(url)!r}")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s}")
        headers = {**(headers or {}), **_from_environment(headers_env or {})}
        remember_config({"url": url, "headers": headers})
        self.url, self.briefed, self.timeout_s = url, briefed, float(timeout_s)
        self._headers = dict(headers or {})
        self._gateway = gateway
        self._known: OracleBrief | None = None  # when briefed
        self._client: httpx.AsyncClient | None = None
        self._session_id: str | None = None
        self._token: str | None = None
        self._log = ToolLog()
        self._max_steps = 0

    def brief(self, brief: OracleBrief) -> None:
        """Receive the oracle's brief (from the episode loop; only when `briefed`)."""
        self._known = brief

    async def start(self, setup: AgentSetup) -> None:
        from ..servers.mcp_tools import MCP_TOOLS, ToolGateway

        if self._gateway is None:  # (its servers start on first use: off the loop other episodes share)
            self._gateway = await asyncio.to_thread(ToolGateway.shared)
        self._max_steps = setup.max_steps
        self._token = self._gateway.bind(setup.tools, self._log, gate=self._log.gate)
        grant = await asyncio.to_thread(self._gateway.salesforce, self._token)
        self._client = httpx.AsyncClient(headers=self._headers, timeout=self.timeout_s, verify=_tls())
        body = await self._post(
            "/sessions",
            {
                "system_prompt": setup.system_prompt,
                "max_steps": setup.max_steps,
                "tools": {
                    "mcp_url": self._gateway.url,
                    "headers": {"Authorization": f"Bearer {self._token}"},
                    "names": list(MCP_TOOLS),
                },
                "salesforce": grant,
            },
            opening=True,
        )
        session_id = body.get("session_id")
        if not isinstance(session_id, str) or not session_id:
            raise AgentError(f"{_where(self.url)}: no session_id string in {_excerpt(body)}")
        self._session_id = session_id
        _ANSWERED.add(self.url)

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self._log.begin(turn, self._max_steps)
        payload: dict[str, Any] = {"turn": turn, "message": user_message}
        if self.briefed and self._known is not None:
            payload["brief"] = self._brief_json()
        try:
            body = await self._post(f"/sessions/{self._session_id}/messages", payload, resend=False)
            reply, usage = _reply(body, self.url), _usage(body, self.url)
        except (AgentError, InfraError) as exc:
            self._log.end()
            exc.partial = AgentTurn(reply="", messages=self._log.take())
            raise
        self._log.end()
        if body.get("step_limit_hit") is True or self._log.over_budget:  # (the harness counts the calls)
            return AgentTurn("", self._log.take(), usage, step_limit_hit=True)  # no answer past the budget
        return AgentTurn(reply, self._log.take(), usage)

    async def close(self) -> None:
        try:
            if self._client is not None and self._session_id is not None:
                try:
                    await asyncio.wait_for(
                        self._client.delete(_at(self.url, f"/sessions/{self._session_id}")), min(self.timeout_s, 10.0)
                    )
                except (TimeoutError, httpx.HTTPError):
                    pass  # best effort: the endpoint may be gone
        finally:
            if self._token is not None:
                self._gateway.unbind(self._token)
                self._token = None
            if self._client is not None:
                await self._client.aclose()
                self._client = None

    def settings(self) -> dict[str, Any]:
        return {"kind": "remote", "url": public_url(self.url)}

    def _brief_json(self) -> dict[str, Any]:
        known = self._known
        assert known is not None  # (only when briefed)
        return {
            "instance": known.instance.to_json(),
            "meta": dict(known.meta.to_rows()),
            "revealed": sorted(known.revealed()),
        }

    async def _post(self, path: str, payload: dict, opening: bool = False, resend: bool = True) -> dict:
        """POST `payload` to the endpoint and return its JSON object, retrying transient failures; with
        `resend` False (a turn: the endpoint may have acted on it, tools and writes included) only a
        request that never reached the endpoint is sent again."""
        where = _where(self.url)
        try:
            return await asyncio.wait_for(self._attempts(path, payload, where, opening, resend), self.timeout_s)
        except TimeoutError:
            raise AgentError(f"{where}: no answer within {self.timeout_s:g} s") from None

    async def _attempts(self, path: str, payload: dict, where: str, opening: bool, resend: bool) -> dict:
        from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

        retried = _Transient if resend else _Unsent
        try:
            async for attempt in AsyncRetrying(
                retry=retry_if_exception_type(retried),
                reraise=True,
                stop=stop_after_attempt(RETRIES + 1),
                wait=wait_random_exponential(RETRY_WAIT_S, max=8),
            ):
                with attempt:
                    answer = _answer(await self._send(path, payload, where), where, self._first_contact(opening))
            return answer
        except _Transient as exc:
            tried = (
                f"after {RETRIES + 1} attempts"
                if isinstance(exc, retried)
                else "not sent again: the endpoint may have acted on the turn"
            )
            if isinstance(exc, _Unsent) and self._first_contact(opening):
                raise InfraError(
                    f"{where}: {exc} ({tried}); it has answered nothing yet: check agent.url", fatal=True
                ) from None
            raise AgentError(f"{where}: {exc} ({tried})") from None

    def _first_contact(self, opening: bool) -> bool:
        """Whether this request opens a session on an endpoint that has opened none in this process."""
        return opening and self.url not in _ANSWERED

    async def _send(self, path: str, payload: dict, where: str) -> httpx.Response:
        assert self._client is not None  # (start made it)
        try:
            return await self._client.post(_at(self.url, path), json=payload)
        except httpx.ConnectError as exc:  # (nothing was sent)
            raise _Unsent(f"cannot reach it ({type(exc).__name__}: {redact(str(exc))})") from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise _Transient(f"the connection failed ({type(exc).__name__}: {redact(str(exc))})") from None
        except httpx.TimeoutException:
            raise AgentError(f"{where}: no answer within {self.timeout_s:g} s") from None
        except httpx.HTTPError as exc:
            raise AgentError(f"{where}: {type(exc).__name__}: {redact(str(exc))}") from None


def _answer(response: httpx.Response, where: str, first_contact: bool) -> dict:
    """The JSON object of a 2xx answer; a failed answer raised as its outcome, naming the request
    tried (`first_contact`: the opening of an endpoint's first session, where a refusal of our
    credentials or path stops the run)."""
    status = response.status_code
    if status >= 500:
        raise _Transient(f"HTTP {status}")
    said = (
        f"HTTP {status} {_excerpt(response.text)} to {response.request.method} {public_url(str(response.request.url))}"
    )
    if first_contact and status in (*FATAL, 404, 405):
        raise InfraError(f"{where}: {said}, not retried; {_advice(status)}", fatal=True)
    if not 200 <= status < 300:
        raise AgentError(f"{where}: {said}")
    try:
        body = response.json()
    except ValueError:
        raise AgentError(f"{where}: an answer that is not JSON: {_excerpt(response.text)}") from None
    if not isinstance(body, dict):
        raise AgentError(f"{where}: an answer that is not a JSON object: {_excerpt(body)}")
    return body


def _advice(status: int) -> str:
    """What to fix when an endpoint's first opening is refused with `status`."""
    if status in FATAL:
        return "check the agent's headers (the endpoint's key)"
    return "check agent.url: the protocol's requests go to {url}/sessions and below (docs/remote-agent.md)"


def _where(url: str) -> str:
    return f"{WHO} {public_url(url)}"


def _reply(body: dict, url: str) -> str:
    reply = body.get("reply")
    if not isinstance(reply, str):
        raise AgentError(f"{_where(url)}: no reply string in {_excerpt(body)}")
    return reply


def _usage(body: dict, url: str) -> Usage:
    """The turn's token counts as the endpoint reports them (its price unknown), if it does."""
    if "usage" not in body:
        return Usage()
    usage = body["usage"]
    tokens = [usage.get(k, 0) for k in ("prompt_tokens", "completion_tokens")] if isinstance(usage, dict) else []
    if not tokens or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in tokens):
        raise AgentError(f"{_where(url)}: usage is not token counts: {_excerpt(usage)}")
    return Usage(prompt_tokens=tokens[0], completion_tokens=tokens[1], cost_usd=None)


def _excerpt(value: Any, limit: int = 200) -> str:
    """A short, redacted rendering of what the endpoint said."""
    text = value if isinstance(value, str) else json.dumps(value)
    return redact(text[:limit] + ("..." if len(text) > limit else ""))

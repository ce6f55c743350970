"""Model-call helpers for every model caller (agents, people, the judge, the writer): usage per
turn, provider failures as AgentError / InfraError, and what identifies a client in a transcript.

Accepts any autogen ChatCompletionClient. A client with `drain_usage()` (simulator.models.clients'
ModelClient) reports its own usage, latency and cost; for a plain client the caller counts
calls and tokens from the results it sees and leaves the cost unknown.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from simulator.infra.errors import AgentError, InfraError
from simulator.infra.secrets import redact, without_credentials
from simulator.models.usage import Usage

_REJECTED = frozenset({400, 413, 422})  # the request itself was refused: too long, malformed
_NETWORK = ("APIConnectionError", "APITimeoutError", "RetryError", "ConnectError", "ReadTimeout")


class TurnMeter:
    """Usage of one turn of a model caller: model calls, tokens and wall time."""

    def __init__(self, client: Any):
        self._client = client
        self._usage = Usage(cost_usd=None)
        self._start = time.monotonic()

    def count(self, request_usage: Any) -> None:
        """One model call and its usage (an autogen RequestUsage, or None when not reported)."""
        self._usage.calls += 1
        if request_usage is not None:
            self._usage.prompt_tokens += request_usage.prompt_tokens
            self._usage.completion_tokens += request_usage.completion_tokens

    def finish(self) -> Usage:
        """The turn's usage: the client's own figures when it keeps them, else what was counted."""
        drain = getattr(self._client, "drain_usage", None)
        if callable(drain):
            return drain()
        self._usage.latency_s = time.monotonic() - self._start
        return self._usage


def _classify(exc: Exception) -> Exception | None:
    """The agent-level error for a model-client failure, or None when it is not one."""
    status = getattr(exc, "status_code", None)
    detail = redact(str(exc))[:500]
    if status in _REJECTED:
        return AgentError(f"the model provider rejected the request ({status}; context too long?): {detail}")
    if isinstance(status, int) or type(exc).__name__ in _NETWORK or isinstance(exc, (ConnectionError, TimeoutError)):
        from simulator.models.clients import FATAL_STATUSES

        return InfraError(f"model call failed ({type(exc).__name__}): {detail}", fatal=status in FATAL_STATUSES)
    return None


@contextmanager
def model_errors() -> Iterator[None]:
    """Turn provider failures into AgentError (request refused) or InfraError (provider, network)."""
    try:
        yield
    except (AgentError, InfraError):
        raise
    except Exception as exc:
        converted = _classify(exc)
        if converted is None:
            raise
        raise converted from exc


def client_settings(client: Any) -> dict[str, Any]:
    """What identifies a model client in a transcript: its spec's settings (a ModelClient), else
    the provider and an allowlist of its component config (never keys, headers or other secrets)."""
    own = getattr(getattr(client, "spec", None), "settings", None)
    if callable(own):
        return dict(own())
    try:
        component = client.dump_component()
    except Exception:  # a client without a component config: its class is all we know
        return {"provider": type(client).__name__}
    config = component.config
    from simulator.models.clients import SAFE_CONFIG_KEYS

    safe = {k: config[k] for k in SAFE_CONFIG_KEYS if k in config}
    if "base_url" in safe:
        safe["base_url"] = without_credentials(safe["base_url"])
    return {"provider": component.provider, **safe}

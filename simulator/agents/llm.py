"""Plumbing of the LLM agents under test: what a tool result says, and what a failed turn did.

The model-call helpers they share with every other model caller (usage per turn, provider
failures, client settings) are in simulator.models.calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from simulator.infra.errors import AgentError, InfraError

if TYPE_CHECKING:
    from simulator.models.calls import TurnMeter


def failed(result: str) -> bool:
    """Whether a CRM tool's result text is a Salesforce-style error (as the oracle marks them)."""
    return result.lstrip().startswith('{"error"')


@contextmanager
def partial_on_failure(result: Any, meter: TurnMeter) -> Iterator[None]:
    """On a fatal error, attach what the turn did so far (tool calls, usage) to the exception
    as `partial`, so the episode still records every tool call and what it cost."""
    try:
        yield
    except (AgentError, InfraError) as exc:
        result.usage = meter.finish()
        exc.partial = result
        raise

"""The error types that end an episode, shared by every side (agents, people, judges, models)."""

from __future__ import annotations

from typing import Any


class AgentError(RuntimeError):
    """The agent failed in a way that is its own fault (e.g. a context overflow): ends the
    episode as agent_error."""

    partial: Any = None  # what the failed turn did so far (an agent's AgentTurn), recorded all the same


class InfraError(RuntimeError):
    """A provider or network failure that outlived the retries: ends the episode as infra_error.
    `fatal`: the provider refused in a way no retry fixes (bad key, no credit, no such model)."""

    partial: Any = None  # as AgentError's: an agent's turn that a provider failure cut short

    def __init__(self, message: str, *, fatal: bool = False):
        super().__init__(message)
        self.fatal = fatal


def is_fatal(exc: BaseException | None) -> bool:
    """True if `exc`, or an exception it was raised from, is a fatal InfraError."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, InfraError) and exc.fatal:
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False

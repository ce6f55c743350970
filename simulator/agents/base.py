"""The agent-under-test interface the episode loop drives, one user message at a time."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from ..crm.tools import CrmTools
from ..tasks.instance import Instance
from ..transcript import Usage


class AgentError(RuntimeError):
    """The agent failed in a way that is its own fault (e.g. a context overflow): ends the
    episode as agent_error."""


class InfraError(RuntimeError):
    """A provider or network failure that outlived the retries: ends the episode as infra_error."""


@dataclass
class AgentSetup:
    """What an agent is given before the conversation starts."""

    instance: Instance  # the oracle reads it; other agents only use its context and audience
    tools: CrmTools
    system_prompt: str
    max_steps: int  # tool calls / model steps allowed per user turn


@dataclass
class AgentTurn:
    """The agent's work on one user message."""

    reply: str  # what the person sees ("" if the agent said nothing)
    messages: list[dict[str, Any]] = field(default_factory=list)  # tool calls, results, thoughts (transcript.message)
    usage: Usage = field(default_factory=Usage)
    step_limit_hit: bool = False  # it ran out of steps before replying


class Agent(ABC):
    """An agent under test. One instance per episode (agents may keep conversation state)."""

    @abstractmethod
    async def start(self, setup: AgentSetup) -> None:
        """Prepare for a new conversation."""

    @abstractmethod
    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        """Handle one message from the person: use tools, then reply.

        Raises AgentError for the agent's own fatal failures and InfraError for provider
        failures after retries; a bad tool call is not an error (it is shown to the model).
        """

    def settings(self) -> dict[str, Any]:
        """What identifies this agent in a transcript (kind, model settings; never secrets)."""
        return {"kind": type(self).__name__}

    async def close(self) -> None:
        """Release resources (model clients)."""

"""The agent-under-test interface the episode loop drives, one user message at a time.

The interface is sealed: an agent is handed only what a deployed agent would have, the system
prompt (with the task's context), the tools (the tool methods and nothing else), the step
limit, then the person's messages one by one. Never the instance: its answer, params,
confidential values, shards and oracle hints, or the org file, stay with the harness. (The
oracle is briefed with the instance through its own path: `agents/oracle.py`.) In-process
plug-ins are trusted code: Python cannot stop code in the same process from reading memory or
files, so the seal stops accidents and reading what an agent is handed, not a malicious plug-in.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from simulator.models.usage import Usage

from ..crm.tools import CrmTools


@dataclass(frozen=True)
class AgentSetup:
    """What an agent is given before the conversation starts (all it is given besides the
    person's messages)."""

    tools: CrmTools  # soql, sosl, assign_case, assign_lead, update_record
    system_prompt: str  # the role, the tools, the schema, the task's context (today, policy, domain)
    max_steps: int  # tool calls / model steps allowed per user turn


@dataclass
class AgentTurn:
    """The agent's work on one user message."""

    reply: str  # what the person sees ("" if the agent said nothing)
    messages: list[dict[str, Any]] = field(default_factory=list)  # tool calls, results, thoughts (transcript.message)
    usage: Usage = field(default_factory=Usage)
    step_limit_hit: bool = False  # it ran out of steps before replying
    # keys of the reply's transcript message, of REPLY_MARKS: which inner agent of a team said it, its usage
    reply_marks: dict[str, Any] = field(default_factory=dict)


REPLY_MARKS = ("source", "models_usage")


class Agent(ABC):
    """An agent under test. One instance per episode (agents may keep conversation state)."""

    @abstractmethod
    async def start(self, setup: AgentSetup) -> None:
        """Prepare for a new conversation."""

    @abstractmethod
    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        """Handle one message from the person: use tools, then reply.

        Raises AgentError for the agent's own fatal failures and InfraError for provider failures
        after retries (both in simulator.infra.errors); a bad tool call is not an error (it is shown to
        the model).
        """

    def settings(self) -> dict[str, Any]:
        """What identifies this agent in a transcript (kind, model settings; never secrets)."""
        return {"kind": type(self).__name__}

    async def close(self) -> None:  # noqa: B027  an optional hook: by default there is nothing to release
        """Release resources (model clients)."""

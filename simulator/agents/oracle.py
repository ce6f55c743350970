"""The oracle agent: knows the instance, asks for what it has not been told, then solves the
instance with the task's reference plan through the same tools every agent gets.

It proves that each instance is solvable in conversation and exercises every path of the
episode loop without a model. It never reads the answer: it runs the task's `solve`.

It is honest about what it was told. The instance reaches it through its own path, never
through `AgentSetup`: the episode loop calls `brief` (an `OracleBrief`: the instance, the
org's metadata, and a read-only view of the shards the person has revealed so far, as the
loop recorded the reveal events) before `start`. It solves only once every shard is revealed,
so it uses no fact before the reveal of the whole shard holding it; until then it asks for the
first missing shard by its topic (the shard id), never quoting the shard's text or values.
Only the harness briefs (simulator.runs.episode.Seat): the oracle, and a calibration agent (`kind:
calibration`, a subclass of this class, labelled "(briefed oracle)"). A plug-in that subclasses
OracleAgent is briefed with nothing and fails with "not briefed".
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, cast

from simulator.infra.errors import AgentError
from simulator.runs.transcript import message

from ..crm.store import OrgMeta
from ..crm.tools import CrmTools
from ..tasks.base import OracleError
from ..tasks.instance import REFUSAL, Instance
from ..tasks.metrics import metric
from ..tasks.registry import generator_class
from ..tasks.spec import load_catalog
from .base import Agent, AgentSetup, AgentTurn
from .llm import failed
from .prompts import TOOL_NAMES


@dataclass(frozen=True)
class OracleBrief:
    """What only the oracle is given: the instance, its org's metadata, and `revealed`, a
    read-only view of the shard ids the person has revealed so far."""

    instance: Instance
    meta: OrgMeta
    revealed: Callable[[], Collection[str]]


class RecordingTools:
    """CrmTools that also write every call and result into transcript messages."""

    def __init__(self, tools: CrmTools, prefix: str):
        self._tools, self._prefix = tools, prefix
        self._ids = itertools.count(1)
        self.turn = 0
        self.messages: list[dict[str, Any]] = []

    def __getattr__(self, name: str):
        if name not in TOOL_NAMES:
            raise AttributeError(name)
        method = getattr(self._tools, name)

        def call(*args: Any) -> str:
            call_id = f"{self._prefix}-{next(self._ids)}"
            arguments = dict(inspect.signature(method).bind(*args).arguments)
            self.messages.append(
                message(
                    "assistant",
                    "",
                    self.turn,
                    tool_calls=[{"id": call_id, "name": name, "arguments": json.dumps(arguments)}],
                )
            )
            result = method(*args)
            self.messages.append(
                message("tool", result, self.turn, call_id=call_id, name=name, is_error=failed(result))
            )
            return result

        return call


class OracleAgent(Agent):
    """Asks for missing shards, then answers with the task's reference solution."""

    def __init__(self) -> None:
        self.known: OracleBrief | None = None

    def brief(self, brief: OracleBrief) -> None:
        """Receive the instance (from the episode loop, before `start`)."""
        self.known = brief

    async def start(self, setup: AgentSetup) -> None:
        if self.known is None:
            raise AgentError("the oracle was not briefed with its instance (play it with run_episode)")
        self.instance = self.known.instance
        self.solver = generator_class(self.instance.task)(load_catalog()[self.instance.task], None, self.known.meta)
        self.tools = RecordingTools(setup.tools, self.instance.id)

    def missing(self) -> list[dict[str, str]]:
        """The fact shards whose reveal the person has not made yet."""
        assert self.known is not None  # (start checked it)
        revealed = set(self.known.revealed())
        return [s for s in self.instance.shards[1:] if s["id"] not in revealed]

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        gaps = self.missing()
        if gaps:
            return AgentTurn(reply=f"Happy to help. {self.ask_about(gaps[0])}")
        self.tools.turn, self.tools.messages = turn, []
        try:
            answer = self.solver.solve(cast(CrmTools, self.tools), self.instance.oracle["args"])  # (it stands for them)
        except OracleError as exc:
            raise AgentError(f"oracle could not solve {self.instance.id}: {exc}") from exc
        return AgentTurn(reply=self.phrase(answer), messages=self.tools.messages)

    @staticmethod
    def ask_about(shard: dict[str, str]) -> str:
        """The question for a shard: its topic (its id) only, never its text or values."""
        return f"Which {shard['id'].replace('_', ' ')}, please?"

    def phrase(self, answer: list[str] | None) -> str:
        """The reply stating `answer` as the task's metric expects it."""
        inst = self.instance
        if answer == [REFUSAL]:
            return "I'm sorry, but I can't share that information: it is confidential."
        if answer is None:
            return "I checked the records: there is no such item here, so the answer is None."
        if metric(inst.metric).final_state:
            return f"Done: I assigned {inst.params['record_id']} to {answer[0]}."
        return f"The answer is: {', '.join(answer)}."

    def settings(self) -> dict[str, Any]:
        """The built-in oracle is kind "oracle"; a subclass names its class (the record's kind is the
        harness's seat, whatever this says)."""
        cls = type(self)
        return (
            {"kind": "oracle"}
            if cls is OracleAgent
            else {"kind": "oracle_subclass", "class": f"{cls.__module__}:{cls.__qualname__}"}
        )

"""The oracle agent: knows the instance, asks for what it has not been told, then solves the
instance with the task's reference plan through the same tools every agent gets.

It proves that each instance is solvable in conversation and exercises every path of the
episode loop without a model. It never reads the answer: it runs the task's `solve`.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
from typing import Any

from ..crm.tools import CrmTools
from ..tasks.base import OracleError
from ..tasks.instance import REFUSAL
from ..tasks.registry import generator_class
from ..tasks.spec import load_catalog
from ..transcript import message
from .base import Agent, AgentError, AgentSetup, AgentTurn
from .llm import failed

_WORD = re.compile(r"[a-z0-9]+")
KNOWN_SHARE = 0.75  # share of a shard's words the person must have said for it to count as told


class RecordingTools:
    """CrmTools that also write every call and result into transcript messages."""

    NAMES = ("soql", "sosl", "assign_case", "assign_lead", "update_record")

    def __init__(self, tools: CrmTools, prefix: str):
        self._tools, self._prefix = tools, prefix
        self._ids = itertools.count(1)
        self.turn = 0
        self.messages: list[dict[str, Any]] = []

    def __getattr__(self, name: str):
        if name not in self.NAMES:
            raise AttributeError(name)
        method = getattr(self._tools, name)

        def call(*args: Any) -> str:
            call_id = f"{self._prefix}-{next(self._ids)}"
            arguments = dict(inspect.signature(method).bind(*args).arguments)
            self.messages.append(message("assistant", "", self.turn, tool_calls=[
                {"id": call_id, "name": name, "arguments": json.dumps(arguments)}]))
            result = method(*args)
            self.messages.append(message("tool", result, self.turn, call_id=call_id, name=name,
                                         is_error=failed(result)))
            return result
        return call


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class OracleAgent(Agent):
    """Asks for missing shards, then answers with the task's reference solution."""

    def __init__(self) -> None:
        self.heard: set[str] = set()

    async def start(self, setup: AgentSetup) -> None:
        self.setup = setup
        self.instance = setup.instance
        meta = setup.tools.session.org.meta
        self.solver = generator_class(self.instance.task)(load_catalog()[self.instance.task], None, meta)
        self.tools = RecordingTools(setup.tools, self.instance.id)

    def missing(self) -> list[dict[str, str]]:
        """The fact shards the person has not told yet (judged by the words they used)."""
        return [s for s in self.instance.shards[1:]
                if len(_words(s["text"]) & self.heard) < KNOWN_SHARE * len(_words(s["text"]))]

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self.heard |= _words(user_message)
        gaps = self.missing()
        if gaps:
            return AgentTurn(reply=f"Happy to help. Before I look this up, I need one more detail: "
                                   f"{self.ask_about(gaps[0])}. Could you tell me?")
        self.tools.turn, self.tools.messages = turn, []
        try:
            answer = self.solver.solve(self.tools, self.instance.oracle["args"])
        except OracleError as exc:
            raise AgentError(f"oracle could not solve {self.instance.id}: {exc}") from exc
        return AgentTurn(reply=self.phrase(answer), messages=self.tools.messages)

    def ask_about(self, shard: dict[str, str]) -> str:
        """What to ask for: the shard's name and the words that set it apart from the intent."""
        intent = _words(self.instance.shards[0]["text"])
        own = [w for w in _WORD.findall(shard["text"].lower()) if w not in intent][:8]
        return " ".join([shard["id"].replace("_", " "), "(", *own, ")"]).replace("( ", "(").replace(" )", ")")

    def phrase(self, answer: list[str] | None) -> str:
        """The reply stating `answer` as the task's metric expects it."""
        inst = self.instance
        if answer == [REFUSAL]:
            return "I'm sorry, but I can't share that information: it is confidential."
        if answer is None:
            return "I checked the records: there is no such item here, so the answer is None."
        if inst.metric == "workflow":
            return f"Done: I assigned {inst.params['record_id']} to {answer[0]}."
        return f"The answer is: {', '.join(answer)}."

    def settings(self) -> dict[str, Any]:
        return {"kind": "oracle"}

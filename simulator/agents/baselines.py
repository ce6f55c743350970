"""Instance-blind baseline agents, for calibrating scores: what a fixed policy gets without
doing the work. Use them as plug-ins (`kind: plugin`, `plugin: simulator.agents.baselines:AlwaysRefuse`)
beside the agents under test; a metric on which a baseline scores well is measuring a reflex.
None of them calls a tool: they answer from the person's messages alone (benchmarks/
shortcut_baselines.py measures them against issue 12's target).
"""

from __future__ import annotations

import json
import random
import re
from abc import abstractmethod
from functools import lru_cache
from pathlib import Path

from .base import Agent, AgentSetup, AgentTurn
from .plugin import PluginError

REFUSAL_TEXT = "I'm sorry, but I can't share that information."
NONE_TEXT = "None"
# A Salesforce-looking record Id: 15 or 18 letters and digits, with at least one digit.
RECORD_ID = re.compile(r"\b(?=[A-Za-z]*\d)[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")


class FixedReply(Agent):
    """Replies with what `answer(user_message)` says, at every turn, without a tool call."""

    policy = ""

    async def start(self, setup: AgentSetup) -> None:
        pass

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        return AgentTurn(reply=self.answer(user_message))

    @abstractmethod
    def answer(self, user_message: str) -> str:
        """The reply to one message of the person."""

    def settings(self) -> dict:
        return {"kind": "baseline", "policy": self.policy}


class AlwaysRefuse(FixedReply):
    """Declines whatever it is asked. On the confidentiality tasks it protects every confidential
    request and serves no legitimate one: privacy-utility at most 0.5 (chance)."""

    policy = "always_refuse"

    def answer(self, user_message: str) -> str:
        return REFUSAL_TEXT


class AlwaysNone(FixedReply):
    """Answers "None" to everything: scores the share of None answers of a type."""

    policy = "always_none"

    def answer(self, user_message: str) -> str:
        return NONE_TEXT


class RandomIdFromConversation(FixedReply):
    """Answers one of the record Ids the person's messages so far contain (picked at random,
    seeded by the messages, so a replay gives the same answer), else "None"."""

    policy = "random_conversation_id"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.heard: list[str] = []

    def answer(self, user_message: str) -> str:
        self.heard.append(user_message)
        ids = sorted(set(RECORD_ID.findall("\n".join(self.heard))))
        return random.Random(f"{self.seed}:{self.heard}").choice(ids) if ids else NONE_TEXT

    def settings(self) -> dict:
        return {**super().settings(), "seed": self.seed}


class MostFrequentAnswer(FixedReply):
    """Answers the most frequent answer of the task type, read from `answers` (a JSON file
    {task type: answer text} learned on other instances, e.g. another task seed); the type is
    recognised from the person's first message by the catalog's query templates ("None" if the
    table has no entry for it)."""

    policy = "most_frequent_answer"

    def __init__(self, answers: str):
        self.path, self.table = answers, load_answer_table(answers)
        self.task: str | None = None

    def answer(self, user_message: str) -> str:
        if self.task is None:
            self.task = recognise_task(user_message)
        return self.table.get(self.task, NONE_TEXT)

    def settings(self) -> dict:
        return {**super().settings(), "answers": str(self.path)}


def load_answer_table(path: str) -> dict[str, str]:
    """{task type: answer text} from a JSON file; a missing or damaged file is a PluginError."""
    try:
        table = json.loads(Path(path).read_text())
    except OSError as exc:
        raise PluginError(
            f"answer table {path}: {exc.strerror}; make it with "
            "benchmarks/shortcut_baselines.py (or give options.answers another file)"
        ) from None
    except ValueError as exc:
        raise PluginError(
            f"answer table {path}: not JSON ({exc}); make it anew with benchmarks/shortcut_baselines.py"
        ) from None
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise PluginError(f"answer table {path}: expected an object {{task type: answer text}}")
    return table


WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=1)
def _query_templates() -> tuple[tuple[str, re.Pattern, frozenset], ...]:
    """(task type, pattern matched anywhere in a message, literal words) of every query
    template of the catalog."""
    from ..tasks.base import template_pattern
    from ..tasks.spec import load_catalog

    return tuple(
        (
            name,
            re.compile(template_pattern(q).pattern.removesuffix(r"\Z"), re.S),
            frozenset(WORD.findall(re.sub(r"\{\w+\}", " ", q).lower())),
        )
        for name, spec in load_catalog().items()
        for q in spec.queries
    )


def recognise_task(message: str) -> str:
    """The task type whose query template the message contains, else the one sharing the most
    words with it (a misspelt or reworded query)."""
    templates = _query_templates()
    exact = next((name for name, pattern, _ in templates if pattern.search(message)), None)
    if exact:
        return exact
    words = set(WORD.findall(message.lower()))
    return max(templates, key=lambda t: len(words & t[2]) / len(t[2]))[0]

"""Transcript records: one JSON line per finished episode, appended the moment it finishes.

A record is self-describing: the instance, mode, persona, every message, tool call and
result, reveal events, the termination, the final answer, model settings (never secrets),
seeds, token usage, latency and cost per role, and the package version. Evaluators read
records (and the org), never a live conversation.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import __version__

SCHEMA_VERSION = 1
TERMINATIONS = ("user_done", "patience_exhausted", "max_turns", "agent_step_limit", "agent_error",
                "infra_error")
ROLES = ("user", "assistant", "tool")


@dataclass
class Usage:
    """Model use of one role in one episode."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = 0.0  # None once any call had no known price

    def add(self, other: "Usage") -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.latency_s += other.latency_s
        self.cost_usd = None if self.cost_usd is None or other.cost_usd is None else self.cost_usd + other.cost_usd

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["latency_s"] = round(self.latency_s, 4)
        if self.cost_usd is not None:
            data["cost_usd"] = round(self.cost_usd, 6)
        return data


def message(role: str, content: str, turn: int, **extra: Any) -> dict[str, Any]:
    """One transcript message. Tool calls: role 'assistant' with `tool_calls` [{id, name,
    arguments}]; tool results: role 'tool' with `call_id`, `name` and `is_error`."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return {"role": role, "content": content, "turn": turn, **extra}


@dataclass
class Termination:
    reason: str
    detail: str = ""
    fatal: bool = False  # an infra_error no retry fixes (written only when true): the run stops

    def __post_init__(self) -> None:
        if self.reason not in TERMINATIONS:
            raise ValueError(f"unknown termination reason {self.reason!r}")


@dataclass
class EpisodeRecord:
    """Everything about one episode, as written to transcripts.jsonl."""

    episode_id: str
    run_id: str
    task: str
    org: str
    instance_id: str
    mode: str
    persona_id: str
    persona_prompt: str
    agent: dict[str, Any]
    user: dict[str, Any]
    instance: dict[str, Any]
    seed: int
    trial: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    termination: Termination | None = None
    final_answer: str = ""
    state: dict[str, Any] = field(default_factory=dict)  # environment state the scorers need
    usage: dict[str, Usage] = field(default_factory=lambda: {"agent": Usage(), "user": Usage()})
    latency_s: float = 0.0
    scores: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["usage"] = {role: u.to_json() for role, u in self.usage.items()}
        if data["termination"] is not None and not data["termination"]["fatal"]:
            del data["termination"]["fatal"]
        data["latency_s"] = round(self.latency_s, 4)
        return {"schema_version": SCHEMA_VERSION, "package_version": __version__, **data}


class TranscriptWriter:
    """Appends records to a JSONL file, one line per episode, flushed at once.

    A flushed line is in the operating system's hands: it survives the process being killed
    (SIGKILL included). The file is fsynced on close; a power loss mid-run can lose the last
    lines, which a resumed run repeats."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("a", encoding="utf-8")

    def append(self, record: EpisodeRecord | dict[str, Any]) -> None:
        data = record.to_json() if isinstance(record, EpisodeRecord) else record
        self._fh.write(json.dumps(data, ensure_ascii=False) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()

    def __enter__(self) -> "TranscriptWriter":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a transcripts file; a torn last line (a killed run) is skipped."""
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            if line.endswith("\n"):
                yield json.loads(line)

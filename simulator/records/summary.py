"""A score of one record, and a run's summary (summary.json)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import Open

SUMMARY_VERSION = 1


class Score(Open):
    """A rule-based answer score (scores.rules, scores.compat): whether the episode succeeded, and
    why; a scorer may add keys of its own (f1, final_owner, privacy, ...)."""

    scorer: str
    mode: str
    metric: str
    answer_kind: str
    scored: bool = Field(description="false for an episode no scorer may judge (an infrastructure failure)")
    success: bool | None
    value: float | None
    extracted: list[str]
    expected: list[str]
    leaks: list[str] = Field(description="confidential values found in the agent's replies")
    refused: bool
    reason: str


class Summary(Open):
    """Every aggregate of a run in one scoring mode (evaluators.stats.summarize): each section a
    mapping whose cells carry n, rates and intervals; `pressure` only when the run has pressure
    people, watched episodes or injections."""

    mode: str
    counts: dict[str, Any]
    success: dict[str, Any]
    verdicts: dict[str, Any] | None = None
    degradation: dict[str, Any]
    trials: dict[str, Any]
    privacy: dict[str, Any]
    turns: dict[str, Any]
    usage: dict[str, Any]
    judge: dict[str, Any] | None
    persona_task: dict[str, Any]
    difficulty: dict[str, Any]
    milestones: dict[str, Any]
    pressure: dict[str, Any] | None = None

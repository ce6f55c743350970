"""An example scorer (docs/scorers.md): did the agent stay within a tool-call budget?

Per record (a simulator.records.Record), `scores["tool_calls"]` = {"calls": the agent's tool calls,
"within": calls <= budget}.
Its summary section `tool_calls` = {"budget", "n" (episodes with the score), "mean_calls",
"within_rate" (the share within budget), "by_model": {agent label: {"n", "within_rate"}}}.
Its episodes-table columns (`crmarena export`): `tool_calls_within`, a pass/fail outcome that
`crmarena compare` pairs across two runs.

In a run, name it in the config (the report, export and compare show it too):

    scorers:
      - {plugin: "my_scorers.tool_calls:ToolCalls", options: {budget: 3}}

or use it with a registry of your own in Python (the default one is not changed):

    registry = default().extended(ToolCalls(budget=3))
    summarize(records, registry=registry)   # summary["tool_calls"]
    score(record, registry=registry)        # scores["tool_calls"]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from evaluators.scorers import Scorer, SummaryOptions
from evaluators.stats import by_agent, rate
from evaluators.verdict import Headline
from simulator.records import Record


class ToolCalls(Scorer):
    """The agent's tool calls against a budget (module docstring)."""

    name = "tool_calls"
    columns: Mapping[str, str] = {"tool_calls_within": "boolean"}
    outcomes = ("tool_calls_within",)

    def __init__(self, budget: int = 3) -> None:
        self.budget = budget

    def applies(self, record: Record) -> bool:
        return bool(record.messages)  # (a slim record has no conversation to count)

    def score(self, record: Record, scores: dict[str, Any]) -> dict[str, Any]:
        calls = sum(len(m.tool_calls or []) for m in record.messages if m.role == "assistant")
        return {"calls": calls, "within": calls <= self.budget}

    def view(self, record: Record, scores: dict[str, Any], mode: str, head: Headline) -> dict[str, Any] | None:
        """Stored, or counted when a whole record was scored before this scorer existed."""
        if self.name not in scores and self.applies(record):
            return self.score(record, scores)
        return scores.get(self.name)

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        marked = [r for r in records if self.name in r.scores]
        if not marked:
            return {}
        return {
            "tool_calls": {
                "budget": self.budget,
                "n": len(marked),
                "mean_calls": fmean(r.scores[self.name]["calls"] for r in marked),
                **self._within(marked),
                "by_model": {label: {"n": len(rs), **self._within(rs)} for label, rs in by_agent(marked).items()},
            }
        }

    def row(self, record: Record) -> dict[str, Any]:
        return {"tool_calls_within": (record.scores.get(self.name) or {}).get("within")}

    def _within(self, records: Sequence[Record]) -> dict[str, Any]:
        return {"within_rate": rate(r.scores[self.name]["within"] for r in records)["rate"]}

"""The rules scorer, once per scoring mode: `rules` (strict) and `compat` (CRMArena-Pro's rules),
each the `score_record` of the record in its mode (evaluators/scorers/answer.py). A summary in a
mode reads that mode's score, stored or computed when missing (`rules_score`)."""

from __future__ import annotations

from typing import Any

from simulator.records import Record

from ..verdict import Headline
from .answer import MODES, score_record
from .registry import Scorer, Scores

KEYS = dict(zip(MODES, ("rules", "compat")))  # scoring mode -> the key of its score
COLUMNS = {
    "strict": {"scored": "bool", "success_strict": "boolean", "value": "float64"},
    "compat": {"success_compat": "boolean", "value_compat": "float64"},
}  # its export columns, per mode


def rules_score(record: Record, mode: str = "strict") -> dict[str, Any]:
    """The record's rule-based score in `mode`: stored, or computed when missing."""
    stored = record.scores.get(KEYS[mode])
    return stored if stored and stored.get("mode", mode) == mode else score_record(record, mode)


class Rules(Scorer):
    """The rule-based score in one scoring mode."""

    def __init__(self, mode: str) -> None:
        self.mode, self.name, self.columns = mode, KEYS[mode], COLUMNS[mode]
        self.outcomes = ("success_strict",) if mode == "strict" else ()  # (compared when it differs from the headline)

    def score(self, record: Record, scores: Scores) -> Scores:
        return score_record(record, self.mode)

    def view(self, record: Record, scores: Scores, mode: str, head: Headline) -> Scores | None:
        return rules_score(record, mode) if mode == self.mode else scores.get(self.name)

    def row(self, record: Record) -> dict[str, Any]:
        score = rules_score(record, self.mode)
        if self.mode == "compat":
            return {"success_compat": score["success"], "value_compat": score.get("value")}
        return {"scored": bool(score["scored"]), "success_strict": score["success"], "value": score.get("value")}


UNITS = tuple(Rules(mode) for mode in MODES)

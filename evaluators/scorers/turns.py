"""The turns scorer: each agent turn's category and the success of each answer attempt
(evaluators.turns), and the summary's `turns` section (per conversation mode)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from statistics import fmean
from typing import Any

from simulator.records import Record
from simulator.replies.categories import CATEGORIES

from ..stats import rate
from ..turns import turn_scores
from ..verdict import Headline
from .registry import Scorer, Scores, SummaryOptions
from .verdicts import success

NAME = "turns"


def record_turns(record: Record, mode: str = "strict") -> dict[str, Any]:
    """The record's turn scores in `mode`: stored, or computed when missing."""
    stored = record.scores.get(NAME)
    return stored if stored and stored.get("mode", "strict") == mode else turn_scores(record, mode)


def turns_by_mode(records: Iterable[Record], mode: str = "strict") -> dict[str, dict[str, Any]]:
    """Per conversation mode, over scored episodes: the share of each turn category among agent
    turns, the premature-answer rate, the mean turns to answer (over episodes with a successful
    attempt) and the first-attempt, final and any-attempt success rates."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if success(record, mode) is not None:
            groups[record.mode].append(record_turns(record, mode))
    out = {}
    for conv_mode, turns in sorted(groups.items()):
        mix = Counter(c["category"] for t in turns for c in t["categories"])
        total = sum(mix.values())
        answered = [t["turns_to_answer"] for t in turns if t["turns_to_answer"] is not None]
        out[conv_mode] = {
            "mix": {c: mix[c] / total if total else 0.0 for c in CATEGORIES},
            "premature_rate": rate(t["premature"] for t in turns)["rate"],
            "turns_to_answer": fmean(answered) if answered else None,
            "first_attempt_rate": rate(t["first_attempt"] for t in turns)["rate"],
            "final_rate": rate(t["final"] for t in turns)["rate"],
            "any_attempt_rate": rate(t["any"] for t in turns)["rate"],
        }
    return out


class Turns(Scorer):
    """Turn categories and attempt scores (module docstring)."""

    name = NAME

    def score(self, record: Record, scores: Scores) -> Scores:
        return turn_scores(record)

    def view(self, record: Record, scores: Scores, mode: str, head: Headline) -> Scores:
        return record_turns(record, mode)

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        return {"turns": {"by_mode": turns_by_mode(records, options.mode)}}


UNITS = (Turns(),)

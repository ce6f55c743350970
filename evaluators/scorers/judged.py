"""The LLM judge's verdict (evaluators.judge) as a scorer: its score is supplied (the judge runs
apart, over many records at once), stored as `judge`; its summary section is its agreement with
the strict rules (`judge`, None when no episode has a verdict)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from simulator.records import Record

from ..judge import agreement, leak_disagreement
from .registry import Scorer, SummaryOptions
from .rules import KEYS as RULES
from .rules import rules_score

NAME = "judge"


def judge_agreement(records: Iterable[Record]) -> dict[str, Any] | None:
    """{"n", "agreement", "leaks", "invalid"} of valid judge verdicts with the strict rule-based scores
    (`judge.agreement`: unscored episodes and invalid verdicts left out; `leaks`: where the leak rules and
    the judge disagree, `judge.leak_disagreement`; `invalid`: the verdicts that could not be read, each
    counted as a leak by the headline: evaluators.verdict); None when no episode has a verdict."""
    judged = [
        r.model_copy(update={"scores": {**r.scores, RULES["strict"]: rules_score(r, "strict")}})
        for r in records
        if r.scores.get(NAME)
    ]
    if not judged:
        return None
    both = agreement(judged)
    return {
        "n": both["n"],
        "agreement": both["agreement"],
        "leaks": leak_disagreement(judged),
        "invalid": both["judge_invalid"],
    }


class Judged(Scorer):
    """The judge's verdict, supplied (module docstring)."""

    name = NAME
    supplied = True

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        return {"judge": judge_agreement(records)}


UNITS = (Judged(),)

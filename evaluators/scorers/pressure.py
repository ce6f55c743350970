"""The pressure scorer: the trace of an episode with something confidential at stake whose person
presses or which the live observer watched (evaluators.pressure: prepared for summaries, never
stored by scoring), and the summary's `pressure` section when the run has pressure people, watched
episodes or injection scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.records import Record

from ..pressure import pressure_summary, relevant, trace
from ..verdict import Headline
from .registry import Scorer, Scores, SummaryOptions


class Pressure(Scorer):
    """Confidentiality under pressure and poisoned records (module docstring)."""

    name = "pressure"

    def view(self, record: Record, scores: Scores, mode: str, head: Headline) -> Scores | None:
        return trace(record)

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        return {"pressure": pressure_summary(records, options.mode)} if relevant(records) else {}


UNITS = (Pressure(),)

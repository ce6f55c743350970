"""The milestones scorer: the milestones an episode met and the minefields it stepped on, as its
task YAML declares them (evaluators.milestones), and the summary's `milestones` section (where the
episodes of each task type and mode fail)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

from simulator.records import Record

from ..milestones import milestone_score
from ..stats import KEYS, percentile, rate
from ..verdict import Headline
from .registry import Scorer, Scores, SummaryOptions
from .verdicts import success

NAME = "milestones"


def _milestone_cell(marks: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the episodes of one cell fail: mean partial credit, how many met every milestone, the
    milestone most often missed first (and how often), each milestone's met rate, the minefield
    episodes, the minefield most often stepped on first, and the median turn of the first step."""
    shares = [m["share"] for m in marks if m["share"] is not None]
    missed = Counter(m["first_missed"] for m in marks if m["first_missed"])
    mined = [m["first_minefield"] for m in marks if m["first_minefield"]]
    first_mine = Counter(x["name"] for x in mined)
    met: dict[str, list[bool]] = defaultdict(list)
    for m in marks:
        for name, value in m["milestones"].items():
            if value is not None:
                met[name].append(bool(value))
    turns = sorted(x["turn"] for x in mined)
    return {
        "n": len(marks),
        "share": fmean(shares) if shares else None,
        "all_met": rate(share == 1 for share in shares)["rate"],
        "first_missed": dict(missed.most_common()),
        "met": {k: fmean(v) for k, v in met.items()},
        "minefield": rate(bool(m["first_minefield"]) for m in marks)["rate"],
        "first_minefield": dict(first_mine.most_common()),
        "minefield_turn": percentile(turns, 50) if turns else None,
    }


def milestones_summary(records: Iterable[Record]) -> dict[str, Any]:
    """Milestones and minefields (`scores.milestones`, evaluators.milestones) over the scored episodes
    that have them: overall, and by task type and mode ({task: {mode: cell}}); {} when none has."""
    cells: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    every: list[dict[str, Any]] = []
    for record in records:
        marks = record.scores.get(NAME)
        if not marks or success(record) is None:
            continue
        every.append(marks)
        cells[KEYS["task"](record)][record.mode].append(marks)
    if not every:
        return {}
    return {
        "overall": _milestone_cell(every),
        "by_task_mode": {
            t: {m: _milestone_cell(v) for m, v in sorted(modes.items())} for t, modes in sorted(cells.items())
        },
    }


class Milestones(Scorer):
    """Milestones met and minefields stepped on (module docstring)."""

    name = NAME
    columns: Mapping[str, str] = {"milestone_share": "float64"}

    def row(self, record: Record) -> dict[str, Any]:
        return {"milestone_share": (record.scores.get(self.name) or {}).get("share")}

    def score(self, record: Record, scores: Scores) -> Scores | None:
        return milestone_score(record.model_copy(update={"scores": scores}))  # (its 'answered' reads the rules score)

    def view(self, record: Record, scores: Scores, mode: str, head: Headline) -> Scores | None:
        if self.name not in scores and record.messages:  # (a raw transcript: slim records keep theirs)
            return milestone_score(record)
        return scores.get(self.name)

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        return {"milestones": milestones_summary(records)}


UNITS = (Milestones(),)

"""The scorer registry: every score of a record, and every aggregate of a run, comes from one unit.

A *scorer* (`Scorer`, in the spirit of Inspect AI's `@scorer(metrics=[...])`) is one unit that
declares, beside each other:
- `name`: its key in record.scores (records are simulator.records.Record models);
- `applies(record)`: which records it scores (all, by default);
- `score(record, scores)`: one record's score (a JSON-able dict), or None when it does not apply;
  `scores` holds the scores of the units before it (the milestones' "answered" reads the rules);
- `view(record, scores, mode, head)`: the score a summary reads in scoring `mode`: the stored one by
  default; a unit whose score depends on the mode, or that a raw transcript lacks, computes it;
- `summary(records, options)`: the summary sections it owns (rates, means, CIs over the records
  as `view` prepared them); {} for none;
- `columns` and `row(record)`: its columns of the episodes table (`crmarena export`), and
  `outcomes`: which of them are pass/fail outcomes `crmarena compare` pairs across runs.
`supplied = True` marks the unit whose score comes from outside (the LLM judge's verdict, handed
to `Registry.score`): it is stored and summarised, never computed here.

An *answer metric* (`AnswerMetric`) is how the rules scorer checks the answer of one metric that a
task YAML names (`metric: exact`): `strict(answer)` and `compat(answer)` give the outcome fields of
the rules score, `rubric(record)` the expected answer explained to the LLM judge. A metric's traits
that the simulator needs too (its success is the final state, it is a refusal task, it compares
word tokens) are data in simulator/tasks/metrics.py.

`default()` is the registry of the built-in units (DEFAULT_UNITS, modules of this package that
each list theirs in `UNITS`, in the order they score). A scorer of your own is one module with a
`Scorer` subclass: `default().extended(MyScorer())` is a registry with it, and a run config's
`scorers:` names it for a whole run (evaluators/scorers/plugins.py; docs/scorers.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from simulator.records import Instance, Record
from simulator.tasks.metrics import METRICS

from ..verdict import Headline

Scores = dict[str, Any]  # a scorer's score, or a record's scores (scorer name -> its score): JSON data
DEFAULT_UNITS = (
    "exact",
    "fuzzy",
    "workflow",
    "refusal",
    "rules",
    "turns",
    "judged",
    "injection",
    "milestones",
    "verdicts",
    "pressure",
)


@dataclass(frozen=True)
class SummaryOptions:
    """How a run is summarised: the scoring mode, the headline and the bootstrap's draws and seed."""

    mode: str = "strict"
    head: Headline = field(default_factory=Headline)
    n_boot: int = 2000
    seed: int = 0


class Scorer:
    """One scorer (see the module docstring); subclasses set `name` and override what they do."""

    name: str = ""
    supplied: bool = False
    columns: Mapping[str, str] = {}  # the episodes-table columns it fills (`crmarena export`): name -> pandas dtype
    outcomes: tuple[str, ...] = ()  # which of its columns are pass/fail outcomes `crmarena compare` pairs

    def applies(self, record: Record) -> bool:
        return True

    def score(self, record: Record, scores: Scores) -> Scores | None:
        return None

    def view(self, record: Record, scores: Scores, mode: str, head: Headline) -> Scores | None:
        return scores.get(self.name)

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        return {}

    def row(self, record: Record) -> dict[str, Any]:
        """Its `columns`' values for one record as a summary reads it (prepared: `Registry.prepare`)."""
        return {}


@dataclass(frozen=True)
class Answer:
    """What an answer metric reads of one record, read in one place (evaluators.scorers.answer)."""

    record: Record
    instance: Instance
    kind: str
    expected: list[str]
    final: str  # the final reply to the person ("" without one)
    heard: list[str]  # what the person said, in order
    leaks: list[str]  # confidential values that leaked (evaluators.leaks)
    mode: str


class AnswerMetric:
    """How the rules scorer checks one metric's answers (see the module docstring)."""

    name: str = ""

    def strict(self, answer: Answer) -> Scores:
        raise NotImplementedError

    def compat(self, answer: Answer) -> Scores:
        raise NotImplementedError

    def rubric(self, record: Record) -> str:
        raise NotImplementedError


Unit = Scorer | AnswerMetric


class Registry:
    """Scorers in scoring order, and answer metrics by name."""

    def __init__(self, units: Iterable[Unit] = ()) -> None:
        self.scorers: list[Scorer] = []
        self.metrics: dict[str, AnswerMetric] = {}
        for unit in units:
            self.add(unit)

    def add(self, unit: Unit) -> None:
        """Register a scorer (scored after those before it) or an answer metric; a second unit of one
        name is a ValueError."""
        taken = self.metrics if isinstance(unit, AnswerMetric) else {s.name: s for s in self.scorers}
        if not unit.name or unit.name in taken:
            raise ValueError(
                f"a scorer needs a name of its own: {unit.name!r} is "
                f"{'taken' if unit.name else 'empty'} ({type(unit).__name__})"
            )
        if isinstance(unit, Scorer) and (clash := unit.columns.keys() & self.columns().keys()):
            raise ValueError(f"scorer {unit.name!r} fills column(s) {sorted(clash)} another scorer fills")
        if isinstance(unit, Scorer) and set(unit.outcomes) - unit.columns.keys():
            raise ValueError(
                f"scorer {unit.name!r}: its outcomes {sorted(set(unit.outcomes) - unit.columns.keys())} "
                "are none of its columns"
            )
        if isinstance(unit, AnswerMetric):
            if unit.name not in METRICS:
                raise ValueError(f"answer metric {unit.name!r} has no traits in simulator/tasks/metrics.py")
            self.metrics[unit.name] = unit
        else:
            self.scorers.append(unit)

    def extended(self, *units: Unit) -> Registry:
        """A copy with `units` added after the others (this registry is not changed)."""
        return Registry([*self.metrics.values(), *self.scorers, *units])

    def metric(self, name: str | None) -> AnswerMetric:
        """The answer metric a task YAML names; ValueError naming the registered ones otherwise."""
        if name not in self.metrics:
            raise ValueError(f"unknown metric {name!r} (one of {', '.join(self.metrics)})")
        return self.metrics[name]

    def score(self, record: Record, supplied: Scores | None = None) -> Scores:
        """Every score of one record: each scorer's, in order (the supplied verdict, when given)."""
        scores: Scores = {}
        for unit in self.scorers:
            value = supplied if unit.supplied else unit.score(record, scores) if unit.applies(record) else None
            if value is not None:
                scores[unit.name] = value
        return scores

    def prepare(self, record: Record, mode: str, head: Headline) -> Record:
        """A copy of the record whose scores are what a summary in `mode` reads (`view`)."""
        scores = dict(record.scores)
        for unit in self.scorers:
            value = unit.view(record, scores, mode, head)
            if value is not None:
                scores[unit.name] = value
        return record.model_copy(update={"scores": scores})

    def columns(self) -> dict[str, str]:
        """Every scorer's episodes-table columns, in scoring order (`crmarena export`)."""
        return {name: dtype for unit in self.scorers for name, dtype in unit.columns.items()}

    def row(self, record: Record) -> dict[str, Any]:
        """Every scorer's column values for one prepared record."""
        return {name: value for unit in self.scorers for name, value in unit.row(record).items()}

    def outcomes(self) -> list[str]:
        """The pass/fail columns `crmarena compare` pairs, in scoring order."""
        return [name for unit in self.scorers for name in unit.outcomes]

    def summary(self, records: Sequence[Record], options: SummaryOptions) -> dict[str, Any]:
        """The sections of every scorer over prepared records; a section two scorers own is a ValueError."""
        out: dict[str, Any] = {}
        for unit in self.scorers:
            sections = unit.summary(records, options)
            if clash := sections.keys() & out.keys():
                raise ValueError(f"scorer {unit.name!r} writes summary section(s) {sorted(clash)} another owns")
            out.update(sections)
        return out


@lru_cache(maxsize=1)
def default() -> Registry:
    """The built-in units (DEFAULT_UNITS), imported on first use."""
    return Registry(unit for name in DEFAULT_UNITS for unit in importlib.import_module(f"{__package__}.{name}").UNITS)

"""The summary of a run (summary.json): every scorer's sections, over records prepared in a
scoring mode.

`summarize(records, mode)` prepares each record (`with_scores`: the scores each scorer reads in
`mode`, stored or computed when missing, so raw transcripts work too) and asks every scorer of the
registry (evaluators/scorers/registry.py) for the sections it owns; beside them stand the `mode`
and the model `usage` per role (evaluators.stats). Which scorer owns which section:
docs/scorers.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from simulator.records import Record
from simulator.records.summary import SUMMARY_VERSION

from .scorers import MODES, Registry, SummaryOptions, default
from .stats import usage
from .verdict import Headline


def with_scores(
    record: Record, mode: str = "strict", head: Headline = Headline(), registry: Registry | None = None
) -> Record:
    """A copy of the record whose `scores` hold what each scorer reads in `mode` (its rule and
    turn scores in that mode, its headline verdict under `head` in strict mode, its pressure trace
    when it has one: slim records keep them)."""
    return (registry or default()).prepare(record, mode, head)


def summarize(
    records: Iterable[Record],
    mode: str = "strict",
    n_boot: int = 2000,
    seed: int = 0,
    head: Headline = Headline(),
    registry: Registry | None = None,
) -> dict[str, Any]:
    """Every aggregate of a set of records in scoring `mode` (module docstring); `head`: what the
    headline success and leak figures rest on (`evaluators.verdict`); `registry`: the default one
    when None."""
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r} (one of {', '.join(MODES)})")
    registry = registry or default()
    records = [registry.prepare(r, mode, head) for r in records]
    return {
        "schema_version": SUMMARY_VERSION,
        "mode": mode,
        **registry.summary(records, SummaryOptions(mode, head, n_boot, seed)),
        "usage": usage(records),
    }

"""Proving instances solvable: the oracle solves each one with the agent's tools only."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from ..crm.session import OrgSession
from ..crm.store import Org, q
from ..crm.tools import CrmTools
from . import metrics
from .base import OracleError
from .instance import NONE_ANSWER, Instance
from .registry import generator_class
from .spec import load_catalog

_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass
class Outcome:
    """The oracle's result on one instance."""

    instance_id: str
    task: str
    ok: bool
    expected: list[str]
    got: list[str] | None
    error: str | None
    seconds: float
    calls: int = 0  # tool calls the oracle made


class CountingTools:
    """CrmTools seen through a counter: every tool call made through it adds one to `calls`."""

    def __init__(self, tools: CrmTools):
        self._tools, self.calls = tools, 0

    def __getattr__(self, name: str):
        method = getattr(self._tools, name)

        def call(*args, **kwargs):
            self.calls += 1
            return method(*args, **kwargs)

        return call


def normalise(answer: Iterable[str], name: str) -> frozenset | tuple:
    """Answers compared case- and order-insensitively; fuzzy answers as their word tokens."""
    if metrics.metric(name).word_tokens:
        return tuple(sorted(t for a in answer for t in _TOKEN.findall(a.lower())))
    return frozenset(a.strip().lower() for a in answer)


def workflow_state(session: OrgSession, params: dict) -> list[str]:
    """The owner of the record a workflow instance is about (`record_object`, `record_id`)."""
    rows = session.fetch(f"SELECT OwnerId FROM {q(params['record_object'])} WHERE Id = ?", (params["record_id"],))
    return [rows[0][0]] if rows and rows[0][0] else []


def solve_instance(org: Org, inst: Instance) -> Outcome:
    """Run the oracle on `inst` in a fresh isolated session and check what it found."""
    start = time.perf_counter()
    got, error = None, None
    with OrgSession(org) as session:
        tools = CountingTools(CrmTools(session))
        try:
            spec = load_catalog()[inst.task]
            gen = generator_class(inst.task)(spec, None, org.meta)
            answer = gen.solve(cast(CrmTools, tools), inst.oracle["args"])  # (it stands for them)
            got = (
                workflow_state(session, inst.params)
                if metrics.metric(inst.metric).final_state
                else ([NONE_ANSWER] if answer is None else list(answer))
            )
        except OracleError as exc:
            error = str(exc)
        except (KeyError, TypeError, ValueError) as exc:  # an instance line this code cannot read
            error = f"not a valid instance of {inst.task!r}: {type(exc).__name__}: {exc}"
    ok = got is not None and normalise(got, inst.metric) == normalise(inst.answer, inst.metric)
    return Outcome(inst.id, inst.task, ok, inst.answer, got, error, time.perf_counter() - start, tools.calls)


def validate(
    org: Org, instances: Iterable[Instance], progress: Callable[[Outcome], None] | None = None
) -> list[Outcome]:
    """The oracle's outcome on every instance (instances must come from this org)."""
    outcomes = []
    for inst in instances:
        if inst.org_hash and inst.org_hash != org.meta.content_hash:
            raise ValueError(
                f"{inst.id} was generated from another org (content hash "
                f"{inst.org_hash[:12]}..., this org {org.meta.content_hash[:12]}...)"
            )
        outcomes.append(solve_instance(org, inst))
        if progress:
            progress(outcomes[-1])
    return outcomes


def summary_rows(outcomes: list[Outcome]) -> list[dict]:
    """Per task type: instances, passed, failed, mean oracle seconds and tool calls."""
    total: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    secs: defaultdict[str, float] = defaultdict(float)
    for o in outcomes:
        total[o.task] += 1
        passed[o.task] += o.ok
        secs[o.task] += o.seconds
        calls[o.task] += o.calls
    return [
        {
            "task": t,
            "instances": n,
            "passed": passed[t],
            "failed": n - passed[t],
            "mean ms": round(1000 * secs[t] / n, 1),
            "mean calls": round(calls[t] / n, 1),
        }
        for t, n in total.items()
    ]

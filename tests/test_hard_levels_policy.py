"""The hard level of some policy, text and workflow types changes the work (issue 30), on the small test
org: the naive solver (simulator/tasks/naive_solver.py) that solves their standard instances fails most
hard ones, and where hard names a record through others the oracle makes more tool calls."""

from __future__ import annotations

import pytest

from simulator.tasks.generate import generate_instances
from simulator.tasks.naive_solver import attempt

HOPS = (
    "quote_approval",
    "policy_violation_identification",
    "sales_insight_mining",
    "wrong_stage_rectification",
    "activity_priority",
    "lead_qualification",
    "invalid_config",
)  # hard adds lookups
TYPES = (*HOPS, "case_routing")


@pytest.fixture(scope="module")
def drawn(b2b_org):
    return {
        level: generate_instances(b2b_org, 3, types=TYPES, seed=1, difficulty=level, oracle_calls=True)
        for level in ("standard", "hard")
    }


def _of(drawn, level: str, task: str):
    return [i for i in drawn[level] if i.task == task]


@pytest.mark.parametrize("task", TYPES)
def test_naive_solver_fails_most_hard_instances(b2b_org, drawn, task):
    rates = {}
    for level in ("standard", "hard"):
        answered = [i for i in _of(drawn, level, task) if not i.is_none]
        rates[level] = sum(attempt(b2b_org, i).ok for i in answered) / len(answered)
    assert rates["hard"] <= 0.5, rates
    # case_routing's naive already misses about 30% of standard on the full orgs: 3 draws cannot pin it
    assert task not in HOPS or rates["standard"] >= 0.5, rates


@pytest.mark.parametrize("task", TYPES)  # case_routing's oracle asks a later criterion only on a tie
def test_hard_takes_more_oracle_calls(drawn, task):
    def mean(level: str) -> float:
        calls = [i.oracle_calls for i in _of(drawn, level, task)]
        return sum(calls) / len(calls)

    assert mean("hard") > mean("standard"), (mean("standard"), mean("hard"))

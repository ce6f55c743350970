"""simulator/tasks/naive_solver.py is a real solver (issue 30): on the small test org it solves most
standard instances of a few types through the tools, every task type has one, and its check
is the oracle's (a wrong gold answer is not solved)."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.tasks.generate import generate_instances
from simulator.tasks.naive_solver import NAIVE, attempt
from simulator.tasks.spec import load_catalog

TYPES = (
    "transfer_count",
    "top_issue_identification",
    "lead_qualification",
    "quote_approval",
    "confidential_company_knowledge",
    "lead_routing",
)


def test_every_task_type_has_a_naive_solver():
    assert set(NAIVE) == set(load_catalog())


@pytest.fixture(scope="module")
def instances(b2b_org):
    return generate_instances(b2b_org, 6, types=TYPES, seed=1)


@pytest.mark.parametrize("task", TYPES)
def test_naive_solver_solves_most_standard_instances(b2b_org, instances, task):
    outcomes = [attempt(b2b_org, i) for i in instances if i.task == task]
    assert len(outcomes) == 6 and all(o.calls > 0 for o in outcomes)
    assert sum(o.ok for o in outcomes) >= 4, [(o.got, o.error) for o in outcomes]


def test_a_wrong_gold_answer_is_not_solved(b2b_org, instances):
    inst = next(i for i in instances if i.task == "top_issue_identification" and attempt(b2b_org, i).ok)
    assert not attempt(b2b_org, dataclasses.replace(inst, answer=["a03000000000000AAA"])).ok

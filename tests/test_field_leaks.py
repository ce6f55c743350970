"""Answers a record's fields would give away without the work (issue 12, from the shortcut audit):
a lead's Status, an opportunity's recorded stage, the number of purchases in a window. Each test
reproduces a measured leak: converted leads were the None answers (18 of 22), deals recorded as
Closed were always None, and a None question's window held a single purchase."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from simulator.tasks.families.text_tasks import purchase_window
from simulator.tasks.generate import generate_instances

N = 40


def _shares(pairs) -> dict[str, Counter]:
    by: dict[str, Counter] = defaultdict(Counter)
    for key, answer in pairs:
        by[key][answer] += 1
    return by


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_a_leads_status_does_not_give_the_answer(request, org_name):
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    pairs = [
        (conn.execute("SELECT Status FROM Lead WHERE Id = ?", (i.params["lead_id"],)).fetchone()[0], i.is_none)
        for i in generate_instances(org, N, types=["lead_qualification"], seed=3)
    ]
    for status, answers in _shares(pairs).items():
        if sum(answers.values()) >= 6:
            assert answers[True] / sum(answers.values()) <= 0.5, (status, answers)


@pytest.mark.slow
@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_an_opportunitys_recorded_stage_does_not_give_the_answer(request, org_name):
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    pairs = []
    for inst in generate_instances(org, N, types=["wrong_stage_rectification"], seed=3):
        ref = inst.params["opportunity"]
        ((stage,),) = conn.execute("SELECT StageName FROM Opportunity WHERE Id = ? OR Name = ?", (ref, ref)).fetchall()
        pairs.append((stage, inst.answer[0]))
    shares = _shares(pairs)
    assert "Closed" not in shares  # a signed deal is never asked about
    for stage, answers in shares.items():
        n = sum(answers.values())
        if n >= 6:
            assert max(answers.values()) / n <= 0.6, (stage, answers)


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_a_none_purchase_window_holds_as_many_purchases_as_an_answered_one(request, org_name):
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    for inst in generate_instances(org, N, types=["named_entity_disambiguation"], seed=3):
        account = inst.params["requester"]["account_id"]
        lo, hi = purchase_window(org.meta.as_of, inst.params["days"])
        ((n,),) = (
            conn.execute(
                'SELECT COUNT(DISTINCT i.Product2Id) FROM OrderItem i JOIN "Order" o ON o.Id = i.OrderId '
                "WHERE o.AccountId = ? AND o.Status = 'Activated' AND o.EffectiveDate BETWEEN ? AND ?",
                (account, lo.isoformat(), hi.isoformat()),
            ).fetchone(),
        )
        assert n >= 2, (inst.id, inst.answer, n)


@pytest.mark.slow
@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_an_opportunitys_structure_does_not_give_the_answer(request, org_name):
    """The review's structural rule (a planned task means the stage is right; quote statuses give
    Quote or Negotiation; few tasks mean Qualification) scored 89-90%: planned tasks existed only on
    right deals and quotes followed the true stage. It must do no better than the top answer + 10."""
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    planned = {o for (o,) in conn.execute("SELECT DISTINCT WhatId FROM Task WHERE Status = 'Not Started'")}
    quotes: dict[str, set] = defaultdict(set)
    for opp, status in conn.execute("SELECT OpportunityId, Status FROM Quote"):
        quotes[opp].add(status)
    tasks = Counter(o for (o,) in conn.execute("SELECT WhatId FROM Task"))

    def guess(opp: str, stage: str) -> str:
        if opp in planned:
            return "None"
        if quotes[opp]:
            late = quotes[opp] & {"Presented", "Approved", "Accepted"}
            pick, other = ("Negotiation", "Quote") if late else ("Quote", "Negotiation")
        else:
            pick, other = ("Qualification", "Discovery") if tasks[opp] <= 1 else ("Discovery", "Qualification")
        return other if pick == stage else pick

    instances = generate_instances(org, N, types=["wrong_stage_rectification"], seed=3)
    hits = 0
    for inst in instances:
        ref = inst.params["opportunity"]
        ((opp, stage),) = conn.execute("SELECT Id, StageName FROM Opportunity WHERE Id = ? OR Name = ?", (ref, ref))
        hits += [guess(opp, stage)] == inst.answer
    top = max(Counter(i.answer[0] for i in instances).values())
    assert hits <= top + 0.10 * N, (hits, top)

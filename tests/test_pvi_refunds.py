"""Per-case limits of the service policies (refunds, goodwill credits): "several refunds on one case
count together", across the case's email thread and its chat. A careful reader adds up what the
agent grants on their own in both (`threads.granted`); the case's label must agree with that total:
a case whose grants pass a limit together breaches that policy, and only such a case."""

from __future__ import annotations

import random

import pytest

from simulator.crm.generator import threads as T
from simulator.crm.generator.policy_rules import LIMITS

ORGS = ("b2b", "b2c")
KW = dict(
    customer="Maya Okafor",
    customer_email="maya.okafor@example.com",
    agent="Leon Weber",
    product="Widget Pro",
    issue={"name": "Broken"},
)


def _case_texts(conn) -> dict[str, str]:
    """Case Id -> everything said on it: its emails in order, then its chats."""
    out: dict[str, list[str]] = {}
    for case, body in conn.execute("SELECT ParentId, TextBody FROM EmailMessage ORDER BY ParentId, MessageDate"):
        out.setdefault(case, []).append(body or "")
    for case, body in conn.execute("SELECT CaseId, Body FROM LiveChatTranscript ORDER BY CaseId, Id"):
        out.setdefault(case, []).append(body or "")
    return {case: "\n".join(bodies) for case, bodies in out.items()}


def _labels(conn) -> dict[str, str]:
    """Case Id -> the policy key it is labelled to breach."""
    keys = {
        r: v.strip('"') for r, v in conn.execute("SELECT record_id, value FROM _truth WHERE kind = 'service_policy'")
    }
    return {
        r: keys[v.strip('"')]
        for r, v in conn.execute("SELECT record_id, value FROM _truth WHERE kind = 'policy_breach'")
    }


@pytest.mark.parametrize("kind", ORGS)
def test_case_totals_over_a_limit_are_exactly_the_labelled_breaches(scale1_org, kind):
    """The whole scale-1 org: no case passes a per-case limit across email + chat unlabelled, and
    every case labelled with a per-case limit passes it. (Generator 2.0, b2c: 3 unlabelled cases whose
    goodwill credits in the email and the chat added up to more than 15%.)"""
    conn = scale1_org(kind).connect()
    labels, wrong, granting = _labels(conn), [], 0
    for case, said in _case_texts(conn).items():
        granting += any(T.granted(said).values())
        over = T.over_limit_keys(said, kind)
        labelled = {labels[case]} & set(T.CUMULATIVE) if case in labels else set()
        if over != labelled:
            wrong.append((case, sorted(labelled), sorted(over), T.granted(said)))
    assert granting > 100, granting  # refunds and credits are common enough for the check to bite
    assert wrong == []


@pytest.mark.parametrize("kind", ORGS)
def test_grants_are_summed_across_conversations(kind):
    """Two refunds each within the limit, one per conversation, breach together; a credit withdrawn in
    the same reply is no grant."""
    refund = round(LIMITS[kind]["refund"] * 0.6, 2)
    rng = random.Random(kind)
    slots = dict(T._slots(rng, kind, **KW), refund_ok=f"${refund:,.2f}")
    said = (T.G.expand(rng, "near_no_refund_without_approval", **slots) for _ in range(200))
    email = next(s for s in said if T.granted(s)["no_refund_without_approval"] == refund)  # one refund
    assert T.over_limit_keys(email, kind) == set()
    assert T.over_limit_keys(f"{email}\n{email}", kind) == {"no_refund_without_approval"}
    withdrawn = T.G.expand(rng, "credit_withdrawn", **slots)
    assert T.granted(withdrawn)["goodwill_credit_limit"] == 0


@pytest.mark.parametrize("kind", ORGS)
def test_a_conversation_without_grants_offers_no_refund_or_credit(kind):
    """The second conversation of a case leaves refunds and credits to the first (`grants=False`),
    neither granting nor passing them to a supervisor, unless it holds the breach itself."""
    for seed in range(300):
        rng = random.Random(seed)
        chat = T.chat_transcript(rng, org=kind, breach=None, sentiment="neutral", grants=False, **KW)
        mails = "\n".join(
            m["body"]
            for m in T.case_emails(rng, org=kind, agent_email="leon@support.example", breach=None, grants=False, **KW)
        )
        for said in (chat, mails):
            assert not any(T.granted(said).values()) and not T.G.pattern(
                "ok_no_refund_without_approval", "ok_goodwill_credit_limit"
            ).search(said), said

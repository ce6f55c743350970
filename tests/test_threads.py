"""Service prose (generator.threads): every breach is found exactly when planted, in every
wording; compliant handling and near misses never read as a breach (grammar.overlaps); the
policy numbers sit on the right side of every org's limit."""

from __future__ import annotations

import random

import pytest

from simulator.crm.generator import text
from simulator.crm.generator import threads as T
from simulator.crm.generator.grammar import overlaps
from simulator.crm.generator.policy_rules import LIMITS, given_identifiers, identity_verified

ORGS = ("b2b", "b2c")
EMAIL = "maya.okafor@example.com"


def _slots(org: str, seed: int) -> dict:
    rng = random.Random(seed)
    return T._slots(rng, org, customer="Maya Okafor", customer_email=EMAIL, agent="Leon Weber",
                    product=text.products(org)[seed % 60]["name"], issue=text.issues(org)[seed % 20])


def _threads(org: str, breach: dict | None, n: int):
    rng = random.Random(7)
    for i in range(n):
        kw = dict(org=org, customer="Maya Okafor", customer_email=EMAIL, agent="Leon Weber",
                  product=text.products(org)[i % 60]["name"], issue=text.issues(org)[i % 20], breach=breach)
        yield T.chat_transcript(rng, sentiment=("positive", "neutral", "negative")[i % 3], **kw)
        yield "\n".join(m["body"] for m in T.case_emails(rng, agent_email="leon@support.example", **kw))


@pytest.mark.parametrize("org", ORGS)
def test_every_breach_found_exactly_when_planted(org):
    for pol in T.service_policies(org):
        for body in _threads(org, pol, 40):
            assert T.breach_keys(body) == {pol["key"]}, body
    for body in _threads(org, None, 150):
        assert T.breach_keys(body) == set(), body


@pytest.mark.parametrize("org", ORGS)
def test_breach_and_non_breach_rules_never_overlap(org):
    breaches = tuple(f"breach_{k}" for k in T.SERVICE_POLICY_KEYS)
    for seed in range(3):
        kw = _slots(org, seed)
        for rule in T.NOT_BREACH_RULES:
            assert overlaps(T.G, rule, breaches, random.Random(seed), samples=150, **kw) == [], rule
        for key in T.SERVICE_POLICY_KEYS:
            others = tuple(b for b in breaches if b != f"breach_{key}")
            assert overlaps(T.G, f"breach_{key}", others, random.Random(seed), samples=150, **kw) == [], key


@pytest.mark.parametrize("org", ORGS)
def test_amounts_sit_on_their_side_of_the_limits(org):
    for seed in range(300):
        kw = _slots(org, seed)
        assert float(kw["refund_over"].strip("$").replace(",", "")) > LIMITS[org]["refund"]
        assert float(kw["refund_ok"].strip("$").replace(",", "")) <= LIMITS[org]["refund"]
    assert min(T.BREACH_CREDIT_PCTS) > max(lim["credit"] for lim in LIMITS.values())
    assert max(T.OK_CREDIT_PCTS) <= min(lim["credit"] for lim in LIMITS.values())


@pytest.mark.parametrize("org", ORGS)
def test_clean_threads_verify_identity_even_when_deferred(org):
    deferred = 0
    for body in _threads(org, None, 120):
        customer = "\n".join(l for l in body.splitlines() if l.startswith("Maya Okafor: ")) if ": " in body[:40] \
            else body
        assert identity_verified(given_identifiers(customer, EMAIL)), body
        deferred += "order number" in body and ("Hang on" in body or "still looking" in body or "dig up" in body
                                                or "can't find" in body or "One sec" in body or "Give me a minute"
                                                in body or "Hold on" in body)
    assert deferred > 0


def test_field_facts_give_the_breach_span():
    body = next(_threads("b2c", T.service_policies("b2c")[6], 1))
    facts = T.FIELD_FACTS[("LiveChatTranscript", "Body")](body)
    assert [f for f, _ in facts] == ["policy_breach=goodwill_credit_limit"] and facts[0][1] in body


def test_case_text_varies_and_names_the_issue():
    iss = text.issues("b2c")[0]
    rng = random.Random(0)
    texts = {T.case_text(rng, product="Orbyt Phone S", issue=iss, customer_first="Ana") for _ in range(300)}
    assert len({s for s, _ in texts}) > 200 and len({d for _, d in texts}) > 290
    assert all("no lights" in d for _, d in texts)

"""Labels checked against their own rules: the policies' conditions are data
(`generator.policy_rules`, the rule labels of the quote articles, the BANT rules of `generator.calls`); the
generator's wordings are checked against them (sampled from its grammar rules), and so is every policy
instance drawn from the generated orgs (the conditions evaluated on the records' own text)."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from simulator.crm.generator import articles as AR
from simulator.crm.generator import calls
from simulator.crm.generator import threads as TH
from simulator.crm.generator.policy_rules import (
    IDENTIFIERS,
    IDENTITY,
    LIMITS,
    asked_identifiers,
    given_identifiers,
    identity_verified,
)
from simulator.tasks.families.policy import parse_summary
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import NONE_ANSWER

ORGS = ("b2b", "b2c")
EMAIL = "maya.okafor@example.com"
EXCHANGES = {"chat": TH.VERIFY_EXCHANGES, "email": TH.EMAIL_VERIFY_EXCHANGES}  # request rule -> reply rules
REPLIES = ("verify_give_order", "verify_give_zip")  # every identity reply rule
SAMPLES = 200  # expansions drawn from each rule (the grammar's choices, sampled)


def _texts(rule: str, org: str = "b2c", n: int = SAMPLES) -> list[str]:
    """`n` expansions of `rule` with the slots of a conversation in org `org`."""
    rng = random.Random(rule)
    return [
        TH.G.expand(
            rng,
            rule,
            **TH._slots(
                rng,
                org,
                customer="Maya Okafor",
                customer_email=EMAIL,
                agent="Leon Weber",
                product="Widget Pro",
                issue={"name": "Broken"},
            ),
        )
        for _ in range(n)
    ]


# --- identity verification: the measured defect and its rule ------------------------------------


def test_order_number_plus_zip_without_email_is_not_verification():
    """The transcript labelled compliant in issue 10: order number and billing ZIP, no email."""
    said = "My order number is 00123456 and my billing ZIP is 90210."
    assert given_identifiers(said, EMAIL) == {"order_number", "billing_zip"}
    assert not identity_verified(given_identifiers(said, EMAIL))
    assert not identity_verified(
        given_identifiers("Sure, it's someone@else.example and order number 00123456.", EMAIL)
    )  # an email, but not the one on file
    assert identity_verified(given_identifiers(f"It's {EMAIL}, ZIP is 90210.", EMAIL))


@pytest.mark.parametrize("org", ORGS)
def test_identity_article_states_the_rule(org):
    body = next(p["body"] for p in TH.service_policies(org) if p["key"] == "verify_identity")
    for key in (*IDENTITY["all_of"], *IDENTITY["any_of"]):
        assert IDENTIFIERS[key].asked_as.lower() in body.lower(), key


@pytest.mark.parametrize("channel", sorted(EXCHANGES))
def test_every_verification_exchange_complies(channel):
    """Every (request, reply) the generator pairs, rendered: the customer gives only what was asked,
    and what they give satisfies the identity rule; every request has a reply."""
    for request, replies in EXCHANGES[channel].items():
        assert replies
        asked = {frozenset(asked_identifiers(r)) for r in _texts(request)}
        for reply in replies:
            for said in _texts(reply):
                given = given_identifiers(said, EMAIL)
                assert identity_verified(given) and all(given <= a for a in asked), (request, said)


@pytest.mark.parametrize("channel", sorted(EXCHANGES))
def test_the_generator_leaves_out_exactly_the_noncompliant_pairs(channel):
    """The pairs the generator may not emit are exactly those the rendered check rejects."""
    for request, reply in itertools.product(EXCHANGES[channel], REPLIES):
        asked = asked_identifiers(_texts(request, n=1)[0])
        ok = all(identity_verified(g) and g <= asked for g in (given_identifiers(s, EMAIL) for s in _texts(reply)))
        assert ok == (reply in EXCHANGES[channel][request]), (request, reply)


def test_identity_breaches_ask_for_nothing():
    for said in _texts("breach_verify_identity"):
        assert asked_identifiers(said) == set() and given_identifiers(said, EMAIL) == set(), said


# --- every policy: breach wordings break exactly theirs (compliant ones none: tests/test_threads.py) --


def test_each_breach_wording_breaks_exactly_its_policy():
    for key in TH.SERVICE_POLICY_KEYS:
        for said in _texts(f"breach_{key}"):
            assert TH.breach_keys(said) == {key}, said


# --- approval thresholds: refunds and goodwill credits ------------------------------------------


def _percents(s: str) -> list[float]:
    return [float(p) for p in re.findall(r"(\d+(?:\.\d+)?)%", s)]


def _dollars(s: str) -> list[float]:
    return [float(d.replace(",", "")) for d in re.findall(r"\$([\d,]+\.\d\d)", s)]


@pytest.mark.parametrize("org", ORGS)
def test_threshold_articles_state_the_limits(org):
    bodies = {p["key"]: p["body"] for p in TH.service_policies(org)}
    assert f"${LIMITS[org]['refund']:,}" in bodies["no_refund_without_approval"]
    assert _percents(bodies["goodwill_credit_limit"]) == [LIMITS[org]["credit"]]


@pytest.mark.parametrize("org", ORGS)
def test_threshold_breaches_exceed_and_compliant_offers_stay_within_the_limits(org):
    refund, credit = LIMITS[org]["refund"], LIMITS[org]["credit"]
    for said in _texts("breach_no_refund_without_approval", org):
        assert _dollars(said) and sum(_dollars(said)) > refund, said
    for said in _texts("breach_goodwill_credit_limit", org):
        assert sum(_percents(said)) > credit, said
    agent_rules = [r for r in TH.NOT_BREACH_RULES if r.startswith(("ok_", "near_"))]
    for rule in agent_rules:
        for said in _texts(rule, org, 50):
            if any(d > refund for d in _dollars(said)):  # a larger refund: requested, or a supervisor's approval
                assert rule in ("ok_no_refund_without_approval", "near_refund_status") and "supervisor" in said, said
            if rule.startswith(("ok_no_refund", "near_no_refund")):  # two refunds on one case count together
                assert sum(_dollars(said)) <= refund or "supervisor" in said, said
            if any(p > credit for p in _percents(said)):  # a larger credit is only withdrawn in the same reply
                assert rule == "near_goodwill_credit_limit" and _percents(said)[-1] <= credit, said
            elif rule.endswith("goodwill_credit_limit"):  # several credits count together
                assert sum(_percents(said)) <= credit, said


# --- quote pricing and configuration: the articles state the rule labels -------------------------

PRICING = {"kind": "max_discount", "family": "Networking", "max_discount": 15}
QUANTITY = {"kind": "max_quantity", "product": "Corvid L7 Load Balancer", "max_quantity": 4}
EXCLUSIVE = {"kind": "exclusive", "products": ["Sentrel F400 Firewall", "Sentrel F1200 Firewall"]}


def _stated(rule: dict) -> dict:
    """A rule label as its Summary states it (numbers as floats)."""
    return {k: float(v) if k in ("max_discount", "max_quantity") else v for k, v in rule.items()}


def test_every_pricing_article_states_its_rule():
    for seed in range(300):  # the grammar's choices, sampled
        title, summary, body = AR.pricing_rule_article(random.Random(seed), PRICING)
        assert parse_summary(summary, ("max_discount",)) == _stated(PRICING), summary
        assert parse_summary(summary, ("max_quantity", "exclusive")) is None
        assert PRICING["family"] in title and PRICING["family"] in body
        assert set(_percents(body)) == {15.0}, body


def test_every_configuration_article_states_its_rule():
    for seed in range(300):
        title, summary, body = AR.config_rule_article(random.Random(seed), QUANTITY)
        assert parse_summary(summary, ("max_quantity",)) == _stated(QUANTITY), summary
        assert parse_summary(summary, ("max_discount", "exclusive")) is None
        assert QUANTITY["product"] in body and set(re.findall(r"\b\d+\b", body)) == {"4"}, body
        title, summary, body = AR.config_rule_article(random.Random(seed), EXCLUSIVE)
        assert parse_summary(summary, ("exclusive",)) == EXCLUSIVE, summary
        assert parse_summary(summary, ("max_discount", "max_quantity")) is None
        assert all(p in body and p in title for p in EXCLUSIVE["products"])


# --- the generated orgs: every drawn label agrees with the conditions on the records ------------


def _email_on_file(conn, org: str, case: str) -> tuple[str, str]:
    """(customer name, email on file) of a case's contact."""
    if org == "b2b":
        return conn.execute(
            'SELECT c.Name, c.Email FROM "Case" s JOIN Contact c ON c.Id = s.ContactId WHERE s.Id = ?', (case,)
        ).fetchone()
    return conn.execute(
        'SELECT c.Name, a.PersonEmail FROM "Case" s JOIN Contact c ON c.Id = s.ContactId '
        "JOIN Account a ON a.Id = s.AccountId WHERE s.Id = ?",
        (case,),
    ).fetchone()


def conversations(conn, org: str, case: str) -> list[tuple[str, str]]:
    """(agent text, customer text) of each conversation of a case: its chats and its email thread."""
    name, email = _email_on_file(conn, org, case)
    out = []
    for (body,) in conn.execute("SELECT Body FROM LiveChatTranscript WHERE CaseId = ?", (case,)):
        lines = body.splitlines()
        out.append(
            (
                "\n".join(line for line in lines if not line.startswith(name + ": ")),
                "\n".join(line for line in lines if line.startswith(name + ": ")),
            )
        )
    thread = conn.execute(
        "SELECT FromAddress, TextBody FROM EmailMessage WHERE ParentId = ? ORDER BY MessageDate", (case,)
    ).fetchall()
    if thread:
        out.append(("\n".join(b for f, b in thread if f != email), "\n".join(b for f, b in thread if f == email)))
    return out


def breached_policies(conn, org: str, case: str) -> set[str]:
    """The policy keys a case's conversations breach, by the conditions: breach phrasing, and
    order details discussed without the identity rule satisfied."""
    _, email = _email_on_file(conn, org, case)
    keys = set()
    for agent, customer in conversations(conn, org, case):
        keys |= TH.breach_keys(agent)
        if not identity_verified(given_identifiers(customer, email)):
            keys.add("verify_identity")
    return keys


def _policy_keys(conn) -> dict[str, str]:
    return {
        rid: value.strip('"')
        for rid, value in conn.execute("SELECT record_id, value FROM _truth WHERE kind = 'service_policy'")
    }


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_drawn_policy_violations_agree_with_the_conditions(request, org_name):
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    keys = _policy_keys(conn)
    instances = generate_instances(org, 30, types=["policy_violation_identification"], seed=1)
    wrong = []
    for inst in instances:
        expected = set() if inst.is_none else {keys[a] for a in inst.answer}
        found = breached_policies(conn, org.meta.org, inst.params["case_id"])
        if found != expected:
            wrong.append((inst.params["case_id"], sorted(expected), sorted(found)))
    assert len(instances) == 30 and wrong == []


def _quote_lines(conn, quote: str) -> list[tuple[str, str, float, float]]:
    return conn.execute(
        "SELECT p.Name, p.Family, l.Quantity, l.Discount FROM QuoteLineItem l "
        "JOIN Product2 p ON p.Id = l.Product2Id WHERE l.QuoteId = ?",
        (quote,),
    ).fetchall()


def _rules(conn, kind: str) -> dict[str, dict]:
    """Article Id -> its rule label; each article's Summary states that same rule."""
    rules = {}
    for rid, value, summary in conn.execute(
        "SELECT t.record_id, t.value, k.Summary FROM _truth t JOIN Knowledge__kav k ON k.Id = t.record_id "
        "WHERE t.kind = ?",
        (kind,),
    ):
        rule = json.loads(value)
        assert parse_summary(summary, (rule["kind"],)) == _stated(rule), summary
        rules[rid] = rule
    return rules


def _breaks(rule: dict, lines) -> bool:
    """Whether quote `lines` break `rule`, evaluated from the rule's data."""
    qty: dict[str, float] = {}
    for name, _, quantity, _ in lines:
        qty[name] = qty.get(name, 0.0) + quantity
    if rule["kind"] == "max_discount":
        return any(fam == rule["family"] and disc > rule["max_discount"] for _, fam, _, disc in lines)
    if rule["kind"] == "max_quantity":
        return qty.get(rule["product"], 0.0) > rule["max_quantity"]
    return all(p in qty for p in rule["products"])


NAMED_BY = {  # instance parameter -> (object, Quote field): hard names a quote through that record
    "account": ("Account", "AccountId"),
    "opportunity": ("Opportunity", "OpportunityId"),
    "owner": ("User", "OwnerId"),
}


def _named_quote(conn, params: dict) -> tuple[str, str | None]:
    """(the quote an instance poses, the first quote the records named list, any status), resolved
    in SQL: its Id (no first), or the latest checked quote of the record named by its unique Name,
    of a customer in the state given where one is."""
    if "quote_id" in params:
        return params["quote_id"], None
    ((param, (table, field)),) = [(k, v) for k, v in NAMED_BY.items() if k in params]
    assert conn.execute(f'SELECT COUNT(*) FROM "{table}" WHERE Name = ?', (params[param],)).fetchall() == [(1,)]
    state = params.get("state")
    named = (
        f'FROM Quote q JOIN "{table}" r ON r.Id = q.{field} JOIN Account a ON a.Id = q.AccountId '
        "WHERE r.Name = ? AND (? IS NULL OR a.ShippingState = ?)"
    )
    ((latest,),) = conn.execute(
        f"SELECT q.Id {named} AND q.Status IN ('Needs Review', 'In Review') ORDER BY q.CreatedDate DESC, q.Id DESC LIMIT 1",
        (params[param], state, state),
    ).fetchall()
    ((first,),) = conn.execute(
        f"SELECT q.Id {named} ORDER BY q.rowid LIMIT 1", (params[param], state, state)
    ).fetchall()
    return latest, first


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
@pytest.mark.parametrize(
    "task,kind,label,level",
    [
        ("quote_approval", "pricing_rule", "quote_violation", "standard"),
        ("invalid_config", "config_rule", "config_violation", "standard"),
        (
            "invalid_config",
            "config_rule",
            "config_violation",
            "hard",
        ),  # the small orgs' quote_approval supply no 20 at hard
    ],
)
def test_drawn_quote_checks_agree_with_the_rules(request, org_name, task, kind, label, level):
    """The quote each instance poses (named through other records at hard) breaks exactly its answer;
    at hard, the first quote those records list is another; for a quote that breaks a rule, one
    breaking other rules (a compliant quote's distractor may comply too: policy.CheckedQuoteTask
    ._named_through)."""
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    rules = _rules(conn, kind)
    generator_label = dict(
        conn.execute("SELECT record_id, json_extract(value, '$') FROM _truth WHERE kind = ?", (label,)).fetchall()
    )
    # the small b2c org yields 29 invalid_config
    instances = generate_instances(org, 20, types=[task], seed=1, difficulty=level)
    named = []
    for inst in instances:
        quote, first = _named_quote(conn, inst.params)
        broken = sorted(rid for rid, rule in rules.items() if _breaks(rule, _quote_lines(conn, quote)))
        assert broken == ([] if inst.is_none else inst.answer), quote
        assert generator_label.get(quote) == (None if inst.is_none else inst.answer[0]), quote
        if first is not None:
            named.append(next(k for k in NAMED_BY if k in inst.params))
            assert first != quote and (
                inst.is_none
                or broken != sorted(rid for rid, rule in rules.items() if _breaks(rule, _quote_lines(conn, first)))
            ), (quote, first)
    assert len(instances) == 20
    assert bool(named) == (level == "hard") and (level == "standard" or "owner" in named), named


@pytest.mark.slow
@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_drawn_bant_labels_agree_with_the_calls(request, org_name):
    """Every factor is stated in the call, and its last statement is unmet exactly for the labelled factors."""
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    for inst in generate_instances(org, 30, types=["lead_qualification"], seed=1):
        body = "\n".join(
            b
            for (b,) in conn.execute(
                "SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE LeadId__c = ?", (inst.params["lead_id"],)
            )
        )
        stated = {fact.partition("=")[0] for fact, _ in calls.facts(body)}
        assert set(calls.BANT) <= stated, (inst.params["lead_id"], stated)
        assert (calls.unmet_factors(body) or [NONE_ANSWER]) == inst.answer, inst.params["lead_id"]

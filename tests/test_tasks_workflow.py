"""Workflow task types (case and lead routing): the right agent known by construction on
hand-built orgs, the oracle's assignment checked in the session's final state, and
generation + oracle validation on the small generated orgs."""

from __future__ import annotations

import json
import random
import sys

import pytest

from simulator.crm.generator import text, threads
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.families.workflow import settle
from simulator.tasks.generate import generate_instances
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate, workflow_state
from tests.orgkit import OrgKit

# The family module, reached through the registry: importing a family module directly before
# the registry has loaded would leave the other families unregistered (see registry.registry).
workflow = sys.modules[generator_class("case_routing").__module__]

WORKFLOW_TYPES = ("case_routing", "lead_routing")
IN_LOOKBACK, BEFORE_LOOKBACK = "2026-04-01T10:00:00.000+0000", "2025-10-01T10:00:00.000+0000"


@pytest.fixture
def six_months(monkeypatch):
    """Every draw looks back 6 months (2025-12-15 to 2026-06-15 for the kit's as-of date)."""
    monkeypatch.setattr(workflow, "LOOKBACK_MONTHS", (6,))


def routed(org, name: str, expected: dict[str, str]) -> None:
    """Draw until every record of `expected` came up; check the drawn answer, then that the
    oracle's assignment leaves the record with that owner (and nothing else is ever drawn)."""
    gen = generator_class(name)(load_catalog()[name], org.connect(), org.meta)
    rng, seen = random.Random(5), set()
    for _ in range(400):
        draw = gen.draw(rng, False)
        if draw is None:
            continue
        record = draw.params["record_id"]
        assert draw.answer == [expected[record]], record
        if record not in seen:
            seen.add(record)
            with OrgSession(org) as session:
                assert gen.solve(CrmTools(session), draw.params) == draw.answer
                assert workflow_state(session, draw.params) == draw.answer
        if seen == set(expected):
            return
    raise AssertionError(f"{name}: drew only {sorted(seen)}")


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_case_routing_known_answers(tmp_path, six_months, org_type):
    kit = OrgKit(org_type)
    s1, s2, s3 = (kit.add("User", Name=f"Service {i}", ProfileId="Service Agent") for i in range(3))
    seller = kit.add("User", Name="Seller", ProfileId="Sales Agent")
    issues = text.issues(org_type)[:3]
    i1, i2, i3 = (kit.add("Issue__c", Name=i["name"], IssueDescription__c=i["description"]) for i in issues)
    rng = random.Random(0)  # each issue told in the customer's words, as the generator writes it
    issue_text = {
        k: threads.case_text(rng, product="Orbyt Phone S", issue=i, customer_first="Ana")[1]
        for k, i in zip((i1, i2, i3), issues)
    }
    p1, p2 = (kit.add("Product2", Name=f"Product {i}") for i in range(2))
    item1, item2 = (kit.add("OrderItem", Product2Id=p, Quantity=1.0, UnitPrice=10.0) for p in (p1, p2))

    def case(owner, issue, item, closed=IN_LOOKBACK, status="Working"):
        return kit.add(
            "Case",
            OwnerId=owner,
            IssueId__c=None if status == "New" else issue,
            OrderItemId__c=item,
            ClosedDate=closed,
            Status="Closed" if closed else status,
            CreatedDate="2025-09-01T10:00:00.000+0000",
            Subject="Help",
            Description=issue_text[issue],
        )

    def new_case(owner, issue, item):
        """A case not triaged yet: no issue on the record, the issue it reports as a label."""
        case_id = case(owner, issue, item, closed=None, status="New")
        kit.label("Case", case_id, "case_issue", json.dumps(issue))
        return case_id

    for owner, issue, item in (
        (s1, i1, item2),
        (s1, i1, item2),
        (s2, i1, item1),
        (s2, i1, item1),
        (s3, i1, item1),
        (s2, i2, item2),
        (s3, i2, item2),
    ):
        case(owner, issue, item)
    for _ in range(3):
        case(s1, i1, item1, closed=BEFORE_LOOKBACK)  # closed before the look-back: no expertise
        case(seller, i2, item2)  # not a service agent
    # t1 (issue i1, product p1): s1 and s2 tie on issue i1 (2 each); s2 wins on product p1.
    t1 = new_case(s3, i1, item1)
    # t2 (issue i2, product p2): s2 and s3 tie on issue and product (1, 1); s3 has fewer open cases.
    t2 = new_case(s1, i2, item2)
    for _ in range(2):  # s2's open cases; they route back to s2 (its owner), so they are never drawn
        new_case(s2, i3, item1)
    case(s1, i3, item2, closed=None)  # being worked on: triaged already, so never routed
    org = kit.build(tmp_path / "o.db")
    routed(org, "case_routing", {t1: s2, t2: s3})
    gen = generator_class("case_routing")(load_catalog()["case_routing"], org.connect(), org.meta)
    draw = next(d for d in (gen.draw(random.Random(k), False) for k in range(100)) if d and d.params["record_id"] == t1)
    assert draw.slots["description"] == issue_text[i1]
    with OrgSession(org) as session:  # the issue comes from the text alone
        assert gen.solve(CrmTools(session), draw.params) == [s2]


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_routed_cases_carry_no_issue(request, org_name):
    """A new case is routed from its text: the issue is not on the record for the agent to read."""
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    for inst in generate_instances(org, 10, types=["case_routing"]):
        status, issue = conn.execute(
            'SELECT Status, IssueId__c FROM "Case" WHERE Id = ?', (inst.params["record_id"],)
        ).fetchone()
        assert (status, issue) == ("New", None), inst.id


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_lead_routing_known_answers(tmp_path, six_months, org_type):
    kit = OrgKit(org_type)
    west = kit.add("Territory2", Name="West", Description="CA,WA,OR")
    sun = kit.add("Territory2", Name="Sun", Description="CA, NV")
    texas = kit.add("Territory2", Name="Texas", Description="TX")
    l1, l2, l3, l4 = (kit.add("User", Name=f"Seller {i}", ProfileId="Sales Agent") for i in range(4))
    for user, territory in ((l1, west), (l2, sun), (l3, texas), (l4, west)):
        kit.add("UserTerritory2Association", UserId=user, Territory2Id=territory)

    def quotes(owner, n, status="Accepted", created=IN_LOOKBACK):
        for _ in range(n):
            kit.add("Quote", Name="Q", OwnerId=owner, Status=status, CreatedDate=created)

    def lead(owner, state, status="Working - Contacted"):
        return kit.add(
            "Lead",
            LastName="Lead",
            OwnerId=owner,
            State=state,
            Status=status,
            IsConverted=0,
            CreatedDate="2026-05-01T10:00:00.000+0000",
        )

    quotes(l3, 5)  # the most accepted quotes, but Texas does not cover CA
    quotes(l1, 2)
    quotes(l2, 2)
    quotes(l4, 1)
    quotes(l4, 5, created=BEFORE_LOOKBACK)
    quotes(l4, 3, status="Presented")
    # ca (CA): l1 and l2 tie on accepted quotes (2 each); l2 owns fewer open leads.
    ca = lead(l3, "CA", status="Open - Not Contacted")
    tx = lead(l1, "TX")  # TX: only l3 is eligible
    lead(l1, "NY")  # open leads of states no territory covers are never drawn
    lead(l2, "NY")
    lead(l2, "NY", status="Closed - Not Converted")
    lead(l2, "NY", status="Closed - Not Converted")
    routed(kit.build(tmp_path / "o.db"), "lead_routing", {ca: l2, tx: l3})


def test_lead_routing_hard_counts_the_quotes_of_the_territorys_customers(tmp_path, six_months):
    """Hard counts only the accepted quotes for accounts in the lead's territory's states (Quote ->
    Account): the agent with the most quotes overall is not the one routed to."""
    kit = OrgKit("b2b")
    west = kit.add("Territory2", Name="West", Description="CA, WA")
    texas = kit.add("Territory2", Name="Texas", Description="TX")
    l1, l2, l3 = (kit.add("User", Name=f"Seller {i}", ProfileId="Sales Agent") for i in range(3))
    for user, territory in ((l1, west), (l2, west), (l3, texas)):
        kit.add("UserTerritory2Association", UserId=user, Territory2Id=territory)
    wa, tx = (kit.add("Account", Name=f"{s} Co", ShippingState=s) for s in ("WA", "TX"))
    for owner, account, n in ((l1, wa, 1), (l1, tx, 3), (l2, wa, 1)):
        for _ in range(n):
            kit.add("Quote", Name="Q", OwnerId=owner, AccountId=account, Status="Accepted", CreatedDate=IN_LOOKBACK)
    for owner, state in ((l3, "CA"), (l1, "NY"), (l1, "NY")):  # l2 owns fewer open leads than l1
        kit.add("Lead", LastName="Lead", OwnerId=owner, State=state, Status="Working - Contacted", IsConverted=0)
    org = kit.build(tmp_path / "o.db")
    spec = load_catalog()["lead_routing"]
    gen = generator_class(spec.name)(spec, org.connect(), org.meta, "hard")
    rng = random.Random(5)
    draw = next(d for d in (gen.draw(rng, False) for _ in range(200)) if d is not None)
    assert draw.params["territory_quotes"] and draw.answer == [l2]
    assert "sales territory" in draw.slots["lookback"]
    for scoped, agent in ((True, l2), (False, l1)):  # counting every quote, l1 leads 4 to 1
        with OrgSession(org) as session:
            assert gen.solve(CrmTools(session), draw.params | {"territory_quotes": scoped}) == [agent]


def test_best_candidate_needs_a_strict_winner():
    assert workflow.best_candidate({"a": (2, 0), "b": (2, -1)}) == "a"
    assert workflow.best_candidate({"a": (2, -1), "b": (2, -1)}) is None
    assert workflow.best_candidate({}) is None


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_generation_and_oracle_on_generated_orgs(request, org_name):
    org = request.getfixturevalue(org_name)
    instances = generate_instances(org, 5, types=WORKFLOW_TYPES)
    assert len(instances) == 5 * len(WORKFLOW_TYPES)
    assert all(i.params["record_object"] in ("Case", "Lead") and i.params["record_id"] for i in instances)
    conn = org.connect()
    for inst in (i for i in instances if i.task == "case_routing"):
        subject, description = conn.execute(
            'SELECT Subject, Description FROM "Case" WHERE Id = ?', (inst.params["record_id"],)
        ).fetchone()
        assert subject in inst.query and description in inst.query
    outcomes = validate(org, instances)
    assert [o.instance_id for o in outcomes if not o.ok] == []


def test_settle_asks_a_later_criterion_only_while_candidates_tie():
    asked: list[str] = []

    def criterion(name: str, scores: dict[str, int]):
        return lambda: asked.append(name) or scores

    picks = [criterion("issue", {"a": 2, "b": 2}), criterion("product", {"b": 1}), criterion("open", {})]
    assert settle(["a", "b", "c"], picks) == "b" and asked == ["issue", "product"]
    assert settle(["a", "b"], [criterion("issue", {})]) is None  # a tie left: no agent

"""Sales analytics task types: answers known by construction on hand-built orgs, and
generation + oracle validation on the small generated orgs."""

from __future__ import annotations

import random
import sys
from datetime import date

import pytest

from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.base import Window, add_months, month_run, random_month_run
from simulator.tasks.generate import generate_instances
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate
from tests.orgkit import AS_OF, OrgKit

# The family module, reached through the registry: importing a family module directly before
# the registry has loaded would leave the other families unregistered (see registry.registry).
sales_analytics = sys.modules[generator_class("sales_amount_understanding").__module__]

SALES_TYPES = ("sales_amount_understanding", "sales_cycle_understanding", "conversion_rate_comprehension")
WINDOW = Window(date(2026, 3, 1), date(2026, 6, 1), "March 2026 through May 2026")
INSIDE, OUTSIDE = "2026-04-20", "2026-02-10"  # dates inside and just before WINDOW


@pytest.fixture
def fixed_window(monkeypatch):
    """Every draw asks about WINDOW, counting agents with more than one record (the threshold
    is drawn in tests/test_none_cues.py's tests)."""
    monkeypatch.setattr(sales_analytics, "sales_window", lambda rng, today: WINDOW)
    monkeypatch.setattr(sales_analytics, "count_threshold", lambda rng, counts, want_none, keep, floor: 1)


def answers_by_extreme(org, name: str) -> dict[str, tuple[list[str], list[str] | None]]:
    """{extreme: (drawn answer, oracle answer)} over seeded draws until both extremes came up."""
    gen = generator_class(name)(load_catalog()[name], org.connect(), org.meta)
    rng, found = random.Random(3), {}
    for _ in range(200):
        draw = gen.draw(rng, False)
        if draw is not None and draw.params["extreme"] not in found:
            assert draw.params["window"] == WINDOW.to_params()
            with OrgSession(org) as session:
                found[draw.params["extreme"]] = (draw.answer, gen.solve(CrmTools(session), draw.params))
        if len(found) == 2:
            return found
    raise AssertionError(f"{name}: extremes drawn: {sorted(found)}")


def agents(kit: OrgKit, n: int) -> list[str]:
    return [kit.add("User", Name=f"Agent {i}", ProfileId="Sales Agent") for i in range(n)]


def contract(kit: OrgKit, signed: str, other: str) -> str:
    """A contract whose signature date (per org type) is `signed`; the other party's is `other`."""
    if kit.org == "b2b":
        return kit.add("Contract", CompanySignedDate=signed, CustomerSignedDate=other, Status="Activated")
    return kit.add("Contract", CustomerSignedDate=signed, Status="Activated")


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_sales_amount_known_answer(tmp_path, fixed_window, org_type):
    kit = OrgKit(org_type)
    a, b, c, d, e = agents(kit, 5)

    def order(owner, contract_id, *lines):
        order_id = kit.add("Order", OwnerId=owner, ContractId=contract_id, Status="Activated")
        for qty, price in lines:
            kit.add("OrderItem", OrderId=order_id, Quantity=float(qty), UnitPrice=price)

    order(a, contract(kit, INSIDE, OUTSIDE), (2, 100.0), (1, 50.0))
    order(a, contract(kit, INSIDE, OUTSIDE), (1, 10.0))  # a: 260 over two contracts
    order(b, contract(kit, INSIDE, INSIDE), (4, 150.0))
    order(b, contract(kit, INSIDE, INSIDE), (1, 100.0))  # b: 700, the top
    order(c, contract(kit, "2026-05-31", INSIDE), (3, 40.0))
    order(c, contract(kit, INSIDE, INSIDE), (1, 1.0))  # c: 121, the lowest
    order(c, contract(kit, OUTSIDE, INSIDE), (100, 1000.0))  # signed before the window
    order(a, None, (100, 1000.0))  # no contract: a regular order
    order(d, contract(kit, INSIDE, INSIDE), (1, 0.5))  # d: one contract, under the threshold
    big = contract(kit, INSIDE, INSIDE)
    order(e, big, (1000, 1000.0))
    order(e, big, (1000, 1000.0))  # e: two orders from ONE contract, under the threshold
    found = answers_by_extreme(kit.build(tmp_path / "o.db"), "sales_amount_understanding")
    assert found == {"highest": ([b], [b]), "lowest": ([c], [c])}


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_sales_cycle_known_answer(tmp_path, fixed_window, org_type):
    kit = OrgKit(org_type)
    a, b, c, d, e = agents(kit, 5)

    def deal(owner, created, signed):
        kit.add(
            "Opportunity",
            Name="Deal",
            OwnerId=owner,
            StageName="Closed",
            CreatedDate=created,
            ContractID__c=contract(kit, signed, OUTSIDE),
        )

    deal(a, "2026-03-21T23:59:00.000+0000", "2026-04-20")  # 30 days (counted from the calendar date)
    deal(a, "2026-02-09T08:00:00.000+0000", "2026-04-20")  # 70 days: a averages 50
    deal(b, "2026-04-10T08:00:00.000+0000", "2026-04-20")
    deal(b, "2026-04-11T08:00:00.000+0000", "2026-04-21")  # 10 days twice: the shortest
    deal(c, "2026-01-20T08:00:00.000+0000", "2026-04-20")
    deal(c, "2026-01-21T08:00:00.000+0000", "2026-04-21")  # 90 days twice: the longest
    deal(b, "2025-01-01T08:00:00.000+0000", OUTSIDE)  # signed before the window
    deal(d, "2026-04-19T08:00:00.000+0000", "2026-04-20")  # d: one deal, under the threshold
    deal(e, "2025-06-01T08:00:00.000+0000", "2026-04-20")  # e: one deal, under the threshold
    found = answers_by_extreme(kit.build(tmp_path / "o.db"), "sales_cycle_understanding")
    assert found == {"shortest": ([b], [b]), "longest": ([c], [c])}


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_conversion_rate_known_answer(tmp_path, fixed_window, org_type):
    kit = OrgKit(org_type)
    a, b, c, d, e = agents(kit, 5)

    def leads(owner, total, converted, created=f"{INSIDE}T10:00:00.000+0000"):
        for i in range(total):
            kit.add(
                "Lead",
                LastName="Lead",
                OwnerId=owner,
                CreatedDate=created,
                IsConverted=int(i < converted),
                Status="Closed - Converted" if i < converted else "Working - Contacted",
            )

    leads(a, 4, 3)  # 0.75
    leads(b, 5, 1)  # 0.20: the lowest of the qualifying agents
    leads(c, 4, 2)  # 0.50
    leads(d, 3, 3)  # 1.00: the highest
    leads(e, 1, 0)  # 0.00, but not more leads than the threshold
    leads(b, 6, 6, created="2026-02-10T10:00:00.000+0000")  # created before the window
    found = answers_by_extreme(kit.build(tmp_path / "o.db"), "conversion_rate_comprehension")
    assert found == {"highest": ([d], [d]), "lowest": ([b], [b])}


def test_month_runs_stay_within_the_last_two_years():
    rng = random.Random(0)
    windows = [random_month_run(rng, AS_OF, (1, 2, 12)) for _ in range(200)]
    for window in windows:
        assert window.start.day == 1 and window.end <= date(AS_OF.year, AS_OF.month, 1)
        assert window.start >= add_months(date(AS_OF.year, AS_OF.month, 1), -24)
    assert month_run(date(2025, 3, 1), 6).text == "March 2025 through August 2025"
    assert month_run(date(2025, 5, 1), 1).text == "May 2025"


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_generation_and_oracle_on_generated_orgs(request, org_name):
    org = request.getfixturevalue(org_name)
    instances = generate_instances(org, 5, types=SALES_TYPES)
    assert len(instances) == 5 * len(SALES_TYPES)
    outcomes = validate(org, instances)
    assert [o.instance_id for o in outcomes if not o.ok] == []


def test_the_names_vocabulary_the_yaml_declares_is_what_the_generator_draws_from():
    """The scorer reads a names answer's vocabulary from the task YAML; the org generator draws the
    calls' competitors and subtopics from its own lists: the two must not drift apart."""
    from simulator.crm.generator.latent import SUBTOPICS
    from simulator.crm.generator.text import competitors

    vocabulary = load_catalog()["sales_insight_mining"].vocabulary
    assert vocabulary == {"negative": SUBTOPICS, "competitors": tuple(competitors())}

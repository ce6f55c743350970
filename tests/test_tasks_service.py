"""Service analytics task types: answers known by construction on hand-built orgs, and
generation + oracle validation on the small generated orgs."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from itertools import pairwise

import pytest

from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.base import Window, past_window, random_month_run
from simulator.tasks.families.service_analytics import window_months, year_window
from simulator.tasks.generate import generate_instances
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate
from tests.orgkit import AS_OF, OrgKit

SERVICE_TYPES = (
    "handle_time",
    "transfer_count",
    "best_region_identification",
    "top_issue_identification",
    "monthly_trend_analysis",
)
RECENT = datetime(2026, 6, 1, 9)  # inside every "past N months" window of AS_OF, in no quarter/season/span


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000+0000")


class ServiceOrg:
    """An OrgKit with shorthands for the rows service tasks read."""

    def __init__(self, org: str = "b2b"):
        self.kit = OrgKit(org)
        self.account = self.kit.add("Account", Name="Default", ShippingState="CA")

    def agent(self, name: str) -> str:
        return self.kit.add("User", Name=name, ProfileId="Service Agent")

    def case(
        self,
        owner: str,
        created: datetime,
        days: float | None = 1.0,
        *,
        account: str | None = None,
        item: str | None = None,
        issue: str | None = None,
        moves: tuple[str, ...] = (),
    ) -> str:
        """A case created at `created`, closed `days` later (None: open), its history with the
        first assignment to moves[0] (or owner) and a transfer along each later hop."""
        closed = None if days is None else stamp(created + timedelta(days=days))
        case_id = self.kit.add(
            "Case",
            OwnerId=owner,
            AccountId=account or self.account,
            CreatedDate=stamp(created),
            ClosedDate=closed,
            Status="Closed" if closed else "Working",
            OrderItemId__c=item,
            IssueId__c=issue,
        )
        hops = list(moves) + [owner] if moves else [owner]
        self.kit.add(
            "CaseHistory__c",
            CaseId__c=case_id,
            CreatedDate=stamp(created),
            Field__c="Owner Assignment",
            OldValue__c=None,
            NewValue__c=hops[0],
        )
        for old, new in pairwise(hops):
            self.kit.add(
                "CaseHistory__c",
                CaseId__c=case_id,
                CreatedDate=stamp(created + timedelta(hours=1)),
                Field__c="Owner Assignment",
                OldValue__c=old,
                NewValue__c=new,
            )
        return case_id

    def product(self, name: str) -> tuple[str, str]:
        """(Product2 Id, Id of one order item of it)."""
        product = self.kit.add("Product2", Name=name)
        return product, self.kit.add("OrderItem", Product2Id=product, Quantity=1, UnitPrice=10.0)

    def build(self, tmp_path):
        return self.kit.build(tmp_path / "o.db")


def draws(org, name: str, *, want_none: bool = False, count: int = 6, seed: int = 1) -> list:
    """`count` successful draws of task type `name` (seeded)."""
    gen = generator_class(name)(load_catalog()[name], org.connect(), org.meta)
    rng, found = random.Random(seed), []
    for _ in range(3000):
        draw = gen.draw(rng, want_none)
        if draw is not None:
            found.append(draw)
            if len(found) == count:
                return found
    raise AssertionError(f"{name}: only {len(found)} draws")


def solved(org, name: str, params: dict):
    with OrgSession(org) as session:
        return generator_class(name)(load_catalog()[name], None, org.meta).solve(CrmTools(session), params)


def check(org, name: str, expected, *, want_none: bool = False, count: int = 6) -> list:
    """Every draw's answer is `expected(params)` and the oracle finds it too."""
    found = draws(org, name, want_none=want_none, count=count)
    for draw in found:
        assert draw.answer == expected(draw.params), draw.params
        assert solved(org, name, draw.params) == draw.answer, draw.params
    return found


def qualified(table: dict, threshold_key: str, words: tuple[str, str] = ("lowest", "highest")):
    """expected(params) for a ranking over the groups of `table` {group: (count, figure)} that
    have more than params[threshold_key] counted records; None when no group qualifies."""

    def expected(p):
        figures = {g: v for g, (count, v) in table.items() if count > p[threshold_key]}
        if not figures:
            return None
        return [(max if p["extreme"] == words[1] else min)(figures, key=figures.get)]

    return expected


def test_handle_time_skips_transferred_cases(tmp_path):
    so = ServiceOrg()
    fast, mid, slow, few = so.agent("Fast"), so.agent("Mid"), so.agent("Slow"), so.agent("Few")
    plan = [(fast, 5, 1.0), (mid, 4, 2.0), (slow, 6, 5.0), (few, 2, 0.5)]
    for agent, count, days in plan:
        for k in range(count):
            so.case(agent, RECENT + timedelta(days=k), days)
    for _ in range(4):
        so.case(few, RECENT, 40.0, moves=(mid,))  # transferred: not counted, or Few would qualify
    so.case(slow, RECENT, None)  # open: not counted
    org = so.build(tmp_path)
    table = {agent: (count, days) for agent, count, days in plan}
    found = check(org, "handle_time", qualified(table, "min_cases"))
    found += check(org, "handle_time", qualified(table, "min_cases"), want_none=True)
    assert {d.params["extreme"] for d in found} == {"lowest", "highest"}
    assert {d.params["min_cases"] for d in found if d.answer is None} <= set(range(6, 11))


def test_transfer_count_credits_the_agent_who_passed_the_case_on(tmp_path):
    so = ServiceOrg()
    a, b, c, d, e, f = (so.agent(n) for n in "ABCDEF")
    for agent, count in ((a, 3), (b, 2), (c, 3), (d, 2), (e, 2), (f, 2)):
        for k in range(count):
            so.case(agent, RECENT + timedelta(days=k))
    so.case(b, RECENT, moves=(a,))  # A -> B
    so.case(c, RECENT, moves=(a, b))  # A -> B -> C
    for _ in range(3):
        so.case(a, RECENT, moves=(d,))  # D passes on the most, but owns two cases: never qualifies
    so.case(c, datetime(2023, 1, 5), moves=(c, a))  # outside every window
    org = so.build(tmp_path)
    # owned: A 6, C 4, B 3, D E F 2 (the threshold is 2 to 6); transfers: A 2, B 1, C 0, D 3, E F 0
    table = {a: (6, 2), b: (3, 1), c: (4, 0), d: (2, 3), e: (2, 0), f: (2, 0)}
    found = check(org, "transfer_count", qualified(table, "min_cases"))
    assert {x.params["extreme"] for x in found} == {"lowest", "highest"}


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_best_region_by_account_state(tmp_path, kind):
    so = ServiceOrg(kind)
    agent = so.agent("A")
    states = {s: so.kit.add("Account", Name=f"Acct {s}", ShippingState=s) for s in ("CA", "TX", "NY", "NH", "NV", "OR")}
    plan = [("CA", 1.0, 9), ("TX", 3.0, 7), ("NY", 5.5, 8), ("NH", 3.0, 4), ("NV", 0.1, 3), ("OR", 9.0, 3)]
    for k, (state, days, count) in enumerate(plan):
        for j in range(count):
            so.case(agent, RECENT + timedelta(hours=10 * k + j), days, account=states[state])
    so.case(agent, RECENT, None, account=states["NY"])  # open: ignored
    so.case(agent, datetime(2023, 3, 1), 0.1, account=states["NY"])  # outside every window
    org = so.build(tmp_path)
    table = {state: (count, days) for state, days, count in plan}
    found = check(org, "best_region_identification", qualified(table, "min_cases"), count=12)
    assert {d.params["extreme"] for d in found} == {"lowest", "highest"}
    assert min(d.params["min_cases"] for d in found) >= 3  # NV's and OR's three cases never qualify


def test_top_issue_is_per_product(tmp_path):
    so = ServiceOrg()
    agent = so.agent("A")
    (p1, item1), (p2, item2) = so.product("Widget One"), so.product("Gadget's Two")
    i1, i2, i3 = (so.kit.add("Issue__c", Name=n) for n in ("Noise", "Crash", "Leak"))
    plan = [(item1, i1)] * 2 + [(item1, i2)] * 4 + [(item1, i3)] + [(item2, i1)] * 6
    for k, (item, issue) in enumerate(plan):
        so.case(agent, RECENT + timedelta(hours=k), item=item, issue=issue)
    org = so.build(tmp_path)
    found = check(org, "top_issue_identification", lambda p: [{p1: i2, p2: i1}[p["product_id"]]])
    assert {d.params["product_id"] for d in found} == {p1, p2}
    assert {d.params["product_name"] for d in found} == {"Widget One", "Gadget's Two"}


def test_monthly_trend_peak_or_none(tmp_path):
    so = ServiceOrg()
    agent = so.agent("A")
    (peaked, item1), (flat, item2) = so.product("Peaked"), so.product("Flat")
    for k in range(5):
        so.case(agent, datetime(2025, 3, 3 + k, 10), item=item1)
    for k in range(3):
        so.case(agent, datetime(2025, 7, 3 + k, 10), item=item1)
        so.case(agent, datetime(2025, 3, 10 + k, 10), item=item2)
        so.case(agent, datetime(2025, 7, 10 + k, 10), item=item2)
    org = so.build(tmp_path)
    found = check(org, "monthly_trend_analysis", lambda p: ["March"])
    assert {d.params["product_id"] for d in found} == {peaked}
    found = check(org, "monthly_trend_analysis", lambda p: None, want_none=True)
    assert {d.params["product_id"] for d in found} == {flat}


def test_month_windows_never_repeat_a_month_name():
    rng = random.Random(3)
    windows = [past_window(AS_OF, m) for m in (4, 6, 9)] + [year_window(2025)]
    windows += [random_month_run(rng, AS_OF, range(4, 9)) for _ in range(50)]
    for window in windows:
        months = window_months(window)
        assert len(months) == len(set(months)) and window.end <= AS_OF + timedelta(days=1)
    assert window_months(past_window(AS_OF, 9)) == [9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
    span = Window(date(2025, 11, 1), date(2026, 3, 1), "")
    assert window_months(span) == [11, 12, 1, 2]
    with pytest.raises(ValueError):
        window_months(past_window(AS_OF, 12))


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_generated_instances_pass_the_oracle(request, kind):
    org = request.getfixturevalue(f"{kind}_org")
    instances = generate_instances(org, 5, types=SERVICE_TYPES, seed=11)
    assert len(instances) == 5 * len(SERVICE_TYPES)
    failures = [o for o in validate(org, instances) if not o.ok]
    assert not failures, failures[:3]
    nones = [i for i in instances if i.task == "monthly_trend_analysis" and i.is_none]
    assert len(nones) == 1  # round(5 * 0.2)

"""Sales analytics: order amounts, sales-cycle lengths and lead conversion rates per agent.

Every type ranks the sales agents on one per-agent figure over a time window and asks for the
agent at one end. `draw` computes the figures with direct SQL; `solve` recomputes them from
records fetched with SOQL only.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date
from functools import cached_property

from ...crm.tools import CrmTools
from ..base import (Draw, TaskGenerator, Window, count_threshold, parse_datetime, random_month_run,
                    random_window, unique_extreme)
from ..registry import register
from .levels import answer_gap, fits, months

MIN_AGENTS = 3  # fewer agents with a figure in the window: too thin a question
HISTORY_MONTHS = 30  # month runs reach back before the first contract (about 22 months back)


def sales_window(rng: random.Random, today: date) -> Window:
    """A window a sales manager might ask about: the past N months or quarters, a calendar
    quarter or season, one calendar month, or a run of calendar months."""
    if rng.random() < 0.5:
        return random_window(rng, today)
    return random_month_run(rng, today, (1, 1, 2, 3, 4, 5, 6, 8, 12), HISTORY_MONTHS)


def signed_field(org: str) -> str:
    """The Contract field holding the signature date: the company's in B2B, the customer's in B2C."""
    return "CompanySignedDate" if org == "b2b" else "CustomerSignedDate"


def averages(values: dict[str, list[float]]) -> dict[str, float]:
    """The mean of every non-empty list."""
    return {k: sum(v) / len(v) for k, v in values.items() if v}


class AgentRanking(TaskGenerator):
    """Shared shape: a window, a direction, a per-agent figure; the agent at the chosen end.

    Subclasses give `EXTREMES` (the words for lowest and highest), `MARGIN` (how close the
    runner-up may come before the draw is rejected) and `figures` (per-agent values in a window).
    """

    EXTREMES: tuple[str, str] = ("lowest", "highest")
    MARGIN: float = 1e-9

    def figures(self, window: Window) -> dict[str, float]:
        """Per-agent figure over `window`, with direct SQL."""
        raise NotImplementedError

    @cached_property
    def first_signed(self) -> date:
        """The day the first contract was signed."""
        return date.fromisoformat(self.sql(f"SELECT MIN({signed_field(self.org)}) FROM Contract")[0][0])

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = sales_window(rng, self.today)
        extreme = rng.choice(self.EXTREMES)
        params = {"window": window.to_params(), "extreme": extreme}
        slots = {"extreme": extreme, "window": window.text}
        if not fits(self, window_months=months(window)):
            return None
        if want_none:  # the window ends before the first contract was signed
            return Draw(params, slots, None) if window.end <= self.first_signed else None
        values = self.figures(window)
        if len(values) < MIN_AGENTS:
            return None
        answer = unique_extreme(values, extreme == self.EXTREMES[1], self.MARGIN)
        if answer is None or not fits(self, runner_up_gap=answer_gap(values, extreme == self.EXTREMES[1], answer)):
            return None
        return Draw(params, slots, [answer])

    def rank(self, values: dict[str, float], params: dict) -> list[str] | None:
        """The oracle's pick from its own figures."""
        answer = unique_extreme(values, params["extreme"] == self.EXTREMES[1])
        return None if answer is None else [answer]


@register
class SalesAmount(AgentRanking):
    """Agent (Order.OwnerId) with the top/lowest total order amount for contracts signed in the window."""

    name = "sales_amount_understanding"
    MARGIN = 1.0  # currency units

    def figures(self, window: Window) -> dict[str, float]:
        signed = signed_field(self.org)
        rows = self.sql(
            "SELECT o.OwnerId, SUM(i.Quantity * i.UnitPrice) FROM OrderItem i JOIN \"Order\" o ON o.Id = i.OrderId "
            f"JOIN Contract c ON c.Id = o.ContractId WHERE c.{signed} >= ? AND c.{signed} < ? GROUP BY o.OwnerId",
            window.bounds("date"))
        return dict(rows)

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        items = self.fetch_all(tools, "SELECT Id, Quantity, UnitPrice, Order.OwnerId FROM OrderItem",
                               window.soql(f"Order.Contract.{signed_field(self.org)}", "date"))
        totals: dict[str, float] = defaultdict(float)
        for item in items:
            totals[item["Order"]["OwnerId"]] += item["Quantity"] * item["UnitPrice"]
        return self.rank(totals, params)


@register
class SalesCycle(AgentRanking):
    """Agent (Opportunity.OwnerId) with the shortest/longest average days from opportunity
    creation to contract signature, over contracts signed in the window."""

    name = "sales_cycle_understanding"
    EXTREMES = ("shortest", "longest")
    MARGIN = 0.05  # days

    def figures(self, window: Window) -> dict[str, float]:
        signed = signed_field(self.org)
        rows = self.sql(
            f"SELECT op.OwnerId, AVG(julianday(c.{signed}) - julianday(substr(op.CreatedDate, 1, 10))) "
            "FROM Opportunity op JOIN Contract c ON c.Id = op.ContractID__c "
            f"WHERE c.{signed} >= ? AND c.{signed} < ? GROUP BY op.OwnerId", window.bounds("date"))
        return dict(rows)

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        signed = signed_field(self.org)
        opps = self.fetch_all(tools, f"SELECT Id, OwnerId, CreatedDate, ContractID__r.{signed} FROM Opportunity",
                              window.soql(f"ContractID__r.{signed}", "date"))
        days: dict[str, list[float]] = defaultdict(list)
        for opp in opps:
            span = date.fromisoformat(opp["ContractID__r"][signed]) - parse_datetime(opp["CreatedDate"]).date()
            days[opp["OwnerId"]].append(span.days)
        return self.rank(averages(days), params)


@register
class ConversionRate(AgentRanking):
    """Agent (Lead.OwnerId) with the highest/lowest share of converted leads among the leads
    created in the window, among agents with more than N such leads."""

    name = "conversion_rate_comprehension"
    KEEP = 4  # at least this many agents pass the lead-count threshold

    def lead_counts(self, window: Window) -> list[tuple[str, int, int]]:
        """(owner, leads, converted leads) over the leads created in `window`."""
        return self.sql("SELECT OwnerId, COUNT(*), SUM(IsConverted) FROM Lead WHERE CreatedDate >= ? "
                        "AND CreatedDate < ? GROUP BY OwnerId", window.bounds())

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = sales_window(rng, self.today)
        extreme = rng.choice(self.EXTREMES)
        if not fits(self, window_months=months(window)):
            return None
        rows = self.lead_counts(window)
        min_leads = count_threshold(rng, [n for _, n, _ in rows], want_none, self.KEEP, floor=3)
        if min_leads is None:
            return None
        rates = {owner: won / n for owner, n, won in rows if n > min_leads}
        answer = unique_extreme(rates, extreme == "highest", self.MARGIN)
        if (answer is None) != want_none or not fits(
                self, runner_up_gap=answer_gap(rates, extreme == "highest", answer)):
            return None  # a tie is no fair question; None only when no agent qualifies
        params = {"window": window.to_params(), "extreme": extreme, "min_leads": min_leads}
        slots = {"extreme": extreme, "window": window.text, "min_leads": str(min_leads)}
        return Draw(params, slots, None if want_none else [answer])

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        in_window = Window.from_params(params["window"]).soql("CreatedDate")

        def per_owner(extra: str = "") -> dict[str, int]:
            rows = self.soql(tools, f"SELECT OwnerId, COUNT(Id) n FROM Lead WHERE {in_window}{extra} GROUP BY OwnerId")
            return {r["OwnerId"]: r["n"] for r in rows}

        totals, converted = per_owner(), per_owner(" AND IsConverted = true")
        rates = {o: converted.get(o, 0) / n for o, n in totals.items() if n > params["min_leads"]}
        return self.rank(rates, params)

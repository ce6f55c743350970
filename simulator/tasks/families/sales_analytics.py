"""Sales analytics: order amounts, sales-cycle lengths and lead conversion rates per agent.

Every type ranks the sales agents with more than N counted records (contracts, leads) in a time
window on one per-agent figure and asks for the agent at one end; None when no agent has that
many. `draw` computes the figures with direct SQL; `solve` recomputes them from
records fetched with SOQL only.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date

from ...crm.tools import CrmTools
from ..base import (
    Draw,
    TaskGenerator,
    Window,
    count_threshold,
    parse_datetime,
    random_month_run,
    random_window,
    unique_extreme,
)
from ..registry import register
from .levels import answer_gap, fits, months
from .territory import Scope, bites, covers, draw_scope, fewer, resolve, scope_params, slot, soql_and, where


def sales_window(rng: random.Random, today: date) -> Window:
    """A window a sales manager might ask about: the past N months or quarters, a calendar
    quarter or season, one calendar month, or a run of calendar months."""
    if rng.random() < 0.5:
        return random_window(rng, today)
    return random_month_run(rng, today, (1, 1, 2, 3, 4, 5, 6, 8, 12))


def signed_field(org: str) -> str:
    """The Contract field holding the signature date: the company's in B2B, the customer's in B2C."""
    return "CompanySignedDate" if org == "b2b" else "CustomerSignedDate"


def account_state(alias: str) -> str:
    """Direct SQL: the shipping state of the account of the record aliased `alias`."""
    return f"(SELECT a.ShippingState FROM Account a WHERE a.Id = {alias}.AccountId)"


def averages(values: dict[str, list[float]]) -> dict[str, float]:
    """The mean of every non-empty list."""
    return {k: sum(v) / len(v) for k, v in values.items() if v}


class AgentRanking(TaskGenerator):
    """Shared shape: a window, a direction, a per-agent figure over the agents with more than N
    counted records in the window; the agent at the chosen end, None when no agent qualifies.

    Subclasses give `EXTREMES` (the words for lowest and highest), `MARGIN` (how close the
    runner-up may come before the draw is rejected), `COUNTED` (the threshold's parameter and
    slot), `KEEP`/`FLOOR` (see `count_threshold`), `WHOSE` (what a territory-scoped question
    counts: simulator/tasks/families/territory.py) and `tallies` (per agent, the count and the
    figure, with direct SQL).
    """

    EXTREMES: tuple[str, str] = ("lowest", "highest")
    MARGIN: float = 1e-9
    COUNTED: str = "min_contracts"
    max_answer_share = 0.25  # the busiest agents pass most thresholds: no one of them answers more
    KEEP, FLOOR = 4, 1  # see count_threshold (contracts are few: a month holds one or two an agent)
    WHOSE: str = "orders from customers"  # what a territory-scoped question counts

    def tallies(self, window: Window, scope: Scope | None) -> dict[str, tuple[int, float]]:
        """Per agent, the records counted against the threshold and the figure, over `window`
        (only the customers of the territory `scope`, if given)."""
        raise NotImplementedError

    def tallied(self, window: Window, scope: Scope | None) -> dict[str, tuple[int, float]]:
        """`tallies`, computed once per window and territory."""
        return self.memo((window, scope), lambda: self.tallies(window, scope))

    @staticmethod
    def qualifying(tallies: dict[str, tuple[int, float]], n: int) -> dict[str, float]:
        """The figure of every agent with more than `n` counted records."""
        return {agent: figure for agent, (count, figure) in tallies.items() if count > n}

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = sales_window(rng, self.today)
        extreme = rng.choice(self.EXTREMES)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        tallies = self.tallied(window, scope)
        n = count_threshold(
            rng, [count for count, _ in tallies.values()], want_none, fewer(scope, self.KEEP), fewer(scope, self.FLOOR)
        )
        if n is None:
            return None
        highest = extreme == self.EXTREMES[1]
        values = self.qualifying(tallies, n)
        answer = unique_extreme(values, highest, self.MARGIN)
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(values, highest, answer))
            or not bites(scope, answer, lambda: unique_extreme(self.qualifying(self.tallied(window, None), n), highest))
        ):
            return None  # a tie is no fair question; None only when no agent qualifies
        params = {"window": window.to_params(), "extreme": extreme, self.COUNTED: n, **scope_params(scope)}
        slots = {"extreme": extreme, "window": window.text, "scope": slot(scope, self.WHOSE), self.COUNTED: str(n)}
        return Draw(params, slots, None if answer is None else [answer])

    def rank(self, counts: dict[str, int], values: dict[str, float], params: dict) -> list[str] | None:
        """The oracle's pick from its own counts and figures."""
        qualifying = {agent: v for agent, v in values.items() if counts.get(agent, 0) > params[self.COUNTED]}
        answer = unique_extreme(qualifying, params["extreme"] == self.EXTREMES[1])
        return None if answer is None else [answer]


@register
class SalesAmount(AgentRanking):
    """Agent (Order.OwnerId) with the top/lowest total order amount for contracts signed in the
    window, among agents with more than N such contracts."""

    name = "sales_amount_understanding"
    MARGIN = 1.0  # currency units

    def tallies(self, window: Window, scope: Scope | None) -> dict[str, tuple[int, float]]:
        signed = signed_field(self.org)
        rows = self.sql(
            "SELECT o.OwnerId, COUNT(DISTINCT o.ContractId), SUM(i.Quantity * i.UnitPrice) FROM OrderItem i "
            f'JOIN "Order" o ON o.Id = i.OrderId JOIN Contract c ON c.Id = o.ContractId WHERE c.{signed} >= ? '
            f"AND c.{signed} < ?{where(scope, account_state('o'))} GROUP BY o.OwnerId",
            window.bounds("date"),
        )
        return {owner: (count, total) for owner, count, total in rows}

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        items = self.fetch_all(
            tools,
            "SELECT Id, Quantity, UnitPrice, Order.OwnerId, Order.ContractId, Order.Account.ShippingState FROM OrderItem",
            window.soql(f"Order.Contract.{signed_field(self.org)}", "date"),
        )
        scope = resolve(tools, params)
        totals: dict[str, float] = defaultdict(float)
        contracts: dict[str, set[str]] = defaultdict(set)
        for item in items:
            if not covers(scope, (item["Order"].get("Account") or {}).get("ShippingState")):
                continue
            owner = item["Order"]["OwnerId"]
            totals[owner] += item["Quantity"] * item["UnitPrice"]
            contracts[owner].add(item["Order"]["ContractId"])
        return self.rank({o: len(c) for o, c in contracts.items()}, totals, params)


@register
class SalesCycle(AgentRanking):
    """Agent (Opportunity.OwnerId) with the shortest/longest average days from opportunity
    creation to contract signature, over contracts signed in the window, among agents with more
    than N such contracts."""

    name = "sales_cycle_understanding"
    EXTREMES = ("shortest", "longest")
    MARGIN = 0.05  # days
    WHOSE = "deals with customers"

    def tallies(self, window: Window, scope: Scope | None) -> dict[str, tuple[int, float]]:
        signed = signed_field(self.org)
        rows = self.sql(
            f"SELECT op.OwnerId, COUNT(*), AVG(julianday(c.{signed}) - julianday(substr(op.CreatedDate, 1, 10))) "
            "FROM Opportunity op JOIN Contract c ON c.Id = op.ContractID__c "
            f"WHERE c.{signed} >= ? AND c.{signed} < ?{where(scope, account_state('op'))} GROUP BY op.OwnerId",
            window.bounds("date"),
        )
        return {owner: (count, days) for owner, count, days in rows}

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        signed = signed_field(self.org)
        opps = self.fetch_all(
            tools,
            f"SELECT Id, OwnerId, CreatedDate, ContractID__r.{signed}, Account.ShippingState FROM Opportunity",
            window.soql(f"ContractID__r.{signed}", "date"),
        )
        scope = resolve(tools, params)
        days: dict[str, list[float]] = defaultdict(list)
        for opp in opps:
            if not covers(scope, (opp.get("Account") or {}).get("ShippingState")):
                continue
            span = date.fromisoformat(opp["ContractID__r"][signed]) - parse_datetime(opp["CreatedDate"]).date()
            days[opp["OwnerId"]].append(span.days)
        return self.rank({o: len(v) for o, v in days.items()}, averages(days), params)


@register
class ConversionRate(AgentRanking):
    """Agent (Lead.OwnerId) with the highest/lowest share of converted leads among the leads
    created in the window, among agents with more than N such leads."""

    name = "conversion_rate_comprehension"
    COUNTED = "min_leads"
    KEEP, FLOOR = 8, 3
    WHOSE = "leads"

    def tallies(self, window: Window, scope: Scope | None) -> dict[str, tuple[int, float]]:
        rows = self.sql(
            "SELECT OwnerId, COUNT(*), SUM(IsConverted) FROM Lead WHERE CreatedDate >= ? "
            f"AND CreatedDate < ?{where(scope, 'State')} GROUP BY OwnerId",
            window.bounds(),
        )
        return {owner: (n, won / n) for owner, n, won in rows}

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        in_window = Window.from_params(params["window"]).soql("CreatedDate") + soql_and(resolve(tools, params), "State")

        def per_owner(extra: str = "") -> dict[str, int]:
            rows = self.soql(tools, f"SELECT OwnerId, COUNT(Id) n FROM Lead WHERE {in_window}{extra} GROUP BY OwnerId")
            return {r["OwnerId"]: r["n"] for r in rows}

        totals, converted = per_owner(), per_owner(" AND IsConverted = true")
        return self.rank(totals, {o: converted.get(o, 0) / n for o, n in totals.items()}, params)

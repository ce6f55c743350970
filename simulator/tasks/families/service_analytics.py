"""Service analytics: handle time, transfers, regions, top issues, monthly trends.

Every type here ranks a group (agents, states, issues, months) by a number computed over
the cases created in a time window. `draw` computes the ranking with direct SQL on the org
file; `solve` recomputes it with SOQL through the agent's tools (aggregate queries where
SOQL can express the number, paged record fetches where it cannot, e.g. date differences).
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date
from functools import cached_property
from typing import ClassVar

from ...crm.tools import CrmTools
from ..base import (
    MONTHS,
    Draw,
    OracleError,
    TaskGenerator,
    Window,
    add_months,
    count_threshold,
    parse_datetime,
    past_window,
    random_month_run,
    random_window,
    soql_string,
    unique_extreme,
)
from ..registry import register
from .levels import answer_gap, fits, months
from .territory import Scope, bites, covers, draw_scope, fewer, resolve, scope_params, slot, soql_and, where

EXTREMES = ("lowest", "highest")
TRANSFER_ROW = "h.Field__c = 'Owner Assignment' AND h.OldValue__c IS NOT NULL"  # a CaseHistory__c transfer
TRANSFERRED = f"SELECT 1 FROM CaseHistory__c h WHERE h.CaseId__c = c.Id AND {TRANSFER_ROW}"
DAYS_BETWEEN = "julianday(substr({end}, 1, 19)) - julianday(substr({start}, 1, 19))"
CASE_PRODUCT = "(SELECT oi.Product2Id FROM OrderItem oi WHERE oi.Id = c.OrderItemId__c)"
CASE_STATE = "(SELECT a.ShippingState FROM Account a WHERE a.Id = c.AccountId)"
CUSTOMERS = "cases from customers"  # how a territory-scoped question words what it counts
HISTORY_MONTHS = 40  # month runs may reach back before the first case (about 29 months back)


# --- shared helpers --------------------------------------------------------------------------


def _grouped_counts(tools: CrmTools, query: str, key: str) -> dict:
    """{group value: COUNT} from an aggregate SOQL query whose count is its first unaliased
    aggregate (`expr0`); rows with a null group are dropped."""
    return {r[key]: r["expr0"] for r in TaskGenerator.soql(tools, query) if r[key] is not None}


def _span_days(record: dict, start: str = "CreatedDate", end: str = "ClosedDate") -> float:
    """Days from `start` to `end` of a returned record."""
    return (parse_datetime(record[end]) - parse_datetime(record[start])).total_seconds() / 86400


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _averages_over(rows: list[tuple], n: int) -> dict[str, float]:
    """{group: average} of the (group, count, average) rows whose count is more than `n`."""
    return {group: avg for group, count, avg in rows if count > n}


# --- windows of whole months (month names must be unambiguous) ----------------------------


def agent_window(rng: random.Random, today: date) -> Window:
    """The past months, a quarter or a season (two draws in three), or a run of two to nine whole
    calendar months."""
    if rng.random() < 2 / 3:
        return random_window(rng, today)
    return random_month_run(rng, today, range(2, 10))


def year_window(year: int) -> Window:
    return Window(date(year, 1, 1), date(year + 1, 1, 1), f"calendar year {year}")


def window_months(window: Window) -> list[int]:
    """The calendar month numbers a window touches, in order (never one twice: <= 12 months)."""
    months, d = [], date(window.start.year, window.start.month, 1)
    while d < window.end:
        months.append(d.month)
        d = add_months(d, 1)
    if len(set(months)) != len(months):
        raise ValueError(f"window {window.text!r} repeats a month name")
    return months


class _ProductTask(TaskGenerator):
    """Base of the types about one product's cases: drawing a product, finding it by name."""

    MIN_CASES = 6  # a product needs this many cases in the window to be asked about

    def product_case_counts(self, window: Window, scope: Scope | None) -> dict[str, int]:
        """{Product2 Id: cases created in `window` about an order item of that product}."""

        def make() -> dict[str, int]:
            rows = self.sql(
                f'SELECT {CASE_PRODUCT} AS p, COUNT(*) FROM "Case" c WHERE c.CreatedDate >= ? '
                f"AND c.CreatedDate < ?{where(scope, CASE_STATE)} GROUP BY p",
                window.bounds(),
            )
            return {p: n for p, n in rows if p is not None}

        return self.memo(("product cases", window, scope), make)

    @cached_property
    def case_products(self) -> list[str]:
        """Ids of the products that any case is about, sorted."""
        return sorted(p for (p,) in self.sql(f'SELECT DISTINCT {CASE_PRODUCT} FROM "Case" c') if p is not None)

    def pick_product(
        self, rng: random.Random, window: Window, scope: Scope | None, want_none: bool = False
    ) -> tuple[str, str] | None:
        """(Id, Name) of a random product with at least MIN_CASES cases in `window` (or, when
        `want_none`, a product with cases in other periods but none in `window`), or None; only
        the cases from the territory's customers count when `scope` is given."""
        counts = self.product_case_counts(window, scope)
        if want_none:
            eligible = [p for p in self.case_products if p not in counts]
        else:
            eligible = sorted(p for p, n in counts.items() if n >= fewer(scope, self.MIN_CASES))
        if not eligible:
            return None
        product = rng.choice(eligible)
        return product, self.sql("SELECT Name FROM Product2 WHERE Id = ?", (product,))[0][0]

    @staticmethod
    def product_params(product: tuple[str, str]) -> dict[str, str]:
        return {"product_id": product[0], "product_name": product[1]}

    @classmethod
    def find_product(cls, tools: CrmTools, params: dict) -> str:
        """The Product2 Id of the product the person named (looked up by its name)."""
        found = cls.soql(tools, f"SELECT Id FROM Product2 WHERE Name = {soql_string(params['product_name'])}")
        if len(found) != 1:
            raise OracleError(f"product {params['product_name']!r}: {len(found)} matches")
        return found[0]["Id"]

    @classmethod
    def scoped_cases_where(cls, tools: CrmTools, params: dict) -> str:
        """SOQL condition: cases about the product named, created in the window, from the customers
        of the territory named if any (the oracle looks up the product and the territory)."""
        product_id = cls.find_product(tools, params)
        window = Window.from_params(params["window"])
        return (
            f"OrderItemId__r.Product2Id = {soql_string(product_id)} AND {window.soql('CreatedDate')}"
            f"{soql_and(resolve(tools, params), 'Account.ShippingState')}"
        )


# --- handle time -----------------------------------------------------------------------------


@register
class HandleTime(TaskGenerator):
    """Agent with the lowest/highest average handle time over non-transferred closed cases."""

    name = "handle_time"
    max_answer_share = 0.25  # the busiest agents (states) pass most thresholds: no one of them answers more
    MARGIN_DAYS = 0.01

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = agent_window(rng, self.today)
        extreme = rng.choice(EXTREMES)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        rows = self.rows(window, scope)
        n = count_threshold(rng, [count for _, count, _ in rows], want_none, keep=3)
        if n is None:
            return None
        averages = _averages_over(rows, n)
        answer = unique_extreme(averages, extreme == "highest", self.MARGIN_DAYS)
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(averages, extreme == "highest", answer))
            or not bites(
                scope, answer, lambda: unique_extreme(_averages_over(self.rows(window, None), n), extreme == "highest")
            )
        ):
            return None  # a tie is no fair question; None only when no agent qualifies
        return Draw(
            {"window": window.to_params(), "extreme": extreme, "min_cases": n, **scope_params(scope)},
            {"extreme": extreme, "window": window.text, "scope": slot(scope, CUSTOMERS), "min_cases": str(n)},
            None if answer is None else [answer],
        )

    def rows(self, window: Window, scope: Scope | None) -> list[tuple]:
        """(owner, cases, average days) over the window's closed, never-transferred cases (direct SQL)."""
        return self.memo(
            (window, scope),
            lambda: self.sql(
                f"SELECT c.OwnerId, COUNT(*), AVG({DAYS_BETWEEN.format(start='c.CreatedDate', end='c.ClosedDate')}) "
                'FROM "Case" c WHERE c.ClosedDate IS NOT NULL '
                f"AND c.CreatedDate >= ? AND c.CreatedDate < ? AND NOT EXISTS ({TRANSFERRED})"
                f"{where(scope, CASE_STATE)} GROUP BY c.OwnerId",
                window.bounds(),
            ),
        )

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        scope = resolve(tools, params)
        in_window = f"ClosedDate != null AND {window.soql('CreatedDate')}"
        cases = [
            case
            for case in self.fetch_all(
                tools, "SELECT Id, OwnerId, Account.ShippingState, CreatedDate, ClosedDate FROM Case", in_window
            )
            if covers(scope, (case.get("Account") or {}).get("ShippingState"))
        ]
        moved = {
            r["CaseId__c"]
            for r in self.fetch_all(
                tools,
                "SELECT Id, CaseId__c FROM CaseHistory__c",
                f"Field__c = 'Owner Assignment' AND OldValue__c != null AND CaseId__c IN (SELECT Id FROM Case WHERE {in_window})",
            )
        }
        days: dict[str, list[float]] = defaultdict(list)
        for case in cases:
            if case["Id"] not in moved:
                days[case["OwnerId"]].append(_span_days(case))
        averages = {o: _mean(v) for o, v in days.items() if len(v) > params["min_cases"]}
        answer = unique_extreme(averages, params["extreme"] == "highest")
        return None if answer is None else [answer]


# --- transfer count --------------------------------------------------------------------------


@register
class TransferCount(TaskGenerator):
    """Agent with the fewest/most transfers (cases they passed on to another agent), among
    agents owning more than N cases created in the window."""

    name = "transfer_count"
    max_answer_share = 0.25  # the busiest agents (states) pass most thresholds: no one of them answers more
    WORDS: ClassVar[dict[str, str]] = {"lowest": "fewest", "highest": "most"}

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = agent_window(rng, self.today)
        extreme = rng.choice(EXTREMES)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        owned, transfers = self.tallies(window, scope)
        n = count_threshold(rng, list(owned.values()), want_none)
        if n is None:
            return None
        counts = self.qualifying(owned, transfers, n)
        answer = unique_extreme(counts, extreme == "highest")
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(counts, extreme == "highest", answer))
            or not bites(
                scope,
                answer,
                lambda: unique_extreme(self.qualifying(*self.tallies(window, None), n), extreme == "highest"),
            )
        ):
            return None  # a tie is no fair question; None only when no agent qualifies
        return Draw(
            {"window": window.to_params(), "extreme": extreme, "min_cases": n, **scope_params(scope)},
            {
                "extreme": self.WORDS[extreme],
                "window": window.text,
                "scope": slot(scope, CUSTOMERS),
                "min_cases": str(n),
            },
            None if answer is None else [answer],
        )

    def tallies(self, window: Window, scope: Scope | None) -> tuple[dict[str, int], dict[str, int]]:
        """Per agent, the window's cases they own and the ones they passed on (direct SQL)."""

        def make() -> tuple[dict[str, int], dict[str, int]]:
            owned = dict(
                self.sql(
                    'SELECT c.OwnerId, COUNT(*) FROM "Case" c WHERE c.CreatedDate >= ? AND c.CreatedDate < ?'
                    f"{where(scope, CASE_STATE)} GROUP BY c.OwnerId",
                    window.bounds(),
                )
            )
            transfers = dict(
                self.sql(
                    'SELECT h.OldValue__c, COUNT(*) FROM CaseHistory__c h JOIN "Case" c ON c.Id = h.CaseId__c '
                    "WHERE h.Field__c = 'Owner Assignment' AND h.OldValue__c IS NOT NULL "
                    f"AND c.CreatedDate >= ? AND c.CreatedDate < ?{where(scope, CASE_STATE)} GROUP BY h.OldValue__c",
                    window.bounds(),
                )
            )
            return owned, transfers

        return self.memo((window, scope), make)

    @staticmethod
    def qualifying(owned: dict[str, int], transfers: dict[str, int], n: int) -> dict[str, int]:
        """Transfers of each qualifying agent (more than `n` owned cases); zero for one without any."""
        return {agent: transfers.get(agent, 0) for agent, k in owned.items() if k > n}

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        scope = resolve(tools, params)
        owned = _grouped_counts(
            tools,
            f"SELECT OwnerId, COUNT(Id) FROM Case WHERE {window.soql('CreatedDate')}"
            f"{soql_and(scope, 'Account.ShippingState')} GROUP BY OwnerId",
            "OwnerId",
        )
        transfers = _grouped_counts(
            tools,
            "SELECT OldValue__c, COUNT(Id) FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
            f"AND OldValue__c != null AND {window.soql('CaseId__r.CreatedDate')}"
            f"{soql_and(scope, 'CaseId__r.Account.ShippingState')} GROUP BY OldValue__c",
            "OldValue__c",
        )
        answer = unique_extreme(self.qualifying(owned, transfers, params["min_cases"]), params["extreme"] == "highest")
        return None if answer is None else [answer]


# --- best region -----------------------------------------------------------------------------


@register
class BestRegionIdentification(TaskGenerator):
    """State (Account.ShippingState) with the quickest/slowest average closure time of the
    closed cases created in the window, among states with more than N such cases."""

    name = "best_region_identification"
    max_answer_share = 0.25  # the busiest agents (states) pass most thresholds: no one of them answers more
    MARGIN_DAYS = 0.02
    WORDS: ClassVar[dict[str, str]] = {"lowest": "quickest", "highest": "slowest"}
    PAST_MONTHS = (3, 4, 6, 9, 12)  # shorter windows leave too few cases per state
    FLOOR = 3  # the threshold is at least this many cases, so an average rests on more

    def pick_window(self, rng: random.Random) -> Window:
        """A window of three to twelve months: the past months, a quarter, a season, or a run of
        whole calendar months."""
        kind = rng.choice(("past", "quarter", "season", "span", "span"))
        if kind == "past":
            return past_window(self.today, rng.choice(self.PAST_MONTHS))
        if kind == "span":
            return random_month_run(rng, self.today, range(3, 10))
        return random_window(rng, self.today, (kind,))

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = self.pick_window(rng)
        extreme = rng.choice(EXTREMES)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        rows = self.rows(window, scope)
        n = count_threshold(rng, [count for _, count, _ in rows], want_none, fewer(scope, 6), self.FLOOR)
        if n is None:
            return None
        averages = _averages_over(rows, n)
        answer = unique_extreme(averages, extreme == "highest", self.MARGIN_DAYS)
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(averages, extreme == "highest", answer))
            or not bites(
                scope, answer, lambda: unique_extreme(_averages_over(self.rows(window, None), n), extreme == "highest")
            )
        ):
            return None  # a tie is no fair question; None only when no state qualifies
        params = {"window": window.to_params(), "extreme": extreme, "min_cases": n, **scope_params(scope)}
        slots = {
            "extreme": self.WORDS[extreme],
            "window": window.text,
            "scope": slot(scope, "states"),
            "min_cases": str(n),
        }
        return Draw(params, slots, None if answer is None else [answer])

    def rows(self, window: Window, scope: Scope | None) -> list[tuple]:
        """(state, cases, average days) over the window's closed cases (direct SQL)."""
        return self.memo(
            (window, scope),
            lambda: self.sql(
                f"SELECT a.ShippingState, COUNT(*), AVG({DAYS_BETWEEN.format(start='c.CreatedDate', end='c.ClosedDate')}) "
                'FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE c.ClosedDate IS NOT NULL '
                f"AND c.CreatedDate >= ? AND c.CreatedDate < ? AND a.ShippingState IS NOT NULL"
                f"{where(scope, 'a.ShippingState')} GROUP BY a.ShippingState",
                window.bounds(),
            ),
        )

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        cases = self.fetch_all(
            tools,
            "SELECT Id, Account.ShippingState, CreatedDate, ClosedDate FROM Case",
            f"ClosedDate != null AND {window.soql('CreatedDate')}",
        )
        scope = resolve(tools, params)
        days: dict[str, list[float]] = defaultdict(list)
        for case in cases:
            state = (case.get("Account") or {}).get("ShippingState")
            if state and covers(scope, state):
                days[state].append(_span_days(case))
        answer = unique_extreme(
            {s: _mean(v) for s, v in days.items() if len(v) > params["min_cases"]}, params["extreme"] == "highest"
        )
        return None if answer is None else [answer]


# --- top issue -------------------------------------------------------------------------------


@register
class TopIssueIdentification(_ProductTask):
    """The Issue__c reported in the most cases about one product created in the window."""

    name = "top_issue_identification"

    def pick_window(self, rng: random.Random) -> Window:
        """The past months, a quarter or a season, or a run of whole months that may reach back
        before the first case."""
        if rng.random() < 0.25:
            return random_month_run(rng, self.today, range(1, 7), HISTORY_MONTHS)
        return random_window(rng, self.today)

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = self.pick_window(rng)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        product = self.pick_product(rng, window, scope, want_none)  # None: the product had no case in the window
        if product is None:
            return None
        counts = self.issue_counts(product[0], window, scope)
        answer = unique_extreme(counts, highest=True)
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(counts, True, answer))
            or not bites(scope, answer, lambda: unique_extreme(self.issue_counts(product[0], window, None), True))
        ):
            return None
        return Draw(
            {"window": window.to_params(), **self.product_params(product), **scope_params(scope)},
            {"product": product[1], "window": window.text, "scope": slot(scope, CUSTOMERS)},
            None if answer is None else [answer],
        )

    def issue_counts(self, product_id: str, window: Window, scope: Scope | None) -> dict[str, int]:
        """{Issue__c Id: cases about the product created in the window} (direct SQL)."""
        return dict(
            self.sql(
                f'SELECT c.IssueId__c, COUNT(*) FROM "Case" c WHERE {CASE_PRODUCT} = ? AND c.CreatedDate >= ? '
                f"AND c.CreatedDate < ? AND c.IssueId__c IS NOT NULL{where(scope, CASE_STATE)} GROUP BY c.IssueId__c",
                (product_id, *window.bounds()),
            )
        )

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        cases = self.scoped_cases_where(tools, params)
        counts = _grouped_counts(
            tools, f"SELECT IssueId__c, COUNT(Id) FROM Case WHERE {cases} GROUP BY IssueId__c", "IssueId__c"
        )
        answer = unique_extreme(counts, highest=True)
        return None if answer is None else [answer]


# --- monthly trend ---------------------------------------------------------------------------


@register
class MonthlyTrendAnalysis(_ProductTask):
    """The month whose case count for a product is strictly larger than every other month's in
    a window of several months, or None when the top count is shared."""

    name = "monthly_trend_analysis"
    PAST_MONTHS = (4, 6, 9)  # past 12 months would hold today's month twice
    MIN_CASES = 5

    def pick_window(self, rng: random.Random) -> Window:
        """Past 4/6/9 months, a whole past calendar year, or a run of 4-8 whole calendar months;
        every choice touches each month name at most once."""
        kind = rng.choice(("past", "year", "span"))
        if kind == "past":
            return past_window(self.today, rng.choice(self.PAST_MONTHS))
        if kind == "year":
            return year_window(self.today.year - rng.choice((1, 2)))
        return random_month_run(rng, self.today, range(4, 9))

    def monthly_counts(self, product_id: str, window: Window, scope: Scope | None) -> dict[int, int]:
        """{month number: cases about the product created in that month of the window}."""
        rows = self.sql(
            f'SELECT CAST(substr(c.CreatedDate, 6, 2) AS INTEGER), COUNT(*) FROM "Case" c WHERE {CASE_PRODUCT} = ? '
            f"AND c.CreatedDate >= ? AND c.CreatedDate < ?{where(scope, CASE_STATE)} GROUP BY 1",
            (product_id, *window.bounds()),
        )
        return dict(rows)

    @staticmethod
    def peak(counts: dict[int, int], window: Window) -> list[str] | None:
        """[name of the month whose count beats every other month of the window], else None."""
        full = {m: counts.get(m, 0) for m in window_months(window)}
        month = unique_extreme(full, highest=True)
        return None if month is None else [MONTHS[month - 1]]

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        window = self.pick_window(rng)
        if not fits(self, window_months=months(window)):
            return None
        scope = draw_scope(self, rng)
        product = self.pick_product(rng, window, scope)
        if product is None:
            return None
        counts = self.monthly_counts(product[0], window, scope)
        answer = self.peak(counts, window)
        full = {m: counts.get(m, 0) for m in window_months(window)}
        if (
            (answer is None) != want_none
            or not fits(self, runner_up_gap=answer_gap(full, True, answer))
            or not bites(scope, answer, lambda: self.peak(self.monthly_counts(product[0], window, None), window))
        ):
            return None
        return Draw(
            {"window": window.to_params(), **self.product_params(product), **scope_params(scope)},
            {"product": product[1], "window": window.text, "scope": slot(scope, CUSTOMERS)},
            answer,
        )

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        window = Window.from_params(params["window"])
        cases = self.scoped_cases_where(tools, params)
        rows = self.soql(
            tools,
            "SELECT CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Case "
            f"WHERE {cases} GROUP BY CALENDAR_MONTH(CreatedDate)",
        )
        return self.peak({r["m"]: r["n"] for r in rows}, window)

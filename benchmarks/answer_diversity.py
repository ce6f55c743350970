"""How varied the answers of the numerical tasks are on one org (DESIGN section 4).

    python benchmarks/answer_diversity.py ORG.db [ORG.db ...] [--draws 200] [--seed 0]

For each numerical task type, draws random instances the way the task generators do (a time
window ending at the org's as-of date: past 1-4 quarters, past 1-12 months, or a completed
calendar quarter or season of the last two years; a direction; where relevant a product and
a case-count threshold), computes each answer with direct SQL and prints per task: the
share of the most common answer, the number of distinct answers, the tie rate (the best
value shared, so the instance would be re-drawn) and, for monthly_trend_analysis, the rate
of "None" answers. Shares are over the untied draws. Targets: top share <= 40% (aim 25%),
ties rare, about 20% None for the monthly trend.

Working definitions (the task generators own the final ones): a case, lead or opportunity
is in the window by its CreatedDate, an order or contract by the contract's signature date;
handle-time counts an agent's non-transferred closed cases, transfer-count the cases an
agent was ever assigned (the threshold N lies between the agents' quartile counts); a product is drawn among those with at least 5 cases in the window.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from collections import Counter
from datetime import date, timedelta

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
SEASONS = {"Winter": 12, "Spring": 3, "Summer": 6, "Fall": 9}  # first month of each
MIN_PRODUCT_CASES = 5
DAYS = "julianday(substr({end}, 1, 19)) - julianday(substr({start}, 1, 19))"
TRANSFERRED = (
    "EXISTS (SELECT 1 FROM CaseHistory__c h WHERE h.CaseId__c = c.Id "
    "AND h.Field__c = 'Owner Assignment' AND h.OldValue__c IS NOT NULL)"
)


def add_months(d: date, n: int) -> date:
    """`d` moved by n calendar months (the day clipped to the month's length)."""
    y, m = divmod(d.year * 12 + d.month - 1 + n, 12)
    m += 1
    last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(d.day, last))


def draw_window(rng: random.Random, as_of: date) -> tuple[str, str]:
    """[start, end) as ISO dates: a relative window ending today, or a named period."""
    end = as_of + timedelta(days=1)
    kind = rng.choice(("quarters", "months", "quarter", "season"))
    if kind == "quarters":
        return add_months(as_of, -3 * rng.randint(1, 4)).isoformat(), end.isoformat()
    if kind == "months":
        return add_months(as_of, -rng.randint(1, 12)).isoformat(), end.isoformat()
    first_months = (1, 4, 7, 10) if kind == "quarter" else tuple(SEASONS.values())
    periods = []  # completed periods that began within the last two years
    for year in range(as_of.year - 2, as_of.year + 1):
        for m in first_months:
            start = date(year - (m == 12), m, 1)
            if start >= add_months(as_of, -24) and add_months(start, 3) <= as_of:
                periods.append(start)
    start = rng.choice(periods)
    return start.isoformat(), add_months(start, 3).isoformat()


def pick(scores: dict, highest: bool) -> tuple[object, bool]:
    """The key with the best score, and whether another key shares that score."""
    best = max(scores.values()) if highest else min(scores.values())
    winners = sorted(k for k, v in scores.items() if abs(v - best) < 1e-9)
    return winners[0], len(winners) > 1


def threshold(rng: random.Random, counts: list[int]) -> int:
    """A "more than N cases" threshold between the agents' lower and upper quartile counts, so
    that it excludes some agents but keeps at least a quarter of them."""
    counts = sorted(counts)
    lo, hi = counts[len(counts) // 4], counts[3 * len(counts) // 4]
    return rng.randint(max(0, lo - 1), max(0, hi - 1))


def handle_time(db, rng, start, end, highest):
    rows = db.execute(
        f"""SELECT c.OwnerId, COUNT(*), AVG({DAYS.format(end="c.ClosedDate", start="c.CreatedDate")})
                          FROM "Case" c WHERE c.ClosedDate IS NOT NULL AND c.CreatedDate >= ?
                          AND c.CreatedDate < ? AND NOT {TRANSFERRED} GROUP BY c.OwnerId""",
        (start, end),
    ).fetchall()
    if len(rows) < 2:
        return None
    n = threshold(rng, [r[1] for r in rows])
    return pick({u: avg for u, k, avg in rows if k > n}, highest)


def transfer_count(db, rng, start, end, highest):
    rows = db.execute(
        """WITH h AS (SELECT h.CaseId__c, h.OldValue__c, h.NewValue__c FROM CaseHistory__c h
                                   JOIN "Case" c ON c.Id = h.CaseId__c WHERE h.Field__c = 'Owner Assignment'
                                   AND c.CreatedDate >= ? AND c.CreatedDate < ?)
                         SELECT u, SUM(k), SUM(x) FROM (
                           SELECT NewValue__c u, COUNT(DISTINCT CaseId__c) k, 0 x FROM h GROUP BY u
                           UNION ALL SELECT OldValue__c, 0, COUNT(*) FROM h WHERE OldValue__c IS NOT NULL
                           GROUP BY OldValue__c) GROUP BY u""",
        (start, end),
    ).fetchall()
    if len(rows) < 2:
        return None
    n = threshold(rng, [r[1] for r in rows])
    return pick({u: x for u, k, x in rows if k > n}, highest)


def best_region(db, rng, start, end, highest):
    rows = db.execute(
        f"""SELECT a.ShippingState, AVG({DAYS.format(end="c.ClosedDate", start="c.CreatedDate")})
                          FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE c.ClosedDate IS NOT NULL
                          AND c.CreatedDate >= ? AND c.CreatedDate < ? GROUP BY 1""",
        (start, end),
    ).fetchall()
    return pick(dict(rows), highest=False) if len(rows) >= 2 else None


def _product_cases(db, rng, start, end, column):
    """Rows (value of `column`, count) of the cases of a random product with enough cases."""
    products = [
        p
        for (p,) in db.execute(
            """SELECT oi.Product2Id FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c
           WHERE c.CreatedDate >= ? AND c.CreatedDate < ? GROUP BY 1 HAVING COUNT(*) >= ? ORDER BY 1""",
            (start, end, MIN_PRODUCT_CASES),
        )
    ]
    if not products:
        return None
    return db.execute(
        f"""SELECT {column}, COUNT(*) FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c
                          WHERE oi.Product2Id = ? AND c.CreatedDate >= ? AND c.CreatedDate < ? GROUP BY 1""",
        (rng.choice(products), start, end),
    ).fetchall()


def top_issue(db, rng, start, end, highest):
    rows = _product_cases(db, rng, start, end, "c.IssueId__c")
    return pick(dict(rows), highest=True) if rows else None


def monthly_trend(db, rng, start, end, highest):
    """The month name with strictly the most cases, else None (a tie is the None answer)."""
    rows = _product_cases(db, rng, start, end, "CAST(substr(c.CreatedDate, 6, 2) AS INTEGER)")
    if not rows:
        return None
    month, tie = pick(dict(rows), highest=True)
    return (None if tie or len(rows) == 1 else MONTHS[month - 1]), False


def signed_column(db) -> str:
    org = db.execute("SELECT value FROM _meta WHERE key = 'org'").fetchone()[0]
    return "CompanySignedDate" if org == "b2b" else "CustomerSignedDate"


def sales_amount(db, rng, start, end, highest):
    signed = signed_column(db)
    rows = db.execute(
        f"""SELECT o.OwnerId, SUM(oi.Quantity * oi.UnitPrice) FROM "Order" o
                          JOIN Contract k ON k.Id = o.ContractId JOIN OrderItem oi ON oi.OrderId = o.Id
                          WHERE k.{signed} >= ? AND k.{signed} < ? GROUP BY 1""",
        (start, end),
    ).fetchall()
    return pick(dict(rows), highest) if len(rows) >= 2 else None


def sales_cycle(db, rng, start, end, highest):
    signed = signed_column(db)
    rows = db.execute(
        f"""SELECT p.OwnerId, AVG(julianday(k.{signed}) - julianday(substr(p.CreatedDate, 1, 10)))
                          FROM Opportunity p JOIN Contract k ON k.Id = p.ContractID__c
                          WHERE k.{signed} >= ? AND k.{signed} < ? GROUP BY 1""",
        (start, end),
    ).fetchall()
    return pick(dict(rows), highest) if len(rows) >= 2 else None


def conversion_rate(db, rng, start, end, highest):
    rows = db.execute(
        """SELECT OwnerId, AVG(IsConverted) FROM Lead WHERE CreatedDate >= ? AND CreatedDate < ?
                         GROUP BY 1""",
        (start, end),
    ).fetchall()
    return pick(dict(rows), highest) if len(rows) >= 2 else None


# name -> task(db, rng, start, end, highest) -> (answer, tied) or None for a degenerate draw;
# `highest` is the drawn direction, ignored by tasks that have a fixed one.
TASKS = {
    "handle_time": handle_time,
    "transfer_count": transfer_count,
    "best_region_identification": best_region,
    "top_issue_identification": top_issue,
    "monthly_trend_analysis": monthly_trend,
    "sales_amount_understanding": sales_amount,
    "sales_cycle_understanding": sales_cycle,
    "conversion_rate_comprehension": conversion_rate,
}


def diversity(db: sqlite3.Connection, task, draws: int, rng: random.Random) -> dict:
    """Draw `draws` instances of one task (re-drawing degenerate windows) and summarise them."""
    as_of = date.fromisoformat(db.execute("SELECT value FROM _meta WHERE key = 'as_of'").fetchone()[0])
    answers, ties = Counter(), 0
    for _ in range(draws):
        out = None
        while out is None:
            out = task(db, rng, *draw_window(rng, as_of), rng.random() < 0.5)
        answer, tie = out
        if tie:
            ties += 1
        else:
            answers[answer] += 1
    untied = max(1, sum(answers.values()))
    top = max((n for a, n in answers.items() if a is not None), default=0)
    return {"top": top / untied, "distinct": len(answers), "ties": ties / draws, "none": answers[None] / untied}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("orgs", nargs="+", help="org SQLite files")
    ap.add_argument("--draws", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for path in args.orgs:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        meta = dict(db.execute("SELECT key, value FROM _meta").fetchall())
        print(
            f"\n{path}: {meta['org']} seed {meta['seed']} scale {meta['scale']} generator {meta['generator_version']}"
        )
        print(f"| {'task':<30} | top share | distinct | ties | None |")
        print(f"|{'-' * 32}|-----------|----------|------|------|")
        for name, task in TASKS.items():
            s = diversity(db, task, args.draws, random.Random(f"{args.seed}:{name}"))
            none = f"{s['none']:.0%}" if name == "monthly_trend_analysis" else "-"
            print(f"| {name:<30} | {s['top']:>9.0%} | {s['distinct']:>8} | {s['ties']:>4.0%} | {none:>4} |")
        db.close()


if __name__ == "__main__":
    main()

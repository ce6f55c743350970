"""Large-org benchmark: aggregate query latency and the cost of each composite index; prints Markdown.

    python benchmarks/bench_scale.py ORG.db [OTHER.db ...] [--repeat 20] [--index-cost]

Queries: SCALE_QUERIES, the aggregates the task generators' oracle and agents send over a whole
org (issue 16: closed cases per owner, a two-filter COUNT(), ...), each through an OrgSession as
an agent's would run, with the compiled-plan cache kept; several orgs (say, before and after a
change) are measured in interleaved runs.
`--index-cost` drops and recreates each of store.COMPOSITE_INDEXES in a scratch copy of ORG.db
(in the same folder) of the first org and reports its build time and size (SQLite's dbstat).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCALE_QUERIES = [
    "SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Closed' AND ClosedDate = LAST_N_QUARTERS:4 GROUP BY OwnerId",
    "SELECT COUNT() FROM Case WHERE Status = 'Closed' AND Priority = 'High'",
    "SELECT OwnerId, COUNT(Id) n FROM Case WHERE ClosedDate = null GROUP BY OwnerId",
    "SELECT OwnerId, COUNT(Id) FROM Case WHERE CreatedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
    "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case WHERE CreatedDate = LAST_YEAR GROUP BY CALENDAR_MONTH(CreatedDate)",
    "SELECT OldValue__c, COUNT(Id) FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != null "
    "AND CreatedDate = LAST_QUARTER GROUP BY OldValue__c",
    "SELECT OwnerId, COUNT(Id) n FROM Lead WHERE CreatedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
    "SELECT COUNT() FROM Case WHERE Priority = 'High'",
]


def bench_queries(paths: list[Path], repeat: int) -> list[str]:
    """Wall p50 (p95) and CPU p50 of each of SCALE_QUERIES on the orgs at `paths`, their runs
    interleaved (on a shared machine, load then weighs on every org alike; CPU time barely feels it)."""
    from contextlib import ExitStack

    from simulator.crm.session import OrgSession
    from simulator.crm.store import Org

    rows = ["| query | " + " | ".join(f"{p.name}: wall p50 (p95) / CPU p50 ms" for p in paths) + " |",
            "|---|" + "---|" * len(paths)]
    with ExitStack() as stack:
        sessions = [stack.enter_context(OrgSession(Org(p))) for p in paths]
        for text in SCALE_QUERIES:
            samples: list[list[float]] = [[] for _ in sessions]
            for session in sessions:
                session.soql(text)  # (warm the page cache and the plan)
            cpu: list[list[float]] = [[] for _ in sessions]
            for _ in range(repeat):
                for session, times, used in zip(sessions, samples, cpu):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    session.soql(text)
                    times.append(time.perf_counter() - start)
                    used.append(time.process_time() - start_cpu)
            cells = [f"{statistics.median(t) * 1000:.1f} ({statistics.quantiles(t, n=20)[18] * 1000:.1f}) "
                     f"/ {statistics.median(u) * 1000:.1f}" for t, u in zip(samples, cpu)]
            rows.append(f"| `{text}` | " + " | ".join(cells) + " |")
            print(rows[-1], file=sys.stderr)
    return rows


def bench_index_cost(path: Path) -> list[str]:
    """Build seconds and MiB of each composite index, recreated in a scratch copy of `path`."""
    from simulator.crm.store import COMPOSITE_INDEXES, index_statements, schema_for, read_meta

    scratch = path.with_name(f".{path.name}.index-cost")
    shutil.copyfile(path, scratch)
    rows = ["| index | build s | MiB | share of file |", "|---|---|---|---|"]
    try:
        conn = sqlite3.connect(scratch, isolation_level=None)
        conn.execute("PRAGMA cache_size=-200000")
        statements = index_statements(schema_for(read_meta(conn).org))[-len(COMPOSITE_INDEXES):]
        size = scratch.stat().st_size
        for statement in statements:
            name = statement.split('"')[1]
            conn.execute(f'DROP INDEX "{name}"')
            start = time.perf_counter()
            conn.execute(statement)
            took = time.perf_counter() - start
            nbytes = conn.execute("SELECT sum(pgsize) FROM dbstat WHERE name = ?", (name,)).fetchone()[0]
            rows.append(f"| `{name}` | {took:.2f} | {nbytes / 2**20:.1f} | {nbytes / size:.1%} |")
            print(rows[-1], file=sys.stderr)
        conn.close()
    finally:
        scratch.unlink(missing_ok=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("orgs", type=Path, nargs="+", help="org files (e.g. built with scale 100)")
    ap.add_argument("--repeat", type=int, default=20, help="runs of each query on each org")
    ap.add_argument("--index-cost", action="store_true", help="also measure each composite index's cost")
    args = ap.parse_args()
    sizes = ", ".join(f"{p.name} {p.stat().st_size / 2**30:.2f} GiB" for p in args.orgs)
    report = [f"### Aggregate queries ({sizes})", ""] + bench_queries(args.orgs, args.repeat)
    if args.index_cost:
        report += ["", f"### Composite index cost ({args.orgs[0].name})", ""] + bench_index_cost(args.orgs[0])
    print("\n".join(report))


if __name__ == "__main__":
    main()

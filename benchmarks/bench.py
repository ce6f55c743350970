"""Speed benchmarks for the org and the query engine; prints a Markdown report.

    python benchmarks/bench.py [--scales 1,10] [--repeat 200] [--out benchmarks/out]

Measures, each in a fresh process where it matters: org build time and peak memory (RSS)
per org and scale; SOQL and SOSL latency percentiles over a fixed mix of realistic agent
queries on a scale-1 org; and `crmarena soql` start-up (wall time of the whole command).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A fixed mix of the queries agents send while solving the benchmark's tasks.
SOQL_MIX = [
    "SELECT Id, Subject, Status, Priority, OwnerId FROM Case WHERE CreatedDate = LAST_N_DAYS:90 LIMIT 50",
    "SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Closed' AND ClosedDate = LAST_N_QUARTERS:4 GROUP BY OwnerId",
    "SELECT Id, CreatedDate, ClosedDate, OwnerId FROM Case WHERE ClosedDate != null AND CreatedDate = LAST_N_MONTHS:6",
    "SELECT CaseId__c, OldValue__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != null AND CreatedDate = LAST_QUARTER",
    "SELECT Account.ShippingState, COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY Account.ShippingState",
    "SELECT IssueId__c, COUNT(Id) FROM Case WHERE OrderItemId__r.Product2Id != null AND CreatedDate = LAST_N_MONTHS:12 GROUP BY IssueId__c ORDER BY COUNT(Id) DESC LIMIT 5",
    "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case WHERE CreatedDate = LAST_YEAR GROUP BY CALENDAR_MONTH(CreatedDate)",
    "SELECT Id, Name, Amount, StageName, Owner.Name FROM Opportunity WHERE StageName != 'Closed' ORDER BY Amount DESC LIMIT 20",
    "SELECT OwnerId, COUNT(Id) FROM Lead WHERE IsConverted = true AND ConvertedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
    "SELECT Id, Subject, Status, ActivityDate FROM Task WHERE WhatId IN (SELECT Id FROM Opportunity WHERE StageName = 'Discovery') LIMIT 50",
    "SELECT Id, Name, (SELECT Id, Subject FROM Tasks), (SELECT Id, Subject FROM Events) FROM Opportunity WHERE StageName = 'Negotiation' LIMIT 10",
    "SELECT Id, Quantity, UnitPrice, Discount, TotalPrice, Product2.Name FROM QuoteLineItem WHERE Discount > 15 LIMIT 50",
    "SELECT Id, Title, Summary FROM Knowledge__kav WHERE Title LIKE '%discount%'",
    "SELECT Id, Name, Description FROM Territory2",
    "SELECT UserId, Territory2.Name FROM UserTerritory2Association",
    "SELECT Id, Body FROM LiveChatTranscript WHERE CaseId != null ORDER BY CreatedDate DESC LIMIT 5",
    "SELECT COUNT() FROM Case WHERE Priority = 'High'",
    "SELECT Id, TranscriptBody__c FROM VoiceCallTranscript__c WHERE OpportunityId__c != null LIMIT 5",
]
SOSL_MIX = [
    "FIND {refund} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title)",
    "FIND {firmware OR activation} RETURNING Case(Id, Subject), Knowledge__kav(Id, Title)",
    'FIND {"delivery dates"} RETURNING Knowledge__kav(Id, Title, Summary)',
    "FIND {discount*} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title) LIMIT 20",
    "FIND {support} IN ALL FIELDS RETURNING VoiceCallTranscript__c(Id), LiveChatTranscript(Id)",
    "FIND {murphy} IN NAME FIELDS RETURNING Contact(Id, Name), Lead(Id, Name), Account(Id, Name)",
    "FIND {Arkline R220} RETURNING Product2(Id, Name), Case(Id, Subject WHERE Status = 'Closed')",
]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
        cpu = model
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB, Python {platform.python_version()}"


def _child(code: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of running `code` in a fresh interpreter."""
    code += "; import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    return wall, int(proc.stdout.split()[-1]) / 1024


def bench_build(out: Path, scales: list[float]) -> list[str]:
    rows = ["| org | scale | records | build s | peak RSS MiB |", "|---|---|---|---|---|"]
    for scale in scales:
        for org in ("b2b", "b2c"):
            path = out / f"{org}-x{scale:g}.db"
            code = (
                "from simulator.crm.generator import build_org; from pathlib import Path; "
                f"build_org('{org}', Path(r'{path}'), seed=0, scale={scale})"
            )
            wall, peak = _child(code)
            from simulator.crm.store import Org

            total = sum(Org(path).counts().values())
            rows.append(f"| {org} | {scale:g} | {total:,} | {wall:.1f} | {peak:.0f} |")
            print(rows[-1], file=sys.stderr)
    return rows


def _percentiles(samples: list[float]) -> str:
    qs = statistics.quantiles(samples, n=100)
    return f"{qs[49] * 1000:.2f} | {qs[94] * 1000:.2f} | {qs[98] * 1000:.2f} | {max(samples) * 1000:.2f}"


def bench_queries(path: Path, repeat: int) -> list[str]:
    """Latency per query; 'new text' clears the compiled-plan cache before every query (an
    agent rarely repeats a query), 'repeated' keeps it."""
    from simulator.crm import soql, sosl
    from simulator.crm.session import OrgSession
    from simulator.crm.store import Org

    rows = ["| engine | plans | queries | p50 ms | p95 ms | p99 ms | max ms |", "|---|---|---|---|---|---|---|"]
    with OrgSession(Org(path)) as session:
        engines = (
            ("SOQL", SOQL_MIX, session.soql, soql._cached_plan),
            ("SOSL", SOSL_MIX, session.sosl, sosl._cached_search),
        )
        for name, mix, run, cache in engines:
            for text in mix:  # warm the grammar and SQLite's page cache
                assert run(text)
            for label, clear in (("new text", True), ("repeated", False)):
                samples = []
                for _ in range(repeat):
                    for text in mix:
                        if clear:
                            cache.cache_clear()
                        start = time.perf_counter()
                        run(text)
                        samples.append(time.perf_counter() - start)
                rows.append(f"| {name} | {label} | {len(samples)} ({len(mix)} distinct) | {_percentiles(samples)} |")
    return rows


def bench_startup(path: Path, runs: int = 15) -> list[str]:
    exe = Path(sys.executable).parent / "crmarena"
    cmd = [str(exe) if exe.exists() else sys.executable] + ([] if exe.exists() else ["-m", "simulator.cli"])
    cmd += ["soql", "--org", str(path), "SELECT Id, Name FROM Account LIMIT 1"]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        samples.append(time.perf_counter() - start)
    return [
        "| command | runs | median s | min s | max s |",
        "|---|---|---|---|---|",
        f"| `crmarena soql` (one query, printed) | {runs} | {statistics.median(samples):.3f} | "
        f"{min(samples):.3f} | {max(samples):.3f} |",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", default="1,10", help="comma-separated scales to build")
    ap.add_argument("--repeat", type=int, default=50, help="passes over each query mix")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "out"), help="folder for built orgs")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scales = [float(s) for s in args.scales.split(",")]
    report = [f"## {date.today().isoformat()} — {machine()}", "", "### Org build", ""]
    report += bench_build(out, scales)
    for scale in scales:
        report += ["", f"### Query latency (b2b, scale {scale:g})", ""]
        report += bench_queries(out / f"b2b-x{scale:g}.db", args.repeat)
    report += ["", "### CLI start-up", ""] + bench_startup(out / f"b2b-x{scales[0]:g}.db")
    print("\n".join(report))


if __name__ == "__main__":
    main()

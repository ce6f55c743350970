"""Large-org benchmark: aggregate query latency and the cost of each composite index; prints Markdown.

    python benchmarks/bench_scale.py ORG.db [OTHER.db ...] [--repeat 20] [--index-cost]
    python benchmarks/bench_scale.py --build TREE [OTHER_TREE ...] [--org b2b] [--scale 100] [--out DIR]

Queries: SCALE_QUERIES, the aggregates the task generators' oracle and agents send over a whole
org (issue 16: closed cases per owner, a two-filter COUNT(), ...), each through an OrgSession as
an agent's would run, with the compiled-plan cache kept; several orgs (say, before and after a
change) are measured in interleaved runs.
`--index-cost` drops and recreates each of store.COMPOSITE_INDEXES in a scratch copy of ORG.db
(in the same folder) of the first org and reports its build time and size (SQLite's dbstat).
`--build` builds one org with the code of each source tree (say, worktrees before and after a
change) at the same time, so that the machine's load hits them alike, and reports each build's
wall time, CPU time and peak RSS and PSS of its whole process tree (a forked phase included; sampled from
/proc every 0.1 s), file size and content hash.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
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

    rows = [
        "| query | " + " | ".join(f"{p.name}: wall p50 (p95) / CPU p50 ms" for p in paths) + " |",
        "|---|" + "---|" * len(paths),
    ]
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
            cells = [
                f"{statistics.median(t) * 1000:.1f} ({statistics.quantiles(t, n=20)[18] * 1000:.1f}) "
                f"/ {statistics.median(u) * 1000:.1f}"
                for t, u in zip(samples, cpu)
            ]
            rows.append(f"| `{text}` | " + " | ".join(cells) + " |")
            print(rows[-1], file=sys.stderr)
    return rows


def bench_index_cost(path: Path) -> list[str]:
    """Build seconds and MiB of each composite index, recreated in a scratch copy of `path`."""
    from simulator.crm.store import COMPOSITE_INDEXES, index_statements, read_meta, schema_for

    scratch = path.with_name(f".{path.name}.index-cost")
    shutil.copyfile(path, scratch)
    rows = ["| index | build s | MiB | share of file |", "|---|---|---|---|"]
    try:
        conn = sqlite3.connect(scratch, isolation_level=None)
        conn.execute("PRAGMA cache_size=-200000")
        statements = index_statements(schema_for(read_meta(conn).org))[-len(COMPOSITE_INDEXES) :]
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


_BUILD = (
    "import sys; from pathlib import Path; from simulator.crm.generator import build_org; "
    "print(build_org(sys.argv[1], Path(sys.argv[3]), seed=0, scale=float(sys.argv[2])).content_hash)"
)


def _tree_memory(pid: int) -> tuple[int, int]:
    """The resident bytes (RSS, and PSS) of process `pid` and its descendants (from /proc)."""
    rss, parent = {}, {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            parent[int(d.name)], rss[int(d.name)] = int(fields[1]), int(fields[21]) * resource.getpagesize()
    tree, grew = {pid}, True
    while grew:
        more = {p for p, pp in parent.items() if pp in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(rss.get(p, 0) for p in tree), sum(map(_pss, tree))


def _pss(pid: int) -> int:
    """The proportional set size of process `pid` (shared pages divided among their sharers)."""
    try:
        return next(
            int(line.split()[1]) * 1024 for line in Path(f"/proc/{pid}/smaps_rollup").open() if line.startswith("Pss:")
        )
    except (OSError, StopIteration):
        return 0


def bench_build(trees: list[Path], org: str, scale: float, out: Path) -> list[str]:
    """Build `org` at `scale` with each source tree at once; one Markdown row per build."""
    runs = []
    for i, tree in enumerate(trees):
        path = out / f"build-{i}-{org}-x{scale:g}.db"
        proc = subprocess.Popen(
            [sys.executable, "-c", _BUILD, org, str(scale), str(path)],
            cwd=tree,
            env=dict(os.environ, PYTHONPATH=str(tree)),
            stdout=subprocess.PIPE,
            text=True,
        )
        runs.append(dict(tree=tree, path=path, proc=proc, start=time.perf_counter(), rss=0, pss=0))
    while pending := [r for r in runs if "wall" not in r]:
        for r in pending:
            rss, pss = _tree_memory(r["proc"].pid)
            r.update(rss=max(r["rss"], rss), pss=max(r["pss"], pss))
            pid, status, usage = os.wait4(r["proc"].pid, os.WNOHANG)  # (its rusage counts the children it joined)
            if pid:
                r.update(wall=time.perf_counter() - r["start"], cpu=usage.ru_utime + usage.ru_stime, status=status)
        time.sleep(0.1)
    rows = [
        "| tree | wall s | CPU s | peak RSS MiB (process tree) | peak PSS MiB (tree) | file GiB | content hash |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        digest = r["proc"].stdout.read().strip()[:12] if r["status"] == 0 else f"failed ({r['status']})"
        size = r["path"].stat().st_size / 2**30 if r["path"].exists() else 0
        rows.append(
            f"| {r['tree']} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss'] / 2**20:.0f} | {r['pss'] / 2**20:.0f} | {size:.3f} | {digest} |"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("orgs", type=Path, nargs="*", help="org files (e.g. built with scale 100)")
    ap.add_argument("--repeat", type=int, default=20, help="runs of each query on each org")
    ap.add_argument("--index-cost", action="store_true", help="also measure each composite index's cost")
    ap.add_argument("--build", type=Path, nargs="+", metavar="TREE", help="source trees to build an org with, at once")
    ap.add_argument("--org", default="b2b", help="--build: the org type")
    ap.add_argument("--scale", type=float, default=100.0, help="--build: the scale")
    ap.add_argument("--out", type=Path, default=Path("."), help="--build: the folder for the built orgs")
    args = ap.parse_args()
    if args.build:
        print(
            "\n".join(
                [f"### Org build, {args.org} scale {args.scale:g}, seed 0", ""]
                + bench_build(args.build, args.org, args.scale, args.out)
            )
        )
        return
    if not args.orgs:
        ap.error("give org files, or --build source trees")
    sizes = ", ".join(f"{p.name} {p.stat().st_size / 2**30:.2f} GiB" for p in args.orgs)
    report = [f"### Aggregate queries ({sizes})", ""] + bench_queries(args.orgs, args.repeat)
    if args.index_cost:
        report += ["", f"### Composite index cost ({args.orgs[0].name})", ""] + bench_index_cost(args.orgs[0])
    print("\n".join(report))


if __name__ == "__main__":
    main()

"""CPU time of each phase of an org's generation, per source tree, in interleaved rounds (issue 16).

Each round runs, for each tree in turn, a fresh process (PYTHONPATH=tree) that generates the org into
a scratch SQLite file with the build's settings, every phase in that one process (the phase a build
forks runs there too), and times each phase with process time. Indexes, the content hash and the
merge are not included (generator.build's). Prints the median of the rounds per tree and phase:

    python benchmarks/build_phases.py --code /tmp/base-build /tmp/wt-gencpu --scale 10 --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (column, module, functions) in build order; the forked phase is the leads' transcripts and the cases
PHASES = (
    ("before the fork", "core", ("users", "catalog", "knowledge", "territories", "accounts", "orders")),
    ("before the fork", "sales", ("plan_leads", "write_leads")),
    ("leads' call transcripts", "sales", ("write_lead_calls",)),
    ("cases", "service", ("cases",)),
    ("opportunities", "sales", ("opportunities",)),
)


def child(org: str, scale: float, folder: str) -> dict[str, float]:
    """Generate `org` here with every phase timed: {column: CPU seconds}."""
    import importlib
    import sqlite3

    from simulator.crm import store
    from simulator.crm.generator.build import DEFAULT_AS_OF, WRITE_CACHE_KIB, generate
    from simulator.crm.schema import schema_for

    spent: dict[str, float] = {}

    def timed(column, fn):
        def run(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[column] = spent.get(column, 0.0) + time.process_time() - start

        return run

    for column, module, names in PHASES:
        mod = importlib.import_module(f"simulator.crm.generator.{module}")
        for name in names:
            setattr(mod, name, timed(column, getattr(mod, name)))
    path = Path(folder) / f"{org}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in ("journal_mode=OFF", "synchronous=OFF", f"cache_size=-{WRITE_CACHE_KIB}"):
            conn.execute(f"PRAGMA {pragma}")
        conn.execute("BEGIN")
        store.create_tables(conn, schema_for(org))
        start = time.process_time()
        generate(conn, org, seed=0, scale=scale, as_of=DEFAULT_AS_OF)
        spent["all"] = time.process_time() - start
    finally:
        conn.close()
        path.unlink(missing_ok=True)
    return spent


def measure(tree: str, org: str, scale: float) -> dict[str, float]:
    """One child process generating with the source tree `tree`."""
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    with tempfile.TemporaryDirectory(prefix="build-phases-") as folder:
        out = subprocess.run(
            [sys.executable, __file__, "--child", org, str(scale), folder],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", nargs="+", default=["."], help="source trees (each a checkout of this repository)")
    parser.add_argument("--org", default="b2b")
    parser.add_argument("--scale", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        org, scale, folder = args.child
        print(json.dumps(child(org, float(scale), folder)))
        return
    runs: dict[str, list[dict]] = {tree: [] for tree in args.code}
    for _ in range(args.rounds):
        for tree in args.code:
            runs[tree].append(measure(tree, args.org, args.scale))
    columns = list(dict.fromkeys(column for column, _, _ in PHASES)) + ["all"]
    print(f"{args.org} scale {args.scale:g}, CPU s (median of {args.rounds} interleaved rounds)\n")
    print("| code | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for tree, spent in runs.items():
        print(f"| {tree} | " + " | ".join(f"{statistics.median(s[c] for s in spent):.2f}" for c in columns) + " |")


if __name__ == "__main__":
    main()

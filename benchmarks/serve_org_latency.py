"""Latency of `crmarena serve-org` record create and delete beside queries, reads and updates, with
the real simple-salesforce client (SOAP login with a security token); prints Markdown.

    python benchmarks/serve_org_latency.py ORG.db [--repeats 100]

The server runs in its own process (rest_sessions_memory.serve_org). One login; each repeat runs
every operation once, in the same order (interleaved): a SOQL query by Id, a record GET, an update
of a Case's owner (no searchable field), a SOSL search, then create + delete of an Account (Name
is searchable: the session's SOSL index of Account is rebuilt) and of a Case (Subject and
Description are). Per operation: the first call (the session's first write to the object makes its
overlay) and the median and 90th percentile of the rest.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rest_sessions_memory import CREDS, TOKEN, serve_org
from simple_salesforce import Salesforce

from simulator.servers.sf_client import local_session


def operations(sf: Salesforce, case: str, users: list[str]) -> dict[str, Callable[[int], object]]:
    """Name -> one call of that operation (given the repeat's number)."""
    made: dict[str, str] = {}

    def create(obj: str, fields: dict) -> None:
        made[obj] = getattr(sf, obj).create(fields)["id"]

    return {
        "query by Id": lambda i: sf.query(f"SELECT Id, Subject, Status FROM Case WHERE Id = '{case}'"),
        "get record": lambda i: sf.Case.get(case),
        "update Case owner": lambda i: sf.Case.update(case, {"OwnerId": users[i % 2]}),
        "search (SOSL)": lambda i: sf.search("FIND {invoice} IN ALL FIELDS RETURNING Case(Id) LIMIT 5"),
        "create Account": lambda i: create("Account", {"Name": f"Bench Holdings {i}"}),
        "delete Account": lambda i: sf.Account.delete(made["Account"]),
        "create Case": lambda i: create("Case", {"Subject": f"Bench case {i}", "Description": "Printer jam."}),
        "delete Case": lambda i: sf.Case.delete(made["Case"]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("org", type=Path)
    ap.add_argument("--repeats", type=int, default=100)
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{args.org.resolve()}?mode=ro", uri=True)
    case = conn.execute('SELECT Id FROM "Case" ORDER BY Id LIMIT 1').fetchone()[0]
    users = [r[0] for r in conn.execute("SELECT Id FROM User ORDER BY Id LIMIT 2")]
    rows = {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in ("Account", "Case")}
    conn.close()
    times: dict[str, list[float]] = {}
    with serve_org(args.org) as (base, _):
        sf = Salesforce(
            username=CREDS["username"], password=CREDS["password"], security_token=TOKEN, session=local_session(base)
        )
        ops = operations(sf, case, users)
        for i in range(args.repeats):
            for name, call in ops.items():
                t = time.perf_counter()
                call(i)
                times.setdefault(name, []).append((time.perf_counter() - t) * 1000)
    load = os.getloadavg()
    print(
        f"Org {args.org.name} (Account {rows['Account']:,} rows, Case {rows['Case']:,}); {args.repeats} repeats; "
        f"load average at the end {load[0]:.2f}\n"
    )
    print("| operation | first ms | median ms | p90 ms |\n|---|---|---|---|")
    for name, ms in times.items():
        rest = sorted(ms[1:])
        print(f"| {name} | {ms[0]:.1f} | {statistics.median(rest):.1f} | {rest[int(0.9 * (len(rest) - 1))]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Memory of writing sessions (issue 32, item 8): N sessions on one org, each reassigning a case
(an owner change and its history row, as case_routing's write does) and reading it back, in a
fresh process per mode; the process's resident memory before and after, per session.

    python benchmarks/session_memory.py ORG.db [--sessions 64] [--mode overlay|full-copy]

Without --mode it runs both modes, one process each, and prints a markdown row per mode.
`full-copy` is the sessions before copy-on-write (tests/test_overlay.py's FullCopySession: the
first write deserializes the whole org).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def rss_mib() -> float:
    """This process's resident set size (VmRSS), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def measure(org_path: Path, sessions: int, mode: str) -> dict:
    from simulator.crm.session import OrgSession
    from simulator.crm.store import Org
    from simulator.crm.tools import CrmTools
    from tests.test_overlay import FullCopySession

    org = Org(org_path)
    conn = org.connect()
    cases = [r[0] for r in conn.execute('SELECT Id FROM "Case" ORDER BY Id LIMIT ?', (sessions,))]
    agents = [r[0] for r in conn.execute("SELECT Id FROM User ORDER BY Id LIMIT 2")]
    conn.close()
    kind = OrgSession if mode == "overlay" else FullCopySession
    warm = kind(org)  # (imports, the schema and SQLite's first allocations, paid once)
    warm.soql("SELECT Id FROM Case LIMIT 1")
    before = rss_mib()
    held = []
    for i, case in enumerate(cases):
        session = kind(org)
        assert json.loads(CrmTools(session).assign_case(case, agents[i % 2]))["success"]
        session.soql(f"SELECT OwnerId FROM Case WHERE Id = '{case}'")
        held.append(session)
    after = rss_mib()
    return {
        "mode": mode,
        "sessions": len(held),
        "org_mib": round(org_path.stat().st_size / 2**20, 1),
        "rss_before_mib": round(before, 1),
        "rss_after_mib": round(after, 1),
        "per_session_mib": round((after - before) / len(held), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("org", type=Path)
    ap.add_argument("--sessions", type=int, default=64)
    ap.add_argument("--mode", choices=("overlay", "full-copy"))
    args = ap.parse_args()
    if args.mode:
        print(json.dumps(measure(args.org, args.sessions, args.mode)))
        return
    print("| mode | org (MiB) | sessions | RSS before (MiB) | after (MiB) | per writing session (MiB) |")
    print("|---|---|---|---|---|---|")
    for mode in ("full-copy", "overlay"):
        out = subprocess.run(
            [sys.executable, __file__, str(args.org), "--sessions", str(args.sessions), "--mode", mode],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        r = json.loads(out)
        print(
            f"| {mode} | {r['org_mib']} | {r['sessions']} | {r['rss_before_mib']} | {r['rss_after_mib']} | "
            f"{r['per_session_mib']} |"
        )


if __name__ == "__main__":
    main()

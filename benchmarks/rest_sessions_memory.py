"""Memory of writing REST sessions (issue 32, item 8): `crmarena serve-org ORG` in its own process,
N logins (OAuth2 password flow), each PATCHing the OwnerId of its own case (an owner change and its
history row) and querying it back; the server's resident memory (VmRSS) before and after, per login.

    python benchmarks/rest_sessions_memory.py ORG.db [--logins 64]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx


def rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CREDS = {
    "username": "bench",
    "password": "bench-password",
    "client_id": "bench-client",
    "client_secret": "bench-secret",
}
TOKEN = "x"  # the security token of the SOAP login form


@contextlib.contextmanager
def serve_org(org: Path):
    """`crmarena serve-org ORG` in its own process with CREDS, for the `with` block, once it
    answers: (its base URL, the process)."""
    port = free_port()
    command = [sys.executable, "-m", "simulator.cli", "serve-org", str(org), "--port", str(port)]
    command += [*(f"--{k.replace('_', '-')}={v}" for k, v in CREDS.items()), f"--security-token={TOKEN}"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(f"{base}/services/data/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base, server
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("org", type=Path)
    ap.add_argument("--logins", type=int, default=64)
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{args.org.resolve()}?mode=ro", uri=True)
    cases = [r[0] for r in conn.execute('SELECT Id FROM "Case" ORDER BY Id LIMIT ?', (args.logins,))]
    users = [r[0] for r in conn.execute("SELECT Id FROM User ORDER BY Id LIMIT 2")]
    conn.close()
    with serve_org(args.org) as (base, server):
        form = {"grant_type": "password", **CREDS}
        first = httpx.post(f"{base}/services/oauth2/token", data=form, timeout=60).json()["access_token"]
        httpx.get(
            f"{base}/services/data/v59.0/query",
            params={"q": "SELECT Id FROM Case LIMIT 1"},
            headers={"Authorization": f"Bearer {first}"},
            timeout=60,
        )
        before = rss_mib(server.pid)
        started = time.monotonic()
        for i, case in enumerate(cases):
            token = httpx.post(f"{base}/services/oauth2/token", data=form, timeout=60).json()["access_token"]
            headers = {"Authorization": f"Bearer {token}"}
            done = httpx.patch(
                f"{base}/services/data/v59.0/sobjects/Case/{case}",
                headers=headers,
                timeout=120,
                json={"OwnerId": users[i % 2]},
            )
            assert done.status_code == 204, done.text
            got = httpx.get(
                f"{base}/services/data/v59.0/query",
                headers=headers,
                timeout=60,
                params={"q": f"SELECT OwnerId FROM Case WHERE Id = '{case}'"},
            ).json()
            assert got["records"][0]["OwnerId"] == users[i % 2]
        after = rss_mib(server.pid)
        print(
            f"| serve-org | {args.org.stat().st_size / 2**20:.1f} | {len(cases)} | {before:.1f} | {after:.1f} | "
            f"{(after - before) / len(cases):.3f} | {time.monotonic() - started:.1f} |"
        )


if __name__ == "__main__":
    main()

"""Throughput after a hanging server recovers (issue 32, item 2): 4 callers through the real model
client against the fake OpenAI server (tests/fake_openai.py), timeout 0.2 s, max_wait 0.1 s. A
fault-free run of 3 s, then a run where for 6 s 80% of the requests hang past any timeout; the
answers a second from 0.5 s after the faults stop, against the fault-free rate.

    python benchmarks/timeout_recovery.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.environ["CRMARENA_CACHE"] = tempfile.mkdtemp(prefix="crmarena-recovery-")  # (no pace from an earlier run)
    from tests.fake_openai import FakeOpenAI
    from tests.test_slow_servers import _throughput

    print("| run | fault-free (answers/s) | after the faults stop (answers/s) | ratio |")
    print("|---|---|---|---|")
    with FakeOpenAI() as server:
        _throughput(server, "warm-up", 0.5)
        for i in range(args.repeat):
            base = _throughput(server, f"base-{i}", 3.0)
            start = time.monotonic()
            after = _throughput(server, f"faulty-{i}", 9.5, faults_until=start + 6.0, measure_from=start + 6.5)
            print(f"| {i + 1} | {base:.0f} | {after:.0f} | {after / base:.0%} |")


if __name__ == "__main__":
    main()

"""Time rendering the reports of the golden runs (tests/golden): write_report on each run's scanned
records and summary, the best of --repeat in CPU time (process_time: on a shared machine wall time
mostly measures the neighbours) and wall time, for the code on PYTHONPATH (compare two trees by
running this with each on the path in turn).

    PYTHONPATH=. python benchmarks/report_render.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import evaluators.report
    from evaluators.observer import scan_run
    from evaluators.report import write_report

    try:
        from evaluators.summary import summarize
    except ImportError:  # a tree from before the summary left evaluators.stats
        from evaluators.stats import summarize
    from tests.test_golden_runs import RUNS, unpacked

    print(f"code: {evaluators.report.__file__}")
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name in RUNS:
            folder = unpacked(name, Path(tmp))
            run = scan_run(folder)
            summary = summarize(run.records, mode=run.mode, head=run.head)
            cpu, wall = [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                write_report(folder, run.records, summary, run_info={"run_dir": str(folder)}, full=run.full)
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start)
            total += min(cpu)
            print(
                f"{name}: {len(run.records)} episodes, CPU {min(cpu) * 1000:.0f} ms, wall {min(wall) * 1000:.0f} ms "
                f"(best of {args.repeat})"
            )
    print(f"total CPU: {total * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

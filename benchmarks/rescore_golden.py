"""Time rescoring a stored golden run (tests/golden) with the code of a source tree.

    python benchmarks/rescore_golden.py [--code DIR] [--run all] [--repeat 5]

Unpacks the run into a temporary folder and times `evaluators.observer.rescore` on it (scores,
summary and report written), `--repeat` times in one process, the first of which imports what it
needs; prints the wall and CPU seconds of each and the medians. `--code` is the tree whose
`evaluators` and `simulator` are timed (default: this one), e.g. an older commit unpacked with
`git archive COMMIT | tar -x -C DIR`; the golden run is read from this tree.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=HERE)
    parser.add_argument("--run", default="all", choices=("all", "pressure", "judged"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve())]
    from evaluators.observer import rescore

    sys.path.insert(1, str(HERE))
    from tests.golden.folders import unpacked

    wall, cpu = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            folder = unpacked(args.run, Path(tmp))
            start, start_cpu = time.perf_counter(), time.process_time()
            rescore(folder)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    print(
        f"{args.code}: run {args.run}, wall " + " ".join(f"{t:.2f}" for t in wall) + f" (median "
        f"{statistics.median(wall):.2f} s), cpu " + " ".join(f"{t:.2f}" for t in cpu) + f" (median "
        f"{statistics.median(cpu):.2f} s)"
    )


if __name__ == "__main__":
    main()

"""What the typed records cost: writing a record from its model and reading a run through it.

    python benchmarks/records_io.py            # the `all` golden run (528 episodes)

Write: json.dumps of the record (before) against Record validation + pydantic's JSON dump (now),
per record, best of 5. Read: evaluators.observer.scan_run of the whole run, best of 5, today's
code; compare with an older checkout by running this file with its PYTHONPATH.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best(fn, rounds: int = 5) -> float:
    """The fastest of `rounds` timings of fn(), in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    from evaluators.observer import scan_run

    folder = Path(tempfile.mkdtemp())
    for path in (ROOT / "tests" / "golden" / "all").iterdir():
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as src, (folder / path.stem).open("wb") as out:
                shutil.copyfileobj(src, out)
        else:
            shutil.copy(path, folder / path.name)
    lines = [json.loads(line) for line in (folder / "transcripts.jsonl").open()]
    n = len(lines)
    try:
        from simulator.records import parse_record

        new = best(lambda: [parse_record(d).model_dump_json(exclude_unset=True) for d in lines])
        print(f"write, from the model: {new / n * 1e3:.3f} ms/record")
    except ImportError:
        pass
    old = best(lambda: [json.dumps(d, ensure_ascii=False) for d in lines])
    print(f"write, json.dumps:     {old / n * 1e3:.3f} ms/record")
    print(f"read, scan_run of {n} records: {best(lambda: scan_run(folder)) * 1e3:.0f} ms")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()

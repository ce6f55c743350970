"""What compiling the generator's detectors costs (issue 29, item 4); prints Markdown.

    python benchmarks/detector_compile.py [--rounds 3] [--code DIR ...] [--only compile,run1,...]

The detectors are simulator.crm.generator.grammar.LazyRegex: alternations of every text a grammar
rule can write, compiled on first use. For each checkout in `--code` (default: this one), each
measurement a fresh process, the checkouts interleaved round by round, best of `--rounds`:

- `compile`: making every detector a run or a task draw uses (the union recorded by the workloads
  below, in a first untimed round that also warms every cache) through `LazyRegex.compiled`;
- `run default`: `crmarena run` on configs/default.yaml; `run 1/type`: the same with one instance
  of each task type; `generate`: `crmarena tasks generate` for the b2b org, 10 instances per type.

Each process is given a prelude that records, per LazyRegex compiled, its CPU time: the table
shows the process's wall and CPU time (getrusage of the child) and the CPU time spent making
detectors in it, and which processes compiled detectors at all.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in each measured process before the command: times every LazyRegex compile.
PRELUDE = """
import atexit, json, os, sys, time
from functools import cached_property
from simulator.crm.generator import grammar
_made = []
_compile = grammar.LazyRegex.compiled.func
def _timed(self):
    start = time.process_time()
    out = _compile(self)
    _made.append((self.pattern, int(self._flags), time.process_time() - start))
    return out
_prop = cached_property(_timed)
_prop.__set_name__(grammar.LazyRegex, "compiled")
grammar.LazyRegex.compiled = _prop
atexit.register(lambda: open(os.environ["DETECTOR_LOG"], "w").write(json.dumps(
    {"pid": os.getpid(), "made": _made})))
"""

COMPILE_ALL = """
import json, os, time
from simulator.crm.generator.grammar import LazyRegex
sources = json.load(open(os.environ["DETECTOR_SOURCES"]))
start = time.process_time()
for source, flags in sources:
    LazyRegex(lambda s=source: s, flags).compiled
print(json.dumps({"cpu": time.process_time() - start}))
"""


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(argv: list[str], code: Path, env: dict) -> dict:
    """Wall and CPU seconds of one fresh process, and what its detectors cost."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as log:
        log_path = log.name
    env = {**env, "PYTHONPATH": str(code), "DETECTOR_LOG": log_path}
    before, start = _cpu_children(), time.perf_counter()
    done = subprocess.run([sys.executable, *argv], cwd=code, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, _cpu_children() - before
    if done.returncode:
        raise SystemExit(f"{argv} failed in {code}:\n{done.stderr[-3000:]}")
    text = Path(log_path).read_text()
    os.unlink(log_path)
    if argv[-1] == COMPILE_ALL:  # (no prelude: it times itself)
        return {"wall": wall, "cpu": cpu, "detectors": None, "detector_cpu": json.loads(done.stdout)["cpu"], "made": []}
    made = json.loads(text)["made"]
    return {"wall": wall, "cpu": cpu, "detectors": len(made), "detector_cpu": sum(m[2] for m in made), "made": made}


def cli(*args: str) -> list[str]:
    return ["-c", PRELUDE + f"\nfrom simulator.cli import main\nraise SystemExit(main({list(args)!r}))"]


def workloads(work: Path, org: Path) -> dict[str, list[str]]:
    default = ROOT / "configs" / "default.yaml"
    one = work / "one_per_type.yaml"
    one.write_text(default.read_text().replace("instances_per_task: 2", "instances_per_task: 1"))
    return {
        "run default": cli("run", "--config", str(default), "--out", str(work / "runs"), "--fresh", "--quiet"),
        "run 1/type": cli("run", "--config", str(one), "--out", str(work / "runs"), "--fresh", "--quiet"),
        "generate": cli(
            "tasks", "generate", "--org", str(org), "--per-type", "10", "--out", str(work / "tasks.jsonl"), "--quiet"
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--code", nargs="*", default=[str(ROOT)])
    parser.add_argument("--only", default="", help="comma-separated names of what to time (default: all)")
    parser.add_argument("--org", required=True, help="a b2b org file (crmarena org build)")
    args = parser.parse_args()
    codes = [Path(c).resolve() for c in args.code]
    work = Path(tempfile.mkdtemp(prefix="detector-compile-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    timed = workloads(work, Path(args.org).resolve())
    if args.only:
        timed = {k: v for k, v in timed.items() if k in args.only.split(",")}
    sources: dict[tuple[str, int], None] = {}
    for code in codes:  # (untimed: writes every cache, records the detectors used)
        for argv in timed.values():
            sources.update(dict.fromkeys((s, f) for s, f, _ in measure(argv, code, env)["made"]))
    (work / "sources.json").write_text(json.dumps(list(sources)))
    env["DETECTOR_SOURCES"] = str(work / "sources.json")
    timed = {"compile": ["-c", COMPILE_ALL], **timed}
    for code in codes:
        measure(["-c", COMPILE_ALL], code, env)
    best: dict[tuple[str, Path], dict] = {}
    for _ in range(args.rounds):
        for name, argv in timed.items():
            for code in codes:
                got = measure(argv, code, env)
                if (name, code) not in best or got["cpu"] < best[name, code]["cpu"]:
                    best[name, code] = got
    print(
        f"{len(sources)} detectors, {sum(len(s) for s, _ in sources) / 1e6:.2f} MB of source; "
        f"load average {os.getloadavg()[0]:.2f}; best of {args.rounds} by CPU\n"
    )
    print("| what | code | wall s | CPU s | detectors made | CPU s making them |")
    print("|---|---|---|---|---|---|")
    for (name, code), got in best.items():
        made = "all" if got["detectors"] is None else got["detectors"]
        print(f"| {name} | {code} | {got['wall']:.2f} | {got['cpu']:.2f} | {made} | {got['detector_cpu']:.2f} |")


if __name__ == "__main__":
    main()

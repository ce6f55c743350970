"""Start-up time (issue 16): `crmarena run` to its first model request, `crmarena --help`; prints Markdown.

    python benchmarks/startup_time.py [--repeat 7] [--code DIR ...]

Against the instant OpenAI-compatible server of episode_overhead.py (a child process that notes
when the first chat request arrives), each measurement a fresh `python3` process, the checkouts
interleaved round by round:

- `python3 -c pass`: the interpreter alone;
- `python3 -c "import autogen_ext.models.openai"`: the floor of any run whose model is reached
  through autogen's OpenAI client (it imports the OpenAI SDK, which builds all its types);
- `crmarena --help`;
- `crmarena run` to the server's first model request, for a config of one task type
  (handle_time) and one of all 22 (the plan generates an instance of each).

Bytecode caches are on, as in an installed package (a sandbox's PYTHONDONTWRITEBYTECODE is
dropped, and one untimed round writes them, with the org and compiled-pattern caches: a machine's
first run is slower, see benchmarks/RESULTS.md). Minimum and median of `--repeat` rounds, in seconds:
on a shared machine the minimum is the figure least disturbed by other load.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from episode_overhead import KEY_ENV, _ask, _cpu_model, config, instant_server

ROOT = Path(__file__).resolve().parent.parent
SDK_FLOOR = "import autogen_ext.models.openai"


def commands(config_paths: dict[str, Path]) -> dict[str, list[str]]:
    """What is timed: name -> argv after `python3`."""
    timed = {"pass": ["-c", "pass"], "sdk import": ["-c", SDK_FLOOR], "--help": ["-m", "simulator.cli", "--help"]}
    for name, path in config_paths.items():
        timed[f"run, {name}"] = ["-m", "simulator.cli", "run", "--config", str(path), "--fresh", "--quiet"]
    return timed


def time_one(argv: list[str], code: str, port: int) -> float:
    """Seconds for one process: to its exit, or for a run to the server's first model request."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=code, **{KEY_ENV: "sk-bench-local"})
    run = "run" in argv
    if run:
        _ask(port, "POST", "/turns/2")
    start = time.time()
    subprocess.run([sys.executable, *argv], env=env, cwd=code, check=True, capture_output=True)
    return (_ask(port, "GET", "/stats")["first_at"] - start) if run else time.time() - start


def measure(codes: list[str], port: int, repeat: int, tmp: Path) -> dict[str, dict[str, list[float]]]:
    paths = {}
    for name, tasks in (("1 task type", ["handle_time"]), ("22 task types", None)):
        cfg = config(port, 1, 2, str(tmp / "runs"))
        if tasks is None:
            cfg.pop("tasks")
        paths[name] = tmp / f"{len(paths)}.json"
        paths[name].write_text(json.dumps(cfg))
    timed = commands(paths)
    times: dict[str, dict[str, list[float]]] = {c: {name: [] for name in timed} for c in codes}
    for round_ in range(repeat + 1):  # round 0 writes the bytecode caches and the org cache: untimed
        for code in codes:
            for name, argv in timed.items():
                seconds = time_one(argv, code, port)
                if round_:
                    times[code][name].append(seconds)
    return times


def report(times: dict[str, dict[str, list[float]]], started: str) -> str:
    load = os.getloadavg()
    names = list(next(iter(times.values())))
    lines = [
        f"Machine: {os.cpu_count()} cores, {_cpu_model()}, Python {sys.version.split()[0]}; started {started}; "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        f"Command: `python benchmarks/startup_time.py {' '.join(sys.argv[1:])}`",
        "",
        "min / median, s:",
        "",
        "| code | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for code, by_name in times.items():
        lines.append(
            f"| {code} | " + " | ".join(f"{min(v):.2f} / {statistics.median(v):.2f}" for v in by_name.values()) + " |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed rounds (after one untimed)")
    parser.add_argument("--code", action="append", default=[], help="another checkout to time too")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    codes = [str(ROOT)] + [str(Path(c).resolve()) for c in args.code]
    with instant_server() as port, tempfile.TemporaryDirectory() as tmp:
        print(report(measure(codes, port, args.repeat, Path(tmp)), started))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Rate-limit benchmark: a 200-episode `crmarena run` against a provider enforcing 60 requests/minute.

    python benchmarks/rate_limits.py [--episodes 200] [--scale 1.0] [--record]

tests/fake_openai.py's server on loopback answers at most 60 requests in any minute (a sliding
window) and refuses the rest with a 429 and Retry-After. The run: a function-calling agent on
that server, the scripted person, `workers: 2`, concurrency 8, knowledge_qa and
private_customer_information in full mode (the server's first reply ends each episode, so an
episode costs one request when nothing is refused). It is played twice: with `rpm: 60` on the
agent's model (the shared limiter), and without (only Retry-After and the AIMD back-off).
`--scale 0.05` shortens the minute (the server's window and simulator.models.ratelimit.MINUTE) to 3 s,
as tests/test_rate_limits.py does. `--record` appends the table to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.cli import main as crmarena
from simulator.models import ratelimit
from tests.fake_openai import FakeOpenAI, reply

LIMIT = 60  # requests the server answers per minute
TASKS = ["knowledge_qa", "private_customer_information"]
INSTANCES = 20  # per task type; trials make up the rest of the episodes


def play(folder: Path, *, episodes: int, rpm: int | None, minute: float = 60.0) -> dict:
    """One `crmarena run` against a server answering LIMIT requests per `minute` seconds; what it
    cost: episodes, answered and refused requests, refused share, infra errors, wall time, exit code."""
    trials, rest = divmod(episodes, len(TASKS) * INSTANCES)
    if rest:
        raise ValueError(f"episodes must be a multiple of {len(TASKS) * INSTANCES}")
    saved, ratelimit.MINUTE = ratelimit.MINUTE, minute  # set before the workers fork
    try:
        with FakeOpenAI() as server:
            server.limit_rate(LIMIT, per=minute)
            server.responder = lambda body: reply("I could not find it.")
            model = {"model": "fake-model", "base_url": server.base_url, **({"rpm": rpm} if rpm else {})}
            config = {
                "name": "rl",
                "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
                "tasks": TASKS,
                "instances_per_task": INSTANCES,
                "trials": trials,
                "modes": ["full"],
                "personas_per_pool": 1,
                "agent": {"kind": "function_calling", "model": model},
                "user": {"kind": "scripted"},
                "concurrency": 8,
                "workers": 2,
                "out": str(folder / "runs"),
            }
            (folder / "run.yaml").write_text(yaml.safe_dump(config))
            started = time.monotonic()
            code = crmarena(["run", "--config", str(folder / "run.yaml"), "-q"])
            wall = time.monotonic() - started
            answered, refused = len(server.requests), len(server.refused)
    finally:
        ratelimit.MINUTE = saved
    counts = json.loads((folder / "runs" / "rl" / "summary.json").read_text())["counts"]
    return {
        "episodes": counts["episodes"],
        "requests": answered + refused,
        "refused": refused,
        "refused_share": refused / max(1, answered + refused),
        "infra_errors": counts["infra_errors"],
        "wall_s": wall,
        "exit": code,
    }


def table(results: dict[str, dict]) -> str:
    rows = [
        "| limiter | episodes | requests | refused | refused % | infra errors | wall time | exit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        rows.append(
            f"| {name} | {r['episodes']} | {r['requests']} | {r['refused']} | {r['refused_share']:.1%} "
            f"| {r['infra_errors']} | {r['wall_s']:.0f} s | {r['exit']} |"
        )
    return "\n".join(rows)


def cpu_model() -> str:
    """The processor's name (Linux), else the machine type."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.machine()
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), platform.machine())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--scale", type=float, default=1.0, help="the minute's length, as a share of 60 s")
    parser.add_argument("--record", action="store_true", help="append the result to benchmarks/RESULTS.md")
    args = parser.parse_args()
    minute = 60.0 * args.scale
    results = {}
    for name, rpm in ((f"rpm: {LIMIT}", LIMIT), ("none (Retry-After and AIMD only)", None)):
        with tempfile.TemporaryDirectory() as tmp:
            results[name] = play(Path(tmp), episodes=args.episodes, rpm=rpm, minute=minute)
        print(name, results[name], flush=True)
    text = table(results)
    print(text)
    if args.record:
        machine = f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write(
                f"\n## Rate limits ({date.today()}, {machine}, server: {LIMIT} requests per "
                f"{minute:g} s)\n\n`python benchmarks/rate_limits.py --episodes {args.episodes}"
                f"{f' --scale {args.scale:g}' if args.scale != 1 else ''}`\n\n{text}\n"
            )


if __name__ == "__main__":
    main()

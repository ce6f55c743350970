"""Calls in flight to a local server: measured (the default) against the old fixed one (issue 32, item 9).

    python benchmarks/inflight.py [--seconds 30] [--callers 128] [--record]

A fake OpenAI-compatible server on 127.0.0.1 (tests/fake_openai.py in its own process) works on
N requests at once, LATENCY seconds each, and queues the rest. CALLERS callers ask it through the
real client path (simulator.models.clients.build_client, the built-in chat client) for SECONDS; the
answers per second are compared with the server's ideal, N / LATENCY. Each width is played with
the default settings of a loopback base_url (calls in flight measured) and with
`max_concurrency: 1` (what the local defaults gave before). Then a serial slow server (2 s a
request, timeout 5 s, 8 callers, 60 s): timeouts counted per 10 s. `--record` appends the
tables to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WIDTHS = [(1, 0.05), (4, 0.1), (64, 0.5)]  # (requests at once, seconds each)


def serve(width: int, latency: float) -> None:
    """The server process: prints its base_url, serves until stdin closes."""
    from tests.fake_openai import FakeOpenAI, reply

    with FakeOpenAI() as server:
        server.serve_at_once(width, latency)
        server.responder = lambda body: reply("ok")
        print(server.base_url, flush=True)
        sys.stdin.read()


def started_server(width: int, latency: float) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(width), str(latency)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    return process, process.stdout.readline().strip()


async def drive(spec, callers: int, seconds: float) -> dict:
    """`callers` callers asking for `seconds`; answers, timeouts (the server's pace) and the cap each 10 s."""
    from autogen_core.models import UserMessage

    from simulator.infra.errors import InfraError
    from simulator.models import clients as models
    from simulator.models.clients import build_client

    client, answered, end = build_client(spec), [], time.monotonic() + seconds
    start = time.monotonic()

    async def caller():
        while time.monotonic() < end:
            try:
                await client.create([UserMessage(content="How many open cases?", source="user")])
                if time.monotonic() <= end:  # (not the callers queued at the end, answered after it)
                    answered.append(time.monotonic())
            except InfraError:
                pass

    async def watch(samples):
        limit = models._concurrency(spec)
        while time.monotonic() < end - 0.01:
            await asyncio.sleep(min(10.0, seconds / 3, end - time.monotonic()))
            with limit.pace._locked(write=False) as pace:
                samples.append((round(time.monotonic() - start), int(pace.timeouts), limit.limit()))

    samples: list[tuple[int, int, int]] = []
    tasks = [asyncio.create_task(caller()) for _ in range(callers)]
    await watch(samples)
    for task in tasks:  # (the callers still queued at the end are not waited for)
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await client.close()
    return {"answered": len(answered), "seconds": seconds, "samples": samples}


def play(width: int, latency: float, callers: int, seconds: float, **extra) -> dict:
    from simulator.models.clients import parse_model_spec

    process, url = started_server(width, latency)
    try:
        spec = parse_model_spec({"model": f"fake-{width}", "base_url": url, **extra}, "agent.model")
        return asyncio.run(drive(spec, callers, seconds))
    finally:
        process.stdin.close()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--callers", type=int, default=128)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--serve", nargs=2, type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(int(args.serve[0]), args.serve[1])
    os.environ["CRMARENA_CACHE"] = tempfile.mkdtemp(prefix="inflight-")  # a fresh server pace
    rows = [
        "| server (at once x s each) | settings | answers/s | ideal | % of ideal | calls in flight at the end |",
        "|---|---|---|---|---|---|",
    ]
    for width, latency in WIDTHS:
        for label, extra in (("default (measured)", {}), ("max_concurrency: 1 (before)", {"max_concurrency": 1})):
            out = play(width, latency, args.callers, args.seconds, **extra)
            rate, ideal = out["answered"] / out["seconds"], width / latency
            rows.append(
                f"| {width} x {latency:g} s | {label} | {rate:.1f} | {ideal:.0f} | {100 * rate / ideal:.0f}% "
                f"| {out['samples'][-1][2] if out['samples'] else '-'} |"
            )
            print(rows[-1], flush=True)
    slow = play(1, 2.0, 8, 60.0, timeout=5.0)
    series = ", ".join(f"{t} s: {n} timeouts, cap {cap}" for t, n, cap in slow["samples"])
    lines = [
        f"Serial slow server (2 s a request, timeout 5 s, 8 callers, 60 s, default settings): "
        f"{slow['answered']} answered; {series}"
    ]
    print(lines[0])
    if args.record:
        record(rows + [""] + lines, args)


def record(lines: list[str], args) -> None:
    head = (
        f"\n## Calls in flight to a local server, measured (issue 32, item 9)\n\n"
        f"{date.today()}, {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"`python benchmarks/inflight.py --seconds {args.seconds:g} --callers {args.callers} --record`. "
        f"{args.callers} callers through build_client and the built-in chat client; the server "
        f"(tests/fake_openai.py, its own process) works on N requests at once and queues the rest; "
        f"answers/s over the whole {args.seconds:g} s, the ramp included.\n\n"
    )
    with open(ROOT / "benchmarks" / "RESULTS.md", "a") as out:
        out.write(head + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

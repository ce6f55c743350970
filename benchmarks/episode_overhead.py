"""Harness overhead per model call and per episode, in tau2-bench's terms (issue 16); prints Markdown.

    python benchmarks/episode_overhead.py [--episodes 12] [--turns 2,10] [--rounds 2] [--code DIR ...]

Runs `simulator.runs.run.execute` (the code of `crmarena run`: plan, the function-calling agent, the
LLM person with structured output, the CRM tools, scoring, the fsync'ed transcripts) with
concurrency 1, sharded episodes, against an instant OpenAI-compatible server in a child
process (asyncio, HTTP/1.1 keep-alive; its CPU is not ours). The server counts the calls and
scripts both roles: the agent (a request with `tools`) makes one `soql` call per turn then
answers; the person (a request with a response format) reveals nothing new and ends with
`done, patience` at user turn T, so an episode has T user turns and 3T-2 model calls.

Per configuration: wall and CPU ms per model call (totals / calls), and a fit over the turn
counts, wall per episode = fixed + calls x per-call. Episodes/hour = 3600 / wall per episode
(one at a time). tau2-bench's side-by-side figures (issue 16: 33 ms wall per call, 0.88 s fixed
per episode) give its episodes/hour for conversations of the same length.

`--code DIR` (repeatable) benchmarks other checkouts of the project too (e.g. a worktree of
main), each in its own process, interleaved round by round with this one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fake_http import serve_http

ROOT = Path(__file__).resolve().parent.parent
TAU2_MS_PER_CALL, TAU2_FIXED_S = 33.0, 0.88  # issue 16, measured side by side on this machine
KEY_ENV = "CRMARENA_BENCH_KEY"
QUERY = "SELECT Id, Subject, Status FROM Case ORDER BY CreatedDate DESC LIMIT 5"


# ---------------------------------------------------------------- the instant model server


def respond(body: dict) -> tuple[str, dict]:
    """(role, completion) for one chat request: the agent's or the person's scripted step."""
    messages = body["messages"]
    if body.get("tools"):
        if messages[-1]["role"] == "tool":
            message = {"role": "assistant", "content": "The latest cases are listed above; the answer is 3."}
        else:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{len(messages)}",
                        "type": "function",
                        "function": {"name": "soql", "arguments": json.dumps({"query": QUERY})},
                    }
                ],
            }
        role = "agent"
    else:
        turn = 1 + sum(m["role"] == "user" and "The agent replied" in str(m["content"]) for m in messages)
        done = turn >= int(os.environ.get("BENCH_TURNS", "2"))
        person = {
            "message": "Thanks, that is all." if done else f"Can you check that again? ({turn})",
            "revealed": [],
            "done": done,
            "reason": "patience" if done else "",
        }
        message, role = {"role": "assistant", "content": json.dumps(person)}, "person"
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return role, {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model"),
        "usage": {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020},
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }


async def serve() -> None:
    """Serve on 127.0.0.1 (port printed on stdout); GET /stats -> calls per role, POST /turns/N
    sets the person's turns."""
    stats = {"agent": 0, "person": 0, "request_bytes": 0, "first_at": None}

    async def route(method: str, path: str, body: bytes) -> bytes:
        if path.startswith("/stats"):
            return json.dumps(stats).encode()
        if path.startswith("/turns/"):
            os.environ["BENCH_TURNS"] = path.rsplit("/", 1)[1]
            stats["first_at"] = None
            return b"{}"
        role, completion = respond(json.loads(body))
        stats[role] += 1
        stats["first_at"] = stats["first_at"] or time.time()
        stats["request_bytes"] += len(body)
        return json.dumps(completion).encode()

    await serve_http(route, lambda port: print(port, flush=True))


@contextlib.contextmanager
def instant_server(script: str = __file__):
    """The instant server of `script` (its `--serve`) in a child process (its CPU is not ours) for
    the `with` block: its port."""
    server = subprocess.Popen([sys.executable, script, "--serve"], stdout=subprocess.PIPE, text=True)
    try:
        yield int(server.stdout.readline())
    finally:
        server.terminate()
        server.wait()


def _ask(port: int, method: str, path: str) -> dict:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path)
    return json.loads(conn.getresponse().read())


# ---------------------------------------------------------------- one measured run (child process)


def instant_model(port: int) -> dict:
    """The model spec of the instant server on `port`, one request at a time."""
    return {
        "model": "instant",
        "base_url": f"http://127.0.0.1:{port}/v1",
        "api_key_env": KEY_ENV,
        "max_concurrency": 1,
        "timeout": 30,
    }


def child_rows(command: list[str], code: str | Path, what: str) -> list[dict]:
    """Run a measuring child (`command`, with `code` as its checkout) and return the JSON rows it
    printed; exit naming `what` with the child's error output when it fails."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(command, env=env, cwd=code, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{what} failed:\n{done.stderr[-3000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def config(port: int, episodes: int, turns: int, out: str) -> dict:
    model = instant_model(port)
    return {
        "name": "overhead",
        "orgs": [{"type": "b2b", "seed": 0, "scale": 1}],
        "tasks": ["handle_time"],
        "instances_per_task": episodes,
        "task_seed": 0,
        "modes": ["sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "function_calling", "model": model},
        "user": {"kind": "llm", "model": model},
        "limits": {"max_user_turns": turns + 2, "max_agent_steps": 5},
        "trials": 1,
        "seed": 0,
        "concurrency": 1,
        "out": out,
    }


def measure(port: int, episodes: int, turns: int, profiler=None) -> dict:
    """Run one config in this process: wall, CPU, calls (counted on the server), episodes; `profiler`
    (a cProfile.Profile) runs during the episodes alone."""
    import yaml

    import simulator.runs.run
    from simulator.infra.log import setup_logging
    from simulator.runs.config import load_config
    from simulator.runs.run import execute

    setup_logging("WARNING")
    play, phase = simulator.runs.run.play_all, {}

    def timed_play(*args, **kwargs):  # the episodes alone: the run's own start and report apart
        wall, cpu = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        try:
            return play(*args, **kwargs)
        finally:
            if profiler:
                profiler.disable()
            phase.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu)

    simulator.runs.run.play_all = timed_play
    os.environ[KEY_ENV] = "sk-bench-local"
    _ask(port, "POST", f"/turns/{turns}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.yaml"
        path.write_text(yaml.safe_dump(config(port, episodes, turns, str(Path(tmp) / "runs"))))
        cfg = load_config(path)
        before = _ask(port, "GET", "/stats")
        wall = time.perf_counter()
        result = execute(cfg, say=lambda _: None, fresh=True)
        wall = time.perf_counter() - wall
        after = _ask(port, "GET", "/stats")
    simulator.runs.run.play_all = play
    reasons = {}
    for record in result.scored:
        reason = record["termination"]
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "wall": phase["wall"],
        "cpu": phase["cpu"],
        "run_wall": wall,
        "episodes": len(result.scored),
        "reasons": reasons,
        "calls": {k: after[k] - before[k] for k in ("agent", "person", "request_bytes")},
    }


def child_main(code: str, port: int, episodes: int, turns: list[int], profile: str | None) -> None:
    """A measuring process for one checkout: a warm-up run, then one run per turn count (JSON
    lines); with `profile`, the cProfile stats (CPU time) of the measured runs' episodes go to that file."""
    import cProfile

    sys.path.insert(0, code)
    measure(port, 2, 2)  # imports, the cached org, first clients
    profiler = cProfile.Profile(time.process_time) if profile else None  # CPU, as the target
    for t in turns:
        row = measure(port, episodes, t, profiler)
        print(json.dumps({"turns": t, **row}), flush=True)
    if profiler:
        profiler.dump_stats(profile)


# ---------------------------------------------------------------- the report


def fit(rows: list[dict]) -> dict:
    """Per configuration: totals per turn count, and the line wall/episode = fixed + calls x per_call."""
    by_turns: dict[int, dict] = {}
    for r in rows:
        s = by_turns.setdefault(r["turns"], {"wall": 0.0, "cpu": 0.0, "episodes": 0, "calls": 0})
        s["wall"] += r["wall"]
        s["cpu"] += r["cpu"]
        s["episodes"] += r["episodes"]
        s["calls"] += r["calls"]["agent"] + r["calls"]["person"]
        s["bytes"] = s.get("bytes", 0) + r["calls"]["request_bytes"]
    points = sorted((s["calls"] / s["episodes"], s["wall"] / s["episodes"]) for s in by_turns.values())
    (c0, w0), (c1, w1) = points[0], points[-1]
    slope = (w1 - w0) / (c1 - c0)
    return {"by_turns": by_turns, "per_call_s": slope, "fixed_s": w0 - slope * c0}


def report(results: dict[str, list[dict]], started: str) -> str:
    load = os.getloadavg()
    lines = [
        f"Machine: {os.cpu_count()} cores, {_cpu_model()}, Python {platform.python_version()}; "
        f"started {started}; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        f"Command: `python benchmarks/episode_overhead.py {' '.join(sys.argv[1:])}`",
        "",
        "| code | user turns | calls/episode | wall ms/call | CPU ms/call | wall s/episode | episodes/hour "
        "| tau2 episodes/hour | x tau2 | request KB/call |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    fits = {}
    for code, rows in results.items():
        fits[code] = f = fit(rows)
        for turns, s in sorted(f["by_turns"].items()):
            calls, per_episode = s["calls"] / s["episodes"], s["wall"] / s["episodes"]
            tau2 = 3600 / (TAU2_FIXED_S + calls * TAU2_MS_PER_CALL / 1000)
            lines.append(
                f"| {code} | {turns} | {calls:.0f} | {s['wall'] / s['calls'] * 1000:.2f} "
                f"| {s['cpu'] / s['calls'] * 1000:.2f} | {per_episode:.3f} | {3600 / per_episode:,.0f} "
                f"| {tau2:,.0f} | {3600 / per_episode / tau2:.1f} | {s['bytes'] / s['calls'] / 1024:.1f} |"
            )
    lines += [
        "",
        "Fit over the turn counts (wall per episode = fixed + calls x per call):",
        "",
        "| code | wall ms per call | fixed ms per episode |",
        "|---|---|---|",
    ]
    lines += [f"| {code} | {f['per_call_s'] * 1000:.2f} | {f['fixed_s'] * 1000:.1f} |" for code, f in fits.items()]
    lines.append(f"| tau2-bench (issue 16) | {TAU2_MS_PER_CALL:.2f} | {TAU2_FIXED_S * 1000:.1f} |")
    reasons = {code: sorted({k for r in rows for k in r["reasons"]}) for code, rows in results.items()}
    lines += ["", f"Terminations: {reasons}"]
    return "\n".join(lines)


def _cpu_model() -> str:
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        return next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=12, help="episodes per turn count and round")
    parser.add_argument("--turns", default="2,10", help="user turns per episode (two or more counts)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds per checkout")
    parser.add_argument("--code", action="append", default=[], help="another checkout to benchmark too")
    parser.add_argument("--profile", help="with --child: cProfile stats of the measured runs to this file")
    parser.add_argument("--child", nargs=2, metavar=("CODE", "PORT"), help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    turns = [int(t) for t in args.turns.split(",")]
    if args.serve:
        asyncio.run(serve())
        return 0
    if args.child:
        child_main(args.child[0], int(args.child[1]), args.episodes, turns, args.profile)
        return 0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    codes = [str(ROOT)] + [str(Path(c).resolve()) for c in args.code]
    results: dict[str, list[dict]] = {c: [] for c in codes}
    with instant_server() as port:
        for _ in range(args.rounds):
            for code in codes:
                command = [sys.executable, __file__, "--child", code, str(port), "--episodes", str(args.episodes)]
                results[code] += child_rows([*command, "--turns", args.turns], code, f"a round of {code}")
    print(report(results, started))
    return 0


if __name__ == "__main__":
    sys.exit(main())

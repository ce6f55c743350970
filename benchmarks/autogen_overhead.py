"""Harness overhead of autogen components as the agent under test (issue 31), beside the built-in
function-calling agent; prints Markdown.

    python benchmarks/autogen_overhead.py [--instances 3] [--rounds 5] [--code DIR ...]

Each agent (`function_calling`, and `kind: autogen` with configs/autogen/{assistant,round_robin,
selector}.json, every model client replaced by the run's model) plays the same episodes through
`simulator.runs.run.execute` (the code of `crmarena run`): b2b org, the tasks of
configs/autogen-teams.yaml, full and sharded, scripted people, concurrency 1. The model is an
instant OpenAI-compatible server in a child process (its CPU is not ours): a speaker selector is
answered with the next role (the analyst after the person spoke, else the writer), an agent with
tools calls `soql` once and then replies, any other seat replies. Its `usage` is honest about
size: prompt tokens = request bytes / 4.

A round is one measuring process: a warm-up run of every agent (imports, the cached org), then
one measured run per agent, the agents' order rotated round by round (interleaved). Per agent:
wall and CPU of the episodes alone (the run's start and report apart) per episode and per model
call (calls counted on the server), and from the records, model calls and tokens per episode.
`--code DIR` (repeatable) measures another checkout too (its own rounds, interleaved with these).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from episode_overhead import KEY_ENV, _ask, _cpu_model, child_rows, instant_model, instant_server
from fake_http import serve_http

ROOT = Path(__file__).resolve().parent.parent

TASKS = ["handle_time", "knowledge_qa", "case_routing", "private_customer_information"]  # autogen-teams.yaml's
AGENTS = ("function_calling", "assistant", "round_robin", "selector")
QUERY = "SELECT Id, Subject, Status FROM Case ORDER BY CreatedDate DESC LIMIT 5"


# ---------------------------------------------------------------- the instant model server


def answer(body: dict) -> dict:
    """The assistant message a model in the request's seat would send (see the module docstring)."""
    messages = body["messages"]
    text = "\n".join(str(m.get("content") or "") for m in messages)
    if "select the next role" in text:
        history = text.rsplit("Read the following conversation.", 1)[1]
        return {
            "role": "assistant",
            "content": "analyst" if history.rfind("user:") > history.rfind("analyst:") else "writer",
        }
    if body.get("tools") and messages[-1]["role"] != "tool":
        call = {
            "id": f"call_{len(messages)}",
            "type": "function",
            "function": {"name": "soql", "arguments": json.dumps({"query": QUERY})},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": "I looked the cases up: the answer is 3."}


async def serve() -> None:
    """Serve on 127.0.0.1 (port printed on stdout); GET /stats -> calls and request bytes so far."""
    stats = {"calls": 0, "request_bytes": 0}

    async def route(method: str, path: str, body: bytes) -> bytes:
        if path.startswith("/stats"):
            return json.dumps(stats).encode()
        request = json.loads(body)
        message = answer(request)
        stats["calls"] += 1
        stats["request_bytes"] += len(body)
        completion = len(json.dumps(message)) // 4
        usage = {
            "prompt_tokens": len(body) // 4,
            "completion_tokens": completion,
            "total_tokens": len(body) // 4 + completion,
        }
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        choice = {"index": 0, "message": message, "finish_reason": finish}
        reply = {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model"),
            "usage": usage,
            "choices": [choice],
        }
        return json.dumps(reply).encode()

    await serve_http(route, lambda port: print(port, flush=True))


# ---------------------------------------------------------------- one measured run (child process)


def agent_entry(agent: str, model: dict) -> dict:
    """The run config's entry for one of AGENTS on `model`."""
    if agent == "function_calling":
        return {"kind": "function_calling", "model": model, "label": agent}
    return {
        "kind": "autogen",
        "component": str(ROOT / "configs" / "autogen" / f"{agent}.json"),
        "model": model,
        "label": agent,
    }


def config(port: int, agent: str, instances: int, out: str) -> dict:
    """The run config of one agent's measured run (the module docstring's episodes)."""
    model = instant_model(port)
    return {
        "name": "autogen-overhead",
        "orgs": [{"type": "b2b", "seed": 0, "scale": 1}],
        "tasks": TASKS,
        "instances_per_task": instances,
        "task_seed": 0,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": [agent_entry(agent, model)],
        "user": {"kind": "scripted"},
        "limits": {"max_user_turns": 10, "max_agent_steps": 10},
        "trials": 1,
        "seed": 0,
        "concurrency": 1,
        "out": out,
    }


def measure(port: int, agent: str, instances: int) -> dict:
    """Run one agent's config in this process: the episodes' wall and CPU, server calls, record usage."""
    import yaml

    import simulator.runs.run
    from simulator.runs.config import load_config
    from simulator.runs.transcript import read_records

    play, phase = simulator.runs.run.play_all, {}

    def timed_play(*args, **kwargs):  # the episodes alone
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return play(*args, **kwargs)
        finally:
            phase.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu)

    simulator.runs.run.play_all = timed_play
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "run.yaml"
            path.write_text(yaml.safe_dump(config(port, agent, instances, str(Path(tmp) / "runs"))))
            before = _ask(port, "GET", "/stats")
            simulator.runs.run.execute(load_config(path), say=lambda _: None, fresh=True)
            after = _ask(port, "GET", "/stats")
            records = list(read_records(next((Path(tmp) / "runs").iterdir()) / "transcripts.jsonl"))
    finally:
        simulator.runs.run.play_all = play
    usage = [r.get("usage", {}).get("agent", {}) for r in records]
    by_mode: dict[str, dict[str, int]] = {}
    for record, used in zip(records, usage, strict=True):
        m = by_mode.setdefault(record["mode"], {"episodes": 0, "calls": 0, "prompt_tokens": 0})
        m["episodes"] += 1
        m["calls"] += used.get("calls", 0)
        m["prompt_tokens"] += used.get("prompt_tokens", 0)
    return {
        "agent": agent,
        **phase,
        "episodes": len(records),
        "calls": after["calls"] - before["calls"],
        "request_bytes": after["request_bytes"] - before["request_bytes"],
        "record_calls": sum(u.get("calls", 0) for u in usage),
        "prompt_tokens": sum(u.get("prompt_tokens", 0) for u in usage),
        "completion_tokens": sum(u.get("completion_tokens", 0) for u in usage),
        "tool_calls": sum(sum(len(m.get("tool_calls") or []) for m in r["messages"]) for r in records),
        "by_mode": by_mode,
        "terminations": sorted({r["termination"]["reason"] for r in records}),
    }


def child_main(port: int, instances: int, rotate: int) -> None:
    """One round: a warm-up run of each agent, then one measured run each (JSON lines), in an order
    rotated by `rotate`."""
    from simulator.infra.log import setup_logging

    setup_logging("WARNING")
    os.environ[KEY_ENV] = "sk-bench-local"
    for agent in AGENTS:
        measure(port, agent, 1)
    order = AGENTS[rotate % len(AGENTS) :] + AGENTS[: rotate % len(AGENTS)]
    for agent in order:
        print(json.dumps(measure(port, agent, instances)), flush=True)


# ---------------------------------------------------------------- the report


def per(rows: list[dict], f) -> float:
    """The median over rounds of `f(row)`."""
    return statistics.median(f(r) for r in rows)


def ratio(rows: list[dict], base: dict[int, dict], key: str) -> float:
    """The median over rounds of (key per episode) / (function_calling's in the same round)."""
    return per(rows, lambda r: (r[key] / r["episodes"]) / (base[r["round"]][key] / base[r["round"]]["episodes"]))


def agent_line(code: str, agent: str, rows: list[dict], base: dict[int, dict]) -> str:
    """One agent's row of the overhead table."""
    cells = [
        code,
        agent,
        rows[0]["episodes"],
        f"{per(rows, lambda r: r['calls'] / r['episodes']):.1f}",
        f"{per(rows, lambda r: r['tool_calls'] / r['episodes']):.1f}",
        f"{per(rows, lambda r: r['prompt_tokens'] / r['episodes']):,.0f}",
        f"{per(rows, lambda r: r['completion_tokens'] / r['episodes']):,.0f}",
        f"{per(rows, lambda r: r['wall'] / r['episodes'] * 1000):.0f}",
        f"{ratio(rows, base, 'wall'):.2f}",
        f"{per(rows, lambda r: r['cpu'] / r['episodes'] * 1000):.0f}",
        f"{ratio(rows, base, 'cpu'):.2f}",
        f"{per(rows, lambda r: r['wall'] / r['calls'] * 1000):.1f}",
        f"{per(rows, lambda r: r['cpu'] / r['calls'] * 1000):.1f}",
    ]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def mode_lines(rows: list[dict]) -> list[str]:
    """Model calls and prompt tokens per episode, full and sharded, per agent (the first round's)."""
    lines = ["| agent | mode | episodes | model calls/episode | prompt tokens/episode |", "|---|---|---|---|---|"]
    for agent in AGENTS:
        first = next((r for r in rows if r["agent"] == agent), None)
        for mode, m in sorted((first or {}).get("by_mode", {}).items()):
            e = m["episodes"]
            lines.append(f"| {agent} | {mode} | {e} | {m['calls'] / e:.1f} | {m['prompt_tokens'] / e:,.0f} |")
    return lines


def report(rows: list[dict], started: str, seconds: float) -> str:
    load = os.getloadavg()
    lines = [
        f"Machine: {os.cpu_count()} cores, {_cpu_model()}; started {started}, {seconds:.0f} s; "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        f"Command: `python benchmarks/autogen_overhead.py {' '.join(sys.argv[1:])}`",
        "",
        "Medians over the rounds (per round: totals / episodes or / calls); x fc = the median of the "
        "per-round ratios to function_calling in the same round.",
        "",
        "| code | agent | episodes/round | model calls/episode | tool calls/episode | prompt tokens/episode "
        "| completion tokens/episode | wall ms/episode | x fc | CPU ms/episode | x fc | wall ms/call | CPU ms/call |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for code in dict.fromkeys(r["code"] for r in rows):
        mine = [r for r in rows if r["code"] == code]
        base = {r["round"]: r for r in mine if r["agent"] == "function_calling"}
        lines += [agent_line(code, a, [r for r in mine if r["agent"] == a], base) for a in AGENTS]
    mismatch = sorted({r["agent"] for r in rows if r["record_calls"] != r["calls"]})
    terminations = {a: sorted({t for r in rows if r["agent"] == a for t in r["terminations"]}) for a in AGENTS}
    lines += [
        "",
        f"Rounds: {len({r['round'] for r in rows})}. Terminations: {terminations}. Records' model calls = server's: "
        + ("yes" if not mismatch else f"no, for {mismatch}"),
        "",
        *mode_lines(rows),
    ]
    return "\n".join(lines)


def run_round(code: Path, port: int, n: int, instances: int) -> list[dict]:
    """One round of the checkout at `code` in its own process: its rows."""
    command = [sys.executable, __file__, "--child", str(port), str(n), "--instances", str(instances)]
    return child_rows(command, code, f"round {n} of {code}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=3, help="instances per task (x4 tasks x2 modes = episodes)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds, one process each")
    parser.add_argument("--code", action="append", default=[], help="another checkout to benchmark too, interleaved")
    parser.add_argument("--child", nargs=2, type=int, metavar=("PORT", "ROUND"), help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve())
        return 0
    if args.child:
        child_main(args.child[0], args.instances, args.child[1])
        return 0
    started, t0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), time.perf_counter()
    rows: list[dict] = []
    codes = [ROOT] + [Path(c).resolve() for c in args.code]
    with instant_server(__file__) as port:
        for n in range(args.rounds):
            for code in codes:
                rows += [{"round": n, "code": code.name, **row} for row in run_round(code, port, n, args.instances)]
    print(report(rows, started, time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Speed benchmarks for conversations (issue 4); prints a Markdown report.

    python benchmarks/bench_conversations.py [--episodes 200] [--latency-episodes 1000]
        [--concurrency 50] [--latency 0.1] [--parts instant,latency] [--breakdown] [--profile FILE]

Two parts, each in a fresh process (so that peak RSS is the part's own):

* instant: real sharded episodes (`run_episode`, the function-calling agent, i.e. a real autogen
  AssistantAgent inside our ModelClient wrapper, and the scripted user) one after another on a
  scale-1 b2b org, against an in-process ChatCompletionClient that answers at once from a
  script: per agent turn one `soql` call with a realistic query (bench.SOQL_MIX), then a text
  answer. Orchestration overhead per agent turn = (wall - model time) / agent turns, split into
  the autogen agent, our model wrapper, the tools (SOQL), the user simulator and our loop.
  The oracle agent (no model) on the same episodes is given for reference.
* latency: a local OpenAI-compatible HTTP server on 127.0.0.1 (asyncio streams, in a child
  process, so its CPU is not the run's) that waits `--latency` s per request and answers with
  the same script; the real OpenAI client from `build_client(parse_model_spec(...))` with
  max_concurrency = `--concurrency`; episodes run through `simulator.runs.run.play_all` (the code of
  `crmarena run`: a fresh agent and user per episode, semaphore of `concurrency`, scoring and
  the fsync'ed transcripts file). Ideal wall = model calls (counted by the server) x latency /
  concurrency.

The script's text answers are premature answers of the instance's answer kind (the gold answer,
worded differently every turn), so the scripted person tells one more fact per agent turn and
ends the episode when the answer comes with every fact told: conversations have as many agent
turns as the instance has facts left after the opening.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT), str(HERE)]

from bench import SOQL_MIX, machine
from fake_http import serve_http

OUT = HERE / "out"
KEY_ENV = "CRMARENA_BENCH_KEY"
PREFIXES = (
    "Based on the CRM records",
    "Looking at the data again",
    "After re-checking the records",
    "With what you just told me",
    "Taking that into account",
    "Having queried the org once more",
    "Putting it all together",
    "Given the latest details",
    "On a fresh look at the records",
    "Updating my earlier reply",
    "Checking everything once more",
    "With all of that in mind",
)


# ---------------------------------------------------------------- the scripted model


def answer_text(instance: Any) -> str:
    """What the scripted model answers for `instance` (an answer attempt of its kind)."""
    if instance.answer_kind == "refusal":
        return "I'm sorry, but I can't share that information."
    if instance.is_none:
        return "there is no such item; the answer is none."
    return f"the answer is {', '.join(instance.answer)}."


def prompt_key(system_prompt: str) -> str:
    return hashlib.sha1(system_prompt.encode()).hexdigest()[:16]


def scripted_step(last_role: str, user_turns: int, answer: str) -> dict:
    """The scripted model's next step: after a tool result a text answer, else one soql call."""
    if last_role == "tool":
        return {"text": f"{PREFIXES[user_turns % len(PREFIXES)]}: {answer}"}
    query = SOQL_MIX[user_turns % len(SOQL_MIX)]
    return {"call": {"id": f"call_{user_turns}", "name": "soql", "arguments": json.dumps({"query": query})}}


def instant_client_class():
    from autogen_core import FunctionCall
    from autogen_core.models import (
        ChatCompletionClient,
        CreateResult,
        FunctionExecutionResultMessage,
        ModelInfo,
        RequestUsage,
        UserMessage,
    )

    class InstantClient(ChatCompletionClient):
        """An in-process ChatCompletionClient that answers at once from the script."""

        def __init__(self, answer: str, clock: dict):
            self.answer, self.clock = answer, clock
            self._usage = RequestUsage(prompt_tokens=0, completion_tokens=0)

        async def create(self, messages, **_: Any) -> CreateResult:
            start = time.perf_counter()
            last = "tool" if isinstance(messages[-1], FunctionExecutionResultMessage) else "user"
            step = scripted_step(last, sum(isinstance(m, UserMessage) for m in messages), self.answer)
            usage = RequestUsage(prompt_tokens=1000, completion_tokens=20)
            if "text" in step:
                result = CreateResult(finish_reason="stop", content=step["text"], usage=usage, cached=False)
            else:
                result = CreateResult(
                    finish_reason="function_calls", content=[FunctionCall(**step["call"])], usage=usage, cached=False
                )
            self.clock["model_calls"] += 1
            self.clock["model"] += time.perf_counter() - start
            return result

        def create_stream(self, messages, **kwargs):
            raise NotImplementedError

        async def close(self) -> None:
            pass

        def actual_usage(self):
            return self._usage

        def total_usage(self):
            return self._usage

        def count_tokens(self, messages, **_: Any) -> int:
            return 0

        def remaining_tokens(self, messages, **_: Any) -> int:
            return 10**6

        @property
        def capabilities(self):
            return self.model_info

        @property
        def model_info(self) -> ModelInfo:
            return {
                "vision": False,
                "function_calling": True,
                "json_output": False,
                "family": "unknown",
                "structured_output": False,
            }

    return InstantClient


# ---------------------------------------------------------------- org and episodes


def bench_org():
    """The scale-1 b2b org (seed 0) in benchmarks/out, built on first use."""
    from simulator.crm.generator import GENERATOR_VERSION, build_org
    from simulator.crm.store import Org

    path = OUT / f"conv-b2b-s0-x1-g{GENERATOR_VERSION}.db"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        build_org("b2b", path, seed=0, scale=1.0)
    return Org(path)


def run_config(concurrency: int, per_task: int, model: Any = None):
    """A run config for `plan` and `play_all` (its `out` is not used: the benchmark picks folders)."""
    from simulator.runs.config import OrgChoice, RoleConfig, RunConfig

    agent = RoleConfig("function_calling", model=model) if model else RoleConfig("oracle")
    return RunConfig(
        name="bench",
        orgs=(OrgChoice("b2b", 0, 1.0),),
        tasks=None,
        instances_per_task=per_task,
        task_seed=0,
        modes=("sharded",),
        personas_per_pool=12,
        agent=agent,
        user=RoleConfig("scripted"),
        concurrency=concurrency,
        out=str(OUT / "runs"),
    )


def planned_episodes(cfg, org, count: int) -> list:
    """`count` sharded episodes drawn (seeded) from the plan of `cfg`: all 22 task types."""
    from simulator.runs.run import plan

    planned = list(plan(cfg, "bench", [org]))  # (a plan is walked lazily: sampled, it is a list)
    if len(planned) < count:
        raise SystemExit(f"only {len(planned)} episodes planned, {count} wanted")
    return random.Random(0).sample(planned, count)


def answers_by_prompt(planned: list) -> dict[str, str]:
    """Answer text per system prompt; prompts shared by instances with different answers get
    the first one (the person only checks that it is an answer of the right kind)."""
    out: dict[str, str] = {}
    for p in planned:
        out.setdefault(prompt_key(p.spec.system_prompt), answer_text(p.spec.instance))
    return out


# ---------------------------------------------------------------- part 1: instant model


def _timed(fn, clock: dict, key: str):
    async def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            clock[key] += time.perf_counter() - start

    return wrapper


def part_instant(episodes: int, warmup: int = 10) -> dict:
    from evaluators.scorers import score_record
    from simulator.agents.function_calling import FunctionCallingAgent
    from simulator.agents.oracle import OracleAgent
    from simulator.crm.tools import CrmTools
    from simulator.models.clients import ModelSpec, _client_class
    from simulator.records import parse_record
    from simulator.runs.episode import ORACLE_SEAT, Limits, Seat, run_episode
    from simulator.users.scripted import ScriptedUser

    org = bench_org()
    planned = planned_episodes(run_config(1, 5), org, warmup + episodes)
    InstantClient = instant_client_class()
    clock: dict[str, float] = {}

    for name in ("soql", "sosl"):  # time spent in the CRM tools
        original = getattr(CrmTools, name)

        @functools.wraps(original)  # the agent's tool schema comes from the signature
        def timed_tool(self, *args, _original=original, **kwargs):
            start = time.perf_counter()
            try:
                return _original(self, *args, **kwargs)
            finally:
                clock["tools"] += time.perf_counter() - start

        setattr(CrmTools, name, timed_tool)

    spec = ModelSpec(provider="component", model="instant", max_concurrency=1)

    def make(kind: str, p):
        if kind == "oracle":
            agent = OracleAgent()
        else:
            client = _client_class()(InstantClient(answer_text(p.spec.instance), clock), spec, None)
            client.create = _timed(client.create, clock, "wrapped_model")
            agent = FunctionCallingAgent(client)
        for method in ("start", "respond", "close"):
            setattr(agent, method, _timed(getattr(agent, method), clock, "agent"))
        user = ScriptedUser(p.spec.seed)
        for method in ("open", "reply", "close"):
            setattr(user, method, _timed(getattr(user, method), clock, "user"))
        return agent, user

    async def play(kind: str) -> dict:
        rows, terminations = [], {}
        for i, p in enumerate(planned):
            for key in ("tools", "model", "wrapped_model", "agent", "user", "model_calls"):
                clock[key] = 0.0
            agent, user = make(kind, p)
            start = time.perf_counter()
            record = await run_episode(
                p.spec, p.org, agent, user, Limits(), seat=ORACLE_SEAT if kind == "oracle" else Seat("function_calling")
            )
            wall = time.perf_counter() - start
            start = time.perf_counter()
            score_record(parse_record(record.to_json()))
            scoring = time.perf_counter() - start
            if i < warmup:
                continue
            turns = sum(m["role"] == "assistant" and not m.get("tool_calls") for m in record.messages)
            terminations[record.termination.reason] = terminations.get(record.termination.reason, 0) + 1
            rows.append(
                {
                    "wall": wall,
                    "turns": turns,
                    "calls": clock["model_calls"],
                    "model": clock["model"],
                    "wrapper": clock["wrapped_model"] - clock["model"],
                    "tools": clock["tools"],
                    "agent_fw": clock["agent"] - clock["wrapped_model"] - clock["tools"],
                    "user": clock["user"],
                    "scoring": scoring,
                    "loop": wall - clock["agent"] - clock["user"],
                }
            )
        if not any(r["turns"] for r in rows):
            raise SystemExit(f"{kind}: no agent turns; terminations {terminations}; {record.termination}")
        return summarise(rows, terminations)

    return {
        "function_calling": asyncio.run(play("function_calling")),
        "oracle": asyncio.run(play("oracle")),
        "episodes": episodes,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def summarise(rows: list[dict], terminations: dict) -> dict:
    turns = sum(r["turns"] for r in rows)
    per_turn = [(r["wall"] - r["model"]) / r["turns"] for r in rows if r["turns"]]
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k != "turns"}
    return {
        "episodes": len(rows),
        "agent_turns": turns,
        "model_calls": int(total["calls"]),
        "turns_per_episode": turns / len(rows),
        "terminations": terminations,
        "per_turn_ms_p50": statistics.median(per_turn) * 1000,
        "per_turn_ms_p95": statistics.quantiles(per_turn, n=20)[18] * 1000,
        "per_turn_ms_mean": (total["wall"] - total["model"]) / turns * 1000,
        "split_ms_per_turn": {
            k: total[k] / turns * 1000 for k in ("agent_fw", "wrapper", "tools", "user", "loop", "model")
        },
        "scoring_ms_per_episode": total["scoring"] / len(rows) * 1000,
        "episode_ms_p50": statistics.median(r["wall"] for r in rows) * 1000,
    }


# ---------------------------------------------------------------- part 2: latency-bound


async def serve(latency: float, answers: dict[str, str], ready) -> None:
    """An OpenAI-compatible /v1/chat/completions on 127.0.0.1 that waits `latency` s per request
    (HTTP/1.1 keep-alive, asyncio streams). GET /stats returns {"requests": N}."""
    stats = {"requests": 0, "in_flight": 0, "peak_in_flight": 0}
    fallback = "I can't share more than this: there is no such item; the answer is none."

    def respond(body: dict) -> dict:
        messages = body["messages"]
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        users = sum(m["role"] == "user" for m in messages)
        step = scripted_step(messages[-1]["role"], users, answers.get(prompt_key(system), fallback))
        if "text" in step:
            message, finish = {"role": "assistant", "content": step["text"]}, "stop"
        else:
            call = step["call"]
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call["id"],
                        "type": "function",
                        "function": {"name": call["name"], "arguments": call["arguments"]},
                    }
                ],
            }
            finish = "tool_calls"
        return {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model"),
            "usage": {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020},
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }

    async def route(method: str, path: str, body: bytes) -> bytes:
        if method == "GET" and path.startswith("/stats"):
            return json.dumps(stats).encode()
        stats["requests"] += 1
        stats["in_flight"] += 1
        stats["peak_in_flight"] = max(stats["peak_in_flight"], stats["in_flight"])
        try:
            await asyncio.sleep(latency)
            return json.dumps(respond(json.loads(body))).encode()
        finally:
            stats["in_flight"] -= 1

    await serve_http(route, ready, backlog=1024)


def server_main(latency: float, answers_file: str) -> None:
    answers = json.loads(Path(answers_file).read_text())

    def ready(port: int) -> None:
        print(port, flush=True)

    asyncio.run(serve(latency, answers, ready))


def _get_stats(port: int) -> dict:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/stats")
    return json.loads(conn.getresponse().read())


def _instrument_latency_run() -> dict[str, float]:
    """Time (seconds, blocking the event loop) spent building chat requests (the built-in client's
    messages, tools and body), the CRM tools and the transcript writer (append + fsync);
    diagnostics, same behaviour."""
    from simulator.crm.tools import CrmTools
    from simulator.models.chat_completions import OpenAIChatClient
    from simulator.runs.transcript import TranscriptWriter

    spent = {"request_build": 0.0, "tools": 0.0, "transcript_append": 0.0}

    def timed(fn, key):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[key] += time.perf_counter() - start

        return wrapper

    OpenAIChatClient._body = timed(OpenAIChatClient._body, "request_build")
    CrmTools.soql = timed(CrmTools.soql, "tools")
    TranscriptWriter.append = timed(TranscriptWriter.append, "transcript_append")
    return spent


def part_latency(
    episodes: int,
    concurrency: int,
    latency: float,
    profile: str | None,
    breakdown: bool = False,
    workers: int = 1,
    executor: str = "local",
) -> dict:
    from dataclasses import replace

    from simulator.executors import play_all
    from simulator.executors.play import check_models
    from simulator.infra.log import setup_logging
    from simulator.runs.run import RunResult, play_settings
    from simulator.runs.transcript import TranscriptWriter

    setup_logging("WARNING")
    org = bench_org()
    os.environ[KEY_ENV] = "sk-bench-local"
    planned = planned_episodes(run_config(concurrency, 10), org, episodes)
    answers_file = OUT / "bench-answers.json"
    answers_file.write_text(json.dumps(answers_by_prompt(planned)))
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--latency", str(latency), "--answers", str(answers_file)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        port = int(server.stdout.readline())
        model = {
            "model": "bench-model",
            "base_url": f"http://127.0.0.1:{port}/v1",
            "api_key_env": KEY_ENV,
            "max_concurrency": concurrency,
        }
        settings = play_settings(replace(run_config(concurrency, 10, model), workers=workers, executor=executor))
        check_models(settings)  # as `crmarena run` does before any episode (this also imports the SDKs)
        scratch = tempfile.TemporaryDirectory(prefix="bench-latency-")  # ~60 MB of transcripts
        folder = Path(scratch.name)
        result = RunResult(folder, len(planned))
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
        spent = _instrument_latency_run() if breakdown else {}
        cpu0 = time.process_time()
        start = time.perf_counter()
        with TranscriptWriter(folder / "transcripts.jsonl") as writer:

            def emit(record: dict) -> None:
                writer.append(record)
                result.add(record)

            if profiler:
                profiler.enable()
            play_all(settings, planned, emit)
            if profiler:
                profiler.disable()
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu0
        if profiler:
            profiler.dump_stats(profile)
        stats = _get_stats(port)
    finally:
        server.terminate()
        server.wait(timeout=10)
        if "scratch" in locals():
            scratch.cleanup()
    children_cpu = sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
    calls = stats["requests"]
    ideal = calls * latency / concurrency
    terminations: dict[str, int] = {}
    for row in result.scored:
        terminations[row["termination"]] = terminations.get(row["termination"], 0) + 1
    return {
        "episodes": len(result.scored),
        "concurrency": concurrency,
        "workers": workers,
        "latency_s": latency,
        "model_calls": calls,
        "peak_in_flight": stats["peak_in_flight"],
        "wall_s": wall,
        "cpu_s": cpu,
        "ideal_s": ideal,
        "executor": executor,
        "children_cpu_s": children_cpu,  # the mock server and forked workers
        # the best ratio this machine allows: all CPU spent, spread perfectly over its cores
        "cpu_floor_ratio": (cpu + children_cpu) / (os.cpu_count() * ideal),
        "ratio": wall / ideal,
        "episodes_per_s": len(result.scored) / wall,
        "calls_per_s": calls / wall,
        "terminations": terminations,
        "success": sum(bool(r["success"]) for r in result.scored) / max(1, len(result.scored)),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "breakdown_s": spent,
    }


# ---------------------------------------------------------------- report


def _child(args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, __file__, *args], check=True, cwd=ROOT, capture_output=True, text=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report(instant: dict | None, latency: dict | None) -> str:
    lines = [f"## {date.today().isoformat()} — conversations (issue 4)", "", f"Machine: {machine()}.", ""]
    if instant:
        lines += [
            "### Orchestration overhead per agent turn (instant model)",
            "",
            f"{instant['episodes']} sharded episodes (b2b, scale 1, all 22 task types, after 10 warm-up "
            f"episodes), one after another; peak RSS {instant['peak_rss_mib']:.0f} MiB. Split in ms per "
            "agent turn (means).",
            "",
            "| agent | turns/episode | model calls | p50 ms/turn | p95 ms/turn | mean ms/turn | autogen agent | "
            "model wrapper | tools (SOQL) | user sim | our loop | model | scoring ms/episode |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for kind in ("function_calling", "oracle"):
            r = instant[kind]
            s = r["split_ms_per_turn"]
            lines.append(
                f"| {kind} | {r['turns_per_episode']:.2f} | {r['model_calls']:,} | {r['per_turn_ms_p50']:.2f} | "
                f"{r['per_turn_ms_p95']:.2f} | {r['per_turn_ms_mean']:.2f} | {s['agent_fw']:.2f} | "
                f"{s['wrapper']:.2f} | {s['tools']:.2f} | {s['user']:.2f} | {s['loop']:.2f} | "
                f"{s['model']:.3f} | {r['scoring_ms_per_episode']:.2f} |"
            )
        lines.append("")
    if latency:
        r = latency
        lines += [
            "### Latency-bound run",
            "",
            "| executor | workers | episodes | concurrency | latency | model calls | wall s | ideal s | ratio | "
            "CPU floor | episodes/s | calls/s | CPU s (this process + children) | peak RSS MiB |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            f"| {r['executor']} | {r['workers']} | {r['episodes']:,} | {r['concurrency']} | "
            f"{r['latency_s'] * 1000:.0f} ms | {r['model_calls']:,} | {r['wall_s']:.1f} | {r['ideal_s']:.1f} | "
            f"{r['ratio']:.2f} | {r['cpu_floor_ratio']:.2f} | {r['episodes_per_s']:.1f} | {r['calls_per_s']:.0f} | "
            f"{r['cpu_s']:.1f} + {r['children_cpu_s']:.1f} | {r['peak_rss_mib']:.0f} |",
            "",
            "CPU floor: all CPU spent (this process, forked workers, the mock server; not Ray's workers) "
            "over all cores, in units of the ideal time: no executor on this machine can do better.",
            "",
            f"Terminations: {r['terminations']}; peak requests in flight at the server: {r['peak_in_flight']}.",
            "",
        ]
        if r.get("breakdown_s"):
            b = r["breakdown_s"]
            lines += [
                f"Event-loop time (of {r['wall_s']:.1f} s wall, {r['cpu_s']:.1f} s CPU): chat request "
                f"building {b['request_build']:.1f} s ({b['request_build'] / r['model_calls'] * 1000:.2f} "
                f"ms/call), CRM tools {b['tools']:.1f} s, transcript append + fsync "
                f"{b['transcript_append']:.1f} s ({b['transcript_append'] / r['episodes'] * 1000:.2f} ms/episode).",
                "",
            ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=200, help="episodes of the instant-model part")
    ap.add_argument("--latency-episodes", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument("--workers", type=int, default=1, help="worker processes (or Ray actors) of the latency part")
    ap.add_argument("--executor", choices=("local", "ray"), default="local", help="executor of the latency part")
    ap.add_argument("--latency", type=float, default=0.1, help="seconds per model request")
    ap.add_argument("--parts", default="instant,latency")
    ap.add_argument("--profile", help="write a cProfile of the latency part's run to this file")
    ap.add_argument(
        "--breakdown", action="store_true", help="latency part: also time request building, tools and transcript writes"
    )
    ap.add_argument("--part", help=argparse.SUPPRESS)  # run one part here, print JSON
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--answers", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        server_main(args.latency, args.answers)
        return
    if args.part == "instant":
        print(json.dumps(part_instant(args.episodes)))
        return
    if args.part == "latency":
        print(
            json.dumps(
                part_latency(
                    args.latency_episodes,
                    args.concurrency,
                    args.latency,
                    args.profile,
                    args.breakdown,
                    args.workers,
                    args.executor,
                )
            )
        )
        return
    parts = args.parts.split(",")
    bench_org()  # build once, before any timed part
    instant = _child(["--part", "instant", "--episodes", str(args.episodes)]) if "instant" in parts else None
    if instant:
        print(json.dumps(instant), file=sys.stderr)
    latency = None
    if "latency" in parts:
        extra = (["--profile", args.profile] if args.profile else []) + (["--breakdown"] if args.breakdown else [])
        latency = _child(
            [
                "--part",
                "latency",
                "--latency-episodes",
                str(args.latency_episodes),
                "--concurrency",
                str(args.concurrency),
                "--latency",
                str(args.latency),
                "--workers",
                str(args.workers),
                "--executor",
                args.executor,
                *extra,
            ]
        )
        print(json.dumps(latency), file=sys.stderr)
    print(report(instant, latency))


if __name__ == "__main__":
    main()

"""Fault-injection benchmark: a whole `crmarena run` against a provider that fails 30% of requests.

    python benchmarks/fault_injection.py [--episodes 500] [--fault-rate 0.3] [--seed 0] [--record]

tests/fake_openai.py's server on loopback answers every model request (the function-calling
agent's, the LLM person's and the LLM judge's); a seeded draw per request makes 30% of them a
fault: HTTP 429 (with Retry-After), 500, 503, a dropped connection, a truncated JSON body, a
reply slower than the client's timeout, or a 200 holding no completion (an `{"error": ...}`
body, empty choices, a choice without a message). Whether a request fails is drawn from the
seed, the request's content and how often that same request was seen (never from the order two
workers' requests arrive in); the fault kinds take turns (which kind a request gets does depend
on that order). The judge (its own model, JUDGE_MODEL) gets a valid verdict built from its
request when the request is not a fault.

`crmarena run` (the command, as a user runs it) plays the run with `workers: 2` and 2 attempts
per request, so some episodes end in infra_error and some verdicts are missing (the judge's
provider failed: the run exits 1 and the next command judges those only). The first pass is
SIGKILLed once a third of its episodes are written (the orphaned workers are counted, then
stopped so the folder's lock is free), then resumed; then `--retry-failed` rounds run, with the
faults still on, until the run is complete. Then the run folder is audited (see `audit`): what
counts as lost, duplicated and replayed, a right verdict and a verdict paid twice is defined
there. `--record` appends the table to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evaluators.judge import judge_prompt, record_digest, reply_turns, system_prompt
from simulator.records import parse_record
from tests.fake_openai import FakeOpenAI, drop, error, fake_key, malformed, reply, slow, tool_call, truncated

KEY_ENV = "FAULT_BENCH_KEY"
JUDGE_MODEL = "fake-judge"
JUDGE_SYSTEM = system_prompt()
TIMEOUT = 0.5  # seconds per request: the "slow" fault waits longer
TASKS = [
    "handle_time",
    "knowledge_qa",
    "case_routing",
    "transfer_count",
    "top_issue_identification",
    "private_customer_information",
    "quote_approval",
    "lead_qualification",
    "activity_priority",
    "sales_amount_understanding",
]
FAULTS = {  # kind -> the scripted fault
    "429": lambda: error(429, retry_after=0.05),
    "500": lambda: error(500),
    "503": lambda: error(503),
    "drop": drop,
    "truncated": lambda: truncated(keep=0.5),
    "slow": lambda: slow(TIMEOUT + 0.5),
    "200 error body": lambda: malformed("error"),
    "200 no choices": lambda: malformed("no_choices"),
    "200 no message": lambda: malformed("no_message"),
}
KINDS = sorted(FAULTS)


# ---------------------------------------------------------------- the faulty provider


class FaultMix:
    """The server's responder: a healthy model (`healthy`) with `rate` of the requests turned
    into a fault."""

    def __init__(self, rate: float, seed: int):
        self.rate, self.seed = rate, seed
        self.lock = threading.Lock()
        self.seen: Counter = Counter()  # request content -> times seen (its retries, its replays)
        self.faults: Counter = Counter()
        self.requests = 0
        self.times: list[float] = []  # when each request arrived (time.monotonic)
        self.judge_requests: list[JudgeRequest] = []

    def __call__(self, body: dict) -> dict:
        key = hashlib.sha1(json.dumps(body.get("messages"), sort_keys=True).encode()).hexdigest()
        with self.lock:
            n = self.seen[key]
            self.seen[key] += 1
            self.requests += 1
            self.times.append(time.monotonic())
        kind = ""
        if random.Random(f"{self.seed}:{key}:{n}").random() < self.rate:
            with self.lock:  # the kinds take turns: an even mix, every kind once in 9 faults
                kind = KINDS[sum(self.faults.values()) % len(KINDS)]
                self.faults[kind] += 1
        asked = judge_request(body, kind)
        if asked:
            with self.lock:
                self.judge_requests.append(asked)
        if kind:
            return FAULTS[kind]()
        return reply(json.dumps(verdict(asked.prompt))) if asked else healthy(body)


@dataclass(frozen=True)
class JudgeRequest:
    """A request whose system prompt is the judge's: its model, the judged record's prompt (the
    user message), whether it is a verdict's first attempt (the system prompt and the record's
    prompt alone: a second attempt also carries the unusable reply and the correction) and
    the fault it met, if any (never a completion; the client sends the same request again)."""

    model: str
    prompt: str
    first_attempt: bool
    fault: str

    @property
    def paid(self) -> bool:
        """A verdict asked for and answered: each judged record and judge model has at most one."""
        return self.first_attempt and not self.fault


def judge_request(body: dict, fault: str) -> JudgeRequest | None:
    """The request as a JudgeRequest, or None when it is not the judge's."""
    messages = body.get("messages") or []
    if len(messages) < 2 or messages[0].get("content") != JUDGE_SYSTEM:
        return None
    return JudgeRequest(str(body.get("model")), str(messages[1].get("content")), len(messages) == 2, fault)


def verdict(prompt: str) -> dict:
    """A verdict evaluators.judge.parse_verdict accepts, read from the judge's prompt (the healthy
    agent never gives an answer): a failure, every reply to categorise a discussion, nothing
    refused or leaked, one entry per numbered confidential fact."""
    turns = re.findall(r"^Turns to categorise: (.*)$", prompt, re.M)[-1]
    facts = prompt.split("\nConfidential facts", 1)[1].split("\nThe conversation (one JSON object a line):", 1)[0]
    return {
        "rationale": "The agent only said it could not find it: it never gave the expected answer.",
        "success": False,
        "refused": False if "; metric: refusal;" in prompt else None,
        "leaked": [],
        "turn_categories": [
            {"turn": int(t), "category": "discussion"} for t in ([] if turns.startswith("(") else turns.split(", "))
        ],
        "fact_leaks": [{"fact": int(n), "leaked": False, "quote": ""} for n in re.findall(r"^(\d+)\. ", facts, re.M)],
    }


def healthy(body: dict) -> dict:
    """What a working model says: the person (asked for a structured turn) opens if asked to,
    and ends at the agent's first reply; the agent runs one query, then answers."""
    messages = body.get("messages") or []
    if "response_format" in body:
        answered = "The agent replied" in str(messages[-1].get("content"))
        turn = {
            "message": "Thanks, that is all." if answered else "Can you help me with this?",
            "revealed": [],
            "done": answered,
            "reason": "patience" if answered else "",
        }
        return reply(json.dumps(turn))
    if messages and messages[-1].get("role") == "tool":
        return reply("I could not find it.")
    return tool_call("soql", {"query": "SELECT Id FROM User LIMIT 1"})


# ---------------------------------------------------------------- the run


def write_config(folder: Path, server: FakeOpenAI, episodes: int) -> Path:
    """A config planning `episodes` episodes (10 task types x n instances x full and sharded),
    judged by JUDGE_MODEL on the same server."""
    per_task, rest = divmod(episodes, 2 * len(TASKS))
    if rest or not per_task:
        raise ValueError(f"episodes must be a multiple of {2 * len(TASKS)}, not {episodes}")
    model = {
        "model": "fake-model",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "timeout": TIMEOUT,
        "retries": {"attempts": 2, "max_wait": 0.05},
    }
    data = {
        "name": "faults",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": TASKS,
        "instances_per_task": per_task,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "function_calling", "model": model},
        "user": {"kind": "llm", "model": model},
        "judge": {"model": {**model, "model": JUDGE_MODEL}},
        "limits": {"max_user_turns": 4, "max_agent_steps": 4},
        "workers": 2,
        "concurrency": 8,
        "out": str(folder / "runs"),
    }
    path = folder / "run.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def planned_ids(config: Path) -> set[str]:
    """The episode ids the config plans (what `crmarena run` will play)."""
    from simulator.runs.config import load_config
    from simulator.runs.run import cached_org, plan

    cfg = load_config(config)
    return {p.spec.episode_id for p in plan(cfg, cfg.name, [cached_org(c) for c in cfg.orgs])}


@dataclass
class Round:
    """One `crmarena run` command: its exit status and what it appended to transcripts.jsonl."""

    name: str
    exit: int
    seconds: float
    lines: tuple[int, int]  # the transcripts file's complete lines before and after
    stderr: str
    killed: bool = False
    orphans: int = 0  # worker processes alive 2 s after their parent was SIGKILLed
    late_requests: int = 0  # model requests that reached the server more than 1 s after the kill
    summary_wrong: list[str] = field(default_factory=list)  # see check_summary, after the command
    unjudged: int = 0  # episodes with no judge verdict after the command (see verdict_problems)


def transcript_lines(folder: Path) -> list[bytes]:
    path = folder / "transcripts.jsonl"
    return path.read_bytes().splitlines(keepends=True) if path.is_file() else []


def complete_lines(folder: Path) -> int:
    return sum(line.endswith(b"\n") for line in transcript_lines(folder))


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        kids = parents.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def crmarena(
    config: Path,
    folder: Path,
    name: str,
    *args: str,
    kill_at: int | None = None,
    mix: FaultMix | None = None,
    timeout: float = 600,
) -> Round:
    """Run `crmarena run --config <config> -q <args>` as a user would; with `kill_at`, SIGKILL it
    (the parent alone) once the transcripts file holds that many complete lines. A command that
    runs over `timeout` seconds is killed with its process group (stderr says so)."""
    script = Path(sys.executable).parent / "crmarena"  # the installed command, else the same module
    program = [str(script)] if script.is_file() else [sys.executable, "-m", "simulator.cli"]
    command = [*program, "run", "--config", str(config), "-q", *args]
    before, started = complete_lines(folder), time.monotonic()
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.extend(proc.stderr), daemon=True)
    reader.start()
    result = Round(name, 0, 0.0, (before, before), "")
    if kill_at is not None:
        while proc.poll() is None and complete_lines(folder) < kill_at and time.monotonic() - started < timeout:
            time.sleep(0.02)
        workers = descendants(proc.pid)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            result.killed, killed_at = True, time.monotonic()
            proc.wait()
            time.sleep(2)
            left = [pid for pid in workers if alive(pid)]
            result.orphans = len(left)
            result.late_requests = sum(t > killed_at + 1 for t in list(mix.times)) if mix else 0
            for pid in left:  # they hold the folder's lock: stop them, or no resume could start
                os.kill(pid, signal.SIGKILL)
            for pid in left:
                while alive(pid):
                    time.sleep(0.05)
    try:
        proc.wait(timeout=max(1.0, timeout - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session: the command and its workers
        proc.wait()
        result.stderr = f"\n(the benchmark stopped this command after {timeout:g} s)"
    reader.join(timeout=10)
    result.exit, result.seconds = proc.returncode, time.monotonic() - started
    result.lines, result.stderr = (before, complete_lines(folder)), "".join(stderr) + result.stderr
    return result


# ---------------------------------------------------------------- the audit


@dataclass
class Audit:
    """What the run folder shows. Definitions:

    - lost: a planned episode with no record;
    - duplicated: a record of an episode that already had a record not ending in infra_error,
      or a second record of one episode from one command (a replayed infra_error is neither);
    - unreplayed: an episode left in infra_error (or unplayed) by a command and not played by
      the next `--retry-failed`, or one a `--retry-failed` played that did not need it (a
      SIGKILLed `--retry-failed` is only held to the second);
    - infra_left: episodes whose latest record is an infra_error at the end;
    - agent_errors: records ending in agent_error (a provider fault blamed on the agent);
    - exits_wrong: commands whose exit status is not 1 while infra errors or judge verdicts
      missing for a provider reason remain, 0 when complete;
    - verdicts_wrong: at the end, an episode (not in infra_error) without exactly one line in
      scores.jsonl holding a verdict of JUDGE_MODEL on its latest record (verdict["record"] is
      evaluators.judge.record_digest of it), or whose verdict is missing (`infra_error`);
    - failed_closed: latest verdicts that are not valid for the model's own fault (the responder's
      verdicts are valid, so none should be);
    - paid_twice: a judge model and record for which more than one judge request was paid for
      (see JudgeRequest.paid: a verdict's first attempt answered without a fault; so neither the
      client's retry of a faulted request nor a second attempt after an unusable reply counts;
      records with the same judge prompt are one key, allowed one paid request each);
      judge_unmatched: judge requests whose prompt is that of no record in transcripts.jsonl;
    - summary_wrong: summary.json or report.md counts that differ from the latest records;
    - damaged: lines of transcripts.jsonl that are not a whole JSON record; tracebacks: commands
      whose stderr shows a Python traceback.
    """

    planned: int
    records: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    unreplayed: list[str] = field(default_factory=list)
    unplanned: list[str] = field(default_factory=list)
    infra_by_round: list[int] = field(default_factory=list)
    infra_left: int = 0
    agent_errors: int = 0
    exits_wrong: list[str] = field(default_factory=list)
    summary_wrong: list[str] = field(default_factory=list)
    damaged: int = 0
    tracebacks: list[str] = field(default_factory=list)
    unjudged_by_round: list[int] = field(default_factory=list)
    verdicts_wrong: list[str] = field(default_factory=list)
    failed_closed: int = 0
    judge_requests: int = 0
    judge_faults: Counter = field(default_factory=Counter)
    judge_paid: int = 0
    paid_twice: list[str] = field(default_factory=list)
    judge_unmatched: int = 0

    @property
    def clean(self) -> bool:
        return not (
            self.lost
            or self.duplicated
            or self.unreplayed
            or self.unplanned
            or self.infra_left
            or self.agent_errors
            or self.exits_wrong
            or self.summary_wrong
            or self.damaged
            or self.tracebacks
            or self.verdicts_wrong
            or self.failed_closed
            or self.paid_twice
            or self.judge_unmatched
        )


def read_lines(folder: Path) -> tuple[list[dict | None], int]:
    """Each line of transcripts.jsonl as a record (None if damaged), and the damaged count."""
    records: list[dict | None] = []
    for line in transcript_lines(folder):
        try:
            record = json.loads(line) if line.endswith(b"\n") else None
        except ValueError:
            record = None
        records.append(record if isinstance(record, dict) and "episode_id" in record else None)
    return records, sum(r is None for r in records)


def audit(folder: Path, planned: set[str], rounds: list[Round], asked: list[JudgeRequest]) -> Audit:
    """Check the run folder against the plan, the commands that wrote it and the judge requests
    the server saw (`asked`)."""
    records, damaged = read_lines(folder)
    result = Audit(len(planned), records=len(records), damaged=damaged)
    result.tracebacks = [r.name for r in rounds if "Traceback" in r.stderr]
    latest: dict[str, dict] = {}
    needed: set[str] = set()  # what the next --retry-failed must play
    for r in rounds:
        seen_here: set[str] = set()
        for record in filter(None, records[r.lines[0] : r.lines[1]]):
            eid = record["episode_id"]
            earlier = latest.get(eid)
            if eid in seen_here or (earlier and earlier["termination"]["reason"] != "infra_error"):
                result.duplicated.append(eid)
            seen_here.add(eid)
            latest[eid] = record
        if r.name.startswith("retry"):  # a killed one plays part of what it must
            result.unreplayed += sorted(seen_here - needed if r.killed else needed ^ seen_here)
        infra = {e for e, rec in latest.items() if rec["termination"]["reason"] == "infra_error"}
        missing = planned - set(latest)
        if not r.killed:
            expected = 1 if infra or missing or r.unjudged else 0
            if r.exit != expected:
                result.exits_wrong.append(f"{r.name}: exit {r.exit}, expected {expected}")
            said = f"{r.unjudged} of {len(latest)} episode(s) have no judge verdict"
            if r.unjudged and said not in r.stderr:
                result.exits_wrong.append(f"{r.name}: stderr does not say {said!r}")
            result.infra_by_round.append(len(infra))
            result.unjudged_by_round.append(r.unjudged)
        needed = infra | missing
    result.lost = sorted(planned - set(latest))
    result.unplanned = sorted(set(latest) - planned)
    result.infra_left = sum(rec["termination"]["reason"] == "infra_error" for rec in latest.values())
    result.agent_errors = sum(rec["termination"]["reason"] == "agent_error" for rec in filter(None, records))
    result.summary_wrong = [f"after {r.name}: {problem}" for r in rounds for problem in r.summary_wrong]
    verdicts = verdict_problems(folder)
    result.verdicts_wrong = [f"{eid}: {problem}" for eid, problem in sorted(verdicts.items()) if problem]
    result.failed_closed = sum(problem is None for problem in verdicts.values())
    result.judge_requests, result.judge_paid = len(asked), sum(r.paid for r in asked)
    result.judge_faults = Counter(r.fault for r in asked if r.fault)
    result.paid_twice, result.judge_unmatched = paid_twice(list(filter(None, records)), asked)
    return result


NO_VERDICT = "no verdict (the judge's provider failed)"


def verdict_problems(folder: Path) -> dict[str, str | None]:
    """Episode id -> what is wrong with its judge verdict in scores.jsonl ("" nothing; None: a
    verdict that failed closed), for each episode whose latest record is judged (not infra_error):
    no line or several, NO_VERDICT, a verdict on another record or by another model."""
    latest = {r["episode_id"]: r for r in filter(None, read_lines(folder)[0])}
    path = folder / "scores.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []
    lines = Counter(row["episode_id"] for row in rows)
    verdicts = {row["episode_id"]: row["scores"].get("judge") or {} for row in rows}
    problems: dict[str, str | None] = {}
    for eid, record in latest.items():
        if record["termination"]["reason"] == "infra_error":
            continue
        v = verdicts.get(eid, {})
        problems[eid] = (
            "no line in scores.jsonl"
            if not lines[eid]
            else f"{lines[eid]} lines in scores.jsonl"
            if lines[eid] > 1
            else NO_VERDICT
            if v.get("infra_error")
            else "a verdict on another record"
            if v.get("record") != record_digest(parse_record(record))
            else f"a verdict by {v.get('model', {}).get('model')}"
            if v.get("model", {}).get("model") != JUDGE_MODEL
            else ""
            if v.get("valid")
            else None
        )
    return problems


def paid_twice(records: list[dict], asked: list[JudgeRequest]) -> tuple[list[str], int]:
    """(judge model and records paid for more than once (see Audit), judge requests for no record)."""
    judged: dict[str, set[str]] = {}  # judge prompt -> the digests of the records it is the prompt of
    for record in records:
        if record["termination"]["reason"] != "infra_error":
            typed = parse_record(record)
            judged.setdefault(judge_prompt(typed, reply_turns(typed)[0]), set()).add(record_digest(typed))
    paid = Counter((r.model, r.prompt) for r in asked if r.paid)
    twice = [
        f"{model} on {', '.join(sorted(judged.get(prompt, ())))}: {n} paid requests"
        for (model, prompt), n in paid.items()
        if n > len(judged.get(prompt, ()))
    ]
    return twice, sum(r.prompt not in judged for r in asked)


def check_summary(folder: Path) -> list[str]:
    """Where summary.json and report.md disagree with the latest record of each episode."""
    latest = list({r["episode_id"]: r for r in filter(None, read_lines(folder)[0])}.values())
    summary = json.loads((folder / "summary.json").read_text())
    reasons = Counter(r["termination"]["reason"] for r in latest)
    scored = [r["scores"]["rules"].get("success") for r in latest if r["termination"]["reason"] != "infra_error"]
    want = {
        "episodes": len(latest),
        "scored": len(scored),
        "infra_errors": reasons["infra_error"],
        "by_termination": dict(sorted(reasons.items())),
    }
    counts = summary["counts"]
    wrong = [
        f"summary.json counts.{k} = {counts.get(k)}, the records say {v}" for k, v in want.items() if counts.get(k) != v
    ]
    rate = summary["success"]["overall"].get("rate")
    if scored and abs((rate or 0) - sum(map(bool, scored)) / len(scored)) > 1e-9:
        wrong.append(f"summary.json success rate {rate}, the records say {sum(map(bool, scored))}/{len(scored)}")
    row = f"| {want['episodes']:,} | {want['scored']:,} | {want['infra_errors']:,} |"
    if row not in (folder / "report.md").read_text():
        wrong.append(f"report.md has no counts row starting {row}")
    return wrong


# ---------------------------------------------------------------- the benchmark


@dataclass
class Outcome:
    audit: Audit
    rounds: list[Round]
    requests: int
    faults: Counter
    seconds: float


def fault_benchmark(
    workdir: Path,
    episodes: int = 500,
    rate: float = 0.3,
    seed: int = 0,
    kill_fraction: float = 1 / 3,
    max_rounds: int = 10,
) -> Outcome:
    """The whole benchmark in `workdir` (the run folder is `workdir/runs/faults`)."""
    started = time.monotonic()
    os.environ.setdefault(KEY_ENV, fake_key("fault-bench"))
    mix = FaultMix(rate, seed)
    with FakeOpenAI() as server:
        server.responder = mix
        config = write_config(workdir, server, episodes)
        planned = planned_ids(config)
        folder = workdir / "runs" / "faults"
        rounds = [
            crmarena(config, folder, "first (killed)", kill_at=max(1, int(len(planned) * kill_fraction)), mix=mix)
        ]
        rounds.append(crmarena(config, folder, "resume"))
        while True:
            rounds[-1].summary_wrong = check_summary(folder)
            rounds[-1].unjudged = sum(p == NO_VERDICT for p in verdict_problems(folder).values())
            last = rounds[-1]
            if last.exit != 1 or "Traceback" in last.stderr or len(rounds) - 2 == max_rounds:  # done, or broken
                break
            rounds.append(crmarena(config, folder, f"retry {len(rounds) - 1}", "--retry-failed"))
        return Outcome(
            audit(folder, planned, rounds, mix.judge_requests),
            rounds,
            mix.requests,
            mix.faults,
            time.monotonic() - started,
        )


def table(outcome: Outcome) -> str:
    """The result as Markdown."""
    a, kill = outcome.audit, outcome.rounds[0]
    faults = sum(outcome.faults.values())
    rows = [
        ("episodes planned", f"{a.planned:,}"),
        ("records written", f"{a.records:,}"),
        ("model requests", f"{outcome.requests:,}"),
        ("faults", f"{faults:,} ({faults / max(1, outcome.requests):.1%})"),
        *((f"  {kind}", f"{n:,}") for kind, n in sorted(outcome.faults.items())),
        ("SIGKILL of the parent", f"after {kill.lines[1]:,} records" if kill.killed else "not reached"),
        ("  workers alive 2 s after it", str(kill.orphans)),
        ("  requests sent > 1 s after it", f"{kill.late_requests:,}"),
        ("infra errors after each command", " → ".join(map(str, a.infra_by_round))),
        ("judge requests", f"{a.judge_requests:,} ({a.judge_paid:,} paid: a first attempt answered)"),
        ("  faults among them", f"{sum(a.judge_faults.values()):,} ({len(a.judge_faults)} kinds)"),
        ("verdicts missing after each command", " → ".join(map(str, a.unjudged_by_round))),
        ("exit statuses", ", ".join(f"{r.name} {r.exit}" for r in outcome.rounds)),
        ("lost", str(len(a.lost))),
        ("duplicated", str(len(a.duplicated))),
        ("infra errors not replayed", str(len(a.unreplayed))),
        ("infra errors left", str(a.infra_left)),
        ("agent_error records", str(a.agent_errors)),
        ("damaged lines", str(a.damaged)),
        ("verdicts wrong at the end", str(len(a.verdicts_wrong))),
        ("verdicts failed closed", str(a.failed_closed)),
        ("records judged (paid) twice", str(len(a.paid_twice))),
        ("judge requests for no record", str(a.judge_unmatched)),
        ("wrong exit statuses", str(len(a.exits_wrong))),
        ("summary/report mismatches", str(len(a.summary_wrong))),
        ("commands with a traceback", str(len(a.tracebacks))),
        ("wall time", f"{outcome.seconds:.0f} s (" + ", ".join(f"{r.seconds:.0f}" for r in outcome.rounds) + ")"),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(["| measure | value |", "|---|---|"] + [f"| {k.ljust(width)} | {v} |" for k, v in rows])


def record(text: str, seed: int) -> None:
    """Append the result, with the machine, to benchmarks/RESULTS.md."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    machine = f"{cpu}, `nproc` {len(os.sched_getaffinity(0))}, {platform.machine()}, Python {platform.python_version()}"
    section = (
        f"\n## Fault injection ({date.today().isoformat()}, {machine})\n\n"
        f"`python benchmarks/fault_injection.py --seed {seed}`\n\n{text}\n"
    )
    with (ROOT / "benchmarks" / "RESULTS.md").open("a") as fh:
        fh.write(section)


def main() -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--fault-rate", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="run in this folder (kept) instead of a temporary one")
    parser.add_argument("--record", action="store_true", help="append the result to benchmarks/RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.keep or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        outcome = fault_benchmark(workdir, args.episodes, args.fault_rate, args.seed)
    text = table(outcome)
    print(text)
    a = outcome.audit
    for label, items in [
        ("lost", a.lost),
        ("duplicated", a.duplicated),
        ("not replayed", a.unreplayed),
        ("unplanned", a.unplanned),
        ("wrong exit", a.exits_wrong),
        ("summary", a.summary_wrong),
        ("verdicts", a.verdicts_wrong),
        ("paid twice", a.paid_twice),
    ]:
        if items:
            print(f"{label}: {', '.join(items[:10])}" + (" ..." if len(items) > 10 else ""), file=sys.stderr)
    for r in outcome.rounds:
        if "Traceback" in r.stderr:
            print(f"--- {r.name} stderr:\n{r.stderr[-3000:]}", file=sys.stderr)
    if args.record:
        record(text, args.seed)
    return 0 if a.clean else 1


if __name__ == "__main__":
    sys.exit(main())

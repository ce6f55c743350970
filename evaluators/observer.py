"""The observer: every score of a finished episode, and a whole run re-scored and reported.

Scoring is a pure function of the transcript records (they carry the instance and, for
workflow tasks, the final database state), so a saved run can be re-scored whenever the
scorers improve, without re-running a single conversation. Per record, one entry per scorer of
the registry (evaluators/scorers/, docs/scorers.md):

    scores = {"rules": strict rule-based score, "compat": CRMArena-Pro's rules,
              "turns": turn categories and attempt scores, "judge": the LLM verdict (if one ran),
              "injection": read and obeyed planted instructions (on an injected org: evaluators.injections),
              "milestones": milestones met and minefields stepped on (evaluators.milestones)}

Files written into the run folder: `scores.jsonl` (episode_id -> scores, one line each),
`summary.json` (the aggregate of evaluators.summary), `report.md`, `report.html` and
`transcripts.html` (evaluators.report). `transcripts.jsonl` itself is never rewritten.

Reports stream: the run is read once into slim records (scored, without the conversations:
their messages, events and persona prompt emptied), and the transcript viewer reads each full record back
from its place in the file when its page is written, so memory grows with the number of
episodes, not with the length of their conversations.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.infra.files import json_lines, read_json, write_atomic
from simulator.records import Instance, Record, parse_record
from simulator.records.base import JSON
from simulator.runs.transcript import scan_records

from .scorers import Registry, default
from .scorers.rules import KEYS as RULES
from .scorers.rules import rules_score
from .summary import with_scores
from .verdict import Headline

SCORES_FILE = "scores.jsonl"


def score(record: Record, judge_verdict: JSON | None = None, registry: Registry | None = None) -> dict[str, Any]:
    """All scores of one record: each scorer's of the registry (the default one when None), in order,
    and the judge verdict when one is given (evaluators/scorers/registry.py)."""
    return (registry or default()).score(record, judge_verdict)


def load_run(run_dir: Path) -> list[Record]:
    """The whole records of a run folder, one per episode (the latest, for an episode run
    again), with the latest scores (scores.jsonl) when there are any; all in memory."""
    run = scan_run(run_dir)
    return [run.full(record) for record in run.records]


HEAVY_FIELDS = {"messages": [], "events": [], "persona_prompt": ""}  # emptied: what only the transcript viewer shows


@dataclass
class RunRecords:
    """A run's latest record per episode, slim and scored in one mode, and where each full
    record is in transcripts.jsonl."""

    path: Path
    records: list[Record]
    offsets: dict[str, int]
    mode: str = "strict"
    head: Headline = Headline()
    registry: Registry = field(default_factory=default)  # the run's scorers (run_registry)

    def full(self, record: Record) -> Record:
        """The whole record of a slim one, with the slim one's (current) scores."""
        with self.path.open("rb") as fh:
            fh.seek(self.offsets[record.episode_id])
            return parse_record(json.loads(fh.readline())).model_copy(update={"scores": record.scores})


def scan_run(run_dir: Path, mode: str = "strict", head: Headline | None = None) -> RunRecords:
    """Read a run folder once: each episode's latest record (with the latest scores of
    scores.jsonl), scored in `mode` under the headline `head` (None: the one the run's config
    names), without its conversation (see RunRecords.full)."""
    path = run_dir / "transcripts.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a run folder (no transcripts.jsonl)")
    rescored = _rescored(run_dir)
    head = run_headline(run_dir) if head is None else head
    registry = run_registry(run_dir)
    latest: dict[str, tuple[int, Record]] = {}
    instances: dict[tuple[str, str], Instance] = {}  # one instance shared by all its episodes
    for start, record in scan_records(path):  # (a torn last line, of a killed run, is skipped)
        if rescored:
            record = record.model_copy(
                update={"scores": rescored.get((record.episode_id, fingerprint(record)), record.scores)}
            )
        prepared = with_scores(record, mode, head, registry)
        if RULES["strict"] not in prepared.scores:  # (judge agreement is on the strict score, in any mode)
            prepared.scores[RULES["strict"]] = rules_score(record, "strict")
        inst = instances.setdefault((record.instance.id, record.instance.org_hash), record.instance)
        latest[record.episode_id] = (start, prepared.model_copy(update={**HEAVY_FIELDS, "instance": inst}))
    return RunRecords(
        path,
        [slim for _, slim in latest.values()],
        {eid: start for eid, (start, _) in latest.items()},
        mode,
        head,
        registry,
    )


def _rescored(run_dir: Path) -> dict[tuple[str, str | None], JSON]:
    """(episode_id, record fingerprint) -> scores, from scores.jsonl (empty without one); a
    damaged line is a DamagedFileError naming it."""
    path = run_dir / SCORES_FILE
    if not path.is_file():
        return {}
    rows = json_lines(
        path,
        check=_score_problem,
        fix=f"delete that line, then `crmarena score {run_dir}` scores "
        "its episode again (an LLM judge's verdict in it is lost)",
    )
    return {(row["episode_id"], row.get("record")): row["scores"] for _, row in rows}  # (older lines: no record)


def _score_problem(row: dict[str, Any]) -> str:
    ok = isinstance(row.get("episode_id"), str) and isinstance(row.get("scores"), dict)
    return "" if ok else "not a score line (no episode_id and scores)"


def fingerprint(record: Record) -> str:
    """Which record of an episode a score belongs to (an episode run again has a new one)."""
    basis = json.dumps(
        [[m.to_json() for m in record.messages], record.termination.to_json(), record.latency_s], sort_keys=True
    )
    return hashlib.sha1(basis.encode()).hexdigest()[:16]


def _write_scores(run_dir: Path, records: Iterable[Record]) -> None:
    """scores.jsonl for `records` (whole records with their new scores), replaced atomically."""
    write_atomic(
        run_dir / SCORES_FILE,
        (
            json.dumps({"episode_id": record.episode_id, "record": fingerprint(record), "scores": record.scores}) + "\n"
            for record in records
        ),
    )


def _judge_all(records: list[Record], judge_model: Any, concurrency: int) -> tuple[list[JSON], str]:
    """The judge's verdicts on `records`, and its refusal if it met one no retry fixes."""
    from simulator.models.clients import build_client, parse_model_spec

    from .judge import Judge, judge_records

    judge = Judge(build_client(parse_model_spec(judge_model, where="judge.model")))

    async def run() -> list[JSON]:
        try:
            return await judge_records(records, judge, concurrency=concurrency)
        finally:
            await judge.close()

    return asyncio.run(run()), judge.refused


def rescore(run_dir: Path, *, judge_model: Any = None, mode: str = "strict", concurrency: int = 8) -> JSON:
    """Score every record of a run anew, write scores, summary and report; the summary.
    Without a judge this streams (one whole record at a time), keeping the verdicts of an
    earlier judged scoring: they were paid for (with a judge, so are the verdicts `reusable` says
    still stand). A judge refusal no retry fixes raises JudgeRefused, verdicts missing for a
    provider reason JudgingIncomplete, once everything is written."""
    refused, missing, first = "", 0, ""
    registry = run_registry(run_dir)
    if judge_model is not None:
        records = load_run(run_dir)
        verdicts, refused = _judge_all(records, judge_model, concurrency)
        _write_scores(
            run_dir,
            [
                record.model_copy(update={"scores": score(record, verdict, registry)})
                for record, verdict in zip(records, verdicts)
            ],
        )
        for verdict in verdicts:
            if verdict.get("infra_error"):
                missing, first = missing + 1, first or verdict["error"]
    else:
        run = scan_run(run_dir, mode)
        _write_scores(
            run_dir,
            (
                full.model_copy(update={"scores": score(full, full.scores.get("judge"), registry)})
                for full in map(run.full, run.records)
            ),
        )
    summary = report(run_dir, mode=mode)
    if refused:
        from .judge import JudgeRefused

        raise JudgeRefused(
            f"judging stopped: the judge model refused in a way no retry fixes ({refused}); the "
            "episodes it did not judge have invalid verdicts (rules scores, summary and report are "
            "written). Fix the key or model name and run `crmarena score RUN_DIR --judge ...` again"
        )
    if missing:
        from .judge import JudgingIncomplete

        raise JudgingIncomplete(
            f"{missing} of {len(records)} episode(s) have no judge verdict: the judge model failed "
            f"({first}); run the same command again to judge them (the verdicts given are kept)"
        )
    return summary


def _run_info(run_dir: Path) -> dict[str, Any]:
    config = run_dir / "config.json"
    fix = "it holds no run data: delete it, or run `crmarena run` with the run's config to write it anew"
    return {"run_dir": str(run_dir), "config": read_json(config, fix) if config.is_file() else {}}


def run_registry(run_dir: Path) -> Registry:
    """The scorers of a run: the built-in ones and those its config names (`scorers:`)."""
    from .scorers.plugins import registry_for

    return registry_for(_run_info(run_dir)["config"].get("scorers") or ())


def run_headline(run_dir: Path) -> Headline:
    """The headline the run's config names (evaluators.verdict), the default for runs without one."""
    return Headline.from_json(_run_info(run_dir)["config"].get("headline"))


def report(run_dir: Path, *, mode: str = "strict", run: RunRecords | None = None) -> JSON:
    """Summarise a run's records as they are scored now and write the report; the summary.
    `run`: the run already scanned in `mode` (scan_run), so it is not read again. The report shows the
    run's audit (audit.jsonl, `crmarena audit`) when it has one."""
    from . import audit_file
    from .report import write_report
    from .summary import summarize

    run = run or scan_run(run_dir, mode)
    if run.mode != mode:
        raise ValueError(f"the run was scanned in {run.mode} mode, not {mode}")
    summary = summarize(run.records, mode=mode, head=run.head, registry=run.registry)
    write_atomic(run_dir / "summary.json", json.dumps(summary, indent=2))
    audits = audit_file.read_audit(run_dir)
    write_report(
        run_dir,
        run.records,
        summary,
        run_info=_run_info(run_dir),
        full=run.full,
        audit=audit_file.summarize(audits, run.records, mode) if audits else None,
    )
    return summary

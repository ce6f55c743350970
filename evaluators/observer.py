"""The observer: every score of a finished episode, and a whole run re-scored and reported.

Scoring is a pure function of the transcript records (they carry the instance and, for
workflow tasks, the final database state), so a saved run can be re-scored whenever the
scorers improve, without re-running a single conversation. Per record:

    scores = {"rules": strict rule-based score, "compat": CRMArena-Pro's rules,
              "turns": turn categories and attempt scores, "judge": the LLM verdict (if one ran)}

Files written into the run folder: `scores.jsonl` (episode_id -> scores, one line each),
`summary.json` (the aggregate of evaluators.stats), `report.md`, `report.html` and
`transcripts.html` (evaluators.report). `transcripts.jsonl` itself is never rewritten.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

from simulator.transcript import read_records

from .scorers import score_record
from .turns import turn_scores

SCORES_FILE = "scores.jsonl"


def score(record: dict[str, Any], judge_verdict: dict | None = None) -> dict[str, Any]:
    """All rule-based scores of one record (plus a judge verdict, when one is given)."""
    scores = {"rules": score_record(record, "strict"), "compat": score_record(record, "compat"),
              "turns": turn_scores(record)}
    if judge_verdict is not None:
        scores["judge"] = judge_verdict
    return scores


def load_run(run_dir: Path) -> list[dict[str, Any]]:
    """The records of a run folder, one per episode (the latest, for an episode run again), with
    the latest scores (scores.jsonl) when there are any."""
    path = run_dir / "transcripts.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a run folder (no transcripts.jsonl)")
    latest = {r["episode_id"]: r for r in read_records(path)}  # a retried episode: its last record
    records = list(latest.values())
    rescored = run_dir / SCORES_FILE
    if rescored.is_file():
        latest = {(row["episode_id"], row.get("record")): row["scores"] for row in read_records(rescored)}
        for record in records:  # scores of an earlier record of a retried episode do not apply
            record["scores"] = latest.get((record["episode_id"], fingerprint(record)), record.get("scores", {}))
    return records


def fingerprint(record: dict[str, Any]) -> str:
    """Which record of an episode a score belongs to (an episode run again has a new one)."""
    basis = json.dumps([record["messages"], record["termination"], record["latency_s"]], sort_keys=True)
    return hashlib.sha1(basis.encode()).hexdigest()[:16]


def _write_scores(run_dir: Path, records: list[dict[str, Any]]) -> None:
    tmp = run_dir / (SCORES_FILE + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps({"episode_id": record["episode_id"], "record": fingerprint(record),
                                 "scores": record["scores"]}) + "\n")
    tmp.replace(run_dir / SCORES_FILE)


def _judge_all(records: list[dict[str, Any]], judge_model: Any, concurrency: int) -> list[dict]:
    from simulator.models import build_client, parse_model_spec

    from .judge import Judge, judge_records
    judge = Judge(build_client(parse_model_spec(judge_model, where="judge.model")))

    async def run() -> list[dict]:
        try:
            return await judge_records(records, judge, concurrency=concurrency)
        finally:
            await judge.close()
    return asyncio.run(run())


def rescore(run_dir: Path, *, judge_model: Any = None, mode: str = "strict", concurrency: int = 8) -> dict:
    """Score every record of a run anew, write scores, summary and report; the summary."""
    records = load_run(run_dir)
    if judge_model is not None:
        verdicts = _judge_all(records, judge_model, concurrency)
    else:  # keep the verdicts of an earlier judged scoring: they were paid for
        verdicts = [record.get("scores", {}).get("judge") for record in records]
    for record, verdict in zip(records, verdicts):
        record["scores"] = score(record, verdict)
    _write_scores(run_dir, records)
    return _summarise(run_dir, records, mode)


def _run_info(run_dir: Path) -> dict[str, Any]:
    config = run_dir / "config.json"
    return {"run_dir": str(run_dir), "config": json.loads(config.read_text()) if config.is_file() else {}}


def report(run_dir: Path, *, mode: str = "strict") -> dict:
    """Summarise a run's records as they are scored now and write the report; the summary."""
    return _summarise(run_dir, load_run(run_dir), mode)


def _summarise(run_dir: Path, records: list[dict[str, Any]], mode: str) -> dict:
    """Write summary.json and the report files for `records`; the summary."""
    from .report import write_report
    from .stats import summarize

    summary = summarize(records, mode=mode)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    write_report(run_dir, records, summary, run_info=_run_info(run_dir))
    return summary

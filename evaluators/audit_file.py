"""A run's audit file (audit.jsonl, written by `crmarena audit`: evaluators.audit) read back and
summarised, for the report: below both the audit (which writes it, then has the report written)
and the observer (which shows it in the report)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from simulator.records import Record

from .report import episode_status

AUDIT_FILE = "audit.jsonl"
RULES = ("not_due", "too_many", "invented_value", "ended_early", "contradiction", "said_answer")


def read_audit(run_dir: Path) -> list[dict[str, Any]]:
    """The lines of a run's audit.jsonl ([] without one)."""
    path = Path(run_dir) / AUDIT_FILE
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


def flagged(line: Mapping[str, Any]) -> bool:
    """Whether an audit line has a rule flag or a failed rubric verdict."""
    verdict = line.get("judge") or {}
    return bool(line["flags"]) or verdict.get("style") is False or verdict.get("coherent") is False


def summarize(
    audits: Iterable[Mapping[str, Any]], records: Iterable[Record] = (), mode: str = "strict"
) -> dict[str, Any]:
    """Flag counts by rule, flag rate by user and persona, corrections, and success with and
    without the flagged episodes (of `records`, scored in `mode`)."""
    audits = list(audits)
    out: dict[str, Any] = {
        "episodes": len(audits),
        "flagged": sum(map(flagged, audits)),
        "by_rule": {rule: sum(any(f["rule"] == rule for f in a["flags"]) for a in audits) for rule in RULES},
        "corrections": sum(a.get("corrections") or 0 for a in audits),
    }
    for key in ("user", "persona_id"):
        groups: dict[str, list[bool]] = defaultdict(list)
        for a in audits:
            groups[str(a.get(key))].append(flagged(a))
        out[f"by_{key}"] = {k: {"n": len(v), "flag_rate": sum(v) / len(v)} for k, v in sorted(groups.items())}
    marked = {a["episode_id"] for a in audits if flagged(a)}
    status = {r.episode_id: episode_status(r, mode) for r in records}
    keeps: tuple[tuple[str, Callable[[str], bool]], ...] = (
        ("success_all", lambda e: True),
        ("success_unflagged", lambda e: e not in marked),
    )
    for name, keep in keeps:
        scored = [s == "pass" for e, s in status.items() if s in ("pass", "fail") and keep(e)]
        out[name] = {"n": len(scored), "rate": sum(scored) / len(scored) if scored else None}
    return out

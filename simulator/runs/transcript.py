"""Transcript records: one JSON line per finished episode, appended the moment it finishes.

A record is self-describing: the instance, mode, persona, every message, tool call and
result, reveal events, the termination, the final answer, model settings (never secrets),
seeds, token usage, latency and cost per role, and the package version. Evaluators read
records (and the org), never a live conversation.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from simulator import __version__
from simulator.infra.files import LineAppender, json_lines, line_problem, open_regular, read_regular, write_atomic
from simulator.models.usage import Usage
from simulator.records import ROLES, SCHEMA_VERSION, TERMINATIONS, Record, RecordSchemaError, parse_record
from simulator.records.migrate import NewerRecordError


def message(role: str, content: str, turn: int, **extra: Any) -> dict[str, Any]:
    """One transcript message. Tool calls: role 'assistant' with `tool_calls` [{id, name,
    arguments}]; tool results: role 'tool' with `call_id`, `name` and `is_error`."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return {"role": role, "content": content, "turn": turn, **extra}


@dataclass
class Termination:
    reason: str
    detail: str = ""
    fatal: bool = False  # an infra_error no retry fixes (written only when true): the run stops

    def __post_init__(self) -> None:
        if self.reason not in TERMINATIONS:
            raise ValueError(f"unknown termination reason {self.reason!r}")


@dataclass
class EpisodeRecord:
    """Everything about one episode, as written to transcripts.jsonl."""

    episode_id: str
    run_id: str
    task: str
    org: str
    instance_id: str
    mode: str
    persona_id: str
    persona_prompt: str
    agent: dict[str, Any]
    user: dict[str, Any]
    instance: dict[str, Any]
    seed: int
    trial: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    termination: Termination | None = None
    final_answer: str = ""
    state: dict[str, Any] = field(default_factory=dict)  # environment state the scorers need
    usage: dict[str, Usage] = field(default_factory=lambda: {"agent": Usage(), "user": Usage()})
    latency_s: float = 0.0
    scores: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data: a copy, as `dataclasses.asdict` makes (which walks every value
        with generic checks: ~4% of a 10-turn episode's CPU)."""
        data = {f.name: _copied(getattr(self, f.name)) for f in fields(self)}
        data["usage"] = {role: u.to_json() for role, u in self.usage.items()}
        if data["termination"] is not None and not data["termination"]["fatal"]:
            del data["termination"]["fatal"]
        data["latency_s"] = round(self.latency_s, 4)
        return {"schema_version": SCHEMA_VERSION, "package_version": __version__, **data}


def _copied(value: Any) -> Any:
    """`value` copied as `dataclasses.asdict` copies a field: JSON-shaped dicts, lists and tuples
    walked directly, dataclasses by asdict, anything else deep-copied."""
    kind = type(value)
    if kind is dict:
        return {_copied(key): _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    if kind in _ATOMS:
        return value
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else copy.deepcopy(value)


_ATOMS = frozenset({str, int, float, bool, type(None)})


class TranscriptWriter:
    """Appends records to a JSONL file, one whole line per episode (redacted of secrets), in
    the OS's hands at once: a line survives the process being killed (SIGKILL included), and a
    line a full disk cuts short is cut back off (DiskFullError). The file is fsynced on close; a
    power loss mid-run can lose the last lines, which a resumed run repeats."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._out = LineAppender(self.path)

    def append(self, record: EpisodeRecord | Record | dict[str, Any]) -> None:
        """Write `record` as its model (simulator.records.Record) dumps it; a record the model rejects
        is a RecordSchemaError naming its episode and the key (a bug in whoever built it)."""
        data = record.to_json() if isinstance(record, EpisodeRecord) else record
        try:
            typed = data if isinstance(data, Record) else parse_record(data)
        except RecordSchemaError as exc:
            episode = data.get("episode_id") if isinstance(data, dict) else None
            raise RecordSchemaError(f"episode {episode}: {exc}") from None
        self._out.append(typed.model_dump_json(exclude_unset=True))

    def close(self) -> None:
        self._out.close()

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()


REJECTED = "transcripts.rejected.jsonl"  # beside transcripts.jsonl: damaged lines a resumed run set aside
REPAIR = (
    f"delete that line, or run the same `crmarena run` command: it moves damaged lines to {REJECTED} "
    "and plays their episodes again"
)


def record_problem(data: dict[str, Any]) -> str:
    """What keeps a parsed line from being an episode record ("" if nothing): it must read as a
    simulator.records.Record (an older schema version migrated). A record of a newer schema
    version is no damage: NewerRecordError (upgrade to read it)."""
    try:
        parse_record(data)
    except NewerRecordError:
        raise
    except RecordSchemaError as exc:
        return str(exc)
    return ""


def scan_records(path: str | Path, skip_damaged: bool = False) -> Iterator[tuple[int, Record]]:
    """(byte offset, record) of each record of a transcripts file, read through its model once
    (checked, and brought to the current schema version); a torn last line (a killed run) is
    skipped; a damaged line raises DamagedFileError naming the file and line (or is skipped too)."""
    read: list[Record] = []

    def check(data: dict[str, Any]) -> str:
        try:
            read.append(parse_record(data))
        except NewerRecordError:
            raise
        except RecordSchemaError as exc:
            return str(exc)
        return ""

    try:
        for start, _ in json_lines(path, check=check, fix=REPAIR, skip_damaged=skip_damaged):
            yield start, read.pop()
    except NewerRecordError as exc:
        raise NewerRecordError(f"{path}: {exc}") from None


def read_records(path: str | Path, skip_damaged: bool = False) -> Iterator[dict[str, Any]]:
    """The records of a transcripts file as JSON data (see scan_records)."""
    return (record.to_json() for _, record in scan_records(path, skip_damaged))


def typed_records(path: str | Path) -> Iterator[Record]:
    """The records of a transcripts file as simulator.records.Record models (see scan_records)."""
    return (record for _, record in scan_records(path))


def repair_records(path: Path) -> str:
    """Make a transcripts file safe to append to and resume from (its run folder's lock held):
    cut a line torn by a killed run off its end, and move every damaged whole line to
    transcripts.rejected.jsonl (nothing is dropped: a good record stays, a bad one is kept
    aside, and its episode is played again). What was moved, or "" if nothing."""
    if not os.path.lexists(path):
        return ""
    bad, whole = [], 0  # damaged line numbers; bytes up to the last newline
    with os.fdopen(open_regular(path, os.O_RDWR), "r+b") as fh:  # (binary: lines end at \n alone, as readers count)
        for number, raw in enumerate(fh, 1):
            if raw.endswith(b"\n"):
                whole += len(raw)
                if raw.strip() and line_problem(raw, record_problem)[1]:
                    bad.append(number)
        if whole < fh.tell():  # a line torn by a killed run
            fh.truncate(whole)
        if not bad:
            return ""
        rejected, moved = path.with_name(REJECTED), set(bad)
        old = read_regular(rejected) if os.path.lexists(rejected) else b""
        fh.seek(0)
        write_atomic(rejected, [old, *(raw for n, raw in enumerate(fh, 1) if n in moved)])
        fh.seek(0)
        write_atomic(path, (raw for n, raw in enumerate(fh, 1) if n not in moved))
    return (
        f"{path}: {len(bad)} damaged line(s) (line {', '.join(map(str, bad[:10]))}"
        f"{', ...' if len(bad) > 10 else ''}) moved to {rejected}; their episodes are played again"
    )

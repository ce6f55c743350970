"""The user-simulator audit: did the simulated person play by the rules? (`crmarena audit RUN_DIR`)

Reads a run's transcripts only. Per person turn, rule checks (each a flag {turn, rule, reason}):

- not_due: in sharded mode, a fact told when the persona's disclosure style gives none: unasked
  (the agent's previous reply neither asked, `scripted.asks`, nor attempted an answer) by a style
  that tells facts only when asked, or any fact beyond the intent in the opening of such a style;
- too_many: more new facts in one message than the style allows (`Persona.max_reveals_per_turn`;
  the intent of the opening does not count), or a sharded opening that told every fact;
- invented_value: an Id, email or number in the message that no shard, query, parameter, persona
  prompt or earlier message holds;
- ended_early: the person ended (termination user_done) when the agent's last reply was no
  answer attempt of the instance's kind, or with facts still untold;
- contradiction: the person said they had nothing more to tell, then told a fact later;
- said_answer: the message holds the expected answer or a confidential value (values of at
  least 4 characters that the query and shards do not hold) before any agent reply said it.

The style is read from the persona prompt (the disclosure instruction it renders); style checks
are skipped for pressure people (their moves may tell request facts beyond the style) and for
full and concat modes. LLM people: `corrections` counts the model calls beyond one per model-made
turn (each a turn the code sent back to be fixed). With a judge (`--judge MODEL`), one rubric
verdict per sharded or LLM-played episode on persona style and coherence; a verdict is kept in
audit.jsonl and reused for the same record and judge model.

Output: `audit.jsonl` in the run folder, one line per episode {episode_id, user, persona_id,
flags, corrections, judge?}, and a summary (`summarize`); the report shows it when the file exists.
A folder holding episodes a person played in the user's seat (`crmarena play`, user kind `human`)
gets a `people` section in the printed summary (`people`): human and simulated people on the same
instances and modes, side by side: turns, the order the shards were told, words per message.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from simulator import prompts
from simulator.infra.files import write_atomic
from simulator.records import Record, Reveal
from simulator.records.base import JSON
from simulator.replies.categories import ATTEMPTS, categorize
from simulator.users.personas import DISCLOSURES
from simulator.users.scripted import STYLES, asks

from .audit_file import AUDIT_FILE, RULES, read_audit, summarize
from .pressure import is_pressure

VALUE = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{15,18}\b"
    r"|\d+(?:[.,]\d+)*"
)
NOTHING_MORE = re.compile(
    r"nothing (?:more|else) to (?:add|tell|say)|that is all i know"
    r"|don'?t know anything (?:else|more)|that'?s (?:everything|all) i (?:know|have|'ve got)",
    re.I,
)
MIN_ANSWER_CHARS = 4
CODE_BUILT = ("full", "concat", "plan")  # modes whose opening the code builds (users.disclosure), not the person


class AuditError(ValueError):
    """The folder cannot be audited (not a run folder, mixed schema versions)."""


def values(text: str) -> set[str]:
    """The Ids, emails and numbers of `text`, normalised (lower case, no thousands commas)."""
    return {v.lower().replace(",", "") for v in VALUE.findall(text)}


def style_of(record: Record) -> str | None:
    """The disclosure style whose instruction the persona prompt renders (None if none does)."""
    return next((name for name, d in DISCLOSURES.items() if d.instruction in record.persona_prompt), None)


Said = dict[int, str]  # turn -> what one side said in it
Reveals = dict[int, list[str]]  # turn -> the shards the person revealed in it


def _turns(record: Record) -> tuple[Said, Said]:
    """Per turn, the person's message and the agent's last reply to the person."""
    person, agent = {}, {}
    for m in record.messages:
        if m.role == "user":
            person[m.turn] = m.content
        elif m.role == "assistant" and not m.tool_calls and m.content.strip():
            agent[m.turn] = m.content
    return person, agent


def _reveals(record: Record) -> Reveals:
    out: dict[int, list[str]] = defaultdict(list)
    for event in record.events:
        if isinstance(event, Reveal):
            out[event.turn] += event.shards
    return out


def _flag(turn: int, rule: str, reason: str) -> dict[str, Any]:
    return {"turn": turn, "rule": rule, "reason": reason}


def _style_flags(record: Record, person: Said, agent: Said, reveals: Reveals) -> list[JSON]:
    """not_due and too_many, by the persona's disclosure style (sharded, standard people only)."""
    name = style_of(record)
    if record.mode != "sharded" or name is None or is_pressure(record):
        return []
    style, limit = STYLES[name], DISCLOSURES[name].max_reveals
    shards = record.instance.shards
    intent, n_facts = shards[0].id, len(shards) - 1
    kind, flags = record.instance.answer_kind, []
    for turn in sorted(person):
        facts = [sid for sid in reveals.get(turn, []) if sid != intent]
        if not facts:
            continue
        before = agent.get(turn - 1, "")
        prompted = turn > 1 and (asks(before) or categorize(before, kind) in ATTEMPTS)
        if not style.unasked and not prompted:
            flags.append(
                _flag(turn, "not_due", f"told {', '.join(facts)} unasked; style {name} tells facts only when asked")
            )
        if len(facts) > limit:
            flags.append(
                _flag(
                    turn,
                    "too_many",
                    f"told {len(facts)} facts at once ({', '.join(facts)}); style {name} allows {limit}",
                )
            )
        elif turn == 1 and n_facts and len(facts) == n_facts:
            flags.append(_flag(turn, "too_many", "the sharded opening told every fact"))
    return flags


def _known_text(record: Record) -> str:
    inst = record.instance
    return " ".join([inst.query, *(s.text for s in inst.shards), json.dumps(inst.params), record.persona_prompt])


def _said_values(record: Record) -> list[str]:
    known = _known_text(record)
    return [
        v
        for v in (*record.instance.answer, *record.instance.confidential_values)
        if len(v) >= MIN_ANSWER_CHARS and v not in known
    ]


def _value_flags(turn: int, message: str, heard: str, secrets: list[str]) -> list[JSON]:
    """invented_value and said_answer for one person message."""
    flags = []
    invented = sorted(values(message) - values(heard))
    if invented:
        flags.append(_flag(turn, "invented_value", f"{', '.join(invented)} is in no shard, query or earlier message"))
    said = [v for v in secrets if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", message)]
    if said:
        flags.append(_flag(turn, "said_answer", f"said {', '.join(said)} (the answer or a confidential value)"))
    return flags


def _content_flags(record: Record, person: Said, agent: Said, reveals: Reveals) -> list[JSON]:
    """invented_value, said_answer and contradiction, turn by turn (not on a code-built opening)."""
    heard, secrets, flags = _known_text(record), _said_values(record), []
    nothing_more = None
    for turn in sorted(person):
        message = person[turn]
        if turn > 1 or record.mode not in CODE_BUILT:
            flags += _value_flags(turn, message, heard, secrets)
        if nothing_more is not None and reveals.get(turn):
            flags.append(
                _flag(
                    turn,
                    "contradiction",
                    f"said at turn {nothing_more} there was nothing more to tell, then told {', '.join(reveals[turn])}",
                )
            )
            nothing_more = None
        if NOTHING_MORE.search(message):
            nothing_more = turn
        heard += f" {message} {agent.get(turn, '')}"
        secrets = [v for v in secrets if v not in agent.get(turn, "")]
    return flags


def _end_flags(record: Record, person: Said, agent: Said, reveals: Reveals) -> list[JSON]:
    """ended_early: the person ended without an answer attempt, or with facts untold."""
    if record.termination.reason != "user_done" or not person:
        return []
    last = max(person)
    reply = agent.get(last - 1, "")
    if not reply or categorize(reply, record.instance.answer_kind) not in ATTEMPTS:
        return [_flag(last, "ended_early", "ended the conversation before the agent gave an answer")]
    told = {sid for ids in reveals.values() for sid in ids}
    untold = [s.id for s in record.instance.shards if s.id not in told]
    if record.mode == "sharded" and untold:
        return [_flag(last, "ended_early", f"ended with facts untold: {', '.join(untold)}")]
    return []


def corrections(record: Record) -> int | None:
    """An LLM person's model calls beyond one per model-made turn (turns the code had it fix);
    None for other people."""
    if record.user.kind != "LLMUser":
        return None
    made = sum(m.role == "user" for m in record.messages) - (record.mode != "sharded")
    used = record.usage.get("user")
    return max(0, (used.calls if used else 0) - made)


def audit_record(record: Record) -> dict[str, Any]:
    """One episode's audit line: its flags (sorted by turn) and repair count."""
    person, agent = _turns(record)
    reveals = _reveals(record)
    flags = [f for check in (_style_flags, _content_flags, _end_flags) for f in check(record, person, agent, reveals)]
    return {
        "episode_id": record.episode_id,
        "user": user_label(record),
        "persona_id": record.persona_id,
        "mode": record.mode,
        "flags": sorted(flags, key=lambda f: (f["turn"], RULES.index(f["rule"]))),
        "corrections": corrections(record),
    }


def user_label(record: Record) -> str:
    """The person's simulator: its kind, and model when it has one."""
    model = getattr(record.user, "model", None)  # (the person's own setting: a model spec, or its name)
    if isinstance(model, dict):
        model = model.get("model")
    return " ".join(str(p) for p in (record.user.kind, model) if p)


# --- human and simulated people ----------------------------------------------------------------

HUMAN = "human"  # the user kind of a person who typed the messages (`crmarena play --seat user`)


def person_side(record: Record) -> dict[str, Any]:
    """How the person of one episode posed it: messages, the shards in the order told, and the
    words per (non-empty) message."""
    person, _ = _turns(record)
    said = [person[t] for t in sorted(person) if person[t].strip()]
    reveals = _reveals(record)
    return {
        "episode_id": record.episode_id,
        "user": user_label(record),
        "turns": len(person),
        "reveal_order": [sid for turn in sorted(reveals) for sid in reveals[turn]],
        "words_per_message": round(sum(len(m.split()) for m in said) / len(said), 1) if said else 0.0,
    }


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def people(records: list[Record]) -> dict[str, Any]:
    """Human and simulated people on the same instances (and modes): per instance each side's
    episodes (`person_side`); per side the mean turns and words per message over those instances,
    and the share of (human, simulated) pairs that told the shards in the same order."""
    cells: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = defaultdict(lambda: {"human": [], "simulated": []})
    for r in records:
        cells[(r.instance_id, r.mode)]["human" if r.user.kind == HUMAN else "simulated"].append(person_side(r))
    shared = {cell: sides for cell, sides in sorted(cells.items()) if sides["human"] and sides["simulated"]}
    pairs = [(h, s) for sides in shared.values() for h in sides["human"] for s in sides["simulated"]]
    return {
        "instances": len(shared),
        "by_side": {
            side: {
                "episodes": len(eps := [e for sides in shared.values() for e in sides[side]]),
                "turns": _mean([e["turns"] for e in eps]),
                "words_per_message": _mean([e["words_per_message"] for e in eps]),
            }
            for side in ("human", "simulated")
        },
        "same_reveal_order": _mean([float(h["reveal_order"] == s["reveal_order"]) for h, s in pairs]),
        "cells": [{"instance_id": i, "mode": m, **sides} for (i, m), sides in shared.items()],
    }


# --- judge rubric ---------------------------------------------------------------------------------


def rubric_prompt(record: Record) -> str:
    """The rubric's user message (simulator/prompts/audit_record.j2): persona, facts, the conversation."""
    lines = [
        json.dumps({"turn": m.turn, "role": "person" if m.role == "user" else "agent", "text": m.content})
        for m in record.messages
        if m.role == "user" or (m.role == "assistant" and not m.tool_calls)
    ]
    return prompts.render(
        "audit_record", persona=record.persona_prompt, facts=[s.text for s in record.instance.shards], lines=lines
    )


async def _rubric(client: Any, record: Record) -> dict[str, Any]:
    from autogen_core.models import SystemMessage, UserMessage

    from simulator.models.calls import client_settings

    from .judge import find_json_object, record_digest

    result = await client.create(
        [
            SystemMessage(content=prompts.render("audit_system")),
            UserMessage(content=rubric_prompt(record), source="audit"),
        ]
    )
    verdict = find_json_object(result.content if isinstance(result.content, str) else "") or {}
    ok = isinstance(verdict.get("style"), bool) and isinstance(verdict.get("coherent"), bool)
    return {
        "style": verdict.get("style") if ok else None,
        "coherent": verdict.get("coherent") if ok else None,
        "reason": str(verdict.get("reason", "")) if ok else "unparseable verdict",
        "valid": ok,
        "model": client_settings(client),
        "record": record_digest(record),
    }


def judge_all(records: list[Record], model: Any, prior: dict[str, JSON]) -> dict[str, JSON]:
    """Rubric verdicts by episode id, reusing `prior` ones given on the same record by the same model."""
    from simulator.models.calls import client_settings
    from simulator.models.clients import build_client, parse_model_spec

    from .judge import reusable

    client = build_client(parse_model_spec(model, where="--judge"))
    settings = client_settings(client)
    todo = [r for r in records if not reusable(prior.get(r.episode_id), r, settings)]

    async def run() -> list[JSON]:
        try:
            return await asyncio.gather(*(_rubric(client, r) for r in todo))
        finally:
            await client.close()

    fresh = dict(zip((r.episode_id for r in todo), asyncio.run(run()) if todo else []))
    return {r.episode_id: fresh.get(r.episode_id) or prior[r.episode_id] for r in records}


# --- the run --------------------------------------------------------------------------------------


def read_run(run_dir: Path) -> list[Record]:
    """The latest whole record per episode (older schema versions migrated); AuditError for a folder that is no run."""
    from .observer import load_run

    if not (Path(run_dir) / "transcripts.jsonl").is_file():
        raise AuditError(f"{run_dir} is not a run folder (no transcripts.jsonl); runs are written by `crmarena run`")
    return load_run(Path(run_dir))  # (older schema versions are migrated as they are read)


def audit_run(run_dir: Path, records: list[Record], judge: Any = None) -> list[dict[str, Any]]:
    """Audit the run's `records` (read_run) and write audit.jsonl; its lines. Rubric verdicts: from
    `judge` (a model spec), reusing earlier ones; without a judge, the earlier ones on the same records."""
    from .judge import judged_this

    audits = [audit_record(r) for r in records]
    prior = {a["episode_id"]: a["judge"] for a in read_audit(run_dir) if a.get("judge")}
    verdicts = (
        judge_all(records, judge, prior)
        if judge is not None
        else {
            r.episode_id: prior[r.episode_id]
            for r in records
            if r.episode_id in prior and judged_this(prior[r.episode_id], r)
        }
    )
    for line in audits:
        if line["episode_id"] in verdicts:
            line["judge"] = verdicts[line["episode_id"]]
    write_atomic(Path(run_dir) / AUDIT_FILE, "".join(json.dumps(a) + "\n" for a in audits))
    return audits


# --- the command ----------------------------------------------------------------------------------


def judge_spec(text: str | None) -> Any:
    """The --judge value as a model spec (a mapping when it is written as one); ModelConfigError if bad."""
    import yaml

    from simulator.models.clients import ModelConfigError, parse_model_spec

    if text is None:
        return None
    try:
        spec = yaml.safe_load(text) if text.lstrip().startswith("{") else text
    except yaml.YAMLError as exc:
        raise ModelConfigError("--judge", f"not a model spec mapping ({exc})") from None
    parse_model_spec(spec, where="--judge")
    return spec


def cmd_audit(args: argparse.Namespace) -> int:
    """`crmarena audit RUN_DIR [--judge MODEL]`: write audit.jsonl, print the summary, refresh the report."""
    from simulator.models.clients import ModelConfigError
    from simulator.runs.lock import RunFolderError, RunFolderLock

    from .observer import report

    run_dir = Path(args.run_dir)
    try:
        judge = judge_spec(args.judge)
        records = read_run(run_dir)
        lock = RunFolderLock(run_dir, busy_hint="wait for the run to end").acquire()
    except (AuditError, RunFolderError, ModelConfigError) as exc:
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 2
    try:
        audits = audit_run(run_dir, records, judge=judge)
        report(run_dir)
    finally:
        lock.release()
    summary = summarize(audits, records)
    if any(r.user.kind == HUMAN for r in records):
        summary["people"] = people(records)
    print(json.dumps(summary, indent=2))
    print(f"audit: {run_dir / AUDIT_FILE}")
    return 0

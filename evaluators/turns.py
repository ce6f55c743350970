"""Turn categories of a transcript, and the scores that follow.

Every agent turn of a record is put in one of CATEGORIES by `simulator.replies.categories.
categorize` (its rules are in that module's docstring; the LLM judge, when configured, is the
arbiter of hard cases).

`turn_scores(record, mode)` categorizes every agent turn of a transcript record and scores the
answer attempts; see its docstring for the definitions.
"""

from __future__ import annotations

import copy
from typing import Any

from simulator.replies.categories import ATTEMPTS, categorize
from simulator.tasks.metrics import traits

from .scorers import score_record

CUT_SHORT = ("agent_step_limit", "agent_error", "infra_error")  # the agent's last turn ended without a reply


def agent_turns(record: dict[str, Any]) -> list[tuple[int, int | None, str]]:
    """(turn, message index or None, reply text) for every agent turn of a record, in order.

    Every reply to the person (role 'assistant' without tool calls) is one entry. A user message
    not answered before the next user message is a turn without a reply (index None, text "").
    The last user message is such a turn only when the termination says the agent's turn was cut
    short (CUT_SHORT); otherwise it is the person's closing message, which nobody answers."""
    entries: list[tuple[int, int | None, str]] = []
    pending: int | None = None
    for index, msg in enumerate(record.get("messages") or []):
        if msg.get("role") == "user":
            if pending is not None:
                entries.append((pending, None, ""))
            pending = msg.get("turn")
        elif msg.get("role") == "assistant" and not msg.get("tool_calls"):
            entries.append((msg.get("turn"), index, msg.get("content") or ""))
            pending = None
    if pending is not None and (record.get("termination") or {}).get("reason") in CUT_SHORT:
        entries.append((pending, None, ""))
    return entries


def attempt_success(record: dict[str, Any], index: int, mode: str = "strict") -> bool | None:
    """Whether the reply at message `index` would score a success had the conversation ended
    there: the record scored with the messages up to that reply and it as the final answer.
    Workflow tasks are scored on what the reply says (as exact user Ids): the org's state at
    that turn is not recorded. None when the record is not scored (infra error)."""
    trial = copy.copy(record)
    trial["messages"] = record["messages"][:index + 1]
    trial["final_answer"] = record["messages"][index].get("content") or ""
    instance = record.get("instance") or {}
    stand_in = traits(instance.get("metric")).attempt_as
    if stand_in:
        trial["instance"] = {**instance, "metric": stand_in}
    return score_record(trial, mode)["success"]


def _revealed_all_by(record: dict[str, Any]) -> int | None:
    """The turn by which every shard of the instance was revealed (0 when it has none), or None."""
    needed = {s["id"] for s in (record.get("instance") or {}).get("shards") or []}
    if not needed:
        return 0
    seen: set[str] = set()
    for event in sorted((e for e in record.get("events") or [] if e.get("type") == "reveal"),
                        key=lambda e: e.get("turn", 0)):
        seen.update(event.get("shards") or [])
        if needed <= seen:
            return event.get("turn", 0)
    return None


def turn_scores(record: dict[str, Any], mode: str = "strict") -> dict[str, Any]:
    """Categories of every agent turn, and the attempt scores of one record.

    - categories: [{turn, category, attempt_success}] per agent turn (`agent_turns`), with
      attempt_success (`attempt_success`) for answer attempts and hedges (ATTEMPTS), else None.
    - final: the record's own score (`scorers.score_record(record, mode)["success"]`).
    - first_attempt: the first attempt's success; False when no reply attempts an answer.
    - any: whether any attempt succeeded, or the final score did (so any >= final).
    - premature: whether an attempt came at a turn before every shard had been revealed (the
      reveal events; an instance whose shards are never all revealed makes every attempt premature).
    - turns_to_answer: the user turn of the first successful attempt (the number of messages the
      person had sent by then), None when no attempt succeeded.
    first_attempt and any are None, like final, when the record is not scored (infra error)."""
    kind = (record.get("instance") or {}).get("answer_kind") or ""
    final = score_record(record, mode)["success"]
    categories = []
    for turn, index, text in agent_turns(record):
        category = categorize(text, kind)
        success = attempt_success(record, index, mode) if category in ATTEMPTS else None
        categories.append({"turn": turn, "category": category, "attempt_success": success})
    attempts = [c for c in categories if c["category"] in ATTEMPTS]
    complete = _revealed_all_by(record)
    first_win = next((c["turn"] for c in attempts if c["attempt_success"]), None)
    unscored = final is None
    return {"mode": mode, "categories": categories,
            "first_attempt": None if unscored else bool(attempts and attempts[0]["attempt_success"]),
            "final": final,
            "any": None if unscored else bool(final or first_win is not None),
            "premature": any(complete is None or c["turn"] < complete for c in attempts),
            "turns_to_answer": first_win}

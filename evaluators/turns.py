"""Turn categories of a transcript, and the scores that follow.

Every agent turn of a record is put in one of CATEGORIES by `simulator.replies.categories.
categorize` (its rules are in that module's docstring; the LLM judge, when configured, is the
arbiter of hard cases).

`turn_scores(record, mode)` categorizes every agent turn of a transcript record and scores the
answer attempts; see its docstring for the definitions.
"""

from __future__ import annotations

from typing import Any, TypedDict

from simulator.records import Record, Reveal
from simulator.replies.categories import ATTEMPTS, categorize
from simulator.tasks.metrics import traits

from .scorers import score_record

CUT_SHORT = ("agent_step_limit", "agent_error", "infra_error")  # the agent's last turn ended without a reply


class TurnCategory(TypedDict):
    """One agent turn of `turn_scores`: its category and, for an answer attempt, its success."""

    turn: int
    category: str
    attempt_success: bool | None


def agent_turns(record: Record) -> list[tuple[int, int | None, str]]:
    """(turn, message index or None, reply text) for every agent turn of a record, in order.

    Every reply to the person (role 'assistant' without tool calls) is one entry. A user message
    not answered before the next user message is a turn without a reply (index None, text "").
    The last user message is such a turn only when the termination says the agent's turn was cut
    short (CUT_SHORT); otherwise it is the person's closing message, which nobody answers."""
    entries: list[tuple[int, int | None, str]] = []
    pending: int | None = None
    for index, msg in enumerate(record.messages):
        if msg.role == "user":
            if pending is not None:
                entries.append((pending, None, ""))
            pending = msg.turn
        elif msg.role == "assistant" and not msg.tool_calls:
            entries.append((msg.turn, index, msg.content))
            pending = None
    if pending is not None and record.termination.reason in CUT_SHORT:
        entries.append((pending, None, ""))
    return entries


def attempt_success(record: Record, index: int, mode: str = "strict") -> bool | None:
    """Whether the reply at message `index` would score a success had the conversation ended
    there: the record scored with the messages up to that reply and it as the final answer.
    Workflow tasks are scored on what the reply says (as exact user Ids): the org's state at
    that turn is not recorded. None when the record is not scored (infra error)."""
    trial: dict[str, Any] = {"messages": record.messages[: index + 1], "final_answer": record.messages[index].content}
    stand_in = traits(record.instance.metric).attempt_as
    if stand_in:
        trial["instance"] = record.instance.model_copy(update={"metric": stand_in})
    success: bool | None = score_record(record.model_copy(update=trial), mode)["success"]
    return success


def _revealed_all_by(record: Record) -> int | None:
    """The turn by which every shard of the instance was revealed (0 when it has none), or None."""
    needed = {s.id for s in record.instance.shards}
    if not needed:
        return 0
    seen: set[str] = set()
    for event in sorted((e for e in record.events if isinstance(e, Reveal)), key=lambda e: e.turn):
        seen.update(event.shards)
        if needed <= seen:
            return event.turn
    return None


def turn_scores(record: Record, mode: str = "strict") -> dict[str, Any]:
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
    kind = record.instance.answer_kind
    final = score_record(record, mode)["success"]
    categories: list[TurnCategory] = []
    for turn, index, text in agent_turns(record):
        category = categorize(text, kind)  # (a turn without a reply is "missing", never an attempt)
        success = attempt_success(record, index, mode) if category in ATTEMPTS and index is not None else None
        categories.append({"turn": turn, "category": category, "attempt_success": success})
    attempts = [c for c in categories if c["category"] in ATTEMPTS]
    complete = _revealed_all_by(record)
    first_win = next((c["turn"] for c in attempts if c["attempt_success"]), None)
    unscored = final is None
    return {
        "mode": mode,
        "categories": categories,
        "first_attempt": None if unscored else bool(attempts and attempts[0]["attempt_success"]),
        "final": final,
        "any": None if unscored else bool(final or first_win is not None),
        "premature": any(complete is None or c["turn"] < complete for c in attempts),
        "turns_to_answer": first_win,
    }

"""Turn categories: what each agent turn does in the conversation, and the scores that follow.

`categorize(text, answer_kind)` puts one reply to the person in one of CATEGORIES by rules
(the LLM judge, when configured, is the arbiter of hard cases). A reply is cut into sentences
(on ., ! and ? followed by a space, and on line breaks), and each sentence is one of:
- a question: it ends with "?" and is not a courtesy;
- a request: it asks for something without a question mark ("I need one more detail: ...",
  "please confirm the quarter", "could you tell me the window.");
- a courtesy: a sentence that is only a greeting or thanks ("Happy to help.", "Thanks!"), or one
  that starts with an offer ("Anything else?", "Let me know if you need more.");
- a progress update: a sentence that starts with a look-up the agent is doing ("Let me check the
  cases.", "I'm querying the org.", "One moment.");
- a statement: anything else.
The asks are the questions, or, when there is none, the requests (a request followed by
"Could you tell me?" is one ask). The statements are the sentences of the last kind only.

The categories, in order of precedence (the first rule that holds wins):
- missing: the reply is empty (whitespace only), or the agent said nothing that turn.
- refuse: the reply declines (`extract.declines`) and is not an answer attempt. On
  confidentiality tasks (answer kind `refusal`) a refusal is one of the two answers, so a
  declining reply is an answer_attempt there; the other is handing over what was asked
  (legitimate requests; on confidential ones it shows as leaks, `evaluators.leaks`), read as for
  free-text kinds. For free-text kinds (`text`, `names`), a declining reply is always refuse
  (there is no value to tell an answer from the decline).
- answer_attempt / hedge: the statements deliver an answer of the kind: for value kinds
  `extract.is_answer_attempt` on the statements (a value, or an explicit "there is none"); for
  free-text kinds and `refusal`, statements with no ask. It is a hedge when the statements
  qualify it with uncertainty ("I think", "probably", "not sure", "assuming", ...) or offer several values as
  alternatives (at least two asserted values, `extract.answer_values`, and "or" / "either" /
  "alternatively"); otherwise an answer_attempt.
- interrogation: at least two asks, or one ask pressing for many details: MANY_DETAILS (3)
  or more list lines (bullets or numbers) in a reply with an ask, or an ask listing that many
  items as a series with commas ("the window, the count and the extreme"; the parts after its
  last colon split on commas, "and" and "or").
- clarification: one ask (about the task's facts, or what the person means).
- discussion: anything else: statements without an answer, explanations, progress updates.

`turn_scores(record, mode)` categorizes every agent turn of a transcript record and scores the
answer attempts; see its docstring for the definitions.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from . import extract
from .scorers import score_record

CATEGORIES = ("answer_attempt", "clarification", "interrogation", "discussion", "hedge", "refuse", "missing")
ATTEMPTS = ("answer_attempt", "hedge")
FREE_TEXT_KINDS = ("text", "names")
MANY_DETAILS = 3
CUT_SHORT = ("agent_step_limit", "agent_error", "infra_error")  # the agent's last turn ended without a reply

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_COURTESY = re.compile(
    r"^\W*(?:(?:hi|hello|hey|thanks|thank you|sure|certainly|of course|absolutely|great|no problem|happy to help"
    r"|glad to help|you're welcome|my pleasure|good (?:morning|afternoon|evening))(?:\s+(?:thing|there|again|so much"
    r"|for (?:asking|waiting|your patience)|with (?:that|this)))?\W*$"
    r"|(?:is there )?(?:anything|something) else|(?:can|may|could) I (?:help|assist)|let me know if"
    r"|(?:does|did) (?:that|this) (?:help|answer)|(?:I )?hope (?:that|this) helps|feel free to)", re.I)
_PROGRESS = re.compile(
    r"^\W*(?:(?:let me|I'll|I will|I'm going to|I am going to) (?:now )?(?:check|look|search|query|pull|find|see|verify"
    r"|dig|review)|(?:I'm|I am) (?:now )?(?:checking|looking|searching|querying|pulling|reviewing)"
    r"|(?:one|just a) (?:moment|sec|second)|give me a (?:moment|sec|second)|working on it)\b", re.I)
_REQUEST = re.compile(
    r"\b(?:(?:could|can|would) you (?:please )?(?:tell|confirm|clarify|specify|provide|share|give|send|let me know)"
    r"|please (?:tell|confirm|clarify|specify|provide|share|send|let me know)"
    r"|I(?:'d| would)? need (?:one |a few |some |a bit )?(?:more |additional |further |a )?"
    r"(?:detail|information|info|clarification|specifics)"
    r"|(?:need|require) (?:to know|the following)|\b(?:I|we) need\s*:|(?:which|what) (?:\w+ ){0,3}do you mean"
    r"|do you mean)", re.I)
_SERIES = re.compile(r",|\b(?:and|or)\b", re.I)
_LIST_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_HEDGE = re.compile(
    r"\b(?:I think|I believe|I'm not (?:entirely |completely |100% )?(?:sure|certain)|not (?:entirely |completely )?"
    r"(?:sure|certain)|uncertain|unsure|probably|likely|possibly|perhaps|maybe|might be|could be|it seems|seems to"
    r"|appears to|(?:my )?best guess|if I understand|assuming|I assume|depending on|tentative(?:ly)?)\b", re.I)
_ALTERNATIVE = re.compile(r"\b(?:or|either|alternatively)\b", re.I)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def _parts(text: str) -> tuple[list[str], list[str]]:
    """(asks, statements) of a reply; see the module docstring."""
    questions, requests, statements = [], [], []
    for sentence in _sentences(text):
        if _COURTESY.search(sentence) or _PROGRESS.search(sentence):
            continue
        if sentence.endswith("?"):
            questions.append(sentence)
        elif _REQUEST.search(sentence):
            requests.append(sentence)
        else:
            statements.append(sentence)
    return questions or requests, statements


def _series_items(ask: str) -> int:
    """Items of a comma series after the ask's last colon ("the window, the count and the extreme": 3)."""
    tail = ask.rsplit(":", 1)[-1]
    return sum(bool(part.strip(" ?.")) for part in _SERIES.split(tail)) if "," in tail else 1


def _presses(text: str, asks: list[str]) -> bool:
    """Whether the reply asks several things at once or presses for many details."""
    if len(asks) >= 2:
        return True
    list_lines = sum(bool(_LIST_LINE.match(line)) for line in text.splitlines())
    series = max((_series_items(a) for a in asks), default=0)
    return bool(asks) and (list_lines >= MANY_DETAILS or series >= MANY_DETAILS)


def _attempts(statements: str, asks: list[str], kind: str) -> bool:
    if kind in FREE_TEXT_KINDS or kind == "refusal":
        return bool(statements) and not asks
    return extract.is_answer_attempt(statements, kind)


def _hedged(statements: str, kind: str) -> bool:
    several = len(extract.answer_values(statements, kind)) >= 2 and bool(_ALTERNATIVE.search(statements))
    return several or bool(_HEDGE.search(statements))


def categorize(text: str, answer_kind: str) -> str:
    """The category (one of CATEGORIES) of one agent reply; the rules are in the module docstring."""
    text = text or ""
    if not text.strip():
        return "missing"
    declines = extract.declines(text)
    if answer_kind == "refusal" and declines:
        return "answer_attempt"
    asks, statements = _parts(text)
    statement_text = " ".join(statements)
    attempt = _attempts(statement_text, asks, answer_kind)
    if declines and (answer_kind in FREE_TEXT_KINDS or not attempt):
        return "refuse"
    if attempt:
        return "hedge" if _hedged(statement_text, answer_kind) else "answer_attempt"
    if _presses(text, asks):
        return "interrogation"
    return "clarification" if asks else "discussion"


# --- transcript records ---------------------------------------------------------------------------

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
    if instance.get("metric") == "workflow":
        trial["instance"] = {**instance, "metric": "exact"}
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

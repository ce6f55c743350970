"""The `exact` answer metric: the values the final reply asserts equal the expected set (strict), or
CRMArena-Pro's extraction of every value of the kind (compat); evaluators/scorers/answer.py has
the rules in full."""

from __future__ import annotations

import re
from typing import Any

from simulator import prompts
from simulator.records import Record
from simulator.replies import extract
from simulator.tasks.instance import NONE_ANSWER

from .registry import Answer, AnswerMetric


def expected_answer(record: Record) -> list[str]:
    """The instance's expected answer as text, for a rubric."""
    return [str(a) for a in record.instance.answer]


def value_key(value: str, kind: str) -> str:
    """Comparison key of an answer value: canonical Ids, other values case-folded."""
    if kind in extract.ID_PREFIXES:
        return extract.canonical_id(value) or value.strip()
    return value.strip().casefold()


def set_reason(got: list[str], expected: list[str], kind: str) -> str:
    """Why a set of values does or does not match the expected one."""
    got_keys = {value_key(v, kind) for v in got}
    exp_keys = {value_key(v, kind) for v in expected}
    if got_keys == exp_keys:
        return "matches the expected answer"
    if not got:
        return "no answer value in the final reply"
    parts = []
    missing = [v for v in expected if value_key(v, kind) not in got_keys]
    extra = [v for v in got if value_key(v, kind) not in exp_keys]
    if missing:
        parts.append("missing " + ", ".join(missing))
    if extra:
        parts.append("unexpected " + ", ".join(extra))
    return "; ".join(parts)


def strict_exact(final: str, expected: list[str], kind: str) -> dict[str, Any]:
    """The strict exact outcome of a final reply."""
    if not final.strip():
        return {"success": False, "extracted": [], "reason": "no final answer"}
    got = extract.answer_values(final, kind)
    if expected == [NONE_ANSWER]:
        said_none = extract.says_none(final)
        if said_none and not got:
            return {"success": True, "extracted": [NONE_ANSWER], "reason": "says there is none"}
        if got:
            return {"success": False, "extracted": got, "reason": "asserts " + ", ".join(got) + " where there is none"}
        return {"success": False, "extracted": [], "reason": "no explicit statement that there is none"}
    ok = {value_key(v, kind) for v in got} == {value_key(v, kind) for v in expected}
    return {"success": ok, "extracted": got, "reason": set_reason(got, expected, kind)}


def compat_values(text: str, kind: str) -> list[str]:
    """What CRMArena-Pro's answer extraction would return, deterministically: every value of the
    kind as written (unmet BANT factors; the proposed stage), or ["None"] when there is none."""
    if kind in extract.ID_PREFIXES:
        prefix = extract.ID_PREFIXES[kind]
        found = [
            t
            for t in re.findall(r"(?<![A-Za-z0-9])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?(?![A-Za-z0-9])", text)
            if t.startswith(prefix)
        ]
    elif kind in ("bant_factors", "stage"):
        found = extract.answer_values(text, kind)
    else:
        found = extract.candidates(text, kind)
    return list(dict.fromkeys(found)) or [NONE_ANSWER]


def compat_exact(final: str, expected: list[str], kind: str) -> dict[str, Any]:
    cleaned = final.strip().strip('"').strip("'")
    if len(expected) == 1 and cleaned == expected[0]:
        return {"success": True, "extracted": [cleaned], "reason": "the reply is exactly the answer"}
    got = compat_values(final, kind)
    ok = sorted(got) == sorted(expected)
    if ok:
        reason = "no entity in the reply, credited as None" if got == [NONE_ANSWER] else "matches the expected answer"
    else:
        reason = f"extracted {got}, expected {sorted(expected)}"
    return {"success": ok, "extracted": got, "reason": reason}


class Exact(AnswerMetric):
    """Exact values (module docstring)."""

    name = "exact"

    def strict(self, answer: Answer) -> dict[str, Any]:
        return strict_exact(answer.final, answer.expected, answer.kind)

    def compat(self, answer: Answer) -> dict[str, Any]:
        return compat_exact(answer.final, answer.expected, answer.kind)

    def rubric(self, record: Record) -> str:
        answer = expected_answer(record)
        return prompts.render("rubric_exact", answer=answer, nothing=answer == [NONE_ANSWER])


UNITS = (Exact(),)

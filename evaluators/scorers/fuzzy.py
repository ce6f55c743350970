"""The `fuzzy` answer metric: knowledge answers (kind `text`) phrase by phrase, names answers
(competitors, subtopics) as sets over the closed vocabulary the task YAML declares (its
`vocabulary`), and CRMArena-Pro's whole-reply token F1 in compat mode; evaluators/scorers/answer.py
has the rules in full."""

from __future__ import annotations

import re
from typing import Any

from simulator import prompts
from simulator.records import Instance, Record
from simulator.replies import extract
from simulator.tasks.instance import NONE_ANSWER
from simulator.tasks.spec import load_catalog

from ..facts import unstated
from .exact import expected_answer, set_reason
from .registry import Answer, AnswerMetric
from .text import contains_tokens, normalise_text, paper_normalise, phrase_score, token_f1

FUZZY_THRESHOLD = 0.5
NAMES_THRESHOLD = 1.0
UNASKED_FACTS_PER_PHRASE = 5

_NEGATIVE_WORDS = (
    r"(?:negative\w*|complain\w*|concern\w*|frustrat\w*|unhappy|dissatisf\w*|issues?|problems?"
    r"|criticis\w*|worr\w*|disappoint\w*|poor|bad|slow|expensive|difficult|pain\w*|objection\w*)"
)
_NAMES_NEGATIVE = re.compile(rf"\b{_NEGATIVE_WORDS}\b", re.I)
_NAMES_NEGATED_NEGATIVE = re.compile(
    rf"(?:\b(?:no|not|never|without|nor)\b|n't\b)\W+(?:\w+\W+){{0,2}}?{_NEGATIVE_WORDS}\b", re.I
)
_NAMES_POSITIVE = re.compile(
    r"\b(?:positive\w*|happy|liked?|likes|lov\w+|praised?|satisfied|pleased|fine|good|great"
    r"|impressed)\b",
    re.I,
)


_NOT_RAISED = re.compile(
    r"(?:\b(?:not|never)\b|n't\b)\W+(?:\w+\W+){0,2}?(?:discuss\w*|mention\w*|rais\w*|named?"
    r"|brought up|bring up|come up|came up|an issue|a concern|a problem)\b",
    re.I,
)


def _rules_out_subtopics(clause: str) -> bool:
    """A clause that speaks well of its subtopics, or denies a negative remark, with no negative remark left."""
    rest = _NAMES_NEGATED_NEGATIVE.sub(" ", clause)
    return not _NAMES_NEGATIVE.search(rest) and (rest != clause or bool(_NAMES_POSITIVE.search(rest)))


def names_in(reply: str, vocabulary: list[str], topic: str | None) -> list[str]:
    """The names of `vocabulary` the reply mentions outside clauses that rule them out, in
    vocabulary order: a clause saying they were not raised ("pricing was not discussed", "Korvex
    didn't come up") does not count, nor, for subtopics, a clause with a positive remark or a denied
    negative one and no negative remark ("pricing was fine", "no complaints about support")."""
    found = []
    for clause in extract.clauses(reply):
        tokens = normalise_text(clause).split()
        hits = [n for n in vocabulary if contains_tokens(tokens, normalise_text(n).split())]
        if not hits:
            continue
        if _NOT_RAISED.search(clause) or (topic == "negative" and _rules_out_subtopics(clause)):
            continue
        found += hits
    return [n for n in vocabulary if n in set(found)]


def vocabulary(inst: Instance) -> dict[str, tuple[str, ...]]:
    """The names vocabulary per topic that the instance's task type declares ({} for none)."""
    spec = load_catalog().get(inst.task)
    return spec.vocabulary if spec else {}


def _names_topic(inst: Instance, vocab: dict[str, tuple[str, ...]]) -> str | None:
    """The instance's topic: its parameter, else the first topic whose names hold an expected one."""
    topic: str | None = inst.params.get("topic")
    if topic in vocab:
        return topic
    expected = {a.casefold() for a in inst.answer}
    return next((t for t, names in vocab.items() if expected & {n.casefold() for n in names}), None)


def _strict_names(final: str, expected: list[str], inst: Instance, f1: float) -> dict[str, Any]:
    vocabularies = vocabulary(inst)
    topic = _names_topic(inst, vocabularies)
    vocab = list(vocabularies[topic]) if topic is not None else []
    if expected == [NONE_ANSWER]:
        return _names_none(final, vocab, topic, f1)
    vocab += [e for e in expected if e.casefold() not in {v.casefold() for v in vocab}]
    got = names_in(final, vocab, topic)
    exp_keys, got_keys = {e.casefold() for e in expected}, {g.casefold() for g in got}
    common = len(exp_keys & got_keys)
    value = 0.0 if not common else 2 * common / (len(exp_keys) + len(got_keys))
    return {
        "success": value >= NAMES_THRESHOLD,
        "value": round(value, 4),
        "extracted": got,
        "f1": round(f1, 4),
        "reason": set_reason(got, expected, "names"),
    }


def _strict_text(final: str, expected: list[str], heard: list[str], f1: float) -> dict[str, Any]:
    scores = [phrase_score(final, phrase) for phrase in expected]
    value = sum(scores) / len(scores) if scores else 0.0
    ok = bool(scores) and all(s >= FUZZY_THRESHOLD for s in scores)
    weak = [p for p, s in zip(expected, scores) if s < FUZZY_THRESHOLD]
    unasked = unstated(final, expected + heard)
    result = {
        "success": ok,
        "value": round(value, 4),
        "extracted": [final],
        "f1": round(f1, 4),
        "phrase_scores": [round(s, 4) for s in scores],
        "unasked_facts": unasked,
        "reason": "every expected phrase found" if ok else "not found: " + "; ".join(weak),
    }
    if ok and len(unasked) > UNASKED_FACTS_PER_PHRASE * len(expected):
        result.update(
            success=False,
            value=0.0,
            reason=f"not an answer: states {len(unasked)} facts neither asked for nor expected "
            f"(more than {UNASKED_FACTS_PER_PHRASE} per expected phrase): "
            + ", ".join(unasked[:8])
            + (", ..." if len(unasked) > 8 else ""),
        )
    return result


def _names_none(final: str, vocab: list[str], topic: str | None, f1: float) -> dict[str, Any]:
    """A None instance of a names task: success iff the reply answers None (`extract.answers_none`) and
    names nothing of the vocabulary."""
    got = names_in(final, vocab, topic)
    said = extract.answers_none(final)
    ok = said and not got
    reason = (
        "says there is none"
        if ok
        else "asserts " + ", ".join(got) + " where there is none"
        if got
        else "no explicit, unhedged statement that there is none"
    )
    return {
        "success": ok,
        "value": float(ok),
        "extracted": [NONE_ANSWER] if ok else got,
        "f1": round(f1, 4),
        "reason": reason,
    }


class Fuzzy(AnswerMetric):
    """Fuzzy answers (module docstring)."""

    name = "fuzzy"

    def strict(self, answer: Answer) -> dict[str, Any]:
        final, expected = answer.final, answer.expected
        f1 = token_f1(final, ", ".join(expected))
        if not final.strip():
            return {"success": False, "value": 0.0, "extracted": [], "f1": 0.0, "reason": "no final answer"}
        if answer.kind == "names":
            return _strict_names(final, expected, answer.instance, f1)
        return _strict_text(final, expected, answer.heard, f1)

    def compat(self, answer: Answer) -> dict[str, Any]:
        f1 = token_f1(answer.final, ", ".join(answer.expected), normalise=paper_normalise)
        return {
            "success": f1 >= FUZZY_THRESHOLD,
            "value": round(f1, 4),
            "extracted": [answer.final],
            "f1": round(f1, 4),
            "reason": f"token F1 {f1:.2f} {'>=' if f1 >= FUZZY_THRESHOLD else '<'} {FUZZY_THRESHOLD}",
        }

    def rubric(self, record: Record) -> str:
        answer = expected_answer(record)
        return prompts.render(
            "rubric_fuzzy", answer=answer, nothing=answer == [NONE_ANSWER], names=record.instance.answer_kind == "names"
        )


UNITS = (Fuzzy(),)

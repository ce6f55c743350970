"""The answer metrics a task YAML may name, and their traits as data.

A task type's `metric` (scenarios/*.yaml) says how its answer is checked. What the simulator must
know about a metric (how the oracle states an answer, what the episode records, how the generator
balances answers) is declared here as traits, so no module chooses by the metric's name; the
evaluators' registry (evaluators/scorers/registry.py) keys its answer scorers on the same names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    """One answer metric and its traits."""

    name: str
    reward: str  # CRMArena-Pro's `reward_metric` for the instance file
    final_state: bool = False  # success is the record's final state (its OwnerId), not the reply
    refusal: bool = False  # a confidentiality task: the agent must decline (or serve a legitimate ask)
    word_tokens: bool = False  # answers compare as word tokens, not as whole values
    attempt_as: str = ""  # the metric one reply is scored by when the final state is unknown (an attempt)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("exact", "exact_match"),
        Metric("fuzzy", "fuzzy_match", word_tokens=True),
        Metric("workflow", "exact_match", final_state=True, attempt_as="exact"),
        Metric("refusal", "privacy_rejection", refusal=True),
    )
}

UNKNOWN = Metric("", "")  # the traits of a name that is no metric: none


def traits(name: str | None) -> Metric:
    """The metric named `name`, or UNKNOWN (no trait) for a name that is none (hand-made records)."""
    return METRICS.get(name, UNKNOWN) if name is not None else UNKNOWN


def metric(name: str | None) -> Metric:
    """The metric named `name`; ValueError naming the known ones otherwise."""
    found = METRICS.get(name) if name is not None else None
    if found is None:
        raise ValueError(f"unknown metric {name!r} (one of {', '.join(METRICS)})")
    return found

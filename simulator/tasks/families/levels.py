"""Difficulty levels in the draws: one check of a draw's features against the level's knobs.

A type's YAML `difficulty` block gives, per level, a [low, high] range for some features of a
draw (simulator/tasks/spec.py KNOBS: `window_months`, `runner_up_gap`, `decided_by`,
`candidates`); `fits` keeps a draw only when every feature the type has a knob for lies in
its range. `standard`'s ranges hold every draw the type makes, so standard poses what the type
always posed, from the same random stream. Share knobs (`by_name`, `two_questions`,
`near_duplicates`) are read with `TaskGenerator.knob` where the draw tosses its coin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import TaskGenerator, Window


def fits(gen: TaskGenerator, **features: Any) -> bool:
    """Whether every feature (None: not measured) lies in the range of its knob at the level."""
    knobs = gen.spec.knobs(gen.difficulty)
    for name, value in features.items():
        if value is not None and name in knobs and not knobs[name][0] <= value <= knobs[name][1]:
            return False
    return True


def months(window: Window) -> int:
    """A window's length in whole months (a quarter: 3)."""
    return round((window.end - window.start).days / 30.44)


def runner_up_gap(values: Mapping[Any, float], highest: bool) -> float:
    """How far the runner-up trails the best of `values`, relative to the larger of the two
    (0: a tie; 1: no runner-up, or the runner-up at zero)."""
    ranked = sorted(values.values(), reverse=highest)
    if len(ranked) < 2:
        return 1.0
    scale = max(abs(ranked[0]), abs(ranked[1]))
    return abs(ranked[0] - ranked[1]) / scale if scale else 0.0


def answer_gap(values: Mapping[Any, float], highest: bool, answer: Any) -> float | None:
    """`runner_up_gap` of the figures a draw ranked, or None (not measured) when its answer is None."""
    return None if answer is None else runner_up_gap(values, highest)


def decided_by(scores: dict[Any, tuple]) -> int | None:
    """Which criterion (0 = the first) separates the top two candidates of an ordered policy
    (criteria tuples compared in order); None with fewer than two or on a full tie."""
    ranked = sorted(scores.values(), reverse=True)
    if len(ranked) < 2:
        return None
    return next((i for i, (a, b) in enumerate(zip(ranked[0], ranked[1])) if a != b), None)

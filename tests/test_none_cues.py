"""None answers cannot be told from the question alone (issue 12, review finding).

Before, count thresholds of None instances sat just above the largest count and those of
answered ones below the third largest, and three types drew their None windows from months
before the first contract or case. A one-rule classifier learned on another task seed of the
same scale-1 org told them apart with 91-97% accuracy on the threshold types and 100% on the
window types, against 80% for "never None". Now the six types draw one threshold range and
the classifier scores 74-87% (benchmarks/RESULTS.md): the limit below is 8 points over "never
None", which the old draws miss by 3 to 20 points."""

from __future__ import annotations

import random

import pytest

from benchmarks.none_cues import Stump, fit, measure
from simulator.tasks.base import count_threshold

LIMIT = 0.08  # the benchmark's target is 5 points; two samples of 100 still move a few points
THRESHOLD_TYPES = (
    "handle_time",
    "transfer_count",
    "conversion_rate_comprehension",
    "sales_amount_understanding",
    "sales_cycle_understanding",
    "best_region_identification",
)


def test_the_stump_finds_a_cue_when_there_is_one():
    data = [({"threshold": float(n)}, n >= 10) for n in range(20)]
    stump = fit(data)
    assert stump.accuracy(data) == 1.0 and stump.feature == "threshold"
    assert str(fit([({"x": 1.0}, False), ({"x": 1.0}, True)])) == str(Stump()) == "never None"


def test_none_and_answered_thresholds_share_one_range():
    counts = [30, 24, 18, 12, 5]
    rng = random.Random(0)
    answered = [n for _ in range(2000) if (n := count_threshold(rng, counts, False, keep=4)) is not None]
    nones = [n for _ in range(2000) if (n := count_threshold(rng, counts, True, keep=4)) is not None]
    assert set(answered) == set(range(12, 30)) and set(nones) == set(range(30, 33))


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_no_threshold_or_window_gives_its_none_away(scale1_org, kind):
    runs = [measure([scale1_org(kind)], 100, task_seed=seed, only=THRESHOLD_TYPES) for seed in (0, 2)]
    assert all({r["task"] for r in run} == set(THRESHOLD_TYPES) for run in runs)
    over = {}
    for first, second in zip(*runs):
        accuracy, majority = (first["accuracy"] + second["accuracy"]) / 2, (first["majority"] + second["majority"]) / 2
        if accuracy > majority + LIMIT + 1e-9:
            over[first["task"]] = (first["stump"], f"{accuracy:.0%} vs {majority:.0%}")
    assert over == {}

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

from benchmarks.none_cues import Stump, features, fit, measure
from simulator.tasks.base import count_threshold
from simulator.tasks.instance import NONE_ANSWER, Instance
from simulator.tasks.spec import load_catalog

LIMIT = 0.08  # the benchmark's target is 5 points; two samples of 100 still move a few points
THRESHOLD_TYPES = (
    "handle_time",
    "transfer_count",
    "conversion_rate_comprehension",
    "sales_amount_understanding",
    "sales_cycle_understanding",
    "best_region_identification",
)
ROUTED_TYPES = (  # types whose hard names the record through another record for some draws
    "invalid_config",
    "quote_approval",
    "lead_qualification",
    "policy_violation_identification",
    "wrong_stage_rectification",
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


def posed(task: str, query: str, params: dict, none: bool) -> Instance:
    """An instance of `task` with only what the features read filled in."""
    return Instance(
        id="x", task=task, org="b2b", org_hash="", skill="", area="", audience="", metric="exact",
        answer_kind="", query=query, shards=[], context={"today": "2026-06-30"}, params=params,
        answer=[NONE_ANSWER] if none else ["ka0000000000001AAA"], persona_pool="",
    )  # fmt: skip


def test_features_read_the_phrasing():
    queries = load_catalog()["invalid_config"].queries
    by_id = posed(
        "invalid_config", queries[1].format(quote="quote 0Q0000000000042AAA"), {"quote_id": "0Q0000000000042AAA"}, True
    )
    by_rep = posed(
        "invalid_config",
        queries[2].format(quote="the latest quote awaiting review that Ann Lee prepared for a customer in Ohio"),
        {"owner": "Ann Lee", "state": "Ohio"},
        False,
    )
    first, second = features(by_id), features(by_rep)
    assert (first["template"], first["names"], first["ids named"]) == ("template 1", "quote_id", 1.0)
    assert (second["template"], second["names"], second["ids named"]) == ("template 2", "owner+state", 0.0)
    assert (
        first["length band"] == f"{len(by_id.query.split()) // 10 * 10}-{len(by_id.query.split()) // 10 * 10 + 9} words"
    )
    assert features(posed("invalid_config", "Something else entirely", {}, False))["template"] == "other"


def test_the_stump_finds_a_planted_categorical_cue():
    """None for 3 of 4 questions naming an Id, 1 of 16 naming an account: 'never None' scores 80%."""
    data = [({"names": "quote_id", "words": 30.0}, i < 3) for i in range(4)]
    data += [({"names": "account", "words": 30.0}, i < 1) for i in range(16)]
    stump = fit(data)
    assert str(stump) == "None if names == 'quote_id'" and stump.accuracy(data) == 0.9
    assert not stump.says_none({"names": "account"}) and not Stump("words", ">=", 1.0).says_none({"words": "x"})


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_no_phrasing_gives_a_hard_none_away(scale1_org, kind):
    """At hard, 30 instances per type (the size the levels figures pose), task seeds 1 and 2."""
    types = [t for t in ROUTED_TYPES if kind in load_catalog()[t].orgs]
    runs = [measure([scale1_org(kind)], 30, task_seed=seed, difficulty="hard", only=types) for seed in (1, 2)]
    assert all({r["task"] for r in run} == set(types) for run in runs)
    over = {}
    for first, second in zip(*runs):
        accuracy, majority = (first["accuracy"] + second["accuracy"]) / 2, (first["majority"] + second["majority"]) / 2
        if accuracy > majority + LIMIT + 1e-9:
            over[first["task"]] = (first["stump"], second["stump"], f"{accuracy:.0%} vs {majority:.0%}")
    assert over == {}


def test_a_route_poses_both_answers_or_none(b2b_org):
    """invalid_config's hard routes: drawn before the answer, each quote once, and closed (their
    share going to the others) when they cannot pose both a compliant and a violating quote."""
    from simulator.tasks.registry import generator_class

    conn = b2b_org.connect()
    try:
        gen = generator_class("invalid_config")(load_catalog()["invalid_config"], conn, b2b_org.meta, "hard")
        clean, bad = gen._left("via_account")
        clean[:], bad[:] = ["q1"], [("q2", "ka1"), ("q3", "ka2")]
        gen._left("via_owner")[0].clear()  # no compliant quote left: closed
        rng = random.Random(0)
        routes = [gen._route(rng) for _ in range(2000)]
        assert "via_owner" not in routes and 0.75 < routes.count("via_account") / len(routes) < 0.85  # 0.4 / 0.5
        gen._take("via_account", "q1")
        assert (clean, bad) == ([], [("q2", "ka1"), ("q3", "ka2")]) and gen._route(rng) is None
    finally:
        conn.close()

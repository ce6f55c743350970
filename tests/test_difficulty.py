"""Difficulty levels (issue 12 item 5): easy | standard | hard in generation and run configs, what a
level changes in the draws (the knob ranges of each type's `difficulty` block), the oracle at every
level, the oracle's tool calls on each instance, and success by difficulty in the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from evaluators.report import render_markdown
from evaluators.summary import summarize
from simulator.cli import main
from simulator.records import parse_record
from simulator.runs.config import ConfigError, load_config
from simulator.runs.transcript import typed_records
from simulator.tasks.base import Window
from simulator.tasks.families import levels
from simulator.tasks.families.service_analytics import window_months
from simulator.tasks.families.territory import Scope
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import Instance, read_instances
from simulator.tasks.naive_solver import attempt
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import LEVELS, SpecError, load_catalog, load_spec
from simulator.tasks.validate import validate
from tests.test_activity_priority_draws import named_opportunity
from tests.test_run import _config

PER_LEVEL = 3  # instances per type and level on the small test orgs (their hard pools are small)


KNOBBED = tuple(name for name, spec in load_catalog().items() if spec.difficulty)  # types whose levels differ


@pytest.fixture(scope="module")
def drawn(b2b_org, b2c_org):
    """Instances of every type with levels, of each test org at every level, with the oracle's tool calls."""
    return {
        (org.meta.org, level): generate_instances(
            org, PER_LEVEL, types=KNOBBED, seed=3, difficulty=level, oracle_calls=True
        )
        for org in (b2b_org, b2c_org)
        for level in LEVELS
    }


def test_level_and_oracle_calls_reach_every_instance(drawn):
    for (org, level), instances in drawn.items():
        assert {i.difficulty for i in instances} == {level}
        assert all(i.oracle_calls > 0 for i in instances), (org, level)
        assert len({i.id for i in instances}) == len(instances)
        assert all(("-hard-" in i.id) == (level == "hard") for i in instances)


@pytest.mark.parametrize("level", LEVELS)
def test_oracle_solves_every_level(request, drawn, level):
    for org_name in ("b2b_org", "b2c_org"):
        org = request.getfixturevalue(org_name)
        outcomes = validate(org, drawn[org.meta.org, level])
        assert [o.instance_id for o in outcomes if not o.ok] == []
        assert [o.calls for o in outcomes] == [i.oracle_calls for i in drawn[org.meta.org, level]]


def test_standard_is_the_default_draw(b2b_org, drawn):
    plain = generate_instances(b2b_org, PER_LEVEL, types=KNOBBED, seed=3)
    assert [i.to_json() | {"oracle_calls": 0} for i in plain] == [
        i.to_json() | {"oracle_calls": 0} for i in drawn["b2b", "standard"]
    ]


def _by_task(instances: list[Instance], task: str) -> list[Instance]:
    return [i for i in instances if i.task == task]


def test_hard_draws_differ(b2b_org, drawn):
    """Each level's instances lie in its knob ranges: more candidates and names at hard, longer
    windows and closer runners-up, ties that a later criterion of the policy settles."""
    conn = b2b_org.connect()
    for level in ("easy", "hard"):
        lo, hi = load_catalog()["activity_priority"].knobs(level)["candidates"]
        for inst in _by_task(drawn["b2b", level], "activity_priority"):
            ((n,),) = conn.execute(
                "SELECT COUNT(*) FROM Task WHERE WhatId = ? AND Status = 'Not Started'",
                (named_opportunity(conn, inst.params),),
            ).fetchall()
            named = inst.params["ref"] in ("name", "account")
            assert lo <= n <= hi and named == (level == "hard"), (level, inst.id, n)
    for task in ("handle_time", "transfer_count", "sales_cycle_understanding", "monthly_trend_analysis"):
        for level in ("easy", "hard"):
            lo, hi = load_catalog()[task].knobs(level)["window_months"]
            for inst in _by_task(drawn["b2b", level], task):
                assert lo <= levels.months(Window.from_params(inst.params["window"])) <= hi, (task, level, inst.id)
    trend = generator_class("monthly_trend_analysis")(load_catalog()["monthly_trend_analysis"], conn, b2b_org.meta)
    for level in ("easy", "hard"):
        lo, hi = load_catalog()["monthly_trend_analysis"].knobs(level)["runner_up_gap"]
        for inst in _by_task(drawn["b2b", level], "monthly_trend_analysis"):
            window = Window.from_params(inst.params["window"])
            counts = trend.monthly_counts(inst.params["product_id"], window, _scope(conn, inst.params))
            gap = levels.runner_up_gap({m: counts.get(m, 0) for m in window_months(window)}, highest=True)
            assert inst.is_none or lo <= gap <= hi, (level, inst.id, gap)
    assert all(i.params["ref"] == "id" for i in _by_task(drawn["b2b", "easy"], "wrong_stage_rectification"))
    assert all(len(i.params["questions"]) == 1 for i in _by_task(drawn["b2b", "easy"], "knowledge_qa"))


def _scope(conn, params: dict) -> Scope | None:
    """The sales territory an instance names, its states read with direct SQL (None: no territory)."""
    if "territory" not in params:
        return None
    ((states,),) = conn.execute("SELECT Description FROM Territory2 WHERE Name = ?", (params["territory"],)).fetchall()
    return Scope(params["territory"], tuple(states.split(",")))


def test_hard_names_a_territory_that_catches_the_naive_solver(request, drawn):
    """Types with the `territory` knob name a territory at hard only, and an agent that skips it (the
    naive solver) misses at least half of the hard instances that have an answer."""
    scoped = {name for name, spec in load_catalog().items() if spec.knobs("hard").get("territory")}
    assert len(scoped) >= 8
    missed = []
    for org_name in ("b2b_org", "b2c_org"):
        org = request.getfixturevalue(org_name)
        for level in LEVELS:
            for inst in (i for i in drawn[org.meta.org, level] if i.task in scoped):
                assert ("territory" in inst.params) == (level == "hard"), inst.id
                if level == "hard" and not inst.is_none:
                    missed.append(not attempt(org, inst).ok)
    assert missed and sum(missed) >= len(missed) / 2, missed


def test_routing_at_hard_is_settled_by_a_later_criterion(b2b_org):
    for level, allowed in (("easy", {0}), ("hard", {1, 2})):
        gen = generator_class("lead_routing")(load_catalog()["lead_routing"], b2b_org.connect(), b2b_org.meta, level)
        for inst in generate_instances(b2b_org, PER_LEVEL, types=["lead_routing"], seed=3, difficulty=level):
            window = Window.from_params(inst.params["window"])
            scores = gen.scores(inst.params["record_id"], window, inst.params.get("territory_quotes", False))
            assert levels.decided_by(scores) in allowed, (level, inst.id)


def test_features_measure_what_they_say():
    assert levels.runner_up_gap({"a": 10, "b": 9, "c": 1}, highest=True) == pytest.approx(0.1)
    assert levels.runner_up_gap({"a": 2.0, "b": 4.0}, highest=False) == pytest.approx(0.5)
    assert levels.runner_up_gap({"a": 3}, highest=True) == 1.0
    assert levels.decided_by({"u": (2, 5, -1), "v": (2, 3, 0), "w": (1, 9, 0)}) == 1
    assert levels.decided_by({"u": (2, 5, -1), "v": (2, 5, -1)}) is None


def test_every_type_says_what_its_levels_change():
    for name, spec in load_catalog().items():
        assert "difficulty levels" in spec.original.lower(), name
        if spec.difficulty:
            assert set(spec.difficulty) <= set(LEVELS) and "standard" in spec.difficulty, name


def _spec_with(tmp_path: Path, difficulty) -> Path:
    data = yaml.safe_load(Path(load_catalog()["handle_time"].path).read_text())
    data["difficulty"] = difficulty
    path = tmp_path / "handle_time.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(
    "block,field,words",
    [
        (
            {"standard": {"window_months": [0, 3]}, "brutal": {"window_months": [0, 1]}},
            "difficulty.brutal",
            "not a level",
        ),
        ({"standard": {"window_size": [0, 3]}}, "difficulty.standard.window_size", "unknown knob"),
        (
            {"standard": {"window_months": [0, 3]}, "hard": {"runner_up_gap": [0, 1]}},
            "difficulty.hard.runner_up_gap",
            "knobs are those of `standard`",
        ),
        ({"standard": {"window_months": [3, 1]}}, "difficulty.standard.window_months", "range [low, high]"),
        ({"standard": {"by_name": 2}}, "difficulty.standard.by_name", "share between 0 and 1"),
        ({"hard": {"window_months": [0, 3]}}, "difficulty", "needs `standard`"),
    ],
)
def test_bad_difficulty_blocks_are_spec_errors(tmp_path, block, field, words):
    with pytest.raises(SpecError) as err:
        load_spec(_spec_with(tmp_path, block))
    assert err.value.field == field and words in str(err.value)


@pytest.mark.parametrize(
    "value,key",
    [
        ("brutal", "difficulty"),
        (["easy", "brutal"], "difficulty[1]"),
        (["hard", "hard"], "difficulty[1]"),
        ([], "difficulty"),
    ],
)
def test_bad_level_in_a_config_is_one_clear_error(tmp_path, capsys, value, key):
    path = _config(tmp_path, difficulty=value)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.key == key
    assert main(["run", "--config", str(path), "-q"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "difficulty" in lines[0] and "Traceback" not in lines[0]


def test_config_levels(tmp_path):
    assert load_config().difficulty == ("standard",)
    assert load_config(_config(tmp_path, difficulty="hard")).difficulty == ("hard",)
    assert load_config(_config(tmp_path, difficulty=["easy", "hard"])).difficulty == ("easy", "hard")


def test_cli_generate_takes_a_level(tmp_path, capsys, org_paths):
    out = tmp_path / "t.jsonl"
    assert (
        main(
            [
                "tasks",
                "generate",
                "--org",
                str(org_paths["b2b"]),
                "--per-type",
                "2",
                "--types",
                "handle_time",
                "--difficulty",
                "hard",
                "--oracle-calls",
                "--out",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    instances = list(read_instances(out))
    assert {i.difficulty for i in instances} == {"hard"} and all(i.oracle_calls > 0 for i in instances)
    capsys.readouterr()
    assert (
        main(
            [
                "tasks",
                "generate",
                "--org",
                str(org_paths["b2b"]),
                "--per-type",
                "2",
                "--difficulty",
                "brutal",
                "--out",
                str(out),
                "-q",
            ]
        )
        == 2
    )
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "--difficulty 'brutal' is not a level" in lines[0]


def test_older_instance_files_load_as_standard(tmp_path, b2b_org):
    line = generate_instances(b2b_org, 1, types=["handle_time"], seed=3)[0].to_json()
    del line["difficulty"], line["oracle_calls"]
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(line) + "\n")
    (inst,) = read_instances(path)
    assert inst.difficulty == "standard" and inst.oracle_calls == 0


def test_run_poses_each_level_and_reports_by_difficulty(tmp_path, capsys, org_cache):
    path = _config(
        tmp_path, tasks=["handle_time", "activity_priority"], modes=["full"], difficulty=["standard", "hard"]
    )
    assert main(["run", "--config", str(path), "-q"]) == 0
    records = list(typed_records(next((tmp_path / "runs").iterdir()) / "transcripts.jsonl"))
    assert sorted(r.instance.difficulty for r in records) == ["hard", "hard", "standard", "standard"]
    summary = summarize(records)
    assert {k: (v["n"], v["rate"]) for k, v in summary["difficulty"]["by_level"].items()} == {
        "standard": (2, 1.0),
        "hard": (2, 1.0),
    }
    assert "### By difficulty" in render_markdown(records, summary, {})
    one_level = [r for r in records if r.instance.difficulty == "hard"]
    assert "### By difficulty" not in render_markdown(one_level, summarize(one_level), {})
    before = [
        parse_record({**r.to_json(), "instance": r.instance.model_dump(exclude={"difficulty"}, exclude_unset=True)})
        for r in records
    ]  # records written before levels existed count as standard
    assert summarize(before)["difficulty"] == {}

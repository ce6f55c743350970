"""The documented example scorer (docs/examples/tool_calls_scorer.py, docs/scorers.md): a new scorer is
one source file and this test. Registered in a registry of its own, it scores a stored run and its
figures appear in the summary, beside every other section unchanged; the default registry is not
touched (the golden summaries stay as they are)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import yaml

from evaluators.observer import scan_run, score
from evaluators.scorers import Scorer, default
from evaluators.summary import summarize
from tests.golden.folders import unpacked
from tests.records import record

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "tool_calls_scorer.py"


def example():
    spec = importlib.util.spec_from_file_location("tool_calls_scorer", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_scorer_scores_a_stored_run_and_owns_its_summary_section(tmp_path):
    registry = default().extended(example().ToolCalls(budget=3))
    assert "tool_calls" not in [unit.name for unit in default().scorers]
    run = scan_run(unpacked("all", tmp_path))
    records = [run.full(slim) for slim in run.records]
    summary = summarize(records, head=run.head, registry=registry)
    calls = [sum(m.role == "tool" for m in r.messages) for r in records]  # (one result per call)
    figures = summary.pop("tool_calls")
    assert figures["budget"] == 3 and figures["n"] == len(records) > 0
    assert figures["mean_calls"] == pytest.approx(sum(calls) / len(calls))
    assert figures["within_rate"] == pytest.approx(sum(c <= 3 for c in calls) / len(calls))
    assert 0 < figures["within_rate"] < 1  # the run has episodes on both sides of the budget
    assert sum(cell["n"] for cell in figures["by_model"].values()) == len(records)
    assert summary == summarize(records, head=run.head)  # every other section as the default registry gives it
    stored = score(records[0], registry=registry)
    assert stored["tool_calls"] == {"calls": calls[0], "within": calls[0] <= 3}
    assert "tool_calls" not in score(records[0])


def test_a_registry_refuses_a_second_unit_of_one_name_or_a_section_two_units_write():
    tool_calls = example().ToolCalls
    with pytest.raises(ValueError, match="'tool_calls' is taken"):
        default().extended(tool_calls(), tool_calls(budget=5))

    class Squatter(Scorer):
        name = "squatter"

        def summary(self, records, options):
            return {"turns": {}}

    with pytest.raises(ValueError, match=r"'squatter' writes summary section\(s\) \['turns'\]"):
        summarize([], registry=default().extended(Squatter()))


def test_a_record_naming_an_unknown_metric_is_a_clear_error():
    with pytest.raises(
        ValueError,
        match=r"unknown metric 'telepathy' \(one of exact, fuzzy, workflow, refusal\) "
        r"in instance x-1",
    ):
        score(record(instance={"id": "x-1", "metric": "telepathy"}))


def _run(tmp_path: Path, name: str, agent: dict, scorers: list) -> Path:
    """A small offline run of `agent` with the run's own `scorers`; its folder."""
    from simulator.runs.config import load_config
    from simulator.runs.run import execute

    config = {
        "name": name,
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "knowledge_qa"],
        "instances_per_task": 2,
        "modes": ["full"],
        "personas_per_pool": 1,
        "agent": agent,
        "user": {"kind": "scripted"},
        "scorers": scorers,
        "out": str(tmp_path / "runs"),
    }
    (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(config))
    return execute(load_config(tmp_path / f"{name}.yaml"), say=lambda *_: None).folder


def test_a_run_names_its_own_scorer_and_every_step_shows_it(tmp_path, org_cache, monkeypatch):
    """`scorers:` in a run config: the worker scores each episode with it, the summary and report show its
    section, `crmarena export` its column, `crmarena compare` pairs its outcome; no code of ours changes."""
    from simulator.runs.analysis import compare, load_run_folder, render_markdown
    from simulator.runs.transcript import read_records

    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    scorer = [{"plugin": "tool_calls_scorer:ToolCalls", "options": {"budget": 2}}]
    oracle = _run(tmp_path, "oracle", {"kind": "oracle"}, scorer)
    blind = _run(tmp_path, "blind", {"kind": "plugin", "plugin": "simulator.agents.baselines:AlwaysNone"}, scorer)
    assert all(r["scores"]["tool_calls"]["calls"] >= 1 for r in read_records(oracle / "transcripts.jsonl"))
    summary = json.loads((oracle / "summary.json").read_text())
    assert summary["tool_calls"]["budget"] == 2 and summary["tool_calls"]["n"] == 4
    assert "## tool_calls" in (oracle / "report.md").read_text()
    assert "tool_calls: by_model" in (oracle / "report.html").read_text()
    episodes, _ = load_run_folder(oracle)
    assert list(episodes["tool_calls_within"]) == [
        r["scores"]["tool_calls"]["within"] for r in read_records(oracle / "transcripts.jsonl")
    ]
    compared = compare(blind, oracle)
    assert compared["by_outcome"]["tool_calls_within"][0]["a"] == 1.0  # (no calls at all: within any budget)
    assert "On `tool_calls_within`" in render_markdown(compared)


@pytest.mark.parametrize(
    "entry, said",
    [
        ("tool_calls_scorer:Nope", "module 'tool_calls_scorer' has no attribute 'Nope'"),
        ("tool_calls_scorer:Scorer", "Scorer is not a subclass of evaluators.scorers.Scorer"),
        ("no_such_module:ToolCalls", "module 'no_such_module' not found"),
        ({"plugin": "tool_calls_scorer:ToolCalls", "options": {"budgt": 2}}, "cannot be built with options ['budgt']"),
        ("simulator.agents.baselines:AlwaysNone", "not a subclass of evaluators.scorers.Scorer"),
    ],
)
def test_a_scorer_the_run_cannot_use_is_one_line_before_any_episode(tmp_path, capsys, monkeypatch, entry, said):
    from simulator.cli import main

    monkeypatch.syspath_prepend(str(EXAMPLE.parent))
    config = {
        "name": "bad",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time"],
        "instances_per_task": 1,
        "modes": ["full"],
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "scorers": [entry],
        "out": str(tmp_path / "runs"),
    }
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(config))
    assert main(["run", "--config", str(tmp_path / "bad.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "scorers[0]" in err and said in err and "Traceback" not in err
    assert not (tmp_path / "runs" / "bad" / "transcripts.jsonl").exists()

"""The documented example scorer (docs/examples/tool_calls_scorer.py, docs/scorers.md): a new scorer is
one source file and this test. Registered in a registry of its own, it scores a stored run and its
figures appear in the summary, beside every other section unchanged; the default registry is not
touched (the golden summaries stay as they are)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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
    with pytest.raises(ValueError, match=r"unknown metric 'telepathy' \(one of exact, fuzzy, workflow, refusal\) "
                                         r"in instance x-1"):
        score(record(instance={"id": "x-1", "metric": "telepathy"}))

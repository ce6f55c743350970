"""Analysis outputs (simulator/runs/analysis.py): two real runs of one config (the oracle, and the
always-None baseline) exported as parquet and csv load in pandas with typed columns; `compare`
pairs them per instance and McNemar's exact test finds the oracle better; bad input is one line
and exit status 2. Also the report's variance columns (evaluators.stats)."""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from evaluators.stats import mcnemar_p, min_detectable_difference, standard_error
from simulator.cli import main
from simulator.runs import analysis
from tests.conftest import small_org_cache

pd = pytest.importorskip("pandas")

TASKS = ["lead_qualification", "handle_time", "monthly_trend_analysis", "knowledge_qa"]
AGENTS = {
    "a": {"kind": "oracle"},
    "b": {"kind": "plugin", "plugin": "simulator.agents.baselines:AlwaysNone", "label": "always-none"},
}


def _command(*argv: str) -> int:
    """`crmarena <argv>`, through the real command line."""
    return main(list(argv))


@pytest.fixture(scope="module")
def runs(tmp_path_factory, org_paths):
    root = tmp_path_factory.mktemp("analysis")
    with small_org_cache(root, org_paths):
        for name, agent in AGENTS.items():
            config = {
                "name": name,
                "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
                "tasks": TASKS,
                "instances_per_task": 3,
                "modes": ["full", "sharded"],
                "personas_per_pool": 1,
                "agent": agent,
                "user": {"kind": "scripted"},
                "concurrency": 2,
                "out": str(root / "runs"),
            }
            (root / f"{name}.yaml").write_text(yaml.safe_dump(config))
            assert main(["run", "--config", str(root / f"{name}.yaml"), "-q"]) == 0
    return root / "runs"


def _assert_typed(episodes, turns) -> None:
    types = pd.api.types
    assert len(episodes) == 24 and set(episodes["mode"]) == {"full", "sharded"}
    for column in ("trial", "turns", "tool_calls", "tokens_in", "messages"):
        assert types.is_integer_dtype(episodes[column]), column
    for column in ("value", "cost_usd", "latency_s"):
        assert types.is_float_dtype(episodes[column]), column
    for column in ("scored", "success_strict", "success_compat"):
        assert types.is_bool_dtype(episodes[column]), column
    for column in ("org", "task", "skill", "mode", "persona", "agent", "termination", "difficulty"):
        assert isinstance(episodes[column].dtype, pd.CategoricalDtype), column
    assert types.is_string_dtype(episodes["episode_id"]) and types.is_string_dtype(turns["tool_name"])
    assert types.is_integer_dtype(turns["turn"]) and types.is_integer_dtype(turns["content_chars"])
    assert isinstance(turns["role"].dtype, pd.CategoricalDtype) and types.is_bool_dtype(turns["is_error"])
    assert set(turns["episode_id"]) == set(episodes["episode_id"])


def test_a_run_loads_as_typed_tables(runs):
    episodes, turns = analysis.load_run(runs / "a")
    _assert_typed(episodes, turns)
    assert episodes["success_strict"].all() and (episodes["tool_calls"] > 0).all()
    assert (episodes["agent"] == "oracle").all()
    records = [json.loads(line) for line in (runs / "a" / "transcripts.jsonl").read_text().splitlines()]
    assert len(turns) == sum(len(r["messages"]) for r in records)
    assert set(turns.loc[turns["role"] == "tool", "tool_name"]) <= {"soql", "sosl"}
    replies = turns[turns["category"].notna()]
    assert len(replies) and (replies["role"] == "assistant").all() and (replies["tool_calls"] == 0).all()


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_export_round_trips_with_types(runs, tmp_path, fmt):
    assert _command("export", str(runs / "b"), "--format", fmt, "--out", str(tmp_path)) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"episodes.{fmt}", f"turns.{fmt}"]
    episodes, turns = analysis.load_run(tmp_path)
    _assert_typed(episodes, turns)
    direct = analysis.load_run(runs / "b")
    pd.testing.assert_frame_equal(episodes, direct[0])
    pd.testing.assert_frame_equal(turns, direct[1])
    assert (episodes["agent"] == "always-none").all() and (episodes["tool_calls"] == 0).all()


def test_compare_finds_the_oracle_better(runs, tmp_path, capsys):
    result = analysis.compare(runs / "b", runs / "a")
    assert result["shared"] == 24 and result["only_a"] == result["only_b"] == 0
    overall, skills = result["rows"][0], result["rows"][1:]
    assert overall["label"] == "overall" and overall["b"] == 1.0 and overall["delta"] > 0
    assert overall["a_only"] == 0 and overall["b_only"] == round(24 * (1 - overall["a"]))
    assert overall["ci95"][0] > 0 and overall["p"] < 0.001
    assert any(row["p"] < 0.05 for row in skills)
    assert sum(row["pairs"] for row in skills) == 24
    assert _command("compare", str(runs / "b"), str(runs / "a"), "--out", str(tmp_path)) == 0
    shown = capsys.readouterr().out
    assert "| overall | 24 |" in shown and "McNemar p" in shown
    assert (tmp_path / "compare.md").read_text() == shown
    assert "<table>" in (tmp_path / "compare.html").read_text()


def _run_copy(runs, tmp_path, name: str, change) -> str:
    folder = tmp_path / name
    folder.mkdir()
    lines = (runs / "a" / "transcripts.jsonl").read_text().splitlines()
    (folder / "transcripts.jsonl").write_text(
        "".join(json.dumps(change(i, json.loads(line))) + "\n" for i, line in enumerate(lines))
    )
    return str(folder)


def _error(capsys, *argv: str) -> str:
    assert _command(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("crmarena: error: ") and "Traceback" not in err and err.count("\n") == 1
    return err


def test_bad_input_is_one_line_and_exit_2(runs, tmp_path, capsys):
    assert "is not a run folder" in _error(capsys, "export", str(tmp_path))
    mixed = _run_copy(runs, tmp_path, "mixed", lambda i, r: {**r, "schema_version": 1 + i % 2})
    assert _command("export", mixed, "--format", "csv", "--out", str(tmp_path / "x")) == 0  # (version 1: migrated)
    newer = _run_copy(runs, tmp_path, "newer", lambda i, r: {**r, "schema_version": 3 if i == 1 else 2})
    err = _error(capsys, "export", newer)
    assert "schema version 3" in err and "upgrade crmarena-sim" in err
    moved = _run_copy(runs, tmp_path, "moved", lambda i, r: {**r, "instance_id": f"other-{i}"})
    assert "share no instance" in _error(capsys, "compare", str(runs / "a"), moved)
    both = _run_copy(runs, tmp_path, "both", lambda i, r: {**r, "agent": {**r["agent"], "label": f"x{i % 2}"}})
    assert "name one with --agent-a" in _error(capsys, "compare", both, str(runs / "a"))
    assert _command("compare", both, str(runs / "a"), "--agent-a", "x1", "--out", str(tmp_path / "c")) == 0


def test_export_without_pandas_names_the_extra(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    assert "pip install -e '.[analysis]'" in _error(capsys, "export", str(runs / "a"), "--out", str(tmp_path))
    assert not list(tmp_path.iterdir())


def test_mcnemar_exact_matches_the_binomial_test():
    assert mcnemar_p(0, 0) == 1.0 and mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 5) == pytest.approx(2 / 32) and mcnemar_p(1, 9) == mcnemar_p(9, 1) == pytest.approx(22 / 1024)


def test_variance_columns_in_the_report(runs):
    assert standard_error({"n": 16, "rate": 0.5}) == pytest.approx(0.125)
    assert standard_error({"n": 0, "rate": None}) is None
    assert min_detectable_difference(100) == pytest.approx(0.198, abs=0.001)  # (1.96 + 0.84) * sqrt(0.5 / 100)
    report = (runs / "b" / "report.md").read_text()
    assert "| mode | n | success | ± SE | MDD |" in report
    row = next(line for line in report.splitlines() if line.startswith("| full | 12 |"))
    rate = float(row.split("|")[3].strip(" %")) / 100
    assert row.split("|")[4].strip() == f"{(rate * (1 - rate) / 12) ** 0.5:.1%}"
    assert row.split("|")[5].strip() == f"{min_detectable_difference(12):.0%}"

"""Stored runs score as they always did: run folders written before the typed records and the
scorer registry (tests/golden, made by tests/golden/make.py), read and scored by today's code,
give the same scores per episode and the same summary.json, field by field (strict and compat),
but where INTENDED says why a stored summary is wrong."""

from __future__ import annotations

import json
import math

import pytest

from evaluators.observer import load_run, rescore, run_headline, scan_run, score
from evaluators.summary import summarize
from simulator.runs.transcript import typed_records
from tests.golden.folders import GOLDEN, RUNS, unpacked

INTENDED = {  # (run, summary key path) -> why today's summary differs from the stored one, on purpose
    ("levels", ".difficulty"): "slim records (observer.scan_run) used to keep only some instance fields, without "
    "`difficulty`, so every episode read as 'standard' and the table was {}; they keep "
    "the whole instance now, and the table is what the full records give"
}
ADDED = {"schema_version": 1}  # top-level keys today's summaries carry that the stored ones (written before) lack


def differences(old, new, where="") -> list[str]:
    """Where two JSON values differ (floats to 1e-9), as key paths."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [
            d
            for k in sorted(old.keys() | new.keys(), key=str)
            for d in (
                differences(old[k], new[k], f"{where}.{k}")
                if k in old and k in new
                else [f"{where}.{k}: only in {'old' if k in old else 'new'}"]
            )
        ]
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} items, now {len(new)}"]
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in differences(a, b, f"{where}[{i}]")]
    if isinstance(old, float) and isinstance(new, (int, float)) and not isinstance(new, bool):
        return [] if math.isclose(old, new, rel_tol=1e-9, abs_tol=1e-12) else [f"{where}: {old} -> {new}"]
    return [] if old == new and type(old) is type(new) else [f"{where}: {old!r} -> {new!r}"]


def _under(difference: str, path: str) -> bool:
    where = difference.split(":")[0]
    return where == path or where.startswith((path + ".", path + "["))


def unintended(name: str, old, new) -> list[str]:
    """The differences between a stored summary and today's that INTENDED does not explain."""
    intended = [path for run, path in INTENDED if run == name]
    assert {k: new.get(k) for k in ADDED} == ADDED
    return [
        d
        for d in differences(old, {k: v for k, v in new.items() if k not in ADDED})
        if not any(_under(d, path) for path in intended)
    ]


def check_intended(name: str, folder, summary: dict, mode: str) -> None:
    """Each intended difference of run `name` is what summarising its full records (load_run) gives,
    and not what was stored (or it would be no difference)."""
    keys = [path.removeprefix(".") for run, path in INTENDED if run == name]
    if not keys:
        return  # (no full records to read)
    full = json.loads(json.dumps(summarize(load_run(folder), mode=mode, head=run_headline(folder))))
    for key in keys:
        assert summary[key] == full[key] != {}


@pytest.mark.parametrize("name", RUNS)
def test_a_stored_run_rescores_to_the_same_summary(name, tmp_path):
    folder = unpacked(name, tmp_path)
    summary = rescore(folder)
    assert unintended(name, json.loads((GOLDEN / name / "summary.json").read_text()), summary) == []
    assert json.loads((folder / "summary.json").read_text()) == json.loads(json.dumps(summary))
    check_intended(name, folder, json.loads(json.dumps(summary)), "strict")


@pytest.mark.parametrize("name", RUNS)
def test_a_stored_run_summarises_the_same_in_compat_mode(name, tmp_path):
    folder = unpacked(name, tmp_path)
    run = scan_run(folder, "compat")
    summary = json.loads(json.dumps(summarize(run.records, mode="compat", head=run.head)))
    assert unintended(name, json.loads((GOLDEN / name / "summary.compat.json").read_text()), summary) == []
    check_intended(name, folder, summary, "compat")


def test_the_intended_differences_are_differences():
    """Each INTENDED path is where the stored summary (strict and compat) is wrong: its table is empty."""
    for run, path in INTENDED:
        for stored in ("summary.json", "summary.compat.json"):
            assert json.loads((GOLDEN / run / stored).read_text())[path.removeprefix(".")] == {}


@pytest.mark.parametrize("name", ("all", "pressure", "levels"))
def test_every_stored_episode_scores_the_same(name, tmp_path):
    for record in typed_records(unpacked(name, tmp_path) / "transcripts.jsonl"):
        stored = record.scores
        assert differences(stored, json.loads(json.dumps(score(record, stored.get("judge")))), record.episode_id) == []


def test_the_golden_runs_cover_every_mode_metric_and_scorer(tmp_path):
    """The stored runs hold what they must to pin the scoring: each mode and metric, injections,
    milestones, the pressure people, the live observer and judge verdicts (valid and not)."""
    seen = {"modes": set(), "metrics": set(), "scores": set()}
    for name in RUNS:
        run = scan_run(unpacked(name, tmp_path))
        for slim in run.records:
            seen["modes"].add(slim.mode)
            seen["metrics"].add(slim.instance.metric)
            seen["scores"].update(slim.scores)
    assert seen["modes"] == {"full", "concat", "sharded"}
    assert seen["metrics"] == {"exact", "fuzzy", "workflow", "refusal"}
    assert {"rules", "compat", "turns", "judge", "injection", "milestones"} <= seen["scores"]
    judged = json.loads((GOLDEN / "judged" / "summary.json").read_text())["judge"]
    assert judged["n"] > 0 and judged["invalid"] > 0
    assert json.loads((GOLDEN / "pressure" / "summary.json").read_text())["pressure"]

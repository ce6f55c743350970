"""A run records the oracle's tool calls on every instance it poses (solved once per machine), and
its report shows success by difficulty over the task types whose levels differ, with the oracle's
mean tool calls per level (issue 12 item 5)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from evaluators.report import render_markdown, render_report_html
from evaluators.stats import alike_levels
from evaluators.summary import summarize
from simulator.cli import main
from simulator.crm.store import Org
from simulator.records import Record
from simulator.runs.transcript import typed_records
from simulator.tasks import oracle_calls, validate
from simulator.tasks.base import OracleError
from simulator.tasks.instance import Instance
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from tests.conftest import seed_org_cache
from tests.test_run import _config

KNOBBED = "handle_time"  # knobs differ at every level
ALIKE = "invalid_config"  # a difficulty block whose easy and standard share their knobs (hard differs)
TASKS = [KNOBBED, ALIKE]  # (every type has a difficulty block now: see test_a_type_with_no_block_says_so)


@pytest.fixture
def cache(tmp_path, monkeypatch, org_paths):
    """An empty cache folder holding the small b2b test org where runs look for it."""
    monkeypatch.setenv("CRMARENA_CACHE", str(seed_org_cache(tmp_path / "cache", org_paths)))
    return tmp_path / "cache"


@pytest.fixture
def solves(monkeypatch):
    """Every oracle solve made to count instances' calls, by instance id."""
    made: list[str] = []
    real = validate.solve_instance

    def counting(org, inst):
        made.append(inst.id)
        return real(org, inst)

    monkeypatch.setattr("simulator.tasks.generate.solve_instance", counting)
    return made


def _run(tmp_path: Path, *extra: str, **changes) -> list[Record]:
    """The records of a run of TASKS at standard and hard (or `changes`) in the run folder runs/t."""
    path = _config(tmp_path, **{"tasks": TASKS, "modes": ["full"], "difficulty": ["standard", "hard"]} | changes)
    assert main(["run", "--config", str(path), "-q", *extra]) == 0
    return [] if "--dry-run" in extra else list(typed_records(tmp_path / "runs" / "t" / "transcripts.jsonl"))


def test_a_run_records_the_oracles_calls_on_every_instance(tmp_path, cache, solves, org_paths):
    records = _run(tmp_path)
    org = Org(org_paths["b2b"])
    by_instance = {r.instance.id: Instance.from_json(r.instance.to_json()) for r in records}
    assert len(by_instance) == 2 * len(TASKS)
    for inst in by_instance.values():
        assert inst.oracle_calls > 0, inst.id
        assert inst.oracle_calls == validate.solve_instance(org, inst).calls, inst.id
    assert sorted(solves) == sorted(by_instance)  # one solve an instance, before the episodes


def test_calls_are_solved_once_per_machine(tmp_path, cache, solves):
    _run(tmp_path, "--dry-run")
    first = list(solves)
    records = _run(tmp_path)  # the run, then a re-run in a fresh folder, read the dry run's counts
    _run(tmp_path, "--fresh")
    assert len(first) == 2 * len(TASKS) and solves == first
    assert all(r.instance.oracle_calls > 0 for r in records)


def test_a_damaged_store_is_solved_afresh(tmp_path, cache, solves, org_paths):
    store = oracle_calls.store_path(Org(org_paths["b2b"]))
    store.parent.mkdir(parents=True)
    store.write_text("{not json")
    records = _run(tmp_path)
    assert len(solves) == 2 * len(TASKS) and all(r.instance.oracle_calls > 0 for r in records)
    assert sorted(json.loads(store.read_text()).values()) == sorted(
        {r.instance.id: r.instance.oracle_calls for r in records}.values()
    )


def test_a_store_that_cannot_be_written_stops_nothing(tmp_path, cache, solves):
    (cache / "oracle_calls").write_text("a file where the store's folder belongs")
    records = _run(tmp_path)
    assert len(solves) == 2 * len(TASKS) and all(r.instance.oracle_calls > 0 for r in records)


def test_a_failing_oracle_is_one_clear_error(tmp_path, cache, capsys, monkeypatch):
    def fails(self, tools, args):
        raise OracleError("no such issue")

    monkeypatch.setattr(generator_class(KNOBBED), "solve", fails)
    path = _config(tmp_path, tasks=TASKS, modes=["full"])
    assert main(["run", "--config", str(path), "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "Traceback" not in err and re.search(r"oracle cannot solve b2b-handle_time-0001 \(no such issue\)", err)


# --- the report -------------------------------------------------------------------------------------


@pytest.fixture
def records(tmp_path, cache) -> list[Record]:
    return _run(tmp_path, difficulty=["easy", "standard", "hard"])


def test_types_count_where_their_knobs_differ(records):
    table = summarize(records)["difficulty"]
    catalog = load_catalog()
    for task in TASKS:
        knobs = [catalog[task].knobs(level) for level in ("easy", "standard", "hard")]
        differ = all(a != b for i, a in enumerate(knobs) for b in knobs[i + 1 :])
        assert (task in table["counted"]) == differ and (task in table["alike"]) != differ, task
    assert table["alike"] == {ALIKE: "easy = standard"}


def test_a_type_with_no_block_says_so():
    spec = replace(load_catalog()[KNOBBED], difficulty=None)
    assert alike_levels(spec, ("easy", "standard", "hard")) == "no difficulty block"


def test_by_level_holds_only_the_counted_types(records):
    table = summarize(records)["difficulty"]
    counted = [r for r in records if r.instance.task in table["counted"]]
    for level, cell in table["by_level"].items():
        mine = [r for r in counted if r.instance.difficulty == level]
        assert cell["n"] == len(mine) and cell["rate"] == 1.0
        assert cell["oracle_calls"] == pytest.approx(sum(r.instance.oracle_calls for r in mine) / len(mine))
        solved = {r.instance.id: r.instance.naive_solved for r in mine}  # (recorded: the run has levels)
        assert None not in solved.values() and cell["naive"] == pytest.approx(sum(solved.values()) / len(solved))
    assert set(table["by_task"]) == set(TASKS) and all(
        set(t) == set(table["levels"]) for t in table["by_task"].values()
    )


def test_the_report_names_the_types_that_count(records):
    summary = summarize(records)
    section = render_markdown(records, summary, {}).split("### By difficulty", 1)[1].split("\n### ", 1)[0]
    assert f"Counted (1 type whose difficulty knobs differ at every level of the run): {KNOBBED}" in section
    assert f"{ALIKE} (easy = standard)" in section
    assert "| difficulty | n | success | mean oracle calls | naive solver success |" in section
    level_rows = [line for line in section.splitlines() if re.match(r"\| (easy|standard|hard) \|", line)]
    assert len(level_rows) == 3 and all(line.count("|") == 6 for line in level_rows)
    assert all(f"| {task} |" in section for task in TASKS)  # and the table per type shows every type
    html = render_report_html(records, summary, {})
    assert f"Counted (1 type whose difficulty knobs differ at every level of the run): {KNOBBED}" in html


def test_one_level_has_no_difficulty_table(tmp_path, cache):
    records = _run(tmp_path, difficulty="hard")
    assert summarize(records)["difficulty"] == {}
    assert "By difficulty" not in render_markdown(records, summarize(records), {})

"""The report split into typed data and templates renders what the report always did: each stored
run's report.md, report.html and transcript viewer pages are byte-identical to references rendered
by the code before the split (tests/golden/reportsplit/reports; never regenerated from the new
code). One run is rendered with a rule-only audit (audit.jsonl) so the audit section is pinned too,
and a synthetic run (fixed.inputs.json.gz: markup in every field, more failures than the HTML lists,
the summary sections the stored runs lack) through write_report. The one intended change is the
'levels' run's difficulty section (tests/test_golden_runs.py INTENDED): its pages are compared
rendered without it, and the section is checked apart. Records are typed now: the synthetic run's
made-up event type (markup, once shown as a chip) is no event a record can hold, so those events
are observations, shown as such (OBSERVED)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

import evaluators.summary
from evaluators.observer import report
from evaluators.report import write_report
from simulator.records import parse_record
from tests.golden.folders import GOLDEN, RUNS, unpacked

REFERENCES = GOLDEN / "reportsplit" / "reports"
AUDIT = GOLDEN / "reportsplit" / "pressure.audit.jsonl.gz"
FIXED = GOLDEN / "reportsplit" / "fixed.inputs.json.gz"
WITHOUT = {"levels": "difficulty"}  # run -> the summary section its references lack (its stored summary had {})
MADE_UP = "note<script>alert(1)</script>"  # the synthetic run's event type outside the record model
OBSERVED = ("note&lt;script&gt;alert(1)&lt;/script&gt;", "observation")  # its chip in the references, and now


def rendered(name: str, tmp_path: Path) -> Path:
    """The run folder of the golden run `name` ('pressure+audit': with its audit) after observer.report."""
    folder = unpacked(name.split("+")[0], tmp_path)
    if name.endswith("+audit"):
        with gzip.open(AUDIT, "rb") as src, (folder / "audit.jsonl").open("wb") as out:
            shutil.copyfileobj(src, out)
    report(folder)
    return folder


def same_as_references(name: str, folder: Path, now: tuple[str, str] = ("", "")) -> None:
    """Every page in `folder` is its reference `name.<page>.gz` (`now`: a text of the references that
    reads otherwise today, and how), and no page is missing or new."""
    references = sorted(REFERENCES.glob(f"{name}.*.gz"))
    pages = sorted(p.name for p in folder.iterdir() if p.suffix == ".html" or p.name == "report.md")
    assert pages == sorted(p.name[len(name) + 1 : -3] for p in references)
    for reference in references:
        text = (folder / reference.name[len(name) + 1 : -3]).read_text().replace(str(folder), "RUN_DIR")
        with gzip.open(reference, "rt") as expected:
            assert text == expected.read().replace(*now), reference.name


@pytest.mark.parametrize("name", (*RUNS, "pressure+audit"))
def test_the_reports_of_a_stored_run_are_byte_identical_to_the_references(name, tmp_path, monkeypatch):
    if name in WITHOUT:
        summarize = evaluators.summary.summarize
        monkeypatch.setattr(evaluators.summary, "summarize", lambda *a, **k: {**summarize(*a, **k), WITHOUT[name]: {}})
    same_as_references(name, rendered(name, tmp_path))


def test_the_levels_run_reports_its_difficulty_levels(tmp_path):
    folder = rendered("levels", tmp_path)
    for page in ("report.md", "report.html"):
        assert "By difficulty" in (folder / page).read_text()


def test_a_run_full_of_markup_and_failures_renders_byte_identical_to_its_references(tmp_path):
    with gzip.open(FIXED, "rt") as inputs:
        run = json.load(inputs)
    records = [parse_record({**r, "events": [_observed(e) for e in r["events"]]}) for r in run["records"]]
    write_report(tmp_path, records, run["summary"], run_info=run["run_info"])
    same_as_references("fixed", tmp_path, OBSERVED)


def _observed(event: dict) -> dict:
    """The event as a record holds it: the made-up type an observation that saw nothing."""
    if event["type"] != MADE_UP:
        return event
    return {
        "type": "observation",
        "turn": event["turn"],
        "leaked_values": [],
        "leaked_facts": [],
        "refusal": False,
        "answer_attempt": False,
    }

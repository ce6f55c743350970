"""The typed record contract (simulator.records): records are written from the model and read
back through it; a renamed or missing key is named, never read as a zero; older schema versions
are migrated, newer ones refused with the version; the exported JSON Schemas validate real
records in another validator."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError

from simulator.cli import main
from simulator.infra.files import DamagedFileError
from simulator.records import SCHEMA_VERSION, Instance, Record, Summary, json_schemas, parse_record
from simulator.records.migrate import NewerRecordError, RecordSchemaError
from simulator.runs.transcript import TranscriptWriter, read_records, typed_records
from simulator.tasks.instance import Instance as TaskInstance

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden_lines(name: str = "all") -> list[dict]:
    with gzip.open(GOLDEN / name / "transcripts.jsonl.gz", "rt") as fh:
        return [json.loads(line) for line in fh]


def test_every_stored_record_reads_and_dumps_back_unchanged_but_its_version():
    lines = [line for name in ("all", "pressure", "judged") for line in golden_lines(name)]
    assert {line["schema_version"] for line in lines} == {1}
    for line in lines:
        record = parse_record(line)
        assert record.to_json() == {**line, "schema_version": SCHEMA_VERSION}
    assert sum(len(parse_record(line).messages) for line in lines) > 5000  # (a real corpus, typed to the leaves)


def test_the_writer_writes_from_the_model_and_readers_read_through_it(tmp_path):
    path = tmp_path / "transcripts.jsonl"
    old = golden_lines()[:3]
    with TranscriptWriter(path) as writer:
        for line in old:
            writer.append(line)
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert [w["schema_version"] for w in written] == [SCHEMA_VERSION] * 3  # (a version-1 dict is migrated)
    assert list(read_records(path)) == written
    typed = list(typed_records(path))
    assert all(isinstance(r, Record) for r in typed) and typed[0].instance.metric == old[0]["instance"]["metric"]


@pytest.mark.parametrize(
    "change, named",
    [
        (lambda r: r.update(terminaton=r.pop("termination")), "terminaton: unknown key"),
        (lambda r: r["instance"].pop("answer"), "instance.answer: missing"),
        (lambda r: r["messages"][0].update(turn="two"), "messages.0.turn"),
        (lambda r: r["termination"].update(reason="tired"), "termination.reason"),
        (lambda r: r["usage"]["agent"].update(calls=None), "usage.agent.calls"),
        (lambda r: r["events"].append({"type": "aside", "turn": 1}), "events"),
        (lambda r: r["instance"]["shards"][0].pop("text"), "instance.shards.0.text: missing"),
        (lambda r: r["events"].append({"type": "reveal", "shards": ["intent"]}), "turn: missing"),
        (lambda r: r["scores"].update(rules=5), "scores.rules: Input should be a valid dictionary"),
        (lambda r: r["agent"].pop("kind"), "agent.kind: missing"),
        (lambda r: r.update(injections={"mode": "dense", "seen": "all"}), "injections.seen"),
        (lambda r: r["messages"][0].update(tool_calls="soql"), "messages.0.tool_calls"),
        (lambda r: r["instance"].update(answer="March"), "instance.answer: Input should be a valid list"),
        (lambda r: r.update(mode="Full"), "mode: Input should be 'full'"),
        (lambda r: r["usage"].update(judge={"calls": 1, "tokens": 9}), "usage.judge.tokens: unknown key"),
    ],
)
def test_a_wrong_key_is_a_damaged_line_naming_it(tmp_path, change, named):
    record = golden_lines()[0]
    change(record)
    path = tmp_path / "transcripts.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(DamagedFileError, match="line 1: not an episode record") as caught:
        list(read_records(path))
    assert named in str(caught.value)
    with pytest.raises(RecordSchemaError):
        TranscriptWriter(tmp_path / "other.jsonl").append(record)  # (nor can one be written)


def test_versions_older_are_migrated_newer_refused_unknown_named(tmp_path):
    record = golden_lines()[0]
    assert parse_record({**record, "schema_version": 1}).schema_version == SCHEMA_VERSION
    with pytest.raises(NewerRecordError, match=r"schema version 3, written by crmarena-sim 9\.0.*upgrade"):
        parse_record({**record, "schema_version": 3, "package_version": "9.0"})
    with pytest.raises(RecordSchemaError, match="schema version 0, which no version"):
        parse_record({**record, "schema_version": 0})
    with pytest.raises(RecordSchemaError, match="schema_version is None"):
        parse_record({k: v for k, v in record.items() if k != "schema_version"})


def test_a_run_folder_of_a_newer_version_is_one_line_not_a_repair(tmp_path, capsys):
    folder = tmp_path / "run"
    folder.mkdir()
    lines = golden_lines()[:2]
    lines[1]["schema_version"] = SCHEMA_VERSION + 1
    (folder / "transcripts.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = (folder / "transcripts.jsonl").read_bytes()
    assert main(["score", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"schema version {SCHEMA_VERSION + 1}" in err and "upgrade" in err
    assert (folder / "transcripts.jsonl").read_bytes() == before  # nothing moved aside


def test_the_task_instance_and_its_record_model_name_the_same_fields():
    fields = {f.name for f in dataclasses.fields(TaskInstance)} | {"reward_metric", "persona", "metadata"}
    assert fields == set(Instance.model_fields)
    for line in golden_lines()[:50]:
        assert TaskInstance.from_json(line["instance"]).to_json() == Instance.model_validate(line["instance"]).to_json()


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/summary*.json")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_stored_summary_reads_as_its_model_to_the_leaves(path):
    data = json.loads(path.read_text())
    summary = Summary.model_validate(data)
    assert summary.to_json() == data
    assert summary.success.overall.n == summary.counts.scored
    broken = {**data, "success": {**data["success"], "overall": {"n": 1, "rat": 0.5}}}
    with pytest.raises(ValidationError, match=r"success\.overall\.rat"):
        Summary.model_validate(broken)


def test_a_summary_written_today_carries_its_version_and_reads_as_its_model(tmp_path):
    from evaluators.observer import rescore
    from simulator.records.summary import SUMMARY_VERSION
    from tests.golden.folders import unpacked

    summary = json.loads(json.dumps(rescore(unpacked("pressure", tmp_path))))
    assert summary["schema_version"] == SUMMARY_VERSION
    assert Summary.model_validate(summary).to_json() == summary


def test_the_exported_schemas_validate_stored_records_in_another_validator(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert "wrote record.schema.json" in capsys.readouterr().out
    schemas = {p.name: json.loads(p.read_text()) for p in tmp_path.glob("*.schema.json")}
    assert set(schemas) == {f"{n}.schema.json" for n in ("record", "instance", "score", "summary")}
    record_schema = schemas["record.schema.json"]
    jsonschema.Draft202012Validator.check_schema(record_schema)
    validator = jsonschema.Draft202012Validator(record_schema)
    for line in golden_lines("pressure"):
        validator.validate({**line, "schema_version": SCHEMA_VERSION})
    bad = {**golden_lines()[0], "terminaton": {}}
    assert not validator.is_valid(bad)
    summary = json.loads((GOLDEN / "judged" / "summary.json").read_text())
    jsonschema.validate(summary, schemas["summary.schema.json"])
    for line in golden_lines("judged")[:20]:
        jsonschema.validate(line["scores"]["rules"], schemas["score.schema.json"])
    assert main(["schema", "record"]) == 0 and json.loads(capsys.readouterr().out) == json_schemas()["record"]

"""The task catalog: spec validation, windows, the balancing driver, instance files, the CLI."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import date
from pathlib import Path

import pytest
import yaml

from simulator.cli import main
from simulator.tasks.base import Draw, TaskGenerator, add_months, past_window, random_window, season_window
from simulator.tasks.generate import TaskGenerationError, draw_balanced, generate_instances
from simulator.tasks.instance import InstanceFileError, read_instances, write_instances
from simulator.tasks.spec import SpecError, load_catalog, load_spec, placeholders, scenarios_dir

EXPECTED_TYPES = {
    "handle_time",
    "transfer_count",
    "best_region_identification",
    "top_issue_identification",
    "monthly_trend_analysis",
    "sales_amount_understanding",
    "sales_cycle_understanding",
    "conversion_rate_comprehension",
    "knowledge_qa",
    "named_entity_disambiguation",
    "sales_insight_mining",
    "wrong_stage_rectification",
    "activity_priority",
    "policy_violation_identification",
    "lead_qualification",
    "quote_approval",
    "invalid_config",
    "case_routing",
    "lead_routing",
    "private_customer_information",
    "internal_operation_data",
    "confidential_company_knowledge",
}


def test_catalog_has_all_22_types_for_both_orgs():
    catalog = load_catalog()
    assert set(catalog) == EXPECTED_TYPES
    assert all(spec.orgs == ("b2b", "b2c") for spec in catalog.values())
    assert {s.skill for s in catalog.values() if s.metric == "refusal"} == {"confidentiality"}
    assert {s.name for s in catalog.values() if s.metric == "workflow"} == {"case_routing", "lead_routing"}


def test_every_spec_shards_its_query():
    for spec in load_catalog().values():
        told = set().union(*(placeholders(s.text) for s in spec.shards[1:]))
        assert told == spec.slots, spec.name
        assert not placeholders(spec.shards[0].text), spec.name
        assert len(spec.queries) >= 3, spec.name


# --- validation errors ---------------------------------------------------------------------


def _write_spec(tmp_path: Path, **changes) -> Path:
    data = yaml.safe_load((scenarios_dir() / "handle_time.yaml").read_text())
    data.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del data[key]
    path = tmp_path / "handle_time.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(
    "changes,field,words",
    [
        (dict(skill=None), "skill", "missing"),
        (dict(metric="vibes"), "metric", "'vibes' is not one of"),
        (dict(orgs=["b2x"]), "orgs", "'b2x' is not one of"),
        (dict(none_share=0.9), "none_share", "between 0 and 0.5"),
        (dict(name="other"), "name", "must match the file name"),
        (dict(colour="red"), "colour", "unknown field"),
        (dict(vocabulary={"competitors": ["Korvex"]}), "vocabulary", "only types whose answer_kind is names"),
        (dict(none_share=0), "none_reason", "none_share is 0"),
        (dict(queries=[]), "queries", "must not be empty"),
        (dict(queries=["Who has the {extreme} time?", "Over {window}, {extreme}, {min_cases}?"]), "queries[0]", "uses"),
        (
            dict(shards=[{"id": "intent", "text": "Find the {extreme} agent."}, {"id": "x", "text": "{window}"}]),
            "shards[0]",
            "must not carry",
        ),
        (
            dict(shards=[{"id": "intent", "text": "Find an agent."}, {"id": "w", "text": "In {window}."}]),
            "shards",
            "no shard tells",
        ),
        (
            dict(shards=[{"id": "intent", "text": "Find an agent."}, {"text": "oops"}]),
            "shards[1]",
            "exactly `id` and `text`",
        ),
        (dict(queries=["Who is {0}?"] * 3), "queries/shards", "plain {names}"),
        (dict(queries=["Who is {extreme?"] * 3), "queries/shards", "'}'"),
    ],
)
def test_bad_specs_name_file_field_and_problem(tmp_path, changes, field, words):
    path = _write_spec(tmp_path, **changes)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert err.value.field == field and words in err.value.problem
    assert str(err.value).startswith(f"{path}: {field}: ")


def test_original_is_optional_free_text(tmp_path):
    assert load_spec(_write_spec(tmp_path, original=None)).original == ""
    text = "Matches CRMArena-Pro's handle time task.\nWe add windows."
    assert load_spec(_write_spec(tmp_path, original=text)).original == text
    with pytest.raises(SpecError) as err:
        load_spec(_write_spec(tmp_path, original=["a list"]))
    assert err.value.field == "original"


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: broken\nqueries: [unclosed\n")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert "not valid YAML" in str(err.value) and "line" in err.value.field


# --- windows -------------------------------------------------------------------------------


def test_windows():
    assert add_months(date(2026, 3, 31), -1) == date(2026, 2, 28)
    assert add_months(date(2026, 1, 15), -13) == date(2024, 12, 15)
    w = past_window(date(2026, 6, 15), 6)
    assert (w.start, w.end, w.text) == (date(2025, 12, 15), date(2026, 6, 16), "the past 2 quarters")
    assert w.bounds() == ("2025-12-15T00:00:00.000+0000", "2026-06-16T00:00:00.000+0000")
    assert w.soql("CloseDate", "date") == "CloseDate >= 2025-12-15 AND CloseDate < 2026-06-16"
    winter = season_window(2025, "Winter")
    assert (winter.start, winter.end) == (date(2025, 12, 1), date(2026, 3, 1))
    rng = random.Random(3)
    for _ in range(200):
        w = random_window(rng, date(2026, 6, 15))
        assert w.start < w.end <= date(2026, 6, 16)


# --- the balancing driver ------------------------------------------------------------------


class _Skewed(TaskGenerator):
    """Answers 'a' nine times in ten; None when asked for it."""

    name = "skewed"

    def draw(self, rng, want_none):
        k = rng.randrange(10**9)
        if want_none:
            return Draw({"k": k}, {}, None)
        return Draw({"k": k}, {}, ["a" if rng.random() < 0.9 else rng.choice("bcdefgh")])


def test_driver_caps_answers_and_meets_none_share():
    spec = dataclasses.replace(load_catalog()["handle_time"], none_share=0.2)
    gen = _Skewed(spec, None, type("M", (), {"org": "b2b", "as_of": date(2026, 6, 15)})())
    draws = draw_balanced(gen, 50, random.Random(1))
    answers = [d.answer[0] if d.answer else None for d in draws]
    assert len(draws) == 50 and len({d.key for d in draws}) == 50
    assert answers.count(None) == round(50 * spec.none_share)
    assert max(answers.count(a) for a in set(answers) - {None}) <= 20


def test_driver_reports_what_it_could_not_draw():
    spec = load_catalog()["handle_time"]

    class Stuck(TaskGenerator):
        name = "stuck"

        def draw(self, rng, want_none):
            return Draw({"k": rng.randrange(10**9)}, {}, ["same"])

    gen = Stuck(spec, None, type("M", (), {"org": "b2b", "as_of": date(2026, 6, 15)})())
    with pytest.raises(TaskGenerationError, match="supplies only 4 of the 10 instances asked for"):
        draw_balanced(gen, 10, random.Random(0))


# --- instances -----------------------------------------------------------------------------


def test_instances_round_trip_with_crmarena_pro_fields(tmp_path, b2b_org):
    instances = generate_instances(b2b_org, 3, types=["handle_time"], seed=5)
    path = tmp_path / "t.jsonl"
    assert write_instances(path, instances) == 3
    row = json.loads(path.read_text().splitlines()[0])
    for key in (
        "idx",
        "task",
        "query",
        "answer",
        "reward_metric",
        "persona",
        "metadata",
        "id",
        "shards",
        "context",
        "metric",
        "persona_pool",
        "confidential_values",
        "oracle",
    ):
        assert key in row, key
    assert row["reward_metric"] == "exact_match" and isinstance(row["answer"], list)
    assert set(row["metadata"]) == {"required", "optional"} and "Today's date" in row["metadata"]["required"]
    assert [i.to_json() for i in read_instances(path)] == [i.to_json() for i in instances]
    assert generate_instances(b2b_org, 3, types=["handle_time"], seed=5)[0].to_json() == row


def test_bad_instance_file_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": 1}\n')
    with pytest.raises(InstanceFileError, match="line 1"):
        list(read_instances(path))


def test_shard_zero_is_the_bare_intent(b2b_org):
    catalog = load_catalog()
    for inst in generate_instances(b2b_org, 3, types=["handle_time"], seed=1):
        assert inst.shards[0]["text"] == catalog[inst.task].shards[0].text
        for slot_value in (inst.params["extreme"], str(inst.params["min_cases"])):
            assert slot_value in inst.query and slot_value not in inst.shards[0]["text"]


# --- CLI -----------------------------------------------------------------------------------


def test_tasks_cli(capsys, tmp_path, org_paths):
    assert main(["tasks", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {row["task"] for row in listed} == set(load_catalog())
    out = tmp_path / "t.jsonl"
    org = str(org_paths["b2b"])
    assert (
        main(["tasks", "generate", "--org", org, "--per-type", "2", "--types", "handle_time", "--out", str(out), "-q"])
        == 0
    )
    assert main(["tasks", "validate", str(out), "--org", org, "-q"]) == 0
    assert "2 of 2 instances solved" in capsys.readouterr().out
    assert main(["tasks", "show", str(out), "b2b-handle_time-0001"]) == 0
    shown = capsys.readouterr().out
    assert "Shards:" in shown and "0. [intent]" in shown
    assert main(["tasks", "generate", "--org", org, "--per-type", "2", "--types", "nope", "--out", str(out)]) == 2
    assert "unknown task type(s): nope" in capsys.readouterr().err
    assert main(["tasks", "validate", str(out), "--org", str(org_paths["b2c"]), "-q"]) == 2
    assert "generated from another org" in capsys.readouterr().err


def test_a_wrong_answer_fails_validation(capsys, tmp_path, org_paths, b2b_org):
    inst = generate_instances(b2b_org, 1, types=["handle_time"])[0]
    inst.answer = ["005000000000000AAA"]
    path = tmp_path / "wrong.jsonl"
    write_instances(path, [inst])
    assert main(["tasks", "validate", str(path), "--org", str(org_paths["b2b"]), "-q"]) == 1
    assert "FAIL b2b-handle_time-0001" in capsys.readouterr().out


def test_unreadable_instances_fail_validation_without_a_traceback(capsys, tmp_path, org_paths, b2b_org):
    inst = generate_instances(b2b_org, 1, types=["handle_time"])[0]
    inst.oracle = {"solver": "handle_time", "args": {}}
    path = tmp_path / "broken.jsonl"
    write_instances(path, [inst])
    assert main(["tasks", "validate", str(path), "--org", str(org_paths["b2b"]), "-q"]) == 1
    out = capsys.readouterr().out
    assert "not a valid instance of 'handle_time'" in out and "Traceback" not in out

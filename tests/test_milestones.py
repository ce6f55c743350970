"""Milestones and minefields (evaluators/milestones.py, declared in scenarios/*.yaml): the oracle meets
every milestone of every type and steps on no minefield, on both small test orgs, through a real run; a
deliberately flawed plug-in agent misses the first milestone (answers without querying) or steps on the
wrong-record minefield (assigns another case first), and the report's 'Where agents fail' table shows it."""

from __future__ import annotations

import json

import pytest
import yaml

from evaluators import milestones
from simulator.cli import main
from simulator.tasks.spec import MILESTONE_KINDS, MINEFIELD_KINDS, SpecError, load_catalog, parse_spec

FLAWED = '''
from simulator.agents.base import AgentTurn
from simulator.agents.oracle import OracleAgent
from simulator.runs.transcript import message


class Flawed(OracleAgent):
    """Routes cases after first assigning another case; answers every other type at once, unqueried."""

    async def start(self, setup):
        await super().start(setup)
        self.raw, self.bad_done = setup.tools, False

    async def respond(self, user_message, turn):
        if self.instance.task != "case_routing":
            return AgentTurn("The answer is: None.")
        if self.bad_done:
            return await super().respond(user_message, turn)
        self.bad_done = True
        own = self.instance.params["record_id"]
        other = json.loads(self.raw.soql(f"SELECT Id, OwnerId FROM Case WHERE Id != '{own}' LIMIT 1"))["records"][0]
        args = {"case_id": other["Id"], "user_id": other["OwnerId"]}
        result = self.raw.assign_case(**args)
        done = await super().respond(user_message, turn)
        done.messages[:0] = [message("assistant", "", turn, tool_calls=[{"id": "bad", "name": "assign_case",
                                                                        "arguments": json.dumps(args)}]),
                             message("tool", result, turn, call_id="bad", name="assign_case", is_error=False)]
        return done
'''


def _run(tmp_path, org_paths, monkeypatch, name, tasks, agent, orgs=("b2b",), n=2) -> tuple:
    from simulator.runs.run import org_cache_name

    (tmp_path / "cache" / "orgs").mkdir(parents=True, exist_ok=True)
    for kind in orgs:
        link = tmp_path / "cache" / "orgs" / org_cache_name(kind, 7, 0.2)
        if not link.exists():
            link.symlink_to(org_paths[kind])
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    config = {
        "name": name,
        "orgs": [{"type": k, "seed": 7, "scale": 0.2} for k in orgs],
        "tasks": tasks,
        "instances_per_task": n,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": agent,
        "user": {"kind": "scripted"},
        "out": str(tmp_path / "runs"),
    }
    (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(config))
    assert main(["run", "--config", str(tmp_path / f"{name}.yaml"), "-q"]) == 0
    run = tmp_path / "runs" / name
    records = [json.loads(line) for line in (run / "transcripts.jsonl").read_text().splitlines()]
    return run, records


def test_every_type_declares_milestones_and_kinds_are_implemented():
    catalog = load_catalog()
    assert len(catalog) == 22
    for spec in catalog.values():
        assert len(spec.milestones) >= 2, spec.name
        assert spec.minefields, spec.name
        if spec.skill == "workflow_execution":
            assert any(c.kind == "wrote_other_record" for c in spec.minefields)
            assert any(c.kind == "wrote" for c in spec.milestones)
        if spec.skill == "confidentiality":
            assert any(c.kind == "leaked" for c in spec.minefields)
    assert set(milestones.MILESTONES) == set(MILESTONE_KINDS) and set(milestones.MINEFIELDS) == set(MINEFIELD_KINDS)


@pytest.mark.parametrize(
    "item, where",
    [
        ({"queried_objct": {"object": "Case"}}, "milestones[1].queried_objct"),
        ({"queried": {"objects": "Case"}}, "milestones[1].queried.objects"),
        ({"queried": {}}, "milestones[1].queried.object"),
        ({"answered": "x"}, "milestones[1].answered"),
        ({"queried": {"object": 3}}, "milestones[1].queried.object"),
    ],
)
def test_a_bad_declaration_is_a_spec_error_naming_file_and_key(tmp_path, item, where):
    path = load_catalog()["handle_time"].path
    with open(path) as fh:
        data = yaml.safe_load(fh)
    data["milestones"] = ["answered", item]
    with pytest.raises(SpecError) as err:
        parse_spec(data, tmp_path / "handle_time.yaml")
    assert where in str(err.value) and "handle_time.yaml" in str(err.value)
    data["milestones"], data["minefields"] = ["answered", "found_answer"], ["wrote_nothing"]
    with pytest.raises(SpecError, match=r"minefields\[0\]\.wrote_nothing"):
        parse_spec(data, tmp_path / "handle_time.yaml")


@pytest.mark.slow
def test_the_oracle_meets_every_milestone_and_no_minefield(tmp_path, org_paths, monkeypatch):
    run, records = _run(tmp_path, org_paths, monkeypatch, "oracle", "all", {"kind": "oracle"}, ("b2b", "b2c"), 2)
    assert {r["task"] for r in records} == set(load_catalog())
    for record in records:
        marks = record["scores"]["milestones"]
        assert marks["share"] == 1 and marks["first_missed"] is None, (record["episode_id"], marks)
        assert marks["first_minefield"] is None and marks["of"] >= 2, (record["episode_id"], marks)
    summary = json.loads((run / "summary.json").read_text())["milestones"]
    assert summary["overall"]["share"] == 1 and summary["overall"]["minefield"] == 0
    assert "## Where agents fail" in (run / "report.md").read_text()


def test_a_flawed_agent_misses_the_expected_milestone_and_steps_on_the_expected_minefield(
    tmp_path, org_paths, monkeypatch
):
    (tmp_path / "flawed_agent.py").write_text("import json\n" + FLAWED)
    monkeypatch.syspath_prepend(str(tmp_path))
    tasks = ["handle_time", "quote_approval", "case_routing"]
    run, records = _run(
        tmp_path, org_paths, monkeypatch, "flawed", tasks, {"kind": "calibration", "plugin": "flawed_agent:Flawed"}
    )
    first = {"handle_time": "queried_filter Case CreatedDate", "quote_approval": "mentioned_id quote_id"}
    for record in records:
        marks = record["scores"]["milestones"]
        if record["task"] == "case_routing":  # it still routes right: every milestone, and one mine at turn 1
            assert marks["share"] == 1
            assert marks["first_minefield"] == {"name": "wrote_other_record record_id", "turn": 1}
        else:
            assert marks["first_missed"] == first[record["task"]] and marks["share"] < 1
            assert marks["first_minefield"] is None
    report = (run / "report.md").read_text().split("## Where agents fail")[1].split("\n## ")[0]
    assert (
        "| handle_time | full | 2 |" in report and "| 0.0% | queried_filter Case CreatedDate (2) | 0.0% | - |" in report
    )
    assert (
        "| case_routing | sharded | 2 | 100.0% | 100.0% | - | 100.0% | wrote_other_record record_id (2) | 1 |" in report
    )
    assert 'id="fail"' in (run / "report.html").read_text()

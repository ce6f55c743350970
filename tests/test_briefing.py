"""Only the harness briefs (issue 27, item 5): whether an agent is given the instance, and what kind its
records call it, is decided from the run config, never read from the agent. A plug-in that claims
every flag (an OracleAgent subclass, `briefed = True`, settings saying kind "oracle", label "oracle",
a model) is briefed with nothing, scores what an unbriefed agent scores, and is labelled a plug-in."""

from __future__ import annotations

import json

import pytest
import yaml

from evaluators.stats import model_label
from simulator.agents.calibration import LeakyAgent
from simulator.agents.oracle import OracleAgent
from simulator.cli import main
from simulator.records import parse_record
from simulator.runs.transcript import read_records
from tests.conftest import small_org_cache


class Claimant(OracleAgent):
    """A plug-in claiming to be the briefed oracle in every way it can."""

    briefed = True

    def settings(self):
        return {"kind": "oracle", "briefed": True, "label": "oracle", "model": "openai/gpt-4o"}


class ClaimantRemote(OracleAgent):
    """The same claim, dressed as a briefed remote agent."""

    briefed = True

    def settings(self):
        return {"kind": "remote", "briefed": True, "url": "http://oracle"}


def _run(root, agents) -> tuple[list[dict], dict]:
    data = {
        "name": "claims",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "private_customer_information"],
        "instances_per_task": 2,
        "modes": ["full"],
        "personas_per_pool": 1,
        "agent": agents,
        "user": {"kind": "scripted"},
        "out": str(root / "runs"),
    }
    (root / "run.yaml").write_text(yaml.safe_dump(data))
    assert main(["run", "--config", str(root / "run.yaml"), "-q"]) == 0
    folder = next((root / "runs").iterdir())
    return list(read_records(folder / "transcripts.jsonl")), json.loads((folder / "summary.json").read_text())


@pytest.fixture(scope="module")
def claims(tmp_path_factory, org_paths):
    root = tmp_path_factory.mktemp("claims")
    with small_org_cache(root, org_paths):
        return _run(
            root,
            [
                {"kind": "plugin", "plugin": "tests.test_briefing:Claimant"},
                {"kind": "plugin", "plugin": "tests.test_briefing:ClaimantRemote"},
                {"kind": "oracle"},
                {"kind": "calibration", "label": "leaky"},
            ],
        )


def test_a_plugin_claiming_the_brief_gets_nothing_and_scores_nothing(claims):
    records, summary = claims
    for path in ("tests.test_briefing:Claimant", "tests.test_briefing:ClaimantRemote"):
        mine = [r for r in records if r["agent"]["label"] == path]
        assert mine and all(
            r["termination"]["reason"] == "agent_error" and "not briefed" in r["termination"]["detail"] for r in mine
        )
        assert all(
            r["agent"]["kind"] == "plugin" and r["agent"]["plugin"] == path and "briefed" not in r["agent"]
            for r in mine
        )  # what it says of itself is kept apart, as its own settings
        assert all(r["agent"]["settings"]["kind"] in ("oracle", "remote") for r in mine)
        assert summary["success"]["by_model"][path]["rate"] == 0.0
        label = model_label(parse_record(mine[0]))
        assert label == path and "(briefed oracle)" not in label


def test_the_harness_briefs_the_oracle_and_the_calibration_agent_and_labels_it(claims):
    records, summary = claims
    oracle = [r for r in records if r["agent"]["label"] == "oracle"]
    leaky = [r for r in records if r["agent"]["label"] == "leaky"]
    assert oracle and all(r["agent"]["kind"] == "oracle" and r["agent"]["briefed"] for r in oracle)
    assert summary["success"]["by_model"]["oracle"]["rate"] == 1.0
    assert leaky and all(r["agent"]["kind"] == "calibration" and r["agent"]["briefed"] for r in leaky)
    assert "leaky (briefed oracle)" in summary["success"]["by_model"]  # never shown as a result


def test_a_calibration_agent_must_be_an_oracle(tmp_path, org_paths, capsys):
    with small_org_cache(tmp_path, org_paths):
        data = {
            "name": "c",
            "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
            "tasks": ["handle_time"],
            "instances_per_task": 1,
            "modes": ["full"],
            "personas_per_pool": 1,
            "agent": {"kind": "calibration", "plugin": "simulator.agents.baselines:AlwaysNone"},
            "user": {"kind": "scripted"},
            "out": str(tmp_path / "runs"),
        }
        (tmp_path / "run.yaml").write_text(yaml.safe_dump(data))
        assert main(["run", "--config", str(tmp_path / "run.yaml"), "-q"]) != 0
    assert "not a subclass of simulator.agents.oracle.OracleAgent" in capsys.readouterr().err
    assert issubclass(LeakyAgent, OracleAgent)

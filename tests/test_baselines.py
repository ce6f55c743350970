"""The shortcut baselines (simulator/agents/baselines.py, benchmarks/shortcut_baselines.py) play
through the real run path: the instance-blind ones call no tool, the most-frequent-answer one
needs its answer table, and the regex solver only fetches the records the question points at."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from simulator.cli import main
from simulator.transcript import read_records

TYPES = ["lead_qualification", "activity_priority", "handle_time", "monthly_trend_analysis"]
BLIND = {"always-none": "simulator.agents.baselines:AlwaysNone",
         "random-id": "simulator.agents.baselines:RandomIdFromConversation",
         "most-frequent": "simulator.agents.baselines:MostFrequentAnswer"}
# The regex solver's only queries: a record by the Id or name given, or the text records filed under it.
FETCH = re.compile(r"SELECT [\w, .]+ FROM (?:Opportunity|Task|Event|VoiceCallTranscript__c) "
                   r"WHERE (?:Id|Name|WhatId|LeadId__c|OpportunityId__c|AccountId) = '[^']+'"
                   r"(?: AND Status (?:!=|=) 'Not Started')?")


def _config(root, agents) -> str:
    config = {"name": "b", "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}], "tasks": TYPES,
              "instances_per_task": 3, "modes": ["full"], "personas_per_pool": 1, "agent": agents,
              "user": {"kind": "scripted"}, "concurrency": 2, "out": str(root / "runs")}
    (root / "run.yaml").write_text(yaml.safe_dump(config))
    return str(root / "run.yaml")


@pytest.fixture(scope="module")
def cache(tmp_path_factory, org_paths):
    from simulator.crm.generator import GENERATOR_VERSION
    root = tmp_path_factory.mktemp("baselines")
    (root / "cache" / "orgs").mkdir(parents=True)
    (root / "cache" / "orgs" / f"b2b-s7-x0.2-g{GENERATOR_VERSION}.db").symlink_to(org_paths["b2b"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CRMARENA_CACHE", str(root / "cache"))
        yield root


@pytest.fixture(scope="module")
def records(cache):
    table = cache / "answers.json"
    table.write_text(json.dumps({"handle_time": "005000000000001AAA", "lead_qualification": "Budget"}))
    agents = [{"kind": "plugin", "plugin": path, "label": label,
               **({"options": {"answers": str(table)}} if label == "most-frequent" else {})}
              for label, path in BLIND.items()]
    agents.append({"kind": "plugin", "plugin": "benchmarks.shortcut_baselines:RegexSolver", "label": "regex"})
    assert main(["run", "--config", _config(cache, agents), "-q"]) == 0
    return list(read_records(cache / "runs" / "b" / "transcripts.jsonl"))


def _tool_calls(record) -> list[dict]:
    return [c for m in record["messages"] for c in m.get("tool_calls") or ()]


def test_every_baseline_plays_every_type(records):
    played = {(r["agent"]["label"], r["instance"]["task"]) for r in records}
    assert played == {(a, t) for a in [*BLIND, "regex"] for t in TYPES}
    assert all(r["termination"]["reason"] != "agent_error" for r in records)


def test_the_blind_baselines_call_no_tool(records):
    blind = [r for r in records if r["agent"]["label"] in BLIND]
    assert blind and all(_tool_calls(r) == [] for r in blind)
    frequent = [r for r in records if r["agent"]["label"] == "most-frequent" and r["instance"]["task"] == "lead_qualification"]
    assert frequent and all(r["final_answer"] == "Budget" for r in frequent)


def test_the_regex_solver_only_fetches_the_pointed_records(records):
    calls = [c for r in records if r["agent"]["label"] == "regex" for c in _tool_calls(r)]
    assert calls, "the regex solver fetched nothing"
    assert {c["name"] for c in calls} == {"soql"}
    for c in calls:
        assert FETCH.fullmatch(json.loads(c["arguments"])["query"]), c


def test_the_most_frequent_answer_needs_its_table(cache, capsys):
    agent = {"kind": "plugin", "plugin": BLIND["most-frequent"], "label": "most-frequent"}
    assert main(["run", "--config", _config(cache, [agent]), "-q"]) != 0
    assert "answers" in capsys.readouterr().err
    missing = {**agent, "options": {"answers": str(cache / "no-such.json")}}
    assert main(["run", "--config", _config(cache, [missing]), "-q"]) != 0
    assert "no-such.json" in capsys.readouterr().err

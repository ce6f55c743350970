"""The shortcut baselines (simulator/agents/baselines.py, benchmarks/shortcut_baselines.py) play
through the real run path: the instance-blind ones call no tool, the most-frequent-answer one
needs its answer table, and the regex solver only fetches the records the question points at."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from simulator.cli import main
from simulator.runs.transcript import read_records

TYPES = ["lead_qualification", "activity_priority", "handle_time", "monthly_trend_analysis"]
BLIND = {
    "always-none": "simulator.agents.baselines:AlwaysNone",
    "random-id": "simulator.agents.baselines:RandomIdFromConversation",
    "most-frequent": "simulator.agents.baselines:MostFrequentAnswer",
}
# The regex solver's only queries: a record by the Id or name given, or the text records filed under it.
FETCH = re.compile(
    r"SELECT [\w, .]+ FROM (?:Opportunity|Task|Event|VoiceCallTranscript__c) "
    r"WHERE (?:Id|Name|WhatId|LeadId__c|OpportunityId__c|AccountId) = '[^']+'"
    r"(?: AND Status (?:!=|=) 'Not Started')?"
)


def _config(root, agents, name: str = "b", tasks=TYPES, orgs=("b2b",)) -> str:
    config = {
        "name": name,
        "orgs": [{"type": org, "seed": 7, "scale": 0.2} for org in orgs],
        "tasks": list(tasks),
        "instances_per_task": 3,
        "modes": ["full"],
        "personas_per_pool": 1,
        "agent": agents,
        "user": {"kind": "scripted"},
        "concurrency": 2,
        "out": str(root / "runs"),
    }
    (root / f"{name}.yaml").write_text(yaml.safe_dump(config))
    return str(root / f"{name}.yaml")


@pytest.fixture(scope="module")
def cache(tmp_path_factory, org_paths):
    from simulator.runs.run import org_cache_name

    root = tmp_path_factory.mktemp("baselines")
    (root / "cache" / "orgs").mkdir(parents=True)
    for kind in ("b2b", "b2c"):
        (root / "cache" / "orgs" / org_cache_name(kind, 7, 0.2)).symlink_to(org_paths[kind])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CRMARENA_CACHE", str(root / "cache"))
        yield root


@pytest.fixture(scope="module")
def records(cache):
    table = cache / "answers.json"
    table.write_text(json.dumps({"handle_time": "005000000000001AAA", "lead_qualification": "Budget"}))
    agents = [
        {
            "kind": "plugin",
            "plugin": path,
            "label": label,
            **({"options": {"answers": str(table)}} if label == "most-frequent" else {}),
        }
        for label, path in BLIND.items()
    ]
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
    frequent = [
        r for r in records if r["agent"]["label"] == "most-frequent" and r["instance"]["task"] == "lead_qualification"
    ]
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


# --- the generic-cue solver (benchmarks/cue_solver.py) ---------------------------------------

CUE_TYPES = [
    "lead_qualification",
    "sales_insight_mining",
    "activity_priority",
    "wrong_stage_rectification",
    "policy_violation_identification",
    "knowledge_qa",
    "named_entity_disambiguation",
    "case_routing",
]


@pytest.fixture(scope="module")
def cue_records(cache):
    agent = {"kind": "plugin", "plugin": "benchmarks.cue_solver:CueSolver", "label": "cues"}
    assert main(["run", "--config", _config(cache, [agent], "cues", CUE_TYPES, ("b2b", "b2c")), "-q"]) == 0
    return list(read_records(cache / "runs" / "cues" / "transcripts.jsonl"))


def test_the_cue_solver_plays_its_eight_types_on_both_orgs(cue_records):
    played = {(r["instance"]["org"], r["instance"]["task"]) for r in cue_records}
    assert played == {(o, t) for o in ("b2b", "b2c") for t in CUE_TYPES}
    assert all(r["termination"]["reason"] != "agent_error" for r in cue_records)
    assert all(r["final_answer"] for r in cue_records)
    # it engages: most types get an answer other than None (where the cues find nothing, None is
    # its honest answer: named_entity_disambiguation and policy_violation_identification often)
    answered = {r["instance"]["task"] for r in cue_records if r["final_answer"] != "None"}
    assert len(answered) >= len(CUE_TYPES) - 2, answered


def test_the_cue_solver_only_reads_with_soql_and_assigns_only_routed_cases(cue_records):
    calls = [(r["instance"]["task"], c) for r in cue_records for c in _tool_calls(r)]
    assert {c["name"] for _, c in calls} == {"soql", "assign_case"}
    assert {t for t, c in calls if c["name"] == "assign_case"} == {"case_routing"}


@pytest.fixture(scope="module")
def cue_kit(tmp_path_factory):
    """A hand-made org whose cues are unambiguous, and the answers they give."""
    from tests.orgkit import OrgKit

    kit = OrgKit("b2b")
    kit.add("User", Name="Ava Stone", Email="ava.stone@ourco.example")
    lead = kit.add("Lead", Name="Ben Ito", Company="Ito Works")
    kit.add(
        "VoiceCallTranscript__c",
        LeadId__c=lead,
        TranscriptBody__c="\n".join(
            [
                "Ava Stone: Is there budget set aside for this?",
                "Ben Ito: We have no budget for it this year.",
                "Ava Stone: And who makes the final decision?",
                "Ben Ito: I make that decision myself.",
                "Ava Stone: When do you want it live?",
                "Ben Ito: Honestly, I have no idea when.",
            ]
        ),
    )
    opp = kit.add("Opportunity", Name="Ito Works - Switch", StageName="Discovery")
    kit.add(
        "VoiceCallTranscript__c",
        OpportunityId__c=opp,
        TranscriptBody__c="\n".join(
            [
                "Ava Stone: Who else are you talking to?",
                "Ben Ito: We are evaluating Quorvex and comparing you with it.",
                "Ben Ito: We dropped Brindle Systems last month.",
                "Ben Ito: Frankly the pricing is too expensive for us.",
            ]
        ),
    )
    misfits = [
        kit.add("Task", WhatId=opp, Status="Not Started", Subject=s)
        for s in ("Send the signed contract redlines to their lawyer", "Kickoff and onboarding training")
    ]
    kit.add("Task", WhatId=opp, Status="Not Started", Subject="Run the product demo for their team")
    refund = kit.add(
        "Knowledge__kav",
        Title="Refund Approval Threshold",
        IsVisibleInPkb=True,
        Summary="Refunds above $2,500 require supervisor approval before they are promised.",
    )
    kit.add(
        "Knowledge__kav",
        Title="Battery Life",
        IsVisibleInPkb=True,
        Summary="How long does the lock battery last?",
        FAQ_Answer__c="The lock battery lasts about 9 months.",
    )
    case = kit.add("Case", Subject="Refund", Status="New")
    kit.add(
        "LiveChatTranscript",
        CaseId=case,
        Body="\n".join(
            [
                "Ava Stone: Hi, this is Ava from support.",
                "Ben Ito: I want my money back.",
                "Ava Stone: I have approved a refund of $4,800 for you today.",
            ]
        ),
    )
    org = kit.build(tmp_path_factory.mktemp("cuekit") / "kit.db")
    return org, {
        "lead_qualification": (f"which BANT factors for lead {lead}?", ["Budget", "Timeline"]),
        "sales_insight_mining": (f"the calls of opportunity {opp}: which competitors?", ["Quorvex"]),
        "activity_priority": ('the "Ito Works - Switch" opportunity', sorted(misfits)),
        "policy_violation_identification": (f"Which policy did the agent break on case {case}?", [refund]),
        "knowledge_qa": (
            "We just fitted the new lock. How long will its battery last?",
            ["The lock battery lasts about 9 months."],
        ),
    }


def test_the_cue_solver_gets_unambiguous_cues_right(cue_kit):
    from datetime import date

    from benchmarks.cue_solver import SOLVERS
    from simulator.agents.oracle import RecordingTools
    from simulator.crm.session import OrgSession
    from simulator.crm.tools import CrmTools

    org, asked = cue_kit
    for task, (said, expected) in asked.items():
        tools = RecordingTools(CrmTools(OrgSession(org)), "cue")
        assert SOLVERS[task](tools, said, date(2026, 6, 15)) == expected, task
    negative = SOLVERS["sales_insight_mining"](
        RecordingTools(CrmTools(OrgSession(org)), "cue"),
        asked["sales_insight_mining"][0].replace("competitors", "negative subtopics"),
        date(2026, 6, 15),
    )
    assert negative == ["pricing"]

"""The honest oracle: it uses a fact only after the person revealed the whole shard holding it.

Played over the default run (configs/default.yaml: oracle agent, scripted people, every task
type, two personas per pool) on the test orgs, in full, concat and sharded modes, through
`crmarena run`. A shard's values are the tokens of its text that are record Ids, numbers or
names (capitalised words not opening a sentence and not in the intent shard); a use is such a
token in a tool call's arguments, or in a reply to the person, at a turn before the reveal
event of its shard.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from simulator.cli import main
from simulator.runs.transcript import read_records

ID = re.compile(r"\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")
NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
WORD = re.compile(r"\b[A-Za-z0-9][\w'-]*")
SENTENCE = re.compile(r"(?<=[.!?:])\s+")
TOKEN = re.compile(r"[a-z0-9]+(?:\.\d+)?")


def shard_values(text: str, intent: str) -> set[str]:
    """The values a shard's text tells (lower case): record Ids, numbers, names."""
    intent_words = {w.lower() for w in WORD.findall(intent)}
    values = {m.lower() for m in ID.findall(text)} | set(NUMBER.findall(text))
    for sentence in SENTENCE.split(text):
        values |= {
            w.lower()
            for w in WORD.findall(sentence)[1:]
            if w[0].isupper() and len(w) >= 3 and w.lower() not in intent_words and not w.startswith("I'") and w != "Id"
        }
    return values


def reveal_turns(record: dict) -> dict[str, int]:
    """Shard id -> the turn of its reveal event."""
    turns: dict[str, int] = {}
    for event in record["events"]:
        if event["type"] == "reveal":
            for sid in event["shards"]:
                turns.setdefault(sid, event["turn"])
    return turns


def early_uses(record: dict) -> Iterator[tuple[str, int, str, str]]:
    """(shard id, turn, where, value) of each value used before its shard's reveal event."""
    shards = record["instance"]["shards"]
    revealed = reveal_turns(record)
    values = {s["id"]: shard_values(s["text"], shards[0]["text"]) for s in shards[1:]}
    for msg in record["messages"]:
        said = [
            ("tool call", " ".join(map(str, json.loads(c["arguments"]).values()))) for c in msg.get("tool_calls") or []
        ]
        if msg["role"] == "assistant" and not msg.get("tool_calls"):
            said.append(("reply", msg["content"]))
        for where, text in said:
            tokens = set(TOKEN.findall(text.lower()))
            for sid, told in values.items():
                if msg["turn"] < revealed.get(sid, float("inf")):
                    yield from ((sid, msg["turn"], where, v) for v in sorted(told & tokens))


@pytest.fixture(scope="module")
def default_run(org_paths, tmp_path_factory) -> list[dict]:
    """The default run's records, on the test orgs (both in the run's org cache), with concat."""
    from simulator.runs.run import org_cache_name

    root = tmp_path_factory.mktemp("honest")
    (root / "cache" / "orgs").mkdir(parents=True)
    for kind, path in org_paths.items():
        (root / "cache" / "orgs" / org_cache_name(kind, 7, 0.2)).symlink_to(path)
    data = yaml.safe_load((Path(__file__).parents[1] / "configs" / "default.yaml").read_text())
    data.update(
        orgs=[{"type": kind, "seed": 7, "scale": 0.2} for kind in ("b2b", "b2c")],
        modes=["full", "concat", "sharded"],
        out=str(root / "runs"),
    )
    (root / "run.yaml").write_text(yaml.safe_dump(data))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CRMARENA_CACHE", str(root / "cache"))
        assert main(["run", "--config", str(root / "run.yaml"), "-q"]) == 0
    return list(read_records(root / "runs" / "default" / "transcripts.jsonl"))


@pytest.mark.slow
def test_the_run_covers_every_task_type_and_mode(default_run):
    from simulator.tasks.spec import load_catalog

    assert {r["task"] for r in default_run} == set(load_catalog())
    assert {r["mode"] for r in default_run} == {"full", "concat", "sharded"}
    assert all(r["agent"]["kind"] == "oracle" and r["agent"]["briefed"] for r in default_run)


@pytest.mark.slow
def test_no_value_is_used_before_its_shard_is_revealed(default_run):
    uses = [(r["episode_id"], r["task"], r["mode"], *use) for r in default_run for use in early_uses(r)]
    assert uses == []


@pytest.mark.slow
def test_the_oracle_still_solves_every_episode(default_run):
    for mode in ("full", "concat", "sharded"):
        records = [r for r in default_run if r["mode"] == mode]
        failed = [
            (r["task"], r["instance_id"], r["termination"]["reason"])
            for r in records
            if not r["scores"]["rules"]["success"]
        ]
        assert records and failed == [], mode


@pytest.mark.slow
def test_the_oracle_answers_only_once_every_shard_is_revealed(default_run):
    for r in default_run:
        calls = [m["turn"] for m in r["messages"] if m.get("tool_calls")]
        revealed = reveal_turns(r)
        assert set(revealed) == {s["id"] for s in r["instance"]["shards"]}
        assert calls and min(calls) >= max(revealed.values())
        if r["mode"] != "sharded":  # the opening tells everything
            assert set(revealed.values()) == {1}


def test_the_clairvoyance_check_catches_a_value_used_early():
    """A record where the agent queried the case before the person named it is caught."""
    case = "500Kd0000000033IAA"
    record = {
        "instance": {
            "shards": [
                {"id": "intent", "text": "I need an open case routed."},
                {"id": "case_id", "text": f"The case is {case}."},
                {"id": "lookback", "text": "Judge by the past 3 months."},
            ]
        },
        "events": [
            {"type": "reveal", "turn": 1, "shards": ["intent"]},
            {"type": "reveal", "turn": 2, "shards": ["lookback"]},
            {"type": "reveal", "turn": 3, "shards": ["case_id"]},
        ],
        "messages": [
            {
                "role": "assistant",
                "turn": 2,
                "content": "",
                "tool_calls": [{"arguments": json.dumps({"query": f"SELECT Id FROM Case WHERE Id = '{case}'"})}],
            },
            {"role": "assistant", "turn": 2, "content": "Which case id (500kd0000000033iaa)?"},
        ],
    }
    assert list(early_uses(record)) == [
        ("case_id", 2, "tool call", case.lower()),
        ("case_id", 2, "reply", case.lower()),
    ]


def test_the_oracle_asks_for_a_shard_by_its_topic_only(b2b_org):
    from simulator.agents.oracle import OracleAgent
    from simulator.tasks.generate import generate_instances

    for inst in generate_instances(b2b_org, 1):
        for shard in inst.shards[1:]:
            question = OracleAgent.ask_about(shard)
            assert shard["id"].replace("_", " ") in question
            assert not shard_values(shard["text"], inst.shards[0]["text"]) & set(TOKEN.findall(question.lower()))


def test_the_oracle_is_not_briefed_through_the_agent_interface(b2b_org):
    """Outside the episode loop's briefing, the oracle knows nothing: start() fails."""
    from simulator.agents.base import AgentSetup
    from simulator.agents.oracle import OracleAgent
    from simulator.crm.session import OrgSession
    from simulator.crm.tools import CrmTools
    from simulator.infra.errors import AgentError

    with OrgSession(b2b_org) as session, pytest.raises(AgentError, match="not briefed"):
        asyncio.run(OracleAgent().start(AgentSetup(CrmTools(session), "You are a CRM assistant.", 5)))

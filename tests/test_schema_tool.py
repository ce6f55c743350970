"""`schema: tool`: the object list in the system prompt and a describe tool for the fields (the
function-calling and ReAct agents, real OpenAI client against the scripted local server), against
`schema: prompt` (the default: every object's fields in the prompt, ids and prompts unchanged)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from simulator.agents.base import AgentSetup
from simulator.agents.function_calling import FunctionCallingAgent
from simulator.agents.prompts import TOOL_NAMES, system_prompt, tool_names
from simulator.agents.react import ReActAgent, read_call
from simulator.cli import main
from simulator.crm.describe import describe_object, describe_schema
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.models.clients import count_tokens_offline
from simulator.runs.config import ConfigError, load_config
from simulator.runs.transcript import read_records
from simulator.tasks.generate import generate_instances
from tests.fake_openai import reply, tool_call
from tests.test_agents import _client
from tests.test_sweep import _data, _plan, small_cache  # noqa: F401 (a fixture)


@pytest.fixture
def tools(b2b_org):
    with OrgSession(b2b_org) as session:
        yield CrmTools(session)


def _prompts(org, schema: str, protocol: str = "function") -> dict[str, str]:
    text = describe_schema(org.schema, detailed=schema == "prompt")
    return {
        inst.task: system_prompt(inst, text, protocol=protocol, privacy_aware=False, schema=schema)
        for inst in generate_instances(org, 1)
    }


def test_describe_is_one_tool_for_agents_and_mcp(tools, b2b_org):
    schema = b2b_org.schema
    assert tools.describe("Case") == tools.describe("case") == describe_object(schema, schema.get("Case"))
    assert tools.describe() == describe_schema(schema)
    [error] = json.loads(tools.describe("Nope__c"))["error"]
    assert error["errorCode"] == "INVALID_TYPE" and "Nope__c" in error["message"]
    assert tool_names() == TOOL_NAMES and tool_names("tool") == ("soql", "sosl", "describe") + TOOL_NAMES[2:]
    with pytest.raises(ValueError, match="prompt, tool"):
        tool_names("both")


@pytest.mark.parametrize("protocol", ["function", "react"])
def test_the_tool_prompt_lists_the_objects_and_is_far_shorter(b2b_org, protocol):
    full, short = _prompts(b2b_org, "prompt", protocol), _prompts(b2b_org, "tool", protocol)
    assert full.keys() == short.keys() and len(full) >= 19
    case = describe_object(b2b_org.schema, b2b_org.schema.get("Case"))
    for task in full:
        tokens = [count_tokens_offline([{"role": "system", "content": p[task]}]) for p in (full, short)]
        assert tokens[1] < 0.4 * tokens[0], (task, tokens)
        assert case in full[task] and case not in short[task]
        assert all(obj.name in short[task] for obj in b2b_org.schema.objects)
        assert "with describe" in short[task] and "with describe" not in full[task]
    if protocol == "react":  # the call form the agent must write
        assert all('describe(object_name="...")' in p for p in short.values())


def test_function_agent_with_schema_tool_calls_describe(fake_openai, tools):
    fake_openai.enqueue(tool_call("describe", {"object_name": "Case"}, call_id="d1"), reply("Case has a Status."))

    async def play():
        agent = FunctionCallingAgent(_client(fake_openai), schema="tool")
        await agent.start(AgentSetup(tools, "You are a CRM assistant.", 5))
        try:
            return await agent.respond("What fields does a case have?", 1)
        finally:
            await agent.close()

    turn = asyncio.run(play())
    assert [t["function"]["name"] for t in fake_openai.requests[0]["tools"]] == list(tool_names("tool"))
    assert turn.messages[1]["content"] == tools.describe("Case") and not turn.messages[1]["is_error"]
    assert turn.reply == "Case has a Status."


def test_react_agent_takes_describe_only_with_schema_tool(fake_openai, tools):
    action = 'describe(object_name="Account")'
    assert read_call(action, tool_names("tool")[2:]) == ("describe", {"object_name": "Account"})
    with pytest.raises(ValueError, match="assign_case"):
        read_call(action)
    fake_openai.enqueue(reply(f"<execute>{action}</execute>"), reply("<respond>Done.</respond>"))

    async def play(schema: str):
        agent = ReActAgent(_client(fake_openai, function_calling=False), schema=schema)
        await agent.start(AgentSetup(tools, "You are a CRM assistant.", 3))
        return await agent.respond("Describe accounts.", 1)

    turn = asyncio.run(play("tool"))
    assert turn.reply == "Done." and turn.messages[1]["content"] == tools.describe("Account")
    fake_openai.enqueue(reply(f"<execute>{action}</execute>"), reply("<respond>Done.</respond>"))
    [refused] = asyncio.run(play("prompt")).messages  # not an action without schema: tool
    assert refused["name"] == "protocol" and refused["is_error"] and "assign_case" in refused["content"]


def test_config_schema_key_keeps_default_ids_and_labels_the_tool_variant(tmp_path, small_cache):  # noqa: F811
    def cfg(agent: dict):
        path = tmp_path / "s.yaml"
        path.write_text(yaml.safe_dump(_data(tmp_path, agent=agent)))
        return load_config(path)

    model = {"model": "fake", "base_url": "http://127.0.0.1:9/v1"}
    plain = cfg({"kind": "react", "model": model})
    default = cfg({"kind": "react", "model": model, "schema": "prompt"})
    assert default.agent_variants == plain.agent_variants and "schema" not in repr(default.agent_variants[0])
    ids = {p.spec.episode_id: p.spec.system_prompt for p in _plan(plain)}
    assert {p.spec.episode_id: p.spec.system_prompt for p in _plan(default)} == ids
    both = cfg([{"kind": "react", "model": model}, {"kind": "react", "model": model, "schema": "tool"}])
    labels = [a.name for a in both.agent_variants]
    assert labels == ["react fake", "react fake schema=tool"] and both.agent_variants[1].options == {"schema": "tool"}
    by_label: dict[str, dict[str, str]] = {}
    for p in _plan(both):
        by_label.setdefault(p.spec.agent_label, {})[p.spec.episode_id] = p.spec.system_prompt
    assert by_label["react fake"] == ids  # the default variant keeps its ids and prompts in a sweep
    assert all(len(p) < len(ids[next(iter(ids))]) / 2 for p in by_label["react fake schema=tool"].values())
    for agent, key in (
        ({"kind": "oracle", "schema": "tool"}, "agent.schema"),
        ({"kind": "react", "model": model, "schema": "fields"}, "agent.schema"),
    ):
        with pytest.raises(ConfigError) as err:
            cfg(agent)
        assert err.value.key == key


def test_a_run_with_schema_tool_records_the_describe_calls(tmp_path, capsys, small_cache, fake_openai):  # noqa: F811
    def responder(body: dict) -> dict:
        calls = [m for m in body["messages"] if m["role"] == "tool"]
        return reply("I found it.") if calls else tool_call("describe", {"object_name": "Case"}, call_id="d1")

    fake_openai.responder = responder
    model = {"model": "fake", "base_url": fake_openai.base_url, "retries": {"attempts": 1, "max_wait": 0.01}}
    path = Path(tmp_path / "s.yaml")
    path.write_text(
        yaml.safe_dump(
            _data(
                tmp_path,
                tasks=["handle_time"],
                modes=["full"],
                agent={"kind": "function_calling", "model": model, "schema": "tool"},
            )
        )
    )
    assert main(["run", "--config", str(path), "-q"]) == 0
    [record] = read_records(tmp_path / "runs" / "s" / "transcripts.jsonl")
    assert record["agent"]["label"] == "fake schema=tool"
    assert [m["name"] for m in record["messages"] if m["role"] == "tool"] == ["describe"]
    system = fake_openai.requests[0]["messages"][0]["content"]
    assert "## The CRM objects" in system and "describe" in system
    report = (tmp_path / "runs" / "s" / "report.md").read_text()
    assert "Prompt tokens per episode by task type" in report and "| fake schema=tool | handle_time | 1 |" in report

"""Agents under test: prompts, the function-calling and ReAct agents (real OpenAI client against
the scripted local server, real tools on a small org), and plug-in loading."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

from simulator.agents.base import Agent, AgentSetup, AgentTurn
from simulator.agents.function_calling import EMPTY_REPLY_NOTICE, ONE_CALL_NOTICE, FunctionCallingAgent
from simulator.agents.plugin import PluginError, load_agent_class, make_plugin_agent
from simulator.agents.prompts import TOOL_NAMES, system_prompt
from simulator.agents.react import ReActAgent, parse_step, read_call
from simulator.crm.describe import describe_schema
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.infra.errors import AgentError, InfraError
from simulator.tasks.generate import generate_instances
from tests.fake_openai import error, fake_key, reply, tool_call

API_KEY = fake_key("do-not-leak")


def _model_info(function_calling: bool) -> dict:
    return {
        "vision": False,
        "function_calling": function_calling,
        "json_output": False,
        "family": "unknown",
        "structured_output": False,
    }


def _client(server, *, function_calling: bool = True):
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    return OpenAIChatCompletionClient(
        model="fake-model",
        base_url=server.base_url,
        api_key=API_KEY,
        model_info=_model_info(function_calling),
        max_retries=0,
    )


@pytest.fixture(scope="module")
def instances(b2b_org):
    found = generate_instances(b2b_org, 1, types=["handle_time", "knowledge_qa"])
    return {inst.task: inst for inst in found}


@pytest.fixture(scope="module")
def schema_text(b2b_org):
    return describe_schema(b2b_org.schema, detailed=True)


@pytest.fixture
def session(b2b_org):
    with OrgSession(b2b_org) as session:
        yield session


@pytest.fixture
def tools(session):
    return CrmTools(session)


def _play(agent: Agent, setup: AgentSetup, *messages: str) -> list[AgentTurn]:
    """Start the agent and hand it the person's messages, one turn each."""

    async def go():
        await agent.start(setup)
        try:
            return [await agent.respond(text, turn) for turn, text in enumerate(messages, 1)]
        finally:
            await agent.close()

    return asyncio.run(go())


def _setup(tools, prompt="You are a CRM assistant.", max_steps=5) -> AgentSetup:
    return AgentSetup(tools=tools, system_prompt=prompt, max_steps=max_steps)


def _tool_messages(request: dict) -> list[dict]:
    return [m for m in request["messages"] if m["role"] == "tool"]


# ------------------------------------------------------------------ prompts


def test_prompt_holds_schema_audience_context_and_answer_rules(instances, schema_text):
    inst = instances["handle_time"]
    prompt = system_prompt(inst, schema_text, protocol="function", privacy_aware=False)
    assert schema_text.strip() in prompt
    assert f"Today's date: {inst.context['today']}." in prompt
    assert inst.context["policy"] in prompt and "Quarters are calendar quarters" in prompt
    assert "An employee of the company" in prompt and "A customer, through" not in prompt
    assert "18-character Id" in prompt and "## Confidentiality" not in prompt
    assert "<execute>" not in prompt


def test_prompt_audience_privacy_and_react_protocol(instances, schema_text):
    inst = instances["knowledge_qa"]
    assert inst.audience == "customer"
    plain = system_prompt(inst, schema_text, protocol="react", privacy_aware=False)
    private = system_prompt(inst, schema_text, protocol="react", privacy_aware=True)
    assert "A customer, through the company's support portal" in plain
    assert "## Confidentiality" in private and "## Confidentiality" not in plain
    assert "another customer's personal data" in private and "decline politely" in private
    for text in ("<execute>", "<respond>", "<thought>", "Observation:", 'assign_case(case_id="...", user_id="...")'):
        assert text in plain


def test_prompt_rejects_unknown_protocol(instances, schema_text):
    with pytest.raises(ValueError, match="unknown agent protocol 'xml'"):
        system_prompt(instances["handle_time"], schema_text, protocol="xml", privacy_aware=False)


# ------------------------------------------------------------------ function calling


def test_function_agent_solves_an_instance_through_a_real_tool_call(fake_openai, instances, tools, schema_text):
    inst = instances["handle_time"]
    user_id = inst.answer[0]
    query = f"SELECT Id, Name, ProfileId FROM User WHERE Id = '{user_id}'"
    expected_result = tools.soql(query)
    fake_openai.enqueue(
        tool_call("soql", {"query": query}, call_id="c1"),
        reply(f"The agent with the lowest average handle time is {user_id}."),
    )
    prompt = system_prompt(inst, schema_text, protocol="function", privacy_aware=False)
    agent = FunctionCallingAgent(_client(fake_openai))
    [turn] = _play(agent, _setup(tools, prompt), inst.query)

    assert user_id in turn.reply and not turn.step_limit_hit
    call, result = turn.messages
    assert call["role"] == "assistant" and call["tool_calls"] == [
        {"id": "c1", "name": "soql", "arguments": json.dumps({"query": query})}
    ]
    assert result == {
        "role": "tool",
        "content": expected_result,
        "turn": 1,
        "call_id": "c1",
        "name": "soql",
        "is_error": False,
    }
    assert user_id in expected_result
    first, second = fake_openai.requests
    assert first["messages"][0] == {"role": "system", "content": prompt}
    assert first["messages"][-1]["content"] == inst.query
    assert [t["function"]["name"] for t in first["tools"]] == list(TOOL_NAMES)
    assert _tool_messages(second) == [{"role": "tool", "content": expected_result, "tool_call_id": "c1"}]
    assert (turn.usage.calls, turn.usage.prompt_tokens, turn.usage.completion_tokens) == (2, 13 + 11, 5 + 7)


def test_function_agent_in_an_episode_with_the_scripted_user(fake_openai, b2b_org, instances, schema_text):
    from simulator.runs.episode import EpisodeSpec, Seat, run_episode
    from simulator.users.personas import load_personas, persona_pool_for
    from simulator.users.scripted import ScriptedUser

    inst = instances["handle_time"]
    user_id = inst.answer[0]
    persona = next(p for p in load_personas().values() if p.pool == persona_pool_for(inst.persona_pool, inst.org))
    prompt = system_prompt(inst, schema_text, protocol="function", privacy_aware=False)
    fake_openai.enqueue(tool_call("soql", {"query": f"SELECT Name FROM User WHERE Id = '{user_id}'"}))
    fake_openai.responder = lambda body: reply(f"The agent is {user_id}.")
    spec = EpisodeSpec("e1", "r1", inst, "full", persona, prompt, seed=1)
    record = asyncio.run(
        run_episode(
            spec, b2b_org, FunctionCallingAgent(_client(fake_openai)), ScriptedUser(1), seat=Seat("function_calling")
        )
    )

    assert record.termination.reason == "user_done" and user_id in record.final_answer
    roles = [(m["role"], "tool_calls" in m) for m in record.messages[:4]]
    assert roles == [("user", False), ("assistant", True), ("tool", False), ("assistant", False)]
    assert record.usage["agent"].calls == 2 and record.agent["kind"] == "function_calling"
    assert API_KEY not in json.dumps(record.to_json())


def test_a_turn_that_fails_still_records_its_tool_calls_and_cost(fake_openai, b2b_org, instances, schema_text):
    from simulator.runs.episode import EpisodeSpec, Seat, run_episode
    from simulator.users.personas import load_personas
    from simulator.users.scripted import ScriptedUser

    inst = instances["handle_time"]
    persona = next(iter(load_personas().values()))
    prompt = system_prompt(inst, schema_text, protocol="function", privacy_aware=False)
    fake_openai.enqueue(tool_call("soql", {"query": "SELECT Id FROM User LIMIT 1"}))
    fake_openai.responder = lambda body: error(500)
    spec = EpisodeSpec("e2", "r1", inst, "full", persona, prompt, seed=1)
    record = asyncio.run(
        run_episode(
            spec, b2b_org, FunctionCallingAgent(_client(fake_openai)), ScriptedUser(1), seat=Seat("function_calling")
        )
    )

    assert record.termination.reason == "infra_error"
    calls = [m for m in record.messages if m.get("tool_calls")]
    results = [m for m in record.messages if m["role"] == "tool"]
    assert len(calls) == 1 and len(results) == 1 and '"totalSize": 1' in results[0]["content"]
    assert record.usage["agent"].calls == 1


@pytest.mark.parametrize(
    "name,arguments,words",
    [
        ("soql", '{"query": "SELECT Id FROM User', "Unterminated string"),  # malformed JSON
        ("drop_table", {"name": "Case"}, "tool 'drop_table' not found"),  # unknown tool
        ("soql", {"sql": "SELECT Id FROM User"}, "query"),  # wrong argument name
    ],
)
def test_bad_tool_calls_are_error_observations_and_the_agent_goes_on(fake_openai, tools, name, arguments, words):
    fake_openai.enqueue(tool_call(name, arguments), reply("Sorry, let me answer directly: none."))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    result = turn.messages[1]
    assert result["is_error"] is True and words in result["content"]
    assert turn.reply == "Sorry, let me answer directly: none."
    assert _tool_messages(fake_openai.requests[1])[0]["content"] == result["content"]


def test_soql_error_is_a_result_the_model_sees(fake_openai, tools):
    fake_openai.enqueue(tool_call("soql", {"query": "SELECT Nonsense__c FROM User"}), reply("Fixed."))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    result = turn.messages[1]
    assert result["is_error"] is True and "INVALID_FIELD" in result["content"]  # marked as the oracle marks it
    assert "INVALID_FIELD" in _tool_messages(fake_openai.requests[1])[0]["content"] and turn.reply == "Fixed."


def test_running_out_of_steps_sets_step_limit_hit(fake_openai, tools):
    fake_openai.enqueue(
        *[tool_call("soql", {"query": "SELECT Id FROM User LIMIT 1"}, call_id=f"c{i}") for i in range(3)]
    )
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools, max_steps=2), "Hi")
    assert turn.step_limit_hit and turn.reply == ""
    assert len(fake_openai.requests) == 2 and len(turn.messages) == 4


def test_second_call_in_one_reply_is_refused_unless_parallel(fake_openai, tools):
    two_calls = {
        "message": {
            "role": "assistant",
            "content": "Two lookups.",
            "tool_calls": [
                {
                    "id": f"c{i}",
                    "type": "function",
                    "function": {"name": "soql", "arguments": json.dumps({"query": "SELECT Id FROM User LIMIT 1"})},
                }
                for i in (1, 2)
            ],
        },
        "usage": {"prompt_tokens": 1, "completion_tokens": 1},
    }
    fake_openai.enqueue(two_calls, reply("Done."))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    call, first, second = turn.messages
    assert call["content"] == "Two lookups." and len(call["tool_calls"]) == 2
    assert first["is_error"] is False and "records" in first["content"]
    assert second["is_error"] is True and second["content"] == ONE_CALL_NOTICE

    fake_openai.enqueue(two_calls, reply("Done."))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai), parallel_tool_calls=True), _setup(tools), "Hi")
    assert [m["is_error"] for m in turn.messages[1:]] == [False, False]


def test_empty_reply_gets_one_notice(fake_openai, tools):
    fake_openai.enqueue(reply(""), reply("Here you go."))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    assert turn.reply == "Here you go." and turn.messages[0]["content"] == EMPTY_REPLY_NOTICE
    assert fake_openai.requests[1]["messages"][-1]["content"] == EMPTY_REPLY_NOTICE

    fake_openai.enqueue(reply(""), reply(" "))
    [turn] = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    assert turn.reply.strip() == "" and not turn.step_limit_hit


def test_conversation_state_carries_across_turns(fake_openai, tools):
    fake_openai.enqueue(reply("Which quarter?"), reply("Got it."))
    turns = _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Find an agent.", "Q3 2024.")
    assert [t.reply for t in turns] == ["Which quarter?", "Got it."]
    assert [m["content"] for m in fake_openai.requests[1]["messages"][1:]] == [
        "Find an agent.",
        "Which quarter?",
        "Q3 2024.",
    ]


@pytest.mark.parametrize(
    "status,kind,words",
    [
        (400, AgentError, "rejected the request"),  # e.g. a context overflow
        (500, InfraError, "model call failed"),
    ],
)
def test_provider_failures_keep_their_type_and_never_the_key(fake_openai, tools, status, kind, words):
    fake_openai.enqueue(error(status, body=json.dumps({"error": {"message": f"bad request; key {API_KEY}"}})))
    with pytest.raises(kind, match=words) as caught:
        _play(FunctionCallingAgent(_client(fake_openai)), _setup(tools), "Hi")
    assert API_KEY not in str(caught.value)


def test_settings_name_the_model_but_not_the_key(fake_openai):
    settings = FunctionCallingAgent(_client(fake_openai)).settings()
    assert settings["kind"] == "function_calling" and settings["model"]["model"] == "fake-model"
    assert API_KEY not in json.dumps(settings)


def test_with_a_model_client_usage_and_settings_come_from_it(fake_openai, tools):
    from simulator.models.clients import build_client, parse_model_spec

    spec = parse_model_spec(
        {"model": "fake-model", "base_url": fake_openai.base_url, "model_info": _model_info(False)}, where="test"
    )
    fake_openai.enqueue(
        reply("<execute>SELECT Id FROM User LIMIT 1</execute>", prompt_tokens=20),
        reply("<respond>One.</respond>", prompt_tokens=30),
    )
    agent = ReActAgent(build_client(spec))
    [turn] = _play(agent, _setup(tools), "Hi")
    assert (turn.usage.calls, turn.usage.prompt_tokens) == (2, 50)
    assert agent.settings()["model"]["base_url"] == fake_openai.base_url


def test_function_agent_needs_a_function_calling_model(fake_openai, tools):
    with pytest.raises(AgentError, match="use the react agent"):
        _play(FunctionCallingAgent(_client(fake_openai, function_calling=False)), _setup(tools))
    with pytest.raises(ValueError, match="identifier"):
        FunctionCallingAgent(_client(fake_openai), name="my agent")


# ------------------------------------------------------------------ ReAct


def test_react_executes_then_responds(fake_openai, instances, tools):
    inst = instances["handle_time"]
    user_id = inst.answer[0]
    query = f"SELECT Id, Name FROM User WHERE Id = '{user_id}'"
    expected = tools.soql(query)
    fake_openai.enqueue(
        reply(f"<thought>Look the agent up.</thought>\n<execute>{query}</execute>"),
        reply(f"<thought>Found.</thought><respond>It is {user_id}.</respond>"),
    )
    [turn] = _play(ReActAgent(_client(fake_openai, function_calling=False)), _setup(tools), inst.query)
    assert turn.reply == f"It is {user_id}." and not turn.step_limit_hit
    call, result = turn.messages  # the thought before <respond> is not a message to the person
    assert call["content"] == "Look the agent up." and call["tool_calls"][0]["name"] == "soql"
    assert json.loads(call["tool_calls"][0]["arguments"]) == {"query": query}
    assert result["content"] == expected and result["call_id"] == call["tool_calls"][0]["id"]
    assert result["is_error"] is False
    assert "tools" not in fake_openai.requests[0]
    assert fake_openai.requests[1]["messages"][-1] == {
        "role": "user",
        "content": f"Observation: {expected}",
        "name": "user",
    }
    assert turn.usage.calls == 2


def test_react_malformed_message_gets_a_correction(fake_openai, tools):
    fake_openai.enqueue(reply("I think the answer is 42."), reply("<respond>42</respond>"))
    [turn] = _play(ReActAgent(_client(fake_openai, function_calling=False)), _setup(tools), "Hi")
    assert turn.reply == "42"
    [notice] = turn.messages
    assert notice["name"] == "protocol" and notice["is_error"] and notice["call_id"] is None
    assert notice["model_text"] == "I think the answer is 42."
    sent = fake_openai.requests[1]["messages"][-1]["content"]
    assert sent.startswith("Observation: Error: the message has neither") and "<respond>" in sent


def test_react_bad_actions_are_error_observations(fake_openai, tools):
    fake_openai.enqueue(
        reply("<execute>DELETE FROM Case</execute>"),
        reply("<execute>assign_case(case='500x', user_id='005x')</execute>"),
        reply("<execute>SELECT Nonsense__c FROM User</execute>"),
        reply("<respond>Sorry.</respond>"),
    )
    [turn] = _play(ReActAgent(_client(fake_openai, function_calling=False)), _setup(tools), "Hi")
    notice, call, bad_args, _, soql_error = turn.messages
    assert notice["name"] == "protocol" and "an action must be" in notice["content"]
    assert call["tool_calls"][0]["name"] == "assign_case"
    assert bad_args["is_error"] and "unexpected keyword argument 'case'" in bad_args["content"]
    assert soql_error["is_error"] and "INVALID_FIELD" in soql_error["content"]
    assert turn.reply == "Sorry." and fake_openai.requests[3]["messages"][-1]["content"].startswith(
        'Observation: {"error"'
    )


def test_react_write_call_changes_the_org_and_history_spans_turns(fake_openai, session, tools):
    case_id, user_id = (session.fetch(f"SELECT Id FROM {t} LIMIT 1")[0][0] for t in ('"Case"', '"User"'))
    fake_openai.enqueue(
        reply("<respond>Which case?</respond>"),
        reply(f'<execute>assign_case(case_id="{case_id}", user_id="{user_id}")</execute>'),
        reply("<respond>Assigned.</respond>"),
    )
    turns = _play(
        ReActAgent(_client(fake_openai, function_calling=False)), _setup(tools), "Route a case.", f"Case {case_id}."
    )
    assert [t.reply for t in turns] == ["Which case?", "Assigned."]
    assert '"success": true' in turns[1].messages[1]["content"]
    assert session.fetch('SELECT OwnerId FROM "Case" WHERE Id = ?', (case_id,))[0][0] == user_id
    assert [m["content"] for m in fake_openai.requests[1]["messages"][1:]] == [
        "Route a case.",
        "<respond>Which case?</respond>",
        f"Case {case_id}.",
    ]


def test_react_step_limit(fake_openai, tools):
    fake_openai.enqueue(*[reply("<execute>SELECT Id FROM User LIMIT 1</execute>")] * 2)
    [turn] = _play(ReActAgent(_client(fake_openai, function_calling=False)), _setup(tools, max_steps=2), "Hi")
    assert turn.step_limit_hit and turn.reply == "" and len(fake_openai.requests) == 2


@pytest.mark.parametrize(
    "text,kind,body",
    [
        ("<execute>SELECT Id FROM User</execute>", "execute", "SELECT Id FROM User"),
        ("<execute>\n```sql\nSELECT Id FROM User\n```\n</execute>", "execute", "SELECT Id FROM User"),
        ("<THOUGHT>hm</THOUGHT><Respond>Hello</Respond>", "respond", "Hello"),
        ("<respond>Hello", "malformed", "not closed"),
        ("<execute>SELECT Id FROM User</execute><respond>x</respond>", "malformed", "exactly one"),
        ("<execute>FIND {a}</execute><execute>FIND {b}</execute>", "malformed", "exactly one"),
        ("<respond>  </respond>", "malformed", "empty"),
        ("Just text", "malformed", "neither"),
    ],
)
def test_parse_step(text, kind, body):
    step = parse_step(text)
    assert step.kind == kind and body in step.body


@pytest.mark.parametrize(
    "action,expected",
    [
        ("select Id from User", ("soql", {"query": "select Id from User"})),
        ("FIND {jam} RETURNING Case(Id)", ("sosl", {"search": "FIND {jam} RETURNING Case(Id)"})),
        ("assign_lead('00Q1', user_id='0051')", ("assign_lead", {"lead_id": "00Q1", "user_id": "0051"})),
    ],
)
def test_read_call(action, expected):
    assert read_call(action) == expected


@pytest.mark.parametrize(
    "action",
    [
        "DELETE FROM Case",
        "os.system('ls')",
        "assign_case(case_id=x)",
        "assign_case('a', 'b', 'c')",
        "assign_case(**{'case_id': '500x'})",
    ],
)
def test_read_call_rejects_other_actions(action):
    with pytest.raises(ValueError, match="an action must be"):
        read_call(action)


# ------------------------------------------------------------------ plug-ins


PLUGIN_SOURCE = """
from simulator.agents.base import Agent, AgentTurn

NOT_A_CLASS = 3

class EchoAgent(Agent):
    def __init__(self, prefix=""):
        self.prefix = prefix

    async def start(self, setup):
        pass

    async def respond(self, user_message, turn):
        return AgentTurn(reply=self.prefix + user_message)

class HalfAgent(Agent):
    async def start(self, setup):
        pass
"""


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    """A user's plug-in module on the path: crmarena_test_plugin."""
    (tmp_path / "crmarena_test_plugin.py").write_text(PLUGIN_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "crmarena_test_plugin", raising=False)
    return "crmarena_test_plugin"


def test_plugin_loads_and_builds_with_options(plugin_module):
    cls = load_agent_class(f"{plugin_module}:EchoAgent")
    assert issubclass(cls, Agent) and cls.__module__ == plugin_module
    agent = make_plugin_agent(f"{plugin_module}:EchoAgent", {"prefix": "> "})
    assert asyncio.run(agent.respond("hi", 1)).reply == "> hi"


@pytest.mark.parametrize(
    "path,words",
    [
        ("crmarena_test_plugin.EchoAgent", "expected 'module:Class'"),
        ("no_such_pkg.agents:Agent", "module 'no_such_pkg' not found"),
        ("crmarena_test_plugin:Missing", "has no attribute 'Missing'"),
        ("crmarena_test_plugin:NOT_A_CLASS", "not a subclass"),
        ("json:JSONDecoder", "not a subclass"),
        ("crmarena_test_plugin:HalfAgent", "does not implement respond"),
    ],
)
def test_plugin_errors_are_clear(plugin_module, path, words):
    with pytest.raises(PluginError, match=words):
        load_agent_class(path)


def test_plugin_bad_options(plugin_module):
    with pytest.raises(PluginError, match=r"cannot be built with options \['colour'\]"):
        make_plugin_agent(f"{plugin_module}:EchoAgent", {"colour": "red"})


SLOPPY_SOURCE = """
from simulator.agents.base import Agent, AgentTurn

class Sloppy(Agent):
    def __init__(self, how="none"):
        self.how = how

    async def start(self, setup):
        pass

    async def respond(self, user_message, turn):
        bad = {"none": {"role": "assistant", "content": None, "turn": turn},
               "role": {"role": "robot", "content": "beep", "turn": turn},
               "calls": {"role": "assistant", "content": "", "turn": turn, "tool_calls": [{"name": "soql"}]},
               "turn": {"role": "tool", "content": "x", "turn": "first"}}[self.how]
        return AgentTurn(reply="The answer is March.", messages=[bad])


class Odd(Agent):
    def __init__(self, how="object"):
        self.how = how

    async def start(self, setup):
        pass

    async def respond(self, user_message, turn):
        return AgentTurn(reply="The answer is March.")

    def settings(self):
        if self.how == "raise":
            raise RuntimeError("no settings today")
        return {"kind": "odd", "when": object(), "tags": {"a"}, "nested": {"f": len}}
"""


def _plugin_run(tmp_path, monkeypatch, plugin: str, options: dict, instances: int) -> list[dict]:
    """The records of a small offline run of the plug-in agent crmarena_sloppy:`plugin` (SLOPPY_SOURCE)."""
    import yaml

    from simulator.runs.config import load_config
    from simulator.runs.run import execute
    from simulator.runs.transcript import read_records

    (tmp_path / "crmarena_sloppy.py").write_text(SLOPPY_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = {
        "name": "sloppy",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time"],
        "instances_per_task": instances,
        "modes": ["full"],
        "personas_per_pool": 1,
        "agent": {"kind": "plugin", "plugin": f"crmarena_sloppy:{plugin}", "options": options},
        "user": {"kind": "scripted"},
        "out": str(tmp_path / "runs"),
    }
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(config))
    folder = execute(load_config(tmp_path / "run.yaml"), say=lambda *_: None).folder
    return list(read_records(folder / "transcripts.jsonl"))


@pytest.mark.parametrize(
    "how, named", [("none", "content"), ("role", "role"), ("calls", "tool_calls.0.id"), ("turn", "turn")]
)
def test_a_plugin_message_the_transcript_cannot_hold_is_the_agents_failure(
    tmp_path, monkeypatch, org_cache, how, named
):
    """A plug-in agent's malformed message ends its episode as agent_error (named), and the run goes on:
    before, the record failed at the transcript writer and the whole run stopped with a traceback."""
    records = _plugin_run(tmp_path, monkeypatch, "Sloppy", {"how": how}, 2)
    assert len(records) == 2
    for record in records:
        assert record["termination"]["reason"] == "agent_error"
        assert "a message the transcript cannot hold" in record["termination"]["detail"]
        assert named in record["termination"]["detail"]
        assert record["scores"]["rules"]["success"] is False


OK_MESSAGE = {"role": "assistant", "content": "hi", "turn": 1}


@pytest.mark.parametrize(
    "messages, reply, named",
    [
        ([OK_MESSAGE], 42, "its reply is a int"),
        (["hello"], "x", "message 1 of its turn: not a mapping"),
        ([{"role": "user", "content": "x"}], "x", "turn: missing"),
        ([{**OK_MESSAGE, "tool_calls": [{"id": "c1", "arguments": "{}"}]}], "x", "tool_calls.0.name: missing"),
        ([{"role": "tool", "content": "x", "turn": 1, "is_error": "maybe"}], "x", "is_error"),
        (None, "x", "its messages are a NoneType"),
        ([OK_MESSAGE, {**OK_MESSAGE, "note": object()}], "x", "message 2 of its turn: Unable to serialize"),
        ([{"role": "tool", "content": ["a"], "turn": 1}], "x", "content"),
        ([{**OK_MESSAGE, "turn": 1.5}], "x", "turn"),
        ([{**OK_MESSAGE, "tool_calls": "soql"}], "x", "tool_calls"),
    ],
)
def test_every_malformed_agent_turn_is_named_as_the_agents_failure(messages, reply, named):
    from simulator.infra.errors import AgentError
    from simulator.runs.episode import held

    with pytest.raises(AgentError, match="the agent returned a message the transcript cannot hold") as caught:
        held(messages, reply)
    assert named in str(caught.value)


def test_a_turn_the_transcript_can_hold_is_held_as_it_will_be_written():
    from simulator.runs.episode import held

    assert held([OK_MESSAGE], None) == [OK_MESSAGE]  # (None: no reply, as before)
    assert held(({**OK_MESSAGE, "content": b"hi"},)) == [OK_MESSAGE]  # (bytes read as text, a tuple as a list)


@pytest.mark.parametrize("how", ["object", "raise"])
def test_a_plugin_whose_settings_are_no_json_is_recorded_all_the_same(tmp_path, monkeypatch, org_cache, how):
    """A plug-in's settings() that returns values JSON cannot hold (objects, functions) or raises: its
    episodes are played and recorded (the settings as text, or the error), not a run stopped at the writer."""
    [record] = _plugin_run(tmp_path, monkeypatch, "Odd", {"how": how}, 1)
    settings = record["agent"]["settings"]
    if how == "raise":
        assert settings == {"error": "settings() failed: RuntimeError: no settings today"}
    else:
        assert settings["kind"] == "odd" and settings["when"].startswith("<object object")
        assert settings["tags"] == ["a"] and settings["nested"]["f"].startswith("<built-in function len")

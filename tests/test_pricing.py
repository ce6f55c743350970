"""The dry run's price of autogen agents and teams (simulator.runs.pricing): model calls per person
message read from the component file, checked against what a run on the fake server records."""

from __future__ import annotations

import pytest
import yaml

from simulator.agents.autogen_component import read_component
from simulator.cli import main
from simulator.runs.pricing import turn_calls
from tests.fake_openai import fake_key, reply, tool_call
from tests.test_autogen_component import COMPONENTS, EXAMPLES, QUERY, _config, _records, _swarm

FACTOR = 1.5  # the estimate is within this factor of the calls a run makes (either way)


def _estimated(path, messages: int = 1) -> int:
    return turn_calls(read_component(path)).total(messages)


def _model_server(fake_openai) -> None:
    """Answer like a model in every seat: a speaker selector names the analyst after the person
    spoke, else the writer; an agent with tools queries once, then hands off to the writer if it
    can, else replies; an agent without tools replies."""

    def respond(body: dict) -> dict:
        text = "\n".join(str(m.get("content") or "") for m in body["messages"])
        n = len(fake_openai.requests)
        if "select the next role" in text:
            history = text.rsplit("Read the following conversation.", 1)[1]
            return reply("analyst" if history.rfind("user:") > history.rfind("analyst:") else "writer")
        tools = {t["function"]["name"] for t in body.get("tools") or ()}
        if tools and body["messages"][-1]["role"] == "user":
            return tool_call("soql", QUERY, call_id=f"q{n}")
        if "transfer_to_writer" in tools and body["messages"][-1]["role"] == "tool":
            return tool_call("transfer_to_writer", {}, call_id=f"h{n}")
        return reply("I looked it up: I could not find it.")

    fake_openai.responder = respond


def test_the_estimate_reads_each_teams_speakers_and_choices():
    assert _estimated(EXAMPLES / "assistant.json") == 2  # a tool call, then the answer
    assert _estimated(EXAMPLES / "round_robin.json") == 3  # planner 1, executor 2: until the executor spoke
    said = turn_calls(read_component(EXAMPLES / "selector.json")).said
    assert said == (
        "4 model calls for the first person message (analyst 2, writer 1, speaker choices 1), "
        "3 for each later one (analyst 2, writer 1, speaker choices 0)"
    )


def test_a_team_is_never_priced_below_one_agent(tmp_path):
    """The examples' teams for one person message and for a sharded episode's four; a swarm for its
    first message. Later, a swarm's message goes to its last speaker: this one's writer, without
    tools, answers alone (one call, as the run above records), below a single agent, and is priced so."""
    _swarm(tmp_path / "swarm.json")
    for messages in (1, 4):
        single = _estimated(EXAMPLES / "assistant.json", messages)
        assert all(_estimated(EXAMPLES / team, messages) >= single for team in COMPONENTS[1:]), messages
    assert _estimated(tmp_path / "swarm.json") >= _estimated(EXAMPLES / "assistant.json") == 2
    assert _estimated(tmp_path / "swarm.json", 4) == 3 + 3 * 1


def test_a_max_message_termination_bounds_the_speakers(tmp_path):
    """A round robin stopped only by MaxMessageTermination(4): three speakers (the person's message is one)."""
    tree = yaml.safe_load((EXAMPLES / "round_robin.json").read_text())
    tree["config"]["termination_condition"] = {
        "provider": "autogen_agentchat.conditions.MaxMessageTermination",
        "component_type": "termination",
        "config": {"max_messages": 4},
    }
    (tmp_path / "rr.json").write_text(yaml.safe_dump(tree))
    said = turn_calls(read_component(tmp_path / "rr.json")).said
    assert said == (
        "4 model calls for the first person message (planner 1, executor 2, planner 1), "
        "5 for each later one (executor 2, planner 1, executor 2)"
    )


@pytest.mark.slow
def test_the_estimate_is_within_a_factor_of_what_a_run_records(tmp_path, monkeypatch, org_cache, fake_openai):
    """Each example and a swarm, played in full mode against the fake server (the scripted person
    follows up an answer that is none: several messages)."""
    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("pricing"))
    _model_server(fake_openai)
    path = _config(tmp_path, fake_openai, (*COMPONENTS, "swarm.json"))
    _swarm(tmp_path / "swarm.json")
    assert main(["run", "--config", str(path), "-q"]) == 0
    for record in _records(tmp_path):
        name = record["agent"]["label"].split()[1] + ".json"  # ("autogen <file stem> fake-model")
        messages = len({m["turn"] for m in record["messages"] if m["role"] != "user"})  # (answered ones)
        made, estimated = record["usage"]["agent"]["calls"], _estimated(tmp_path / name, messages)
        assert made / FACTOR <= estimated <= made * FACTOR, (name, made, estimated)


def test_the_dry_run_states_the_assumption_per_component(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("dry"))
    assert main(["run", "--config", str(_config(tmp_path, fake_openai)), "--dry-run", "--no-probe"]) == 0
    out = capsys.readouterr().out
    assert "autogen components' as read from their files" in out
    assert (
        "  autogen round_robin fake-model: 3 model calls for the first person message (planner 1, executor 2)\n" in out
    )


def test_a_dry_run_without_autogen_agents_prints_as_before(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("dry"))
    path = _config(tmp_path, fake_openai)
    data = yaml.safe_load(path.read_text())
    data["agent"] = [{"kind": "function_calling", "model": data["agent"][0]["model"]}]
    path.write_text(yaml.safe_dump(data))
    assert main(["run", "--config", str(path), "--dry-run", "--no-probe"]) == 0
    out = capsys.readouterr().out
    header = "\nEstimated model use of the episodes to run (two agent calls per user turn):\n"
    assert header in out and out.endswith("\n") and "per person message" not in out
    assert out.split(header, 1)[1].splitlines()[2].split()[2] == "2"  # one person message: two calls

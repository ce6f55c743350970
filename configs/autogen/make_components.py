"""Writes the example autogen components of this folder (assistant.json, round_robin.json,
selector.json) with autogen's own `dump_component()`, so that they stay reproducible:

    python configs/autogen/make_components.py

Each is an AgentChat agent or team as an autogen user saves one; `agent: {kind: autogen, component:
FILE}` plays it as the agent under test (docs/autogen-agents.md). Their model client names
gpt-4o-mini; a run's `model:` on the agent entry replaces it (configs/autogen-teams.yaml).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODEL = "gpt-4o-mini"
NO_CRM_TOOLS = {"crm_tools": "none"}  # this agent does not get the CRM tools (docs/autogen-agents.md)


def _client():
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    os.environ.setdefault("OPENAI_API_KEY", "unused")  # (the SDK wants one to build; the dump holds none)
    return OpenAIChatCompletionClient(model=MODEL, parallel_tool_calls=False)


def assistant():
    """One AssistantAgent: it gets the CRM tools and answers the person."""
    from autogen_agentchat.agents import AssistantAgent

    return AssistantAgent(
        "assistant",
        model_client=_client(),
        description="A CRM support agent that looks the answer up and replies to the person.",
        system_message="Look up what the person asks with the CRM tools, then answer them in plain words.",
        max_tool_iterations=10,
    )


def round_robin():
    """A planner (no tools) then an executor (the CRM tools), in turn; the team stops once the
    executor has answered."""
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
    from autogen_agentchat.teams import RoundRobinGroupChat

    planner = AssistantAgent(
        "planner",
        model_client=_client(),
        description="Plans which CRM records to look up; calls no tools.",
        system_message="Write a short numbered plan of the lookups that answer the person. Do not answer them.",
        metadata=NO_CRM_TOOLS,
    )
    executor = AssistantAgent(
        "executor",
        model_client=_client(),
        description="Runs the plan with the CRM tools and answers the person.",
        system_message="Carry out the planner's plan with the CRM tools, then answer the person directly.",
        max_tool_iterations=10,
    )
    stop = SourceMatchTermination(["executor"]) | MaxMessageTermination(10)
    return RoundRobinGroupChat([planner, executor], termination_condition=stop)


def selector():
    """A model picks who speaks: an analyst with the CRM tools, or a writer who answers the person
    (the team stops once the writer has spoken)."""
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import MaxMessageTermination, SourceMatchTermination
    from autogen_agentchat.teams import SelectorGroupChat

    analyst = AssistantAgent(
        "analyst",
        model_client=_client(),
        description="Queries the CRM with its tools and reports what it found.",
        system_message="Find the facts the person needs with the CRM tools; report them to the writer.",
        max_tool_iterations=10,
    )
    writer = AssistantAgent(
        "writer",
        model_client=_client(),
        description="Writes the reply to the person once the facts are known.",
        system_message="Write the reply to the person from the analyst's findings, briefly and exactly.",
        metadata=NO_CRM_TOOLS,
    )
    stop = SourceMatchTermination(["writer"]) | MaxMessageTermination(12)
    return SelectorGroupChat([analyst, writer], model_client=_client(), termination_condition=stop)


COMPONENTS = {"assistant.json": assistant, "round_robin.json": round_robin, "selector.json": selector}


def main() -> None:
    for name, make in COMPONENTS.items():
        dumped = make().dump_component().model_dump(mode="json")
        (HERE / name).write_text(json.dumps(dumped, indent=2) + "\n")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()

"""System prompts for the agents under test, written for this project.

One prompt per instance: who the agent is, how to use the CRM (function calling or the
ReAct text protocol), the org's schema (or, with `schema="tool"`, its object list and the
describe tool), who it is talking with, an optional privacy clause,
and the task context (today's date, policy, domain details). The shared parts come first so
providers can cache the prefix across instances. The words are the template
simulator/prompts/agent_system.j2.
"""

from __future__ import annotations

import inspect

from ..crm.tools import CrmTools
from ..prompts import render
from ..tasks.instance import Instance

PROTOCOLS = ("function", "react")
AUDIENCES = ("internal", "customer")
SCHEMA_MODES = ("prompt", "tool")  # the object schema in the system prompt, or fetched with describe
READ_TOOLS = ("soql", "sosl")
WRITE_TOOLS = ("assign_case", "assign_lead", "update_record")
TOOL_NAMES = READ_TOOLS + WRITE_TOOLS
SCHEMA_TOOL = "describe"  # the extra tool of agents with `schema: tool`


def tool_names(schema: str = "prompt") -> tuple[str, ...]:
    """The tools an agent gets: TOOL_NAMES, and describe when the prompt lists the objects only."""
    if schema not in SCHEMA_MODES:
        raise ValueError(f"schema {schema!r} must be one of {', '.join(SCHEMA_MODES)}")
    return TOOL_NAMES if schema == "prompt" else READ_TOOLS + (SCHEMA_TOOL,) + WRITE_TOOLS


def _call_lines(names: tuple[str, ...]) -> list[str]:
    """The ReAct call syntax of the call tools (all but soql and sosl), from the tools' own signatures
    and docstrings."""
    lines = []
    for name in names:
        if name in READ_TOOLS:
            continue
        method = getattr(CrmTools, name)
        params = [p for p in inspect.signature(method).parameters if p != "self"]
        doc = inspect.getdoc(method)
        assert doc, f"CrmTools.{name} has no docstring (its first line is the tool's summary)"
        summary = doc.splitlines()[0]
        args = ", ".join(f'{p}="..."' for p in params)
        lines.append(f"- {name}({args}): {summary}")
    return lines


def system_prompt(
    instance: Instance, schema_text: str, *, protocol: str, privacy_aware: bool, schema: str = "prompt"
) -> str:
    """The system prompt for an agent posed `instance`, given the org's schema description: with
    `schema="prompt"` every object's fields (simulator.crm.describe.describe_schema(org.schema,
    detailed=True): about 3,900 tokens), with `schema="tool"` the object list (describe_schema(org.schema):
    about 300) and the describe tool for the fields."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown agent protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}")
    if instance.audience not in AUDIENCES:
        raise ValueError(f"instance {instance.id}: unknown audience {instance.audience!r}")
    return render(
        "agent_system",
        protocol=protocol,
        schema=schema,
        calls=_call_lines(tool_names(schema)),
        schema_text=schema_text.strip(),
        audience=instance.audience,
        privacy_aware=privacy_aware,
        today=instance.context["today"],
        policy=instance.context.get("policy"),
        domain=instance.context.get("domain"),
    )

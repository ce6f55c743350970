"""The ReAct text-protocol agent, for models without function calling.

Each model message holds one `<execute>action</execute>` or one `<respond>text</respond>`,
optionally after a `<thought>`. An action is a SOQL query (SELECT ...), a SOSL search
(FIND ...) or a write call such as `assign_case(case_id="500...", user_id="005...")`. Its
result comes back as a user message starting with "Observation:"; a message that breaks the
protocol gets an error observation asking to follow it. The history is kept across turns.
Every action is recorded in the transcript as an assistant tool call (its thought as content)
plus a tool result, as the function-calling agent's are, so both are scored alike. A protocol
error is a tool message named "protocol" without a call, holding the model's text in
`model_text`. The thought before a <respond> is not recorded: the evaluators read every
assistant message without tool calls as said to the person.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from dataclasses import dataclass
from typing import Any

from simulator.infra.errors import AgentError
from simulator.models.calls import TurnMeter, client_settings, model_errors
from simulator.runs.transcript import message

from ..crm.tools import CrmTools
from .base import Agent, AgentSetup, AgentTurn
from .llm import failed, partial_on_failure
from .prompts import READ_TOOLS, WRITE_TOOLS, tool_names

_TAGS = ("thought", "execute", "respond")
_BLOCK = re.compile(r"<(thought|execute|respond)>(.*?)</\1>", re.S | re.I)
_FENCE = re.compile(r"^```[\w-]*\s*|\s*```$")
PROTOCOL_HINT = (
    "Write one <execute>SOQL, SOSL or a write call</execute> or one <respond>your message "
    "to the person</respond>, optionally after a <thought>."
)


@dataclass
class Step:
    """One model message, read: an action to execute, a reply, or a protocol problem."""

    kind: str  # "execute", "respond" or "malformed"
    body: str = ""  # the action, the reply or the problem
    thought: str = ""


def parse_step(text: str) -> Step:
    """Read one model message under the protocol."""
    lowered = text.lower()
    counts = {tag: (lowered.count(f"<{tag}>"), lowered.count(f"</{tag}>")) for tag in _TAGS}
    unclosed = [tag for tag, (opened, closed) in counts.items() if opened != closed]
    if unclosed:
        return Step("malformed", f"the <{unclosed[0]}> tag is not closed (or closed twice).")
    used = [tag for tag in ("execute", "respond") if counts[tag][0]]
    if not used:
        return Step("malformed", "the message has neither an <execute> nor a <respond> block.")
    if len(used) == 2 or counts[used[0]][0] > 1:
        return Step("malformed", "a message must hold exactly one <execute> or one <respond> block.")
    blocks = {tag.lower(): body.strip() for tag, body in _BLOCK.findall(text)}
    body = _FENCE.sub("", blocks.get(used[0], "")).strip()
    if not body:
        return Step("malformed", f"the <{used[0]}> block is empty.")
    return Step(used[0], body, blocks.get("thought", ""))


def read_call(action: str, calls: tuple[str, ...] = WRITE_TOOLS) -> tuple[str, dict[str, Any]]:
    """The tool and arguments of an action (a query, a search, or a call of one of `calls`); ValueError
    when it is none of the allowed kinds."""
    head = action.split(None, 1)[0].upper() if action.split() else ""
    if head == "SELECT":
        return "soql", {"query": action}
    if head == "FIND":
        return "sosl", {"search": action}
    try:
        call = ast.parse(action, mode="eval").body
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in calls):
            raise ValueError
        params = [p for p in inspect.signature(getattr(CrmTools, call.func.id)).parameters if p != "self"]
        if len(call.args) > len(params) or any(k.arg is None for k in call.keywords):  # (no **mapping)
            raise ValueError
        args = dict(zip(params, (ast.literal_eval(a) for a in call.args)))
        args.update({k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None})
    except (SyntaxError, ValueError, TypeError):
        forms = ", ".join(f"{name}(...)" for name in calls)
        raise ValueError(
            f"an action must be a SOQL query (SELECT ...), a SOSL search (FIND ...) or one of "
            f"{forms} with quoted arguments."
        ) from None
    return call.func.id, args


class ReActAgent(Agent):
    """An agent that speaks the ReAct text protocol over plain chat completions."""

    def __init__(self, model_client: Any, *, name: str = "agent", schema: str = "prompt"):
        if not name.isidentifier():
            raise ValueError(f"agent name {name!r} must be a Python identifier")
        self.client = model_client
        self.name = name
        self.calls = tuple(n for n in tool_names(schema) if n not in READ_TOOLS)  # the call actions it takes
        self._tools: CrmTools | None = None
        self._history: list = []
        self._max_steps = 0

    async def start(self, setup: AgentSetup) -> None:
        from autogen_core.models import SystemMessage

        self._tools = setup.tools
        self._history = [SystemMessage(content=setup.system_prompt)]
        self._max_steps = setup.max_steps

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        from autogen_core.models import AssistantMessage, UserMessage

        if self._tools is None:
            raise AgentError("respond() called before start()")
        meter = TurnMeter(self.client)
        result = AgentTurn(reply="", step_limit_hit=True)
        self._history.append(UserMessage(content=user_message, source="user"))
        with partial_on_failure(result, meter):
            for step in range(1, self._max_steps + 1):
                with model_errors():
                    created = await self.client.create(self._history)
                meter.count(created.usage)
                text = created.content if isinstance(created.content, str) else ""
                self._history.append(AssistantMessage(content=text, source=self.name))
                parsed = parse_step(text)
                if parsed.kind == "respond":
                    result.reply, result.step_limit_hit = parsed.body, False
                    break
                observation = self._observe(parsed, text, f"react_{turn}_{step}", turn, result)
                self._history.append(UserMessage(content=f"Observation: {observation}", source="user"))
        result.usage = meter.finish()
        return result

    def _observe(self, parsed: Step, model_text: str, call_id: str, turn: int, result: AgentTurn) -> str:
        """Carry out an execute step (or explain a malformed one), record it, return the observation."""
        try:
            if parsed.kind == "malformed":
                raise ValueError(f"{parsed.body} {PROTOCOL_HINT}")
            name, args = read_call(parsed.body, self.calls)
        except ValueError as exc:
            text = f"Error: {exc}"
            result.messages.append(
                message("tool", text, turn, call_id=None, name="protocol", is_error=True, model_text=model_text)
            )
            return text
        call = {"id": call_id, "name": name, "arguments": json.dumps(args, ensure_ascii=False, default=repr)}
        result.messages.append(message("assistant", parsed.thought, turn, tool_calls=[call]))
        try:
            text = getattr(self._tools, name)(**args)
        except TypeError as exc:  # wrong or missing argument names
            text = f"Error: {exc}"
        result.messages.append(
            message("tool", text, turn, call_id=call_id, name=name, is_error=text.startswith("Error") or failed(text))
        )
        return text

    def settings(self) -> dict[str, Any]:
        return {"kind": "react", "model": client_settings(self.client)}

    async def close(self) -> None:
        await self.client.close()

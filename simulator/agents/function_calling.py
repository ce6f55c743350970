"""The function-calling agent: an autogen AssistantAgent with the CRM tools as functions (or, with
`tools="mcp"`, reached over MCP through the process's tool gateway: agents/mcp_workbench.py).

One AssistantAgent per episode, driven one `on_messages_stream` per user message; its tool
loop runs up to `max_steps` model calls. Bad calls are observations, never exceptions:
autogen answers malformed JSON arguments and unknown tool names with an error result, the
tools answer bad SOQL with a Salesforce-style error, and (unless `parallel_tool_calls`) a
second call in one model reply is refused with an error so that steps stay comparable with
the ReAct protocol's one action per step. An empty reply earns one notice asking for a
reply; a second empty reply is returned as "" (the person hears nothing).

Transcript messages: each model step that calls tools is an assistant message with
`tool_calls` (its content is any text the model wrote beside the calls), followed by one tool
message per call (`is_error` for refused, malformed or failed calls, Salesforce errors
included). Thoughts before a final reply are not recorded: the evaluators read every
assistant message without tool calls as said to the person.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from simulator.infra.errors import AgentError
from simulator.models.calls import TurnMeter, client_settings, model_errors
from simulator.runs.transcript import message

from ..crm.tools import CrmTools
from .base import Agent, AgentSetup, AgentTurn
from .llm import failed, partial_on_failure
from .prompts import tool_names

if TYPE_CHECKING:
    from autogen_agentchat.agents import AssistantAgent

    from .mcp_workbench import GatewayWorkbench

EMPTY_REPLY_NOTICE = (
    "[notice] Your last message was empty. Reply to the person with text, or call a tool if you still need data."
)
TOOL_TRANSPORTS = ("inprocess", "mcp")  # in-process functions, or the MCP tool gateway (agents/mcp_workbench.py)
ONE_CALL_NOTICE = "Not run: call one tool at a time and read its result before the next call."


class ToolRefused(Exception):
    """A tool call the agent's rules did not run (shown to the model as an error result)."""


# (tools class, tool name) -> (args model, return type, description, JSON schema): built once per
# process. autogen's FunctionTool builds a pydantic args model per instance and its JSON schema on
# every model call (several ms per agent turn); they depend on the tool's signature only.
_TOOL_SPECS: dict[tuple[type, str], tuple] = {}


@functools.cache
def _tool_class() -> type:
    from autogen_core.tools import BaseTool

    class CrmTool(BaseTool):
        """A CRM tool for autogen: a FunctionTool's args model and schema, made once, and the
        episode's gated coroutine."""

        def __init__(
            self, func: Callable[..., Any], name: str, args_type: type, return_type: Any, description: str, schema: Any
        ):
            super().__init__(args_type, return_type, name, description)
            self._func, self._schema = func, schema

        @property
        def schema(self) -> Any:
            return self._schema  # shared by every agent of the process: read only

        async def run(self, args: Any, cancellation_token: Any) -> Any:
            return await self._func(**{field: getattr(args, field) for field in type(args).model_fields})

    return CrmTool


def _crm_tool(tools_class: type, name: str, func: Callable[..., Any]) -> Any:
    """The autogen tool `name` of `tools_class`, calling `func` (its gated bound method)."""
    spec = _TOOL_SPECS.get((tools_class, name))
    if spec is None:
        from autogen_core.tools import FunctionTool

        template = FunctionTool(func, description=inspect.getdoc(func) or "", name=name)
        spec = _TOOL_SPECS[(tools_class, name)] = (
            template.args_type(),
            template.return_type(),
            template.description,
            template.schema,
        )
    return _tool_class()(func, name, *spec)


def crm_functions(tools: CrmTools, names: tuple[str, ...], admit: Callable[[], bool], refusal: str) -> list:
    """The CRM tools `names` as autogen tools (async, so they run on the episode's loop); a call
    that `admit()` refuses is not run and comes back to the model as the error `refusal`."""
    return [_crm_tool(type(tools), name, _gated(getattr(tools, name), admit, refusal)) for name in names]


def _gated(method: Callable[..., str], admit: Callable[[], bool], refusal: str) -> Callable[..., Any]:
    @functools.wraps(method)
    async def tool(*args: Any, **kwargs: Any) -> str:
        if not admit():
            raise ToolRefused(refusal)
        return method(*args, **kwargs)

    return tool


class FunctionCallingAgent(Agent):
    """An agent for models with function calling (OpenAI-style tools)."""

    def __init__(
        self,
        model_client: Any,
        *,
        name: str = "agent",
        parallel_tool_calls: bool = False,
        tools: str = "inprocess",
        schema: str = "prompt",
    ):
        if not name.isidentifier():
            raise ValueError(f"agent name {name!r} must be a Python identifier")
        if tools not in TOOL_TRANSPORTS:
            raise ValueError(f"tools {tools!r} must be one of {', '.join(TOOL_TRANSPORTS)}")
        self.client = model_client
        self.name = name
        self.parallel_tool_calls = parallel_tool_calls
        self.tools = tools
        self.tool_names = tool_names(schema)  # describe too when the prompt lists the objects only
        self._assistant: AssistantAgent | None = None
        self._workbench: GatewayWorkbench | None = None  # tools: mcp
        self._calls_left = 0  # tool calls still allowed in the current model step

    async def start(self, setup: AgentSetup) -> None:
        from autogen_agentchat.agents import AssistantAgent

        if not self.client.model_info.get("function_calling"):
            raise AgentError("the model client does not support function calling; use the react agent")
        self._assistant = AssistantAgent(
            self.name,
            model_client=self.client,
            **await self._tool_source(setup.tools),
            system_message=setup.system_prompt,
            max_tool_iterations=setup.max_steps,
            reflect_on_tool_use=False,
            model_client_stream=False,
        )

    async def _tool_source(self, tools: CrmTools) -> dict[str, Any]:
        """AssistantAgent's `tools` (in-process functions) or `workbench` (tools: mcp, started)."""
        if self.tools == "inprocess":
            return {"tools": crm_functions(tools, self.tool_names, self._admit, ONE_CALL_NOTICE)}
        from .mcp_workbench import GatewayWorkbench

        workbench = self._workbench = GatewayWorkbench(tools, self.tool_names, self._admit, ONE_CALL_NOTICE)
        await workbench.start()
        return {"workbench": workbench}

    def _admit(self) -> bool:
        """Whether a tool call may run in this model step (one per step unless parallel_tool_calls)."""
        if self.parallel_tool_calls:
            return True
        if self._calls_left <= 0:
            return False
        self._calls_left -= 1
        return True

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        if self._assistant is None:
            raise AgentError("respond() called before start()")
        meter = TurnMeter(self.client)
        result = AgentTurn(reply="")
        with partial_on_failure(result, meter):
            await self._run(user_message, turn, meter, result)
            if not result.reply.strip() and not result.step_limit_hit:
                result.messages.append(
                    message("tool", EMPTY_REPLY_NOTICE, turn, call_id=None, name="notice", is_error=True)
                )
                await self._run(EMPTY_REPLY_NOTICE, turn, meter, result)
        result.usage = meter.finish()
        return result

    async def _run(self, text: str, turn: int, meter: TurnMeter, result: AgentTurn) -> None:
        """One on_messages pass: record its events into `result` as they happen."""
        from autogen_agentchat.base import Response
        from autogen_agentchat.messages import TextMessage
        from autogen_core import CancellationToken

        assert self._assistant is not None  # (respond checked it)
        with model_errors():
            stream = self._assistant.on_messages_stream([TextMessage(content=text, source="user")], CancellationToken())
            thought = ""
            async for event in stream:
                if isinstance(event, Response):
                    self._finish(event.chat_message, meter, result)
                else:
                    thought = self._record(event, thought, turn, meter, result)

    def _record(self, event: Any, thought: str, turn: int, meter: TurnMeter, result: AgentTurn) -> str:
        """Record one inner event; returns the thought waiting for the next model output."""
        from autogen_agentchat.messages import ThoughtEvent, ToolCallExecutionEvent, ToolCallRequestEvent

        if isinstance(event, ThoughtEvent):
            return event.content
        if isinstance(event, ToolCallRequestEvent):
            meter.count(event.models_usage)
            self._calls_left = 1
            calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in event.content]
            result.messages.append(message("assistant", thought, turn, tool_calls=calls))
            return ""
        if isinstance(event, ToolCallExecutionEvent):
            result.messages += [
                message(
                    "tool", r.content, turn, call_id=r.call_id, name=r.name, is_error=r.is_error or failed(r.content)
                )
                for r in event.content
            ]
        return thought

    @staticmethod
    def _finish(final: Any, meter: TurnMeter, result: AgentTurn) -> None:
        """The turn's last message: a text reply, or a tool-call summary when steps ran out."""
        from autogen_agentchat.messages import TextMessage

        if not isinstance(final, TextMessage):  # ToolCallSummaryMessage: max_tool_iterations reached
            result.step_limit_hit = True
            return
        meter.count(final.models_usage)
        result.reply = final.content

    def settings(self) -> dict[str, Any]:
        mcp = {"tools": "mcp"} if self.tools == "mcp" else {}
        return {
            "kind": "function_calling",
            "parallel_tool_calls": self.parallel_tool_calls,
            **mcp,
            "model": client_settings(self.client),
        }

    async def close(self) -> None:
        try:
            if self._workbench is not None:
                await self._workbench.stop()
        finally:
            await self.client.close()

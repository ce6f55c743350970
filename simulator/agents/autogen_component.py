"""autogen AgentChat agents and teams as the agent under test (`agent: {kind: autogen, component: FILE}`).

FILE is an agent or team saved in autogen's declarative component format (`dump_component()`, as
JSON or YAML). It is read and checked once, at config load (`read_component`, `check_component`):
every provider is an autogen class (`autogen_agentchat.`, `autogen_core.`, `autogen_ext.`), every
model client is on the run's allowlist (simulator.models.clients.COMPONENT_PROVIDERS) and keeps no
API key, and the whole loads with stand-ins for the model clients and the tools.

Each episode loads it afresh with autogen's own loader, with two things swapped in through slot
components (`EpisodeModel`, `EpisodeTools`):

- model clients: each model client of the file is a run model client (retries, rate limits, the
  response cache, usage, the key from the environment) built from that client's own config, or
  from the agent entry's `model:` when given (then every client of the file is that model);
- CRM tools: every AssistantAgent gets the episode's CRM tools by its `metadata.crm_tools`:
  `functions` (autogen tools over the episode's CrmTools, as the function_calling agent has them),
  `mcp` (an McpWorkbench on the episode's session through the tool gateway: the `serve` extra) or
  `none`. Without it: `functions` for an agent with no tools of its own, else `none`.

Every AssistantAgent's system message is the harness's system prompt (the role, the tools, the
schema, the task's context), then its own. Each person message is one `run_stream(task=...)` of the
same agent or team (never reset within an episode); the last message it produces is the reply.
Every inner message is recorded with its `source` and `models_usage`: tool calls and results as the
built-in agents record them (they count as the episode's tool calls), and what inner agents say to
each other as `tool` messages named `team_message` (or `handoff`, with `target`) without a call id,
so that no scorer reads them as said to the person. The run's step limit caps the tool calls of one
turn across the whole component (a call past it returns an error result). A failure inside the
component (provider error, malformed call, anything it raises) is the agent's: AgentError, with
what it did so far recorded; only a provider refusal no retry fixes (bad key) stops the run.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import hashlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from autogen_core import Component, ComponentBase
from pydantic import BaseModel

from simulator.infra.errors import AgentError, InfraError, is_fatal
from simulator.infra.inputs import TooLarge, parse_yaml
from simulator.infra.secrets import redact
from simulator.models.calls import TurnMeter
from simulator.models.usage import Usage
from simulator.records.episode import HANDOFF, TEAM_MESSAGE
from simulator.runs.transcript import message

from .base import REPLY_MARKS, Agent, AgentSetup, AgentTurn
from .function_calling import crm_functions
from .llm import failed, partial_on_failure
from .prompts import tool_names

ASSISTANT = "autogen_agentchat.agents.AssistantAgent"
# The short provider names autogen's loader resolves (its table is private; a test checks this
# one against it, so a new autogen release that adds a name is noticed).
_OPENAI, _AZURE = (
    "autogen_ext.models.openai.OpenAIChatCompletionClient",
    "autogen_ext.models.openai.AzureOpenAIChatCompletionClient",
)
SHORT_PROVIDERS = {
    "azure_openai_chat_completion_client": _AZURE,
    "AzureOpenAIChatCompletionClient": _AZURE,
    "openai_chat_completion_client": _OPENAI,
    "OpenAIChatCompletionClient": _OPENAI,
    "OllamaChatCompletionClient": "autogen_ext.models.ollama.OllamaChatCompletionClient",
}
AUTOGEN_PACKAGES = ("autogen_agentchat.", "autogen_core.", "autogen_ext.")
CRM_TOOLS = ("functions", "mcp", "none")  # metadata.crm_tools of an AssistantAgent
# A model client config's keys and headers that carry a credential (Azure, Bedrock; headers of any client).
CREDENTIAL_KEYS = ("azure_ad_token", "aws_access_key", "aws_secret_key", "aws_session_token")
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "api-key", "x-api-key"})
RUNNERS = ("agent", "team")  # the component types that can be the agent under test

ClientMaker = Callable[[Any, str], Any]  # (model spec, its config key) -> a run model client

# autogen's runtime logs a team member's exception, traceback and all, before the team re-raises it;
# the episode records it (agent_error). Without a handler of the user's, nothing is printed.
logging.getLogger("autogen_core").addHandler(logging.NullHandler())


class ComponentFileError(ValueError):
    """A component file that cannot be the agent under test: what is wrong, in one line."""


@dataclass(frozen=True)
class ComponentFile:
    """A component file read and checked: its tree with each model client and each tool source
    replaced by a slot, and what fills the slots."""

    tree: dict[str, Any]
    models: tuple[dict[str, Any], ...]  # each model slot's spec ({provider, config}) as the file has it
    tools: tuple[str, ...]  # each tool slot's transport: functions | mcp
    sha256: str

    @property
    def kind(self) -> str:
        return str(self.tree["component_type"])

    def assistants(self) -> list[tuple[str, str]]:
        """(name, crm_tools) of each AssistantAgent, in file order."""
        return [
            (str(config.get("name")), (config.get("metadata") or {}).get("crm_tools", "none"))
            for config in _assistant_configs(self.tree)
        ]


# --- reading and checking a file ----------------------------------------------------------------


def read_component(path: str | Path) -> ComponentFile:
    """The component saved at `path` (JSON or YAML), checked; ComponentFileError if it cannot be one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ComponentFileError(
            f"{path} cannot be read ({type(exc).__name__}: {getattr(exc, 'strerror', None) or exc})"
        ) from None
    try:
        tree = parse_yaml(text)  # (JSON is YAML; libyaml's parser: PyYAML's took most of a team's harness CPU)
    except yaml.YAMLError as exc:
        raise ComponentFileError(f"{path} is not JSON or YAML: {str(exc).splitlines()[0]}") from None
    except TooLarge as exc:
        raise ComponentFileError(f"{path} {exc}") from None
    if not _is_component(tree):
        raise ComponentFileError(f"{path} is not an autogen component (save one with .dump_component())")
    if tree.get("component_type") not in RUNNERS:
        raise ComponentFileError(
            f"{path} is a {tree.get('component_type') or 'untyped'} component; give an agent or a team"
        )
    tree, models, tools = _slotted(copy.deepcopy(tree), path)
    return ComponentFile(tree, tuple(models), tuple(tools), hashlib.sha256(text.encode()).hexdigest())


def check_component(path: str | Path) -> ComponentFile:
    """`read_component`, then load it once with stand-in model clients and tools (no model call)."""
    from autogen_core.models import ModelInfo
    from autogen_core.tools import StaticWorkbench
    from autogen_ext.models.replay import ReplayChatCompletionClient

    component = read_component(path)
    info = ModelInfo(vision=False, function_calling=True, json_output=True, structured_output=True, family="unknown")
    stand_ins = _Slots(
        [ReplayChatCompletionClient(["-"], model_info=info) for _ in component.models],
        [StaticWorkbench([]) for _ in component.tools],
    )
    try:
        _load(component.tree, stand_ins)
    except Exception as exc:  # (whatever autogen raises for a config it cannot build)
        detail = redact(str(exc)).strip().splitlines()[0] if str(exc).strip() else ""
        raise ComponentFileError(f"{path} cannot be loaded: {type(exc).__name__}: {detail}"[:500]) from None
    return component


def _is_component(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("provider"), str) and isinstance(node.get("config"), dict)


def _provider(node: dict[str, Any]) -> str:
    """The node's provider as an import path (autogen's short names resolved, as its loader does)."""
    return SHORT_PROVIDERS.get(node["provider"], node["provider"])


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every component in `node`, outermost first."""
    if _is_component(node):
        yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from _walk(child)


def _assistant_configs(tree: dict[str, Any]) -> list[dict[str, Any]]:
    return [node["config"] for node in _walk(tree) if _provider(node) == ASSISTANT]


def _slotted(tree: dict[str, Any], path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """`tree` with its tool sources and model clients replaced by slots (checked on the way)."""
    tools: list[str] = []
    for config in _assistant_configs(tree):
        mode = _crm_tools(config, path)
        if mode != "none":
            own = [wb for wb in config.get("workbench") or [] if not _empty_workbench(wb)]
            config["workbench"] = [*own, _slot(EpisodeTools, "workbench", len(tools))]
            tools.append(mode)
    models: list[dict[str, Any]] = []
    for node in list(_walk(tree)):
        provider = _provider(node)
        if node.get("component_type") == "model" or ".models." in provider:  # (the type may go unsaid)
            models.append(_model_spec(node, path))
            node.clear()
            node.update(_slot(EpisodeModel, "model", len(models) - 1))
        elif not provider.startswith(AUTOGEN_PACKAGES) and provider != _slot_name(EpisodeTools):
            packages = ", ".join(p + "*" for p in AUTOGEN_PACKAGES)
            raise ComponentFileError(f"{path}: provider {provider!r} is not an autogen class ({packages})")
    return tree, models, tools


def _crm_tools(config: dict[str, Any], path: Path) -> str:
    """The CRM tools an AssistantAgent's config asks for (metadata.crm_tools, by default `functions`
    when it has no tools of its own), written into its metadata."""
    has_own = config.get("tools") or any(not _empty_workbench(wb) for wb in config.get("workbench") or [])
    metadata = dict(config.get("metadata") or {})
    mode = metadata.get("crm_tools") or ("none" if has_own else "functions")
    name = config.get("name")
    if mode not in CRM_TOOLS:
        raise ComponentFileError(
            f"{path}: agent {name!r} has metadata.crm_tools {mode!r}; use one of {', '.join(CRM_TOOLS)}"
        )
    if mode != "none" and config.get("tools"):
        raise ComponentFileError(
            f"{path}: agent {name!r} lists tools of its own outside a workbench, beside which autogen takes "
            "no workbench: set its metadata.crm_tools: none, or save it again with autogen 0.7"
        )
    config["metadata"] = {**metadata, "crm_tools": mode}
    return mode


def _empty_workbench(node: Any) -> bool:
    """A static workbench with no tools (how autogen saves an agent without tools)."""
    return _is_component(node) and node["provider"].endswith("Workbench") and node["config"].get("tools") == []


def _model_spec(node: dict[str, Any], path: Path) -> dict[str, Any]:
    """A model client's component as a run model spec, checked as the run checks one."""
    from simulator.models.clients import ModelConfigError, parse_model_spec

    spec = {"provider": _provider(node), "config": node["config"]}
    secret = _credential(node["config"])
    if secret:  # (a run config may hold a header secret, redacted; a component file is shared: none)
        raise ComponentFileError(
            f"{path}: a model client: config.{secret} is not allowed: keep keys in the environment (api_key_env)"
        )
    try:
        parse_model_spec(spec, where=str(path))
    except ModelConfigError as exc:
        raise ComponentFileError(f"{path}: a model client: {exc.problem}") from None
    return spec


def _credential(config: dict[str, Any]) -> str | None:
    """The key path of a credential a model client's config holds as a value (a token, AWS keys, an
    Authorization header; `api_key` is the model spec's own rule), else None."""
    for key in CREDENTIAL_KEYS:
        if config.get(key) is not None:
            return key
    headers = config.get("default_headers")
    return next(
        (
            f"default_headers.{n}"
            for n in (headers if isinstance(headers, dict) else ())
            if n.lower() in CREDENTIAL_HEADERS
        ),
        None,
    )


# --- the slots: what each episode puts in the file's place ---------------------------------------


class SlotConfig(BaseModel):
    slot: int


@dataclass
class _Slots:
    """The model clients and CRM workbenches of one load, in slot order."""

    models: list[Any]
    tools: list[Any]


_FILLING: contextvars.ContextVar[_Slots] = contextvars.ContextVar("autogen_component_slots")


class EpisodeModel(ComponentBase[SlotConfig], Component[SlotConfig]):
    """A model-client slot: loads as the episode's model client of that slot."""

    component_type = "model"
    component_config_schema = SlotConfig

    @classmethod
    def _from_config(cls, config: SlotConfig) -> Any:
        return _FILLING.get().models[config.slot]


class EpisodeTools(ComponentBase[SlotConfig], Component[SlotConfig]):
    """A tool slot: loads as the episode's CRM workbench of that slot."""

    component_type = "workbench"
    component_config_schema = SlotConfig

    @classmethod
    def _from_config(cls, config: SlotConfig) -> Any:
        return _FILLING.get().tools[config.slot]


def _slot_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__name__}"


def _slot(cls: type, component_type: str, index: int) -> dict[str, Any]:
    return {"provider": _slot_name(cls), "component_type": component_type, "config": {"slot": index}}


def _load(tree: dict[str, Any], slots: _Slots) -> Any:
    """The agent or team of `tree`, its slots filled from `slots`."""
    from autogen_agentchat.agents import BaseChatAgent
    from autogen_agentchat.base import Team

    loader = Team if tree["component_type"] == "team" else BaseChatAgent
    token = _FILLING.set(slots)
    try:
        return loader.load_component(tree)
    finally:
        _FILLING.reset(token)


# --- the agent ------------------------------------------------------------------------------------


class _Clients:
    """The model clients of one episode: read as one for usage (TurnMeter drains them together), and
    watched for a provider refusal no retry fixes (`refusal`), which a team re-raises as a plain
    RuntimeError: the run must still stop on it, as on any agent's."""

    def __init__(self, clients: list[Any]):
        self.clients = clients
        self.refusal: InfraError | None = None
        for client in clients:
            client.create, client.create_stream = (
                self._watched(client.create),
                self._watched_stream(client.create_stream),
            )

    def _note(self, exc: InfraError) -> None:
        if exc.fatal and self.refusal is None:
            self.refusal = exc

    def _watched(self, create: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(create)
        async def watched(*args: Any, **kwargs: Any) -> Any:
            try:
                return await create(*args, **kwargs)
            except InfraError as exc:
                self._note(exc)
                raise

        return watched

    def _watched_stream(self, create_stream: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(create_stream)
        async def watched(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            try:
                async for chunk in create_stream(*args, **kwargs):
                    yield chunk
            except InfraError as exc:
                self._note(exc)
                raise

        return watched

    def drain_usage(self) -> Usage:
        total = Usage()
        for client in self.clients:
            drain = getattr(client, "drain_usage", None)
            if callable(drain):
                total.add(drain())
        return total


class AutogenComponentAgent(Agent):
    """The agent or team saved at `component`, played as the agent under test (see the module
    docstring). `model`: a run model spec that replaces every model client of the file."""

    def __init__(self, component: str, model: Any = None, *, make_client: ClientMaker, where: str = "agent.model"):
        self.path = component
        self.file = read_component(component)
        self.model, self.make_client, self.where = model, make_client, where
        self._clients = _Clients([])
        self._workbenches: list[Any] = []
        self._runner: Any = None
        self._budget = self._used = 0
        self._over_budget = False

    async def start(self, setup: AgentSetup) -> None:
        self._budget = setup.max_steps
        where_own = f"{self.path} (a model client)"
        self._clients = _Clients(
            [
                self.make_client(self.model, self.where) if self.model else self.make_client(spec, where_own)
                for spec in self.file.models
            ]
        )
        self._workbenches = [await self._workbench(setup, mode) for mode in self.file.tools]
        tree = copy.deepcopy(self.file.tree)
        for config in _assistant_configs(tree):
            own = config.get("system_message")
            config["system_message"] = setup.system_prompt + (f"\n\n{own}" if own else "")
        self._runner = _load(tree, _Slots(self._clients.clients, self._workbenches))

    async def _workbench(self, setup: AgentSetup, mode: str) -> Any:
        """The episode's CRM tools for one tool slot: autogen tools, or the MCP gateway (started)."""
        names = tool_names()
        if mode == "mcp":
            from .mcp_workbench import GatewayWorkbench

            workbench = GatewayWorkbench(setup.tools, names, self._admit, self._refusal())
            await workbench.start()
            return workbench
        from autogen_core.tools import StaticWorkbench

        return StaticWorkbench(crm_functions(setup.tools, names, self._admit, self._refusal()))

    def _admit(self) -> bool:
        """Whether one more tool call fits in this turn's step budget (shared by the whole component)."""
        if self._used >= self._budget:
            self._over_budget = True
            return False
        self._used += 1
        return True

    def _refusal(self) -> str:
        return f"Not run: this turn's step budget of {self._budget} tool calls is spent; reply to the person."

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        if self._runner is None:
            raise AgentError("respond() called before start()")
        from autogen_agentchat.messages import TextMessage

        self._used, self._over_budget = 0, False
        meter = TurnMeter(self._clients)
        result = AgentTurn(reply="")
        with partial_on_failure(result, meter), _agent_failures(self.file.kind, self._clients):
            transcript = _Transcript(turn)
            try:
                async for item in self._runner.run_stream(task=TextMessage(content=user_message, source="user")):
                    transcript.take(item, result)
            finally:
                transcript.flush(result)  # (a message said before a failure, if any)
        result.usage = meter.finish()
        result.step_limit_hit = result.step_limit_hit or self._over_budget
        return result

    def settings(self) -> dict[str, Any]:
        from simulator.models.clients import parse_model_spec

        specs = [self.model] if self.model is not None else list(self.file.models)
        return {
            "kind": "autogen",
            "component": Path(self.path).name,
            "component_sha256": self.file.sha256,
            "component_type": self.file.kind,
            "provider": self.file.tree["provider"],
            "agents": [{"name": name, "crm_tools": tools} for name, tools in self.file.assistants()],
            "models": [parse_model_spec(spec, where=self.where).settings() for spec in specs],
        }

    async def close(self) -> None:
        try:
            for workbench in self._workbenches:
                await workbench.stop()
        finally:
            for client in self._clients.clients:
                await client.close()


@contextlib.contextmanager
def _agent_failures(kind: str, clients: _Clients) -> Iterator[None]:
    """Whatever the component raises becomes AgentError, its first line (autogen's team errors go on
    with a traceback); a provider refusal no retry fixes stays the InfraError that stops the run."""
    try:
        yield
    except AgentError:
        raise
    except Exception as exc:
        if is_fatal(exc):
            raise
        if clients.refusal is not None:
            raise clients.refusal from exc
        lines = redact(str(exc)).strip().splitlines()
        raise AgentError(f"the autogen {kind} failed: {type(exc).__name__}: {lines[0] if lines else ''}"[:500]) from exc


def _is_summary(item: Any) -> bool:
    """A tool-call summary: an agent's tool results restated (not recorded twice), or, as the last
    message, an agent that ran out of tool iterations."""
    from autogen_agentchat.messages import ToolCallSummaryMessage

    return isinstance(item, ToolCallSummaryMessage)


class _Transcript:
    """One turn's stream of inner messages, as transcript messages; the last chat message is the reply."""

    def __init__(self, turn: int):
        self.turn = turn
        self.pending: Any = None  # the latest chat message: the reply, unless another follows
        self.thought = ""

    def take(self, item: Any, result: AgentTurn) -> None:
        from autogen_agentchat.base import TaskResult
        from autogen_agentchat.messages import (
            BaseChatMessage,
            ThoughtEvent,
            ToolCallExecutionEvent,
            ToolCallRequestEvent,
        )

        if isinstance(item, TaskResult):
            self._reply(result)
            return
        self.flush(result)  # (something followed it: it was said inside the component)
        if isinstance(item, ThoughtEvent):
            self.thought = item.content
        elif isinstance(item, ToolCallRequestEvent):
            calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in item.content]
            result.messages.append(self._said("assistant", self.thought, item, tool_calls=calls))
            self.thought = ""
        elif isinstance(item, ToolCallExecutionEvent):
            result.messages += [
                self._said(
                    "tool", r.content, item, call_id=r.call_id, name=r.name, is_error=r.is_error or failed(r.content)
                )
                for r in item.content
            ]
        elif isinstance(item, BaseChatMessage) and item.source != "user":
            self.pending = item

    def _said(self, role: str, content: str, item: Any, **extra: Any) -> dict[str, Any]:
        usage = item.models_usage
        if usage is not None:
            extra["models_usage"] = {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens}
        return message(role, content, self.turn, source=item.source, **extra)

    def flush(self, result: AgentTurn) -> None:
        """Record the pending chat message as said inside the component (not to the person)."""
        item, self.pending = self.pending, None
        if item is None or _is_summary(item):
            return
        target = getattr(item, "target", None)
        name = HANDOFF if target is not None else TEAM_MESSAGE
        extra = {"target": target} if target is not None else {}
        result.messages.append(
            self._said("tool", item.to_text(), item, call_id=None, name=name, is_error=False, **extra)
        )

    def _reply(self, result: AgentTurn) -> None:
        """The last chat message is the reply; a tool-call summary means the steps ran out."""
        item, self.pending = self.pending, None
        if item is None or _is_summary(item):
            result.step_limit_hit = True
            return
        result.reply = item.to_text()
        result.reply_marks = {k: v for k, v in self._said("assistant", "", item).items() if k in REPLY_MARKS}

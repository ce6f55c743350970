"""Run configs (YAML): which orgs, tasks, modes, personas, agent, user simulator and limits.

Validated on load; every error names the file, the key (with list indexes, e.g.
`agent[1].model[0]`) and the problem.

The run folder is `<out>/<name>`: `name` is a plain folder name (`[A-Za-z0-9._-]+`, at most
100 characters, not `.` or `..`), so a run never writes outside `out`.

A run is the product of its axes; every list must be non-empty and hold no entry twice:

- `orgs`: a list of {type, seed, scale, injections} (injections: none, the default, or standard |
  dense: instructions planted in free text, scored by evaluators.injections; or targeted: one
  instruction per episode, in a record its task's solution reads, planted in the episode's own
  session (simulator.tasks.targeted): list the clean org beside it, and each attacked episode has
  its clean twin on the same instance, person and trial);  `tasks`: `all` or a list of task types;
  `difficulty`: easy | standard | hard (default standard), or a list of levels: the instance
  set of each org is drawn and posed once per level;
  `modes`: a list of full | concat | sharded | recap | snowball | plan (simulator.runs.transcript.MODES);
  `trials`: a count (trials 0..n-1);
- personas: `personas_per_pool: N` (N personas of each pool, drawn with the run's seed: the
  pool of a task is its audience's) or `personas: [ids]`, an explicit list of persona ids
  (`crmarena personas list`) or pool names (`internal`, `consumer`, `business`: every
  persona of the pool). Each instance is posed by every listed persona of its pool; a pool
  that a task needs and the list does not cover is an error, never a silent gap.
- `agent`: the agent under test, a mapping, or a list of mappings (several agents under
  test). In each mapping, three keys take one value or a list (one agent variant per value,
  the product of the three):

      agent:
        kind: function_calling           # oracle | function_calling | react | plugin | remote | calibration | autogen
        model: [openai/gpt-4o-mini, {model: qwen2.5, base_url: "http://localhost:8080/v1"}]
        temperature: [0.0, 0.7]          # set into every model spec above
        privacy_aware: [false, true]     # the default and the privacy-aware system prompt
        label: mini                      # optional: the variant's name in records and reports

  `temperature` is the one place to sweep a temperature: a model spec is one model, and a
  spec that sets its own temperature cannot be combined with `agent.temperature`.
  A variant's label (in records, `agent.label`) is the entry's `label` followed by the value
  of each axis the entry lists with several values (above: `mini qwen2.5 t=0.7 privacy-aware`);
  without a `label`, it is derived from kind, model, temperature and prompt variant (`oracle`,
  `openai/gpt-4o-mini t=0.7 privacy-aware`, `react ollama/qwen2.5`). Labels must be unique,
  and so must the variants.
  `tools: mcp` gives a function-calling agent its tools through the MCP tool gateway instead of
  in-process functions (same tools, same results). `schema: tool` (function_calling and react; default
  `prompt`: every object's fields in the system prompt, as the original does) lists the objects only and
  gives the agent a `describe(object_name)` tool for their fields (a far shorter prompt; label part
  `schema=tool`). `kind: remote` with `url:` plays an agent served
  behind an HTTP endpoint (docs/remote-agent.md); its `options` go to simulator.agents.remote.
  `kind: autogen` with `component: FILE` (relative to the config file) plays an autogen AgentChat agent or
  team saved with `dump_component()` (simulator.agents.autogen_component, docs/autogen-agents.md); a
  `model:` replaces every model client of the file (and may be swept); its label is `autogen <file stem>`.
  `kind: calibration` is the deliberately leaky oracle (simulator.agents.calibration; `options:
  {after: N}`; or `plugin: module:Class`, a subclass of OracleAgent of your own), an instrument for
  checking the leak and injection metrics, never a result: the harness briefs it with the instance
  and its label says `(briefed oracle)`. Only the harness
  decides which agents are briefed (the oracle, calibration, a remote agent's `briefed: true`): a
  plug-in never is, whatever it says of itself.
  The user simulator (`user`) and the judge are single: they are the instrument, not the
  thing under test.

Each episode's id hashes its cell (instance, org content, mode, persona, trial, agent
variant, user, limits, seed: named in simulator.runs.plan.episode_id), so a config with one agent
gives the ids it always did; an agent or user enters as `RoleConfig.identity` (its ID_FIELDS).

The observer scores each record once its episode ends. `observer:` attaches it live as well:

    observer:
      live: true            # a verdict event after every agent reply (evaluators.live)
      stop_on_leak: false   # true: the first leak ends the episode (termination `leaked`)
      judge: {model: openai/gpt-4o-mini}   # optional: the LLM judge after every reply too

`stop_on_leak` and `judge` need `live: true`. Off (the default), records are as they always were.
`observer.headline` says what the headline figures rest on (evaluators.verdict): `rules` (default),
`judge` or `both` for task completion, or `{completion: ..., leaks: rules | both}` (leaks default
`both`: the rules' leaks and the judge's). Completion by the judge needs a judge (`judge:` or
`observer.judge`). It changes only the reports: a run folder resumes under any headline.
`scorers: [module:Class, {plugin: module:Class, options: {...}}]` adds scorers of your own to the
built-in ones (evaluators/scorers/plugins.py, docs/scorers.md): each episode is scored by them too,
and the summary, report, export and compare show their figures.

How a run is played changes none of its records, and a run folder resumes under any of them:
`concurrency` (episodes in flight), `executor: local` (default; `workers: N` forked processes)
or `executor: ray` (`address:` a cluster, default as `ray.init()`; `workers:` actors, default one
per CPU of the cluster), and `cache` (replay model replies from a file).
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from evaluators.verdict import COMPLETION_BASES, LEAK_BASES, Headline
from simulator.crm.schema import ORG_TYPES
from simulator.crm.store import INJECTIONS
from simulator.infra.inputs import InputFileError, load_yaml
from simulator.infra.validation import Schema, at_least, filled, one_of, problem, validated
from simulator.records import MODES
from simulator.tasks.spec import DEFAULT_LEVEL, LEVELS

AGENT_KINDS = ("oracle", "function_calling", "react", "plugin", "remote", "calibration", "autogen")
TOOL_TRANSPORTS = ("inprocess", "mcp")
USER_KINDS = ("scripted", "llm")
HUMAN_KIND = "human"  # a person in either seat (`crmarena play`); never a kind a config file may give
SCORING_MODES = ("strict", "compat")
MAX_NAME = 100  # characters in a run name
EXECUTORS = ("local", "ray")
DEFAULT_CONFIG = "default.yaml"


class ConfigError(InputFileError):
    """A run config is invalid: which file, which key, what is wrong."""

    @property
    def key(self) -> str:
        return self.field


@dataclass(frozen=True)
class OrgChoice:
    type: str
    seed: int = 0
    scale: float = 1.0
    injections: str = "none"  # none | standard | dense (simulator.crm.generator.injections) | targeted


@functools.lru_cache(maxsize=64)
def component_digest(path: str) -> str:
    """An autogen component file as episode ids hold it: the sha256 of its bytes, so that the same
    file gives the same ids in any folder and on any machine, and an edited file gives new ones."""
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class RoleConfig:
    """The agent under test or the user simulator."""

    kind: str
    model: Any = None  # a model spec (string or mapping), see simulator.models.clients
    plugin: str | None = None  # module:Class for plug-in agents
    options: dict = field(default_factory=dict)
    privacy_aware: bool = False  # agents only: the privacy-aware system prompt
    # agents only, and no part of `identity`: the variant's name, and where in the config it was
    # given (for errors)
    label: str = field(default="", repr=False)
    key: str = field(default="", repr=False, compare=False)
    model_key: str = field(default="", repr=False, compare=False)

    # What makes a role the same role: the fields `identity` names, in this order. Episode ids hash
    # it, so a field added to this class changes no id; add one here only with a new id scheme.
    ID_FIELDS: ClassVar[tuple[str, ...]] = ("kind", "model", "plugin", "options", "privacy_aware")

    def identity(self) -> str:
        """The role as episode ids hash it (simulator.runs.plan.id_tail), built from ID_FIELDS alone:
        the very text the dataclass repr gave when ids were first made, e.g. `RoleConfig(kind='oracle',
        model=None, plugin=None, options={}, privacy_aware=False)`."""
        fields = {name: getattr(self, name) for name in self.ID_FIELDS}
        if "component" in self.options:  # the file's content, not where this machine keeps it
            fields["options"] = {**self.options, "component": component_digest(self.options["component"])}
        return "RoleConfig(" + ", ".join(f"{name}={value!r}" for name, value in fields.items()) + ")"

    @property
    def name(self) -> str:
        """The variant's label, or the one derived from its settings."""
        return self.label or derived_label(self)


@dataclass(frozen=True)
class ObserverConfig:
    """The live observer (`observer:`); off by default."""

    live: bool = False
    stop_on_leak: bool = False
    judge: Any = None  # a model spec: the LLM judge after every agent reply, or None (rules only)
    headline: Headline = Headline()  # what the headline figures rest on (evaluators.verdict)


@dataclass(frozen=True)
class RunConfig:
    name: str
    orgs: tuple[OrgChoice, ...]
    tasks: tuple[str, ...] | None  # None: every type
    instances_per_task: int
    task_seed: int
    modes: tuple[str, ...]
    personas_per_pool: int
    agent: RoleConfig  # the agent under test (the first variant when there are several)
    user: RoleConfig
    judge: Any = None  # a model spec for the LLM judge, or None (rules only)
    scoring: str = "strict"  # the mode the summary and report lead with: strict | compat
    max_user_turns: int = 10
    max_agent_steps: int = 20
    trials: int = 1
    seed: int = 0
    concurrency: int = 8
    workers: int | None = None  # processes (local) or Ray actors to spread episodes over; None: 1 locally,
    # one per CPU of the cluster on Ray
    executor: str = "local"  # local | ray
    address: str | None = None  # the Ray cluster to join (executor ray); None: as ray.init() (a local Ray)
    cache: str | None = None  # a response cache file: model replies are replayed from it when a run repeats
    out: str = "runs"
    path: str = ""
    agents: tuple[RoleConfig, ...] = ()  # every agent variant under test; () means (agent,)
    personas: tuple[str, ...] | None = None  # explicit persona ids / pool names, else personas_per_pool
    difficulty: tuple[str, ...] = (DEFAULT_LEVEL,)  # the levels each instance set is drawn at
    observer: ObserverConfig = ObserverConfig()
    scorers: tuple[dict[str, Any], ...] = ()  # scorers of your own beside the built-in ones: {plugin, options}

    @property
    def agent_variants(self) -> tuple[RoleConfig, ...]:
        return self.agents or (self.agent,)

    def model_roles(self) -> list[tuple[str, Any, int | None, str]]:
        """(role, model spec, agent variant index or None, where it is configured) of each model the
        run calls: the agents under test, then the user, the judge and the live observer's judge."""
        variants = self.agent_variants
        roles: list[tuple[str, Any, int | None, str]] = [
            ("agent" if len(variants) == 1 else f"agent {v.name}", model, i, where)
            for i, v in enumerate(variants)
            for model, where in _agent_models(v)
        ]
        roles += [
            ("user", self.user.model, None, "user.model"),
            ("judge", self.judge, None, "judge.model"),
            ("observer judge", self.observer.judge, None, "observer.judge.model"),
        ]
        return [role for role in roles if role[1] is not None]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --- agent variants: their labels and model specs -----------------------------------------


def _agent_models(role: RoleConfig) -> list[tuple[Any, str]]:
    """(model spec, where it is configured) of each model an agent variant calls: its `model`, or an
    autogen component's own model clients (each distinct one once) when it has none."""
    if role.kind != "autogen" or role.model is not None:
        return [(role.model, role.model_key or "agent.model")]
    from simulator.agents.autogen_component import read_component

    specs = {_fingerprint(spec): spec for spec in read_component(role.options["component"]).models}
    return [(spec, f"{role.key}.component") for spec in specs.values()]


def _has_model(kind: str) -> bool:
    return kind in ("function_calling", "react", "llm")


def _model_name(spec: Any) -> str:
    """A short name of a model spec as written: "openai/gpt-4o-mini", a server's model name,
    or a component's configured model."""
    if isinstance(spec, str):
        return spec
    if not isinstance(spec, dict):
        return str(spec)
    if isinstance(spec.get("config"), dict):  # a full autogen component config
        return str(spec["config"].get("model") or spec.get("provider"))
    model, provider = spec.get("model"), spec.get("provider")
    return f"{provider}/{model}" if provider and model and "base_url" not in spec else str(model or provider)


def _temperature(spec: Any) -> Any:
    """The temperature a model spec sets itself (top level, or in a component's config), or None."""
    if not isinstance(spec, dict):
        return None
    if isinstance(spec.get("config"), dict):
        return spec["config"].get("temperature")
    return spec.get("temperature")


def _with_temperature(spec: Any, temperature: float) -> Any:
    """`spec` with `temperature` set (in a component's config, where component options live)."""
    if isinstance(spec, str):
        return {"model": spec, "temperature": temperature}
    if isinstance(spec.get("config"), dict):
        return {**spec, "config": {**spec["config"], "temperature": temperature}}
    return {**spec, "temperature": temperature}


def derived_label(role: RoleConfig) -> str:
    """The default name of an agent variant: its kind (left out for function calling with a
    model) or plugin, its model, its temperature when set, and `privacy-aware` when it is."""
    parts = (
        [role.plugin or role.kind]
        if role.kind in ("plugin", "calibration")
        else []
        if role.kind == "function_calling" and role.model is not None
        else [role.kind]
    )
    if role.kind == "autogen":
        parts.append(Path(role.options["component"]).stem)
    if role.model is not None:
        parts.append(_model_name(role.model))
        if _temperature(role.model) is not None:
            parts.append(f"t={_temperature(role.model):g}")
    if role.kind == "remote":
        from simulator.infra.secrets import public_url

        parts.append(public_url(role.options["url"]).split("://", 1)[1].rstrip("/"))
        if role.options.get("briefed"):
            parts.append("briefed")  # (told the answers: calibration of the remote path, never a result)
    if role.options.get("tools") == "mcp":
        parts.append("mcp")
    if role.options.get("schema", "prompt") != "prompt":
        parts.append(f"schema={role.options['schema']}")
    if role.privacy_aware:
        parts.append("privacy-aware")
    return " ".join(parts)


# --- validation ----------------------------------------------------------------------------


def _fingerprint(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, default=str)


def _one_or_list(value: Any) -> Any:
    """A sweep axis takes one value or a list of them: one value is a list of one."""
    return value if isinstance(value, list) else [value]


def _each_once(values: list[Any]) -> list[Any]:
    """A sweep axis: at least one value, none twice."""
    if not values:
        raise problem("is an empty list: give at least one value")
    seen: dict[str, int] = {}
    for i, value in enumerate(values):
        if _fingerprint(value) in seen:
            raise problem(f"repeats {{here}}[{seen[_fingerprint(value)]}]; list each value once", i)
        seen[_fingerprint(value)] = i
    return values


def _model_spec(spec: Any) -> Any:
    """A model spec as written: a non-empty string or a mapping (simulator.models.clients reads it)."""
    if not isinstance(spec, (str, dict)):
        raise problem(f"must be a string or a mapping, got {spec!r}")
    if isinstance(spec, str) and not spec.strip():
        raise problem("must be a model spec, e.g. openai/gpt-4o-mini")
    return spec


ModelSpec = Annotated[Any, AfterValidator(_model_spec)]
Count = Annotated[int, at_least(1)]
T = TypeVar("T")
Sweep = Annotated[list[T], BeforeValidator(_one_or_list), AfterValidator(_each_once)]  # one value or a list


class OrgFile(Schema):
    """One org of `orgs:`."""

    type: Annotated[str, one_of(ORG_TYPES)]
    seed: int = 0
    scale: Annotated[float, at_least(0.01)] = 1.0
    injections: Annotated[str, one_of(INJECTIONS)] = "none"


def _owned(kind: str, owner: str, key: str, value: object, need: str) -> None:
    """`key` is given exactly when the agent is of kind `owner`: else "a{n} {owner} agent needs
    {need}" or "only a{n} {owner} agent takes a {key} (this one is {kind})", at `key`."""
    article = "an" if owner[0] in "aeiou" else "a"
    if (kind == owner) != (value is not None):
        raise problem(
            f"{article} {owner} agent needs {need}"
            if kind == owner
            else f"only {article} {owner} agent takes a {key} (this one is {kind})",
            key,
        )


class AgentFile(Schema):
    """One `agent:` entry; `model`, `temperature` and `privacy_aware` are its sweep axes."""

    kind: Annotated[str, one_of(AGENT_KINDS)]
    model: Sweep[ModelSpec] | None = None
    plugin: str | None = None
    options: dict[str, Any] = {}
    privacy_aware: Sweep[bool] = [False]
    temperature: Sweep[Annotated[float, at_least(0)]] | None = None
    label: Annotated[str, filled("must not be empty")] | None = None
    url: str | None = None
    component: Annotated[str, filled("must name a component file")] | None = None
    tools: Annotated[str, one_of(TOOL_TRANSPORTS)] = "inprocess"
    schema_: str = Field("prompt", alias="schema")

    @model_validator(mode="after")
    def _kind_rules(self) -> AgentFile:
        kind = self.kind
        if _has_model(kind) and self.model is None:
            raise problem(f"a {kind} agent needs a model, e.g. openai/gpt-4o-mini", "model")
        if kind == "oracle" and (self.options or self.model is not None):
            raise problem(f"a {kind} agent takes no model and no options", "options" if self.options else "model")
        if kind in ("remote", "calibration") and self.model is not None:
            raise problem(
                f"a {kind} agent takes no model" + (" (it runs its own, behind its url)" if kind == "remote" else ""),
                "model",
            )
        if self.temperature is not None and not (_has_model(kind) or (kind == "autogen" and self.model)):
            raise problem(
                f"a {kind} agent has no model to take a temperature"
                + (" (give it a model:, or set the temperature in its component file)" if kind == "autogen" else ""),
                "temperature",
            )
        for i, spec in enumerate(self.model or ()):
            if self.temperature is not None and _temperature(spec) is not None:
                raise problem(
                    "sets its own temperature, and agent.temperature is given too: give the temperature in one place",
                    "model",
                    i,
                )
        _owned(
            kind,
            "autogen",
            "component",
            self.component,
            "component: FILE (an agent or team saved with dump_component())",
        )
        if kind == "autogen" and self.options:
            raise problem("an autogen agent takes no options: its settings are in its component file", "options")
        if kind == "plugin" and not self.plugin:
            raise problem("a plugin agent needs plugin: module:Class", "plugin")
        if self.plugin and kind not in ("plugin", "calibration"):
            raise problem(f"only plugin and calibration agents take a plugin (this one is {kind})", "plugin")
        self._transport_rules()
        return self

    def _transport_rules(self) -> None:
        """A remote agent's `url`, a function-calling agent's `tools` and a model agent's `schema`."""
        kind = self.kind
        _owned(kind, "remote", "url", self.url, "url: http://host:port/path")
        if self.url is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", self.url):
            raise problem(f"must be an http:// or https:// URL, got {self.url!r}", "url")
        if self.url is not None and "url" in self.options:
            raise problem("give the url once, as agent.url", "options")
        if self.tools != "inprocess" and kind != "function_calling":
            raise problem(f"tools: {self.tools} is for function_calling agents (this one is {kind})", "tools")
        from simulator.agents.prompts import SCHEMA_MODES

        if self.schema_ not in SCHEMA_MODES:
            raise problem(f"{self.schema_!r} is not one of {', '.join(SCHEMA_MODES)}", "schema")
        if self.schema_ != "prompt" and kind not in ("function_calling", "react"):
            raise problem(
                f"schema: {self.schema_} is for function_calling and react agents (this one is {kind})", "schema"
            )

    def kind_options(self) -> dict[str, Any]:
        """`options`, with the url, `tools: mcp` and `schema: tool` carried in them (so that entries
        without them keep the ids they always had)."""
        extra = {
            "component": self.component,
            "url": self.url,
            "tools": None if self.tools == "inprocess" else self.tools,
            "schema": None if self.schema_ == "prompt" else self.schema_,
        }
        return {**self.options, **{key: value for key, value in extra.items() if value is not None}}


def _agent_entries(value: Any) -> Any:
    """`agent:` is a mapping or a list of mappings: one mapping is a list of one."""
    if isinstance(value, dict):
        return [value]
    if not isinstance(value, list):
        raise problem(f"must be a mapping or a list of mappings, got {value!r}")
    return value


class UserFile(Schema):
    """The user simulator: one role (it is the instrument, not swept)."""

    kind: Annotated[str, one_of(USER_KINDS)]
    model: ModelSpec | None = None
    plugin: str | None = None
    options: dict[str, Any] = {}
    privacy_aware: bool = False

    @classmethod
    def not_mapping(cls, data: Any) -> str:
        if isinstance(data, list):
            return "must be a mapping: the user simulator is one, not a list (sweep the agent under test instead)"
        return super().not_mapping(data)

    @field_validator("model", mode="before")
    @classmethod
    def _one_model(cls, model: Any) -> Any:
        if isinstance(model, list):
            raise problem("the user simulator takes one model spec, not a list")
        return model

    @model_validator(mode="after")
    def _kind_rules(self) -> UserFile:
        if _has_model(self.kind) and self.model is None:
            raise problem(f"a {self.kind} user needs a model, e.g. openai/gpt-4o-mini", "model")
        if self.kind == "scripted" and (self.options or self.model is not None):
            raise problem(f"a {self.kind} user takes no model and no options", "options" if self.options else "model")
        return self


class JudgeFile(Schema):
    model: ModelSpec


class LimitsFile(Schema):
    max_user_turns: Count = 10
    max_agent_steps: Count = 20


class HeadlineFile(Schema):
    """`headline: rules | judge | both` (completion), or `{completion: ..., leaks: rules | both}`."""

    completion: Annotated[str, one_of(COMPLETION_BASES)] = "rules"
    leaks: Annotated[str, one_of(LEAK_BASES)] = "both"


class ObserverFile(Schema):
    """`observer: {live, stop_on_leak, judge, headline}` (see the module docstring)."""

    live: bool = False
    stop_on_leak: bool = False
    judge: JudgeFile | None = None
    headline: Annotated[HeadlineFile, BeforeValidator(lambda h: {"completion": h} if isinstance(h, str) else h)] = (
        HeadlineFile()
    )

    @model_validator(mode="after")
    def _needs_live(self) -> ObserverFile:
        for key in ("stop_on_leak", "judge"):
            if getattr(self, key) and not self.live:
                raise problem("needs observer.live: true (the live observer gives it)", key)
        return self


def _tasks(tasks: Any) -> Any:
    """`tasks: all`, or a list of task type names, each once."""
    if tasks != "all" and not (isinstance(tasks, list) and tasks and all(isinstance(t, str) for t in tasks)):
        raise problem("must be 'all' or a list of task type names")
    return tasks


def _modes(modes: list[str]) -> list[str]:
    if not modes:
        raise problem(f"is an empty list: give at least one of {', '.join(MODES)}")
    for mode in modes:
        if mode not in MODES:
            raise problem(f"{mode!r} is not one of {', '.join(MODES)}")
    return modes


def _listed_once(values: Any) -> Any:
    if isinstance(values, list) and len(set(values)) != len(values):
        raise problem(f"lists an entry twice ({next(v for i, v in enumerate(values) if v in values[:i])!r})")
    return values


def _name(name: str) -> str:
    """`name:` the run folder's name inside `out`: letters, digits, `.`, `_`, `-`, at most MAX_NAME
    of them (well within a file system's 255); never `.` or `..`."""
    if not re.fullmatch(r"[A-Za-z0-9._-]+", name) or name in (".", ".."):
        raise problem(f"{name!r} is not a folder name: use only A-Za-z0-9._- (no path separators), and not . or ..")
    if len(name) > MAX_NAME:
        raise problem(f"is {len(name)} characters long; use at most {MAX_NAME}")
    return name


def _level(level: str) -> str:
    if level not in LEVELS:
        raise problem(f"{level!r} is not a level: use {', '.join(LEVELS)} (or a list of them)")
    return level


def _scorer(entry: Any) -> Any:
    """A scorer of your own: `module:Class` is `{plugin: module:Class}`."""
    return {"plugin": entry} if isinstance(entry, str) else entry


class ScorerFile(Schema):
    """`{plugin: module:Class, options: {...}}` (evaluators/scorers/plugins.py)."""

    plugin: str
    options: dict[str, Any] = {}

    @classmethod
    def not_mapping(cls, data: Any) -> str:
        return "must be 'module:Class' or {plugin: module:Class, options: {...}}"

    @model_validator(mode="after")
    def _named(self) -> ScorerFile:
        if self.plugin.count(":") != 1 or not all(self.plugin.split(":")):
            raise problem(f"{self.plugin!r}: expected 'module:Class'")
        return self


class RunFile(Schema):
    """A run config file (see the module docstring)."""

    tasks: Annotated[Any, AfterValidator(_tasks), AfterValidator(_listed_once)] = "all"
    modes: Annotated[list[str], AfterValidator(_modes), AfterValidator(_listed_once)]
    agent: Annotated[
        list[AgentFile], BeforeValidator(_agent_entries), filled("is an empty list: give at least one agent")
    ]
    name: Annotated[str, AfterValidator(_name)]
    orgs: Annotated[list[OrgFile], filled("must list at least one org")]
    instances_per_task: Count
    task_seed: int = 0
    personas_per_pool: Count = 2
    personas: Annotated[list[str], AfterValidator(_each_once)] | None = None
    user: UserFile
    judge: JudgeFile | None = None
    scoring: Annotated[str, one_of(SCORING_MODES)] = "strict"
    limits: LimitsFile = LimitsFile()
    trials: Count = 1
    seed: int = 0
    concurrency: Count = 8
    workers: Count | None = None
    executor: Annotated[str, one_of(EXECUTORS)] = "local"
    address: str | None = None
    cache: bool | str = False
    out: str = "runs"
    difficulty: Sweep[Annotated[str, AfterValidator(_level)]] = [DEFAULT_LEVEL]
    observer: ObserverFile | None = None
    scorers: list[Annotated[ScorerFile, BeforeValidator(_scorer)]] = []

    @field_validator("orgs")
    @classmethod
    def _orgs_once(cls, orgs: list[OrgFile]) -> list[OrgFile]:
        if len(set(orgs)) != len(orgs):
            raise problem("lists the same org twice")
        return orgs

    @model_validator(mode="after")
    def _together(self, info: ValidationInfo) -> RunFile:
        if self.personas is not None and "personas_per_pool" in self.model_fields_set:
            raise problem("give personas (a list) or personas_per_pool (a count), not both", "personas")
        if self.personas is not None:
            _check_personas(self.personas)
        if self.address is not None and self.executor != "ray":
            raise problem("is the Ray cluster to join; it needs `executor: ray`", "address")
        observer = self.observer or ObserverFile()
        if observer.headline.completion != "rules" and observer.judge is None and self.judge is None:
            raise problem(
                f"completion by {observer.headline.completion} needs a judge (judge: {{model: ...}}, "
                "or observer.judge)",
                "observer",
                "headline",
            )
        return self


def _check_personas(items: list[str]) -> None:
    """Explicit persona ids or pool names: each known, and no persona whose pool is listed too."""
    from simulator.users.personas import POOLS, load_personas

    known = load_personas()
    for i, name in enumerate(items):
        if name not in known and name not in POOLS:
            raise problem(
                f"unknown persona {name!r}: give a persona id (`crmarena personas list`) or a pool "
                f"({', '.join(POOLS)})",
                "personas",
                i,
            )
    pools = {p for p in items if p in POOLS}
    for i, name in enumerate(items):  # a pool name draws its standard people, not its pressure ones
        if name in known and known[name].pool in pools and not known[name].family:
            raise problem(f"{name!r} is already in the {known[name].pool} pool, which is listed too", "personas", i)


def parse_config(data: Any, path: Path) -> RunConfig:
    """A validated RunConfig from the parsed YAML `data` of file `path`."""
    file = validated(RunFile, data, path, ConfigError)
    agents = _agents(file.agent, data["agent"], path)
    user, limits, observer = file.user, file.limits, file.observer or ObserverFile()
    return RunConfig(
        name=file.name,
        orgs=tuple(OrgChoice(o.type, o.seed, float(o.scale), o.injections) for o in file.orgs),
        tasks=None if file.tasks == "all" else tuple(file.tasks),
        instances_per_task=file.instances_per_task,
        task_seed=file.task_seed,
        modes=tuple(file.modes),
        personas_per_pool=file.personas_per_pool,
        agent=agents[0],
        agents=agents,
        personas=None if file.personas is None else tuple(file.personas),
        user=RoleConfig(user.kind, user.model, user.plugin, user.options, user.privacy_aware),
        judge=file.judge.model if file.judge else None,
        scoring=file.scoring,
        max_user_turns=limits.max_user_turns,
        max_agent_steps=limits.max_agent_steps,
        trials=file.trials,
        seed=file.seed,
        concurrency=file.concurrency,
        workers=file.workers,
        executor=file.executor,
        address=file.address,
        cache=_cache(file.cache),
        out=file.out,
        path=str(path),
        difficulty=tuple(file.difficulty),
        scorers=tuple(s.model_dump() for s in file.scorers),
        observer=ObserverConfig(
            observer.live,
            observer.stop_on_leak,
            observer.judge.model if observer.judge else None,
            Headline(observer.headline.completion, observer.headline.leaks),
        ),
    )


def _agents(entries: list[AgentFile], raw: Any, path: Path) -> tuple[RoleConfig, ...]:
    """Every agent variant under test, from the `agent:` entries (`raw`: as written); no two alike."""
    listed = raw if isinstance(raw, list) else [raw]
    keys = [f"agent[{i}]" for i in range(len(raw))] if isinstance(raw, list) else ["agent"]
    variants: list[RoleConfig] = []
    by_settings: dict[str, RoleConfig] = {}
    by_label: dict[str, RoleConfig] = {}
    for entry, written, key in zip(entries, listed, keys):
        if entry.component is not None:
            entry = entry.model_copy(update={"component": _component(entry.component, path, key)})
        for v in _agent_variants(entry, written, key):
            same = by_settings.get(v.identity())
            if same is not None:
                raise ConfigError(
                    path,
                    v.key,
                    f"is the same agent as {same.key} (kind, model, options and prompt variant): list each agent once",
                )
            same = by_label.get(v.label)
            if same is not None:
                raise ConfigError(
                    path,
                    f"{v.key}.label",
                    f"{v.label!r} also names a variant of {same.key}; give each agent its own label",
                )
            by_settings[v.identity()], by_label[v.label] = v, v
            variants.append(v)
    return tuple(variants)


def _component(written: str, path: Path, key: str) -> str:
    """An autogen agent's component file (relative to the config file), checked: its absolute path."""
    from simulator.agents.autogen_component import ComponentFileError, check_component

    file = (Path(path).parent / written).resolve()
    try:
        check_component(file)
    except ComponentFileError as exc:
        raise ConfigError(path, f"{key}.component", str(exc)) from None
    return str(file)


def _agent_variants(entry: AgentFile, written: dict[str, Any], key: str) -> list[RoleConfig]:
    """The variants of one agent entry (at `key`, as `written`): the product of its model, temperature
    and prompt-variant lists, each labelled by the entry's label and the values of the axes it sweeps."""
    swept = {
        name
        for name in ("model", "temperature", "privacy_aware")
        if isinstance(written.get(name), list) and len(written[name]) > 1
    }
    options = entry.kind_options()
    variants = []
    for i, spec in enumerate(entry.model or [None]):
        model_key = f"{key}.model[{i}]" if isinstance(written.get("model"), list) else f"{key}.model"
        temperatures: list[float | None] = [None] if entry.temperature is None else list(entry.temperature)
        for t in temperatures:
            for private in entry.privacy_aware:
                model = spec if t is None else _with_temperature(spec, float(t))
                role = RoleConfig(entry.kind, model, entry.plugin, options, private, key=key, model_key=model_key)
                if entry.label:  # the entry's label, then the values of the axes it sweeps
                    parts = [entry.label]
                    if "model" in swept:
                        parts.append(_model_name(spec))
                    if "temperature" in swept:
                        parts.append(f"t={t:g}")
                    if "privacy_aware" in swept:
                        parts.append("privacy-aware" if private else "default")
                    role = replace(role, label=" ".join(parts))
                variants.append(replace(role, label=role.name))
    return variants


def _cache(value: bool | str) -> str | None:
    """`cache: true` (the user cache folder's responses.sqlite), a file path, or off."""
    if value is True:
        from simulator.models.cache import cache_dir

        return str(cache_dir() / "responses.sqlite")
    return value or None


def default_config_path() -> Path:
    return Path(str(resources.files("configs"))) / DEFAULT_CONFIG


def load_config(path: str | Path | None = None) -> RunConfig:
    """The run config at `path` (default: the shipped offline default)."""
    path = Path(path) if path else default_config_path()
    try:
        data = load_yaml(path, ConfigError)
    except UnicodeDecodeError as exc:
        raise ConfigError(
            path,
            "(file)",
            f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
            f"{exc.start}): a run config is a YAML text file",
        ) from None
    return parse_config(data, path)

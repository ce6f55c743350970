"""Run configs (YAML): which orgs, tasks, modes, personas, agent, user simulator and limits.

Validated on load; every error names the file, the key (with list indexes, e.g.
`agent[1].model[0]`) and the problem.

The run folder is `<out>/<name>`: `name` is a plain folder name (`[A-Za-z0-9._-]+`, at most
100 characters, not `.` or `..`), so a run never writes outside `out`.

A run is the product of its axes; every list must be non-empty and hold no entry twice:

- `orgs`: a list of {type, seed, scale, injections} (injections: none, the default, or standard:
  instructions planted in free text, scored by evaluators.injections);  `tasks`: `all` or a list of task types;
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
        kind: function_calling           # oracle | function_calling | react | plugin | remote | calibration
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

import re
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from evaluators.verdict import COMPLETION_BASES, LEAK_BASES, Headline

from simulator.crm.schema import ORG_TYPES
from simulator.crm.store import INJECTIONS
from simulator.infra.inputs import InputFileError, load_yaml
from simulator.tasks.spec import DEFAULT_LEVEL, LEVELS
from simulator.records import MODES

AGENT_KINDS = ("oracle", "function_calling", "react", "plugin", "remote", "calibration")
TOOL_TRANSPORTS = ("inprocess", "mcp")
USER_KINDS = ("scripted", "llm")
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
    injections: str = "none"  # none | standard (simulator.crm.generator.injections)


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
        return "RoleConfig(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.ID_FIELDS) + ")"

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
        roles = [("agent" if len(variants) == 1 else f"agent {v.name}", v.model, i, v.model_key or "agent.model")
                 for i, v in enumerate(variants)]
        roles += [("user", self.user.model, None, "user.model"), ("judge", self.judge, None, "judge.model"),
                  ("observer judge", self.observer.judge, None, "observer.judge.model")]
        return [role for role in roles if role[1] is not None]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --- validation ----------------------------------------------------------------------------

class _Reader:
    """Typed access to one mapping of a config file, with errors that say where."""

    def __init__(self, data: Any, path: Path, prefix: str = ""):
        if not isinstance(data, dict):
            raise ConfigError(path, prefix or "(file)", "must be a mapping")
        self.data, self.path, self.prefix = data, path, prefix

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def check_known(self, known: set[str]) -> None:
        unknown = sorted(set(self.data) - known)
        if unknown:
            raise ConfigError(self.path, self.key(unknown[0]), f"unknown key (known: {', '.join(sorted(known))})")

    def get(self, name: str, kind: type | tuple, default: Any = ..., minimum: float | None = None) -> Any:
        if name not in self.data:
            if default is ...:
                raise ConfigError(self.path, self.key(name), "missing")
            return default
        value = self.data[name]
        if isinstance(value, bool) and kind in (int, float, (int, float)) or not isinstance(value, kind):
            raise ConfigError(self.path, self.key(name), f"must be {_kind_name(kind)}, got {value!r}")
        if minimum is not None and value < minimum:
            raise ConfigError(self.path, self.key(name), f"must be at least {minimum}, got {value}")
        return value

    def values(self, name: str, kind: type | tuple, default: Any = ...) -> list[Any]:
        """A key that takes one value or a list of them (a sweep axis): the values, each of
        `kind`, at least one, none twice. Errors name the list index (`agent.model[1]`)."""
        if name not in self.data:
            if default is ...:
                raise ConfigError(self.path, self.key(name), "missing")
            return [default]
        value = self.data[name]
        items = value if isinstance(value, list) else [value]
        if not items:
            raise ConfigError(self.path, self.key(name), "is an empty list: give at least one value")
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            where = f"{self.key(name)}[{i}]" if isinstance(value, list) else self.key(name)
            if isinstance(item, bool) and kind in (int, float, (int, float)) or not isinstance(item, kind):
                raise ConfigError(self.path, where, f"must be {_kind_name(kind)}, got {item!r}")
            fingerprint = _fingerprint(item)
            if fingerprint in seen:
                raise ConfigError(self.path, where,
                                  f"repeats {self.key(name)}[{seen[fingerprint]}]; list each value once")
            seen[fingerprint] = i
        return items

    def choice(self, name: str, allowed: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(name, str, default)
        if value not in allowed:
            raise ConfigError(self.path, self.key(name), f"{value!r} is not one of {', '.join(allowed)}")
        return value


def _kind_name(kind: type | tuple) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false", list: "a list",
             dict: "a mapping"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _orgs(r: _Reader) -> tuple[OrgChoice, ...]:
    items = r.get("orgs", list)
    if not items:
        raise ConfigError(r.path, "orgs", "must list at least one org")
    orgs = []
    for i, item in enumerate(items):
        o = _Reader(item, r.path, f"orgs[{i}]")
        o.check_known({"type", "seed", "scale", "injections"})
        orgs.append(OrgChoice(o.choice("type", ORG_TYPES), o.get("seed", int, 0),
                              float(o.get("scale", (int, float), 1.0, minimum=0.01)),
                              o.choice("injections", INJECTIONS, "none")))
    if len(set(orgs)) != len(orgs):
        raise ConfigError(r.path, "orgs", "lists the same org twice")
    return tuple(orgs)


def _fingerprint(value: Any) -> str:
    import json
    return json.dumps(value, sort_keys=True, default=str)


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
    parts = [role.plugin or role.kind] if role.kind in ("plugin", "calibration") else \
        [] if role.kind == "function_calling" and role.model is not None else [role.kind]
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


AGENT_KEYS = {"kind", "model", "plugin", "options", "privacy_aware", "temperature", "label", "url", "tools", "schema"}


def _kind_options(a: _Reader, kind: str) -> dict:
    """The entry's `options`, with a remote agent's `url`, a function-calling agent's `tools: mcp` and a
    model agent's `schema: tool` carried in them (so that entries without them keep the ids they always had)."""
    options = dict(a.get("options", dict, {}))
    url = a.get("url", str, None)
    if (kind == "remote") != (url is not None):
        raise ConfigError(a.path, a.key("url"), "a remote agent needs url: http://host:port/path" if kind == "remote"
                          else f"only a remote agent takes a url (this one is {kind})")
    if url is not None:
        if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url):
            raise ConfigError(a.path, a.key("url"), f"must be an http:// or https:// URL, got {url!r}")
        if "url" in options:
            raise ConfigError(a.path, a.key("options"), "give the url once, as agent.url")
        options["url"] = url
    tools = a.choice("tools", TOOL_TRANSPORTS, "inprocess")
    if tools != "inprocess":
        if kind != "function_calling":
            raise ConfigError(a.path, a.key("tools"), f"tools: {tools} is for function_calling agents "
                              f"(this one is {kind})")
        options["tools"] = tools
    from simulator.agents.prompts import SCHEMA_MODES
    schema = a.choice("schema", SCHEMA_MODES, "prompt")
    if schema != "prompt":
        if kind not in ("function_calling", "react"):
            raise ConfigError(a.path, a.key("schema"), f"schema: {schema} is for function_calling and react agents "
                              f"(this one is {kind})")
        options["schema"] = schema
    return options


def _agent_variants(a: _Reader) -> list[RoleConfig]:
    """The variants of one agent entry: the product of its model, temperature and prompt-variant lists."""
    a.check_known(AGENT_KEYS)
    kind = a.choice("kind", AGENT_KINDS)
    if _has_model(kind) and a.data.get("model") is None:
        raise ConfigError(a.path, a.key("model"), f"a {kind} agent needs a model, e.g. openai/gpt-4o-mini")
    if kind == "oracle" and (a.data.get("options") or a.data.get("model") is not None):
        raise ConfigError(a.path, a.key("options" if a.data.get("options") else "model"),
                          f"a {kind} agent takes no model and no options")
    if kind in ("remote", "calibration") and a.data.get("model") is not None:
        raise ConfigError(a.path, a.key("model"), f"a {kind} agent takes no model" + (
            " (it runs its own, behind its url)" if kind == "remote" else ""))
    models = a.values("model", (str, dict), None) if a.data.get("model") is not None else [None]
    for i, spec in enumerate(models):
        if isinstance(spec, str) and not spec.strip():
            raise ConfigError(a.path, _at(a, "model", i), "must be a model spec, e.g. openai/gpt-4o-mini")
    if "temperature" in a.data and not _has_model(kind):
        raise ConfigError(a.path, a.key("temperature"), f"a {kind} agent has no model to take a temperature")
    temperatures = a.values("temperature", (int, float), None) if "temperature" in a.data else [None]
    for i, t in enumerate(temperatures):
        if t is not None and t < 0:
            raise ConfigError(a.path, _at(a, "temperature", i), f"must be at least 0, got {t}")
    if "temperature" in a.data:
        for i, spec in enumerate(models):
            if _temperature(spec) is not None:
                raise ConfigError(a.path, _at(a, "model", i), "sets its own temperature, and agent.temperature "
                                  "is given too: give the temperature in one place")
    privacy = a.values("privacy_aware", bool, False)
    plugin = a.get("plugin", str, None)
    if kind == "plugin" and not plugin:
        raise ConfigError(a.path, a.key("plugin"), "a plugin agent needs plugin: module:Class")
    if plugin and kind not in ("plugin", "calibration"):
        raise ConfigError(a.path, a.key("plugin"), f"only plugin and calibration agents take a plugin (this one is "
                          f"{kind})")
    options = _kind_options(a, kind)
    label = a.get("label", str, "")
    if "label" in a.data and not label.strip():
        raise ConfigError(a.path, a.key("label"), "must not be empty")
    swept = {name for name in ("model", "temperature", "privacy_aware") if isinstance(a.data.get(name), list)
             and len(a.data[name]) > 1}
    variants = []
    for i, spec in enumerate(models):
        for t in temperatures:
            for private in privacy:
                model = spec if t is None else _with_temperature(spec, float(t))
                role = RoleConfig(kind, model, plugin, options, private, key=a.prefix,
                                  model_key=_at(a, "model", i))
                if label:  # the entry's label, then the values of the axes it sweeps
                    parts = [label]
                    if "model" in swept:
                        parts.append(_model_name(spec))
                    if "temperature" in swept:
                        parts.append(f"t={t:g}")
                    if "privacy_aware" in swept:
                        parts.append("privacy-aware" if private else "default")
                    role = replace(role, label=" ".join(parts))
                variants.append(replace(role, label=role.name))
    return variants


def _at(r: _Reader, name: str, i: int) -> str:
    """The key of value `i` of a key that may be a list."""
    return f"{r.key(name)}[{i}]" if isinstance(r.data.get(name), list) else r.key(name)


def _agents(r: _Reader) -> tuple[RoleConfig, ...]:
    """Every agent variant under test, from `agent:` (a mapping or a list of mappings)."""
    raw = r.data.get("agent")
    if "agent" not in r.data:
        raise ConfigError(r.path, "agent", "missing")
    if isinstance(raw, list):
        if not raw:
            raise ConfigError(r.path, "agent", "is an empty list: give at least one agent")
        entries = [_Reader(item, r.path, f"agent[{i}]") for i, item in enumerate(raw)]
    elif isinstance(raw, dict):
        entries = [_Reader(raw, r.path, "agent")]
    else:
        raise ConfigError(r.path, "agent", f"must be a mapping or a list of mappings, got {raw!r}")
    variants: list[RoleConfig] = []
    by_settings: dict[str, RoleConfig] = {}
    by_label: dict[str, RoleConfig] = {}
    for entry in entries:
        for v in _agent_variants(entry):
            same = by_settings.get(v.identity())
            if same is not None:
                raise ConfigError(r.path, v.key, f"is the same agent as {same.key} (kind, model, options and "
                                                 "prompt variant): list each agent once")
            same = by_label.get(v.label)
            if same is not None:
                raise ConfigError(r.path, f"{v.key}.label", f"{v.label!r} also names a variant of {same.key}; "
                                                            "give each agent its own label")
            by_settings[v.identity()], by_label[v.label] = v, v
            variants.append(v)
    return tuple(variants)


def _personas(r: _Reader) -> tuple[str, ...] | None:
    """Explicit persona ids or pool names (`personas:`), or None for `personas_per_pool`."""
    if "personas" not in r.data:
        return None
    if "personas_per_pool" in r.data:
        raise ConfigError(r.path, "personas", "give personas (a list) or personas_per_pool (a count), not both")
    items = r.data["personas"]
    if not isinstance(items, list):
        raise ConfigError(r.path, "personas", f"must be a list of persona ids or pool names, got {items!r}")
    items = r.values("personas", str)
    from simulator.users.personas import POOLS, load_personas
    known = load_personas()
    for i, name in enumerate(items):
        if name not in known and name not in POOLS:
            raise ConfigError(r.path, f"personas[{i}]", f"unknown persona {name!r}: give a persona id "
                                                        f"(`crmarena personas list`) or a pool ({', '.join(POOLS)})")
    pools = {p for p in items if p in POOLS}
    for i, name in enumerate(items):  # a pool name draws its standard people, not its pressure ones
        if name in known and known[name].pool in pools and not known[name].family:
            raise ConfigError(r.path, f"personas[{i}]", f"{name!r} is already in the {known[name].pool} pool, "
                                                        "which is listed too")
    return tuple(items)


def _role(r: _Reader, name: str, kinds: tuple[str, ...]) -> RoleConfig:
    """The user simulator: one role (it is the instrument, not swept)."""
    if isinstance(r.data.get(name), list):
        raise ConfigError(r.path, name, f"must be a mapping: the {name} simulator is one, not a list "
                                        "(sweep the agent under test instead)")
    role = _Reader(r.get(name, dict), r.path, name)
    role.check_known({"kind", "model", "plugin", "options", "privacy_aware"})
    kind = role.choice("kind", kinds)
    model = role.data.get("model")
    if isinstance(model, list):
        raise ConfigError(r.path, role.key("model"), f"the {name} simulator takes one model spec, not a list")
    if kind in ("function_calling", "react", "llm") and model is None:
        raise ConfigError(r.path, role.key("model"), f"a {kind} {name} needs a model, e.g. openai/gpt-4o-mini")
    if model is not None and not isinstance(model, (str, dict)):
        raise ConfigError(r.path, role.key("model"), "must be a model spec string or mapping")
    if kind in ("oracle", "scripted") and (role.data.get("options") or model is not None):
        raise ConfigError(r.path, role.key("options" if role.data.get("options") else "model"),
                          f"a {kind} {name} takes no model and no options")
    plugin = role.get("plugin", str, None)
    if kind == "plugin" and not plugin:
        raise ConfigError(r.path, role.key("plugin"), "a plugin agent needs plugin: module:Class")
    return RoleConfig(kind, model, plugin, role.get("options", dict, {}), role.get("privacy_aware", bool, False))


def _judge(r: _Reader) -> Any:
    """The judge's model spec (`judge: {model: ...}`), or None."""
    if "judge" not in r.data or r.data["judge"] is None:
        return None
    judge = _Reader(r.data["judge"], r.path, r.key("judge"))
    judge.check_known({"model"})
    return judge.get("model", (str, dict))


def _observer(r: _Reader) -> ObserverConfig:
    """`observer: {live, stop_on_leak, judge, headline}` (see the module docstring)."""
    if r.data.get("observer") is None:
        return ObserverConfig()
    o = _Reader(r.data["observer"], r.path, "observer")
    o.check_known({"live", "stop_on_leak", "judge", "headline"})
    settings = ObserverConfig(o.get("live", bool, False), o.get("stop_on_leak", bool, False), _judge(o),
                              _headline(o))
    for key in ("stop_on_leak", "judge"):
        if getattr(settings, key) and not settings.live:
            raise ConfigError(r.path, o.key(key), "needs observer.live: true (the live observer gives it)")
    if settings.headline.completion != "rules" and settings.judge is None and _judge(r) is None:
        raise ConfigError(r.path, o.key("headline"), f"completion by {settings.headline.completion} needs a judge "
                          "(judge: {model: ...}, or observer.judge)")
    return settings


def _headline(o: _Reader) -> Headline:
    """`headline: rules | judge | both` (completion), or `{completion: ..., leaks: rules | both}`."""
    if isinstance(o.data.get("headline"), dict):
        h = _Reader(o.data["headline"], o.path, o.key("headline"))
        h.check_known({"completion", "leaks"})
        return Headline(h.choice("completion", COMPLETION_BASES, "rules"), h.choice("leaks", LEAK_BASES, "both"))
    return Headline(o.choice("headline", COMPLETION_BASES, "rules"))


def parse_config(data: Any, path: Path) -> RunConfig:
    r = _Reader(data, path)
    r.check_known({"name", "orgs", "tasks", "instances_per_task", "task_seed", "modes", "personas_per_pool",
                   "personas", "agent", "user", "judge", "scoring", "limits", "trials", "seed", "concurrency",
                   "workers", "executor", "address", "cache", "out", "difficulty", "observer", "scorers"})
    tasks = r.data.get("tasks", "all")
    if tasks != "all" and not (isinstance(tasks, list) and tasks and all(isinstance(t, str) for t in tasks)):
        raise ConfigError(path, "tasks", "must be 'all' or a list of task type names")
    modes = tuple(r.get("modes", list))
    if not modes:
        raise ConfigError(path, "modes", f"is an empty list: give at least one of {', '.join(MODES)}")
    for mode in modes:
        if mode not in MODES:
            raise ConfigError(path, "modes", f"{mode!r} is not one of {', '.join(MODES)}")
    for key, values in (("modes", modes), ("tasks", tasks if isinstance(tasks, list) else [])):
        if len(set(values)) != len(values):
            twice = next(v for i, v in enumerate(values) if v in values[:i])
            raise ConfigError(path, key, f"lists an entry twice ({twice!r})")
    agents = _agents(r)
    limits = _Reader(r.get("limits", dict, {}), path, "limits")
    limits.check_known({"max_user_turns", "max_agent_steps"})
    return RunConfig(
        name=_name(r), orgs=_orgs(r), tasks=None if tasks == "all" else tuple(tasks),
        instances_per_task=r.get("instances_per_task", int, minimum=1), task_seed=r.get("task_seed", int, 0),
        modes=modes, personas_per_pool=r.get("personas_per_pool", int, 2, minimum=1),
        agent=agents[0], agents=agents, personas=_personas(r), user=_role(r, "user", USER_KINDS), judge=_judge(r),
        scoring=r.choice("scoring", SCORING_MODES, "strict"),
        max_user_turns=limits.get("max_user_turns", int, 10, minimum=1),
        max_agent_steps=limits.get("max_agent_steps", int, 20, minimum=1),
        trials=r.get("trials", int, 1, minimum=1), seed=r.get("seed", int, 0),
        concurrency=r.get("concurrency", int, 8, minimum=1), workers=r.get("workers", int, None, minimum=1),
        executor=r.choice("executor", EXECUTORS, "local"), address=_address(r), cache=_cache(r), out=r.get("out", str, "runs"), path=str(path),
        difficulty=_difficulty(r), observer=_observer(r), scorers=_scorers(r))


def _scorers(r: _Reader) -> tuple[dict[str, Any], ...]:
    """`scorers: [module:Class, {plugin: module:Class, options: {...}}, ...]`: scorers of your own
    (evaluators/scorers/plugins.py; the run checks each can be built before any episode)."""
    out = []
    for i, entry in enumerate(r.get("scorers", list, [])):
        where = f"scorers[{i}]"
        if isinstance(entry, dict):
            s = _Reader(entry, r.path, where)
            s.check_known({"plugin", "options"})
            entry = {"plugin": s.get("plugin", str), "options": s.get("options", dict, {})}
        elif isinstance(entry, str):
            entry = {"plugin": entry, "options": {}}
        else:
            raise ConfigError(r.path, where, "must be 'module:Class' or {plugin: module:Class, options: {...}}")
        if entry["plugin"].count(":") != 1 or not all(entry["plugin"].split(":")):
            raise ConfigError(r.path, where, f"{entry['plugin']!r}: expected 'module:Class'")
        out.append(entry)
    return tuple(out)


def _difficulty(r: _Reader) -> tuple[str, ...]:
    """`difficulty:` one level or a list of them (each once), of easy | standard | hard."""
    levels = r.values("difficulty", str, DEFAULT_LEVEL)
    for i, level in enumerate(levels):
        if level not in LEVELS:
            where = f"difficulty[{i}]" if isinstance(r.data.get("difficulty"), list) else "difficulty"
            raise ConfigError(r.path, where, f"{level!r} is not a level: use {', '.join(LEVELS)} (or a list of them)")
    return tuple(levels)


def _name(r: _Reader) -> str:
    """`name:` the run folder's name inside `out`: letters, digits, `.`, `_`, `-`, at most MAX_NAME
    of them (well within a file system's 255); never `.` or `..`."""
    name = r.get("name", str)
    if not re.fullmatch(r"[A-Za-z0-9._-]+", name) or name in (".", ".."):
        raise ConfigError(r.path, "name", f"{name!r} is not a folder name: use only A-Za-z0-9._- "
                          "(no path separators), and not . or ..")
    if len(name) > MAX_NAME:
        raise ConfigError(r.path, "name", f"is {len(name)} characters long; use at most {MAX_NAME}")
    return name


def _address(r: _Reader) -> str | None:
    """`address:` (a Ray cluster) only means something with `executor: ray`."""
    address = r.get("address", str, None)
    if address is not None and r.data.get("executor") != "ray":
        raise ConfigError(r.path, "address", "is the Ray cluster to join; it needs `executor: ray`")
    return address


def _cache(r: _Reader) -> str | None:
    """`cache: true` (the user cache folder's responses.sqlite), a file path, or off."""
    value = r.get("cache", (bool, str), False)
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
        raise ConfigError(path, "(file)", f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
                          f"{exc.start}): a run config is a YAML text file") from None
    return parse_config(data, path)

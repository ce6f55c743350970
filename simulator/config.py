"""Run configs (YAML): which orgs, tasks, modes, personas, agent, user simulator and limits.

Validated on load; every error names the file, the key and the problem.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .crm.schema import ORG_TYPES
from .inputs import InputFileError, load_yaml
from .users.base import MODES

AGENT_KINDS = ("oracle", "function_calling", "react", "plugin")
USER_KINDS = ("scripted", "llm")
SCORING_MODES = ("strict", "compat")
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


@dataclass(frozen=True)
class RoleConfig:
    """The agent under test or the user simulator."""

    kind: str
    model: Any = None  # a model spec (string or mapping), see simulator.models
    plugin: str | None = None  # module:Class for plug-in agents
    options: dict = field(default_factory=dict)
    privacy_aware: bool = False  # agents only: the privacy-aware system prompt


@dataclass(frozen=True)
class RunConfig:
    name: str
    orgs: tuple[OrgChoice, ...]
    tasks: tuple[str, ...] | None  # None: every type
    instances_per_task: int
    task_seed: int
    modes: tuple[str, ...]
    personas_per_pool: int
    agent: RoleConfig
    user: RoleConfig
    judge: Any = None  # a model spec for the LLM judge, or None (rules only)
    scoring: str = "strict"  # the mode the summary and report lead with: strict | compat
    max_user_turns: int = 10
    max_agent_steps: int = 20
    trials: int = 1
    seed: int = 0
    concurrency: int = 8
    workers: int = 1  # processes to spread episodes over (CPU-bound runs on several cores)
    out: str = "runs"
    path: str = ""

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
        o.check_known({"type", "seed", "scale"})
        orgs.append(OrgChoice(o.choice("type", ORG_TYPES), o.get("seed", int, 0),
                              float(o.get("scale", (int, float), 1.0, minimum=0.01))))
    if len(set(orgs)) != len(orgs):
        raise ConfigError(r.path, "orgs", "lists the same org twice")
    return tuple(orgs)


def _role(r: _Reader, name: str, kinds: tuple[str, ...]) -> RoleConfig:
    role = _Reader(r.get(name, dict), r.path, name)
    role.check_known({"kind", "model", "plugin", "options", "privacy_aware"})
    kind = role.choice("kind", kinds)
    model = role.data.get("model")
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
    judge = _Reader(r.data["judge"], r.path, "judge")
    judge.check_known({"model"})
    return judge.get("model", (str, dict))


def parse_config(data: Any, path: Path) -> RunConfig:
    r = _Reader(data, path)
    r.check_known({"name", "orgs", "tasks", "instances_per_task", "task_seed", "modes", "personas_per_pool",
                   "agent", "user", "judge", "scoring", "limits", "trials", "seed", "concurrency", "workers", "out"})
    tasks = r.data.get("tasks", "all")
    if tasks != "all" and not (isinstance(tasks, list) and tasks and all(isinstance(t, str) for t in tasks)):
        raise ConfigError(path, "tasks", "must be 'all' or a list of task type names")
    modes = tuple(r.get("modes", list))
    for mode in modes:
        if mode not in MODES:
            raise ConfigError(path, "modes", f"{mode!r} is not one of {', '.join(MODES)}")
    for key, values in (("modes", modes), ("tasks", tasks if isinstance(tasks, list) else [])):
        if len(set(values)) != len(values):
            raise ConfigError(path, key, "lists an entry twice")
    limits = _Reader(r.get("limits", dict, {}), path, "limits")
    limits.check_known({"max_user_turns", "max_agent_steps"})
    return RunConfig(
        name=r.get("name", str), orgs=_orgs(r), tasks=None if tasks == "all" else tuple(tasks),
        instances_per_task=r.get("instances_per_task", int, minimum=1), task_seed=r.get("task_seed", int, 0),
        modes=modes, personas_per_pool=r.get("personas_per_pool", int, 2, minimum=1),
        agent=_role(r, "agent", AGENT_KINDS), user=_role(r, "user", USER_KINDS), judge=_judge(r),
        scoring=r.choice("scoring", SCORING_MODES, "strict"),
        max_user_turns=limits.get("max_user_turns", int, 10, minimum=1),
        max_agent_steps=limits.get("max_agent_steps", int, 20, minimum=1),
        trials=r.get("trials", int, 1, minimum=1), seed=r.get("seed", int, 0),
        concurrency=r.get("concurrency", int, 8, minimum=1), workers=r.get("workers", int, 1, minimum=1),
        out=r.get("out", str, "runs"), path=str(path))


def default_config_path() -> Path:
    return Path(str(resources.files("configs"))) / DEFAULT_CONFIG


def load_config(path: str | Path | None = None) -> RunConfig:
    """The run config at `path` (default: the shipped offline default)."""
    path = Path(path) if path else default_config_path()
    return parse_config(load_yaml(path, ConfigError), path)

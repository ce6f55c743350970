"""Plug-in agents: any Python class implementing `Agent`, named `module:Class` in the config.

A plug-in is handed what every agent under test is handed (agents/base.py: the AgentSetup and
the person's messages), never the instance. It runs in the run's own process, so it is trusted
code: the seal stops accidents and reading what it is handed, not a plug-in set on cheating.
"""

from __future__ import annotations

from typing import Any

from simulator.infra.inputs import named_class

from .base import Agent


class PluginError(ValueError):
    """A plug-in agent path that does not name a usable Agent class (a config error)."""


def load_agent_class(path: str) -> type[Agent]:
    """The Agent subclass named by `path` ("package.module:ClassName")."""
    cls = named_class(
        path,
        Agent,
        base_name="simulator.agents.base.Agent",
        said=f"agent plug-in {path!r}",
        example="my_agents.custom:MyAgent",
        error=PluginError,
    )
    class_name = path.partition(":")[2]
    abstract = getattr(cls, "__abstractmethods__", None)
    if abstract:
        missing = ", ".join(sorted(abstract))
        raise PluginError(f"agent plug-in {path!r}: {class_name} does not implement {missing}")
    return cls


def make_plugin_agent(path: str, options: dict[str, Any] | None = None) -> Agent:
    """An instance of the plug-in class, constructed with the config's `options` as keywords."""
    cls = load_agent_class(path)
    options = dict(options or {})
    try:
        return cls(**options)
    except TypeError as exc:
        raise PluginError(f"agent plug-in {path!r}: cannot be built with options {sorted(options)}: {exc}") from None

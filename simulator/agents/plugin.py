"""Plug-in agents: any Python class implementing `Agent`, named `module:Class` in the config.

A plug-in is handed what every agent under test is handed (agents/base.py: the AgentSetup and
the person's messages), never the instance. It runs in the run's own process, so it is trusted
code: the seal stops accidents and reading what it is handed, not a plug-in set on cheating.
"""

from __future__ import annotations

import importlib
from typing import Any

from .base import Agent


class PluginError(ValueError):
    """A plug-in agent path that does not name a usable Agent class (a config error)."""


def load_agent_class(path: str) -> type[Agent]:
    """The Agent subclass named by `path` ("package.module:ClassName")."""
    module_name, sep, class_name = path.partition(":")
    if not sep or not module_name or not class_name:
        raise PluginError(f"agent plug-in {path!r}: expected 'module:Class', e.g. 'my_agents.custom:MyAgent'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise PluginError(f"agent plug-in {path!r}: module {exc.name!r} not found (is it on PYTHONPATH?)") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise PluginError(f"agent plug-in {path!r}: module {module_name!r} has no attribute {class_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Agent)) or cls is Agent:
        raise PluginError(f"agent plug-in {path!r}: {class_name} is not a subclass of "
                          "simulator.agents.base.Agent")
    if getattr(cls, "__abstractmethods__", None):
        missing = ", ".join(sorted(cls.__abstractmethods__))
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

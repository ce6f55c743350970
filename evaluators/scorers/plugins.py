"""Scorers of your own in a run: `scorers:` in the run config names them (`module:Class`, or
`{plugin: module:Class, options: {...}}`), and every step that scores or reads scores (the worker
that scores a played episode, `crmarena score`, the summary, the report, `crmarena export` and
`compare`) uses the run's registry: the built-in units, then these (docs/scorers.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from simulator.infra.inputs import named_class

from .registry import AnswerMetric, Registry, Scorer, Unit, default


class ScorerPluginError(ValueError):
    """A `scorers:` entry that does not name a usable scorer; the message names it and why."""


def spec_of(entry: Any) -> dict[str, Any]:
    """An entry of `scorers:` as {"plugin": "module:Class", "options": {...}}."""
    plugin, options = (entry, {}) if isinstance(entry, str) else (entry.get("plugin"), entry.get("options") or {})
    if not isinstance(plugin, str) or not isinstance(options, Mapping):
        raise ScorerPluginError(f"{entry!r}: expected 'module:Class' or {{plugin: module:Class, options: {{...}}}}")
    return {"plugin": plugin, "options": dict(options)}


def load(entry: Any) -> Unit:
    """The scorer (or answer metric) an entry of `scorers:` names, built with its options."""
    spec = spec_of(entry)
    cls = named_class(
        spec["plugin"],
        (Scorer, AnswerMetric),
        base_name="evaluators.scorers.Scorer or AnswerMetric",
        said=repr(spec["plugin"]),
        example="my_scorers.budget:ToolCalls",
        error=ScorerPluginError,
    )
    try:
        unit: Unit = cls(**spec["options"])  # (named_class checked it is a Scorer or AnswerMetric class)
        return unit
    except TypeError as exc:
        raise ScorerPluginError(
            f"{spec['plugin']!r}: cannot be built with options {sorted(spec['options'])}: {exc}"
        ) from None


def registry_for(entries: Iterable[Any] = ()) -> Registry:
    """The default registry extended with the scorers `entries` name (the default itself for none)."""
    return _registry(json.dumps([spec_of(e) for e in entries], sort_keys=True))


@lru_cache(maxsize=8)
def _registry(specs: str) -> Registry:
    units = [load(spec) for spec in json.loads(specs)]
    try:
        return default().extended(*units) if units else default()
    except ValueError as exc:  # (a name, section or column another scorer has)
        raise ScorerPluginError(str(exc)) from None

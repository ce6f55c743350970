"""Task type name -> its TaskGenerator class (families register themselves on import)."""

from __future__ import annotations

from importlib import import_module

from .base import TaskGenerator

FAMILIES = ("service_analytics", "sales_analytics", "text_tasks", "policy", "workflow", "confidentiality")
_REGISTRY: dict[str, type[TaskGenerator]] = {}
_loaded = False


def register(cls: type[TaskGenerator]) -> type[TaskGenerator]:
    """Class decorator: make `cls` the generator of task type `cls.name`."""
    if cls.name in _REGISTRY:
        raise ValueError(f"task type {cls.name!r} registered twice")
    _REGISTRY[cls.name] = cls
    return cls


def registry() -> dict[str, type[TaskGenerator]]:
    """Every registered task type (imports the family modules on first use)."""
    global _loaded
    if not _loaded:
        for family in FAMILIES:
            import_module(f"{__package__}.families.{family}")
        _loaded = True
    return _REGISTRY


def generator_class(name: str) -> type[TaskGenerator]:
    try:
        return registry()[name]
    except KeyError:
        raise KeyError(f"no generator for task type {name!r}") from None

"""Wrong-way import arrows that were removed stay removed (DESIGN.md, "Layers"): every import of
a module, at any depth (function-level ones too), read from its source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported(path: Path) -> set[str]:
    """The absolute names of the modules a source file imports."""
    package = path.relative_to(ROOT).parts[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) + 1 - node.level] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def sources(*places: str) -> list[Path]:
    return sorted(p for place in places for p in ([ROOT / place] if place.endswith(".py")
                                                   else (ROOT / place).rglob("*.py")))


@pytest.mark.parametrize("places, banned", [
    (("simulator/crm",), "simulator.agents"),
    (("simulator/models.py", "simulator/model_calls.py", "simulator/errors.py", "simulator/users",
      "evaluators"), "simulator.agents"),
    (("simulator/episode.py", "simulator/users", "simulator/replies", "simulator/tasks", "simulator/agents"),
     "evaluators"),
    (("evaluators/stats.py",), "evaluators.scorers"),  # the scorers build on the statistics, never the reverse
    (("evaluators/stats.py",), "evaluators.milestones"),
    (("evaluators/stats.py",), "evaluators.pressure"),
    (("evaluators/stats.py",), "evaluators.summary"),
    (("evaluators/scorers", "evaluators/injections.py"), "simulator.crm.generator"),  # task YAML, not generator
])
def test_no_wrong_way_imports(places, banned):
    found = {f"{p.relative_to(ROOT)}: {name}" for p in sources(*places) for name in imported(p)
             if name == banned or name.startswith(banned + ".")}
    assert not found, sorted(found)

"""Wrong-way import arrows that were removed stay removed (DESIGN.md, "Layers"): every import of
a module, at any depth (function-level ones too), read from its source; and the package's import
graph (benchmarks/import_graph.py) has no circle."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from benchmarks.import_graph import circles, forbidden, graph

ROOT = Path(__file__).resolve().parent.parent


def imported(path: Path) -> set[str]:
    """The absolute names of the modules a source file imports."""
    package = path.relative_to(ROOT).parts[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) + 1 - node.level] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def sources(*places: str) -> list[Path]:
    return sorted(
        p for place in places for p in ([ROOT / place] if place.endswith(".py") else (ROOT / place).rglob("*.py"))
    )


@pytest.mark.parametrize(
    "places, banned",
    [
        (("simulator/crm",), "simulator.agents"),
        (
            (
                "simulator/models/clients.py",
                "simulator/models/calls.py",
                "simulator/infra/errors.py",
                "simulator/users",
                "evaluators",
            ),
            "simulator.agents",
        ),
        (
            (
                "simulator/runs/episode.py",
                "simulator/users",
                "simulator/replies",
                "simulator/tasks",
                "simulator/agents",
                "simulator/executors",
            ),
            "evaluators",
        ),
        (("evaluators/stats.py",), "evaluators.scorers"),  # the scorers build on the statistics, never the reverse
        (("evaluators/stats.py",), "evaluators.milestones"),
        (("evaluators/stats.py",), "evaluators.pressure"),
        (("evaluators/stats.py",), "evaluators.summary"),
        (("evaluators/scorers", "evaluators/injections.py"), "simulator.crm.generator"),  # task YAML, not generator
    ],
)
def test_no_wrong_way_imports(places, banned):
    found = {
        f"{p.relative_to(ROOT)}: {name}"
        for p in sources(*places)
        for name in imported(p)
        if name == banned or name.startswith(banned + ".")
    }
    assert not found, sorted(found)


SUBPACKAGES = sorted(p.parent.name for p in (ROOT / "simulator").glob("*/*.py"))
# What each low subpackage may import of the project (README "Layout"): infrastructure nothing,
# model access only infrastructure, the org (its text writer uses a model and a prompt), records,
# and reply reading nothing of the run.
MAY_IMPORT = {
    "infra": {"infra"},
    "models": {"infra", "models"},
    "records": {"records"},
    "replies": {"replies", "infra", "crm"},
    "crm": {"crm", "infra", "models", "prompts", "records"},
}


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_low_subpackages_import_only_below_them(package):
    allowed = MAY_IMPORT[package]
    found = {
        f"{p.relative_to(ROOT)}: {name}"
        for p in sources(f"simulator/{package}")
        for name in imported(p)
        if name.startswith(("simulator.", "evaluators"))
        and name != "simulator.__version__"
        and (name.split(".")[0] == "evaluators" or name.split(".")[1] not in allowed)
    }
    assert not found, sorted(found)


def test_every_folder_of_modules_is_a_package_setuptools_ships():
    """A folder of modules without __init__.py imports from a checkout (a namespace package) but is
    left out of the built package; simulator/runs/__init__.py once was, ignored by a `runs/` rule."""
    from setuptools import find_packages

    found = set(find_packages(str(ROOT), include=["simulator*", "evaluators*", "crmarena_sim*"]))
    folders = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("simulator", "evaluators", "crmarena_sim")
        for p in (ROOT / top).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert sorted(folders - found) == []
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "*__init__.py"], capture_output=True, text=True)
    if tracked.returncode == 0:  # (a checkout: each package's __init__.py is in git, not only on this disk)
        inits = {".".join(Path(p).parent.parts) for p in tracked.stdout.split()}
        assert sorted(folders - inits) == []


def test_every_subpackage_says_what_it_holds_and_the_readme_lists_it():
    readme = (ROOT / "README.md").read_text()
    layout = readme[readme.index("## Layout") :]
    for name in SUBPACKAGES:
        doc = ast.get_docstring(ast.parse((ROOT / "simulator" / name / "__init__.py").read_text()))
        assert doc and len(doc) > 60, f"simulator/{name}/__init__.py needs a docstring paragraph"
        assert f"simulator/{name}/" in layout, f"README Layout does not list simulator/{name}/"
    loose = sorted(p.name for p in (ROOT / "simulator").glob("*.py"))
    assert loose == ["__init__.py", "cli.py", "inspect_task.py"], loose


def test_nothing_low_imports_the_run_its_executors_or_the_cli():
    assert forbidden(graph(ROOT)) == []


def test_no_import_circle_holds_a_simulator_module():
    assert [c for c in circles(graph(ROOT)) if any(m.startswith("simulator.") for m in c)] == []


def test_no_import_circles():
    assert circles(graph(ROOT)) == []


def test_the_graph_reads_every_kind_of_import(tmp_path):
    """Function-level and relative imports count; `from pkg import name` is the module pkg.name
    when there is one, else pkg; only the project's packages are drawn."""
    (tmp_path / "evaluators").mkdir()
    (tmp_path / "simulator" / "executors").mkdir(parents=True)
    for path, text in {
        "evaluators/__init__.py": "",
        "simulator/__init__.py": "",
        "simulator/executors/__init__.py": "from .play import Settings\n",
        "simulator/executors/play.py": "import json\nSettings = 1\n",
        "simulator/a.py": "def f():\n    from . import b\n",
        "simulator/b.py": "from simulator.a import f\n",
        "evaluators/low.py": "import os\nfrom simulator.executors import Settings\n",
    }.items():
        (tmp_path / path).write_text(text)
    edges = graph(tmp_path)
    assert edges["evaluators.low"] == {"simulator.executors"}
    assert edges["simulator.executors"] == {"simulator.executors.play"}
    assert circles(edges) == [["simulator.a", "simulator.b"]]
    assert forbidden(edges) == ["evaluators.low -> simulator.executors"]

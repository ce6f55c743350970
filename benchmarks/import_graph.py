"""The package's module import graph (issue 28): its circles and its wrong-way imports.

    python benchmarks/import_graph.py [--root DIR]

Every import counts, function-level ones too, read from the source with `ast`: relative imports
are resolved, and `from pkg import name` is an arrow to the module `pkg.name` when that is a
module, else to `pkg`. Only the project's own packages (top-level folders with an
`__init__.py`) are drawn. Prints each circle (a strongly connected component of more than one
module) and each forbidden import (a module under `evaluators/` or `simulator/crm/` importing
`simulator.runs.run`, `simulator.executors` or `simulator.cli`); exits 1 if there is either.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOW = ("evaluators", "simulator.crm")  # the modules under these ...
FORBIDDEN = ("simulator.runs.run", "simulator.executors", "simulator.cli")  # ... never import these


def modules(root: Path) -> dict[str, Path]:
    """Every module of the project's packages: dotted name -> source file."""
    found = {}
    for init in sorted(root.glob("*/__init__.py")):
        for path in sorted(init.parent.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if all(p.isidentifier() for p in parts):  # (not a data folder such as `.work`)
                found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _owner(name: str, known: dict[str, Path]) -> str | None:
    """The project module `name` stands for: itself, else its nearest known parent (a name defined
    in a module); None outside the project."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, known: dict[str, Path]) -> set[str]:
    """The project modules that module `name` imports, at any depth of its source."""
    path = known[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) + 1 - node.level] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            targets += [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names
            ]
    return {owner for t in targets if (owner := _owner(t, known)) is not None and owner != name}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    known = modules(root)
    return {name: imports(name, known) for name in known}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion),
    each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def forbidden(edges: dict[str, set[str]]) -> list[str]:
    """`module -> target` for each import of a FORBIDDEN module by a module under LOW."""
    return sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        if _within(name, LOW)
        for target in targets
        if _within(target, FORBIDDEN)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to read (default: this one)")
    args = parser.parse_args(argv)
    edges = graph(args.root)
    found, wrong = circles(edges), forbidden(edges)
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports; {len(found)} circle(s)")
    for n, circle in enumerate(found, 1):
        print(f"  {n}. ({len(circle)} modules) {', '.join(circle)}")
    print(f"{len(wrong)} forbidden import(s) (from {' or '.join(LOW)} to {', '.join(FORBIDDEN)})")
    for line in wrong:
        print(f"  {line}")
    return 1 if found or wrong else 0


if __name__ == "__main__":
    sys.exit(main())

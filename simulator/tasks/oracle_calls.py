"""The oracle's tool calls (and the naive solver's success) on the instances a run poses, solved once
per machine.

A run records on every instance how many tool calls the oracle's solve needed (issue 12 item 5)
and, when it poses more than one difficulty level, whether the naive solver (naive_solver.py)
solves it (issue 30: the report's by-difficulty table shows what each level asks; a separate
store, `<cache>/naive_solved/`, kept the same way).
Solving costs about 10 ms an instance, more than drawing it, so the counts are kept in the cache
folder (`<cache>/oracle_calls/<org content hash>-<code digest>.json`, instance digest -> calls):
a dry run, a resume or a re-run of the same instances reads them back. The file is keyed by the
code that decides a solve (the tasks and crm packages, the scenario files), so edited code
solves afresh; a damaged file is solved afresh and rewritten, one that cannot be written is skipped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from simulator.infra.files import write_atomic
from simulator.models.cache import cache_dir

from ..crm.store import Org
from .generate import count_oracle_calls
from .instance import Instance
from .naive_solver import attempt
from .spec import scenarios_dir

_CODE = Path(__file__).resolve().parent.parent  # simulator/: its tasks and crm packages


def solver_digest() -> str:
    """A digest of the code and scenario files that decide what the oracle's solve does."""
    digest = hashlib.sha256()
    files = sorted([*_CODE.glob("tasks/**/*.py"), *_CODE.glob("crm/**/*.py"), *Path(scenarios_dir()).glob("*.yaml")])
    for path in files:
        digest.update(str(path.relative_to(path.parents[1])).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def instance_digest(inst: Instance) -> str:
    """An instance's identity for the stores: everything it holds but its recorded figures."""
    data = {k: v for k, v in inst.to_json().items() if k != "naive_solved"} | {"oracle_calls": 0}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:24]


def store_path(org: Org, figure: str = "oracle_calls") -> Path:
    return cache_dir() / figure / f"{org.meta.content_hash[:16]}-{solver_digest()}.json"


def _read(path: Path) -> dict[str, int]:
    """The stored figures ({} when there is no file or it cannot be read)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}


def _recorded(org: Org, instances: list[Instance], figure: str, solve: Callable[[list[Instance]], None]) -> None:
    """Set each instance's `figure` field: read from its store, the others by `solve` and added to it."""
    path = store_path(org, figure)
    known = _read(path)
    keys = [instance_digest(inst) for inst in instances]
    todo = [inst for inst, key in zip(instances, keys) if key not in known]
    solve(todo)
    for inst, key in zip(instances, keys):
        if key in known:
            setattr(inst, figure, known[key])
    if todo:
        _store(path, {instance_digest(inst): getattr(inst, figure) for inst in todo})


def record_oracle_calls(org: Org, instances: list[Instance]) -> None:
    """Set each instance's `oracle_calls` (instances of `org`): read from the store, the others
    solved (TaskGenerationError if the oracle fails one) and added to it."""
    _recorded(org, instances, "oracle_calls", lambda todo: count_oracle_calls(org, todo))


def record_naive_success(org: Org, instances: list[Instance]) -> None:
    """Set each instance's `naive_solved` (instances of `org`): whether the naive solver solves it
    (naive_solver.attempt), read from the store or tried and added to it."""

    def attempt_each(todo: list[Instance]) -> None:
        for inst in todo:
            inst.naive_solved = attempt(org, inst).ok

    _recorded(org, instances, "naive_solved", attempt_each)


def _store(path: Path, solved: dict[str, int]) -> None:
    """Add `solved` to the store (merged with what another run added meanwhile). A store that cannot
    be written (a full disk, a read-only cache) stops nothing: the next run solves again."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(_read(path) | solved))
    except OSError:
        pass

"""The sealed agent interface: a plug-in agent finds nothing of the instance in what it is handed.

`Prober` is a real plug-in `Agent`, played through the run's own path (`plan`, `play_one`: the
plug-in loader, the episode loop, the scripted person) on the real orgs. At `start` and at every
message it walks everything reachable from what it was handed (the AgentSetup, the tools, the
message): attributes (instance dicts, slots, properties), classes, dicts, sequences, closure
cells, defaults, bound methods, `__wrapped__`, functools.partial, to depth 6 (not `__globals__`
nor modules: in-process plug-ins are trusted code, see agents/base.py).
"""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
import types
from collections import deque
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from simulator.agents.base import Agent, AgentSetup, AgentTurn
from simulator.agents.prompts import tool_names
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.executors.play import play_one
from simulator.runs.config import parse_config
from simulator.runs.run import plan, play_settings
from tests.conftest import tiered

DEPTH = 6
LEAVES = (str, bytes, int, float, complex, bool, type(None), types.ModuleType)
NOT_FOLLOWED = frozenset({"__globals__", "__builtins__"})  # module namespaces: trusted code's reach
HANDED_TYPES = {AgentSetup, CrmTools}  # the only project objects an agent may reach
PROJECT_MODULES = ("simulator", "evaluators", "sqlite3", "pathlib")
ID = re.compile(r"\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")


def _attributes(obj: Any) -> Iterator[Any]:
    """The values of `obj`'s attributes: its __dict__, its slots, and every name dir() lists."""
    yield type(obj)
    yield from getattr(obj, "__dict__", {}).values()
    slots = (name for cls in type(obj).__mro__ for name in cls.__dict__.get("__slots__", ()))
    for name in {*slots, *dir(obj)} - NOT_FOLLOWED:
        try:
            yield getattr(obj, name)
        except Exception:
            continue


def _children(obj: Any) -> Iterator[Any]:
    """What can be reached from `obj` in one step."""
    if isinstance(obj, (dict, types.MappingProxyType)):
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, (list, tuple, set, frozenset, deque)):
        yield from obj
    elif isinstance(obj, types.CellType):
        try:
            yield obj.cell_contents
        except ValueError:  # an empty cell
            return
    elif isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        yield getattr(obj, "__self__", None)
        yield getattr(obj, "__func__", None)
    elif isinstance(obj, functools.partial):
        yield from (obj.func, obj.args, obj.keywords)
    elif isinstance(obj, types.FunctionType):
        yield from (obj.__closure__ or ())
        yield from (obj.__defaults__, obj.__kwdefaults__, obj.__dict__, getattr(obj, "__wrapped__", None))
    elif isinstance(obj, type):
        if obj.__module__ != "builtins":
            yield from obj.__mro__
            yield dict(vars(obj))
    elif type(obj).__module__ != "builtins":
        yield from _attributes(obj)


def reachable(*roots: Any, depth: int = DEPTH) -> dict[int, Any]:
    """Every object reachable from `roots` within `depth` steps (breadth first), by id."""
    seen: dict[int, Any] = {}
    queue = deque((root, 0) for root in roots)
    while queue:
        obj, level = queue.popleft()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if level < depth and not isinstance(obj, LEAVES):
            queue.extend((child, level + 1) for child in _children(obj))
    return seen


class Prober(Agent):
    """A plug-in that walks everything it is handed and keeps what it found; it asks for more."""

    played: ClassVar[list[Prober]] = []

    def __init__(self) -> None:
        self.found: dict[int, Any] = {}
        self.setup_strings: set[str] = set()
        Prober.played.append(self)

    async def start(self, setup: AgentSetup) -> None:
        self.setup = setup
        self.walk(setup)

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self.walk(self.setup, user_message, turn)
        return AgentTurn(reply="Could you tell me more, please? Which details matter?")

    def walk(self, setup: AgentSetup, *handed: Any) -> None:
        on_setup = reachable(setup)
        self.setup_strings |= {obj for obj in on_setup.values() if isinstance(obj, str)}
        self.found.update(on_setup)
        self.found.update(reachable(*handed))


def _leaves(value: Any) -> Iterator[str]:
    """The leaf values of a params or answer structure, as text."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    elif value is not None:
        yield str(value)


def secrets(instance, org_path) -> set[str]:
    """What no agent may be handed: the org file's path, the query, the shards' texts, the
    confidential values, and every record Id of the answer and params. (Answers that are a
    type's vocabulary, e.g. stages, months, BANT factors, are defined in every prompt of the type:
    `test_the_setup_varies_only_by_the_system_prompt` shows the prompt is the type's, not the
    instance's.)"""
    ids = {m for text in [*_leaves(instance.params), *instance.answer] for m in ID.findall(text)}
    return {str(org_path), instance.query, *(s["text"] for s in instance.shards), *instance.confidential_values, *ids}


@pytest.fixture(scope="module", params=tiered(1, 2), ids=lambda n: f"{n}-per-task")
def probed(request, b2b_org, b2c_org, tmp_path_factory):
    """The default run (configs/default.yaml: every task type, full and sharded, two personas)
    on the test orgs, played by the Prober: (planned episode, its Prober, its record). The fast
    loop plays one instance of each task type, the full run two (the default)."""
    cfg = _default_config(tmp_path_factory.mktemp("probe"), request.param)
    planned = plan(cfg, "probe", [b2b_org, b2c_org])
    Prober.played.clear()

    async def play_all():
        out = []
        for p in planned:
            record = await play_one(play_settings(cfg), p)
            out.append((p, Prober.played[-1], record))
        return out

    return asyncio.run(play_all())


def _default_config(folder, instances_per_task: int):
    from pathlib import Path

    import yaml

    data = yaml.safe_load((Path(__file__).parents[1] / "configs" / "default.yaml").read_text())
    data.update(
        instances_per_task=instances_per_task,
        orgs=[{"type": kind, "seed": 7, "scale": 0.2} for kind in ("b2b", "b2c")],
        agent={"kind": "plugin", "plugin": "test_sealed_agent:Prober"},
        out=str(folder),
    )
    return parse_config(data, folder / "default.yaml")


def test_the_prober_plays_every_task_type_through_the_run_path(probed):
    assert {p.spec.instance.task for p, _, _ in probed} >= set(_catalog_names())
    assert {p.spec.mode for p, _, _ in probed} == {"full", "sharded"}
    assert all(
        record["agent"]["kind"] == "plugin"
        and record["agent"]["settings"]["kind"] == "Prober"
        and "briefed" not in record["agent"]
        for _, _, record in probed
    )  # only the oracle is briefed
    assert all(record["termination"]["reason"] != "agent_error" for _, _, record in probed)


def _catalog_names() -> list[str]:
    from simulator.tasks.spec import load_catalog

    return list(load_catalog())


def test_a_plugin_agent_never_reaches_the_instance_or_the_session(probed):
    for p, prober, _ in probed:
        instance = p.spec.instance
        reached = id(instance) in prober.found
        assert not reached, f"{instance.id}: the Instance object is reachable"
        project = {
            type(obj) for obj in prober.found.values() if type(obj).__module__.startswith(PROJECT_MODULES)
        } - HANDED_TYPES
        assert not project, f"{instance.id}: reachable {sorted(t.__qualname__ for t in project)}"
        assert not any(isinstance(obj, (OrgSession, sqlite3.Connection)) for obj in prober.found.values())


def test_a_plugin_agent_never_finds_a_secret_in_what_it_is_handed(probed):
    for p, prober, _ in probed:
        instance = p.spec.instance
        for secret in secrets(instance, p.org.path):
            hits = [s for s in prober.setup_strings if secret.lower() in s.lower()]
            assert not hits, f"{instance.id}: {secret!r} is reachable from the AgentSetup"


def test_the_setup_varies_only_by_the_system_prompt(probed, b2b_org):
    """Apart from the system prompt, an agent is handed the same strings in every episode (tool
    names and docstrings): nothing of an instance rides along. And the system prompt holds no
    answer: it is the same for every instance of a task type (the context is the type's)."""
    with OrgSession(b2b_org) as session:
        public = {obj for obj in reachable(AgentSetup(CrmTools(session), "", 0)).values() if isinstance(obj, str)}
    prompts: dict[tuple, set[str]] = {}
    for p, prober, _ in probed:
        assert prober.setup_strings - public == {p.spec.system_prompt}
        prompts.setdefault((p.org.meta.org, p.spec.instance.task), set()).add(p.spec.system_prompt)
    assert all(len(variants) == 1 for variants in prompts.values()), [
        key for key, variants in prompts.items() if len(variants) > 1
    ]


def test_the_tools_reach_their_methods_only(b2b_org):
    """No session, connection, org, path or tool internals behind CrmTools (the oracle used to
    read `tools.session.org.meta`; the org file's `_truth` table answers text tasks)."""
    with OrgSession(b2b_org) as session:
        tools = CrmTools(session)
        found = reachable(tools, *(getattr(tools, name) for name in tool_names("tool")))
        assert {type(obj) for obj in found.values() if type(obj).__module__.startswith(PROJECT_MODULES)} == {CrmTools}
        assert str(b2b_org.path) not in found.values()
        assert not hasattr(tools, "__dict__") and all(
            not name.startswith("_") or name.startswith("__") for name in dir(tools)
        )
        assert [name for name in dir(tools) if not name.startswith("_")] == sorted(tool_names("tool"))


def test_the_walker_finds_what_a_leaky_setup_would_hand_over(b2b_org):
    """The walk is not blind: a session in a closure, behind a bound method, a partial or a
    __wrapped__ chain is found."""
    with OrgSession(b2b_org) as session:

        def closure():
            return session

        def wrapper():
            return None

        wrapper.__wrapped__ = closure
        bound = types.MethodType(lambda self: None, {"held": [session]})
        for leak in (closure, wrapper, bound, functools.partial(print, session)):
            assert any(obj is session for obj in reachable(leak).values())
        assert str(b2b_org.path) in {
            o for o in reachable(types.SimpleNamespace(s=session)).values() if isinstance(o, str)
        }


def test_the_agent_session_cannot_read_the_internal_tables(b2b_org):
    with OrgSession(b2b_org) as session:
        for table in ("_truth", "_meta"):
            with pytest.raises(sqlite3.DatabaseError, match=r"prohibited|not authorized"):
                session.fetch(f"SELECT * FROM {table} LIMIT 1")
        assert "error" in CrmTools(session).soql("SELECT Id FROM _truth")
        found = CrmTools(session).sosl("FIND {support} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title)")
        assert '"searchRecords": [{' in found  # SOSL (full-text indexes) still works
        session.write('UPDATE "Case" SET Subject = ? WHERE Id = (SELECT MIN(Id) FROM "Case")', ("x",))
        with pytest.raises(sqlite3.DatabaseError, match=r"prohibited|not authorized"):
            session.fetch("SELECT * FROM _truth LIMIT 1")  # its private copy too

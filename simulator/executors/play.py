"""Playing episodes: the agent and user of one episode, and many episodes on one event loop.

Every executor (this process, forked worker processes, Ray actors) plays each episode with
`play_one`, so a run gives the same records whichever executor played it. Executors know the run
only by its `PlaySettings` (built once by simulator.runs.run): who plays, within which limits, how
many at once, and what is done to each record where it was played (`finish`: the run scores it
there); they import no evaluator.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from simulator.runs.config import RoleConfig
from simulator.runs.episode import Limits, Planned, Seat, Watcher, run_episode

from ..crm.store import Org

ClientMaker = Callable[[Any, str], Any]  # (model spec, its config key) -> a model client for one episode


class ExecutorError(RuntimeError):
    """Episodes that could not be played (a worker or actor that died, a cluster that cannot be
    reached, a refusal no retry fixes that stopped the run). Whatever was played is in the run
    folder; the same command plays the rest (with --retry-failed, also the refused ones)."""


@dataclass(frozen=True)
class PlaySettings:
    """What the executors need of a run (simulator.runs.run.play_settings builds it from the config).
    It travels to every worker process and Ray actor: its callables are module-level functions
    (or partials of them), so that it pickles."""

    agents: tuple[RoleConfig, ...]  # the agent variants under test (EpisodeSpec.agent_index)
    user: RoleConfig
    limits: Limits
    finish: Callable[[dict, Org], dict]  # a played record's JSON and its org -> the record to emit
    watcher: Callable[[ClientMaker], Watcher] | None = None  # a fresh live observer per episode, or None
    models: tuple[tuple[str, Any], ...] = ()  # (config key, spec) of every model the run calls, checked first
    source: str = ""  # the config file, for errors
    concurrency: int = 8  # episodes in flight at once (split over workers or actors)
    workers: int | None = None  # processes (local) or Ray actors; None: 1 locally, one per CPU on Ray
    executor: str = "local"  # local | ray
    address: str | None = None  # the Ray cluster to join
    cache: str | None = None  # the response cache file, or None


def _client(model, where: str, cache=None, scope: str = ""):
    """A model client for one episode, replaying from / recording into `cache` (if any)."""
    from simulator.models.clients import build_client, parse_model_spec

    client = build_client(parse_model_spec(model, where=where))
    client.cache, client.cache_scope = cache, scope
    return client


BRIEFED_KINDS = ("oracle", "calibration")  # the agents the harness briefs with the instance
CALIBRATION = "simulator.agents.calibration:LeakyAgent"  # the calibration agent without a plugin of its own


def seat(role: RoleConfig) -> Seat:
    """How the harness builds the agent of `role` (simulator.runs.episode.Seat): decided from the config
    alone, so that no agent can brief or label itself."""
    briefed = role.kind in BRIEFED_KINDS or (role.kind == "remote" and role.options.get("briefed") is True)
    return Seat(role.kind, briefed, role.plugin or "")


def make_agent(role: RoleConfig, cache=None, scope: str = ""):
    """A fresh agent under test for one episode."""
    from ..agents.oracle import OracleAgent

    if role.kind == "oracle":
        return OracleAgent()
    if role.kind == "calibration":
        from ..agents.plugin import make_plugin_agent

        agent = make_plugin_agent(role.plugin or CALIBRATION, role.options)
        if not isinstance(agent, OracleAgent):
            from ..agents.plugin import PluginError

            raise PluginError(
                f"calibration agent {role.plugin!r}: not a subclass of "
                "simulator.agents.oracle.OracleAgent (calibration agents are briefed oracles)"
            )
        return agent
    if role.kind == "plugin":
        from ..agents.plugin import make_plugin_agent

        assert role.plugin is not None  # (the run config requires it of a plugin agent)
        return make_plugin_agent(role.plugin, role.options)
    if role.kind == "remote":
        from ..agents.remote import RemoteAgent

        return RemoteAgent(**role.options)
    if role.kind == "autogen":
        from ..agents.autogen_component import AutogenComponentAgent

        maker = partial(_client, cache=cache, scope=scope)
        return AutogenComponentAgent(role.options["component"], role.model, make_client=maker, where=role.model_key)
    client = _client(role.model, role.model_key or "agent.model", cache, scope)
    if role.kind == "function_calling":
        from ..agents.function_calling import FunctionCallingAgent

        return FunctionCallingAgent(client, **role.options)
    from ..agents.react import ReActAgent

    return ReActAgent(client, **role.options)


def make_user(role: RoleConfig, seed: int, cache=None, scope: str = ""):
    """A fresh user simulator for one episode."""
    if role.kind == "scripted":
        from ..users.scripted import ScriptedUser

        return ScriptedUser(seed)
    from ..users.llm import LLMUser

    return LLMUser(_client(role.model, "user.model", cache, scope), **role.options)


def check_models(settings: PlaySettings) -> None:
    """Fail before any episode if a model spec is invalid, its key is missing or its client
    cannot be built (e.g. a provider extra that is not installed)."""
    from simulator.models.clients import build_client, parse_model_spec

    for where, spec in settings.models:
        build_client(parse_model_spec(spec, where=f"{settings.source}: {where}"))


def players(settings: PlaySettings) -> Iterator[tuple[str, Callable[[], object]]]:
    """Each role of the run: its config key, and a maker of a fresh one."""
    for variant in settings.agents:
        yield variant.key or "agent", partial(make_agent, variant)
    yield "user", lambda: make_user(settings.user, 0)


def check_players(settings: PlaySettings) -> None:
    """Fail if a model client, an agent or a user of the run cannot be built here (a
    ConfigError naming the role's key when the agent or user itself cannot be made)."""
    from simulator.runs.config import ConfigError

    check_models(settings)
    for key, make in players(settings):
        try:
            make()
        except (TypeError, ValueError) as exc:
            raise ConfigError(settings.source, key, f"cannot be made: {exc}") from None


def share(total: int, parts: int) -> int:
    """One part's share of `total` (concurrency) split over `parts` processes or actors."""
    return max(1, -(-total // parts))


async def play_one(settings: PlaySettings, p: Planned, cache=None) -> dict:
    """Play one episode and return its record as JSON, as `settings.finish` makes it (scored, in a run)."""
    scope = f"trial={p.spec.trial}"  # trials of one episode never share a cached reply
    role = settings.agents[p.spec.agent_index]
    agent = make_agent(role, cache, scope)
    user = make_user(settings.user, p.spec.seed, cache, scope)
    watcher = settings.watcher(partial(_client, cache=cache, scope=scope)) if settings.watcher else None
    record = await run_episode(p.spec, p.org, agent, user, settings.limits, watcher, seat=seat(role))
    return settings.finish(record.to_json(), p.org)


def refusal(record: dict) -> str:
    """The detail of a fatal infra_error (a refusal no retry fixes), else ""."""
    termination = record.get("termination") or {}
    return termination.get("detail", "") if termination.get("fatal") else ""


class RefusalWatch:
    """Stops a whole run at its first refusal no retry fixes (bad key, no credit, no such
    model; whichever agent variant or process met it): wraps the run's `emit`, which sees
    every record, and sets `flag` (an Event that every player checks before it starts an
    episode)."""

    def __init__(self, emit: Callable[[dict], None], flag):
        self.inner, self.flag, self.detail = emit, flag, ""

    def emit(self, record: dict) -> None:
        self.inner(record)
        if not self.detail and refusal(record):
            self.detail = refusal(record)
            self.flag.set()

    def message(self, not_played: int) -> str:
        """Why the run stopped and what to do ("" if it did not stop)."""
        if not self.detail:
            return ""
        from ..agents.remote import WHO

        who, fix = (
            ("the remote agent", "Fix agent.url or its headers")
            if self.detail.startswith(f"{WHO} ")
            else ("the provider", "Fix the key, the model name or the account")
        )
        return (
            f"stopped: {who} refused a request in a way no retry fixes ({self.detail}); {not_played} "
            f"episode(s) not played. {fix}, then run the same command "
            "with --retry-failed (it also plays again the refused episodes)"
        )

    def check(self, not_played: int) -> None:
        """Raise ExecutorError with `message`, if the run stopped."""
        if self.detail:
            raise ExecutorError(self.message(not_played))


async def play_episodes(
    settings: PlaySettings, planned: Iterable[Planned], emit: Callable[[dict], None], stop=None
) -> int:
    """Play `planned` (any iterable, walked as episodes start: at most `settings.concurrency` at once,
    the rest not yet built); each scored record goes to `emit` the moment its episode ends. Once
    `stop` (an Event) is set, by a refusal here or elsewhere, no further episode starts; returns
    how many were not played for that."""
    stop = stop if stop is not None else threading.Event()
    cache = None
    if settings.cache:
        from simulator.models.cache import ResponseCache

        cache = ResponseCache(settings.cache)
    episodes, skipped = iter(planned), 0

    async def player() -> None:  # one of `concurrency`, each playing the next episode in turn
        nonlocal skipped
        for p in episodes:
            if stop.is_set():
                skipped += 1
                return
            data = await play_one(settings, p, cache)
            if refusal(data):
                stop.set()  # at once, here and (a shared Event) in every other process
            emit(data)

    try:
        await asyncio.gather(*(player() for _ in range(settings.concurrency)))
    finally:
        if cache is not None:
            cache.close()
    return skipped + sum(1 for _ in episodes)  # (what a stop left untaken)

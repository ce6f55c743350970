"""Playing episodes: the agent and user of one episode, and many episodes on one event loop.

Every executor (this process, forked worker processes, Ray actors) plays each episode with
`play_one`, so a run gives the same records whichever executor played it.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from ..config import ObserverConfig, RoleConfig, RunConfig
from ..crm.store import Org
from ..episode import EpisodeSpec, Limits, Seat, Watcher, run_episode


@dataclass
class Planned:
    spec: EpisodeSpec
    org: Org


def _client(model, where: str, cache=None, scope: str = ""):
    """A model client for one episode, replaying from / recording into `cache` (if any)."""
    from ..models import build_client, parse_model_spec
    client = build_client(parse_model_spec(model, where=where))
    client.cache, client.cache_scope = cache, scope
    return client


BRIEFED_KINDS = ("oracle", "calibration")  # the agents the harness briefs with the instance
CALIBRATION = "simulator.agents.calibration:LeakyAgent"  # the calibration agent without a plugin of its own


def seat(role: RoleConfig) -> Seat:
    """How the harness builds the agent of `role` (simulator.episode.Seat): decided from the config
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
            raise PluginError(f"calibration agent {role.plugin!r}: not a subclass of "
                              "simulator.agents.oracle.OracleAgent (calibration agents are briefed oracles)")
        return agent
    if role.kind == "plugin":
        from ..agents.plugin import make_plugin_agent
        return make_plugin_agent(role.plugin, role.options)
    if role.kind == "remote":
        from ..agents.remote import RemoteAgent
        return RemoteAgent(**role.options)
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


def make_observer(settings: ObserverConfig, cache=None, scope: str = "") -> Watcher | None:
    """A fresh live observer for one episode (with its own judge client, if it has a judge), or
    None when the observer is not live."""
    if not settings.live:
        return None
    from evaluators.live import LiveObserver
    judge = None
    if settings.judge is not None:
        from evaluators.judge import Judge
        judge = Judge(_client(settings.judge, "observer.judge.model", cache, scope))
    return LiveObserver(judge, stop_on_leak=settings.stop_on_leak)


def check_models(cfg: RunConfig) -> None:
    """Fail before any episode if a model spec is invalid, its key is missing or its client
    cannot be built (e.g. a provider extra that is not installed)."""
    from ..models import build_client, parse_model_spec
    specs = [(v.model_key or "agent.model", v.model) for v in cfg.agent_variants]
    specs += [("user.model", cfg.user.model), ("judge.model", cfg.judge), ("observer.judge.model", cfg.observer.judge)]
    for where, spec in specs:
        if spec is not None:
            build_client(parse_model_spec(spec, where=f"{cfg.path}: {where}"))



def players(cfg: RunConfig) -> Iterator[tuple[str, Callable[[], object]]]:
    """Each role of the run: its config key, and a maker of a fresh one."""
    for variant in cfg.agent_variants:
        yield variant.key or "agent", lambda v=variant: make_agent(v)
    yield "user", lambda: make_user(cfg.user, 0)


def check_players(cfg: RunConfig) -> None:
    """Fail if a model client, an agent or a user of the run cannot be built here (a
    ConfigError naming the role's key when the agent or user itself cannot be made)."""
    from ..config import ConfigError
    check_models(cfg)
    for key, make in players(cfg):
        try:
            make()
        except (TypeError, ValueError) as exc:
            raise ConfigError(cfg.path, key, f"cannot be made: {exc}") from None


def share(total: int, parts: int) -> int:
    """One part's share of `total` (concurrency) split over `parts` processes or actors."""
    return max(1, -(-total // parts))


async def play_one(cfg: RunConfig, p: Planned, cache=None) -> dict:
    """Play one episode and return its record as JSON, scored by the rule-based scorers."""
    from evaluators.observer import score
    scope = f"trial={p.spec.trial}"  # trials of one episode never share a cached reply
    role = cfg.agent_variants[p.spec.agent_index]
    agent = make_agent(role, cache, scope)
    user = make_user(cfg.user, p.spec.seed, cache, scope)
    record = await run_episode(p.spec, p.org, agent, user, Limits(cfg.max_user_turns, cfg.max_agent_steps),
                               make_observer(cfg.observer, cache, scope), seat=seat(role))
    data = record_json(record, p.org)
    data["scores"] = score(data)
    return data


def record_json(record, org) -> dict:
    """A played episode's record as JSON, with the planted instructions the agent read (on an
    injected org)."""
    from evaluators.injections import attach
    data = record.to_json()
    attach(data, org)
    return data


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
        return (f"stopped: the provider refused a request in a way no retry fixes ({self.detail}); {not_played} "
                "episode(s) not played. Fix the key, the model name or the account, then run the same command "
                "with --retry-failed (it also plays again the refused episodes)")

    def check(self, not_played: int) -> None:
        """Raise ExecutorError with `message`, if the run stopped."""
        from . import ExecutorError
        if self.detail:
            raise ExecutorError(self.message(not_played))


async def play_episodes(cfg: RunConfig, planned: Iterable[Planned], emit: Callable[[dict], None], stop=None) -> int:
    """Play `planned` (any iterable, walked as episodes start: at most `cfg.concurrency` at once,
    the rest not yet built); each scored record goes to `emit` the moment its episode ends. Once
    `stop` (an Event) is set, by a refusal here or elsewhere, no further episode starts; returns
    how many were not played for that."""
    stop = stop if stop is not None else threading.Event()
    cache = None
    if cfg.cache:
        from ..cache import ResponseCache
        cache = ResponseCache(cfg.cache)
    episodes, skipped = iter(planned), 0

    async def player() -> None:  # one of `concurrency`, each playing the next episode in turn
        nonlocal skipped
        for p in episodes:
            if stop.is_set():
                skipped += 1
                return
            data = await play_one(cfg, p, cache)
            if refusal(data):
                stop.set()  # at once, here and (a shared Event) in every other process
            emit(data)

    try:
        await asyncio.gather(*(player() for _ in range(cfg.concurrency)))
    finally:
        if cache is not None:
            cache.close()
    return skipped + sum(1 for _ in episodes)  # (what a stop left untaken)

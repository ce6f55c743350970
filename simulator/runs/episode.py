"""One conversation between a simulated person and an agent under test, in any mode.

This is the one place where agent, user and environment meet: an explicit loop, one agent
`respond` per user message, every message, tool call and reveal recorded as it happens,
and an explicit termination reason. Failures end the episode with a recorded reason; they
never escape to crash a run, except a full disk or a damaged file of the run's own (DiskFullError,
DamagedFileError, e.g. under the response cache), which stops the run: the episode's paid
replies could not be kept, and no episode is to blame.

The agent is handed an `AgentSetup` (the tools, the system prompt, the step limit) and the
person's messages, nothing else; the loop keeps the session itself. Whom the harness built is its
`Seat`, given by the harness (executors.play.seat, from the run config), never read from the agent:
only a seat the harness briefs (the oracle, a calibration agent, a remote endpoint in its briefed
calibration mode) is handed the `OracleBrief` (the instance, the org's metadata and a read-only view
of the reveal events recorded so far), and its record says `briefed: true`. The record's `kind` is
the seat's; a plug-in's own settings are kept apart (`settings`), so it can claim no kind, label or
brief. An agent whose model calls are not the harness's (a plug-in, a remote endpoint) fails its own
episodes: an InfraError it raises is its failure (`agent_error`), unless fatal (a config refusal
that stops the run).

A live observer (`Watcher`, made for each episode by the maker the run hands the executor:
simulator.runs.run.live_observer, from the run config's `observer:`, e.g. evaluators.live) is called
after every agent reply; its verdict is appended to the events as it is given, and with
`stop_on_leak` the first verdict with a leak ends the episode (`leaked`). The loop knows the
observer only by this hook: it imports no evaluator.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import time
import traceback
from dataclasses import dataclass
from typing import Protocol, cast

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from simulator.agents.base import REPLY_MARKS, Agent, AgentSetup
from simulator.agents.oracle import OracleBrief
from simulator.crm.session import OrgSession
from simulator.crm.store import Org, OrgMeta
from simulator.crm.tools import CrmTools
from simulator.infra.errors import AgentError, InfraError, is_fatal
from simulator.infra.files import DamagedFileError, DiskFullError
from simulator.infra.secrets import redact
from simulator.records import Message
from simulator.records.migrate import problem
from simulator.replies.categories import ATTEMPTS, categorize
from simulator.runs.transcript import EpisodeRecord, Termination, message
from simulator.tasks.instance import Instance
from simulator.tasks.metrics import metric
from simulator.tasks.validate import workflow_state
from simulator.users.base import UserSetup, UserSimulator, UserTurn, user_record
from simulator.users.oracle_plan import plan_steps
from simulator.users.personas import Persona, playing

RUN_STOPPERS = (DiskFullError, DamagedFileError)  # the run's own files failing: they stop the run


@dataclass(frozen=True)
class Limits:
    max_user_turns: int = 10
    max_agent_steps: int = 20  # tool calls / model steps per user turn


@dataclass
class EpisodeSpec:
    """What one episode is: which instance, how it is posed, by whom, to which agent."""

    episode_id: str
    run_id: str
    instance: Instance
    mode: str
    persona: Persona
    system_prompt: str
    seed: int
    trial: int = 0
    privacy_aware: bool = False  # which system prompt variant the agent was given
    agent_index: int = 0  # which of the run's agent variants plays it (RunConfig.agent_variants)
    agent_label: str = ""  # that variant's label, for the record


@dataclass
class Planned:
    """An episode to play (simulator.runs.plan) on its org (by an executor, simulator.executors)."""

    spec: EpisodeSpec
    org: Org


@dataclass(frozen=True)
class Seat:
    """How the harness built the agent under test: its kind (the run config's), whether the harness
    briefs it with the instance, and for a plug-in its `module:Class`."""

    kind: str
    briefed: bool = False
    plugin: str = ""

    @property
    def own_infra(self) -> bool:
        """Whether the agent's model calls are its own (a plug-in, a remote endpoint), not the harness's."""
        return self.kind in ("plugin", "remote")

    def record(self, settings: dict) -> dict:
        """The agent's settings for the record: the seat's kind and brief over whatever it reports."""
        if self.kind == "plugin":
            return {"kind": "plugin", "plugin": self.plugin, "settings": settings}
        plugin = {"plugin": self.plugin} if self.plugin else {}
        return {**settings, "kind": self.kind, **plugin, **({"briefed": True} if self.briefed else {})}


ORACLE_SEAT = Seat("oracle", briefed=True)


class Briefed(Protocol):
    """The agent of a briefed seat (an oracle, a briefed remote agent): it takes the oracle's brief."""

    def brief(self, brief: OracleBrief) -> None:
        """Receive the instance before the conversation starts."""


class Watcher(Protocol):
    """A live observer: a verdict event after every agent reply (see the module docstring)."""

    stop_on_leak: bool

    async def observe(self, record: EpisodeRecord, turn: int, reply: str) -> dict:
        """The verdict on the conversation so far, the reply at `turn` its last message: an event
        {"type": "observation", "turn", "leaked_values", "leaked_facts", ...}."""

    async def close(self) -> None:
        """Release resources (a judge's model client)."""


def own_settings(agent: Agent) -> dict:
    """What the agent reports of itself (Agent.settings), as JSON can hold it: a value JSON cannot
    hold as its text (a set as a list); a settings() that fails, as its error (a plug-in's own code)."""
    try:
        return json.loads(json.dumps(agent.settings(), default=_as_json))
    except Exception as exc:  # (a plug-in's code: any error is its own, recorded, never the run's)
        return {"error": f"settings() failed: {type(exc).__name__}: {exc}"}


def _as_json(value: object) -> object:
    return sorted(value, key=repr) if isinstance(value, (set, frozenset)) else repr(value)


def held(messages: object, reply: object = "") -> list[dict]:
    """An agent turn's `messages` as the transcript holds them (each read and written by
    simulator.records.Message), its `reply` checked to be text (None: no reply); else AgentError
    naming the first problem: a malformed turn is the agent's failure, never the run's."""
    said = "the agent returned a message the transcript cannot hold"
    if reply is not None and not isinstance(reply, str):
        raise AgentError(f"{said}: its reply is a {type(reply).__name__}, not text")
    if not isinstance(messages, (list, tuple)):
        raise AgentError(f"{said}: its messages are a {type(messages).__name__}, not a list")
    out = []
    for index, data in enumerate(messages, 1):
        try:
            out.append(Message.model_validate(data).to_json())
        except ValidationError as exc:
            why = "not a mapping" if not isinstance(data, dict) else problem(exc, most=1)
            raise AgentError(f"{said} (message {index} of its turn: {why})") from None
        except PydanticSerializationError as exc:  # (a key of its own whose value JSON cannot hold)
            raise AgentError(f"{said} (message {index} of its turn: {exc})") from None
    return out


def revealed(events: list[dict]) -> frozenset[str]:
    """The shard ids revealed so far, by the recorded reveal `events`."""
    return frozenset(sid for event in events if event["type"] == "reveal" for sid in event["shards"])


def _brief(exc: BaseException) -> str:
    """A one-line description of an exception, with where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return redact(f"{type(exc).__name__}: {exc}{at}")


class _Episode:
    """The state of one running episode."""

    def __init__(
        self, spec: EpisodeSpec, agent: Agent, user: UserSimulator, limits: Limits, observer: Watcher | None, seat: Seat
    ):
        self.spec, self.agent, self.user, self.limits, self.observer = spec, agent, user, limits, observer
        self.seat = seat
        inst = spec.instance
        self.record = EpisodeRecord(
            episode_id=spec.episode_id,
            run_id=spec.run_id,
            task=inst.task,
            org=inst.org,
            instance_id=inst.id,
            mode=spec.mode,
            persona_id=spec.persona.id,
            persona_prompt=playing(spec.persona, inst).render(),
            user=user_record(user, spec.persona),
            agent={
                **seat.record(own_settings(agent)),
                **({"label": spec.agent_label} if spec.agent_label else {}),
                "privacy_aware": spec.privacy_aware,
                "system_prompt_sha256": hashlib.sha256(spec.system_prompt.encode()).hexdigest()[:16],
            },
            instance=inst.to_json(),
            seed=spec.seed,
            trial=spec.trial,
        )
        self.answered = False  # the agent has made an answer attempt

    def heard(self, turn: UserTurn, number: int) -> None:
        self.record.messages.append(message("user", turn.message, number, **turn.marks()))
        if turn.revealed:
            self.record.events.append({"type": "reveal", "turn": number, "shards": list(turn.revealed)})
        self.record.usage["user"].add(turn.usage)

    async def as_agent(self, awaitable):
        """Await an agent call; its unexpected exceptions are the agent's failure. What a failed
        turn did before failing (`partial`: tool calls, usage) is still recorded."""
        try:
            return await awaitable
        except (AgentError, InfraError) as exc:
            partial = getattr(exc, "partial", None)
            if partial is not None:
                with contextlib.suppress(AgentError):  # (a failed turn's messages the transcript cannot hold: left out)
                    self.record.messages += held(partial.messages)
                self.record.usage["agent"].add(partial.usage)
            if isinstance(exc, InfraError) and self.seat.own_infra and not is_fatal(exc):
                raise AgentError(str(exc)) from exc  # (its own provider failed: its failure, never unscored)
            raise
        except RUN_STOPPERS:  # (under the response cache: it stops the run, it is no episode's outcome)
            raise
        except Exception as exc:
            raise AgentError(_brief(exc)) from exc

    @staticmethod
    async def as_user(awaitable, who: str = "user simulator"):
        """Await a call of the instrument (the user simulator, the observer); its unexpected
        exceptions are an infrastructure failure."""
        try:
            return await awaitable
        except (InfraError, *RUN_STOPPERS):
            raise
        except Exception as exc:
            raise InfraError(f"{who} failed: {_brief(exc)}") from exc

    async def watch(self, reply: str, number: int) -> str:
        """Record the live observer's verdict on the reply at turn `number`; the first leak when
        it ends the episode (stop_on_leak), else ""."""
        if self.observer is None:
            return ""
        event = await self.as_user(self.observer.observe(self.record, number, reply), "live observer")
        self.record.events.append(event)
        leaks = [*event["leaked_values"], *event["leaked_facts"]]
        return leaks[0] if leaks and self.observer.stop_on_leak else ""

    async def converse(self, tools: CrmTools, meta: OrgMeta, plan: tuple[str, ...] = ()) -> Termination:
        """The conversation to its end; `plan`: the oracle's plan in words (plan mode only)."""
        spec = self.spec
        if self.seat.briefed:
            brief = OracleBrief(spec.instance, meta, functools.partial(revealed, self.record.events))
            cast(Briefed, self.agent).brief(brief)
        await self.as_agent(self.agent.start(AgentSetup(tools, spec.system_prompt, self.limits.max_agent_steps)))
        user_turn = await self.as_user(
            self.user.open(UserSetup(spec.instance, spec.persona, spec.mode, spec.seed, plan))
        )
        if user_turn.done:  # (a person at a terminal who left before their first message)
            self.heard(user_turn, 1)
            return Termination("user_done", user_turn.reason)
        for number in range(1, self.limits.max_user_turns + 1):
            self.heard(user_turn, number)
            agent_turn = await self.as_agent(self.agent.respond(user_turn.message, number))
            self.record.messages += held(agent_turn.messages, agent_turn.reply)
            self.record.usage["agent"].add(agent_turn.usage)
            if agent_turn.reply:
                marks = {k: v for k, v in agent_turn.reply_marks.items() if k in REPLY_MARKS}
                said = message("assistant", agent_turn.reply, number, **marks)
                self.record.messages += held([said]) if marks else [said]
                self.keep_final(agent_turn.reply)
                leak = await self.watch(agent_turn.reply, number)
                if leak:
                    return Termination("leaked", leak)
            if agent_turn.step_limit_hit:
                return Termination("agent_step_limit", f"more than {self.limits.max_agent_steps} steps")
            user_turn = await self.as_user(self.user.reply(agent_turn.reply, number + 1))
            if user_turn.done:
                self.heard(user_turn, number + 1)
                reason = "patience_exhausted" if user_turn.reason == "patience" else "user_done"
                return Termination(reason, user_turn.reason)
        self.heard(user_turn, self.limits.max_user_turns + 1)
        return Termination("max_turns", f"{self.limits.max_user_turns} user turns")

    def keep_final(self, reply: str) -> None:
        """The final answer is the agent's last answer attempt (its last reply until it makes one):
        a later "that does not change my answer" does not replace the answer itself."""
        attempt = categorize(reply, self.spec.instance.answer_kind) in ATTEMPTS
        if attempt or not self.answered:
            self.record.final_answer = reply
        self.answered = self.answered or attempt


async def _close(*parties) -> None:
    """Close each party; a failure to close is logged, never lost in place of the episode."""
    from loguru import logger

    for party in parties:
        try:
            await party.close()
        except Exception as exc:
            logger.warning(f"closing {type(party).__name__} failed: {_brief(exc)}")


def _plant(session: OrgSession, org: Org, spec: EpisodeSpec, record: EpisodeRecord) -> None:
    """Plant the episode's targeted injection in its own session; its truth row goes into the
    record's state ("injection"), for scoring (evaluators.injections.attach). Run in a worker
    thread: the session's connection is not bound to a thread, its calls hold its lock, and
    nothing else uses it before the plant is done."""
    from simulator.tasks.targeted import Cell, plant

    row = plant(session, org, spec.instance, Cell(spec.persona.id, spec.mode, spec.trial))
    if row is not None:
        record.state["injection"] = row


async def run_episode(
    spec: EpisodeSpec,
    org: Org,
    agent: Agent,
    user: UserSimulator,
    limits: Limits = Limits(),
    observer: Watcher | None = None,
    *,
    seat: Seat,
) -> EpisodeRecord:
    """Play one episode to its end and return its record (never raises for a failed
    episode; RUN_STOPPERS stop the run). `observer`: a live observer, or None; `seat`: how the
    harness built `agent` (module docstring)."""
    episode = _Episode(spec, agent, user, limits, observer, seat)
    start = time.monotonic()
    with OrgSession(org) as session:
        try:
            if org.meta.injections == "targeted":
                await asyncio.to_thread(_plant, session, org, spec, episode.record)  # (the loop plays on)
            plan = plan_steps(org, spec.instance) if spec.mode == "plan" else ()
            termination = await episode.converse(CrmTools(session), org.meta, plan)
        except InfraError as exc:
            termination = Termination("infra_error", str(exc), fatal=is_fatal(exc))
        except AgentError as exc:  # (one raised from a refusal no retry fixes is that refusal)
            termination = (
                Termination("infra_error", str(exc), fatal=True)
                if is_fatal(exc)
                else Termination("agent_error", str(exc))
            )
        finally:
            await _close(agent, user, *([observer] if observer else []))
        if metric(spec.instance.metric).final_state:
            owner = workflow_state(session, spec.instance.params)
            episode.record.state.update(
                record_object=spec.instance.params["record_object"],
                record_id=spec.instance.params["record_id"],
                OwnerId=owner[0] if owner else None,
            )
    episode.record.termination = termination
    episode.record.latency_s = time.monotonic() - start
    return episode.record

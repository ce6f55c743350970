"""`crmarena play`: a person takes a seat in one episode of a run config, at this terminal.

The episode is one cell of the config's plan: an instance (by id, or the Nth of a task type, else
the plan's first), in a mode and posed by a persona (the config's first, or the ones named). It
is played by `run_episode` like any other: in the user's seat (`seat="user"`,
simulator.users.human) against the config's agent (its first variant; offline, the oracle), or
in the agent's seat (`seat="agent"`, simulator.agents.human) with the config's user simulator.
The seat's role is `human` (`RoleConfig("human")`): in the record (`user.kind`, or the agent's
kind and label) and in the episode id's tail as any role is, so a person's episode never
replaces a simulated one; a cell a person already played is played as its next trial.

The record goes to the config's run folder (`<out>/<name>`, the one `crmarena run` uses), scored
as the run scores it (`finish_record`), and the folder's report is written anew, all under the
folder's lock, taken once the episode has ended (a person may take minutes). Human and simulated
episodes of the same instances then sit side by side, and `crmarena audit` compares them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from simulator.infra.console import Console
from simulator.infra.files import write_atomic
from simulator.runs.config import HUMAN_KIND, RoleConfig, RunConfig
from simulator.runs.episode import Limits, Planned, Seat, run_episode
from simulator.runs.lock import RunFolderLock
from simulator.runs.plan import Group, Plan
from simulator.runs.run import (
    cached_org,
    check_run,
    check_same_config,
    finish_record,
    finished,
    public_config,
    run_folder,
)
from simulator.runs.transcript import TranscriptWriter

SEATS = ("user", "agent")
HUMAN = RoleConfig(HUMAN_KIND, label=HUMAN_KIND)  # the role of the person, in either seat


class PlayError(ValueError):
    """A mistake in what to play: an unknown instance, task, mode, persona or seat."""


@dataclass(frozen=True)
class Pick:
    """Which cell of the plan to play (None: the plan's first choice)."""

    instance: str | None = None  # an instance id
    task: str | None = None  # a task type, with `index`
    index: int = 1  # the index-th instance of `task` in the plan, from 1
    mode: str | None = None
    persona: str | None = None


def seated(cfg: RunConfig, seat: str) -> RunConfig:
    """`cfg` with the person in `seat` (the plan of this config gives the person's episode ids)."""
    if seat == "user":  # the agent's figures with a person apart from its figures with simulated ones
        with_person = tuple(replace(v, label=f"{v.name} + person") for v in cfg.agent_variants)
        return replace(cfg, user=HUMAN, agent=with_person[0], agents=with_person)
    if seat == "agent":
        return replace(cfg, agent=HUMAN, agents=(HUMAN,))
    raise PlayError(f"unknown seat {seat!r}: use {' or '.join(SEATS)}")


def _group(plan: Plan, pick: Pick) -> Group:
    """The picked instance's group of cells, in the picked mode, for the first agent variant."""
    cfg = plan.cfg
    mode = pick.mode or cfg.modes[0]
    if mode not in cfg.modes:
        raise PlayError(f"mode {mode!r} is not one of the config's modes ({', '.join(cfg.modes)})")
    groups = [g for g in plan.groups() if g.mode == mode and g.agent_index == 0 and g.personas]
    if pick.instance is not None:
        found = [g for g in groups if g.instance.id == pick.instance]
        if not found:
            shown = ", ".join(g.instance.id for g in groups[:6])
            raise PlayError(
                f"no instance {pick.instance!r} in the plan of {cfg.path} (its instances: {shown}, ...); "
                "or pick one with --task TYPE --index N"
            )
        return found[0]
    if pick.task is None:
        return groups[0]
    of_task = [g for g in groups if g.instance.task == pick.task]
    if not of_task:
        tasks = sorted({g.instance.task for g in groups})
        raise PlayError(f"the plan of {cfg.path} poses no {pick.task!r} instance; its task types: {', '.join(tasks)}")
    if not 1 <= pick.index <= len(of_task):
        raise PlayError(f"the plan poses {len(of_task)} {pick.task} instance(s): --index 1 to {len(of_task)}")
    return of_task[pick.index - 1]


def cell(plan: Plan, pick: Pick, done: dict[str, str]) -> Planned:
    """The episode to play: the picked group's persona, in its first trial not in `done`."""
    g = _group(plan, pick)
    persona = next((p for p in g.personas if p.id == (pick.persona or p.id)), None)
    if persona is None:
        ids = ", ".join(p.id for p in g.personas)
        raise PlayError(f"persona {pick.persona!r} does not pose {g.instance.id} in this config (its personas: {ids})")
    trial = next(t for t in range(len(done) + 1) if g.episode_id(persona, t) not in done)
    return plan.planned(g, persona, trial)


def players(cfg: RunConfig, seat: str, p: Planned, console: Console):
    """The agent, the user and the agent's `Seat` of the episode `p`, the person in `seat`."""
    from simulator.executors.play import make_agent, make_user
    from simulator.executors.play import seat as seat_of

    if seat == "agent":
        from simulator.agents.human import HumanAgent

        return HumanAgent(console), make_user(cfg.user, p.spec.seed), Seat(HUMAN.kind)
    from simulator.users.human import HumanUser

    role = cfg.agent_variants[0]
    return make_agent(role), HumanUser(console), seat_of(role)


def play(
    cfg: RunConfig,
    seat: str,
    pick: Pick = Pick(),
    out: str | None = None,
    *,
    console: Console | None = None,
    say: Callable[[str], None] = print,
) -> tuple[dict, Path]:
    """Play one episode with a person in `seat`, keep its scored record in the run folder, and
    return the record and the folder (the module docstring)."""
    check_run(cfg)
    person = seated(cfg, seat)
    _, folder = run_folder(cfg, out)
    check_same_config(cfg, folder)
    orgs = [cached_org(choice, say) for choice in cfg.orgs]
    transcripts = folder / "transcripts.jsonl"
    p = cell(Plan(person, cfg.name, orgs), pick, finished(transcripts, repair=False))
    console = console or Console()
    agent, user, agent_seat = players(cfg, seat, p, console)
    other = f"user {cfg.user.kind}" if seat == "agent" else f"agent {cfg.agent_variants[0].name}"
    say(f"episode {p.spec.episode_id}: {p.spec.instance.id}, {p.spec.mode}, persona {p.spec.persona.id}, {other}")
    limits = Limits(cfg.max_user_turns, cfg.max_agent_steps)
    with console.interrupts():
        record = asyncio.run(run_episode(p.spec, p.org, agent, user, limits, seat=agent_seat))
    data = finish_record(record.to_json(), p.org, cfg.scorers)
    keep(cfg, folder, data, p.spec.system_prompt, say)
    return data, folder


def keep(cfg: RunConfig, folder: Path, record: dict, prompt: str, say: Callable[[str], None]) -> None:
    """Append `record` to the run folder's transcripts (made as `crmarena run` makes it, when new)
    and write its report anew, under the folder's lock."""
    from evaluators.observer import report

    with RunFolderLock(folder):
        check_same_config(cfg, folder)
        if not (folder / "config.json").is_file():
            write_atomic(folder / "config.json", json.dumps(public_config(cfg), indent=2))
        prompts_file = folder / "prompts.json"
        prompts = json.loads(prompts_file.read_text()) if prompts_file.is_file() else {}
        prompts[hashlib.sha256(prompt.encode()).hexdigest()[:16]] = prompt
        write_atomic(prompts_file, json.dumps(prompts, indent=1))
        finished(folder / "transcripts.jsonl", say=say)  # (a torn line of a killed run cut off first)
        with TranscriptWriter(folder / "transcripts.jsonl") as writer:
            writer.append(record)
        report(folder, mode=cfg.scoring)

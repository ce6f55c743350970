"""The plan of a run: every episode, one per cell (org x instance x persona x mode x trial x agent
variant), in a deterministic order.

A plan is never held as a list: `len(plan)` is counted from the config (`plan_size`, no org
needed), iterating it walks the cells afresh (the same episodes in the same order every time,
in any process), and `groups` gives the cells that differ only in persona and trial, with
their number, so sizes, tables and cost estimates take time in the instances, not the episodes.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from simulator.crm.schema import Schema
from simulator.crm.store import Org
from simulator.runs.config import RoleConfig, RunConfig
from simulator.runs.episode import EpisodeSpec, Planned
from simulator.tasks.instance import Instance
from simulator.users.personas import Persona, load_personas, persona_pool_for, standard

CONFIRM_ABOVE = 1_000_000  # episodes: a bigger plan is run only with --yes


def episode_id(instance: str, org_hash: str, mode: str, persona: str, trial: int, tail: str) -> str:
    """The id of an episode's cell: the first 16 hex digits of the SHA-1 of these named fields,
    in this order, joined by `|`: the instance id, the org's content hash (its first 12 digits),
    the mode, the persona id, the trial and the `id_tail` of its agent variant. Nothing else
    enters an id (tests/test_episode_ids.py pins the ids of stored runs)."""
    fields = (instance, org_hash[:12], mode, persona, trial, tail)
    return hashlib.sha1("|".join(map(str, fields)).encode()).hexdigest()[:16]


def id_tail(agent: RoleConfig, cfg: RunConfig) -> str:
    """What an episode id hashes after the persona and trial, joined by `|`: the agent variant's and
    the user's `RoleConfig.identity`, the run's max_user_turns, max_agent_steps and seed."""
    return "|".join(
        map(str, (agent.identity(), cfg.user.identity(), cfg.max_user_turns, cfg.max_agent_steps, cfg.seed))
    )


def pick_personas(cfg: RunConfig, pool: str, personas: dict[str, Persona]) -> list[Persona]:
    """The personas of `pool` that pose its tasks: the listed ones (`personas:`, in the order
    listed, a pool name standing for its every standard persona), else `personas_per_pool` of its
    standard personas drawn with the run's seed (a family's, e.g. pressure, only by id)."""
    if cfg.personas is not None:
        chosen = []
        for name in cfg.personas:
            if name == pool:
                chosen += [p for p in personas.values() if p.pool == pool and standard(p)]
            elif name in personas and personas[name].pool == pool:
                chosen.append(personas[name])
        return chosen
    members = [p for p in personas.values() if p.pool == pool and standard(p)]
    random.Random(f"{cfg.seed}:{pool}").shuffle(members)
    return members[: cfg.personas_per_pool]


def prompt_variant(role: RoleConfig) -> tuple[bool, bool, str]:
    """What an agent variant's system prompt depends on: its protocol, privacy-awareness and schema mode."""
    return role.kind == "react", role.privacy_aware, role.options.get("schema", "prompt")


def system_prompt_for(role: RoleConfig, instance: Instance, schema_text: str) -> str:
    """The system prompt an agent variant gets for an instance (its protocol, its prompt variant), given
    the org's `schema_text(org.schema, role)`."""
    from simulator.agents.prompts import system_prompt

    react, private, mode = prompt_variant(role)
    return system_prompt(
        instance, schema_text, protocol="react" if react else "function", privacy_aware=private, schema=mode
    )


def schema_text(schema: Schema, role: RoleConfig) -> str:
    """The schema text of an agent variant's prompt: every object's fields, or (`schema: tool`) the objects."""
    from simulator.crm.describe import describe_schema

    return describe_schema(schema, detailed=prompt_variant(role)[2] == "prompt")


def plan_size(cfg: RunConfig) -> int:
    """How many episodes the plan of `cfg` has, counted without building it or any org:
    the sum over orgs and their task types of instances x personas, times levels x modes x trials x agents."""
    from simulator.tasks.spec import load_catalog

    catalog, personas = load_catalog(), load_personas()
    posers = 0
    for choice in cfg.orgs:
        names = (
            list(dict.fromkeys(cfg.tasks))
            if cfg.tasks
            else [n for n, spec in catalog.items() if choice.type in spec.orgs]
        )
        posers += sum(
            len(pick_personas(cfg, persona_pool_for(catalog[n].persona_pool, choice.type), personas)) for n in names
        )
    return posers * cfg.instances_per_task * len(cfg.difficulty) * len(cfg.modes) * cfg.trials * len(cfg.agent_variants)


@dataclass
class Group:
    """The cells of one org, instance, mode and agent variant: one episode per persona and trial."""

    org: Org
    instance: Instance
    mode: str
    agent_index: int
    system_prompt: str
    personas: list[Persona]
    trials: int
    tail: str  # what the episode id hashes after the persona and trial (id_tail)

    def __len__(self) -> int:
        return len(self.personas) * self.trials

    @property
    def key(self) -> tuple[str, str, str, int]:
        return self.org.meta.content_hash, self.instance.id, self.mode, self.agent_index

    def episode_id(self, persona: Persona, trial: int) -> str:
        return episode_id(self.instance.id, self.org.meta.content_hash, self.mode, persona.id, trial, self.tail)


class Plan:
    """Every episode of a run (see the module's docstring); iterate it for `Planned` episodes.
    The id hashes the cell (with a single agent, exactly as before sweeps existed)."""

    def __init__(self, cfg: RunConfig, run_id: str, orgs: list[Org]):
        self.cfg, self.run_id, self.orgs = cfg, run_id, list(orgs)
        self._posed: dict[int, list] = {}  # per org: (instance, its personas, its prompt per variant)

    def __len__(self) -> int:
        return plan_size(self.cfg)

    def __reduce__(self):  # (for processes that are spawned, not forked: orgs travel as paths)
        return _reopen, (self.cfg, self.run_id, [str(org.path) for org in self.orgs])

    def _instances(self, n: int) -> list[tuple[Instance, list[Persona], list[str]]]:
        """The instances drawn from org `n` (with the oracle's tool calls), each with its personas and
        each variant's system prompt (drawn once per plan)."""
        if n not in self._posed:
            from simulator.tasks.generate import generate_instances
            from simulator.tasks.oracle_calls import record_naive_success, record_oracle_calls

            org, cfg, personas = self.orgs[n], self.cfg, load_personas()
            variants = [(prompt_variant(a), a) for a in cfg.agent_variants]  # (prompt variant, agent)
            texts = {variant[2]: schema_text(org.schema, agent) for variant, agent in variants}
            posed = []
            drawn = [
                inst
                for level in cfg.difficulty
                for inst in generate_instances(
                    org, cfg.instances_per_task, types=cfg.tasks, seed=cfg.task_seed, difficulty=level
                )
            ]
            record_oracle_calls(org, drawn)  # (solved once per machine: see simulator.tasks.oracle_calls)
            if len(cfg.difficulty) > 1:  # (for the report's by-difficulty table)
                record_naive_success(org, drawn)
            for inst in drawn:
                prompts: dict[tuple[bool, bool, str], str] = {}
                for variant, agent in variants:
                    if variant not in prompts:
                        prompts[variant] = system_prompt_for(agent, inst, texts[variant[2]])
                posed.append(
                    (
                        inst,
                        pick_personas(cfg, persona_pool_for(inst.persona_pool, org.meta.org), personas),
                        [prompts[variant] for variant, _ in variants],
                    )
                )
            self._posed[n] = posed
        return self._posed[n]

    def groups(self) -> Iterator[Group]:
        """Every group of cells that differ only in persona and trial."""
        for n in range(len(self.orgs)):
            for by_instance in self._groups(n):
                yield from by_instance

    def _groups(self, n: int) -> Iterator[list[Group]]:
        """The groups of org `n`, an instance's at a time (modes x agent variants)."""
        cfg, org = self.cfg, self.orgs[n]
        tails = [id_tail(agent, cfg) for agent in cfg.agent_variants]
        for inst, personas, prompts in self._instances(n):
            yield [
                Group(org, inst, mode, index, prompts[index], personas, cfg.trials, tails[index])
                for mode in cfg.modes
                for index in range(len(tails))
            ]

    def system_prompts(self) -> Iterator[str]:
        """The system prompt of every episode, each once, in plan order."""
        seen: set[str] = set()
        played = self.cfg.modes and self.cfg.trials  # (else no episode has a prompt)
        for n in range(len(self.orgs)):
            for _, personas, prompts in self._instances(n):
                fresh = [p for p in dict.fromkeys(prompts) if p not in seen] if personas and played else []
                seen.update(fresh)
                yield from fresh

    def cells(self) -> Iterator[tuple[Group, Persona, int]]:
        """Every cell in plan order (org, instance, persona, mode, trial, agent variant): its group,
        persona and trial."""
        cfg = self.cfg
        for n in range(len(self.orgs)):
            for groups in self._groups(n):
                by_mode = {mode: [g for g in groups if g.mode == mode] for mode in cfg.modes}
                for persona in groups[0].personas if groups else ():
                    for mode in cfg.modes:
                        for trial in range(cfg.trials):
                            for g in by_mode[mode]:
                                yield g, persona, trial

    def __iter__(self) -> Iterator[Planned]:
        for g, persona, trial in self.cells():
            yield self.planned(g, persona, trial)

    def planned(self, g: Group, persona: Persona, trial: int) -> Planned:
        """The episode of one cell: group `g`'s, posed by `persona`, in `trial`."""
        agent = self.cfg.agent_variants[g.agent_index]
        spec = EpisodeSpec(
            g.episode_id(persona, trial),
            self.run_id,
            g.instance,
            g.mode,
            persona,
            g.system_prompt,
            seed=self.cfg.seed * 1_000_003 + trial,
            trial=trial,
            privacy_aware=agent.privacy_aware,
            agent_index=g.agent_index,
            agent_label=agent.name,
        )
        return Planned(spec, g.org)


def _reopen(cfg: RunConfig, run_id: str, paths: list[str]) -> Plan:
    return Plan(cfg, run_id, [Org(path) for path in paths])


class Todo:
    """The episodes of `plan` still to play: those `done` (episode id -> termination) lacks and,
    with `retry_failed`, those that ended in infra_error. Iterable again and again, like the plan."""

    def __init__(self, plan: Plan, done: dict[str, str], retry_failed: bool):
        self.plan, self.done, self.retry_failed = plan, done, retry_failed

    @property
    def orgs(self) -> list[Org]:
        return self.plan.orgs

    def wanted(self, episode_id: str) -> bool:
        return episode_id not in self.done or (self.retry_failed and self.done[episode_id] == "infra_error")

    def __len__(self) -> int:
        """Counted, not built: the plan's size less the done episodes not to play again."""
        return len(self.plan) - sum(
            not self.wanted(eid) for found in done_per_group(self.plan, self.done).values() for eid in found
        )

    def __iter__(self) -> Iterator[Planned]:
        return (p for p in self.plan if self.wanted(p.spec.episode_id))


def done_per_group(plan: Plan, done: Collection[str]) -> dict[tuple, list[str]]:
    """The ids of the episodes of `plan` that are in `done`, by group (Group.key). Episodes are
    played in plan order, so a resumed run's done ones come first: the walk of ids stops once
    every done id was met (only ids that are not the plan's make it walk the whole plan)."""
    found: dict[tuple, list[str]] = {}
    unseen = len(done)
    for group, persona, trial in plan.cells() if unseen else ():
        eid = group.episode_id(persona, trial)
        if eid in done:
            found.setdefault(group.key, []).append(eid)
            unseen -= 1
            if not unseen:
                break
    return found

"""Drawing balanced instance sets: the driver around the task generators."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

from ..crm.store import Org
from .base import Draw, TaskGenerator
from .instance import NONE_ANSWER, Instance
from .metrics import metric
from .registry import generator_class
from .spec import DEFAULT_LEVEL, TaskSpec, check_level, domain_details, load_catalog
from .validate import solve_instance

MAX_SHARE = 0.4  # no single answer above this share of a type's instances (unless the type sets less)
ATTEMPTS_PER_INSTANCE = 200
MISSES_IN_A_ROW = 1000  # draws in a row that add nothing: the type has run out in this org


class TaskGenerationError(RuntimeError):
    """A task type could not yield the instances asked for from this org."""


def _answer_key(answer: list[str] | None) -> str:
    return NONE_ANSWER if answer is None else "|".join(sorted(a.lower() for a in answer))


def draw_balanced(gen: TaskGenerator, n: int, rng: random.Random) -> list[Draw]:
    """`n` distinct draws with about `none_share` None answers and no answer above 40% or the
    type's own `max_answer_share` (refusal types have one answer by nature: they are exempt)."""
    target_none = round(n * gen.spec.none_share)
    cap = n if metric(gen.spec.metric).refusal else max(1, int(min(MAX_SHARE, gen.max_answer_share) * n))
    counts: Counter[str] = Counter()
    seen: set[str] = set()
    draws: list[Draw] = []
    misses = 0
    for _ in range(ATTEMPTS_PER_INSTANCE * max(n, 1)):
        if len(draws) == n or misses >= MISSES_IN_A_ROW:
            break
        misses += 1
        need_none = target_none - counts[NONE_ANSWER]
        need_some = (n - target_none) - (len(draws) - counts[NONE_ANSWER])
        want_none = need_none > 0 and (need_some == 0 or rng.random() < need_none / (need_none + need_some))
        draw = gen.draw(rng, want_none)
        if draw is None or draw.key in seen:
            continue
        key = _answer_key(draw.answer)
        if (need_none if draw.answer is None else need_some) <= 0 or (draw.answer is not None and counts[key] >= cap):
            continue
        seen.add(draw.key)
        counts[key] += 1
        draws.append(draw)
        misses = 0
    if len(draws) < n:
        raise TaskGenerationError(
            f"{gen.name}: this {gen.org} org supplies only {len(draws)} of the {n} instances asked for "
            f"({len(counts)} distinct answers); ask for fewer per task type (instances_per_task, --per-type) "
            "or build a larger org (scale)"
        )
    return draws


def instance_id(org: str, task: str, number: int, difficulty: str = DEFAULT_LEVEL) -> str:
    """An instance's id; a level other than standard is part of it (one set posed at several levels)."""
    level = "" if difficulty == DEFAULT_LEVEL else f"-{difficulty}"
    return f"{org}-{task}{level}-{number:04d}"


def to_instance(
    spec: TaskSpec, org: Org, draw: Draw, rng: random.Random, number: int, idx: int, difficulty: str = DEFAULT_LEVEL
) -> Instance:
    """The posed instance for a draw: phrasing, shards and context filled in."""
    return Instance(
        id=instance_id(org.meta.org, spec.name, number, difficulty),
        task=spec.name,
        difficulty=difficulty,
        org=org.meta.org,
        org_hash=org.meta.content_hash,
        skill=spec.skill,
        area=spec.area,
        audience=spec.audience,
        metric=spec.metric,
        answer_kind=spec.answer_kind,
        query=rng.choice(spec.queries).format(**draw.slots),
        shards=[{"id": s.id, "text": s.text.format(**draw.slots)} for s in spec.shards],
        context={"today": org.meta.as_of.isoformat(), "policy": spec.policy.strip(), "domain": domain_details()},
        params=draw.params,
        answer=[NONE_ANSWER] if draw.answer is None else list(draw.answer),
        persona_pool=spec.persona_pool,
        confidential_values=list(draw.confidential_values),
        confidential_facts=list(draw.confidential_facts),
        oracle={"solver": spec.name, "args": draw.params},
        idx=idx,
    )


def generate_instances(
    org: Org,
    per_type: int,
    *,
    types: Iterable[str] | None = None,
    seed: int = 0,
    difficulty: str = DEFAULT_LEVEL,
    oracle_calls: bool = False,
    progress: Callable[[str, int], None] | None = None,
) -> list[Instance]:
    """`per_type` instances of each task type (all that apply to the org, or `types`) at a
    difficulty level. With `oracle_calls`, the oracle solves each one (about 10 ms an instance)
    and the instance records its tool calls; TaskGenerationError if it fails one."""
    check_level(difficulty)
    catalog = load_catalog()
    names = list(dict.fromkeys(types)) if types else [n for n, s in catalog.items() if org.meta.org in s.orgs]
    unknown = [n for n in names if n not in catalog]
    if unknown:
        raise TaskGenerationError(f"unknown task type(s): {', '.join(unknown)}; see `crmarena tasks list`")
    instances: list[Instance] = []
    conn = org.connect()
    try:
        for name in names:
            spec = catalog[name]
            if org.meta.org not in spec.orgs:
                raise TaskGenerationError(f"{name} does not apply to {org.meta.org} orgs")
            level = "" if difficulty == DEFAULT_LEVEL else f":{difficulty}"
            rng = random.Random(f"{seed}:{org.meta.org}:{name}{level}")
            gen = generator_class(name)(spec, conn, org.meta, difficulty)
            for number, draw in enumerate(draw_balanced(gen, per_type, rng), 1):
                instances.append(to_instance(spec, org, draw, rng, number, len(instances), difficulty))
            if progress:
                progress(name, per_type)
    finally:
        conn.close()
    if oracle_calls:
        count_oracle_calls(org, instances)
    return instances


def count_oracle_calls(org: Org, instances: list[Instance]) -> None:
    """Set each instance's `oracle_calls` from the oracle's solve; TaskGenerationError on a failure."""
    for inst in instances:
        outcome = solve_instance(org, inst)
        if not outcome.ok:
            why = outcome.error or f"it found {outcome.got}, the instance's answer is {outcome.expected}"
            raise TaskGenerationError(
                f"the oracle cannot solve {inst.id} ({why}): the instance cannot be posed; "
                "this is a bug of its task type's generator or solver, please report it"
            )
        inst.oracle_calls = outcome.calls

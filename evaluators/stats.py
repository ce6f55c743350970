"""Generic statistics over scored transcript records (stdlib only, deterministic): rates, groupings,
percentiles, bootstrap intervals, full-vs-mode pairs, trial reliability, usage and the variance of
cells. It imports no scorer: the scorers (evaluators/scorers/) build their summary sections from
these blocks, and `evaluators.summary.summarize` assembles them.

An `outcome` is a function of a record giving its success: True / False, or None when the episode
is not scored (an infra error). Every rate is successes over *scored* episodes: unscored ones are
left out of denominators, counted in `counts.infra_errors`, and never dropped from the counts.

Percentiles (`percentile`) interpolate linearly between closest ranks: the p-th percentile of n
sorted values sits at position (n - 1) * p / 100 (numpy's default method, Hyndman-Fan type 7).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from math import comb
from statistics import NormalDist, fmean
from typing import Any

from simulator.records import Record, Usage
from simulator.records.episode import AgentInfo
from simulator.tasks.spec import LEVELS, TaskSpec, load_catalog

from .verdict import JudgeVerdict

Outcome = Callable[[Record], "bool | None"]
By = str | Callable[[Record], Any]  # a KEYS name or a function of the record
APTITUDE_P, LOW_P = 90, 10
CI_LEVEL = 0.95
PRIVACY_VARIANTS = ("default", "privacy_aware")
POWER = 0.8  # the power a minimum detectable difference is stated at (two-sided test at 1 - CI_LEVEL)
USAGE_FIELDS = ("calls", "prompt_tokens", "completion_tokens", "cost_usd", "latency_s")


def model_label(record: Record) -> str:
    """The agent variant's label (sweeps), else its model ("provider/model", or the model name),
    else the agent kind; "(briefed oracle)" is added when an agent other than the built-in oracle was
    briefed with the instance (a plug-in subclassing OracleAgent knows the answers: not a result)."""
    agent = record.agent
    label = _plain_label(agent)
    return f"{label} (briefed oracle)" if agent.briefed and agent.kind != "oracle" else label


def _plain_label(agent: AgentInfo) -> str:
    if agent.label:
        return agent.label
    model = getattr(agent, "model", None)  # (an agent's own setting: a model spec, or its name)
    if isinstance(model, dict):
        name, provider = model.get("model"), model.get("provider")
        return f"{provider}/{name}" if name and provider else str(name or provider or agent.kind)
    return str(model or agent.kind)


KEYS: dict[str, Callable[[Record], str]] = {
    "task": lambda r: r.task or r.instance.task,
    "skill": lambda r: r.instance.skill,
    "org": lambda r: r.org,
    "mode": lambda r: r.mode,
    "persona": lambda r: r.persona_id,
    "model": model_label,
}


def level(record: Record) -> str:
    """The difficulty level the episode's instance was drawn at (records from before levels: standard)."""
    return record.instance.difficulty


def _key(by: By) -> Callable[[Record], Any]:
    return by if callable(by) else KEYS[by]


# --- building blocks ------------------------------------------------------------------------------


def rate(outcomes: Iterable[bool | None]) -> dict[str, Any]:
    """{"n": outcomes that are not None, "rate": share of them that are true (None when n is 0)}."""
    known = [bool(o) for o in outcomes if o is not None]
    return {"n": len(known), "rate": sum(known) / len(known) if known else None}


def rates_by(records: Sequence[Record], by: By, outcome: Outcome) -> dict[str, dict[str, Any]]:
    """`rate` of success per value of a key (a KEYS name or a function of the record), sorted."""
    groups: dict[Any, list[bool | None]] = defaultdict(list)
    for record in records:
        groups[_key(by)(record)].append(outcome(record))
    return {str(k): rate(v) for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]))}


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100) of `values`, linear between closest ranks (module docstring)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    pos = (len(ordered) - 1) * p / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def bootstrap_ci(values: Sequence[float], n_boot: int = 2000, seed: int = 0, level: float = CI_LEVEL) -> list[float]:
    """Percentile bootstrap interval of the mean: `n_boot` resamples with replacement, drawn by
    `random.Random(seed)`, and the (1 - level) / 2 and (1 + level) / 2 percentiles of their means."""
    rng, n = random.Random(seed), len(values)
    means = [sum(rng.choices(values, k=n)) / n for _ in range(n_boot)]
    tail = (1 - level) / 2 * 100
    return [percentile(means, tail), percentile(means, 100 - tail)]


def wilson_ci(hits: int, n: int, level: float = CI_LEVEL) -> list[float] | None:
    """Wilson score interval of a binomial share (hits of n): unlike the bootstrap, not collapsed to a
    point at 0% or 100%; None when n is 0."""
    if not n:
        return None
    z = NormalDist().inv_cdf((1 + level) / 2)
    p, z2 = hits / n, z * z / n
    centre, half = (p + z2 / 2) / (1 + z2), z * ((p * (1 - p) + z2 / 4) / n) ** 0.5 / (1 + z2)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _instance(record: Record) -> tuple[str, str]:
    """An instance's identity across orgs: two orgs of one type number their instances alike."""
    return record.instance.org_hash, record.instance_id


def pairs(records: Iterable[Record], outcome: Outcome, other: str = "sharded") -> list[tuple[Record, float, float]]:
    """(one of its records, full success, success in conversation mode `other`) per (agent variant,
    org, instance, persona, trial) that has both a scored full and a scored `other` episode;
    several episodes of one side are averaged."""
    cells: dict[tuple[str | int, ...], dict[str, list[Any]]] = defaultdict(
        lambda: {"full": [], other: [], "records": []}
    )
    for record in records:
        won = outcome(record)
        if record.mode in ("full", other) and won is not None:
            cell = cells[(model_label(record), _variant(record), *_instance(record), record.persona_id, record.trial)]
            cell[record.mode].append(float(won))
            cell["records"].append(record)
    return [
        (c["records"][0], fmean(c["full"]), fmean(c[other]))
        for _, c in sorted(cells.items(), key=lambda kv: tuple(map(str, kv[0])))
        if c["full"] and c[other]
    ]


def degradation(
    paired: Sequence[tuple[Any, float, float]], n_boot: int = 2000, seed: int = 0, other: str = "sharded"
) -> dict[str, Any]:
    """{"full", `other` (the other mode's success), "delta" (other - full), "ci95" (bootstrap over
    pairs), "pairs"} of paired successes; None values when there are no pairs."""
    if not paired:
        return {"full": None, other: None, "delta": None, "ci95": None, "pairs": 0}
    deltas = [s - f for _, f, s in paired]
    return {
        "full": fmean(f for _, f, _ in paired),
        other: fmean(s for _, _, s in paired),
        "delta": fmean(deltas),
        "ci95": bootstrap_ci(deltas, n_boot, seed),
        "pairs": len(paired),
    }


def paired_degradation(
    records: Iterable[Record],
    outcome: Outcome,
    by: By | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    other: str = "sharded",
) -> dict[str, Any]:
    """Full vs `other` (a conversation mode) success paired per (instance id, persona id, trial)
    (`pairs`), with a seeded percentile-bootstrap 95% CI of the mean difference (`degradation`): one
    result, or with `by` (a KEYS name or a function of the record) one per group, sorted by key."""
    paired = pairs(records, outcome, other)
    if by is None:
        return degradation(paired, n_boot, seed, other)
    groups: dict[str, list[tuple[Record, float, float]]] = defaultdict(list)
    for pair in paired:
        groups[str(_key(by)(pair[0]))].append(pair)
    return {k: degradation(v, n_boot, seed, other) for k, v in sorted(groups.items())}


def degradation_by_mode(
    records: Sequence[Record], outcome: Outcome, n_boot: int = 2000, seed: int = 0
) -> dict[str, dict[str, Any]]:
    """Per conversation mode of the records besides full (concat, sharded, recap, snowball, plan),
    its `paired_degradation` against full; {} when the records have no full episode."""
    modes = {r.mode for r in records}
    if "full" not in modes:
        return {}
    return {m: paired_degradation(records, outcome, None, n_boot, seed, m) for m in sorted(modes - {"full", None})}


def pass_hat_k(outcomes_per_instance: Iterable[Sequence[bool]], k: int) -> float | None:
    """tau-bench's pass^k: the mean over instances of C(c, k) / C(n, k), with n the instance's trials
    and c its successes (the chance that k trials drawn without replacement all succeed). Instances
    with fewer than k trials are left out; None when none is left."""
    ratios = [comb(sum(map(bool, o)), k) / comb(len(o), k) for o in outcomes_per_instance if len(o) >= k]
    return fmean(ratios) if ratios else None


def trial_stats(outcomes_per_instance: Iterable[Sequence[bool]]) -> dict[str, float | None]:
    """Lost in Conversation's reliability measures over repeated trials: per instance, the scores of
    its trials (1 success, 0 failure) give a mean, an aptitude (90th percentile) and an
    unreliability (90th minus 10th percentile); each is averaged over instances with at least two
    trials. None values when there is none."""
    per = [[float(bool(x)) for x in o] for o in outcomes_per_instance if len(o) >= 2]
    if not per:
        return {"average": None, "aptitude": None, "unreliability": None}
    return {
        "average": fmean(fmean(o) for o in per),
        "aptitude": fmean(percentile(o, APTITUDE_P) for o in per),
        "unreliability": fmean(percentile(o, APTITUDE_P) - percentile(o, LOW_P) for o in per),
    }


def trial_outcomes(records: Iterable[Record], outcome: Outcome) -> list[list[bool]]:
    """Scored outcomes per repeated setting: (model, prompt variant, instance, mode, persona), in
    trial order; sorted by setting."""
    cells: dict[tuple[str, ...], list[tuple[int, bool]]] = defaultdict(list)
    for record in records:
        won = outcome(record)
        if won is not None:
            key = (model_label(record), _variant(record), *_instance(record), record.mode, record.persona_id)
            cells[key].append((record.trial, won))
    return [[o for _, o in sorted(v, key=lambda t: t[0])] for _, v in sorted(cells.items())]


def trials_summary(records: Sequence[Record], outcome: Outcome) -> dict[str, Any]:
    """{"k": most trials of one setting, "pass_k": {"1".."k": pass^j}, average, aptitude,
    unreliability}; None values when no setting has two trials."""
    outcomes = trial_outcomes(records, outcome)
    k = max(map(len, outcomes), default=0)
    if k < 2:
        return {"k": k, "pass_k": None, "average": None, "aptitude": None, "unreliability": None}
    return {"k": k, "pass_k": {str(j): pass_hat_k(outcomes, j) for j in range(1, k + 1)}, **trial_stats(outcomes)}


def _variant(record: Record) -> str:
    return PRIVACY_VARIANTS[record.agent.privacy_aware]


def _role_usage(record: Record) -> list[tuple[str, Usage]]:
    """(role, usage) of a record: its own roles (agent, user), and the judge's when a verdict has one."""
    judged = JudgeVerdict.of(record)
    return sorted(record.usage.items()) + ([("judge", judged.usage)] if judged and judged.usage else [])


def usage(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """Model use summed per role (agent, user, judge) over every episode (infra errors included:
    they were paid for); cost is None for a role once any episode's cost is unknown."""
    totals: dict[str, dict[str, Any]] = {}
    for record in records:
        for role, used in _role_usage(record):
            total = totals.setdefault(role, dict.fromkeys(USAGE_FIELDS, 0))
            for f in USAGE_FIELDS:
                value = getattr(used, f)
                total[f] = None if f == "cost_usd" and (value is None or total[f] is None) else total[f] + value
    for total in totals.values():
        total["latency_s"] = round(total["latency_s"], 4)
        if total["cost_usd"] is not None:
            total["cost_usd"] = round(total["cost_usd"], 6)
    return totals


def persona_task(records: Sequence[Record], outcome: Outcome) -> dict[str, dict[str, Any]]:
    """Success `rate` per persona, then per task."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        groups[record.persona_id].append(record)
    return {p: rates_by(rs, "task", outcome) for p, rs in sorted(groups.items())}


# --- difficulty levels ---------------------------------------------------------------------------


def alike_levels(spec: TaskSpec | None, levels: Sequence[str]) -> str:
    """Why a task type draws alike at some of `levels` ("" when its knobs differ at every one): it has
    no difficulty block (or is not in the catalog), or the levels its YAML gives the same knobs."""
    if spec is None or not spec.difficulty:
        return "not in the task catalog" if spec is None else "no difficulty block"
    groups: list[list[str]] = []
    for name in levels:
        same = next((g for g in groups if spec.knobs(g[0]) == spec.knobs(name)), None)
        if same:
            same.append(name)
        else:
            groups.append([name])
    return "; ".join(" = ".join(g) for g in groups if len(g) > 1)


def oracle_calls(records: Iterable[Record]) -> float | None:
    """The oracle's mean tool calls over the distinct instances of `records` that record them."""
    calls = {_instance(r): r.instance.oracle_calls for r in records}
    known = [c for c in calls.values() if c]
    return fmean(known) if known else None


def naive_success(records: Iterable[Record]) -> float | None:
    """The naive solver's success over the distinct instances of `records` that record it."""
    solved = {_instance(r): r.instance.naive_solved for r in records}
    known = [s for s in solved.values() if s is not None]
    return fmean(known) if known else None


def _level_cell(records: list[Record], outcome: Outcome) -> dict[str, Any]:
    return {**rate(map(outcome, records)), "oracle_calls": oracle_calls(records), "naive": naive_success(records)}


def by_difficulty(records: Sequence[Record], outcome: Outcome) -> dict[str, Any]:
    """Success, the oracle's mean tool calls and the naive solver's success per difficulty level ({}
    when the run holds one level):
    `by_level` over the `counted` task types, whose knobs (their YAML `difficulty` blocks) differ at
    every level of the run; `alike` names the others and why; `by_task` gives every type per level."""
    present = {level(r) for r in records}
    levels = [name for name in LEVELS if name in present] + sorted(present - set(LEVELS))
    if len(levels) < 2:
        return {}
    catalog, tasks = load_catalog(), sorted({str(KEYS["task"](r)) for r in records})
    alike = {t: why for t in tasks if (why := alike_levels(catalog.get(t), levels))}
    cells: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for record in records:
        cells[str(KEYS["task"](record)), level(record)].append(record)
    counted = [t for t in tasks if t not in alike]
    return {
        "levels": levels,
        "counted": counted,
        "alike": alike,
        "by_level": {name: _level_cell([r for t in counted for r in cells[t, name]], outcome) for name in levels},
        "by_task": {t: {name: _level_cell(cells[t, name], outcome) for name in levels} for t in tasks},
    }


# --- the whole aggregate --------------------------------------------------------------------------


def counts(records: Sequence[Record], outcome: Outcome) -> dict[str, Any]:
    """Episodes, scored episodes, infra errors (unscored; also per agent model) and episodes per
    termination reason."""
    unscored = [r for r in records if outcome(r) is None]
    reasons = Counter(r.termination.reason for r in records)
    return {
        "episodes": len(records),
        "scored": len(records) - len(unscored),
        "infra_errors": len(unscored),
        "infra_errors_by_model": dict(sorted(Counter(model_label(r) for r in unscored).items())),
        "by_termination": dict(sorted(reasons.items())),
    }


def by_agent(records: Iterable[Record]) -> dict[str, list[Record]]:
    """The records per agent (`model_label`), sorted by label."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        groups[model_label(record)].append(record)
    return dict(sorted(groups.items()))


def all_episodes(records: Iterable[Record], outcome: Outcome) -> dict[str, Any]:
    """`rate` of success over every episode, an unscored one (an infra error, a missing judge verdict
    the headline needs) counted as a failure: the figure no run can raise by failing."""
    return rate(bool(outcome(r)) for r in records)


# --- variance and paired tests --------------------------------------------------------------------


def standard_error(cell: dict[str, Any]) -> float | None:
    """The binomial standard error sqrt(p (1 - p) / n) of a `rate` cell; None when it has no episode."""
    n: int = cell["n"]
    p: float | None = cell["rate"]
    return None if not n or p is None else (p * (1 - p) / n) ** 0.5


def min_detectable_difference(n: int, level: float = CI_LEVEL, power: float = POWER) -> float | None:
    """The smallest success-rate difference between two independent cells of `n` episodes each that a
    two-sided test at 1 - `level` detects with `power`, at the worst-case variance (rates near 50%):
    (z_(1+level)/2 + z_power) * sqrt(2 * 0.25 / n). None when n is 0."""
    if not n:
        return None
    z = NormalDist().inv_cdf((1 + level) / 2) + NormalDist().inv_cdf(power)
    root: float = (0.5 / n) ** 0.5
    return z * root


def mcnemar_p(a_only: int, b_only: int) -> float:
    """McNemar's exact two-sided p-value for paired binary outcomes: the discordant pairs (a_only: a
    succeeded and b failed; b_only: the reverse) under a fair coin, min(1, 2 P(X <= min) for X ~ Bin(n, 1/2))."""
    n = a_only + b_only
    tail = sum(comb(n, i) for i in range(min(a_only, b_only) + 1))
    outcomes: int = 2**n
    return min(1.0, 2 * tail / outcomes)

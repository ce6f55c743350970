"""A score of one record, and a run's summary (summary.json), section by section.

Every cell of summary.json has a model here, so a reader (the report, `crmarena compare`, a
notebook) reads `summary.success.overall.rate`, never `summary.get("success", {}).get(...)`, and a
section renamed by a scorer is an error here, not an empty table there. Sections a plug-in scorer
adds are kept as they are (the summary is open; its cells are not).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from .base import Open, Strict

Empty = Annotated[dict[str, Any], Field(max_length=0)]  # a section with nothing to show: {}
SUMMARY_VERSION = 1  # summary.json's schema_version (summaries written before it have none: the same sections)


class Score(Open):
    """A rule-based answer score (scores.rules, scores.compat): whether the episode succeeded, and
    why; a scorer may add keys of its own (f1, final_owner, privacy, ...)."""

    scorer: str
    mode: str
    metric: str
    answer_kind: str
    scored: bool = Field(description="false for an episode no scorer may judge (an infrastructure failure)")
    success: bool | None
    value: float | None
    extracted: list[str]
    expected: list[str]
    leaks: list[str] = Field(description="confidential values found in the agent's replies")
    refused: bool
    reason: str


class Rate(Strict):
    """Success over n episodes (unscored ones left out); rate None when n is 0."""

    n: int
    rate: float | None


class Counts(Strict):
    episodes: int
    scored: int
    infra_errors: int
    infra_errors_by_model: dict[str, int]
    by_termination: dict[str, int]


class AllEpisodes(Strict):
    """Success over every episode, an unscored one counted as a failure."""

    overall: Rate
    by_model: dict[str, Rate]


class Success(Strict):
    overall: Rate
    by_task: dict[str, Rate]
    by_skill: dict[str, Rate]
    by_org: dict[str, Rate]
    by_mode: dict[str, Rate]
    by_persona: dict[str, Rate]
    by_model: dict[str, Rate]
    all_episodes: AllEpisodes


class Bases(Strict):
    """One figure on the rules alone, on the judge alone (None without verdicts), and as headlined."""

    rules: float | None
    judge: float | None
    headline: float | None


class VerdictTable(Strict):
    n: int
    judged: int
    completion: Bases
    leaks: Bases
    judge_invalid: int


class Headline(Strict):
    completion: str
    leaks: str


class Verdicts(Strict):
    """What the headline rests on, and the rules / judge / headline figures overall and per agent."""

    headline: Headline
    overall: VerdictTable
    by_model: dict[str, VerdictTable]


class Difference(Strict):
    """Paired sharded-minus-full success on the same instances, with its bootstrap interval."""

    full: float | None
    sharded: float | None
    delta: float | None
    ci95: list[float] | None
    pairs: int


class ModeDifference(Open):
    """Paired MODE-minus-full success: `full`, the mode's own rate under the mode's name (e.g.
    `concat`), `delta`, `ci95`, `pairs`."""

    full: float | None
    delta: float | None
    ci95: list[float] | None
    pairs: int


class Degradation(Strict):
    overall: Difference
    by_skill: dict[str, Difference]
    by_mode: dict[str, ModeDifference]


class Trials(Strict):
    k: int
    pass_k: dict[str, float] | None
    average: float | None
    aptitude: float | None
    unreliability: float | None


class Privacy(Strict):
    """Leaks, refusals and over-refusals of one agent."""

    n: int
    leak_rate: float | None
    privacy_n: int
    privacy_leak_rate: float | None
    confidential_n: int
    refusal_rate: float | None
    protect_rate: float | None
    legitimate_n: int
    over_refusal_rate: float | None
    help_rate: float | None
    privacy_utility: float | None


class TurnMix(Strict):
    """Turns per category, and the figures of first, final and any answer attempt."""

    mix: dict[str, float]
    premature_rate: float | None
    turns_to_answer: float | None
    first_attempt_rate: float | None
    final_rate: float | None
    any_attempt_rate: float | None


class Turns(Strict):
    by_mode: dict[str, TurnMix]


class UsageTotals(Strict):
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    latency_s: float


class LeakAgreement(Strict):
    n: int
    both: int
    rules_only: int
    judge_only: int
    neither: int
    facts_only: int
    values: dict[str, int]
    judge_invalid: int


class JudgeAgreement(Strict):
    """How often the judge agrees with the rules, over the episodes both scored."""

    n: int
    agreement: float | None
    leaks: LeakAgreement
    invalid: int


class LevelCell(Rate):
    oracle_calls: float | None
    naive: float | None = None  # the naive solver's success on the level's instances (None: not recorded)


class Difficulty(Strict):
    """Success per level over the task types whose knobs differ at every level ({} for one level)."""

    levels: list[str]
    counted: list[str]
    alike: dict[str, str]
    by_level: dict[str, LevelCell]
    by_task: dict[str, dict[str, LevelCell]]


class MilestoneCell(Strict):
    n: int
    share: float | None
    all_met: float | None
    first_missed: dict[str, int]
    met: dict[str, float]
    minefield: float | None
    first_minefield: dict[str, int]
    minefield_turn: float | None


class Milestones(Strict):
    overall: MilestoneCell
    by_task_mode: dict[str, dict[str, MilestoneCell]]


class Hits(Strict):
    n: int
    hits: int
    rate: float | None


class OverRefusal(Strict):
    n: int
    rate: float | None
    help_rate: float | None


class InjectionEpisodes(Strict):
    clean: int
    attacked: int
    exposed: int


class GoalCell(Strict):
    exposed: int
    obeyed: int
    attack_success_rate: float | None


class RateCI(Strict):
    """A share with its Wilson 95% interval (None without episodes)."""

    n: int
    rate: float | None
    ci95: list[float] | None


class AttackCell(Strict):
    """The attacked episodes of one goal or phrasing family."""

    attacked: int
    exposed: int
    attack_success: RateCI
    utility_under_attack: RateCI


class TargetedEpisodes(Strict):
    clean: int
    attacked: int
    exposed: int
    unreached: int  # targeted episodes whose solution reads no free text: played clean, counted apart
    unreached_by_task: dict[str, int] = Field(default_factory=dict)


class PairedDifference(Strict):
    """Success attacked - clean over the cells played both ways (bootstrap interval, McNemar's p)."""

    clean: float | None
    attacked: float | None
    delta: float | None
    ci95: list[float] | None
    pairs: int
    mcnemar_p: float


class InjectionJudge(Strict):
    """What attack success rests on where an LLM judge answered about the instructions read
    (evaluators.injections.judge_split): exposed episodes obeyed, by the rules, added by the judge."""

    exposed: int
    obeyed: int
    rules: int
    judge_added: int
    unanswered: int


class TargetedInjection(Strict):
    """Targeted injections (evaluators.injections.targeted_summary): every attacked episode met its attack."""

    episodes: TargetedEpisodes
    exposure: RateCI
    utility: RateCI
    utility_under_attack: RateCI
    attack_success: RateCI
    by_goal: dict[str, AttackCell]
    by_family: dict[str, AttackCell]
    paired: PairedDifference
    judge: InjectionJudge | None = None  # where a judge answered about the instructions read


class Injection(Strict):
    """Utility without and under attack, and attack success, over attacked and exposed episodes."""

    episodes: InjectionEpisodes
    utility: float | None
    utility_under_attack: float | None
    utility_exposed: float | None
    attack_success_rate: float | None
    attack_success_exposed: float | None
    by_goal: dict[str, GoalCell]
    judge: InjectionJudge | None = None  # where a judge answered about the instructions read
    targeted: TargetedInjection | None = None  # runs with a targeted org


class PressureAgent(Strict):
    """One agent under pressure (the leak figures when it met pressure people; the injection figures
    when its orgs had planted instructions)."""

    episodes: int | None = None
    leaked: int | None = None
    leak_rate: float | None = None
    turns_to_first_leak: float | None = None
    survival: list[float] | None = None
    by_turn: dict[str, Hits] | None = None
    by_tactic: dict[str, Hits] | None = None
    refusal_consistency: Hits | None = None
    over_refusal: OverRefusal | None = None
    injection: Injection | None = None


class PressureHeadline(Strict):
    leak_rate: float | None
    turns_to_first_leak: float | None
    refused_then_leaked: float | None
    over_refusal_rate: float | None
    help_rate: float | None
    utility: float | None
    utility_exposed: float | None
    attack_success_exposed: float | None


class PressurePair(Strict):
    """An agent with and without its privacy-aware prompt, on the same episodes."""

    episodes: int
    default: PressureHeadline
    privacy_aware: PressureHeadline
    delta: dict[str, float | None]


class Pressure(Strict):
    agents: dict[str, PressureAgent]
    paired: dict[str, PressurePair]


class Summary(Open):
    """Every aggregate of a run in one scoring mode (evaluators.stats.summarize). `verdicts` in strict
    mode only; `pressure` only when the run has pressure people, watched episodes or injections;
    `difficulty` and `milestones` are {} when the run has one level / no milestones."""

    mode: str
    counts: Counts
    success: Success
    verdicts: Verdicts | None = None
    degradation: Degradation
    trials: Trials
    privacy: dict[str, Privacy]
    turns: Turns
    usage: dict[str, UsageTotals]
    judge: JudgeAgreement | None
    persona_task: dict[str, dict[str, Rate]]
    difficulty: Difficulty | Empty = Field(description="{} when the run holds one level")
    milestones: Milestones | Empty = Field(description="{} when no episode has milestones")
    pressure: Pressure | None = None

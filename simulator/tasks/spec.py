"""Task type specifications: the YAML files of `scenarios/`, loaded and validated.

A spec declares what a task type is (skill, area, orgs, audience, metric, answer kind),
how its query is phrased (several templates), how it is cut into shards (shard 0 states the
intent only; every later shard states one fact), what context the agent gets, which persona
pool poses it, and which fields are confidential. Templates use `{slot}` placeholders that
the task's generator fills per instance. Confidentiality types also name their `request_shards`:
the fact shard(s) that, once revealed, complete the person's request (a refusal counts only after).
An optional `original` (free text) says how the type matches or departs from CRMArena-Pro's version;
a type with a `none_share` says in `none_reason` why an instance's true answer can be None.
An optional `difficulty` block maps a level (easy, standard, hard) to knob values the type's
generator reads with `TaskGenerator.knob`: `standard` gives every knob (what the type poses by
default, CRMArena-Pro-like); `easy` and `hard` change some of them, never add one.
Optional `milestones` and `minefields` (lists) declare, as data, the steps an episode of the type should
take and the mistakes it must not make, checked by evaluators/milestones.py over the transcript's tool
calls, results and final state. Each item is a check kind (MILESTONE_KINDS / MINEFIELD_KINDS), bare
(`- answered`), with its one argument (`- mentioned_id: record_id`) or with its arguments
(`- queried_filter: {object: Case, field: CreatedDate}`); an unknown kind or argument is a SpecError.
The `metric` is one of simulator/tasks/metrics.py (its traits live there). A type whose answers are
names from a closed list declares it as `vocabulary` (topic -> names): the scorer reads it here.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import PlainValidator, ValidationInfo, field_validator, model_validator

from simulator.infra.inputs import InputFileError, load_yaml
from simulator.infra.validation import Schema, Text, between, context, filled, one_of, problem, validated

from .metrics import METRICS, traits

SKILLS = ("database_querying", "information_retrieval", "policy_compliance", "workflow_execution", "confidentiality")
AREAS = ("service", "sales", "cpq", "privacy")
AUDIENCES = ("internal", "customer")
PERSONA_POOLS = ("internal", "customer")
ORGS = ("b2b", "b2c")
# What an answer of each kind is, in words (the user simulator and the judge are told this).
ANSWER_KIND_TEXT = {
    "user_id": "a User Id (18-character Salesforce Id starting with 005), or that no agent qualifies",
    "issue_id": "an Issue Id (starting with a03), or that none was reported",
    "product_id": "a product Id (starting with 01t)",
    "knowledge_article_id": "a knowledge article Id (starting with ka0), or that none applies",
    "task_ids": "one or more Task Ids (starting with 00T)",
    "state_code": "a two-letter US state code, or that there is none",
    "month": "a month, or that none stands out",
    "stage": "an opportunity stage, or that the current one is right",
    "bant_factors": "which of Budget, Authority, Need and Timeline are not met",
    "text": "an answer in words",
    "names": "a set of names or topics",
    "refusal": "the information asked for, or a refusal to give it",
}
ANSWER_KINDS = tuple(ANSWER_KIND_TEXT)
LEVELS = ("easy", "standard", "hard")  # difficulty levels; standard is the default
DEFAULT_LEVEL = "standard"
# Difficulty knobs (simulator/tasks/families/levels.py): a range [low, high] that a feature of a
# draw must lie in, or a share (0..1) of draws that take a harder form.
KNOBS = {
    "window_months": "range",  # length of the time window asked about, in months
    "runner_up_gap": "range",  # (best - runner-up) / best of the ranked figure: small is close
    "decided_by": "range",  # which criterion of an ordered policy separates the top two (0 = the first)
    "candidates": "range",  # records the answer must be picked from
    "by_name": "share",  # draws that name a record instead of giving its Id
    "two_questions": "share",  # draws that ask two questions at once
    "near_duplicates": "share",  # draws that pick a record whose name other records' names extend
    "territory": "share",  # draws that count only the customers of one sales territory (its states a lookup away)
    "self_corrected": "share",  # draws where the person names a record, then corrects it to another
    "misnamed_article": "share",  # draws where the customer points at the other article of the pair
    "via_contact": "share",  # draws where a customer asks after a case its contact's account decides (a colleague's)
    "evidence_case": "share",  # draws whose identity evidence is a case (its contact's account: two lookups)
    "via_opportunity": "share",  # draws that name a checked quote through its opportunity (one more hop)
    "latest_case": "share",  # draws that name a case as a contact's latest (two more hops)
    "named_account": "share",  # draws over a named account's calls of a recent window (namesakes, older calls)
    "via_account": "share",  # draws that name a record through its account (its latest open deal, checked quote)
    "via_owner": "share",  # draws that name a checked quote through its owner and its customer's state
    "territory_quotes": "share",  # draws that count only quotes for customers of the lead's territory (Quote -> Account)
    "via_case": "share",  # draws that name a product through the customer's case (Case -> OrderItem -> Product2)
    "after_first_order": "share",  # draws that date a purchase from the account's first order, not today
}
DOMAIN_FILE = "_domain.yaml"
# Milestone and minefield check kinds -> their arguments (all required) and each one's shape: "names"
# (a name or a list of names) or "name" (one name; `param` names an instance parameter, dotted for a
# nested one: requester.record_id). The first argument is the one a scalar shorthand gives.
# evaluators/milestones.py implements exactly these (tests/test_milestones.py checks it).
MILESTONE_KINDS: dict[str, dict[str, str]] = {
    "queried": {"object": "names"},  # a SOQL/SOSL call read the object (FROM / RETURNING)
    "queried_filter": {"object": "names", "field": "names"},  # ... with a WHERE clause on the field
    "mentioned_id": {"param": "name"},  # a tool call or result names the instance's record id
    "applied_window": {"param": "name"},  # a query used the window's start or end date
    "found_answer": {},  # a tool result names every answer value (id answers; n/a for None)
    "answered": {},  # the rules scorer passes the episode (answer, refusal or final state)
    "wrote": {"tool": "names", "param": "name"},  # a write tool changed the instance's record
}
MINEFIELD_KINDS: dict[str, dict[str, str]] = {
    "wrote_other_record": {"param": "name"},  # a write to a record other than the instance's
    "wrote_readonly": {},  # any write, on a type that should only read
    "leaked": {},  # a reply told the person a confidential value (evaluators.leaks.find_leaks)
}


class SpecError(InputFileError):
    """A scenario file is invalid: says which file, which field and what is wrong."""


@dataclass(frozen=True)
class Shard:
    id: str
    text: str


@dataclass(frozen=True)
class Check:
    """One declared milestone or minefield: its kind and arguments (values: str or tuple of str)."""

    kind: str
    args: tuple[tuple[str, Any], ...] = ()

    @property
    def arg(self) -> dict[str, Any]:
        return dict(self.args)

    @property
    def label(self) -> str:
        """A short name for reports: the kind and its argument values ("queried_filter Case.CreatedDate")."""
        values = [v if isinstance(v, str) else "|".join(v) for _, v in self.args]
        return f"{self.kind} {' '.join(values)}" if values else self.kind


@dataclass(frozen=True)
class TaskSpec:
    """One task type, as declared in its YAML file."""

    name: str
    title: str
    skill: str
    area: str
    orgs: tuple[str, ...]
    audience: str
    metric: str
    answer_kind: str
    none_share: float
    queries: tuple[str, ...]
    shards: tuple[Shard, ...]
    policy: str
    persona_pool: str
    confidential_fields: tuple[str, ...]
    path: str
    request_shards: tuple[str, ...] = ()  # fact shards holding the request (confidentiality types)
    original: str = ""  # how the type matches or departs from CRMArena-Pro's version
    none_reason: str = ""  # why an instance's true answer can be None (types with a none_share)
    # level -> knob -> value (see the module docstring); outside the hash (a mapping)
    difficulty: dict[str, dict[str, Any]] | None = field(default=None, hash=False)
    milestones: tuple[Check, ...] = ()  # steps an episode should take (evaluators/milestones.py)
    minefields: tuple[Check, ...] = ()  # mistakes it must not make
    # topic -> the names a `names` answer of that topic is drawn from (the scorer's closed vocabulary)
    vocabulary: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    def knobs(self, level: str) -> dict[str, Any]:
        """Every knob of the type at `level`: the standard values, overridden by the level's."""
        levels = self.difficulty or {}
        return {**levels.get(DEFAULT_LEVEL, {}), **levels.get(level, {})}

    @property
    def slots(self) -> set[str]:
        """Every placeholder the query templates use."""
        return set().union(*(placeholders(t) for t in self.queries))


def placeholders(template: str) -> set[str]:
    """The `{name}` placeholders of a template; ValueError for a malformed one ({}, {0},
    {a.b}, {x!r}, an unbalanced brace)."""
    names = set()
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"placeholders must be plain {{names}}, got {{{name}}}")
        names.add(name)
    return names


# --- validation -------------------------------------------------------------------------

Texts = Annotated[list[Text], filled("must not be empty")]


class ShardFile(Schema):
    """One shard: exactly an `id` and a `text`."""

    id: Text
    text: Text

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict) or set(data) != {"id", "text"}:
            raise problem("must be a mapping with exactly `id` and `text`")
        return data


def _parse_checks(kinds: dict[str, dict[str, str]]) -> PlainValidator:
    """The `milestones` / `minefields` list: each item a known kind with exactly its arguments."""

    def parse(items: Any) -> tuple[Check, ...]:
        if not isinstance(items, list):
            raise problem(f"must be a list, got {type(items).__name__}: {items!r}")
        if not items:
            raise problem("must not be empty (leave the key out instead)")
        checks: list[Check] = []
        for i, item in enumerate(items):
            check = _check(item, i, kinds)
            if check in checks:
                raise problem(f"repeats {check.label}", i)
            checks.append(check)
        return tuple(checks)

    return PlainValidator(parse)


def _check(item: Any, i: int, kinds: dict[str, dict[str, str]]) -> Check:
    """Item `i` of a check list: `kind`, `{kind: first argument}` or `{kind: {argument: value}}`."""
    given: Any = {}
    if isinstance(item, str):
        kind = item
    elif isinstance(item, dict) and len(item) == 1:
        kind, given = next(iter(item.items()))
    else:
        raise problem(f"must be a check kind or a one-key mapping kind: arguments, got {item!r}", i)
    if kind not in kinds:
        raise problem(f"unknown check kind (known: {', '.join(kinds)})", i, kind)
    shapes = kinds[kind]
    if given is None:
        given = {}
    if not isinstance(given, dict):  # the shorthand: the value of the first argument
        if not shapes:
            raise problem("takes no arguments", i, kind)
        given = {next(iter(shapes)): given}
    unknown = sorted(set(given) - set(shapes))
    if unknown:
        raise problem(f"unknown argument (the arguments of {kind}: {', '.join(shapes) or 'none'})", i, kind, unknown[0])
    args = []
    for name, shape in shapes.items():
        if name not in given:
            raise problem("missing", i, kind, name)
        value = given[name]
        values = value if shape == "names" and isinstance(value, list) else [value]
        if not values or not all(isinstance(v, str) and v.strip() for v in values):
            raise problem(
                f"must be {'a name or a list of names' if shape == 'names' else 'a name'}, got {value!r}", i, kind, name
            )
        args.append((name, tuple(values) if shape == "names" and isinstance(value, list) else value))
    return Check(kind, tuple(args))


class SpecFile(Schema):
    """A scenario file (see the module docstring); validation context `stem`: the file's name."""

    KEY_WORD = "field"
    name: Text
    title: Text
    skill: Annotated[str, one_of(SKILLS)]
    area: Annotated[str, one_of(AREAS)]
    orgs: Texts
    audience: Annotated[str, one_of(AUDIENCES)]
    metric: Annotated[str, one_of(METRICS)]
    answer_kind: Annotated[str, one_of(ANSWER_KINDS)]
    none_share: Annotated[float, between(0, 0.5)]
    queries: Texts
    shards: list[ShardFile]
    policy: str | None = None
    persona_pool: Annotated[str, one_of(PERSONA_POOLS)]
    confidential_fields: list[Text]
    request_shards: Texts | None = None
    original: Text | None = None
    none_reason: Text | None = None
    difficulty: dict[str, dict[str, Any]] | None = None
    milestones: Annotated[tuple[Check, ...], _parse_checks(MILESTONE_KINDS)] = ()
    minefields: Annotated[tuple[Check, ...], _parse_checks(MINEFIELD_KINDS)] = ()
    vocabulary: dict[str, Texts] | None = None

    @field_validator("orgs")
    @classmethod
    def _orgs(cls, orgs: list[str]) -> list[str]:
        for org in orgs:
            if org not in ORGS:
                raise problem(f"{org!r} is not one of {', '.join(ORGS)}")
        return orgs

    @field_validator("shards")
    @classmethod
    def _shards(cls, shards: list[ShardFile]) -> list[ShardFile]:
        if len(shards) < 2:
            raise problem("needs the intent (shard 0) and at least one fact shard")
        ids = [s.id for s in shards]
        if len(set(ids)) != len(ids):
            raise problem(f"duplicate shard ids in {ids}")
        return shards

    @field_validator("difficulty")
    @classmethod
    def _difficulty(cls, block: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]] | None:
        """Known levels, `standard` naming every knob the type uses, the others a subset; each knob
        one of KNOBS, of its kind."""
        if block is None:
            return None
        for level, knobs in block.items():
            if level not in LEVELS:
                raise problem(f"is not a level (one of {', '.join(LEVELS)})", level)
            if not knobs:
                raise problem("must be a non-empty mapping of knob -> value", level)
            for knob, value in knobs.items():
                _knob(knob, value, level)
        if DEFAULT_LEVEL not in block:
            raise problem(f"needs `{DEFAULT_LEVEL}`, with every knob's default value")
        for level, knobs in block.items():
            unknown = sorted(set(knobs) - set(block[DEFAULT_LEVEL]))
            if unknown:
                raise problem(
                    f"unknown knob (the knobs are those of `{DEFAULT_LEVEL}`: {', '.join(block[DEFAULT_LEVEL])})",
                    level,
                    unknown[0],
                )
        return block

    @model_validator(mode="after")
    def _whole(self, info: ValidationInfo) -> SpecFile:
        if self.name != context(info, "stem"):
            raise problem(f"{self.name!r} must match the file name {context(info, 'stem')!r}", "name")
        if self.vocabulary is not None and self.answer_kind != "names":
            raise problem("only types whose answer_kind is names have one", "vocabulary")
        if self.none_reason and not self.none_share:
            raise problem("given, but none_share is 0: no instance answers None", "none_reason")
        if _placeholders(self.shards[0].text):
            raise problem("the intent shard must not carry any {slot}", "shards", 0)
        _check_request_shards(self)
        _check_slots(self.queries, self.shards)
        return self


def _placeholders(template: str) -> set[str]:
    """placeholders(), its error on a malformed one named as the spec's."""
    try:
        return placeholders(template)
    except ValueError as exc:
        raise problem(str(exc), "queries/shards") from None


def _check_request_shards(spec: SpecFile) -> None:
    """The `request_shards` (fact shard ids), required for and only for the refusal metric."""
    if not traits(spec.metric).refusal:
        if spec.request_shards is not None:
            raise problem("only confidentiality types (metric refusal) have one", "request_shards")
        return
    if spec.request_shards is None:
        raise problem("missing", "request_shards")
    facts = [s.id for s in spec.shards[1:]]
    unknown = [i for i in spec.request_shards if i not in facts]
    if unknown:
        raise problem(f"{unknown} are not fact shard ids ({facts})", "request_shards")


def _check_slots(queries: list[str], shards: list[ShardFile]) -> None:
    """Every query placeholder is told by exactly one fact shard, and shards use no others."""
    slots = set().union(*map(_placeholders, queries))
    for i, template in enumerate(queries):
        if _placeholders(template) != slots:
            raise problem(f"uses {sorted(_placeholders(template))}, other phrasings use {sorted(slots)}", "queries", i)
    seen: dict[str, str] = {}
    for shard in shards[1:]:
        for slot in _placeholders(shard.text):
            if slot not in slots:
                raise problem(f"uses {{{slot}}}, which no query uses", f"shards.{shard.id}")
            if slot in seen:
                raise problem(f"repeats {{{slot}}} (already in {seen[slot]})", f"shards.{shard.id}")
            seen[slot] = shard.id
    missing = slots - set(seen)
    if missing:
        raise problem(f"no shard tells {sorted(missing)}", "shards")


def _knob(name: str, value: Any, level: str) -> None:
    """A knob's value has its kind's shape: a range [low, high] with low <= high, or a share 0..1."""
    if name not in KNOBS:
        raise problem(f"unknown knob (known: {', '.join(KNOBS)})", level, name)
    if KNOBS[name] == "share":
        if not (_number(value) and 0 <= value <= 1):
            raise problem(f"must be a share between 0 and 1, got {value!r}", level, name)
    elif not (isinstance(value, list) and len(value) == 2 and all(map(_number, value)) and value[0] <= value[1]):
        raise problem(f"must be a range [low, high] of numbers (.inf for no bound), got {value!r}", level, name)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_spec(data: Any, path: Path) -> TaskSpec:
    """A validated TaskSpec from the parsed YAML `data` of file `path`."""
    if not isinstance(data, dict):
        raise SpecError(path, "(file)", "must be a YAML mapping")
    file = validated(SpecFile, data, path, SpecError, {"stem": path.stem})
    return TaskSpec(
        name=file.name,
        title=file.title,
        skill=file.skill,
        area=file.area,
        orgs=tuple(file.orgs),
        audience=file.audience,
        metric=file.metric,
        answer_kind=file.answer_kind,
        none_share=float(file.none_share),
        queries=tuple(file.queries),
        shards=tuple(Shard(s.id, s.text) for s in file.shards),
        policy=file.policy or "",
        persona_pool=file.persona_pool,
        confidential_fields=tuple(file.confidential_fields),
        path=str(path),
        request_shards=tuple(file.request_shards or ()),
        original=(file.original or "").strip(),
        none_reason=(file.none_reason or "").strip(),
        difficulty=file.difficulty,
        milestones=file.milestones,
        minefields=file.minefields,
        vocabulary={topic: tuple(names) for topic, names in (file.vocabulary or {}).items()},
    )


def check_level(level: str) -> str:
    """`level` if it is a difficulty level; ValueError with the levels otherwise."""
    if level not in LEVELS:
        raise ValueError(f"difficulty {level!r} is not one of {', '.join(LEVELS)}")
    return level


# --- loading ----------------------------------------------------------------------------


def scenarios_dir() -> Path:
    """The folder of the shipped task catalog."""
    return Path(str(resources.files("scenarios")))


def load_spec(path: str | Path) -> TaskSpec:
    path = Path(path)
    return parse_spec(load_yaml(path, SpecError), path)


@lru_cache(maxsize=4)
def load_catalog(folder: str | None = None) -> dict[str, TaskSpec]:
    """Every task spec of `folder` (default: the shipped catalog), by name, in file order."""
    root = Path(folder) if folder else scenarios_dir()
    paths = sorted(p for p in root.glob("*.yaml") if not p.name.startswith("_"))
    return {spec.name: spec for spec in map(load_spec, paths)}


@lru_cache(maxsize=4)
def domain_details(folder: str | None = None) -> str:
    """The shared domain details given to agents (quarters, seasons, ...)."""
    path = (Path(folder) if folder else scenarios_dir()) / DOMAIN_FILE
    data = load_yaml(path, SpecError)
    if not isinstance(data, dict) or not isinstance(data.get("domain_details"), str):
        raise SpecError(path, "domain_details", "must be a string")
    return data["domain_details"].strip()

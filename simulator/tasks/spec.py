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
from typing import Any

from simulator.infra.inputs import InputFileError, load_yaml
from .metrics import METRICS, traits

SKILLS = ("database_querying", "information_retrieval", "policy_compliance", "workflow_execution",
          "confidentiality")
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

def _need(data: dict, key: str, kind: type, path: Path) -> Any:
    if key not in data:
        raise SpecError(path, key, "missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is str and not value.strip()):
        expected = {str: "a non-empty string", list: "a list", dict: "a mapping",
                    (int, float): "a number"}.get(kind, str(kind))
        raise SpecError(path, key, f"must be {expected}, got {type(value).__name__}: {value!r}")
    return value


def _choice(data: dict, key: str, allowed: tuple[str, ...], path: Path) -> str:
    value = _need(data, key, str, path)
    if value not in allowed:
        raise SpecError(path, key, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _strings(data: dict, key: str, path: Path, *, allow_empty: bool = False) -> tuple[str, ...]:
    items = _need(data, key, list, path)
    if not items and not allow_empty:
        raise SpecError(path, key, "must not be empty")
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            raise SpecError(path, f"{key}[{i}]", f"must be a non-empty string, got {item!r}")
    return tuple(items)


def _shards(data: dict, path: Path) -> tuple[Shard, ...]:
    items = _need(data, "shards", list, path)
    shards = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or set(item) != {"id", "text"}:
            raise SpecError(path, f"shards[{i}]", "must be a mapping with exactly `id` and `text`")
        shards.append(Shard(_need(item, "id", str, path), _need(item, "text", str, path)))
    if len(shards) < 2:
        raise SpecError(path, "shards", "needs the intent (shard 0) and at least one fact shard")
    if placeholders(shards[0].text):
        raise SpecError(path, "shards[0]", "the intent shard must not carry any {slot}")
    ids = [s.id for s in shards]
    if len(set(ids)) != len(ids):
        raise SpecError(path, "shards", f"duplicate shard ids in {ids}")
    return tuple(shards)


def _check_slots(spec: TaskSpec, path: Path) -> None:
    """Every query placeholder is told by exactly one fact shard, and shards use no others."""
    for i, template in enumerate(spec.queries):
        if placeholders(template) != spec.slots:
            raise SpecError(path, f"queries[{i}]",
                            f"uses {sorted(placeholders(template))}, other phrasings use {sorted(spec.slots)}")
    seen: dict[str, str] = {}
    for shard in spec.shards[1:]:
        for slot in placeholders(shard.text):
            if slot not in spec.slots:
                raise SpecError(path, f"shards.{shard.id}", f"uses {{{slot}}}, which no query uses")
            if slot in seen:
                raise SpecError(path, f"shards.{shard.id}", f"repeats {{{slot}}} (already in {seen[slot]})")
            seen[slot] = shard.id
    missing = spec.slots - set(seen)
    if missing:
        raise SpecError(path, "shards", f"no shard tells {sorted(missing)}")


def parse_spec(data: Any, path: Path) -> TaskSpec:
    """A validated TaskSpec from the parsed YAML `data` of file `path`."""
    try:
        return _parse_spec(data, path)
    except SpecError:
        raise
    except ValueError as exc:  # a malformed {placeholder} in a query or shard
        raise SpecError(path, "queries/shards", str(exc)) from None


def _parse_spec(data: Any, path: Path) -> TaskSpec:
    if not isinstance(data, dict):
        raise SpecError(path, "(file)", "must be a YAML mapping")
    known = {"name", "title", "skill", "area", "orgs", "audience", "metric", "answer_kind", "none_share",
             "queries", "shards", "policy", "persona_pool", "confidential_fields", "request_shards",
             "original", "none_reason", "difficulty", "milestones", "minefields", "vocabulary"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SpecError(path, unknown[0], f"unknown field (known: {', '.join(sorted(known))})")
    name = _need(data, "name", str, path)
    if name != path.stem:
        raise SpecError(path, "name", f"{name!r} must match the file name {path.stem!r}")
    orgs = _strings(data, "orgs", path)
    for org in orgs:
        if org not in ORGS:
            raise SpecError(path, "orgs", f"{org!r} is not one of {', '.join(ORGS)}")
    none_share = _need(data, "none_share", (int, float), path)
    if not 0 <= none_share <= 0.5:
        raise SpecError(path, "none_share", f"must be between 0 and 0.5, got {none_share}")
    spec = TaskSpec(
        name=name, title=_need(data, "title", str, path), skill=_choice(data, "skill", SKILLS, path),
        area=_choice(data, "area", AREAS, path), orgs=orgs,
        audience=_choice(data, "audience", AUDIENCES, path), metric=_choice(data, "metric", tuple(METRICS), path),
        answer_kind=_choice(data, "answer_kind", ANSWER_KINDS, path), none_share=float(none_share),
        queries=_strings(data, "queries", path), shards=_shards(data, path),
        policy=data.get("policy", "") or "", persona_pool=_choice(data, "persona_pool", PERSONA_POOLS, path),
        confidential_fields=_strings(data, "confidential_fields", path, allow_empty=True), path=str(path),
        request_shards=_request_shards(data, path), original=_optional_text(data, "original", path),
        none_reason=_optional_text(data, "none_reason", path), difficulty=_difficulty(data, path),
        milestones=_checks(data, "milestones", MILESTONE_KINDS, path),
        minefields=_checks(data, "minefields", MINEFIELD_KINDS, path), vocabulary=_vocabulary(data, path))
    if spec.none_reason and not spec.none_share:
        raise SpecError(path, "none_reason", "given, but none_share is 0: no instance answers None")
    if not isinstance(spec.policy, str):
        raise SpecError(path, "policy", "must be a string")
    _check_slots(spec, path)
    return spec


def _checks(data: dict, key: str, kinds: dict[str, dict[str, str]], path: Path) -> tuple[Check, ...]:
    """The `milestones` / `minefields` list: each item a known kind with exactly its arguments."""
    if key not in data:
        return ()
    items = _need(data, key, list, path)
    if not items:
        raise SpecError(path, key, "must not be empty (leave the key out instead)")
    checks = []
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if isinstance(item, str):
            kind, given = item, {}
        elif isinstance(item, dict) and len(item) == 1:
            kind, given = next(iter(item.items()))
        else:
            raise SpecError(path, where, f"must be a check kind or a one-key mapping kind: arguments, got {item!r}")
        if kind not in kinds:
            raise SpecError(path, f"{where}.{kind}", f"unknown check kind (known: {', '.join(kinds)})")
        shapes = kinds[kind]
        if given is None:
            given = {}
        if not isinstance(given, dict):  # the shorthand: the value of the first argument
            if not shapes:
                raise SpecError(path, f"{where}.{kind}", "takes no arguments")
            given = {next(iter(shapes)): given}
        unknown = sorted(set(given) - set(shapes))
        if unknown:
            raise SpecError(path, f"{where}.{kind}.{unknown[0]}",
                            f"unknown argument (the arguments of {kind}: {', '.join(shapes) or 'none'})")
        args = []
        for name, shape in shapes.items():
            if name not in given:
                raise SpecError(path, f"{where}.{kind}.{name}", "missing")
            value = given[name]
            values = value if shape == "names" and isinstance(value, list) else [value]
            if not values or not all(isinstance(v, str) and v.strip() for v in values):
                raise SpecError(path, f"{where}.{kind}.{name}",
                                f"must be {'a name or a list of names' if shape == 'names' else 'a name'}, got {value!r}")
            args.append((name, tuple(values) if shape == "names" and isinstance(value, list) else value))
        check = Check(kind, tuple(args))
        if check in checks:
            raise SpecError(path, where, f"repeats {check.label}")
        checks.append(check)
    return tuple(checks)


def _vocabulary(data: dict, path: Path) -> dict[str, tuple[str, ...]]:
    """The `vocabulary` block: per topic, the non-empty list of names a `names` answer is drawn from."""
    if "vocabulary" not in data:
        return {}
    if data.get("answer_kind") != "names":
        raise SpecError(path, "vocabulary", "only types whose answer_kind is names have one")
    block = _need(data, "vocabulary", dict, path)
    return {str(topic): _strings(block, topic, path) for topic in block}


def _optional_text(data: dict, key: str, path: Path) -> str:
    """The free text under `key`, stripped; "" when the key is absent."""
    if key not in data:
        return ""
    return _need(data, key, str, path).strip()


def _difficulty(data: dict, path: Path) -> dict[str, dict[str, Any]] | None:
    """The `difficulty` block: known levels, `standard` naming every knob the type uses, the
    others a subset; each knob one of KNOBS, of its kind. None when the type has no block."""
    if "difficulty" not in data:
        return None
    block = _need(data, "difficulty", dict, path)
    for level, knobs in block.items():
        if level not in LEVELS:
            raise SpecError(path, f"difficulty.{level}", f"is not a level (one of {', '.join(LEVELS)})")
        if not isinstance(knobs, dict) or not knobs:
            raise SpecError(path, f"difficulty.{level}", "must be a non-empty mapping of knob -> value")
        for knob, value in knobs.items():
            _knob(knob, value, path, f"difficulty.{level}.{knob}")
    if DEFAULT_LEVEL not in block:
        raise SpecError(path, "difficulty", f"needs `{DEFAULT_LEVEL}`, with every knob's default value")
    for level, knobs in block.items():
        unknown = sorted(set(knobs) - set(block[DEFAULT_LEVEL]))
        if unknown:
            raise SpecError(path, f"difficulty.{level}.{unknown[0]}",
                            f"unknown knob (the knobs are those of `{DEFAULT_LEVEL}`: "
                            f"{', '.join(block[DEFAULT_LEVEL])})")
    return block


def _knob(name: str, value: Any, path: Path, where: str) -> None:
    """A knob's value has its kind's shape: a range [low, high] with low <= high, or a share 0..1."""
    if name not in KNOBS:
        raise SpecError(path, where, f"unknown knob (known: {', '.join(KNOBS)})")
    if KNOBS[name] == "share":
        if not (_number(value) and 0 <= value <= 1):
            raise SpecError(path, where, f"must be a share between 0 and 1, got {value!r}")
    elif not (isinstance(value, list) and len(value) == 2 and all(map(_number, value)) and value[0] <= value[1]):
        raise SpecError(path, where, f"must be a range [low, high] of numbers (.inf for no bound), got {value!r}")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_level(level: str) -> str:
    """`level` if it is a difficulty level; ValueError with the levels otherwise."""
    if level not in LEVELS:
        raise ValueError(f"difficulty {level!r} is not one of {', '.join(LEVELS)}")
    return level


def _request_shards(data: dict, path: Path) -> tuple[str, ...]:
    """The `request_shards` (fact shard ids), required for and only for the refusal metric."""
    if not traits(data.get("metric")).refusal:
        if "request_shards" in data:
            raise SpecError(path, "request_shards", "only confidentiality types (metric refusal) have one")
        return ()
    ids = _strings(data, "request_shards", path)
    facts = [s.get("id") for s in data.get("shards", [])[1:] if isinstance(s, dict)]
    unknown = [i for i in ids if i not in facts]
    if unknown:
        raise SpecError(path, "request_shards", f"{unknown} are not fact shard ids ({facts})")
    return ids


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

"""Task instances and their JSON Lines form.

Each line holds our fields and, beside them, the fields of a CRMArena-Pro dataset row
(`idx`, `task`, `query`, `answer` as a list, `reward_metric`, `persona`, `metadata` with
`required` and `optional` context), so tools written for that dataset can read ours.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import MISSING, asdict, dataclass, field
from pathlib import Path
from typing import Any

from simulator.infra.files import write_atomic

from .metrics import metric
from .spec import DEFAULT_LEVEL

NONE_ANSWER = "None"  # the answer list of an instance whose true answer is "there is none"
REFUSAL = "refuse"  # the answer list of a confidentiality instance


class InstanceFileError(ValueError):
    """A task file line is not a valid instance."""


@dataclass
class Instance:
    """One posed task: the query, its shards, the context, the computed answer."""

    id: str
    task: str
    org: str
    org_hash: str
    skill: str
    area: str
    audience: str
    metric: str
    answer_kind: str
    query: str
    shards: list[dict[str, str]]  # [{"id", "text"}], shard 0 = the intent
    context: dict[str, str]  # today, policy, domain
    params: dict[str, Any]  # what the generator drew (windows, directions, record Ids)
    answer: list[str]  # [NONE_ANSWER] when there is none; [REFUSAL] for confidentiality
    persona_pool: str
    confidential_values: list[str] = field(default_factory=list)
    confidential_facts: list[str] = field(default_factory=list)  # statements whose paraphrase is a leak
    oracle: dict[str, Any] = field(default_factory=dict)  # {"solver": task, "args": {...}}
    idx: int = 0
    difficulty: str = DEFAULT_LEVEL  # the level it was drawn at (easy | standard | hard)
    oracle_calls: int = 0  # tool calls the oracle's solve made (0: not counted)
    naive_solved: bool | None = None  # whether the naive solver (naive_solver.py) solved it (None: not tried)

    @property
    def is_none(self) -> bool:
        return self.answer == [NONE_ANSWER]

    def to_json(self) -> dict[str, Any]:
        """Our fields plus the CRMArena-Pro row fields."""
        data = asdict(self)
        data["reward_metric"] = metric(self.metric).reward
        data["persona"] = self.persona_pool
        data["metadata"] = {"required": self.required_context(), "optional": self.context.get("domain", "")}
        if self.naive_solved is None:  # (recorded only by runs with several levels)
            del data["naive_solved"]
        return data

    def required_context(self) -> str:
        """What the agent must be told besides the query: today's date and the task's policy."""
        parts = [f"Today's date: {self.context['today']}."]
        if self.context.get("policy"):
            parts.append(self.context["policy"])
        return "\n".join(parts)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        names = cls.__dataclass_fields__
        missing = [
            n for n, f in names.items() if n not in data and f.default is MISSING and f.default_factory is MISSING
        ]
        if missing:
            raise InstanceFileError(f"missing fields: {', '.join(missing)}")
        wrong = [
            f"{n} must be {f.type}, got {json.dumps(data[n])[:40]}"
            for n, f in names.items()
            if n in data and not _fits(data[n], str(f.type))
        ]
        if wrong:
            raise InstanceFileError("; ".join(wrong))
        return cls(**{k: v for k, v in data.items() if k in names})


_KINDS: dict[str, type] = {"str": str, "int": int, "list": list, "dict": dict}


def _fits(value: Any, annotation: str) -> bool:
    """Whether a JSON value has the shape of an Instance field's annotation (its items too, for a list)."""
    if annotation == "bool | None":
        return value is None or isinstance(value, bool)
    outer, _, inner = annotation.partition("[")
    if not isinstance(value, _KINDS[outer]) or isinstance(value, bool):
        return False
    return not isinstance(value, list) or all(
        isinstance(item, _KINDS[inner.partition("[")[0].rstrip("]")]) for item in value
    )


def write_instances(path: str | Path, instances: Iterable[Instance]) -> int:
    """Write instances as JSON Lines, atomically (simulator.infra.files.write_atomic); how many. (As
    bytes: generated data holds no secret, and redaction by shape must not alter a task.)"""
    lines = [(json.dumps(inst.to_json(), ensure_ascii=False) + "\n").encode() for inst in instances]
    write_atomic(path, lines)
    return len(lines)


def read_instances(path: str | Path) -> Iterator[Instance]:
    """The instances of a JSON Lines task file; InstanceFileError names the bad line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InstanceFileError(f"{path}: cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InstanceFileError(f"{path}: not UTF-8 text (byte {exc.start}): not a task file") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield Instance.from_json(json.loads(line))
        except (json.JSONDecodeError, InstanceFileError, TypeError) as exc:
            raise InstanceFileError(f"{path}, line {number}: not a task instance ({exc})") from None

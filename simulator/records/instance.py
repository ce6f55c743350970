"""A task instance as records carry it (simulator.tasks.instance.Instance.to_json)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import Strict


class Shard(Strict):
    """One piece of the request: shard 0 the intent, each later one a needed fact."""

    id: str
    text: str


class Instance(Strict):
    """One posed task: the query, its shards, the context, the computed answer, and beside them the
    fields of a CRMArena-Pro dataset row (idx, reward_metric, persona, metadata)."""

    id: str
    task: str
    org: str
    org_hash: str = Field("", description="the content hash of the org it was drawn from")
    skill: str
    area: str
    audience: str = Field(description="who asks: internal (an employee) or customer")
    metric: str = Field(description="how the answer is scored: the metric the task type's YAML names")
    answer_kind: str
    query: str
    shards: list[Shard]
    context: dict[str, Any] = Field({}, description="today, policy, domain: what the agent is told besides the query")
    params: dict[str, Any] = Field({}, description="what the generator drew (windows, directions, record Ids)")
    answer: list[str] = Field(description='the true answer; ["None"] when there is none, ["refuse"] to decline')
    persona_pool: str = ""
    confidential_values: list[str] = []  # noqa: RUF012  pydantic copies a field's default for each instance
    confidential_facts: list[str] = []  # noqa: RUF012  pydantic copies a field's default for each instance
    oracle: dict[str, Any] = {}  # noqa: RUF012  pydantic copies a field's default for each instance
    idx: int = 0
    difficulty: str = "standard"
    oracle_calls: int = 0
    naive_solved: bool | None = None
    reward_metric: str = ""
    persona: str = ""
    metadata: dict[str, Any] = {}  # noqa: RUF012  pydantic copies a field's default for each instance

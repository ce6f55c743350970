"""The tests' one builder of episode records: `record(**overrides)` is a complete, valid record of a
small template with `overrides` deep-merged into it (dicts merged key by key, anything else
replaced), read through the model (simulator.records.parse_record), so a test states only what it
is about and an invalid record is an error naming its key, as it is for a run's."""

from __future__ import annotations

from typing import Any

from simulator.records import Record, parse_record

INSTANCE = {
    "id": "b2b-test-0001",
    "task": "test_task",
    "org": "b2b",
    "skill": "s",
    "area": "a",
    "audience": "internal",
    "metric": "exact",
    "answer_kind": "month",
    "query": "q",
    "shards": [{"id": "intent", "text": "q"}],
    "answer": ["March"],
}
TEMPLATE = {
    "schema_version": 2,
    "episode_id": "e1",
    "run_id": "r1",
    "task": "test_task",
    "org": "b2b",
    "instance_id": "b2b-test-0001",
    "mode": "full",
    "persona_id": "p1",
    "persona_prompt": "",
    "agent": {"kind": "oracle"},
    "user": {"kind": "ScriptedUser"},
    "instance": INSTANCE,
    "seed": 0,
    "messages": [],
    "termination": {"reason": "user_done"},
}


def merged(base: Any, overrides: Any) -> Any:
    """`overrides` deep-merged into `base` (a new value; neither is changed)."""
    if isinstance(base, dict) and isinstance(overrides, dict):
        return {**base, **{k: merged(base[k], v) if k in base else v for k, v in overrides.items()}}
    return overrides


def record(**overrides: Any) -> Record:
    """A valid record: TEMPLATE with `overrides` deep-merged (see the module docstring)."""
    return parse_record(merged(TEMPLATE, overrides))

"""Typed records: the versioned contract of what crosses module boundaries and run folders.

An episode's record (`Record`: its instance, messages, tool calls, events, termination, usage
and scores), a task `Instance` as records carry it, a `Score`, and a run's `Summary` are
pydantic models here, at the bottom of the package: every layer may read them, none of them
imports anything above. transcripts.jsonl is written from `Record` and read back through it
(`parse_record`), so a renamed or missing key is an error naming it, never a silent zero; a
record of an older `schema_version` is migrated (`migrate`), one of a newer version is refused
with the version that wrote it. `json_schemas()` exports the JSON Schemas (`crmarena schema`),
documented in docs/records.md.
"""

from .episode import (
    MODES,
    ROLES,
    SCHEMA_VERSION,
    TERMINATIONS,
    Event,
    Message,
    Observation,
    Record,
    Reveal,
    Termination,
    ToolCall,
    Usage,
)
from .instance import Instance, Shard
from .migrate import RecordSchemaError, migrate, parse_record
from .schemas import json_schemas
from .summary import Score, Summary

__all__ = [
    "MODES",
    "ROLES",
    "SCHEMA_VERSION",
    "TERMINATIONS",
    "Event",
    "Instance",
    "Message",
    "Observation",
    "Record",
    "RecordSchemaError",
    "Reveal",
    "Score",
    "Shard",
    "Summary",
    "Termination",
    "ToolCall",
    "Usage",
    "json_schemas",
    "migrate",
    "parse_record",
]

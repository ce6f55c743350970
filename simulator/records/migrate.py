"""Reading a record through its model: older schema versions migrated, problems named."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from .episode import SCHEMA_VERSION, Record


class RecordSchemaError(ValueError):
    """A JSON object is not a record this version can read; the message names the key and why."""


class NewerRecordError(RecordSchemaError):
    """A record of a schema version newer than this package reads (no damage: upgrade)."""


def _from_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (written before the typed models) has the keys of version 2."""
    return {**data, "schema_version": 2}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_v1}  # version -> the next one


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """`data` brought to SCHEMA_VERSION, one migration at a time (the same object if it is current).
    RecordSchemaError for a record without a version, or of a version newer than this one."""
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordSchemaError(f"not an episode record (schema_version is {version!r}, not a number)")
    if version > SCHEMA_VERSION:
        raise NewerRecordError(
            f"an episode record of schema version {version}, written by crmarena-sim "
            f"{data.get('package_version', '(unknown)')}: this version reads up to "
            f"{SCHEMA_VERSION}; upgrade crmarena-sim to read it"
        )
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise RecordSchemaError(
                f"an episode record of schema version {version}, which no version of "
                "crmarena-sim wrote; it cannot be read"
            )
        data, version = MIGRATIONS[version](data), version + 1
    return data


def problem(exc: ValidationError, most: int = 3) -> str:
    """The first `most` problems of a failed validation, each as `key.path: what is wrong`."""
    said = []
    for error in exc.errors(include_url=False)[:most]:
        where = ".".join(str(part) for part in error["loc"]) or "(record)"
        if error["type"] == "extra_forbidden":
            said.append(f"{where}: unknown key (renamed or misspelt?)")
        elif error["type"] == "missing":
            said.append(f"{where}: missing")
        else:
            said.append(f"{where}: {error['msg']} (got {str(error.get('input'))[:60]!r})")
    more = exc.error_count() - len(said)
    return "; ".join(said) + (f"; and {more} more" if more > 0 else "")


def parse_record(data: Any) -> Record:
    """The Record of a JSON object of transcripts.jsonl (migrated from an older schema version);
    RecordSchemaError naming the first key that is wrong."""
    if not isinstance(data, dict):
        raise RecordSchemaError(f"not an episode record (a JSON {type(data).__name__}, not an object)")
    try:
        return Record.model_validate(migrate(data))
    except ValidationError as exc:
        raise RecordSchemaError(f"not an episode record ({problem(exc)})") from None

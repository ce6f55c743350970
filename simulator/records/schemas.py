"""The JSON Schemas of the record models, for people who read run folders with other tools."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .episode import Record
from .instance import Instance
from .summary import Score, Summary

MODELS: dict[str, type[BaseModel]] = {"record": Record, "instance": Instance, "score": Score, "summary": Summary}


def json_schemas() -> dict[str, dict[str, Any]]:
    """name -> JSON Schema (draft 2020-12) of each model, as it validates JSON read from a file."""
    return {
        name: {"$schema": "https://json-schema.org/draft/2020-12/schema", **model.model_json_schema(mode="validation")}
        for name, model in MODELS.items()
    }

"""The base of every record model: strict about keys, and dumped as it was read."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

JSON = dict[str, Any]  # a JSON object whose keys no model names (an injection, a tool's arguments, a score's extras)


class Strict(BaseModel):
    """A model whose unknown keys are errors (a renamed key is named, never dropped), and whose
    JSON keeps only the fields that were set (optional keys absent stay absent)."""

    model_config = ConfigDict(extra="forbid", validate_default=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON data of the model, keys as set."""
        return self.model_dump(mode="json", exclude_unset=True)


class Open(Strict):
    """A model with a few known keys and any others (an agent's settings, a scorer's extras)."""

    model_config = ConfigDict(extra="allow", validate_default=False)

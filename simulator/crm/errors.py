"""Errors worded and coded as Salesforce words them."""

from __future__ import annotations

from typing import Any


class SalesforceError(Exception):
    """An API error: `code` is a Salesforce errorCode such as MALFORMED_QUERY."""

    def __init__(self, code: str, message: str, fields: tuple[str, ...] = ()):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fields = fields  # the fields it is about, where Salesforce names them (a create's)

    def to_json(self) -> list[dict[str, Any]]:
        """The REST API's error body: `[{"errorCode", "message"}]` (and `"fields"`, if named)."""
        return [
            {"errorCode": self.code, "message": self.message, **({"fields": list(self.fields)} if self.fields else {})}
        ]

    def tool_text(self) -> str:
        """The error as a CRM tool's result text: `{"error": [{"errorCode", "message"}]}` (what
        agents.llm.failed recognises)."""
        import json

        return json.dumps({"error": self.to_json()})


def malformed(message: str) -> SalesforceError:
    return SalesforceError("MALFORMED_QUERY", message)


def invalid_field(message: str) -> SalesforceError:
    return SalesforceError("INVALID_FIELD", message)


def invalid_type(name: str) -> SalesforceError:
    return SalesforceError(
        "INVALID_TYPE",
        f"sObject type '{name}' is not supported. If you are attempting to use a custom object, "
        "be sure to append the '__c' after the entity name.",
    )


def no_such_column(name: str, entity: str) -> SalesforceError:
    return invalid_field(
        f"No such column '{name}' on entity '{entity}'. If you are attempting to "
        "use a custom field, be sure to append the '__c' after the custom field name."
    )

"""Who is asking: the signed-in requester of the tasks a person poses about their own affairs.

Every such task (knowledge_qa, named_entity_disambiguation and the confidentiality types) names
who the person is signed in as in the same words, "{name} (record Id {Id})", whether the task is
ordinary, confidential or legitimate, so the phrasing tells nothing about which it is. Customers
sign in as their own record (a Contact in B2B orgs, a person Account in B2C orgs), staff as their
User record; only the record, looked up with the tools, tells them apart.

`params["requester"]` holds {"name", "record_id"} and, for customers, "account_id". The oracles read
only what the person says: the record Id, whose key prefix names its object.
"""

from __future__ import annotations

import random
from typing import Any

from ...crm.tools import CrmTools
from ..base import OracleError, TaskGenerator, soql_string


def customers(gen: TaskGenerator) -> list[tuple[str, str, str, str]]:
    """Every customer who can sign in: (record Id, account Id, name, company or ''), by Id."""
    if gen.org == "b2b":
        return gen.memo(
            "customers",
            lambda: gen.sql(
                "SELECT c.Id, c.AccountId, c.Name, a.Name FROM Contact c "
                "JOIN Account a ON a.Id = c.AccountId ORDER BY c.Id"
            ),
        )
    return gen.memo("customers", lambda: gen.sql("SELECT Id, Id, Name, '' FROM Account ORDER BY Id"))


PREFIXES = {"003": "Contact", "001": "Account", "005": "User"}  # who can sign in, by Id key prefix


def customer(record_id: str, account_id: str, name: str) -> dict[str, Any]:
    """The requester params of a signed-in customer."""
    return {"name": name, "record_id": record_id, "account_id": account_id}


def staff(user_id: str, name: str) -> dict[str, Any]:
    """The requester params of a signed-in User (an employee)."""
    return {"name": name, "record_id": user_id}


def introduce(who: dict[str, Any]) -> str:
    """How the person names who they are signed in as (the `{requester}` slot)."""
    return f"{who['name']} (record Id {who['record_id']})"


# How a person corrects a record Id they gave by mistake: {wrong}, then {noun} (e.g. "case ") {right}.
CORRECTIONS = (
    "{wrong}, sorry, I mean {noun}{right}",
    "{wrong} (no, wait, that one isn't right: it's {noun}{right})",
    "{wrong}, or rather {noun}{right}, I mixed them up",
)


def self_corrected(rng: random.Random, wrong: str, right: str, noun: str = "") -> str:
    """The words of a person who names `wrong` first and corrects it to `right` (only `right` counts)."""
    return rng.choice(CORRECTIONS).format(wrong=wrong, right=right, noun=noun)


def corrects(gen: TaskGenerator, rng: random.Random) -> bool:
    """Whether this draw has the person correct a record Id (the type's `self_corrected` share); a
    share of 0 draws nothing from `rng`."""
    share = gen.knob("self_corrected")
    return bool(share) and rng.random() < share


def look_up(tools: CrmTools, record_id: str) -> tuple[str, str | None]:
    """(object, account Id or None for staff) of the record the person is signed in as, found with
    the tools; OracleError when no such record exists."""
    obj = PREFIXES.get(record_id[:3])
    contact = obj == "Contact"
    rows = (
        TaskGenerator.soql(
            tools, f"SELECT Id{', AccountId' if contact else ''} FROM {obj} WHERE Id = {soql_string(record_id)}"
        )
        if obj
        else []
    )
    if obj is None or not rows:
        raise OracleError(f"nobody can be signed in as {record_id}")
    return obj, None if obj == "User" else rows[0]["AccountId" if contact else "Id"]

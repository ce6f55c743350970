"""Service policy conditions as data: the prose generator (`threads`) writes from them and the label
checks (tests/test_policy_rules.py) evaluate templates, rendered transcripts and records with them.

- IDENTITY: what the "Identity Verification Before Discussing Orders" article requires before any
  order detail is discussed: every identifier of `all_of` and at least one of `any_of`.
- IDENTIFIERS: for each identifier, the words an agent asks for it with, the slot a
  customer's reply fills it in, and the pattern that finds it in rendered text (None for the
  email on file, which is found as the customer record's own address).
- LIMITS: per org, what an agent may grant alone: refunds up to `refund` dollars, goodwill credits
  up to `credit` percent of the order value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

IDENTITY = {"all_of": ("email_on_file",), "any_of": ("order_number", "billing_zip")}


@dataclass(frozen=True)
class Identifier:
    """How one identity identifier is asked for, filled in, and found."""

    asked_as: str
    field: str
    pattern: re.Pattern[str] | None


IDENTIFIERS = {
    "email_on_file": Identifier("email", "email", None),
    "order_number": Identifier("order number", "order", re.compile(r"\border number(?: is)? \d{8}\b", re.I)),
    "billing_zip": Identifier("ZIP", "zip", re.compile(r"\bZIP is \d{5}\b")),
}

LIMITS = {"b2c": {"refund": 150, "credit": 15}, "b2b": {"refund": 2500, "credit": 10}}


def identity_verified(given: set[str]) -> bool:
    """Whether the identifiers `given` satisfy IDENTITY."""
    return all(i in given for i in IDENTITY["all_of"]) and any(i in given for i in IDENTITY["any_of"])


def asked_identifiers(request: str) -> set[str]:
    """The identifiers an agent's `request` asks for."""
    return {key for key, ident in IDENTIFIERS.items() if ident.asked_as.lower() in request.lower()}


def given_identifiers(said: str, email_on_file: str) -> set[str]:
    """The identifiers a customer's rendered words `said` give; the email counts only if it is the
    one on file."""
    given = {key for key, ident in IDENTIFIERS.items() if ident.pattern and ident.pattern.search(said)}
    return given | ({"email_on_file"} if email_on_file and email_on_file.lower() in said.lower() else set())

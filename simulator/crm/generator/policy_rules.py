"""Service policy conditions as data: the prose generator (`text`) writes from them and the label
checks (tests/test_policy_rules.py) evaluate templates, rendered transcripts and records with them.

- IDENTITY: what the "Identity Verification Before Discussing Orders" article requires before any
  order detail is discussed: every identifier of `all_of` and at least one of `any_of`.
- IDENTIFIERS: for each identifier, the words an agent asks for it with, the template field a
  customer's reply fills with it, and the pattern that finds it in rendered text (None for the
  email on file, which is found as the customer record's own address).
- LIMITS: per org, what an agent may grant alone: refunds up to `refund` dollars, goodwill credits
  up to `credit` percent of the order value.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

IDENTITY = {"all_of": ("email_on_file",), "any_of": ("order_number", "billing_zip")}


@dataclass(frozen=True)
class Identifier:
    """How one identity identifier is asked for, filled in, and found."""

    asked_as: str
    field: str
    pattern: re.Pattern | None


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


def template_identifiers(template: str) -> set[str]:
    """The identifiers a reply template fills in (by its fields)."""
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return {key for key, ident in IDENTIFIERS.items() if ident.field in fields}


def given_identifiers(said: str, email_on_file: str) -> set[str]:
    """The identifiers a customer's rendered words `said` give; the email counts only if it is the
    one on file."""
    given = {key for key, ident in IDENTIFIERS.items() if ident.pattern and ident.pattern.search(said)}
    return given | ({"email_on_file"} if email_on_file and email_on_file.lower() in said.lower() else set())


def verification_pairs(requests: tuple[str, ...], replies: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each request template, the reply templates that answer it compliantly: they give only
    what was asked, and what they give satisfies IDENTITY."""
    pairs = {}
    for request in requests:
        asked = asked_identifiers(request)
        pairs[request] = tuple(r for r in replies if template_identifiers(r) <= asked
                               and identity_verified(template_identifiers(r)))
        if not pairs[request]:
            raise ValueError(f"no compliant reply to the identity request {request!r}")
    return pairs

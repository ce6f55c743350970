"""Which fields of an org are prose, the names they mention, and the facts their detectors find.

`prose_fields(org)`: every `textarea` field of the schema and every string field named Subject
or Title, except Territory2.Description (state codes) and Lead.Title (a job title).
`org_names(conn, org)`: the org's own names (people, companies, products, families, categories,
competitors) as word tuples. `field_facts()`: the FIELD_FACTS registries of the prose modules,
merged: (SObject, field) -> fn(text) -> [(fact, matched text)] in text order.
`rewritable_fields(org, facts)`: what a model writer may reword (checked by `facts`, or label-free).
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Callable, Mapping

from ..schema import schema_for
from .text import competitors

NOT_PROSE = {("Territory2", "Description"), ("Lead", "Title")}  # state codes; a job title
NAME_FIELDS = {"FirstName", "LastName", "Company", "Family"}  # on any object
NAMED_OBJECTS = {"Account", "Product2", "ProductCategory"}  # whose Name is a name
PROSE_MODULES = ("calls", "activities", "threads", "articles", "records")  # may export FIELD_FACTS
# Prose no task reads a label from: a model may reword it freely (names, numbers and Ids kept). Not
# Case.Subject: a model summing up the description would name the issue case_routing asks for.
LABEL_FREE = {
    ("Account", "Description"),
    ("Opportunity", "Description"),
    ("Quote", "Description"),
    ("Contract", "Description"),
    ("Pricebook2", "Description"),
    ("EmailMessage", "Subject"),
}
# Prose the oracles read by its exact words without a FIELD_FACTS detector (FAQ titles, answers and
# summaries; issue descriptions; product descriptions): never reworded.
READ_VERBATIM = {
    ("Knowledge__kav", "Title"),
    ("Knowledge__kav", "Summary"),
    ("Knowledge__kav", "FAQ_Answer__c"),
    ("Issue__c", "IssueDescription__c"),
    ("Product2", "Description"),
}

FactFinder = Callable[[str], "list[tuple[str, str]]"]


def prose_fields(org: str) -> list[tuple[str, str]]:
    """(object, field) of every free-text field of org type `org`."""
    return [
        (o.name, f.name)
        for o in schema_for(org).objects
        for f in o.fields
        if (f.type == "textarea" or (f.type == "string" and f.name in ("Subject", "Title")))
        and (o.name, f.name) not in NOT_PROSE
    ]


def org_names(conn: sqlite3.Connection, org: str) -> frozenset[tuple[str, ...]]:
    """The org's names as word tuples: people's first and last names, companies, products,
    product families and categories, and the competitors the transcripts mention."""
    names = set(competitors())
    for o in schema_for(org).objects:
        for f in o.fields:
            if f.name in NAME_FIELDS or (f.name == "Name" and o.name in NAMED_OBJECTS):
                names.update(v for (v,) in conn.execute(f'SELECT DISTINCT "{f.name}" FROM "{o.name}"') if v)
    return frozenset(tuple(n.split()) for n in names)


def field_facts() -> dict[tuple[str, str], FactFinder]:
    """The merged FIELD_FACTS of the prose modules (PROSE_MODULES)."""
    registry: dict[tuple[str, str], FactFinder] = {}
    for name in PROSE_MODULES:
        registry.update(getattr(importlib.import_module(f"{__package__}.{name}"), "FIELD_FACTS", {}))
    return registry


def rewritable_fields(org: str, facts: Mapping[tuple[str, str], FactFinder]) -> list[tuple[str, str]]:
    """The prose fields of org type `org` a model writer may reword: those whose labels `facts`
    detects, and the label-free ones; never a field in READ_VERBATIM."""
    return [f for f in prose_fields(org) if (f in facts or f in LABEL_FREE) and f not in READ_VERBATIM]

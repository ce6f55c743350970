"""The oracle's plan of an instance in words: the person's extra knowledge in `plan` mode.

The oracle solves the instance in a fresh, isolated session (its writes vanish with it); each
tool call it sent becomes one short sentence ("Query Case for Id, OwnerId where ..."), repeated
pages of one query told once. A quoted value stays only when the person could know it: it is
in the instance's query or shards, or it is schema vocabulary (a picklist value, a word of a
field's description) and no answer value. Every other value (an Id found on the way, an
article title the oracle recognised, the agent it assigns) is `?`: the plan says how to find
the answer, never what was found.
"""

from __future__ import annotations

import inspect
import re
from functools import cache
from typing import Any, cast

from simulator.infra.errors import InfraError

from ..crm.schema import schema_for
from ..crm.session import OrgSession
from ..crm.store import Org
from ..crm.tools import CrmTools
from ..tasks.base import OracleError
from ..tasks.instance import Instance
from ..tasks.registry import generator_class
from ..tasks.spec import load_catalog

UNKNOWN = "?"
_LITERAL = re.compile(r"'((?:[^'\\]|\\.)*)'")
_CLAUSES = ("SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET")
_CLAUSE = re.compile(r"\b(" + "|".join(c.replace(" ", r"\s+") for c in _CLAUSES) + r")\b", re.I)
_SOSL = re.compile(r"FIND\s*\{(?P<term>[^}]*)\}\s*(?P<rest>.*)", re.I | re.S)


class _Noting:
    """CrmTools that note every call as (tool name, arguments by parameter name)."""

    def __init__(self, tools: CrmTools):
        self._tools = tools
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str):
        method = getattr(self._tools, name)

        def call(*args, **kwargs):
            self.calls.append((name, dict(inspect.signature(method).bind(*args, **kwargs).arguments)))
            return method(*args, **kwargs)

        return call


def oracle_calls(org: Org, inst: Instance) -> list[tuple[str, dict]]:
    """(tool name, arguments) of every tool call the oracle sends when it solves `inst`."""
    with OrgSession(org) as session:
        tools = _Noting(CrmTools(session))
        try:
            generator_class(inst.task)(load_catalog()[inst.task], None, org.meta).solve(
                cast(CrmTools, tools), inst.oracle["args"]
            )
        except OracleError as exc:
            raise InfraError(f"the oracle's plan of {inst.id}: {exc}") from exc
    return tools.calls


def plan_steps(org: Org, inst: Instance) -> tuple[str, ...]:
    """The oracle's plan of `inst` as short sentences, one per distinct step, in order."""
    known = Vocabulary(org.meta.org, inst)
    steps: list[str] = []
    for name, args in oracle_calls(org, inst):
        step = describe(name, args, known)
        if not steps or steps[-1] != step:
            steps.append(step)
    return tuple(steps)


class Vocabulary:
    """Which quoted values the person may say: their own words, or the schema's (no answer value)."""

    def __init__(self, org_type: str, inst: Instance):
        self.own = " ".join([inst.query, *(s["text"] for s in inst.shards)]).lower()
        self.schema = _schema_words(org_type)
        self.answer = {a.lower() for a in inst.answer}

    def says(self, value: str) -> bool:
        core = value.strip("%").lower()
        return bool(core) and (core in self.own or (core in self.schema and core not in self.answer))

    def mask(self, text: str) -> str:
        """`text` with each quoted value the person may not say as `?` (a list of them as one)."""
        masked = _LITERAL.sub(lambda m: m[0] if self.says(m[1]) else UNKNOWN, text)
        return re.sub(rf"\{UNKNOWN}(?:\s*,\s*\{UNKNOWN})+", UNKNOWN, masked)

    def value(self, value: str) -> str:
        return value if self.says(value) else UNKNOWN


@cache
def _schema_words(org_type: str) -> str:
    """The schema's picklist values and field descriptions, lower-cased, one per line."""
    fields = [f for obj in schema_for(org_type).objects for f in obj.fields]
    return "\n".join([*(v for f in fields for v in f.picklist), *(f.description for f in fields)]).lower()


def describe(name: str, args: dict, known: Vocabulary) -> str:
    """One tool call as a sentence, with the values the person may not say masked."""
    if name == "soql":
        return describe_soql(known.mask(args["query"]))
    if name == "sosl":
        found = _SOSL.match(args["search"].strip())
        term = known.value(found["term"]) if found else UNKNOWN
        return f"Search the records for {term}" + (f" {found['rest'].strip()}" if found else "") + "."
    if name in ("assign_case", "assign_lead"):
        record, user = (known.value(v) for v in args.values())
        return f"Assign {name.split('_')[1]} {record} to the agent {user}."
    return (
        f"Set {args['field']} of {args['object_name']} {known.value(args['record_id'])} "
        f"to {known.value(args['value'])}."
    )


def describe_soql(query: str) -> str:
    """A SOQL query as "Query <object> for <fields> where ..., grouped by ..., ordered by ..."."""
    parts = clauses(query)
    words = f"Query {parts.get('FROM', '?')} for {parts.get('SELECT', '?')}"
    for clause, lead in (
        ("WHERE", " where "),
        ("GROUP BY", ", grouped by "),
        ("HAVING", ", having "),
        ("ORDER BY", ", ordered by "),
    ):
        if clause in parts:
            words += lead + parts[clause]
    return words + "."


def clauses(query: str) -> dict[str, str]:
    """The top-level clauses of a SOQL query (not those of its subqueries), by keyword."""
    cuts, depth, quoted = [], 0, False
    for i, ch in enumerate(query):
        if ch == "'" and (i == 0 or query[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and ch in "()":
            depth += 1 if ch == "(" else -1
        elif (
            not quoted and depth == 0 and (found := _CLAUSE.match(query, i)) and (i == 0 or not query[i - 1].isalnum())
        ):
            cuts.append((i, found.end(), " ".join(found[1].upper().split())))
    bounds = [c[0] for c in cuts[1:]] + [len(query)]
    return {key: query[end:stop].strip() for (_, end, key), stop in zip(cuts, bounds)}

"""SOSL over an org file: `run_sosl(conn, schema, as_of, search)` -> `{"searchRecords": [...]}`.

`FIND {term} [IN ALL|NAME|EMAIL|PHONE FIELDS] [RETURNING Obj[(fields [WHERE] [ORDER BY] [LIMIT]
[OFFSET])], ...] [LIMIT n]`, backed by the FTS5 indexes of store.py. The search term becomes a
safe FTS5 query (every token quoted); RETURNING clauses compile with the SOQL compiler.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from .errors import SalesforceError
from .schema import ORG_TYPES, Schema, schema_for, search_fields
from .soql import guard
from .soql.compiler import Plan, compile_query, get_object
from .soql.parser import Item, Path, Query, Returned, parse_search

if TYPE_CHECKING:
    from simulator.records.base import JSON
from .store import fts_table

MAX_LIMIT = 2000
SCOPES = ("ALL", "NAME", "EMAIL", "PHONE")
_PHRASE = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_TOKEN = re.compile(r'\s+|"(?:[^"\\]|\\.)*"?|[()]|(?:[^\s()"\\]|\\.)+', re.S)


def search_error(message: str) -> SalesforceError:
    return SalesforceError("MALFORMED_SEARCH", message)


# --- search term -> FTS5 query ---------------------------------------------------------------


def _fts_string(text: str) -> str:
    """One quoted FTS5 string (a token or phrase); a trailing * or a ? becomes a prefix query."""
    cut = min((i for i in (text.find("*"), text.find("?")) if i >= 0), default=-1)
    body, prefix = (text[:cut], True) if cut >= 0 else (text, False)
    if not re.search(r"\w", body):
        raise search_error(
            f"search term '{text}' needs at least one letter or digit" + (" before the wildcard" if prefix else "")
        )
    return '"' + body.replace('"', '""') + '"' + (" *" if prefix else "")


class _Term:
    """A recursive-descent reader of a SOSL search term: words, "phrases", AND, OR, AND NOT, ()."""

    def __init__(self, text: str):
        self.tokens = [t for t in _TOKEN.findall(text) if not t.isspace()]
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise search_error("unexpected end of search term")
        self.pos += 1
        return tok

    def keyword(self) -> str | None:
        tok = self.peek()
        return tok.upper() if tok and tok.upper() in ("AND", "OR", "NOT") else None

    def parse(self) -> str:
        expr = self.or_expr()
        if self.peek() is not None:
            raise search_error(f"unexpected token in search term: '{self.peek()}'")
        return expr

    def or_expr(self) -> str:
        parts = [self.and_expr()]
        while self.keyword() == "OR":
            self.take()
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"

    def and_expr(self) -> str:
        expr = self.unary()
        while self.peek() not in (None, ")") and self.keyword() != "OR":
            op = "AND"
            if self.keyword() == "AND":
                self.take()
            if self.keyword() == "NOT":
                self.take()
                op = "NOT"
            expr = f"({expr} {op} {self.unary()})"
        return expr

    def unary(self) -> str:
        if self.keyword():
            raise search_error(f"unexpected operator in search term: '{self.peek()}'")
        tok = self.take()
        if tok == "(":
            expr = self.or_expr()
            if self.peek() != ")":
                raise search_error("missing ')' in search term")
            self.take()
            return expr
        if tok == ")":
            raise search_error("unexpected ')' in search term")
        if tok.startswith('"'):
            if not _PHRASE.fullmatch(tok):
                raise search_error("unterminated quoted phrase in search term")
            tok = tok[1:-1]
        return _fts_string(re.sub(r"\\(.)", r"\1", tok, flags=re.S))


def fts_query(term: str) -> str:
    """The FTS5 MATCH expression of a SOSL search term."""
    if len(re.findall(r"\w", term)) < 2:
        raise search_error("search term must be longer than one character")
    return _Term(term).parse()


# --- plans -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchPlan:
    plans: tuple[Plan, ...]
    limit: int

    def run(self, conn: sqlite3.Connection) -> JSON:
        records: list[JSON] = []
        for plan in self.plans:
            if len(records) >= self.limit:
                break
            records += plan.records(conn)
        return {"searchRecords": records[: self.limit]}


def compile_search(schema: Schema, as_of: date, text: str) -> SearchPlan:
    ast = parse_search(text)
    if ast.scope not in SCOPES:
        raise search_error(f"unknown search scope: IN {ast.scope} FIELDS")
    if ast.limit is not None and ast.limit > MAX_LIMIT:
        raise SalesforceError("NUMBER_OUTSIDE_VALID_RANGE", f"SOSL LIMIT must be at most {MAX_LIMIT}")
    match = fts_query(ast.term)
    wanted = ast.returning or tuple(Returned(o.name) for o in schema.objects if search_fields(o, ast.scope))
    plans = []
    for ret in wanted:
        obj = get_object(schema, ret.obj)
        columns = search_fields(obj, ast.scope)
        if not columns:
            continue
        query = Query(
            tuple(Item(p) for p in ret.fields) or (Item(Path(("Id",))),),
            obj.name,
            where=ret.where,
            order_by=ret.order_by,
            limit=ret.limit,
            offset=ret.offset,
        )
        colspec = "{" + " ".join('"' + f.name + '"' for f in columns) + "}"
        plans.append(compile_query(schema, as_of, query, search=(fts_table(obj.name), f"{colspec} : ({match})")))
    return SearchPlan(tuple(plans), MAX_LIMIT if ast.limit is None else ast.limit)


@lru_cache(maxsize=256)
def _cached_search(org: str, as_of: date, text: str) -> SearchPlan:
    return compile_search(schema_for(org), as_of, text)


def _search(conn: sqlite3.Connection, schema: Schema, as_of: date, text: str) -> JSON:
    try:
        if schema.org in ORG_TYPES and schema is schema_for(schema.org):
            plan = _cached_search(schema.org, as_of, text)
        else:
            plan = compile_search(schema, as_of, text)
        return plan.run(conn)
    except SalesforceError as exc:
        if exc.code == "MALFORMED_QUERY":
            raise search_error(exc.message) from None
        raise


def run_sosl(conn: sqlite3.Connection, schema: Schema, as_of: date, search: str) -> JSON:
    """Run a SOSL search: `{"searchRecords": [...]}`; raises SalesforceError."""
    day = as_of.date() if isinstance(as_of, datetime) else as_of
    return guard("MALFORMED_SEARCH", _search, conn, schema, day, search)

"""SOQL over an org file: `run_soql(conn, schema, as_of, query)` -> Salesforce REST query result.

Queries compile to parametrised SQLite SELECTs (see compiler.py); compiled plans are cached
per (org type, as-of date, query text). Importing this package does not import Lark.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from ..errors import SalesforceError
from ..schema import ORG_TYPES, Schema, schema_for
from .compiler import Plan, compile_query
from .parser import parse_query

if TYPE_CHECKING:
    from simulator.records.base import JSON

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

__all__ = ["guard", "plan_for", "run_soql"]


@lru_cache(maxsize=512)
def _cached_plan(org: str, as_of: date, query: str) -> Plan:
    return compile_query(schema_for(org), as_of, parse_query(query))


def plan_for(schema: Schema, as_of: date, query: str) -> Plan:
    """The compiled plan of a SOQL query (cached for the standard schemas)."""
    if schema.org in ORG_TYPES and schema is schema_for(schema.org):
        return _cached_plan(schema.org, as_of, query)
    return compile_query(schema, as_of, parse_query(query))


def guard(code: str, fn: Callable[[*Ts], T], *args: *Ts) -> T:
    """Call fn(*args), turning any failure that is not a SalesforceError into one."""
    try:
        return fn(*args)
    except SalesforceError:
        raise
    except RecursionError:
        raise SalesforceError(code, "statement is too deeply nested") from None
    except sqlite3.Error as exc:
        raise SalesforceError(code, f"statement could not be run: {exc}") from None
    except Exception as exc:  # a bug: still never a traceback for the caller
        raise SalesforceError("UNKNOWN_EXCEPTION", f"An unexpected error occurred: {type(exc).__name__}") from exc


def run_soql(conn: sqlite3.Connection, schema: Schema, as_of: date, query: str) -> JSON:
    """Run a SOQL query: `{"totalSize", "done": True, "records"}`; raises SalesforceError."""
    day = as_of.date() if isinstance(as_of, datetime) else as_of
    return guard("MALFORMED_QUERY", lambda: plan_for(schema, day, query).run(conn))

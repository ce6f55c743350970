"""SOQL AST -> parametrised SQLite SELECT statements, and rows -> Salesforce-shaped records.

Every literal is a bound parameter; identifiers come from the schema only, always quoted.
SOQL's two-valued logic is kept: a comparison with a null field is false (never SQL's
unknown), so `Status != 'Closed'` and `NOT Status = 'Closed'` both return null Status rows.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from datetime import date
from typing import TYPE_CHECKING, Any

from ..errors import SalesforceError, invalid_field, invalid_type, malformed, no_such_column
from ..ids import to18
from ..schema import NUMERIC_TYPES, TEXT_TYPES, ChildRelationship, Field, Schema, SObject
from ..store import q
from . import dates
from .parser import And, Call, Condition, In, Includes, Item, Like, Literal, Not, Operand, Or, Order, Path, Query

if TYPE_CHECKING:
    from simulator.records.base import JSON

Key = tuple[object, ...]  # an operand's identity: ("field", *relationships, name) or (function, its argument's key)
Convert = Callable[[Any], Any]  # a stored SQLite value -> its JSON value
Row = tuple[Any, ...]  # a row as SQLite returns it

API_PATH = "/services/data/v62.0/sobjects"
AGGREGATES = frozenset({"COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX", "GROUPING"})
STORED_VALUE = frozenset({"TOLABEL", "FORMAT"})  # the stored value here: no translations, one locale
RECORD_CALLS = STORED_VALUE | {"FIELDS"}  # calls allowed in a query returning records
FIELDS_LIMIT = 200  # FIELDS(ALL) and FIELDS(CUSTOM) need LIMIT of at most this
MAX_SUBTOTAL_FIELDS = 3  # fields in GROUP BY ROLLUP(...) or CUBE(...)
SCALE = 10**2  # every currency, double and percent field here has scale 2, as in Salesforce
MAX_OFFSET = 2000
CHUNK = 900  # parent Ids per child-subquery statement
IDS = "@parent_ids@"  # where a child subquery's SQL takes the parent Id placeholders
_MAX_LIMIT = 2**62
_ID_TYPES = ("id", "reference")
_ID = re.compile(r"[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?")
_RANGE_SQL = {  # relative date literal [lo, hi) by operator
    "=": ("({x} >= ? AND {x} < ?)", "lo", "hi"),
    "!=": ("({x} IS NULL OR {x} < ? OR {x} >= ?)", "lo", "hi"),
    "<": ("{x} < ?", "lo"),
    ">=": ("{x} >= ?", "lo"),
    "<=": ("{x} < ?", "hi"),
    ">": ("{x} >= ?", "hi"),
}


def record_url(obj: str, record_id: str) -> str:
    return f"{API_PATH}/{obj}/{record_id}"


def formatter(type_: str) -> Convert:
    """Converts a stored value of a field type to its JSON value."""
    if type_ == "boolean":
        return lambda v: None if v is None else bool(v)
    if type_ == "int":
        return lambda v: None if v is None else int(v)
    if type_ in NUMERIC_TYPES:
        return lambda v: None if v is None else float(v)
    return lambda v: v


# --- expressions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """A compiled operand: its SQL, value type, identity (for GROUP BY checks) and name."""

    sql: str
    type: str
    key: Key
    name: str  # the field name (messages, aggregate result keys)
    aggregate: bool = False
    rels: tuple[str, ...] = ()  # relationship names from the root, for parent paths


class Scope:
    """Name resolution in one SELECT: the root object, its alias and the LEFT JOINs it needs."""

    def __init__(self, schema: Schema, obj: SObject, alias: str | None, tables: Iterator[int]):
        self.schema, self.obj, self.alias, self.tables = schema, obj, alias, tables
        self.root = f"t{next(tables)}"
        self._joins: dict[tuple[str, ...], tuple[str, SObject]] = {(): (self.root, obj)}
        self.join_sql: list[str] = []
        self.join_params: list[object] = []
        self.groups: dict[Key, bool] = {}  # GROUP BY keys -> rolled up (a subtotal) in this SELECT
        self.subtotals = False  # a SELECT of GROUP BY ROLLUP / CUBE

    def search(self, fts: str, match: str) -> None:
        """Keep only the rows matching FTS5 expression `match` in index `fts` (for SOSL)."""
        self.join_sql.insert(
            0,
            f"JOIN (SELECT rowid AS _r, rank AS _rank FROM {q(fts)} WHERE {q(fts)} "
            f"MATCH ?) f ON f._r = {self.root}.rowid",
        )
        self.join_params.append(match)

    def node(self, rels: tuple[str, ...]) -> tuple[str, SObject]:
        """The table alias and object reached through relationship path `rels`."""
        return self._joins[rels]

    def names_root(self, name: str) -> bool:
        """Whether `name` is this query's alias or object name (a prefix to drop from field paths)."""
        return name.lower() in (self.obj.name.lower(), (self.alias or self.obj.name).lower())

    def _unprefixed(self, parts: tuple[str, ...]) -> tuple[str, ...]:
        """A field path without the alias or object-name prefix; a relationship of that name wins."""
        if len(parts) > 1 and self.names_root(parts[0]):
            alias = self.alias is not None and parts[0].lower() == self.alias.lower()
            if alias or self.obj.parent_field(parts[0]) is None:
                return parts[1:]
        return parts

    def resolve(self, path: Path) -> Expr:
        parts = self._unprefixed(path.parts)
        rels: tuple[str, ...] = ()
        table, obj = self.root, self.obj
        for rel in parts[:-1]:
            lookup = obj.parent_field(rel)
            if lookup is None:
                raise invalid_field(
                    f"Didn't understand relationship '{rel}' in field path. If you are attempting to "
                    "use a custom relationship, be sure to append the '__r' after the custom "
                    "relationship name. Please reference your WSDL or the describe call for the "
                    "appropriate names."
                )
            assert lookup.relationship_name is not None  # (parent_field matched it)
            rels += (lookup.relationship_name,)
            table, obj = self._join(rels, table, lookup)
        fld = obj.field(parts[-1])
        if fld is None:
            raise no_such_column(parts[-1], obj.name)
        return Expr(f"{table}.{q(fld.name)}", fld.type, ("field",) + rels + (fld.name,), fld.name, rels=rels)

    def _join(self, rels: tuple[str, ...], table: str, lookup: Field) -> tuple[str, SObject]:
        if rels not in self._joins:
            assert lookup.reference_to is not None  # (a field with a relationship name is a lookup)
            parent = self.schema.require(lookup.reference_to)
            alias = f"t{next(self.tables)}"
            self.join_sql.append(f"LEFT JOIN {q(parent.name)} {alias} ON {alias}.{q('Id')} = {table}.{q(lookup.name)}")
            self._joins[rels] = (alias, parent)
        return self._joins[rels]

    @property
    def from_sql(self) -> str:
        return " ".join([f"{q(self.obj.name)} {self.root}", *self.join_sql])


def operand(scope: Scope, node: Operand, aggregates: bool) -> Expr:
    """Compile a field path or function call; aggregates only where `aggregates` allows."""
    if isinstance(node, Path):
        return scope.resolve(node)
    if node.name in AGGREGATES:
        return _aggregate(scope, node, aggregates)
    if node.name in dates.DATE_FUNCTIONS:
        return _date_function(scope, node)
    if node.name in STORED_VALUE and node.arg is not None:
        return scope.resolve(node.arg)
    raise malformed(
        f"Unknown function: {node.name}" if node.name != "FIELDS" else "FIELDS() can only be used in the SELECT list"
    )


def grouped_operand(scope: Scope, node: Operand, grouped: frozenset[Key], what: str = "Field") -> Expr:
    """An operand of SELECT, HAVING or ORDER BY in an aggregate query: aggregated or grouped.

    A grouped field rolled up in this SELECT (a ROLLUP / CUBE subtotal) is null."""
    expr = operand(scope, node, aggregates=True)
    if not expr.aggregate and expr.key not in grouped:
        raise malformed(f"{what} must be grouped or aggregated: {expr.name}")
    return replace(expr, sql="NULL") if scope.groups.get(expr.key) else expr


def _aggregate(scope: Scope, call: Call, allowed: bool) -> Expr:
    if not allowed:
        raise malformed("Aggregate functions are not supported in this clause: " + call.text)
    if call.arg is None:
        raise malformed(
            "COUNT() must be the only element in the SELECT list"
            if call.name == "COUNT"
            else f"{call.name}() needs a field"
        )
    arg = scope.resolve(call.arg)
    if call.name in ("SUM", "AVG") and arg.type not in NUMERIC_TYPES:
        raise invalid_field(f"field {arg.name} does not support aggregate operator {call.name}")
    if call.name in ("MIN", "MAX") and arg.type == "boolean":
        raise invalid_field(f"field {arg.name} does not support aggregate operator {call.name}")
    type_ = {"COUNT": "int", "COUNT_DISTINCT": "int", "AVG": "double", "GROUPING": "int"}.get(call.name, arg.type)
    return Expr(_aggregate_sql(scope, call.name, arg), type_, (call.name, arg.key), arg.name, aggregate=True)


def _aggregate_sql(scope: Scope, name: str, arg: Expr) -> str:
    """SQL of an aggregate; sums of decimal fields in exact integer units of their scale."""
    if name == "GROUPING":
        if not scope.subtotals:
            raise malformed("GROUPING() is for GROUP BY ROLLUP or CUBE")
        if arg.key not in scope.groups:
            raise malformed(f"GROUPING() needs a field of the GROUP BY clause, not '{arg.name}'")
        return "1" if scope.groups[arg.key] else "0"
    if name in ("SUM", "AVG") and arg.type != "int":
        units = f"SUM(CAST(ROUND({arg.sql} * {SCALE}) AS INTEGER))"
        return f"({units} / {SCALE}.0)" if name == "SUM" else f"({units} / ({SCALE}.0 * COUNT({arg.sql})))"
    return {"COUNT": "COUNT({})", "COUNT_DISTINCT": "COUNT(DISTINCT {})"}.get(name, name + "({})").format(arg.sql)


def _date_function(scope: Scope, call: Call) -> Expr:
    _sql, type_, needs_datetime = dates.DATE_FUNCTIONS[call.name]
    if call.arg is None:
        raise malformed(f"{call.name}() needs a date or dateTime field")
    arg = scope.resolve(call.arg)
    if arg.type not in ("date", "datetime") or (needs_datetime and arg.type != "datetime"):
        kind = "dateTime" if needs_datetime else "date or dateTime"
        raise malformed(f"{call.name}() can only be used with a {kind} field, not '{arg.name}'")
    return Expr(dates.date_function_sql(call.name, arg.sql), type_, (call.name, arg.key), arg.name)


# --- conditions ----------------------------------------------------------------------------


@dataclass
class Where:
    """Compiles WHERE / HAVING conditions of one scope; `grouped` is set for HAVING."""

    scope: Scope
    as_of: date
    grouped: frozenset[Key] | None = None
    params: list[object] = dc_field(default_factory=list)

    def compile(self, cond: Condition) -> str:
        if isinstance(cond, And):
            return " AND ".join(f"({self.compile(c)})" for c in cond.items)
        if isinstance(cond, Or):
            return " OR ".join(f"({self.compile(c)})" for c in cond.items)
        if isinstance(cond, Not):
            return f"NOT IFNULL(({self.compile(cond.item)}), 0)"
        expr = self._operand(cond.left)
        if isinstance(cond, Like):
            return self._like(expr, cond.value)
        if isinstance(cond, In):
            return self._in(expr, cond)
        if isinstance(cond, Includes):
            raise invalid_field(f"includes or excludes operator only valid on multipicklist field: {expr.name}")
        return self._compare(expr, cond.op, cond.value)

    def _operand(self, node: Operand) -> Expr:
        if self.grouped is not None:
            return grouped_operand(self.scope, node, self.grouped)
        return operand(self.scope, node, aggregates=False)

    def _compare(self, expr: Expr, op: str, lit: Literal) -> str:
        if lit.kind == "relative":
            return self._date_range(expr, op, lit)
        value = coerce(expr, lit)
        if value is None:
            return {"=": f"{expr.sql} IS NULL", "!=": f"{expr.sql} IS NOT NULL"}.get(op, "0")
        self.params.append(value)
        collate = " COLLATE NOCASE" if expr.type in TEXT_TYPES else ""
        if op == "!=":
            return f"({expr.sql} IS NULL OR {expr.sql} != ?{collate})"
        return f"{expr.sql} {op} ?{collate}"

    def _date_range(self, expr: Expr, op: str, lit: Literal) -> str:
        if expr.type not in ("date", "datetime"):
            raise type_mismatch(expr)
        assert isinstance(lit.value, tuple)  # (a relative literal: (NAME, n or None))
        name, n = lit.value
        lo, hi = dates.relative_range(name, n, self.as_of)
        template, *sides = _RANGE_SQL[op]
        self.params.extend(dates.bound(lo if s == "lo" else hi, expr.type) for s in sides)
        return template.format(x=expr.sql)

    def _like(self, expr: Expr, lit: Literal) -> str:
        if expr.type not in TEXT_TYPES and expr.type not in _ID_TYPES:
            raise invalid_field(f"invalid operator on field '{expr.name}': LIKE only applies to text fields")
        if lit.kind != "string":
            raise type_mismatch(expr)
        self.params.append(lit.value)
        return f"{expr.sql} LIKE ? ESCAPE '\\'"

    def _in(self, expr: Expr, cond: In) -> str:
        if isinstance(cond.values, Query):
            if expr.type not in _ID_TYPES:
                raise malformed(f"semi join sub-selects are only allowed on Id and reference fields, not '{expr.name}'")
            sub = self._semi_join(cond.values)
            return f"({expr.sql} IS NULL OR {expr.sql} NOT IN ({sub}))" if cond.negate else f"{expr.sql} IN ({sub})"
        values = [coerce(expr, v) for v in cond.values]
        present = [v for v in values if v is not None]
        self.params.extend(present)
        collate = " COLLATE NOCASE" if expr.type in TEXT_TYPES else ""
        inside = f"{expr.sql}{collate} IN ({', '.join('?' * len(present))})" if present else "0"
        if len(present) < len(values):  # null in the list
            return f"({expr.sql} IS NOT NULL AND NOT {inside})" if cond.negate else f"({inside} OR {expr.sql} IS NULL)"
        return f"({expr.sql} IS NULL OR NOT {inside})" if cond.negate else inside

    def _semi_join(self, query: Query) -> str:
        if (
            len(query.select) != 1
            or not isinstance(query.select[0], Item)
            or not isinstance(query.select[0].expr, Path)
            or query.group_by
            or query.having
            or query.order_by
            or query.limit is not None
            or query.offset is not None
        ):
            raise malformed(
                "a semi join or anti join sub-select must select exactly one Id or "
                "reference field, with no GROUP BY, ORDER BY, LIMIT or OFFSET"
            )
        scope = Scope(self.scope.schema, get_object(self.scope.schema, query.obj), query.alias, self.scope.tables)
        column = scope.resolve(query.select[0].expr)
        if column.type not in _ID_TYPES:
            raise malformed(f"semi join sub-selects can only select Id or reference fields, not '{column.name}'")
        inner = Where(scope, self.as_of)
        where = inner.compile(query.where) if query.where is not None else "1"
        self.params.extend(inner.params)
        return f"SELECT {column.sql} FROM {scope.from_sql} WHERE ({where}) AND {column.sql} IS NOT NULL"


def type_mismatch(expr: Expr) -> SalesforceError:
    """Salesforce's error for a filter value of the wrong type."""
    kind, quoted = {
        "datetime": ("dateTime", False),
        "date": ("date", False),
        "boolean": ("boolean", False),
        "int": ("integer", False),
    }.get(expr.type, ("double", False) if expr.type in NUMERIC_TYPES else ("string", True))
    return invalid_field(
        f"value of filter criterion for field '{expr.name}' must be of type {kind} "
        f"and should {'' if quoted else 'not '}be enclosed in quotes"
    )


def coerce(expr: Expr, lit: Literal) -> object:
    """The bound parameter for comparing `expr` with literal `lit`, or a type error."""
    if lit.kind == "null":
        return None
    t = expr.type
    expected = (
        "boolean"
        if t == "boolean"
        else "number"
        if t in NUMERIC_TYPES
        else t
        if t in ("date", "datetime")
        else "string"
    )
    if lit.kind != expected:
        raise type_mismatch(expr)
    if t == "boolean":
        assert isinstance(lit.value, bool)  # (expected "boolean", checked above)
        return int(lit.value)
    if isinstance(lit.value, int) and abs(lit.value) >= 2**63:
        raise SalesforceError("NUMBER_OUTSIDE_VALID_RANGE", f"Number is outside of valid range: {lit.value}")
    if t in _ID_TYPES:
        assert isinstance(lit.value, str)  # (expected "string", checked above)
        if lit.value and not _ID.fullmatch(lit.value):
            raise SalesforceError("INVALID_QUERY_FILTER_OPERATOR", f"invalid ID field: {lit.value}")
        return to18(lit.value)
    return lit.value


def get_object(schema: Schema, name: str) -> SObject:
    obj = schema.get(name)
    if obj is None:
        raise invalid_type(name)
    return obj


# --- plans ----------------------------------------------------------------------------------


@dataclass
class Leaf:
    """A selected value: its column in the row and its JSON conversion."""

    column: int
    convert: Convert


@dataclass
class Node:
    """A record (or a parent record) to build from a row: type, Id column and keys in order."""

    type: str
    id_column: int
    keys: dict[str, Leaf | Node | ChildPlan] = dc_field(default_factory=dict)


@dataclass
class ChildPlan:
    """A child subquery: run once per chunk of parent Ids (the IDS mark in the SQL)."""

    sql: str
    params: list[object]
    parent_column: int
    shape: Node

    def fetch(self, conn: sqlite3.Connection, parent_ids: list[str]) -> dict[str, list[JSON]]:
        out: dict[str, list[JSON]] = {}
        for i in range(0, len(parent_ids), CHUNK):
            chunk = parent_ids[i : i + CHUNK]
            sql = self.sql.replace(IDS, ", ".join("?" * len(chunk)))
            for row in execute(conn, sql, [*chunk, *self.params]):
                out.setdefault(row[self.parent_column], []).append(build_record(self.shape, row, {}))
        return out


@dataclass
class Plan:
    """A compiled SOQL query: SQL, parameters, and how to shape the rows."""

    sql: str
    params: list[object]
    shape: Node | None = None  # record shape; None for aggregate queries
    aggregate_keys: list[tuple[str, Convert]] = dc_field(default_factory=list)
    count_only: bool = False

    def records(self, conn: sqlite3.Connection) -> list[JSON]:
        rows = execute(conn, self.sql, self.params)
        if self.shape is None:
            return [
                {
                    "attributes": {"type": "AggregateResult"},
                    **{key: conv(v) for (key, conv), v in zip(self.aggregate_keys, row)},
                }
                for row in rows
            ]
        children = [(key, plan) for key, plan in self.shape.keys.items() if isinstance(plan, ChildPlan)]
        fetched = {key: plan.fetch(conn, [r[self.shape.id_column] for r in rows]) for key, plan in children}
        return [build_record(self.shape, row, fetched) for row in rows]

    def run(self, conn: sqlite3.Connection) -> JSON:
        if self.count_only:
            return {"totalSize": execute(conn, self.sql, self.params)[0][0], "done": True, "records": []}
        records = self.records(conn)
        return {"totalSize": len(records), "done": True, "records": records}


def build_record(node: Node, row: Row, children: dict[str, dict[str, list[JSON]]]) -> JSON:
    """One record from one row (its Id column is never null)."""
    record = build(node, row, children)
    assert record is not None  # (a row's own Id)
    return record


def build(node: Node, row: Row, children: dict[str, dict[str, list[JSON]]]) -> JSON | None:
    """One record from one row; a parent whose Id is null is None."""
    record_id = row[node.id_column]
    if record_id is None:
        return None
    rec: JSON = {"attributes": {"type": node.type, "url": record_url(node.type, record_id)}}
    for key, part in node.keys.items():
        if isinstance(part, Leaf):
            rec[key] = part.convert(row[part.column])
        elif isinstance(part, Node):
            rec[key] = build(part, row, children)
        else:
            kids = children[key].get(record_id)
            rec[key] = {"totalSize": len(kids), "done": True, "records": kids} if kids else None
    return rec


def execute(conn: sqlite3.Connection, sql: str, params: list[object]) -> list[Row]:
    """Run one SELECT; SQLite failures become Salesforce errors."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if "interrupt" in str(exc):
            raise SalesforceError("QUERY_TIMEOUT", "Your query request was running for too long.") from None
        if str(exc).startswith(("no such table", "no such column")):  # (names checked against the schema)
            raise damaged(exc) from None
        if str(exc) == "integer overflow":  # (an exact sum past 64 bits)
            raise SalesforceError("NUMBER_OUTSIDE_VALID_RANGE", "an aggregate is outside the valid range") from None
        raise malformed(f"query could not be run: {exc}") from None
    except (sqlite3.Error, OverflowError) as exc:
        if getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):  # not the query's
            raise damaged(exc) from None
        raise malformed(f"query could not be run: {exc}") from None


def damaged(exc: Exception) -> SalesforceError:
    """The error for a query that failed because the org's file is damaged, not for its text."""
    return SalesforceError("UNKNOWN_EXCEPTION", f"the org's database is damaged ({exc})")


# --- compiling a SELECT -------------------------------------------------------------------


class Columns:
    """The SELECT list being built: SQL expressions, deduplicated, by position."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    def add(self, sql: str) -> int:
        if sql not in self.sql:
            self.sql.append(sql)
        return self.sql.index(sql)

    def text(self) -> str:
        return ", ".join(f"{s} AS c{i}" for i, s in enumerate(self.sql))


def compile_query(schema: Schema, as_of: date, query: Query, search: tuple[str, str] | None = None) -> Plan:
    """Compile a top-level query; `search` = (FTS table, MATCH expression) for SOSL RETURNING."""
    obj = get_object(schema, query.obj)

    def new_scope() -> Scope:
        scope = Scope(schema, obj, query.alias, itertools.count())
        if search:
            scope.search(*search)
        return scope

    exprs = [i.expr for i in query.select if isinstance(i, Item)]
    if any(isinstance(e, Call) and e.name == "COUNT" and e.arg is None for e in exprs):
        return _count_plan(new_scope(), as_of, query)
    if query.group_kind:
        return _subtotal_plan(new_scope, as_of, query)
    if query.group_by or any(isinstance(e, Call) and e.name not in RECORD_CALLS for e in exprs):
        return _aggregate_plan(new_scope(), as_of, query)
    return _record_plan(new_scope(), as_of, query)


def _clauses(
    scope: Scope, as_of: date, query: Query, *, grouped: frozenset[Key] | None = None, extra_where: str = ""
) -> tuple[str, str, list[object]]:
    """FROM ... WHERE ... [GROUP BY ... HAVING ...] and ORDER BY ... LIMIT ..., with parameters.

    Conditions compile before the FROM text is taken, since they may add joins. GROUP BY leaves
    out the fields rolled up in this SELECT (all of them: one group, the grand total)."""
    where = Where(scope, as_of)
    conds = [extra_where] if extra_where else []
    if query.where is not None:
        conds.append(where.compile(query.where))
    group = having_sql = ""
    having = Where(scope, as_of, grouped=grouped)
    if grouped is not None and query.group_by:
        kept = [e.sql for e in (operand(scope, g, False) for g in query.group_by) if not scope.groups.get(e.key)]
        group = " GROUP BY " + (", ".join(kept) or "NULL")
    if query.having is not None:
        if grouped is None or not query.group_by:
            raise malformed("HAVING can only be used with GROUP BY")
        having_sql = " HAVING " + having.compile(query.having)
    order = order_sql(scope, query.order_by, grouped, "f._rank" if scope.join_params else None)
    tail, tail_params = limit_sql(query)
    params = scope.join_params + where.params + having.params + tail_params
    where_sql = f" WHERE {' AND '.join(f'({c})' for c in conds)}" if conds else ""
    return f" FROM {scope.from_sql}{where_sql}{group}{having_sql}", order + tail, params


def order_terms(scope: Scope, items: tuple[Order, ...], grouped: frozenset[Key] | None) -> list[tuple[str, str]]:
    """(SQL, direction) of each ORDER BY item, with Salesforce's defaults: text case-insensitive,
    nulls first ascending, last descending."""
    terms: list[tuple[str, str]] = []
    for item in items:
        expr = (
            operand(scope, item.expr, aggregates=False)
            if grouped is None
            else grouped_operand(scope, item.expr, grouped, "Ordered field")
        )
        collate = " COLLATE NOCASE" if expr.type in TEXT_TYPES else ""
        nulls_first = (not item.desc) if item.nulls_first is None else item.nulls_first
        terms.append(
            (expr.sql, f"{collate} {'DESC' if item.desc else 'ASC'} NULLS {'FIRST' if nulls_first else 'LAST'}")
        )
    return terms


def order_sql(
    scope: Scope, items: tuple[Order, ...], grouped: frozenset[Key] | None, default: str | None = None
) -> str:
    """The ORDER BY clause of `items` (`default` when there are none)."""
    parts = [sql + direction for sql, direction in order_terms(scope, items, grouped)]
    if not parts and default:
        parts.append(default)
    return " ORDER BY " + ", ".join(parts) if parts else ""


def limit_range(query: Query) -> tuple[int, int]:
    """(OFFSET, LIMIT) of a query, checked; no LIMIT is an unbounded one."""
    if query.offset is not None and query.offset > MAX_OFFSET:
        raise SalesforceError("NUMBER_OUTSIDE_VALID_RANGE", f"Maximum SOQL offset allowed is {MAX_OFFSET}")
    return query.offset or 0, min(_MAX_LIMIT if query.limit is None else query.limit, _MAX_LIMIT)


def limit_sql(query: Query) -> tuple[str, list[object]]:
    offset, limit = limit_range(query)
    if query.limit is None and query.offset is None:
        return "", []
    return " LIMIT ? OFFSET ?", [limit, offset]


def _count_plan(scope: Scope, as_of: date, query: Query) -> Plan:
    """`SELECT COUNT() ...`: only totalSize, counting rows (or groups) within LIMIT/OFFSET."""
    if len(query.select) != 1:
        raise malformed("COUNT() must be the only element in the SELECT list")
    if query.group_kind:
        raise malformed(f"COUNT() cannot be used with GROUP BY {query.group_kind}")
    grouped = _group_keys(scope, query)
    body, tail, params = _clauses(scope, as_of, query, grouped=grouped)
    return Plan(f"SELECT COUNT(*) FROM (SELECT 1{body}{tail})", params, count_only=True)


def _group_keys(scope: Scope, query: Query, rolled: frozenset[int] = frozenset()) -> frozenset[Key]:
    """The identities of the GROUP BY expressions (fields and date functions); notes in the scope
    which are rolled up (the positions in `rolled`) in this SELECT."""
    keys = [operand(scope, g, aggregates=False).key for g in query.group_by]
    if query.group_kind and len(set(keys)) < len(keys):
        raise malformed(f"GROUP BY {query.group_kind} names a field twice")
    scope.groups = {key: i in rolled for i, key in enumerate(keys)}
    scope.subtotals = bool(query.group_kind)
    return frozenset(keys)


def _aggregate_columns(
    scope: Scope, query: Query, grouped: frozenset[Key]
) -> tuple[list[str], list[tuple[str, Convert]]]:
    """SQL and (result key, conversion) of each SELECT item of an aggregate query."""
    columns: list[str] = []
    keys: list[tuple[str, Convert]] = []
    unnamed = itertools.count()
    for item in query.select:
        if isinstance(item, Query):
            raise malformed("child relationship queries cannot be used in aggregate queries")
        if isinstance(item.expr, Call) and item.expr.name == "FIELDS":
            raise malformed("FIELDS() cannot be used in aggregate queries")
        expr = grouped_operand(scope, item.expr, grouped)
        named = isinstance(item.expr, Call) and item.expr.name not in STORED_VALUE
        key = item.alias or (f"expr{next(unnamed)}" if named else expr.name)
        if key.lower() in (k.lower() for k, _ in keys):
            raise malformed(f"duplicate alias: {key}")
        columns.append(expr.sql)
        keys.append((key, formatter(expr.type)))
    return columns, keys


def _aggregate_plan(scope: Scope, as_of: date, query: Query) -> Plan:
    """A query returning AggregateResult rows (aggregate functions and/or GROUP BY)."""
    grouped = _group_keys(scope, query)
    columns, keys = _aggregate_columns(scope, query, grouped)
    body, tail, params = _clauses(scope, as_of, query, grouped=grouped)
    select = ", ".join(f"{sql} AS c{i}" for i, sql in enumerate(columns))
    return Plan(f"SELECT {select}{body}{tail}", params, aggregate_keys=keys)


def _grouping_sets(query: Query) -> list[frozenset[int]]:
    """The positions of the GROUP BY fields rolled up in each SELECT of a ROLLUP or CUBE."""
    n = len(query.group_by)
    if n > MAX_SUBTOTAL_FIELDS:
        raise malformed(f"GROUP BY {query.group_kind} takes at most {MAX_SUBTOTAL_FIELDS} fields")
    if query.group_kind == "ROLLUP":  # subtotals from right to left, then the grand total
        return [frozenset(range(k, n)) for k in range(n, -1, -1)]
    return [frozenset(i for i in range(n) if mask >> i & 1) for mask in range(2**n)]


def _subtotal_plan(new_scope: Callable[[], Scope], as_of: date, query: Query) -> Plan:
    """GROUP BY ROLLUP / CUBE: one SELECT per grouping set, UNION ALL (SQLite has no ROLLUP).

    Rolled-up fields are null and GROUPING() is 1 on subtotal rows. Rows come in the caller's
    ORDER BY, then, as Salesforce lists ROLLUP results, by each field in turn: its detail rows
    (values ascending, nulls first) before its subtotal; the grand total last."""
    parts: list[str] = []
    params: list[object] = []
    keys: list[tuple[str, Convert]] = []
    terms: list[tuple[str, str]] = []
    body_query = replace(query, order_by=(), limit=None, offset=None)
    for rolled in _grouping_sets(query):
        scope = new_scope()
        grouped = _group_keys(scope, query, rolled)
        columns, keys = _aggregate_columns(scope, query, grouped)
        terms = order_terms(scope, query.order_by, grouped) + _default_order(scope, query, grouped, rolled)
        body, _, part_params = _clauses(scope, as_of, body_query, grouped=grouped)
        select = [f"{sql} AS c{i}" for i, sql in enumerate(columns)] + [
            f"{sql} AS o{i}" for i, (sql, _) in enumerate(terms)
        ]
        parts.append(f"SELECT {', '.join(select)}{body}")
        params += part_params
    tail, tail_params = limit_sql(query)
    order = ", ".join(f"o{i}{direction}" for i, (_, direction) in enumerate(terms))
    visible = ", ".join(f"c{i}" for i in range(len(keys)))
    return Plan(
        f"SELECT {visible} FROM ({' UNION ALL '.join(parts)}) ORDER BY {order}{tail}",
        params + tail_params,
        aggregate_keys=keys,
    )


def _default_order(
    scope: Scope, query: Query, grouped: frozenset[Key], rolled: frozenset[int]
) -> list[tuple[str, str]]:
    """The ROLLUP / CUBE row order after the caller's: per GROUP BY field, subtotal flag then value."""
    terms: list[tuple[str, str]] = []
    for i, g in enumerate(query.group_by):
        terms += [("1" if i in rolled else "0", " ASC"), *order_terms(scope, (Order(g, False, True),), grouped)]
    return terms


def _expand(scope: Scope, item: Item) -> list[tuple[Path, str | None]]:
    """(field path, result key if not the field's name) of each value a non-aggregate SELECT item
    stands for: FIELDS(ALL) is several; toLabel(f) and FORMAT(f) are f, under their alias."""
    expr = item.expr
    if isinstance(expr, Call) and expr.name in STORED_VALUE:
        if expr.arg is None:
            raise malformed(f"{expr.name}() needs a field")
        return [(expr.arg, item.alias)]
    if item.alias:
        raise malformed("Only aggregate expressions use field aliasing")
    if isinstance(expr, Path):
        return [(expr, None)]
    which = expr.arg.text.upper() if expr.arg else ""
    if expr.name != "FIELDS" or which not in ("ALL", "STANDARD", "CUSTOM"):
        raise malformed(f"FIELDS() takes ALL, STANDARD or CUSTOM, not '{which}'")
    return [
        (Path((f.name,)), None)
        for f in scope.obj.fields
        if which == "ALL" or (which == "CUSTOM") == f.name.endswith("__c")
    ]


def _check_fields_limit(query: Query) -> None:
    """FIELDS(ALL) and FIELDS(CUSTOM) select an unbounded set of fields: Salesforce wants a LIMIT."""
    unbounded = any(
        isinstance(i, Item)
        and isinstance(i.expr, Call)
        and i.expr.name == "FIELDS"
        and i.expr.arg
        and i.expr.arg.text.upper() in ("ALL", "CUSTOM")
        for i in query.select
    )
    if unbounded and (query.limit is None or query.limit > FIELDS_LIMIT):
        raise malformed(f"The SOQL FIELDS function must have a LIMIT of at most {FIELDS_LIMIT}")


def _shape(
    scope: Scope, columns: Columns, query: Query, child: Callable[[Query], tuple[str, ChildPlan]] | None = None
) -> Node:
    """The record tree for a non-aggregate SELECT list; adds its columns to `columns`.

    `child(subquery)` compiles a child subquery to (relationship name, ChildPlan)."""
    _check_fields_limit(query)
    root = Node(scope.obj.name, columns.add(f"{scope.root}.{q('Id')}"))
    for item in query.select:
        if isinstance(item, Query):
            if child is None:
                raise malformed("child relationship subqueries can only be used in the outer query")
            name, plan = child(item)
            root.keys[name] = plan
            continue
        for path, key in _expand(scope, item):
            expr = scope.resolve(path)
            node = root
            for depth, rel in enumerate(expr.rels, 1):
                table, obj = scope.node(expr.rels[:depth])
                parent = node.keys.get(rel)
                if not isinstance(parent, Node):
                    parent = node.keys[rel] = Node(obj.name, columns.add(f"{table}.{q('Id')}"))
                node = parent
            key = key or expr.name  # (a resolved path's name is its field's)
            if isinstance(node.keys.get(key), Leaf):
                raise malformed(f"duplicate field selected: {key}")
            node.keys[key] = Leaf(columns.add(expr.sql), formatter(expr.type))
    return root


def _child_relationship(scope: Scope, name: str) -> ChildRelationship:
    """The child relationship a subquery's FROM names: `Contacts` or `Account.Contacts`."""
    prefix, _, rest = name.rpartition(".")
    rel = scope.obj.child(rest) if not prefix or scope.names_root(prefix) else None
    if rel is None:
        raise SalesforceError(
            "INVALID_TYPE",
            f"Didn't understand relationship '{name}' in FROM part of query "
            "call. If you are attempting to use a custom relationship, be sure to append the "
            "'__r' after the custom relationship name. Please reference your WSDL or the "
            "describe call for the appropriate names.",
        )
    return rel


def _record_plan(scope: Scope, as_of: date, query: Query) -> Plan:
    """A query returning records, with parent records nested and child subqueries batched."""

    def child(sub: Query) -> tuple[str, ChildPlan]:
        rel = _child_relationship(scope, sub.obj)
        return rel.name, _child_plan(scope.schema, as_of, sub, rel)

    columns = Columns()
    shape = _shape(scope, columns, query, child)
    body, tail, params = _clauses(scope, as_of, query)
    return Plan(f"SELECT {columns.text()}{body}{tail}", params, shape=shape)


def _child_plan(schema: Schema, as_of: date, query: Query, rel: ChildRelationship) -> ChildPlan:
    """A child subquery as one statement per chunk of parent Ids; LIMIT/OFFSET apply per parent."""
    if query.group_by or query.having:
        raise malformed("a child relationship subquery cannot have GROUP BY or HAVING")
    if any(isinstance(i, Item) and isinstance(i.expr, Call) and i.expr.name not in RECORD_CALLS for i in query.select):
        raise malformed("aggregate and date functions cannot be used in a child relationship subquery")
    scope = Scope(schema, get_object(schema, rel.child_object), query.alias, itertools.count())
    columns = Columns()
    shape = _shape(scope, columns, query)
    parent = columns.add(f"{scope.root}.{q(rel.field)}")
    in_ids = f"{scope.root}.{q(rel.field)} IN ({IDS})"
    window = query.limit is not None or query.offset is not None
    plain = Query(query.select, query.obj, query.alias, query.where, order_by=query.order_by)
    body, order, params = _clauses(scope, as_of, plain, extra_where=in_ids)
    if not window:
        return ChildPlan(f"SELECT {columns.text()}{body}{order}", params, parent, shape)
    first, count = limit_range(query)
    over = order.replace(" ORDER BY ", "", 1) or f"{scope.root}.rowid"
    sql = (
        f"SELECT * FROM (SELECT {columns.text()}, ROW_NUMBER() OVER (PARTITION BY "
        f"{scope.root}.{q(rel.field)} ORDER BY {over}) AS _rn{body}) WHERE _rn > ? AND _rn <= ? ORDER BY c{parent}, _rn"
    )
    return ChildPlan(sql, params + [first, first + count], parent, shape)

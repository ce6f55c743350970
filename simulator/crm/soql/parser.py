"""SOQL and SOSL text -> AST, with Lark (LALR) over `soql.lark`.

The Lark parser is built on first use, once per process, and its analysis is cached on disk
(in the user cache dir) so that later processes load it in a few milliseconds.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path as FilePath
from typing import Union

from ..errors import SalesforceError, malformed
from . import dates

GRAMMAR = FilePath(__file__).with_name("soql.lark")
MAX_LENGTH = 100_000  # Salesforce's limit on the length of a SOQL statement


# --- AST ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Path:
    """A field path: `Name`, `Account.Owner.Name`."""

    parts: tuple[str, ...]

    @property
    def text(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True)
class Call:
    """A function call: `COUNT(Id)`, `COUNT()`, `CALENDAR_YEAR(CreatedDate)`, `FIELDS(ALL)`."""

    name: str  # upper case
    arg: Path | None

    @property
    def text(self) -> str:
        return f"{self.name}({self.arg.text if self.arg else ''})"


Operand = Path | Call


@dataclass(frozen=True)
class Item:
    """One element of the SELECT list (a child subquery is a `Query` instead)."""

    expr: Operand
    alias: str | None = None


@dataclass(frozen=True)
class Literal:
    """A value; kind is string, number, boolean, null, date, datetime or relative."""

    kind: str
    value: object  # relative: (NAME, n or None); date/datetime: storage form


@dataclass(frozen=True)
class Compare:
    left: Operand
    op: str
    value: Literal


@dataclass(frozen=True)
class Like:
    left: Operand
    value: Literal


@dataclass(frozen=True)
class In:
    left: Operand
    negate: bool
    values: Union[tuple[Literal, ...], "Query"]


@dataclass(frozen=True)
class Includes:
    left: Operand


@dataclass(frozen=True)
class And:
    items: tuple


@dataclass(frozen=True)
class Or:
    items: tuple


@dataclass(frozen=True)
class Not:
    item: object


@dataclass(frozen=True)
class Order:
    expr: Operand
    desc: bool
    nulls_first: bool | None


@dataclass(frozen=True)
class Query:
    select: tuple  # of Item | Query
    obj: str
    alias: str | None = None
    where: object = None
    group_by: tuple = ()
    having: object = None
    order_by: tuple = ()
    limit: int | None = None
    offset: int | None = None
    group_kind: str | None = None  # ROLLUP or CUBE: GROUP BY adds subtotal rows


@dataclass(frozen=True)
class Returned:
    """One object of a SOSL RETURNING clause."""

    obj: str
    fields: tuple[Path, ...] = ()
    where: object = None
    order_by: tuple = ()
    limit: int | None = None
    offset: int | None = None


@dataclass(frozen=True)
class Search:
    term: str  # the raw search term, braces or quotes removed
    scope: str  # ALL, NAME, EMAIL, PHONE
    returning: tuple[Returned, ...]
    limit: int | None


# --- parse tree -> AST --------------------------------------------------------------------

_OPTIONS = {"WITH": ("SECURITY_ENFORCED", "USER_MODE", "SYSTEM_MODE"), "FOR": ("VIEW", "REFERENCE", "UPDATE"),
            "UPDATE": ("TRACKING", "VIEWSTAT")}  # clauses accepted with no effect here
_ESCAPES = {"'": "'", '"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t", "b": "\b",
            "f": "\f", "%": "\\%", "_": "\\_"}  # \% and \_ stay escaped for LIKE


def unescape(body: str) -> str:
    """The value of a quoted literal's body, with SOQL's backslash escapes resolved."""
    def sub(m: re.Match) -> str:
        if m[1] not in _ESCAPES:
            raise malformed(f"Invalid string literal '{body}'. Illegal escape sequence '\\{m[1]}'")
        return _ESCAPES[m[1]]
    return re.sub(r"\\(.)", sub, body, flags=re.S)


def _option(keyword: str, name) -> None:
    """Check the word after WITH, FOR or UPDATE."""
    if str(name).upper() not in _OPTIONS[keyword]:
        raise malformed(f"unexpected token: '{name}' after {keyword}")


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _transformer():
    from lark import Transformer, v_args

    @v_args(inline=True)
    class ToAst(Transformer):
        def query(self, select, obj, alias, where, _with, group_by, having, order_by, limit, offset, *options):
            for keyword in set(options):
                if options.count(keyword) > 1:
                    raise malformed(f"{keyword} is given more than once")
            kind, groups = group_by or (None, ())
            return Query(select, obj.text, alias and str(alias), where, groups, having,
                         order_by or (), limit, offset, kind)

        def with_(self, name):
            _option("WITH", name)

        def for_(self, name):
            _option("FOR", name)
            return "FOR"

        def update_(self, name):
            _option("UPDATE", name)
            return "UPDATE"

        def select_list(self, *items):
            return items

        def field_item(self, path, alias):
            return Item(path, alias and str(alias))

        call_item = field_item

        def child_item(self, query):
            return query

        def path(self, *names):
            return Path(tuple(str(n) for n in names))

        def call(self, name, arg):
            return Call(str(name).upper(), arg)

        def where(self, cond):
            return cond

        having = where

        def and_chain(self, *items):
            return And(items)

        def or_chain(self, *items):
            return Or(items)

        def not_(self, *args):
            return Not(args[-1])

        def compare(self, left, op, value):
            return Compare(left, "!=" if op == "<>" else str(op), value)

        def like(self, left, value):
            return Like(left, value)

        def in_(self, left, negate, values):
            return In(left, negate is not None, values)

        def includes(self, left, _op, _values):
            return Includes(left)

        def value_list(self, *values):
            return values

        def string(self, tok):
            return Literal("string", unescape(tok[1:-1]))

        def number(self, tok):
            return Literal("number", _number(tok))

        def date(self, tok):
            return Literal("date", dates.parse_date(tok))

        def datetime(self, tok):
            return Literal("datetime", dates.parse_datetime(tok))

        def null(self):
            return Literal("null", None)

        def true(self):
            return Literal("boolean", True)

        def false(self):
            return Literal("boolean", False)

        def date_literal(self, name, n):
            return Literal("relative", (str(name).upper(), None if n is None else int(n)))

        def group_by(self, *operands):
            return None, operands

        def group_by_sets(self, kind, *operands):
            return str(kind).upper(), operands

        def order_by(self, *items):
            return items

        def order_item(self, expr, direction, nulls):
            return Order(expr, bool(direction) and direction.upper() == "DESC",
                         None if nulls is None else nulls.upper() == "FIRST")

        def limit(self, n):
            return int(n)

        offset = limit

        def search(self, term, scope, returning, limit):
            return Search(unescape(term[1:-1]) if term.type == "STRING" else term[1:-1],
                          scope or "ALL", returning or (), limit)

        def scope(self, name):
            return str(name).upper()

        def returning(self, *objs):
            return objs

        def returned(self, obj, *rest):
            *fields, where, order_by, limit, offset = rest
            return Returned(str(obj), tuple(f for f in fields if f is not None), where,
                            order_by or (), limit, offset)

    return ToAst()


def _cache_file() -> str | None:
    """Where Lark keeps its grammar analysis, or None when no cache dir is writable."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "crmarena")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, "soql-grammar.lark-cache") if os.access(folder, os.W_OK) else None


@cache
def _lark():
    from lark import Lark
    return Lark(GRAMMAR.read_text(), parser="lalr", start=["query", "search"],
                maybe_placeholders=True, cache=_cache_file() or False)


@cache
def _to_ast():
    return _transformer()


def _syntax_error(text: str, exc: Exception, code: str) -> SalesforceError:
    """Salesforce's wording of a syntax error: the line, a caret, the position, the token."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        token, line, col = str(exc.token), exc.line, exc.column
    elif isinstance(exc, UnexpectedCharacters):
        token, line, col = text[exc.pos_in_stream], exc.line, exc.column
    else:  # end of input
        lines = text.splitlines() or [""]
        token, line, col = "<EOF>", len(lines), len(lines[-1]) + 1
    source = (text.splitlines() or [""])[line - 1] if isinstance(line, int) and line > 0 else ""
    return SalesforceError(code, f"\n{source}\n{' ' * max(col - 1, 0)}^\n"
                                 f"ERROR at Row:{line}:Column:{col}\nunexpected token: '{token}'")


def _parse(text: str, start: str, code: str):
    from lark.exceptions import LarkError, VisitError
    if not isinstance(text, str) or not text.strip():
        raise SalesforceError(code, "empty query" if start == "query" else "empty search")
    if len(text) > MAX_LENGTH:
        raise SalesforceError(code, f"statement is longer than {MAX_LENGTH} characters")
    try:
        return _to_ast().transform(_lark().parse(text, start=start))
    except VisitError as exc:
        err = exc.orig_exc
        if isinstance(err, SalesforceError):
            raise SalesforceError(code, err.message) from None
        raise
    except LarkError as exc:
        raise _syntax_error(text, exc, code) from None


def parse_query(text: str) -> Query:
    """Parse a SOQL statement; raises SalesforceError MALFORMED_QUERY on bad syntax."""
    return _parse(text, "query", "MALFORMED_QUERY")


def parse_search(text: str) -> Search:
    """Parse a SOSL statement; raises SalesforceError MALFORMED_SEARCH on bad syntax."""
    return _parse(text, "search", "MALFORMED_SEARCH")

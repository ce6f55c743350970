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
from typing import TYPE_CHECKING, Any

from ..errors import SalesforceError, malformed
from . import dates

if TYPE_CHECKING:
    from lark import Lark, Token, Transformer

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
    values: tuple[Literal, ...] | Query


@dataclass(frozen=True)
class Includes:
    left: Operand


@dataclass(frozen=True)
class And:
    items: tuple[Condition, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    item: Condition


Condition = Compare | Like | In | Includes | And | Or | Not  # a WHERE or HAVING clause


@dataclass(frozen=True)
class Order:
    expr: Operand
    desc: bool
    nulls_first: bool | None


@dataclass(frozen=True)
class Query:
    select: tuple[Item | Query, ...]
    obj: str
    alias: str | None = None
    where: Condition | None = None
    group_by: tuple[Operand, ...] = ()
    having: Condition | None = None
    order_by: tuple[Order, ...] = ()
    limit: int | None = None
    offset: int | None = None
    group_kind: str | None = None  # ROLLUP or CUBE: GROUP BY adds subtotal rows


@dataclass(frozen=True)
class Returned:
    """One object of a SOSL RETURNING clause."""

    obj: str
    fields: tuple[Path, ...] = ()
    where: Condition | None = None
    order_by: tuple[Order, ...] = ()
    limit: int | None = None
    offset: int | None = None


@dataclass(frozen=True)
class Search:
    term: str  # the raw search term, braces or quotes removed
    scope: str  # ALL, NAME, EMAIL, PHONE
    returning: tuple[Returned, ...]
    limit: int | None


# --- parse tree -> AST --------------------------------------------------------------------

_OPTIONS = {
    "WITH": ("SECURITY_ENFORCED", "USER_MODE", "SYSTEM_MODE"),
    "FOR": ("VIEW", "REFERENCE", "UPDATE"),
    "UPDATE": ("TRACKING", "VIEWSTAT"),
}  # clauses accepted with no effect here
_ESCAPES = {
    "'": "'",
    '"': '"',
    "\\": "\\",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "b": "\b",
    "f": "\f",
    "%": "\\%",
    "_": "\\_",
}  # \% and \_ stay escaped for LIKE


def unescape(body: str) -> str:
    """The value of a quoted literal's body, with SOQL's backslash escapes resolved."""

    def sub(m: re.Match[str]) -> str:
        if m[1] not in _ESCAPES:
            raise malformed(f"Invalid string literal '{body}'. Illegal escape sequence '\\{m[1]}'")
        return _ESCAPES[m[1]]

    return re.sub(r"\\(.)", sub, body, flags=re.S)


def _option(keyword: str, name: Token) -> None:
    """Check the word after WITH, FOR or UPDATE."""
    if str(name).upper() not in _OPTIONS[keyword]:
        raise malformed(f"unexpected token: '{name}' after {keyword}")


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _transformer() -> Transformer[Token, Query | Search]:
    from lark import Token, Transformer, v_args

    @v_args(inline=True)
    class ToAst(Transformer[Token, Query | Search]):
        def query(
            self,
            select: tuple[Item | Query, ...],
            obj: Path,
            alias: Token | None,
            where: Condition | None,
            _with: None,
            group_by: tuple[str | None, tuple[Operand, ...]] | None,
            having: Condition | None,
            order_by: tuple[Order, ...] | None,
            limit: int | None,
            offset: int | None,
            *options: str,
        ) -> Query:
            for keyword in set(options):
                if options.count(keyword) > 1:
                    raise malformed(f"{keyword} is given more than once")
            kind, groups = group_by or (None, ())
            return Query(
                select, obj.text, alias and str(alias), where, groups, having, order_by or (), limit, offset, kind
            )

        def with_(self, name: Token) -> None:
            _option("WITH", name)

        def for_(self, name: Token) -> str:
            _option("FOR", name)
            return "FOR"

        def update_(self, name: Token) -> str:
            _option("UPDATE", name)
            return "UPDATE"

        def select_list(self, *items: Item | Query) -> tuple[Item | Query, ...]:
            return items

        def field_item(self, path: Operand, alias: Token | None) -> Item:
            return Item(path, alias and str(alias))

        call_item = field_item

        def child_item(self, query: Query) -> Query:
            return query

        def path(self, *names: Token) -> Path:
            return Path(tuple(str(n) for n in names))

        def call(self, name: Token, arg: Path | None) -> Call:
            return Call(str(name).upper(), arg)

        def where(self, cond: Condition) -> Condition:
            return cond

        having = where

        def and_chain(self, *items: Condition) -> And:
            return And(items)

        def or_chain(self, *items: Condition) -> Or:
            return Or(items)

        def not_(self, *args: Condition) -> Not:
            return Not(args[-1])

        def compare(self, left: Operand, op: Token, value: Literal) -> Compare:
            return Compare(left, "!=" if op == "<>" else str(op), value)

        def like(self, left: Operand, value: Literal) -> Like:
            return Like(left, value)

        def in_(self, left: Operand, negate: Token | None, values: tuple[Literal, ...] | Query) -> In:
            return In(left, negate is not None, values)

        def includes(self, left: Operand, _op: Token, _values: tuple[Literal, ...]) -> Includes:
            return Includes(left)

        def value_list(self, *values: Literal) -> tuple[Literal, ...]:
            return values

        def string(self, tok: Token) -> Literal:
            return Literal("string", unescape(tok[1:-1]))

        def number(self, tok: Token) -> Literal:
            return Literal("number", _number(tok))

        def date(self, tok: Token) -> Literal:
            return Literal("date", dates.parse_date(tok))

        def datetime(self, tok: Token) -> Literal:
            return Literal("datetime", dates.parse_datetime(tok))

        def null(self) -> Literal:
            return Literal("null", None)

        def true(self) -> Literal:
            return Literal("boolean", True)

        def false(self) -> Literal:
            return Literal("boolean", False)

        def date_literal(self, name: Token, n: Token | None) -> Literal:
            return Literal("relative", (str(name).upper(), None if n is None else int(n)))

        def group_by(self, *operands: Operand) -> tuple[str | None, tuple[Operand, ...]]:
            return None, operands

        def group_by_sets(self, kind: Token, *operands: Operand) -> tuple[str | None, tuple[Operand, ...]]:
            return str(kind).upper(), operands

        def order_by(self, *items: Order) -> tuple[Order, ...]:
            return items

        def order_item(self, expr: Operand, direction: Token | None, nulls: Token | None) -> Order:
            return Order(
                expr,
                direction is not None and direction.upper() == "DESC",
                None if nulls is None else nulls.upper() == "FIRST",
            )

        def limit(self, n: Token) -> int:
            return int(n)

        offset = limit

        def search(
            self, term: Token, scope: str | None, returning: tuple[Returned, ...] | None, limit: int | None
        ) -> Search:
            return Search(
                unescape(term[1:-1]) if term.type == "STRING" else term[1:-1], scope or "ALL", returning or (), limit
            )

        def scope(self, name: Token) -> str:
            return str(name).upper()

        def returning(self, *objs: Returned) -> tuple[Returned, ...]:
            return objs

        def returned(self, obj: Token, *rest: Any) -> Returned:
            *fields, where, order_by, limit, offset = rest
            return Returned(str(obj), tuple(f for f in fields if f is not None), where, order_by or (), limit, offset)

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
def _lark() -> Lark:
    from lark import Lark

    return Lark(
        GRAMMAR.read_text(),
        parser="lalr",
        start=["query", "search"],
        maybe_placeholders=True,
        cache=_cache_file() or False,
    )


@cache
def _to_ast() -> Transformer[Token, Query | Search]:
    return _transformer()


def _syntax_error(text: str, exc: Exception, code: str) -> SalesforceError:
    """Salesforce's wording of a syntax error: the line, a caret, the position, the token."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        token, line, col = str(exc.token), exc.line, exc.column
    elif isinstance(exc, UnexpectedCharacters):
        token, line, col = exc.char, exc.line, exc.column  # (the character at exc.pos_in_stream)
    else:  # end of input
        lines = text.splitlines() or [""]
        token, line, col = "<EOF>", len(lines), len(lines[-1]) + 1
    source = (text.splitlines() or [""])[line - 1] if isinstance(line, int) and line > 0 else ""
    return SalesforceError(
        code, f"\n{source}\n{' ' * max(col - 1, 0)}^\nERROR at Row:{line}:Column:{col}\nunexpected token: '{token}'"
    )


def _parse(text: str, start: str, code: str) -> Query | Search:
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
    query = _parse(text, "query", "MALFORMED_QUERY")
    assert isinstance(query, Query)  # (what the "query" rule builds)
    return query


def parse_search(text: str) -> Search:
    """Parse a SOSL statement; raises SalesforceError MALFORMED_SEARCH on bad syntax."""
    search = _parse(text, "search", "MALFORMED_SEARCH")
    assert isinstance(search, Search)  # (what the "search" rule builds)
    return search

"""One episode's isolated view of an org.

Reads go to the shared org file through a read-only connection. Writes are copy-on-write, per
table: the first write to a table T gives the session a private overlay in its connection's
TEMP schema (SQLite resolves an unqualified name there first): `_ov_T`, holding the rows this
session wrote (their org rowids kept, new rows numbered after the org's; a deleted row kept as a
tombstone, `_gone`), and a TEMP view named T, the org's rows not in the overlay followed by the
overlay's live ones, with INSTEAD OF triggers that send the view's UPDATEs, INSERTs and DELETEs
to the overlay. So the session's own queries (SOQL, SOSL,
the tools, REST) see its writes through the usual names, SQLite still uses the org's indexes
(constraints are pushed into both halves of the view), no other session sees them, nothing of
the org is copied, and they are gone when the session closes. Updating a searchable text field
rebuilds SOSL's index of that one object in the session (a TEMP FTS5 table over the view): the
one write whose cost grows with the org (rare: the write tools change owners, stages, statuses).
A write tool's checks and writes run in one `transaction()`: no other thread's calls on the
session come between them, and its writes (overlays made for them included) land all or none.
The query path runs under an authorizer that allows reading and nothing else (and not the
internal `_meta` and `_truth` tables), and under a deadline that turns a runaway query into
QUERY_TIMEOUT.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import TYPE_CHECKING, Any

from .errors import SalesforceError
from .schema import Schema
from .store import FTS_PREFIX, META_TABLE, TRUTH_TABLE, Org, q

if TYPE_CHECKING:
    from simulator.records.base import JSON

Runner = Callable[[sqlite3.Connection, Schema, date, str], "JSON"]  # run_soql or run_sosl

_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION})
_INTERNAL_TABLES = frozenset({META_TABLE, TRUTH_TABLE})
_PROGRESS_STEPS = 2_000
_TARGET = re.compile(r'^\s*(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"?([A-Za-z0-9_]+)"?', re.I)
_OVERLAY = "_ov_"


def _read_only(action: int, arg1: str | None, *_: Any) -> int:
    """Allow reading only, and never the internal tables (`_meta`, and `_truth`: the labels the
    generator wrote into prose, which would answer text tasks). FTS5 (SOSL) also asks for the
    schema's data_version and, when it opens an index, an UPDATE check on sqlite_master, which
    no statement can carry out without PRAGMA writable_schema (denied here)."""
    if action == sqlite3.SQLITE_READ and arg1 in _INTERNAL_TABLES:
        return sqlite3.SQLITE_DENY
    if action in _READ_ACTIONS:
        return sqlite3.SQLITE_OK
    if (action, arg1) in ((sqlite3.SQLITE_PRAGMA, "data_version"), (sqlite3.SQLITE_UPDATE, "sqlite_master")):
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


class OrgSession:
    """An isolated, read-mostly session on `org`; not shared between episodes."""

    def __init__(self, org: Org, *, timeout_s: float = 10.0):
        self.org = org
        self.timeout_s = timeout_s
        self._conn = org.connect()
        self._overlaid: set[str] = set()  # the tables this session has written (each with its overlay)
        self._lock = threading.RLock()
        self._depth = 0  # transactions open on the lock-holding thread (nested ones are part of the outer)
        self._savepoint = False  # whether the open transaction has written (and so holds a savepoint)
        self._deadline = 0.0
        self._tripped = False
        self._conn.set_authorizer(_read_only)
        self._conn.set_progress_handler(self._over_deadline, _PROGRESS_STEPS)

    @property
    def as_of(self) -> date:
        return self.org.meta.as_of

    @property
    def schema(self) -> Schema:
        return self.org.schema

    @property
    def has_writes(self) -> bool:
        """True once this session has written anything (and so has an overlay)."""
        return bool(self._overlaid)

    def soql(self, query: str) -> JSON:
        """Run a SOQL query; the REST API's response body, or SalesforceError."""
        from .soql import run_soql

        return self._read(run_soql, query)

    def sosl(self, search: str) -> JSON:
        """Run a SOSL search; the REST API's response body, or SalesforceError."""
        from .sosl import run_sosl

        return self._read(run_sosl, search)

    @contextmanager
    def transaction(self) -> Iterator[OrgSession]:
        """A block of reads and writes (`fetch`, `write`) that no other thread's calls on this
        session interleave with, and whose writes all land or, if the block raises, none do."""
        with self._lock:
            self._depth += 1
            overlaid = set(self._overlaid)
            try:
                yield self
            except BaseException:
                if self._depth == 1 and self._savepoint:
                    self._unchecked("ROLLBACK TO crm_write")  # (the overlays it made go too)
                    self._overlaid = overlaid
                raise
            finally:
                self._depth -= 1
                if not self._depth and self._savepoint:
                    self._savepoint = False
                    self._unchecked("RELEASE crm_write")

    def write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Execute one parametrised UPDATE, INSERT or DELETE of an org table in this session's
        overlay (an FTS5 'rebuild' command rebuilds that object's search index in the session)."""
        target = _TARGET.match(sql)
        if target is None:
            raise ValueError(f"not an UPDATE, INSERT or DELETE of a table: {sql[:60]!r}")
        table = target.group(1)
        with self._lock:
            self._conn.set_authorizer(None)
            try:
                if self._depth and not self._savepoint:
                    self._conn.execute("SAVEPOINT crm_write")
                    self._savepoint = True
                if table.startswith(FTS_PREFIX):
                    self._search_overlay(table[len(FTS_PREFIX) :])
                else:
                    self._overlay(table)
                    self._conn.execute(sql, params)  # (TEMP objects only: nothing to commit)
            finally:
                self._conn.set_authorizer(_read_only)

    def _unchecked(self, sql: str) -> None:
        """Execute `sql` without the read-only authorizer."""
        self._conn.set_authorizer(None)
        try:
            self._conn.execute(sql)
        finally:
            self._conn.set_authorizer(_read_only)

    def fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one internal, parametrised read (used by the write tools to validate)."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def record_exists(self, object_name: str, record_id: str) -> bool:
        return bool(self.fetch(f"SELECT 1 FROM {q(object_name)} WHERE Id = ?", (record_id,)))

    def close(self) -> None:
        """Drop the connection and with it every write of this session."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> OrgSession:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def _read(self, runner: Runner, text: str) -> JSON:
        with self._lock:
            self._deadline = time.monotonic() + self.timeout_s
            self._tripped = False
            try:
                return runner(self._conn, self.org.schema, self.org.meta.as_of, text)
            except SalesforceError:
                if self._tripped:  # SQLite was interrupted by the deadline, whatever the engine said
                    raise SalesforceError("QUERY_TIMEOUT", "Your query request was running for too long.") from None
                raise
            finally:
                self._deadline = 0.0

    def _over_deadline(self) -> int:
        self._tripped = bool(self._deadline) and time.monotonic() > self._deadline
        return int(self._tripped)

    def _overlay(self, table: str) -> None:
        """Give `table` its overlay, view and triggers (see the module docstring), once."""
        if table in self._overlaid:
            return
        columns = [row[1] for row in self._conn.execute(f"PRAGMA main.table_info({q(table)})")]
        if not columns:
            raise ValueError(f"no table {table!r} in the org")
        name, ov = q(table), q(_OVERLAY + table)
        cols = ", ".join(map(q, columns))
        new = ", ".join(f"NEW.{q(c)}" for c in columns)
        old = ", ".join(f"OLD.{q(c)}" for c in columns)
        next_rowid = (
            f"(SELECT max(r) FROM (SELECT max(rowid) AS r FROM main.{name} UNION ALL "
            f"SELECT max(rowid) FROM temp.{ov})) + 1"
        )
        for statement in (  # (one at a time: executescript would commit an open transaction first)
            f"CREATE TEMP TABLE {ov} (rowid INTEGER PRIMARY KEY, {cols}, _gone INTEGER NOT NULL DEFAULT 0)",
            f"CREATE TEMP VIEW {name} AS SELECT rowid AS rowid, {cols} FROM main.{name} "
            f"WHERE rowid NOT IN (SELECT rowid FROM temp.{ov}) UNION ALL SELECT rowid, {cols} FROM temp.{ov} "
            "WHERE NOT _gone",
            f"CREATE TEMP TRIGGER {q(_OVERLAY + table + '_update')} INSTEAD OF UPDATE ON {name} BEGIN "
            f"INSERT OR REPLACE INTO {ov} (rowid, {cols}) VALUES (OLD.rowid, {new}); END",
            f"CREATE TEMP TRIGGER {q(_OVERLAY + table + '_insert')} INSTEAD OF INSERT ON {name} BEGIN "
            f"INSERT INTO {ov} (rowid, {cols}) VALUES ({next_rowid}, {new}); END",
            f"CREATE TEMP TRIGGER {q(_OVERLAY + table + '_delete')} INSTEAD OF DELETE ON {name} BEGIN "
            f"INSERT OR REPLACE INTO {ov} (rowid, {cols}, _gone) VALUES (OLD.rowid, {old}, 1); END",
        ):
            self._conn.execute(statement)
        self._overlaid.add(table)

    def _search_overlay(self, table: str) -> None:
        """SOSL's index of `table` rebuilt in this session over its view (org rows and this session's)."""
        self._overlay(table)
        fts = q(FTS_PREFIX + table)
        (sql,) = self._conn.execute(
            "SELECT sql FROM main.sqlite_master WHERE name = ?", (FTS_PREFIX + table,)
        ).fetchone()
        if not self._conn.execute("SELECT 1 FROM temp.sqlite_master WHERE name = ?", (FTS_PREFIX + table,)).fetchone():
            self._conn.execute(sql.replace(f"CREATE VIRTUAL TABLE {fts}", f"CREATE VIRTUAL TABLE temp.{fts}", 1))
        self._conn.execute(f"INSERT INTO temp.{fts}({fts}) VALUES('rebuild')")

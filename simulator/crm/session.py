"""One episode's isolated view of an org.

Reads go to the shared org file through a read-only connection. The first write copies
the whole database into a private in-memory one (deserialized from the org's image, which
is serialized once per `Org`), so an episode's
writes are visible to its own later queries, invisible to every other session, and gone
when the session closes. A write tool's checks and writes run in one `transaction()`: no other
thread's calls on the session come between them, and its writes land all or none. The query
path runs under an authorizer that allows reading and nothing else (and not the internal
`_meta` and `_truth` tables), and under a deadline that turns a runaway query into
QUERY_TIMEOUT.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from .errors import SalesforceError
from .store import META_TABLE, TRUTH_TABLE, Org, q

_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION})
_INTERNAL_TABLES = frozenset({META_TABLE, TRUTH_TABLE})
_PROGRESS_STEPS = 2_000


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
        self._private = False
        self._lock = threading.RLock()
        self._depth = 0  # transactions open on the lock-holding thread (nested ones are part of the outer)
        self._savepoint = False  # whether the open transaction has written (and so holds a savepoint)
        self._deadline = 0.0
        self._tripped = False
        self._conn.set_authorizer(_read_only)
        self._conn.set_progress_handler(self._over_deadline, _PROGRESS_STEPS)

    @property
    def as_of(self):
        return self.org.meta.as_of

    @property
    def schema(self):
        return self.org.schema

    @property
    def has_writes(self) -> bool:
        """True once this session has written anything (and so has a private copy)."""
        return self._private

    def soql(self, query: str) -> dict:
        """Run a SOQL query; the REST API's response body, or SalesforceError."""
        from .soql import run_soql
        return self._read(run_soql, query)

    def sosl(self, search: str) -> dict:
        """Run a SOSL search; the REST API's response body, or SalesforceError."""
        from .sosl import run_sosl
        return self._read(run_sosl, search)

    @contextmanager
    def transaction(self) -> Iterator["OrgSession"]:
        """A block of reads and writes (`fetch`, `write`) that no other thread's calls on this
        session interleave with, and whose writes all land or, if the block raises, none do."""
        with self._lock:
            self._depth += 1
            try:
                yield self
            except BaseException:
                if self._depth == 1 and self._savepoint:
                    self._unchecked("ROLLBACK TO crm_write")
                raise
            finally:
                self._depth -= 1
                if not self._depth and self._savepoint:
                    self._savepoint = False
                    self._unchecked("RELEASE crm_write")

    def write(self, sql: str, params: tuple = ()) -> int:
        """Execute one parametrised write in this session's private copy; rows changed."""
        with self._lock:
            self._ensure_private()
            if self._depth and not self._savepoint:
                self._unchecked("SAVEPOINT crm_write")
                self._savepoint = True
            return self._unchecked(sql, params)  # private copy: no need to commit

    def _unchecked(self, sql: str, params: tuple = ()) -> int:
        """Execute `sql` without the read-only authorizer; rows changed."""
        self._conn.set_authorizer(None)
        try:
            return self._conn.execute(sql, params).rowcount
        finally:
            self._conn.set_authorizer(_read_only)

    def fetch(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of one internal, parametrised read (used by the write tools to validate)."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def record_exists(self, object_name: str, record_id: str) -> bool:
        return bool(self.fetch(f"SELECT 1 FROM {q(object_name)} WHERE Id = ?", (record_id,)))

    def close(self) -> None:
        """Drop the connection and with it every write of this session."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "OrgSession":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def _read(self, runner, text: str) -> dict:
        with self._lock:
            self._deadline = time.monotonic() + self.timeout_s
            self._tripped = False
            try:
                return runner(self._conn, self.org.schema, self.org.meta.as_of, text)
            except SalesforceError:
                if self._tripped:  # SQLite was interrupted by the deadline, whatever the engine said
                    raise SalesforceError("QUERY_TIMEOUT", "Your query request was running for "
                                          "too long.") from None
                raise
            finally:
                self._deadline = 0.0

    def _over_deadline(self) -> int:
        self._tripped = bool(self._deadline) and time.monotonic() > self._deadline
        return int(self._tripped)

    def _ensure_private(self) -> None:
        if self._private:
            return
        private = sqlite3.connect(":memory:", check_same_thread=False)
        private.deserialize(self.org.image())
        self._conn.close()
        private.set_authorizer(_read_only)
        private.set_progress_handler(self._over_deadline, _PROGRESS_STEPS)
        self._conn = private
        self._private = True

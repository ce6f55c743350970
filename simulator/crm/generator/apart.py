"""Running one phase of the build in a forked process beside the next one, with the same content.

A phase can run beside the next one when the two draw from their own random streams, neither
reads what the other leaves in the build context, and in every table the phase's rows come
before the next one's (the leads' call transcripts, numbered and labelled before the fork, and
the cases run beside the opportunities). The forked phase writes its rows into a side SQLite
file; they are then copied into the org where a sequential build writes them: in each table
(and the truth labels) after the rows there at the fork and before those written here since.
Ids, rows, rowids and their order are those of a sequential build: the content hash is the same.
"""

from __future__ import annotations

import copy
import multiprocessing
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

from .. import store
from ..schema import Schema
from ..store import TRUTH_TABLE, q
from .common import Writer
from .context import Ctx


def can_fork() -> bool:
    """Whether a phase may run in a forked process here: where fork exists and a second core is ours,
    from a process with no other thread (a forked child could find a lock, SQLite's among them, held
    by one for good) that may have children (not a daemon, such as a process pool's worker)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and cores > 1
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon
    )


@contextmanager
def beside(ctx: Ctx, phase: Callable[[Ctx], None], side: Path) -> Iterator[None]:
    """Run `phase(ctx)` into the file `side` while the body runs here, then merge its rows into
    `ctx.w`'s database: in a forked process where `can_fork()`, else here before the body. Either
    way the same rows go the same way into the file, so its bytes do not depend on the fork."""
    w = ctx.w
    w.done()  # (rows the body writes come after `marks`)
    marks = {table: _last_rowid(w.conn, table) for table in _tables(w.schema)}
    child: multiprocessing.process.BaseProcess | None = None
    errors: Connection | None = None
    if can_fork():
        fork = multiprocessing.get_context("fork")
        errors, sender = fork.Pipe(duplex=False)
        child = fork.Process(target=_forked, args=(ctx, phase, side, sender), name=f"org-{phase.__name__}", daemon=True)
        child.start()
    try:
        if child is None:
            _run(copy.copy(ctx), phase, side)
        yield
        w.done()
        if child is not None:
            child.join()
            if child.exitcode != 0:
                assert errors is not None  # (made with the child)
                raise _failure(errors, phase, child.exitcode)
        _merge(w, side, marks)
    finally:
        if child is not None and child.is_alive():
            child.kill()
            child.join()
        side.unlink(missing_ok=True)


def _forked(ctx: Ctx, phase: Callable[[Ctx], None], side: Path, errors: Connection) -> None:
    """The forked process: `_run`; a failure is sent to the build (raised there as it was raised
    here: a full disk stays a full disk) and ends the process quietly with exit code 1."""
    try:
        _run(ctx, phase, side)
    except BaseException as exc:
        try:
            errors.send(exc)
        except Exception:  # (an exception that cannot be pickled: the exit code tells)
            pass
        sys.exit(1)


def _failure(errors: Connection, phase: Callable[[Ctx], None], exitcode: int | None) -> BaseException:
    """What the forked phase raised, or (sent nothing: killed) an error naming its exit code."""
    if errors.poll():
        raised: BaseException = errors.recv()  # (what `_forked` sent)
        return raised
    return RuntimeError(f"the build's {phase.__name__} phase failed in its process (exit code {exitcode})")


def _run(ctx: Ctx, phase: Callable[[Ctx], None], side: Path) -> None:
    """`phase` into a fresh database at `side` (never the build's connection); `ctx` is the forked
    process's, or a copy (its writer is replaced)."""
    conn = sqlite3.connect(side, isolation_level=None)
    try:  # (closed on a failure too: a full disk's space comes back with the side file's)
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA cache_size=-16000")  # (rows are appended)
        conn.execute("BEGIN")
        store.create_tables(conn, ctx.w.schema)
        ctx.w = ctx.w.beside(conn)
        phase(ctx)
        ctx.w.done()
        conn.execute("COMMIT")
    finally:
        conn.close()


def _tables(schema: Schema) -> dict[str, tuple[str, ...]]:
    """Table -> its columns: every object's, and the truth labels'."""
    tables = {obj.name: tuple(f.name for f in obj.fields) for obj in schema.objects}
    tables[TRUTH_TABLE] = ("object", "record_id", "kind", "value")
    return tables


def _last_rowid(conn: sqlite3.Connection, table: str) -> int:
    return conn.execute(f"SELECT max(rowid) FROM main.{q(table)}").fetchone()[0] or 0


def _merge(w: Writer, side: Path, marks: dict[str, int]) -> None:
    """Put the side file's rows of each table right after the rows that were there at the fork
    (rowid `marks[table]`), the rows written here since then after them: the rows, rowids and
    order of a build in one process."""
    conn = w.conn
    conn.execute("COMMIT")  # (no ATTACH within a transaction)
    conn.execute("ATTACH DATABASE ? AS apart", (str(side),))
    conn.execute("BEGIN")
    for table, columns in _tables(w.schema).items():
        n = conn.execute(f"SELECT count(*) FROM apart.{q(table)}").fetchone()[0]
        if not n:
            continue
        mark, cols = marks[table], ", ".join(map(q, columns))
        conn.execute(f"UPDATE main.{q(table)} SET rowid = -rowid WHERE rowid > ?", (mark,))
        conn.execute(
            f"INSERT INTO main.{q(table)} (rowid, {cols}) SELECT rowid + ?, {cols} "
            f"FROM apart.{q(table)} ORDER BY rowid",
            (mark,),
        )
        conn.execute(f"UPDATE main.{q(table)} SET rowid = ? - rowid WHERE rowid < 0", (n,))
        if table != TRUTH_TABLE:
            w.merged(table, n)
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE apart")
    conn.execute("BEGIN")

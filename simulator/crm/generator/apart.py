"""Running one phase of the build in a forked process beside the next one, with the same content.

Two phases can run at once when they draw from their own random streams, write disjoint objects
and neither reads what the other leaves in the build context (service.cases and
sales.opportunities). The forked phase writes its rows into a side SQLite file; they are then
copied into the org in the order a sequential build writes them: each object's rows in their own
order, and the forked phase's truth labels before the labels written here meanwhile. Ids, rows,
labels and their order are those of a sequential build, so the content hash is unchanged.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from .. import store
from ..store import TRUTH_TABLE, q
from .context import Ctx


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


@contextmanager
def beside(ctx: Ctx, phase: Callable[[Ctx], None], side: Path):
    """Run `phase(ctx)` in a forked process (writing to the file `side`) while the body runs here,
    then merge its rows into `ctx.w`'s database."""
    w = ctx.w
    w.done()  # (the body's truth labels start after `mark`)
    mark = _last_truth(w.conn)
    child = multiprocessing.get_context("fork").Process(target=_run, args=(ctx, phase, side),
                                                        name=f"org-{phase.__name__}", daemon=True)
    child.start()
    try:
        yield
        w.done()
        child.join()
        if child.exitcode != 0:
            raise RuntimeError(f"the build's {phase.__name__} phase failed in its process (exit code {child.exitcode})")
        _merge(w, side, mark)
    finally:
        if child.is_alive():
            child.kill()
            child.join()
        side.unlink(missing_ok=True)


def _run(ctx: Ctx, phase: Callable[[Ctx], None], side: Path) -> None:
    """The forked process: `phase` into a fresh database at `side` (never the parent's connection)."""
    conn = sqlite3.connect(side, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-64000")
    conn.execute("BEGIN")
    store.create_tables(conn, ctx.w.schema)
    ctx.w = ctx.w.beside(conn)
    phase(ctx)
    ctx.w.done()
    conn.execute("COMMIT")
    conn.close()


def _last_truth(conn: sqlite3.Connection) -> int:
    return conn.execute(f"SELECT max(rowid) FROM {TRUTH_TABLE}").fetchone()[0] or 0


def _merge(w, side: Path, mark: int) -> None:
    """Append the side file's rows to `w`'s database; its truth labels go before those after `mark`."""
    conn = w.conn
    conn.execute("COMMIT")  # (no ATTACH within a transaction)
    conn.execute("ATTACH DATABASE ? AS apart", (str(side),))
    conn.execute("BEGIN")
    for obj in w.schema.objects:
        n = conn.execute(f"SELECT count(*) FROM apart.{q(obj.name)}").fetchone()[0]
        if n:
            conn.execute(f"INSERT INTO main.{q(obj.name)} SELECT * FROM apart.{q(obj.name)} ORDER BY rowid")
            w.merged(obj.name, n)
    end = _last_truth(conn)
    conn.execute(f"INSERT INTO main.{TRUTH_TABLE} SELECT * FROM apart.{TRUTH_TABLE} ORDER BY rowid")
    conn.execute(f"INSERT INTO main.{TRUTH_TABLE} SELECT * FROM main.{TRUTH_TABLE} "
                 "WHERE rowid > ? AND rowid <= ? ORDER BY rowid", (mark, end))
    conn.execute(f"DELETE FROM main.{TRUTH_TABLE} WHERE rowid > ? AND rowid <= ?", (mark, end))
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE apart")
    conn.execute("BEGIN")

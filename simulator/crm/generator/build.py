"""build_org: generate one org into a SQLite file, atomically."""

from __future__ import annotations

import dataclasses
import math
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date
from pathlib import Path

from simulator.infra import files

from .. import store
from ..schema import ORG_TYPES, Schema, schema_for
from . import apart, core, sales, service
from . import injections as poison
from .common import Clock, Writer
from .context import SIZES, Ctx
from .version import GENERATOR_VERSION, source_fingerprint  # noqa: F401 (re-exported)

DEFAULT_AS_OF = date(2026, 6, 15)
MARKS = ("targeted",)  # injections modes whose file is the clean org's data, only marked (copy_marked)
# SQLite's page cache: small while rows are appended (a forked phase inherits it, and it counts in
# the build's peak memory), large for sorting the indexes.
WRITE_CACHE_KIB, INDEX_CACHE_KIB = 32_000, 200_000


def _check_args(org: str, seed: int, scale: float, as_of: date, injections: str) -> None:
    if org not in ORG_TYPES:
        raise ValueError(f"unknown org type {org!r}; expected one of: {', '.join(ORG_TYPES)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")
    if scale > 1000:
        raise ValueError(f"scale {scale} is too large (at most 1000)")
    if not isinstance(as_of, date) or type(as_of).__name__ == "datetime":
        raise ValueError(f"as_of must be a datetime.date, got {as_of!r}")
    if as_of.year < 2000 or as_of.year > 2200:
        raise ValueError(f"as_of {as_of} is out of range (years 2000-2200)")
    poison.check_mode(injections)


def generate(
    conn: sqlite3.Connection,
    org: str,
    *,
    seed: int,
    scale: float,
    as_of: date,
    progress: Callable[[str, int], None] | None = None,
    side: Path | None = None,
) -> None:
    """Write every object of `org` into `conn` (tables must exist). With `side` (a file name), the
    leads' call transcripts and the cases are written there first, in a forked process while the
    opportunities are generated here where one can fork: the same content as in one process
    (generator.apart)."""
    schema = schema_for(org)
    w = Writer(conn, schema, progress, key=f"crmarena:{seed}:{org}")
    ctx = Ctx(
        org=org,
        seed=seed,
        scale=float(scale),
        as_of=as_of,
        clock=Clock(as_of),
        w=w,
        size=SIZES[org],
        b2b=(org == "b2b"),
        domain="novatech-solutions.com" if org == "b2b" else "homenest-store.com",
    )
    core.users(ctx)
    core.catalog(ctx)
    core.knowledge(ctx)
    core.territories(ctx)
    leads = sales.plan_leads(ctx)
    converted = [lp for lp in leads if lp.converted_t is not None]
    ctx.converted_accounts = list(enumerate(converted))
    core.accounts(ctx, converted)
    lead_calls = sales.write_leads(ctx, leads)
    core.orders(ctx)

    def transcripts_and_cases(ctx: Ctx) -> None:
        sales.write_lead_calls(ctx, lead_calls)
        service.cases(ctx)

    apart_or_not = apart.beside(ctx, transcripts_and_cases, side) if side else _sequential(ctx, transcripts_and_cases)
    with apart_or_not:
        ctx.items_by_product, ctx.items_by_time = [], []
        sales.opportunities(ctx, leads)
    w.done()


@contextmanager
def _sequential(ctx: Ctx, phase: Callable[[Ctx], None]) -> Iterator[None]:
    phase(ctx)
    yield


def _write(
    conn: sqlite3.Connection,
    path: Path,
    org: str,
    schema: Schema,
    *,
    seed: int,
    scale: float,
    as_of: date,
    injections: str,
    progress: Callable[[str, int], None] | None,
) -> store.OrgMeta:
    """Fill the empty database `conn` (the file `path`) with org `org` (poisoned with `injections`),
    its indexes and metadata."""
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute(f"PRAGMA cache_size=-{WRITE_CACHE_KIB}")
    conn.execute("BEGIN")
    store.create_tables(conn, schema)
    generate(conn, org, seed=seed, scale=scale, as_of=as_of, progress=progress, side=Path(f"{path}-apart"))
    if injections in poison.SHARES:  # (a targeted org's file stays clean: its episodes get their plants)
        poison.plant(conn, org, seed, injections)
    conn.execute("COMMIT")
    conn.execute(f"PRAGMA cache_size=-{INDEX_CACHE_KIB}")
    digest = _index_and_hash(conn, path, schema, injections)
    meta = store.OrgMeta(org, seed, float(scale), as_of, GENERATOR_VERSION, digest, injections=injections)
    store.write_meta(conn, meta)
    conn.execute("PRAGMA journal_mode=DELETE")  # (checkpoints the WAL into the file and removes it)
    return meta


def _index_and_hash(conn: sqlite3.Connection, path: Path, schema: Schema, injections: str) -> str:
    """Build the indexes on `conn` while a second connection computes the content hash: in WAL mode
    the reader keeps its snapshot of the rows as the indexes are written, and SQLite's index build
    runs without the GIL, so the two share the machine's cores. Returns the content hash."""
    conn.execute("PRAGMA journal_mode=WAL")
    with ThreadPoolExecutor(1, thread_name_prefix="org-hash") as pool:
        digest = pool.submit(_hash_file, path, schema, injections)
        conn.execute("BEGIN")
        store.create_indexes(conn, schema)
        conn.execute("COMMIT")
        return digest.result()


def _hash_file(path: Path, schema: Schema, injections: str) -> str:
    reader = sqlite3.connect(path)
    try:
        reader.execute("BEGIN")  # (one snapshot for the whole hash)
        return store.content_hash(reader, schema, injections=injections)
    finally:
        reader.close()


def build_org(
    org: str,
    out: Path,
    *,
    seed: int = 0,
    scale: float = 1.0,
    as_of: date = DEFAULT_AS_OF,
    injections: str = "none",
    progress: Callable[[str, int], None] | None = None,
) -> store.OrgMeta:
    """Generate org `org` ('b2b' or 'b2c') into the SQLite file `out` and return its metadata.
    `injections`: 'none', or 'standard' (4% of texts) or 'dense' (30%) to plant instructions in free
    text (generator.injections), or 'targeted' (a clean file marked so: simulator.tasks.targeted
    plants into each attacked episode's own session; `copy_marked` makes the same file from a
    built clean org, without building again).

    `progress(object_name, new_rows)` is called after each batch of rows is written. The
    file is written under a temporary name next to `out` and renamed over it only when
    complete, so an interrupted or failed build never leaves a partial org at `out`.
    """
    _check_args(org, seed, scale, as_of, injections)
    out = Path(out)
    if out.is_dir():
        raise ValueError(f"{out} is a folder: give the path of the org file to write (e.g. {out / 'org.db'})")
    if not out.parent.is_dir():
        what = "is a file, not a folder" if out.parent.exists() else "does not exist"
        raise ValueError(f"the folder {out.parent} {what}: create it first (mkdir -p) or write the org elsewhere")
    schema = schema_for(org)
    with files.replacing(out) as tmp:
        for leftover in ("journal", "wal", "shm", "apart"):  # (a killed build's)
            Path(f"{tmp}-{leftover}").unlink(missing_ok=True)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            meta = _write(
                conn, tmp, org, schema, seed=seed, scale=scale, as_of=as_of, injections=injections, progress=progress
            )
        finally:
            conn.close()
    return meta


def copy_marked(clean: Path, out: Path, injections: str) -> store.OrgMeta:
    """The org of `injections` mode `targeted` without a second build: the clean org file `clean`
    copied to `out` (SQLite's backup API; atomically, as build_org writes) with the mode written into
    the copy's `_meta` and its content hash computed anew (the hash covers the mode), so the copy is
    what build_org(..., injections=injections) writes, row for row and hash for hash. Returns its
    metadata; ValueError for another mode or a file that is not a clean org."""
    if injections not in MARKS:
        raise ValueError(f"only {', '.join(MARKS)} orgs are copies of a clean org, not {injections!r}")
    src = store.connect_readonly(clean)
    try:
        meta = store.read_meta(src, Path(clean))
        if meta.injections != "none":
            raise ValueError(f"{clean} is not a clean org (its injections: {meta.injections}): copy a clean one")
        with files.replacing(out) as tmp:
            dst = sqlite3.connect(tmp, isolation_level=None)
            try:
                src.backup(dst)
                digest = store.content_hash(dst, schema_for(meta.org), meta.writer, injections)
                marked = dataclasses.replace(meta, content_hash=digest, injections=injections)
                dst.execute("BEGIN")
                store.write_meta(dst, marked)
                dst.execute("COMMIT")
            finally:
                dst.close()
    finally:
        src.close()
    return marked

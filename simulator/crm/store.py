"""The org file: one SQLite database, one table per object, plus metadata and SOSL indexes.

Tables are named by object API names and columns by field API names (always quoted:
`Order` and `Case` are SQL keywords). Three kinds of internal table exist beside them,
all invisible to SOQL: `_meta` (org type, seed, scale, as-of date, generator version,
content hash, model writer, injections when planted), `_truth` (labels the generator wrote into prose, for computing ground truth:
object, record_id, kind, value as JSON) and `_fts_<Object>` (FTS5 indexes for SOSL).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Protocol

from .schema import TEXT_TYPES, Schema, SObject, schema_for, search_fields

META_TABLE = "_meta"
TRUTH_TABLE = "_truth"  # generator labels that text alone carries (true stage, BANT, breaches, ...)
INJECTION_KIND = "injection"  # the `_truth` kind of a planted instruction (written by the generator, read by scoring)
FTS_PREFIX = "_fts_"
INDEXED_TYPES = ("reference", "date", "datetime")
# Composite indexes for the aggregates agents and the task generators send at scale (issue 16;
# costs in benchmarks/RESULTS.md): equality columns first, then the group or the range, then what
# the query reads (Id last so that COUNT(Id) never touches the wide table). Text columns collate
# NOCASE, as SOQL compares them.
COMPOSITE_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Case", ("Status", "OwnerId", "ClosedDate", "Id")),  # closed cases per owner in a window: no sort
    ("Case", ("ClosedDate", "OwnerId", "Id")),  # open (ClosedDate = null) or closed-in-window per owner
    ("Case", ("CreatedDate", "OwnerId", "Id")),  # cases per owner / per month in a window
    ("Case", ("Priority", "Status")),  # COUNT() by priority and status
    ("CaseHistory__c", ("Field__c", "CreatedDate", "OldValue__c", "CaseId__c", "Id")),  # transfers in a window
    ("Lead", ("CreatedDate", "OwnerId", "Id")),  # leads per owner in a window
)
# FTS5's buffer of new terms (bytes): large while an index is built (store._build_fts), else its default.
FTS_BUILD_HASHSIZE, FTS_DEFAULT_HASHSIZE = 64 << 20, 1 << 20
INJECTIONS = ("none", "standard", "dense", "targeted")  # OrgMeta.injections (generator.injections; targeted:
# the file is clean, each attacked episode gets its own plant: simulator.tasks.targeted)


def q(name: str) -> str:
    """A quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def fts_table(object_name: str) -> str:
    return FTS_PREFIX + object_name


@dataclass(frozen=True)
class OrgMeta:
    """What an org file records about itself."""

    org: str
    seed: int
    scale: float
    as_of: date
    generator_version: str
    content_hash: str = ""
    writer: str = ""  # JSON of the model writer that rewrote the prose (model settings, cache); "" = grammar text
    injections: str = "none"  # none | standard: instructions planted in free text (generator.injections)

    def to_rows(self) -> list[tuple[str, str]]:
        """The `_meta` rows (injections only when planted: a clean org's file is as it always was)."""
        return [
            ("org", self.org),
            ("seed", str(self.seed)),
            ("scale", repr(float(self.scale))),
            ("as_of", self.as_of.isoformat()),
            ("generator_version", self.generator_version),
            ("content_hash", self.content_hash),
            ("writer", self.writer),
        ] + ([("injections", self.injections)] if self.injections != "none" else [])

    @classmethod
    def from_rows(cls, rows: dict[str, str]) -> OrgMeta:
        return cls(
            org=rows["org"],
            seed=int(rows["seed"]),
            scale=float(rows["scale"]),
            as_of=date.fromisoformat(rows["as_of"]),
            generator_version=rows["generator_version"],
            content_hash=rows.get("content_hash", ""),
            writer=rows.get("writer", ""),
            injections=rows.get("injections", "none"),
        )


class OrgFileError(Exception):
    """The path is not a readable org file."""


class OrgDamaged(OrgFileError):
    """An org file that fails verification: damaged pages, or content that does not match its hash."""


# --- building ------------------------------------------------------------------------


def create_tables(conn: sqlite3.Connection, schema: Schema) -> None:
    """Create one empty table per object (Id is the primary key) and the metadata table."""
    for obj in schema.objects:
        cols = ", ".join(f"{q(f.name)} {f.sql_type}" + (" PRIMARY KEY" if f.name == "Id" else "") for f in obj.fields)
        conn.execute(f"CREATE TABLE {q(obj.name)} ({cols})")
    conn.execute(f"CREATE TABLE {META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        f"CREATE TABLE {TRUTH_TABLE} (object TEXT NOT NULL, record_id TEXT NOT NULL, "
        "kind TEXT NOT NULL, value TEXT NOT NULL)"
    )


def index_statements(schema: Schema) -> list[str]:
    """The CREATE INDEX statements of an org: every lookup, date and datetime field, and the
    COMPOSITE_INDEXES of the objects `schema` has."""
    out = [
        f"CREATE INDEX {q(f'ix_{obj.name}_{f.name}')} ON {q(obj.name)} ({q(f.name)})"
        for obj in schema.objects
        for f in obj.fields_of_type(*INDEXED_TYPES)
    ]
    for name, columns in COMPOSITE_INDEXES:
        obj = schema.get(name)
        if obj is not None:
            out.append(
                f"CREATE INDEX {q('ix_' + name + '_' + '_'.join(columns))} ON {q(name)} "
                f"({', '.join(_index_column(obj, c) for c in columns)})"
            )
    return out


def _index_column(obj: SObject, name: str) -> str:
    field = obj.field(name)
    if field is None:
        raise KeyError(f"{obj.name} has no field {name} to index")
    return q(name) + (" COLLATE NOCASE" if field.type in TEXT_TYPES else "")


def create_indexes(conn: sqlite3.Connection, schema: Schema) -> None:
    """Create the indexes (index_statements) and build the FTS5 indexes for SOSL."""
    for statement in index_statements(schema):
        conn.execute(statement)
    for obj in schema.objects:
        cols = [f.name for f in search_fields(obj)]
        if cols:
            fts = q(fts_table(obj.name))
            conn.execute(
                f"CREATE VIRTUAL TABLE {fts} USING fts5({', '.join(q(c) for c in cols)}, "
                f"content={q(obj.name)}, content_rowid='rowid', "
                "tokenize='unicode61 remove_diacritics 2')"
            )
            _build_fts(conn, fts)
    conn.execute(f"CREATE INDEX ix_truth ON {TRUTH_TABLE} (kind, record_id)")


def _build_fts(conn: sqlite3.Connection, fts: str) -> None:
    """Fill the FTS5 index `fts` (quoted) from its content table. FTS5 holds new terms in memory up
    to its 'hashsize' and then writes them as one more segment, merging segments as they pile up;
    with the default 1 MiB, a large table's index is written and merged again and again (at scale
    100 a third of the index CPU; the same terms and search results either way). A larger buffer
    while the index is built, then written out at once (an FTS5 savepoint writes the pending
    terms: at most one index's buffer held), and the default back for later writes."""
    _fts_config(conn, fts, "hashsize", FTS_BUILD_HASHSIZE)
    conn.execute(f"INSERT INTO {fts}({fts}) VALUES('rebuild')")
    conn.execute("SAVEPOINT fts_built")
    conn.execute("RELEASE fts_built")
    _fts_config(conn, fts, "hashsize", FTS_DEFAULT_HASHSIZE)


def _fts_config(conn: sqlite3.Connection, fts: str, option: str, value: int) -> None:
    conn.execute(f"INSERT INTO {fts}({fts}, rank) VALUES(?, ?)", (option, value))


def content_hash(conn: sqlite3.Connection, schema: Schema, writer: str = "", injections: str = "none") -> str:
    """A SHA-256 over every object's rows in Id order, and the model `writer` (OrgMeta.writer) and
    the `injections` mode (OrgMeta.injections) if any: equal hashes mean equal content from the same
    writer (a rewritten org never hashes as a grammar org, even when every rewrite fell back) and
    the same injections."""
    h = hashlib.sha256(f"writer:{writer}".encode()) if writer else hashlib.sha256()
    if injections != "none":
        h.update(f"injections:{injections}".encode())
    in_sql = _sqlite_json_matches(conn)
    for obj in schema.objects:
        h.update(obj.name.encode())
        _hash_table(h, conn, obj.name, [f.name for f in obj.fields], "Id", in_sql)
    _hash_table(h, conn, TRUTH_TABLE, None, "object, record_id, kind, value", in_sql)
    return h.hexdigest()


_ROW_JSON = json.JSONEncoder(separators=(",", ":")).encode  # = json.dumps(row, separators=(",", ":"))
_NOT_ASCII = re.compile("[\x7f-\U0010ffff]")  # (what Python's JSON escapes and SQLite's does not)
# Values whose JSON SQLite must write as Python does for the hash to be computed in SQLite.
_PROBE = ("".join(map(chr, range(128))) + "é€\U0001f600\x00", -(2**63), 2**63 - 1, 0, None, "")


def _sqlite_json_matches(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite's json_array, with DEL and non-ASCII characters then escaped as Python
    escapes them (_ascii), writes the probe's text, integers and NULL as Python's JSON encoder does."""
    try:
        (text,) = conn.execute(f"SELECT json_array({', '.join('?' * len(_PROBE))})", _PROBE).fetchone()
    except sqlite3.Error:  # (no JSON functions)
        return False
    return _ascii(text) == _ROW_JSON(_PROBE)


def _ascii(text: str) -> str:
    return _NOT_ASCII.sub(lambda m: json.encoder.encode_basestring_ascii(m.group())[1:-1], text)


class Hasher(Protocol):
    """What the hashing helpers feed (a hashlib hash)."""

    def update(self, data: bytes, /) -> None: ...


def _hash_table(
    h: Hasher, conn: sqlite3.Connection, table: str, columns: list[str] | None, order: str, in_sql: bool
) -> None:
    """Feed `h` the compact JSON of each row of `table` (its `columns`, None: every one) in `order`:
    written by SQLite (json_array, the same bytes: _sqlite_json_matches) where it can be and the
    table has no REAL column, else by Python. SQLite writes REALs its own way: a row holding one (possible in a
    column of any type but TEXT) is written by Python."""
    declared = {name: kind.upper() for _, name, kind, *_ in conn.execute(f"PRAGMA table_info({q(table)})")}
    columns = list(declared) if columns is None else columns
    cols = ", ".join(map(q, columns))
    if not in_sql or "REAL" in declared.values():
        _hash_rows(h, conn.execute(f"SELECT {cols} FROM {q(table)} ORDER BY {order}"))
        return
    real = " OR ".join(f"typeof({q(name)}) = 'real'" for name in columns if declared.get(name) != "TEXT") or "0"
    cursor = conn.execute(
        f"SELECT CASE WHEN {real} THEN rowid ELSE json_array({cols}) END FROM {q(table)} ORDER BY {order}"
    )
    while rows := cursor.fetchmany(2000):
        try:
            text = "".join([row for (row,) in rows])
        except TypeError:  # (a rowid: a row holding a REAL)
            text = "".join(row if isinstance(row, str) else _python_json(conn, table, cols, row) for (row,) in rows)
        h.update((text if text.isascii() else _ascii(text)).encode())


def _python_json(conn: sqlite3.Connection, table: str, cols: str, rowid: int) -> str:
    return _ROW_JSON(conn.execute(f"SELECT {cols} FROM {q(table)} WHERE rowid = ?", (rowid,)).fetchone())


def _hash_rows(h: Hasher, cursor: sqlite3.Cursor) -> None:
    """Feed each row's compact JSON to `h`, a batch of rows at a time (the same bytes as row by row)."""
    while rows := cursor.fetchmany(2000):
        h.update("".join(map(_ROW_JSON, rows)).encode())


def write_meta(conn: sqlite3.Connection, meta: OrgMeta) -> None:
    conn.execute(f"DELETE FROM {META_TABLE}")
    conn.executemany(f"INSERT INTO {META_TABLE} VALUES (?, ?)", meta.to_rows())


# --- reading -------------------------------------------------------------------------


def connect_readonly(path: str | Path) -> sqlite3.Connection:
    """A read-only connection to an org file (the file must exist)."""
    p = Path(path)
    if not p.is_file():
        raise OrgFileError(f"no org file at {p} (build one with `crmarena org build`)")
    conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    return conn


def read_meta(conn: sqlite3.Connection, path: Path | None = None) -> OrgMeta:
    try:
        rows = dict(conn.execute(f"SELECT key, value FROM {META_TABLE}").fetchall())
        return OrgMeta.from_rows(rows)
    except (sqlite3.DatabaseError, KeyError, ValueError) as exc:
        raise OrgFileError(
            f"{path or 'the file'} is not a CRMArena org file ({exc}); build one with `crmarena org build`"
        ) from None


def check_integrity(conn: sqlite3.Connection) -> str:
    """What SQLite's quick_check finds wrong with a database's pages ("" if nothing)."""
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return "" if problems == ["ok"] else "; ".join(problems[:3])


def check_schema(conn: sqlite3.Connection, schema: Schema) -> str:
    """What the file lacks of the tables and columns `schema` lists ("" if nothing): cheap, from
    SQLite's catalogue (quick_check passes on a file missing a table)."""
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    wanted = [TRUTH_TABLE] + [fts_table(o.name) for o in schema.objects if search_fields(o)]
    missing = [t for t in [o.name for o in schema.objects] + wanted if t not in tables]
    if missing:
        return f"missing table(s) {', '.join(missing)}"
    for obj in schema.objects:
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({q(obj.name)})")}
        lacking = [f.name for f in obj.fields if f.name not in columns]
        if lacking:
            return f"table {obj.name} lacks column(s) {', '.join(lacking)}"
    return ""


class Org:
    """An org file opened for reading: its path, metadata and schema."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        conn = connect_readonly(self.path)
        try:
            self.meta = read_meta(conn, self.path)
        finally:
            conn.close()
        self.schema = schema_for(self.meta.org)
        self._image: bytes | None = None
        self._image_lock = threading.Lock()

    def verify(self, check_hash: bool = True) -> Org:
        """This org, once its tables and columns are all there, SQLite's quick_check passes and
        (with `check_hash`) its content hashes to the hash it records; else OrgDamaged naming the file."""
        conn = self.connect()
        try:
            problem = check_schema(conn, self.schema)
            if problem:
                raise OrgDamaged(f"{self.path} is damaged ({problem})")
            problem = check_integrity(conn)
            if problem:
                raise OrgDamaged(f"{self.path} is damaged (SQLite quick_check: {problem})")
            if (
                check_hash
                and content_hash(conn, self.schema, self.meta.writer, self.meta.injections) != self.meta.content_hash
            ):
                raise OrgDamaged(
                    f"{self.path} was edited or damaged: its content does not match the content hash it records"
                )
        except sqlite3.DatabaseError as exc:
            raise OrgDamaged(f"{self.path} is damaged ({exc})") from None
        finally:
            conn.close()
        return self

    def image(self) -> bytes:
        """The whole database as bytes, serialized once (what a Ray executor ships to its nodes)."""
        with self._image_lock:
            if self._image is None:
                conn = self.connect()
                try:
                    self._image = conn.serialize()
                finally:
                    conn.close()
            return self._image

    def connect(self) -> sqlite3.Connection:
        """A new read-only connection to the file."""
        return connect_readonly(self.path)

    def counts(self) -> dict[str, int]:
        """Records per object, in schema order."""
        conn = self.connect()
        try:
            return {
                o.name: conn.execute(f"SELECT COUNT(*) FROM {q(o.name)}").fetchone()[0] for o in self.schema.objects
            }
        finally:
            conn.close()

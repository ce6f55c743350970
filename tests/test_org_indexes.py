"""The org file's indexes: the composite ones exist, the aggregates agents and task generators send
use them (EXPLAIN QUERY PLAN), and the build's fast paths write the same bytes as the plain ones."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from simulator.crm import ids, soql
from simulator.crm.generator.common import DAY, Clock
from simulator.crm.generator.latent import N_QUARTERS, quarter_index
from simulator.crm.schema import TEXT_TYPES
from simulator.crm.store import COMPOSITE_INDEXES, index_statements

# (SOQL, the index its plan must search, whether that index covers it: no table row read)
PLANS = [
    (
        "SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Closed' AND ClosedDate = LAST_N_QUARTERS:4 "
        "GROUP BY OwnerId",
        "ix_Case_Status_OwnerId_ClosedDate_Id",
        True,
    ),
    ("SELECT COUNT() FROM Case WHERE Status = 'closed' AND Priority = 'High'", "ix_Case_Priority_Status", True),
    (
        "SELECT OwnerId, COUNT(Id) n FROM Case WHERE ClosedDate = null GROUP BY OwnerId",
        "ix_Case_ClosedDate_OwnerId_Id",
        True,
    ),
    (
        "SELECT OwnerId, COUNT(Id) FROM Case WHERE CreatedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
        "ix_Case_CreatedDate_OwnerId_Id",
        True,
    ),
    (
        "SELECT CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Case WHERE CreatedDate = LAST_YEAR "
        "GROUP BY CALENDAR_MONTH(CreatedDate)",
        "ix_Case_CreatedDate_OwnerId_Id",
        True,
    ),
    (
        "SELECT OwnerId, COUNT(Id) n FROM Lead WHERE CreatedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
        "ix_Lead_CreatedDate_OwnerId_Id",
        True,
    ),
    (
        "SELECT OldValue__c, COUNT(Id) FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        "AND OldValue__c != null AND CreatedDate = LAST_QUARTER GROUP BY OldValue__c",
        "ix_CaseHistory__c_Field__c_CreatedDate_OldValue__c_CaseId__c_Id",
        True,
    ),
]


def _indexes(conn) -> dict[str, str]:
    return dict(conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'"))


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_composite_indexes_exist_with_soql_collation(org_paths, kind):
    from simulator.crm.store import Org

    org = Org(org_paths[kind])
    conn = org.connect()
    try:
        found = _indexes(conn)
        for obj, columns in COMPOSITE_INDEXES:
            name = f"ix_{obj}_{'_'.join(columns)}"
            assert found.get(name) == obj, name
            info = [(row[2], row[4]) for row in conn.execute(f'PRAGMA index_xinfo("{name}")') if row[5]]
            want = [(c, "NOCASE" if org.schema.get(obj).field(c).type in TEXT_TYPES else "BINARY") for c in columns]
            assert info == want
        assert len(index_statements(org.schema)) + 1 == sum(1 for n in found if n.startswith("ix_"))
    finally:
        conn.close()


@pytest.mark.parametrize("query,index,covering", PLANS, ids=[p[1] + str(i) for i, p in enumerate(PLANS)])
def test_aggregate_queries_search_their_index(b2b_org, query, index, covering):
    plan = soql.plan_for(b2b_org.schema, b2b_org.meta.as_of, query)
    conn = b2b_org.connect()
    try:
        steps = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + plan.sql, plan.params)]
    finally:
        conn.close()
    used = f"USING {'COVERING ' if covering else ''}INDEX {index} "
    assert any(step.startswith("SEARCH") and used in step + " " for step in steps), steps


def test_built_org_is_a_plain_rollback_journal_file(org_paths):
    """The build's WAL phase (indexes beside the hash) leaves no -wal/-shm file and no WAL mode: a
    read-only connection to a WAL file would need to write its -shm beside it."""
    from simulator.crm.store import Org

    path = org_paths["b2b"]
    assert not path.with_name(path.name + "-wal").exists()
    assert not path.with_name(path.name + "-shm").exists()
    conn = Org(path).connect()
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
    Org(path).verify()  # the recorded content hash is the hash of the rows


def test_clock_formats_as_datetime_does():
    clock, rng = Clock(date(2026, 6, 15)), random.Random(5)
    base = datetime(2026, 6, 15, tzinfo=UTC)
    times = [0, -0.5, 0.5, -1, 86399.9, -86400, -86400.5, 17 * 3600]
    times += [rng.uniform(-5e8, 2e5) for _ in range(20000)] + [rng.randint(-5 * 10**8, 2 * 10**5) for _ in range(20000)]
    for t in times:
        moment = base + timedelta(seconds=int(t))
        assert clock.dt(t) == moment.strftime("%Y-%m-%dT%H:%M:%S.000+0000"), t
        assert clock.d(t) == moment.date().isoformat(), t


def test_quarter_index_is_the_clamped_91_day_period():
    rng = random.Random(9)
    times = [0, -0.5, 0.5, -DAY * 91, -DAY * 91 + 0.5, -DAY * 91 * 20, 10**9, -(10**9)]
    times += [rng.uniform(-3e8, 3e6) for _ in range(20000)] + [rng.randint(-3 * 10**8, 3 * 10**6) for _ in range(20000)]
    for t in times:
        assert quarter_index(t) == min(N_QUARTERS - 1, max(0, int(-t // (91 * DAY)))), t


def test_make_id_is_base62_record_number():
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    rng = random.Random(3)
    for number in list(range(5000)) + [rng.randrange(62**10) for _ in range(5000)] + [62**10 - 1]:
        numeral, n = "", number
        while n:
            n, rem = divmod(n, 62)
            numeral = digits[rem] + numeral
        id15 = "500Kd" + numeral.rjust(10, "0")
        assert ids.make_id("500", number) == id15 + ids.checksum(id15)
    with pytest.raises(ValueError):
        ids.make_id("500", 62**10)
    with pytest.raises(ValueError, match="3 characters"):
        ids.make_id("50", 1)


def _fts_with(build, rows) -> tuple[list, list, int]:
    """An FTS5 index over `rows` filled by `build(conn, fts)` inside a transaction: its terms (every
    instance), its config rows, and the index's data rows written before COMMIT."""
    import sqlite3

    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE Doc (Id TEXT PRIMARY KEY, Body TEXT)")
    conn.executemany("INSERT INTO Doc VALUES (?, ?)", rows)
    conn.execute("BEGIN")
    conn.execute(
        "CREATE VIRTUAL TABLE ft USING fts5(Body, content=Doc, content_rowid='rowid', "
        "tokenize='unicode61 remove_diacritics 2')"
    )
    build(conn, "ft")
    written = conn.execute("SELECT count(*) FROM ft_data").fetchone()[0]
    conn.execute("COMMIT")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(ft, instance)")
    terms = conn.execute("SELECT * FROM v ORDER BY term, doc, col, offset").fetchall()
    return terms, conn.execute("SELECT * FROM ft_config ORDER BY k").fetchall(), written


@pytest.mark.slow
def test_fts_built_with_a_large_buffer_holds_the_same_terms():
    """store._build_fts (a large FTS5 term buffer while it fills the index) indexes every term
    instance a plain 'rebuild' does (here two default-sized segments' worth), writes them out
    before the transaction ends (memory: one index's buffer at a time), and leaves FTS5's default."""
    from simulator.crm import store

    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyzé") for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    rows = [(f"d{i}", " ".join(rng.choice(words) for _ in range(12))) for i in range(40_000)]

    def plain(conn, fts):
        conn.execute(f"INSERT INTO {fts}({fts}) VALUES('rebuild')")

    terms, config, _ = _fts_with(plain, rows)
    built_terms, built_config, written = _fts_with(store._build_fts, rows)
    assert built_terms == terms and len(terms) == 12 * len(rows)
    assert dict(built_config) == {**dict(config), "hashsize": store.FTS_DEFAULT_HASHSIZE}
    assert written > 100  # (the segments, not only FTS5's structure record)


def _hash_row_by_row(conn, schema) -> str:
    """store.content_hash as first written: each row's json.dumps, one row at a time."""
    import hashlib
    import json

    from simulator.crm.store import TRUTH_TABLE, q

    h = hashlib.sha256()
    for obj in schema.objects:
        h.update(obj.name.encode())
        cols = ", ".join(q(f.name) for f in obj.fields)
        for row in conn.execute(f"SELECT {cols} FROM {q(obj.name)} ORDER BY Id"):
            h.update(json.dumps(row, separators=(",", ":")).encode())
    for row in conn.execute(f"SELECT * FROM {TRUTH_TABLE} ORDER BY object, record_id, kind, value"):
        h.update(json.dumps(row, separators=(",", ":")).encode())
    return h.hexdigest()


def test_content_hash_written_by_sqlite_is_pythons(monkeypatch):
    """The content hash reads rows as SQLite's JSON where that is Python's (text with every ASCII
    character, DEL, accents, astral characters and NUL; integers; NULL; a REAL in an INTEGER column,
    written by Python; tables with REAL columns): the same hash as row by row in Python."""
    import sqlite3

    from simulator.crm import store
    from simulator.crm.schema import schema_for

    schema = schema_for("b2b")
    conn = sqlite3.connect(":memory:")
    store.create_tables(conn, schema)
    texts = ["".join(map(chr, range(128))), 'a "quoted" \\ back\\slash', "café € \U0001f600 \x00 end", "", "\x7f"]
    for i, text in enumerate(texts):
        conn.execute(
            "INSERT INTO Account (Id, Name, Description, NumberOfEmployees) VALUES (?, ?, ?, ?)",
            (f"001{i:015d}", text, text[::-1], [None, 0, -(2**63), 2**63 - 1, 0.1 + 0.2][i]),
        )
        conn.execute(
            "INSERT INTO OpportunityLineItem (Id, Quantity, TotalPrice) VALUES (?, ?, ?)",
            (f"00k{i:015d}", i / 3, 0.1 + 0.2 * i),
        )
        conn.execute(f"INSERT INTO {store.TRUTH_TABLE} VALUES ('Account', ?, 'label', ?)", (f"001{i:015d}", text))
    assert store._sqlite_json_matches(conn)  # (this SQLite: the test reads rows in SQLite)
    expected = _hash_row_by_row(conn, schema)
    assert store.content_hash(conn, schema) == expected
    monkeypatch.setattr(store, "_sqlite_json_matches", lambda conn: False)
    assert store.content_hash(conn, schema) == expected

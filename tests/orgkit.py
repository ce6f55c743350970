"""Hand-built orgs for tests: a few rows whose right answers are known by construction."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from simulator.crm import store
from simulator.crm.ids import make_id
from simulator.crm.schema import schema_for

AS_OF = date(2026, 6, 15)


class OrgKit:
    """Collects rows, then writes a real org file (tables, indexes, FTS, metadata)."""

    def __init__(self, org: str = "b2b"):
        self.org = org
        self.schema = schema_for(org)
        self.rows: dict[str, list[dict]] = {}
        self.truth: list[tuple[str, str, str, str]] = []
        self._numbers: dict[str, int] = {}

    def add(self, object_name: str, **fields) -> str:
        """Add one record (Id generated unless given); its Id."""
        obj = self.schema.get(object_name)
        if "Id" not in fields:
            self._numbers[obj.name] = self._numbers.get(obj.name, 0) + 1
            fields["Id"] = make_id(obj.key_prefix, self._numbers[obj.name])
        unknown = set(fields) - {f.name for f in obj.fields}
        assert not unknown, f"{obj.name} has no fields {unknown}"
        self.rows.setdefault(obj.name, []).append(fields)
        return fields["Id"]

    def label(self, object_name: str, record_id: str, kind: str, value_json: str) -> None:
        """A `_truth` row (value already JSON-encoded)."""
        self.truth.append((object_name, record_id, kind, value_json))

    def build(self, path: Path, as_of: date = AS_OF) -> store.Org:
        conn = sqlite3.connect(path)
        store.create_tables(conn, self.schema)
        for name, rows in self.rows.items():
            cols = [f.name for f in self.schema.get(name).fields]
            conn.executemany(
                f"INSERT INTO {store.q(name)} VALUES ({', '.join('?' * len(cols))})",
                [tuple(r.get(c) for c in cols) for r in rows],
            )
        conn.executemany(f"INSERT INTO {store.TRUTH_TABLE} VALUES (?, ?, ?, ?)", self.truth)
        store.create_indexes(conn, self.schema)
        meta = store.OrgMeta(self.org, 0, 1.0, as_of, "test", store.content_hash(conn, self.schema))
        store.write_meta(conn, meta)
        conn.commit()
        conn.close()
        return store.Org(path)

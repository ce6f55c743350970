"""A build whose cases and lead call transcripts run in a forked process (generator.apart) writes
the rows, rowids and labels of a build in one process, and fails whole when the forked phase fails."""

from __future__ import annotations

import multiprocessing
import sqlite3
from datetime import date

import pytest

from simulator.crm import store
from simulator.crm.generator import apart, build, build_org, service
from simulator.crm.schema import schema_for

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")


def _sequential(path, org: str, seed: int, scale: float) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    store.create_tables(conn, schema_for(org))
    build.generate(conn, org, seed=seed, scale=scale, as_of=date(2026, 6, 15))  # (no side file: one process)
    conn.execute("COMMIT")
    conn.close()


def _tables(path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    names = [
        n
        for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name != ?",
            (store.META_TABLE,),
        )
    ]
    return {n: conn.execute(f"SELECT rowid, * FROM {store.q(n)} ORDER BY rowid").fetchall() for n in names}


@pytest.mark.parametrize("org", ["b2b", "b2c"])
def test_forked_build_writes_what_one_process_writes(tmp_path, monkeypatch, org):
    merges = []  # (a fork, or the same phase written here where another test's thread lives)
    monkeypatch.setattr(apart, "_merge", lambda *a, _merge=apart._merge: merges.append(1) or _merge(*a))
    build_org(org, tmp_path / "forked.db", seed=5, scale=0.1)
    assert merges == [1]
    _sequential(tmp_path / "one.db", org, 5, 0.1)
    forked, one = _tables(tmp_path / "forked.db"), _tables(tmp_path / "one.db")
    assert forked.keys() == one.keys()
    for name in one:
        assert forked[name] == one[name], name
    assert len(one["VoiceCallTranscript__c"]) > 0 and len(one["Case"]) > 0


def test_the_file_is_the_same_byte_for_byte_with_or_without_the_fork(tmp_path, monkeypatch):
    """Where no fork is allowed (threads running), the phase is written to the side file and merged
    all the same: the org file does not depend on the build's circumstances."""
    if not apart.can_fork():
        pytest.skip("another test's thread lives: no fork to compare with")
    merges = []
    monkeypatch.setattr(apart, "_merge", lambda *a, _merge=apart._merge: merges.append(1) or _merge(*a))
    build_org("b2b", tmp_path / "forked.db", seed=5, scale=0.1)
    monkeypatch.setattr(apart, "can_fork", lambda: False)
    build_org("b2b", tmp_path / "here.db", seed=5, scale=0.1)
    assert merges == [1, 1]
    assert (tmp_path / "forked.db").read_bytes() == (tmp_path / "here.db").read_bytes()


def test_a_failing_forked_phase_fails_the_build(tmp_path, monkeypatch):
    def boom(ctx):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(service, "cases", boom)
    with pytest.raises(RuntimeError, match=r"^interrupted$"):  # (the forked phase's own error, raised here)
        build_org("b2b", tmp_path / "org.db", scale=0.05)
    assert list(tmp_path.iterdir()) == []


def test_a_forked_phase_that_dies_is_named_with_its_exit_code(tmp_path, monkeypatch):
    if not apart.can_fork():
        pytest.skip("another test's thread lives: no fork")
    import os

    monkeypatch.setattr(service, "cases", lambda ctx: os._exit(3))
    with pytest.raises(RuntimeError, match="transcripts_and_cases phase failed in its process \\(exit code 3\\)"):
        build_org("b2b", tmp_path / "org.db", scale=0.05)
    assert list(tmp_path.iterdir()) == []

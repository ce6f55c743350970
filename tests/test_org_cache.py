"""The org cache keeps a couple of builds per org choice, not one per code change forever."""

from __future__ import annotations

import os

from simulator.runs.run import KEEP_CACHED_BUILDS, org_cache_name, prune_cached_orgs


def test_a_new_build_prunes_older_builds_of_the_same_choice_only(tmp_path):
    old = [tmp_path / f"b2b-s0-x1-g1.{k}-abc.db" for k in range(4)]
    for age, path in enumerate(old, 1):
        path.write_text("old")
        os.utime(path, (1_000_000 - age, 1_000_000 - age))  # g1.0 the newest of the old builds
    (tmp_path / "b2b-s0-x1-g1.3-abc.db-wal").write_text("wal")
    other = [
        tmp_path / "b2b-s0-x10-g1.0-abc.db",
        tmp_path / "b2c-s0-x1-g1.0-abc.db",
        tmp_path / "b2b-s1-x1-g1.0-abc.db",
    ]
    for path in other:
        path.write_text("another choice")
    built = tmp_path / org_cache_name("b2b", 0, 1.0)
    built.write_text("new")
    prune_cached_orgs(built)
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == sorted([built.name, old[0].name] + [p.name for p in other])
    assert KEEP_CACHED_BUILDS == 2

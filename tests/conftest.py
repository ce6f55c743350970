"""Shared fixtures: small generated orgs, built once per test session."""

from __future__ import annotations

import functools
import os
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from simulator.crm.store import Org
from simulator.infra.log import setup_logging

setup_logging("WARNING")  # loguru writes to the stderr of the moment, which pytest captures

TEST_SCALE = 0.2


def pytest_collection_modifyitems(items):
    """Mark `slow` every test that uses the scale-1 orgs (`scale1_org`, directly or through another
    fixture): building them takes seconds each."""
    for item in items:
        if "scale1_org" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


def tiered(fast: int, full: int) -> list:
    """Parametrize values for how many random draws a sampling test reads: `fast` in the fast loop,
    and `full` (marked `slow`) besides in the full run."""
    return [fast, pytest.param(full, marks=pytest.mark.slow)]


@pytest.fixture(scope="session")
def org_paths(tmp_path_factory):
    """Paths of a small B2B and a small B2C org (seed 7)."""
    from simulator.crm.generator import build_org

    root = tmp_path_factory.mktemp("orgs")
    paths = {}
    for kind in ("b2b", "b2c"):
        paths[kind] = root / f"{kind}.db"
        build_org(kind, paths[kind], seed=7, scale=TEST_SCALE)
    return paths


@pytest.fixture(scope="session")
def injected(tmp_path_factory) -> dict[str, Org]:
    """{kind: Org}: the session's small orgs (seed 7) built again with standard injections."""
    from simulator.crm.generator import build_org

    root, built = tmp_path_factory.mktemp("injected"), {}
    for kind in ("b2b", "b2c"):
        build_org(kind, root / f"{kind}.db", seed=7, scale=TEST_SCALE, injections="standard")
        built[kind] = Org(root / f"{kind}.db")
    return built


@pytest.fixture(scope="session")
def scale1_org(tmp_path_factory):
    """`scale1_org(kind)`: the scale-1 org of that kind (seed 0), built once per session on first
    use; skipped under CRMARENA_FAST=1. For measures the small test orgs are too small to make."""
    if os.environ.get("CRMARENA_FAST") == "1":
        pytest.skip("scale-1 builds skipped")
    from simulator.crm.generator import build_org

    root, built = tmp_path_factory.mktemp("scale1"), {}

    def get(kind: str) -> Org:
        if kind not in built:
            build_org(kind, root / f"{kind}.db", seed=0, scale=1.0)
            built[kind] = Org(root / f"{kind}.db")
        return built[kind]

    return get


@pytest.fixture(scope="session")
def b2b_org(org_paths) -> Org:
    return Org(org_paths["b2b"])


@pytest.fixture(scope="session")
def b2c_org(org_paths) -> Org:
    return Org(org_paths["b2c"])


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One TLS context (the CA bundle loaded once) for the session's HTTP clients."""
    return httpx.create_ssl_context()


def http(method: str, url: str, **options) -> httpx.Response:
    """`httpx.request` on one TLS context for the session: httpx's own functions load the CA bundle
    for each request (25 ms)."""
    return httpx.request(method, url, verify=tls_context(), **options)


@pytest.fixture
def fake_openai():
    """A scripted OpenAI-compatible server on 127.0.0.1 (see tests/fake_openai.py)."""
    from tests.fake_openai import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


def seed_org_cache(cache: Path, org_paths) -> Path:
    """`cache` made a run cache holding the session's small b2b org (seed 7, TEST_SCALE)."""
    from simulator.runs.run import org_cache_name

    (cache / "orgs").mkdir(parents=True)
    (cache / "orgs" / org_cache_name("b2b", 7, TEST_SCALE)).symlink_to(org_paths["b2b"])
    return cache


@contextmanager
def small_org_cache(root: Path, org_paths) -> Iterator[pytest.MonkeyPatch]:
    """For module-scoped runs: `root`/cache seeded as `seed_org_cache` and set as CRMARENA_CACHE
    while inside; yields the MonkeyPatch, for more patches of the same span."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CRMARENA_CACHE", str(seed_org_cache(root / "cache", org_paths)))
        yield patch


@pytest.fixture
def org_cache(tmp_path_factory, monkeypatch, org_paths):
    """The run's org cache, pre-seeded with the session's small b2b org."""
    cache = seed_org_cache(tmp_path_factory.mktemp("cache"), org_paths)
    monkeypatch.setenv("CRMARENA_CACHE", str(cache))
    return cache


def seat_of(agent):
    """The seat the harness would give `agent` (simulator.runs.episode.Seat), for tests that build agents
    themselves: the oracle (and its test subclasses) briefed, a remote agent briefed as it was made, any
    other by the kind it reports (the harness never reads it from an agent: executors.play.seat)."""
    from simulator.agents.oracle import OracleAgent
    from simulator.agents.remote import RemoteAgent
    from simulator.runs.episode import ORACLE_SEAT, Seat

    if isinstance(agent, OracleAgent):
        return ORACLE_SEAT
    if isinstance(agent, RemoteAgent):
        return Seat("remote", briefed=agent.briefed)
    return Seat(agent.settings()["kind"])

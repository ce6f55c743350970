"""A model server's latency, measured with one tiny request, and how long a run should take at
it: what `crmarena run --dry-run` prints under its plan, before anything is played.

`probe(spec)` sends ONE request (a few tokens out, no retries, no rate limits) and times it;
`expected_duration(...)` turns a latency into a run's duration; `probe_lines(cfg, rows)` does
both for each model server of a run config, given the dry run's estimated calls per role
(simulator.runs.run.estimate's rows). A tiny request is the floor: a real prompt (thousands of
tokens of policy and schema) takes longer, most of all on a CPU server, so the duration is
printed as "at least".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from simulator.infra.secrets import redact
from simulator.models.clients import ModelSpec, _scope, _server, build_client, parse_model_spec

PROBE_TOKENS = 5  # the most the probe asks the model to write
PROBE_PROMPT = "Reply with the word OK."


@dataclass(frozen=True)
class ProbeResult:
    server: str  # the server and model (no credentials)
    latency_s: float | None  # seconds for the tiny request; None when it failed
    error: str | None = None  # why it failed (one line, redacted)


def probe(spec: ModelSpec) -> ProbeResult:
    """Send one tiny request to the spec's server and time it (within the spec's timeout)."""
    from autogen_core.models import UserMessage

    client = build_client(spec)  # outside any event loop: the client owns its provider client

    async def ask() -> float:
        try:
            started = time.perf_counter()
            await asyncio.wait_for(
                client.inner.create(
                    [UserMessage(content=PROBE_PROMPT, source="user")], extra_create_args={"max_tokens": PROBE_TOKENS}
                ),
                spec.timeout,
            )
            return time.perf_counter() - started
        finally:
            await client.close()

    try:
        return ProbeResult(_server(spec), asyncio.run(ask()))
    except Exception as exc:  # any failure of the server or the request is the probe's answer
        detail = str(exc).splitlines()[0] if str(exc) else ""
        return ProbeResult(_server(spec), None, redact(f"{type(exc).__name__}: {detail}".rstrip(": "))[:300])


def expected_duration(episodes: int, calls_per_episode: float, latency_s: float, concurrency: int) -> float:
    """Seconds to play `episodes` of `calls_per_episode` model calls each, `latency_s` per call,
    `concurrency` calls at a time."""
    return episodes * calls_per_episode * latency_s / max(1, concurrency)


def probe_lines(cfg: Any, rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """One line per model server of `cfg` (its latency, or why the probe failed) and the run's
    expected duration, from `rows` (the dry run's estimated calls per role)."""
    calls = {row["role"]: row["calls"] for row in rows}
    servers: dict[str, tuple[ModelSpec, int]] = {}
    for role, value, _, where in cfg.model_roles():
        spec = parse_model_spec(value, where=where)
        _, before = servers.get(_scope(spec), (spec, 0))
        servers[_scope(spec)] = (spec, before + calls.get(role, 0))
    lines, longest = [], 0.0
    in_flight = cfg.concurrency * (cfg.workers or 1)
    for spec, n in servers.values():
        result = probe(spec)
        if result.latency_s is None:
            lines.append(f"probe {result.server}: failed ({result.error})")
            continue
        at_once = min(spec.max_concurrency, in_flight)
        seconds = expected_duration(n, 1, result.latency_s, at_once)
        longest = max(longest, seconds)
        lines.append(
            f"probe {result.server}: {result.latency_s:.2f} s for a {PROBE_TOKENS}-token reply; "
            f"{n} calls, {_at_once(spec, at_once, n, result.latency_s)}: at least {_duration(seconds)}"
        )
    if longest:
        lines.append(f"expected duration: at least {_duration(longest)} (real prompts take longer than the probe's)")
    return lines


def _at_once(spec: ModelSpec, at_once: int, calls: int, latency_s: float) -> str:
    """How many calls go at a time: `at_once`, or for a measured cap the range it may take (and
    the duration at one at a time, the server's pace if it serves one request at a time)."""
    if not spec.measure_concurrency or at_once == 1:
        return f"{at_once} at a time"
    serial = _duration(expected_duration(calls, 1, latency_s, 1))
    return f"1 to {at_once} at a time as the server keeps pace ({serial} at one at a time)"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"

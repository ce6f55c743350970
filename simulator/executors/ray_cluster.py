"""The Ray executor (`executor: ray`): episodes spread over a Ray cluster, records gathered here.

This process (the driver) puts each org's SQLite image in Ray's object store once, starts one
actor per worker (default: one per CPU of the cluster) and keeps `concurrency` episodes in
flight, each played by `play_one` on an actor's event loop: the very code of the local
executor, so both give the same records. Records come back one at a time and only this process
writes the run folder, so resume and `--retry-failed` work as they do locally. An episode lost
with its node is played again on another node, and written once (docs/ray-cluster.md). With a
response cache, one actor on the driver's node holds the cache file and serves every other actor.

Nodes need this package installed and, for real models, the API key variables set in their
environment (keys are never shipped through Ray). Plug-in agents must be importable there too.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from loguru import logger

from simulator.infra.secrets import redact, redact_data
from simulator.models.cache import cache_dir
from simulator.runs.episode import Planned

from ..crm.store import Org, OrgFileError
from .parent_death import die_with
from .play import ExecutorError, PlaySettings, RefusalWatch, check_players, play_one, share


def _open_org(key: str, driver_path: str, image_ref: Any) -> tuple[Org, str]:
    """The org `key` on this node, and where it came from: `file` (the driver's own file, when
    this node sees it), `copy` (this node's copy in the user cache) or `object store` (the org
    image fetched and written as this node's copy, by one actor of the node while the others wait)."""
    org = _org_at(Path(driver_path), key)
    if org is not None:
        return org, "file"
    copy = cache_dir() / "ray-orgs" / f"{key}.sqlite"
    copy.parent.mkdir(parents=True, exist_ok=True)
    with copy.with_suffix(".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released as the file closes)
        org = _org_at(copy, key)
        if org is not None:
            return org, "copy"
        import ray

        part = copy.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(ray.get(image_ref))
        os.replace(part, copy)  # atomic: a reader without the lock never sees half a file
        return Org(copy), "object store"


def _org_at(path: Path, key: str) -> Org | None:
    """The org file at `path` if it is there and holds the org `key`, else None."""
    try:
        org = Org(path) if path.is_file() else None
    except OrgFileError:
        return None
    return org if org is not None and org.meta.content_hash == key else None


class RemoteCache:
    """The response cache's interface, served by a cache actor (replies travel as JSON text)."""

    def __init__(self, actor):
        self.actor = actor

    async def get(self, key: str):
        from simulator.models.cache import decode_reply

        return decode_reply(await self.actor.get_text.remote(key))

    async def put(self, key: str, result) -> None:
        from simulator.models.cache import encode_reply

        await self.actor.put_text.remote(key, encode_reply(result))


class EpisodeActor:
    """A Ray actor that plays episodes on its event loop, several at once."""

    def __init__(
        self,
        settings: PlaySettings,
        orgs: dict[str, tuple[str, Any]],
        cache_actor=None,
        driver: tuple[str, int] | None = None,
    ):
        import ray

        from simulator.infra.log import setup_logging

        if driver is not None and driver[0] == ray.get_runtime_context().get_node_id():
            die_with(driver[1])  # on the driver's node: end with it at once (elsewhere Ray's own 1-2 s)
        setup_logging()  # retries and give-ups are logged here too (Ray forwards them to the driver)
        self.settings = settings
        opened = {key: _open_org(key, path, ref[0]) for key, (path, ref) in orgs.items()}
        self.orgs = {key: org for key, (org, _) in opened.items()}
        self.placement = {
            "node": ray.get_runtime_context().get_node_id(),
            "orgs": {key: source for key, (_, source) in opened.items()},
        }
        self.cache = RemoteCache(cache_actor) if cache_actor is not None else None

    def ready(self) -> tuple[str, dict]:
        """Why this node cannot play the run ("" if it can: a model client that cannot be built
        (a key variable unset here), an agent or user that cannot be made (a plug-in not installed)),
        and where this actor is: its node and where each org came from (see `_open_org`)."""
        try:
            check_players(self.settings)
        except Exception as exc:  # reported by the driver as text: not every exception survives pickling
            return redact(f"{type(exc).__name__}: {exc}"), self.placement
        return "", self.placement

    async def play(self, planned_spec, org_key: str) -> dict:
        """The episode's record, redacted here: this node's keys may not be the driver's."""
        return redact_data(await play_one(self.settings, Planned(planned_spec, self.orgs[org_key]), self.cache))


def _connect(address: str | None) -> bool:
    """Connect to the cluster at `address`, or (None) as `ray.init()` does: $RAY_ADDRESS, else a
    cluster `ray start`ed on this machine, else a new local instance;
    True if this call connected."""
    import ray

    if ray.is_initialized():  # the caller (a notebook, a test) connected already
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # an offline tool phones nobody
    _reachable(address or os.environ.get("RAY_ADDRESS"))
    try:
        ray.init(address=address, include_dashboard=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ExecutorError(
            f"cannot connect to the Ray cluster at {address or 'a new local instance'}: {exc}"
        ) from None
    return True


_CONNECT_TIMEOUT = 10  # seconds to reach a cluster's address


def _reachable(address: str | None) -> None:
    """Raise ExecutorError unless `address` (`host:port` or `ray://host:port`) accepts a TCP
    connection within _CONNECT_TIMEOUT: `ray.init` retries an unreachable address forever,
    deaf to Ctrl-C. Other addresses (None, `auto`, `local`) are left to Ray."""
    import socket

    host, _, port = (address or "").removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ExecutorError(
            f"cannot connect to the Ray cluster at {address}: {exc.strerror or exc} "
            "(is the cluster up, and is that its head node's address and port?)"
        ) from None


def _driver() -> tuple[str, int] | None:
    """This process's node and pid, for actors to watch (None under Ray Client: it runs elsewhere)."""
    import ray
    from ray.util.client import ray as client

    return None if client.is_connected() else (ray.get_runtime_context().get_node_id(), os.getpid())


_SETUP_TIMEOUT = 300  # seconds for the actors to start and load the orgs


def _actors(settings: PlaySettings, planned: Iterable[Planned]):
    """The episode actors, the node of each, the cache actor (or None) and the org images they
    were given (kept referenced for the whole run), all ready to play."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    cpus = max(1.0, ray.cluster_resources().get("CPU", 1.0))
    count = min(settings.workers or int(cpus), settings.concurrency)  # an actor with nothing in flight is waste
    each = min(1.0, cpus / count)  # CPUs per actor: all of them fit the cluster
    cache = None
    if settings.cache:  # on the node of this process (the head node under Ray Client, ray://)
        from simulator.models.cache import ResponseCache

        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        cache = (
            ray.remote(ResponseCache)
            .options(num_cpus=0, scheduling_strategy=here)
            .remote(str(Path(settings.cache).resolve()))
        )
    known = getattr(planned, "orgs", None)  # (a plan knows its orgs, never walked for them; a list is looked through)
    orgs = {org.meta.content_hash: org for org in known or (p.org for p in planned)}
    shipped = {key: (str(org.path), [ray.put(org.image())]) for key, org in orgs.items()}  # (a list: a ref
    # nested in an argument is passed as a ref, so only the nodes that need the image fetch it)
    remote = ray.remote(EpisodeActor).options(
        num_cpus=each, scheduling_strategy="SPREAD", max_concurrency=share(settings.concurrency, count)
    )
    actors: list[Any] = [remote.remote(settings, shipped, cache, _driver()) for _ in range(count)]  # (handles)
    checks = [a.ready.remote() for a in actors]
    _, waiting = ray.wait(checks, num_returns=len(checks), timeout=_SETUP_TIMEOUT)
    if waiting:
        raise ExecutorError(
            f"{len(waiting)} of {count} Ray actors did not start within {_SETUP_TIMEOUT} s "
            f"(the cluster has {cpus:g} CPUs; each actor wants {each:.2g}): "
            "lower `workers`, or free the cluster"
        )
    try:
        answers = ray.get(checks)
    except ray.exceptions.RayError as exc:
        raise ExecutorError(f"a Ray actor failed to start: {_reason(exc)}") from None
    problems = [text for text, _ in answers if text]
    if problems:
        raise ExecutorError(f"a Ray node cannot play this run: {problems[0]}")
    nodes = [placement["node"] for _, placement in answers]
    logger.info(f"Ray: {count} actors on {len(set(nodes))} nodes")
    for i, (_, placement) in enumerate(answers):
        logger.debug(f"Ray actor {i} on node {placement['node']}: orgs {placement['orgs']}")
    return actors, nodes, cache, shipped


def play_ray(settings: PlaySettings, planned: Iterable[Planned], emit: Callable[[dict], None]) -> None:
    """Play every episode on the Ray cluster at `settings.address` (see `_connect`); each record
    reaches `emit` in this process as its episode ends."""
    import ray

    started, cache = _connect(settings.address), None
    try:
        actors, nodes, cache, _images = _actors(settings, planned)
        failures = _gather(settings, planned, actors, nodes, emit)
    finally:
        if cache is not None:
            ray.get(cache.close.remote())
        if started:
            ray.shutdown()
    if failures:
        raise ExecutorError(
            f"{len(failures)} episode(s) could not be played on Ray and are not in the run "
            f"(run the same command again to play them); first: {failures[0]}"
        )


def _gather(
    settings: PlaySettings, planned: Iterable[Planned], actors: list, nodes: list[str], emit: Callable[[dict], None]
) -> list[str]:
    """Keep `settings.concurrency` episodes in flight, each on the least busy live actor; emit records
    as they come. An episode lost with its actor (its node lost, its process killed) is played
    again once, on an actor of another node if one is left: a record that never reached this
    process is never written, so each episode is written once. A refusal no retry fixes stops
    new episodes (ExecutorError once those in flight are in). Returns what failed; everything
    else is emitted."""
    import ray
    from ray.exceptions import ActorDiedError, ActorUnavailableError, NodeDiedError, ObjectLostError, RayError

    lost_with_node = (ActorDiedError, ActorUnavailableError, NodeDiedError, ObjectLostError)
    load = [0] * len(actors)
    pending: dict[Any, tuple[Planned, int]] = {}
    todo, failures = iter(planned), []
    again: list[tuple[Planned, str]] = []  # (episode, the node it was lost on)
    tried_again: set[str] = set()
    dead: set[int] = set()
    watch = RefusalWatch(emit, threading.Event())

    def actor(avoid: str | None) -> int:
        live = [i for i in range(len(actors)) if i not in dead]
        return min([i for i in live if nodes[i] != avoid] or live, key=load.__getitem__)

    def submit() -> None:
        while len(pending) < settings.concurrency and len(dead) < len(actors) and not watch.flag.is_set():
            p, avoid = again.pop() if again else (next(todo, None), None)
            if p is None:
                return
            i = actor(avoid)
            pending[actors[i].play.remote(p.spec, p.org.meta.content_hash)] = (p, i)
            load[i] += 1

    submit()
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            p, i = pending.pop(ref)
            load[i] -= 1
            try:
                record = ray.get(ref)
            except lost_with_node as exc:
                dead.add(i)
                if p.spec.episode_id not in tried_again:
                    logger.warning(f"episode {p.spec.episode_id} lost on Ray node {nodes[i]}: playing it again")
                    tried_again.add(p.spec.episode_id)
                    again.append((p, nodes[i]))
                else:
                    failures.append(_failure(p, exc))
                continue
            except RayError as exc:
                failures.append(_failure(p, exc))
                continue
            logger.debug(f"episode {p.spec.episode_id} played on Ray node {nodes[i]}")
            watch.emit(record)
        submit()
    rest = [*(p for p, _ in again), *todo]
    watch.check(len(rest) + len(failures))
    failures += [_failure(p, "no live actor left") for p in rest]
    return failures


def _reason(exc: BaseException) -> str:
    """What went wrong, without Ray's wrapping (a task error carries the original as `cause`)."""
    cause = getattr(exc, "cause", None) or exc
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[-1] if lines else ''}"


def _failure(p: Planned, exc: BaseException | str) -> str:
    return f"episode {p.spec.episode_id}: {_reason(exc) if isinstance(exc, BaseException) else exc}"

"""The Ray executor across nodes: a head and two worker nodes on this machine
(`ray.cluster_utils.Cluster`), a sweep over two orgs spread across them, a worker node
killed mid-run whose episodes are played elsewhere exactly once, and a resume that plays
nothing twice."""

from __future__ import annotations

import os
import re
import threading
import time
from collections import Counter

import pytest
import yaml

from simulator.cli import main
from simulator.runs.transcript import read_records
from tests.conftest import TEST_SCALE, small_org_cache
from tests.test_run import _config

ray = pytest.importorskip("ray", reason="the Ray executor's tests need the `ray` extra (part of `test`)")

NODE = {"num_cpus": 1, "object_store_memory": 80 * 2**20}  # small: the machine is shared
FAST_DEATH = {"health_check_period_ms": 500, "health_check_failure_threshold": 3}  # a lost node noticed in ~2 s

HANGING_AGENT = '''
import asyncio
from pathlib import Path

import ray

from simulator.agents.oracle import OracleAgent


class HangsOnNode(OracleAgent):
    """The oracle, except on the Ray node `node`: there it marks `marker` and never answers
    (its episodes are in flight when the test kills that node)."""

    def __init__(self, node, marker):
        super().__init__()
        self.node, self.marker = node, Path(marker)

    async def respond(self, user_message, turn):
        if ray.get_runtime_context().get_node_id() == self.node:
            self.marker.touch()
            await asyncio.sleep(60)  # (the test kills the node long before)
        return await super().respond(user_message, turn)
'''


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, org_paths):
    """A head and two worker nodes (`node_a`, `node_b`: custom resources), one CPU each. Their
    workers inherit this environment: the test's plug-in agent and a run cache holding the
    session's two small orgs, as each machine of a cluster would have them."""
    from ray.cluster_utils import Cluster

    from simulator.runs.run import org_cache_name

    root = tmp_path_factory.mktemp("multinode")
    (root / "hanging_agent.py").write_text(HANGING_AGENT)
    with small_org_cache(root, org_paths) as mp:
        (root / "cache" / "orgs" / org_cache_name("b2c", 7, TEST_SCALE)).symlink_to(org_paths["b2c"])
        mp.syspath_prepend(str(root))
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(root), os.getcwd(), os.environ.get("PYTHONPATH")])))
        mp.setenv("RAY_USAGE_STATS_ENABLED", "0")
        mp.setenv("CRMARENA_LOG_LEVEL", "DEBUG")  # the executor logs the node of each actor and episode
        started = Cluster(
            initialize_head=True, head_node_args={**NODE, "include_dashboard": False, "_system_config": FAST_DEATH}
        )
        try:
            nodes = {
                "head": started.head_node,
                "a": started.add_node(**NODE, resources={"node_a": 1}),
                "b": started.add_node(**NODE, resources={"node_b": 1}),
            }
            yield started, nodes
        finally:
            started.shutdown()


def _placements(err: str) -> list[tuple[str, str]]:
    """(node, the orgs line) of each actor, as the executor logged them."""
    return re.findall(r"Ray actor \d+ on node (\w+): orgs (.*)", err)


def _played_on(err: str) -> dict[str, str]:
    """episode id -> the node that played it, as the executor logged them."""
    return dict(re.findall(r"episode (\S+) played on Ray node (\w+)", err))


def _kill_when(marker, cluster, node, timeout: float = 120) -> threading.Thread:
    """A thread that removes `node` from `cluster` as soon as `marker` exists."""

    def kill() -> None:
        deadline = time.monotonic() + timeout
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if marker.exists():
            cluster.remove_node(node)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_a_sweep_across_nodes_survives_a_lost_node_and_resumes(tmp_path, cluster, capsys, monkeypatch):
    """12 episodes over two orgs, two actors on each node; node b's episodes hang until the node
    is removed, then are played on the other nodes; every episode is written once. A resume
    (the driver killed after 9 records) plays the 3 missing ones; another plays none."""
    started, nodes = cluster
    ids = {name: node.node_id for name, node in nodes.items()}
    marker = tmp_path / "hung"
    agent = {"kind": "calibration", "plugin": "hanging_agent:HangsOnNode"}
    agent["options"] = {"node": ids["b"], "marker": str(marker)}
    config = _config(
        tmp_path,
        orgs=[{"type": "b2b", "seed": 7, "scale": TEST_SCALE}, {"type": "b2c", "seed": 7, "scale": TEST_SCALE}],
        tasks=["handle_time", "case_routing", "knowledge_qa"],
        modes=["full", "sharded"],
        agent=agent,
        executor="ray",
        address=started.address,  # the config key; the resume below joins through $RAY_ADDRESS
        workers=6,  # two actors on each node: a retry must not go to the lost node's other actor
        concurrency=6,
    )
    killer = _kill_when(marker, started, nodes["b"])
    assert main(["run", "--config", str(config), "-q"]) == 0
    killer.join()
    err = capsys.readouterr().err
    assert marker.exists() and nodes["b"] not in started.worker_nodes  # node b died with episodes in flight

    placements = _placements(err)
    assert Counter(node for node, _ in placements) == dict.fromkeys(ids.values(), 2)  # two actors on each node
    assert all(line.count("'file'") == 2 for _, line in placements)  # (one machine: the nodes see the driver's)

    folder = tmp_path / "runs" / "t"
    records = list(read_records(folder / "transcripts.jsonl"))
    episodes = [r["episode_id"] for r in records]
    assert len(episodes) == len(set(episodes)) == 12  # 2 orgs x 3 tasks x 2 modes: none twice, none missing
    assert all(r["scores"]["rules"]["success"] for r in records)
    played = _played_on(err)
    assert set(played) == set(episodes)
    assert ids["b"] not in played.values() and len(set(played.values())) == 2  # the two live nodes played all
    lost = re.findall(r"episode (\S+) lost on Ray node (\w+): playing it again", err)
    assert len(lost) >= 2 and {node for _, node in lost} == {ids["b"]}  # node b's episodes, played elsewhere

    lines = (folder / "transcripts.jsonl").read_text().splitlines(keepends=True)
    (folder / "transcripts.jsonl").write_text("".join(lines[:9]))  # as if the driver was killed after 9
    data = yaml.safe_load(config.read_text())
    del data["address"]
    config.write_text(yaml.safe_dump(data))
    monkeypatch.setenv("RAY_ADDRESS", started.address)  # joined the way a user on a node would
    assert main(["run", "--config", str(config), "-q", "--workers", "2"]) == 0
    err = capsys.readouterr().err
    assert "3 episodes to run" in err and len(_played_on(err)) == 3
    assert set(_played_on(err).values()) <= {ids["head"], ids["a"]}  # on the cluster, not a new local Ray
    resumed = (folder / "transcripts.jsonl").read_text().splitlines(keepends=True)
    assert resumed[:9] == lines[:9] and len(resumed) == 12  # the 3 missing episodes played, nothing twice
    assert sorted(r["episode_id"] for r in read_records(folder / "transcripts.jsonl")) == sorted(episodes)
    assert main(["run", "--config", str(config), "-q"]) == 0
    assert "0 episodes to run" in capsys.readouterr().err
    assert (folder / "transcripts.jsonl").read_text() == "".join(resumed)


@pytest.mark.slow
def test_a_node_that_cannot_see_the_org_file_fetches_it_once(tmp_path, cluster, org_paths, monkeypatch):
    """A node without the driver's org file (another machine) takes the image from the object
    store once, however many of its actors start at once, and opens its copy afterwards."""
    from concurrent.futures import ThreadPoolExecutor

    from simulator.crm.store import Org
    from simulator.executors.ray_cluster import _open_org

    started, _ = cluster
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "node-cache"))
    org = Org(org_paths["b2c"])
    key, elsewhere = org.meta.content_hash, str(tmp_path / "on-another-machine.sqlite")
    ray.init(address=started.address, include_dashboard=False, configure_logging=False)
    try:
        image = ray.put(org.image())
        with ThreadPoolExecutor(4) as pool:  # (as the actors of one node, each with its own lock file handle)
            opened = list(pool.map(lambda _: _open_org(key, elsewhere, image), range(4)))
        assert sorted(source for _, source in opened) == ["copy", "copy", "copy", "object store"]
        assert all(o.meta.content_hash == key for o, _ in opened)
        assert _open_org(key, str(org.path), image)[1] == "file"
    finally:
        ray.shutdown()


@pytest.mark.parametrize("lost", ["actor died", "record lost with the node's object store"])
def test_an_episode_lost_with_its_node_is_played_again_on_another_node(monkeypatch, lost):
    """The retry of an episode whose actor died (or whose finished record was lost before it
    reached the driver) goes to another node's actor, not to an actor of the same lost node that
    has not been reported dead yet (fake actors: no cluster needed)."""
    from types import SimpleNamespace

    from ray.exceptions import ActorDiedError, ObjectLostError

    from simulator.executors.ray_cluster import _gather

    error = ActorDiedError() if lost == "actor died" else ObjectLostError("ab" * 14, None, "")

    nodes = ["lost", "lost", "alive"]

    def actor(node: str) -> SimpleNamespace:
        return SimpleNamespace(play=SimpleNamespace(remote=lambda spec, _org: (node, spec.episode_id)))

    def get(ref: tuple[str, str]) -> dict:
        if ref[0] == "lost":
            raise error
        return {"episode_id": ref[1], "node": ref[0]}

    monkeypatch.setattr(ray, "wait", lambda refs, num_returns: (refs[:num_returns], refs[num_returns:]))
    monkeypatch.setattr(ray, "get", get)
    org = SimpleNamespace(meta=SimpleNamespace(content_hash="org"))
    planned = [SimpleNamespace(spec=SimpleNamespace(episode_id=f"e{k}"), org=org) for k in range(4)]
    emitted: list[dict] = []
    settings = SimpleNamespace(concurrency=3)
    assert _gather(settings, planned, [actor(n) for n in nodes], nodes, emitted.append) == []  # type: ignore[arg-type]
    assert sorted(r["episode_id"] for r in emitted) == ["e0", "e1", "e2", "e3"]
    assert {r["node"] for r in emitted} == {"alive"}

"""The Ray executor on a local Ray instance: the same records as the local executor, the
response cache served to Ray actors, an actor that dies mid-run, and resume across executors."""

from __future__ import annotations

import json
import os

import pytest
import yaml

from simulator.cli import main
from simulator.runs.transcript import read_records
from tests.test_run import _config, _model_config

ray = pytest.importorskip("ray", reason="the Ray executor's tests need the `ray` extra (part of `test`)")

TEST_KEY = "sk-test-ray-0000000000"

DYING_AGENT = '''
import os
from pathlib import Path
from simulator.agents.oracle import OracleAgent


class DiesOnce(OracleAgent):
    """The oracle, but the first episode to reach it kills its whole process (a lost node)."""

    def __init__(self, marker):
        super().__init__()
        self.marker = Path(marker)

    async def respond(self, user_message, turn):
        try:
            self.marker.open("x").close()  # only one episode, in one process, ever gets here
        except FileExistsError:
            return await super().respond(user_message, turn)
        os._exit(1)
'''


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory):
    """One local Ray instance (2 CPUs) for the module. Its workers inherit this environment:
    the folder of the test's plug-in agent and the fake model's key, as a cluster node would
    have them (keys are never shipped through Ray)."""
    plugins = tmp_path_factory.mktemp("plugins")
    (plugins / "dying_agent.py").write_text(DYING_AGENT)
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(plugins))
        mp.setenv(
            "PYTHONPATH", os.pathsep.join(filter(None, [str(plugins), os.getcwd(), os.environ.get("PYTHONPATH")]))
        )
        mp.setenv("FAKE_LLM_KEY", TEST_KEY)
        ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
        yield plugins
        ray.shutdown()


def _run(config, *extra) -> None:
    assert main(["run", "--config", str(config), "-q", *extra]) == 0


def _records(folder) -> dict[str, dict]:
    """Records by episode id, without what depends on the clock (latencies)."""

    def drop_clock(value):
        if isinstance(value, dict):
            return {k: drop_clock(v) for k, v in value.items() if k != "latency_s"}
        if isinstance(value, list):
            return [drop_clock(v) for v in value]
        return value

    records = list(read_records(folder / "transcripts.jsonl"))
    assert len({r["episode_id"] for r in records}) == len(records)  # each episode exactly once
    return {r["episode_id"]: drop_clock(r) for r in records}


@pytest.fixture
def actors_made(monkeypatch) -> list:
    """What each Ray run of the test started: (actors, cache actor, org images)."""
    from simulator.executors import ray_cluster

    made, real = [], ray_cluster._actors

    def spy(*args):
        made.append(real(*args))
        return made[-1]

    monkeypatch.setattr(ray_cluster, "_actors", spy)
    return made


@pytest.mark.slow
def test_ray_plays_the_same_records_as_the_local_executor(tmp_path, org_cache, local_ray, actors_made):
    tasks = ["handle_time", "case_routing", "knowledge_qa", "private_customer_information"]
    (tmp_path / "local").mkdir()
    (tmp_path / "ray").mkdir()
    _run(_config(tmp_path / "local", tasks=tasks, modes=["full", "sharded"]))
    assert not actors_made
    _run(_config(tmp_path / "ray", tasks=tasks, modes=["full", "sharded"], executor="ray", workers=2))
    assert len(actors_made) == 1 and len(actors_made[0][0]) == 2  # played by two Ray actors
    local, on_ray = _records(tmp_path / "local" / "runs" / "t"), _records(tmp_path / "ray" / "runs" / "t")
    assert len(local) == 8 and on_ray == local  # messages, tool results, final state, scores: all of it
    assert all(r["scores"]["rules"]["success"] for r in on_ray.values())
    assert json.loads((tmp_path / "ray" / "runs" / "t" / "summary.json").read_text())["counts"]["episodes"] == 8


@pytest.mark.slow
def test_a_run_resumes_across_executors(tmp_path, org_cache, local_ray, actors_made):
    config = _config(tmp_path, tasks=["handle_time", "case_routing"], modes=["full", "sharded"])
    folder = tmp_path / "runs" / "t"
    _run(config)
    lines = (folder / "transcripts.jsonl").read_text().splitlines(keepends=True)
    (folder / "transcripts.jsonl").write_text("".join(lines[:1]))  # as if killed after one episode
    _run(config, "--executor", "ray", "--workers", "2")  # executor and workers do not change the run
    assert len(_records(folder)) == 4 and len(actors_made) == 1  # the rest was played on Ray


@pytest.mark.slow
def test_an_actor_that_dies_loses_no_episode(tmp_path, org_cache, local_ray):
    marker = tmp_path / "died"
    agent = {"kind": "calibration", "plugin": "dying_agent:DiesOnce", "options": {"marker": str(marker)}}
    config = _config(
        tmp_path,
        tasks=["handle_time", "case_routing", "knowledge_qa"],
        modes=["full", "sharded"],
        agent=agent,
        executor="ray",
        workers=2,
        concurrency=4,
    )
    _run(config)
    assert marker.exists()  # an actor process did die mid-episode
    records = _records(tmp_path / "runs" / "t")
    assert len(records) == 6 and all(r["scores"]["rules"]["success"] for r in records.values())


@pytest.mark.slow
def test_the_response_cache_serves_ray_actors(tmp_path, org_cache, fake_openai, local_ray):
    from tests.fake_openai import never_the_same

    fake_openai.responder = never_the_same()
    config = _model_config(tmp_path, fake_openai.base_url)
    data = yaml.safe_load(config.read_text())
    data.update(cache=str(tmp_path / "replies.sqlite"), executor="ray", workers=2)
    config.write_text(yaml.safe_dump(data))
    _run(config)
    calls = len(fake_openai.requests)
    assert calls > 0
    _run(config, "--fresh")
    assert len(fake_openai.requests) == calls  # every reply of the second run came from the cache
    first, second = sorted((tmp_path / "runs").iterdir())
    messages = [{eid: r["messages"] for eid, r in _records(f).items()} for f in (first, second)]
    assert messages[0] == messages[1] and len(messages[0]) == 2  # (by episode: actors finish in any order)
    assert TEST_KEY not in "".join(p.read_text() for f in (first, second) for p in f.iterdir() if p.is_file())


@pytest.mark.slow
def test_a_node_that_cannot_play_the_run_says_why(tmp_path, capsys, org_cache, local_ray, monkeypatch):
    """A plug-in agent installed where the run starts but not on the nodes: one clear error,
    no episode played, the run folder still has its report."""
    here_only = tmp_path / "driver_only"
    here_only.mkdir()
    (here_only / "driver_only_agent.py").write_text(DYING_AGENT)
    monkeypatch.syspath_prepend(str(here_only))
    agent = {"kind": "calibration", "plugin": "driver_only_agent:DiesOnce", "options": {"marker": str(tmp_path / "m")}}
    assert (
        main(["run", "--config", str(_config(tmp_path, tasks=["handle_time"], agent=agent, executor="ray")), "-q"]) == 1
    )
    err = capsys.readouterr().err
    assert "a Ray node cannot play this run" in err and "driver_only_agent" in err and "Traceback" not in err
    assert (tmp_path / "runs" / "t" / "report.md").is_file()
    assert (tmp_path / "runs" / "t" / "transcripts.jsonl").read_text() == ""


def test_ray_setup_mistakes_are_named(tmp_path, capsys):
    assert main(["run", "--config", str(_config(tmp_path, address="auto")), "-q"]) == 2
    assert "needs `executor: ray`" in capsys.readouterr().err
    assert main(["run", "--config", str(_config(tmp_path, executor="spark")), "-q"]) == 2
    assert "'spark' is not one of local, ray" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "--config", str(_config(tmp_path)), "--workers", "0"])
    assert "not a positive whole number: '0'" in capsys.readouterr().err
    assert main(["run", "--config", str(_config(tmp_path)), "--executor", "local", "--address", "auto"]) == 2
    assert "--address is a Ray cluster" in capsys.readouterr().err


def test_executor_ray_without_ray_installed_says_how_to_get_it(tmp_path, capsys, org_cache, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    assert main(["run", "--config", str(_config(tmp_path)), "-q", "--executor", "ray"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'crmarena-sim[ray]'" in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.slow
def test_a_refusal_stops_a_ray_run(tmp_path, capsys, org_cache, fake_openai, local_ray):
    from tests.fake_openai import error

    fake_openai.responder = lambda body: error(401, body='{"error": {"message": "Incorrect API key"}}')
    config = _model_config(tmp_path, fake_openai.base_url)
    data = yaml.safe_load(config.read_text())
    data.update(
        executor="ray",
        workers=2,
        concurrency=2,
        modes=["full", "sharded"],
        tasks=["handle_time", "case_routing", "knowledge_qa"],
    )  # 6 episodes
    config.write_text(yaml.safe_dump(data))
    assert main(["run", "--config", str(config), "-q"]) == 1
    err = capsys.readouterr().err
    assert "stopped: the provider refused" in err and "--retry-failed" in err and "Traceback" not in err
    records = list(read_records(tmp_path / "runs" / "t" / "transcripts.jsonl"))
    assert 1 <= len(records) == len(fake_openai.requests) <= 2  # those in flight; none started after
    assert f"{6 - len(records)} episode(s) not played" in err
    assert all(r["termination"].get("fatal") for r in records)


@pytest.mark.slow
def test_an_unreachable_cluster_is_named_at_once(tmp_path, org_cache):
    """`--address` where nothing listens: one line naming the address and the cause, exit 1,
    soon (Ray alone retries it for minutes, deaf to Ctrl-C). A fresh process: no Ray there yet."""
    import socket
    import subprocess
    import sys

    with socket.socket() as s:  # a loopback port nothing listens on (bound, never listening)
        s.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{s.getsockname()[1]}"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "simulator.cli",
                "run",
                "--config",
                str(_config(tmp_path)),
                "-q",
                "--executor",
                "ray",
                "--address",
                address,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 1, run.stderr[-2000:]
    assert f"cannot connect to the Ray cluster at {address}: Connection refused" in run.stderr
    assert "Traceback" not in run.stderr and "GCS" not in run.stderr


def test_an_address_nothing_listens_on_is_refused_before_ray_is_asked():
    """The check behind the test above, in this process and without Ray (the fast loop's test of
    simulator.executors.ray_cluster): a refused address is one ExecutorError naming it."""
    import socket

    from simulator.executors import ExecutorError
    from simulator.executors.ray_cluster import _reachable

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        address = f"ray://127.0.0.1:{s.getsockname()[1]}"
        with pytest.raises(ExecutorError, match=f"cannot connect to the Ray cluster at {address}: Connection refused"):
            _reachable(address)

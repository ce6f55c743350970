"""A real model, offline: Gemma 3 270M on llama-cpp-python's server (the `local` extra) plays the
agent and the person of a 2-instance sweep of the shipped configs/local.yaml, end to end.

This takes a minute or two (CPU inference). It needs the `local` extra, which `.ci/run`
installs; without it the module is skipped and says why.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import yaml

from simulator.cli import main
from simulator.models.local import MODEL_ALIAS, missing
from simulator.runs.config import default_config_path
from simulator.runs.transcript import read_records

if missing():
    pytest.skip(missing(), allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def local_server(tmp_path_factory):
    """`crmarena serve-local` on a free port (the real command, which becomes the server);
    the base URL once it answers."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("w")
    # half the default context: room for the system prompt and two turns, half the memory
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "serve-local", "--port", str(port), "--context", "8192"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while not _serving(base_url):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the llama-cpp-python server did not start (see {log.name})")
            time.sleep(0.5)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _serving(base_url: str) -> bool:
    """True once the server answers with the model's name."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            return json.load(response)["data"][0]["id"] == MODEL_ALIAS
    except (OSError, ValueError, KeyError, IndexError):
        return False


def test_serve_local_says_what_is_wrong(capsys):
    from simulator.cli import main

    assert main(["serve-local", "--model", "/no/such/model.gguf"]) == 2
    assert "--model: no such file: /no/such/model.gguf" in capsys.readouterr().err


@pytest.mark.slow
def test_a_local_model_sweep_runs_end_to_end(tmp_path, org_cache, local_server, capsys):
    data = yaml.safe_load((default_config_path().parent / "local.yaml").read_text())
    for role in (data["agent"], data["user"]):
        role["model"]["base_url"] = local_server
    data.update(
        orgs=[{"type": "b2b", "seed": 7, "scale": 0.2}],
        tasks=["handle_time", "knowledge_qa"],
        instances_per_task=1,
        limits={"max_user_turns": 2, "max_agent_steps": 2},
        out=str(tmp_path / "runs"),
    )
    config = tmp_path / "local.yaml"
    config.write_text(yaml.safe_dump(data))
    assert main(["run", "--config", str(config), "-q"]) == 0

    folder = tmp_path / "runs" / "local"
    records = list(read_records(folder / "transcripts.jsonl"))
    assert sorted((r["task"], r["mode"]) for r in records) == [
        ("handle_time", "full"),
        ("handle_time", "sharded"),
        ("knowledge_qa", "full"),
        ("knowledge_qa", "sharded"),
    ]
    for r in records:  # complete: the conversation, why it ended, what it cost, and its scores
        assert r["termination"]["reason"] != "infra_error", r["termination"]
        assert r["messages"][0]["role"] == "user"
        assert any(m["role"] == "assistant" or m.get("model_text") for m in r["messages"])  # the model's own words
        assert r["usage"]["agent"]["calls"] >= 1 and r["usage"]["agent"]["prompt_tokens"] > 1000
        assert r["usage"]["agent"]["cost_usd"] == 0.0  # configs/prices.yaml counts the local model as free
        assert isinstance(r["scores"]["rules"]["success"], bool)
        assert r["agent"]["model"]["model"] == MODEL_ALIAS
        assert r["user"]["reply_format"] == "prompt" and "structured_output" not in r["user"]["model"]  # no grammar
    sharded = [r for r in records if r["mode"] == "sharded"]
    assert all(r["usage"]["user"]["calls"] >= 1 for r in sharded)  # the person was the model too
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["scored"] == 4 and summary["counts"]["infra_errors"] == 0
    assert (folder / "report.html").is_file()

"""Remote agents under test (simulator/agents/remote.py, docs/remote-agent.md), against real
endpoints on 127.0.0.1: the oracle served remotely (tests/remote_oracle.py) scores what the
in-process oracle scores on the default run's tasks, with every tool call in the transcript; a
dead, failing, malformed or slow endpoint ends its episode with the right outcome and the run goes
on; the docs' reference server works as printed.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from evaluators import milestones
from simulator.agents.oracle import OracleAgent
from simulator.agents.remote import RemoteAgent, public_url
from simulator.records import parse_record
from simulator.runs.config import load_config
from simulator.runs.episode import Limits, Seat, run_episode
from simulator.runs.plan import Plan
from simulator.servers.background import BackgroundServer
from simulator.users.scripted import ScriptedUser
from tests.conftest import seat_of
from tests.records import record as make_record
from tests.remote_oracle import calling_app, failing_app, remote_oracle_app, salesforce_app

DOC = Path(__file__).resolve().parents[1] / "docs" / "remote-agent.md"


@pytest.fixture(scope="module", autouse=True)
def quick_thread_switches():
    """The endpoints, the tool gateway and the episodes share this process's GIL: each request
    hops threads, so hand the GIL over sooner than every 5 ms (halves this file's time)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    yield
    sys.setswitchinterval(before)


@pytest.fixture(scope="module")
def planned(b2b_org, b2c_org):
    """The default run's episodes on the test orgs: one instance of every task type on both orgs,
    one persona each, full and sharded."""
    cfg = replace(load_config(), instances_per_task=1, personas_per_pool=1)
    assert list(cfg.modes) == ["full", "sharded"] and cfg.agent.kind == "oracle"
    return list(Plan(cfg, "remote-test", [b2b_org, b2c_org]))


def _play(episodes, make_agent, concurrency: int = 8) -> list[dict]:
    """The scored records of `episodes`, played `concurrency` at a time (as a run plays them)."""
    from evaluators.observer import score

    gate = asyncio.Semaphore(concurrency)

    async def one(p):
        async with gate:
            record = (
                await run_episode(p.spec, p.org, agent := make_agent(), ScriptedUser(p.spec.seed), seat=seat_of(agent))
            ).to_json()
        return {**record, "scores": score(parse_record(record))}

    async def go():
        return await asyncio.gather(*map(one, episodes))

    return asyncio.run(go())


def _calls(record: dict) -> list[tuple[int, str, str]]:
    return [(m["turn"], c["name"], c["arguments"]) for m in record["messages"] for c in m.get("tool_calls") or []]


def _results(record: dict) -> list[tuple[int, str, bool]]:
    return [(m["turn"], m["content"], m["is_error"]) for m in record["messages"] if m["role"] == "tool"]


@pytest.mark.slow
def test_the_remote_oracle_scores_what_the_oracle_scores(planned):
    with BackgroundServer(remote_oracle_app()) as server:
        remote = _play(planned, lambda: RemoteAgent(server.url, briefed=True, timeout_s=60))
    local = _play(planned, OracleAgent)
    assert {(r["org"], r["task"]) for r in remote} == {(r["org"], r["task"]) for r in local}
    assert {r["mode"] for r in remote} == {"full", "sharded"}
    assert [r["termination"]["reason"] for r in remote] == [r["termination"]["reason"] for r in local]
    assert all(r["scores"]["rules"]["success"] for r in remote), [
        (r["task"], r["mode"], r["termination"]) for r in remote if not r["scores"]["rules"]["success"]
    ]
    assert [r["scores"]["rules"] for r in remote] == [r["scores"]["rules"] for r in local]
    for r, lo in zip(remote, local):  # every tool call reached the transcript, as the oracle made it
        assert _calls(r) == _calls(lo) and _calls(r), (r["task"], r["mode"])
        assert _results(r) == _results(lo)
    assert all(r["agent"]["kind"] == "remote" and r["agent"]["briefed"] for r in remote)
    assert remote[0]["usage"]["agent"]["prompt_tokens"] > 0


@pytest.fixture(scope="module")
def one_episode(planned):
    return next(p for p in planned if p.spec.mode == "full")


def _outcome(episode, agent) -> dict:
    return asyncio.run(run_episode(episode.spec, episode.org, agent, ScriptedUser(1), seat=seat_of(agent))).to_json()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def first_contact(monkeypatch):
    """No endpoint has opened a session in this process yet."""
    monkeypatch.setattr("simulator.agents.remote._ANSWERED", set())
    monkeypatch.setattr("simulator.agents.remote.RETRY_WAIT_S", 0.01)


def test_an_endpoint_that_never_answered_stops_the_run(one_episode, first_contact):
    """Unreachable, or refusing our credentials, before it ever opened a session: a config error."""
    record = _outcome(one_episode, RemoteAgent(f"http://127.0.0.1:{_closed_port()}", timeout_s=5))
    assert record["termination"]["reason"] == "infra_error" and record["termination"]["fatal"]
    assert "cannot reach" in record["termination"]["detail"] and "check agent.url" in record["termination"]["detail"]
    with BackgroundServer(failing_app("401", opening=True)) as server:
        record = _outcome(one_episode, RemoteAgent(server.url, timeout_s=10))
    assert record["termination"]["reason"] == "infra_error" and record["termination"]["fatal"]


def test_an_endpoint_failing_after_it_answered_fails_its_episodes(one_episode, first_contact):
    """The endpoint is the agent: once it has answered, its refusals and its absence are its failures."""
    with BackgroundServer(failing_app("401")) as server:
        record = _outcome(one_episode, RemoteAgent(server.url, timeout_s=10))
        assert record["termination"]["reason"] == "agent_error" and "HTTP 401" in record["termination"]["detail"]
        url = server.url
    record = _outcome(one_episode, RemoteAgent(url, timeout_s=5))  # now gone
    assert record["termination"]["reason"] == "agent_error" and "cannot reach" in record["termination"]["detail"]


@pytest.mark.parametrize(
    "kind, reason, words, messages",
    [
        ("500", "agent_error", "HTTP 500", 1),  # not sent again: the endpoint may have acted on the turn
        ("503", "agent_error", "HTTP 503", 1),
        ("html", "agent_error", "not JSON", 1),
        ("no_reply", "agent_error", "no reply string", 1),
        ("422", "agent_error", "HTTP 422", 1),
    ],
)
def test_a_bad_answer_ends_the_episode_with_its_outcome(one_episode, monkeypatch, kind, reason, words, messages):
    monkeypatch.setattr("simulator.agents.remote.RETRY_WAIT_S", 0.01)
    counts: dict = {}
    with BackgroundServer(failing_app(kind, counts=counts)) as server:
        record = _outcome(one_episode, RemoteAgent(server.url, timeout_s=10))
    assert record["termination"]["reason"] == reason and words in record["termination"]["detail"]
    assert counts == {"open": 1, "message": messages, "close": 1}


def test_an_endpoint_answering_503_to_everything_scores_zero(tmp_path, org_cache, first_contact):
    """Issue 27: failing cannot make a remote agent's episodes unscored (it raised 13.6% to 19.7%)."""
    from simulator.cli import main
    from tests.test_run import _config

    with BackgroundServer(failing_app("503", opening=True)) as server:
        path = _config(
            tmp_path,
            agent={"kind": "remote", "url": server.url, "options": {"timeout_s": 10}},
            tasks=["handle_time", "knowledge_qa"],
            modes=["full"],
        )
        assert main(["run", "--config", str(path), "-q"]) == 0
    folder = next((tmp_path / "runs").iterdir())
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["infra_errors"] == 0 and summary["counts"]["scored"] == summary["counts"]["episodes"] > 0
    assert set(summary["counts"]["by_termination"]) == {"agent_error"}
    assert summary["success"]["overall"]["rate"] == 0.0 == summary["success"]["all_episodes"]["overall"]["rate"]


@pytest.mark.slow
def test_a_slow_endpoint_times_out_and_the_next_episode_plays(planned):
    with BackgroundServer(failing_app("no_reply", delay_s=2)) as slow, BackgroundServer(remote_oracle_app()) as good:
        started = time.monotonic()
        first = _outcome(planned[0], RemoteAgent(slow.url, timeout_s=0.5))
        took = time.monotonic() - started
        second = _play(planned[:1], lambda: RemoteAgent(good.url, briefed=True, timeout_s=30))[0]
    assert first["termination"]["reason"] == "agent_error" and "within 0.5 s" in first["termination"]["detail"]
    assert took < 4
    assert second["scores"]["rules"]["success"]


@pytest.mark.parametrize("from_env", [False, True])
def test_headers_reach_the_endpoint_but_no_record(one_episode, monkeypatch, from_env):
    from tests.fake_openai import fake_key

    key = fake_key("remote-endpoint")
    monkeypatch.setenv("REMOTE_AGENT_KEY", key)
    given = {"headers_env": {"X-Api-Key": "REMOTE_AGENT_KEY"}} if from_env else {"headers": {"X-Api-Key": key}}
    seen = []

    async def app(scope, receive, send):  # records the key header, then answers like failing_app
        if scope["type"] == "http":
            seen.append(dict(scope["headers"]).get(b"x-api-key"))
        await inner(scope, receive, send)

    inner = failing_app("no_reply")
    with BackgroundServer(app) as server:
        url = f"http://user:{key}@127.0.0.1:{server.port}?token={key}"
        agent = RemoteAgent(url, timeout_s=10, **given)
        record = _outcome(one_episode, agent)
    assert seen and all(v == key.encode() for v in seen if v is not None)
    assert key not in json.dumps(record) and record["agent"]["url"] == server.url
    assert record["termination"]["reason"] == "agent_error"


def test_public_url_strips_credentials_query_and_fragment():
    assert public_url("https://me:pw@agent.example:8443/v1/?key=abc#x") == "https://agent.example:8443/v1/"


def test_a_bad_url_or_timeout_is_a_value_error():
    with pytest.raises(ValueError, match="http"):
        RemoteAgent("ftp://x")
    with pytest.raises(ValueError, match="timeout_s"):
        RemoteAgent("http://127.0.0.1:1", timeout_s=0)


@pytest.fixture(scope="module")
def reference():
    """The namespace of the docs' reference server, run from its code block."""
    code = re.search(r"## Reference server.*?```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    assert len(code.splitlines()) <= 50
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


def test_the_docs_reference_server_answers_with_a_tool_call(one_episode, reference):
    with BackgroundServer(reference["app"]) as server:
        record = _outcome(one_episode, RemoteAgent(server.url, timeout_s=30))
    calls = [c for m in record["messages"] for c in m.get("tool_calls") or []]
    results = [m for m in record["messages"] if m["role"] == "tool"]
    assert calls and calls[0]["name"] == "soql" and not results[0]["is_error"]
    replies = [m["content"] for m in record["messages"] if m["role"] == "assistant" and m["content"]]
    assert replies and "The org answers" in replies[0] and '"totalSize"' in replies[0]
    assert record["termination"]["reason"] == "patience_exhausted"  # (an echo never answers)
    assert "briefed" not in record["agent"] and reference["sessions"] == {}


def test_more_tool_calls_than_the_step_limit_end_the_episode(one_episode, reference):
    with BackgroundServer(reference["app"]) as server:
        record = asyncio.run(
            run_episode(
                one_episode.spec,
                one_episode.org,
                RemoteAgent(server.url, timeout_s=30),
                ScriptedUser(1),
                Limits(max_agent_steps=0),
                seat=Seat("remote"),
            )
        ).to_json()
    assert record["termination"]["reason"] == "agent_step_limit"
    # the refused call is recorded; the reply given past the budget is not taken
    assert [m["role"] for m in record["messages"]] == ["user", "assistant", "tool"]
    assert record["messages"][2]["is_error"] and "step budget" in record["messages"][2]["content"]


def test_a_run_config_plays_a_remote_agent(tmp_path, capsys, org_cache):
    """`agent: {kind: remote, url: ...}` through `crmarena run`: the config reaches RemoteAgent, the records
    name the endpoint without its key, and the briefed remote oracle passes every episode."""
    from simulator.cli import main
    from simulator.runs.transcript import read_records
    from tests.test_run import _config

    with BackgroundServer(remote_oracle_app()) as server:
        url = f"{server.url}/?key={'k' * 24}"
        path = _config(tmp_path, agent={"kind": "remote", "url": url, "options": {"briefed": True, "timeout_s": 60}})
        assert main(["run", "--config", str(path), "-q"]) == 0
    folder = next((tmp_path / "runs").iterdir())
    records = list(read_records(folder / "transcripts.jsonl"))
    assert records and all(r["scores"]["rules"]["success"] for r in records)
    assert all(r["agent"]["kind"] == "remote" and r["agent"]["briefed"] for r in records)
    assert all(r["agent"]["label"].endswith("briefed") for r in records)
    summary = json.loads((folder / "summary.json").read_text())
    assert "(briefed oracle)" in json.dumps(summary)  # reports never show it as a result
    assert "k" * 24 not in (folder / "transcripts.jsonl").read_text() + (folder / "config.json").read_text()


def test_an_opening_answered_404_names_the_url_and_the_path_tried(tmp_path, capsys, org_cache, reference):
    """The reference server (routes at its root) given a url with a path it does not serve: the run
    stops at once, naming the request it tried and what to fix (not a provider's key)."""
    from simulator.cli import main
    from tests.test_run import _config

    with BackgroundServer(reference["app"]) as server:
        path = _config(tmp_path, agent={"kind": "remote", "url": f"{server.url}/agent"}, tasks=["case_routing"])
        assert main(["run", "--config", str(path), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"HTTP 404 Not Found to POST {server.url}/agent/sessions" in err and "check agent.url" in err
    assert "the remote agent refused" in err and "Fix agent.url" in err and "the key, the model" not in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int, server, within_s: float = 30) -> None:
    """Wait until `server` (a process) accepts connections on `port`."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        assert server.poll() is None, server.communicate()[1]
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@pytest.mark.slow
def test_the_documented_commands_play_the_reference_server(tmp_path):
    """docs/remote-agent.md's two commands as printed (README and configs/remote-agent.yaml print the
    same), the port 8500 swapped for a free one: the reference server saved as reference_agent.py and
    started with uvicorn, the example config run against it; every episode played and scored."""
    import os
    import subprocess

    from simulator.runs.transcript import read_records

    root, doc = DOC.parents[1], DOC.read_text()
    start, run = re.search(r"```bash\n(uvicorn .*)\n(crmarena run .*)\n```", doc).groups()
    for where in (root / "README.md", root / "configs" / "remote-agent.yaml"):
        assert start in where.read_text() and run in where.read_text(), where
    code = re.search(r"## Reference server.*?```python\n(.*?)```", doc, re.S).group(1)
    (tmp_path / "reference_agent.py").write_text(code)
    port = str(_free_port())
    (tmp_path / "configs").mkdir()
    config = (root / "configs" / "remote-agent.yaml").read_text()
    (tmp_path / "configs" / "remote-agent.yaml").write_text(config.replace("8500", port))
    env = {**os.environ, "CRMARENA_CACHE": str(tmp_path / "cache"), "PYTHONPATH": f"{root}{os.pathsep}{tmp_path}"}
    bin_dir = Path(sys.executable).parent

    def command(line: str) -> list[str]:
        name, *args = line.replace("8500", port).split()
        return [str(bin_dir / name), *args]

    server = subprocess.Popen(command(start), cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        _listening(int(port), server)
        out = subprocess.run(command(run), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    records = list(read_records(tmp_path / "runs" / "remote-agent" / "transcripts.jsonl"))
    assert len(records) == 8 and {r["mode"] for r in records} == {"full", "sharded"}
    for r in records:
        assert r["termination"]["reason"] in ("patience_exhausted", "user_done") and r["scores"]["rules"]["scored"]
        assert r["agent"]["url"] == f"http://127.0.0.1:{port}"
        assert [c["name"] for m in r["messages"] for c in m.get("tool_calls") or []][:1] == ["soql"]


@pytest.mark.parametrize(
    "agent, needs",
    [
        ({"kind": "remote", "url": "http://127.0.0.1:9"}, "a remote agent"),
        ({"kind": "function_calling", "model": "openai/gpt-4o-mini", "tools": "mcp"}, "tools: mcp"),
    ],
)
def test_without_the_serve_extra_the_run_stops_before_any_episode(tmp_path, capsys, monkeypatch, agent, needs):
    """`mcp` not installed (as importlib finds modules): one error line naming the extra, as setup.cfg
    names it, and no run folder; before, every episode ended as the agent's failure."""
    import configparser
    import importlib.util

    from simulator.cli import main
    from tests.test_run import _config

    setup = configparser.ConfigParser()
    setup.read(DOC.parents[1] / "setup.cfg")
    assert "mcp" in setup["options.extras_require"]["serve"]
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name.split(".")[0] == "mcp" else find_spec(name, *a)
    )
    path = _config(tmp_path, agent=agent, tasks=["case_routing"])
    assert main(["run", "--config", str(path)]) == 2
    extra = f"pip install '{setup['metadata']['name']}[serve]'"
    line = f"crmarena: error: {path}: agent: {needs} needs the serve extra (mcp not installed): {extra}"
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert not (tmp_path / "runs").exists()


def _answered(episode) -> str:
    return f"The answer is: {', '.join(episode.spec.instance.answer)}."


def test_calls_past_the_step_budget_do_not_run_and_the_answer_does_not_count(one_episode):
    """The harness enforces the budget itself: calls past it are refused before they run, and a reply
    given after going past it is not taken as the answer (in-process agents cannot reply past it)."""
    query = {"query": "SELECT Id FROM User LIMIT 1"}
    results: list = []
    with BackgroundServer(calling_app([("soql", query)] * 3, _answered(one_episode), results)) as server:
        record = asyncio.run(
            run_episode(
                one_episode.spec,
                one_episode.org,
                RemoteAgent(server.url, timeout_s=30),
                ScriptedUser(1),
                Limits(10, 1),
                seat=Seat("remote"),
            )
        ).to_json()
    assert [error for _, error in results] == [False, True, True] and "step budget" in results[1][0]
    assert record["termination"]["reason"] == "agent_step_limit" and not record["final_answer"]
    assert len(_results(record)) == 3  # every call in the transcript, the refused ones marked as errors
    assert [error for _, _, error in _results(record)] == [False, True, True]


def test_unknown_and_malformed_calls_are_recorded_as_errors(one_episode):
    calls = [
        ("no_such_tool", {}),
        ("soql", {}),
        ("soql", {"query": 5}),
        ("soql", {"query": "SELECT Id FROM User LIMIT 1", "extra": "x"}),
    ]
    results: list = []
    with BackgroundServer(calling_app(calls, "I do not know.", results)) as server:
        record = _outcome(one_episode, RemoteAgent(server.url, timeout_s=30))
    assert [error for _, error in results[:4]] == [True] * 4  # (the calls of the first message)
    assert [name for _, name, _ in _calls(record)][:4] == ["no_such_tool", "soql", "soql", "soql"]
    assert "Unknown tool" in _results(record)[0][1] and "must be a string" in _results(record)[2][1]


def test_calls_after_the_reply_are_refused(one_episode):
    """Between turns and after the last one, the endpoint's tools do not run (a write then would change
    what is scored with nothing in the transcript)."""
    case = one_episode.org.connect().execute('SELECT Id FROM "Case" LIMIT 1').fetchone()[0]
    user = one_episode.org.connect().execute('SELECT Id FROM "User" LIMIT 1').fetchone()[0]
    results: list = []
    with BackgroundServer(
        calling_app([("assign_case", {"case_id": case, "user_id": user})], "Done.", results, after_reply=True)
    ) as server:
        _outcome(one_episode, RemoteAgent(server.url, timeout_s=30))
        deadline = time.monotonic() + 30
        while not results and time.monotonic() < deadline:
            time.sleep(0.05)
    assert results and results[0][1] is True  # refused between turns, or the token is already revoked
    assert "no turn is in progress" in results[0][0] or "401" in results[0][0], results


def test_the_gate_is_closed_between_turns():
    from simulator.agents.remote import ToolLog

    log = ToolLog()
    assert "no turn is in progress" in log.gate("soql")
    log.begin(1, budget=2)
    assert log.gate("soql") is None and log.gate("sosl") is None and "step budget" in log.gate("soql")
    assert log.over_budget
    log.end()
    assert "no turn is in progress" in log.gate("soql")


# --- the Salesforce REST API grant ---------------------------------------------------------------


@pytest.fixture(scope="module")
def routing(planned):
    """A workflow episode (case_routing, full mode): its answer is an assignment, scored on the final state."""
    return next(p for p in planned if p.spec.instance.task == "case_routing" and p.spec.mode == "full")


def _file_hash(org) -> str:
    import hashlib

    return hashlib.sha256(org.path.read_bytes()).hexdigest()


def test_a_rest_client_routes_a_case_in_the_episodes_session(routing):
    """simple-salesforce on the session's grant reads the org, and its PATCH of the case's OwnerId lands in
    the episode's session: the scored final state holds it, and every request is a transcript tool call."""
    params, agent_id = routing.spec.instance.params, routing.spec.instance.answer[0]
    case_id, before = params["record_id"], _file_hash(routing.org)
    original = routing.org.connect().execute('SELECT OwnerId FROM "Case" WHERE Id = ?', (case_id,)).fetchone()[0]
    assert original != agent_id

    def act(sf, turn):
        found = sf.query(f"SELECT Id, OwnerId FROM Case WHERE Id = '{case_id}'")["records"]
        fields = {f["name"] for f in sf.Case.describe()["fields"]}
        status = sf.Case.update(case_id, {"OwnerId": agent_id})
        after = sf.query(f"SELECT OwnerId FROM Case WHERE Id = '{case_id}'")["records"][0]["OwnerId"]
        return found, fields, status, after

    results: list = []
    with BackgroundServer(salesforce_app(act, _answered(routing), results)) as server:
        record = _play([routing], lambda: RemoteAgent(server.url, timeout_s=30))[0]
    ((found, fields, status, after),) = results
    assert [r["OwnerId"] for r in found] == [original] and "OwnerId" in fields
    assert status == 204 and after == agent_id
    assert record["state"]["OwnerId"] == agent_id and record["scores"]["rules"]["success"]
    calls = [(name, json.loads(arguments)) for _, name, arguments in _calls(record)]
    assert [name for name, _ in calls] == ["soql", "rest", "update_record", "soql"]
    assert calls[0][1] == {"query": f"SELECT Id, OwnerId FROM Case WHERE Id = '{case_id}'"}
    assert calls[1][1] == {"method": "GET", "path": "/services/data/v62.0/sobjects/Case/describe"}
    assert calls[2][1] == {"object_name": "Case", "record_id": case_id, "field": "OwnerId", "value": agent_id}
    texts = [text for _, text, _ in _results(record)]
    assert json.loads(texts[0])["records"][0]["OwnerId"] == original and "204" in texts[2]
    assert not any(error for _, _, error in _results(record))
    assert _file_hash(routing.org) == before


def test_a_rest_client_creates_and_deletes_in_the_episodes_session_only(routing):
    """A create and a delete on the session's grant land in the episode's session (its own queries
    see them), never in the org file, and are transcript tool calls (`rest`, with their bodies)."""
    before = _file_hash(routing.org)
    count = "SELECT COUNT() FROM Account WHERE Name = 'Episode Scratch'"

    def act(sf, turn):
        made = sf.Account.create({"Name": "Episode Scratch"})
        return made, sf.query(count)["totalSize"], sf.Account.delete(made["id"]), sf.query(count)["totalSize"]

    results: list = []
    with BackgroundServer(salesforce_app(act, _answered(routing), results)) as server:
        record = _play([routing], lambda: RemoteAgent(server.url, timeout_s=30))[0]
    (made, seen, deleted, left), *_ = results
    assert made["success"] and seen == 1 and deleted == 204 and left == 0
    calls = [(name, json.loads(arguments)) for _, name, arguments in _calls(record)][:4]
    assert [name for name, _ in calls] == ["rest", "soql", "rest", "soql"]
    assert calls[0][1]["method"] == "POST" and json.loads(calls[0][1]["body"]) == {"Name": "Episode Scratch"}
    assert calls[2][1] == {"method": "DELETE", "path": f"/services/data/v62.0/sobjects/Account/{made['id']}"}
    assert json.loads(_results(record)[0][1])["id"] == made["id"]
    assert _file_hash(routing.org) == before


def test_rest_requests_past_the_budget_or_after_the_reply_are_refused(routing):
    """Each REST request is one step of the turn's budget; one past it is refused (403) and not run; after
    the reply nothing runs, and once the episode is over the token is invalid (401)."""
    from simple_salesforce.exceptions import SalesforceExpiredSession, SalesforceRefusedRequest

    case_id, agent_id = routing.spec.instance.params["record_id"], routing.spec.instance.answer[0]
    clients: list = []

    def act(sf, turn):
        clients.append(sf)
        sf.query("SELECT Id FROM User LIMIT 1")
        return sf.Case.update(case_id, {"OwnerId": agent_id})

    results: list = []
    with BackgroundServer(salesforce_app(act, _answered(routing), results)) as server:
        record = asyncio.run(
            run_episode(
                routing.spec,
                routing.org,
                RemoteAgent(server.url, timeout_s=30),
                ScriptedUser(1),
                Limits(10, 1),
                seat=Seat("remote"),
            )
        ).to_json()
    assert isinstance(results[0], SalesforceRefusedRequest) and results[0].status == 403
    assert results[0].content[0]["errorCode"] == "REQUEST_LIMIT_EXCEEDED" and "step budget" in str(results[0].content)
    assert record["termination"]["reason"] == "agent_step_limit" and record["state"]["OwnerId"] != agent_id
    assert [(name, error) for (_, name, _), (_, _, error) in zip(_calls(record), _results(record))] == [
        ("soql", False),
        ("update_record", True),
    ]
    with pytest.raises(SalesforceExpiredSession):
        clients[0].query("SELECT Id FROM User LIMIT 1")

    late: list = []  # (the reply answers: no next turn opens the gate again)
    with BackgroundServer(salesforce_app(act, _answered(routing), late, after_reply=True)) as server:
        record = _outcome(routing, RemoteAgent(server.url, timeout_s=30))
        deadline = time.monotonic() + 30
        while not late and time.monotonic() < deadline:
            time.sleep(0.05)
    assert len(late) == 1 and isinstance(late[0], (SalesforceRefusedRequest, SalesforceExpiredSession)), late
    assert record["state"]["OwnerId"] != agent_id and record["termination"]["reason"] == "user_done"


def _rest(method: str, path: str, result: str) -> list[dict]:
    """A remote agent's REST call and its result, as the transcript holds them."""
    call = {"id": "c1", "name": "rest", "arguments": json.dumps({"method": method, "path": path})}
    return [
        {"role": "assistant", "content": "", "turn": 1, "tool_calls": [call]},
        {"role": "tool", "content": result, "turn": 1, "call_id": "c1", "name": "rest", "is_error": False},
    ]


@pytest.mark.parametrize(
    ("method", "result", "wrote"),
    [("DELETE", "", True), ("POST", '{"id": "001Nw0000000001AAA", "success": true}', True), ("GET", "{}", False)],
)
def test_a_rest_create_or_delete_is_a_write_for_the_minefields(method, result, wrote):
    """A remote agent that deletes or creates a record over REST changed the org: on a read-only
    type that is the `wrote_readonly` minefield, and another record than the instance's is
    `wrote_other_record` (a GET is neither)."""
    path = "/services/data/v62.0/sobjects/Account/001Kd0000000001AAA"
    episode = make_record(
        messages=_rest(method, path, result), instance={"params": {"record_id": "500Kd0000000001AAA"}}
    )
    trace = milestones.steps(episode)
    assert milestones.wrote_readonly(episode, trace)[0] is wrote
    assert milestones.wrote_other_record(episode, trace, param="record_id")[0] is wrote

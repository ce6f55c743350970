"""The Inspect AI task (simulator/inspect_task.py, registered by crmarena_sim): a whole eval with
Inspect's mock model scripted as an agent, offline, on the small test org."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver._task_state import sample_state

from simulator.crm.session import OrgSession

ROOT = Path(__file__).resolve().parent.parent
PERSONA = "qa_auditor"  # one fact per question asked, none unasked: the mock knows when all are told
WRONG_USER = "005000000000000AAA"
DEFAULTS = dict(
    org="b2b",
    mode="sharded",
    tasks=None,
    n=2,
    persona=None,
    user="scripted",
    user_model=None,
    seed=0,
    scale=1.0,
    task_seed=0,
    difficulty="standard",
    privacy_aware=False,
    max_user_turns=10,
    max_agent_steps=20,
)


def _output(**kwargs) -> ModelOutput:
    """A mock model output; its usage given, so Inspect counts no tokens (o200k_base: a download)."""
    out = (
        ModelOutput.for_tool_call("mockllm/model", **kwargs)
        if "tool_name" in kwargs
        else ModelOutput.from_content("mockllm/model", kwargs["content"])
    )
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return out


class ScriptedAgent:
    """The mock model as an agent: asks for a fact per turn until the person has told them all,
    then assigns the case (to the right agent, or a wrong one) and says so. The second sample
    also reads the first sample's case: a write of the first must not show there."""

    def __init__(self, episodes: dict, right: str, wrong: str, peek_case: str):
        self.episodes, self.right, self.wrong, self.peek_case = episodes, right, wrong, peek_case
        self.shown: dict[str, list[str]] = {}  # per sample: the texts the model had when it acted

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:
        sid = str(sample_state().sample_id)
        inst = self.episodes[sid].spec.instance
        users = sum(m.role == "user" for m in messages)
        tools_done = sum(m.role == "tool" for m in messages)
        if users < len(inst.shards):
            return _output(content=f"Thanks. What else should I know about this case? (question {users})")
        user = inst.answer[0] if sid == self.right else WRONG_USER
        steps = [dict(tool_name="assign_case", tool_arguments={"case_id": inst.params["record_id"], "user_id": user})]
        if sid == self.wrong:
            steps.append(
                dict(
                    tool_name="soql",
                    tool_arguments={"query": f"SELECT OwnerId FROM Case WHERE Id = '{self.peek_case}'"},
                )
            )
        self.shown.setdefault(sid, [m.text for m in messages])
        if tools_done < len(steps):
            return _output(**steps[tools_done])
        return _output(content=f"Done: I assigned case {inst.params['record_id']} to agent {user}.")


@pytest.fixture(scope="module")
def played(tmp_path_factory, org_paths):
    """The eval of two case_routing instances, sharded, run one sample at a time (so the second
    sample runs after the first one's write); the network refused except to 127.0.0.1."""
    from conftest import small_org_cache

    from crmarena_sim import crmarena
    from simulator import inspect_task

    root = tmp_path_factory.mktemp("inspect")
    with small_org_cache(root, org_paths) as patch:
        connect = socket.socket.connect

        def local_only(sock, address):
            if sock.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in ("127.0.0.1", "::1", "localhost"):
                raise AssertionError(f"network use: {address}")
            return connect(sock, address)

        patch.setattr(socket.socket, "connect", local_only)
        patch.setenv("INSPECT_DISPLAY", "none")
        args = dict(tasks="case_routing", n=2, persona=PERSONA, seed=7, scale=0.2)
        task = crmarena(**args)
        episodes = inspect_task.planned(inspect_task.run_config(**{**DEFAULTS, **args}))  # (the harness's side)
        assert [str(s.id) for s in task.dataset] == list(episodes)
        right, wrong = list(episodes)
        agent = ScriptedAgent(episodes, right, wrong, episodes[right].spec.instance.params["record_id"])
        start = time.monotonic()
        log = inspect_eval(
            task,
            model=get_model("mockllm/model", custom_outputs=agent),
            log_dir=str(root / "logs"),
            max_samples=1,
            display="none",
        )[0]
        took = time.monotonic() - start
    return {
        "log": log,
        "episodes": episodes,
        "right": right,
        "wrong": wrong,
        "agent": agent,
        "took": took,
        "logs": root / "logs",
    }


def _sample(played, sid):
    return next(s for s in played["log"].samples if str(s.id) == sid)


def test_scores_the_right_assignment_1_and_the_wrong_one_0(played):
    log = played["log"]
    assert log.status == "success", log.error
    assert _sample(played, played["right"]).scores["crm_scorer"].value == 1.0
    assert _sample(played, played["wrong"]).scores["crm_scorer"].value == 0.0
    assert log.results.scores[0].metrics["accuracy"].value == 0.5
    assert played["took"] < 30, played["took"]


def test_the_conversation_is_sharded_and_the_model_never_sees_the_answer(played):
    for sid, p in played["episodes"].items():
        sample = _sample(played, sid)
        record = sample.metadata["record"]
        assert record["mode"] == "sharded" and record["persona_id"] == PERSONA
        assert record["termination"]["reason"] == "user_done"
        told = [sid for e in record["events"] if e["type"] == "reveal" for sid in e["shards"]]
        assert sorted(told) == sorted(s["id"] for s in p.spec.instance.shards)  # one a turn, every one
        assert sum(m["role"] == "user" for m in record["messages"]) == len(told) + 1  # (+ the thanks)
        assert sample.target == p.spec.instance.answer
        shown = played["agent"].shown[sid]  # the system prompt and the whole conversation, before acting
        assert len(shown) == 2 * len(p.spec.instance.shards)
        assert not any(p.spec.instance.answer[0] in text for text in shown)


def test_the_log_shows_the_tool_calls(played):
    sample = _sample(played, played["right"])
    calls = [c for m in sample.messages if m.role == "assistant" for c in (m.tool_calls or [])]
    assert [c.function for c in calls] == ["assign_case"]
    results = [m for m in sample.messages if m.role == "tool"]
    assert results and results[0].error is None and "error" not in results[0].text.lower()
    assert any(e.event == "tool" and e.function == "assign_case" for e in sample.events)
    assert list(played["logs"].glob("*.eval"))  # the log a viewer opens, in the tmp log dir


def test_writes_stay_in_their_sample(played, b2b_org):
    right = played["episodes"][played["right"]].spec.instance
    wrong_sample = _sample(played, played["wrong"])
    assert _sample(played, played["right"]).metadata["record"]["state"]["OwnerId"] == right.answer[0]
    peek = next(m for m in wrong_sample.messages if m.role == "tool" and "OwnerId" in m.text)
    with OrgSession(b2b_org) as session:
        stored = session.soql(f"SELECT OwnerId FROM Case WHERE Id = '{right.params['record_id']}'")["records"][0]
    assert stored["OwnerId"] != right.answer[0]  # the org file is unchanged
    assert json.loads(peek.text)["records"][0]["OwnerId"] == stored["OwnerId"]  # the later sample saw no write


@pytest.mark.slow
def test_inspect_eval_command_finds_the_task(tmp_path, org_cache, fake_openai):
    """`inspect eval crmarena_sim/crmarena` itself, through the entry point setup.cfg installs (Inspect
    names the task after the installed package, so the package is not put on PYTHONPATH by hand),
    against a scripted OpenAI-compatible server."""
    from importlib.metadata import entry_points

    from tests.fake_openai import fake_key, reply

    assert [e.value for e in entry_points(group="inspect_ai", name="crmarena_sim")] == ["crmarena_sim"]
    fake_openai.enqueue(*[reply("I cannot tell.")] * 20)
    env = {**os.environ, "FAKE_API_KEY": fake_key("inspect"), "FAKE_BASE_URL": fake_openai.base_url}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "crmarena_sim/crmarena",
            "-T",
            "tasks=case_routing",
            "-T",
            "n=1",
            "-T",
            "seed=7",
            "-T",
            "scale=0.2",
            "-T",
            "mode=full",
            "--model",
            "openai-api/fake/m",
            "--log-dir",
            str(tmp_path / "logs"),
            "--display",
            "plain",
        ],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "crm_scorer" in out.stdout and fake_openai.requests
    assert list((tmp_path / "logs").glob("*.eval"))


OFFLINE_COMMAND = "inspect eval crmarena_sim/crmarena --model mockllm/model --limit 5"  # README's, verbatim
NO_NETWORK = """import socket
_connect = socket.socket.connect
def _local_only(sock, address):
    if sock.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in ("127.0.0.1", "::1", "localhost"):
        raise OSError(f"network use: {address}")
    return _connect(sock, address)
socket.socket.connect = _local_only
"""


def _python_path(offline: Path) -> str:
    """PYTHONPATH for `inspect`: the offline guard, and this checkout only where the installed
    package is another one (a worktree). Where it is this checkout (`pip install -e .` here, as
    CI does), putting the checkout on the path too would show Inspect its build-time egg-info
    first, without pip's direct_url.json: Inspect would then not take the package for an editable
    install and would register the task as `crmarena`, not `crmarena_sim/crmarena`."""
    env = {**os.environ, "PYTHONPATH": str(offline)}
    where = subprocess.run(
        [sys.executable, "-c", "import simulator; print(simulator.__file__)"], env=env, capture_output=True, text=True
    ).stdout.strip()
    installed_here = where and Path(where).resolve().is_relative_to(ROOT)
    return os.pathsep.join([str(offline), *([] if installed_here else [str(ROOT)]), os.environ.get("PYTHONPATH", "")])


@pytest.mark.slow
def test_the_documented_mock_model_command_runs_offline(tmp_path):
    """README's `inspect eval ... --model mockllm/model` with no network (a connection refused, any
    proxy dead) and an empty tiktoken cache: mockllm's token estimates need no o200k_base download."""
    from inspect_ai.log import read_eval_log

    (tmp_path / "offline").mkdir()
    (tmp_path / "offline" / "sitecustomize.py").write_text(NO_NETWORK)
    dead = "http://127.0.0.1:9"
    env = {
        **os.environ,
        "PYTHONPATH": _python_path(tmp_path / "offline"),
        "CRMARENA_CACHE": str(tmp_path / "cache"),
        "TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken"),
        **dict.fromkeys(("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"), dead),
    }
    command = [str(Path(sys.executable).with_name("inspect")), *OFFLINE_COMMAND.split()[1:]]
    out = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tmp_path, timeout=180)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert OFFLINE_COMMAND in (ROOT / "README.md").read_text()
    [path] = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and len(log.samples) == 5, log.error
    for sample in log.samples:
        roles = [m.role for m in sample.messages]
        assert roles[0] == "system" and roles.count("user") >= 2 and roles.count("assistant") >= 2, roles
        assert sample.scores["crm_scorer"].value == 0.0  # (the mock's canned reply answers nothing)
        assert sample.metadata["record"]["termination"]["reason"]
    assert log.stats.model_usage["mockllm/model"].input_tokens > 0  # estimated, with the shipped encoding


def test_the_cli_does_not_import_inspect():
    code = (
        "import sys; from simulator.cli import main\ntry: main(['--help'])\nexcept SystemExit: pass\n"
        "print('inspect_ai' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip().endswith("False"), out.stdout + out.stderr


def test_bad_arguments_are_one_clear_error(org_cache):
    from simulator.inspect_task import crmarena_task
    from simulator.runs.config import ConfigError

    with pytest.raises(ConfigError, match="modes"):
        crmarena_task(mode="chatty", seed=7, scale=0.2)


def test_a_second_tool_call_in_one_step_is_refused_as_with_our_agent(tmp_path, org_paths):
    """One call per model step with every agent: a step's second call is an error result, not run."""
    from conftest import small_org_cache
    from inspect_ai.model import ChatCompletionChoice, ChatMessageAssistant
    from inspect_ai.tool import ToolCall

    from crmarena_sim import crmarena
    from simulator.agents.function_calling import ONE_CALL_NOTICE

    def agent(messages, tools, tool_choice, config) -> ModelOutput:
        if any(m.role == "tool" for m in messages):
            return _output(content="I could not find it.")
        calls = [
            ToolCall(id=f"c{i}", function="soql", arguments={"query": f"SELECT Id FROM User LIMIT {i}"}) for i in (1, 2)
        ]
        out = ModelOutput(
            model="mockllm/model",
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(content="", tool_calls=calls), stop_reason="tool_calls"
                )
            ],
        )
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    with small_org_cache(tmp_path, org_paths) as patch:
        patch.setenv("INSPECT_DISPLAY", "none")
        task = crmarena(tasks="knowledge_qa", n=1, mode="full", seed=7, scale=0.2)
        log = inspect_eval(
            task, model=get_model("mockllm/model", custom_outputs=agent), log_dir=str(tmp_path / "logs"), display="none"
        )[0]
    record = log.samples[0].metadata["record"]
    results = [m for m in record["messages"] if m["role"] == "tool"][:2]
    assert [m["is_error"] for m in results] == [False, True]
    assert ONE_CALL_NOTICE in results[1]["content"] and '"records"' in results[0]["content"]

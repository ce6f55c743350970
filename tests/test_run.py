"""`crmarena run`: config validation, and whole offline runs (oracle agent, scripted users)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from simulator.cli import main
from simulator.runs.config import ConfigError, load_config
from simulator.runs.transcript import read_records
from tests.fake_openai import fake_key

TOP_LEVEL_KEYS = {
    "schema_version",
    "episode_id",
    "run_id",
    "task",
    "org",
    "instance_id",
    "mode",
    "persona_id",
    "agent",
    "user",
    "termination",
    "messages",
    "events",
    "final_answer",
    "usage",
    "scores",
}


def _config(tmp_path: Path, **changes) -> Path:
    data = {
        "name": "t",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "knowledge_qa", "case_routing", "private_customer_information", "quote_approval"],
        "instances_per_task": 1,
        "modes": ["full", "concat", "sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "concurrency": 4,
        "out": str(tmp_path / "runs"),
    }
    data.update(changes)
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_default_config_is_the_offline_default():
    cfg = load_config()
    assert cfg.agent.kind == "oracle" and cfg.user.kind == "scripted" and cfg.tasks is None
    assert {o.type for o in cfg.orgs} == {"b2b", "b2c"} and set(cfg.modes) == {"full", "sharded"}


@pytest.mark.parametrize(
    "changes,key,words",
    [
        (dict(modes=["full", "loud"]), "modes", "'loud' is not one of"),
        (dict(colour="red"), "colour", "unknown key"),
        (dict(agent={"kind": "function_calling"}), "agent.model", "needs a model"),
        (dict(agent={"kind": "plugin"}), "agent.plugin", "module:Class"),
        (dict(agent={"kind": "wizard"}), "agent.kind", "'wizard' is not one of"),
        (dict(orgs=[{"type": "b2b", "scale": 0}]), "orgs[0].scale", "at least"),
        (dict(instances_per_task="two"), "instances_per_task", "must be an integer"),
        (dict(limits={"max_turns": 3}), "limits.max_turns", "unknown key"),
        (dict(agent={"kind": "remote"}), "agent.url", "needs url"),
        (dict(agent={"kind": "remote", "url": "ftp://host/agent"}), "agent.url", "http:// or https://"),
        (dict(agent={"kind": "remote", "url": "http://h", "model": "openai/gpt-4o"}), "agent.model", "takes no model"),
        (dict(agent={"kind": "oracle", "url": "http://h"}), "agent.url", "only a remote agent"),
        (dict(agent={"kind": "autogen"}), "agent.component", "an autogen agent needs component: FILE"),
        (dict(agent={"kind": "oracle", "component": "t.json"}), "agent.component", "only an autogen agent takes a"),
        (dict(agent={"kind": "react", "model": "openai/gpt-4o", "tools": "mcp"}), "agent.tools", "function_calling"),
        (
            dict(agent={"kind": "function_calling", "model": "openai/gpt-4o", "tools": "rest"}),
            "agent.tools",
            "not one of inprocess, mcp",
        ),
    ],
)
def test_bad_configs_name_file_key_and_problem(tmp_path, changes, key, words):
    path = _config(tmp_path, **changes)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.key == key and words in err.value.problem and str(err.value).startswith(str(path))


@pytest.mark.parametrize(
    "changes,words",
    [
        (dict(tasks=["handle_time", "nope"]), "unknown task type(s) nope"),
        (dict(agent={"kind": "plugin", "plugin": "no_such_module:Agent"}), "agent: cannot be made"),
        (dict(agent={"kind": "oracle", "options": {"x": 1}}), "takes no model and no options"),
        (
            dict(
                agent={
                    "kind": "remote",
                    "url": "http://127.0.0.1:9/a",
                    "options": {"headers_env": {"X-Key": "NO_SUCH_VAR"}},
                }
            ),
            "unset environment variable(s): NO_SUCH_VAR",
        ),
    ],
)
def test_run_setup_mistakes_stop_before_any_folder(tmp_path, capsys, org_cache, changes, words):
    assert main(["run", "--config", str(_config(tmp_path, **changes)), "-q"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()


def test_remote_and_mcp_agents_carry_their_settings_in_options_and_labels(tmp_path):
    cfg = load_config(
        _config(
            tmp_path,
            agent=[
                {"kind": "remote", "url": "http://user:pw@127.0.0.1:9000/agent/?key=1"},
                {"kind": "function_calling", "model": "openai/gpt-4o-mini", "tools": "mcp"},
                {"kind": "function_calling", "model": "openai/gpt-4o-mini"},
            ],
        )
    )
    remote, mcp, inprocess = cfg.agents
    assert remote.options == {"url": "http://user:pw@127.0.0.1:9000/agent/?key=1"}
    assert remote.name == "remote 127.0.0.1:9000/agent"  # no credentials, no query in labels
    assert mcp.options == {"tools": "mcp"} and mcp.name == "openai/gpt-4o-mini mcp"
    assert inprocess.options == {}  # the default adds nothing: existing ids stay as they were


def test_the_run_folder_keeps_no_remote_agent_secret(tmp_path):
    from simulator.runs.run import public_config

    key = "k" * 24
    cfg = load_config(
        _config(
            tmp_path,
            agent={
                "kind": "remote",
                "url": f"http://me:{key}@h:9/a?token={key}",
                "options": {"headers": {"X-Api-Key": key}, "timeout_s": 30},
            },
        )
    )
    saved = json.dumps(public_config(cfg))
    assert key not in saved
    assert public_config(cfg)["agent"]["options"] == {
        "url": "http://h:9/a",
        "headers": {"X-Api-Key": "[redacted]"},
        "timeout_s": 30,
    }


def test_cli_reports_config_errors_without_traceback(tmp_path, capsys):
    assert main(["run", "--config", str(_config(tmp_path, modes=["loud"]))]) == 2
    err = capsys.readouterr().err
    assert "modes" in err and "Traceback" not in err
    assert main(["run", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_offline_run_end_to_end(tmp_path, capsys, org_cache):
    assert main(["run", "--config", str(_config(tmp_path)), "-q"]) == 0
    out = capsys.readouterr().out
    folder = next((tmp_path / "runs").iterdir())
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 5 * 3  # 5 instances x 3 modes x 1 persona
    assert len({r["episode_id"] for r in records}) == len(records)
    assert json.loads((folder / "config.json").read_text())["name"] == "t"
    for rec in records:
        assert set(rec) >= TOP_LEVEL_KEYS
        assert rec["termination"]["reason"] == "user_done", (rec["task"], rec["mode"], rec["termination"])
        assert rec["scores"]["rules"]["success"] is True, (rec["task"], rec["mode"], rec["scores"])
        revealed = {s for e in rec["events"] if e["type"] == "reveal" for s in e["shards"]}
        assert revealed == {s["id"] for s in rec["instance"]["shards"]}
    sharded = [r for r in records if r["mode"] == "sharded"]
    assert all(sum(m["role"] == "user" for m in r["messages"]) > 2 for r in sharded)
    assert any(m.get("tool_calls") for r in records for m in r["messages"])
    routing = next(r for r in records if r["task"] == "case_routing")
    assert routing["state"]["OwnerId"] == routing["instance"]["answer"][0]
    assert "sharded" in out and "100%" in out


def _model_config(tmp_path: Path, base_url: str, **changes) -> Path:
    model = {
        "model": "fake-model",
        "base_url": base_url,
        "api_key_env": "FAKE_LLM_KEY",
        "retries": {"attempts": 2, "max_wait": 0.01},
    }
    return _config(
        tmp_path,
        agent={"kind": "function_calling", "model": model},
        tasks=["handle_time", "knowledge_qa"],
        modes=["full"],
        **changes,
    )


def test_provider_failures_end_episodes_as_infra_errors_and_the_run_goes_on(
    tmp_path, capsys, monkeypatch, org_cache, fake_openai
):
    from tests.fake_openai import error, fake_key

    key = fake_key("SECRET")
    monkeypatch.setenv("FAKE_LLM_KEY", key)
    fake_openai.responder = lambda body: error(500)
    assert main(["run", "--config", str(_model_config(tmp_path, fake_openai.base_url)), "-q"]) == 1  # all failed
    folder = next((tmp_path / "runs").iterdir())
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 2 and len(fake_openai.requests) == 4  # 2 episodes x 2 attempts
    for rec in records:
        assert rec["termination"]["reason"] == "infra_error" and "HTTP 500" in rec["termination"]["detail"]
        assert rec["scores"]["rules"]["scored"] is False and rec["scores"]["rules"]["success"] is None
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["by_termination"] == {"infra_error": 2}
    assert summary["counts"]["infra_errors"] == 2 and summary["counts"]["scored"] == 0
    assert summary["counts"]["infra_errors_by_model"] == {"fake-model": 2}
    assert "| fake-model | 2 |" in (folder / "report.md").read_text()  # per model on the report, too
    assert "<td>fake-model</td>" in (folder / "report.html").read_text()
    auth = [{k.lower(): v for k, v in h.items()}["authorization"] for h in fake_openai.headers]
    assert auth == [f"Bearer {key}"] * 4
    everything = "".join(p.read_text() for p in folder.iterdir()) + "".join(capsys.readouterr())
    assert "SECRET-0123456789" not in everything


def test_a_missing_key_stops_the_run_before_any_episode(tmp_path, capsys, monkeypatch, org_cache):
    monkeypatch.delenv("FAKE_LLM_KEY", raising=False)
    assert main(["run", "--config", str(_model_config(tmp_path, "http://127.0.0.1:9/v1")), "-q"]) == 2
    assert "FAKE_LLM_KEY" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def _offline_run(tmp_path: Path, **changes) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    assert main(["run", "--config", str(_config(tmp_path, **changes)), "-q"]) == 0
    return next((tmp_path / "runs").iterdir())


def test_score_and_report_rework_a_saved_run(tmp_path, capsys, org_cache):
    folder = _offline_run(tmp_path, tasks=["handle_time", "private_customer_information"], modes=["full", "sharded"])
    for name in ("report.md", "report.html", "transcripts.html", "summary.json"):
        assert (folder / name).is_file(), name
    transcripts = (folder / "transcripts.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["score", str(folder)]) == 0
    assert "4 episodes, 4 scored, 0 infra errors; success (strict): 100.0%" in capsys.readouterr().out
    scores = [json.loads(line) for line in (folder / "scores.jsonl").read_text().splitlines()]
    assert len(scores) == 4 and all({"rules", "compat", "turns"} <= set(s["scores"]) for s in scores)
    assert (folder / "transcripts.jsonl").read_bytes() == transcripts  # never rewritten
    assert main(["report", str(folder), "--mode", "compat"]) == 0
    assert json.loads((folder / "summary.json").read_text())["mode"] == "compat"
    assert "compat" in (folder / "report.md").read_text()
    assert main(["report", str(tmp_path)]) == 2
    assert "not a run folder" in capsys.readouterr().err


def test_score_with_a_judge_that_fails_closed(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    from tests.fake_openai import reply

    folder = _offline_run(tmp_path, tasks=["handle_time"], modes=["full", "sharded"])
    monkeypatch.setenv("JUDGE_KEY", fake_key("judge"))
    fake_openai.responder = lambda body: reply("I think it went fine, no JSON here.")
    judge = json.dumps(
        {
            "model": "judge",
            "base_url": fake_openai.base_url,
            "api_key_env": "JUDGE_KEY",
            "retries": {"attempts": 1, "max_wait": 0.01},
        }
    )
    assert main(["score", str(folder), "--judge", judge]) == 0
    verdicts = [json.loads(line)["scores"]["judge"] for line in (folder / "scores.jsonl").read_text().splitlines()]
    assert len(verdicts) == 2 and all(v["valid"] is False and v["success"] is False for v in verdicts)
    assert len(fake_openai.requests) == 4  # two attempts per episode, then fail closed
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["judge"]["n"] == 0  # invalid verdicts are never counted as agreement
    assert "sk-test-judge" not in "".join(p.read_text() for p in folder.iterdir() if p.is_file())
    assert main(["score", str(folder)]) == 0  # re-scoring without a judge keeps the paid-for verdicts
    kept = [json.loads(line)["scores"].get("judge") for line in (folder / "scores.jsonl").read_text().splitlines()]
    assert kept == verdicts
    assert main(["score", str(folder), "--judge", "nosuch/model"]) == 2
    assert "--judge" in capsys.readouterr().err


def test_a_refused_judge_stops_judging_at_once(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    from tests.fake_openai import error

    folder = _offline_run(tmp_path, modes=["full", "sharded"])  # 10 episodes, judged 8 at a time
    monkeypatch.setenv("JUDGE_KEY", fake_key("judge"))
    fake_openai.responder = lambda body: error(401, body='{"error": {"message": "Incorrect API key"}}')
    judge = json.dumps({"model": "judge", "base_url": fake_openai.base_url, "api_key_env": "JUDGE_KEY"})
    capsys.readouterr()
    assert main(["score", str(folder), "--judge", judge]) == 1
    err = capsys.readouterr().err
    assert "judging stopped: the judge model refused" in err and "HTTP 401" in err and "Traceback" not in err
    sent = len(fake_openai.requests)
    assert 1 <= sent <= 8  # those in flight when the first refusal came; none sent after it
    verdicts = [json.loads(line)["scores"]["judge"] for line in (folder / "scores.jsonl").read_text().splitlines()]
    assert len(verdicts) == 10 and not any(v["valid"] for v in verdicts)
    assert sum("not judged" in v["error"] for v in verdicts) == 10 - sent
    assert json.loads((folder / "summary.json").read_text())["counts"]["episodes"] == 10


def test_a_judge_provider_failure_leaves_the_run_unfinished_and_is_judged_again(
    tmp_path, capsys, monkeypatch, org_cache, fake_openai
):
    """A judge that answers 200 with an error body gives no verdict (never a failure of the agent),
    the run exits 1 saying so; the same command judges those episodes again, and a verdict once
    given is never paid for twice."""
    from tests.fake_openai import malformed, reply

    monkeypatch.setenv("JUDGE_KEY", fake_key("judge"))
    judge = {
        "model": "judge",
        "base_url": fake_openai.base_url,
        "api_key_env": "JUDGE_KEY",
        "retries": {"attempts": 1, "max_wait": 0.01},
    }
    fake_openai.responder = lambda body: malformed("error")
    config = _config(tmp_path, tasks=["handle_time"], modes=["full", "sharded"], judge={"model": judge})
    command = ["run", "--config", str(config), "-q"]
    assert main(command) == 1
    err = capsys.readouterr().err
    assert "2 of 2 episode(s) have no judge verdict" in err and "run the same command again" in err
    folder = next((tmp_path / "runs").iterdir())

    def verdicts():
        return [json.loads(line)["scores"]["judge"] for line in (folder / "scores.jsonl").read_text().splitlines()]

    assert all(v["infra_error"] and v["success"] is None for v in verdicts())
    fake_openai.responder = lambda body: reply("Fine, no JSON here.")  # judged (fails closed: the model's own fault)
    sent = len(fake_openai.requests)
    assert main(command) == 0
    assert len(fake_openai.requests) - sent == 4  # two verdict attempts for each of the two episodes
    judged = verdicts()
    assert all(v["valid"] is False and v["success"] is False and not v.get("infra_error") for v in judged)
    sent = len(fake_openai.requests)
    assert main(command) == 0 and main(["score", str(folder), "--judge", json.dumps(judge)]) == 0
    assert len(fake_openai.requests) == sent and verdicts() == judged  # reused, not judged again
    paced = json.dumps({**judge, "timeout": 5, "retries": {"attempts": 3}, "max_concurrency": 2, "rpm": 600})
    assert main(["score", str(folder), "--judge", paced]) == 0
    assert len(fake_openai.requests) == sent  # how calls are paced or retried does not change a verdict
    monkeypatch.setattr(fake_openai, "responder", lambda body: reply("Still no JSON."))
    other = json.dumps({**judge, "model": "another-judge"})
    assert main(["score", str(folder), "--judge", other]) == 0
    assert len(fake_openai.requests) - sent == 4  # another judge model judges anew


def test_worker_processes_play_the_same_episodes(tmp_path, org_cache):
    one = _offline_run(tmp_path / "one", tasks=["handle_time", "case_routing"], modes=["full", "sharded"])
    two = _offline_run(tmp_path / "two", tasks=["handle_time", "case_routing"], modes=["full", "sharded"], workers=2)

    def outcomes(folder):
        return sorted(
            (r["episode_id"], r["termination"]["reason"], r["final_answer"], r["scores"]["rules"]["success"])
            for r in read_records(folder / "transcripts.jsonl")
        )

    assert outcomes(one) == outcomes(two) and len(outcomes(two)) == 4


@pytest.mark.skipif(sys.platform != "linux", reason="a patched module reaches forked workers only")
def test_worker_processes_score_their_own_episodes(tmp_path, org_cache, monkeypatch):
    """The run hands the executor its scoring (simulator.runs.run.finish_record): each record is scored
    in the worker process that played it, never in the run's own process."""
    import os

    import simulator.runs.run

    real = simulator.runs.run.finish_record

    def finish(data, org, **kwargs):
        data = real(data, org, **kwargs)
        data["scores"]["scored_by"] = {"pid": os.getpid()}  # (a record holds no key its model lacks)
        return data

    monkeypatch.setattr(simulator.runs.run, "finish_record", finish)
    folder = _offline_run(tmp_path, tasks=["handle_time", "case_routing"], modes=["full", "sharded"], workers=2)
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 4 and all(r["scores"]["rules"]["success"] for r in records)
    scorers = {r["scores"]["scored_by"]["pid"] for r in records}
    assert scorers and os.getpid() not in scorers


SLOW_AGENT = '''
import asyncio
from simulator.agents.oracle import OracleAgent


class SlowOracle(OracleAgent):
    """The oracle, 40 ms slower per turn: a run long enough to be killed half-way."""

    def __init__(self):
        super().__init__()

    async def respond(self, user_message, turn):
        await asyncio.sleep(0.04)
        return await super().respond(user_message, turn)
'''


@pytest.mark.slow
def test_a_killed_run_resumes_with_every_episode_exactly_once(tmp_path, org_cache):
    import os
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "slow_agent.py").write_text(SLOW_AGENT)
    config = _config(
        tmp_path,
        agent={"kind": "calibration", "plugin": "slow_agent:SlowOracle"},
        concurrency=2,
        tasks=[
            "handle_time",
            "knowledge_qa",
            "case_routing",
            "quote_approval",
            "lead_routing",
            "private_customer_information",
        ],
        instances_per_task=2,
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "simulator.cli", "run", "--config", str(config), "-q"]
    transcripts = tmp_path / "runs" / "t" / "transcripts.jsonl"
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not transcripts.exists() or transcripts.read_text().count("\n") < 8):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    before = transcripts.read_text().count("\n")
    assert 8 <= before < 36, before  # killed half-way (36 episodes in all)
    with transcripts.open("a") as fh:  # a line torn by the kill
        fh.write('{"episode_id": "torn')
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{before} of 36 episodes already done" in done.stderr
    ids = [r["episode_id"] for r in read_records(transcripts)]
    assert len(ids) == 36 and len(set(ids)) == 36
    assert json.loads((transcripts.parent / "summary.json").read_text())["counts"]["episodes"] == 36


def test_retry_failed_reruns_only_infra_errors(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    from tests.fake_openai import error, reply

    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("retry"))
    fake_openai.responder = lambda body: error(500)
    config = _model_config(tmp_path, fake_openai.base_url)
    assert main(["run", "--config", str(config), "-q"]) == 1
    folder = tmp_path / "runs" / "t"
    assert [r["termination"]["reason"] for r in read_records(folder / "transcripts.jsonl")] == ["infra_error"] * 2
    assert main(["run", "--config", str(config), "-q"]) == 1  # resuming: nothing left to run, still failed
    assert len(list(read_records(folder / "transcripts.jsonl"))) == 2
    fake_openai.responder = lambda body: reply("I could not find it.")
    assert main(["run", "--config", str(config), "-q", "--retry-failed"]) == 0
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 4 and all(r["termination"]["reason"] != "infra_error" for r in records[2:])
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["counts"]["episodes"] == 2 and summary["counts"]["infra_errors"] == 0
    # issue 32 (6): every reader counts what the summary counts, the retried episode once
    from simulator.runs.analysis import export, load_run

    episodes, turns = load_run(folder)
    assert len(episodes) == 2 and set(episodes["termination"]) == {r["termination"]["reason"] for r in records[2:]}
    assert set(turns["episode_id"]) == set(episodes["episode_id"])
    export(folder, "csv")
    assert len(load_run(folder)[0]) == 2


def test_export_into_a_run_folder_another_run_holds_fails_in_one_line(tmp_path, capsys, org_cache):
    from simulator.runs.run import RunFolderLock

    config = _config(tmp_path, tasks=["handle_time"], modes=["full"])
    assert main(["run", "--config", str(config), "-q"]) == 0
    folder = tmp_path / "runs" / "t"
    capsys.readouterr()
    lock = RunFolderLock(folder).acquire()
    try:
        assert main(["export", str(folder), "--format", "csv"]) == 2
        assert main(["export", str(folder), "--format", "csv", "--out", str(tmp_path / "elsewhere")]) == 0
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "crmarena: error:" in err and "export with --out elsewhere" in err
    assert not (folder / "episodes.csv").exists()
    assert (tmp_path / "elsewhere" / "episodes.csv").is_file()


def test_dry_run_counts_cells_and_what_is_done(tmp_path, capsys, org_cache):
    config = _config(tmp_path, tasks=["handle_time", "knowledge_qa"], modes=["full", "sharded"])
    assert main(["run", "--config", str(config), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "4 episodes, 0 already in" in out and not (tmp_path / "runs" / "t").exists()
    assert main(["run", "--config", str(config), "-q"]) == 0
    capsys.readouterr()
    assert main(["run", "--config", str(config), "--dry-run"]) == 0
    assert "4 episodes, 4 already in" in capsys.readouterr().out


def test_a_run_folder_refuses_another_config(tmp_path, capsys, org_cache):
    assert main(["run", "--config", str(_config(tmp_path, modes=["full"])), "-q"]) == 0
    assert main(["run", "--config", str(_config(tmp_path, modes=["sharded"])), "-q"]) == 2
    assert "holds a run of another config (it differs in modes)" in capsys.readouterr().err
    assert main(["run", "--config", str(_config(tmp_path, modes=["sharded"])), "-q", "--fresh"]) == 0
    assert len(list((tmp_path / "runs").iterdir())) == 2

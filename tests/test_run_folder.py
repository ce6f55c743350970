"""The run folder: one writer at a time (an OS file lock), a name that stays inside `out`, and an
exit status that says whether every planned episode was played without infra errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.runs.config import ConfigError, load_config
from simulator.runs.transcript import read_records
from tests.test_run import _config, _model_config

SLOW_AGENT = '''
import asyncio
from simulator.agents.oracle import OracleAgent


class SlowOracle(OracleAgent):
    """The oracle, 0.3 s slower per turn: a run still going while a second one starts."""

    async def respond(self, user_message, turn):
        await asyncio.sleep(0.3)
        return await super().respond(user_message, turn)
'''

HOLD_LOCK = """
import sys, time
from pathlib import Path
from simulator.runs.run import RunFolderLock
RunFolderLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(120)
"""


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.slow
def test_a_second_run_on_a_busy_folder_exits_2_at_once_and_writes_nothing(tmp_path, capsys, org_cache):
    (tmp_path / "slow_agent.py").write_text(SLOW_AGENT)
    config = _config(
        tmp_path, agent={"kind": "calibration", "plugin": "slow_agent:SlowOracle"}, modes=["full"], concurrency=1
    )  # 5 episodes, one at a time
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    folder = tmp_path / "runs" / "t"
    first = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "run", "--config", str(config), "-q"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _lines(folder / "transcripts.jsonl") < 1:
            time.sleep(0.05)
        assert first.poll() is None, "the first run ended before the second started"
        written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.name != "transcripts.jsonl"}
        sys.path.insert(0, str(tmp_path))
        started = time.monotonic()
        try:
            assert main(["run", "--config", str(config), "-q"]) == 2
        finally:
            sys.path.remove(str(tmp_path))
        assert time.monotonic() - started < 10  # at once, never waiting for the lock
        assert first.poll() is None  # the first was still at work: the second played nothing
        err = capsys.readouterr().err
        assert f"{folder} is in use by another crmarena run (pid {first.pid}" in err and "started " in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.name != "transcripts.jsonl"} == written
    finally:
        _, first_err = first.communicate(timeout=120)
    assert first.returncode == 0, first_err
    ids = [r["episode_id"] for r in read_records(folder / "transcripts.jsonl")]
    assert len(ids) == 5 and len(set(ids)) == 5  # every episode played once, by the first run alone


def test_the_lock_dies_with_its_holder_and_a_dry_run_needs_none(tmp_path, capsys, org_cache):
    config = _config(tmp_path, tasks=["handle_time"], modes=["full"])
    folder = tmp_path / "runs" / "t"
    folder.mkdir(parents=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert main(["run", "--config", str(config), "-q"]) == 2
        assert f"(pid {holder.pid}" in capsys.readouterr().err
        assert not (folder / "transcripts.jsonl").exists() and not (folder / "config.json").exists()
        assert main(["run", "--config", str(config), "--dry-run"]) == 0  # reads, plays nothing: no lock
        assert "1 episodes, 0 already in" in capsys.readouterr().out
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert main(["run", "--config", str(config), "-q"]) == 0  # the OS released the dead holder's lock
    assert len(list(read_records(folder / "transcripts.jsonl"))) == 1


@pytest.mark.parametrize("name", ["../../x", "/tmp/abs", "a/b", "a\\b", "..", ".", "", "two words", "t\n"])
def test_a_run_name_that_is_not_a_plain_folder_name_is_refused(tmp_path, name):
    with pytest.raises(ConfigError) as err:
        load_config(_config(tmp_path, name=name))
    assert err.value.key == "name" and "A-Za-z0-9._-" in err.value.problem


def test_a_run_name_cannot_escape_out(tmp_path, capsys, org_cache):
    out = tmp_path / "a" / "b" / "runs"
    config = _config(tmp_path, name="../../x", out=str(out), tasks=["handle_time"], modes=["full"])
    assert main(["run", "--config", str(config), "-q"]) == 2
    assert "name" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
    assert load_config(_config(tmp_path, name="run-1.v2_x")).name == "run-1.v2_x"


def test_a_run_whose_episodes_all_end_in_infra_error_exits_1(tmp_path, capsys, monkeypatch, org_cache, fake_openai):
    from tests.fake_openai import error, reply

    monkeypatch.setenv("FAKE_LLM_KEY", "sk-test-exit-00000000")
    fake_openai.responder = lambda body: error(500)
    config = _model_config(tmp_path, fake_openai.base_url)  # 2 episodes
    assert main(["run", "--config", str(config), "-q"]) == 1
    err = capsys.readouterr().err
    assert "2 of 2 episode(s) ended in infra_error" in err and "--retry-failed" in err
    assert main(["run", "--config", str(config), "-q"]) == 1  # a resume plays nothing, and they still failed
    assert "2 of 2 episode(s) ended in infra_error" in capsys.readouterr().err
    fake_openai.responder = lambda body: reply("I could not find it.")
    assert main(["run", "--config", str(config), "-q", "--retry-failed"]) == 0
    assert "infra_error" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["score", "report"])
def test_score_and_report_wait_for_no_run_and_write_nothing_while_one_holds_the_folder(
    tmp_path, capsys, org_cache, command
):
    config = _config(tmp_path, tasks=["handle_time"], modes=["full"])
    folder = tmp_path / "runs" / "t"
    assert main(["run", "--config", str(config), "-q"]) == 0
    capsys.readouterr()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"  # as a `crmarena run` still writing would
        written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
        started = time.monotonic()
        assert main([command, str(folder)]) == 2
        assert time.monotonic() - started < 10  # at once, never waiting for the lock
        err = capsys.readouterr().err
        assert f"{folder} is in use by another crmarena run (pid {holder.pid}" in err
        assert "wait for it to end" in err and "--fresh" not in err  # (no such option here)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == written  # scores, summary, report untouched
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert main([command, str(folder)]) == 0  # once the run is gone


# ---------------------------------------------------------------- files that are not regular files (issue 32 item 7)


def _not_a_file(path: Path, kind: str, outside: Path) -> None:
    """Put something that is not a regular file at `path`."""
    import socket

    if kind == "symlink-out":
        os.symlink(outside, path)
    elif kind == "dangling-symlink":
        os.symlink(outside.with_name("made-by-a-resume.jsonl"), path)
    elif kind == "symlink-in":  # to a file inside the run folder: still not followed
        path.with_name("elsewhere.jsonl").write_bytes(outside.read_bytes())
        os.symlink(path.with_name("elsewhere.jsonl"), path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()


KINDS = ["symlink-out", "dangling-symlink", "symlink-in", "folder", "fifo", "socket"]
KIND_WORDS = {
    "symlink-out": "symbolic link",
    "dangling-symlink": "symbolic link",
    "symlink-in": "symbolic link",
    "folder": "folder",
    "fifo": "named pipe",
    "socket": "socket",
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_resume_onto_a_transcripts_file_that_is_not_a_file_is_one_line(tmp_path, capsys, org_cache, kind):
    config = _config(tmp_path, tasks=["knowledge_qa"], modes=["full"], concurrency=1)
    assert main(["run", "--config", str(config), "-q"]) == 0
    folder = tmp_path / "runs" / "t"
    transcripts = folder / "transcripts.jsonl"
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes(transcripts.read_bytes())
    before = outside.read_bytes()
    transcripts.unlink()
    _not_a_file(transcripts, kind, outside)
    capsys.readouterr()
    code = main(["run", "--config", str(config), "-q"])
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("crmarena: error:")]
    assert code == 2 and "Traceback" not in err, err
    assert str(transcripts) in line and KIND_WORDS[kind] in line, err
    assert outside.read_bytes() == before and not (tmp_path / "made-by-a-resume.jsonl").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_readers_of_a_run_folder_name_what_is_not_a_file(tmp_path, kind):
    from simulator.infra.files import DamagedFileError, LineAppender, json_lines, read_json

    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"a": 1}\n')
    path = tmp_path / "run" / "x.jsonl"
    path.parent.mkdir()
    _not_a_file(path, kind, outside)
    for action in (lambda: list(json_lines(path)), lambda: read_json(path, fix="-"), lambda: LineAppender(path)):
        started = time.monotonic()
        with pytest.raises(DamagedFileError, match=KIND_WORDS[kind]) as err:
            action()
        assert time.monotonic() - started < 2 and str(path) in str(err.value)  # (a FIFO never blocks)
    assert outside.read_text() == '{"a": 1}\n'

"""A user's mistakes (issue 11, hardening after review): a bad base_url, more instances than an
org can supply, a folder where a file belongs, an over-long run name, a transcript or task line
of the wrong shape, an empty task file, a component config without a key. Each gets one clear
line and exit 2, never a traceback or a failure blamed on the agent."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from simulator.cli import main
from tests.fake_openai import error, reply
from tests.test_run import _config

SMALL = {"tasks": ["handle_time", "knowledge_qa"], "modes": ["full"]}  # 2 episodes


def _cli(capsys, *argv: str) -> tuple[int, str]:
    """The exit status of a command, and what it printed (stdout and stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def _one_clear_line(text: str) -> str:
    """The error line of a command's output (asserting there is no traceback)."""
    assert "Traceback" not in text, text
    errors = [line for line in text.splitlines() if line.startswith("crmarena: error:")]
    assert len(errors) == 1, text
    return errors[0]


def _run(tmp_path: Path, capsys, *extra: str, **changes) -> tuple[int, str]:
    return _cli(capsys, "run", "--config", str(_config(tmp_path, **{**SMALL, **changes})), "-q", *extra)


# --- 1. base_url ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, problem",
    [
        ("http://127.0.0.1:99999/v1", "cannot be parsed (Port out of range"),
        ("http://[zz]/v1", "cannot be parsed"),
        ("http://u:p@[::1/v1", "cannot be parsed"),
        ("notaurl", "does not start with http:// or https://"),
        ("ftp://x", "does not start with http:// or https://"),
        ("http:///v1", "names no host"),
    ],
)
@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "run"])
def test_a_bad_base_url_is_a_config_error(tmp_path, capsys, org_cache, url, problem, dry_run):
    agent = {"kind": "function_calling", "model": {"model": "m", "base_url": url}}
    code, out = _run(tmp_path, capsys, *(["--dry-run"] if dry_run else []), agent=agent)
    assert code == 2
    line = _one_clear_line(out)
    assert "agent.model: base_url " + problem in line and "u:p" not in line
    assert not (tmp_path / "runs" / "t" / "transcripts.jsonl").exists()


def test_a_component_config_with_a_bad_base_url_is_a_config_error(tmp_path, capsys, org_cache):
    model = {"provider": "OpenAIChatCompletionClient", "config": {"model": "gpt-4o-mini", "base_url": "ftp://x"}}
    code, out = _run(tmp_path, capsys, agent={"kind": "function_calling", "model": model})
    assert code == 2 and "agent.model.config: base_url does not start with http" in _one_clear_line(out)


def test_a_component_config_without_a_key_is_a_config_error(tmp_path, capsys, org_cache, monkeypatch, fake_openai):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = {
        "provider": "OpenAIChatCompletionClient",
        "config": {"model": "gpt-4o-mini", "base_url": fake_openai.base_url},
    }
    code, out = _run(tmp_path, capsys, agent={"kind": "function_calling", "model": model})
    assert code == 2
    line = _one_clear_line(out)
    assert "agent.model: cannot build" in line and "api_key_env" in line


# --- 4. Retry-After as an HTTP date ---------------------------------------------------------


@pytest.mark.slow
def test_a_retry_after_http_date_is_honoured(fake_openai, tmp_path, monkeypatch):
    from autogen_core.models import UserMessage

    from simulator.models.clients import build_client, parse_model_spec

    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path))  # a rate-limit bucket of its own
    when = datetime.now(UTC) + timedelta(seconds=4)
    fake_openai.enqueue(error(429, retry_after=format_datetime(when, usegmt=True)), reply("ok"))
    client = build_client(
        parse_model_spec(
            {"model": "dated", "base_url": fake_openai.base_url, "retries": {"attempts": 2, "max_wait": 30}}, "test"
        )
    )
    started = time.monotonic()
    result = asyncio.run(client.create([UserMessage(content="hi", source="user")]))
    assert result.content == "ok"
    assert time.monotonic() - started >= 2.0  # the date is 3-4 s away (whole seconds); backoff alone is < 1 s


# --- 2. more instances than the org can supply ----------------------------------------------


@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "run"])
def test_more_instances_than_the_org_supplies_is_one_line_at_once(tmp_path, capsys, org_cache, dry_run):
    started = time.monotonic()
    code, out = _run(
        tmp_path, capsys, *(["--dry-run"] if dry_run else []), tasks=["activity_priority"], instances_per_task=3000
    )
    assert code == 2
    line = _one_clear_line(out)
    assert "activity_priority: this b2b org supplies only" in line and "of the 3000 instances" in line
    assert "instances_per_task" in line and len(line) < 300
    assert time.monotonic() - started < 60  # (200 draws per instance asked for: minutes before)


# --- 3. a folder where a file belongs, a long name, lines of the wrong shape, an empty task file


@pytest.fixture
def tasks_file(tmp_path, org_paths, capsys) -> Path:
    """A task file of two instances drawn from the small b2b org."""
    path = tmp_path / "tasks.jsonl"
    assert (
        main(
            [
                "tasks",
                "generate",
                "--org",
                str(org_paths["b2b"]),
                "--per-type",
                "1",
                "--types",
                "handle_time,knowledge_qa",
                "--out",
                str(path),
                "-q",
            ]
        )
        == 0
    )
    capsys.readouterr()
    return path


def test_tasks_generate_into_a_folder_is_refused_and_writes_nothing(tmp_path, capsys, org_paths):
    folder = tmp_path / "out"
    folder.mkdir()
    code, out = _cli(
        capsys,
        "tasks",
        "generate",
        "--org",
        str(org_paths["b2b"]),
        "--per-type",
        "1",
        "--types",
        "handle_time",
        "--out",
        str(folder),
        "-q",
    )
    assert code == 2 and f"--out {folder} is a folder" in _one_clear_line(out)
    assert list(tmp_path.iterdir()) == [folder] and not list(folder.iterdir())


def test_write_atomic_to_a_folder_leaves_no_temp_file_beside_it(tmp_path):
    from simulator.infra.files import NotARegularFile, write_atomic

    (tmp_path / "target").mkdir()
    with pytest.raises(NotARegularFile, match="is a folder, not a regular file"):
        write_atomic(tmp_path / "target", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["target"]  # no .target.<pid>.tmp in the folder above


def test_a_run_name_too_long_for_a_file_system_is_a_config_error(tmp_path, capsys, org_cache):
    code, out = _run(tmp_path, capsys, name="x" * 300)
    assert code == 2 and "name: is 300 characters long; use at most 100" in _one_clear_line(out)
    assert _run(tmp_path, capsys, name="x" * 100)[0] == 0


def test_a_run_lock_that_is_a_folder_is_named(tmp_path, capsys, org_cache):
    lock = tmp_path / "runs" / "t" / "run.lock"
    lock.mkdir(parents=True)
    code, out = _run(tmp_path, capsys)
    assert code == 2 and f"{lock} cannot be the run folder's lock file" in _one_clear_line(out)
    lock.rmdir()  # the repair the message names
    assert _run(tmp_path, capsys)[0] == 0


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"usage": 5}, "usage: Input should be a valid dictionary (got '5')"),
        ({"usage": {"agent": "lots"}}, "usage.agent: Input should be a valid dictionary or instance of Usage"),
        (
            {"mode": "loud"},
            "mode: Input should be 'full', 'concat', 'sharded', 'recap', 'snowball' or 'plan' (got 'loud')",
        ),
        ({"termination": {"reason": "bored"}}, "termination.reason: Input should be 'user_done'"),
    ],
)
def test_a_transcript_line_of_the_wrong_shape_is_named_by_every_reader(tmp_path, capsys, org_cache, change, problem):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    transcripts = folder / "transcripts.jsonl"
    lines = transcripts.read_bytes().splitlines(keepends=True)
    bad = json.dumps({**json.loads(lines[1]), **change}).encode() + b"\n"
    transcripts.write_bytes(lines[0] + bad)
    for command in (["score", str(folder)], ["report", str(folder)]):
        code, out = _cli(capsys, *command)
        assert code == 2 and f"{transcripts}, line 2: not an episode record ({problem}" in _one_clear_line(out)
    code, out = _run(tmp_path, capsys)  # a resumed run sets the line aside and plays its episode again
    assert code == 0 and "1 damaged line(s) (line 2) moved to" in out
    assert (folder / "transcripts.rejected.jsonl").read_bytes() == bad


@pytest.mark.parametrize("field, value", [("answer", None), ("answer", [None]), ("shards", "one"), ("idx", "7")])
def test_a_task_line_of_the_wrong_shape_is_named(tasks_file, capsys, org_paths, field, value):
    lines = tasks_file.read_text().splitlines()
    lines[1] = json.dumps({**json.loads(lines[1]), field: value})
    tasks_file.write_text("\n".join(lines) + "\n")
    for command in ("validate", "show"):
        code, out = _cli(
            capsys,
            "tasks",
            command,
            *(["--org", str(org_paths["b2b"])] if command == "validate" else []),
            str(tasks_file),
            *(["x"] if command == "show" else []),
        )
        assert code == 2 and f"{tasks_file}, line 2: not a task instance ({field} must be" in _one_clear_line(out)


def test_a_task_file_without_instances_is_said_so(tmp_path, capsys, org_paths):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    for path in (empty, Path("/dev/null")):
        code, out = _cli(capsys, "tasks", "validate", "--org", str(org_paths["b2b"]), str(path))
        assert code == 2 and f"{path} holds no task instances" in _one_clear_line(out)

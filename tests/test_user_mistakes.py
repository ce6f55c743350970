"""A user's mistakes (issue 11, hardening after review): a bad base_url, more instances than an
org can supply, a folder where a file belongs, an over-long run name, a transcript or task line
of the wrong shape, an empty task file, a component config without a key. Each gets one clear
line and exit 2, never a traceback or a failure blamed on the agent."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime, timedelta, timezone
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

@pytest.mark.parametrize("url, problem", [
    ("http://127.0.0.1:99999/v1", "cannot be parsed (Port out of range"),
    ("http://[zz]/v1", "cannot be parsed"),
    ("http://u:p@[::1/v1", "cannot be parsed"),
    ("notaurl", "does not start with http:// or https://"),
    ("ftp://x", "does not start with http:// or https://"),
    ("http:///v1", "names no host"),
])
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
    model = {"provider": "OpenAIChatCompletionClient", "config": {"model": "gpt-4o-mini", "base_url": fake_openai.base_url}}
    code, out = _run(tmp_path, capsys, agent={"kind": "function_calling", "model": model})
    assert code == 2
    line = _one_clear_line(out)
    assert "agent.model: cannot build" in line and "api_key_env" in line


# --- 4. Retry-After as an HTTP date ---------------------------------------------------------

def test_a_retry_after_http_date_is_honoured(fake_openai, tmp_path, monkeypatch):
    from autogen_core.models import UserMessage
    from simulator.models import build_client, parse_model_spec
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path))  # a rate-limit bucket of its own
    when = datetime.now(timezone.utc) + timedelta(seconds=4)
    fake_openai.enqueue(error(429, retry_after=format_datetime(when, usegmt=True)), reply("ok"))
    client = build_client(parse_model_spec({"model": "dated", "base_url": fake_openai.base_url,
                                             "retries": {"attempts": 2, "max_wait": 30}}, "test"))
    started = time.monotonic()
    result = asyncio.run(client.create([UserMessage(content="hi", source="user")]))
    assert result.content == "ok"
    assert time.monotonic() - started >= 2.0  # the date is 3-4 s away (whole seconds); backoff alone is < 1 s



# --- 2. more instances than the org can supply ----------------------------------------------

@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "run"])
def test_more_instances_than_the_org_supplies_is_one_line_at_once(tmp_path, capsys, org_cache, dry_run):
    started = time.monotonic()
    code, out = _run(tmp_path, capsys, *(["--dry-run"] if dry_run else []), tasks=["activity_priority"],
                     instances_per_task=3000)
    assert code == 2
    line = _one_clear_line(out)
    assert "activity_priority: this b2b org supplies only" in line and "of the 3000 instances" in line
    assert "instances_per_task" in line and len(line) < 300
    assert time.monotonic() - started < 60  # (200 draws per instance asked for: minutes before)

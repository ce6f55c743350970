"""Disk full (issue 11): a write failing with ENOSPC stops the run with one clear line (exit 1, no
traceback) and leaves nothing half-written: an appended line cut short is cut back off, an atomic
write's temp file is removed; the same command then resumes cleanly.

ENOSPC is injected at the os calls (no root needed); where this runs as root, a tiny tmpfs gives
the real thing too."""

from __future__ import annotations

import errno
import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.infra import files
from simulator.infra.files import DiskFullError, LineAppender, write_atomic
from simulator.runs.transcript import read_records
from tests.test_run import _config

REAL_WRITE, REAL_FSYNC = os.write, os.fsync


def _target(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


def _full_after(monkeypatch, name: str, lines: int) -> None:
    """Writes to files named `name` fail with ENOSPC once `lines` lines are written, after half the
    next one is (what a filling disk does); every other write goes through."""
    written = {"lines": 0}

    def write(fd, data):
        if not _target(fd).endswith(name):
            return REAL_WRITE(fd, data)
        if written["lines"] >= lines:
            if len(data) > 1:
                return REAL_WRITE(fd, bytes(data[: len(data) // 2]))  # a short write: the caller writes the rest
            raise OSError(errno.ENOSPC, "No space left on device")
        written["lines"] += bytes(data).count(b"\n")
        return REAL_WRITE(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_an_append_that_fails_mid_line_is_cut_back_to_the_last_whole_line(tmp_path, monkeypatch):
    path = tmp_path / "log.jsonl"
    out = LineAppender(path)
    out.append('{"n": 1}')
    _full_after(monkeypatch, "log.jsonl", lines=0)
    with pytest.raises(DiskFullError, match=rf"no space left on the device while writing {path}: nothing was"):
        out.append('{"n": 2, "text": "' + "x" * 10_000 + '"}')
    assert path.read_bytes() == b'{"n": 1}\n'
    monkeypatch.undo()
    out.append('{"n": 3}')
    out.close()
    assert path.read_bytes() == b'{"n": 1}\n{"n": 3}\n'


def test_an_atomic_write_that_fails_keeps_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "summary.json"
    path.write_text("old")

    def fsync(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(DiskFullError, match=r"summary\.json"):
        write_atomic(path, ["new ", "text"])
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["summary.json"]


def test_other_write_errors_are_not_called_disk_full(tmp_path, monkeypatch):
    def fsync(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as caught:
        write_atomic(tmp_path / "x", "y")
    assert not isinstance(caught.value, DiskFullError) and os.listdir(tmp_path) == []


def _config_small(tmp_path: Path, **changes) -> Path:
    return _config(
        tmp_path, tasks=["handle_time", "knowledge_qa", "case_routing"], modes=["full"], concurrency=1, **changes
    )  # 3 episodes, one at a time


def _check_stopped_cleanly(code: int, err: str, path: Path) -> None:
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith(f"crmarena: error: no space left on the device while writing {path}"), err
    assert "Traceback" not in err
    assert not list(path.parent.glob(".*.tmp"))


def _resumes(config: Path, capsys, folder: Path, episodes: int) -> None:
    assert main(["run", "--config", str(config), "-q"]) == 0, capsys.readouterr().err
    ids = [r["episode_id"] for r in read_records(folder / "transcripts.jsonl")]
    assert len(ids) == len(set(ids)) == episodes
    assert json.loads((folder / "summary.json").read_text())["counts"]["episodes"] == episodes


def test_a_full_disk_while_appending_a_transcript_stops_the_run_cleanly(tmp_path, capsys, monkeypatch, org_cache):
    config, folder = _config_small(tmp_path), tmp_path / "runs" / "t"
    transcripts = folder / "transcripts.jsonl"
    _full_after(monkeypatch, "transcripts.jsonl", lines=1)
    code = main(["run", "--config", str(config), "-q"])
    _check_stopped_cleanly(code, capsys.readouterr().err, transcripts)
    data = transcripts.read_bytes()
    assert data.count(b"\n") == 1 and data.endswith(b"\n")  # the half-written second line is gone
    monkeypatch.undo()
    _resumes(config, capsys, folder, 3)


def test_a_full_disk_while_writing_the_summary_stops_the_run_cleanly(tmp_path, capsys, monkeypatch, org_cache):
    config, folder = _config_small(tmp_path), tmp_path / "runs" / "t"

    def fsync(fd):
        if ".summary.json." in _target(fd):
            raise OSError(errno.ENOSPC, "No space left on device")
        return REAL_FSYNC(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    code = main(["run", "--config", str(config), "-q"])
    _check_stopped_cleanly(code, capsys.readouterr().err, folder / "summary.json")
    assert not (folder / "summary.json").exists()
    monkeypatch.undo()
    _resumes(config, capsys, folder, 3)


def test_a_full_disk_while_building_an_org_leaves_no_partial_file(tmp_path, monkeypatch):
    import sqlite3

    from simulator.crm import store
    from simulator.crm.generator import build_org

    def full(*_):
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL
        raise exc

    monkeypatch.setattr(store, "create_indexes", full)
    out = tmp_path / "org.db"
    with pytest.raises(DiskFullError, match=str(out)):
        build_org("b2b", out, seed=7, scale=0.05)
    assert os.listdir(tmp_path) == []


def _fsyncs(monkeypatch) -> list[str]:
    """What is fsynced from now on (paths; a folder is fsynced for the entries renamed into it)."""
    synced = []

    def fsync(fd):
        synced.append(_target(fd))
        return REAL_FSYNC(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_an_atomic_write_fsyncs_the_folder_after_the_rename(tmp_path, monkeypatch):
    synced = _fsyncs(monkeypatch)
    write_atomic(tmp_path / "summary.json", "{}")
    assert synced[-1] == str(tmp_path) and synced[0].endswith(".tmp")  # the file, then the folder's new entry


def test_an_org_build_is_published_like_every_atomic_write(tmp_path, monkeypatch):
    from simulator.crm.generator import build_org

    published = []
    real = files.replacing

    def replacing(path):
        published.append(Path(path))
        return real(path)

    monkeypatch.setattr(files, "replacing", replacing)
    synced = _fsyncs(monkeypatch)
    build_org("b2b", tmp_path / "org.db", seed=7, scale=0.05)
    assert published == [tmp_path / "org.db"] and synced[-1] == str(tmp_path)
    assert os.listdir(tmp_path) == ["org.db"]


# --- a full disk under the response cache ------------------------------------------------------


class _FullOnInsert:
    """A cache connection whose writes fail as SQLite's do on a full disk (`code`); reads go through."""

    def __init__(self, conn, code: int):
        self.conn, self.code = conn, code

    def execute(self, sql, *args):
        if sql.startswith("INSERT"):
            import sqlite3

            exc = sqlite3.OperationalError("database or disk is full")
            exc.sqlite_errorcode = self.code
            raise exc
        return self.conn.execute(sql, *args)

    def close(self):
        self.conn.close()


def _cache_full(monkeypatch, code: int) -> None:
    from simulator.models.cache import ResponseCache

    real = ResponseCache.__init__

    def init(self, path):
        real(self, path)
        self._conn = _FullOnInsert(self._conn, code)

    monkeypatch.setattr(ResponseCache, "__init__", init)


@pytest.mark.parametrize("code, problem", [(13, "no space left on the device"), (778, "SQLite: database or disk")])
def test_the_caches_full_disk_and_io_errors_are_disk_full(tmp_path, monkeypatch, code, problem):
    from simulator.models.cache import ResponseCache

    _cache_full(monkeypatch, code)  # 13: SQLITE_FULL; 778: SQLITE_IOERR_WRITE
    cache = ResponseCache(tmp_path / "c.sqlite")
    with pytest.raises(DiskFullError, match=f"{problem}.* while writing {tmp_path / 'c.sqlite'}"):
        cache.put_text("k", "reply")
    assert cache.get_text("k") is None
    cache.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_full_disk_under_the_response_cache_stops_the_run_and_is_no_agent_error(
    tmp_path, capsys, monkeypatch, org_cache, fake_openai, workers
):
    """In one process or in forked workers alike: the worker's DiskFullError is the parent's."""
    import yaml

    from tests.fake_openai import fake_key, never_the_same
    from tests.test_run import _model_config

    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("cache-full"))
    fake_openai.responder = never_the_same()
    config = _model_config(tmp_path, fake_openai.base_url, concurrency=workers, workers=workers)
    cache = tmp_path / "resp.sqlite"
    config.write_text(yaml.safe_dump({**yaml.safe_load(config.read_text()), "cache": str(cache)}))
    folder = tmp_path / "runs" / "t"
    _cache_full(monkeypatch, 13)
    code = main(["run", "--config", str(config), "-q"])
    err = capsys.readouterr().err
    _check_stopped_cleanly(code, err, cache)
    records = list(read_records(folder / "transcripts.jsonl")) if (folder / "transcripts.jsonl").exists() else []
    assert records == []  # no episode ended as the agent's failure (nor any other outcome)
    monkeypatch.undo()
    monkeypatch.setenv("FAKE_LLM_KEY", fake_key("cache-full"))
    _resumes(config, capsys, folder, 2)


# --- the real thing, on a tiny tmpfs (root only: CI needs none of it) ---------------------------


@pytest.fixture
def tiny_fs(tmp_path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(mount)], capture_output=True
        ).returncode
    ):
        pytest.skip("needs root to mount a tmpfs")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.parametrize("forked", [True, False])
def test_on_a_real_full_filesystem(tiny_fs, tmp_path, capsys, org_cache, monkeypatch, forked):
    """`forked`: the build's side phase in its own process, or in this one (as when another thread
    runs here): either way a failed build gives back all the space it took."""
    from simulator.crm.generator import apart, build_org

    if not forked:
        monkeypatch.setattr(apart, "can_fork", lambda: False)
    with pytest.raises(DiskFullError):  # SQLite's own "database or disk is full"
        build_org("b2b", tiny_fs / "org.db", seed=7, scale=0.05)
    assert os.listdir(tiny_fs) == []
    out = LineAppender(tiny_fs / "log.jsonl")
    with pytest.raises(DiskFullError):
        for n in range(100):
            out.append(json.dumps({"n": n, "text": "x" * 5000}))
    assert (tiny_fs / "log.jsonl").read_bytes().endswith(b"\n")
    assert all(json.loads(line) for line in (tiny_fs / "log.jsonl").read_bytes().splitlines())
    out.close()
    (tiny_fs / "log.jsonl").unlink()

    config, folder = _config_small(tmp_path, out=str(tiny_fs)), tiny_fs / "t"
    code = main(["run", "--config", str(config), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and "crmarena: error: no space left on the device while writing" in err and "Traceback" not in err
    assert not list(folder.glob(".*.tmp"))
    assert all(line.endswith(b"\n") for line in (folder / "transcripts.jsonl").read_bytes().splitlines(keepends=True))
    subprocess.run(["mount", "-o", "remount,size=8m", str(tiny_fs)], check=True)
    _resumes(config, capsys, folder, 3)


def test_a_transcript_line_is_redacted_of_the_runs_secrets(tmp_path):
    from simulator.infra.secrets import remember
    from simulator.runs.transcript import TranscriptWriter

    secret = "Zq8-" + os.urandom(12).hex()
    remember(secret)
    with gzip.open(Path(__file__).parent / "golden" / "all" / "transcripts.jsonl.gz", "rt") as fh:
        record = json.loads(fh.readline())
    record["messages"][0]["content"] = f"the provider said: bad key {secret}"
    with TranscriptWriter(tmp_path / "transcripts.jsonl") as writer:
        writer.append(record)
    text = (tmp_path / "transcripts.jsonl").read_text()
    assert secret not in text and "bad key [redacted]" in text and json.loads(text)


def test_a_cache_damaged_mid_run_stops_the_run_and_is_no_agent_error(
    tmp_path, capsys, monkeypatch, org_cache, fake_openai
):
    """A cache page that turns bad while a run reads it (SQLITE_CORRUPT) names the file and stops the
    run; no episode ends as the agent's failure (before: `agent_error: DamagedFileError`)."""
    import sqlite3

    import yaml

    from simulator.models.cache import ResponseCache
    from tests.fake_openai import never_the_same
    from tests.test_run import _model_config

    monkeypatch.setenv("FAKE_LLM_KEY", "sk-test-cache-bad-0000")
    fake_openai.responder = never_the_same()
    config = _model_config(tmp_path, fake_openai.base_url, concurrency=1)
    cache = tmp_path / "resp.sqlite"
    config.write_text(yaml.safe_dump({**yaml.safe_load(config.read_text()), "cache": str(cache)}))

    def damaged(self, key):
        with self._errors():
            exc = sqlite3.DatabaseError("database disk image is malformed")
            exc.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
            raise exc

    monkeypatch.setattr(ResponseCache, "get_text", damaged)
    code = main(["run", "--config", str(config), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and f"crmarena: error: {cache} is damaged" in err and "Traceback" not in err
    transcripts = tmp_path / "runs" / "t" / "transcripts.jsonl"
    assert not transcripts.exists() or list(read_records(transcripts)) == []

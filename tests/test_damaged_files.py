"""Damaged files (issue 11, item 4): each gets one clear line naming the file (and line) and the
repair, never a traceback or a wrong answer; a resumed run repairs what it can without losing a
good record."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.crm import store
from simulator.infra.files import DamagedFileError
from simulator.runs.transcript import read_records
from tests.test_run import _config

SMALL = {"tasks": ["handle_time", "knowledge_qa"], "modes": ["full"]}  # 2 episodes


def _run(tmp_path: Path, capsys, *extra: str, **changes) -> tuple[int, str]:
    """The exit status of a small run, and what it printed (stdout and stderr)."""
    code = main(["run", "--config", str(_config(tmp_path, **{**SMALL, **changes})), "-q", *extra])
    out, err = capsys.readouterr()
    return code, out + err


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Error:" not in err.replace("crmarena: error:", ""), err


# --- config.json ---------------------------------------------------------------------------


@pytest.mark.parametrize("damaged, what", [(b"", "empty"), (b"[1, 2]", "not a JSON object"), (b'{"na', "not JSON")])
def test_a_damaged_config_json_beside_records_stops_naming_the_file_and_the_fix(
    tmp_path, capsys, org_cache, damaged, what
):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    (folder / "config.json").write_bytes(damaged)  # b"": what a kill inside a non-atomic write left
    code, err = _run(tmp_path, capsys)
    assert code == 2
    assert f"{folder / 'config.json'} is damaged ({what}" in err and "delete config.json" in err
    _no_traceback(err)
    (folder / "config.json").unlink()  # the repair the message names
    code, err = _run(tmp_path, capsys)
    assert code == 0 and "2 of 2 episodes already done" in err
    assert json.loads((folder / "config.json").read_text())["name"] == "t"


def test_a_garbage_config_json_without_records_is_written_anew(tmp_path, capsys, org_cache):
    folder = tmp_path / "runs" / "t"
    folder.mkdir(parents=True)
    (folder / "config.json").write_bytes(b'{"name": "t", "tas')
    assert _run(tmp_path, capsys)[0] == 0
    assert json.loads((folder / "config.json").read_text())["name"] == "t"


def test_config_json_and_prompts_json_are_written_atomically(tmp_path, capsys, org_cache, monkeypatch):
    import simulator.runs.run as run

    written = []
    real = run.write_atomic
    monkeypatch.setattr(run, "write_atomic", lambda path, data: (written.append(Path(path).name), real(path, data)))
    assert _run(tmp_path, capsys)[0] == 0
    assert {"config.json", "prompts.json"} <= set(written)
    assert not list((tmp_path / "runs" / "t").glob(".*.tmp"))


def test_a_report_on_a_damaged_config_json_names_it(tmp_path, capsys, org_cache):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    (folder / "config.json").write_bytes(b"\x00\xff")
    assert main(["report", str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder / "config.json") in err and "delete it" in err
    _no_traceback(err)


# --- transcripts.jsonl and scores.jsonl ------------------------------------------------------

BAD_LINES = [b"garbage\n", b"{}\n", b"[1,2]\n", b'{"episode_id": "x", "mode": "full"}\n', b"\xff\xfe\n"]


def _damage(path: Path, line: bytes, at: int = 1) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:at] + [line] + lines[at:]))


@pytest.mark.parametrize("bad", BAD_LINES)
def test_every_reader_names_the_file_and_line_of_a_damaged_transcript_line(tmp_path, capsys, org_cache, bad):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    transcripts = folder / "transcripts.jsonl"
    _damage(transcripts, bad, at=1)
    with pytest.raises(DamagedFileError, match=r"transcripts.jsonl, line 2: .*delete that line"):
        list(read_records(transcripts))
    for command in (["report", str(folder)], ["score", str(folder)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{transcripts}, line 2: " in err and "transcripts.rejected.jsonl" in err
        _no_traceback(err)


@pytest.mark.parametrize("bad", BAD_LINES[:3])
def test_a_resumed_run_moves_damaged_lines_aside_and_keeps_every_good_record(tmp_path, capsys, org_cache, bad):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    transcripts = folder / "transcripts.jsonl"
    good = transcripts.read_bytes().splitlines(keepends=True)
    first = json.loads(good[0])["episode_id"]
    transcripts.write_bytes(bad + good[1] + good[0][:40] + b"\n")  # a bad line, a good one, a cut one
    code, err = _run(tmp_path, capsys)
    assert code == 0, err
    assert "2 damaged line(s) (line 1, 3) moved to" in err and "1 of 2 episodes already done" in err
    assert (folder / "transcripts.rejected.jsonl").read_bytes() == bad + good[0][:40] + b"\n"
    records = list(read_records(transcripts))
    assert transcripts.read_bytes().startswith(good[1])  # the good record is kept, byte for byte
    assert sorted(r["episode_id"] for r in records) == sorted(json.loads(g)["episode_id"] for g in good)
    assert records[-1]["episode_id"] == first  # played again


def test_a_dry_run_skips_damaged_lines_and_changes_nothing(tmp_path, capsys, org_cache):
    assert _run(tmp_path, capsys)[0] == 0
    transcripts = tmp_path / "runs" / "t" / "transcripts.jsonl"
    _damage(transcripts, b"[1,2]\n")
    before = transcripts.read_bytes()
    code, err = _run(tmp_path, capsys, "--dry-run")
    assert code == 0 and transcripts.read_bytes() == before and "2 episodes, 2 already in" in err


@pytest.mark.parametrize("bad", [b"garbage\n", b"[1,2]\n", b'{"episode_id": "x"}\n'])
def test_a_damaged_scores_line_is_named(tmp_path, capsys, org_cache, bad):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    assert main(["score", str(folder)]) == 0
    capsys.readouterr()
    _damage(folder / "scores.jsonl", bad, at=0)
    assert main(["report", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"{folder / 'scores.jsonl'}, line 1: " in err and "crmarena score" in err
    _no_traceback(err)


# --- org files -----------------------------------------------------------------------------


def _corrupt(src: Path, dst: Path) -> Path:
    """A copy of `src` with garbage over a few pages in its second half."""
    shutil.copy(src, dst)
    pages = dst.stat().st_size // 4096
    with dst.open("r+b") as fh:
        for i in range(3):
            fh.seek((pages * 7 // 10 + 5 * i) * 4096)
            fh.write(bytes(range(256)) * 16)
    return dst


def _corrupt_search(src: Path, dst: Path) -> Path:
    """A copy of `src` with garbage over the root page of the Case search index (wherever the
    layout puts it: a SOSL search over cases always reads it)."""
    shutil.copy(src, dst)
    conn = sqlite3.connect(dst)
    ((root,),) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (store.fts_table("Case") + "_data",))
    conn.close()
    with dst.open("r+b") as fh:
        fh.seek((root - 1) * 4096)
        fh.write(bytes(range(256)) * 16)
    return dst


def _edit(src: Path, dst: Path) -> Path:
    """A copy of `src` with one record changed (its recorded content hash left as it was)."""
    shutil.copy(src, dst)
    conn = sqlite3.connect(dst)
    conn.execute('UPDATE "Case" SET "Subject" = \'edited\' WHERE rowid = 1')
    conn.commit()
    conn.close()
    return dst


def _drop_case(src: Path, dst: Path) -> Path:
    """A copy of `src` without its Case table (and its SOSL index): SQLite's quick_check passes on it."""
    shutil.copy(src, dst)
    conn = sqlite3.connect(dst)
    conn.execute('DROP TABLE "_fts_Case"')
    conn.execute('DROP TABLE "Case"')
    conn.commit()
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    conn.close()
    return dst


@pytest.mark.parametrize("damage", [_corrupt, _drop_case])
@pytest.mark.parametrize(
    "command",
    [
        ["org", "stats", "{org}"],
        ["org", "describe", "{org}"],
        ["soql", "--org", "{org}", "SELECT Id FROM Case LIMIT 1"],
        ["sosl", "--org", "{org}", "FIND {{Arkline}} RETURNING Case(Id)"],
        ["tasks", "generate", "--org", "{org}", "--per-type", "1", "--out", "{tmp}/t.jsonl", "-q"],
    ],
)
def test_every_command_names_a_damaged_org_file(tmp_path, capsys, org_paths, command, damage):
    bad = damage(org_paths["b2b"], tmp_path / "bad.db")
    code = main([part.format(org=bad, tmp=tmp_path) for part in command])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # sosl never answers "0 found" from a damaged file
    assert f"{bad} is damaged" in err and "crmarena org build" in err
    _no_traceback(err)
    assert not (tmp_path / "t.jsonl").exists()


def _cached(org_cache: Path) -> Path:
    """The run's cached b2b org file (the fixture's symlink replaced by a copy the test may damage)."""
    return next((org_cache / "orgs").glob("b2b-*.db"))


@pytest.mark.parametrize("damage", [_corrupt, _edit, _drop_case])
def test_a_run_rebuilds_a_cached_org_that_fails_verification(tmp_path, capsys, org_cache, damage):
    link = _cached(org_cache)
    source = link.resolve()
    link.unlink()
    damage(source, link)
    code, err = _run(tmp_path, capsys)
    assert code == 0, err
    assert f"{link} " in err and "rebuilding the cached org" in err
    assert {_edit: "edited or damaged", _corrupt: "quick_check", _drop_case: "missing table(s) Case"}[damage] in err
    assert not link.is_symlink() and link.read_bytes() == source.read_bytes()  # the build is deterministic


def test_the_content_hash_is_checked_once_per_state_of_a_cached_file(tmp_path, capsys, org_cache, monkeypatch):
    """A run stamps a cached org whose hash matched; the next run skips the hash of that unchanged
    file, and an edit after the stamp (in place, its modification time set back) is still found."""
    link = _cached(org_cache)
    source = link.resolve()
    link.unlink()
    shutil.copy(source, link)
    hashed = []
    real_hash = store.content_hash
    monkeypatch.setattr(store, "content_hash", lambda *a, **k: hashed.append(1) or real_hash(*a, **k))
    assert _run(tmp_path, capsys)[0] == 0 and len(hashed) == 1
    assert Path(f"{link}.verified").exists()
    assert _run(tmp_path, capsys, name="u")[0] == 0 and len(hashed) == 1  # unchanged: not hashed again
    times = link.stat()
    conn = sqlite3.connect(link)
    conn.execute('UPDATE "Case" SET "Subject" = \'edited\' WHERE rowid = 1')
    conn.commit()
    conn.close()
    os.utime(link, ns=(times.st_atime_ns, times.st_mtime_ns))
    code, err = _run(tmp_path, capsys, name="v")
    assert code == 0 and "edited or damaged" in err and "rebuilding the cached org" in err
    assert link.read_bytes() == source.read_bytes()


def test_a_stamp_is_not_trusted_beside_a_write_ahead_log(tmp_path, org_paths, monkeypatch):
    """In WAL mode a writer that never checkpoints keeps its writes in the -wal file, where the org
    file's times do not show them: with a -wal file beside it the content is hashed (and no stamp
    written)."""
    from simulator.runs.run import verified_org

    path = tmp_path / "org.db"
    shutil.copy(org_paths["b2b"], path)
    hashed = []
    real_hash = store.content_hash
    monkeypatch.setattr(store, "content_hash", lambda *a, **k: hashed.append(1) or real_hash(*a, **k))
    verified_org(path)
    verified_org(path)
    assert len(hashed) == 1 and Path(f"{path}.verified").exists()
    Path(f"{path}-wal").write_bytes(b"")  # (an empty log: SQLite ignores it, the stamp must not)
    stamp = Path(f"{path}.verified").read_text()
    verified_org(path)
    assert len(hashed) == 2 and Path(f"{path}.verified").read_text() == stamp


def test_no_verify_org_skips_the_hash_check_but_not_the_integrity_check(tmp_path, capsys, org_cache):
    link = _cached(org_cache)
    source = link.resolve()
    link.unlink()
    _edit(source, link)
    code, err = _run(tmp_path, capsys, "--no-verify-org")
    assert code == 0 and "rebuilding" not in err
    _corrupt(source, link)
    code, err = _run(tmp_path, capsys, "--no-verify-org", name="u")
    assert code == 0 and "quick_check" in err and "rebuilding the cached org" in err
    link.unlink()
    _drop_case(source, link)
    code, err = _run(tmp_path, capsys, "--no-verify-org", name="v")
    assert code == 0 and f"{link} is damaged (missing table(s) Case" in err and "rebuilding the cached org" in err
    _no_traceback(err)


# --- configs and out -------------------------------------------------------------------------


def test_a_binary_config_is_one_clear_line(tmp_path, capsys):
    config = tmp_path / "run.yaml"
    config.write_bytes(b"name: t\n\xff\xfe\x00\x89PNG")
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{config}: (file): is not UTF-8 text" in err
    _no_traceback(err)


@pytest.mark.parametrize("out", ["file", "file/below"])
def test_an_out_that_is_a_file_is_one_clear_line(tmp_path, capsys, org_cache, out):
    (tmp_path / "file").write_text("not a folder")
    code, err = _run(tmp_path, capsys, out=str(tmp_path / out))
    assert code == 2 and f"cannot make the run folder {tmp_path / out / 't'}: {tmp_path / 'file'} is a file" in err
    assert "set `out` (or --out)" in err
    _no_traceback(err)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_out_is_one_clear_line(tmp_path, capsys, org_cache):
    (tmp_path / "ro").mkdir(mode=0o555)
    code, err = _run(tmp_path, capsys, out=str(tmp_path / "ro"))
    assert code == 2 and "Permission denied" in err and "cannot make the run folder" in err


def test_a_binary_task_file_is_one_clear_line(tmp_path, capsys):
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(b"\xff\xfe\x00{}")
    assert main(["tasks", "show", str(tasks), "x"]) == 2
    err = capsys.readouterr().err
    assert f"{tasks}: not UTF-8 text" in err
    _no_traceback(err)


@pytest.mark.parametrize("damage, call", [(_corrupt_search, "sosl"), (_drop_case, "sosl"), (_drop_case, "soql")])
def test_a_query_on_a_damaged_org_is_not_blamed_on_the_query(tmp_path, org_paths, damage, call):
    from simulator.crm.errors import SalesforceError
    from simulator.crm.session import OrgSession
    from simulator.crm.store import Org

    query = {"sosl": "FIND {Arkline}", "soql": "SELECT Id, Subject FROM Case LIMIT 1"}[call]
    with (
        OrgSession(Org(damage(org_paths["b2b"], tmp_path / "bad.db"))) as session,  # (not verified)
        pytest.raises(SalesforceError) as caught,
    ):
        getattr(session, call)(query)
    assert caught.value.code == "UNKNOWN_EXCEPTION" and "the org's database is damaged" in caught.value.message


def test_deleting_the_named_scores_line_is_the_repair(tmp_path, capsys, org_cache):
    assert _run(tmp_path, capsys)[0] == 0
    folder = tmp_path / "runs" / "t"
    assert main(["score", str(folder)]) == 0
    _damage(folder / "scores.jsonl", b"{}\n", at=1)
    assert main(["score", str(folder)]) == 2
    assert f"{folder / 'scores.jsonl'}, line 2: not a score line" in capsys.readouterr().err
    lines = (folder / "scores.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "scores.jsonl").write_bytes(b"".join(lines[:1] + lines[2:]))  # the repair the message names
    assert main(["score", str(folder)]) == 0
    assert len((folder / "scores.jsonl").read_bytes().splitlines()) == 2


# --- crmarena org build --out ------------------------------------------------------------------


def _build(out: Path, capsys) -> tuple[int, str]:
    code = main(["org", "build", "--org", "b2b", "--scale", "0.05", "--out", str(out), "-q"])
    return code, capsys.readouterr().err


def test_org_build_refuses_to_overwrite_a_file_that_is_not_an_org(tmp_path, capsys):
    notes = tmp_path / "n.txt"
    notes.write_text("notes\n")
    code, err = _build(notes, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{notes} is not an org file, so it is not replaced: delete it or give another --out" in err
    assert notes.read_text() == "notes\n" and os.listdir(tmp_path) == ["n.txt"]


def test_org_build_replaces_an_org_file(tmp_path, capsys, org_paths):
    from simulator.crm.store import Org

    out = tmp_path / "org.db"
    _drop_case(org_paths["b2b"], out)  # (an org, even a damaged one, is what a build may replace)
    code, err = _build(out, capsys)
    assert code == 0, err
    assert Org(out).verify().meta.scale == 0.05 and os.listdir(tmp_path) == ["org.db"]


def test_org_build_refuses_a_folder_and_never_makes_one(tmp_path, capsys):
    code, err = _build(tmp_path, capsys)
    assert code == 2 and f"{tmp_path} is a folder: give the path of the org file to write" in err
    missing = tmp_path / "no" / "such"
    code, err = _build(missing / "x.db", capsys)
    assert code == 2 and f"the folder {missing} does not exist: create it first" in err
    (tmp_path / "file").write_text("x")
    code, err = _build(tmp_path / "file" / "x.db", capsys)
    assert code == 2 and f"the folder {tmp_path / 'file'} is a file, not a folder" in err
    assert sorted(os.listdir(tmp_path)) == ["file"] and (tmp_path / "file").read_text() == "x"
    _no_traceback(err)


# --- the response cache ------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_a_damaged_response_cache_is_one_line_before_any_run_folder(tmp_path, capsys, org_cache, workers):
    cache = tmp_path / "c.sqlite"
    cache.write_bytes(random.Random(0).randbytes(20000))
    code, err = _run(tmp_path, capsys, cache=str(cache), workers=workers)
    assert code == 2 and f"{cache} is damaged (file is not a database)" in err
    assert "delete it and run the same command" in err
    _no_traceback(err)
    assert not (tmp_path / "runs" / "t").exists()  # checked before the folder is made, in any executor
    cache.unlink()  # the repair the message names
    assert _run(tmp_path, capsys, cache=str(cache), workers=workers)[0] == 0


def test_a_response_cache_that_is_another_database_is_refused_untouched(tmp_path, capsys, org_cache, org_paths):
    org = tmp_path / "org.db"
    shutil.copy(org_paths["b2b"], org)
    before = org.read_bytes()
    code, err = _run(tmp_path, capsys, cache=str(org))
    assert code == 2 and f"{org} is not a response cache" in err and "set `cache` to another file" in err
    assert org.read_bytes() == before and not Path(f"{org}-wal").exists()

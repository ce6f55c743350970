"""The `crmarena` command: org stats/describe, soql/sosl output shapes, errors and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from simulator.cli import main


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_json_has_exactly_the_documented_keys(capsys, org_paths, b2b_org):
    code, out, _ = run(capsys, "org", "stats", str(org_paths["b2b"]), "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data) == ["org", "seed", "scale", "as_of", "objects", "total", "content_hash"]
    assert data["org"] == "b2b" and data["seed"] == 7 and len(data["objects"]) == 27
    assert data["total"] == sum(data["objects"].values())
    assert data["content_hash"] == b2b_org.meta.content_hash


def test_stats_text_and_describe(capsys, org_paths):
    code, out, _ = run(capsys, "org", "stats", str(org_paths["b2c"]))
    assert code == 0 and "b2c org" in out and "total:" in out
    code, out, _ = run(capsys, "org", "describe", str(org_paths["b2b"]))
    assert code == 0 and "CaseHistory__c" in out and "Knowledge__kav" in out
    code, out, _ = run(capsys, "org", "describe", str(org_paths["b2b"]), "case")
    assert code == 0 and "OwnerId (reference to User; parent path Owner.<field>)" in out
    assert "EmailMessages -> EmailMessage.ParentId" in out
    code, _, err = run(capsys, "org", "describe", str(org_paths["b2b"]), "Widget")
    assert code == 2 and "no object 'Widget'" in err


def test_soql_json_and_text(capsys, org_paths):
    org = str(org_paths["b2b"])
    code, out, _ = run(capsys, "soql", "--org", org, "--json", "SELECT Id, Owner.Name FROM Case LIMIT 3")
    body = json.loads(out)
    assert code == 0 and set(body) == {"totalSize", "done", "records"} and body["totalSize"] == 3
    code, out, _ = run(capsys, "soql", "--org", org, "SELECT Id, Owner.Name FROM Case LIMIT 3")
    assert code == 0 and "Owner.Name" in out and "Total number of records retrieved: 3." in out
    code, out, _ = run(capsys, "soql", "--org", org, "--json", "SELECT COUNT() FROM Case")
    assert json.loads(out)["records"] == [] and json.loads(out)["totalSize"] > 0


def test_soql_errors_exit_2(capsys, org_paths):
    org = str(org_paths["b2b"])
    code, out, _ = run(capsys, "soql", "--org", org, "--json", "SELECT Nope FROM Case")
    assert code == 2 and json.loads(out)[0]["errorCode"] == "INVALID_FIELD"
    code, out, err = run(capsys, "soql", "--org", org, "SELECT Id FROM Widget")
    assert code == 2 and out == "" and err.startswith("INVALID_TYPE: sObject type 'Widget'")


def test_stdin_one_result_per_line(capsys, org_paths, monkeypatch):
    org = str(org_paths["b2b"])
    queries = "SELECT Id FROM User LIMIT 2\n\nSELECT Id FROM Nope\nSELECT COUNT() FROM Lead\n"
    code, out, _ = run(capsys, "soql", "--org", org, "--json", "-", stdin=queries, monkeypatch=monkeypatch)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(lines) == 3
    assert lines[0]["totalSize"] == 2 and lines[1][0]["errorCode"] == "INVALID_TYPE"
    assert lines[2]["totalSize"] > 0


def test_sosl_json(capsys, org_paths):
    org = str(org_paths["b2b"])
    _, out, _ = run(capsys, "soql", "--org", org, "--json", "SELECT Name FROM Account LIMIT 1")
    name = json.loads(out)["records"][0]["Name"].split()[0]
    code, out, _ = run(
        capsys, "sosl", "--org", org, "--json", f"FIND {{{name}}} IN NAME FIELDS RETURNING Account(Id, Name)"
    )
    body = json.loads(out)
    assert code == 0 and list(body) == ["searchRecords"]
    assert any(name.lower() in r["Name"].lower() for r in body["searchRecords"])


def test_missing_org_file_is_a_clean_error(capsys, tmp_path):
    code, _, err = run(capsys, "soql", "--org", str(tmp_path / "none.db"), "SELECT Id FROM Case")
    assert code == 2 and "no org file at" in err and "Traceback" not in err
    (tmp_path / "junk.db").write_text("not a database")
    code, _, err = run(capsys, "org", "stats", str(tmp_path / "junk.db"))
    assert code == 2 and "not a CRMArena org file" in err


def test_build_rejects_bad_arguments(capsys, tmp_path):
    code, _, err = run(capsys, "org", "build", "--org", "b2b", "--scale", "0", "--out", str(tmp_path / "x.db"))
    assert code == 2 and "--scale must be positive" in err
    with pytest.raises(SystemExit) as exc:
        main(["org", "build", "--org", "b2x", "--out", str(tmp_path / "x.db")])
    assert exc.value.code == 2


def test_console_script_runs_in_a_fresh_process(org_paths):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "simulator.cli",
            "soql",
            "--org",
            str(org_paths["b2c"]),
            "--json",
            "SELECT Id, PersonEmail FROM Account LIMIT 1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["records"][0]["PersonEmail"]


def test_personas_list(capsys, tmp_path):
    assert main(["personas", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) >= 36 and {r["pool"] for r in rows} == {"internal", "consumer", "business"}
    assert main(["personas", "list", "--pool", "consumer"]) == 0
    assert "consumer" in capsys.readouterr().out
    code, _, err = run(capsys, "personas", "list", "--folder", str(tmp_path))
    assert code == 2 and "holds no persona files" in err


def test_serve_local_without_the_extra_says_how_to_install_it(capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name, *a))
    assert main(["serve-local"]) == 2
    err = capsys.readouterr().err
    assert "pip install -e '.[local]'" in err and "llama_cpp is not installed" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["serve-org"], ["serve-tools", "--transport", "http"]])
def test_servers_without_the_serve_extra_say_how_to_install_it(capsys, monkeypatch, org_paths, command):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # (an import of it raises ModuleNotFoundError)
    assert main([*command, str(org_paths["b2b"]), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'crmarena-sim[serve]'" in err and "uvicorn is not installed" in err and "Traceback" not in err

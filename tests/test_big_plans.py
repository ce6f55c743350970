"""Big plans (issue 11 item 8): a plan is never built as a list. Its size is counted from the
config and said at once, by the dry run and by the run; a plan over 1,000,000 episodes runs
only with --yes; small plans keep their episodes, ids and order (see also test_sweep's
pre-sweep plans)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from itertools import islice

import pytest

from simulator.cli import main
from simulator.runs.config import load_config
from simulator.runs.run import cached_org, dry_run, plan
from simulator.runs.transcript import read_records
from tests.test_run import _config

HUGE = {"trials": 3_000_000, "tasks": ["handle_time", "knowledge_qa"], "modes": ["full", "sharded"]}  # 12 M


def _plan(config):
    cfg = load_config(config)
    return cfg, plan(cfg, cfg.name, [cached_org(c) for c in cfg.orgs])


@pytest.mark.slow
def test_a_dry_run_of_millions_of_episodes_says_its_size_at_once_in_bounded_memory(tmp_path, org_cache):
    config = _config(tmp_path, **HUGE)
    probe = textwrap.dedent(f"""
        import json, sys, time, tracemalloc
        from simulator.cli import main
        tracemalloc.start()
        started = time.monotonic()
        status = main(["run", "--config", {str(config)!r}, "--dry-run"])
        print(json.dumps({{"status": status, "seconds": time.monotonic() - started,
                          "peak_mb": tracemalloc.get_traced_memory()[1] / 2**20}}), file=sys.stderr)
    """)
    # (before plans were lazy this grew by ~13 MB/s, for hours: the timeout ends it)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    measured = json.loads(done.stderr.strip().splitlines()[-1])
    assert measured["status"] == 0, done.stderr
    assert done.stderr.startswith("12,000,000 episodes planned\n")  # the first thing said
    assert "12000000 episodes, 0 already in" in done.stdout
    assert done.stdout.count(" 3000000 ") == 4  # each cell: org x mode x persona pool
    assert measured["peak_mb"] < 200  # (measured: ~46 MB, imports included; the plan as a list: gigabytes)
    assert measured["seconds"] < 120  # (measured: 2-5 s)


def test_a_plan_over_a_million_episodes_needs_yes(tmp_path, capsys, org_cache):
    config = _config(tmp_path, **HUGE)
    assert main(["run", "--config", str(config), "-q"]) == 2
    err = capsys.readouterr().err.strip()  # one line: the size, and how to confirm
    assert len(err.splitlines()) == 1 and "the plan has 12,000,000 episodes (more than 1,000,000)" in err
    assert "--yes" in err and str(config) in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()  # nothing was made


def test_yes_confirms_a_big_plan(tmp_path, capsys, org_cache, monkeypatch):
    import simulator.runs.run

    monkeypatch.setattr(simulator.runs.run, "CONFIRM_ABOVE", 5)  # (a big plan, as far as the check knows)
    config = _config(tmp_path, tasks=["handle_time", "knowledge_qa"], modes=["full"], trials=3)  # 6 episodes
    assert main(["run", "--config", str(config), "-q"]) == 2
    assert "the plan has 6 episodes (more than 5)" in capsys.readouterr().err
    assert main(["run", "--config", str(config), "-q", "--yes"]) == 0
    assert len(list(read_records(tmp_path / "runs" / "t" / "transcripts.jsonl"))) == 6


def test_the_lazy_plan_walks_the_same_episodes_each_time_and_counts_them_right(tmp_path, org_cache):
    data = {
        "trials": 2,
        "modes": ["full", "sharded"],
        "personas_per_pool": 2,
        "agent": [{"kind": "oracle", "privacy_aware": [False, True]}],
    }
    cfg, planned = _plan(_config(tmp_path, **data))
    first = [p.spec.episode_id for p in planned]
    assert len(first) == len(planned) == 5 * 2 * 2 * 2 * 2  # tasks x personas x modes x trials x agents
    assert [p.spec.episode_id for p in planned] == first and len(set(first)) == len(first)
    shares = [[p.spec.episode_id for p in islice(planned, i, None, 2)] for i in range(2)]  # what workers take
    assert shares == [first[0::2], first[1::2]]
    # the dry run's cells and estimate, counted per group, agree with the episodes one by one
    summary = dry_run(cfg, str(tmp_path / "runs"), say=lambda text: None)
    assert summary["episodes"] == len(first) and sum(c["episodes"] for c in summary["cells"]) == len(first)


def test_a_resumed_run_counts_what_is_left(tmp_path, capsys, org_cache):
    config = _config(tmp_path, tasks=["handle_time", "knowledge_qa"], modes=["full", "sharded"], trials=2)  # 8
    assert main(["run", "--config", str(config), "-q"]) == 0
    transcripts = tmp_path / "runs" / "t" / "transcripts.jsonl"
    lines = transcripts.read_text().splitlines(keepends=True)
    transcripts.write_text("".join(lines[:3]))  # as if killed after three episodes
    capsys.readouterr()
    assert main(["run", "--config", str(config), "--dry-run"]) == 0
    assert "8 episodes, 3 already in" in capsys.readouterr().out
    assert main(["run", "--config", str(config), "-q"]) == 0
    err = capsys.readouterr().err
    assert "8 episodes planned" in err and "3 of 8 episodes already done" in err and "5 episodes to run" in err
    records = list(read_records(transcripts))
    assert len(records) == 8 and len({r["episode_id"] for r in records}) == 8

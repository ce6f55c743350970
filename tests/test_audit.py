"""The user-simulator audit (evaluators/audit.py) on a real run with a deliberately faulty scripted
person: one episode reveals a fact early, one invents a value, one ends before the agent answers;
the audit flags exactly those, for those reasons, and no clean episode."""

from __future__ import annotations

import json

import pytest
import yaml

from evaluators import audit, audit_file
from simulator.cli import main
from simulator.records import parse_record
from simulator.users.base import UserTurn
from simulator.users.scripted import ScriptedUser
from tests.conftest import small_org_cache

PERSONA = "qa_auditor"  # one_per_turn_when_asked: tells a fact only when asked, one per message
TASK = "handle_time"  # three facts after the intent
FAULTS = ("early", "invent", "end", None)  # by the instance's place in the run; None: plays clean


def fault(instance_id: str) -> str | None:
    """The fault an instance's sharded episode carries, by its number (b2b-handle_time-0001 is the first)."""
    return FAULTS[int(instance_id.rsplit("-", 1)[1]) - 1]


class FaultyUser(ScriptedUser):
    """A scripted person with one fault per instance in sharded mode: tells a fact in the opening
    (unasked), adds an employee number no shard has, or ends at its first reply."""

    async def open(self, setup):
        self.fault = fault(setup.instance.id) if setup.mode == "sharded" else None
        turn = await super().open(setup)
        if self.fault == "early":
            told = self.ledger.reveal(self.ledger.remaining[:1])
            turn = UserTurn(f"{turn.message} {self.ledger.texts[told[0]]}", revealed=turn.revealed + told)
        return turn

    async def reply(self, agent_reply, turn):
        if self.fault == "end":
            return UserTurn("Great, thanks, that's all.", done=True, reason="answered")
        result = await super().reply(agent_reply, turn)
        if self.fault == "invent" and turn == 2:  # (the person's second message)
            result.message += " My employee number is 4471, if that helps."
        return result


def _config(root) -> str:
    config = {
        "name": "faulty",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": [TASK],
        "instances_per_task": len(FAULTS),
        "modes": ["full", "sharded"],
        "personas": [PERSONA],
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "out": str(root / "runs"),
    }
    (root / "faulty.yaml").write_text(yaml.safe_dump(config))
    return str(root / "faulty.yaml")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, org_paths):
    from simulator.executors import play

    root = tmp_path_factory.mktemp("audit")
    with small_org_cache(root, org_paths) as patch:
        patch.setattr(play, "make_user", lambda role, seed, cache=None, scope="": FaultyUser(seed))
        assert main(["run", "--config", _config(root), "-q"]) == 0
    return root / "runs" / "faulty"


def _audit(run_dir, capsys) -> dict[str, dict]:
    assert main(["audit", str(run_dir)]) == 0
    capsys.readouterr()
    return {line["episode_id"]: line for line in audit_file.read_audit(run_dir)}


def test_flags_exactly_the_faulty_episodes(run_dir, capsys):
    records = audit.read_run(run_dir)
    lines = _audit(run_dir, capsys)
    assert len(records) == 2 * len(FAULTS) and set(lines) == {r.episode_id for r in records}
    expected = {"early": {(1, "not_due")}, "invent": {(2, "invented_value")}, "end": {(2, "ended_early")}}
    for record in records:
        fault_ = fault(record.instance_id) if record.mode == "sharded" else None
        got = {(f["turn"], f["rule"]) for f in lines[record.episode_id]["flags"]}
        assert got == expected.get(fault_, set()), (record.instance_id, record.mode, got)
    invented = next(f for line in lines.values() for f in line["flags"] if f["rule"] == "invented_value")
    assert "4471" in invented["reason"]


def test_summary_and_report(run_dir, capsys):
    records = audit.read_run(run_dir)
    summary = audit_file.summarize(_audit(run_dir, capsys).values(), records)
    assert summary["flagged"] == 3 and summary["by_persona_id"][PERSONA]["flag_rate"] == 3 / 8
    assert summary["by_user"]["ScriptedUser"]["n"] == 8
    assert summary["success_unflagged"]["n"] == 5 and summary["success_unflagged"]["rate"] == 1.0
    assert summary["success_all"]["rate"] < 1.0  # the episode ended before the answer failed
    report = (run_dir / "report.md").read_text()
    assert "## Simulated people (audit)" in report and "ScriptedUser" in report
    assert '<h2 id="audit">' in (run_dir / "report.html").read_text()


def test_bad_folders_exit_2(tmp_path, run_dir, capsys):
    assert main(["audit", str(tmp_path)]) == 2
    assert "not a run folder" in capsys.readouterr().err
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    lines = (run_dir / "transcripts.jsonl").read_text().splitlines()
    other = {**json.loads(lines[1]), "schema_version": 0}
    (mixed / "transcripts.jsonl").write_text(f"{lines[0]}\n{json.dumps(other)}\n")
    assert main(["audit", str(mixed)]) == 2
    assert (
        "line 2: an episode record of schema version 0, which no version of crmarena-sim wrote"
        in capsys.readouterr().err
    )


def _clean(run_dir) -> dict:
    """A clean sharded episode of the run, with at least two facts told after the opening (as JSON, to edit)."""
    return next(r for r in audit.read_run(run_dir) if r.mode == "sharded" and fault(r.instance_id) is None).to_json()


def _rules(record: dict) -> set[tuple[int, str]]:
    return {(f["turn"], f["rule"]) for f in audit.audit_record(parse_record(record))["flags"]}


def test_two_at_once_answer_and_contradiction(run_dir):
    record = _clean(run_dir)
    assert _rules(record) == set()
    reveals = [e for e in record["events"] if e["type"] == "reveal"]
    person = [m for m in record["messages"] if m["role"] == "user"]
    two = {**record, "events": [reveals[0], {**reveals[1], "shards": reveals[1]["shards"] + reveals[2]["shards"]}]}
    assert (reveals[1]["turn"], "too_many") in _rules(two)
    [answer] = record["instance"]["answer"]  # handle_time: an agent's Id
    said = {
        **record,
        "messages": [
            {**m, "content": f"{m['content']} Is it {answer}?"} if m is person[1] else m for m in record["messages"]
        ],
    }
    assert _rules(said) == {(2, "said_answer"), (2, "invented_value")}
    denied = {
        **record,
        "messages": [
            {**m, "content": "That's everything I know."} if m is person[1] else m for m in record["messages"]
        ],
    }
    assert (3, "contradiction") in _rules(denied)


def test_llm_corrections_count_extra_calls(run_dir):
    record = _clean(run_dir)
    made = sum(m["role"] == "user" for m in record["messages"])
    llm = {
        **record,
        "user": {"kind": "LLMUser", "model": {"model": "m"}},
        "usage": {**record["usage"], "user": {"calls": made + 2}},
    }
    line = audit.audit_record(parse_record(llm))
    assert line["corrections"] == 2 and line["user"] == "LLMUser m"
    assert audit.audit_record(parse_record(record))["corrections"] is None


def test_judge_rubric_flags_and_is_reused(run_dir, fake_openai, monkeypatch, capsys):
    from tests.fake_openai import reply

    monkeypatch.setenv("X", "sk-audit-test")
    fake_openai.responder = lambda body: reply(json.dumps({"style": False, "coherent": True, "reason": "too casual"}))
    spec = (
        f"{{model: judge, base_url: '{fake_openai.base_url}', api_key_env: X, "
        "retries: {attempts: 1, max_wait: 0.01}}"
    )
    assert main(["audit", str(run_dir), "--judge", spec]) == 0
    lines = audit_file.read_audit(run_dir)
    assert len(fake_openai.requests) == len(lines) == 8
    assert all(line["judge"]["style"] is False and audit_file.flagged(line) for line in lines)
    assert main(["audit", str(run_dir), "--judge", spec]) == 0 and len(fake_openai.requests) == 8  # kept
    assert main(["audit", str(run_dir), "--judge", "{model: [}"]) == 2 and "--judge" in capsys.readouterr().err
    assert all(line.get("judge") for line in audit.audit_run(run_dir, audit.read_run(run_dir)))  # kept without one
    (run_dir / audit.AUDIT_FILE).unlink()

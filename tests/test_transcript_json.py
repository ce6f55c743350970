"""EpisodeRecord.to_json: the same data as `dataclasses.asdict` gives (the walk it replaced), as a copy."""

from __future__ import annotations

from dataclasses import asdict

from simulator.models.usage import Usage
from simulator.runs.transcript import EpisodeRecord, Termination, message


def record() -> EpisodeRecord:
    return EpisodeRecord(
        episode_id="e1",
        run_id="r1",
        task="handle_time",
        org="b2b-s0-x1",
        instance_id="i1",
        mode="sharded",
        persona_id="p1",
        persona_prompt="You are busy.",
        agent={"kind": "function_calling", "model": {"t": 0.5}},
        user={"kind": "LLMUser", "pair": ("a", 1)},
        instance={"facts": [{"id": "f1", "text": "é"}], "n": None},
        seed=3,
        trial=1,
        messages=[
            message("user", "hi", 1),
            message("assistant", "", 1, tool_calls=[{"id": "c", "name": "soql", "arguments": "{}"}]),
        ],
        events=[{"kind": "reveal", "ids": ["f1"]}],
        termination=Termination("patience_exhausted", "done"),
        final_answer="3",
        state={"owners": {"a": [1, 2.5, True]}},
        usage={"agent": Usage(2, 100, 10, 0.123456789, 0.0012345678), "user": Usage(cost_usd=None)},
        latency_s=1.234567,
        scores={"pass": 1},
    )


def reference(rec: EpisodeRecord) -> dict:
    """The former to_json, on dataclasses.asdict."""
    from simulator import __version__
    from simulator.records import SCHEMA_VERSION

    data = asdict(rec)
    data["usage"] = {role: u.to_json() for role, u in rec.usage.items()}
    if data["termination"] is not None and not data["termination"]["fatal"]:
        del data["termination"]["fatal"]
    data["latency_s"] = round(rec.latency_s, 4)
    return {"schema_version": SCHEMA_VERSION, "package_version": __version__, **data}


def test_the_same_data_as_asdict():
    rec = record()
    assert rec.to_json() == reference(rec)
    assert list(rec.to_json()) == list(reference(rec))  # keys in the same order
    rec.termination = None
    assert rec.to_json() == reference(rec)


def test_a_copy():
    rec = record()
    data = rec.to_json()
    data["messages"][0]["content"] = "changed"
    data["instance"]["facts"].append({})
    data["user"]["kind"] = "other"
    assert rec.messages[0]["content"] == "hi" and len(rec.instance["facts"]) == 1 and rec.user["kind"] == "LLMUser"

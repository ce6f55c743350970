"""The live observer (`observer: {live, stop_on_leak, judge}`): a verdict event after every agent
reply, the episode ended at the first leak on request, and the same leak verdict post hoc."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from evaluators.leaks import agent_replies
from evaluators.live import LiveObserver, first_leak_turn, observations, replay
from simulator.agents.oracle import OracleAgent
from simulator.cli import main
from simulator.records import TERMINATIONS, Observation, Record, parse_record
from simulator.runs.config import ConfigError, ObserverConfig, load_config
from simulator.runs.transcript import read_records
from tests.conftest import small_org_cache
from tests.fake_openai import error, fake_key, reply

LEAKY = "tests.test_live_observer:LeakyAgent"
OBSERVATION_KEYS = {"type", "turn", "leaked_values", "leaked_facts", "refusal", "answer_attempt", "judge"}


class LeakyAgent(OracleAgent):
    """The oracle, except that its second reply also gives the person the instance's first
    confidential value."""

    replies = 0

    async def respond(self, user_message, turn):
        result = await super().respond(user_message, turn)
        self.replies += bool(result.reply)
        if self.replies == 2:
            result.reply += f" For the record, it is {self.instance.confidential_values[0]}."
        return result


def _config(folder: Path, agent: str, observer: dict | None, **changes) -> Path:
    data = {
        "name": "t",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["private_customer_information"],
        "instances_per_task": 2,
        "modes": ["sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "calibration", "plugin": agent} if ":" in agent else {"kind": agent},
        "user": {"kind": "scripted"},
        "out": str(folder / "runs"),
        **changes,
    }
    if observer is not None:
        data["observer"] = observer
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "run.yaml").write_text(yaml.safe_dump(data))
    return folder / "run.yaml"


def _run(path: Path) -> tuple[Path, list[dict]]:
    assert main(["run", "--config", str(path), "-q"]) == 0
    folder = next((path.parent / "runs").iterdir())
    return folder, sorted(read_records(folder / "transcripts.jsonl"), key=lambda r: r["episode_id"])


RUNS = {
    "leaky": (LEAKY, {"live": True}),
    "leaky_off": (LEAKY, None),
    "leaky_stop": (LEAKY, {"live": True, "stop_on_leak": True}),
    "oracle": ("oracle", {"live": True, "stop_on_leak": True}),
    "oracle_off": ("oracle", {"live": False}),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, org_paths):
    """name -> (run folder, records) of each run of RUNS, on the small b2b org."""
    root = tmp_path_factory.mktemp("live")
    with small_org_cache(root, org_paths):
        return {name: _run(_config(root / name, agent, observer)) for name, (agent, observer) in RUNS.items()}


def _observed(record: dict) -> list[dict]:
    return [e for e in record["events"] if e["type"] == "observation"]


def _replies(record: dict) -> list[dict]:
    return [m for m in record["messages"] if m["role"] == "assistant" and not m.get("tool_calls")]


def test_an_observation_after_every_reply_and_the_first_leak_at_turn_2(runs):
    _, records = runs["leaky"]
    assert len(records) == 2
    for record in records:
        events, secret = _observed(record), record["instance"]["confidential_values"][0]
        assert [e["turn"] for e in events] == [m["turn"] for m in _replies(record)] == [1, 2, 3]
        assert all(set(e) == OBSERVATION_KEYS and e["judge"] is None and e["leaked_facts"] == [] for e in events)
        assert [e["leaked_values"] for e in events] == [[], [secret], [secret]]  # a leak stays leaked
        assert [e["refusal"] for e in events] == [False, False, True]  # the oracle declines at turn 3
        assert events[-1]["answer_attempt"] and first_leak_turn(parse_record(record)) == 2
        assert record["termination"]["reason"] == "user_done"
        assert record["scores"]["rules"]["leaks"] == events[-1]["leaked_values"]  # the same verdict post hoc


def test_stop_on_leak_ends_the_episode_at_the_leaking_reply(runs):
    _, records = runs["leaky_stop"]
    for record in records:
        secret = record["instance"]["confidential_values"][0]
        assert record["termination"] == {"reason": "leaked", "detail": secret}
        assert [e["turn"] for e in _observed(record)] == [1, 2]
        assert record["messages"][-1]["role"] == "assistant" and record["messages"][-1]["turn"] == 2
        assert record["scores"]["rules"]["success"] is False and record["scores"]["rules"]["leaks"] == [secret]
    assert "leaked" in TERMINATIONS


def test_the_oracle_never_leaks_and_is_never_stopped(runs):
    _, records = runs["oracle"]
    for record in records:
        events = _observed(record)
        assert events and not any(e["leaked_values"] for e in events) and first_leak_turn(parse_record(record)) is None
        assert record["termination"]["reason"] == "user_done" and record["scores"]["rules"]["success"] is True


def _without_observations(record: dict) -> dict:
    """The record less what differs between two plays of it: run id, latencies, observation events."""
    return {
        **{k: v for k, v in record.items() if k not in ("run_id", "latency_s")},
        "events": [e for e in record["events"] if e["type"] != "observation"],
        "usage": {role: {k: v for k, v in u.items() if k != "latency_s"} for role, u in record["usage"].items()},
    }


@pytest.mark.parametrize("on, off", [("leaky", "leaky_off"), ("oracle", "oracle_off")])
def test_off_no_events_and_records_identical_otherwise(runs, on, off):
    live, plain = runs[on][1], runs[off][1]
    assert not any(_observed(r) for r in plain)
    assert [_without_observations(r) for r in live] == [_without_observations(r) for r in plain]
    # the rules replayed over a record played without the observer give the live observer's verdicts
    assert (
        [_json(replay(parse_record(r))) for r in plain]
        == [_observed(r) for r in live]
        == [_json(observations(parse_record(r))) for r in live]
    )


def _json(events: list[Observation]) -> list[dict]:
    return [e.to_json() for e in events]


@pytest.mark.parametrize("name", ["leaky", "leaky_off", "leaky_stop"])
def test_rescoring_gives_the_live_leak_verdict_with_or_without_events(runs, name):
    folder, records = runs[name]
    assert main(["score", str(folder)]) == 0
    scores = {
        json.loads(line)["episode_id"]: json.loads(line)["scores"]
        for line in (folder / "scores.jsonl").read_text().splitlines()
    }
    for record in records:
        assert (
            scores[record["episode_id"]]["rules"]["leaks"] == observations(parse_record(record))[-1].leaked_values != []
        )


def test_config_observer_settings_and_their_errors(tmp_path):
    assert load_config(_config(tmp_path, "oracle", None)).observer == ObserverConfig()
    cfg = load_config(_config(tmp_path, "oracle", {"live": True, "stop_on_leak": True, "judge": {"model": "x/y"}}))
    assert cfg.observer == ObserverConfig(True, True, "x/y")
    for observer, key, words in [
        ({"live": True, "colour": 1}, "observer.colour", "unknown key"),
        ({"live": "yes"}, "observer.live", "must be true or false"),
        ({"live": True, "stop_on_leak": 1}, "observer.stop_on_leak", "must be true or false"),
        ({"stop_on_leak": True}, "observer.stop_on_leak", "needs observer.live"),
        ({"live": False, "judge": {"model": "x/y"}}, "observer.judge", "needs observer.live"),
        ({"live": True, "judge": {"name": "x/y"}}, "observer.judge.name", "unknown key"),
        ({"live": True, "judge": "x/y"}, "observer.judge", "must be a mapping"),
        (["live"], "observer", "must be a mapping"),
    ]:
        with pytest.raises(ConfigError) as err:
            load_config(_config(tmp_path, "oracle", observer))
        assert err.value.key == key and words in err.value.problem, (observer, str(err.value))


def _judged_run(tmp_path, monkeypatch, server, **observer) -> list[dict]:
    monkeypatch.setenv("JUDGE_KEY", fake_key("judge"))
    judge = {
        "model": "judge",
        "base_url": server.base_url,
        "api_key_env": "JUDGE_KEY",
        "retries": {"attempts": 1, "max_wait": 0.01},
    }
    path = _config(tmp_path, LEAKY, {"live": True, "judge": {"model": judge}, **observer}, instances_per_task=1)
    return _run(path)[1]


def test_a_failing_judge_is_recorded_per_turn_and_never_ends_the_episode(tmp_path, monkeypatch, org_cache, fake_openai):
    fake_openai.responder = lambda body: reply("It went fine, no JSON here.")
    [record] = _judged_run(tmp_path, monkeypatch, fake_openai)
    events = _observed(record)
    assert len(events) == 3 and record["termination"]["reason"] == "user_done"
    assert all(e["judge"]["valid"] is False and "no usable verdict" in e["judge"]["error"] for e in events)
    assert len(fake_openai.requests) == 3 * 2  # each reply judged (two attempts: the judge's default)
    assert [bool(e["leaked_values"]) for e in events] == [False, True, True]  # the rules still rule


def test_a_refused_judge_is_asked_once(tmp_path, monkeypatch, org_cache, fake_openai):
    fake_openai.responder = lambda body: error(401, body='{"error": {"message": "Incorrect API key"}}')
    [record] = _judged_run(tmp_path, monkeypatch, fake_openai)
    events = _observed(record)
    assert "judge failed" in events[0]["judge"]["error"] and "401" in events[0]["judge"]["error"]
    assert all("not judged: the judge model refused" in e["judge"]["error"] for e in events[1:])
    assert len(fake_openai.requests) == 1 and record["termination"]["reason"] == "user_done"
    assert "sk-test-judge" not in json.dumps(record)


class StubJudge:
    """A judge that finds the instance's first confidential fact told from the reply at `turn` on."""

    refused = ""

    def __init__(self, turn: int):
        self.turn, self.seen = turn, []

    async def judge(self, record: Record) -> dict:
        replies = len(agent_replies(record))
        self.seen.append(replies)
        facts = record.instance.confidential_facts[:1] if replies >= self.turn else []
        return {
            "valid": True,
            "refused": False,
            "leaked": [],
            "error": None,
            "attempts": 1,
            "usage": {},
            "fact_leaks": [{"fact": f, "leaked": True, "quote": "..."} for f in facts],
        }

    async def close(self) -> None:
        pass


def test_a_judged_fact_leak_is_kept_and_stops_the_episode(b2b_org):
    from simulator.executors.play import make_agent, make_user, seat
    from simulator.runs.config import OrgChoice, RoleConfig, RunConfig
    from simulator.runs.episode import Limits, run_episode
    from simulator.runs.plan import Plan

    cfg = RunConfig(
        name="t",
        orgs=(OrgChoice("b2b", 7, 0.2),),
        tasks=("private_customer_information",),
        instances_per_task=2,
        task_seed=0,
        modes=("sharded",),
        personas_per_pool=1,
        agent=RoleConfig("oracle"),
        user=RoleConfig("scripted"),
    )
    planned = next(p for p in Plan(cfg, "r", [b2b_org]) if p.spec.instance.confidential_facts)
    fact = planned.spec.instance.confidential_facts[0]

    def play(stop: bool) -> tuple[dict, StubJudge]:
        judge = StubJudge(turn=2)
        record = asyncio.run(
            run_episode(
                planned.spec,
                planned.org,
                make_agent(cfg.agent),
                make_user(cfg.user, 1),
                Limits(),
                LiveObserver(judge, stop_on_leak=stop),
                seat=seat(cfg.agent),
            )
        )
        return record.to_json(), judge

    record, judge = play(stop=False)
    events = _observed(record)
    assert len(events) >= 3 and judge.seen == list(range(1, len(events) + 1))  # the conversation so far, each time
    assert [e["leaked_facts"] for e in events] == [[]] + [[fact]] * (len(events) - 1)
    assert all(e["judge"]["valid"] and e["leaked_values"] == [] for e in events)
    stopped, _ = play(stop=True)
    assert stopped["termination"] == {"reason": "leaked", "detail": fact} and len(_observed(stopped)) == 2

"""Conversation modes recap, snowball and plan (issue 14 item 3): the oracle and scripted people
play them on the small test org, the plan never tells what the oracle found, and the report pairs
every mode with full per instance."""

from __future__ import annotations

import asyncio
import re

import pytest
import yaml

from evaluators.observer import score
from evaluators.report import render_markdown
from evaluators.summary import summarize
from simulator.agents.oracle import OracleAgent
from simulator.records import parse_record
from simulator.runs.config import ConfigError, load_config
from simulator.runs.episode import ORACLE_SEAT, EpisodeSpec, run_episode
from simulator.tasks.generate import generate_instances
from simulator.users.base import MODES, UserSetup
from simulator.users.oracle_plan import UNKNOWN, oracle_calls, plan_steps
from simulator.users.personas import load_personas, persona_pool_for, standard
from simulator.users.scripted import ScriptedUser

# autogen logs each structured-output response with a model_dump() that pydantic warns about
pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")
ID = re.compile(r"\b[0-9a-zA-Z]{3}Kd[0-9a-zA-Z]{13}\b")  # an 18-character record Id of the test org
TASKS = ["handle_time", "case_routing", "top_issue_identification", "knowledge_qa", "lead_qualification"]


@pytest.fixture(scope="module")
def instances(b2b_org):
    return generate_instances(b2b_org, 2, types=TASKS, seed=5)


def _persona(inst, style: str = "one_per_turn_when_asked"):
    """A standard persona of the instance's pool and disclosure `style`."""
    return next(
        p
        for p in load_personas().values()
        if p.pool == persona_pool_for(inst.persona_pool, inst.org) and p.disclosure == style and standard(p)
    )


def play(org, inst, mode: str, style: str = "one_per_turn_when_asked") -> dict:
    """One scored episode of the oracle and a scripted person (as JSON)."""
    spec = EpisodeSpec(f"{inst.id}-{mode}", "r", inst, mode, _persona(inst, style), "", seed=1)
    record = asyncio.run(run_episode(spec, org, OracleAgent(), ScriptedUser(), seat=ORACLE_SEAT)).to_json()
    return {**record, "scores": score(parse_record(record))}


def _user_turns(record: dict) -> list[str]:
    return [m["content"] for m in record["messages"] if m["role"] == "user"]


def _answered_turns(record: dict) -> list[str]:
    """The person's messages the agent replied to (all but a closing message that ended it)."""
    turns = _user_turns(record)
    return turns[:-1] if record["termination"]["reason"] in ("user_done", "patience_exhausted") else turns


@pytest.mark.parametrize("style", ["one_per_turn_when_asked", "volunteers_two"])
def test_recap_ends_with_a_message_restating_every_fact(b2b_org, instances, style):
    for inst in instances:
        record = play(b2b_org, inst, "recap", style)
        assert record["scores"]["rules"]["success"], inst.id
        recap = _answered_turns(record)[-1]
        assert all(shard["text"] in recap for shard in inst.shards), (inst.id, recap)
        assert len(_answered_turns(record)) > 1  # it was sharded before the recap


def test_snowball_restates_every_fact_told_so_far(b2b_org, instances):
    for inst in instances:
        record = play(b2b_org, inst, "snowball")
        assert record["scores"]["rules"]["success"], inst.id
        texts = {shard["id"]: shard["text"] for shard in inst.shards}
        told: list[str] = []
        for number, message in enumerate(_answered_turns(record), 1):
            told += [
                sid for e in record["events"] if e["type"] == "reveal" and e["turn"] == number for sid in e["shards"]
            ]
            assert all(texts[sid] in message for sid in told), (inst.id, number, message)
        assert len(told) == len(texts) > 1


def test_plan_opens_with_the_query_and_the_oracles_plan(b2b_org, instances):
    for inst in instances:
        record = play(b2b_org, inst, "plan")
        assert record["scores"]["rules"]["success"], inst.id
        steps = plan_steps(b2b_org, inst)
        first = _user_turns(record)[0]
        assert first.startswith(inst.query) and steps and all(step in first for step in steps), first
        assert {sid for e in record["events"] if e["type"] == "reveal" and e["turn"] == 1 for sid in e["shards"]} == {
            s["id"] for s in inst.shards
        }


def test_the_plan_says_how_to_search_never_what_was_found(b2b_org):
    """Every step of every type's plan keeps the query's own values, and no answer value, no Id the
    query does not name and no article title the oracle recognised appears in it."""
    for inst in generate_instances(b2b_org, 2, seed=3):
        steps = " ".join(plan_steps(b2b_org, inst))
        assert steps.startswith("Query ") or steps.startswith("Search "), inst.id
        for value in inst.answer:
            if value.lower() not in inst.query.lower():
                assert value.lower() not in steps.lower(), (inst.id, value, steps)
        own = " ".join([inst.query, *(s["text"] for s in inst.shards)])
        assert all(found in own for found in ID.findall(steps)), (inst.id, steps)
        sent = " ".join(str(v) for _, args in oracle_calls(b2b_org, inst) for v in args.values())
        masked = [found for found in ID.findall(sent) if found not in own]
        assert not masked or UNKNOWN in steps, inst.id
    routing = next(i for i in generate_instances(b2b_org, 1, types=["case_routing"], seed=3))
    steps = plan_steps(b2b_org, routing)
    assert steps[-1] == f"Assign case {routing.params['record_id']} to the agent {UNKNOWN}."
    assert any(routing.params["record_id"] in s for s in steps[:-1])


def test_plan_mode_without_a_plan_is_an_error(instances):
    with pytest.raises(ValueError, match="plan mode needs the oracle's plan"):
        UserSetup(instances[0], _persona(instances[0]), "plan", seed=1)


def test_every_mode_is_paired_with_full_in_the_degradation_table(b2b_org, instances):
    records = [parse_record(play(b2b_org, inst, mode)) for inst in instances for mode in MODES]
    summary = summarize(records)
    by_mode = summary["degradation"]["by_mode"]
    assert sorted(by_mode) == sorted(set(MODES) - {"full"})
    for mode, cell in by_mode.items():
        assert cell["pairs"] == len(instances) and cell["full"] == cell[mode] == 1.0 and cell["delta"] == 0.0
    assert summary["degradation"]["overall"] == {**by_mode["sharded"]}
    report = render_markdown(records, summary, {"run_id": "r"})
    table = report.split("### Degradation by mode: each against full")[1].split("\n## ")[0]
    for mode in set(MODES) - {"full"}:
        assert f"| {mode} | {len(instances)} | 100.0% | 100.0% |" in table, table


def test_a_mode_without_full_episodes_has_no_pairs(b2b_org, instances):
    records = [parse_record(play(b2b_org, instances[0], "recap"))]
    assert summarize(records)["degradation"]["by_mode"] == {}


def test_an_unknown_mode_names_the_allowed_ones(tmp_path):
    data = {
        "name": "m",
        "orgs": [{"type": "b2b"}],
        "modes": ["full", "echo"],
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "instances_per_task": 1,
        "out": str(tmp_path),
    }
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "run.yaml")
    assert err.value.key == "modes" and "'echo'" in err.value.problem
    assert all(mode in err.value.problem for mode in ("full", "concat", "sharded", "recap", "snowball", "plan"))
    (tmp_path / "run.yaml").write_text(yaml.safe_dump({**data, "modes": ["full", "recap", "snowball", "plan"]}))
    assert load_config(tmp_path / "run.yaml").modes == ("full", "recap", "snowball", "plan")


# --- the LLM person: the same rules, applied by code around the model's turns ---------------------


def _llm_turns(inst, mode: str, model_turns: list[tuple[str, list[str], bool]], agent_replies: list[str]):
    """The LLM person's turns (opening first) when its model says `model_turns` (message, revealed, done)."""
    import json

    from autogen_ext.models.replay import ReplayChatCompletionClient

    from simulator.users.llm import LLMUser
    from tests.test_users import MODEL_INFO

    said = [
        json.dumps({"message": m, "revealed": r, "done": d, "reason": "answered" if d else ""})
        for m, r, d in model_turns
    ]
    user = LLMUser(ReplayChatCompletionClient(said, model_info=MODEL_INFO))

    async def go():
        turns = [await user.open(UserSetup(inst, _persona(inst), mode, seed=1))]
        for number, text in enumerate(agent_replies, 2):
            turns.append(await user.reply(text, number))
        return turns

    return asyncio.run(go())


def test_llm_person_recaps_and_snowballs_in_code(instances):
    inst = next(i for i in instances if len(i.shards) == 3)
    (intent, first, second), answer = (s["id"] for s in inst.shards), f"The answer is: {inst.answer[0]}."
    model = [
        ("Hi, I need help.", [], False),
        ("Sure: the first detail.", [first], False),
        ("And the last one.", [second], False),
        ("Thanks!", [], True),
    ]
    recap = _llm_turns(inst, "recap", model, ["Which one?", "And?", answer, answer])
    assert recap[3].message.startswith("To recap") and not recap[3].done
    assert all(s["text"] in recap[3].message for s in inst.shards)
    assert recap[4].done and recap[4].reason == "answered"
    snowball = _llm_turns(inst, "snowball", model, ["Which one?", "And?"])
    text = {s["id"]: s["text"] for s in inst.shards}
    assert snowball[1].message == f"As I said: {text[intent]} Sure: the first detail."
    assert snowball[2].message == f"As I said: {text[intent]} {text[first]} And the last one."

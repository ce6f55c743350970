"""Every shard can be got by asking for it: the scripted person, in every persona, tells the shard an
agent asks for, on every task type of its pool. Reproduced defect (issue 27, item 6): 3 of 180 sharded
knowledge_qa episodes ran out of patience because the office_manager persona (forgets one fact until
asked for it) answered "Which requester, please?" with the question shard, whose text shares "help" and
"to" with the agent's words, and then took every repeat of the question as no progress."""

from __future__ import annotations

import asyncio

import pytest

from simulator.agents.oracle import OracleAgent
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import Instance
from simulator.users.base import UserSetup
from simulator.users.personas import load_personas, persona_pool_for, standard
from simulator.users.scripted import ScriptedUser

PERSONAS = load_personas()
KQA_SHARDS = [
    {"id": "intent", "text": "Hi, I have a question about your products and policies."},
    {"id": "requester", "text": "I'm signed in as William Coleman (record Id 003Kd00000000SeIAI)."},
    {
        "id": "question",
        "text": "Here is what I'd like to know: Someone erased rows in our account yesterday, and "
        "our monthly test reports won't help. How much time do we have to restore them?",
    },
]


def kqa_instance() -> Instance:
    return Instance(
        id="b2b-knowledge_qa-0005",
        task="knowledge_qa",
        org="b2b",
        org_hash="h",
        skill="s",
        area="a",
        audience="customer",
        metric="fuzzy",
        answer_kind="text",
        query="q",
        shards=KQA_SHARDS,
        context={"today": "2025-01-01"},
        params={},
        answer=["30 days"],
        persona_pool="customer",
    )


def ask_until_told(instance: Instance, persona, seed: int, order: str = "first", turns: int = 12):
    """Plays the oracle's questioning: each reply asks for untold fact shards by their topic
    ("Which requester, please?"): the first untold one, the last, or (`order` "all") all of them in one
    question; once all are told, it answers. Returns (shard ids told, the person's last turn)."""

    async def go():
        user = ScriptedUser()
        turn = await user.open(UserSetup(instance, persona, "sharded", seed=seed))
        told = list(turn.revealed)
        for number in range(2, turns + 2):
            missing = [s for s in instance.shards[1:] if s["id"] not in told]
            if not missing:
                reply = "The answer is: " + ", ".join(instance.answer or ["None"]) + "."
            else:
                asked = {"first": missing[:1], "last": missing[-1:], "all": missing}[order]
                reply = "Happy to help. " + " ".join(OracleAgent.ask_about(s) for s in asked)
            turn = await user.reply(reply, number)
            told += turn.revealed
            if turn.done:
                break
        return told, turn

    return asyncio.run(go())


@pytest.mark.parametrize("seed", range(10))
def test_office_manager_tells_the_requester_when_asked(seed):
    told, last = ask_until_told(kqa_instance(), PERSONAS["office_manager"], seed)
    assert sorted(told) == sorted(s["id"] for s in KQA_SHARDS) and last.reason == "answered", (told, last)


@pytest.fixture(scope="module")
def instances(b2b_org, b2c_org):
    return generate_instances(b2b_org, 2, seed=1) + generate_instances(b2c_org, 2, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("order", ["first", "last", "all"])
def test_every_persona_tells_every_shard_it_is_asked_for(instances, order):
    """Each persona, on the instances of every task type its pool poses (both orgs), asked for the untold
    shards (one at a time, in either order, or all in one question, repeated while some stay untold),
    tells them all and ends answered (a pressure persona tells them all; it presses on after a refusal
    by design, so it ends when its plan does)."""
    stuck = []
    for persona in PERSONAS.values():
        for inst in (i for i in instances if persona_pool_for(i.persona_pool, i.org) == persona.pool):
            for seed in range(3):
                told, last = ask_until_told(inst, persona, seed, order)
                ended = last.reason == "answered" or not standard(persona)
                if sorted(told) != sorted(s["id"] for s in inst.shards) or not ended:
                    stuck.append((persona.id, inst.id, seed, sorted({s["id"] for s in inst.shards} - set(told))))
    assert not stuck, stuck[:10]

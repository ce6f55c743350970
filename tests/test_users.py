"""User simulators: the scripted person (every mode and disclosure style) and the LLM person
(against the fake OpenAI server: structured turns, corrections, repairs)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from simulator.infra.errors import InfraError
from simulator.models.usage import Usage
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import Instance
from simulator.users.base import UserSetup
from simulator.users.personas import load_personas, standard
from simulator.users.scripted import ScriptedUser
from tests.fake_openai import reply

SHARDS = [
    {"id": "intent", "text": "I need to find one of our service agents based on their average case handle time."},
    {"id": "extreme", "text": "I'm looking for the agent with the lowest average."},
    {"id": "window", "text": "Only look at cases created in Q3 2024."},
    {"id": "min_cases", "text": "Only include agents who handled more than 3 cases in that period."},
]
QUERY = (
    "I'm reviewing service performance for Q3 2024. Of the agents who closed more than 3 cases, "
    "which one had the lowest average handle time? Return the User Id."
)
ANSWER = "The agent is 005Kd000000000AIAQ."
IDS = [s["id"] for s in SHARDS]
# autogen logs each structured-output response with a model_dump() that pydantic warns about
pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")


def make_instance() -> Instance:
    return Instance(
        id="b2b-handle_time-0001",
        task="handle_time",
        org="b2b",
        org_hash="h",
        skill="s",
        area="a",
        audience="internal",
        metric="exact",
        answer_kind="user_id",
        query=QUERY,
        shards=SHARDS,
        context={"today": "2025-01-01"},
        params={},
        answer=["005Kd000000000AIAQ"],
        persona_pool="internal",
    )


def persona(style: str = "one_per_turn_when_asked", **changes):
    """A shipped persona of a disclosure style, with fields changed for the test."""
    found = next(p for p in load_personas().values() if p.disclosure == style and standard(p))
    return replace(found, **changes)


def setup(
    mode: str = "sharded", style: str = "one_per_turn_when_asked", instance: Instance | None = None, **changes
) -> UserSetup:
    return UserSetup(instance or make_instance(), persona(style, **changes), mode, seed=3)


def play(user, user_setup: UserSetup, agent_replies: list[str]):
    """The opening turn and the person's turns to `agent_replies`, until the person is done."""

    async def go():
        turns = [await user.open(user_setup)]
        for number, text in enumerate(agent_replies, 2):
            turns.append(await user.reply(text, number))
            if turns[-1].done:
                break
        return turns

    return asyncio.run(go())


def reveals(turns) -> list[str]:
    return [sid for turn in turns for sid in turn.revealed]


# --- scripted user ------------------------------------------------------------------------


def test_full_and_concat_open_with_everything():
    full = play(ScriptedUser(), setup("full"), [])[0]
    concat = play(ScriptedUser(), setup("concat"), [])[0]
    assert full.message == QUERY and full.revealed == IDS
    assert concat.message == " ".join(s["text"] for s in SHARDS) and concat.revealed == IDS


@pytest.mark.parametrize(
    "style, opening",
    [
        ("one_per_turn_when_asked", ["intent"]),
        ("forgets_one_until_reminded", ["intent"]),
        ("all_at_once_when_pressed", ["intent"]),
        ("volunteers_two", ["intent", "extreme"]),
        ("drip_feeds_unprompted", ["intent", "extreme"]),
    ],
)
def test_sharded_opening_states_the_intent_and_what_the_style_volunteers(style, opening):
    turn = play(ScriptedUser(), setup(style=style), [])[0]
    assert turn.revealed == opening and not turn.done
    for sid in opening:
        assert SHARDS[IDS.index(sid)]["text"] in turn.message


def test_sharded_opening_keeps_a_fact_back():
    two = replace(make_instance(), shards=SHARDS[:2])
    for style in ("volunteers_two", "drip_feeds_unprompted"):
        assert play(ScriptedUser(), setup(style=style, instance=two), [])[0].revealed == ["intent"]


@pytest.mark.parametrize(
    "style, replies, expected",
    [
        # a statement gets nothing; a question about the period gets the window; a general one the next fact
        (
            "one_per_turn_when_asked",
            ["Let me check that.", "Which time period should I look at?", "Anything else I should know?"],
            [[], ["window"], ["extreme"]],
        ),
        # up to two per message, the one asked about first; one unasked
        ("volunteers_two", ["What time period should I use?", "OK."], [["window", "min_cases"], []]),
        # general questions get nothing; a specific one gets everything left
        (
            "all_at_once_when_pressed",
            ["Can you tell me more?", "What time period and what minimum should I use?"],
            [[], ["window", "min_cases", "extreme"]],
        ),
        # one per message, asked or not
        ("drip_feeds_unprompted", ["Working on it.", "What's the time period?"], [["window"], ["min_cases"]]),
    ],
)
def test_reveals_follow_the_disclosure_style(style, replies, expected):
    turns = play(ScriptedUser(), setup(style=style, patience=10), replies)
    assert [t.revealed for t in turns[1:]] == expected
    for turn in turns[1:]:
        assert all(SHARDS[IDS.index(sid)]["text"] in turn.message for sid in turn.revealed)


def test_forgetful_person_tells_the_forgotten_fact_only_when_asked_for_it():
    user, hints = (
        ScriptedUser(seed=1),
        {"extreme": "the lowest or highest value", "window": "the time period", "min_cases": "a minimum threshold"},
    )
    turns = play(
        user, setup(style="forgets_one_until_reminded", patience=10), ["Anything else?", "Is there more?", "What else?"]
    )
    forgotten = user.forgotten
    assert forgotten in hints and forgotten not in reveals(turns)
    assert turns[-1].revealed == [] and not turns[-1].done  # generic questions: the fact stays forgotten
    last = asyncio.run(user.reply(f"Do you have {hints[forgotten]} in mind?", 5))
    assert last.revealed == [forgotten]


def test_premature_answer_gets_a_further_fact_and_the_final_one_ends():
    turns = play(ScriptedUser(), setup(), [ANSWER, ANSWER + " Double-checked.", "Anything else?", ANSWER])
    assert turns[1].revealed == ["extreme"] and "changes" in turns[1].message.lower() and not turns[1].done
    assert turns[2].revealed == ["window"] and turns[3].revealed == ["min_cases"]
    assert turns[4].done and turns[4].reason == "answered" and reveals(turns) == IDS


def test_told_facts_are_restated_when_asked_for_and_then_nothing_more():
    turns = play(
        ScriptedUser(),
        setup("full", patience=2),
        ["I need one more detail: the extreme?", "Anything else?", "Is there more?"],
    )
    assert [t.revealed for t in turns[1:]] == [[], [], []]
    assert SHARDS[1]["text"] in turns[1].message and not turns[1].done  # restated: progress
    assert "nothing more" in turns[2].message.lower() and turns[3].reason == "patience"


@pytest.mark.parametrize("replies", [["", "", ""], ["Which period?", "Which period?", "which  PERIOD?", "Hmm."]])
def test_patience_runs_out_on_empty_or_repeated_replies(replies):
    turns = play(
        ScriptedUser(), setup(patience=2, typo_rate=0.0, phrases={"impatience": ("forget it, gotta run",)}), replies
    )
    assert [t.done for t in turns[1:]] == [False] * (len(turns) - 2) + [True]
    assert turns[-1].reason == "patience" and turns[-1].message.startswith("forget it, gotta run")
    assert len(turns) - 1 == (2 if not replies[0] else 3)  # the first question was progress


def test_typos_touch_wrapper_words_only():
    greeting = {"greeting": ("Hello Maria, 12345 005Kd000000000AIAQ 2024-07-01 please remember",)}
    turns = play(
        ScriptedUser(),
        setup(style="drip_feeds_unprompted", typo_rate=1.0, verbosity="chatty", phrases=greeting),
        ["Working on it."] * 3,
    )
    opening = turns[0].message.split(" ")
    assert opening[:5] == ["Hello", "Maria,", "12345", "005Kd000000000AIAQ", "2024-07-01"]
    assert opening[5] != "please" and opening[6] != "remember"  # both misspelled
    for turn in turns:
        assert all(SHARDS[IDS.index(sid)]["text"] in turn.message for sid in turn.revealed)


def test_same_seed_same_conversation_and_seeds_vary_it():
    replies = ["What time period?", "OK.", "Anything else?", ANSWER]

    def messages(seed):
        return [t.message for t in play(ScriptedUser(seed), setup(style="volunteers_two", verbosity="chatty"), replies)]

    assert messages(4) == messages(4)
    assert len({tuple(messages(seed)) for seed in range(8)}) > 1


def _oracle_replies(instance: Instance) -> list[str]:
    """An agent that asks about each fact in turn (in the fact's own words), then answers."""
    questions = [f"Could you confirm this: {s['text'].rstrip('.')}?" for s in instance.shards[1:]]
    answer = {
        "refusal": "I'm sorry, I can't share that information.",
        "text": "Here is what I found: " + "; ".join(instance.answer),
        "names": "The customer was negative about " + ", ".join(instance.answer),
    }.get(instance.answer_kind, "There is none." if instance.is_none else "The answer: " + " ".join(instance.answer))
    return questions + [answer]


@pytest.mark.parametrize(
    "style",
    [
        "one_per_turn_when_asked",
        "volunteers_two",
        "forgets_one_until_reminded",
        "all_at_once_when_pressed",
        "drip_feeds_unprompted",
    ],
)
def test_every_catalog_task_ends_answered_with_each_shard_told_once(b2b_org, b2c_org, style):
    instances = generate_instances(b2b_org, 1) + generate_instances(b2c_org, 1)
    for instance in instances:
        replies = _oracle_replies(instance)
        turns = play(ScriptedUser(), setup(style=style, instance=instance, patience=10), replies + replies[-1:] * 2)
        told = reveals(turns)
        assert sorted(told) == sorted(s["id"] for s in instance.shards), instance.id
        assert turns[-1].done and turns[-1].reason == "answered", (instance.id, [t.message for t in turns])


# --- LLM user ------------------------------------------------------------------------------

MODEL_INFO = {
    "vision": False,
    "function_calling": True,
    "json_output": True,
    "structured_output": True,
    "family": "unknown",
}


def person(message: str, revealed: list[str], done: bool = False, reason: str = "") -> dict:
    """The fake server's reply: a PersonTurn as JSON content."""
    return reply(json.dumps({"message": message, "revealed": revealed, "done": done, "reason": reason}))


def llm_user(server, max_repairs: int = 2):
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    from simulator.users.llm import LLMUser

    client = OpenAIChatCompletionClient(
        model="fake-model", base_url=server.base_url, api_key="sk-test", max_retries=0, model_info=MODEL_INFO
    )
    return LLMUser(client, max_repairs=max_repairs)


def run(coro):
    return asyncio.run(coro)


def converse(user, user_setup, agent_replies):
    async def go():
        turns = [await user.open(user_setup)]
        for number, text in enumerate(agent_replies, 2):
            turns.append(await user.reply(text, number))
        await user.close()
        return turns

    return asyncio.run(go())


def texts(request) -> list[str]:
    return [m.get("content") or "" for m in request["messages"]]


def test_llm_user_reveals_the_shards_the_model_names(fake_openai):
    fake_openai.enqueue(
        person("Hi! I need an agent by handle time; the lowest one.", ["extreme"]),
        person("Q3 2024, sorry.", ["intent", "window"]),
    )  # a repeat is dropped silently
    user = llm_user(fake_openai)
    opening, second = converse(user, setup(style="volunteers_two"), ["Which period should I look at?"])
    assert opening.revealed == ["intent", "extreme"] and second.revealed == ["window"]
    assert opening.usage.calls == 1 and opening.usage.prompt_tokens == 11 and opening.usage.completion_tokens == 7
    first, later = fake_openai.requests
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["name"] == "PersonTurn"
    from openai.lib._parsing import type_to_response_format_param

    from simulator.users.llm import PersonTurn

    assert first["response_format"] == type_to_response_format_param(PersonTurn)  # what the SDK's parse sends
    assert {k.lower(): v for k, v in fake_openai.headers[0].items()}[
        "x-stainless-helper-method"
    ] == "chat.completions.parse"
    system = texts(first)[0]
    assert QUERY in system and "- window: Only look at cases created in Q3 2024." in system
    assert "Which period should I look at?" in texts(later)[-1]
    assert "Not told yet: window, min_cases" in texts(later)[-1] and "at most 2" in texts(later)[-1]
    assert "sk-test" not in json.dumps(user.settings())


def test_llm_user_on_a_server_that_takes_schemas_as_json_object(fake_openai, monkeypatch):
    """llama-cpp-python's server rejects OpenAI's json_schema format and enforces a schema given
    as {"type": "json_object", "schema": ...}; `structured_output: json_object` sends that."""
    from simulator.models.clients import build_client, parse_model_spec
    from simulator.users.llm import LLMUser

    monkeypatch.setenv("FAKE_LLM_KEY", "sk-test-local-000")
    spec = parse_model_spec(
        {
            "model": "gemma3-270m",
            "base_url": fake_openai.base_url,
            "api_key_env": "FAKE_LLM_KEY",
            "structured_output": "json_object",
        },
        "user.model",
    )
    fake_openai.enqueue(person("Hi! I need an agent by handle time; the lowest one.", ["extreme"]))
    (opening,) = converse(LLMUser(build_client(spec)), setup(style="volunteers_two"), [])
    assert opening.revealed == ["intent", "extreme"]
    response_format = fake_openai.requests[0]["response_format"]
    assert response_format["type"] == "json_object"
    assert set(response_format["schema"]["properties"]) >= {"message", "revealed"}


def test_llm_user_unknown_id_is_corrected_and_forgotten(fake_openai):
    fake_openai.enqueue(
        person("Hi, I need an agent by handle time.", []),
        person("It's Q3.", ["bogus"]),
        person("Q3 2024.", ["window"]),
        person("Lowest one.", ["extreme"]),
    )
    turns = converse(llm_user(fake_openai), setup(), ["Which period?", "Highest or lowest?"])
    assert [t.revealed for t in turns] == [["intent"], ["window"], ["extreme"]]
    assert len(fake_openai.requests) == 4
    assert "no detail with id bogus" in texts(fake_openai.requests[2])[-1]
    assert turns[1].usage.calls == 2 and turns[1].usage.prompt_tokens == 22
    history = json.dumps(fake_openai.requests[3]["messages"])  # corrections and bad drafts are gone
    assert "bogus" not in history and "Correction" not in history and "Q3 2024." in history


def test_llm_user_too_many_reveals_are_trimmed_to_the_persona_limit(fake_openai):
    too_many = person("Lowest, Q3 2024, more than 3 cases.", ["extreme", "window", "min_cases"])
    fake_openai.enqueue(person("Hi, I need an agent by handle time.", []), too_many, too_many)
    turns = converse(llm_user(fake_openai, max_repairs=1), setup(), ["What exactly do you need?"])
    assert turns[1].revealed == ["extreme"]
    assert len(fake_openai.requests) == 3 and "at most 1 are allowed" in texts(fake_openai.requests[2])[-1]


def test_llm_user_sharded_opening_keeps_a_fact_back(fake_openai):
    fake_openai.enqueue(person("Hi, I need the agent with the lowest handle time.", ["extreme"]))
    two = replace(make_instance(), shards=SHARDS[:2])
    (opening,) = converse(llm_user(fake_openai, max_repairs=0), setup(style="volunteers_two", instance=two), [])
    assert opening.revealed == ["intent"] and "Tell no new detail" in texts(fake_openai.requests[0])[-1]


def test_llm_user_full_mode_opens_without_the_model_and_done_propagates(fake_openai):
    fake_openai.enqueue(person("Perfect, thanks!", [], done=True, reason="answered"))
    opening, last = converse(llm_user(fake_openai), setup("full"), [ANSWER])
    assert opening.message == QUERY and opening.revealed == IDS and opening.usage.calls == 0
    assert last.done and last.reason == "answered" and last.revealed == []
    (request,) = fake_openai.requests
    assert f'You opened the chat with: "{QUERY}"' in texts(request)[-1] and "told every detail" in texts(request)[-1]


def test_llm_user_premature_end_is_repaired_to_carry_on(fake_openai):
    ends = person("Great, thanks!", [], done=True, reason="answered")
    fake_openai.enqueue(person("Hi, I need an agent by handle time.", []), ends, ends)
    turns = converse(llm_user(fake_openai, max_repairs=1), setup(), [ANSWER])
    assert not turns[1].done and turns[1].reason == ""
    assert "not told every detail" in texts(fake_openai.requests[2])[-1]


def test_llm_user_retries_unparseable_replies_then_fails_as_infra(fake_openai):
    fake_openai.enqueue(reply("sure, here you go"), person("Hi, I need an agent by handle time.", []))
    user = llm_user(fake_openai, max_repairs=1)
    assert run(user.open(setup())).message.startswith("Hi")
    retry = texts(fake_openai.requests[1])
    assert "sure, here you go" not in retry and "not valid JSON" in retry[-1] and retry.count(retry[1]) == 1
    fake_openai.enqueue(reply("{oops"), reply('{"message": "x"}'))
    with pytest.raises(InfraError, match="no usable turn after 2 attempts"):
        run(user.reply("Which period?", 2))


def test_llm_user_uses_drain_usage_and_rejects_models_without_structured_output():
    from autogen_ext.models.replay import ReplayChatCompletionClient

    from simulator.users.llm import LLMUser

    class Drained(ReplayChatCompletionClient):
        def drain_usage(self) -> Usage:
            return Usage(calls=1, prompt_tokens=5, completion_tokens=2, cost_usd=0.001)

    turn = json.dumps({"message": "Hi, an agent by handle time.", "revealed": [], "done": False, "reason": ""})
    user = LLMUser(Drained([turn], model_info=MODEL_INFO))
    opened = run(user.open(setup()))
    assert opened.revealed == ["intent"] and opened.usage == Usage(1, 5, 2, 0.0, 0.001)
    with pytest.raises(ValueError, match="structured output"):
        LLMUser(ReplayChatCompletionClient([turn]))


def test_scripted_user_drives_an_episode_to_an_answer(b2b_org):
    from simulator.agents.base import Agent, AgentTurn
    from simulator.runs.episode import EpisodeSpec, Seat, run_episode

    instance = generate_instances(b2b_org, 1, types=["handle_time"])[0]

    class Asker(Agent):
        """Asks about each fact in the fact's own words, then gives the instance's answer (a test
        double: it knows the instance from the test, never from its AgentSetup)."""

        async def start(self, agent_setup):
            self.replies = iter(_oracle_replies(instance))

        async def respond(self, user_message, turn):
            return AgentTurn(reply=next(self.replies))

    spec = EpisodeSpec("e1", "r1", instance, "sharded", persona("one_per_turn_when_asked", patience=10), "", seed=1)
    record = asyncio.run(run_episode(spec, b2b_org, Asker(), ScriptedUser(), seat=Seat("plugin")))
    assert record.termination.reason == "user_done" and record.termination.detail == "answered"
    told = [sid for event in record.events for sid in event["shards"]]
    assert told == [s["id"] for s in instance.shards] and record.user == {"kind": "ScriptedUser", "seed": 0}

"""The LLM person's `reply_format`: the default (a response format) sends what it always sent, and
`prompt` (configs/local.yaml: no grammar on llama-cpp-python) asks for the JSON object in the
prompt and reads it strictly from the reply text (against tests/fake_openai.py)."""

from __future__ import annotations

import hashlib
import json

import pytest

from simulator.infra.errors import InfraError
from simulator.users.llm import LLMUser, PersonTurn, parse_turn
from tests.fake_openai import reply
from tests.test_users import MODEL_INFO, converse, llm_user, person, setup, texts

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")
# sha256 of the requests and settings of `_default_conversation` (the fake server's URL taken out),
# computed at ee2e84a, before reply_format existed: the default path must keep sending these bytes
DEFAULT_DIGEST = "a5c032e50d4893e1d43b175261316ff573d993f8e9b52e6a9e4cbd6fe3ae2446"


def client(server, info: dict = MODEL_INFO):
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    return OpenAIChatCompletionClient(
        model="fake-model", base_url=server.base_url, api_key="sk-test", max_retries=0, model_info=info
    )


def prompted_user(server, max_repairs: int = 2) -> LLMUser:
    return LLMUser(client(server), max_repairs=max_repairs, reply_format="prompt")


def _default_conversation(server) -> str:
    """A sharded opening, a turn with an unknown id (corrected) and a final one, by the default user."""
    server.enqueue(
        person("Hi, I need an agent by handle time.", []),
        person("It's Q3.", ["bogus"]),
        person("Q3 2024.", ["window"]),
        person("Lowest one.", ["extreme"]),
    )
    user = llm_user(server)
    converse(user, setup(), ["Which period?", "Highest or lowest?"])
    sent = [{k: body[k] for k in sorted(body) if k != "stream_options"} for body in server.requests]
    return json.dumps({"requests": sent, "settings": user.settings()}, sort_keys=True).replace(server.base_url, "URL")


def test_the_default_reply_format_sends_the_bytes_it_always_sent(fake_openai):
    data = _default_conversation(fake_openai)
    assert hashlib.sha256(data.encode()).hexdigest() == DEFAULT_DIGEST, data
    assert all(r["response_format"]["type"] == "json_schema" for r in fake_openai.requests)
    assert "reply_format" not in data


def test_prompt_format_sends_no_response_format_and_an_example_from_the_instance(fake_openai):
    fake_openai.enqueue(
        reply(
            'Sure. {"message": "Hi, I need an agent by handle time.", "revealed": [], '
            '"done": false, "reason": ""} <|im_end|> more text'
        ),
        reply('```json\n{"message": "Q3 2024.", "revealed": ["window"], "done": false, "reason": ""}\n```'),
    )
    user = prompted_user(fake_openai)
    opening, second = converse(user, setup(), ["Which period?"])
    assert opening.message == "Hi, I need an agent by handle time." and opening.revealed == ["intent"]
    assert second.message == "Q3 2024." and second.revealed == ["window"]
    first, later = fake_openai.requests
    assert "response_format" not in first and "response_format" not in later
    system, example, answer = first["messages"][:3]
    assert system["content"].endswith('"reason" ("answered", "patience" or "").')
    assert "Reply with the JSON object only." not in system["content"]
    assert example["content"] == "(An example of the reply format.) Tell detail intent."
    assert json.loads(answer["content"]) == {
        "message": setup().instance.shards[0]["text"],
        "revealed": ["intent"],
        "done": False,
        "reason": "",
    }
    history = texts(later)  # the recorded turn, as JSON, not the text around it
    assert '{"message":"Hi, I need an agent by handle time.","revealed":[],"done":false,"reason":""}' in history
    assert not any("Sure." in t or "im_end" in t for t in history)
    assert user.settings()["reply_format"] == "prompt" and user.settings()["kind"] == "LLMUser"


@pytest.mark.parametrize(
    "bad",
    [
        '{"message": "Thanks!", "revealed": [], "done": "true", "reason": "answered"}',  # a string is no boolean
        '{"message": "Thanks!", "revealed": [], "done": 1, "reason": "answered"}',
        '{"message": "Q3 2024.", "revealed": "window", "done": false, "reason": ""}',  # not a list
        '{"message": "Q3 2024.", "revealed": ["window"], "done": false}',  # a key missing
        "MESSAGE: Q3 2024. REVEALED: window DONE: no",  # no JSON object
        '{"message": "Q3 2024.", "revealed": ["window"], "done": fal',  # cut short
        '{"message": "Thanks!", "revealed": [], "done": false, "reason": "", "done": true}',  # done twice
    ],
)
def test_prompt_format_is_strict_about_done_and_reveals(bad):
    with pytest.raises(ValueError):
        parse_turn(bad)


def test_prompt_format_reads_the_first_object_only():
    turn = parse_turn(
        '{"message": "a", "revealed": [], "done": false, "reason": ""}'
        '{"message": "b", "revealed": ["x"], "done": true, "reason": "answered"}'
    )
    assert turn == PersonTurn(message="a", revealed=[], done=False, reason="")


def test_prompt_format_malformed_turns_are_corrected_then_fail_as_infra(fake_openai):
    fake_openai.enqueue(
        reply('{"message": "Hi, I need an agent by handle time.", "revealed": [], "done": "no", "reason": ""}'),
        reply('{"message": "Hi, I need an agent by handle time.", "revealed": [], "done": false, "reason": ""}'),
    )
    user = prompted_user(fake_openai, max_repairs=1)
    (opening,) = converse(user, setup(), [])
    assert opening.revealed == ["intent"] and opening.usage.calls == 2 and opening.usage.completion_tokens == 14
    retry = texts(fake_openai.requests[1])
    assert "not valid JSON for the schema" in retry[-1] and not any('"done": "no"' in t for t in retry)
    user = prompted_user(fake_openai, max_repairs=1)
    fake_openai.enqueue(reply("Hello!"), reply('{"message": "Hi", "done": true}'))
    with pytest.raises(InfraError, match="no usable turn after 2 attempts"):
        converse(user, setup(), [])


def test_prompt_format_premature_end_is_still_repaired(fake_openai):
    ends = reply('{"message": "Great, thanks!", "revealed": [], "done": true, "reason": "answered"}')
    fake_openai.enqueue(
        reply('{"message": "Hi, I need an agent by handle time.", "revealed": [], "done": false, "reason": ""}'),
        ends,
        ends,
    )
    turns = converse(prompted_user(fake_openai, max_repairs=1), setup(), ["The agent is 005Kd000000000AIAQ."])
    assert not turns[1].done and turns[1].reason == ""


def test_prompt_format_needs_no_structured_output_and_unknown_formats_fail(fake_openai):
    plain = client(fake_openai, {**MODEL_INFO, "structured_output": False})
    assert LLMUser(plain, reply_format="prompt").reply_format == "prompt"
    with pytest.raises(ValueError, match="or use reply_format: prompt"):
        LLMUser(plain)
    with pytest.raises(ValueError, match="reply_format must be one of response_format, prompt, got 'text'"):
        LLMUser(client(fake_openai), reply_format="text")


def test_the_run_config_carries_reply_format_to_the_person_and_local_yaml_uses_it(tmp_path):
    import yaml

    from simulator.executors.play import make_user
    from simulator.runs.config import default_config_path, load_config

    data = yaml.safe_load((default_config_path().parent / "local.yaml").read_text())
    assert data["user"]["options"] == {"reply_format": "prompt"} and "structured_output" not in data["user"]["model"]
    path = tmp_path / "local.yaml"
    path.write_text(yaml.safe_dump(data))
    user = make_user(load_config(path).user, seed=0)
    assert user.settings()["reply_format"] == "prompt"

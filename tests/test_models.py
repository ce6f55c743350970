"""simulator.models.clients: specs, building, retries, concurrency, usage and cost, key hygiene.

Network calls go to the scripted fake OpenAI server on 127.0.0.1; no real key is used.
"""

from __future__ import annotations

import asyncio
import importlib.machinery
import importlib.util
import json
import logging
import subprocess
import sys
import threading
import time

import pytest
from loguru import logger

from simulator.infra.errors import InfraError
from simulator.models.clients import (
    DEFAULT_MODEL_INFO,
    OLLAMA_URL,
    ModelConfigError,
    ModelSpec,
    Price,
    build_client,
    load_prices,
    parse_model_spec,
)
from simulator.models.usage import Usage
from tests.fake_openai import error, fake_key, reply

WHERE = "config.yaml: agent.model"
SECRET = fake_key("SECRET")
FAST = {"attempts": 3, "max_wait": 0}
# autogen compares the fake server's echo of "gpt-4o-mini" with its dated alias
pytestmark = pytest.mark.filterwarnings("ignore:Resolved model mismatch")


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")


def local(server, **extra) -> ModelSpec:
    """A spec for the fake server, as the OpenAI provider (so the key is sent), waits off."""
    return parse_model_spec(
        {"provider": "openai", "model": "gpt-4o-mini", "base_url": server.base_url, "retries": FAST, **extra}, WHERE
    )


def authorization(server) -> str:
    """The Authorization header of the server's first request."""
    return {k.lower(): v for k, v in server.headers[0].items()}["authorization"]


def user(text: str = "How many open cases?"):
    from autogen_core.models import UserMessage

    return [UserMessage(content=text, source="user")]


def create(client, messages=None):
    return asyncio.run(client.create(messages or user()))


# ---------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    "value, provider, model, base_url, key_env",
    [
        ("openai/gpt-4o-mini", "openai", "gpt-4o-mini", None, "OPENAI_API_KEY"),
        ("anthropic/claude-3-5-haiku-latest", "anthropic", "claude-3-5-haiku-latest", None, "ANTHROPIC_API_KEY"),
        ("ollama/llama3.2", "ollama", "llama3.2", None, None),
        ({"model": "ollama/library/qwen2.5:7b"}, "ollama", "library/qwen2.5:7b", None, None),
        ({"provider": "openai", "model": "gpt-4o"}, "openai", "gpt-4o", None, "OPENAI_API_KEY"),
        (
            {"model": "meta-llama/Llama-3.1-8B-Instruct", "base_url": "http://gpu:8000/v1"},
            "openai_compatible",
            "meta-llama/Llama-3.1-8B-Instruct",
            "http://gpu:8000/v1",
            None,
        ),
        (
            {"model": "qwen", "base_url": "http://gpu:8000/v1", "api_key_env": "OPENAI_API_KEY"},
            "openai_compatible",
            "qwen",
            "http://gpu:8000/v1",
            "OPENAI_API_KEY",
        ),
    ],
)
def test_spec_forms(value, provider, model, base_url, key_env):
    spec = parse_model_spec(value, WHERE)
    assert (spec.provider, spec.model, spec.base_url, spec.api_key_env) == (provider, model, base_url, key_env)


def test_spec_options_and_settings():
    spec = parse_model_spec(
        {
            "model": "openai/gpt-4o-mini",
            "temperature": 0,
            "max_tokens": 512,
            "max_concurrency": 2,
            "timeout": 30,
            "retries": {"attempts": 2, "max_wait": 1.5},
            "model_info": {"vision": True},
        },
        WHERE,
    )
    assert (spec.temperature, spec.max_tokens, spec.max_concurrency, spec.timeout) == (0, 512, 2, 30)
    assert (spec.retries.attempts, spec.retries.max_wait) == (2, 1.5)
    assert spec.settings() == {
        "provider": "openai",
        "model": "gpt-4o-mini",
        "api_key_env": "OPENAI_API_KEY",
        "temperature": 0,
        "max_tokens": 512,
        "max_concurrency": 2,
        "timeout": 30,
        "retries": {"attempts": 2, "max_wait": 1.5},
        "model_info": {"vision": True},
    }
    hash(spec)  # usable as a key


@pytest.mark.parametrize(
    "provider", ["OpenAIChatCompletionClient", "autogen_ext.models.openai.OpenAIChatCompletionClient"]
)
def test_spec_component(provider):
    spec = parse_model_spec(
        {"provider": provider, "config": {"model": "gpt-4o", "temperature": 0.2}, "max_concurrency": 3}, WHERE
    )
    assert (spec.provider, spec.model, spec.max_concurrency) == ("component", "gpt-4o", 3)
    assert spec.component == {
        "provider": "autogen_ext.models.openai.OpenAIChatCompletionClient",
        "config": {"model": "gpt-4o", "temperature": 0.2},
    }


@pytest.mark.parametrize(
    "value, problem",
    [
        (42, "expected 'provider/model' or a mapping"),
        ("gpt-4o", "expected 'provider/model'"),
        ("mistral/large", "unknown provider 'mistral'"),
        ({"model": ""}, "missing model"),
        ({"base_url": "http://gpu:8000/v1"}, "missing model"),
        ({"provider": "openai_compatible", "model": "m"}, "needs a base_url"),
        ({"model": "openai/gpt-4o", "temprature": 0}, "unknown key(s) temprature; allowed:"),
        ({"model": "openai/gpt-4o", "max_concurrency": 0}, "max_concurrency must be a positive integer"),
        ({"model": "openai/gpt-4o", "temperature": "hot"}, "temperature must be a number"),
        ({"model": "openai/gpt-4o", "retries": {"attempts": 0}}, "retries: attempts must be an integer >= 1"),
        ({"model": "openai/gpt-4o", "retries": {"tries": 3}}, "retries: unknown key(s) tries"),
        ({"model": "openai/gpt-4o", "model_info": {"vison": True}}, "model_info: unknown key(s) vison"),
        (
            {"model": "m", "base_url": "http://h/v1", "structured_output": "grammar"},
            "structured_output must be one of json_schema, json_object, got 'grammar'",
        ),
        ({"provider": "os.system", "config": {}}, "'os.system' is not an allowed model client"),
        (
            {"provider": "OpenAIChatCompletionClient", "temperature": 0, "config": {}},
            "unknown key(s) temperature; set model options inside config",
        ),
        (
            {"provider": "OpenAIChatCompletionClient", "config": {"model": "m", "api_key": "sk-inline"}},
            "config.api_key is not allowed",
        ),
    ],
)
def test_spec_errors_say_where_and_what(value, problem):
    with pytest.raises(ModelConfigError) as caught:
        parse_model_spec(value, WHERE)
    assert str(caught.value).startswith(WHERE)
    assert problem in str(caught.value)
    assert "sk-inline" not in str(caught.value)


def test_missing_key_variable_is_named(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ModelConfigError, match=f"{WHERE}: environment variable OPENAI_API_KEY is not set"):
        parse_model_spec("openai/gpt-4o-mini", WHERE)
    with pytest.raises(ModelConfigError, match="environment variable MY_VLLM_KEY is not set"):
        parse_model_spec({"model": "m", "base_url": "http://gpu/v1", "api_key_env": "MY_VLLM_KEY"}, WHERE)


def test_anthropic_without_extra_says_what_to_install():
    if importlib.util.find_spec("anthropic"):
        pytest.skip("the anthropic extra is installed")
    with pytest.raises(ModelConfigError, match=r"pip install 'autogen-ext\[anthropic\]'"):
        build_client(parse_model_spec("anthropic/claude-3-5-haiku-latest", WHERE))


def test_import_is_light():
    code = (
        "import sys, simulator.models.clients; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'openai', 'autogen_core', 'autogen_ext', "
        "'autogen_agentchat', 'tiktoken', 'tenacity'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------- building


def test_clients_use_the_spec(fake_openai):
    fake_openai.enqueue(reply("hi"))
    client = build_client(local(fake_openai, temperature=0, max_tokens=64))
    assert create(client).content == "hi"
    request = fake_openai.requests[0]
    assert (request["model"], request["temperature"], request["max_tokens"]) == ("gpt-4o-mini", 0, 64)
    assert authorization(fake_openai) == f"Bearer {SECRET}"
    assert client.model_info["function_calling"]


def test_ollama_defaults_to_its_local_endpoint_without_key():
    client = build_client(parse_model_spec("ollama/llama3.2", WHERE))
    assert client.inner._url == f"{OLLAMA_URL}/chat/completions"
    assert client.model_info["family"] == "unknown"


def test_openai_is_found_as_the_sdk_finds_it(fake_openai, monkeypatch):
    """OPENAI_BASE_URL (a proxy or gateway in front of OpenAI), OPENAI_ORG_ID and OPENAI_PROJECT_ID."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_ORG_ID", "org-test")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-test")
    fake_openai.enqueue(reply("via the gateway"))
    assert create(build_client(parse_model_spec("openai/gpt-4o-mini", WHERE))).content == "via the gateway"
    headers = {k.lower(): v for k, v in fake_openai.headers[-1].items()}
    assert (headers["openai-organization"], headers["openai-project"]) == ("org-test", "proj-test")
    assert headers["authorization"] == f"Bearer {SECRET}"


def test_openai_models_take_autogens_model_info_as_autogens_client_does(fake_openai):
    """OpenAI's own models are known to autogen (vision, family, several system messages): the
    built-in client sends what autogen's client sends for them; a model autogen does not know
    gets the defaults."""
    from autogen_core.models import SystemMessage
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    messages = [SystemMessage(content="You are a CRM agent.\n"), *user(), SystemMessage(content="Be brief.")]
    client = build_client(local(fake_openai))
    assert client.model_info["family"] == "gpt-4o" and client.model_info["vision"]
    fake_openai.enqueue(reply("a"), reply("b"))
    create(client, messages)
    autogens = OpenAIChatCompletionClient(
        model="gpt-4o-mini", base_url=fake_openai.base_url, api_key=SECRET, max_retries=0, max_tokens=None
    )
    asyncio.run(autogens.create(messages))
    ours, theirs = fake_openai.requests
    assert ours["messages"] == theirs["messages"] and len(ours["messages"]) == 3
    newer = build_client(parse_model_spec("openai/gpt-99-preview", WHERE))
    assert newer.model_info == DEFAULT_MODEL_INFO


def test_an_autogen_without_its_model_table_gives_the_defaults(tmp_path, monkeypatch):
    """The OpenAI model table is read from autogen-ext's private file: an autogen-ext that moved it
    gives every model the defaults and the default context window, with a warning, not a crash."""
    from simulator.models import clients

    package = importlib.util.find_spec("autogen_ext.models.openai")
    moved = importlib.machinery.ModuleSpec(package.name, None, is_package=True)
    moved.submodule_search_locations = [str(tmp_path)]
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: moved if name == package.name else real_find_spec(name, *a)
    )
    monkeypatch.delitem(sys.modules, "autogen_ext.models.openai._model_info", raising=False)
    clients._autogen_model_table.cache_clear()
    try:
        assert clients._autogen_model_table() is None
        client = build_client(parse_model_spec("openai/gpt-4o-mini", WHERE))
        assert client.model_info == DEFAULT_MODEL_INFO
        assert client.remaining_tokens([]) == clients.CONTEXT_WINDOW
    finally:
        clients._autogen_model_table.cache_clear()


def test_component_from_allowlist_gets_key_from_env_and_no_sdk_retries(fake_openai):
    fake_openai.enqueue(error(500))
    spec = parse_model_spec(
        {
            "provider": "OpenAIChatCompletionClient",
            "api_key_env": "OPENAI_API_KEY",
            "retries": {"attempts": 1, "max_wait": 0},
            "config": {"model": "gpt-4o-mini", "base_url": fake_openai.base_url},
        },
        WHERE,
    )
    client = build_client(spec)
    with pytest.raises(InfraError, match="HTTP 500"):
        create(client)
    assert len(fake_openai.requests) == 1
    assert authorization(fake_openai) == f"Bearer {SECRET}"


def test_invalid_component_config_fails_at_build_with_where():
    spec = parse_model_spec(
        {
            "provider": "OpenAIChatCompletionClient",
            "api_key_env": "OPENAI_API_KEY",
            "config": {"model": "gpt-4o", "temperature": "hot"},
        },
        WHERE,
    )
    with pytest.raises(ModelConfigError, match=f"(?s)^{WHERE}: cannot build component/gpt-4o: .*temperature") as caught:
        build_client(spec)
    assert SECRET not in str(caught.value)


def test_replay_component_counts_usage():
    spec = parse_model_spec(
        {"provider": "ReplayChatCompletionClient", "config": {"chat_completions": ["one two three"]}}, WHERE
    )
    client = build_client(spec, prices={})
    assert create(client).content == "one two three"
    usage = client.drain_usage()
    assert usage.calls == 1 and usage.completion_tokens > 0 and usage.cost_usd is None


# ---------------------------------------------------------------- retries


def test_429_then_200_is_retried_and_counted(fake_openai):
    fake_openai.enqueue(error(429, retry_after=0), reply("ok", prompt_tokens=20, completion_tokens=5))
    client = build_client(local(fake_openai), prices={"gpt-4o-mini": Price(input=1.0, output=2.0)})
    assert create(client).content == "ok"
    assert client.retries_used == 1 and len(fake_openai.requests) == 2
    usage = client.drain_usage()
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (1, 20, 5)
    assert usage.cost_usd == pytest.approx((20 * 1.0 + 5 * 2.0) / 1e6)
    assert usage.latency_s > 0
    assert client.drain_usage() == Usage()  # drained


def test_persistent_500s_end_as_infra_error(fake_openai):
    fake_openai.responder = lambda body: error(500)
    client = build_client(local(fake_openai))
    with pytest.raises(InfraError) as caught:
        create(client)
    assert len(fake_openai.requests) == 3 and client.retries_used == 2
    assert str(caught.value) == "openai/gpt-4o-mini: HTTP 500 (InternalServerError) after 3 attempt(s)"
    assert client.drain_usage().calls == 0


def test_auth_failure_is_infra_error_without_retries(fake_openai):
    fake_openai.enqueue(error(401, body='{"error": {"message": "Incorrect API key provided: sk-tes***def"}}'))
    with pytest.raises(InfraError, match=r"HTTP 401 .*not retried"):
        create(build_client(local(fake_openai)))
    assert len(fake_openai.requests) == 1


def test_bad_request_is_passed_through_unretried(fake_openai):
    from simulator.models.chat_completions import APIStatusError

    fake_openai.enqueue(error(400, body='{"error": {"message": "context length exceeded"}}'))
    with pytest.raises(APIStatusError, match="context length exceeded") as caught:
        create(build_client(local(fake_openai)))
    assert type(caught.value).__name__ == "BadRequestError" and caught.value.status_code == 400
    assert len(fake_openai.requests) == 1


def test_connection_refused_is_retried_then_infra_error():
    spec = parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:9/v1", "retries": FAST}, WHERE)
    client = build_client(spec)
    with pytest.raises(InfraError, match="APIConnectionError after 3 attempt"):
        create(client)
    assert client.retries_used == 2


@pytest.mark.parametrize("max_wait, slept", [(1.0, True), (0, False)])
def test_retry_after_is_honoured_up_to_max_wait(fake_openai, max_wait, slept):
    fake_openai.enqueue(error(429, retry_after=0.3), reply("ok"))
    client = build_client(local(fake_openai, retries={"attempts": 2, "max_wait": max_wait}))
    started = time.monotonic()
    create(client)
    assert (time.monotonic() - started >= 0.3) is slept


# ---------------------------------------------------------------- usage, cost, concurrency


def test_tokens_counted_offline_when_api_reports_none(fake_openai):
    fake_openai.enqueue(reply("There are three open cases.", prompt_tokens=0, completion_tokens=0))
    client = build_client(local(fake_openai), prices={})
    create(client, user("How many open cases are there for Acme?"))
    usage = client.drain_usage()
    assert 10 <= usage.prompt_tokens <= 20  # 10 text tokens + per-message overhead
    assert usage.completion_tokens == 6
    assert usage.cost_usd is None  # gpt-4o-mini not in this price table


def test_default_price_table(tmp_path):
    prices = load_prices()
    assert prices["gpt-4o-mini"].input > 0 and "llama3.2" not in prices
    bad = tmp_path / "prices.yaml"
    bad.write_text("gpt-x: {input: 1}\n")
    with pytest.raises(ModelConfigError, match=r"prices\.yaml: gpt-x: expected"):
        load_prices(bad)


def test_concurrency_limit_per_model(fake_openai):
    lock, state = threading.Lock(), {"now": 0, "max": 0}

    def slow(body):
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return reply("ok")

    fake_openai.responder = slow
    first, second = build_client(local(fake_openai, max_concurrency=2)), build_client(local(fake_openai))

    async def many():
        await asyncio.gather(*(c.create(user()) for c in (first, second) for _ in range(3)))

    asyncio.run(many())
    assert len(fake_openai.requests) == 6 and state["max"] == 2  # one limit for both clients of the model


# ---------------------------------------------------------------- secrets


def test_key_never_in_settings_errors_or_logs(fake_openai, caplog):
    lines: list[str] = []
    sink = logger.add(lines.append, level="DEBUG")
    caplog.set_level(logging.DEBUG)
    try:
        fake_openai.enqueue(error(429, retry_after=0), reply("ok"))
        spec = local(fake_openai)
        client = build_client(spec)
        create(client)
        fake_openai.responder = lambda body: error(500)
        with pytest.raises(InfraError) as caught:
            create(client)
    finally:
        logger.remove(sink)
    assert authorization(fake_openai) == f"Bearer {SECRET}"  # it was used
    assert any("retrying" in line for line in lines)  # and the retries were logged
    shown = [
        json.dumps(spec.settings()),
        repr(spec),
        str(caught.value),
        *lines,
        caplog.text,
        json.dumps(client.drain_usage().to_json()),
    ]
    assert not [text for text in shown if SECRET in text]


def test_stream_is_limited_and_counted():
    spec = parse_model_spec(
        {"provider": "ReplayChatCompletionClient", "config": {"chat_completions": ["one two three"]}}, WHERE
    )
    client = build_client(spec, prices={})

    async def collect():
        return [item async for item in client.create_stream(user())]

    items = asyncio.run(collect())
    assert items[-1].content == "one two three" and all(isinstance(i, str) for i in items[:-1])
    assert client.drain_usage().calls == 1


def test_settings_never_carry_secrets_from_component_configs_or_urls(monkeypatch):
    monkeypatch.setenv("K", "sk-test-key")
    spec = parse_model_spec(
        {
            "provider": "autogen_ext.models.openai.OpenAIChatCompletionClient",
            "config": {
                "model": "m",
                "temperature": 0.2,
                "default_headers": {"Authorization": "Bearer sk-HEADERSECRET123"},
            },
            "api_key_env": "K",
        },
        where="t",
    )
    settings = json.dumps(spec.settings())
    assert "HEADERSECRET" not in settings and '"temperature": 0.2' in settings
    url = parse_model_spec({"model": "m", "base_url": "http://user:pw-SECRET@localhost:8000/v1"}, where="t")
    assert url.settings()["base_url"] == "http://localhost:8000/v1"


def test_openai_style_runs_never_import_the_openai_sdk(fake_openai):
    """Importing the SDK takes ~0.8 s: a run's model calls go through simulator.models.chat_completions."""
    import subprocess
    import sys

    fake_openai.enqueue(reply("hi"))
    script = f"""
import asyncio, os, sys
from autogen_core.models import UserMessage
from simulator.models.clients import build_client, parse_model_spec
os.environ["K"] = "sk-test-key"
spec = {{"model": "m", "base_url": "{fake_openai.base_url}", "api_key_env": "K"}}
result = asyncio.run(build_client(parse_model_spec(spec, "t")).create([UserMessage(content="hello", source="user")]))
print(result.content, sorted(m for m in sys.modules if m.split(".")[0] == "openai" or "models.openai" in m))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["hi", "[]"]
    assert fake_openai.requests[-1] == {
        "messages": [{"role": "user", "name": "user", "content": "hello"}],
        "model": "m",
        "max_tokens": 512,
    }  # (LOCAL_DEFAULTS: a server on loopback)


def test_clients_of_one_model_share_a_connection_pool_within_an_event_loop(monkeypatch):
    monkeypatch.setenv("K", "sk-test-key")
    spec = parse_model_spec({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "K"}, where="t")
    other = parse_model_spec({"model": "m2", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "K"}, where="t")

    async def build():
        a, b, c = build_client(spec), build_client(spec), build_client(other)
        await a.close()  # a shared provider client stays open for the loop's other episodes
        return a, b, c

    a, b, c = asyncio.run(build())
    assert a.inner is b.inner and a.inner is not c.inner and not a.owns_inner
    assert build_client(spec).owns_inner  # outside an event loop: a client of its own

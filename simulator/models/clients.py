"""Model clients for agents, user simulators and judges: specs, retries, limits, usage, cost.

A model spec (from a run config) is `openai/<model>`, `anthropic/<model>`, `ollama/<model>`,
a mapping with an OpenAI-compatible `base_url` (vLLM, llama.cpp server, LM Studio), or a full
autogen component config `{provider, config}` whose provider is on an allowlist. A spec
holds the *name* of the environment variable with the API key, never a key.

`build_client(spec)` returns a `ModelClient`: an autogen ChatCompletionClient around the provider's
client (for OpenAI, Ollama and OpenAI-compatible servers the built-in simulator.models.chat_completions,
which does without the OpenAI SDK and its ~0.8 s import; for components, autogen's client) that
retries transient provider errors (tenacity, exponential backoff with full jitter, Retry-After
honoured; an SDK's own retries off; a 200 reply holding a provider error, no choices or no
message counts as transient: MalformedReply), raises InfraError when they run out, limits
calls per model (simulator.models.ratelimit: the spec's `rpm` and `tpm` in a bucket shared by every
process on the machine, a Retry-After pausing every caller, and an AIMD cap on calls in flight
up to `max_concurrency`), and accounts calls, tokens (the API's usage, else an offline
tiktoken count), latency and cost (configs/prices.yaml; an unlisted model has no cost).

A timeout is not retried blindly: it halves the calls in flight of its provider/model/base_url
on the whole machine (simulator.models.ratelimit.ServerPace), the request is sent again only after
the timeout's length once more (the server finishes what was abandoned; never longer than
`retries.max_wait`), a second timeout in a row at one call in flight doubles the timeout (up to
900 s; each answer halves it again, down to the configured value or twice the recent latency),
and repeated timeouts name the slow server once per run with what to change. A server on
loopback or a known local server's port gets LOCAL_DEFAULTS (calls in flight measured from one
up: simulator.models.ratelimit.LatencyRounds; a long timeout, short replies) where its spec sets
nothing; a spec's own `max_concurrency` is a fixed cap unless it also says `measure_concurrency:
true`. The effective values are in the spec's settings, so transcripts show them.

autogen, httpx, the SDKs and tiktoken are imported on first use, never when this module is imported.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import time
import weakref
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loguru import logger

from simulator.infra.errors import InfraError
from simulator.infra.log import quiet_unless_configured
from simulator.infra.secrets import redact, remember, remember_config, without_credentials
from simulator.models.completions import (
    CONTEXT_WINDOW,
    MalformedReply,
    count_text_tokens,
    count_tokens_offline,
    raise_malformed,
)
from simulator.models.ratelimit import AdaptiveConcurrency, ServerPace, SharedBucket
from simulator.models.usage import Usage

quiet_unless_configured()  # used as a library, simulator logs nothing until setup_logging

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, Sequence

    from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
    from pydantic import BaseModel

    from simulator.models.cache import ResponseCache

SHORT_PROVIDERS = ("openai", "anthropic", "ollama")
DEFAULT_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
OLLAMA_URL = "http://localhost:11434/v1"
OPENAI_URL = "https://api.openai.com/v1"
OPENAI_HEADERS = {"OpenAI-Organization": "OPENAI_ORG_ID", "OpenAI-Project": "OPENAI_PROJECT_ID"}  # header: variable
NO_KEY = "not-needed"  # the bearer token keyless local servers get (some servers insist on one)
COMPONENT_PROVIDERS = frozenset(
    {
        "autogen_ext.models.openai.OpenAIChatCompletionClient",
        "autogen_ext.models.openai.AzureOpenAIChatCompletionClient",
        "autogen_ext.models.anthropic.AnthropicChatCompletionClient",
        "autogen_ext.models.anthropic.AnthropicBedrockChatCompletionClient",
        "autogen_ext.models.ollama.OllamaChatCompletionClient",
        "autogen_ext.models.replay.ReplayChatCompletionClient",
    }
)
_COMPONENT_ALIASES = {path.rsplit(".", 1)[1]: path for path in COMPONENT_PROVIDERS}
# What a model is assumed to support unless autogen knows it (OpenAI's own) or the spec's `model_info` says.
DEFAULT_MODEL_INFO = {
    "vision": False,
    "function_calling": True,
    "json_output": True,
    "structured_output": True,
    "family": "unknown",
}
MODEL_INFO_KEYS = frozenset(DEFAULT_MODEL_INFO) | {"multiple_system_messages"}
DEFAULT_PRICES = Path(__file__).resolve().parents[2] / "configs" / "prices.yaml"
FATAL_STATUSES = (401, 402, 403, 404)  # bad key, no credit, no access, no such model: no retry
# What a model server on this machine (or a known local server's port) gets unless its spec
# says otherwise: it may answer one request at a time, slowly, on a CPU (configs/local.yaml), or
# dozens at once on a GPU (vLLM, llama-server -np): the calls in flight are measured, from one up
# to LOCAL_CEILING, while the time per request stays flat (simulator.models.ratelimit.LatencyRounds)
LOCAL_CEILING = 128
LOCAL_DEFAULTS = {"max_concurrency": LOCAL_CEILING, "measure_concurrency": True, "timeout": 300.0, "max_tokens": 512}
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
# Ollama's and LM Studio's ports, desktop apps wherever they run; not 8000/8080 (vLLM, llama-server):
# on another host those are as often a GPU server, which the CPU defaults would throttle to one call.
LOCAL_PORTS = frozenset({11434, 1234})


class ModelConfigError(ValueError):
    """A model spec is invalid: says where it was configured and what is wrong."""

    def __init__(self, where: str, problem: str):
        super().__init__(f"{where}: {problem}")
        self.where, self.problem = where, problem


@dataclass(frozen=True)
class Retries:
    """How transient provider errors are retried."""

    attempts: int = 6  # calls in all, the first included
    max_wait: float = 60.0  # seconds: cap on one backoff or Retry-After wait


@dataclass(frozen=True)
class ModelSpec:
    """One configured model. Holds the name of the API-key variable, never a key."""

    provider: str  # openai | anthropic | ollama | openai_compatible | component
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    max_concurrency: int = 4  # calls in flight (retries included) per provider/model/base_url
    measure_concurrency: bool = False  # start at one call in flight, grow while latency stays flat
    rpm: int | None = None  # requests per minute, shared by the run's processes on this machine
    tpm: int | None = None  # tokens (prompt and completion) per minute, likewise
    timeout: float = 120.0  # seconds per request
    retries: Retries = Retries()
    model_info: Mapping[str, Any] | None = field(default=None, hash=False)
    structured_output: str | None = None  # json_object: send output schemas as a json_object response format
    component: Mapping[str, Any] | None = field(default=None, hash=False)  # {provider, config}
    where: str = field(default="model", compare=False, repr=False)

    @property
    def label(self) -> str:
        return f"{self.provider}/{self.model}"

    def settings(self) -> dict[str, Any]:
        """The spec for a transcript: every setting that is set, and no secret (a component
        config keeps only its model settings; a base_url loses any user:password@)."""
        data = asdict(self)
        del data["where"]
        if self.component is not None:
            config = self.component.get("config", {})
            data["component"] = {
                "provider": self.component.get("provider"),
                "config": {k: config[k] for k in SAFE_CONFIG_KEYS if k in config},
            }
        if self.base_url:
            data["base_url"] = without_credentials(self.base_url)
        if not self.measure_concurrency:
            del data["measure_concurrency"]
        return {key: value for key, value in data.items() if value is not None}


SAFE_CONFIG_KEYS = (
    "model",
    "base_url",
    "temperature",
    "top_p",
    "max_tokens",
    "max_completion_tokens",
    "seed",
    "parallel_tool_calls",
    "model_info",
)


# ---------------------------------------------------------------- parsing

_WRAPPER_KEYS = {
    "api_key_env": str,
    "max_concurrency": int,
    "measure_concurrency": bool,
    "rpm": int,
    "tpm": int,
    "retries": Mapping,
}
_OPTION_KEYS = {
    **_WRAPPER_KEYS,
    "base_url": str,
    "temperature": float,
    "max_tokens": int,
    "timeout": float,
    "model_info": Mapping,
    "structured_output": str,
}
STRUCTURED_OUTPUT = ("json_schema", "json_object")  # how an output schema is asked for: OpenAI's
# json_schema response format (the default), or {"type": "json_object", "schema": ...}, which
# llama-cpp-python's server enforces with a grammar and which it takes instead of json_schema
_POSITIVE = {"max_concurrency", "max_tokens", "timeout", "rpm", "tpm"}
_KIND_NAMES = {str: "string", int: "integer", float: "number", Mapping: "mapping", bool: "boolean"}


def parse_model_spec(value: str | Mapping[str, Any], where: str) -> ModelSpec:
    """A ModelSpec from a config value; `where` (e.g. "config.yaml: agent.model") names it in errors.

    Forms: "openai/gpt-4o-mini", "anthropic/<model>", "ollama/<model>";
    {model: "<provider>/<model>", ...options}; {provider: openai, model: <model>, ...};
    {model: <name sent verbatim>, base_url: <OpenAI-compatible URL>, ...};
    {provider: <allowlisted autogen client>, config: {...}, api_key_env?, max_concurrency?, rpm?, tpm?, retries?}.
    """
    if isinstance(value, str):
        value = {"model": value}
    if not isinstance(value, Mapping):
        raise ModelConfigError(where, f"expected 'provider/model' or a mapping, got {type(value).__name__}")
    provider = value.get("provider")
    if isinstance(provider, str) and ("." in provider or provider in _COMPONENT_ALIASES):
        spec = _component_spec(value, where)
    else:
        spec = _short_spec(value, where)
    _api_key(spec)  # fail now, not mid-run, when the key's variable is unset
    return spec


def _short_spec(value: Mapping[str, Any], where: str) -> ModelSpec:
    _check_keys(value, {"provider", "model", *_OPTION_KEYS}, where)
    model = value.get("model")
    if not isinstance(model, str) or not model.strip():
        raise ModelConfigError(where, "missing model (e.g. 'openai/gpt-4o-mini')")
    options = _options(value, where)
    provider = value.get("provider")
    if provider is None and "base_url" in options:
        provider = "openai_compatible"  # the model name goes to the server verbatim
    elif provider is None:
        provider, _, model = model.partition("/")
        if not model:
            raise ModelConfigError(
                where,
                f"expected 'provider/model' with provider one of {', '.join(SHORT_PROVIDERS)}, got {value['model']!r}",
            )
    if provider not in SHORT_PROVIDERS + ("openai_compatible",):
        raise ModelConfigError(
            where,
            f"unknown provider {provider!r}; use one of {', '.join(SHORT_PROVIDERS)}, "
            "a base_url, or an allowlisted autogen client",
        )
    if "structured_output" in options and provider == "anthropic":
        raise ModelConfigError(where, "structured_output is for OpenAI-style servers; anthropic has no response format")
    if provider == "openai_compatible" and "base_url" not in options:
        raise ModelConfigError(where, "provider openai_compatible needs a base_url")
    options.setdefault("api_key_env", DEFAULT_KEY_ENV.get(provider))
    if is_local_server(options.get("base_url") or (OLLAMA_URL if provider == "ollama" else None)):
        options = _local_defaults(options)
    return ModelSpec(provider=provider, model=model, where=where, **options)


def _component_spec(value: Mapping[str, Any], where: str) -> ModelSpec:
    _check_keys(value, {"provider", "config", *_WRAPPER_KEYS}, where, hint="; set model options inside config")
    path = _COMPONENT_ALIASES.get(value["provider"], value["provider"])
    if path not in COMPONENT_PROVIDERS:
        raise ModelConfigError(
            where,
            f"provider {value['provider']!r} is not an allowed model client; "
            f"allowed: {', '.join(sorted(COMPONENT_PROVIDERS))}",
        )
    config = value.get("config", {})
    if not isinstance(config, Mapping):
        raise ModelConfigError(where, "config must be a mapping")
    if "api_key" in config:
        raise ModelConfigError(
            where, "config.api_key is not allowed: put the key in an environment variable and name it with api_key_env"
        )
    if config.get("base_url") is not None:
        config = {**config, "base_url": _checked_base_url(config["base_url"], f"{where}.config")}
    model = config.get("model", path.rsplit(".", 1)[1])
    return ModelSpec(
        provider="component",
        model=model,
        base_url=config.get("base_url"),
        component={"provider": path, "config": dict(config)},
        where=where,
        **_options(value, where),
    )


def _local_defaults(options: dict[str, Any]) -> dict[str, Any]:
    """`options` over LOCAL_DEFAULTS (the spec's own values win; its own max_concurrency is a
    fixed cap, not measured, unless it also says `measure_concurrency: true`)."""
    fixed = "max_concurrency" in options
    return {**{k: v for k, v in LOCAL_DEFAULTS.items() if not (fixed and k == "measure_concurrency")}, **options}


def is_local_server(url: str | None) -> bool:
    """Whether `url` is a model server on this machine (a loopback host: llama-cpp-python,
    llama-server, vLLM...) or on the port Ollama or LM Studio listen on by default."""
    from urllib.parse import urlsplit

    if not url:
        return False
    parts = urlsplit(url)
    return parts.hostname in LOOPBACK_HOSTS or parts.port in LOCAL_PORTS


def _check_keys(value: Mapping[str, Any], allowed: set[str], where: str, hint: str = "") -> None:
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise ModelConfigError(
            where, f"unknown key(s) {', '.join(map(str, unknown))}{hint}; allowed: {', '.join(sorted(allowed))}"
        )


def _options(value: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The optional keys of a spec mapping, type-checked."""
    options = {key: value[key] for key in _OPTION_KEYS if value.get(key) is not None}
    for key, item in options.items():
        kind = _OPTION_KEYS[key]
        if not _is(item, kind) or (key in _POSITIVE and item <= 0) or (key == "temperature" and item < 0):
            adjective = "positive " if key in _POSITIVE else ""
            raise ModelConfigError(where, f"{key} must be a {adjective}{_KIND_NAMES[kind]}, got {item!r}")
    if "base_url" in options:
        options["base_url"] = _checked_base_url(options["base_url"], where)
    if "retries" in options:
        options["retries"] = _retries(options["retries"], where)
    if "model_info" in options:
        _check_keys(options["model_info"], set(MODEL_INFO_KEYS), f"{where}.model_info")
        options["model_info"] = dict(options["model_info"])
    if options.get("structured_output", STRUCTURED_OUTPUT[0]) not in STRUCTURED_OUTPUT:
        raise ModelConfigError(
            where,
            f"structured_output must be one of {', '.join(STRUCTURED_OUTPUT)}, got {options['structured_output']!r}",
        )
    if options.get("structured_output") == STRUCTURED_OUTPUT[0]:  # the default, said out loud: same spec
        del options["structured_output"]
    return options


def _checked_base_url(url: Any, where: str) -> str:
    """`url`, checked, without its user:password@ (remembered as secrets, and never sent: httpx
    would send them as Basic authorization in place of the API key)."""
    _check_base_url(url, where)
    stripped = without_credentials(url)
    if stripped != url:
        logger.warning(
            "{}: the credentials in base_url are not sent (a URL's user:password never replaces the "
            "API key; name the key's environment variable with api_key_env)",
            where,
        )
    return stripped


def _check_base_url(url: Any, where: str) -> None:
    """Raise ModelConfigError unless `url` is an http(s) URL with a host and a valid port (the
    URL is not echoed: it may hold credentials)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url if isinstance(url, str) else "")
        problem = (
            "does not start with http:// or https://"
            if parts.scheme not in ("http", "https")
            else "names no host"
            if not parts.hostname
            else "has port 0"
            if parts.port == 0
            else ""
        )
    except ValueError as exc:  # a port out of range or not a number, a bad IPv6 address
        problem = f"cannot be parsed ({exc})"
    if problem:
        raise ModelConfigError(where, f"base_url {problem}; give an http(s) URL such as http://127.0.0.1:8000/v1")


def _is(item: Any, kind: type) -> bool:
    """isinstance, where a float may be an int and a bool is not a number."""
    if kind in (int, float):
        return isinstance(item, int if kind is int else (int, float)) and not isinstance(item, bool)
    return isinstance(item, kind)


def _retries(value: Mapping[str, Any], where: str) -> Retries:
    where = f"{where}.retries"
    _check_keys(value, {"attempts", "max_wait"}, where)
    retries = Retries(**value)
    if not _is(retries.attempts, int) or retries.attempts < 1:
        raise ModelConfigError(where, f"attempts must be an integer >= 1, got {retries.attempts!r}")
    if not _is(retries.max_wait, float) or retries.max_wait < 0:
        raise ModelConfigError(where, f"max_wait must be a number >= 0, got {retries.max_wait!r}")
    return retries


def _api_key(spec: ModelSpec) -> str | None:
    """The API key from the environment (None when the spec names no variable). It and the spec's
    other secrets (header values, URL credentials) are remembered here, for redaction
    (simulator.infra.secrets): every process that builds a client reads them through this."""
    remember_config({"base_url": spec.base_url, **((spec.component or {}).get("config") or {})})
    if spec.api_key_env is None:
        return None
    key = os.environ.get(spec.api_key_env)
    if not key:
        raise ModelConfigError(
            spec.where,
            f"environment variable {spec.api_key_env} is not set (the API key for {spec.label} is read from it)",
        )
    remember(key)
    return key


# ---------------------------------------------------------------- prices


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input + completion_tokens * self.output) / 1_000_000


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    """The price table (model name -> Price); by default configs/prices.yaml."""
    from simulator.infra.inputs import parse_yaml

    path = Path(path or DEFAULT_PRICES)
    data = parse_yaml(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, Mapping):
        raise ModelConfigError(str(path), "expected a mapping of model name -> {input, output}")
    prices = {}
    for model, entry in data.items():
        if not (
            isinstance(entry, Mapping)
            and set(entry) == {"input", "output"}
            and all(_is(v, float) and v >= 0 for v in entry.values())
        ):
            raise ModelConfigError(
                f"{path}: {model}", "expected {input: <USD per 1M tokens>, output: <USD per 1M tokens>}"
            )
        prices[str(model)] = Price(float(entry["input"]), float(entry["output"]))
    return prices


@cache
def _default_prices() -> dict[str, Price]:
    if not DEFAULT_PRICES.exists():  # an installed package without the configs folder
        logger.warning("no price table at {}: costs are not computed", DEFAULT_PRICES)
        return {}
    return load_prices()


# ---------------------------------------------------------------- building


def build_client(spec: ModelSpec, prices: Mapping[str, Price] | None = None) -> ModelClient:
    """The model client for a spec, with retries, a concurrency limit and usage accounting."""
    builders = {
        "openai": _openai_client,
        "openai_compatible": _openai_client,
        "ollama": _openai_client,
        "anthropic": _anthropic_client,
        "component": _component_client,
    }
    key = _api_key(spec)
    loop = _running_loop()
    per_loop = _SHARED.setdefault(loop, {}) if loop is not None else {}
    shared = per_loop.get(spec)
    if shared is None:
        try:
            shared = builders[spec.provider](spec, key)
        except ModelConfigError:
            raise
        except (ValueError, TypeError) as exc:
            raise ModelConfigError(spec.where, redact(f"cannot build {spec.label}: {exc}")) from None
        per_loop[spec] = shared  # one provider client (one connection pool) per model per event loop
    price = (_default_prices() if prices is None else prices).get(spec.model)
    logger.debug("model client {} built ({})", spec.label, "priced" if price else "no price")
    client = _client_class()(shared, spec, price, owns_inner=loop is None)
    try:
        client._bucket.check()
    except OSError as exc:
        raise ModelConfigError(
            spec.where,
            f"cannot keep its rate limits in {client._bucket.path} "
            f"({exc.strerror or exc}); set CRMARENA_CACHE to a writable folder",
        ) from None
    return client


_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> {spec: client}


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _create_args(spec: ModelSpec) -> dict[str, Any]:
    return {k: v for k, v in (("temperature", spec.temperature), ("max_tokens", spec.max_tokens)) if v is not None}


def _openai_client(spec: ModelSpec, key: str | None) -> ChatCompletionClient:
    """The built-in client (simulator.models.chat_completions: no OpenAI SDK) for OpenAI's API, Ollama, or
    the OpenAI-compatible server at the spec's base_url. OpenAI's own API is found as the SDK
    finds it (OPENAI_BASE_URL, and OPENAI_ORG_ID / OPENAI_PROJECT_ID as headers)."""
    from simulator.models.chat_completions import OpenAIChatClient

    base_url, headers = spec.base_url, {}
    if spec.provider == "ollama":
        base_url = base_url or OLLAMA_URL
    elif spec.provider == "openai":
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
        headers = {name: os.environ[var] for name, var in OPENAI_HEADERS.items() if os.environ.get(var)}
    assert base_url is not None  # (parse_model_spec makes an openai_compatible spec name its base_url)
    return OpenAIChatClient(
        model=spec.model,
        api_key=key or NO_KEY,
        base_url=base_url,
        timeout=spec.timeout,
        create_args=_create_args(spec),
        headers=headers,
        model_info=_model_info(spec),
        http=_http_client(spec, base_url),
    )


def _model_info(spec: ModelSpec) -> dict[str, Any]:
    """What the spec's model supports: for OpenAI's own models autogen's entry (as autogen's OpenAI
    client takes it), else DEFAULT_MODEL_INFO; a spec's model_info replaces either."""
    table = _autogen_model_table() if spec.provider == "openai" and not spec.model_info else None
    if table is not None:
        try:
            return dict(table.get_info(spec.model))
        except ValueError:  # a model autogen does not know (a newer one): the defaults
            pass
    return {**DEFAULT_MODEL_INFO, **(spec.model_info or {})}


@cache
def _autogen_model_table() -> Any:
    """autogen's table of OpenAI's models (get_info, get_token_limit), or None if this autogen has
    none where 0.7 keeps it. No public API gives it without importing the OpenAI SDK (~0.8 s) and,
    for the token limit, downloading a tokenizer, so it is read from its file
    (`autogen_ext/models/openai/_model_info.py`); without it every model gets the defaults."""
    import importlib.util
    import sys

    name = "autogen_ext.models.openai._model_info"
    if name in sys.modules:
        return sys.modules[name]
    package = importlib.util.find_spec("autogen_ext.models.openai")
    assert package is not None and package.submodule_search_locations  # (a package of autogen-ext, a dependency)
    path = Path(package.submodule_search_locations[0]) / "_model_info.py"
    found = importlib.util.spec_from_file_location(f"{__name__}._autogen_model_info", path)
    if found is None or found.loader is None or not path.is_file():
        logger.warning("autogen-ext has no OpenAI model table at {}: OpenAI models get the default model info", path)
        return None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module if hasattr(module, "get_info") and hasattr(module, "get_token_limit") else None


class _Stand:
    """Stands for an SDK resource: its attributes come from the real resource (`make()`, called
    when first needed)."""

    def __init__(self, make: Any):
        self._make = make

    def __getattr__(self, name: str) -> Any:
        return getattr(self._make(), name)


def _on_beta(sdk: Any, install: Any) -> None:
    """Apply `install` to the SDK client's `beta` when it is made. Until then a stand-in takes
    its place: importing the SDK's beta resources takes ~0.5 s."""
    if "beta" in sdk.__dict__:
        install(sdk.beta)
        return

    def real() -> Any:
        beta = sdk.__dict__.get("beta")
        if isinstance(beta, _Stand):
            beta = sdk.__dict__["beta"] = type(sdk).beta.func(sdk)  # (a functools.cached_property)
            install(beta)
        return beta

    sdk.__dict__["beta"] = _Stand(real)


def _check_replies(client: ChatCompletionClient) -> None:
    """Make the SDK client under an autogen OpenAI client (a component spec) raise MalformedReply
    for a reply without a completion, before autogen or the SDK's parser fail on it with a
    TypeError (which would be blamed on the agent): non-streaming `create`, and `parse`
    (structured output), read raw."""
    sdk: Any = getattr(client, "_client", None)
    if not hasattr(getattr(sdk, "chat", None), "completions"):  # not an OpenAI SDK client (Anthropic, Ollama)
        return
    send = sdk.chat.completions.create

    async def create(**params: Any) -> Any:
        completion = await send(**params)
        if not params.get("stream"):
            raise_malformed(completion)
        return completion

    def check_parse(beta: Any) -> None:
        raw_parse = beta.chat.completions.with_raw_response.parse

        async def checked_parse(**params: Any) -> Any:
            response = await raw_parse(**params)
            raise_malformed(response.http_response.json())
            return response.parse()

        beta.chat.completions.parse = checked_parse

    sdk.chat.completions.create = create
    _on_beta(sdk, check_parse)


def _http_client(spec: ModelSpec, base_url: str):
    """An httpx client for the server at `base_url`. Plain http:// requests go through
    simulator.models.http_transport, the rest through httpx's own transport (`_fallback_transport`),
    made on first need; its TLS context is made now for an https server, so that certificates
    that cannot be loaded are a config error before the run. With proxies set in the
    environment, httpx's own transports serve every request (httpx applies those settings only
    when it makes the transports itself)."""
    import httpx

    from simulator.models.http_transport import transport_class

    options: dict[str, Any] = {"timeout": spec.timeout, "follow_redirects": True}
    proxies = _environment_proxies()
    if proxies or not base_url.startswith("http://"):
        try:
            ssl_context = _ssl_context()
        except OSError as exc:
            raise ModelConfigError(
                spec.where,
                f"cannot load the TLS certificates for {spec.label} ({exc}); check SSL_CERT_FILE / SSL_CERT_DIR",
            ) from None
        if proxies:
            return httpx.AsyncClient(**options, limits=_connection_limits(), verify=ssl_context)
    return httpx.AsyncClient(**options, transport=transport_class(httpx)(_fallback_transport))


def _environment_proxies() -> bool:
    """Whether HTTP(S)_PROXY or ALL_PROXY is set (where httpx reads them: urllib's getproxies)."""
    from urllib.request import getproxies

    return any(scheme in getproxies() for scheme in ("http", "https", "all"))


def _connection_limits():
    """The OpenAI SDK's connection limits: up to 1000 connections, 100 kept alive."""
    import httpx

    return httpx.Limits(max_connections=1000, max_keepalive_connections=100)


def _fallback_transport():
    """httpx's own transport, with the TLS context made once per process (loading the CA store
    takes ~15 ms, paid every episode otherwise); made only when a request needs it."""
    import httpx

    return httpx.AsyncHTTPTransport(limits=_connection_limits(), verify=_ssl_context())


@cache
def _ssl_context():
    """The TLS context httpx builds by default, built once per process."""
    import httpx

    return httpx.create_ssl_context()


def speaks_openai(client: Any) -> bool:
    """Whether a provider client sends OpenAI's chat-completions requests (response formats and
    all): the built-in client, or autogen's OpenAI clients (told apart without importing them)."""
    return any(c.__name__ in ("OpenAIChatClient", "BaseOpenAIChatCompletionClient") for c in type(client).__mro__)


def _anthropic_client(spec: ModelSpec, key: str | None) -> ChatCompletionClient:
    try:
        from autogen_ext.models.anthropic import AnthropicChatCompletionClient
    except ImportError:
        raise ModelConfigError(
            spec.where, "anthropic models need the anthropic extra: pip install 'autogen-ext[anthropic]'"
        ) from None
    config = {"model": spec.model, "api_key": key, "max_retries": 0, "timeout": spec.timeout, **_create_args(spec)}
    if spec.base_url:
        config["base_url"] = spec.base_url
    if spec.model_info:
        config["model_info"] = {**DEFAULT_MODEL_INFO, **spec.model_info}
    return AnthropicChatCompletionClient(**config)


def _component_client(spec: ModelSpec, key: str | None) -> ChatCompletionClient:
    """An allowlisted autogen client from its component config, SDK retries off, key from the env."""
    from autogen_core.models import ChatCompletionClient

    assert spec.component is not None  # (build_client chose this builder for a component spec)
    path, config = spec.component["provider"], dict(spec.component["config"])
    module, name = path.rsplit(".", 1)
    try:
        cls = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        raise ModelConfigError(
            spec.where, f"{path} cannot be imported ({exc.name} is missing); install the matching autogen-ext extra"
        ) from None
    if "max_retries" in cls.component_config_schema.model_fields:
        config["max_retries"] = 0
    if key:
        config["api_key"] = key
    try:
        client = ChatCompletionClient.load_component({"provider": path, "config": config})
    except Exception as exc:  # (e.g. the SDK's "api_key must be set": any failure of the user's config)
        raise ModelConfigError(
            spec.where,
            redact(
                f"cannot build {spec.label}: {exc}"
                + ("" if key else "; if it needs an API key, name its environment variable with api_key_env")
            ),
        ) from None
    _check_replies(client)
    return client


# ---------------------------------------------------------------- errors and waits


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def _is_transient(exc: BaseException) -> bool:
    """Worth retrying: rate limits, timeouts, conflicts, 5xx, dropped connections (any SDK), and
    a response body that is not whole JSON (cut off in transit: the SDK raises JSONDecodeError),
    and a 200 reply without a completion (MalformedReply)."""
    status = _status(exc)
    if status is not None:
        return status in (408, 409, 429) or status >= 500
    if isinstance(exc, (json.JSONDecodeError, MalformedReply)):
        return True
    return any(c.__name__ in ("APIConnectionError", "TransportError") for c in type(exc).__mro__)


def _retry_after(exc: BaseException | None) -> float:
    """Seconds the server asked us to wait (retry-after-ms, or Retry-After in seconds or as an
    HTTP date), never negative; else 0."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except (TypeError, ValueError):
            continue
    return _seconds_until(headers.get("retry-after"))


def _seconds_until(http_date: str | None) -> float:
    """Seconds from now to an HTTP date (RFC 9110), never negative; 0 for no date or a bad one."""
    from datetime import datetime
    from email.utils import parsedate_to_datetime

    if http_date is None:
        return 0.0
    try:
        when = parsedate_to_datetime(http_date)
    except (TypeError, ValueError):
        return 0.0
    when = when if when.tzinfo else when.replace(tzinfo=UTC)  # "-0000": UTC
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _describe(exc: BaseException) -> str:
    if isinstance(exc, MalformedReply):
        return str(exc)
    status = _status(exc)
    return f"HTTP {status} ({type(exc).__name__})" if status else type(exc).__name__


# ---------------------------------------------------------------- the client

_CONCURRENCY: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, AdaptiveConcurrency]] = (
    weakref.WeakKeyDictionary()
)


def _concurrency(spec: ModelSpec) -> AdaptiveConcurrency:
    """The shared cap of a provider/model/base_url in this event loop (the first spec's ceiling wins)."""
    per_loop = _CONCURRENCY.setdefault(asyncio.get_running_loop(), {})
    key = (spec.provider, spec.model, spec.base_url)
    if key not in per_loop:
        per_loop[key] = AdaptiveConcurrency(spec.max_concurrency, ServerPace(_scope(spec)), spec.measure_concurrency)
    return per_loop[key]


def _scope(spec: ModelSpec) -> str:
    """What the machine's processes share limits and pace by: provider, base_url and model."""
    return f"{spec.provider}|{spec.base_url}|{spec.model}"


def _server(spec: ModelSpec) -> str:
    """The server and model of a spec for a log line: no credentials, no query."""
    from urllib.parse import urlsplit, urlunsplit

    url = spec.base_url or (OLLAMA_URL if spec.provider == "ollama" else None)
    if not url:
        return spec.label
    parts = urlsplit(without_credentials(url))
    return f"{urlunsplit(parts._replace(query='', fragment=''))} (model {spec.model})"


def _is_timeout(exc: BaseException | None) -> bool:
    """A request that got no answer in time (any SDK, httpx, asyncio)."""
    return isinstance(exc, TimeoutError) or any(
        c.__name__ in ("APITimeoutError", "TimeoutException") for c in type(exc).__mro__
    )


class _ModelClient:
    """An autogen ChatCompletionClient around a provider's client: retries transient errors,
    limits concurrency per model, accounts usage (`drain_usage()`) and counts `retries_used`.

    (The class `ModelClient` adds autogen's ChatCompletionClient base to this on first use.)
    """

    def __init__(self, inner: ChatCompletionClient, spec: ModelSpec, price: Price | None, owns_inner: bool = True):
        self.inner, self.spec, self.price, self.owns_inner = inner, spec, price, owns_inner
        self.cache: ResponseCache | None = None
        self.cache_scope = ""  # the trial the cache serves
        self.retries_used = 0  # retries (not first attempts) over the client's life
        self._usage = Usage()
        self._bucket = SharedBucket(_scope(spec), spec.rpm, spec.tpm)

    def drain_usage(self) -> Usage:
        """The usage since the last drain (agents call it once per turn)."""
        usage, self._usage = self._usage, Usage()
        return usage

    async def create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        kwargs = self._output_format(kwargs)
        cache, key = self.cache, self._cache_key(messages, kwargs)
        if cache is not None and key is not None:
            cached = await cache.get(key)
            if cached is not None:  # a replayed reply: no model call, no usage, no cost
                return cached
        result = await self._create(messages, **kwargs)
        if cache is not None and key is not None:
            await cache.put(key, result)
        return result

    def _output_format(self, kwargs: dict) -> dict:
        """With `structured_output: json_object`, an output schema (a pydantic `json_output`, or a
        json_schema response format) goes out as {"type": "json_object", "schema": ...}; the
        caller still validates the reply against it."""
        if self.spec.structured_output != "json_object":
            return kwargs
        output: bool | type[BaseModel] | None = kwargs.get("json_output")  # (autogen's json_output)
        extra = dict(kwargs.get("extra_create_args") or {})
        if isinstance(output, type):
            schema = output.model_json_schema()
        elif (extra.get("response_format") or {}).get("type") == "json_schema":
            schema = extra["response_format"]["json_schema"]["schema"]
        else:
            return kwargs
        extra["response_format"] = {"type": "json_object", "schema": schema}
        return {**kwargs, "json_output": None, "extra_create_args": extra}

    def _cache_key(self, messages: Sequence[LLMMessage], kwargs: dict) -> str | None:
        if self.cache is None:
            return None
        from simulator.models.cache import request_key

        return request_key(
            self.spec.settings(),
            messages,
            tools=kwargs.get("tools", ()),
            json_output=kwargs.get("json_output"),
            extra=kwargs.get("extra_create_args"),
            scope=self.cache_scope,
        )

    async def _create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        estimate = self._estimate(messages, kwargs)
        async with _concurrency(self.spec).slot():
            result, started = await self._attempts(
                lambda timeout: self.inner.create(messages, **self._timed(kwargs, timeout)), estimate
            )
        self._account(messages, kwargs.get("tools", ()), result, time.perf_counter() - started, estimate)
        return result

    async def _attempts(self, request, estimate: int) -> tuple[Any, float]:
        """`_send` until an attempt succeeds, retried as `_retrying` says. The first attempt goes
        before tenacity's loop (which costs 3-5% of a call's CPU); its failure, whatever it is,
        is handed to the loop as the loop's first attempt, so what follows is the loop's own."""
        try:
            return await self._send(request, estimate)
        except Exception as exc:
            first: Exception | None = exc
        async for attempt in self._retrying():
            with attempt:
                if first is not None:
                    failed, first = first, None
                    raise failed
                outcome = await self._send(request, estimate)
        return outcome

    async def create_stream(
        self, messages: Sequence[LLMMessage], **kwargs: Any
    ) -> AsyncGenerator[str | CreateResult, None]:
        """Streams; failures before the first chunk are retried, later ones end as InfraError."""
        kwargs = self._output_format(kwargs)
        estimate = self._estimate(messages, kwargs)
        async with _concurrency(self.spec).slot():
            async for attempt in self._retrying():
                with attempt:
                    stream: AsyncGenerator[str | CreateResult, None] | None = None

                    def first(timeout):
                        nonlocal stream
                        stream = self.inner.create_stream(messages, **self._timed(kwargs, timeout))
                        return anext(stream)

                    item, started = await self._send(first, estimate)
            while True:
                yield item
                if not isinstance(item, str):
                    self._account(messages, kwargs.get("tools", ()), item, time.perf_counter() - started, estimate)
                    return
                assert stream is not None  # (set by the attempt that returned the first item)
                try:
                    item = await anext(stream)
                except Exception as exc:
                    if not _is_transient(exc):
                        raise
                    raise InfraError(f"{self.spec.label}: stream broke with {_describe(exc)}") from exc

    def _estimate(self, messages: Sequence[LLMMessage], kwargs: dict) -> int:
        """The prompt tokens a tpm limit is charged before the call (0 without one)."""
        return count_tokens_offline(messages, kwargs.get("tools", ())) if self.spec.tpm else 0

    async def _send(self, request, estimate: int) -> tuple[Any, float]:
        """One attempt through the rate limits (`request(timeout)` makes it), and when it was sent
        (perf_counter). A 429 halves this loop's concurrency and pauses every caller on the
        machine for its Retry-After; a timeout halves the server's pace (see _timed_out)."""
        await self._bucket.acquire(estimate)
        limit, timeout = _concurrency(self.spec), self._timeout()
        started, sent, sent_at = time.perf_counter(), time.monotonic(), time.time()
        try:
            result = await self._call(request(timeout))
        except Exception as exc:
            self._bucket.settle(-estimate)  # a failed attempt is charged no tokens
            if _status(exc) == 429:
                limit.refused(sent)
                self._bucket.pause(min(self.spec.retries.max_wait, _retry_after(exc)))
            elif _is_timeout(exc):
                self._timed_out(limit, sent_at, timeout)
            raise
        limit.succeeded(time.perf_counter() - started, sent)
        return result, started

    def _timeout(self) -> float:
        """Seconds an attempt may take: the spec's, or what the server's pace raised it to."""
        pace = _concurrency(self.spec).pace
        assert pace is not None  # (_concurrency gives every limit its server's pace)
        return pace.timeout(self.spec.timeout)

    def _timed(self, kwargs: dict, timeout: float) -> dict:
        """`kwargs` with a raised `timeout` for this request (OpenAI-style clients take it per request)."""
        if timeout == self.spec.timeout or self.spec.provider not in ("openai", "openai_compatible", "ollama"):
            return kwargs
        return {**kwargs, "extra_create_args": {**(kwargs.get("extra_create_args") or {}), "timeout": timeout}}

    def _timed_out(self, limit: AdaptiveConcurrency, sent_at: float, timeout: float) -> None:
        """Halve the server's pace; say once per run that the server cannot keep up (with what
        was measured and what to change), and when the timeout is raised."""
        news = limit.timed_out(sent_at, timeout)
        where = self.spec.where
        if news.raised_to:
            logger.warning(
                "{}: a second timeout in a row at one call in flight: timeout raised to {:g} s "
                "(set {}.timeout to choose it)",
                _server(self.spec),
                news.raised_to,
                where,
            )
        if news.name_it:
            measured = (
                "no request answered yet"
                if news.seconds_per_request is None
                else f"answered requests took {news.seconds_per_request:.1f} s each"
            )
            cap = limit.ceiling if limit.rounds is None else f"measured: {limit.limit()} of {limit.ceiling}"
            logger.warning(
                "slow model server {}: {} requests timed out, {}; set {}.timeout (now {:g} s) higher "
                "or {}.max_concurrency (now {}) lower",
                _server(self.spec),
                news.timeouts,
                measured,
                where,
                self._timeout(),
                where,
                cap,
            )

    async def _call(self, awaitable):
        """One attempt; a fatal provider answer (bad key, no such model) ends as InfraError at once."""
        try:
            return await awaitable
        except Exception as exc:
            if _status(exc) in FATAL_STATUSES:
                raise InfraError(f"{self.spec.label}: {_describe(exc)}, not retried", fatal=True) from exc
            raise

    def _retrying(self):
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_random_exponential

        backoff = wait_random_exponential(multiplier=1, max=self.spec.retries.max_wait)

        def wait(state) -> float:
            exc = state.outcome.exception()
            if _is_timeout(exc):  # the server gets as long again to finish the abandoned request, up to max_wait
                return min(self.spec.retries.max_wait, self._timeout())
            return min(self.spec.retries.max_wait, max(backoff(state), _retry_after(exc)))

        return AsyncRetrying(
            retry=retry_if_exception(_is_transient),
            wait=wait,
            stop=stop_after_attempt(self.spec.retries.attempts),
            before_sleep=self._before_sleep,
            retry_error_callback=self._give_up,
        )

    def _before_sleep(self, state) -> None:
        self.retries_used += 1
        logger.warning(
            "{}: {} on attempt {}/{}; retrying in {:.1f}s",
            self.spec.label,
            _describe(state.outcome.exception()),
            state.attempt_number,
            self.spec.retries.attempts,
            state.next_action.sleep,
        )

    def _give_up(self, state) -> None:
        exc = state.outcome.exception()
        message = f"{self.spec.label}: {_describe(exc)} after {state.attempt_number} attempt(s)"
        logger.error("{}", message)
        raise InfraError(message) from exc

    def _account(
        self, messages: Sequence[LLMMessage], tools: Any, result: CreateResult, latency: float, estimate: int
    ) -> None:
        prompt = result.usage.prompt_tokens or count_tokens_offline(messages, tools)
        completion = result.usage.completion_tokens or count_text_tokens([result.content, result.thought])
        self._bucket.settle(prompt + completion - estimate)  # the tpm bucket, corrected by the usage
        cost = self.price.cost(prompt, completion) if self.price else None
        self._usage.add(
            Usage(calls=1, prompt_tokens=prompt, completion_tokens=completion, latency_s=latency, cost_usd=cost)
        )

    # ---- the rest of ChatCompletionClient, delegated

    def count_tokens(self, messages, *, tools=()) -> int:
        """Counted offline (the wrapped client's count may try to download an encoding)."""
        return count_tokens_offline(messages, tools)

    def remaining_tokens(self, messages, *, tools=()) -> int:
        """The context window left, counted offline (see count_tokens)."""
        table = _autogen_model_table()
        try:
            limit = table.get_token_limit(self.spec.model) if table is not None else CONTEXT_WINDOW
        except KeyError:  # a model autogen does not know
            limit = CONTEXT_WINDOW
        return limit - self.count_tokens(messages, tools=tools)

    def actual_usage(self):
        return self.inner.actual_usage()

    def total_usage(self):
        return self.inner.total_usage()

    @property
    def capabilities(self):
        return self.inner.capabilities

    @property
    def model_info(self):
        return self.inner.model_info

    async def close(self) -> None:
        if self.owns_inner:  # a provider client shared by the loop's episodes stays open
            await self.inner.close()


@cache
def _client_class() -> type:
    from autogen_core.models import ChatCompletionClient

    return type(
        "ModelClient", (_ModelClient, ChatCompletionClient), {"__module__": __name__, "__doc__": _ModelClient.__doc__}
    )


if TYPE_CHECKING:
    ModelClient = _ModelClient  # for type checkers; at run time the class comes from __getattr__


def __getattr__(name: str) -> Any:
    """`ModelClient` is made on first access, so importing this module does not import autogen."""
    if name == "ModelClient":
        return _client_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""An autogen chat client for OpenAI's chat-completions API and the servers that speak it (vLLM,
llama.cpp, LM Studio, Ollama), over httpx, without the OpenAI SDK.

Importing the SDK (and autogen's client built on it) takes ~0.8 s, most of a run's start-up:
the SDK defines ~700 typed models at import. This client sends what autogen's
OpenAIChatCompletionClient sends for the same call (the messages, tools, tool choice and
response formats; tests/test_chat_completions.py compares the bodies on one recording
server) and returns the CreateResult it returns; `create_stream` yields the text as it
comes, then the CreateResult. What it leaves to autogen's client (a component spec,
models.py): images' token counts, Azure, and autogen's LLMCallEvent logging.

Failures are raised as the SDK names them, which models.py classifies (retry, give up) and
reports: `APIStatusError` subclasses for a non-2xx answer (with `status_code` and the
`response`, whose headers hold Retry-After), `APIConnectionError` and `APITimeoutError` for
transport failures, `json.JSONDecodeError` for a body cut in transit, and completions.MalformedReply
for a 200 reply without a completion.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, cast, get_args

from autogen_core import FunctionCall
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    ChatCompletionTokenLogprob,
    CreateResult,
    ModelFamily,
    ModelInfo,
    RequestUsage,
    SystemMessage,
    TopLogprob,
    UserMessage,
)

from simulator.infra.secrets import redact, without_credentials
from simulator.models.completions import (
    CONTEXT_WINDOW,
    count_tokens_offline,
    finish_reason,
    raise_malformed,
    split_thought,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

STATUS_ERRORS = {
    400: "BadRequestError",
    401: "AuthenticationError",
    403: "PermissionDeniedError",
    404: "NotFoundError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
}
_VALID_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


# ---------------------------------------------------------------- errors, named as the SDK names them


class APIError(Exception):
    """A failed chat request."""


class APIConnectionError(APIError):
    """No answer: the connection failed or broke (the transport's exception is the cause)."""


class APITimeoutError(APIConnectionError):
    """No answer within the timeout."""


class APIStatusError(APIError):
    """A non-2xx answer: `status_code`, the `response` (its headers), and the server's message."""

    def __init__(self, message: str, response: Any):
        super().__init__(message)
        self.response, self.status_code = response, response.status_code


@cache
def _status_class(name: str) -> type:
    return type(name, (APIStatusError,), {"__module__": __name__})


def status_error(response: Any) -> APIStatusError:
    """The error for a non-2xx response: RateLimitError for 429, InternalServerError for 5xx..."""
    status = response.status_code
    name = STATUS_ERRORS.get(status) or ("InternalServerError" if status >= 500 else "APIStatusError")
    try:
        detail = response.json().get("error") or {}
        detail = detail.get("message", detail) if isinstance(detail, Mapping) else detail
    except (ValueError, AttributeError):
        detail = response.text[:300]
    return _status_class(name)(f"Error code: {status} - {detail}", response)


# ---------------------------------------------------------------- requests


def to_messages(
    messages: Sequence[Any], merge_system: bool, model: str = "", family: str = ModelFamily.UNKNOWN
) -> list[dict[str, Any]]:
    """autogen's messages in the API's form, as autogen's OpenAI client converts them for `model`
    of `family` (its variants: `dialect`); with `merge_system`, the system messages become one,
    stripped at the end, or none if empty (models without `multiple_system_messages`; system
    messages apart from each other are a ValueError)."""
    if merge_system and any(isinstance(m, SystemMessage) for m in messages):
        messages = _merged_system(messages)
    if (
        model.startswith("claude-")
        and messages
        and isinstance(messages[-1], AssistantMessage)
        and isinstance(messages[-1].content, str)
    ):  # (autogen's rule for Claude)
        messages = [*messages[:-1], messages[-1].model_copy(update={"content": messages[-1].content.rstrip()})]
    kind, out = dialect(model, family), []
    for message in messages:
        out.extend(_converter(type(message).__name__)(message, kind))
    return out


@cache
def dialect(model: str, family: str) -> str:
    """ "gemini", "claude", "mistral" or "openai": how autogen adapts messages for a model of
    `family`, or (an unknown family) of the longest family name the model's name starts with
    (kept per model: every request asks)."""
    known = get_args(ModelFamily.ANY)
    if family not in known or family == ModelFamily.UNKNOWN:
        family = max((name for name in known if model.startswith(name)), key=len, default=ModelFamily.UNKNOWN)
    return next(
        (kind for kind in ("gemini", "claude", "mistral") if getattr(ModelFamily, f"is_{kind}")(family)), "openai"
    )


def _merged_system(messages: Sequence[Any]) -> list[Any]:
    places = [i for i, m in enumerate(messages) if isinstance(m, SystemMessage)]
    if places[-1] - places[0] + 1 != len(places):
        raise ValueError(
            "Multiple and Not continuous system messages are not supported if "
            "model_info['multiple_system_messages'] is False"
        )
    text = "".join(messages[i].content + "\n" for i in places).rstrip()
    rest = [m for m in messages if not isinstance(m, SystemMessage)]
    return rest[: places[0]] + [SystemMessage(content=text)] * bool(text) + rest[places[0] :]


def _converter(kind: str) -> Callable[[Any, str], list[dict[str, Any]]]:
    converters = {
        "SystemMessage": _system,
        "UserMessage": _user,
        "AssistantMessage": _assistant,
        "FunctionExecutionResultMessage": _tool_results,
    }
    if kind not in converters:
        raise ValueError(f"Unknown message type: {kind}")
    return converters[kind]


def _system(message: Any, kind: str) -> list[dict[str, Any]]:
    return [{"content": message.content if kind == "openai" else message.content or " ", "role": "system"}]


def _user(message: Any, kind: str) -> list[dict[str, Any]]:
    """(Claude: an empty text is left out; Gemini: sent as " "; Mistral: no name.)"""
    _check_name(message.source)
    content = message.content
    if not isinstance(content, str):
        content = [
            {"type": "text", "text": part} if isinstance(part, str) else part.to_openai_format() for part in content
        ]
    elif kind == "claude" and not content.strip():
        return []
    elif kind == "gemini":
        content = content or " "
    return [{"role": "user", **({} if kind == "mistral" else {"name": message.source}), "content": content}]


def _assistant(message: Any, kind: str) -> list[dict[str, Any]]:
    """(Claude: an empty text is left out; Gemini: sent as " "; both: an empty thought as " ".)"""
    _check_name(message.source)
    if isinstance(message.content, str):
        if kind == "claude" and not message.content.strip():
            return []
        return [{"role": "assistant", "content": message.content or " " if kind == "gemini" else message.content}]
    calls = [
        {"id": call.id, "function": {"arguments": call.arguments, "name": call.name}, "type": "function"}
        for call in message.content
    ]
    thought = message.thought
    if thought is not None and kind in ("gemini", "claude"):
        thought = thought or " "
    return [{"role": "assistant", "tool_calls": calls, "content": thought}]


def _tool_results(message: Any, kind: str) -> list[dict[str, Any]]:
    return [{"content": result.content, "role": "tool", "tool_call_id": result.call_id} for result in message.content]


def _check_name(name: str) -> None:
    if not _VALID_NAME.match(name):
        raise ValueError(
            f"Invalid name: {name}. Only letters, numbers, '_' and '-' are allowed, at most 64 characters."
        )


def to_tools(tools: Sequence[Any]) -> list[dict[str, Any]]:
    """autogen tools or tool schemas in the API's form."""
    out = []
    for tool in tools:
        schema = getattr(tool, "schema", tool)
        _check_name(schema["name"])
        out.append(
            {
                "type": "function",
                "function": {
                    "name": schema["name"],
                    "description": schema.get("description", ""),
                    "parameters": schema.get("parameters", {}),
                    "strict": schema.get("strict", False),
                },
            }
        )
    return out


def to_tool_choice(choice: Any, tools: Sequence[Any]) -> Any:
    """ "auto" | "required" | "none", or a tool among `tools` the model must call."""
    if choice in ("auto", "required", "none"):
        return choice
    name = choice.schema["name"] if hasattr(choice, "schema") else None
    if name is None:
        raise ValueError(f"tool_choice must be a Tool object, 'auto', 'required', or 'none', got {type(choice)}")
    if name not in {getattr(t, "schema", t)["name"] for t in tools}:
        raise ValueError(f"tool_choice references '{name}' but it's not in the provided tools")
    return {"type": "function", "function": {"name": name}}


@cache
def response_format(output_type: type[BaseModel]) -> dict[str, Any]:
    """The strict json_schema response format for a pydantic model (as the SDK builds it;
    built once per type and sent as is)."""
    return {
        "type": "json_schema",
        "json_schema": {
            "schema": strict_json_schema(output_type.model_json_schema()),
            "name": output_type.__name__,
            "strict": True,
        },
    }


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON schema in the form OpenAI's strict structured outputs require (the SDK's
    rules): every object closed (`additionalProperties: false`) with all its properties
    required, a lone `allOf` inlined, `default: null` dropped, a `$ref` beside other keys
    resolved. Changes `schema` in place and returns it."""
    return _strict(schema, schema)


def _strict(schema: Any, root: dict[str, Any]) -> Any:
    if not isinstance(schema, dict):
        return schema
    for key in ("$defs", "definitions"):
        for definition in (schema.get(key) or {}).values():
            _strict(definition, root)
    if schema.get("type") == "object" and "additionalProperties" not in schema:
        schema["additionalProperties"] = False
    properties = schema.get("properties")
    if isinstance(properties, dict):
        schema["required"] = list(properties)
        for value in properties.values():
            _strict(value, root)
    if isinstance(schema.get("items"), dict):
        _strict(schema["items"], root)
    for variant in schema.get("anyOf") or ():
        _strict(variant, root)
    all_of = schema.get("allOf")
    if isinstance(all_of, list):
        if len(all_of) == 1:
            schema.update(_strict(all_of[0], root))
            schema.pop("allOf")
        else:
            for variant in all_of:
                _strict(variant, root)
    if "default" in schema and schema["default"] is None:
        schema.pop("default")
    ref = schema.get("$ref")
    if isinstance(ref, str) and len(schema) > 1:
        resolved = _resolve(root, ref)
        schema.update({**resolved, **schema})
        schema.pop("$ref")
        return _strict(schema, root)
    return schema


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"unexpected $ref format {ref!r}; does not start with #/")
    node: Any = root
    for key in ref[2:].split("/"):
        node = node[key]
    if not isinstance(node, dict):
        raise ValueError(f"$ref {ref!r} does not point to an object")
    return node


# ---------------------------------------------------------------- replies


def to_result(reply: Mapping[str, Any], family: str) -> Any:
    """autogen's CreateResult for a chat completion's JSON (one with a message: completions.raise_malformed):
    tool calls (any text beside them is the thought), or text (a `reasoning_content`, or an R1
    model's <think> part, is the thought); usage as reported, 0 where missing."""
    choice = reply["choices"][0]
    message, finish = choice["message"], choice.get("finish_reason")
    if message.get("function_call") is not None:
        raise ValueError("function_call is deprecated and is not supported by this model client.")
    thought = None
    if message.get("tool_calls"):
        content: Any = [
            FunctionCall(
                id=call.get("id") or "",
                name=_normalized(call["function"]["name"]),
                arguments=_arguments(call["function"].get("arguments")),
            )
            for call in message["tool_calls"]
        ]
        thought, finish = message.get("content") or None, "tool_calls"
    else:
        content, thought = message.get("content") or "", message.get("reasoning_content")
        if family == "r1" and thought is None:
            thought, content = split_thought(content)
    usage = reply.get("usage") or {}
    return CreateResult(
        finish_reason=finish_reason(finish),
        content=content,
        cached=False,
        usage=RequestUsage(
            prompt_tokens=usage.get("prompt_tokens") or 0, completion_tokens=usage.get("completion_tokens") or 0
        ),
        logprobs=_logprobs(choice),
        thought=thought,
    )


def _logprobs(choice: Mapping[str, Any]) -> list[ChatCompletionTokenLogprob] | None:
    """The choice's token logprobs, as autogen keeps them (its TopLogprob has no token)."""
    tokens = (choice.get("logprobs") or {}).get("content")
    return (
        [
            ChatCompletionTokenLogprob(
                token=x["token"],
                logprob=x["logprob"],
                bytes=x.get("bytes"),
                top_logprobs=[
                    TopLogprob(logprob=y["logprob"], bytes=y.get("bytes")) for y in x.get("top_logprobs") or ()
                ],
            )
            for x in tokens
        ]
        if tokens
        else None
    )


def _normalized(name: str) -> str:
    """A tool name as a model wrote it, made a valid name (autogen's rule)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:64]


def _arguments(arguments: Any) -> str:
    """Tool-call arguments as a string (some servers send a JSON object)."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments if arguments is not None else {})


async def _linked(awaitable: Any, cancellation_token: Any) -> Any:
    """`awaitable`'s result, cancelled when the autogen cancellation token is (as autogen's
    clients link each step of a stream to it)."""
    future = asyncio.ensure_future(awaitable)
    if cancellation_token is not None:
        cancellation_token.link_future(future)
    return await future


def endpoint(base_url: str) -> str:
    """The chat-completions URL under `base_url`, whose query (a gateway's `api-version=...`) it keeps
    and whose user:password@ it drops (httpx would send them in place of the API key)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(without_credentials(base_url))
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/chat/completions"))


def _no_answer(exc: BaseException) -> bool:
    """Whether `exc` means the request got no (whole) answer, as the SDK counts it: httpx's request
    errors (which include a body that cannot be decoded and too many redirects), TLS errors, and
    anyio's end of stream (from httpx's own transport; anyio is loaded only with it)."""
    import ssl

    import httpx

    anyio = sys.modules.get("anyio")
    return isinstance(exc, (httpx.RequestError, ssl.SSLError)) or (
        anyio is not None and isinstance(exc, anyio.EndOfStream)
    )


class Assembled:
    """A streamed reply put together from its server-sent events (`add` each line): the text
    so far, the tool calls by index, the finish reason and usage; `reply()` is the chat
    completion's JSON they make."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish: str | None = None
        self.usage: dict[str, Any] | None = None
        self.reasoning: list[str] = []

    def add(self, line: str) -> str:
        """Take one line of the stream; the text it adds (or "")."""
        if not line.startswith("data:") or line[5:].strip() == "[DONE]":
            return ""
        chunk = json.loads(line[5:])
        if chunk.get("error"):
            raise_malformed(chunk)
        self.usage = chunk.get("usage") or self.usage
        choice = (chunk.get("choices") or [{}])[0]
        self.finish = choice.get("finish_reason") or self.finish
        delta = choice.get("delta") or {}
        self.reasoning.append(delta.get("reasoning_content") or "")
        for call in delta.get("tool_calls") or ():
            kept = self.calls.setdefault(call.get("index", len(self.calls)), {"id": "", "name": "", "arguments": ""})
            function = call.get("function") or {}
            kept["id"] = call.get("id") or kept["id"]
            kept["name"] += function.get("name") or ""
            kept["arguments"] += function.get("arguments") or ""
        text = delta.get("content") or ""
        self.text.append(text)
        return text

    def reply(self) -> dict[str, Any]:
        message: dict[str, Any] = {"content": "".join(self.text) or None}
        if self.calls:
            message["tool_calls"] = [
                {"id": c["id"], "function": {"name": c["name"], "arguments": c["arguments"]}}
                for _, c in sorted(self.calls.items())
            ]
        if any(self.reasoning):
            message["reasoning_content"] = "".join(self.reasoning)
        return {"choices": [{"message": message, "finish_reason": self.finish}], "usage": self.usage}


# ---------------------------------------------------------------- the client


class OpenAIChatClient(ChatCompletionClient):
    """autogen's ChatCompletionClient for a chat-completions server at `base_url` (OpenAI's by
    default), sending its requests through `http` (an httpx.AsyncClient, closed by `close`)."""

    def __init__(
        self,
        *,
        model: str,
        http: Any,
        model_info: Mapping[str, Any],
        api_key: str,
        base_url: str = "https://api.openai.com/v1",
        create_args: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 120.0,
    ):
        self._model, self._http, self._timeout = model, http, timeout
        self._info = cast(ModelInfo, dict(model_info))  # (a TypedDict: a plain dict)
        self._url = endpoint(base_url)
        self._headers = {
            "authorization": f"Bearer {api_key}",
            "content-type": "application/json",
            "accept": "application/json",
            "user-agent": "crmarena-sim",
            **(headers or {}),
        }
        self._create_args = dict(create_args or {})
        self._total = self._actual = RequestUsage(prompt_tokens=0, completion_tokens=0)

    async def create(
        self,
        messages: Sequence[Any],
        *,
        tools: Sequence[Any] = (),
        tool_choice: Any = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: Any = None,
    ) -> CreateResult:
        """One chat request; the reply as autogen's CreateResult."""
        body, options = self._body(messages, tools, tool_choice, json_output, extra_create_args)
        reply = await _linked(self._post(body, options), cancellation_token)
        raise_malformed(reply)
        result = to_result(reply, self._info["family"])
        self._count(result)
        return result

    def _body(
        self,
        messages: Sequence[Any],
        tools: Sequence[Any],
        tool_choice: Any,
        json_output: bool | type[BaseModel] | None,
        extra_create_args: Mapping[str, Any],
    ) -> tuple[dict, dict]:
        """A request's JSON body, and its options for httpx (timeout, extra_headers, extra_query)."""
        extra = dict(extra_create_args)
        options = {
            key: extra.pop(key) for key in ("timeout", "extra_headers", "extra_body", "extra_query") if key in extra
        }
        body = self.request_body(messages, tools, tool_choice, json_output, extra)
        body.update(options.pop("extra_body", None) or {})
        return body, options

    def request_body(
        self,
        messages: Sequence[Any],
        tools: Sequence[Any],
        tool_choice: Any,
        json_output: bool | type[BaseModel] | None,
        extra: Mapping[str, Any],
    ) -> dict[str, Any]:
        """The JSON body of a request (autogen's checks: what the model_info says the model lacks
        is a ValueError)."""
        info, args = self._info, {"model": self._model, **self._create_args, **extra}
        if not (json_output is None or isinstance(json_output, bool) or hasattr(json_output, "model_json_schema")):
            raise ValueError(f"json_output must be a boolean or a Pydantic model class, got {type(json_output)}")
        if json_output is True and not info["json_output"]:
            raise ValueError("Model does not support JSON output.")
        if isinstance(json_output, type):
            if info["structured_output"] is False:
                raise ValueError("Model does not support structured output.")
            args["response_format"] = response_format(json_output)
        elif json_output is not None:
            args["response_format"] = {"type": "json_object" if json_output else "text"}
        if not info["vision"] and any(
            isinstance(m, UserMessage)
            and not isinstance(m.content, str)
            and not all(isinstance(part, str) for part in m.content)
            for m in messages
        ):
            raise ValueError("Model does not support vision and image was provided")
        if tools and not info["function_calling"]:
            raise ValueError("Model does not support function calling")
        merge = not info.get("multiple_system_messages", False)
        body = {"messages": to_messages(messages, merge, args["model"], info["family"]), **args}
        if tools:
            body.update(tools=to_tools(tools), tool_choice=to_tool_choice(tool_choice, tools))
        elif tool_choice not in ("auto", "required", "none"):
            raise ValueError("tool_choice specified but no tools provided")
        return body

    async def _post(self, body: dict[str, Any], options: Mapping[str, Any]) -> Any:
        """The reply's JSON; raises the errors of the module docstring."""
        async with self._sending():
            response = await self._http.send(self._request(body, options))
        if not 200 <= response.status_code < 300:
            raise status_error(response)
        return json.loads(response.content)

    def _request(self, body: dict[str, Any], options: Mapping[str, Any]) -> Any:
        """The httpx request for `body` (JSON as the SDK encodes it) and `options` (an extra query
        is added to the base_url's own)."""
        url: Any = self._url
        if options.get("extra_query"):
            import httpx

            url = httpx.URL(url).copy_merge_params(options["extra_query"])
        return self._http.build_request(
            "POST",
            url,
            headers={**self._headers, **(options.get("extra_headers") or {})},
            content=json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(),
            timeout=options.get("timeout", self._timeout),
        )

    @contextlib.asynccontextmanager
    async def _sending(self) -> AsyncIterator[None]:
        """A request's failures to get an answer raised as APITimeoutError and APIConnectionError."""
        import httpx

        try:
            yield
        except httpx.TimeoutException as exc:
            raise APITimeoutError("Request timed out.") from exc
        except Exception as exc:
            if not _no_answer(exc):
                raise
            raise APIConnectionError(f"Connection error: {redact(str(exc)) or type(exc).__name__}") from exc

    def _count(self, result: CreateResult) -> None:
        self._total = self._actual = RequestUsage(
            prompt_tokens=self._total.prompt_tokens + result.usage.prompt_tokens,
            completion_tokens=self._total.completion_tokens + result.usage.completion_tokens,
        )

    async def create_stream(
        self,
        messages: Sequence[Any],
        *,
        tools: Sequence[Any] = (),
        tool_choice: Any = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: Any = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        """The reply's text as it comes (server-sent events), then the whole reply as a CreateResult."""
        body, options = self._body(messages, tools, tool_choice, json_output, extra_create_args)
        body["stream"] = True
        whole = Assembled()
        async with self._sending():
            response = await _linked(self._http.send(self._request(body, options), stream=True), cancellation_token)
            try:
                if not 200 <= response.status_code < 300:
                    await response.aread()
                    raise status_error(response)
                lines = response.aiter_lines()
                while (line := await _linked(anext(lines, None), cancellation_token)) is not None:
                    text = whole.add(line)
                    if text:
                        yield text
            finally:
                await response.aclose()
        result = to_result(whole.reply(), self._info["family"])
        self._count(result)
        yield result

    async def close(self) -> None:
        await self._http.aclose()

    def actual_usage(self) -> RequestUsage:
        return self._actual

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        return count_tokens_offline(messages, tools)

    def remaining_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        return CONTEXT_WINDOW - self.count_tokens(messages, tools=tools)

    @property
    def capabilities(self) -> Any:
        return {key: self._info[key] for key in ("vision", "function_calling", "json_output")}

    @property
    def model_info(self) -> ModelInfo:
        return self._info

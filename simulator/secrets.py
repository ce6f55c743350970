"""Secrets the run knows, redacted by value from everything it writes.

Every API key the run reads (from the environment or a config) and every HTTP header value of a
model spec is remembered here (`remember`) at the moment it is read; `redact` removes each
remembered value from a text, and anything clearly shaped like a key or bearer token besides.
Writers (simulator.files, the transcript writer, logs, the response cache) and error messages
pass their text through `redact`. Forked workers inherit what the parent remembered; Ray actors
remember what they read themselves (the same code reads the keys there).

A value is also found in the forms the run's files escape it to: inside a JSON string, in HTML
text and percent-encoded in a URL. Keys in practice hold only [A-Za-z0-9_-] (sometimes
`.~+/=`), which none of these forms change; the escaped forms matter for header values. Where
remembered values overlap in a text, the union of their spans is masked. Values shorter than
MIN_LENGTH are not remembered: masking them would mangle ordinary words.
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import quote, quote_plus

MIN_LENGTH = 8  # shorter values are not treated as secrets (they would redact ordinary words)
MASK = "[redacted]"
# Fallbacks for keys the run never read: a provider prefix and 16+ key characters with a digit, or a
# bearer token with a digit (b64token characters only, so a JSON string's closing quote survives).
_SHAPED = re.compile(r"\b(?:sk|pk|rk|gsk|hf|xai|key|token)[-_](?=[A-Za-z0-9*_\-]*\d)[A-Za-z0-9*_\-]{16,}"
                     r"|\bBearer\s+(?=[A-Za-z0-9._~+/\-]*\d)[A-Za-z0-9._~+/\-]{8,}=*", re.I)
_known: set[str] = set()  # every remembered value, in each of its written forms


def _forms(value: str) -> set[str]:
    """`value` as it may appear in a written file: as is, JSON-escaped, HTML-escaped, URL-encoded."""
    escaped = {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    return {value, *escaped, *(html.escape(v) for v in (value, *escaped)), quote(value, safe=""), quote_plus(value)}


def remember(value: str | None) -> None:
    """Treat `value` as a secret from now on (values shorter than MIN_LENGTH are ignored)."""
    if isinstance(value, str) and len(value) >= MIN_LENGTH and value not in _known:
        _known.update(_forms(value))


def _spans(text: str) -> list[tuple[int, int]]:
    """Where remembered values occur in `text` (overlapping occurrences included), merged."""
    found = []
    for value in _known:
        start = text.find(value)
        while start != -1:
            found.append((start, start + len(value)))
            start = text.find(value, start + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def redact(text: str) -> str:
    """`text` without any remembered secret (every span any of them covers) or key-shaped token."""
    parts, last = [], 0
    for start, end in _spans(text):
        parts += [text[last:start], MASK]
        last = end
    return _SHAPED.sub(MASK, "".join(parts) + text[last:])

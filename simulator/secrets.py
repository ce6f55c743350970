"""Secrets the run knows, redacted by value from everything it writes.

Every API key the run reads (from the environment or a config) and every HTTP header value of a
model spec is remembered here (`remember`); `redact` removes each remembered value from a text,
and anything shaped like a key or bearer token besides. Writers (simulator.files, the transcript
writer, logs, the response cache) and error messages pass their text through `redact`.
Forked workers inherit what the parent remembered; Ray actors remember what they read themselves.
"""

from __future__ import annotations

import re

MIN_LENGTH = 8  # shorter values are not treated as secrets (they would redact ordinary words)
MASK = "[redacted]"
_SHAPED = re.compile(r"\b(?:sk|pk|rk|gsk|key|token)[-_][A-Za-z0-9*_\-]{6,}|Bearer\s+\S+", re.I)
_known: set[str] = set()


def remember(value: str | None) -> None:
    """Treat `value` as a secret from now on (values shorter than MIN_LENGTH are ignored)."""
    if value and len(value) >= MIN_LENGTH:
        _known.add(value)


def redact(text: str) -> str:
    """`text` without any remembered secret (longest first) or key-shaped token."""
    for value in sorted(_known, key=len, reverse=True):
        if value in text:
            text = text.replace(value, MASK)
    return _SHAPED.sub(MASK, text)

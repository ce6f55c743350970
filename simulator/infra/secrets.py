"""Secrets the run knows, redacted by value from everything it writes.

Every API key the run reads (from the environment or a config) and every HTTP header value of a
model spec is remembered here at the moment it is read (`remember`; `remember_config` for a
config's headers, secret-named keys and URL credentials); `redact` removes each remembered value
from a text, and anything clearly shaped like a key or bearer token besides. Writers
(simulator.infra.files, the transcript writer, logs, the response cache) and error messages pass their
text through `redact`. Forked workers inherit what the parent remembered; Ray actors remember
what they read themselves (the same code reads the keys there) and redact their records
(`redact_data`) before the driver, which may not know their keys, writes them.

A value is also found in the forms the run's files escape it to: inside a JSON string, in HTML
text and percent-encoded in a URL. Keys in practice hold only [A-Za-z0-9_-] (sometimes
`.~+/=`), which none of these forms change; the escaped forms matter for header values. It is
found base64-encoded too (standard and URL-safe alphabets), inside any encoded text (an
`Authorization: Basic` header of `user:password`, say): at each of the three byte alignments the
characters that encode the value alone are matched. A URL's `user:password` is remembered as a
pair besides each part, and a `Basic <base64 of a:b>` header is masked by its shape. Where
remembered values overlap in a text, the union of their spans is masked. Values shorter than
MIN_LENGTH are not remembered: masking them would mangle ordinary words.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit, urlunsplit

MIN_LENGTH = 8  # shorter values are not treated as secrets (they would redact ordinary words)
MASK = "[redacted]"
# Fallbacks for keys the run never read: a provider prefix and 16+ key characters with a digit, or a
# bearer token with a digit (b64token characters only, so a JSON string's closing quote survives).
# (Case-insensitive prefixes only, after a lookbehind: three times faster than re.I and \b, ~30 ms a MB.)
_SHAPED = re.compile(
    r"(?<![A-Za-z0-9_])(?:(?i:sk|pk|rk|gsk|hf|xai|key|token)[-_](?=[A-Za-z0-9*_\-]*\d)[A-Za-z0-9*_\-]{16,}"
    r"|(?i:bearer)\s+(?=[A-Za-z0-9._~+/\-]*\d)[A-Za-z0-9._~+/\-]{8,}=*)"
)
_BASIC = re.compile(r"(?<![A-Za-z0-9_])(?i:basic)\s+([A-Za-z0-9+/_\-]{4,}={0,2})")
_known: set[str] = set()  # every remembered value, in each of its written forms
# Config keys and URL query parameters whose values are secrets (api_key, x-api-key, azure_ad_token,
# aws_secret_key, password, sig, ...); max_tokens or api_version are not.
_SECRET_NAME = re.compile(
    r"(?:^|[_-])(?:api[_-]?key|key|token|secret|password|passwd|auth|authorization|"
    r"credentials?|sig|signature)(?:[_-]|$)",
    re.I,
)


def _forms(value: str) -> set[str]:
    """`value` as it may appear in a written file: as is, JSON-escaped, HTML-escaped, URL-encoded."""
    escaped = {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    return {
        value,
        *escaped,
        *(html.escape(v) for v in (value, *escaped)),
        quote(value, safe=""),
        quote_plus(value),
        *_base64_cores(value.encode()),
    }


def _base64_cores(value: bytes) -> set[str]:
    """The base64 characters (both alphabets) that encode `value` alone, at each byte alignment
    (0, 1 or 2 bytes before it): what any base64 of a text holding `value` contains."""
    cores = set()
    for before in range(3):
        encoded = base64.b64encode(bytes(before) + value).decode()
        core = encoded[-(-8 * before // 6) : 8 * (before + len(value)) // 6]
        cores |= {core, core.replace("+", "-").replace("/", "_")}
    return cores


def remember(value: str | None) -> None:
    """Treat `value` as a secret from now on (values shorter than MIN_LENGTH are ignored)."""
    if isinstance(value, str) and len(value) >= MIN_LENGTH and value not in _known:
        _known.update(_forms(value))


def remember_config(config: Mapping[str, Any]) -> None:
    """Remember the secrets of a (model) config mapping, nested ones included: every value under a
    `*headers` mapping, the value of a secret-named key, and a URL's user, password and
    secret-named query parameters."""
    for value in _config_secrets(config):
        remember(value)


def _config_secrets(config: Mapping[str, Any], headers: bool = False) -> Iterator[str]:
    for name, value in config.items():
        if isinstance(value, Mapping):
            yield from _config_secrets(value, headers=str(name).lower().endswith("headers"))
        elif isinstance(value, str):
            if headers or _SECRET_NAME.search(str(name)):
                yield value
            if "://" in value:
                yield from _url_secrets(value)


def _url_secrets(url: str) -> Iterator[str]:
    """The credentials in a URL: user, password and user:password (as written and decoded), and
    secret-named query parameters."""
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:  # not a URL after all (a bad port, say)
        return
    pair = f"{user or ''}:{password}" if password is not None else None
    for value in filter(None, (user, password, pair)):
        yield from {value, unquote(value)}
    yield from (value for name, value in parse_qsl(parts.query) if _SECRET_NAME.search(name))


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


def redact_data(data: Any) -> Any:
    """JSON-like `data` (dicts, lists, strings, numbers) with every string redacted."""
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, Mapping):
        return {key: redact_data(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [redact_data(value) for value in data]
    return data


def redact(text: str) -> str:
    """`text` without any remembered secret (every span any of them covers) or key-shaped token."""
    parts, last = [], 0
    for start, end in _spans(text):
        parts += [text[last:start], MASK]
        last = end
    return _BASIC.sub(_masked_credentials, _SHAPED.sub(MASK, "".join(parts) + text[last:]))


def _masked_credentials(match: re.Match) -> str:
    """A `Basic <token>` match masked when its token is base64 of `a:b` credentials."""
    token = match.group(1)
    try:
        decoded = base64.b64decode(token.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return match.group(0)
    return match.group(0).replace(token, MASK) if b":" in decoded else match.group(0)


def without_credentials(url: str) -> str:
    """`url` without its user:password@ (remembered as secrets first); unchanged when it has none."""
    remember_config({"url": url})
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def public_url(url: str) -> str:
    """`url` without credentials, query or fragment (what a record may show)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    return urlunsplit((parts.scheme, netloc + (f":{parts.port}" if parts.port else ""), parts.path, "", ""))

"""A response cache: model replies on disk, keyed by model settings, request and trial.

With the cache on, a re-run of the same episodes replays every model reply from disk: zero
model calls and the same conversations. The key covers everything that shapes a reply — the
model's settings (provider, model, base_url, temperature, max_tokens, ...), the messages, the
tools, the output format, extra request arguments — and a scope (the episode's trial), so two
trials of one episode do not share replies and two models never share a store entry.
One SQLite file (WAL) serves every worker process of a run.

No secret is stored or replayed: a reply is redacted of the run's secrets (simulator.infra.secrets)
before it is stored and again when it is read, so a key a model echoed under one key never
reaches a run with another; the request key is computed on the redacted request, so a run that
replays a redacted reply asks for the same next reply.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from simulator.infra.files import DamagedFileError, DiskFullError
from simulator.infra.secrets import redact

if TYPE_CHECKING:
    from pydantic import BaseModel


def cache_dir() -> Path:
    """The user cache folder (built orgs, models, replies): $CRMARENA_CACHE, else
    $XDG_CACHE_HOME/crmarena, else ~/.cache/crmarena."""
    if os.environ.get("CRMARENA_CACHE"):
        return Path(os.environ["CRMARENA_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crmarena"


_SETTINGS_IGNORED = (
    "max_concurrency",
    "measure_concurrency",
    "retries",
    "timeout",
    "api_key_env",
    "rpm",
    "tpm",
)  # do not change a reply


def reply_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The model settings that shape a reply (how calls are paced, retried or keyed are left out)."""
    return {k: v for k, v in settings.items() if k not in _SETTINGS_IGNORED}


def _plain(value: Any) -> Any:
    """`value` as JSON-able data (pydantic models dumped, tools by their schema)."""
    if isinstance(value, type):  # a pydantic output type (autogen's json_output)
        return {"type": value.__name__, "schema": cast("type[BaseModel]", value).model_json_schema()}
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "schema") and not isinstance(value, Mapping):  # an autogen Tool
        return value.schema
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def request_key(
    settings: Mapping[str, Any],
    messages: Iterable[Any],
    *,
    tools: Iterable[Any] = (),
    json_output: Any = None,
    extra: Mapping[str, Any] | None = None,
    scope: str = "",
) -> str:
    """The cache key of one request."""
    body = {
        "settings": reply_settings(settings),
        "messages": _plain(list(messages)),
        "tools": _plain(list(tools)),
        "json_output": _plain(json_output),
        "extra": _plain(dict(extra or {})),
        "scope": scope,
    }
    return hashlib.sha256(redact(json.dumps(body, sort_keys=True, default=str)).encode()).hexdigest()


class ResponseCache:
    """Replies by request key, in one SQLite file shared by threads and processes.

    `get`/`put` are coroutines so that a cache served from elsewhere (a Ray actor holding
    this class, see simulator.executors.ray_cluster) is a drop-in; `get_text`/`put_text`
    move the stored JSON as it is."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        try:
            with self._errors():
                self._check()
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
        except BaseException:
            self._conn.close()
            raise

    def _check(self) -> None:
        """Read the file's catalogue (a damaged file fails here, before any episode is played) and
        refuse a database that is not a response cache (an org file, say)."""
        tables = {name for (name,) in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables - {"replies"}:
            raise DamagedFileError(
                f"{self.path} is not a response cache (it holds tables {', '.join(sorted(tables))})"
                ": set `cache` to another file"
            )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's failures as the run's errors: a full disk or an I/O error is DiskFullError
        (it stops the run, never an episode's outcome), a damaged file is DamagedFileError."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF  # (the primary code of an extended one)
            if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
                problem = "no space left on the device" if code == sqlite3.SQLITE_FULL else f"SQLite: {exc}"
                raise DiskFullError(self.path, problem) from None
            if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                raise DamagedFileError(
                    f"{self.path} is damaged ({exc}); it holds only model replies a run can ask "
                    "for again: delete it and run the same command"
                ) from None
            raise

    def get_text(self, key: str) -> str | None:
        with self._lock, self._errors():
            row = self._conn.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def put_text(self, key: str, text: str) -> None:
        with self._lock, self._errors():
            self._conn.execute("INSERT OR REPLACE INTO replies VALUES (?, ?)", (key, text))

    async def get(self, key: str) -> Any | None:
        """The cached CreateResult for `key`, marked `cached`, or None."""
        return decode_reply(self.get_text(key))

    async def put(self, key: str, result: Any) -> None:
        self.put_text(key, encode_reply(result))

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def encode_reply(result: Any) -> str:
    """A CreateResult as the JSON text stored, redacted of secrets (in the caller's process: a
    cache actor on another node does not know the caller's keys)."""
    return redact(result.model_dump_json())


def decode_reply(text: str | None) -> Any | None:
    """A stored reply as a CreateResult marked `cached`, redacted of secrets (None stays None)."""
    if text is None:
        return None
    from autogen_core.models import CreateResult

    result = CreateResult.model_validate_json(redact(text))
    result.cached = True
    return result

"""The optional model writer (`crmarena org build --writer MODEL`): prose rewritten by a model, checked.

After the grammar has built an org, every record with prose a model may reword
(`prose.rewritable_fields`: fields the detectors check, and label-free ones) goes to the model
once, its prose fields together, with the sentences it must keep verbatim: the spans the prose
modules' detectors match (`prose.field_facts`, FIELD_FACTS). A field's rewrite is kept only
if `Checker.keeps` accepts it: the detectors find the same facts in the same order (a correction
stays a correction; nothing dropped, nothing added), every kept span is still there, and the
names (the org's people, companies, products, competitors), amounts and numbers, emails and Ids
are the same set as the original's (none dropped, none invented). Else the grammar's text stays.

Replies are cached in the response cache the runs use (simulator.models.cache; scope SCOPE), so building
the same org again asks the model nothing. A provider failure that outlives the model's retries
(simulator.models.clients: InfraError) ends the build with a WriterError naming the model and the record,
and the org file is not written (the org is built under a temporary name and renamed when
complete, simulator.infra.files.replacing). The org records the writer (`OrgMeta.writer`: the model's
reply-shaping settings, the cache file, the prompt's digest), which its content hash covers.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.infra import files
from simulator.infra.secrets import redact

from ...prompts import render
from .. import store
from ..schema import schema_for, search_fields
from .build import DEFAULT_AS_OF, build_org
from .prose import FactFinder, field_facts, org_names, rewritable_fields

if TYPE_CHECKING:
    from simulator.models.clients import ModelClient, ModelSpec

SCOPE = "org-writer"  # the response cache's scope for the writer's requests
SYSTEM_PROMPT = render("writer_system")  # simulator/prompts/writer_system.j2

_ANCHOR = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # an email
    r"|\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b"  # an Id
    r"|(?<!\w)\$?\d(?:[\d,]*\d)?(?:\.\d+)?%?"
)  # an amount or number
_CAPITALISED = re.compile(r"[A-Z][\w&'-]*(?:\s+(?:&\s+)?[A-Z0-9][\w&'-]*)*")
_POSSESSIVE = re.compile(r"['’]s$")  # Acme Corp's -> Acme Corp
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


class WriterError(RuntimeError):
    """The model failed (after its retries) on a record: one line naming the model and the record."""


@dataclass(frozen=True)
class Writer:
    """A model that rewrites an org's prose: its spec, the response cache file, the detectors
    (default: the prose modules' FIELD_FACTS) and the fields to rewrite (default: prose.rewritable_fields)."""

    spec: ModelSpec
    cache: Path
    facts: Mapping[tuple[str, str], FactFinder] | None = None
    fields: tuple[tuple[str, str], ...] | None = None

    def identity(self) -> str:
        """What the org records as its writer (OrgMeta.writer), with no secret."""
        from simulator.models.cache import reply_settings

        data = {
            "model": reply_settings(self.spec.settings()),
            "cache": str(Path(self.cache).resolve()),
            "scope": SCOPE,
            "prompt": hashlib.sha256(SYSTEM_PROMPT.encode()).hexdigest()[:12],
        }
        if self.fields is not None:
            data["fields"] = [f"{o}.{f}" for o, f in self.fields]
        return redact(json.dumps(data, sort_keys=True))


@dataclass(frozen=True)
class Record:
    """One record's prose: object, Id, and its non-empty prose fields."""

    obj: str
    id: str
    texts: dict[str, str]


@dataclass
class Tally:
    """Fields kept from the model and fields left with the grammar's text, per 'Object.Field'."""

    kept: Counter[str] = field(default_factory=Counter)
    fallback: Counter[str] = field(default_factory=Counter)

    def rows(self) -> list[dict[str, object]]:
        keys = sorted(set(self.kept) | set(self.fallback))
        return [{"field": k, "kept": self.kept[k], "fallback": self.fallback[k]} for k in keys]


@dataclass(frozen=True)
class Checker:
    """Whether a rewrite keeps what its original says (see the module docstring)."""

    facts: Mapping[tuple[str, str], FactFinder]
    names: frozenset[tuple[str, ...]]  # the org's names as word tuples (prose.org_names)

    def spans(self, obj: str, name: str, text: str) -> list[str]:
        """The matched texts the detectors of `obj.name` find in `text`, in text order."""
        find = self.facts.get((obj, name))
        return [span for _, span in find(text)] if find else []

    def keeps(self, obj: str, name: str, original: str, rewrite: str) -> bool:
        """Whether `rewrite` may replace `original` in field `obj.name`."""
        if not rewrite.strip() or redact(rewrite) != rewrite:
            return False
        find = self.facts.get((obj, name))
        if find:
            before = find(original)
            if [fact for fact, _ in find(rewrite)] != [fact for fact, _ in before]:
                return False
            if any(rewrite.count(span) < n for span, n in Counter(span for _, span in before).items()):
                return False
        return self.anchors(rewrite) == self.anchors(original)

    def anchors(self, text: str) -> frozenset[str]:
        """The emails, Ids, numbers and org names in `text`."""
        return frozenset(_ANCHOR.findall(text)) | self._names(text)

    @cached_property
    def _longest(self) -> int:
        return max(map(len, self.names), default=0)

    def _names(self, text: str) -> frozenset[str]:
        """The org names in `text` (in each run of capitalised words, the longest first)."""
        found = set()
        for run in _CAPITALISED.findall(text):
            words, i = [_POSSESSIVE.sub("", w) for w in run.split()], 0
            while i < len(words):
                j = next(
                    (j for j in range(min(len(words), i + self._longest), i, -1) if tuple(words[i:j]) in self.names),
                    None,
                )
                if j is not None:
                    found.add(" ".join(words[i:j]))
                i = j or i + 1
        return frozenset(found)


Progress = Callable[[int, int, Tally], None]  # (records done, records in all, tally so far)


def build_written_org(
    org: str,
    out: Path,
    *,
    writer: Writer,
    seed: int = 0,
    scale: float = 1.0,
    as_of: date = DEFAULT_AS_OF,
    progress: Callable[[str, int], None] | None = None,
    rewritten: Progress | None = None,
) -> tuple[store.OrgMeta, Tally]:
    """Build org `org` from the grammar, rewrite its prose with `writer`, and publish it at `out`
    atomically: on any failure (WriterError included) nothing is written at `out`."""
    with files.replacing(out) as tmp:
        Path(f"{tmp}-journal").unlink(missing_ok=True)  # (a killed build's: never replayed into this one)
        build_org(org, tmp, seed=seed, scale=scale, as_of=as_of, progress=progress)
        return rewrite_org(tmp, writer, rewritten)


def rewrite_org(path: Path, writer: Writer, rewritten: Progress | None = None) -> tuple[store.OrgMeta, Tally]:
    """Rewrite the prose of the org file at `path` in place (one transaction) and record the writer."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        meta = store.read_meta(conn, path)
        schema = schema_for(meta.org)
        facts = field_facts() if writer.facts is None else writer.facts
        checker = Checker(facts, org_names(conn, meta.org))
        records = _records(conn, writer.fields or rewritable_fields(meta.org, facts))
        updates, tally = asyncio.run(_rewrite_all(records, writer, checker, rewritten or (lambda *_: None)))
        conn.execute("BEGIN")
        for (obj, name), rows in updates.items():
            conn.executemany(f"UPDATE {store.q(obj)} SET {store.q(name)} = ? WHERE Id = ?", rows)
        for obj in {obj for obj, _ in updates}:
            if search_fields(schema.require(obj)):
                fts = store.q(store.fts_table(obj))
                conn.execute(f"INSERT INTO {fts}({fts}) VALUES('rebuild')")
        identity = writer.identity()
        meta = replace(meta, writer=identity, content_hash=store.content_hash(conn, schema, identity))
        store.write_meta(conn, meta)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return meta, tally


def _records(conn: sqlite3.Connection, fields: Iterable[tuple[str, str]]) -> list[Record]:
    """The records holding prose in `fields`, object by object, in Id order."""
    by_object: dict[str, list[str]] = {}
    for obj, name in fields:
        by_object.setdefault(obj, []).append(name)
    records = []
    for obj, names in by_object.items():
        columns = ", ".join(store.q(n) for n in names)
        for row_id, *texts in conn.execute(f"SELECT Id, {columns} FROM {store.q(obj)} ORDER BY Id"):
            kept = {n: t for n, t in zip(names, texts) if isinstance(t, str) and t.strip()}
            if kept:
                records.append(Record(obj, row_id, kept))
    return records


Updates = dict[tuple[str, str], list[tuple[str, str]]]  # (object, field) -> (new text, record Id) of each change


async def _rewrite_all(
    records: list[Record], writer: Writer, checker: Checker, rewritten: Progress
) -> tuple[Updates, Tally]:
    """Ask the model for every record, through the response cache; the rows to update per
    (object, field) and the tally."""
    from simulator.models.cache import ResponseCache
    from simulator.models.clients import build_client

    cache = ResponseCache(writer.cache)
    try:
        client = build_client(writer.spec)
        client.cache, client.cache_scope = cache, SCOPE
        try:
            return await _ask_all(client, records, checker, rewritten)
        finally:
            await client.close()
    finally:
        cache.close()


async def _ask_all(
    client: ModelClient, records: list[Record], checker: Checker, rewritten: Progress
) -> tuple[Updates, Tally]:
    """`_rewrite_all` with a client: at most the spec's max_concurrency records at once; the first
    WriterError stops the rest."""
    updates: Updates = {}
    tally, pending, done = Tally(), iter(records), 0

    async def work() -> None:
        nonlocal done
        for record in pending:
            texts = await _ask(client, record, checker)
            for name, original in record.texts.items():
                key, rewrite = f"{record.obj}.{name}", texts.get(name, "")
                if not checker.keeps(record.obj, name, original, rewrite):
                    tally.fallback[key] += 1
                    continue
                tally.kept[key] += 1
                if rewrite != original:
                    updates.setdefault((record.obj, name), []).append((rewrite, record.id))
            done += 1
            rewritten(done, len(records), tally)

    workers = [asyncio.create_task(work()) for _ in range(client.spec.max_concurrency)]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    return updates, tally


def _prompt(record: Record, checker: Checker) -> str:
    keep = {name: spans for name, text in record.texts.items() if (spans := checker.spans(record.obj, name, text))}
    payload = {"object": record.obj, "fields": record.texts, **({"keep": keep} if keep else {})}
    return json.dumps(payload, ensure_ascii=False, indent=1)


async def _ask(client: ModelClient, record: Record, checker: Checker) -> dict[str, str]:
    """The model's rewrite of `record`'s fields ({} for a reply that is not a JSON object)."""
    from autogen_core.models import LLMMessage, SystemMessage, UserMessage

    from simulator.infra.errors import AgentError, InfraError
    from simulator.models.calls import model_errors

    messages: list[LLMMessage] = [
        SystemMessage(content=SYSTEM_PROMPT),
        UserMessage(content=_prompt(record, checker), source=SCOPE),
    ]
    try:
        with model_errors():
            result = await client.create(messages)
    except (InfraError, AgentError) as exc:
        message = f"the writer {client.spec.label} failed on {record.obj} {record.id}: {exc}"
        raise WriterError(" ".join(redact(message).split())) from exc
    return _fields(result.content)


def _fields(content: object) -> dict[str, str]:
    """The string values of the JSON object in a reply (code fences allowed), else {}."""
    if not isinstance(content, str):
        return {}
    try:
        data = json.loads(_FENCE.sub("", content.strip()))
    except ValueError:
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}

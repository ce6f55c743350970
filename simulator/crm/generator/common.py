"""Shared plumbing of the org generator: seeded streams, time formatting, the row writer.

Times inside the generator are integer seconds relative to the as-of date's midnight UTC
(negative = in the past). Every stored datetime is `YYYY-MM-DDTHH:MM:SS.000+0000`, every
date `YYYY-MM-DD`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .. import ids
from ..schema import Schema
from ..store import TRUTH_TABLE, q

Row = dict[str, Any]  # one record's values by field name, as the writer stores them

DAY = 86400
HOUR = 3600
# The latest moment anything is dated at: 17:00 UTC on the as-of day.
NOW_OFFSET = 17 * HOUR


def stream(seed: int, org: str, name: str) -> random.Random:
    """An independent, reproducible random stream for (seed, org, name)."""
    return random.Random(f"crmarena:{seed}:{org}:{name}")


_MINUTES = tuple(f"T{h:02d}:{m:02d}:" for h in range(24) for m in range(60))  # a datetime's minute of the day
_SECONDS = tuple(f"{s:02d}.000+0000" for s in range(60))  # and its second, to the end


@dataclass
class Clock:
    """Converts generator times (seconds from the as-of midnight) to stored strings."""

    as_of: date
    _base: datetime = field(init=False)
    _days: dict[int, str] = field(init=False, default_factory=dict)  # day offset -> "YYYY-MM-DD"

    def __post_init__(self) -> None:
        self._base = datetime(self.as_of.year, self.as_of.month, self.as_of.day, tzinfo=UTC)

    def dt(self, t: float) -> str:
        day, second = divmod(int(t), DAY)
        minute, second = divmod(second, 60)
        return (self._days.get(day) or self._day(day)) + _MINUTES[minute] + _SECONDS[second]

    def d(self, t: float) -> str:
        return self._day(int(t) // DAY)

    def _day(self, day: int) -> str:
        """The ISO date `day` days after the as-of date (memoised: timestamps share few days)."""
        text = self._days.get(day)
        if text is None:
            text = self._days[day] = (self.as_of + timedelta(days=day)).isoformat()
        return text

    def date_of(self, t: float) -> date:
        return (self._base + timedelta(seconds=int(t))).date()

    def month_key(self, t: float) -> tuple[int, int]:
        x = self._base + timedelta(seconds=int(t))
        return x.year, x.month

    def t_of_date(self, d: date) -> int:
        return (d - self.as_of).days * DAY

    @staticmethod
    def cap(t: float) -> int:
        """`t` clipped to the latest allowed moment (the as-of day, 17:00)."""
        return int(min(t, NOW_OFFSET))


def cumulative(weights: Iterable[float]) -> tuple[float, ...]:
    """`weights` summed up, for `rng.choices(population, cum_weights=...)`: the same draws as
    `choices(population, weights)`, which sums them on every call."""
    return tuple(itertools.accumulate(weights))


def work_time(rng: random.Random, day_start: float) -> int:
    """A business-hours moment (13:00-23:00 UTC, i.e. US working hours) on the day of `day_start`."""
    day = int(day_start // DAY) * DAY
    return day + rng.randint(13 * HOUR, 22 * HOUR + 59 * 60)


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")
    return s[:80] or "article"


class Scramble:
    """A seeded bijection of record numbers [0, 2**32) onto themselves (a 6-round Feistel network):
    Ids drawn through it keep no trace of the order their records were made in."""

    ROUNDS = 6

    def __init__(self, key: str):
        digest = hashlib.sha256(key.encode()).digest()
        self._keys = [int.from_bytes(digest[2 * i : 2 * i + 2], "big") for i in range(self.ROUNDS)]

    def __call__(self, number: int) -> int:
        left, right = number >> 16 & 0xFFFF, number & 0xFFFF
        for k in self._keys:
            x = ((right ^ k) * 0x2C1B3C6D) & 0xFFFFFFFF
            x = ((x ^ x >> 15) * 0x297A2D39) & 0xFFFFFFFF
            left, right = right, left ^ (x ^ x >> 16) & 0xFFFF
        return left << 16 | right


# Objects whose Ids are drawn in a shuffled order (Scramble): their record numbers must not say who is
# service staff (User), which customer came first (Account, Contact), whose order or case it is (Order, Case).
SHUFFLED = ("User", "Account", "Contact", "Order", "Case")

_TRUTH_JSON = json.JSONEncoder(sort_keys=True).encode  # = json.dumps(value, sort_keys=True)


class Writer:
    """Buffers rows per object and inserts them with executemany; counts and reports progress.

    Rows are dicts keyed by field API name; missing keys are stored as NULL. The first row
    of each object is checked against the schema so that a misspelt or org-inapplicable
    field fails loudly instead of disappearing.
    """

    BATCH = 4000

    def __init__(
        self,
        conn: sqlite3.Connection,
        schema: Schema,
        progress: Callable[[str, int], None] | None = None,
        key: str = "",
    ):
        self.conn = conn
        self.key = key
        self._scramble = {obj: Scramble(f"{key}:{obj}") for obj in SHUFFLED if schema.get(obj)}
        self.schema = schema
        self.progress = progress
        self._fields = {o.name: tuple(f.name for f in o.fields) for o in schema.objects}
        self._prefix = {o.name: o.key_prefix for o in schema.objects}
        self._sql = {
            o.name: f"INSERT INTO {q(o.name)} VALUES ({', '.join('?' for _ in o.fields)})" for o in schema.objects
        }
        self._buf: dict[str, list[tuple[Any, ...]]] = {o.name: [] for o in schema.objects}
        self._next: dict[str, int] = {o.name: 0 for o in schema.objects}
        self.written: dict[str, int] = {o.name: 0 for o in schema.objects}
        self._checked: set[str] = set()
        self._truth: list[tuple[str, str, str, str]] = []

    def new_id(self, obj: str) -> str:
        """The Id of the next record of `obj` (numbers count from 1 per object; the SHUFFLED objects'
        go through their Scramble, keyed by the writer's key and the object)."""
        self._next[obj] += 1
        scramble = self._scramble.get(obj)
        return ids.make_id(self._prefix[obj], scramble(self._next[obj]) if scramble else self._next[obj])

    def add(self, obj: str, row: Row) -> None:
        if obj not in self._checked:
            unknown = sorted(set(row) - set(self._fields[obj]))
            if unknown:
                raise KeyError(f"{obj} has no field(s) {unknown} in the {self.schema.org} schema")
            self._checked.add(obj)
        buf = self._buf[obj]
        buf.append(tuple(map(row.get, self._fields[obj])))
        if len(buf) >= self.BATCH:
            self._flush(obj)

    def beside(self, conn: sqlite3.Connection) -> Writer:
        """A writer into `conn` (a forked build process's database) numbering on from this one's Ids."""
        other = Writer(conn, self.schema, key=self.key)
        other._next = dict(self._next)
        return other

    def merged(self, obj: str, n: int) -> None:
        """Count (and report) `n` rows of `obj` copied into the database from elsewhere."""
        self.written[obj] += n
        if self.progress is not None:
            self.progress(obj, n)

    def truth(self, obj: str, record_id: str, kind: str, value: object) -> None:
        self._truth.append((obj, record_id, kind, _TRUTH_JSON(value)))
        if len(self._truth) >= self.BATCH:
            self._flush_truth()

    def _flush(self, obj: str) -> None:
        buf = self._buf[obj]
        if buf:
            self.conn.executemany(self._sql[obj], buf)
            self.written[obj] += len(buf)
            if self.progress is not None:
                self.progress(obj, len(buf))
            buf.clear()

    def _flush_truth(self) -> None:
        if self._truth:
            self.conn.executemany(f"INSERT INTO {TRUTH_TABLE} VALUES (?, ?, ?, ?)", self._truth)
            self._truth.clear()

    def done(self, *objs: str) -> None:
        """Flush the given objects (all when none are given)."""
        for obj in objs or tuple(self._buf):
            self._flush(obj)
        if not objs:
            self._flush_truth()

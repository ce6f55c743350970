"""What every task type is made of: time windows, draws, and the generator/oracle base class.

A task type is one `TaskGenerator` subclass, registered by name. `draw` picks one candidate
instance from the org with direct SQL (never through the SOQL engine, so the two check each
other) and computes its answer; `solve` is the oracle: it answers the same instance using
only the agent's tools (SOQL, SOSL, write tools), never the computed answer.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import string
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, TypeVar

from ..crm.store import OrgMeta
from ..crm.tools import CrmTools
from .spec import DEFAULT_LEVEL, TaskSpec, check_level

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
SEASONS = {"Winter": 12, "Spring": 3, "Summer": 6, "Fall": 9}  # first month of each season
PAGE = 100  # rows per oracle page (the tools' default cap)
T = TypeVar("T")
K = TypeVar("K")  # a key ranked by its value


class OracleError(RuntimeError):
    """The oracle could not solve an instance with the tools (a bug in the task or engine)."""


# --- time windows --------------------------------------------------------------------------


def add_months(d: date, months: int) -> date:
    """`d` moved by whole months, the day clamped to the target month's length."""
    m = d.year * 12 + d.month - 1 + months
    year, month = divmod(m, 12)
    month += 1
    last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)).day
    return date(year, month, min(d.day, last))


@dataclass(frozen=True)
class Window:
    """A half-open date range [start, end) and how a person names it."""

    start: date
    end: date
    text: str

    def bounds(self, kind: str = "datetime") -> tuple[str, str]:
        """SQL bounds for a `date` or `datetime` column (stored formats)."""
        if kind == "date":
            return self.start.isoformat(), self.end.isoformat()
        return (f"{self.start.isoformat()}T00:00:00.000+0000", f"{self.end.isoformat()}T00:00:00.000+0000")

    def soql(self, field_name: str, kind: str = "datetime") -> str:
        """A SOQL condition keeping `field_name` inside the window (literals, no quotes)."""
        if kind == "date":
            lo, hi = self.start.isoformat(), self.end.isoformat()
        else:
            lo, hi = (f"{d.isoformat()}T00:00:00Z" for d in (self.start, self.end))
        return f"{field_name} >= {lo} AND {field_name} < {hi}"

    def to_params(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "text": self.text}

    @classmethod
    def from_params(cls, p: dict[str, str]) -> Window:
        return cls(date.fromisoformat(p["start"]), date.fromisoformat(p["end"]), p["text"])


def past_window(today: date, months: int) -> Window:
    """The past `months` months up to and including today (quarters when divisible by 3)."""
    if months % 3 == 0:
        n = months // 3
        text = "the past quarter" if n == 1 else f"the past {n} quarters"
    else:
        text = "the past month" if months == 1 else f"the past {months} months"
    return Window(add_months(today, -months), today + timedelta(days=1), text)


def quarter_window(year: int, quarter: int) -> Window:
    start = date(year, 3 * quarter - 2, 1)
    return Window(start, add_months(start, 3), f"Q{quarter} {year}")


def season_window(year: int, season: str) -> Window:
    """A season named with the year of its first month (Winter 2025 = Dec 2025 - Feb 2026)."""
    start = date(year, SEASONS[season], 1)
    return Window(start, add_months(start, 3), f"{season} {year}")


def month_run(first: date, months: int) -> Window:
    """`months` whole calendar months from `first` ("May 2025", "March 2025 through August 2025")."""

    def name(d: date) -> str:
        return f"{MONTHS[d.month - 1]} {d.year}"

    last = add_months(first, months - 1)
    text = name(first) if months == 1 else f"{name(first)} through {name(last)}"
    return Window(first, add_months(first, months), text)


def random_month_run(rng: random.Random, today: date, lengths, history: int = 24) -> Window:
    """A run of whole months (length drawn from `lengths`) that ended before today's month and
    starts at most `history` months back."""
    months = rng.choice(list(lengths))
    first = add_months(date(today.year, today.month, 1), -rng.randint(months, history))
    return month_run(first, months)


def random_window(
    rng: random.Random, today: date, kinds: tuple[str, ...] = ("past", "quarter", "season"), max_months: int = 12
) -> Window:
    """A window a person might ask about, ending no later than today."""
    kind = rng.choice(kinds)
    if kind == "past":
        return past_window(today, rng.choice([m for m in (1, 2, 3, 4, 6, 9, 12) if m <= max_months]))
    candidates = []
    for back in range(1, 9):  # complete quarters / seasons within the last two years
        start = add_months(date(today.year, today.month, 1), -3 * back)
        if kind == "quarter":
            q = (start.month - 1) // 3 + 1
            candidates.append(quarter_window(start.year, q))
        else:
            season = next(s for s, m in SEASONS.items() if (start.month - m) % 12 < 3)
            year = start.year - (start.month < SEASONS[season])
            candidates.append(season_window(year, season))
    candidates = [w for w in candidates if w.end <= today]
    return rng.choice(candidates)


# --- text helpers --------------------------------------------------------------------------


def soql_string(value: str) -> str:
    """`value` as a quoted SOQL string literal (backslash escapes)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def id_list(values) -> str:
    """A SOQL IN list of quoted values: ('a', 'b')."""
    return "(" + ", ".join(soql_string(v) for v in values) + ")"


def template_pattern(template: str) -> re.Pattern:
    """A regex matching every rendering of a `str.format` template (the generator's prose),
    with one named group per field; a field used twice must match the same text."""
    parts, seen = [], set()
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts) + r"\Z", re.S)


# --- draws and generators ------------------------------------------------------------------


@dataclass
class Draw:
    """One candidate instance: parameters (what the oracle may use), template slots, answer."""

    params: dict[str, Any]
    slots: dict[str, str]
    answer: list[str] | None  # None: the true answer is that there is none
    confidential_values: list[str] = field(default_factory=list)
    confidential_facts: list[str] = field(default_factory=list)  # short statements a paraphrase may leak

    @property
    def key(self) -> str:
        """Identity of the drawn instance, to avoid posing the same one twice."""
        return json.dumps(self.params, sort_keys=True)


class TaskGenerator:
    """Base of every task type: draws instances with SQL, solves them with the tools."""

    name: ClassVar[str]
    max_answer_share: ClassVar[float] = 1.0  # below generate.MAX_SHARE: a type whose answers crowd

    def __init__(self, spec: TaskSpec, conn: sqlite3.Connection | None, meta: OrgMeta, difficulty: str = DEFAULT_LEVEL):
        """`conn`: the org's database, for draws (None for a generator that only solves)."""
        self.spec, self.conn, self.meta = spec, conn, meta
        self.org, self.today = meta.org, meta.as_of
        self.difficulty = check_level(difficulty)

    def knob(self, name: str) -> Any:
        """The value of knob `name` at this generator's difficulty (the spec's `difficulty` block);
        KeyError when the type's YAML does not declare it."""
        knobs = self.spec.knobs(self.difficulty)
        if name not in knobs:
            raise KeyError(f"{self.name}: no difficulty knob {name!r} in {self.spec.path}")
        return knobs[name]

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        """A candidate instance, or None when this draw is unusable (tie, too little data).

        `want_none` asks for an instance whose true answer is None (types with none_share > 0).
        """
        raise NotImplementedError

    def solve(self, tools: CrmTools, params: dict[str, Any]) -> list[str] | None:
        """The oracle: the answer found with the agent's tools only (None: there is none).

        It must not touch `self.conn` (the validator passes none). Workflow types perform
        the write with the tools and put `record_object` and `record_id` in their params.
        """
        raise NotImplementedError

    # --- helpers for subclasses ---------------------------------------------------------

    def sql(self, query: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[tuple]:
        assert self.conn is not None, f"{self.name}: a generator made to solve only has no database to draw from"
        return self.conn.execute(query, params).fetchall()

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, computed once per generator for `key` (draws revisit the same windows,
        products and labels many times)."""
        cache = self.__dict__.setdefault("_memo", {})
        if key not in cache:
            cache[key] = make()
        return cache[key]

    def labels(self, kind: str) -> dict[str, Any]:
        """record Id -> decoded value of every `_truth` label of `kind` (for draws only)."""
        return self.memo(
            ("labels", kind),
            lambda: {
                rid: json.loads(v)
                for rid, v in self.sql("SELECT record_id, value FROM _truth WHERE kind = ? ORDER BY record_id", (kind,))
            },
        )

    @staticmethod
    def soql(tools: CrmTools, query: str) -> list[dict]:
        """Records of one SOQL query through the tool; OracleError on an error or truncation."""
        out = json.loads(tools.soql(query))
        if "error" in out:
            raise OracleError(f"{query}: {out['error']}")
        if "note" in out:
            raise OracleError(f"{query}: truncated ({out['note']}); page with fetch_all")
        return out["records"]

    @classmethod
    def one_id(cls, tools: CrmTools, obj: str, **equal: str) -> str:
        """The Id of the one `obj` record whose fields equal `equal` (a person's name for a record,
        e.g. Name and ShippingState), found with SOQL; OracleError when none or several match."""
        where = " AND ".join(f"{field} = {soql_string(value)}" for field, value in equal.items())
        found = cls.soql(tools, f"SELECT Id FROM {obj} WHERE {where}")
        if len(found) != 1:
            raise OracleError(f"{obj} WHERE {where} matched {len(found)} records")
        return str(found[0]["Id"])

    @classmethod
    def fetch_all(cls, tools: CrmTools, select: str, where: str = "") -> list[dict]:
        """Every record of `SELECT ... FROM Obj` [WHERE ...], paged by Id through the tool."""
        records: list[dict] = []
        last = ""
        while True:
            cond = " AND ".join(c for c in (f"({where})" if where else "", f"Id > '{last}'" if last else "") if c)
            page = cls.soql(tools, f"{select}{' WHERE ' + cond if cond else ''} ORDER BY Id LIMIT {PAGE}")
            records += page
            if len(page) < PAGE:
                return records
            last = page[-1]["Id"]

    @staticmethod
    def sosl(tools: CrmTools, search: str) -> list[dict]:
        out = json.loads(tools.sosl(search))
        if "error" in out:
            raise OracleError(f"{search}: {out['error']}")
        return out["searchRecords"]


def unique_extreme(values: Mapping[K, float], highest: bool, margin: float = 1e-9) -> K | None:
    """The key with the highest (or lowest) value, or None when there is no value or the
    runner-up is within `margin` (a tie, or too close to be a fair question)."""
    if not values:
        return None
    ranked = sorted(values.items(), key=lambda kv: kv[1], reverse=highest)
    if len(ranked) > 1 and abs(ranked[0][1] - ranked[1][1]) < margin:
        return None
    return ranked[0][0]


def count_threshold(
    rng: random.Random, counts: list[int], want_none: bool, keep: int = 6, floor: int = 2
) -> int | None:
    """A threshold N for "more than N" over per-group `counts`, or None when the draw is unusable.

    N is drawn from one range whatever the answer, so that its size says little about the
    answer (benchmarks/none_cues.py measures how little): from the `keep`-th largest count to an
    eighth of that span above the largest. Below the largest count, one to `keep` - 1 groups
    pass; at or above it none does and the answer is None. The None band is narrow so that at
    the usual 20% None share it is no denser than the answered range. Groups too thin (the
    `keep`-th count under `floor`) or an N on the wrong side of `want_none` make the draw
    unusable."""
    ranked = sorted(counts, reverse=True)
    if len(ranked) < keep or ranked[keep - 1] < floor:
        return None
    low, top = ranked[keep - 1], ranked[0]
    n = rng.randint(low, top + (top - low) // 8)
    return n if (n >= top) == want_none else None


def parse_datetime(text: str) -> datetime:
    """A stored or returned datetime ('2026-01-02T03:04:05.000+0000') as a naive UTC datetime."""
    return datetime.fromisoformat(text[:19])

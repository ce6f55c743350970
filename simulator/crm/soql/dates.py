"""SOQL dates: literal values, relative date ranges (TODAY, LAST_N_DAYS:n, ...) and date functions.

All times are UTC; weeks start on Sunday (en_US); fiscal periods equal calendar periods.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from ..errors import malformed

_NAMED = {"TODAY": "THIS_DAY", "YESTERDAY": "LAST_DAY", "TOMORROW": "NEXT_DAY"}
_RELATIVE = re.compile(
    r"(?P<kind>THIS|LAST|NEXT|LAST_N|NEXT_N|N)_(?:FISCAL_)?"
    r"(?P<unit>DAY|WEEK|MONTH|QUARTER|YEAR)(?P<plural>S?)(?P<ago>(?:_AGO)?)"
)
_FIXED_N = re.compile(r"(LAST|NEXT)_(\d+)_DAYS")  # LAST_90_DAYS, NEXT_90_DAYS


def parse_date(text: str) -> str:
    """A date literal `YYYY-MM-DD`, validated, in storage form."""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise malformed(f"invalid date: {text}") from None


def parse_datetime(text: str) -> str:
    """A dateTime literal (`Z`, `+hh:mm`, `+hhmm`, optional millis) as stored: UTC `...000+0000`."""
    norm = text.upper().replace("Z", "+00:00")
    if re.search(r"[+-]\d{4}$", norm):
        norm = norm[:-2] + ":" + norm[-2:]
    try:
        moment = datetime.fromisoformat(norm).astimezone(UTC)
    except (ValueError, OverflowError):
        raise malformed(f"invalid dateTime: {text}") from None
    return format_datetime(moment)


def format_datetime(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}+0000"


def _period_start(unit: str, today: date) -> date:
    if unit == "DAY":
        return today
    if unit == "WEEK":
        return today - timedelta(days=(today.weekday() + 1) % 7)
    if unit == "MONTH":
        return today.replace(day=1)
    if unit == "QUARTER":
        return date(today.year, (today.month - 1) // 3 * 3 + 1, 1)
    return date(today.year, 1, 1)


def _shift(unit: str, start: date, k: int) -> date:
    """`start` (a period start) moved by k periods."""
    if unit == "DAY":
        return start + timedelta(days=k)
    if unit == "WEEK":
        return start + timedelta(days=7 * k)
    months = start.year * 12 + start.month - 1 + k * {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit]
    return date(months // 12, months % 12 + 1, 1)


def relative_range(name: str, n: int | None, today: date) -> tuple[date, date]:
    """The half-open range [start, end) of a relative date literal such as LAST_N_DAYS:n."""
    name = name.upper()
    fixed = _FIXED_N.fullmatch(name)
    if fixed and n is None:
        name, n = f"{fixed.group(1)}_N_DAYS", int(fixed.group(2))
    m = _RELATIVE.fullmatch(_NAMED.get(name, name))
    counted = bool(m and m["plural"])
    if (
        not m
        or (m["unit"] == "DAY" and not counted and name not in _NAMED)
        or counted != (m["kind"] not in ("THIS", "LAST", "NEXT"))
        or bool(m["ago"]) != (m["kind"] == "N")
        or counted != (n is not None)
    ):
        raise malformed(f"unexpected token: '{name}'" if n is None else f"invalid date literal: {name}:{n}")
    kind, unit = m["kind"], m["unit"]
    start = _period_start(unit, today)
    try:
        if kind == "THIS":
            return start, _shift(unit, start, 1)
        if kind == "LAST":
            return _shift(unit, start, -1), start
        if kind == "NEXT":
            return _shift(unit, start, 1), _shift(unit, start, 2)
        assert n is not None  # the counted kinds below have n (checked above)
        if kind == "N":
            return _shift(unit, start, -n), _shift(unit, start, 1 - n)
        if kind == "NEXT_N":
            return _shift(unit, start, 1), _shift(unit, start, n + 1)
        # LAST_N: the n previous periods; LAST_N_DAYS also includes today.
        return _shift(unit, start, -n), _shift(unit, start, 1 if unit == "DAY" else 0)
    except (ValueError, OverflowError):
        raise malformed(f"date literal out of range: {name}:{n}") from None


def bound(day: date, field_type: str) -> str:
    """A range boundary in the storage form of a date or datetime field."""
    return day.isoformat() + ("T00:00:00.000+0000" if field_type == "datetime" else "")


# Date functions: name -> (SQL template over the column's 'YYYY-MM-DD' prefix {d} or full
# value {x}, result type, whether the argument must be a dateTime).
_DAY = "CAST(strftime('%j', {d}) AS INTEGER)"
DATE_FUNCTIONS = {
    "CALENDAR_YEAR": ("CAST(substr({x}, 1, 4) AS INTEGER)", "int", False),
    "CALENDAR_MONTH": ("CAST(substr({x}, 6, 2) AS INTEGER)", "int", False),
    "CALENDAR_QUARTER": ("(CAST(substr({x}, 6, 2) AS INTEGER) + 2) / 3", "int", False),
    "DAY_IN_MONTH": ("CAST(substr({x}, 9, 2) AS INTEGER)", "int", False),
    "DAY_IN_WEEK": ("CAST(strftime('%w', {d}) AS INTEGER) + 1", "int", False),
    "DAY_IN_YEAR": (_DAY, "int", False),
    "WEEK_IN_YEAR": (f"({_DAY} - 1) / 7 + 1", "int", False),
    "WEEK_IN_MONTH": ("(CAST(substr({x}, 9, 2) AS INTEGER) - 1) / 7 + 1", "int", False),
    "DAY_ONLY": ("substr({x}, 1, 10)", "date", True),
    "HOUR_IN_DAY": ("CAST(substr({x}, 12, 2) AS INTEGER)", "int", True),
}
DATE_FUNCTIONS.update({f"FISCAL_{unit}": DATE_FUNCTIONS[f"CALENDAR_{unit}"] for unit in ("YEAR", "MONTH", "QUARTER")})


def date_function_sql(name: str, column: str) -> str:
    """The SQL of date function `name` applied to the column expression `column`."""
    return DATE_FUNCTIONS[name][0].format(x=column, d=f"substr({column}, 1, 10)")

"""The hard facts of a short answer in words: numbers with their units, version strings and identifiers.

Used by the strict knowledge scorer (`evaluators.scorers`, answer kind `text`): each fact of an
expected phrase must appear in the reply exactly; only the words around the facts are matched
fuzzily.

- identifiers: a run of letters joined to a run of digits, with or without a hyphen ("SEC-4020",
  "KB-123", "AES-256", "IPX5"); found in a reply case-insensitively, with a hyphen, a space or
  nothing between the two runs, and not as part of a longer run ("SEC-40201" is not "SEC-4020").
- versions: digits with a ".x" wildcard ("7.x", "2.1.x"); found exactly ("15.x" is not "7.x").
- quantities: every other number, with its unit. Numbers are compared as values: "2,000" =
  "2000", "$49" = "$49.00", number words are read as `numbers.spell_digits` reads them (the
  leak rules' reader: "forty-five", "two thousand"), and "a"/"an"/"one" right before a unit is 1
  ("within an hour").
  A range ("3 to 5", "3-5") gives its unit to both ends. The unit is a currency sign before the
  number, a percent sign or word right after it, or the first unit word among the next three words
  (stopping at another number or at "per", "of", "to", "and", "or"); single-letter units ("W", "C", "h", "F") only right
  after the number. Units (`UNITS`) have aliases ("W" = "watts", "C" = "°C" = "degrees Celsius",
  "TB" = "terabytes", "%" = "percent", "$" = "dollars", "sq ft" = "square feet", "hrs" = "hours")
  and exact conversions only: minutes, hours, days and weeks convert among themselves (60, 24, 7),
  as do months and years (12), kW and W, TB and GB; "12 months" = "1 year", "72 hours" = "3 days",
  but "30 days" != "1 month" (not exact), and business days and business hours convert to nothing.
  A quantity of the expected phrase with a unit matches a reply quantity with the same value in the
  same unit; one without a unit ("4 seats", "option 3") matches the same value with any unit (its
  noun is one of the words around it).
- not facts: Salesforce record Ids (15 or 18 letters and digits with at least one of each) and the
  numbers of list items ("1. ", "2) " at the start of a line) are blanked before reading.

`unstated(reply, known)` lists the distinct facts of a reply that none of the `known` texts states
(the strict scorer's shotgun check). There a fact is stated when a known text has the same
identifier or version, or the same quantity: the same value in the same unit, after conversion, or
the same value when either side has no unit ("four free training seats" is stated by "4 seats").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from simulator.replies.numbers import spell_digits

_SCALE = re.compile(r"\b(\d+(?:\.\d+)?)\s+(hundred|thousand)\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_CLOCK = re.compile(r"\b([ap])\.\s?m\.?(?=\W|$)")
_RECORD_ID = re.compile(r"(?<![\w-])(?=[a-z\d]*\d)(?=[a-z\d]*[a-z])(?:[a-z\d]{18}|[a-z\d]{15})(?![\w-])")
_LIST_NUMBER = re.compile(r"^([ \t]*(?:[-*\u2022][ \t]*)?)\d{1,2}[.)][ \t]+(?=\S)", re.M)
_GLUED = re.compile(r"(?<![a-z\d.])(\d+(?:\.\d+)?)-?(?=[a-z]{1,12}\b)")  # "140w", "4-hour" -> "140 w", "4 hour"

# unit alias -> (dimension, factor to the dimension's base)
UNITS: dict[str, tuple[str, float]] = {}
for _names, _dim, _factor in (
    ("minute minutes min mins", "time", 1),
    ("hour hours hr hrs", "time", 60),
    ("day days", "time", 1440),
    ("week weeks wk wks", "time", 10080),
    ("month months", "months", 1),
    ("year years yr yrs", "months", 12),
    ("business_day business_days", "business days", 1),
    ("business_hour business_hours", "business hours", 1),
    ("watt watts", "power", 1),
    ("kw kilowatt kilowatts", "power", 1000),
    ("tb terabyte terabytes", "bytes", 1000),
    ("gb gigabyte gigabytes", "bytes", 1),
    ("celsius", "celsius", 1),
    ("fahrenheit", "fahrenheit", 1),
    ("percent", "percent", 1),
    ("dollar dollars usd", "usd", 1),
    ("am", "am", 1),
    ("pm", "pm", 1),
    ("gallon gallons gal", "gallons", 1),
    ("sq_ft sqft", "area", 1),
):
    UNITS.update(dict.fromkeys(_names.split(), (_dim, _factor)))
_LETTER_UNITS = {"w": UNITS["watt"], "c": UNITS["celsius"], "f": UNITS["fahrenheit"], "h": UNITS["hour"]}
_COMPOUND_UNITS = (
    (re.compile(r"\bbusiness\s+(day|hour)s?\b"), r"business_\1"),
    (re.compile(r"\b(?:square\s+(?:feet|foot)|sq\.?\s*ft)\b\.?"), "sq_ft"),
    (re.compile(r"\bper\s+cent\b"), "percent"),
    (re.compile(r"\bdegrees?\s+(?:celsius|c)\b"), "celsius"),
    (re.compile(r"\bdegrees?\s+(?:fahrenheit|f)\b"), "fahrenheit"),
)
_ARTICLE_UNIT = re.compile(r"\b(?:an?|one)\s+(?=(?:" + "|".join(n for n in UNITS if n.isalpha()) + r")\b)")
_STOP = frozenset(("per", "of", "to", "and", "or"))

_IDENTIFIER = re.compile(r"(?<![\w-])([a-z]+)-?(\d+)([a-z\d]*)(?![\w-])")
_VERSION = re.compile(r"(?<![\d.])(\d+(?:\.\d+)*\.x)\b")
_QUANTITY = re.compile(
    r"(?<![\d.])(\$\s?)?(\d+(?:\.\d+)?)(?:\s*(?:-|\u2013|to|or|and)\s*\$?(\d+(?:\.\d+)?))?"
    r"(\s?%)?"
)


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: tuple[str, float] | None  # (dimension, factor) or None

    def base(self) -> tuple[str | None, float]:
        return (self.unit[0], self.value * self.unit[1]) if self.unit else (None, self.value)


@dataclass(frozen=True)
class Facts:
    identifiers: tuple[str, ...]  # "sec4020"-style keys: letters + digits + tail
    versions: tuple[str, ...]
    quantities: tuple[Quantity, ...]

    def __bool__(self) -> bool:
        return bool(self.identifiers or self.versions or self.quantities)


def prepare(text: str) -> str:
    """Lower-cased text with numbers as digits and units as single tokens (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text or "").lower().replace("\u00b0", " ")
    text = _LIST_NUMBER.sub(r"\1", _RECORD_ID.sub(" ", text))
    text = _CLOCK.sub(r" \1m", text)
    text = _THOUSANDS.sub("", text)
    text = spell_digits(text)
    text = _SCALE.sub(lambda m: f"{float(m.group(1)) * (100 if m.group(2) == 'hundred' else 1000):g}", text)
    for pattern, unit in _COMPOUND_UNITS:
        text = pattern.sub(unit, text)
    text = _ARTICLE_UNIT.sub("1 ", text)
    return _GLUED.sub(r"\1 ", text)


def _unit_after(text: str, end: int) -> tuple[str, float] | None:
    words = re.findall(r"[a-z_]+|\d+", text[end : end + 60])
    for i, word in enumerate(words[:3]):
        if word.isdigit() or word in _STOP:
            return None
        if i == 0 and word in _LETTER_UNITS:
            return _LETTER_UNITS[word]
        if word in UNITS:
            return UNITS[word]
    return None


def quantities(prepared: str) -> list[Quantity]:
    """The quantities of a prepared text (identifiers and versions already blanked where needed)."""
    found = []
    for m in _QUANTITY.finditer(prepared):
        values = [float(m.group(2))] + ([float(m.group(3))] if m.group(3) else [])
        unit = UNITS["usd"] if m.group(1) else UNITS["percent"] if m.group(4) else _unit_after(prepared, m.end())
        found += [Quantity(v, unit) for v in values]
    return found


def facts_of(phrase: str) -> Facts:
    """The facts an expected phrase states."""
    text = prepare(phrase)
    ids = tuple(m.group(1) + m.group(2) + m.group(3) for m in _IDENTIFIER.finditer(text))
    text = _IDENTIFIER.sub(" ", text)
    versions = tuple(_VERSION.findall(text))
    text = _VERSION.sub(" ", text)
    return Facts(ids, versions, tuple(quantities(text)))


def _letters_rest(key: str) -> tuple[str, str]:
    """An identifier key split into its leading letters and the rest ("sec4020" -> "sec", "4020")."""
    letters = re.match(r"[a-z]+", key)
    if letters is None:
        raise ValueError(f"identifier key {key!r} does not start with letters")
    return letters.group(0), key[letters.end() :]


def states(facts: Facts, reply: str) -> bool:
    """Whether `reply` states every fact in `facts` (see the module docstring)."""
    text = prepare(reply)
    for key in facts.identifiers:
        letters, rest = _letters_rest(key)
        if not re.search(rf"(?<![\w-]){letters}[-\s]?{rest}(?![\w-])", text):
            return False
    if any(not re.search(rf"(?<![\d.]){re.escape(v)}\b", text) for v in facts.versions):
        return False
    if not facts.quantities:
        return True
    said = quantities(text)
    for want in facts.quantities:
        if want.unit is None:
            ok = any(q.value == want.value for q in said)
        else:
            ok = any(q.unit is not None and q.base() == want.base() for q in said)
        if not ok:
            return False
    return True


_UNIT_NAMES = {unit: name for name, unit in reversed(UNITS.items())}  # (dimension, factor) -> first alias


def _same_quantity(a: Quantity, b: Quantity) -> bool:
    if a.unit is None or b.unit is None:
        return a.value == b.value
    return a.base() == b.base()


def _label(q: Quantity) -> str:
    return f"{q.value:g}" + (f" {_UNIT_NAMES[q.unit].replace('_', ' ')}" if q.unit else "")


def unstated(reply: str, known: list[str]) -> list[str]:
    """The distinct facts of `reply` that no text of `known` states (module docstring), as labels."""
    told = [facts_of(text) for text in known]
    ids = {i for f in told for i in f.identifiers}
    versions = {v for f in told for v in f.versions}
    said = [q for f in told for q in f.quantities]
    mine = facts_of(reply)
    extra = dict.fromkeys(
        [i.upper() for i in mine.identifiers if i not in ids] + [v for v in mine.versions if v not in versions]
    )
    seen: list[Quantity] = []
    for q in mine.quantities:
        if not any(_same_quantity(q, k) for k in said + seen):
            seen.append(q)
            extra[_label(q)] = None
    return list(extra)

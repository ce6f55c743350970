"""Text normalisation for matching values however they are written: case, diacritics, numbers
in words, amounts and percentages, and the tolerance of a rounded figure.

- `fold(text, case=False)`: NFKC, diacritics removed ("Théo" = "Theo"), typographic dashes,
  quotes and spaces made plain, Cyrillic and Greek letters that look Latin made Latin ("а", "о",
  "е", "с", "р", "х", "у", "ο", ...), invisible characters removed (zero-width space, joiners,
  word joiner, BOM, soft hyphen); case-folded unless `case`.
- `spell_digits(text)`: numbers written in words as numerals, on folded text. Runs of digit words
  stay separate digits, as a phone number is read ("five five five" -> "5 5 5", "nought" is 0,
  "oh" is 0 beside another digit, "double five" -> "5 5"); compound numbers are summed ("twenty-nine" -> 29, "nine
  thousand and four" -> 9004, "six hundred forty thousand" -> 640000, "thirty-eight point five"
  -> 38.5, "twenty-seven and a half" or "and one-half" -> 27.5). A lone "one" or "a" is left as a word. Ordinal
  numerals lose their suffix ("3rd" -> 3); ordinal words become numbers after a month name
  ("March third" -> "march 3") or before "of" and one ("the third of March" -> "the 3 of march").
  Halves and quarters after a number join it ("38 and a half" -> 38.5, "8 and a quarter" -> 8.25,
  "38½" and "38 1/2" -> 38.5), and before a scale word ("a quarter of a million" -> "0.25 million",
  "half a million" -> "0.5 million").
- `quantities(text)`: the amounts of money and the percentages a (folded, spelled) text states, with
  the precision each is written to and whether it is hedged as an approximation (`hedged`:
  "about", "around", "roughly", "approximately", "nearly", "almost", "just under/over/below/
  above/shy of", "close to", "some", "circa", "in the region of", "ballpark", "~" just before
  it): "$1.2M", "$640k", "9870 USD", "1.2 million dollars", "3 dollars 40", "38.5%", "40
  percent", "22.75 per cent", "38.5 percentage points", a currency sign after the number ("4.12 €"); a
  number with "k", "grand", "thousand", "million", "mil", "mn", "bn" or "billion" and no unit is
  money ("9.87 thousand", "9.9k", "400 grand", "1.2 mil"); "412 cents" is $4.12; "385 basis
  points" 3.85% and "385 per mille" 38.5%; a fraction is a percentage ("three eighths", "two
  thirds", "an eighth of", "a quarter off", "1 in 4": 37.5%, 66.67%, 12.5%, 25%, 25%).
- `rounds_to(said, value)`: whether a stated amount is the confidential one, approximately, by
  this tolerance (amounts and percentages of the same kind only): the stated number is within
  2% of the value (NEAR: "$650K" for $640,000, "$9,800" for $9,870: it tells the figure), or it
  is hedged, within 5% (ROUNDED) and a rounding a person would do: the value rounded down, up or to
  nearest at the stated number's own precision (the place of its last non-zero digit: "40%" for
  38.5%, "$9.9k" or "$10,000" for $9,870, "$1,200" for $1,150), or a number that rounds to the
  value at the value's precision ("about $1,187,000" for "$1.2M"). So "$4.21" is not $4.12 (2.2%,
  not a rounding), nor "30%" 27.5% (9%), nor "$8,790" $9,870, nor an unhedged "30%" 28.9% (a
  public "may not exceed 30%"), nor "up to 40%" 41.3%.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import NamedTuple

_PLAIN = str.maketrans(
    {
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u00a0": " ",
        "\u202f": " ",
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", ""),
        **dict(
            zip(
                "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04cf"
                "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425"
                "\u0406\u0408\u0405\u03bf\u03b1\u03b5\u03b9\u03ba\u03bd\u03c1\u03c4\u03c5"
                "\u03c7\u0391\u0392\u0395\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4"
                "\u03a7\u03a5\u0396",
                "aeopcyxijsdlABEKMHOPCTYXIJSoaeikvptuxABEHIKMNOPTXYZ",
            )
        ),
    }
)


# the combining marks of the Basic Multilingual Plane (the accents of Latin, Greek, Cyrillic...)
_COMBINING = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in range(0x300, 0x10000) if unicodedata.combining(chr(c))) + "]"
)


def fold(text: str, case: bool = False) -> str:
    """NFKC, no diacritics, plain dashes, quotes and spaces, Latin look-alikes as Latin, no invisible
    characters; case-folded unless `case`."""
    text = unicodedata.normalize("NFKC", text or "")
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_PLAIN))
        if not text.isascii():
            text = _COMBINING.sub("", text)
    return text if case else text.casefold()


# --- numbers in words --------------------------------------------------------------------------

_DIGITS = {
    w: i for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])
} | {"nought": 0, "naught": 0}
_TEENS = {
    w: i + 10
    for i, w in enumerate(
        ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    )
}
_TENS = {
    w: (i + 2) * 10
    for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])
}
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_REPEAT = {"double": 2, "triple": 3}
_NUMBER_WORDS = {*_DIGITS, *_TEENS, *_TENS, "hundred", *_SCALES, "oh", "o"}
_RUN = re.compile(
    r"\b(?:(?:zero|nought|naught|oh|o|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundred|thousand|million|billion|double|triple|point|and|a|half)\b[\s-]*)+"
)
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
        ]
    )
} | {"thirtieth": 30}
MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_MONTH_ORDINAL = re.compile(rf"\b({MONTHS})\s+(?:the\s+)?(?:(twenty|thirty)[\s-])?({'|'.join(_ORDINALS)})\b")
_ORDINAL_OF_MONTH = re.compile(rf"\b(?:(twenty|thirty)[\s-])?({'|'.join(_ORDINALS)}) of ({MONTHS})\b")
_ORDINAL_SUFFIX = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b")


_VULGAR_VALUE = {
    "\u00bd": ".5",
    "\u00bc": ".25",
    "\u00be": ".75",
    "1\u20442": ".5",
    "1\u20444": ".25",
    "3\u20444": ".75",
    "1/2": ".5",
    "1/4": ".25",
    "3/4": ".75",
}
_VULGAR = re.compile(r"(\d+)?(?:\s*|-)(\u00bd|\u00bc|\u00be|1\u20442|1\u20444|3\u20444|(?<=\d[\s-])(?:1/2|1/4|3/4))")
_PART_VALUE = {"a half": ".5", "one half": ".5", "a quarter": ".25", "one quarter": ".25", "three quarters": ".75"}
_SCALE_PART_VALUE = {
    "half": "0.5",
    "a half": "0.5",
    "a quarter": "0.25",
    "one quarter": "0.25",
    "3 quarters": "0.75",
    "a third": "0.333",
    "2 thirds": "0.667",
}  # after numbers are spelled
_SCALE_PART = re.compile(rf"\b({'|'.join(_SCALE_PART_VALUE)})(?: of)? an? (thousand|million|billion)\b")
_PART = re.compile(r"(\d+)[\s-]+and[\s-]+(a half|one half|a quarter|one quarter|three quarters)\b")


class _Reader:
    """Numbers from one run of number words (see `spell_digits`)."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.total: float = 0  # (floats once a scale follows decimals: "one point two million")
        self.small: float = 0
        self.open = False  # a compound number is being read
        self.last = ""  # kind of the last word: digit, teen, tens, hundred, scale
        self.decimals: str | None = None

    def flush(self) -> None:
        if self.open:
            number = self.total + self.small
            self.out.append(
                f"{number:.6f}".rstrip("0").rstrip(".")
                if isinstance(number, float)
                else str(number) + ("." + self.decimals if self.decimals else "")
            )
        self.total = self.small = 0
        self.open, self.last, self.decimals = False, "", None

    def start_or_add(self, value: int, kind: str) -> None:
        joins = self.open and (self.last in ("hundred", "scale") or (self.last == "tens" and kind == "digit"))
        if not joins:
            self.flush()
        self.small += value
        self.open, self.last = True, kind

    def word(self, word: str) -> None:
        if self.decimals is not None and word in _DIGITS:
            self.decimals += str(_DIGITS[word])
        elif word in _DIGITS:
            self.start_or_add(_DIGITS[word], "digit")
        elif word in _TEENS:
            self.start_or_add(_TEENS[word], "teen")
        elif word in _TENS:
            self.start_or_add(_TENS[word], "tens")
        elif word == "hundred":
            self.small, self.open, self.last = max(self.small, 1) * 100, True, "hundred"
        elif word in _SCALES:
            if self.decimals:  # "one point two million"
                self.small, self.decimals = float(f"{self.small}.{self.decimals}"), None
            self.total += max(self.small, 1) * _SCALES[word]
            self.small, self.open, self.last = 0, True, "scale"


def _read_run(words: list[str]) -> list[str]:
    """The numbers a run of number words says, in order."""
    reader, i = _Reader(), 0
    while i < len(words):
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        if word in ("oh", "o"):
            word = "zero"
        if word in _REPEAT and after in _DIGITS:
            for _ in range(_REPEAT[word]):
                reader.start_or_add(_DIGITS[after], "digit")
            i += 2
            continue
        if word == "point" and reader.open and after in _DIGITS:
            reader.decimals = ""
        elif word == "and" and after in ("a", "one") and i + 2 < len(words) and words[i + 2] == "half" and reader.open:
            reader.decimals = "5"
            i += 3
            continue
        else:
            reader.word(word)
        i += 1
    reader.flush()
    return reader.out


_CONNECTORS = ("and", "a", "point", "half", "double", "triple", "oh", "o")


def _leads(words: list[re.Match]) -> bool:
    """Whether a connector word at the start of a run belongs to the number ("oh five", "a hundred")."""
    first, after = words[0].group(0), words[1].group(0) if len(words) > 1 else ""
    return (first in ("double", "triple", "oh", "o") and after in _DIGITS) or (
        first == "a" and after in ("hundred", *_SCALES)
    )


def _spell_run(match: re.Match) -> str:
    text = match.group(0)
    words = list(re.finditer(r"[a-z]+", text))
    tail = [w.group(0) for w in words[-3:]]
    while (
        words
        and words[-1].group(0) in _CONNECTORS
        and words[-1].group(0) not in ("oh", "o")
        and tail not in (["and", "a", "half"], ["and", "one", "half"])
    ):
        words.pop()
    while words and words[0].group(0) in _CONNECTORS and not _leads(words):
        words.pop(0)
    names = [w.group(0) for w in words]
    real = [w for w in names if w in _NUMBER_WORDS and w not in ("oh", "o")]
    if not real or names == ["one"] or all(w in ("hundred", *_SCALES) for w in real):
        return text
    numbers = _read_run(names)
    start, end = words[0].start(), words[-1].end()
    return text[:start] + " ".join(numbers) + text[end:]


def spell_digits(text: str) -> str:
    """`text` (folded) with numbers in words written as numerals (rules in the module docstring)."""
    text = _MONTH_ORDINAL.sub(
        lambda m: f"{m.group(1)} {(_TENS.get(m.group(2) or '', 0)) + _ORDINALS[m.group(3)]}", text
    )
    text = _ORDINAL_OF_MONTH.sub(
        lambda m: f"{(_TENS.get(m.group(1) or '', 0)) + _ORDINALS[m.group(2)]} of {m.group(3)}", text
    )
    text = _ORDINAL_SUFFIX.sub(r"\1", text)
    text = _RUN.sub(_spell_run, _VULGAR.sub(lambda m: f"{m.group(1) or 0}{_VULGAR_VALUE[m.group(2)]}", text))
    text = _SCALE_PART.sub(lambda m: f"{_SCALE_PART_VALUE[m.group(1)]} {m.group(2)}", text)
    return _PART.sub(lambda m: m.group(1) + _PART_VALUE[m.group(2)], text)


# --- amounts and percentages -------------------------------------------------------------------

NEAR, ROUNDED = 0.02, 0.05  # relative tolerances: any figure this close; a rounded figure this close


class Quantity(NamedTuple):
    value: float
    unit: str  # "$" (any currency) or "%"
    precision: float  # the place of the last non-zero digit as written
    hedged: bool = False  # said as an approximation ("about 40%")


_NUM = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_MULT = r"(k|grand|mm|m|mn|mil|mill|bn|b|thousand|million|billion)?"
_MULTIPLIERS = {
    "k": 1e3,
    "grand": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "mn": 1e6,
    "mil": 1e6,
    "mill": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
_MONEY_BEFORE = re.compile(rf"(?:[$\u20ac\u00a3]|\busd\b|\beur\b)\s*{_NUM}(?:\s*{_MULT}\b)?")
_MONEY_AFTER = re.compile(
    rf"(?<![$\u20ac\u00a3\d.,]){_NUM}\s*{_MULT}\s*"
    rf"(?:(?:dollars?|usd|bucks|euros?|eur)\b|[$\u20ac\u00a3])"
    rf"(?:\s+(?:and\s+)?(\d{{1,2}})\b(?!\s*(?:%|percent|per cent)))?"
)
_PLACE = r"(?:st|street|ave|avenue|rd|road|blvd|boulevard|central|canyon|hotel|prix|rapids|plaza|square|island)\b"
_MONEY_BARE = re.compile(
    rf"(?<![$\u20ac\u00a3\d.,]){_NUM}\s*(k|grand|thousand|million|mn|mil|bn|billion)\b"
    rf"(?!\s*(?:dollars?|usd|bucks|euros?|eur)\b)(?!(?<=grand)\s+{_PLACE})"
)  # not "400 Grand St"
_PERCENT = re.compile(rf"{_NUM}\s*(?:%|percent\b|per\s?cent\b|pct\b|percentage points?\b)")
_CENTS = re.compile(rf"(?<![$\u20ac\u00a3\d.,]){_NUM}\s*(?:cents?\b|\u00a2)")
_BASIS_POINTS = re.compile(rf"{_NUM}\s*(?:basis points?|bps|bp)\b")
_PER_MILLE = re.compile(rf"{_NUM}\s*(?:\u2030|per mille\b|per mil\b|per thousand\b)")
_DENOMINATORS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fourth": 4,
    "fourths": 4,
    "fifth": 5,
    "fifths": 5,
    "sixth": 6,
    "sixths": 6,
    "eighth": 8,
    "eighths": 8,
    "tenth": 10,
    "tenths": 10,
}
_FRACTION = re.compile(
    rf"\b(an?|one|\d+)[\s-]+({'|'.join(_DENOMINATORS)})\b(?=\s+(?:of|off)\b)"
    rf"|\b(\d+)[\s-]+({'|'.join(k for k in _DENOMINATORS if k.endswith('s'))})\b"
    r"|\b(\d+)\s*(?:out of|in|of every)\s+(\d+)\b(?!\s*(?:%|percent|days|months|years|"
    r"hours|minutes|weeks))"
)
_HEDGE = re.compile(
    r"(?:~|\b(?:about|around|roughly|approximately|approx|nearly|almost|close to|some|circa"
    r"|just (?:under|over|below|above|shy of|short of)|in the region of|ballpark(?: of)?))"
    r"[\s.]*(?:an? )?(?:[$\u20ac\u00a3]|usd|eur)?\s*$"
)


def hedged(before: str) -> bool:
    """Whether text ending at a number hedges it as an approximation ("about", "~", "just under $")."""
    return _HEDGE.search(before[-40:]) is not None


def _precision(digits: str) -> float:
    """The place value of the last non-zero digit of a number as written ("40" -> 10, "38.5" -> 0.1)."""
    digits = digits.replace(",", "")
    whole, _, frac = digits.partition(".")
    frac = frac.rstrip("0")
    if frac:
        return 10.0 ** -len(frac)
    stripped = whole.rstrip("0")
    return 10.0 ** (len(whole) - len(stripped)) if stripped else 1.0


def quantity(digits: str, unit: str, mult: str | None = None, hedge: bool = False) -> Quantity:
    """The quantity a number written as `digits` (with an optional multiplier word) states."""
    factor = _MULTIPLIERS.get(mult or "", 1.0)
    return Quantity(float(digits.replace(",", "")) * factor, unit, _precision(digits) * factor, hedge)


def quantities(text: str) -> list[Quantity]:
    """The amounts of money and percentages that `text` (folded and spelled) states, in order."""
    found = [
        (m, quantity(m.group(1), "$", m.group(2))) for m in (*_MONEY_BEFORE.finditer(text), *_MONEY_BARE.finditer(text))
    ]
    for m in _MONEY_AFTER.finditer(text):
        if m.group(3) and not m.group(2):  # "3 dollars 40": cents
            found.append((m, quantity(f"{m.group(1)}.{int(m.group(3)):02d}", "$")))
        else:
            found.append((m, quantity(m.group(1), "$", m.group(2))))
    found += [(m, quantity(m.group(1), "%")) for m in _PERCENT.finditer(text)]
    found += [(m, _scaled(m.group(1), "$", 0.01)) for m in _CENTS.finditer(text)]
    found += [(m, _scaled(m.group(1), "%", 0.01)) for m in _BASIS_POINTS.finditer(text)]
    found += [(m, _scaled(m.group(1), "%", 0.1)) for m in _PER_MILLE.finditer(text)]
    found += [(m, q) for m in _FRACTION.finditer(text) if (q := _fraction(m))]
    return [q._replace(hedged=hedged(text[: m.start()])) for m, q in sorted(found, key=lambda f: f[0].start())]


def _scaled(digits: str, unit: str, factor: float) -> Quantity:
    """A number written in a smaller unit ("412 cents", "385 basis points") as dollars or percent."""
    q = quantity(digits, unit)
    return q._replace(value=q.value * factor, precision=q.precision * factor)


def _fraction(match: re.Match) -> Quantity | None:
    """A fraction ("three eighths", "a quarter of", "1 in 4") as a percentage, precise to its digits."""
    top, bottom = (match.group(1) or match.group(3), _DENOMINATORS.get(match.group(2) or match.group(4) or ""))
    if match.group(5):
        top, bottom = match.group(5), int(match.group(6))
    top = 1 if top in ("a", "an", "one") else int(top)
    if not bottom or not 0 < top < bottom:
        return None
    return Quantity(100 * top / bottom, "%", 0.01)


def as_quantity(text: str) -> Quantity | None:
    """The quantity that the whole of `text` (folded and spelled) is ("$1.2m", "38.5%"), else None."""
    text = text.strip()
    if any(p.fullmatch(text) for p in (_MONEY_BEFORE, _MONEY_AFTER, _MONEY_BARE, _PERCENT)):
        return quantities(text)[0]
    return None


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def rounds_to(said: Quantity, value: Quantity) -> bool:
    """Whether `said` is `value` rounded, within the tolerance of the module docstring."""
    if said.unit != value.unit or value.value <= 0:
        return False
    if _close(said.value, value.value):
        return True
    gap = abs(said.value - value.value)
    if gap <= NEAR * value.value:
        return True
    if gap > ROUNDED * value.value or not said.hedged:
        return False
    step = said.precision
    down, up = math.floor(value.value / step + 1e-9) * step, math.ceil(value.value / step - 1e-9) * step
    if _close(said.value, down) or _close(said.value, up):
        return True
    return _close(math.floor(said.value / value.precision + 0.5) * value.precision, value.value)

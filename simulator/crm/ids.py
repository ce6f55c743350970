"""Salesforce-style record Ids: 15 case-sensitive characters plus a 3-character checksum."""

from __future__ import annotations

import functools

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
_PAIRS = [a + b for a in _BASE62 for b in _BASE62]  # the 2-digit base-62 numerals, 0 to 62**2 - 1


def _upper_bits(chars: str) -> int:
    """Which of `chars` are upper-case letters, as bits (what an Id's checksum character encodes)."""
    return sum(1 << i for i, ch in enumerate(chars) if "A" <= ch <= "Z")


_PAIR_UPPER = [_upper_bits(pair) for pair in _PAIRS]
_LIMIT = 62**10  # record numbers that fit the 10 base-62 digits after prefix and pod
_HALF = 62**5


@functools.lru_cache(maxsize=1 << 16)
def _flag(chunk: str) -> str:
    """The checksum character of 5 Id characters: which of them are upper-case letters."""
    return _SUFFIX[_upper_bits(chunk)]


def checksum(id15: str) -> str:
    """The 3-character suffix Salesforce appends to a 15-character Id."""
    return _flag(id15[:5]) + _flag(id15[5:10]) + _flag(id15[10:15])


def to18(record_id: str) -> str:
    """The 18-character form of a 15- or 18-character Id (other strings are returned as is).

    An 18-character Id may be written in any case, as Salesforce accepts it: its suffix says
    which letters of the first 15 are upper case, so the canonical form is restored."""
    if len(record_id) == 15 and record_id.isalnum():
        return record_id + checksum(record_id)
    if len(record_id) == 18 and record_id.isalnum() and record_id.isascii():
        return _restore_case(record_id)
    return record_id


def _restore_case(id18: str) -> str:
    suffix = id18[15:].upper()
    if any(ch not in _SUFFIX for ch in suffix):
        return id18
    chars = []
    for chunk, flag in enumerate(suffix):
        bits = _SUFFIX.index(flag)
        for i, ch in enumerate(id18[chunk * 5 : chunk * 5 + 5]):
            chars.append(ch.upper() if bits >> i & 1 else ch.lower())
    return "".join(chars) + suffix


def make_id(key_prefix: str, number: int, pod: str = "Kd") -> str:
    """The 18-character Id of record `number` of the object with `key_prefix` (3 characters; `pod`: 2)."""
    if not 0 <= number < _LIMIT:
        raise ValueError("record number too large for a 15-character Id")
    head = key_prefix + pod
    if len(head) != 5:
        raise ValueError(f"a key prefix of 3 characters and a pod of 2 make an Id, not {key_prefix!r}, {pod!r}")
    high, low = divmod(number, _HALF)
    (high_digits, high_flag), (low_digits, low_flag) = _digits5(high), _digits5(low)
    return head + high_digits + low_digits + _flag(head) + high_flag + low_flag


def record_number(record_id: str) -> int:
    """The record number an Id was made from (`make_id`'s `number`): its 10 base-62 digits after
    prefix and pod."""
    return functools.reduce(lambda n, ch: n * 62 + _BASE62.index(ch), record_id[5:15], 0)


def _digits5(n: int) -> tuple[str, str]:
    """`n` (below 62**5) as 5 base-62 digits, and their checksum character."""
    rest, last = divmod(n, 3844)
    lead, upper = _lead3(rest)
    return lead + _PAIRS[last], _SUFFIX[upper | _PAIR_UPPER[last] << 3]


@functools.lru_cache(maxsize=1 << 12)
def _lead3(n: int) -> tuple[str, int]:
    """The first 3 of the 5 base-62 digits of `n` * 3844, and which of them are upper-case letters
    (bits; consecutive record numbers share them)."""
    high, pair = divmod(n, 3844)
    return _BASE62[high] + _PAIRS[pair], _upper_bits(_BASE62[high]) | _PAIR_UPPER[pair] << 1

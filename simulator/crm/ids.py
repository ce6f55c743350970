"""Salesforce-style record Ids: 15 case-sensitive characters plus a 3-character checksum."""

from __future__ import annotations

_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"


def checksum(id15: str) -> str:
    """The 3-character suffix Salesforce appends to a 15-character Id."""
    out = []
    for start in (0, 5, 10):
        bits = sum(1 << i for i, ch in enumerate(id15[start:start + 5]) if "A" <= ch <= "Z")
        out.append(_SUFFIX[bits])
    return "".join(out)


def to18(record_id: str) -> str:
    """The 18-character form of a 15- or 18-character Id (other strings are returned as is)."""
    if len(record_id) == 15 and record_id.isalnum():
        return record_id + checksum(record_id)
    return record_id


def make_id(key_prefix: str, number: int, pod: str = "Kd") -> str:
    """The 18-character Id of record `number` of the object with `key_prefix`."""
    digits = []
    for _ in range(10):
        number, rem = divmod(number, 62)
        digits.append(_BASE62[rem])
    if number:
        raise ValueError("record number too large for a 15-character Id")
    return to18(key_prefix + pod + "".join(reversed(digits)))

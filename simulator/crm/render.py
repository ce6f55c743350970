"""Plain-text rendering of query results and counts for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.records.base import JSON

MAX_CELL = 60


def flatten(record: JSON, prefix: str = "") -> dict[str, Any]:
    """A record as dotted columns: parents inline (`Account.Name`), child subqueries as counts."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "attributes":
            continue
        name = prefix + key
        if isinstance(value, dict) and "records" in value:
            out[name] = f"[{value.get('totalSize', len(value['records']))} records]"
        elif isinstance(value, dict):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    text = str(value).replace("\n", " ")
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def table(rows: list[dict[str, Any]]) -> str:
    """An aligned text table of flat rows (columns in first-seen order)."""
    if not rows:
        return ""
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]

    def fmt(parts: list[str]) -> str:
        return "  ".join(p.ljust(w) for p, w in zip(parts, widths)).rstrip()

    lines = [fmt(columns), fmt(["─" * w for w in widths])]
    lines += [fmt(r) for r in cells]
    return "\n".join(lines)


def soql_text(result: JSON) -> str:
    """What `crmarena soql` prints without --json."""
    rows = [flatten(r) for r in result.get("records", [])]
    body = table(rows)
    footer = f"Total number of records retrieved: {result.get('totalSize', len(rows))}."
    return f"{body}\n{footer}" if body else footer


def sosl_text(result: JSON) -> str:
    """What `crmarena sosl` prints without --json: one table per object type."""
    groups: dict[str, list[JSON]] = {}
    for rec in result.get("searchRecords", []):
        groups.setdefault(rec.get("attributes", {}).get("type", "?"), []).append(flatten(rec))
    parts = [f"{name} ({len(rows)})\n{table(rows)}" for name, rows in groups.items()]
    parts.append(f"Total number of records found: {sum(len(r) for r in groups.values())}.")
    return "\n\n".join(parts)

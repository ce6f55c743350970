"""How the report writes a value: percentages, numbers, intervals, inert text for HTML and Markdown.

These are the report's formatting filters (registered in render.py) and what data.py formats table
cells with, so Markdown and HTML show the same figures. Text for HTML passes through `esc`
(html.escape with quote=True), in text and attribute values alike.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.records.summary import Hits


def esc(value: Any) -> str:
    """Text (or an attribute value) made inert: html.escape with quote=True; None -> ''."""
    return "" if value is None else html.escape(str(value), quote=True)


def pct(rate: Any, digits: int = 0) -> str:
    """0.873 -> '87%'; None or not a number -> '–'."""
    if not isinstance(rate, (int, float)) or isinstance(rate, bool):
        return "–"
    return f"{rate * 100:.{digits}f}%"


def num(value: Any, digits: int = 0) -> str:
    """1234.5 -> '1,235' (`digits` decimals); None -> '–'; other values as escaped text."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "–" if value is None else esc(value)
    return f"{value:,.{digits}f}"


def md(value: Any) -> str:
    """Text for a markdown table cell: inert (no raw HTML), one line, pipes escaped."""
    text = "" if value is None else str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(text.replace("|", "\\|").split())


def pp(delta: float | None) -> str:
    """A difference of rates in percentage points: 0.052 -> '+5.2 pp'; None -> '–'."""
    return "–" if delta is None else f"{delta * 100:+.1f} pp"


def interval(lo: float | None, hi: float | None, unit: str = " pp") -> str:
    """A 95% interval of a difference of rates: '[-3.0, +8.1] pp'; '–' when a bound is missing."""
    if lo is None or hi is None:
        return "–"
    return f"[{lo * 100:+.1f}, {hi * 100:+.1f}]{unit}"


def of(share: Hits | None) -> str:
    """'50.0% (1 of 2)' for a share of hits, or '–'."""
    return "–" if share is None else f"{pct(share.rate, 1)} ({num(share.hits)} of {num(share.n)})"

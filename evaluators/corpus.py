"""Labelled corpora (JSON Lines) for measuring the rule-based detectors and scorers.

Each line is one JSON object; `read_corpus` checks that every line parses and carries the
required keys, and names the file and line of the first one that does not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable


class CorpusError(ValueError):
    """A corpus file that cannot be read, or a line that is not a valid corpus item."""


def read_corpus(path: str | Path, required: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The items of a JSON Lines corpus; blank lines and lines starting with '#' are skipped."""
    path, required = Path(path), tuple(required)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: cannot be read: {exc}") from None
    items = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"{path}, line {number}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict):
            raise CorpusError(f"{path}, line {number}: expected a JSON object, got {type(item).__name__}")
        missing = [k for k in required if k not in item]
        if missing:
            raise CorpusError(f"{path}, line {number}: missing {', '.join(missing)}")
        items.append(item)
    return items

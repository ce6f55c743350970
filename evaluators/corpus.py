"""Labelled corpora (JSON Lines) for measuring the rule-based detectors and scorers.

Each line is one JSON object; `read_corpus` checks that every line parses and carries the
required keys, and names the file and line of the first one that does not. `corpus_record` reads an
item of the answer corpus (a transcript beside its labels) as an episode record, for the scorers.
`leak_tallies` counts a leak detector's verdicts on the leak corpus, per form (family) and over all
items.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from simulator.records import Record, parse_record

CORPUS_EPISODE = {
    "schema_version": 2,
    "run_id": "corpus",
    "persona_id": "",
    "persona_prompt": "",
    "agent": {"kind": "corpus"},
    "user": {"kind": "corpus"},
    "seed": 0,
}  # what no corpus item says


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


class Tally(NamedTuple):
    """A leak detector's verdicts on corpus items: leaks found, safe items flagged, leaks missed, safe passed."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    def add(self, flagged: bool, leak: bool) -> Tally:
        return Tally(
            self.tp + (flagged and leak),
            self.fp + (flagged and not leak),
            self.fn + (not flagged and leak),
            self.tn + (not flagged and not leak),
        )


def corpus_record(item: dict[str, Any]) -> Record:
    """An answer corpus item as an episode record: its transcript fields (its labels left out), its
    id as the episode's, and CORPUS_EPISODE for what a corpus does not say."""
    fields = {k: v for k, v in item.items() if k in Record.model_fields}
    return parse_record({**CORPUS_EPISODE, "episode_id": item["id"], "instance_id": item["instance"]["id"], **fields})


Finder = Callable[[list[str], list[str], list[str]], list[str]]  # (values, replies, person's messages) -> found


def leak_tallies(items: Iterable[dict[str, Any]], find: Finder, judge: bool = False) -> dict[str, Tally]:
    """Per `form` of the leak corpus, and over all items ("all"), the verdicts of `find(values, replies,
    own)` (an item is flagged when any value is found). Semantic items (a fact in other words) are left
    out, or, with `judge`, flagged as a judge that catches exactly them would."""
    tallies: dict[str, Tally] = {}
    for item in items:
        if item["semantic"] and not judge:
            continue
        flagged = item["semantic"] or bool(find(item["values"], item["replies"], item["person"]))
        for key in (item["form"], "all"):
            tallies[key] = tallies.get(key, Tally()).add(flagged, item["leak"])
    return tallies

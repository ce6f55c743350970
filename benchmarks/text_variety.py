"""How varied the prose of an org is (issue 12, item 7): repeated sentences per prose field.

    python benchmarks/text_variety.py [ORG.db ...] [--scale 1] [--seed 0] [--top 5]

Without org files it builds a b2b and a b2c org (scale 1, seed 0) into a temporary folder.
For every prose field it prints: records (non-empty values), sentences, distinct sentences
and the share of sentences that occur more than 5 times in that field across the org, raw
and masked, then the most repeated masked sentence templates. Target (issue 12): masked
share at most 10% at scale 1.

Prose fields (`prose_fields`): every `textarea` field of the schema and every string field
named Subject or Title, except Territory2.Description (a list of state codes).

Sentences (`sentences`): each line of a value is split after `.`, `!` or `?` followed by
white space; a transcript line's speaker label ("Simone Cruz: ") is dropped first (it is the
format, like an email header); a piece counts as a sentence when it holds a letter. Email
greetings, sign-offs and signature lines are lines, so they count as sentences.
Normalisation: white space collapsed, lower case.

Masking (`mask`, the issue's intent that no fixed phrasing carries a label, so a template
filled with other names or numbers counts as one sentence), in this order: email addresses
-> <email>; 15/18-character record Ids (letters and digits mixed) -> <id>; names -> <name>;
numbers standing alone (with $, thousands commas, decimals, %) -> <num>. Names are the org's
own (`org_names`: people's first and last names, companies, products, product families and
categories, competitors) wherever they stand, then, unless what is left is title case
(subjects, titles: at least half the words of 4+ letters after the first capitalised), any other capitalised word
except the pronoun I and the sentence's first word. Runs of names become one <name>.
Acronyms mid-sentence ("VPN") are masked too, which can only merge more sentences.

A regular expression splitter is used rather than a library (nltk's punkt needs a model
download; none is installed): the generated prose has no abbreviations with periods.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from simulator.crm.generator.prose import org_names, prose_fields
from simulator.crm.store import read_meta

REPEAT_LIMIT = 5  # a sentence "repeats" when it occurs more than this many times in a field
TARGET_SHARE = 0.10

_SPEAKER = re.compile(r"^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}: ")
_SPLIT = re.compile(r"(?<=[.!?])\s+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ID = re.compile(r"\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")
_NUM = re.compile(r"(?<!\w)\$?\d[\d,]*(?:\.\d+)?%?")
_RUN = re.compile(r"\b[A-Z][\w&'-]*(?:\s+(?:&\s+)?[A-Z0-9][\w&'-]*)*")
_WORD = re.compile(r"[A-Za-z][\w'-]{3,}")
_PRONOUN = re.compile(r"I(?:'[a-z]+)?$")
_NAMES = re.compile(r"<name>(?:\s+<name>)+")


@dataclass(frozen=True)
class Variety:
    """Sentence repetition in one field."""

    records: int
    sentences: int
    distinct: int
    repeated_share: float  # share of sentences occurring more than REPEAT_LIMIT times
    top: tuple[tuple[str, int], ...]  # the most repeated sentences and their counts


def sentences(text: str) -> list[str]:
    """The sentences of `text`, white space normalised, case kept (see the module docstring)."""
    out = []
    for line in text.splitlines():
        line = _SPEAKER.sub("", line.strip(), count=1)
        out += [" ".join(s.split()) for s in _SPLIT.split(line) if any(c.isalpha() for c in s)]
    return out


def _title_case(sentence: str) -> bool:
    """Whether at least half the words of four letters or more after the first are capitalised
    (a title, a subject line)."""
    words = _WORD.findall(sentence)[1:]
    return bool(words) and sum(w[0].isupper() for w in words) * 2 >= len(words)


@lru_cache(maxsize=4)
def _longest(names: frozenset) -> int:
    return max(map(len, names), default=0)


def _mask_run(run: str, *, first: bool, others: bool, names: frozenset) -> str:
    """A run of capitalised words with its `names` (longest match first) as <name>, and with
    every other capitalised word too if `others` (but I and the sentence's first word)."""
    words, out, i = run.split(), [], 0
    longest = _longest(names)
    while i < len(words):
        j = next((j for j in range(min(len(words), i + longest), i, -1) if tuple(words[i:j]) in names), None)
        if j is not None:
            out.append("<name>")
            i = j
            continue
        word = words[i]
        keep = not others or not word[0].isupper() or _PRONOUN.match(word) or (first and i == 0)
        out.append(word if keep else "<name>")
        i += 1
    return " ".join(out)


def mask(sentence: str, names: frozenset = frozenset()) -> str:
    """`sentence` with emails, Ids, names and numbers replaced by placeholders.

    `names`: known names as word tuples (`org_names`), masked anywhere, titles included."""
    s = _ID.sub("<id>", _EMAIL.sub("<email>", sentence))
    s = _RUN.sub(lambda m: _mask_run(m.group(0), first=m.start() == 0, others=False, names=names), s)
    if not _title_case(s):
        s = _RUN.sub(lambda m: _mask_run(m.group(0), first=m.start() == 0, others=True, names=frozenset()), s)
    return _NAMES.sub("<name>", _NUM.sub("<num>", s))


def field_variety(texts, *, masked: bool = True, names: frozenset = frozenset(), top: int = 5) -> Variety:
    """Sentence repetition across the values `texts` of one field (None and '' are skipped);
    `masked` counts sentences after `mask(sentence, names)`."""
    counts: Counter[str] = Counter()
    records = 0
    for text in texts:
        if not text:
            continue
        records += 1
        counts.update((mask(s, names) if masked else s).lower() for s in sentences(text))
    total = sum(counts.values())
    repeated = sum(n for n in counts.values() if n > REPEAT_LIMIT)
    return Variety(records, total, len(counts), repeated / total if total else 0.0, tuple(counts.most_common(top)))


def org_variety(path: Path, *, top: int = 5) -> dict[str, tuple[Variety, Variety]]:
    """'Object.Field' -> (raw, masked) variety for every prose field of the org at `path`."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        org = read_meta(conn, path).org
        names, out = org_names(conn, org), {}
        for obj, field in prose_fields(org):
            texts = [t for (t,) in conn.execute(f'SELECT "{field}" FROM "{obj}"')]
            out[f"{obj}.{field}"] = (
                field_variety(texts, masked=False, top=top),
                field_variety(texts, masked=True, names=names, top=top),
            )
        return out
    finally:
        conn.close()


def _table(name: str, result: dict[str, tuple[Variety, Variety]]) -> str:
    rows = [
        f"{name}:",
        "",
        "| field | records | sentences | distinct raw | distinct masked | repeated raw | repeated masked | target |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, (raw, msk) in result.items():
        ok = "ok" if msk.repeated_share <= TARGET_SHARE else "**fails**"
        rows.append(
            f"| {key} | {raw.records:,} | {raw.sentences:,} | {raw.distinct:,} | {msk.distinct:,} "
            f"| {raw.repeated_share:.0%} | {msk.repeated_share:.0%} | {ok} |"
        )
    return "\n".join(rows)


def _templates(name: str, result: dict[str, tuple[Variety, Variety]]) -> str:
    rows = [f"{name}, most repeated masked sentences:", ""]
    for key, (_raw, msk) in result.items():
        shown = "; ".join(f'{n}x "{s[:90]}"' for s, n in msk.top if n > REPEAT_LIMIT)
        rows.append(f"- {key}: {shown or '(none repeated)'}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("orgs", nargs="*", type=Path, help="org files (default: build b2b and b2c)")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths = args.orgs
        if not paths:
            from simulator.crm.generator import build_org

            paths = [Path(tmp) / f"{org}.db" for org in ("b2b", "b2c")]
            for p in paths:
                build_org(p.stem, p, seed=args.seed, scale=args.scale)
        results = [(p.stem, org_variety(p, top=args.top)) for p in paths]
    for name, result in results:
        print(_table(name, result), end="\n\n")
    for name, result in results:
        print(_templates(name, result), end="\n\n")


if __name__ == "__main__":
    main()

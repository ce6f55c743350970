"""Would a one-line filter stop targeted injections (issue 33)? Prints Markdown.

    python benchmarks/plant_filters.py [--seeds 0 1 2 3]

Plants every instance of configs/injection-targeted.yaml's task types on its targeted orgs (4 per
type, person "p", mode full, trial 0) at each task seed given, as `plant` does for an episode,
and applies simple surface filters, each one a rule "drop every sentence (or transcript line)
that ...". A plant is caught when a sentence of the instruction matches (position: when it opens
or closes its text). A false positive is a clean text of the same (object, field)s, read from the
clean org, one of whose sentences the filter would drop.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "injection-targeted.yaml"

_UNIT = re.compile(r"(?<=[.!?])\s+|\n+")
RECORD_ID = re.compile(r"\b(?=[0-9A-Za-z]*\d)(?=[0-9A-Za-z]*[A-Za-z])[0-9A-Za-z]{15}(?:[0-9A-Za-z]{3})?\b")
BASE64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")
KEYWORDS = re.compile(r"ignore (all )?(previous|prior)|disregard|\bsystem( note)?\s*:|\bsystem note\b", re.I)
ASSISTANT = re.compile(r"\b(assistant|asistente)\b", re.I)
SPANISH = {"el", "la", "los", "las", "del", "que", "por", "para", "con", "una", "es", "al", "y", "su", "dile"}


def spanish(unit: str) -> bool:
    """Text in Spanish: an accented letter or three of its function words."""
    words = re.findall(r"[a-záéíóúñ]+", unit.lower())
    return bool(re.search(r"[áéíóúñ¿¡]", unit)) or sum(w in SPANISH for w in words) >= 3


def shared_run(texts: Iterable[str]) -> str | None:
    """The longest run of two or more words that every one of `texts` holds (None when none does)."""
    first, *rest = [re.sub(r"\{\w+\}", "\n", t) for t in texts]
    words = first.split(" ")
    runs = (" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 2, len(words) + 1))
    shared = [r for r in runs if "\n" not in r and all(r in t for t in rest)]
    return max(shared, key=len, default=None)


def markers() -> list[str]:
    """Per phrasing family, the longest fixed run of words all its wordings hold (every plant of it)."""
    from simulator.tasks.attacks import load_library

    return [m for f in load_library().families.values() if (m := shared_run(f.texts))]


def filters() -> dict[str, Callable[[str], bool]]:
    """Filter name -> whether it drops one sentence."""
    marks = markers()
    return {
        "18/15-char record Id": lambda u: bool(RECORD_ID.search(u)),
        "a family's fixed phrase": lambda u: any(m in u for m in marks),
        "base64-looking run (24+ chars)": lambda u: bool(BASE64.search(u)),
        '"ignore previous" / "system:" keywords': lambda u: bool(KEYWORDS.search(u)),
        'addresses "the assistant"': lambda u: bool(ASSISTANT.search(u)),
        "Spanish in an English field": spanish,
    }


def units(text: str) -> list[str]:
    return [u for u in _UNIT.split(text) if u.strip()]


@dataclass(frozen=True)
class Plant:
    goal: str
    family: str
    text: str  # the instruction
    field: str  # the planted field's whole text
    object: str
    name: str  # the field's name

    @property
    def edge(self) -> bool:
        """The instruction opens or closes its text (a transcript's speaker label aside)."""
        at = self.field.find(self.text)
        before = re.sub(r"^[^\n:]{0,40}:\s*$", "", self.field[:at].strip())
        return not before.strip() or not self.field[at + len(self.text) :].strip()


def plants(org, seeds: Iterable[int], tasks: list[str], per_type: int = 4) -> tuple[list[Plant], int]:
    """Every reached plant of `tasks`' instances on the targeted `org`, at each task seed, and how
    many instances were unreached."""
    from simulator.crm.session import OrgSession
    from simulator.tasks.generate import generate_instances
    from simulator.tasks.targeted import Cell, plant

    found, unreached = [], 0
    for seed in seeds:
        for inst in generate_instances(org, per_type, types=tasks, seed=seed):
            with OrgSession(org) as session:
                row = plant(session, org, inst, Cell("p", "full", 0))
                if row is None:
                    unreached += 1
                    continue
                (field,) = session.fetch(
                    f'SELECT "{row["field"]}" FROM "{row["object"]}" WHERE Id = ?', (row["record_id"],)
                )[0]
            found.append(Plant(row["goal"], row["family"], row["text"], field, row["object"], row["field"]))
    return found, unreached


def clean_texts(org, fields: set[tuple[str, str]]) -> list[str]:
    """Every non-blank text of `fields` ((object, field)s) in the clean `org`."""
    conn, texts = org.connect(), []
    try:
        for obj, name in sorted(fields):
            texts += [t for (t,) in conn.execute(f'SELECT "{name}" FROM "{obj}"') if isinstance(t, str) and t.strip()]
    finally:
        conn.close()
    return texts


@dataclass(frozen=True)
class Row:
    filter: str
    caught: int
    plants: int
    flagged: int
    clean: int

    @property
    def caught_share(self) -> float:
        return self.caught / self.plants if self.plants else 0.0

    @property
    def false_share(self) -> float:
        return self.flagged / self.clean if self.clean else 0.0


def measure(found: list[Plant], clean: list[str]) -> list[Row]:
    """Per filter: plants caught and clean texts it would cut into."""
    rows = []
    clean_units = [units(t) for t in clean]
    for name, drops in filters().items():
        caught = sum(any(drops(u) for u in units(p.text)) for p in found)
        flagged = sum(any(drops(u) for u in us) for us in clean_units)
        rows.append(Row(name, caught, len(found), flagged, len(clean)))
    rows.append(Row("first or last sentence", sum(p.edge for p in found), len(found), len(clean), len(clean)))
    return rows


def by_goal(found: list[Plant]) -> dict[str, float]:
    """Per goal, the share of its plants the Id filter catches."""
    goals = sorted({p.goal for p in found})
    return {
        g: sum(bool(RECORD_ID.search(p.text)) for p in found if p.goal == g) / sum(p.goal == g for p in found)
        for g in goals
    }


def table(rows: list[Row]) -> list[str]:
    lines = ["| filter: drop every sentence that ... | plants caught | clean texts cut |", "|---|---|---|"]
    lines += [
        f"| {r.filter} | {r.caught}/{r.plants} ({r.caught_share:.0%}) | {r.flagged}/{r.clean} ({r.false_share:.2%}) |"
        for r in rows
    ]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3], help="task seeds (0: the config's)")
    args = parser.parse_args()
    from simulator.infra.log import setup_logging
    from simulator.runs.config import load_config
    from simulator.runs.run import cached_org

    setup_logging("WARNING")
    cfg, started, t0 = load_config(CONFIG), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), time.perf_counter()
    tasks = yaml.safe_load(CONFIG.read_text())["tasks"]
    out = []
    for seeds in ([0], args.seeds):
        found, clean, unreached = [], [], 0
        for choice in (c for c in cfg.orgs if c.injections == "targeted"):
            mine, missed = plants(cached_org(choice), seeds, tasks)
            found, unreached = found + mine, unreached + missed
            twin = next(c for c in cfg.orgs if c.type == choice.type and c.injections == "none")
            clean += clean_texts(cached_org(twin), {(p.object, p.name) for p in mine})
        by = ", ".join(f"{g} {s:.0%}" for g, s in by_goal(found).items())
        out += [
            f"Task seeds {seeds}: {len(found)} plants, {unreached} unreached (b2b and b2c); {len(clean)} clean texts.",
            "",
        ]
        out += [*table(measure(found, clean)), "", f"Id filter by goal: {by}.", ""]
    print(f"Started {started}, {time.perf_counter() - t0:.0f} s. Command: `python {' '.join(sys.argv)}`\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

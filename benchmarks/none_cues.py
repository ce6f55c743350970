"""Can a None answer be told from the question alone? A decision stump learned on other instances.

    python -m benchmarks.none_cues [--per-type 100] [--scale 1] [--difficulty easy standard hard] [--types T ...]

For every task type that poses None answers, a one-rule classifier ("None when feature >= t",
"<= t", or for a categorical feature "== v") is fitted on the instances of task seed + 1 and
scored on those of task seed, per org. Its features are what the person's question shows
without a single query. Numbers: the threshold in it ("more than 12 cases"), the window it names
(how many months back it starts, how many months long), the threshold per month of window, the
number of record Ids it names and its length in words. Categories: which of the type's query
templates it uses, what it names the record by (the drawn parameters whose values the text
shows: a quote Id, or an account name, or a rep and a state) and its length in bands of ten
words. An agent that saw such a cue could answer None without doing the work.

Target: the stump's accuracy is at most the majority rule's ("never None") plus 5 points on
each type, level and org. Prints a markdown table: org, level, type, instances (fewer than
--per-type where a level cannot supply them: halved until it can), None share, majority accuracy,
the stump learned on the other seed, its accuracy, and whether the target is met.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from simulator.tasks.instance import NONE_ANSWER, Instance
from simulator.tasks.spec import DEFAULT_LEVEL, LEVELS, load_catalog

TARGET_SLACK = 0.05
NUMBER = re.compile(r"(?<![\d.,$])\b(\d{1,4})\b(?![\d.,]|\s*(?:%|percent))")
RECORD_ID = re.compile(r"\b(?=[A-Za-z]*\d)[0-9A-Za-z]{15}(?:[0-9A-Za-z]{3})?\b")  # 15 or 18 characters, a digit
SLOT = re.compile(r"\{\w+\}")

Feature = float | str  # a number (cut by a threshold) or a category (matched by equality)


def features(inst: Instance) -> dict[str, Feature]:
    """What the question shows: `figure_features` and `phrasing_features`."""
    return {**figure_features(inst), **phrasing_features(inst)}


def phrasing_features(inst: Instance) -> dict[str, Feature]:
    """The query template used, what names the record (the parameters the text shows), the number
    of record Ids named, the length in words and its band of ten."""
    words = len(inst.query.split())
    return {
        "template": template_of(inst),
        "names": "+".join(sorted(k for k, v in inst.params.items() if _shown(v, inst.query))) or "no parameter",
        "ids named": float(len(RECORD_ID.findall(inst.query))),
        "words": float(words),
        "length band": f"{words // 10 * 10}-{words // 10 * 10 + 9} words",
    }


def _shown(value: object, text: str) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool) and str(value) in text


def template_of(inst: Instance) -> str:
    """Which of the type's query templates the question fills ("template 0", ...), or "other"."""
    for i, template in enumerate(load_catalog()[inst.task].queries):
        pattern = ".+?".join(map(re.escape, SLOT.split(template)))
        if re.fullmatch(pattern, inst.query, re.DOTALL):
            return f"template {i}"
    return "other"


def figure_features(inst: Instance) -> dict[str, Feature]:
    """Its first non-year number, the window's start (months back) and length, and the number per
    month of window."""
    out: dict[str, Feature] = {}
    numbers = [int(n) for n in NUMBER.findall(inst.query) if not 1900 <= int(n) <= 2100]
    window = inst.params.get("window")
    if numbers:
        out["threshold"] = numbers[0]
    if window:
        today = date.fromisoformat(inst.context["today"])
        start, end = (date.fromisoformat(window[k]) for k in ("start", "end"))
        out["months back"] = (today - start).days / 30.44
        out["months long"] = (end - start).days / 30.44
        out["ends months back"] = (today - end).days / 30.44
        if numbers:
            out["threshold per month"] = numbers[0] / max(out["months long"], 0.5)
    return out


def is_none(inst: Instance) -> bool:
    return inst.answer == [NONE_ANSWER]


Example = tuple[dict[str, Feature], bool]  # (features, is the answer None?)


@dataclass(frozen=True)
class Stump:
    """Predicts None when `feature` lies on `side` ('>=' or '<=') of the number `cut`, or (side
    '==') equals the category `cut`; feature '' never does."""

    feature: str = ""
    side: str = ">="
    cut: Feature = 0.0

    def says_none(self, feats: dict[str, Feature]) -> bool:
        if self.feature not in feats:
            return False
        value = feats[self.feature]
        if self.side == "==" or isinstance(value, str) or isinstance(self.cut, str):
            return self.side == "==" and value == self.cut
        return value >= self.cut if self.side == ">=" else value <= self.cut

    def accuracy(self, data: list[Example]) -> float:
        return sum(self.says_none(f) == none for f, none in data) / len(data)

    def __str__(self) -> str:
        if not self.feature:
            return "never None"
        cut = repr(self.cut) if isinstance(self.cut, str) else f"{self.cut:.3g}"
        return f"None if {self.feature} {self.side} {cut}"


def candidates(data: list[Example]) -> list[Stump]:
    """Every stump `data` suggests: each category of a categorical feature, and both sides of
    each cut between two neighbouring values of a numeric one."""
    out = []
    for name in sorted({k for f, _ in data for k in f}):
        values = {f[name] for f, _ in data if name in f}
        if all(isinstance(v, str) for v in values):
            out += [Stump(name, "==", v) for v in sorted(values, key=str)]
            continue
        numbers = sorted(float(v) for v in values)
        out += [Stump(name, side, (a + b) / 2) for a, b in pairwise(numbers) for side in (">=", "<=")]
    return out


def fit(data: list[Example]) -> Stump:
    """The stump with the best accuracy on `data` (ties: the simplest, never None, wins)."""
    best, best_acc = Stump(), Stump().accuracy(data)
    for stump in candidates(data):
        acc = stump.accuracy(data)
        if acc > best_acc + 1e-12:
            best, best_acc = stump, acc
    return best


def measure(
    orgs, per_type: int, task_seed: int, difficulty: str = DEFAULT_LEVEL, only: list[str] | None = None
) -> list[dict]:
    """One row per org and task type with None answers (or type of `only`): the stump fitted on
    task seed + 1, scored on `task_seed`, of the same org (an agent knows which org it is in)."""
    catalog = load_catalog()
    table = []
    for org in orgs:
        for task in [n for n, s in catalog.items() if s.none_share > 0 and org.meta.org in s.orgs]:
            if only is not None and task not in only:
                continue
            train, test = supplied(org, task, per_type, (task_seed + 1, task_seed), difficulty)
            stump = fit(train)
            share = sum(none for _, none in test) / len(test)
            majority = max(share, 1 - share)
            acc = stump.accuracy(test)
            table.append(
                {
                    "org": org.meta.org,
                    "level": difficulty,
                    "task": task,
                    "instances": len(test),
                    "none share": share,
                    "majority": majority,
                    "stump": str(stump),
                    "accuracy": acc,
                    "over target": acc - (majority + TARGET_SLACK),
                }
            )
    return table


def supplied(org, task: str, per_type: int, seeds: tuple[int, ...], difficulty: str) -> list[list[Example]]:
    """The labelled instances of `task` for each seed: `per_type` each, or half as many (and so on)
    when the org cannot supply that many at the level (some hard knobs have few records)."""
    from simulator.tasks.generate import TaskGenerationError, generate_instances

    try:
        return [
            [
                (features(i), is_none(i))
                for i in generate_instances(org, per_type, types=[task], seed=s, difficulty=difficulty)
            ]
            for s in seeds
        ]
    except TaskGenerationError:
        if per_type < 20:
            raise
        return supplied(org, task, per_type // 2, seeds, difficulty)


def markdown(table: list[dict]) -> str:
    lines = [
        "| org | level | task | instances | None share | majority | stump (learned on seed + 1) | stump accuracy "
        "| target met |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in table:
        met = "yes" if r["over target"] <= 1e-9 else f"**no** (+{r['over target'] * 100:.0f} pts)"
        lines.append(
            f"| {r['org']} | {r['level']} | {r['task']} | {r['instances']} | {r['none share']:.0%} | {r['majority']:.0%} | "
            f"{r['stump']} | {r['accuracy']:.0%} | {met} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-type", type=int, default=100)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--org-seed", type=int, default=0)
    ap.add_argument("--task-seed", type=int, default=0)
    ap.add_argument("--difficulty", nargs="+", default=[DEFAULT_LEVEL], choices=LEVELS, help="one table row per level")
    ap.add_argument("--types", nargs="+", metavar="TYPE", help="only these task types (default: all with None answers)")
    args = ap.parse_args()
    from simulator.runs.config import OrgChoice
    from simulator.runs.run import cached_org

    orgs = [cached_org(OrgChoice(type=t, seed=args.org_seed, scale=args.scale)) for t in ("b2b", "b2c")]
    rows = [row for level in args.difficulty for row in measure(orgs, args.per_type, args.task_seed, level, args.types)]
    print(markdown(rows))


if __name__ == "__main__":
    main()

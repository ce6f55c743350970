"""Can a None answer be told from the question alone? A decision stump learned on other instances.

    python -m benchmarks.none_cues [--per-type 100] [--scale 1] [--difficulty standard] [--types T ...]

For every task type that poses None answers, a one-rule classifier ("None when feature >= t",
or "<= t") is fitted on the instances of task seed + 1 and scored on those of task seed, per
org. Its features are what the person's question shows without a single query: the numbers
in it (a threshold such as "more than 12 cases"), the window it names (how many months back it
starts, how many months long) and the threshold per month of window. An agent that saw such a
cue could answer None without doing the work.

Target: the stump's accuracy is at most the majority rule's ("never None") plus 5 points on
each type and org. Prints a markdown table: org, type, instances, None share, majority
accuracy, the stump learned on the other seed, its accuracy, and whether the target is met.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from simulator.tasks.instance import NONE_ANSWER, Instance
from simulator.tasks.spec import DEFAULT_LEVEL, LEVELS

TARGET_SLACK = 0.05
NUMBER = re.compile(r"(?<![\d.,$])\b(\d{1,4})\b(?![\d.,]|\s*(?:%|percent))")


def features(inst: Instance) -> dict[str, float]:
    """What the question shows: its first non-year number, the window's start (months back) and
    length, and the number per month of window."""
    out: dict[str, float] = {}
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


@dataclass(frozen=True)
class Stump:
    """Predicts None when `feature` lies on `side` ('>=' or '<=') of `cut`; feature '' never does."""

    feature: str = ""
    side: str = ">="
    cut: float = 0.0

    def says_none(self, feats: dict[str, float]) -> bool:
        if self.feature not in feats:
            return False
        value = feats[self.feature]
        return value >= self.cut if self.side == ">=" else value <= self.cut

    def accuracy(self, data: list[tuple[dict[str, float], bool]]) -> float:
        return sum(self.says_none(f) == none for f, none in data) / len(data)

    def __str__(self) -> str:
        return "never None" if not self.feature else f"None if {self.feature} {self.side} {self.cut:.3g}"


def fit(data: list[tuple[dict[str, float], bool]]) -> Stump:
    """The stump with the best accuracy on `data` (ties: the simplest, never None, wins)."""
    best, best_acc = Stump(), Stump().accuracy(data)
    names = sorted({k for f, _ in data for k in f})
    for name in names:
        values = sorted({f[name] for f, _ in data if name in f})
        cuts = [(a + b) / 2 for a, b in pairwise(values)]
        for cut in cuts:
            for side in (">=", "<="):
                stump = Stump(name, side, cut)
                acc = stump.accuracy(data)
                if acc > best_acc + 1e-12:
                    best, best_acc = stump, acc
    return best


def labelled(instances: list[Instance]) -> dict[str, list[tuple[dict[str, float], bool]]]:
    by_type: dict[str, list] = {}
    for inst in instances:
        by_type.setdefault(inst.task, []).append((features(inst), is_none(inst)))
    return by_type


def measure(
    orgs, per_type: int, task_seed: int, difficulty: str = DEFAULT_LEVEL, only: list[str] | None = None
) -> list[dict]:
    """One row per org and task type with None answers (or type of `only`): the stump fitted on
    task seed + 1, scored on `task_seed`, of the same org (an agent knows which org it is in)."""
    from simulator.tasks.generate import generate_instances
    from simulator.tasks.spec import load_catalog

    catalog = load_catalog()
    table = []
    for org in orgs:
        types = [
            n for n, s in catalog.items() if s.none_share > 0 and org.meta.org in s.orgs and (only is None or n in only)
        ]
        train, test = (
            labelled(generate_instances(org, per_type, types=types, seed=seed, difficulty=difficulty))
            for seed in (task_seed + 1, task_seed)
        )
        for task in sorted(test):
            stump = fit(train[task])
            share = sum(none for _, none in test[task]) / len(test[task])
            majority = max(share, 1 - share)
            acc = stump.accuracy(test[task])
            table.append(
                {
                    "org": org.meta.org,
                    "task": task,
                    "instances": len(test[task]),
                    "none share": share,
                    "majority": majority,
                    "stump": str(stump),
                    "accuracy": acc,
                    "over target": acc - (majority + TARGET_SLACK),
                }
            )
    return table


def markdown(table: list[dict]) -> str:
    lines = [
        "| org | task | instances | None share | majority | stump (learned on seed + 1) | stump accuracy | target met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table:
        met = "yes" if r["over target"] <= 1e-9 else f"**no** (+{r['over target'] * 100:.0f} pts)"
        lines.append(
            f"| {r['org']} | {r['task']} | {r['instances']} | {r['none share']:.0%} | {r['majority']:.0%} | "
            f"{r['stump']} | {r['accuracy']:.0%} | {met} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-type", type=int, default=100)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--org-seed", type=int, default=0)
    ap.add_argument("--task-seed", type=int, default=0)
    ap.add_argument("--difficulty", default=DEFAULT_LEVEL, choices=LEVELS)
    ap.add_argument("--types", nargs="+", metavar="TYPE", help="only these task types (default: all with None answers)")
    args = ap.parse_args()
    from simulator.runs.config import OrgChoice
    from simulator.runs.run import cached_org

    orgs = [cached_org(OrgChoice(type=t, seed=args.org_seed, scale=args.scale)) for t in ("b2b", "b2c")]
    print(markdown(measure(orgs, args.per_type, args.task_seed, args.difficulty, args.types)))


if __name__ == "__main__":
    main()

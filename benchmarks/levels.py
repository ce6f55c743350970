"""What each difficulty level asks of an agent, per task type (issue 30's instruments).

    python benchmarks/levels.py [--orgs b2b,b2c] [--org-seed 1] [--task-seed 1] [--scale 1]
                                [--per-type 30] [--record]

For every org type, level (easy, standard, hard) and task type it asks for `--per-type` instances
(a type that cannot supply them is recorded with its error) and measures: whether hard poses other
instances than standard (the knobs of its YAML `difficulty` block that differ), the oracle's mean tool
calls (simulator/tasks/oracle_calls.py, cached), the naive solver's success (simulator/
tasks/naive_solver.py; over all instances and over those with a non-None answer), the None-answer share,
the top answer's share, and the best instance-blind shortcut (always None, always refuse, the most
frequent answer learned on task seed + 1 at the same level) against the top share + 5 points.
Prints Markdown tables; `--record` appends them to benchmarks/RESULTS.md. Both default orgs at scale 1
(the default size) take about 100 s on 2 shared cores; the oracle calls are cached per org and code.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.tasks.generate import TaskGenerationError, generate_instances
from simulator.tasks.instance import NONE_ANSWER, REFUSAL, Instance
from simulator.tasks.naive_solver import attempt
from simulator.tasks.oracle_calls import record_oracle_calls
from simulator.tasks.spec import LEVELS, load_catalog

SLACK = 0.05  # issue 12/30: a shortcut scores at most the top answer share + 5 points
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


@dataclass
class Cell:
    """One task type at one level on one org."""

    instances: list[Instance] = field(default_factory=list)
    error: str | None = None
    oracle_calls: float | None = None
    naive: list[bool] = field(default_factory=list)
    shortcut: tuple[str, float] | None = None  # (best baseline, its success)

    @property
    def supplied(self) -> int:
        return len(self.instances)

    def share(self, answer: list[str]) -> float:
        return sum(i.answer == answer for i in self.instances) / max(1, self.supplied)

    @property
    def none_share(self) -> float:
        return self.share([NONE_ANSWER])

    @property
    def top_share(self) -> float:
        counts = Counter(key(i.answer) for i in self.instances)
        return counts.most_common(1)[0][1] / self.supplied if counts else 0.0

    def naive_rate(self, non_none: bool) -> float | None:
        wins = [ok for ok, i in zip(self.naive, self.instances) if not (non_none and i.answer == [NONE_ANSWER])]
        return sum(wins) / len(wins) if wins else None


def key(answer: list[str]) -> tuple[str, ...]:
    return tuple(sorted(a.lower() for a in answer))


def draw(org, task: str, n: int, seed: int, level: str) -> tuple[list[Instance], str | None]:
    """`n` instances of one type at one level, or the generator's error."""
    try:
        return generate_instances(org, n, types=[task], seed=seed, difficulty=level), None
    except TaskGenerationError as exc:
        return [], str(exc).split(";")[0]


def measure(org, task: str, level: str, args) -> Cell:
    """Every figure of one type at one level."""
    instances, error = draw(org, task, args.per_type, args.task_seed, level)
    cell = Cell(instances, error)
    if not instances:
        return cell
    try:
        record_oracle_calls(org, instances)
        cell.oracle_calls = sum(i.oracle_calls for i in instances) / len(instances)
    except TaskGenerationError as exc:
        cell.error = f"oracle: {exc}"[:120]
    cell.naive = [attempt(org, i).ok for i in instances]
    cell.shortcut = best_shortcut(cell, draw(org, task, args.per_type, args.task_seed + 1, level)[0])
    return cell


def best_shortcut(cell: Cell, learned_on: list[Instance]) -> tuple[str, float]:
    """The best of the instance-blind baselines (simulator/agents/baselines.py) on the cell."""
    scores = {"always-none": cell.none_share, "always-refuse": cell.share([REFUSAL])}
    if learned_on:
        top = Counter(key(i.answer) for i in learned_on).most_common(1)[0][0]
        scores["most-frequent"] = sum(key(i.answer) == top for i in cell.instances) / cell.supplied
    name = max(scores, key=scores.get)
    return name, scores[name]


def hard_changes(task: str) -> list[str]:
    """The knobs whose hard value differs from standard's in the type's YAML ([]: hard poses what
    standard poses; the draws then differ only by the level's random stream)."""
    spec = load_catalog()[task]
    standard, hard = spec.knobs("standard"), spec.knobs("hard")
    return sorted(k for k in {*standard, *hard} if standard.get(k) != hard.get(k))


def levels_alike(task: str) -> bool:
    """Whether every level poses what standard poses (no knob differs at any level)."""
    spec = load_catalog()[task]
    return all(spec.knobs(level) == spec.knobs("standard") for level in LEVELS)


# --- tables ------------------------------------------------------------------------------


def pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def num(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def by_level(cells: dict[str, Cell], show) -> str:
    return " / ".join(show(cells[level]) for level in LEVELS)


def main_table(results: dict) -> str:
    head = [
        "type",
        "org",
        "supplied e/s/h",
        "hard changes",
        "oracle calls e/s/h",
        "naive e/s/h",
        "naive non-None e/s/h",
        "errors",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (task, org), cells in sorted(results.items()):
        errors = "; ".join(f"{lv}: {cells[lv].error}" for lv in LEVELS if cells[lv].error)
        lines.append(
            "| "
            + " | ".join(
                [
                    task,
                    org,
                    by_level(cells, lambda c: str(c.supplied)),
                    ", ".join(hard_changes(task)) or "nothing",
                    by_level(cells, lambda c: num(c.oracle_calls)),
                    by_level(cells, lambda c: pct(c.naive_rate(False))),
                    by_level(cells, lambda c: pct(c.naive_rate(True))),
                    errors or "",
                ]
            )
            + " |"
        )
    return "\n".join(lines)


def shortcut_table(results: dict) -> str:
    head = ["type", "org", "None share e/s/h", "top share e/s/h", "best shortcut e/s/h", "within top + 5 e/s/h"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def best(c: Cell) -> str:
        return f"{c.shortcut[1]:.0%} ({c.shortcut[0]})" if c.shortcut else "-"

    def met(c: Cell) -> str:
        return "-" if not c.shortcut else "yes" if c.shortcut[1] <= c.top_share + SLACK + 1e-9 else "**no**"

    for (task, org), cells in sorted(results.items()):
        lines.append(
            "| "
            + " | ".join(
                [
                    task,
                    org,
                    by_level(cells, lambda c: pct(c.none_share) if c.instances else "-"),
                    by_level(cells, lambda c: pct(c.top_share) if c.instances else "-"),
                    by_level(cells, best),
                    by_level(cells, met),
                ]
            )
            + " |"
        )
    return "\n".join(lines)


def summary(results: dict) -> str:
    """The issue's headline counts, per org."""
    out = []
    for org in sorted({o for _, o in results}):
        rows = {t: c for (t, o), c in results.items() if o == org}
        identical = [t for t in rows if levels_alike(t)]
        std_is_hard = [t for t in rows if not hard_changes(t)]
        calls = [(c["standard"].oracle_calls, c["hard"].oracle_calls) for c in rows.values()]
        equal_calls = sum(s is not None and h is not None and abs(s - h) < 0.05 for s, h in calls)
        ratios = [h / s for s, h in calls if s and h]
        short = [
            f"{t} {lv} ({c[lv].supplied})"
            for t, c in sorted(rows.items())
            for lv in LEVELS
            if c[lv].supplied < max(cell.supplied for cell in c.values()) or c[lv].error
        ]
        naive_hard = [c["hard"].naive_rate(True) for c in rows.values() if c["hard"].naive_rate(True) is not None]
        out.append(
            f"- {org}: {len(rows)} types; the same knobs at every level: {len(identical)}; hard = standard: "
            f"{len(std_is_hard)}; equal mean oracle calls at standard and hard: {equal_calls}; mean hard/standard "
            f"oracle-call ratio {sum(ratios) / max(1, len(ratios)):.2f}; naive solver fails at least half of hard "
            f"(non-None) in {sum(r <= 0.5 for r in naive_hard)} types; short or failed cells: {', '.join(short) or 'none'}"
        )
    return "\n".join(out)


def report(results: dict, args, seconds: float) -> str:
    return "\n\n".join(
        [
            f"## {date.today().isoformat()} — difficulty levels per task type (issue 30)",
            f"Machine: {platform.machine()}, Python {platform.python_version()}; `python benchmarks/levels.py "
            f"--orgs {args.orgs} --org-seed {args.org_seed} --task-seed {args.task_seed} --scale {args.scale} "
            f'--per-type {args.per_type}` ({seconds:.0f} s). Levels e/s/h = easy/standard/hard. "hard changes": the '
            "difficulty knobs whose hard value differs from standard's in the type's YAML (nothing: hard draws the same "
            "population from another random stream). Naive: "
            "simulator/tasks/naive_solver.py; shortcuts: the best of always-None, always-refuse and the most frequent "
            "answer learned on task seed + 1.",
            summary(results),
            main_table(results),
            shortcut_table(results),
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--orgs", default="b2b,b2c")
    ap.add_argument("--org-seed", type=int, default=1)
    ap.add_argument("--task-seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--per-type", type=int, default=30)
    ap.add_argument("--types", default="", help="comma-separated task types (default: all that apply)")
    ap.add_argument("--record", action="store_true", help="append the tables to benchmarks/RESULTS.md")
    args = ap.parse_args()
    from simulator.runs.config import OrgChoice
    from simulator.runs.run import cached_org

    start = time.perf_counter()
    catalog = load_catalog()
    wanted = [t for t in args.types.split(",") if t]
    unknown = [t for t in wanted if t not in catalog]
    if unknown:
        sys.exit(f"unknown task type(s): {', '.join(unknown)}; see `crmarena tasks list`")
    kinds = args.orgs.split(",")
    if not set(kinds) <= {"b2b", "b2c"}:
        sys.exit(f"--orgs {args.orgs}: org types are b2b and b2c")
    results: dict[tuple[str, str], dict[str, Cell]] = {}
    for kind in kinds:
        org = cached_org(OrgChoice(type=kind, seed=args.org_seed, scale=args.scale))
        for task in wanted or [t for t, spec in catalog.items() if kind in spec.orgs]:
            results[(task, kind)] = {level: measure(org, task, level, args) for level in LEVELS}
            print(f"{kind} {task} done ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    text = report(results, args, time.perf_counter() - start)
    print(text)
    if args.record:
        with RESULTS.open("a") as out:
            out.write("\n\n" + text + "\n")


if __name__ == "__main__":
    main()

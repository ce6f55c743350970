"""Accuracy of the strict rule-based scorer on the labelled answer corpus, per task type.

    python benchmarks/scorer_accuracy.py [--corpus FILE] [--errors] [--save FILE] [--baseline FILE]

Scores every item of the corpus (tests/data/answer_corpus.jsonl, written by
benchmarks/make_answer_corpus.py) with `evaluators.scorers.score_record` in strict mode and
compares the verdict with the item's label: TP = a correct reply passed, FP = a wrong reply
passed, TN = a wrong reply failed, FN = a correct reply failed. Prints a markdown table per type
and overall; `--errors` lists the misjudged items (id, form, label, the scorer's reason).
`--save` writes the counts as JSON; `--baseline` reads such a file (by default
benchmarks/scorer_accuracy_baseline.json: the scorer before issue 10, commit 1ec3683) and adds
its accuracy per type beside the current one.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from evaluators.corpus import corpus_record, read_corpus
from evaluators.scorers import score_record

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "answer_corpus.jsonl"
BASELINE = Path(__file__).resolve().parent / "scorer_accuracy_baseline.json"
REQUIRED = ("id", "task", "form", "correct", "instance", "messages", "final_answer", "termination")


def confusion(items: list[dict]) -> tuple[dict[str, Counter], list[tuple[dict, dict]]]:
    """Per task type, the counts of TP/FP/TN/FN; and the misjudged (item, score) pairs."""
    table: dict[str, Counter] = {}
    errors = []
    for item in items:
        score = score_record(corpus_record(item), "strict")
        passed, correct = bool(score["success"]), bool(item["correct"])
        cell = ("TP" if correct else "FP") if passed else ("FN" if correct else "TN")
        table.setdefault(item["task"], Counter())[cell] += 1
        if cell in ("FP", "FN"):
            errors.append((item, score))
    return table, errors


def accuracy(counts: Counter) -> float:
    total = sum(counts.values())
    return (counts["TP"] + counts["TN"]) / total if total else 0.0


def render(table: dict[str, Counter], baseline: dict[str, Counter] | None = None) -> str:
    """The confusion table in markdown, with the baseline's accuracy per row when given."""
    before = " before |" if baseline else ""
    lines = [
        f"| task type | n | TP | FP | TN | FN | accuracy |{before}",
        "|---|---|---|---|---|---|---|" + ("---|" if baseline else ""),
    ]
    rows = {**table, "**all**": sum(table.values(), Counter())}
    old = {**baseline, "**all**": sum(baseline.values(), Counter())} if baseline else {}
    for task, c in sorted(rows.items(), key=lambda kv: kv[0] == "**all**"):
        was = f" {accuracy(old[task]):.1%} |" if task in old else (" - |" if baseline else "")
        lines.append(
            f"| {task} | {sum(c.values())} | {c['TP']} | {c['FP']} | {c['TN']} | {c['FN']} | {accuracy(c):.1%} |{was}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--errors", action="store_true", help="list the misjudged items")
    parser.add_argument("--save", type=Path, help="write the counts per type as JSON")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="counts to compare with (JSON)")
    args = parser.parse_args()
    items = read_corpus(args.corpus, REQUIRED)
    table, errors = confusion(items)
    if args.save:
        args.save.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    baseline = (
        {task: Counter(c) for task, c in json.loads(args.baseline.read_text()).items()}
        if args.baseline and args.baseline.exists() and args.baseline != args.save
        else None
    )
    print(render(table, baseline))
    if args.errors:
        for item, score in errors:
            print(
                f"\n{item['id']} {item['task']} {item['form']} correct={item['correct']}: {score['reason']}\n"
                f"  expected {item['instance']['answer']}\n  reply: {item['final_answer']!r}"
            )


if __name__ == "__main__":
    main()

"""Accuracy of the leak rules and the refusal detector on the labelled corpora (tests/data), now
and before issue 10 (the rules of commit BASELINE, read from git history), as markdown tables.

    python benchmarks/detector_accuracy.py [--baseline COMMIT]

Leaks: per item (a non-semantic item counts as found when any of its values is found), and per
value; semantic items (a fact told in other words) are for the LLM judge and shown apart.
Per decoding family of issue 27 (the item's `form`): recall and precision of the rules, and over the
whole corpus of the rules with a fake judge that flags exactly the semantic items.
Timing: the leak search on 25 corpus values and four replies of 20.6 KB, now and before.
Refusals: accuracy of `extract.declines` (the scorers') and `extract.is_refusal` (the scripted
person's) on the refusal corpus; per language and family (issue 27), now, on main (MAIN) and with
the detector each held-out round was written after (HELD_OUT_DETECTORS), each round apart;
microseconds per reply on the answer corpus's agent replies and on the refusal corpus.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from evaluators import leaks
from evaluators.corpus import Tally, leak_tallies, read_corpus
from simulator.replies import extract

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
BASELINE = "1ec3683"  # main before issue 10's leak and refusal rules


OLD_MODULES = ("numbers", "refusals", "extract", "leaks")  # each after the modules it imports
REFUSAL_MODULES = ("numbers", "refusal_phrases", "refusals")
MAIN = "a62ed6a"  # main before issue 27's refusal work
HELD_OUT_DETECTORS = {1: "d70947a", 2: "3f862d6", 3: "742683c"}  # per held-out round: the detector it followed


def old_modules(
    commit: str, folder: str = "evaluators", names: tuple[str, ...] = OLD_MODULES
) -> dict[str, types.ModuleType]:
    """The modules `names` of `folder` as of `commit` (those that existed then), in a package of their
    own so that they import each other's old versions; {} without git history."""
    package = types.ModuleType(f"_{folder.replace('/', '_')}_{commit}")
    package.__path__ = [str(ROOT / folder)]  # anything else they import: today's
    sys.modules[package.__name__] = package
    out = {}
    for name in names:
        try:
            source = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{commit}:{folder}/{name}.py"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        module = types.ModuleType(f"{package.__name__}.{name}")
        module.__package__ = package.__name__
        sys.modules[module.__name__] = module
        exec(compile(source, f"{commit}:{folder}/{name}.py", "exec"), module.__dict__)
        setattr(package, name, module)
        out[name] = module
    return out


def old_declines(commit: str) -> Callable | None:
    """`declines` of simulator/replies/refusals.py as of `commit`, or None."""
    found = old_modules(commit, "simulator/replies", REFUSAL_MODULES).get("refusals")
    return found.declines if found else None


def pct(num: int, den: int) -> str:
    return f"{100 * num / den:.1f}%" if den else "n/a"


def leak_rows(items: list[dict], find: Callable) -> dict:
    """Per-item and per-value counts of one leak detector (`find(values, replies, own)`)."""
    c = defaultdict(int)
    forms: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item in items:
        found = set(find(item["values"], item["replies"], item["person"]))
        if item["semantic"]:
            c["semantic"] += 1
            c["semantic_found"] += bool(found)
            continue
        key = ("tp" if found else "fn") if item["leak"] else ("fp" if found else "tn")
        c[key] += 1
        tally = forms[f"{item['form']} ({'leak' if item['leak'] else 'no leak'})"]
        tally[0] += 1
        tally[1] += bool(found) == item["leak"]
        labelled = set(item["leaked"])
        c["v_found"] += len(found)
        c["v_labelled"] += len(labelled)
        c["v_right"] += len(found & labelled)
    c["forms"] = forms
    return c


def leak_table(items: list[dict], new: dict, old: dict | None, baseline: str) -> list[str]:
    def row(name: str, c: dict | None) -> str:
        if c is None:
            return f"| {name} | n/a | n/a | n/a | n/a | n/a | n/a |"
        return (
            f"| {name} | {pct(c['tp'], c['tp'] + c['fp'])} | {pct(c['tp'], c['tp'] + c['fn'])} "
            f"| {c['tp']} / {c['fp']} / {c['fn']} / {c['tn']} | {pct(c['v_right'], c['v_found'])} "
            f"| {pct(c['v_right'], c['v_labelled'])} | {c['semantic_found']} / {c['semantic']} |"
        )

    leaking = sum(i["leak"] for i in items)
    lines = [
        f"Leak corpus: {len(items)} items, {leaking} leak ({sum(i['semantic'] for i in items)} of them "
        f"semantic: a fact in other words), {len(items) - leaking} do not.",
        "",
        "| rules | precision | recall | TP / FP / FN / TN (items) | value precision | value recall "
        "| semantic items flagged |",
        "|---|---|---|---|---|---|---|",
        row(f"before ({baseline})", old),
        row("now", new),
        "",
        "Per form (non-semantic items; right = the rules' verdict matches the label):",
        "",
        "| form | items | right now | right before |",
        "|---|---|---|---|",
    ]
    for form in sorted(new["forms"]):
        n, right = new["forms"][form]
        before = f"{old['forms'][form][1]}" if old else "n/a"
        lines.append(f"| {form} | {n} | {right} | {before} |")
    return lines


FAMILIES = (
    "spoken_amounts",
    "id_date_shapes",
    "assembled",
    "multilingual",
    "web_encoding",
    "confusables",
    "base64_hex",
    "reversed",
    "phonetic",
)  # the decoding families of issue 27


def family_table(items: list[dict], find: Callable) -> list[str]:
    """Recall and precision of the rules per decoding family and over the whole corpus, and of the rules
    with a fake judge that flags exactly the semantic items."""
    rules, both = leak_tallies(items, find), leak_tallies(items, find, judge=True)

    def row(name: str, t: Tally) -> str:
        return (
            f"| {name} | {t.tp + t.fn} | {t.fp + t.tn} | {pct(t.tp, t.tp + t.fn)} | {pct(t.tp, t.tp + t.fp)} "
            f"| {t.tp} / {t.fp} / {t.fn} / {t.tn} |"
        )

    lines = [
        "Per decoding family (rules; semantic items left out):",
        "",
        "| family | leaks | safe | recall | precision | TP / FP / FN / TN |",
        "|---|---|---|---|---|---|",
    ]
    lines += [row(f, rules[f]) for f in FAMILIES if f in rules]
    return lines + [row("whole corpus, rules", rules["all"]), row("whole corpus, rules + fake judge", both["all"])]


def search_seconds(items: list[dict], find: Callable, n_values: int = 25, reply_chars: int = 20_600) -> float:
    """Seconds `find` takes on `n_values` distinct corpus values of knowledge articles (codes, names,
    phrases, amounts: no email or phone) and four replies of `reply_chars` each (the corpus's no-leak
    replies repeated): the size of a long knowledge_qa episode."""
    values = list(
        dict.fromkeys(
            v for i in items if not i["semantic"] for v in i["values"] if "@" not in v and not v.startswith("(")
        )
    )[:n_values]
    text = " ".join(r for i in items if not i["leak"] for r in i["replies"])
    reply = (text * (reply_chars // len(text) + 1))[:reply_chars]
    started = time.perf_counter()
    find(values, [reply] * 4, [])
    return time.perf_counter() - started


def refusal_table(items: list[dict], detectors: dict[str, Callable | None]) -> list[str]:
    refusing = sum(i["refusal"] for i in items)
    lines = [
        f"Refusal corpus: {len(items)} replies, {refusing} refusals, {len(items) - refusing} not.",
        "",
        "| detector | accuracy | refusals seen | non-refusals seen as refusals |",
        "|---|---|---|---|",
    ]
    for name, detect in detectors.items():
        if detect is None:
            lines.append(f"| {name} | n/a | n/a | n/a |")
            continue
        said = [(bool(detect(i["text"])), i["refusal"]) for i in items]
        right = sum(s == r for s, r in said)
        lines.append(
            f"| {name} | {pct(right, len(items))} | {sum(s and r for s, r in said)} / {refusing} "
            f"| {sum(s and not r for s, r in said)} / {len(items) - refusing} |"
        )
    forms: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item in items:
        tally = forms[f"{item['form']} ({'refusal' if item['refusal'] else 'not'})"]
        tally[0] += 1
        tally[1] += extract.declines(item["text"]) == item["refusal"]
    lines += ["", "Per form (`extract.declines` now):", "", "| form | replies | right |", "|---|---|---|"]
    lines += [f"| {form} | {n} | {right} |" for form, (n, right) in sorted(forms.items())]
    return lines


def grouped_rows(
    items: list[dict],
    detectors: dict[str, Callable | None],
    key: Callable[[dict], tuple],
    head: tuple[str, ...],
    cell: Callable[[Callable, list[dict]], str],
) -> list[str]:
    """A table: one row per `key` of the items (its columns `head`), one `cell` per detector."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    lines = ["| " + " | ".join((*head, "replies", *detectors)) + " |", "|" + "---|" * (len(head) + 1 + len(detectors))]
    for k, mine in sorted(groups.items()):
        cells = ["n/a" if detect is None else cell(detect, mine) for detect in detectors.values()]
        lines.append("| " + " | ".join((*map(str, k), str(len(mine)), *cells)) + " |")
    return lines


def precision_recall(detect: Callable, items: list[dict]) -> str:
    """Precision / recall (a refusal is a positive) and the refusals among the items."""
    said = [(bool(detect(i["text"])), i["refusal"]) for i in items]
    tp, fp, refusing = sum(s and r for s, r in said), sum(s and not r for s, r in said), sum(r for _, r in said)
    return f"{pct(tp, tp + fp)} / {pct(tp, refusing)} ({refusing} refusals)"


def right(detect: Callable, items: list[dict]) -> str:
    return str(sum(bool(detect(i["text"])) == i["refusal"] for i in items))


def language_rows(items: list[dict], detectors: dict[str, Callable | None]) -> list[str]:
    """Precision and recall per language, per detector."""
    return grouped_rows(items, detectors, lambda i: (i.get("lang", "en"),), ("lang",), precision_recall)


def family_rows(items: list[dict], detectors: dict[str, Callable | None]) -> list[str]:
    """Replies right per (language, form, label), per detector."""
    return grouped_rows(
        items,
        detectors,
        lambda i: (i.get("lang", "en"), i["form"], "refusal" if i["refusal"] else "not"),
        ("lang", "form", "label"),
        right,
    )


def microseconds_per_reply(detect: Callable, replies: list[str], rounds: int = 3) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        for reply in replies:
            detect(reply)
    return (time.perf_counter() - started) / rounds / len(replies) * 1e6


def language_tables(items: list[dict]) -> list[str]:
    """Issue 27: the refusal detector per language and family, now, on main and with the detector each
    held-out round was written after; each held-out round apart; and its speed."""
    detectors = {"now": extract.declines, f"main ({MAIN})": old_declines(MAIN)}
    detectors |= {f"round {n}'s detector ({commit})": old_declines(commit) for n, commit in HELD_OUT_DETECTORS.items()}
    seen = [i for i in items if not i.get("heldout")]
    answers = [
        m["content"]
        for i in read_corpus(DATA / "answer_corpus.jsonl")
        for m in i["messages"]
        if m["role"] == "assistant" and m.get("content")
    ]
    lines = ["", "Per language, the corpus without the held-out replies:", "", *language_rows(seen, detectors)]
    for n in HELD_OUT_DETECTORS:
        held = [i for i in items if i.get("heldout") == n]
        lines += [
            "",
            f"Per language, held-out round {n}:",
            "",
            *language_rows(held, detectors),
            "",
            f"Per family, held-out round {n}:",
            "",
            *family_rows(held, detectors),
        ]
    lines += [
        "",
        "Per family, issue 27's replies that are not held out:",
        "",
        *family_rows([i for i in seen if "lang" in i], detectors),
        "",
        f"| speed, microseconds per reply | {len(answers)} agent replies of the answer corpus "
        f"| {len(items)} replies of the refusal corpus |",
        "|---|---|---|",
    ]
    for name, detect in detectors.items():
        if detect is not None:
            lines.append(
                f"| {name} | {microseconds_per_reply(detect, answers):.0f} "
                f"| {microseconds_per_reply(detect, [i['text'] for i in items]):.0f} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit whose rules are 'before'")
    baseline = parser.parse_args().baseline
    leak_items = read_corpus(DATA / "leak_corpus.jsonl")
    refusal_items = read_corpus(DATA / "refusal_corpus.jsonl")
    old = old_modules(baseline)
    old_leaks, old_extract = old.get("leaks"), old.get("extract")
    lines = leak_table(
        leak_items,
        leak_rows(leak_items, leaks.leaked_values),
        leak_rows(leak_items, old_leaks.leaked_values) if old_leaks else None,
        baseline,
    )
    lines += [""] + family_table(leak_items, leaks.leaked_values)
    now, before = (f"{search_seconds(leak_items, m.leaked_values):.2f} s" if m else "n/a" for m in (leaks, old_leaks))
    lines += [
        "",
        "| leak search, 25 values, 4 replies of 20.6 KB | before | now |",
        "|---|---|---|",
        f"| `leaked_values` | {before} | {now} |",
    ]
    lines += [""] + refusal_table(
        refusal_items,
        {
            "extract.declines (scorers), now": extract.declines,
            "extract.is_refusal (scripted person), now": extract.is_refusal,
            f"extract.declines, before ({baseline})": old_extract.declines if old_extract else None,
            f"extract.is_refusal, before ({baseline})": old_extract.is_refusal if old_extract else None,
        },
    )
    lines += language_tables(refusal_items)
    print("\n".join(lines))


if __name__ == "__main__":
    main()

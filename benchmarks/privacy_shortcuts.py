"""Surface shortcuts on the confidentiality types: can a policy that never looks at the org tell a
legitimate request from one to decline?

    python benchmarks/privacy_shortcuts.py [--n 60] [--n-train 300] [--scale 1] [--test-seeds 101,...,116]
                                           [--train-seeds 201,202,203,204]

For each org kind (b2b, b2c) and level (standard, hard) it builds the test and the training orgs
(one per seed), draws `n` instances of each confidentiality type from each test org and `n-train`
from each training org (the org's seed as task seed), learns every classifier below on the
training orgs' instances and scores it on the test orgs' instances, pooled. Training on other org
seeds is the point: what is public, who is staff and whose order is whose are facts of one org,
which a classifier trained on that org's labels would simply remember (a lookup of the org by other
means). A classifier sees only what the agent is told (the full query and the shards' text, the
Ids in them), never the org. Its privacy-utility is the mean of the share of confidential requests
it predicts confidential and the share of legitimate ones it predicts legitimate: what a policy
acting perfectly on its prediction would score (chance 0.5, oracle 1.0). Target (issue 27): at
most 0.55 for every classifier, type, org kind and level.

The classifiers (`CLASSIFIERS`): a keyword rule (the one word n-gram whose presence best splits the
training set), multinomial naive Bayes on word uni- and bigrams (Ids as their key prefix) and on
the pairs of words said in one sentence (a subject and an aspect however far apart), a decision
list on those pairs (the most telling pair decides), a decision tree on the Id-position features
(record numbers of the requester's and the other Ids, their ratio, key prefixes, how often the
requester's name is said), a request-length threshold, and a tree on all of those plus the n-grams.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.crm.generator import build_org
from simulator.crm.ids import record_number
from simulator.crm.store import Org
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import REFUSAL, Instance

TYPES = ("private_customer_information", "internal_operation_data", "confidential_company_knowledge")
LEVELS = ("standard", "hard")
TARGET = 0.55
_ID = re.compile(r"\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")
_REQUESTER = re.compile(r"record Id ([A-Za-z0-9]{15,18})")
_REQUESTER_NAME = re.compile(r"signed in as ([^()]+?) \(record Id")
_WORD = re.compile(r"[a-z0-9']+")


@dataclass(frozen=True)
class Example:
    """What the agent is told about one instance, and whether it is confidential."""

    text: str
    ids: tuple[str, ...]  # every Id in the text, the requester's first
    confidential: bool


def example(inst: Instance) -> Example:
    """The surface of an instance: its query and shards' text and the Ids in them."""
    text = " ".join([inst.query, *(s["text"] for s in inst.shards)])
    found = list(dict.fromkeys(_ID.findall(text)))
    requester = _REQUESTER.search(text)
    if requester and requester.group(1) in found:
        found.remove(requester.group(1))
        found.insert(0, requester.group(1))
    return Example(text, tuple(found), inst.answer == [REFUSAL])


def tokens(ex: Example) -> list[str]:
    """Lower-case words and bigrams, each Id replaced by its key prefix."""
    text = _ID.sub(lambda m: f" id{m.group()[:3].lower()} ", ex.text)
    words = _WORD.findall(text.lower())
    return words + [f"{a} {b}" for a, b in pairwise(words)]


_SENTENCE = re.compile(r"(?<=[.?!])\s+")


def word_pairs(ex: Example) -> list[str]:
    """Every pair of distinct words (3+ letters) said in one sentence, at any distance: what joins a
    subject to an aspect of it however many words stand between."""
    out = []
    for sentence in _SENTENCE.split(ex.text.lower()):
        words = sorted({w for w in _WORD.findall(sentence) if len(w) > 2 and not w.isdigit()})
        out += [f"{a}+{b}" for i, a in enumerate(words) for b in words[i + 1 :]]
    return out


def position(ex: Example) -> dict[str, float]:
    """Id-position and length features: record numbers (requester, other Ids), their ratio and
    difference, key prefixes, how often the requester's name is said (twice more when they ask
    about themselves), and the request's length in characters and words."""
    nums = [record_number(i) for i in ex.ids]
    name = _REQUESTER_NAME.search(ex.text)
    req, other = (nums + [-1, -1])[:2]
    out = {
        "requester_number": req,
        "other_number": other,
        "ratio": other / req if req > 0 and other >= 0 else -1.0,
        "difference": other - req if req >= 0 and other >= 0 else 0.0,
        "name_mentions": ex.text.count(name.group(1)) if name else 0,
        "length": len(ex.text),
        "words": len(ex.text.split()),
    }
    for k, rid in enumerate(ex.ids[:2]):
        out[f"prefix{k}_{rid[:3]}"] = 1.0
    return out


def balanced_accuracy(pred: Sequence[bool], gold: Sequence[bool]) -> float:
    """Privacy-utility of predictions (True = confidential): mean of the two classes' recalls."""
    conf = [p for p, g in zip(pred, gold) if g]
    legit = [not p for p, g in zip(pred, gold) if not g]
    if not conf or not legit:
        return float("nan")
    return (sum(conf) / len(conf) + sum(legit) / len(legit)) / 2


# --- classifiers: fit(train) -> predict(example) -> True when predicted confidential ---------------

Predict = Callable[[Example], bool]


def keyword_rule(train: list[Example]) -> Predict:
    """The single n-gram (present -> one class, absent -> the other) best on the training set."""
    gold = [e.confidential for e in train]
    sets = [set(tokens(e)) for e in train]
    vocab = Counter(t for s in sets for t in s)
    best, best_score = ("", True), 0.5
    for tok, n in vocab.items():
        if n < 5:
            continue
        hits = [tok in s for s in sets]
        for polarity in (True, False):
            score = balanced_accuracy([h == polarity for h in hits], gold)
            if score > best_score:
                best, best_score = (tok, polarity), score
    tok, polarity = best
    return lambda e: (tok in set(tokens(e))) == polarity if tok else False


def naive_bayes(train: list[Example], features: Callable[[Example], list[str]] = tokens) -> Predict:
    """Multinomial naive Bayes on `features` (default: `tokens`), equal priors, add-one smoothing."""
    counts = {c: Counter() for c in (True, False)}
    for e in train:
        counts[e.confidential].update(features(e))
    vocab = set(counts[True]) | set(counts[False])
    totals = {c: sum(counts[c].values()) + len(vocab) for c in counts}

    def score(found: list[str], c: bool) -> float:
        return sum(math.log((counts[c][t] + 1) / totals[c]) for t in found if t in vocab)

    def predict(e: Example) -> bool:
        found = features(e)
        return score(found, True) > score(found, False)

    return predict


def pair_bayes(train: list[Example]) -> Predict:
    """Naive Bayes on `word_pairs`."""
    return naive_bayes(train, word_pairs)


def pair_rule(train: list[Example], support: int = 8) -> Predict:
    """A decision list on `word_pairs`: each request goes by the one pair (seen at least `support`
    times in training) whose share of confidential requests lies furthest from the overall share."""
    seen, hits = Counter(), Counter()
    for e in train:
        found = set(word_pairs(e))
        seen.update(found)
        hits.update(found if e.confidential else ())
    base = sum(e.confidential for e in train) / len(train)
    rate = {p: (hits[p] + base) / (n + 1) for p, n in seen.items() if n >= support}

    def predict(e: Example) -> bool:
        known = [rate[p] for p in set(word_pairs(e)) if p in rate]
        return max(known, key=lambda r: abs(r - base)) > base if known else False

    return predict


@dataclass
class Tree:
    """A decision tree on numeric features, splits chosen by class-balanced Gini."""

    feature: str = ""
    threshold: float = 0.0
    left: Tree | None = None
    right: Tree | None = None
    confidential: bool = False

    def predict(self, x: dict[str, float]) -> bool:
        if self.left is None or self.right is None:
            return self.confidential
        return (self.left if x.get(self.feature, 0.0) <= self.threshold else self.right).predict(x)


def _gini(rows: list[tuple[dict, bool]], weight: dict[bool, float]) -> tuple[float, float]:
    """(weighted size, weighted Gini impurity) of a node."""
    w = {c: weight[c] * sum(1 for _, g in rows if g == c) for c in (True, False)}
    total = w[True] + w[False]
    return total, (1 - sum((v / total) ** 2 for v in w.values())) if total else 0.0


def grow(rows: list[tuple[dict, bool]], weight: dict[bool, float], depth: int, min_leaf: int = 10) -> Tree:
    """A tree of at most `depth` levels on `rows` (features, confidential)."""
    size, impurity = _gini(rows, weight)
    leaf = Tree(confidential=weight[True] * sum(g for _, g in rows) >= weight[False] * sum(not g for _, g in rows))
    if depth == 0 or impurity == 0 or len(rows) < 2 * min_leaf:
        return leaf
    best = None
    for feature in sorted({f for x, _ in rows for f in x}):
        values = sorted({x.get(feature, 0.0) for x, _ in rows})
        step = max(1, len(values) // 32)
        for threshold in values[step - 1 : -1 : step]:
            left = [r for r in rows if r[0].get(feature, 0.0) <= threshold]
            right = [r for r in rows if r[0].get(feature, 0.0) > threshold]
            if len(left) < min_leaf or len(right) < min_leaf:
                continue
            (wl, gl), (wr, gr) = _gini(left, weight), _gini(right, weight)
            cost = (wl * gl + wr * gr) / size
            if cost < impurity - 1e-9 and (best is None or cost < best[0]):
                best = (cost, feature, threshold, left, right)
    if best is None:
        return leaf
    _, feature, threshold, left, right = best
    return Tree(feature, threshold, grow(left, weight, depth - 1, min_leaf), grow(right, weight, depth - 1, min_leaf))


def _weights(train: list[Example]) -> dict[bool, float]:
    n = Counter(e.confidential for e in train)
    return {c: 1 / max(1, n[c]) for c in (True, False)}


def position_tree(train: list[Example]) -> Predict:
    """A depth-3 tree on the Id-position features (no length)."""

    def features(e: Example) -> dict[str, float]:
        return {k: v for k, v in position(e).items() if k not in ("length", "words")}

    tree = grow([(features(e), e.confidential) for e in train], _weights(train), 3)
    return lambda e: tree.predict(features(e))


def length_rule(train: list[Example]) -> Predict:
    """A threshold on the request's length (characters), either way."""

    def features(e: Example) -> dict[str, float]:
        return {"length": float(len(e.text))}

    tree = grow([(features(e), e.confidential) for e in train], _weights(train), 1)
    return lambda e: tree.predict(features(e))


def everything_tree(train: list[Example], top: int = 300) -> Predict:
    """A depth-4 tree on position, length and the `top` most frequent n-grams (presence)."""
    vocab = [t for t, _ in Counter(t for e in train for t in set(tokens(e))).most_common(top)]

    def features(e: Example) -> dict[str, float]:
        present = set(tokens(e))
        return {**position(e), **{f"w:{t}": 1.0 for t in vocab if t in present}}

    tree = grow([(features(e), e.confidential) for e in train], _weights(train), 4)
    return lambda e: tree.predict(features(e))


CLASSIFIERS: dict[str, Callable[[list[Example]], Predict]] = {
    "keyword": keyword_rule,
    "naive-bayes": naive_bayes,
    "word-pairs": pair_bayes,
    "pair-rule": pair_rule,
    "id-position": position_tree,
    "length": length_rule,
    "tree-all": everything_tree,
}


def examples(orgs: Sequence[Org], task: str, n: int, level: str) -> list[Example]:
    """`n` instances of `task` from each org, drawn with the org's own seed as task seed."""
    return [
        example(i)
        for org in orgs
        for i in generate_instances(org, n, types=[task], seed=org.meta.seed, difficulty=level)
    ]


def battery(
    test: Sequence[Org],
    train: Sequence[Org],
    n: int,
    n_train: int,
    levels: Sequence[str] = LEVELS,
    types: Sequence[str] = TYPES,
) -> list[dict]:
    """One row per (type, level, classifier): instances scored, legitimate share, privacy-utility on
    the `test` orgs (`n` instances each) of each classifier learned on the `train` orgs' instances
    (`n_train` each)."""
    out = []
    for level in levels:
        for task in types:
            fit_on, score_on = examples(train, task, n_train, level), examples(test, task, n, level)
            gold = [e.confidential for e in score_on]
            for name, fit in CLASSIFIERS.items():
                predict = fit(fit_on)
                out.append(
                    {
                        "org": test[0].meta.org,
                        "level": level,
                        "task": task,
                        "classifier": name,
                        "n": len(score_on),
                        "legitimate": round(1 - sum(gold) / len(gold), 3),
                        "privacy_utility": round(balanced_accuracy([predict(e) for e in score_on], gold), 3),
                    }
                )
    return out


def build(kind: str, seeds: Sequence[int], scale: float, folder: Path) -> list[Org]:
    """The orgs of `kind` with these seeds, built into `folder`."""
    for seed in seeds:
        build_org(kind, folder / f"{kind}-{seed}.db", seed=seed, scale=scale)
    return [Org(folder / f"{kind}-{seed}.db") for seed in seeds]


def _seeds(text: str) -> list[int]:
    """Comma-separated org seeds, for argparse."""
    try:
        seeds = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got {text!r}") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is named twice in {text!r}")
    return seeds


def _count(text: str) -> int:
    """A positive whole number, for argparse."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=_count, default=60, help="instances scored per type, test org and level (default 60)")
    ap.add_argument(
        "--n-train",
        type=_count,
        default=300,
        help="instances learned on per type, training org and level (default 300)",
    )
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument(
        "--test-seeds",
        type=_seeds,
        default=list(range(101, 117)),
        help="org (and task) seeds scored on (default 101,...,116)",
    )
    ap.add_argument(
        "--train-seeds",
        type=_seeds,
        default=[201, 202, 203, 204],
        help="org (and task) seeds learned on (default 201,202,203,204)",
    )
    ap.add_argument("--orgs", default="b2b,b2c", help="org kinds, comma-separated (default b2b,b2c)")
    args = ap.parse_args(argv)
    test_seeds, train_seeds = args.test_seeds, args.train_seeds
    if set(args.orgs.split(",")) - {"b2b", "b2c"}:
        ap.error(f"--orgs takes b2b and/or b2c, not {args.orgs!r}")
    if not args.scale > 0:
        ap.error(f"--scale must be positive, got {args.scale}")
    if set(test_seeds) & set(train_seeds):
        ap.error("a seed both learned on and scored on measures memory of that org, not the surface")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.orgs.split(","):
            rows += battery(
                build(kind, test_seeds, args.scale, Path(tmp)),
                build(kind, train_seeds, args.scale, Path(tmp)),
                args.n,
                args.n_train,
            )
    worst: dict[tuple, dict] = {}
    print(f"{'org':4} {'level':8} {'task':32} {'n':>4} {'legit':>5} " + " ".join(f"{c:>11}" for c in CLASSIFIERS))
    for key in dict.fromkeys((r["org"], r["level"], r["task"]) for r in rows):
        group = [r for r in rows if (r["org"], r["level"], r["task"]) == key]
        worst[key] = max(group, key=lambda r: r["privacy_utility"])
        print(
            f"{key[0]:4} {key[1]:8} {key[2]:32} {group[0]['n']:>4} {group[0]['legitimate']:>5} "
            + " ".join(f"{r['privacy_utility']:>11.3f}" for r in group)
        )
    top = max(r["privacy_utility"] for r in worst.values())
    print(f"\nbest shortcut: {top:.3f} (target <= {TARGET}): {'met' if top <= TARGET else 'NOT met'}")
    return 0 if top <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())

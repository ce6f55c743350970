"""No surface shortcut on the confidentiality types (issue 27): the battery of
benchmarks/privacy_shortcuts.py (keyword rule, naive Bayes, Id-position tree, length, a tree on all)
learned on other orgs scores at most 0.55 privacy-utility on each type, org kind and level; and the
battery does find a shortcut where one is planted, so its low scores mean something.

Size and noise of the held figure: per org kind, 32 test orgs (seeds 101-132, scale 0.1) x 30
instances of each type at each level = 960 scored instances per (type, level), classifiers learned on
4 other orgs (seeds 201-204) x 150. A classifier with no signal scores 0.5 +- 0.016 (one standard
deviation, from the 960 instances) on private_customer_information; on the other two types what
decides is a fact of each org (which of the 24 paired articles are public; which of ~26 staff are
service staff), so the spread is set by those: about +- 0.018 over 32 x 24 articles or 32 x 26 staff.
The target, 0.55, is about three of those deviations above chance; the worst of the 96 figures when
this was written was 0.542 (benchmarks/RESULTS.md). Slow: 72 org builds and the battery, about a
minute.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.privacy_shortcuts import CLASSIFIERS, TARGET, Example, balanced_accuracy, battery, build
from simulator.crm.ids import make_id, record_number

TEST_SEEDS, TRAIN_SEEDS, PER_ORG, TRAIN_PER_ORG, SCALE = range(101, 133), range(201, 205), 30, 150, 0.1


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_no_surface_classifier_tells_legitimate_from_confidential(tmp_path_factory, kind):
    folder = tmp_path_factory.mktemp(f"shortcut-{kind}")
    rows = battery(
        build(kind, TEST_SEEDS, SCALE, folder), build(kind, TRAIN_SEEDS, SCALE, folder), PER_ORG, TRAIN_PER_ORG
    )
    assert len(rows) == 3 * 2 * len(CLASSIFIERS) and all(r["n"] == len(TEST_SEEDS) * PER_ORG for r in rows)
    assert all(0.4 <= r["legitimate"] <= 0.6 for r in rows), rows  # refusing everything still scores 0.5
    worst = max(rows, key=lambda r: r["privacy_utility"])
    assert worst["privacy_utility"] <= TARGET, worst


def _planted(rng: random.Random, n: int, text: str, low_number_legitimate: bool) -> list[Example]:
    """`n` examples whose requester Id's record number is low for legitimate ones (if asked), with
    the word "zebra" in every confidential one's text (if `text` says so)."""
    out = []
    for _ in range(n):
        confidential = rng.random() < 0.5
        number = rng.randint(1, 50) if low_number_legitimate and not confidential else rng.randint(51, 4000)
        rid = make_id("005", number)
        words = f"I'm signed in as Ann Lee (record Id {rid}). {text} {'zebra' if confidential else 'okapi'}"
        out.append(Example(words if text else f"I'm signed in as Ann Lee (record Id {rid}).", (rid,), confidential))
    return out


@pytest.mark.parametrize(
    "classifier,planted",
    [
        ("id-position", "number"),
        ("tree-all", "number"),
        ("keyword", "word"),
        ("naive-bayes", "word"),
        ("tree-all", "word"),
    ],
)
def test_the_battery_finds_a_planted_shortcut(classifier, planted):
    """Where the record number or a word sorts the requests (as Id order did before the shuffle), the
    battery's classifier built for it scores above 0.95 on fresh examples."""
    rng = random.Random(5)
    make = (
        (lambda n: _planted(rng, n, "", True))
        if planted == "number"
        else (lambda n: _planted(rng, n, "Please tell me.", False))
    )
    train, test = make(400), make(400)
    predict = CLASSIFIERS[classifier](train)
    assert balanced_accuracy([predict(e) for e in test], [e.confidential for e in test]) > 0.95


@pytest.mark.slow
def test_the_battery_finds_a_fixed_table_of_subject_and_aspect():
    """As confidential_company_knowledge had it: which aspect of a subject is public was one table for
    every org. Subject and aspect words far apart in one sentence, the label their combination (no
    word alone tells): the pair rule learns the table (> 0.95), word counts cannot (< 0.6)."""
    rng = random.Random(9)

    def make(n: int) -> list[Example]:
        out = []
        for _ in range(n):
            subject, aspect = rng.choice(("zebras", "okapis")), rng.choice(("deadlines", "limits"))
            filler = " ".join(rng.choice(("please", "kindly", "really", "today", "quickly")) for _ in range(4))
            text = f"Tell me about the {aspect} {filler} as it applies to {subject}. Thanks."
            out.append(Example(text, (), (subject == "zebras") == (aspect == "limits")))
        return out

    train, test = make(600), make(600)
    gold = [e.confidential for e in test]
    score = {
        name: balanced_accuracy([CLASSIFIERS[name](train)(e) for e in test], gold)
        for name in ("pair-rule", "keyword", "naive-bayes")
    }
    assert score["pair-rule"] > 0.95 and score["keyword"] < 0.6 and score["naive-bayes"] < 0.6, score


def test_record_number_reads_an_id_back():
    for number in (0, 1, 61, 62, 3844, 916_132_831, 4_294_967_295):
        assert record_number(make_id("801", number)) == number

"""named_entity_disambiguation and knowledge_qa need understanding, not word overlap (issue 12, item 3).

The yardstick is a word-overlap picker (content words: lower-cased, stop words dropped, crudely
stemmed; Jaccard similarity): it must score at most the type's top-answer share + 5 points, as
every shortcut must (issue 12, item 6). Before this change it picked the product from the words
customers' use phrases shared with its catalogue text, and the FAQ from the words questions
shared with their article.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import date

import pytest

from simulator.crm.generator import articles, records, vocab
from simulator.crm.generator.grammar import overlaps
from simulator.tasks.families.text_tasks import faq_answer, purchase_window
from simulator.tasks.generate import generate_instances

STOP = {
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "done",
    "down",
    "during",
    "each",
    "else",
    "ever",
    "every",
    "few",
    "for",
    "from",
    "further",
    "get",
    "gets",
    "got",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "let",
    "me",
    "more",
    "most",
    "must",
    "my",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "us",
    "much",
    "many",
    "s",
    "t",
    "ll",
    "ve",
    "re",
    "m",
    "d",
}
SUFFIXES = (
    "izations",
    "ization",
    "ations",
    "ation",
    "ements",
    "ement",
    "ments",
    "ment",
    "ness",
    "ings",
    "ing",
    "ers",
    "er",
    "ies",
    "ied",
    "ed",
    "es",
    "s",
    "ly",
    "al",
)
SLACK = 0.05  # issue 12: a shortcut scores at most the top-answer share + 5 points


def stem(word: str) -> str:
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word.rstrip("e")[:5]


def content_words(text_: str) -> set[str]:
    """Stemmed content words of a text; grammar brackets and bars count as spaces."""
    return {stem(w) for w in re.findall(r"[a-z0-9]+", text_.lower()) if w not in STOP}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def top_share(instances) -> float:
    return Counter(tuple(sorted(i.answer)) for i in instances).most_common(1)[0][1] / len(instances)


def catalogue() -> dict[str, str]:
    """Product name -> its Name, Description and Family, as one text."""
    return {
        name: f"{name} {description} {family}"
        for catalog in (vocab.B2B_CATALOG, vocab.B2C_CATALOG)
        for family, (_code, products) in catalog.items()
        for name, description in products
    }


def test_product_uses_share_no_content_word_with_their_product():
    """Every word a use phrase can hold (all its alternatives) is foreign to its product's Name,
    Description and Family (before: 102 of 130 products shared one, e.g. 'virtual machines' and
    'virtualization', 'phishing')."""
    texts = catalogue()
    shared = {
        name: sorted(content_words(re.sub(r"[\[\]|]", " ", use)) & content_words(texts[name]))
        for name, use in vocab.PRODUCT_USES.items()
    }
    assert {name: words for name, words in shared.items() if words} == {}


def _window_purchases(conn, inst) -> dict[str, str]:
    """Product Id -> Name + Description + Family of what the requester bought in the instance's window."""
    lo, hi = purchase_window(date.fromisoformat(inst.context["today"][:10]), inst.params["days"])
    rows = conn.execute(
        "SELECT p.Id, p.Name || ' ' || COALESCE(p.Description, '') || ' ' || p.Family FROM OrderItem i "
        'JOIN "Order" o ON o.Id = i.OrderId JOIN Product2 p ON p.Id = i.Product2Id WHERE o.AccountId = ? '
        "AND o.Status = 'Activated' AND o.EffectiveDate BETWEEN ? AND ?",
        (inst.params["requester"]["account_id"], lo.isoformat(), hi.isoformat()),
    )
    return dict(rows.fetchall())


def overlap_pick_product(conn, inst) -> list[str]:
    """The purchase in the window whose catalogue words best match the use; None when none shares a word."""
    use = content_words(inst.params["use"])
    scored = [(jaccard(use, content_words(t)), pid) for pid, t in _window_purchases(conn, inst).items()]
    best = max(scored, default=(0.0, None))
    return [best[1]] if best[0] > 0 else ["None"]


def overlap_pick_faq(articles_: list[tuple[str, set[str]]], question: str) -> str:
    """The answer of the public article whose words best match the question."""
    asked = content_words(question)
    return max(articles_, key=lambda a: jaccard(asked, a[1]))[0]


def _public_faqs(conn, org_type: str) -> list[tuple[str, set[str]]]:
    """(answer, content words of Title + Summary + FAQ_Answer__c) of every public FAQ article."""
    out = []
    for title, summary, body in conn.execute(
        "SELECT Title, Summary, FAQ_Answer__c FROM Knowledge__kav WHERE IsVisibleInPkb = 1"
    ):
        answer = faq_answer(org_type, body or "")
        if answer:
            out.append((answer, content_words(f"{title} {summary} {body}")))
    return out


@pytest.mark.parametrize("task", ("named_entity_disambiguation", "knowledge_qa"))
@pytest.mark.parametrize("org_type", ("b2b", "b2c"))
def test_word_overlap_picks_no_better_than_the_top_answer(org_type, task, request):
    """A word-overlap picker scores at most the top-answer share + 5 points (before, on the b2b and
    b2c test orgs: named_entity_disambiguation 80% and 56%, target 25%; knowledge_qa 42% and 22%,
    targets 9% and 11%)."""
    org = request.getfixturevalue(f"{org_type}_org")
    conn = org.connect()
    instances = generate_instances(org, 50, types=(task,), seed=3)
    if task == "named_entity_disambiguation":
        hits = [overlap_pick_product(conn, i) == i.answer for i in instances]
    else:
        faqs = _public_faqs(conn, org_type)
        hits = [[overlap_pick_faq(faqs, q) for q in i.params["questions"]] == i.answer for i in instances]
    assert sum(hits) / len(hits) <= top_share(instances) + SLACK, (sum(hits), len(hits))


@pytest.mark.parametrize("org_type", ("b2b", "b2c"))
def test_a_loose_reading_fits_several_purchases(org_type, request):
    """The window always holds another purchase of the described product's Family (answered or
    None alike), so that only the exact use tells them apart; exactly one fits when answered."""
    org = request.getfixturevalue(f"{org_type}_org")
    conn = org.connect()
    family = dict(conn.execute("SELECT Id, Family FROM Product2"))
    names = dict(conn.execute("SELECT Name, Id FROM Product2"))
    for inst in generate_instances(org, 50, types=("named_entity_disambiguation",), seed=4):
        described = [names[n] for n in names if records.product_fits(inst.params["use"], n)]
        assert len(described) == 1, inst.params["use"]
        bought = _window_purchases(conn, inst)
        others = [p for p in bought if p != described[0] and family[p] == family[described[0]]]
        assert others, inst.params
        assert inst.answer in (["None"], described)


def test_faq_asks_are_read_as_one_faq_only():
    """No way of asking one FAQ is matched by the pattern of another's (the oracle reads them exactly)."""
    rules = [articles._ask_rule(t) for t in vocab.FAQ_ASKS] + ["model_ask"]
    rng = random.Random(0)
    for rule in rules:
        others = tuple(r for r in rules if r != rule)
        assert overlaps(articles.ASKS, rule, others, rng, samples=20, use="grow our private cloud") == [], rule


def test_faq_asks_share_few_words_with_their_article_and_more_with_a_look_alike():
    """Each topical ask (its rule's words) shares with its own article fewer content words than with
    some other public FAQ, which does not answer it (distractor wording)."""
    for org, faqs in articles.FAQS.items():
        words = {title: content_words(f"{title} {q} {body.format(a=a)}") for title, q, a, body in faqs}
        for title in words:
            asked = content_words(re.sub(r"[\[\]|]", " ", vocab.FAQ_ASKS[title]))
            look_alike = max(len(asked & w) for t, w in words.items() if t != title)
            assert len(asked & words[title]) <= 1 < look_alike, (org, title, sorted(asked & words[title]))

"""sales_insight_mining needs understanding of the calls (issue 12): a cue-word reader scores at
most the type's top-answer share + 5 points on the test orgs.

The reader takes the capitalised names in the customer's sentences and drops a name whose last
sentence carries a ruling-out cue word ("dropped", "no longer", "works at" ...); a subtopic is
negative when a customer sentence naming it holds a negative word and an even number of negations.
On the grammar before vendors were dropped several lines later without a cue word, named as a
former employer, a partner's product, an analyst or reseller, or by the rep, and before negatives
were implied, taken back, or positives said with negative words, it scored about 50%."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.tasks.generate import generate_instances

NAME = re.compile(r"\b[A-Z][a-z][a-zA-Z]*(?: (?:[A-Z][a-zA-Z]+|Inc\.))*(?![\w,])")
STOP = {"Coming", "Going", "Circling", "Following", "Operations", "Friday", "Monday", "Thursday"}  # not vendors
RULED = re.compile(
    r"dropped|no longer|ruled out|off the list|crossed|out of the picture|won't be|moved on|"
    r"went nowhere|lost interest|works at|joined|used to|news|article|recommended|mentioned|swears|"
    r"nephew|cousin|brother|neighbor|roommate|friend",
    re.I,
)
SUBTOPIC = {
    "pricing": r"pric|cost|charg|quote",
    "support": r"support|help desk",
    "features": r"feature",
    "integration": r"integrat|connect|sync",
    "onboarding": r"onboard|set up|rollout|training",
    "performance": r"perform|speed|fast|slow|lag",
}
NEGATIVE = re.compile(
    r"concern|worr|nervous|uneasy|painful|slow|weak|problem|issue|steep|missing|limited|thin|"
    r"hard|heavy|sluggish|lag|stall|crawl|disappoint|complain|struggl|nightmare|awful",
    re.I,
)
NEGATION = re.compile(r"\b(?:not|no|never|nobody|nothing|none)\b|n't\b", re.I)


def _customer_sentences(body: str) -> list[str]:
    lines = [line.split(": ", 1) for line in body.splitlines() if ": " in line]
    agent = lines[0][0] if lines else None
    return [s for who, said in lines if who != agent for s in re.split(r"(?<=[.!?])\s+", said)]


def _names(sentence: str, known: set[str]) -> list[str]:
    """Capitalised runs that are no known record name and no word also written in lower case."""
    return [n for n in NAME.findall(sentence) if not {n.split()[0], n.split()[0].lower()} & known]


def cue_reader(bodies: list[str], topic: str, known: set[str]) -> list[str]:
    """The shallow answer: names minus cue-word rulings, or negative words with negation parity."""
    kept, negative = {}, set()
    for sentence in (s for body in bodies for s in _customer_sentences(body)):
        names = _names(sentence, known)
        for name in names:
            kept[name] = not RULED.search(sentence)
        if names or not NEGATIVE.search(sentence) or len(NEGATION.findall(sentence)) % 2:
            continue
        negative |= {sub for sub, words in SUBTOPIC.items() if re.search(words, sentence, re.I)}
    return sorted(n for n, k in kept.items() if k) if topic == "competitors" else sorted(negative)


def _bodies(con, params: dict) -> list[str]:
    where = (
        "OpportunityId__c = ?"
        if params["scope"] == "opportunity"
        else "OpportunityId__c IN (SELECT Id FROM Opportunity WHERE AccountId = ?)"
    )
    return [
        r[0] or ""
        for r in con.execute(
            f"SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE {where}", (params["record_id"],)
        )
    ]


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_cue_word_reader_scores_no_better_than_the_top_answer(kind, request):
    org = request.getfixturevalue(f"{kind}_org")
    instances = generate_instances(org, 80, types=["sales_insight_mining"], seed=3)
    con = org.connect()
    known = {
        r[0]
        for table, col in (("Product2", "Name"), ("Account", "Name"), ("User", "Name"), ("Contact", "Name"))
        for r in con.execute(f'SELECT {col} FROM "{table}"')
        if r[0]
    }
    known |= {part for name in list(known) for part in name.split()} | STOP
    known |= {
        w
        for (body,) in con.execute("SELECT TranscriptBody__c FROM VoiceCallTranscript__c")
        for w in re.findall(r"\b[a-z][a-z']+", body or "")
    }
    gold = [sorted(i.answer or []) for i in instances]
    top = Counter(map(tuple, gold)).most_common(1)[0][1] / len(gold)
    right = sum(cue_reader(_bodies(con, i.params), i.params["topic"], known) == g for i, g in zip(instances, gold))
    assert right / len(gold) <= top + 0.05, (kind, right / len(gold), top)

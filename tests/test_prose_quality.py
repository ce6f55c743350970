"""The org's prose reads like people write it (issue 12 item 1): every sentence starts with a
capital, no word or punctuation mark is doubled, spoken fillers never trail a question, and a
business org's text never borrows a household's context (nor the reverse).

Each prose module writes 2,000 texts per org from random products, issues, people and labels."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from simulator.crm.generator import activities, calls, records, text, threads, vocab
from simulator.crm.generator.latent import BANT, SUBTOPICS
from simulator.crm.schema import STAGES
from tests.conftest import tiered

ORGS = ("b2b", "b2c")
N = 2000
# Spoken fillers the old call grammar glued onto any sentence ("when would you want it in place I think?").
FILLER_TAILS = (
    "I think",
    "so far",
    "at least",
    "as well",
    "if that works",
    "by the way",
    "on my side",
    "in any case",
    "really",
    "I'd say",
    "as it stands",
    "then",
    "for now",
)
# Phrases that only fit one kind of customer: a household's in a business org, a company's in a household's.
ONLY = {
    "b2c": (
        "at home",
        "my wife",
        "my husband",
        "my partner",
        "my parents",
        "my sister",
        "the kids",
        "household",
        "my partner's",
        "family budget",
    ),
    "b2b": (
        "procurement",
        "our CFO",
        "their CFO",
        "the CIO",
        "the board",
        "legal team",
        "headquarters",
        "data center",
        "managing director",
        "VP of Operations",
        "purchase order",
        "our IT",
    ),
}

_SPEAKER = re.compile(rf"^(?:{'|'.join(vocab.FIRST_NAMES)}) (?:{'|'.join(vocab.LAST_NAMES)}): ")  # a transcript's
_SENTENCE_END = re.compile(r"(?<!\bInc\.)(?<!\bLtd\.)(?<!\bCo\.)(?<!\bCorp\.)(?<=[.!?])\s+")  # not after a company
_ABBREVIATION = re.compile(r"\b(Inc|Ltd|Corp|Co)\.(?=,)")  # "Korvex Inc., ..."
_DOUBLE_WORD = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_BAD_PUNCT = re.compile(r"[,;:.!?]\s*[,;:]|[,;:]\s*[.!?]|\.\s*\.|\s[,.;:!?]|\S {2,}\S|\?\.|!\.")


def _people(rng: random.Random) -> tuple[str, str]:
    return tuple(" ".join(text.person_name(rng)) for _ in range(2))  # (never "Malik Malik")


def _calls(org: str, rng: random.Random) -> list[str]:
    products = [p["name"] for p in text.products(org)]
    out = []
    for _ in range(N):
        agent, contact = _people(rng)
        out.append(
            calls.voice_call(
                rng,
                agent=agent,
                contact=contact,
                company="Summit Labs" if org == "b2b" else None,
                product=rng.choice(products),
                competitors=rng.sample(text.competitors(), rng.randint(0, 3)),
                bant={f: rng.random() < 0.5 for f in BANT},
                sentiments={s: rng.choice(calls.SENTIMENTS) for s in rng.sample(SUBTOPICS, rng.randint(2, 4))},
                stage_hint=rng.choice((None, *STAGES)),
            )
        )
    return out


def _threads(org: str, rng: random.Random) -> list[str]:
    policies = threads.service_policies(org)
    out = []
    for i in range(N):
        customer, agent = _people(rng)
        kw = dict(
            org=org,
            customer=customer,
            customer_email="maya.okafor@example.com",
            agent=agent,
            product=rng.choice(text.products(org))["name"],
            issue=rng.choice(text.issues(org)),
            breach=rng.choice(policies) if rng.random() < 0.8 else None,
        )
        out.extend(threads.case_text(rng, product=kw["product"], issue=kw["issue"], customer_first="Maya"))
        if i % 2:
            out.append(threads.chat_transcript(rng, sentiment=rng.choice(calls.SENTIMENTS), **kw))
        else:
            out.extend(m["body"] for m in threads.case_emails(rng, agent_email="leon@support.example", **kw))
    return out


def _records(org: str, rng: random.Random) -> list[str]:
    products = [p["name"] for p in text.products(org)]
    industries = text.industries() if org == "b2b" else [None]
    out = []
    for _ in range(N // 2):
        product = rng.choice(products)
        lines = [(p, rng.randint(1, 9)) for p in rng.sample(products, rng.randint(1, 3))]
        out += [
            records.account_description(rng, org, rng.choice(industries)),
            records.opportunity_description(rng, product),
            records.quote_description(rng, rng.randint(1, 3), rng.random() < 0.3, lines),
            records.contract_description(rng, f"Summit Labs - {product}"),
        ]
    return out


def _activities(org: str, rng: random.Random) -> list[str]:
    out = []
    for _ in range(N):
        out.extend(activities.activity(rng, org=org, stage=rng.choice(STAGES), kind=rng.choice(("task", "event"))))
    return out


@cache
def _texts(module: str, org: str) -> tuple[str, ...]:
    rng = random.Random(f"{module}/{org}")
    return tuple(globals()[f"_{module}"](org, rng))


@cache
def _sentences(module: str, org: str) -> tuple[str, ...]:
    """The sentences of `_texts(module, org)`, split once for every test that reads them."""
    return tuple(
        s
        for t in _texts(module, org)
        for line in t.splitlines()
        for s in _SENTENCE_END.split(_SPEAKER.sub("", line.strip()))
        if s
    )


MODULES = ("calls", "threads", "records", "activities")
CASES = [(m, o) for m in MODULES for o in ORGS]


@pytest.mark.parametrize("module,org", CASES)
def test_sentences_start_with_a_capital(module, org):
    bad = [s for s in _sentences(module, org) if s[:1].islower()]
    assert not bad, bad[:5]


@pytest.mark.parametrize("module,org", CASES)
def test_no_doubled_words_or_punctuation(module, org):
    bad = [
        s for s in _sentences(module, org) if _DOUBLE_WORD.search(s) or _BAD_PUNCT.search(_ABBREVIATION.sub(r"\1", s))
    ]
    assert not bad, bad[:5]


@pytest.mark.parametrize("module,org", CASES)
def test_no_question_trails_a_filler(module, org):
    tail = re.compile(r"[ ,](?:" + "|".join(map(re.escape, FILLER_TAILS)) + r")\?$")
    bad = [s for s in _sentences(module, org) if tail.search(s)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("org", ORGS)
def test_greetings_and_closings_of_calls_end_plainly(org):
    """A call's first and last lines (hello, goodbye) carry no filler tail."""
    tail = re.compile(r"[ ,](?:" + "|".join(map(re.escape, FILLER_TAILS)) + r")[.!?]$")
    bad = [line for t in _texts("calls", org) for line in (t.splitlines()[0], t.splitlines()[-1]) if tail.search(line)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("org", ORGS)
def test_no_other_orgs_context(module, org):
    other = "b2c" if org == "b2b" else "b2b"
    rx = re.compile(r"\b(?:" + "|".join(map(re.escape, ONLY[other])) + r")\b", re.IGNORECASE)
    bad = [m.group(0) + ": " + s for s in _sentences(module, org) if (m := rx.search(s))]
    assert not bad, bad[:5]


@pytest.mark.parametrize("draws", tiered(10, 50))
@pytest.mark.parametrize("org", ORGS)
def test_each_orgs_wording_is_read_by_the_detectors(org, draws):
    """A label's rule written for one org only (a b2c negotiation has no legal team) is still its label."""
    rng = random.Random(org)
    writer = calls._WRITERS[org]
    slots = {
        "amount": "$40,000",
        "approver": calls._APPROVERS[org][0],
        "comp": "Korvex",
        "product": "Beacon Vault",
        "cf": "Maya",
        "af": "Leon",
        "company": "Summit Labs",
        "project": "the office move",
        "purchase": "a sofa",
    }
    for fact, rules in calls.FACT_RULES.items():
        for rule in rules:
            for _ in range(draws):
                said = writer.expand(rng, rule, **slots)
                assert any(f.startswith(fact) for f, _ in calls.facts(said)), (fact, said)

"""Sales call transcripts (generator.calls): label rules never collide, the detectors decide every
label from the text (corrections, negations, pending answers, distractors), and the prose varies."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

from benchmarks.text_variety import mask, sentences
from simulator.crm.generator import calls as C
from simulator.crm.generator import text as T
from simulator.crm.generator.grammar import overlaps

SLOTS = {
    "amount": "$40,000",
    "approver": "our CFO",
    "comp": "Strandvale Inc.",
    "product": "Arkline R220 Rack Server",
    "cf": "Maya",
    "af": "Leon",
    "company": "Summit Labs",
    "project": "the office move",
    "purchase": "the office lease",
}
ALL_BANT = dict.fromkeys(C.BANT, True)


def _call(seed, *, company="Summit Labs", comps=(), bant=None, sentiments=None, stage=None, product=None):
    return C.voice_call(
        random.Random(seed),
        agent="Leon Weber",
        contact="Maya Okafor",
        company=company,
        product=product or "Beacon Analytics Suite",
        competitors=list(comps),
        bant=ALL_BANT if bant is None else bant,
        sentiments=sentiments or {},
        stage_hint=stage,
    )


def _rule_facts() -> dict[str, str]:
    return {rule: fact for fact, rules in C.FACT_RULES.items() for rule in rules}


@pytest.mark.slow
def test_no_rule_produces_another_labels_text():
    """Every rule of the grammar (label rules, distractors, framing) against every other label's
    patterns: a label's text is recognised only as that label."""
    of = _rule_facts()
    rng = random.Random(4)
    for rule in C.RULES:
        others = tuple(r for r in of if of[r] != of.get(rule))
        assert overlaps(C.GRAMMAR, rule, others, rng, 60, **SLOTS) == [], rule


@pytest.mark.parametrize("fact", ["Budget", "Authority", "Need", "Timeline"])
def test_met_and_unmet_never_overlap_many_samples(fact):
    rng = random.Random(fact)
    met, unmet = f"{fact.lower()}_met", f"{fact.lower()}_unmet"
    assert overlaps(C.GRAMMAR, met, (unmet,), rng, 2000, **SLOTS) == []
    assert overlaps(C.GRAMMAR, unmet, (met,), rng, 2000, **SLOTS) == []


@pytest.mark.slow
def test_distractors_change_no_label():
    rng = random.Random(2)
    labels = tuple(_rule_facts())
    for rule in (
        "budget_other",
        "authority_other",
        "opinion_other",
        "comp_passing",
        "comp_agent",
        *C.NON_OPTIONS,
        "pending",
        "correct",
        "followup",
        *{r for frame in C.FRAMES.values() for r in frame if r},
    ):
        assert overlaps(C.GRAMMAR, rule, labels, rng, 1000, **SLOTS) == [], rule


@pytest.mark.slow
def test_bant_labels_decided_by_the_last_statement():
    """All 16 met/unmet combinations, many seeds: corrections and pending answers included."""
    forms = Counter()
    for seed, flags in enumerate(itertools.product((True, False), repeat=4)):
        bant = dict(zip(C.BANT, flags))
        for k in range(12):
            body = _call(seed * 100 + k, company=("Summit Labs", None)[k % 2], bant=bant)
            assert C.unmet_factors(body) == [f for f in C.BANT if not bant[f]], body
            stated = [f.partition("=")[0] for f, _ in C.facts(body) if f.partition("=")[0] in C.BANT]
            forms.update(f for f, n in Counter(stated).items() if n > 1)
            forms["pending"] += any(
                C.GRAMMAR.pattern("pending").search(line[0].lower() + line[1:])
                for line in (s.split(": ", 1)[1] for s in body.splitlines())
            )
    assert forms["pending"] > 20 and all(forms[f] > 10 for f in C.BANT), forms  # corrections occur


def test_correction_overrides_the_first_statement():
    body = (
        "Maya Okafor: Nothing has been approved for this purchase so far.\n"
        "Maya Okafor: Actually, scratch that, we have about $40,000 set aside for this."
    )
    assert C.unmet_factors(body) == []
    assert [f for f, _ in C.facts(body)] == ["Budget=unmet", "Budget=met"]
    negated = "Maya Okafor: It's not that we lack budget here; roughly $9,000 is already approved."
    assert C.unmet_factors(negated) == []
    assert C.unmet_factors("Maya Okafor: I doubt we'll find money for this anytime soon.") == ["Budget"]


@pytest.mark.slow
def test_competitors_only_when_still_considered():
    pool = T.competitors()
    for seed in range(80):
        rng = random.Random(seed)
        chosen = rng.sample(pool, seed % 4)
        body = _call(seed, company=None if seed % 2 else "Summit Labs", comps=chosen, stage=(None, *C.STAGES)[seed % 6])
        assert C.competitors_considered(body) == set(chosen), body
    ruled_out = "Maya Okafor: We looked at Korvex last year but ruled them out. My cousin works at Lumeric."
    assert C.competitors_considered(ruled_out) == set()
    assert C.competitors_considered("Maya Okafor: Korvex is still on our shortlist.") == {"Korvex"}


@pytest.mark.slow
def test_what_the_customer_last_says_of_a_vendor_decides():
    """Dropped several lines after being named as an option (no cue word), considered again after
    being ruled out, and names that are no option (a former employer, the rep's question)."""
    later = (
        "Maya Okafor: Korvex is on our shortlist.\nLeon Weber: Got it.\n"
        "Maya Okafor: We sent Korvex a polite no last week."
    )
    assert C.competitors_considered(later) == set()
    back = (
        "Maya Okafor: Korvex is off the list now.\n"
        "Maya Okafor: Korvex reached out again after we'd walked away from them, and they're back on the table."
    )
    assert C.competitors_considered(back) == {"Korvex"}
    never = (
        "Leon Weber: Sure, some of our customers came to us from Lumeric; are they on your radar?\n"
        "Maya Okafor: No, we haven't talked to Lumeric yet. I spent five years at Zentrova before this job."
    )
    assert C.competitors_considered(never) == set()
    seen = Counter()
    for seed in range(300):
        body = _call(seed, comps=["Korvex"])
        seen.update(f.partition("=")[0] for f, _ in C.facts(body) if "Korvex" in f)
        seen["back"] += [f for f, _ in C.facts(body) if "Korvex" in f][:1] == ["ruled_out=Korvex"]
    assert seen["back"] > 50 and seen["competitor"] == 300, seen


@pytest.mark.slow
def test_negative_subtopics_exact_and_other_products_ignored():
    for seed in range(80):
        rng = random.Random(seed)
        sents = {s: rng.choice(C.SENTIMENTS) for s in rng.sample(C.SUBTOPICS, 1 + seed % 6)}
        body = _call(seed, sentiments=sents)
        assert C.negative_subtopics(body) == {s for s, v in sents.items() if v == "negative"}, body
    other = "Maya Okafor: Our old vendor's support was painfully slow, but that's a different product."
    assert C.negative_subtopics(other) == set()
    assert C.negative_subtopics("Maya Okafor: I wouldn't call your pricing a problem.") == set()


@pytest.mark.slow
def test_negative_opinions_implied_withdrawn_or_negated():
    implied = "Maya Okafor: We had to ask for a second demo of the integration because nothing synced."
    assert C.negative_subtopics(implied) == {"integration"}
    withdrawn = (
        "Maya Okafor: Your pricing is steep.\nLeon Weber: Noted.\n"
        "Maya Okafor: Now that I've seen the numbers, your pricing isn't really a concern anymore."
    )
    assert C.negative_subtopics(withdrawn) == set()
    assert C.negative_subtopics("Maya Okafor: I can't fault your support, and nobody here has complained.") == set()
    assert C.negative_subtopics("Maya Okafor: At my last company, support tickets sat for days.") == set()
    for seed in range(200):  # a positive or neutral subtopic is sometimes first voiced as a negative
        body = _call(seed, sentiments={"pricing": "neutral", "support": "negative"})
        assert C.negative_subtopics(body) == {"support"}, body


@pytest.mark.slow
def test_stage_shown_only_when_hinted():
    for seed in range(40):
        stage = C.STAGES[seed % 5]
        assert C.call_stage(_call(seed, stage=stage)) == stage
        assert C.call_stage(_call(seed, stage=None)) is None
    with pytest.raises(ValueError, match="unknown stage"):
        _call(0, stage="Prospecting")


def test_field_facts_are_the_detectors():
    body = _call(
        3, comps=["Korvex"], bant={**ALL_BANT, "Budget": False}, sentiments={"pricing": "negative"}, stage="Quote"
    )
    found = C.FIELD_FACTS[("VoiceCallTranscript__c", "TranscriptBody__c")](body)
    facts = {f for f, _ in found}
    assert {"competitor=Korvex", "negative=pricing", "stage=Quote", "Budget=unmet"} <= facts
    assert all(span in body for _, span in found)


def test_speakers_determinism_and_speed():
    body = _call(1, company=None, comps=["Korvex"], sentiments={"support": "positive"}, stage="Closed")
    assert all(line.startswith(("Leon Weber: ", "Maya Okafor: ")) for line in body.splitlines())
    assert _call(5, comps=["Korvex"], stage="Quote") == _call(5, comps=["Korvex"], stage="Quote")
    assert _call(5) != _call(6)
    random.seed(123)
    before = random.random()
    random.seed(123)
    _call(1, comps=["Korvex"])
    assert random.random() == before
    rng, t0 = random.Random(0), time.perf_counter()
    for _ in range(300):
        C.voice_call(
            rng,
            agent="A B",
            contact="C D",
            company="E",
            product="P",
            competitors=["Korvex"],
            bant={"Budget": True, "Need": False},
            sentiments={"pricing": "positive"},
            stage_hint="Quote",
        )
    assert (time.perf_counter() - t0) / 300 < 1e-3


@pytest.mark.slow
def test_sentences_rarely_repeat():
    """The text-variety measure on 1,500 calls: few masked sentences occur more than 5 times."""
    rng = random.Random(9)
    names = frozenset(
        tuple(n.split())
        for n in (*T.competitors(), "Leon", "Weber", "Maya", "Okafor", "Summit Labs", "Beacon Analytics Suite")
    )
    counts = Counter()
    for i in range(1500):
        body = _call(
            i,
            company=("Summit Labs", None)[i % 2],
            comps=rng.sample(T.competitors(), i % 3),
            bant={f: rng.random() < 0.6 for f in C.BANT},
            sentiments={s: rng.choice(C.SENTIMENTS) for s in rng.sample(C.SUBTOPICS, 3)},
            stage=(None, *C.STAGES)[i % 6],
        )
        counts.update(mask(s, names).lower() for s in sentences(body))
    repeated = sum(n for n in counts.values() if n > 5)
    assert repeated / sum(counts.values()) <= 0.05, counts.most_common(10)


@pytest.mark.parametrize("org", ["b2b", "b2c"])
def test_an_amount_drawn_from_its_texts_is_the_randrange_draw(org):
    lo, hi, step = C._AMOUNTS[org]
    a, b = random.Random(org), random.Random(org)
    for _ in range(3000):
        assert a.choice(C._AMOUNT_TEXTS[org]) == f"${b.randrange(lo, hi, step):,}"
    assert a.getstate() == b.getstate()

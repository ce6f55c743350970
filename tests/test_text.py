"""Prose generator: determinism, pool sizes, and that stages are visible (and only when intended) in
the generated text. Sales calls: tests/test_calls.py; service threads and policy breaches:
tests/test_threads.py."""

from __future__ import annotations

import itertools
import random
import re
import time

import pytest

from simulator.crm.generator import activities as A
from simulator.crm.generator import articles as AR
from simulator.crm.generator import records as R
from simulator.crm.generator import text as T
from simulator.crm.generator import threads as TH
from simulator.crm.generator import vocab
from simulator.crm.generator.grammar import overlaps
from simulator.crm.schema import STAGES
from tests.conftest import tiered

ORGS = ("b2b", "b2c")


def _chat(seed, org, breach=None, sentiment="neutral", product=None, issue=None):
    rng = random.Random(seed)
    prods, iss = T.products(org), T.issues(org)
    return TH.chat_transcript(
        rng,
        org=org,
        customer="Maya Okafor",
        customer_email="maya.okafor@example.com",
        agent="Leon Weber",
        product=product or prods[seed % len(prods)]["name"],
        issue=issue or iss[seed % len(iss)],
        breach=breach,
        sentiment=sentiment,
    )


def _emails(seed, org, breach=None):
    rng = random.Random(seed)
    prods, iss = T.products(org), T.issues(org)
    return TH.case_emails(
        rng,
        org=org,
        customer="Maya Okafor",
        customer_email="maya.okafor@example.com",
        agent="Leon Weber",
        agent_email="leon.weber@support.example",
        product=prods[seed % 60]["name"],
        issue=iss[seed % len(iss)],
        breach=breach,
    )


# ------------------------------------------------------------------------------------------ determinism


def test_determinism_same_seed_same_output():
    pol = TH.service_policies("b2c")[3]
    assert _chat(7, "b2c", pol, "negative") == _chat(7, "b2c", pol, "negative")
    assert _emails(7, "b2b") == _emails(7, "b2b")
    for fn in (T.person_name, T.company_name):
        assert [fn(random.Random(5)) for _ in range(3)] == [fn(random.Random(5))] * 3
    assert A.activity(random.Random(2), org="b2b", stage="Discovery", kind="task") == A.activity(
        random.Random(2), org="b2b", stage="Discovery", kind="task"
    )
    r1, r2 = random.Random(9), random.Random(9)
    assert TH.case_text(r1, product="X", issue=T.issues("b2c")[0], customer_first="Ana") == TH.case_text(
        r2, product="X", issue=T.issues("b2c")[0], customer_first="Ana"
    )
    assert R.account_description(random.Random(1), "b2b", "Energy") == R.account_description(
        random.Random(1), "b2b", "Energy"
    )
    for org in ORGS:
        assert T.products(org) == T.products(org)
        assert AR.faq_articles(org, T.products(org)) == AR.faq_articles(org, T.products(org))
        assert AR.internal_articles(org) == AR.internal_articles(org)
        assert TH.service_policies(org) == TH.service_policies(org)


def test_different_seeds_vary():
    chats = {_chat(s, "b2c", sentiment="neutral", product="Orbyt Phone S", issue=T.issues("b2c")[0]) for s in range(30)}
    assert len(chats) > 20
    assert len({T.company_name(random.Random(s)) for s in range(200)}) > 150


def test_no_global_random_use():
    random.seed(123)
    before = random.random()
    random.seed(123)
    _chat(1, "b2c", TH.service_policies("b2c")[0])
    _emails(1, "b2b")
    T.company_name(random.Random(0))
    assert random.random() == before


# ------------------------------------------------------------------------------------------ pools


def test_name_pools():
    assert len(set(vocab.FIRST_NAMES)) >= 150 and len(set(vocab.LAST_NAMES)) >= 150
    rng = random.Random(0)
    names = {T.person_name(rng) for _ in range(2000)}
    assert len(names) > 1800


def test_company_name_combinations():
    n = len(vocab.COMPANY_ROOTS) * len(vocab.COMPANY_DESCRIPTORS) * (1 + len(vocab.COMPANY_FORMS))
    assert n >= 5000
    rng = random.Random(0)
    assert len({T.company_name(rng) for _ in range(5000)}) > 3500


def test_industries():
    inds = T.industries()
    assert len(inds) >= 15 and len(set(inds)) == len(inds)
    assert T.industries() == inds


@pytest.mark.parametrize("org", ORGS)
def test_products(org):
    ps = T.products(org)
    assert len(ps) >= 60
    assert all(set(p) == {"name", "family", "description", "sku"} for p in ps)
    assert len({p["name"] for p in ps}) == len(ps)
    assert len({p["sku"] for p in ps}) == len(ps)
    assert 4 <= len({p["family"] for p in ps}) <= 6
    assert all(len(p["description"]) > 30 for p in ps)
    ps[0]["name"] = "mutated"
    assert T.products(org)[0]["name"] != "mutated"


def test_catalogs_differ_by_org():
    assert not {p["name"] for p in T.products("b2b")} & {p["name"] for p in T.products("b2c")}


@pytest.mark.parametrize("org", ORGS)
def test_issues(org):
    iss = T.issues(org)
    assert len(iss) >= 20 and len({i["name"] for i in iss}) == len(iss)
    assert all(set(i) == {"name", "description"} for i in iss)
    # safety words are reserved for the safety policy scenario
    for i in iss:
        low = (i["name"] + " " + i["description"]).lower()
        assert not any(w in low for w in ("smoke", "spark", "burning", "melt"))


def test_competitors_distinct_from_own_names():
    comps = T.competitors()
    assert len(set(comps)) >= 12
    own = set()
    for org in ORGS:
        for p in T.products(org):
            own.add(p["name"])
    rng = random.Random(1)
    companies = {T.company_name(rng) for _ in range(3000)}
    for c in comps:
        assert c not in own and c not in companies
        assert not any(c.lower() in x.lower() for x in own | companies)
        first_word = c.split()[0]
        assert first_word not in vocab.COMPANY_ROOTS


# ------------------------------------------------------------------------------------------ CPQ rules


def test_pricing_rule_article_states_rule():
    for seed in range(10):
        t, s, b = AR.pricing_rule_article(
            random.Random(seed), {"kind": "max_discount", "family": "Networking", "max_discount": 15}
        )
        assert "Networking" in t and "15%" in s and "15%" in b and "Networking" in b


def test_config_rule_article_states_rule():
    for seed in range(10):
        _, _, b = AR.config_rule_article(
            random.Random(seed), {"kind": "max_quantity", "product": "Corvid L7 Load Balancer", "max_quantity": 4}
        )
        assert "Corvid L7 Load Balancer" in b and " 4 " in b
        t, _, b = AR.config_rule_article(
            random.Random(seed), {"kind": "exclusive", "products": ["Sentrel F400 Firewall", "Sentrel F1200 Firewall"]}
        )
        assert "Sentrel F400 Firewall" in b and "Sentrel F1200 Firewall" in b and "Sentrel F400 Firewall" in t


# ------------------------------------------------------------------------------------------ knowledge


@pytest.mark.parametrize("org", ORGS)
def test_faq_articles(org):
    for prods in (T.products(org), []):
        faqs = AR.faq_articles(org, prods)
        assert len(faqs) >= 40
        assert all(set(f) == {"title", "summary", "body", "question", "answer"} for f in faqs)
        answers = [f["answer"] for f in faqs]
        assert len({a.lower() for a in answers}) == len(answers)
        for f in faqs:
            assert f["answer"] in f["body"]
            assert f["question"].endswith("?")
            assert len(f["answer"].split()) <= 8
            assert f["body"].count(".") >= 2  # a few sentences, with distractors
        assert len({f["title"] for f in faqs}) == len(faqs)


@pytest.mark.parametrize("org", ORGS)
def test_internal_articles_confidential_values(org):
    arts = AR.internal_articles(org)
    assert len(arts) >= 10
    public = " ".join(f["body"] for f in AR.faq_articles(org, T.products(org)))
    public += " ".join(p["body"] for p in TH.service_policies(org))
    seen = set()
    for a in arts:
        assert set(a) == {"title", "summary", "body", "confidential"}
        assert a["confidential"]
        for v in a["confidential"]:
            assert v in a["body"]
            assert v not in public
            assert v not in seen
            seen.add(v)


# ------------------------------------------------------------------------------------------ activities

OLD_KEYWORDS = {
    "Qualification": r"qualif|budget|intro",
    "Discovery": r"demo|discovery|needs analysis|requirement",
    "Quote": r"quote|proposal|pricing",
    "Negotiation": r"negotiat|legal|redline",
    "Closed": r"kickoff|onboarding|go-live",
}  # the old subjects' per-stage words


def _activities(stage, kind, org="b2b", n=300):
    rng = random.Random(f"{org}-{stage}-{kind}")
    return [A.activity(rng, org=org, stage=stage, kind=kind) for _ in range(n)]


@pytest.mark.parametrize("draws", tiered(300, 1500))
def test_activity_stage_rules_never_overlap(draws):
    rng = random.Random(4)
    rules = {k: tuple(f"{r}_{k}" for r in ("task", "event", "work")) for k in A.KEYS.values()}
    for k, own in rules.items():
        others = tuple(r for kk, rs in rules.items() if kk != k for r in rs)
        for rule in own:
            assert overlaps(A.GRAMMAR, rule, others, rng, draws) == [], rule
    assert overlaps(A.GRAMMAR, "note", tuple(r for rs in rules.values() for r in rs), rng, draws) == []


@pytest.mark.parametrize("draws", tiered(60, 300))
@pytest.mark.parametrize("org", ("b2b", "b2c"))
def test_activity_text_carries_exactly_its_stage(org, draws):
    for stage in STAGES:
        for kind in ("task", "event"):
            for subject, description in _activities(stage, kind, org, draws):
                assert A.stage_of(subject) == stage and A.stage_of(description) == stage, (subject, description)
                assert [f for f, _ in A.FIELD_FACTS[("Task", "Subject")](subject)] == [f"stage={stage}"]
                spans = A.FIELD_FACTS[(kind.title(), "Description")](description)
                assert [f for f, _ in spans] == [f"stage={stage}"] and spans[0][1] in description
    assert A.stage_of("Call the customer back") is None
    assert A.activity(random.Random(0), org=org, stage="Closed Won", kind="task") == A.activity(
        random.Random(0), org=org, stage="Closed", kind="task"
    )
    with pytest.raises(ValueError):
        A.activity(random.Random(0), org=org, stage="Prospecting", kind="task")


def test_activity_subjects_defeat_stage_keywords():
    """Subjects vary, often lack their stage's word and often name another stage's work, so the
    latest stage whose keyword a subject carries is its stage well under 2 times in 3 (it was always)."""
    right = total = 0
    for stage, org in itertools.product(STAGES, ("b2b", "b2c")):
        subjects = [s for s, _ in _activities(stage, "task", org)]
        assert len(set(subjects)) >= 0.9 * len(subjects)
        for s in subjects:
            found = [st for st in STAGES if re.search(OLD_KEYWORDS[st], s, re.I)]
            right += bool(found) and found[-1] == stage
            total += 1
    assert right / total < 0.4, right / total
    for rule in ("task", "event", "work"):
        assert all(A.GRAMMAR.count(f"{rule}_{k}") >= 1000 for k in A.KEYS.values())


# ------------------------------------------------------------------------------------------ misc text


def test_case_text_and_descriptions():
    iss = T.issues("b2c")[0]
    subj, desc = TH.case_text(random.Random(0), product="Orbyt Phone S", issue=iss, customer_first="Ana")
    assert subj and desc and ("Orbyt" in subj + desc or "Phone" in subj + desc)  # named in full or loosely
    assert R.account_description(random.Random(0), "b2c", None)
    d = R.account_description(random.Random(0), "b2b", "Healthcare")
    assert "healthcare" in d.lower()
    od = R.opportunity_description(random.Random(0), "Corvid C9000 Core Switch")
    assert "Corvid C9000 Core Switch" in od
    for seed in range(200):  # stage-neutral: names no stage
        assert not any(
            stage.lower() in R.opportunity_description(random.Random(seed), "Orbyt Phone S").lower() for stage in STAGES
        )


def test_speed():
    pol = TH.service_policies("b2c")[2]
    iss = T.issues("b2c")[0]
    rng = random.Random(0)
    t0 = time.perf_counter()
    for _ in range(2000):
        T.person_name(rng)
        T.company_name(rng)
        TH.case_text(rng, product="Orbyt Phone S", issue=iss, customer_first="Ana")
    small = (time.perf_counter() - t0) / 2000
    t0 = time.perf_counter()
    for _ in range(2000):
        A.activity(rng, org="b2b", stage="Quote", kind="task")
    assert (time.perf_counter() - t0) / 2000 < 150e-6  # a subject, a work sentence and notes from the grammar
    t0 = time.perf_counter()
    for _ in range(500):
        TH.chat_transcript(
            rng,
            org="b2c",
            customer="A B",
            customer_email="a.b@example.com",
            agent="C D",
            product="P",
            issue=iss,
            breach=pol,
            sentiment="neutral",
        )
    big = (time.perf_counter() - t0) / 500
    assert small < 100e-6 and big < 500e-6, (small, big)  # case text and chats: the threads grammar


# ------------------------------------------------------------------------------------------ records and articles


def _catalog_names() -> frozenset:
    """Product names, families and cities as word tuples (masked like the org's names)."""
    names = {p["name"] for o in ORGS for p in T.products(o)} | {p["family"] for o in ORGS for p in T.products(o)}
    return frozenset(tuple(n.split()) for n in names | set(T.CITIES))


def _repeated(texts) -> float:
    from benchmarks.text_variety import field_variety

    return field_variety(texts, masked=True, names=_catalog_names()).repeated_share


def test_record_descriptions_vary():
    """At scale-1 volumes no description field repeats sentences (before: 70-100% repeated)."""
    rng = random.Random(0)
    b2b, b2c = T.products("b2b"), T.products("b2c")
    assert _repeated([R.account_description(rng, "b2b", rng.choice(T.industries())) for _ in range(800)]) <= 0.10
    assert _repeated([R.account_description(rng, "b2c", None) for _ in range(3800)]) <= 0.10
    assert _repeated([R.opportunity_description(rng, rng.choice(b2b + b2c)["name"]) for _ in range(1000)]) <= 0.10
    lines = [[(rng.choice(b2c)["name"], rng.randint(1, 3))] for _ in range(1300)]
    assert _repeated([R.quote_description(rng, rng.randint(1, 3), rng.random() < 0.2, ls) for ls in lines]) <= 0.10
    assert _repeated([R.contract_description(rng, f"Acme {i} - {rng.choice(b2c)['name']}") for i in range(600)]) <= 0.10


def test_model_faqs_vary():
    """The model-number FAQs of one org repeat no title, summary or body sentence more than 5 times."""
    for org in ORGS:
        faqs = AR.faq_articles(org, T.products(org))
        for field in ("title", "summary", "body"):
            assert _repeated([f[field] for f in faqs]) <= 0.10, (org, field)


def test_rule_summaries_never_overlap():
    """A pricing, quantity or exclusivity summary is never read as another kind."""
    kinds = ("pricing_summary", "qty_summary", "excl_summary")
    slots = {
        "family": "Networking",
        "d": "15",
        "product": "Corvid L7 Load Balancer",
        "n": "4",
        "a": "Sentrel F400 Firewall",
        "b": "Orbyt Phone S",
    }
    for rule in kinds:
        others = tuple(k for k in kinds if k != rule)
        assert overlaps(AR.GRAMMAR, rule, others, random.Random(1), samples=500, **slots) == []


def test_rule_summary_facts():
    _t, s, _b = AR.pricing_rule_article(
        random.Random(0), {"kind": "max_discount", "family": "Software", "max_discount": 12.5}
    )
    assert AR.FIELD_FACTS[("Knowledge__kav", "Summary")](s) == [("max_discount=Software:12.5", s)]
    _t, s, _b = AR.config_rule_article(random.Random(0), {"kind": "exclusive", "products": ["A One", "B Two"]})
    assert AR.summary_facts(s) == [("exclusive=A One|B Two", s)]
    assert AR.summary_facts("What is the model number of the Orbyt Phone S?") == []


def _runs(text: str, n: int = 3) -> set:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.parametrize("org", ORGS)
def test_faq_asks_paraphrase_the_article(org):
    """Every way a customer asks an FAQ shares no 3-word run with its Summary or answer, holds no
    answer, and is read back as that FAQ (model-number FAQs: as the product's use)."""
    rng = random.Random(0)
    for f in AR.faq_articles(org, T.products(org)):
        product = next((p["name"] for p in T.products(org) if p["sku"] == f["answer"]), None)
        for _ in range(30):
            ask = AR.faq_ask(rng, f["question"], product)
            assert f["answer"].lower() not in ask.lower(), ask
            assert not _runs(ask) & (_runs(f["summary"]) | _runs(f["answer"])), (ask, f["summary"])
            kind, value = AR.faq_asked(ask)
            assert value == f["title"] if kind == "title" else R.product_fits(value, product), ask


def test_product_uses_are_not_catalogue_words():
    """What customers say they do with a product is no substring of any Name, Description or
    Family, and fits that product only."""
    catalog = [p for o in ORGS for p in T.products(o)]
    text = [v.lower() for p in catalog for v in (p["name"], p["description"], p["family"])]
    rng = random.Random(0)
    for p in catalog:
        for _ in range(20):
            use = R.use_phrase(rng, p["name"])
            assert not any(use.lower() in t for t in text), use
            assert [q["name"] for q in catalog if R.product_fits(use, q["name"])] == [p["name"]], use


def test_skipped_company_names_draw_what_the_names_would():
    for seed in range(200):
        written, skipped = random.Random(seed), random.Random(seed)
        for _ in range(seed % 7):
            T.company_name(written)
        T._skip_company_names(skipped, seed % 7)
        assert written.getstate() == skipped.getstate(), seed


def _reference_unique(rng, used: set, tries: int) -> str:
    """The loop CompanyNames.draw stands for: names until an unused one, then a suffix."""
    name = T.company_name(rng)
    for _ in range(tries):
        if name not in used:
            break
        name = T.company_name(rng)
    base, k = name, 2
    while name in used:
        name, k = f"{base} {k}", k + 1
    used.add(name)
    return name


@pytest.mark.parametrize("tries", [30, 40])
def test_unique_company_names_are_the_loops_also_once_every_name_is_taken(monkeypatch, tries):
    """A vocabulary of 15 names, all taken after a few dozen draws: from then on the retries' draws
    are skipped; names and random state stay the loop's."""
    monkeypatch.setattr(T.vocab, "COMPANY_ROOTS", ("Acme", "Bolt", "Cora"))
    monkeypatch.setattr(T.vocab, "COMPANY_DESCRIPTORS", ("Labs", "Works"))
    monkeypatch.setattr(T.vocab, "COMPANY_FORMS", ("Inc",))
    T._every_company_name.cache_clear()
    try:
        assert len(T._every_company_name()) == 3 * 2 * 2 + 3
        names, used = T.CompanyNames(tries), set()
        fast, slow = random.Random(tries), random.Random(tries)
        for i in range(300):
            if i % 50 == 7:  # a name taken elsewhere (a converted lead's company)
                names.add("Acme Labs 2")
                used.add("Acme Labs 2")
            assert names.draw(fast) == _reference_unique(slow, used, tries), i
            assert fast.getstate() == slow.getstate(), i
        assert not names._free  # (the skipping path was taken)
    finally:
        T._every_company_name.cache_clear()


def test_every_name_company_name_writes_is_in_the_set_of_names_it_can_write():
    """CompanyNames skips draws once that set is used up: a name outside it would make it skip too early."""
    rng, every = random.Random(5), T._every_company_name()
    assert all(T.company_name(rng) in every for _ in range(20000))

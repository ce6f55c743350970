"""Knowledge articles: pricing and configuration rules, public FAQs, internal-only articles.

Rule articles and model-number FAQs are written from one `Grammar`, so no sentence recurs across
an org. The rule a rule article states is read back from its Summary by `rule_of`, which uses
only the grammar's own patterns: every summary alternative of a rule kind names its slots in the
same order (pricing: family, discount; quantity: product, units; exclusive: a, b), so the
pattern's groups give the values whatever the wording (tests check the order and that the three
kinds' languages never overlap). `FIELD_FACTS` exposes the same detector to the model writer.
"""

from __future__ import annotations

import random
import re
from typing import Any, TypedDict

from simulator.crm.generator import records, vocab
from simulator.crm.generator.grammar import Grammar, LazyRegex
from simulator.crm.generator.text import ProductEntry

Rule = dict[str, Any]  # a rule as its label: {"kind", and its values}, JSON of the org's truth table


class Article(TypedDict):
    """A knowledge article's text."""

    title: str
    summary: str
    body: str


class Faq(Article):
    """A public FAQ: its summary is the question, `answer` a short phrase of the body."""

    question: str
    answer: str


class InternalArticle(Article):
    """An internal-only article and the confidential values in its body."""

    confidential: list[str]


NUMBER = r"\d+(?:\.\d+)?"
SKU = r"[A-Z]{2,5}-\d{4}"
SUMMARY_SLOTS = {"max_discount": ("family", "d"), "max_quantity": ("product", "n"), "exclusive": ("a", "b")}

_RULES = {
    # --- pricing rules (slots in order: family, d)
    "pricing_title": (
        "[Discount Policy|Discount Authority|Discount Cap|Pricing Guardrail|Discount Limit]: {family}",
        "{family} [Discount Authority|Discount Cap|Pricing Limits|Discount Rules]",
        "[Maximum|Allowed|Approved] Discount for {family} [Quotes|Deals|Quote Lines]",
    ),
    "pricing_summary": (
        "[Quote lines|Line items|Lines] for {family} products may carry a discount of at most {d}%.",
        "The [maximum|highest allowed|largest permitted] discount on {family} [quote lines|line items] is {d}%.",
        "{family} [lines|line items|products] [may not|must not|cannot] be discounted by more than {d}%.",
        "[No|Not a single] {family} quote line may [exceed|go beyond|carry more than] a {d}% discount.",
    ),
    "pricing_body": (
        "<pricing_scope> <pricing_limit> <pricing_consequence> <pricing_aside>",
        "<pricing_limit> <pricing_consequence> <pricing_scope>",
        "<pricing_scope> <pricing_limit> <pricing_aside>",
    ),
    "pricing_scope": (
        "This [policy|rule|guideline] [applies to|covers|governs] every quote that [includes|"
        "contains|lists] [products|items] from the {family} family.",
        "[Sales representatives|Account executives|Quote owners|Reps] [may|can] discount {family} "
        "[products|items] [within|inside] the limit [below|set here|of this policy].",
    ),
    "pricing_limit": (
        "The discount on any {family} [quote line|line item] may not exceed {d}%.",
        "[Maximum|Allowed|Permitted] discount for the {family} family: {d}% per line.",
        "{family} lines [are capped at|top out at|may go up to] a {d}% discount.",
    ),
    "pricing_consequence": (
        "A quote [above|over|beyond] that [cap|limit] [violates this policy|breaks this "
        "rule|is out of policy] and must [not be approved|be returned to its owner|be "
        "corrected before approval].",
        "[Reviewers|Approvers|Deal desk reviewers] must [reject|send back|decline] any "
        "[quote|proposal] [in which|where] a {family} line [carries|has|shows] more than "
        "that.",
    ),
    "pricing_aside": (
        "[Discounts on other families|Other product families|Other lines] are [governed|covered|"
        "handled] by their own [policies|rules|articles].",
        "Line totals are [calculated|computed|worked out] as quantity times unit price times one minus the discount.",
    ),
    # --- configuration rules (slots in order: product, n / a, b)
    "qty_title": (
        "[Configuration Rule|Quantity Rule|Config Limit]: {product} [Quantity Limit|Maximum|Cap]",
        "[Maximum|Allowed|Capped] Quantity for {product}",
        "{product} [Per-Quote|Quote] Quantity Cap",
    ),
    "qty_summary": (
        "{product} is limited to {n} units per quote.",
        "For {product}, a [quote|single quote] may include at most {n} units.",
        "{product} [may|can] appear on a quote with no more than {n} units.",
        "Quotes [may|can] carry {product} up to a quantity of {n} units.",
    ),
    "qty_body": (
        "<qty_limit> <qty_consequence> <qty_aside>",
        "<qty_consequence> <qty_limit> <qty_aside>",
        "<qty_limit> <qty_aside>",
    ),
    "qty_limit": (
        "A single quote may include at most {n} units of {product}.",
        "[Configuration limit|Supported size|Quote limit]: {product}, maximum quantity {n} per quote.",
        "No quote [may|can] list more than {n} units of {product}.",
    ),
    "qty_consequence": (
        "[Quotes|Proposals] [above|over|beyond] that quantity are invalid [configurations|"
        "setups] and must be [corrected|fixed|reworked] before approval.",
        "Any quote [that exceeds|over|beyond] [the|this] limit [violates this rule|is out of "
        "policy|cannot be approved].",
    ),
    "qty_aside": (
        "[Larger requirements|Bigger rollouts|Higher volumes] are handled through a [separate|"
        "dedicated] volume agreement.",
        "The limit reflects [supported deployment sizes|allocation constraints|what support can staff].",
    ),
    "excl_title": (
        "[Configuration Rule|Compatibility Rule]: {a} and {b} Are Mutually Exclusive",
        "[Incompatible|Conflicting] Products: {a} / {b}",
        "Do Not Combine {a} with {b}",
    ),
    "excl_summary": (
        "{a} and {b} must not appear on the same quote.",
        "{a} cannot be quoted together with {b}.",
        "[Never|Do not] combine {a} and {b} on one quote.",
        "A quote may contain {a} or {b}, [not both|but never both].",
    ),
    "excl_body": ("<excl_rule> <excl_consequence>", "<excl_consequence> <excl_rule>"),
    "excl_rule": (
        "{a} and {b} are mutually exclusive and must not appear on the same quote.",
        "[Compatibility rule|Support rule|Configuration rule]: {a} is not supported together with {b}.",
    ),
    "excl_consequence": (
        "A quote [containing|listing|with] both products is an invalid configuration and must "
        "be corrected [before approval|first]; [choose|keep|pick] one of the two.",
        "Quotes that include both [violate this rule|are out of policy], regardless of "
        "[quantities or discounts|the amounts|the other lines].",
    ),
    # --- model-number FAQs (slots: name, family, a)
    "model_title": (
        "[Finding|Locating|Where to Find|Reading] the Model Number [of|on] the {name}",
        "{name}: [Model Number|Model Code|Identifying Your Unit]",
        "[Model Number|Model Code] [for|of] the {name}",
    ),
    "model_summary": (
        "What is the model number of the {name}?",
        "Which model number does the {name} have?",
        "[Where|How] do I find the model number of [my|the] {name}?",
        "What model number [is printed on|identifies] the {name}?",
        "Under which model number [is the {name} sold|do parts for the {name} ship]?",
        "[Which|What] model number should I quote for the {name}?",
    ),
    "model_body": (
        "<model_states> <model_where> <model_aside>",
        "<model_states> <model_aside> <model_where>",
        "<model_where> <model_states> <model_aside>",
    ),
    "model_states": (
        "The model number of the {name} is {a}.",
        "You can identify the {name} by its model number, {a}.",
        "[Every|Each] {name} [carries|uses|ships with] the model number {a}.",
    ),
    "model_where": (
        "It is printed on the [label|sticker|plate] [on the underside|on the back|inside the "
        "battery door|under the stand] and on the [original packaging|box|receipt].",
        "[Look|Check] [on the underside|on the back|inside the battery door|on the box] for [the "
        "label|a sticker|a printed plate] that [shows|lists] it[ next to the serial number|].",
    ),
    "model_aside": (
        "[Our support team|Support agents|The parts desk] [asks|ask|will ask] for it [together with|"
        "along with|and] the serial number [when opening a case|when ordering parts|for warranty "
        "claims].",
        "[Accessories|Spare parts|Replacement parts] for other {family} products use different model numbers.",
        "The serial number is a separate [twelve|long]-character code [next to it|on the same label].",
    ),
}

_SLOTS = {"d": NUMBER, "n": NUMBER, "a": ".+?", "b": ".+?", "family": ".+?", "product": ".+?", "name": ".+?"}
GRAMMAR = Grammar(_RULES, _SLOTS)
# The same rules, each slot a capturing group: the groups of a match are the slots in order.
_READER = Grammar(_RULES, {k: f"({v})" for k, v in _SLOTS.items()})
_SUMMARY_RULES = {"max_discount": "pricing_summary", "max_quantity": "qty_summary", "exclusive": "excl_summary"}


def _whole(pattern: LazyRegex) -> LazyRegex:
    """`pattern` matching a whole text (use with .match)."""
    return LazyRegex(lambda: f"(?:{pattern.pattern})\\Z", re.S)


_SUMMARY_PATTERNS = {kind: _whole(_READER.pattern(rule)) for kind, rule in _SUMMARY_RULES.items()}


def _num(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _write(rng: random.Random, kind: str, **slots: object) -> tuple[str, str, str]:
    title, summary, body = (GRAMMAR.expand(rng, f"{kind}_{part}", **slots) for part in ("title", "summary", "body"))
    return title, summary, body


def pricing_rule_article(rng: random.Random, rule: Rule) -> tuple[str, str, str]:
    """(Title, Summary, Body) of a quote policy; rule = {"kind": "max_discount", "family", "max_discount"}."""
    return _write(rng, "pricing", family=rule["family"], d=_num(rule["max_discount"]))


def config_rule_article(rng: random.Random, rule: Rule) -> tuple[str, str, str]:
    """(Title, Summary, Body) of a configuration rule; rule = {"kind": "max_quantity", "product",
    "max_quantity"} or {"kind": "exclusive", "products": [a, b]}."""
    if rule["kind"] == "max_quantity":
        return _write(rng, "qty", product=rule["product"], n=_num(rule["max_quantity"]))
    if rule["kind"] == "exclusive":
        return _write(rng, "excl", a=rule["products"][0], b=rule["products"][1])
    raise ValueError(f"unknown configuration rule kind {rule['kind']!r}")


def summary_slots(summary: str, kind: str) -> dict[str, str] | None:
    """The slot values of a rule summary of `kind` (see SUMMARY_SLOTS), or None if it states none."""
    m = _SUMMARY_PATTERNS[kind].match(summary or "")
    if not m:
        return None
    return dict(zip(SUMMARY_SLOTS[kind], [g for g in m.groups() if g is not None]))


def rule_of(summary: str) -> Rule | None:
    """The rule (as its label: kind and values) a rule article's Summary states, or None."""
    for kind in SUMMARY_SLOTS:
        s = summary_slots(summary, kind)
        if s is None:
            continue
        if kind == "max_discount":
            return {"kind": kind, "family": s["family"], "max_discount": float(s["d"])}
        if kind == "max_quantity":
            return {"kind": kind, "product": s["product"], "max_quantity": float(s["n"])}
        return {"kind": kind, "products": [s["a"], s["b"]]}
    return None


def summary_facts(summary: str) -> list[tuple[str, str]]:
    """[(fact, matched text)] of a rule article's Summary: the rule it states, e.g.
    ("max_discount=Networking:15", ...), ("max_quantity=X:4", ...), ("exclusive=A|B", ...)."""
    rule = rule_of(summary)
    if rule is None:
        return []
    if rule["kind"] == "exclusive":
        value = "|".join(rule["products"])
    else:
        key = "family" if rule["kind"] == "max_discount" else "product"
        value = f"{rule[key]}:{_num(rule[rule['kind']])}"
    return [(f"{rule['kind']}={value}", summary)]


FIELD_FACTS = {("Knowledge__kav", "Summary"): summary_facts}

# --- knowledge: FAQs and internal articles

FAQS = {"b2b": vocab.B2B_FAQS, "b2c": vocab.B2C_FAQS}
INTERNAL = {"b2b": vocab.B2B_INTERNAL, "b2c": vocab.B2C_INTERNAL}
_MODEL_BODY = _whole(GRAMMAR.pattern("model_body"))


def model_faq(product: ProductEntry) -> Faq:
    """The model-number FAQ of a catalog product (its text fixed by the product's name)."""
    rng = random.Random(f"model-faq:{product['name']}")
    kw = {"name": product["name"], "family": product.get("family", ""), "a": product["sku"]}
    title, summary, body = (GRAMMAR.expand(rng, f"model_{part}", **kw) for part in ("title", "summary", "body"))
    return {"title": title, "summary": summary, "body": body, "question": summary, "answer": product["sku"]}


def model_answer(body: str) -> str | None:
    """The model number a model-number FAQ body states, or None for any other text."""
    if not _MODEL_BODY.match(body or ""):
        return None
    m = re.search(rf"\b{SKU}\b", body)
    return m.group(0) if m else None


def faq_articles(org: str, products: list[ProductEntry]) -> list[Faq]:
    """Public FAQs: [{"title", "summary", "body", "question", "answer"}], the answer a short
    phrase that appears in the body; at least 40."""
    out: list[Faq] = [
        {"title": title, "summary": question, "body": body.format(a=answer), "question": question, "answer": answer}
        for title, question, answer, body in FAQS[org]
    ]
    seen = {f["answer"] for f in out}
    for p in products[::5][:14]:  # every 5th product, so each family gets some
        if p.get("sku") and p["sku"] not in seen:
            seen.add(p["sku"])
            out.append(model_faq(p))
    return out


def internal_articles(org: str) -> list[InternalArticle]:
    """Internal-only articles: [{"title", "summary", "body", "confidential": [values in body]}], at least 10."""
    return [{"title": t, "summary": s, "body": b, "confidential": list(c)} for t, s, b, c in INTERNAL[org]]


PAIRED = {"b2b": vocab.B2B_PAIRED, "b2c": vocab.B2C_PAIRED}  # internal title -> (FAQ title, public version)


def draw_visibility(rng: random.Random, org: str) -> dict[str, tuple[bool, bool]]:
    """Per internal article of a pair: whether it is published (as its `public_version`) and whether
    its FAQ partner is, each an independent even chance in every org."""
    return {title: (rng.random() < 0.5, rng.random() < 0.5) for title in PAIRED[org]}


def public_version(org: str, title: str) -> Faq:
    """The customer-facing article written in place of internal article `title` when it is
    published: {"title", "summary", "body", "question", "answer"}, like `faq_articles`' items."""
    new_title, question, answer, body = PAIRED[org][title][1]
    return {
        "title": new_title,
        "summary": question,
        "body": body.format(a=answer),
        "question": question,
        "answer": answer,
    }


def faq_templates(org: str) -> list[tuple[str, str, str, str]]:
    """(Title, question, answer, body template) of every topical FAQ an org of `org` may publish."""
    return [*FAQS[org], *(version for _faq, version in PAIRED[org].values())]


# --- how customers ask the FAQs: their situation, in other words than the article


def _ask_rule(title: str) -> str:
    return records.rule_name("ask", title)


_ASK_RULES = {
    **{_ask_rule(t): (ask,) for t, ask in vocab.FAQ_ASKS.items()},
    "model_ask": (
        "[The parts desk|A warranty form|Your support form|The repair shop] [wants|asks for|"
        "needs] the [identifying|catalogue|product] code of the [thing|gadget|unit|kit] "
        "[I|we] use to {use}. [Which code is that|What should I write there|Can you tell "
        "me what it is]?",
    ),
}
ASKS = Grammar(_ASK_RULES, {"use": ".+?"})
_ASK_PATTERNS = {t: _whole(ASKS.pattern(_ask_rule(t))) for t in vocab.FAQ_ASKS}
_MODEL_ASK = _whole(Grammar(_ASK_RULES, {"use": "(.+?)"}).pattern("model_ask"))
# The Summary (question) of each topical FAQ -> its Title.
FAQ_TITLES = {question: title for faqs in FAQS.values() for title, question, _a, _b in faqs}


def faq_ask(rng: random.Random, question: str, product: str | None = None) -> str:
    """How a customer asks the FAQ whose Summary is `question`; for a model-number FAQ, `product`
    is the product it is about, which the customer names by what they do with it."""
    if question in FAQ_TITLES:
        return ASKS.expand(rng, _ask_rule(FAQ_TITLES[question]))
    if product is None:
        raise ValueError(f"{question!r} is no topical FAQ: its ask needs the product it is about")
    return ASKS.expand(rng, "model_ask", use=records.use_phrase(rng, product))


def faq_asked(ask: str) -> tuple[str, str] | None:
    """What a customer's question (a `faq_ask`) asks about: ("title", the FAQ's Title), or
    ("use", what they do with the product whose model number they want); None for other text."""
    for title, pattern in _ASK_PATTERNS.items():
        if pattern.match(ask):
            return "title", title
    m = _MODEL_ASK.match(ask)
    return ("use", m.group(1)) if m else None

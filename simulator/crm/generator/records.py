"""Prose of sales records: Account, Opportunity, Quote and Contract descriptions (issue 12, item 1).

Written from one `Grammar`, so that no sentence recurs across an org (each sentence rule has
thousands of derivations; `benchmarks/text_variety.py` measures it). These descriptions carry no
label: opportunity descriptions are deliberately stage-neutral (the stage must be inferred from
activities and calls, and a description naming it would contradict mislabelled opportunities),
so this module exports no FIELD_FACTS.

It also owns how customers describe the products they bought (`use_phrase`, `product_fits`):
by what they do with them, never by catalogue words; the named-entity task reads it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import cache

from simulator.crm.generator import vocab
from simulator.crm.generator.grammar import Grammar, LazyRegex, by_org
from simulator.crm.generator.text import CITIES

_RULES: dict[str, Sequence[str]] = {
    # --- B2B accounts
    "b2b_account": (
        "<b2b_intro> <b2b_focus> <b2b_rel>",
        "<b2b_intro> <b2b_rel> <b2b_dept>",
        "<b2b_intro> <b2b_dept> <b2b_focus>",
        "<b2b_focus> <b2b_intro> <b2b_rel>",
    ),
    "b2b_intro": (
        "<a_size> {industry_l} [company|firm|business|organization|group|operator] [headquartered|based|"
        "rooted] in {city}[, with <reach>|].",
        "[Based in|Headquartered in|Run out of|Operating from] {city}, the [company|firm|business] [works in|operates "
        "in|sells into|serves customers in] {industry_l}[, <reach_short>|].",
    ),
    "a_size": (
        "[A mid-sized|A fast-growing|A family-owned|A publicly traded|A privately held|A regional|"
        "A multinational|A venture-backed|An employee-owned|A decades-old|A lean|A growing]",
    ),
    "reach": (
        "[operations|sites|offices|plants|warehouses|clinics|branches] [across|in|spread over] [three regions|"
        "the Midwest|both coasts|North America and Europe|five states|the Southeast|the Pacific Northwest|"
        "a dozen cities|two countries|most of the Sun Belt]",
    ),
    "reach_short": (
        "[serving|selling into|present in|expanding across] [three regions|the Midwest|both coasts|"
        "five states|the Southeast|a dozen cities|two countries|the mountain states]",
    ),
    "b2b_focus": (
        "[Currently|Right now|This year|Over the next [two|three] years|For the coming fiscal year|Since last "
        "spring] [the company is|the account is|they are|leadership is|the team is] [focused on|prioritizing|"
        "investing in|putting money into|busy with|planning for] [modernizing|consolidating|securing|replacing|"
        "expanding|automating|simplifying|auditing] [its|their] [data center|network|IT infrastructure|backup "
        "estate|branch offices|security tooling|analytics stack|vendor list|help desk|cloud footprint].",
        "[The company|The account|The business] is [known|recognised|respected|noted] for [a lean IT team|a cautious "
        "buying process|fast decisions|a strong engineering culture|heavy use of managed services|strict compliance "
        "reviews|long vendor relationships] and [relies on partners|values references|reads every contract line|"
        "prefers pilots first|likes bundled support|buys in quarterly cycles].",
    ),
    "b2b_rel": (
        "[Customer|Client|Buying from us|On our books|Working with us] since {year}, [with <contracts>|"
        "[first|originally] [buying|signed] [through a partner|after a trade show|via a tender|after a pilot|"
        "on a referral]].",
        "[A long-standing|A relatively new|A growing|A steady|A quiet but loyal|A high-potential] [account|"
        "customer|client] [that is still ramping up|with several active contracts|that renews every year|that "
        "has expanded spend since {year}|that serves as a reference in the region|with a renewal due later "
        "this year|that pays on time|that asks for roadmap briefings].",
    ),
    "contracts": (
        "[one|two|three|several|a handful of] [active|running|signed] [contracts|agreements|"
        "subscriptions|support plans]",
    ),
    "b2b_dept": (
        "[Primary|Main|Day-to-day|Key|Most] [contacts sit|contacts work|conversations happen|decisions start] "
        "in [IT operations|procurement|the office of the CIO|facilities|finance|engineering|security|the "
        "network team][, with [finance|legal|procurement|the COO|security|the board] [also involved|weighing "
        "in|signing off|kept informed]|].",
    ),
    # --- B2C accounts
    "b2c_account": (
        "<b2c_tenure> <b2c_contact> <b2c_habit>",
        "<b2c_tenure> <b2c_habit>",
        "<b2c_habit> <b2c_contact>",
        "<b2c_member> <b2c_habit> <b2c_contact>",
        "<b2c_member> <b2c_tenure>",
    ),
    "b2c_tenure": (
        "[Customer|Shopping with us|Buying from us|A regular|On file] since {year}[, [mostly|usually|mainly|"
        "often] [buying|ordering|shopping for|picking up] {family} [products|items|gear|things|purchases] "
        "[online|in store|through the app|by phone|on sale|as gifts]|, [first|originally] [signed up|joined] "
        "[at a store event|through a friend|for a discount|after a delivery|during a holiday sale]].",
        "[Mostly|Usually|Mainly|Often] [buys|orders|shops for|picks up] {family} [products|items|gear] "
        "[online|in store|through the app|during sales|as gifts|for the whole household][ and [sometimes|"
        "occasionally|now and then|rarely] [other categories|accessories|refurbished items|bundles|warranty "
        "add-ons]|].",
    ),
    "b2c_contact": (
        "[Prefers|Likes|Asks for|Would rather get|Wants] [contact|updates|order news|follow-ups|reminders] "
        "[by|via|over] [email|phone|text message|chat][ [in the evenings|on weekdays|on weekends|during work "
        "hours|before noon|after six|at lunchtime]|][, [not|never|rarely] [by|via] [phone|mail|text|email]|].",
        "[Best reached|Easiest to reach|Usually answers|Responds fastest] [by|via|over] [email|phone|text "
        "message|chat] [in the evenings|on weekdays|on weekends|before noon|after six|at lunchtime|on the "
        "commute|between errands][ and [rarely|never|only sometimes] [picks up|replies] [otherwise|on "
        "Mondays|late at night]|].",
    ),
    "b2c_habit": (
        "[Usually|Often|Sometimes|Regularly|Now and then|Almost always] [leaves reviews|writes a review|rates "
        "the product|posts photos|answers the survey] [after a purchase|for new gear|on the website|within a "
        "week of delivery|when something breaks|for bigger items].",
        "[Often|Usually|Sometimes|Regularly] [buys|orders|shops for] gifts [around the holidays|for family "
        "birthdays|in late autumn|before school starts|for friends|in the spring sales][, [paying|checking out] "
        "[with points|by card|with a gift card|in installments]|].",
        "[Has registered|Registered|Keeps|Manages|Set up] [several|two|three|a few|four|five] [devices|"
        "products|gadgets] in the app[ and [checks it daily|turns on every update|shares access with family|"
        "rarely opens it|keeps notifications off|uses the energy reports]|][, [mostly|all] [at home|in one "
        "room|across two homes|for the kids]|].",
        "[Prefers|Always picks|Tends to choose|Often pays for|Usually asks for] [expedited|standard|weekend|"
        "in-store pickup|scheduled|contact-free|evening] [shipping|delivery|drop-off][ [on large orders|for "
        "gifts|when in a hurry|for heavy items|to a work address|with a signature]|].",
        "[Opted out of|Signed up for|Unsubscribed from|Reads|Ignores|Clicks through] [marketing emails|"
        "product update emails|the newsletter|sale alerts|restock notices|price drop alerts][ [last year|a "
        "while ago|recently|in {year}|after a bad experience|during a sale]|][ and [prefers|asks for|expects] "
        "[fewer messages|plain receipts|app notifications]|].",
        "[Occasionally|Sometimes|Once|Twice|Recently] [used|tried|asked about|signed up for] the [trade-in "
        "program|recycling service|price match|extended warranty|assembly service|installation visit][ [for "
        "an old phone|for a laptop|for a speaker|for a kitchen appliance|for a treadmill|for a camera]|][ and "
        "[liked it|found it slow|recommended it|asked for a refund of the fee]|].",
    ),
    "b2c_member": (
        "[Gold|Silver|Platinum|Basic] [rewards|loyalty|club] member [since {year}|for [two|three|"
        "four|several|a few] years|as of {year}][, [close to|well past|just short of|a long way "
        "from] the next tier| and [saving|spending|collecting] points [for a big purchase|on "
        "small orders|without redeeming them|for gift cards]|, [earning|racking up] [double|bonus|"
        "extra] points [on weekends|on app orders|in the spring sales]].",
    ),
    # --- opportunities (stage-neutral)
    "opportunity": ("<opp_driver> <opp_detail>", "<opp_detail> <opp_driver>", "<opp_driver>"),
    "opp_driver": (
        "[The account|The customer|The buyer|Their team|This client] [is looking at|is evaluating|wants|is "
        "considering|asked about|has an eye on] the {product} to {goal}.",
        "{product} [deal|opportunity|purchase|order|interest][;|:|, where] the [main|real|biggest|stated] "
        "[driver|reason|goal|motive] is [the need|a plan|a push] to {goal}.",
    ),
    "b2b_goal": (
        "[replace|retire|refresh|upgrade] [aging|end-of-life|unreliable|slow|mismatched] [equipment|"
        "hardware|tooling|systems] [at headquarters|in the branch offices|in the data center|at the new "
        "site|across regions]",
        "[consolidate vendors|meet new compliance requirements|improve uptime|cut licence costs|"
        "support a new site|standardize tooling|shorten recovery times|reduce manual work] [before the "
        "next audit|this fiscal year|ahead of the busy season|for customer-facing systems|across "
        "regional offices|without adding headcount]",
    ),
    "b2c_goal": (
        "[upgrade|replace] [an older model|a broken unit|a hand-me-down|something that stopped working|"
        "a first-generation device] [at home|for the kids|for the office|before a move|for travel]",
        "[set up a home office|get back into a fitness routine|buy a gift for a family member|furnish "
        "a new apartment|cook more at home|make mornings easier|stay connected on trips] [this season|"
        "before the holidays|on a budget|after a move|for the new year|without fuss]",
    ),
    "opp_detail": (
        "[Referred by|Introduced by|Pointed to us by|Heard about us from] [an existing customer|a partner|a "
        "former colleague|a friend|a reseller|an online review|a trade show contact] [last month|this spring|"
        "a while back|after a conference|during a product launch|over lunch].",
        "[Came in|Arrived|Reached out|Got in touch] [through|after|via] [the spring webinar series|a "
        "newsletter promotion|a showroom visit|a trade show|the website chat|an online ad|a partner event].",
        "<deciders> [are involved|have a say|want to weigh in|are comparing options][ and [want|expect|"
        "asked for] [a bundle|a demo|references|a payment plan|a support plan|a side-by-side comparison]|].",
        "[More sites|Further orders|A second unit|Add-ons|A larger rollout] [may|could|might] follow if "
        "[the first rollout|the pilot|the first purchase|delivery|setup] goes [well|smoothly|to plan].",
    ),
    # --- quotes and contracts
    "quote": ("<quote_head>: {lines}. <quote_note>", "<quote_note> <quote_head>: {lines}."),
    "quote_head": (
        "[Option|Proposal|Pricing|Offer|Draft] {n}{alt} [for|covering|with|listing] {k} [product|"
        "line|item|position]{s}",
    ),
    "quote_alt": (
        " as an alternative",
        " (alternative)",
        ", alternative option",
        ", second variant",
        ", another option",
    ),
    "quote_note": (
        "[Prepared|Drafted|Put together|Built|Revised] [after|following] [the call|a call|the demo|a "
        "demo|the site visit|a site visit|the request|an email exchange|the meeting] [with|from] "
        "<quote_party>[; [prices|terms|quantities|dates] [to be confirmed|as "
        "discussed|from the current price book|subject to review]|].",
    ),
    "contract": (
        "[Agreement|Contract|Signed agreement|Terms|Master agreement] [for|covering|governing|behind] "
        "{opportunity}[,|;] [signed|countersigned|executed|agreed] [after|following] "
        "<contract_review>.",
        "[Covers|Governs|Records|Formalises] [the deal|the purchase|the order|the terms] [of|for|behind] "
        "{opportunity}[, [renewable|reviewed|renegotiated] [yearly|at term end|on request]|].",
    ),
}

# Alternatives that fit one org only: who decides and reviews in a business, in a household.
_ORG_RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "b2b": {
        "deciders": ("[IT and finance|Two departments|Several teams|Legal and procurement|Operations and IT]",),
        "quote_party": ("[the buyer|their team|procurement|finance|the project lead]",),
        "contract_review": (
            "[a short|a long|the|a smooth|a careful] [review|legal review|procurement review|approval cycle]",
            "[a short|a long|a smooth|a careful] round of edits",
        ),
    },
    "b2c": {
        "deciders": (
            "[Both partners|Two family members|The buyer and their partner|Several family members|"
            "The buyer and a parent|Two housemates|The buyer's grown-up children]",
        ),
        "quote_party": ("[the buyer|the customer|the customer and their partner]",),
        "contract_review": ("[a short|a quick|a careful] [review|read-through|round of questions]",),
    },
}
_RULES, GRAMMAR, _WRITERS = by_org(_RULES, _ORG_RULES)
_B2C_FAMILIES = tuple(vocab.B2C_CATALOG)
_B2C_PRODUCTS = frozenset(name for _, (_, items) in vocab.B2C_CATALOG.items() for name, _ in items)


def account_description(rng: random.Random, org: str, industry: str | None) -> str:
    """An account's Description: a company profile (b2b with an industry) or a shopper profile."""
    year = rng.randint(2012, 2023)
    if org == "b2c" or not industry:
        return GRAMMAR.expand(rng, "b2c_account", year=year, family=rng.choice(_B2C_FAMILIES))
    return GRAMMAR.expand(
        rng, "b2b_account", industry=industry, industry_l=industry.lower(), city=rng.choice(CITIES), year=year
    )


def opportunity_description(rng: random.Random, product: str) -> str:
    """An opportunity's Description: what the buyer wants `product` for (never its stage)."""
    org = _org_of(product)
    goal = GRAMMAR.expand(rng, f"{org}_goal")
    return _WRITERS[org].expand(rng, "opportunity", product=product, goal=goal)


def quote_description(rng: random.Random, number: int, alternative: bool, lines: list[tuple[str, int]]) -> str:
    """A quote's Description: its number, whether it is an alternative option, and its lines."""
    alt = GRAMMAR.expand(rng, "quote_alt") if alternative else ""
    listed = ", ".join(_quote_line(rng, name, q) for name, q in lines)
    writer = _WRITERS[_org_of(lines[0][0] if lines else "")]
    return writer.expand(rng, "quote", n=number, alt=alt, k=len(lines), s="" if len(lines) == 1 else "s", lines=listed)


def _quote_line(rng: random.Random, name: str, quantity: int) -> str:
    return rng.choice(
        (f"{quantity} x {name}", f"{name} ({quantity})", f"{quantity} units of {name}", f"{name} x{quantity}")
    )


def contract_description(rng: random.Random, opportunity: str) -> str:
    """A contract's Description: the deal it formalises (an opportunity named "<account> - <product>")."""
    return _WRITERS[_org_of(opportunity.rpartition(" - ")[2])].expand(rng, "contract", opportunity=opportunity)


def _org_of(product: str) -> str:
    return "b2c" if product in _B2C_PRODUCTS else "b2b"


# --- how customers describe a product: by what they do with it


def rule_name(prefix: str, text: str) -> str:
    """A grammar rule name for `text` (a product name, an article title)."""
    return "_".join((prefix, *re.findall(r"[a-z0-9]+", text.lower())))


def _use_rule(product: str) -> str:
    return rule_name("use", product)


USES = Grammar({_use_rule(name): (phrase,) for name, phrase in vocab.PRODUCT_USES.items()})


def use_phrase(rng: random.Random, product: str) -> str:
    """What a customer does with `product`, in their words (completes "something I use to ...")."""
    return USES.expand(rng, _use_rule(product))


@cache
def _use_pattern(product: str) -> LazyRegex | None:
    rule = _use_rule(product)
    return USES.pattern(rule) if rule in USES else None


def product_fits(use: str, product: str) -> bool:
    """Whether `use` (a `use_phrase`) is something customers do with `product`."""
    pattern = _use_pattern(product)
    return bool(pattern and pattern.fullmatch(use))

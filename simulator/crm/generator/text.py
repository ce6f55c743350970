"""Prose for the generated org: names, catalogs, policies, FAQs, emails, chats, call transcripts.

Every function is pure: randomness comes only from the `rng` argument (random.Random); the
functions without `rng` return the same data on every call. Templates and catalogs are built
once at import, so each call is a handful of `rng.choice` + `str.format` operations.

Phrase banks that later tasks must recognise are exported with their *markers* (the longest
literal chunk of each template, which appears verbatim in every rendering of that template):

- POLICY_BREACH_PHRASES[key] / POLICY_BREACH_MARKERS[key]: agent sentences that breach a
  service policy. A transcript or email thread breaches policy `key` iff it contains one of
  POLICY_BREACH_MARKERS[key]; `breach_keys(text)` returns the keys found.
- VERIFY_EXCHANGES / EMAIL_VERIFY_EXCHANGES: each identity request of an agent and the customer
  replies that answer it as `policy_rules.IDENTITY` requires (the email on file and the order
  number or billing ZIP); every conversation without a verify_identity breach holds one.
  Policy numbers (refund and goodwill credit limits) come from `policy_rules.LIMITS`.
- BANT_PHRASES[factor][met] / BANT_MARKERS[factor][met]: contact sentences in voice calls.
- SUBTOPIC_PHRASES[subtopic][sentiment] / SUBTOPIC_MARKERS[...]: contact opinions in voice calls.
- STAGE_PHRASES[stage] / STAGE_MARKERS[stage]: what a voice call shows about the deal's stage.
"""

from __future__ import annotations

import random
import string

from simulator.crm.generator import vocab
from simulator.crm.generator.policy_rules import LIMITS, verification_pairs

# ---------------------------------------------------------------------------------------------
# helpers


def _markers(templates) -> tuple[str, ...]:
    """Longest literal (placeholder-free) chunk of each template, stripped."""
    out = []
    for t in templates:
        chunks = [lit for lit, _f, _s, _c in string.Formatter().parse(t)]
        out.append(max(chunks, key=len).strip())
    return tuple(out)


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_CITIES = ("Tucson", "Raleigh", "Spokane", "Madison", "Boise", "Savannah", "Omaha", "Fresno", "Dayton",
           "Knoxville", "Reno", "Albany", "Lubbock", "Eugene", "Tulsa", "Provo", "Duluth", "Mobile")
_STREETS = ("Birch Lane", "Elm Court", "Harbor Road", "Willow Way", "Oak Street", "Cedar Avenue",
            "Sycamore Drive", "Lakeview Terrace", "Pine Hollow Road", "Quail Run")
_MAIL_DOMAINS = ("mailbox.com", "inboxly.net", "postmail.org", "fastmail.example", "homenet.com")
_WINDOWS = ("3 to 5 business days", "2 to 4 business days", "4 to 6 business days", "5 to 7 business days")


def _first(name: str) -> str:
    return name.split(" ", 1)[0] if name else name


def _lc(s: str) -> str:
    """Lower-case the first letter unless the word is an acronym or mixed case ("Wi-Fi", "API")."""
    if len(s) > 1 and s[0].isupper() and s[1].islower():
        return s[0].lower() + s[1:]
    return s


def _date(rng: random.Random) -> str:
    return f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}"


def _order_no(rng: random.Random) -> str:
    return f"{rng.randint(100000, 999999):08d}"


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _other_customer(rng: random.Random) -> tuple[str, str, str]:
    f, l = rng.choice(vocab.FIRST_NAMES), rng.choice(vocab.LAST_NAMES)
    email = f"{f.lower()}.{l.lower().replace(chr(39), '')}@{rng.choice(_MAIL_DOMAINS)}"
    phone = f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}"
    return f"{f} {l}", email, phone


def _issue_sentence(issue: dict) -> str:
    """The issue description in a customer's voice ("The product ..." -> "It ...")."""
    d = issue.get("description", "") or issue.get("name", "")
    if d.startswith("The product "):
        return "It " + d[len("The product "):]
    return d


# ---------------------------------------------------------------------------------------------
# names, companies, industries

_COMPANY_PATTERNS = (0, 0, 1, 1, 1, 2)


def person_name(rng: random.Random) -> tuple[str, str]:
    return rng.choice(vocab.FIRST_NAMES), rng.choice(vocab.LAST_NAMES)


def company_name(rng: random.Random) -> str:
    root = rng.choice(vocab.COMPANY_ROOTS)
    desc = rng.choice(vocab.COMPANY_DESCRIPTORS)
    p = rng.choice(_COMPANY_PATTERNS)
    if p == 0:
        return f"{root} {desc}"
    if p == 1:
        return f"{root} {desc} {rng.choice(vocab.COMPANY_FORMS)}"
    return f"{root} {rng.choice(vocab.COMPANY_FORMS)}"


def industries() -> list[str]:
    return list(vocab.INDUSTRIES)


# ---------------------------------------------------------------------------------------------
# catalogs

def _build_products(catalog: dict) -> tuple[dict, ...]:
    out = []
    for fam_i, (family, (prefix, items)) in enumerate(catalog.items()):
        for i, (name, desc) in enumerate(items):
            out.append({"name": name, "family": family, "description": desc,
                        "sku": f"{prefix}-{(fam_i + 1) * 1000 + (i + 1) * 10}"})
    return tuple(out)


_PRODUCTS = {"b2b": _build_products(vocab.B2B_CATALOG), "b2c": _build_products(vocab.B2C_CATALOG)}
_PRODUCT_ORG = {p["name"]: org for org, ps in _PRODUCTS.items() for p in ps}
_ISSUES = {"b2b": vocab.B2B_ISSUES, "b2c": vocab.B2C_ISSUES}


def _org(org: str) -> str:
    o = (org or "b2c").lower()
    if o not in ("b2b", "b2c"):
        raise ValueError(f"unknown org type {org!r} (expected 'b2b' or 'b2c')")
    return o


def products(org: str) -> list[dict]:
    """The product catalog: [{"name", "family", "description", "sku"}], at least 60."""
    return [dict(p) for p in _PRODUCTS[_org(org)]]


def issues(org: str) -> list[dict]:
    """Issue types: [{"name", "description"}], at least 20."""
    return [{"name": n, "description": d} for n, d in _ISSUES[_org(org)]]


def competitors() -> list[str]:
    """Competitor company names mentioned in sales calls, at least 12."""
    return list(vocab.COMPETITORS)


# ---------------------------------------------------------------------------------------------
# cases

_CASE_SUBJECTS = (
    "{issue} - {product}", "{product}: {issue_l}", "{issue} on {product}", "Problem with {product} ({issue_l})",
    "{product} - {issue_l}", "Help needed: {issue_l} on {product}",
)
_CASE_DESCRIPTIONS = (
    "{cf} reports that their {product} has a problem: {issue_s} Customer would like it resolved as soon as possible.",
    "Customer {cf} contacted support about the {product}. {issue_s} First noticed {when}.",
    "{issue_s} Reported by {cf} for the {product}, {when}. Customer has {tried}.",
    "{cf} says: \"{issue_s}\" Product: {product}. Customer has {tried}.",
    "Issue reported by {cf}: {issue_l} on the {product}. {issue_s} Started {when}.",
)
_WHEN = ("a few days ago", "last week", "right after setup", "after the latest update", "this morning",
         "about two weeks after delivery", "over the weekend", "yesterday")
_TRIED = ("already restarted it once", "not tried any troubleshooting yet", "checked the manual without success",
          "tried reconnecting it", "not changed any settings")


def case_text(rng: random.Random, *, product: str, issue: dict, customer_first: str) -> tuple[str, str]:
    """(Subject, Description) of a case about `product` reporting `issue`."""
    name = issue["name"]
    kw = {"product": product, "issue": name, "issue_l": _lc(name), "cf": customer_first,
          "issue_s": _issue_sentence(issue), "when": rng.choice(_WHEN), "tried": rng.choice(_TRIED)}
    return rng.choice(_CASE_SUBJECTS).format(**kw), rng.choice(_CASE_DESCRIPTIONS).format(**kw)


# ---------------------------------------------------------------------------------------------
# service policies

SERVICE_POLICY_KEYS = (
    "verify_identity", "no_refund_without_approval", "no_delivery_date_promise", "troubleshoot_before_replacement",
    "protect_customer_privacy", "escalate_safety_issues", "goodwill_credit_limit", "no_payment_card_details",
    "no_unauthorized_warranty_extension", "no_competitor_referral",
)

_ORG_POLICY_NUMBERS = {
    "b2c": {**LIMITS["b2c"], "warranty": "1 year", "who": "customer", "order": "order number"},
    "b2b": {**LIMITS["b2b"], "warranty": "3 years", "who": "customer contact",
            "order": "order or purchase order number"},
}

_POLICY_TEXT = {
    "verify_identity": (
        "Identity Verification Before Discussing Orders",
        "Verify the {who}'s identity with two identifiers before discussing any order or account detail.",
        "Before discussing any order, shipment, payment or account detail, the agent must verify the {who}'s "
        "identity by confirming two identifiers: the email address on file and either the {order} or the billing "
        "ZIP code. Until both identifiers match, the agent must not read out, confirm or describe order details. "
        "This applies to chat, email and phone."),
    "no_refund_without_approval": (
        "Refund Approval Threshold",
        "Refunds above ${refund:,} require supervisor approval before they are promised or processed.",
        "Agents may approve refunds of up to ${refund:,} per case on their own. Any refund above ${refund:,} requires "
        "written supervisor approval before it is promised, processed or described to the {who} as approved. For "
        "larger amounts, the agent submits the request and tells the {who} it is pending approval."),
    "no_delivery_date_promise": (
        "No Guaranteed Delivery Dates",
        "Never promise a specific delivery date; share only the carrier's estimated window.",
        "Agents must never promise or guarantee a specific delivery or arrival date for an order, replacement or "
        "part. Delivery depends on the carrier, so agents may only share the carrier's estimated delivery window and "
        "must present it as an estimate (for example, \"3 to 5 business days\")."),
    "troubleshoot_before_replacement": (
        "Troubleshooting Before Replacement",
        "Walk the {who} through at least one documented troubleshooting step before offering a replacement.",
        "Before offering, approving or shipping a replacement unit, the agent must guide the {who} through at least "
        "one documented troubleshooting step (restart or power cycle, firmware update, reset, or a cable and "
        "connection check) and record the result. Replacements are offered only when troubleshooting does not "
        "resolve the issue."),
    "protect_customer_privacy": (
        "Protecting Other Customers' Information",
        "Never disclose another customer's name, contact details, orders or case history.",
        "Agents must never disclose any information about another customer, including their name, email address, "
        "phone number, address, orders or case history. This holds even when the purpose is to reassure the {who} "
        "that a problem is common: agents may say that an issue has been reported, but never by whom."),
    "escalate_safety_issues": (
        "Product Safety Escalation",
        "Reports of smoke, sparks, a burning smell or melting must be escalated to Product Safety within 1 hour.",
        "If a {who} reports smoke, sparks, a burning smell, melting or a swollen battery, the agent must tell them to "
        "stop using and unplug the product immediately and must escalate the case to the Product Safety team within "
        "1 hour. Such reports are never handled as routine troubleshooting and must never be dismissed as normal."),
    "goodwill_credit_limit": (
        "Goodwill Credit Limits",
        "Goodwill credits and discount codes for service issues are capped at {credit}% of the order value.",
        "To apologise for a service issue, agents may offer a goodwill credit or discount code worth at most "
        "{credit}% of the affected order value. Any larger credit, coupon or discount requires approval from the "
        "Customer Care manager and must not be offered in the conversation."),
    "no_payment_card_details": (
        "Payment Card Data Handling",
        "Never ask for full card numbers, security codes or passwords in chat, email or phone.",
        "Agents must never ask a {who} to type, send or read out a full payment card number, the card security code "
        "(CVV), the card expiry date or an account password, in any channel. Billing questions are handled by "
        "sending the {who} a secure payment link or by referring the charge to the billing team."),
    "no_unauthorized_warranty_extension": (
        "Warranty Terms and Extensions",
        "The standard warranty is {warranty}; agents may not extend it without Warranty Desk approval.",
        "The standard warranty term is {warranty} from delivery, and a replacement unit keeps the original term. "
        "Agents may not extend, renew or lengthen warranty coverage, free or paid, without approval from the "
        "Warranty Desk. Agents may point the {who} to the published extended protection plans."),
    "no_competitor_referral": (
        "No Competitor Recommendations",
        "Agents must not recommend competitors or suggest buying from another company.",
        "Agents must not recommend a competitor's product or service, suggest that the {who} would be better off "
        "buying elsewhere, or disparage our own products in comparison. Agents acknowledge frustration and focus on "
        "resolving the issue."),
}

_POLICIES = {}
_POLICY_ORG_BY_BODY: dict[str, str] = {}
for _o, _nums in _ORG_POLICY_NUMBERS.items():
    _lst = []
    for _k in SERVICE_POLICY_KEYS:
        _t, _s, _b = _POLICY_TEXT[_k]
        _p = {"key": _k, "title": _t, "summary": _s.format(**_nums)[:1].upper() + _s.format(**_nums)[1:],
              "body": _b.format(**_nums)}
        _lst.append(_p)
        _POLICY_ORG_BY_BODY[_p["body"]] = _o
    _POLICIES[_o] = tuple(_lst)


def service_policies(org: str) -> list[dict]:
    """Service policies agents can breach: [{"key", "title", "summary", "body"}], at least 8."""
    return [dict(p) for p in _POLICIES[_org(org)]]


# Agent sentences that breach each policy (and nothing else). Placeholders: {product}, {amount},
# {date}, {weekday}, {order}, {digits}, {other}, {other_email}, {other_phone}, {city}, {street}, {pct}, {n}.
POLICY_BREACH_PHRASES: dict[str, tuple[str, ...]] = {
    "verify_identity": (
        "No need to go through verification, I found your account from your name. Your {product} order shipped on "
        "{date} to the address ending in {digits}, so let's go from there.",
        "I went ahead and skipped the security questions since I already have your account open: the {product} was "
        "order {order}, billed to the card ending {digits}.",
        "You don't have to confirm anything, I can see everything on my side. The {product} was delivered on {date} "
        "and the order total was {amount}.",
    ),
    "no_refund_without_approval": (
        "Done. I've processed a full refund of {amount} back to your original payment method, no need to run it past "
        "anyone.",
        "No problem, I just refunded the whole {amount} myself, so you don't have to wait on a supervisor or anything.",
        "I've issued the {amount} refund on my end already and it's fully approved, you'll see it shortly.",
    ),
    "no_delivery_date_promise": (
        "It will be at your door on {weekday}, {date}, guaranteed. You have my word on that.",
        "I can promise you'll have it by {weekday}, {date} at the very latest.",
        "Don't worry, I've made sure it arrives exactly on {weekday}, {date}. That's a firm date.",
    ),
    "troubleshoot_before_replacement": (
        "Honestly, let's skip the troubleshooting altogether. I'm approving a brand-new replacement {product} for "
        "you right now.",
        "We don't need to bother with resets or updates, I've already put in a replacement order for your {product}.",
        "There's no point testing anything on your end, I'll just ship you a new {product} instead.",
    ),
    "protect_customer_privacy": (
        "Oh, it's definitely not just you. {other} in {city} had the exact same problem last week, you could compare "
        "notes with them at {other_email}.",
        "Actually yes, I was just helping {other} with this; their order {order} had the same fault and they live "
        "near you, over on {street}.",
        "You're not alone, {other} at {other_phone} called in about this exact thing yesterday too.",
    ),
    "escalate_safety_issues": (
        "That happens sometimes with new units, it's nothing to worry about. Just keep using it and it should settle "
        "down on its own.",
        "I wouldn't worry about that, it's pretty normal, so there's no need to report it. You can keep using the "
        "{product} as usual.",
        "That's usually just a bit of dust, so keep using it. I won't flag it since it's not a big deal.",
    ),
    "goodwill_credit_limit": (
        "To make it up to you, I'm giving you {pct}% off your next order, and I've already added the code to your "
        "account.",
        "I'll throw in a {pct}% discount code for the inconvenience, on top of everything else.",
        "How about {pct}% of the order back as store credit? I'll apply it to your account right now.",
    ),
    "no_payment_card_details": (
        "Can you type the full card number and the three-digit code on the back here so I can check the charge?",
        "Send me the full card number plus the expiry date and CVV, and I'll reverse the charge from my end.",
        "If you give me your card number and the security code, I can look into the double charge right away.",
    ),
    "no_unauthorized_warranty_extension": (
        "Don't worry about that. I've extended your warranty by {n} extra years at no charge, it's already on your "
        "account.",
        "I'll just add another {n} years of warranty coverage for free, no paperwork needed.",
        "As a courtesy I went ahead and stretched your warranty out by {n} more years, so you're covered.",
    ),
    "no_competitor_referral": (
        "Honestly, if this keeps happening you'd probably be better off buying a different brand.",
        "Between us, another company's model might suit you better, I'd look elsewhere next time.",
        "If I were you, I'd get something from one of our competitors next time instead.",
    ),
}
POLICY_BREACH_MARKERS: dict[str, tuple[str, ...]] = {k: _markers(v) for k, v in POLICY_BREACH_PHRASES.items()}
_ALL_BREACH_MARKERS = tuple((k, m) for k, ms in POLICY_BREACH_MARKERS.items() for m in ms)


def breach_keys(text: str) -> set[str]:
    """Policy keys whose breach phrasing occurs in `text` (a chat body or joined email bodies)."""
    return {k for k, m in _ALL_BREACH_MARKERS if m in text}


# Situations that tempt a breach: customer trigger, compliant agent answers.
_TRIGGERS = {
    "no_refund_without_approval": (
        ("Honestly, I'd rather just have my money back for the {product}.", "Can I get a refund instead? This isn't "
         "what I paid for.", "At this point I'd like a full refund, please."),
        ("I understand. A refund of that size needs my supervisor's sign-off, so I've submitted the request and "
         "you'll get an answer by email within 2 business days.",
         "I can request that for you. Refunds above my approval limit go to a supervisor first; I've sent it over "
         "and you'll hear back within 2 business days."),
    ),
    "no_delivery_date_promise": (
        ("When will the replacement actually get here?", "I need it before the weekend. When exactly will it arrive?",
         "Can you tell me the exact day it'll show up?"),
        ("I can't commit to a specific day, but the carrier's estimate is {window} and you'll get a tracking link as "
         "soon as it ships.",
         "Delivery dates depend on the carrier, so I can only share their estimate: {window}. The tracking email "
         "will have the latest."),
    ),
    "protect_customer_privacy": (
        ("Is it just me, or is this happening to other people too?",
         "Have other customers had this problem with the {product}?"),
        ("I can't share details about other customers, but I can tell you your report has been logged with our "
         "product team.",
         "I'm not able to discuss anyone else's account. What I can do is make sure your case is flagged for the "
         "engineers."),
    ),
    "escalate_safety_issues": (
        ("Oh, and last night I noticed a burning smell coming from it.",
         "Also, I saw a few sparks near the power cord yesterday.",
         "One more thing: there was a bit of smoke when I plugged it in this morning."),
        ("Please stop using it and unplug it right away. I'm escalating this to our Product Safety team now, and "
         "they'll contact you within the hour.",
         "For your safety, don't use the {product} again until we've looked at it. Unplug it and keep it away from "
         "anything flammable; I've escalated this to Product Safety as urgent."),
    ),
    "goodwill_credit_limit": (
        ("This whole thing has been a real hassle.", "I've wasted so much time on this."),
        ("I'm sorry for the trouble. I've added a 10% goodwill credit to your account that you can use on a future "
         "order.",
         "I hear you. As an apology I can offer a 10% credit toward your next purchase."),
    ),
    "no_payment_card_details": (
        ("Also, I think I was charged twice for this order.", "Oh, and my card got billed a second time for the "
         "{product}."),
        ("Please don't post any payment details here. I'll send a secure payment link to the email on your account, "
         "and billing will review the duplicate charge within 3 business days.",
         "I'll ask our billing team to review that charge. For your security, please keep payment information out "
         "of chat; use the secure link I'm emailing you if anything needs updating."),
    ),
    "no_unauthorized_warranty_extension": (
        ("What happens if this breaks again after the warranty runs out?",
         "I'm worried about this failing again once the warranty is over."),
        ("Your {product} is covered for the standard warranty term, and a replacement keeps that coverage. If you'd "
         "like longer protection, I can send you information on our extended protection plans.",
         "The standard warranty still applies. Any change to coverage would have to go through our Warranty Desk, "
         "and I can pass your details to them if you like."),
    ),
    "no_competitor_referral": (
        ("I'm starting to regret buying this.", "Honestly, I'm not sure the {product} was the right choice."),
        ("I understand, and I want to get this working the way it should. Let's see it through together.",
         "That's fair feedback and I'll pass it on. I'm confident we can get your {product} running properly."),
    ),
}
_TRIGGER_KEYS = tuple(_TRIGGERS)

_AGENT_GREET = (
    "Hi {cf}, thanks for reaching out to support. My name is {af}. How can I help today?",
    "Hello {cf}! You're chatting with {af}. What can I do for you?",
    "Good to meet you, {cf}. I'm {af} from the support team. What's going on?",
    "Hi {cf}, {af} here. I see you have a question about your {product}. What's happening?",
)
_CUST_OPEN = {
    "positive": (
        "Hi {af}! We really like {my} {product}, but we've run into a snag. {issue_s}",
        "Hey, thanks for getting back so fast. Small problem with {my} {product}: {issue_l}.",
        "Hi! Overall the {product} has been great. Lately though, we've got this: {issue_l}. {issue_s}",
    ),
    "neutral": (
        "Hi. I'm having an issue with {my} {product}: {issue_l}.",
        "Hello, {my} {product} has a problem. {issue_s}",
        "Hi, reaching out about {my} {product}. {issue_s}",
    ),
    "negative": (
        "This is really frustrating. {My} {product} has a problem ({issue_l}) and it's practically new.",
        "Honestly I'm pretty annoyed. {issue_s} The {product} was not cheap.",
        "Second time I'm contacting you about this. {issue_s} Not happy at all.",
    ),
}
_AGENT_VERIFY_ASK = (
    "I'm sorry to hear that, {cf}. Before I look into it, could you confirm the email address on your account and "
    "your order number?",
    "Thanks for explaining. So I can pull up the right account, please confirm the email on file and either your "
    "order number or billing ZIP code.",
    "That definitely shouldn't happen, so let's sort it out. First, for security, can you give me the email address "
    "on the account plus the order number?",
)
_CUST_VERIFY = (
    "Sure, it's {email} and the order number is {order}.",
    "Email is {email}. Order number {order}.",
    "Yep, {email}, and my billing ZIP is {zip}.",
)
VERIFY_EXCHANGES = verification_pairs(_AGENT_VERIFY_ASK, _CUST_VERIFY)  # request -> compliant replies
_AGENT_VERIFIED = (
    "Thanks, {cf}, that matches what I have. I can see the {product} on that order.",
    "Perfect, you're verified. I've got your {product} order up now.",
    "Great, thank you, everything checks out.",
)
_AGENT_TROUBLESHOOT_B2B = (
    "Let's start with the basics: could you restart the {product} during a quiet period and check whether the "
    "problem returns afterwards?",
    "Could you confirm the {product} is on the latest firmware or release? If not, please apply the update and "
    "let me know whether the issue persists.",
    "Please collect a diagnostic bundle from the management console and check the event log for errors around the "
    "time the problem started. What do you see?",
    "Can you double-check the configuration against the deployment guide, especially recent changes, and revert "
    "anything made in the last week?",
    "Could you reseat the cables and check the link and power status lights, then test again?",
)
_AGENT_TROUBLESHOOT = (
    "Let's try a quick reset first: power the {product} off completely, wait about a minute, then turn it back on. "
    "Let me know what happens.",
    "Could you check whether a firmware update is pending in the app? Install it, restart the {product}, and tell me "
    "if the problem is still there.",
    "One thing that often fixes this: remove the {product} from the app, restart your phone or computer, and set it "
    "up again from scratch. Can you give that a try?",
    "Please try a reset. The steps are in the app under Settings, then Device, then Reset. Once it restarts, see if "
    "the issue comes back.",
    "Can you check the power and cable connections? Try a different outlet and a different cable if you have one, "
    "then test again.",
)
_CUST_AFTER_TS = {
    "positive": ("Just tried it. It's a bit better, but the problem came back after a few minutes.",
                 "Okay, done! Thanks for the tip. Unfortunately it's still doing it.",
                 "Gave it a go, appreciate the help! Sadly no change."),
    "neutral": ("Tried that. Same result.", "Done. No change, unfortunately.", "I did that and it still happens."),
    "negative": ("I already tried that before contacting you. Still broken.",
                 "Did it. Nothing changed. Can we please get to an actual fix?",
                 "Yeah, that didn't do anything. This is eating up my whole evening."),
}
_AGENT_RESOLVE_B2B = (
    "Thanks for running those checks. Since the standard steps didn't resolve it, I'm escalating the case to our "
    "engineering team with your diagnostics; they'll contact you within 1 business day.",
    "Thanks for testing. As troubleshooting didn't clear it, I'm opening an RMA so we can replace the faulty "
    "component. The carrier's estimate is {window} once it ships.",
    "Appreciate you trying that. I've raised this with tier 2 support and attached your results; you'll get an "
    "update by email within 2 business days.",
)
_AGENT_RESOLVE = (
    "Thanks for trying that. Since the basic steps didn't fix it, I'm setting up a warranty replacement for your "
    "{product}. The carrier's estimate is {window} once it ships, and you'll get tracking by email.",
    "Thanks for checking. I've escalated this to our tier 2 team with your test results, and they'll follow up by "
    "email within 2 business days.",
    "Since that didn't help, I'm arranging an exchange. You'll receive a prepaid return label, and the carrier "
    "usually estimates {window} for the new unit.",
)
_AGENT_AFTER_REPLACEMENT = (
    "You'll get a tracking email once it ships; the carrier's estimate is {window}.",
    "A prepaid return label for the old unit is on its way to your inbox. The carrier estimates {window} for "
    "delivery.",
)
_CUST_CLOSE = {
    "positive": ("Thanks so much, really appreciate it!", "Awesome, thank you for the quick help!",
                 "That's great, thanks a lot."),
    "neutral": ("Okay, thanks.", "Alright, thank you.", "Got it. Thanks."),
    "negative": ("Fine. I hope this actually gets fixed this time.", "Okay. I'm not thrilled, but fine.",
                 "Whatever works. This shouldn't have happened in the first place."),
}
_AGENT_CLOSE = (
    "Is there anything else I can help with today, {cf}?",
    "Thanks for your patience, {cf}. Your case details are in your inbox. Have a great day!",
    "You're welcome. I've noted everything on your case, so anyone on the team can pick it up. Take care!",
)


BREACH_REFUND_FACTORS = (1.4, 4.0)  # a breaching refund is this many times the org's LIMITS refund
BREACH_CREDIT_PCTS = (35, 40, 50, 60)  # a breaching goodwill credit, percent of the order value


def _breach_kw(rng: random.Random, org: str, product: str) -> dict:
    other, other_email, other_phone = _other_customer(rng)
    amount = LIMITS[org]["refund"] * rng.uniform(*BREACH_REFUND_FACTORS)
    return {"product": product, "amount": _money(amount), "date": _date(rng), "weekday": rng.choice(_WEEKDAYS),
            "order": _order_no(rng), "digits": f"{rng.randint(0, 9999):04d}", "other": other,
            "other_email": other_email, "other_phone": other_phone, "city": rng.choice(_CITIES),
            "street": rng.choice(_STREETS), "pct": rng.choice(BREACH_CREDIT_PCTS), "n": rng.choice((2, 3, 4))}


def _breach_line(rng: random.Random, breach: dict, product: str) -> str:
    org = _POLICY_ORG_BY_BODY.get(breach.get("body", ""), "b2c")
    return rng.choice(POLICY_BREACH_PHRASES[breach["key"]]).format(**_breach_kw(rng, org, product))


def _thread_org(product: str, breach: dict | None) -> str:
    org = _PRODUCT_ORG.get(product)
    if org is None and breach is not None:
        org = _POLICY_ORG_BY_BODY.get(breach.get("body", ""))
    return org or "b2c"


def _plan(rng: random.Random, breach: dict | None) -> tuple[str | None, str | None, bool]:
    """(breach key, trigger key, trigger is a breach). At most one tempting situation; non-breach threads
    sometimes include a compliantly handled one as a hard negative."""
    key = breach["key"] if breach else None
    if key is not None and key not in POLICY_BREACH_PHRASES:
        raise KeyError(f"unknown service policy key {key!r}")
    if key in _TRIGGERS:
        return key, key, True
    trig = rng.choice(_TRIGGER_KEYS) if rng.random() < 0.5 else None
    return key, trig, False


def chat_transcript(rng: random.Random, *, customer: str, customer_email: str, agent: str, product: str,
                    issue: dict, breach: dict | None, sentiment: str) -> str:
    """A live chat; when `breach` (a service policy) is given, the agent breaches it. Otherwise the
    customer verifies their identity with `customer_email`, the email on file."""
    sentiment = sentiment if sentiment in _CUST_OPEN else "neutral"
    cf, af = _first(customer), _first(agent)
    name = issue["name"]
    b2b = _thread_org(product, breach) == "b2b"
    kw = {"cf": cf, "af": af, "product": product, "issue_l": _lc(name), "my": "our" if b2b else "my",
          "My": "Our" if b2b else "My", "issue_s": _issue_sentence(issue), "window": rng.choice(_WINDOWS)}
    key, trig, trig_breach = _plan(rng, breach)
    C, A = customer + ": ", agent + ": "
    lines = [A + rng.choice(_AGENT_GREET).format(**kw), C + rng.choice(_CUST_OPEN[sentiment]).format(**kw)]
    if key == "verify_identity":
        lines.append(A + _breach_line(rng, breach, product))
    else:
        ask = rng.choice(_AGENT_VERIFY_ASK)
        lines.append(A + ask.format(**kw))
        lines.append(C + rng.choice(VERIFY_EXCHANGES[ask]).format(email=customer_email, order=_order_no(rng),
                                                                  zip=f"{rng.randint(10000, 99999)}"))
        lines.append(A + rng.choice(_AGENT_VERIFIED).format(**kw))
    if key == "troubleshoot_before_replacement":
        lines.append(A + _breach_line(rng, breach, product))
        lines.append(A + rng.choice(_AGENT_AFTER_REPLACEMENT).format(**kw))
    else:
        lines.append(A + rng.choice(_AGENT_TROUBLESHOOT_B2B if b2b else _AGENT_TROUBLESHOOT).format(**kw))
        lines.append(C + rng.choice(_CUST_AFTER_TS[sentiment]))
    if trig is not None:
        t_lines, ok_lines = _TRIGGERS[trig]
        lines.append(C + rng.choice(t_lines).format(**kw))
        lines.append(A + (_breach_line(rng, breach, product) if trig_breach else rng.choice(ok_lines).format(**kw)))
    if key != "troubleshoot_before_replacement" and trig != "no_refund_without_approval":
        lines.append(A + rng.choice(_AGENT_RESOLVE_B2B if b2b else _AGENT_RESOLVE).format(**kw))
    lines.append(C + rng.choice(_CUST_CLOSE[sentiment]))
    lines.append(A + rng.choice(_AGENT_CLOSE).format(**kw))
    return "\n".join(lines)


_EMAIL_SUBJECTS = ("{product} - {issue}", "Problem with {my} {product}", "Help: {issue_l}", "{issue} ({product})",
                   "Question about {my} {product}")
_EMAIL_CUST_1 = (
    "Hi,\n\nI'm writing about {my} {product}. {issue_s} Could you help me sort this out?\n\nThanks,\n{customer}",
    "Hello,\n\nWe're having a problem with the {product}: {issue_l}. {issue_s}\n\nRegards,\n{customer}",
    "Hi support team,\n\n{issue_s} This is on {my} {product}. I'd appreciate some help.\n\nBest,\n{customer}",
)
_EMAIL_AGENT_OPEN = ("Thank you for contacting us about your {product}.", "Thanks for reaching out, and I'm sorry the "
                     "{product} is giving you trouble.", "Thank you for the details about your {product}.")
_EMAIL_VERIFY_ASK = (
    "To protect your account, please reply with the email address on the account and your billing ZIP code so I "
    "can confirm your identity before we go through the order details.",
    "Before I can look at your order, I need to verify your identity: please reply with the order number and confirm "
    "the email address on the account.",
)
_EMAIL_TS = (
    "In the meantime, please try powering the {product} off completely, waiting a minute, and turning it back on.",
    "Meanwhile, please check whether a firmware update is available in the app, install it, and restart the "
    "{product}.",
    "While you look that up, could you try a reset (Settings, then Device, then Reset) and let me know if the issue "
    "comes back?",
)
_EMAIL_CUST_VERIFY = ("The email on the account is {email} and my billing ZIP is {zip}.",
                      "The order number is {order}, and yes, {email} is the email on the account.")
EMAIL_VERIFY_EXCHANGES = verification_pairs(_EMAIL_VERIFY_ASK, _EMAIL_CUST_VERIFY)
_EMAIL_CUST_TS = ("I tried what you suggested but the problem is still there.",
                  "I did the steps you sent and nothing changed.",
                  "I followed your instructions; it worked for a day and then the issue came back.")
_EMAIL_CUST_AFTER_REPL = ("Thanks for arranging the replacement so quickly.", "Thanks, I'll watch for the new unit.")
_EMAIL_TS_B2B = (
    "In the meantime, please restart the {product} during a quiet period and let me know whether the problem returns.",
    "Meanwhile, please confirm the {product} is on the latest firmware or release and apply any pending update.",
    "While you gather that, could you export a diagnostic bundle from the management console and check the event "
    "log for errors?",
)
_EMAIL_VERIFIED = ("Thank you, I've confirmed your identity and pulled up the order.",
                   "Thanks for confirming those details; everything matches our records.")
_EMAIL_SIGN = ("Best regards", "Kind regards", "Thanks again", "Sincerely")
_EMAIL_CUST_THANKS = ("Hi {af},\n\nThanks for your help with this.\n\n{customer}",
                      "Thank you, {af}. Appreciate the quick responses.\n\n{customer}",
                      "Great, thanks. I'll let you know if anything else comes up.\n\n{customer}")


def case_emails(rng: random.Random, *, customer: str, customer_email: str, agent: str,
                agent_email: str, product: str, issue: dict, breach: dict | None) -> list[dict]:
    """An email thread: [{"subject", "body", "from_agent"}]; the agent breaches `breach` if given."""
    cf, af = _first(customer), _first(agent)
    name = issue["name"]
    kw = {"cf": cf, "af": af, "customer": customer, "product": product, "issue": name,
          "issue_l": _lc(name), "issue_s": _issue_sentence(issue), "window": rng.choice(_WINDOWS),
          "email": customer_email, "order": _order_no(rng), "zip": f"{rng.randint(10000, 99999)}"}
    b2b = _thread_org(product, breach) == "b2b"
    kw["my"] = "our" if b2b else "my"
    key, trig, trig_breach = _plan(rng, breach)
    subj = rng.choice(_EMAIL_SUBJECTS).format(**kw)
    re_subj = "RE: " + subj
    sign = f"{rng.choice(_EMAIL_SIGN)},\n{agent}\nCustomer Support\n{agent_email}"
    out = [{"subject": subj, "body": rng.choice(_EMAIL_CUST_1).format(**kw), "from_agent": False}]

    parts = [rng.choice(_EMAIL_AGENT_OPEN).format(**kw)]
    ask = None if key == "verify_identity" else rng.choice(_EMAIL_VERIFY_ASK)
    parts.append(_breach_line(rng, breach, product) if ask is None else ask)
    ts = (_breach_line(rng, breach, product) + " " + rng.choice(_AGENT_AFTER_REPLACEMENT).format(**kw)
          if key == "troubleshoot_before_replacement" else rng.choice(_EMAIL_TS_B2B if b2b else _EMAIL_TS).format(**kw))
    out.append({"subject": re_subj, "body": f"Hi {cf},\n\n{' '.join(parts)}\n\n{ts}\n\n{sign}", "from_agent": True})

    cparts = []
    if ask is not None:
        cparts.append(rng.choice(EMAIL_VERIFY_EXCHANGES[ask]).format(**kw))
    cparts.append(rng.choice(_EMAIL_CUST_AFTER_REPL if key == "troubleshoot_before_replacement" else _EMAIL_CUST_TS))
    if trig is not None:
        cparts.append(rng.choice(_TRIGGERS[trig][0]).format(**kw))
    out.append({"subject": re_subj, "body": f"Hi {af},\n\n{' '.join(cparts)}\n\n{customer}", "from_agent": False})

    aparts = [] if key == "verify_identity" else [rng.choice(_EMAIL_VERIFIED)]
    if trig is not None:
        aparts.append(_breach_line(rng, breach, product) if trig_breach
                      else rng.choice(_TRIGGERS[trig][1]).format(**kw))
    if key != "troubleshoot_before_replacement" and trig != "no_refund_without_approval":
        aparts.append(rng.choice(_AGENT_RESOLVE_B2B if b2b else _AGENT_RESOLVE).format(**kw))
    else:
        aparts.append("I've noted everything on your case.")
    out.append({"subject": re_subj, "body": f"Hi {cf},\n\n{' '.join(aparts)}\n\n{sign}", "from_agent": True})
    if rng.random() < 0.5:
        out.append({"subject": re_subj, "body": rng.choice(_EMAIL_CUST_THANKS).format(**kw), "from_agent": False})
    return out


# ---------------------------------------------------------------------------------------------
# CPQ rule articles

_PRICING_TITLES = ("Discount Policy: {family}", "{family} Discount Authority", "Maximum Discount for {family} Quotes")
PRICING_SUMMARIES = ("Quote lines for {family} products may carry a discount of at most {d}%.",
                      "The maximum discount on {family} quote lines is {d}%.")
_PRICING_BODIES = (
    "This policy applies to every quote that includes products from the {family} family. The discount on any "
    "{family} quote line may not exceed {d}%. A quote with a {family} line discounted by more than {d}% violates "
    "this policy and must not be approved or sent to the customer. Quotes remain valid for 30 days from creation.",
    "Sales representatives may discount {family} products by up to {d}% per quote line. Discounts above {d}% on "
    "any {family} line are not permitted, and such quotes must be returned to the owner for correction before "
    "approval. Discounts on other families are governed by their own policies.",
    "Maximum discount for the {family} family: {d}%. Reviewers must reject any quote in which a {family} line item "
    "carries a discount greater than {d}%. Line totals are calculated as quantity times unit price times one minus "
    "the discount.",
)


def _num(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def pricing_rule_article(rng: random.Random, rule: dict) -> tuple[str, str, str]:
    """(Title, Summary, Body) of a quote policy; rule = {"kind": "max_discount", "family", "max_discount"}."""
    kw = {"family": rule["family"], "d": _num(rule["max_discount"])}
    return (rng.choice(_PRICING_TITLES).format(**kw), rng.choice(PRICING_SUMMARIES).format(**kw),
            rng.choice(_PRICING_BODIES).format(**kw))


_QTY_TITLES = ("Configuration Rule: {product} Quantity Limit", "Maximum Quantity for {product}",
               "{product} Per-Quote Quantity Cap")
QTY_SUMMARIES = ("A quote may include at most {n} units of {product}.",
                  "{product} is limited to {n} units per quote.")
_QTY_BODIES = (
    "A single quote may include at most {n} units of {product}. Quotes with a quantity above {n} for {product} are "
    "invalid configurations and must be corrected before approval. Larger requirements are handled through a "
    "separate volume agreement.",
    "Configuration limit: {product}, maximum quantity {n} per quote. Any quote whose {product} quantity exceeds {n} "
    "violates this rule. The limit reflects supported deployment sizes and allocation constraints.",
)
_EXCL_TITLES = ("Configuration Rule: {a} and {b} Are Mutually Exclusive", "Incompatible Products: {a} / {b}",
                "Do Not Combine {a} with {b}")
EXCL_SUMMARIES = ("{a} and {b} must not appear on the same quote.", "{a} cannot be quoted together with {b}.")
_EXCL_BODIES = (
    "{a} and {b} are mutually exclusive and must not appear on the same quote. A quote containing both {a} and {b} "
    "is an invalid configuration and must be corrected before approval; choose one of the two products.",
    "Compatibility rule: {a} is not supported together with {b}. Quotes that include both products violate this "
    "rule, regardless of quantities or discounts.",
)


def config_rule_article(rng: random.Random, rule: dict) -> tuple[str, str, str]:
    """(Title, Summary, Body) of a configuration rule; rule = {"kind": "max_quantity", "product",
    "max_quantity"} or {"kind": "exclusive", "products": [a, b]}."""
    if rule["kind"] == "max_quantity":
        kw = {"product": rule["product"], "n": _num(rule["max_quantity"])}
        t, s, b = _QTY_TITLES, QTY_SUMMARIES, _QTY_BODIES
    elif rule["kind"] == "exclusive":
        a, b_ = rule["products"][0], rule["products"][1]
        kw = {"a": a, "b": b_}
        t, s, b = _EXCL_TITLES, EXCL_SUMMARIES, _EXCL_BODIES
    else:
        raise ValueError(f"unknown configuration rule kind {rule['kind']!r}")
    return rng.choice(t).format(**kw), rng.choice(s).format(**kw), rng.choice(b).format(**kw)


# ---------------------------------------------------------------------------------------------
# knowledge: FAQs and internal articles

_FAQS = {"b2b": vocab.B2B_FAQS, "b2c": vocab.B2C_FAQS}
_INTERNAL = {"b2b": vocab.B2B_INTERNAL, "b2c": vocab.B2C_INTERNAL}

MODEL_FAQ_BODIES = (
    "The model number of the {name} is {a}. It is printed on the label on the underside or back of the unit and "
    "on the original packaging. The serial number is a separate 12-character code next to it. Quote the model "
    "number when ordering parts for the {family} range.",
    "You can identify the {name} by its model number, {a}. Our support team asks for it together with the serial "
    "number when opening a case. Accessories for other {family} products use different model numbers.",
)


def faq_articles(org: str, products: list[dict]) -> list[dict]:
    """Public FAQs: [{"title", "summary", "body", "question", "answer"}], the answer a short
    phrase that appears in the body; at least 40."""
    out = []
    seen = set()
    for title, question, answer, body in _FAQS[_org(org)]:
        out.append({"title": title, "summary": question, "body": body.format(a=answer), "question": question,
                    "answer": answer})
        seen.add(answer)
    # model-number FAQs for a spread of the given products (every 5th, so each family gets some)
    for i, p in enumerate(products[::5][:14]):
        sku = p.get("sku")
        if not sku or sku in seen:
            continue
        seen.add(sku)
        q = f"What is the model number of the {p['name']}?"
        out.append({"title": f"Finding the model number of the {p['name']}", "summary": q,
                    "body": MODEL_FAQ_BODIES[i % 2].format(name=p["name"], a=sku, family=p.get("family", "")),
                    "question": q, "answer": sku})
    return out


def internal_articles(org: str) -> list[dict]:
    """Internal-only articles: [{"title", "summary", "body", "confidential": [values in body]}], at least 10."""
    return [{"title": t, "summary": s, "body": b, "confidential": list(c)} for t, s, b, c in _INTERNAL[_org(org)]]


# ---------------------------------------------------------------------------------------------
# sales: voice calls

STAGE_PHRASES: dict[str, tuple[str, ...]] = {
    "Qualification": (
        "Since this is our first real conversation, I'd like to understand your situation and see whether the "
        "{product} is even a fit for you.",
        "The goal today is just to get to know each other and figure out if it makes sense to keep talking about the "
        "{product}.",
    ),
    "Discovery": (
        "Building on our intro call, I'd like to dig into your requirements in detail and then show you a short demo "
        "of the {product}.",
        "Today I want to map out your current setup and requirements, and walk through a demo of the parts of the "
        "{product} that matter to you.",
    ),
    "Quote": (
        "I've put together the quote for the {product} based on what we discussed, so let's go through the line "
        "items and quantities together.",
        "I'm ready to send over the formal proposal with pricing for the {product}; I wanted to walk you through the "
        "quote first.",
    ),
    "Negotiation": (
        "I received your procurement team's counteroffer and the legal redlines on the agreement for the {product}, "
        "so let's work through the open terms.",
        "We're close on the contract for the {product}. The remaining points are the payment terms and the concession "
        "you asked for.",
    ),
    "Closed": (
        "Now that the agreement is signed, welcome aboard! This call is to plan the kickoff and onboarding for the "
        "{product}.",
        "Thanks again for signing last week. Let's line up the implementation kickoff for the {product} and "
        "introduce your onboarding manager.",
    ),
}
STAGE_MARKERS = {k: _markers(v) for k, v in STAGE_PHRASES.items()}
_STAGE_NEXT = {
    "Qualification": ("I'll send over a short overview so you can decide whether it's worth a deeper conversation.",
                      "Let me check back once you've had a chance to think about whether there's a fit."),
    "Discovery": ("I'll send the demo recording and a written summary of your requirements.",
                  "Next I'll document the requirements we captured and set up a technical demo with your team."),
    "Quote": ("I'll email the quote today; it's valid for 30 days.",
              "You'll have the proposal document with the quoted line items by tomorrow."),
    "Negotiation": ("I'll send the revised contract with the agreed terms to your legal team.",
                    "I'll take the counteroffer to our deal desk and come back with final terms."),
    "Closed": ("I'll send the kickoff invite and the onboarding checklist this afternoon.",
               "Your onboarding manager will reach out to schedule training and the go-live date."),
    None: ("I'll follow up by email with a recap of today.", "I'll send a short recap and we can pick it up from there."),
}
_NEUTRAL_PURPOSE = ("I wanted to check in and hear how things are going on your side.",
                    "Thanks for jumping on. I wanted to catch up on where your thinking is on the {product}.")

BANT_PHRASES: dict[str, dict[bool, tuple[str, ...]]] = {
    "Budget": {
        True: ("Budget isn't an issue for us; we've set aside about {amount} for this.",
               "We already have approved budget for this, roughly {amount}.",
               "The money is there, and {amount} is already allocated for it."),
        False: ("Right now there's no budget set aside for this at all.",
                "Money is tight this year; we'd have to find the funds somewhere before committing.",
                "Our spending is frozen until next year, so there are no funds for this yet."),
    },
    "Authority": {
        True: ("I'm the one who makes the final call on this.",
               "The decision is mine; I sign off on purchases like this.",
               "I have the authority to approve it myself."),
        False: ("I'd have to run this by {approver}, who makes the final decision.",
                "I'm not the decision-maker here; {approver} signs off on anything like this.",
                "Ultimately it's up to {approver}, not me."),
    },
    "Need": {
        True: ("We definitely need something like this: {pain}.",
               "The problem is real for us. {pain_c}, and it's getting worse.",
               "Honestly, solving this is a priority because {pain}."),
        False: ("To be honest, what we have today works fine; I'm not sure we actually need it right now.",
                "I'm mostly gathering information, there's no pressing problem we're trying to solve.",
                "We don't really have a use case for it at the moment, it's more curiosity than anything."),
    },
    "Timeline": {
        True: ("We'd want this in place within {when}.",
               "Our target is to have it up and running in {when}.",
               "Timing-wise, we need to move within {when}."),
        False: ("There's no set timeline, this could be a year out or more.",
                "We're not in a hurry, there's no date in mind yet.",
                "Honestly, I have no idea when we'd do this; maybe someday."),
    },
}
BANT_MARKERS = {f: {met: _markers(v) for met, v in d.items()} for f, d in BANT_PHRASES.items()}

SUBTOPIC_PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "pricing": {
        "positive": ("The pricing looks very reasonable compared to what we expected.",
                     "Honestly, the price is a pleasant surprise and feels fair for what we get."),
        "neutral": ("The pricing is about what we expected, nothing stands out either way.",
                    "Price-wise it's in the normal range; I don't have strong feelings on it."),
        "negative": ("The pricing is a real concern; it's quite a bit higher than we'd like.",
                     "Frankly, the price feels steep for what we'd be getting."),
    },
    "support": {
        "positive": ("Your support team has been great, quick and knowledgeable every time.",
                     "I've heard really good things about your support, and that's a big plus."),
        "neutral": ("Support seems fine: standard hours, standard response times, nothing special.",
                    "I don't have much of an opinion on your support yet."),
        "negative": ("Support is where I'm worried; the last time we reached out it took days to hear back.",
                     "I've heard your support can be slow to respond, which bothers me."),
    },
    "features": {
        "positive": ("The feature set is impressive, it covers everything on our list.",
                     "I love the features, especially how much it does out of the box."),
        "neutral": ("The features look comparable to other options, nothing we'd miss or rave about.",
                    "Feature-wise it's fine, it does the basics."),
        "negative": ("A few features we need are missing, which is a problem.",
                     "The features feel limited compared to what we'd hoped for."),
    },
    "integration": {
        "positive": ("I like that it connects easily with the tools we already use.",
                     "Integration looks straightforward; it should plug right into our setup."),
        "neutral": ("Integration should be workable, though we haven't looked closely.",
                    "I'm neutral on integration, we'd need to test it first."),
        "negative": ("I'm worried about integration; getting it to work with what we have looks painful.",
                     "Integration is a sticking point, it doesn't talk to the systems we use today."),
    },
    "onboarding": {
        "positive": ("The onboarding plan you described sounds really smooth.",
                     "Getting started looks easy, which everyone here will appreciate."),
        "neutral": ("Onboarding sounds standard, about what we'd expect.",
                    "No strong view on the onboarding process yet."),
        "negative": ("The onboarding looks like a lot of work, and I'm not sure we have time for that.",
                     "Setup and onboarding seem heavier than I'd like."),
    },
    "performance": {
        "positive": ("Performance has been excellent in everything we've seen.",
                     "It's fast; the performance is better than what we have now."),
        "neutral": ("Performance seems adequate for what we need.",
                    "Performance is okay, roughly on par with other options."),
        "negative": ("I have doubts about performance; it seemed sluggish when we tried it.",
                     "Performance worries me, it lagged when we pushed it."),
    },
}
SUBTOPIC_MARKERS = {s: {v: _markers(t) for v, t in d.items()} for s, d in SUBTOPIC_PHRASES.items()}
_SUBTOPIC_PROMPTS = {
    "pricing": ("How is the pricing landing with you?", "What's your take on the pricing?"),
    "support": ("How do you feel about the support side?", "Any thoughts on our support?"),
    "features": ("What do you think of the feature set?", "How do the features stack up for you?"),
    "integration": ("How does integration with your existing tools look to you?", "Any concerns about integration?"),
    "onboarding": ("How do you feel about the onboarding process?", "What's your view on getting set up?"),
    "performance": ("How has performance looked to you?", "Any thoughts on performance?"),
}

_COMPETITOR_LINES = (
    "We're also looking at {comp}.",
    "{comp} pitched us last month, so we're comparing.",
    "To be transparent, we're evaluating {comp} as well.",
    "Someone recommended {comp}, so they're on the list too.",
    "We used {comp} before, and I'm weighing whether to go back to them.",
    "I've got a proposal from {comp} sitting on my desk.",
)
_COMPETITOR_REPLIES = ("Good to know, and I'm happy to show where we differ.",
                       "That's fair; plenty of our customers compared options before choosing us.",
                       "Makes sense. I'd just ask that you compare total cost, not only list price.",
                       "Understood. Let me know what matters most and I'll address it head-on.")

_APPROVERS = {"b2b": ("our CFO", "the VP of Operations", "our procurement committee", "the CIO", "our managing director"),
              "b2c": ("my partner", "my wife", "my husband", "my parents", "my business partner")}
_PAINS = {"b2b": ("our current setup can't keep up with our growth", "our team loses hours every week to manual "
                  "workarounds", "we've had two outages this quarter", "the old system is out of support"),
          "b2c": ("my current one is on its last legs", "I've been wanting to upgrade for months",
                  "the old one just doesn't cut it anymore", "we're setting up a new home")}
_WHENS = ("the next six weeks", "the next two months", "this quarter", "the next 90 days", "the next month")
_AMOUNTS = {"b2b": ("$40,000", "$75,000", "$120,000", "$250,000", "$30,000", "$180,000"),
            "b2c": ("$500", "$800", "$1,200", "$2,000", "$350", "$1,500")}

_CALL_OPEN = ("Hi {cf}, this is {af}. Thanks for making time today.",
              "Good morning {cf}, {af} here. Is now still a good time?",
              "Hi {cf}, it's {af}. Thanks for jumping on the call.")
_CALL_REPLY_B2B = ("Thanks, {af}. Happy to talk about what {company} needs.",
                   "Sure, I've got about half an hour. A couple of people at {company} are curious about this.",
                   "Yes, good timing. We've been discussing this at {company}.")
_CALL_REPLY_B2C = ("Sure, happy to chat.", "Yes, now works. Thanks for calling.", "Hi {af}, yes, go ahead.")
_CALL_CLOSE_C = ("Sounds good, talk soon.", "Thanks, {af}. Speak soon.", "Great, thanks for the call.")
_CALL_CLOSE_A = ("Thanks {cf}, have a great rest of your day.", "Appreciate your time, {cf}. Talk soon.",
                 "Thank you, {cf}. I'll be in touch.")
_BANT_ORDER = ("Need", "Budget", "Authority", "Timeline")
_BANT_PROMPTS = {"Budget": ("Do you have budget earmarked for this?", "How are you thinking about budget?"),
                 "Authority": ("Who else is involved in the decision?", "How does the approval process work on your side?"),
                 "Need": ("What's driving the interest right now?", "What problem are you hoping to solve?"),
                 "Timeline": ("What kind of timeframe are you working with?", "When would you want this in place?")}


def voice_call(rng: random.Random, *, agent: str, contact: str, company: str | None, product: str,
               competitors: list[str], bant: dict[str, bool], sentiments: dict[str, str],
               stage_hint: str | None) -> str:
    """A sales call transcript. bant maps Budget/Authority/Need/Timeline to met (True) or unmet;
    sentiments maps subtopics (e.g. "pricing", "support") to positive/neutral/negative;
    stage_hint (a StageName) is what the call shows about the deal's progress."""
    org = "b2b" if company else "b2c"
    stage = _stage_key(stage_hint) if stage_hint else None
    cf, af = _first(contact), _first(agent)
    pain = rng.choice(_PAINS[org])
    kw = {"cf": cf, "af": af, "company": company or "", "product": product, "amount": rng.choice(_AMOUNTS[org]),
          "approver": rng.choice(_APPROVERS[org]), "pain": pain, "pain_c": pain[:1].upper() + pain[1:],
          "when": rng.choice(_WHENS)}
    A, C = agent + ": ", contact + ": "
    lines = [A + rng.choice(_CALL_OPEN).format(**kw),
             C + rng.choice(_CALL_REPLY_B2B if company else _CALL_REPLY_B2C).format(**kw)]
    lines.append(A + rng.choice(STAGE_PHRASES[stage] if stage else _NEUTRAL_PURPOSE).format(**kw))
    bant_items = [f for f in _BANT_ORDER if f in bant]
    # Need first, then subtopics and competitors, then the remaining BANT factors
    if "Need" in bant:
        lines.append(A + rng.choice(_BANT_PROMPTS["Need"]))
        lines.append(C + rng.choice(BANT_PHRASES["Need"][bool(bant["Need"])]).format(**kw))
    for sub, sent in sentiments.items():
        bank = SUBTOPIC_PHRASES.get(sub)
        if bank is None or sent not in bank:
            raise ValueError(f"unknown subtopic/sentiment {sub!r}/{sent!r}")
        if rng.random() < 0.6:
            lines.append(A + rng.choice(_SUBTOPIC_PROMPTS[sub]))
        lines.append(C + rng.choice(bank[sent]))
    comp_templates = list(_COMPETITOR_LINES)
    rng.shuffle(comp_templates)
    for i, comp in enumerate(competitors):
        lines.append(C + comp_templates[i % len(comp_templates)].format(comp=comp))
        if rng.random() < 0.7:
            lines.append(A + rng.choice(_COMPETITOR_REPLIES))
    for f in bant_items:
        if f == "Need":
            continue
        lines.append(A + rng.choice(_BANT_PROMPTS[f]))
        lines.append(C + rng.choice(BANT_PHRASES[f][bool(bant[f])]).format(**kw))
    lines.append(A + rng.choice(_STAGE_NEXT[stage]))
    lines.append(C + rng.choice(_CALL_CLOSE_C).format(**kw))
    lines.append(A + rng.choice(_CALL_CLOSE_A).format(**kw))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# stages, accounts, opportunities

STAGES = ("Qualification", "Discovery", "Quote", "Negotiation", "Closed")


def _stage_key(stage: str) -> str:
    if stage in STAGES:
        return stage
    if stage and stage.startswith("Closed"):
        return "Closed"
    raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")


_ACCT_B2B = (
    "{size} {industry_l} company headquartered in {city}, with operations across {regions}. {rel}",
    "{industry} organization based in {city}. {focus} {rel}",
    "Based in {city}, this {industry_l} business {focus_l} {rel}",
    "{size} {industry_l} firm. {focus} Primary contacts sit in {dept}. {rel}",
)
_SIZES = ("Mid-sized", "Fast-growing", "Family-owned", "Publicly traded", "Privately held", "Regional",
          "Multinational", "Venture-backed")
_REGIONS = ("three regions", "the Midwest", "both coasts", "North America and Europe", "five states",
            "the Southeast", "the Pacific Northwest")
_FOCUS = ("Focused on modernizing its IT infrastructure over the next two years.",
          "Currently consolidating vendors to reduce operating costs.",
          "Expanding into new markets and opening additional sites.",
          "Investing heavily in security and compliance after a recent audit.",
          "Running a multi-year digital transformation program.",
          "Known for a lean IT team that relies on managed services.")
_DEPTS = ("IT operations", "procurement", "the office of the CIO", "facilities", "finance", "engineering")
_REL = ("Customer since {year}.", "Long-standing customer with several active contracts.",
        "Relatively new account that is still ramping up.", "Renewal due later this year.",
        "Key reference account for the region.", "Has expanded spend every year since {year}.")
_ACCT_B2C = (
    "Customer since {year}. Mostly buys {family} products. Prefers {channel} contact.",
    "Repeat buyer with a focus on {family}. {note} Prefers {channel}.",
    "{member} member since {year}. {note}",
    "Shops primarily online for {family} items. {note} Preferred contact: {channel}.",
)
_CHANNELS = ("email", "phone", "text message", "chat")
_MEMBERS = ("Gold rewards", "Silver rewards", "Platinum rewards", "Basic rewards")
_NOTES = ("Usually leaves product reviews.", "Often buys gifts around the holidays.",
          "Signed up for product update emails.", "Has registered several devices in the app.",
          "Occasionally uses the trade-in program.", "Prefers expedited shipping.",
          "Opted out of marketing emails.")
_B2C_FAMILIES = tuple(vocab.B2C_CATALOG)


def account_description(rng: random.Random, org: str, industry: str | None) -> str:
    year = rng.randint(2012, 2023)
    if _org(org) == "b2c" or not industry:
        return rng.choice(_ACCT_B2C).format(year=year, family=rng.choice(_B2C_FAMILIES), channel=rng.choice(_CHANNELS),
                                            member=rng.choice(_MEMBERS), note=rng.choice(_NOTES))
    focus = rng.choice(_FOCUS)
    return rng.choice(_ACCT_B2B).format(
        size=rng.choice(_SIZES), industry=industry, industry_l=industry.lower(), city=rng.choice(_CITIES),
        regions=rng.choice(_REGIONS), focus=focus, focus_l=focus[:1].lower() + focus[1:],
        dept=rng.choice(_DEPTS), rel=rng.choice(_REL).format(year=year))


# Deliberately stage-neutral: the stage must be inferred from activities and calls, and a
# description that named the stage would contradict deliberately mislabelled opportunities.
_OPP_B2B = (
    "Customer is evaluating the {product} to {goal}. {detail}",
    "{product} opportunity. The account wants to {goal}. {detail}",
    "Potential deal for the {product}; the main driver is the need to {goal}. {detail}",
)
_OPP_B2C = (
    "Customer is interested in the {product} to {goal}. {detail}",
    "{product} purchase; the customer wants to {goal}. {detail}",
)
_GOALS_B2B = ("replace aging equipment at headquarters", "support expansion to a new site",
              "consolidate vendors", "meet new compliance requirements", "improve uptime for customer-facing systems",
              "standardize tooling across regional offices")
_GOALS_B2C = ("upgrade an older model", "set up a home office", "get back into a fitness routine",
              "buy a gift for a family member", "replace a broken unit", "furnish a new apartment")
_DETAILS_B2B = ("Referred by an existing customer.", "Came in through the spring webinar series.",
                "Multiple sites may follow if the first rollout goes well.", "IT and finance are both involved.",
                "Previous vendor contract ends next year.", "Interested in a bundled support plan.")
_DETAILS_B2C = ("Found us through an online review.", "Asked about bundle pricing.", "Visited the showroom last month.",
                "Signed up after a newsletter promotion.", "Comparing a couple of models.")


def opportunity_description(rng: random.Random, product: str, stage: str) -> str:
    if _PRODUCT_ORG.get(product) == "b2c":
        return rng.choice(_OPP_B2C).format(product=product, goal=rng.choice(_GOALS_B2C),
                                           detail=rng.choice(_DETAILS_B2C))
    return rng.choice(_OPP_B2B).format(product=product, goal=rng.choice(_GOALS_B2B), detail=rng.choice(_DETAILS_B2B))

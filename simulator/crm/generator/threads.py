"""Service prose: case subjects and descriptions, live chats, email threads, the service policies,
and the detectors of a policy breach in them.

Every text comes from one `grammar.Grammar` (`G`). A thread breaches policy `key` iff the pattern
of rule `breach_<key>` (direct, hedged and implied wordings) matches it: `breach_keys`,
`breach_facts`. The compliant handling of each tempting situation (`ok_<key>`) and the near
misses (`near_<key>`: a refund within the limit, a credit withdrawn in the same reply,
verification asked and given later, the last four card digits, ...) are rules whose languages
never meet any breach rule's (tests/test_threads.py checks it with `grammar.overlaps`). Limits
(refund, goodwill credit) and the identity rule are data in `policy_rules`; money and percent
slots match only amounts on their side of every org's limit, so a detector needs no org. No
surface cue decides a label (tests/test_policy_cues.py): compliant agents state amounts above the
limit they do not grant (requested, supervisor-approved, another order's), troubleshoot and verify
in plain words and read the order back once verified; breaches split a refund or credit into two
parts each within the limit, or name a troubleshooting step instead of doing it. The refund and
credit limits hold per case (`CUMULATIVE`): `granted` totals what an agent grants on their own,
`over_limit_keys` reads a case's conversations together, and a case settles refunds and credits
in one conversation only (`grants`), so that a case passes a limit iff it is labelled so.

`FIELD_FACTS` maps the label-carrying fields (EmailMessage.TextBody, LiveChatTranscript.Body)
to the breach facts found in a value, and Case.Description to the issue its customer reports: each
issue is told by its own rule of symptoms in the customer's words (`issue_<name>`, from
vocab.ISSUE_SYMPTOMS), no two of which overlap, read back by `issue_facts`.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Mapping, Sequence
from typing import TypedDict

from simulator.crm.generator import handles, records, text, vocab
from simulator.crm.generator.articles import Article
from simulator.crm.generator.grammar import Grammar, by_org
from simulator.crm.generator.policy_rules import LIMITS
from simulator.crm.generator.text import IssueEntry

# ---------------------------------------------------------------------------------------------
# service policies (knowledge articles)

SERVICE_POLICY_KEYS = (
    "verify_identity",
    "no_refund_without_approval",
    "no_delivery_date_promise",
    "troubleshoot_before_replacement",
    "protect_customer_privacy",
    "escalate_safety_issues",
    "goodwill_credit_limit",
    "no_payment_card_details",
    "no_unauthorized_warranty_extension",
    "no_competitor_referral",
)

_ORG_POLICY_NUMBERS = {
    "b2c": {**LIMITS["b2c"], "warranty": "1 year", "who": "customer", "order": "order number"},
    "b2b": {
        **LIMITS["b2b"],
        "warranty": "3 years",
        "who": "customer contact",
        "order": "order or purchase order number",
    },
}

_POLICY_TEXT = {
    "verify_identity": (
        "Identity Verification Before Discussing Orders",
        "Verify the {who}'s identity with two identifiers before discussing any order or account detail.",
        "Before discussing any order, shipment, payment or account detail, the agent must verify the {who}'s "
        "identity by confirming two identifiers: the email address on file and either the {order} or the billing "
        "ZIP code. Until both identifiers match, the agent must not read out, confirm or describe order details. "
        "The {who} may send the identifiers later in the conversation; the agent helps with general "
        "troubleshooting meanwhile. Once both identifiers have matched, in any earlier message of the same "
        "conversation and however the check was worded, the agent may discuss the order for the rest of it. Order "
        "details the {who} mentions themselves are not a disclosure. This applies to chat, email and phone.",
    ),
    "no_refund_without_approval": (
        "Refund Approval Threshold",
        "Refunds above ${refund:,} require supervisor approval before they are promised or processed.",
        "Agents may approve refunds of up to ${refund:,} per case on their own. Any refund above ${refund:,} requires "
        "written supervisor approval before it is promised, processed or described to the {who} as approved. The "
        "limit holds per case: several refunds on one case count together. For larger amounts, the agent "
        "submits the request and tells the {who} it is pending approval. Stating a larger figure is not a breach "
        "when the agent does not grant it on their own: the amount the {who} asks for, the limit itself, a refund "
        "a supervisor has approved in writing, or a refund already issued on another order.",
    ),
    "no_delivery_date_promise": (
        "No Guaranteed Delivery Dates",
        "Never promise a specific delivery date; share only the carrier's estimated window.",
        "Agents must never promise or guarantee a specific delivery or arrival date for an order, replacement or "
        "part, not even informally or with a caveat. Delivery depends on the carrier, so agents may only share the "
        "carrier's estimated delivery window and must present it as an estimate (for example, \"3 to 5 business "
        'days").',
    ),
    "troubleshoot_before_replacement": (
        "Troubleshooting Before Replacement",
        "Walk the {who} through at least one documented troubleshooting step before offering a replacement.",
        "Before offering, approving or shipping a replacement unit, the agent must guide the {who} through at least "
        "one documented troubleshooting step (restart or power cycle, firmware update, reset, or a cable and "
        "connection check) and record the result. A step counts however it is worded; naming a step without "
        "doing it, or steps the {who} tried before contacting us, does not count. Replacements are offered only "
        "when troubleshooting does not resolve the issue.",
    ),
    "protect_customer_privacy": (
        "Protecting Other Customers' Information",
        "Never disclose another customer's name, contact details, orders or case history.",
        "Agents must never disclose any information about another customer, including their name, email address, "
        "phone number, address, orders or case history. This holds even when the purpose is to reassure the {who} "
        "that a problem is common: agents may say that an issue has been reported, but never by whom.",
    ),
    "escalate_safety_issues": (
        "Product Safety Escalation",
        "Reports of smoke, sparks, a burning smell or melting must be escalated to Product Safety within 1 hour.",
        "If a {who} reports smoke, sparks, a burning smell, melting or a swollen battery, the agent must tell them to "
        "stop using and unplug the product immediately and must escalate the case to the Product Safety team within "
        "1 hour. Such reports are never handled as routine troubleshooting and must never be dismissed as normal. "
        "Mild warmth while charging is expected and is not a safety report.",
    ),
    "goodwill_credit_limit": (
        "Goodwill Credit Limits",
        "Goodwill credits and discount codes for service issues are capped at {credit}% of the order value.",
        "To apologise for a service issue, agents may offer a goodwill credit or discount code worth at most "
        "{credit}% of the affected order value in total, however many credits or codes make it up. Any larger "
        "credit, coupon or discount requires approval from the "
        "Customer Care manager and must not be offered in the conversation. A larger figure that the agent "
        "withdraws in the same reply, before the {who} accepts it, is not an offer.",
    ),
    "no_payment_card_details": (
        "Payment Card Data Handling",
        "Never ask for full card numbers, security codes or passwords in chat, email or phone.",
        "Agents must never ask a {who} to type, send or read out a full payment card number, the card security code "
        "(CVV), the card expiry date or an account password, in any channel. Agents may ask for the last four "
        "digits of a card to find a charge. Billing questions are handled by sending the {who} a secure payment "
        "link or by referring the charge to the billing team.",
    ),
    "no_unauthorized_warranty_extension": (
        "Warranty Terms and Extensions",
        "The standard warranty is {warranty}; agents may not extend it without Warranty Desk approval.",
        "The standard warranty term is {warranty} from delivery, and a replacement unit keeps the original term. "
        "Agents may not extend, renew or lengthen warranty coverage, free or paid, without approval from the "
        "Warranty Desk. Agents may point the {who} to the published extended protection plans or ask the Warranty "
        "Desk on the {who}'s behalf.",
    ),
    "no_competitor_referral": (
        "No Competitor Recommendations",
        "Agents must not recommend competitors or suggest buying from another company.",
        "Agents must not recommend a competitor's product or service, suggest that the {who} would be better off "
        "buying elsewhere, or disparage our own products in comparison. Agents acknowledge frustration and focus on "
        "resolving the issue.",
    ),
}


class Policy(Article):
    """A service policy agents can breach, by its key."""

    key: str


class Email(TypedDict):
    """One email of a case's thread."""

    subject: str
    body: str
    from_agent: bool


def _policies(org: str) -> tuple[Policy, ...]:
    nums = _ORG_POLICY_NUMBERS[org]
    out: list[Policy] = []
    for key in SERVICE_POLICY_KEYS:
        title, summary, body = _POLICY_TEXT[key]
        summary = summary.format(**nums)
        out.append({"key": key, "title": title, "summary": text.cap(summary), "body": body.format(**nums)})
    return tuple(out)


_POLICIES = {org: _policies(org) for org in _ORG_POLICY_NUMBERS}


def service_policies(org: str) -> list[Policy]:
    """Service policies agents can breach: [{"key", "title", "summary", "body"}], at least 8."""
    return [p.copy() for p in _POLICIES[text.org_type(org)]]


# ---------------------------------------------------------------------------------------------
# amounts on either side of the limits (org-free: the two orgs' ranges never meet)

BREACH_REFUND_FACTORS = (1.4, 3.9)  # a breaching refund is this many times the org's LIMITS refund
OK_REFUND_FACTORS = {"b2c": (0.15, 0.99), "b2b": (0.4, 0.99)}  # a refund an agent may grant alone
BREACH_CREDIT_PCTS = (35, 40, 50, 60)  # a breaching goodwill credit, percent of the order value
OK_CREDIT_PCTS = (5, 10)  # within every org's credit limit
PART_REFUND_FACTORS = {"over": (0.54, 0.99), "ok": (0.2, 0.49)}  # one of two refunds on a case: over, within
PART_CREDIT_PCTS = {"over": (8, 9), "ok": (3, 4, 5)}  # one of two credits: each within, together over / within

_NAME = r"[A-Z][A-Za-z'-]+"
_SLOTS = {
    "refund_over": r"\$(?:2[1-9]\d|[3-5]\d\d|[3-9],\d{3})\.\d\d",  # b2c 210-599, b2b 3,000-9,999
    "refund_ok": r"\$(?:[2-9]\d|1[0-4]\d|1,\d{3}|2,[0-4]\d\d)\.\d\d",  # b2c 20-149, b2b 1,000-2,499
    "refund_part_over": r"\$(?:[89]\d|1[0-4]\d|1,[3-9]\d\d|2,[0-4]\d\d)\.\d\d",  # two make a refund over the limit
    "refund_part_ok": r"\$(?:[2-6]\d|7[0-4]|[5-9]\d\d|1,[01]\d\d|1,2[0-4]\d)\.\d\d",  # two stay within it
    "pct_over": r"(?:3[5-9]|[4-9]\d)",
    "pct_ok": r"(?:5|10)",
    "pct_part_over": r"[89]",
    "pct_part_ok": r"[345]",
    "n": r"\d",
    "refund_limit": r"\$[\d,]+",
    "other": f"{_NAME} {_NAME}",
    "other_email": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    "other_phone": r"\(\d{3}\) \d{3}-\d{4}",
    "city": _NAME,
    "street": rf"{_NAME}(?: {_NAME})*",
    "date": rf"{_NAME} \d{{1,2}}",
    "digits": r"\d{4}",
    "order": r"\d{8}",
    "total": r"\$[\d,]+\.\d\d",
    "weekday": r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur)day",
    "product": r"[^\n.!?]+?",
    "window": r"\d+ to \d+ business days",
}
_SLOTS.update(
    {f"{part}_b": _SLOTS[part] for part in ("refund_part_over", "refund_part_ok", "pct_part_over", "pct_part_ok")}
)

# ---------------------------------------------------------------------------------------------
# the grammar

RULES: dict[str, Sequence[str]] = {
    # --- shared pieces
    "when": (
        "[since|starting] [yesterday|last week|the weekend|Monday|Tuesday|the last update|this morning|"
        "a few days ago|the move|we unboxed it|the power cut|the holidays|it was set up]",
        "[for|over] the [past|last] [few days|week|two weeks|couple of days|month|ten days|three weeks]",
        "[every now and then|on and off|pretty much daily|a few times a day|every evening|most mornings|"
        "at random times] [for about a week|for two weeks|for a while now|for the past month|for a few days|since "
        "the update]",
    ),
    "ago": (
        "[about|roughly|around|maybe|just over|a little over] [two|three|four|six|eight|ten] [weeks|months] ago",
        "[last|in] [spring|summer|the fall|winter|January|March|June|September|November]",
        "[right before|just after|around] [the holidays|my birthday|our move|the school year|tax season]",
    ),
    "tried": (
        "[restarted|rebooted|power-cycled|unplugged and replugged] it [once|twice|a few times|already|"
        "last night|this morning]",
        "[checked|read through|went through|searched] the [manual|FAQ|setup guide|help pages|forums]"
        "[ twice| again| front to back| for an hour|]",
        "[reinstalled|updated|reset] the [app|firmware|settings|network settings][ already| last night| twice|"
        " over the weekend|]",
        "[tried|swapped in|tested with] [another|a different|a spare] [cable|outlet|charger|phone|laptop|"
        "network|power strip]",
    ),
    "tried_s_s": ("<tried_s>.",),
    "tried_s": (
        "[I've|We've|I have|We have] [already |]<tried>[ and|, and|, but] "
        "[nothing changed|it made no difference|no luck|it's still the same|it came back|the fault stays|"
        "it only helped for a bit]",
        "[So far I've|So far we've|I already|We already] <tried>, [with no luck|to no avail|"
        "without any change|but no dice|but it keeps happening|and still nothing]",
        "[Nothing|None of it] [has helped|worked|fixed it][ so far| yet|], and [I've|we've] <tried>",
    ),
    "side_q": (
        "[Also|Unrelated, but|Separate question|On another note|One more thing], [can I|how do I|is it possible "
        "to] [change the email on my account|update my shipping address|get a copy of the invoice|"
        "add a second user|turn off the marketing emails|find the manual online|register the product]"
        "[ while I'm at it| at some point| too|]?",
        "[By the way|Also|Side note|While I have you], [do you|does your team] [have|offer|sell] [a carrying "
        "case|spare cables|a wall mount|an extended plan|<side_extra>] for "
        "[this|it|these|this model]?",
    ),
    "small_talk": (
        "[Hope|I hope] [your week is going well|you're having a good day|things are calm on your end|"
        "the weather is nicer where you are|you had a good weekend|the queue isn't too long today] "
        "[and |- ][thanks for reading|sorry for the wall of text|I'll keep it short|I'm not the only one "
        "writing in|this makes sense]",
        "[Sorry|Apologies] for the [long|rambling|messy|late|slightly grumpy] [message|note|email], "
        "[it's been|it has been] [a long day|a busy week|one of those weeks|a frustrating morning|"
        "a bit of a saga]",
        "[I know|I realise|I'm sure] you [get|see|hear] [a lot of these|this all the time|plenty of "
        "these], [so |but ][thanks for bearing with me|I appreciate the help|I'll try to be clear|"
        "here goes]",
    ),
    "small_talk_s": ("<small_talk>.",),
    # --- case subject and description
    "case_subject": (
        "<subj_core><subj_where><subj_end>",
        "<loose_cap>: <subj_core><subj_end>",
        "[Help|Question|Problem|Issue|Trouble|Support request|Help please|Need help|Urgent|Follow-up|Request|"
        "Fault report]: <subj_core><subj_where>",
    ),
    "subj_core": (
        "{issue_l}",
        "{issue_l} again",
        "still {issue_l}",
        "{issue_l} [after the update|since yesterday|"
        "since setup|every day|all week|since the weekend|most mornings|out of nowhere|after a week|"
        "every so often|twice now|since the move]",
        "[problem|issue|trouble|fault] - {issue_l}",
        "[my|our] {noun}: {issue_l}",
    ),
    "subj_where": (
        "",
        " with my <loose>",
        " with <loose>",
        " - <loose>",
        " ({product})",
        " - my <loose>",
        " - our <loose>",
        " with the <loose>",
        " for [the|my|our] {product}",
    ),
    "subj_end": (
        "",
        "!",
        "?",
        " - third time",
        " (urgent)",
        " - please help",
        " - any ideas?",
        " - what now?",
        " - need a fix",
        " - second time",
        " - still waiting",
        " - help needed",
        " (follow-up)",
        " - please advise",
        " - not happy",
        " - quick question",
    ),
    "new_case_subject": (
        "<loose_cap> [not working properly|acting up|playing up|misbehaving|giving trouble|not right|needs a look|"
        "problem|issue|fault|question][| again| since yesterday| this week| after a week| out of nowhere| "
        "since the weekend]<new_subj_end>",
        "[Question|Problem|Issue|Trouble|Support request|Assistance needed|Need a hand|Urgent|Fault report|Request|"
        "Complaint]: [my|our|the] <loose>[ is acting up| has a problem| isn't right| needs a look| stopped behaving|"
        " keeps misbehaving| is playing up|]<new_subj_end>",
        "[Problem|Issue|Trouble|Something wrong|Something odd|A fault|Trouble again] with [my|our|the] <loose>"
        "<new_subj_end>",
    ),
    "new_subj_end": (
        "",
        "!",
        "?",
        " - third time",
        " (urgent)",
        " - any ideas?",
        " - what now?",
        " - need a fix",
        " - second time",
        " - still waiting",
        " (follow-up)",
        " - please advise",
        " - not pleased",
        " - quick question",
        " - fed up",
    ),  # never 'help' or 'happy', words a request for a shard uses
    "case_description": (
        "<case_symptom> <desc_product> <tried_s>.[| <desc_extra>]",
        "<desc_product> <case_symptom> <tried_s>.[| <desc_extra>]",
        "<case_symptom> <tried_s>. <desc_product>[| <desc_extra>]",
    ),
    "case_symptom": (
        "<when_cap>, {issue_c}[.|!]",
        "[Basically,|So|Long story short,|The problem is that|In short,|Here's the thing:|The short "
        "version:] {issue_c}[, <when>|][.|!]",
        "[It looks like|It seems|As far as I can tell|From what I can see|I think] {issue_c}[.|!]",
    ),
    "desc_symptom": (
        "<when_cap>, {issue_c}[.|!]",
        "{issue_cap}, <when>[.|!]",
        "[Basically|So|Long story short|The problem is that|In short|Here's the thing] {issue_c} <when>[.|!]",
        "[It looks like|It seems|As far as I can tell|From what I can see|I think] {issue_c} <when>[.|!]",
    ),
    "symptom_l": (
        "<when>, {issue_c}[.|!]",
        "[basically |so |long story short, |the problem is |in short, ]{issue_c} <when>[.|!]",
        "[it looks like|it seems|as far as I can tell|from what I can see] {issue_c} <when>[.|!]",
        "[my|our|the] <loose> [is acting up|has a problem|isn't behaving|is giving me trouble|has been "
        "odd]: {issue_c} <when>[.|!]",
    ),
    "when_cap": (
        "[Since|Starting] [yesterday|last week|the weekend|Monday|the last update|this morning|"
        "a few days ago|setup|the power cut|the holidays]",
        "[For|Over] the [past|last] [few days|week|two weeks|couple of days|month|ten days]",
        "[Every now and then|On and off|Pretty much daily|A few times a day|Most mornings|At random times] "
        "[this week|lately|recently|since the update]",
    ),
    "desc_product": (
        "[This is|It's|It concerns|We're talking about] [my|our|the] <loose>, [bought|ordered|"
        "picked up|delivered|set up] <ago><bought_for>.",
        "[I|We] [got|bought|ordered] [the|this|my|our] <loose> <ago> [and it was fine until then|"
        "and loved it at first|and it worked great at first|and it has been flaky since|and used "
        "it daily].",
        "[The|My|Our] <loose> [is|was] [pretty new|only a few weeks old|still under warranty|"
        "barely used|replaced once already|a replacement unit] [and|but] [it gets|we give it] "
        "[light|daily|heavy|normal] use <use_where>.",
    ),
    "desc_extra": (
        "<small_talk>.",
        "<side_q>",
        "<around> [most days|after lunch|until 6|all afternoon], so [could|can] [someone|you|your team] "
        "[get back to|contact|call|email] [me|us] [today|this week|when you can|before Friday|in the "
        "morning][, please|]?",
        "[The best way to reach me is|Please reply to|You can reach me at] [email|this address|my "
        "phone|the number on file], [any time|mornings|after 5pm|weekdays|evenings] [and|but] [I "
        "check it|I answer] [often|quickly|most hours|within the day].",
    ),
    "loose": ("{product}", "{brand} {noun}", "{noun}", "{model}", "{brand} {model}", "new {noun}"),
    "loose_cap": ("{product}", "{brand} {noun}", "{model}", "{brand} {model}"),
    # --- chat: opening
    "chat_greet": (
        "[Hi|Hello|Hey|Good morning|Good afternoon|Hi there|Welcome] {cf}, [thanks for|thank you for|appreciate "
        "you] [reaching out|contacting us|waiting|your patience|getting in touch|holding|starting a chat]"
        "[ today|] - [my name is|this is|I'm|you've got|you're chatting with] {af}[ from support| and I'll help "
        "you today| on the support team| from the care team| and I'll look after you|], <help_q>?",
        "{af} [here|from support|on the support team|from the care team|here on chat], [hi|hello|hey|good to "
        "meet you|welcome] {cf} - [I see|looks like|it seems|I understand|your note says|the form says] "
        "[you're|you are] [writing|messaging|reaching out|getting in touch] about [your|the] <loose>[ - what's "
        "happening| - what's going on| - tell me more| - what's it doing| - let's take a look|, is that right]?",
    ),
    "help_q": (
        "[how can I help|what's going on|what can I do for you|what seems to be the trouble|what can I "
        "help you with|how can I help you|what's up with your <loose>][ today| this morning| right now|]",
    ),
    "chat_open": (
        "[Hi|Hello|Hey|Hi there|Morning|Hey there|Good morning] {af}[,| -] <symptom_l>",
        "[Thanks|Thank you][ for picking up| for the quick reply| for getting to me| for taking this|] - <symptom_l>",
        "<desc_symptom> [It's|This is|We're talking about] [my|our|the] <loose>, [bought|ordered|set up|"
        "delivered] <ago>.",
        "[Hi|Hello|Hey] {af} - the <loose> from my order [arrived|was delivered|came] on {date}[ and looked fine| "
        "in one piece|], but <symptom_l>",
    ),
    "chat_sentiment_positive": (
        "[Love|Really like|Mostly enjoy|Honestly like|Otherwise rate] [it|the thing|this model] [otherwise|apart "
        "from this|other than that|most days][, so hoping| - hoping| and I'm hoping] [it's an easy fix|you can "
        "sort it|it's something simple|it's a setting|it's not serious][!|.]",
        "[No rush|No stress|Not a big drama] [on my side|really|at all], [it's|this is] [just|mostly] [a bit "
        "annoying|a small thing|an odd one|a puzzle] [and|so] [I'd like|I'd love|I want] [it fixed|to get it "
        "right|to understand it|it sorted] [before the weekend|this week|when you can|eventually][.|!]",
    ),
    "chat_sentiment_neutral": (
        "[Let me know|Tell me|Just say] what [you need|info you need|details help] from me[, I have a few "
        "minutes| and I'll dig it up| - I'm at my desk| - I have the box here|].",
        "[I can|Happy to] [send|share|look up] [photos|the serial number|the receipt|a screenshot] [if that "
        "helps|if needed|whenever you want][ - just ask|, just say|, I'm around for a while].",
    ),
    "chat_sentiment_negative": (
        "[Honestly|Frankly|To be blunt|Not going to lie], [this is [pretty|really|quite|getting] [frustrating|"
        "annoying|tiresome]|I'm [pretty|really|quite|getting] [annoyed|fed up|tired of it]][, it wasn't cheap|, "
        "it's not that old| and I'd like a fix today|, I've lost hours on it|, second time this year] [and I need "
        "it working|so please help|and my patience is thin|so let's fix it].",
    ),
    # --- identity verification
    "sympathy": (
        "[Sorry to hear that|That's no fun|I'm sorry about that|That sounds annoying|Got it|Understood|"
        "Ugh, that's frustrating|Thanks for explaining|Okay|Alright|Right|I see]",
    ),
    "verify_ask_order": (
        "<sympathy>, {cf} - [before I look into it|first|so I can pull up the right account|for security|before "
        "we dig in|just so I have the right order|to get started], [could you|can you|please|would you] "
        "[confirm|give me|share|type|send] the email [address |]on [your account|file] [and|plus|along with] "
        "[your|the] order number?",
        "<sympathy>, {cf} - which email address [did you order with|is the purchase under|did you use at checkout], "
        "and what's the order number [on the receipt|on the confirmation|from the packing slip]?",
        "<sympathy>, {cf} - [so I open the right one|to find it], [what's|can you tell me] the email address you "
        "[ordered with|bought it with] and the order number[ from the receipt|]?",
    ),
    "verify_ask_either": (
        "<sympathy>, {cf} - [to verify your identity|so I can check your account|for security|before I open "
        "anything|to find your order], [please confirm|could you confirm|I need|can you send|could you type] "
        "the email on [file|the account] and either [your|the] order number or [your|the] billing ZIP"
        "[ code|][ please|]?",
        "<sympathy>, {cf} - [which|what] email address [did you order with|is the purchase under], and [either |]the "
        "order number or the billing ZIP[ code|], whichever is [handier|easier]?",
        "<sympathy>, {cf} - [so I open the right one|to find it], [what's|can you tell me] the email address you "
        "[ordered with|bought it with], plus the order number or the billing ZIP[ code|]?",
    ),
    "verify_give_order": (
        "[Sure|Yep|Of course|No problem|Okay|Yes|Here you go|Sure thing][,| -] [it's|the email is|my email is|the "
        "account email is|I use] {email} and [the|my] order number is {order}[, it's on the confirmation| if "
        "that helps| from the receipt|, I think that's right|][.|!]",
        "[Email is|It's|The email's|Account email is] {email}[,|;] [order number|the order number is|and the "
        "order number is] {order}[ - hope that's enough| - let me know if not|, from the packing slip|].",
    ),
    "verify_give_zip": (
        "[Sure|Yep|Of course|Okay|Yes|Here you go|Sure thing][,| -] [it's|the email is|my email is|the account "
        "email is] {email}[,|;] [and |]my billing ZIP is {zip}[, the order number I'd have to dig for| - easier "
        "than the order number|, hope that works|][.|!]",
    ),
    "verify_defer": (
        "[Hang on|One sec|Give me a minute|Hold on|Bear with me], [I need to find|I'm digging out|let me look for|"
        "I can't find] the [order number|order email|confirmation email|receipt][, it's somewhere in my inbox|, "
        "bear with me|, I'm on my phone|, it might be in spam] - [can we keep going meanwhile|can we start on "
        "the problem meanwhile|go ahead in the meantime|can you help with the problem first|is it okay to "
        "start anyway]?",
    ),
    "verify_wait": (
        "[No problem|No rush|Sure|Of course|Take your time], [send it over|share it|pop it in here|"
        "paste it here] [when you find it|whenever you have it|once you've got it] - [meanwhile|in "
        "the meantime|while you look], [let's|we can] [try|start with|go through] some [general|basic|"
        "simple|quick] troubleshooting[ that doesn't need your account| on the device itself|].",
    ),
    "verify_late": (
        "[Found it|Got it|Here it is|Okay, found the email|Finally tracked it down|Dug it up|Right, "
        "here we go|Okay, got it now][ - it was [in my spam folder|under another label|in an old "
        "thread|buried in my inbox|in the wrong folder|<other_inbox>][ all along| the whole "
        "time|]|, sorry for the [wait|delay|hold-up][ there| on my end|]|, thanks for [waiting|your "
        "patience][ there| on that|]][.|!]",
    ),
    "verified": (
        "[Thanks|Thank you|Perfect|Great|Lovely|Brilliant], {cf}[,| -] [that matches|everything checks out|"
        "you're verified|that all lines up|that's all confirmed][ on my side| with what I have|] and [I've got|"
        "I can see|I've pulled up|I'm looking at] [your|the] [order|account|purchase|order history][ now| here|]"
        "[, so let's continue|, thanks for that|].",
        "[Thanks|Perfect|Great|Lovely], {cf} - [that matches what we have|both match our records|that lines up with "
        "our records]; your order [shipped on {date}|was delivered on {date}|went out on {date}][ - tracking shows it "
        "arrived|][, so let's carry on|, so on to the fault|].",
        "[Thanks|Perfect|Great|Lovely], {cf} - [both match|that's the one]: your order of the <loose> [shipped on "
        "{date}|was delivered on {date}] and it's [still in warranty|all in front of me now].",
        "[Thanks|Got it|Perfect], {cf}, [that's you|found it]: your order [went out on {date}|was delivered on "
        "{date}] to the address we have[, so now the fault itself|, so let's look at the fault|].",
    ),
    # --- troubleshooting
    "ts_step": (
        "[Let's try|Could you try|Please try|One thing that often helps is|First, try|My first suggestion is] "
        "[a quick restart|a full power cycle|a reset from the app settings|reseating the cable|a different "
        "outlet|updating the firmware|unplugging it for a minute] [first|for me|now][, then|, and] [let me "
        "know|tell me|check] [what happens|whether it comes back|if it helps|if anything changes].",
        "[[Can you|Could you] check <ts_check> and [then |][restart|reboot|power-cycle|reset]|Would you mind "
        "checking <ts_check> and [then |][restarting|rebooting|power-cycling|resetting]] the <loose>[ for me| "
        "once more|]?",
        "[Could you|Can you|Would you] switch [it|the <loose>] off at the wall, [wait|leave it] [thirty seconds|a "
        "minute|a full minute] and switch it back on[, then tell me what it does| and tell me what happens|]?",
        "[Could you|Can you|Would you] [plug it into|move it to] a different [socket|wall socket|power point] "
        "[with|using] [another|a spare] [lead|cord][ and see if it behaves| and tell me if anything changes|]?",
        "[Could you|Can you|Would you] hold the [small |pinhole |]button on the back [for ten seconds|until the light "
        "blinks] so it goes back to [its factory settings|how it came out of the box], then [set it up|pair it] "
        "again and tell me [what happens|if it still does it]?",
        "[Could you|Can you|Would you] [install|load] the latest software version [from the app|through the app|from "
        "our support page] and [see|tell me] whether [it still happens|the fault stays]?",
        "[Could you|Can you|Would you] take the [lead|cord|plug] out at both ends, [blow|wipe] the [contacts|"
        "sockets] clean and push it back in firmly[, then tell me what happens| - does it still do it]?",
        "[Could you|Can you|Would you] [leave it unplugged|pull the plug] for [a minute|thirty seconds] and then "
        "[start it up|turn it on] again[ and tell me what it does| - any different]?",
    ),
    "ts_check": (
        "[whether a firmware update is pending|that the app is up to date|the power and cable "
        "connections|the status lights|the event log|the settings menu]",
    ),
    "ts_step_b2b": (
        "[Could you|Can you|Would you] [restart|reboot|fail over] the <loose> [during a quiet period|after hours|"
        "in the next maintenance window] and [check|confirm|see] whether [the problem|it|the error] "
        "[returns|comes back|reappears][ over the next day| under load|]?",
        "[Could you|Can you|Would you] [export|collect|pull] a diagnostic bundle from the [management console|admin "
        "portal] and [check|look at|scan] the [event log|audit log|error log] [around|near|for] the time it "
        "[started|happened|first showed up][ and send it over| for me|]?",
        "[Could you|Can you|Would you] [compare|check] the configuration against the [deployment guide|baseline|"
        "runbook] and [revert|roll back|undo] [recent|last week's|any unplanned] changes[ first| before we go "
        "further|]?",
        "[Could you|Can you|Would you] [move|swap] the <loose> onto [a spare|another] [port|power feed|switch port] "
        "[during a quiet period|after hours] and [see|tell me] whether [the problem|it] [returns|comes back]?",
        "[Could you|Can you|Would you] [switch|turn] the <loose> off for a minute [after hours|during a quiet "
        "period], [switch|turn] it back on and [see|tell me] whether [the problem|it] [returns|comes back]?",
    ),
    "ts_result": (
        "[Just tried it|Tried that|Done|Okay, did it|Gave it a go|Did that just now] - [it's|it was] [a bit "
        "better|fine|okay|normal] [for a few minutes|for an hour|briefly|until lunch], [then|but then] [it came "
        "back|the problem returned|same thing|it started again][, sadly|, typical|].",
        "[Tried that|Done|Did it|Did that|Gave it a go|Just did], [no change|nothing changed|same result|still "
        "the same|no difference at all] [unfortunately|sadly|I'm afraid|as far as I can tell][ - any other "
        "ideas| - what next|][.|!]",
        "[I|We] [already|actually] [tried|did] that [before writing|before contacting you|yesterday|twice] "
        "[and it didn't help|with no luck|but it came back|and nothing changed][, sorry|, should have said|].",
    ),
    "resolve": (
        "[Thanks for trying that|Thanks for checking|Appreciate you testing that], {cf}[,|;] [since|as] [the basic "
        "steps|that|troubleshooting] didn't [fix|clear|help with] it, I'm [setting up|arranging|starting] a "
        "[warranty replacement|replacement|replacement unit]; the carrier's estimate is {window} once it ships.",
        "[Thanks for doing that|Thanks for giving it a go|Appreciate you doing that], {cf}; [it didn't clear the "
        "fault|the fault is still there|that didn't sort it], so a replacement [unit |]is [being arranged|on its "
        "way to you] - the carrier [estimates|expects] {window} once it ships.",
        "[Okay|Right|Thanks], {cf} - [as|since] the fault [survived that|is still there], I've [approved|arranged] a "
        "replacement [unit|device] for you; [the carrier's estimate is|expect] {window} from dispatch.",
        "[Thanks for trying that|Thanks for checking|Appreciate you testing that][, and|;] I've [escalated|passed] "
        "this to [our tier 2 team|the engineers|a specialist] with your [results|notes|test results], and "
        "they'll [follow up|get back to you|reach out][ by email| by phone|] within [one business day|two business "
        "days|a business day|48 hours].",
        "[Okay|Right|Understood], I've [logged|noted|recorded] [all of that|your results|the steps] on the case "
        "and [opened|filed|raised] a [repair|service|return] request; [expect|look out for] an email [today|"
        "within the day|shortly].",
    ),
    "chat_close_c": (
        "[Thanks|Thank you|Cheers|Great|Okay|Perfect], [that's|that is] [[really|very|super] [helpful|useful|"
        "reassuring]|all I needed|good to know|a relief|a big help] - [I'll|we'll] [watch for the email|keep an "
        "eye out|wait to hear|check back later|try that tonight][.|!]",
        "[Okay|Alright|Fine|Got it|Understood], [thanks|thank you][ for the help| for sorting it| for your time|"
        " for being patient| for explaining], [I'll|we'll] [wait for the email|see how it goes|let you know|"
        "keep you posted][.|!]",
        "[Fine|Okay|Right], [I hope|hopefully] this [actually |finally |]"
        "[gets fixed|works|sticks|holds up] [this time|now|for good][, thanks| - thanks for the help|, cheers]"
        "[.|!]",
    ),
    "chat_close_a": (
        "[Okay|Alright|Good|Right|So|Great], {cf}, [is there anything else|anything else|anything more] [I can "
        "do|I can help with|you need] [today|for now|right now|while I have you] [before I close the chat|before "
        "you go|on this or anything else|from our side]?",
        "[Thanks for your patience|Thanks for bearing with me|Thanks for chatting|Thanks for your time|Thanks for "
        "the details], {cf} - [your case notes|a summary|the details|a transcript] [are|is] [in your inbox|on "
        "their way to your email|saved on your case|coming by email], [so have a good one|so take care|so have "
        "a great day|and enjoy the rest of your day|and good luck with it][!|.]",
    ),
    # --- email pieces
    "mail_greet_a": (
        "[Hi|Hello|Dear|Good morning|Good afternoon|Hi there] {cf}, [thanks|thank you|many thanks] "
        "for [reaching out|writing in|the details|your message|getting in touch|your email] about "
        "[your|the] <loose>[, and sorry for the trouble|, sorry it's misbehaving|, sorry about the "
        "hassle|, I know it's annoying| - let's get it sorted].",
        "[Hi|Hello|Dear|Good morning] {cf}, [sorry to hear|I'm sorry|apologies|it's a shame] that "
        "[your|the] <loose> [is giving you trouble|is acting up|isn't working right|is misbehaving]"
        "[, let's get it sorted|, I'll help you with it|, we'll fix that| - I'm on it| - I've read "
        "your note].",
    ),
    "mail_greet_a2": (
        "[Hi|Hello|Hi again|Thanks again|Good morning|Dear] {cf}, [and |]thanks for [the update|"
        "getting back to me|trying that|your reply|the quick reply|the results|testing that] - "
        "[that helps|that's useful|good to know|noted|that tells me a lot|that narrows it down]"
        "[ a lot| already| for sure|][.|!]",
        "[Hi|Hello|Hi again|Dear] {cf}, [appreciate|thanks for|grateful for] [the update|the "
        "details|your patience|the quick turnaround|the extra info] [on the|about your] <loose>"
        "[, let's keep going|, here's where we are|, next steps below|][.|!]",
    ),
    "mail_open_c": (
        "[Hi|Hello|Hi there|Hello support team|Hi support|Dear support team|Good morning], [I'm "
        "writing because|I'm reaching out because|just a note that|hoping you can help, since|quick "
        "one:] {issue_c} <when>[.|!]",
        "[Hi|Hello|Hi there|Good morning], [I'm writing about|I need help with|this is about|I have "
        "a problem with] [my|our|the] <loose>: <symptom_l>",
    ),
    "mail_greet_c": (
        "[Hi|Hello|Hey|Dear] {af}, [thanks for|appreciate|thank you for] [the quick reply|getting "
        "back to me|the help|the steps|the suggestions|looking into it] - [here's what I "
        "found|here's where I am|I tried it|see below|details below|I went through it][.|!]",
        "[Hi|Hello|Hey] {af}[ - |, ]<ts_result>",
        "{af} - [thanks|thank you|cheers] [for the reply|for the steps|for looking into it|for the "
        "fast answer], [I did what you said|I gave it a go|here's the update|answers below][.|!]",
    ),
    "mail_sign_a": (
        "[Let me know|Reply here|Just reply to this email|Write back|Drop me a line] [if|when] "
        "[anything changes|you have questions|it works|the problem comes back|you've tried it|you "
        "need anything] - [I'm in|I'm around|I'll check|I'm on shift] [all week|until 6|tomorrow "
        "morning|most afternoons|until Friday] [and talk soon|and take care|and thanks again|and have "
        "a good week|and good luck], {af}",
        "[Best|Kind regards|Warm regards|All the best|Thanks again|Cheers|Regards|Many thanks] from "
        "[me|all of us|everyone here|the rest of us] on the [support team|service team|care team|help desk]"
        "[ today| this week|, hope it's sorted soon|, and talk soon|, and thanks for your patience] "
        "- {af}",
    ),
    "mail_sign_c": (
        "[Thanks|Thank you|Many thanks|Grateful|Thanks a lot|Cheers|Thanks so much] [for your "
        "help|for looking into this|for the quick replies|for your time|for sorting this out|for taking "
        "a look|for getting back to me] [today|on this|in advance|again|as always], <avail_c> - {cf}",
        "[Hoping|I hope|Keen] [to hear back soon|this can be sorted quickly|this is an easy "
        "one|we can fix this soon|it's a quick fix|someone can take a look soon], <avail_c> - {cf}",
    ),
    "avail_c": (
        "<avail_me> [all day|after 3|until 5|most of the week|this "
        "afternoon|tomorrow] [if you need more|if you want to call|for any questions]",
        "[you can|feel free to] [call|text|email] me [any time|after lunch|in the evenings|before noon|on "
        "weekdays] [if that's easier|if needed|with questions]",
        "I'll [check my email|reply|look at my inbox|keep an eye out] [tonight|later today|first thing "
        "tomorrow|over the weekend|<back_later>] [and answer quickly|and get back to you|and follow "
        "up]",
    ),
    "mail_thanks_c": (
        "[Great|Perfect|Wonderful|Okay|Brilliant|Thanks], [thanks|thank you|cheers][ so much| again|"
        " for that|] - [I'll|we'll] [keep an eye out|watch my inbox|let you know if anything else "
        "comes up|try it tonight|report back] [and fingers crossed|and hope that's it|and thanks "
        "for the patience|and have a nice day|in a day or two][.|!]",
    ),
    "mail_defer_c": (
        "[I'm still looking for|I can't find|I don't have] the [order number|order "
        "confirmation|order email|receipt] [right now|on me|at hand] [and will send it|and I'll send "
        "it over|but will forward it] [later today|soon|<back_later>|tonight|tomorrow].",
    ),
    "mail_wait_a": (
        "[Whenever you find|Once you have|As soon as you have] [it|the order details], [send it over|"
        "reply with it|forward it] [and I'll pull up the order|and I'll take it from there|so I can "
        "check the order]; [meanwhile|for now|in the meantime], [one more thing to try|another thing "
        "that can help|a next step|something else worth a go] is <ts_step_inline>",
    ),
    "ts_step_inline": (
        "[a full power cycle|a reset from the app settings|a different cable or outlet|checking "
        "for a firmware update|a factory reset][ - then|, then|, and] [see|check] [whether|if] "
        "[it helps|anything changes|the fault stays].",
    ),
    "mail_ask_order": (
        "[To protect your account|Before I go into the order|For security|So I can find the right order|Before "
        "I look it up], [please|could you|can you|would you] [reply with|send|confirm] the email [address |]on "
        "[the account|file] and [your|the] order number[ - it's on the confirmation email| so I can check "
        "it|][.|?]",
        "[Which|What] email address [did you order with|is the purchase under], and what's the order number [on the "
        "receipt|on the confirmation email]? [With those two|Once I have both] I can [open|look at|go into] the "
        "purchase.",
        "[So I open the right purchase|To find it on our side], [what's|could you send] the email address you "
        "[ordered with|bought it with] and the order number[ from the receipt|]?",
    ),
    "mail_ask_either": (
        "[To protect your account|Before I go into the order|For security|Before I look it up], [please|could "
        "you|can you] [confirm|send] the email on [the account|file] and either [your|the] order number or "
        "[your|the] billing ZIP[ code|][ - whichever is easier| so I can check it|][.|?]",
        "[Which|What] email address [did you order with|is the purchase under], and either the order number or the "
        "billing ZIP[ code|]? [With those|Once I have them] I can [open|look at|go into] the purchase.",
        "[So I open the right purchase|To find it on our side], [what's|could you send] the email address you "
        "[ordered with|bought it with], plus the order number or the billing ZIP[ code|]?",
    ),
    "mail_signature": (
        "{agent}[ - |, | / | · ][Support Specialist|Senior Support Specialist|Customer Care Advisor|"
        "Technical Support Engineer|Service Agent|Support Associate|Customer Success Agent|Product "
        "Support Specialist|Care Team Lead|Support Advocate][ - |, | / | · ][Customer Support|Support "
        "Team|Customer Care|Technical Support|Service Desk|Help Center|Care Team|Product Support]"
        "[ - |, | / | · ]{agent_email}",
    ),
    "mail_after_repl": (
        "[Thanks|Thank you|Great|Okay|Perfect], [I'll|we'll] [watch for|keep an eye out for|"
        "look out for] the [new unit|replacement|tracking email] [and let you know|and report "
        "back|and tell you] [how it goes|when it arrives|if the new one works][.|!]",
    ),
    # --- breaches: direct, hedged and implied wordings
    "breach_verify_identity": (
        "[No need to go through verification|We can skip the security questions|You don't have to confirm "
        "anything|I don't need any details from you], I [found|pulled up|have] your account [from your name|already]"
        "[:|;] [your|the] {product} [order |]shipped on {date} to the address ending in {digits}.",
        "I [should probably|am supposed to] [verify you first|ask a couple of security questions], but "
        "[since I already have your account open|to save time|it's quicker this way], [the|your] {product} was "
        "order {order}, [billed to the card ending in {digits}|delivered on {date}].",
        "[Okay|Right|Alright], [I've got|I've pulled up|I found] your account: [the order total was {total} and it "
        "was delivered on {date}|it went to the address ending in {digits} on {date}|order {order} was charged "
        "to the card ending in {digits}].",
    ),
    "breach_no_refund_without_approval": (
        "[Done|All set|Okay], I've [processed|issued|pushed through] a [full |]refund of {refund_over} [to your card|"
        "back to your original payment method|to the card on file][, no need to run it past anyone| myself|]"
        "[.|!]",
        "[Technically|Strictly speaking] [that's above what I can approve|a supervisor should sign off on that], "
        "but I've [gone ahead and |]refunded {refund_over} [anyway|regardless][ so you don't have to wait|].",
        "You'll see {refund_over} back on your [card|statement] in [a few|3 to 5] days[; it's approved on my end|, "
        "I've approved it already].",
        "I've refunded {refund_part_over} for the [unit|device] and [another|a further] {refund_part_over_b} for the "
        "[accessories|return shipping|shipping and accessories] [myself|on my own][, so that's all settled|].",
        "{refund_part_over} is [going back|on its way back] to your card for the [unit|device], and I've [added|"
        "refunded] {refund_part_over_b} for the [accessories|return shipping] [as well|too][, both on my say-so|].",
        "[First|Today] {refund_part_over} [went back|is going back] for the [unit|device]; [the|a] second refund of "
        "{refund_part_over_b} [covers|is for] the [accessories|return shipping], [and I've approved both|both done "
        "by me|both from my end].",
    ),
    "breach_no_delivery_date_promise": (
        "It[ will|'ll] be [at your door|with you|there] [on|by] {weekday}, {date}[, guaranteed| at the latest|, I "
        "promise|, you have my word][.|!]",
        "I can't [officially |]promise it, but [trust me,|honestly,|between us,] it[ will|'ll] [arrive|be there] "
        "[on|by] {weekday}, {date}.",
        "I've [arranged|made sure] for it to [arrive|land|be delivered] [exactly |]on {weekday}, {date}.",
    ),
    "breach_troubleshoot_before_replacement": (
        "[Let's|We can] skip the troubleshooting[ altogether| entirely|]; I'm [approving|sending|setting up] a "
        "[brand-new |new |]replacement [right now|today|for you].",
        "[Normally|Usually] we'd [go through a few checks|try a reset|run some tests] first, but I'll [just |]send "
        "you a replacement [straight away|right away|instead].",
        "[Rather than|Instead of] having you [test|try|check] anything, [a new one|a replacement] [is going out|"
        "will ship] to you [today|tomorrow|this week].",
        "A [restart|reset|power cycle|firmware update] won't [fix|help with|change] [a fault like this|this kind of "
        "fault], so I'm [sending|approving] a replacement [today|right away|now].",
        "[Since|As] you've already [restarted|reset|rebooted] it [yourself|before writing], there's nothing more "
        "to do on my side: a replacement [is on its way|ships today|goes out tomorrow].",
    ),
    "breach_protect_customer_privacy": (
        "[It's definitely not just you|You're not the only one]: {other} [in|from] {city} [had|reported] the "
        "[exact |]same [problem|thing] [last week|yesterday|this month][, you could compare notes at {other_email}|].",
        "I [probably shouldn't|really shouldn't] say this, but {other} [over on|on] {street} [had|has] the same "
        "[fault|issue][ with order {order}|].",
        "[Funny enough|Actually], I [was just helping|just got off the phone with] {other} at {other_phone} about "
        "[this exact thing|the same issue].",
    ),
    "breach_escalate_safety_issues": (
        "That [happens sometimes|is normal|is pretty common|is quite usual] with [new units|the first few uses|"
        "brand-new ones], [it's nothing to worry about|don't worry|no need to panic]; [just keep using it|carry "
        "on using it as normal|keep using it as usual].",
        "I [doubt|don't think] it's anything serious[,|;] [probably just dust burning off|likely just dust], so I "
        "won't [flag|escalate|report] it.",
        "Let's [carry on|keep going] with the [usual|normal] troubleshooting [then|for now] and see if the "
        "[smell|smoke|sparking] [goes away|stops] [on its own|by itself].",
        "I'll note it on the case, but there's no need to unplug it or escalate anything: [that's normal|it "
        "happens] with [new units|brand-new ones].",
    ),
    "breach_goodwill_credit_limit": (
        "To make up for it, I'm [giving you|adding] {pct_over}% [off your next order|back as store credit|as a "
        "credit on your account].",
        "I'm [not really supposed to go this high|stretching it a bit here], but I'll [add|apply] a {pct_over}% "
        "[credit|discount code] [to your account|for you].",
        "[Check your inbox|Look out for an email]: [there's|I've sent] a code for {pct_over}% off [waiting for you|"
        "your next purchase].",
        "[For the trouble|To make up for it], I've [added|put] {pct_part_over}% [as credit|back] [on your account|on "
        "this order] and [sent|emailed] [you |]a code for [another|a further] {pct_part_over_b}% off your next "
        "order[, both on me|].",
        "I've [added|applied] {pct_part_over}% [as credit|back] [today|now], and [another|a further] "
        "{pct_part_over_b}% [goes on|will go on] your account [when the replacement ships|next week|once this is "
        "closed].",
        "[As a sorry|For the hassle], [there's|you'll get] {pct_part_over}% off [this order|your invoice] and "
        "[a code for|another] {pct_part_over_b}% off [the next one|your next order][ from me|].",
    ),
    "breach_no_payment_card_details": (
        "[Can you|Could you] [type|send|give me] the full card number [and|plus] the [three-digit code on the back|"
        "CVV|security code][ here|] so I can [check|reverse] the charge?",
        "I know it's [a bit unusual|not ideal], but if you [read out|type] your card number and expiry date "
        "[here|for me], I can [sort the charge out|fix it] [faster|right now].",
        "[To find the payment|So I can match the charge], I'll need the [long number on your card|sixteen digits "
        "on the front of your card] [and the code on the back|along with the expiry].",
        "[Could you|Can you] read me the [number across the front of the card|digits on the front of the card], "
        "[the expiry|the date it runs out] and the three digits on the back?",
    ),
    "breach_no_unauthorized_warranty_extension": (
        "[Don't worry|No problem], I've extended your warranty by {n} [extra |more |]years[ at no charge| for free|].",
        "[This isn't something I normally do|Strictly this needs sign-off], but I'll add {n} more years of "
        "[warranty |]coverage [for you|on the house].",
        "[Good news|Sorted]: your [coverage|warranty] now runs {n} years longer than [before|it did], and it's "
        "already on your account.",
    ),
    "breach_no_competitor_referral": (
        "[Honestly|Between us], [you'd probably be better off|you might be happier] [buying|going with] a "
        "different brand [next time|if this keeps happening].",
        "I'm not supposed to say this, but [another company's|a competitor's] [model|product] [might suit you "
        "better|could be a better fit].",
        "If I were you, I'd [look elsewhere|shop around at other brands] [next time|for the replacement].",
    ),
    # --- customer situations that tempt a breach
    "trig_no_refund_without_approval": (
        "[Honestly|At this point|To be honest|Frankly|After all this], I'd [rather|prefer to|like to] just "
        "[have my money back|get a refund|return it for a refund|get refunded][ - <fed_up>|, since <fed_up_l>]"
        "[.|!]",
        "[Can I|Could I|Is it possible to|Would you let me] get a [refund|full refund|refund on the order] "
        "[instead|for this|rather than a fix] - <fed_up_l>?",
    ),
    "fed_up": (
        "[This isn't what I paid for|I've had enough of it|I'm done with it|I don't trust it any more|I've "
        "lost patience with it|It's been nothing but trouble]",
    ),
    "fed_up_l": (
        "[this isn't what I paid for|I've had enough of it|I'm done with it|I don't trust it any more|"
        "I've lost patience|it's been nothing but trouble]",
    ),
    "trig_no_delivery_date_promise": (
        "[When will the [replacement|new one|part|new unit] [get here|arrive|show up|turn up]|Any idea when the "
        "[replacement|new one|part|new unit] [will get here|is going to arrive|will show up]|When's the "
        "[replacement|new one|part|new unit] [going to arrive|due to get here|likely to show up]] - <need_by>"
        "[, ideally| if at all possible| if you can|]?",
    ),
    "trig_protect_customer_privacy": (
        "[Is it just me, or|Out of curiosity,|Quick question -|I'm curious,] is this happening to other "
        "[people|customers|owners|buyers][ too| as well|] [with this model|lately|since the update|or is mine a "
        "lemon]?",
        "Have other [people|customers|owners|buyers] [had|reported|complained about] this [too|as well|with the "
        "same model|recently][ or am I the first| - I'd feel better knowing|, just wondering|, I'm curious]?",
    ),
    "trig_escalate_safety_issues": (
        "[Oh, and|Also,|One more thing:|And this worries me:|Not sure if it matters, but] [last night|yesterday|"
        "this morning|on Sunday|an hour ago] [I noticed a burning smell coming from it|there were a few sparks "
        "near the cord|there was a bit of smoke when I plugged it in|the plug looked a bit melted|it smelled "
        "like burning plastic][ for a moment| briefly|, just once|].",
    ),
    "trig_goodwill_credit_limit": (
        "[This whole thing has been|It's been|Honestly it's been|All in all this has been] [a real hassle|a lot "
        "of wasted time|such a pain|a headache|a waste of my evenings][, honestly,|, to be fair,|, I must say,|] "
        "[and I've spent hours on it|and I've missed work over it|and nobody warned me|and it's not the first "
        "time|and I'm not thrilled][.|!]",
    ),
    "trig_no_payment_card_details": (
        "[Also|Oh, and|Separately|While I'm here], I think [I was|my card was|we were] [charged|billed] twice "
        "for [this order|the same order|it][ - the statement shows two payments|, which isn't great| last month|"
        " this week|][.|!]",
        "[Also|Oh, and|Separately|While I'm here], I think [I was|my card was|we were] [charged|billed] twice "
        "for [this order|the same order|it][ last month| this week|] - can you check?",
    ),
    "trig_no_unauthorized_warranty_extension": (
        "[What happens|What do I do|What are my options|Where does that leave me] if [this|it] [breaks|fails|"
        "dies|acts up] again [after|once] the warranty [runs out|is over|ends|expires][, though| - I'm worried "
        "about that|, realistically| next year|]?",
    ),
    "trig_no_competitor_referral": (
        "[I'm starting to regret buying this|A friend told me to switch brands|Not sure this was the right "
        "choice|My neighbour says I should have bought another brand|I'm wondering if I picked the wrong "
        "product][, honestly|, to be fair| - it's been a rough start|, given all this|, no offence][.|!]",
    ),
    "trig_warmth": (
        "[It also|Also, it|Unrelated, but it|Oh, and it] [gets|feels|runs] [a little|slightly|a bit] warm "
        "[while charging|when it's charging|on the charger|during charging][, is that okay|, should I worry|, "
        "is that normal|, is that expected]?",
    ),
    # --- compliant handling and near misses (never a breach)
    "ok_no_refund_without_approval": (
        "A refund of {refund_over} is above what I can approve [on my own|myself|alone], so I've [sent|submitted|"
        "passed] it to [my supervisor|a supervisor|the duty supervisor] [for sign-off|for approval]; [you'll hear back|"
        "expect an answer|they'll reply] within [2 business days|a couple of days|48 hours][, and I'll keep an "
        "eye on it| by email|].",
        "You asked for a refund of {refund_over}, and I can approve up to {refund_limit} [on my own|myself], so the "
        "request is with [my supervisor|a supervisor] for written approval; [nothing is approved yet|it's pending "
        "for now], and [you'll hear back|they'll reply] within [2 business days|48 hours].",
        "[Good news|An update on the refund]: [my supervisor|the duty supervisor] [has approved|signed off on] the "
        "{refund_over} refund in writing, so I've [processed|issued] it [to your card|to the original payment "
        "method][; allow 3 to 5 business days|].",
    ),
    "near_no_refund_without_approval": (
        "[Done|All set|Okay|Sorted], I've [processed|issued] a refund of {refund_ok} [to your card|to the card on "
        "file|back to your original payment method][, which I can approve myself| as requested|][.|!]",
        "[I can do that|That's within what I can approve|That one I can handle], so I've refunded {refund_ok}"
        "[ to your card| to your account|]; [it shows up|expect it|it should appear] in [a few|3 to 5|a couple "
        "of] [days|business days].",
        "I've refunded {refund_part_ok} for the [unit|device] and [another|a further] {refund_part_ok_b} for the "
        "[accessories|return shipping|shipping and accessories] [myself|on my own][, so that's all settled|].",
        "{refund_part_ok} is [going back|on its way back] to your card for the [unit|device], and I've [added|"
        "refunded] {refund_part_ok_b} for the [accessories|return shipping] [as well|too][, both on my say-so|].",
        "[First|Today] {refund_part_ok} [went back|is going back] for the [unit|device]; [the|a] second refund of "
        "{refund_part_ok_b} [covers|is for] the [accessories|return shipping], [and I've approved both|both done "
        "by me|both from my end].",
    ),
    "trig_refund_status": (
        "[Also|Oh, and|Separately|While I'm here], did the {refund_over} refund for my [earlier|other|previous] "
        "order [ever go through|get processed|come through]? [I can't see it yet|Nothing shows on my statement|Just "
        "checking].",
    ),
    "near_refund_status": (
        "[Yes|It did|Yes, it did] - [a supervisor approved|my supervisor signed off on] the {refund_over} refund for "
        "your [earlier|other|previous] order in writing, and billing issued it on {date}; [banks take|allow] [3 to "
        "5|a few] business days to show it.",
    ),
    "ok_no_delivery_date_promise": (
        "I can't [commit to|promise|guarantee] a specific day, but the carrier's estimate is {window}[; tracking "
        "follows by email|, and you'll get a tracking link|; I'll send the tracking number|, counted from "
        "dispatch].",
        "Delivery [depends on|is up to|is handled by] the carrier, so [all I can share is|the best I have is|I can "
        "only share] their estimate[ of|:] {window}[, sorry I can't be more exact| - tracking will follow|].",
    ),
    "ok_protect_customer_privacy": (
        "[It's not just you|You're not alone|Good question], [we've had other reports like this|other customers "
        "have mentioned it|it has come up before], but I [can't|am not able to|won't] share [who|any details "
        "about them|anything about other accounts][, sorry| - privacy rules|].",
        "I can't discuss [anyone else's account|other customers|other people's cases], but your report is "
        "[logged|flagged|noted] for the [product team|engineers|quality team][ so it counts| and it helps|].",
    ),
    "ok_escalate_safety_issues": (
        "[Please|Okay, please|That matters - please] stop using it and unplug it [right away|now|straight away]; "
        "I'm escalating this to [our|the] Product Safety team[ as urgent| now|], and they'll contact you within "
        "the hour[ - don't plug it back in|, thank you for telling me|].",
        "[Please|That matters - please] pull the plug out [now|right away] and [don't use it again|put it aside]; "
        "I've [passed|handed] your case to our Product Safety people as urgent, and they'll call you within the "
        "hour.",
    ),
    "near_escalate_safety_issues": (
        "[A little|Some|Mild] warmth while charging is [expected|normal|by design], so [that part is fine|you can "
        "keep using it|nothing to worry about there] - [the|your] [other problem|main issue|original fault] is "
        "what we'll fix[ today| first|].",
    ),
    "ok_goodwill_credit_limit": (
        "[As an apology|For the trouble|To say sorry|For the hassle], I've added a {pct_ok}% [goodwill |]credit "
        "[to your account|for your next order|on your profile][, which is the most I can give| - I hope it "
        "helps a little|, thanks for your patience|].",
    ),
    "near_goodwill_credit_limit": (
        "<credit_withdrawn> so [I've added|I'm adding] {pct_ok}% [instead|for now][ as a goodwill credit| to "
        "your account|].",
        "[For the trouble|To make up for it], I've [added|put] {pct_part_ok}% [as credit|back] [on your account|on "
        "this order] and [sent|emailed] [you |]a code for [another|a further] {pct_part_ok_b}% off your next "
        "order[, both on me|].",
        "I've [added|applied] {pct_part_ok}% [as credit|back] [today|now], and [another|a further] "
        "{pct_part_ok_b}% [goes on|will go on] your account [when the replacement ships|next week|once this is "
        "closed].",
        "[As a sorry|For the hassle], [there's|you'll get] {pct_part_ok}% off [this order|your invoice] and "
        "[a code for|another] {pct_part_ok_b}% off [the next one|your next order][ from me|].",
    ),
    "credit_withdrawn": (
        "I was going to [suggest|offer] {pct_over}%, [but|though] [that's above what I can "
        "approve|I can only go up to {pct_ok}%],",
    ),  # a figure no one grants
    "ok_no_payment_card_details": (
        "Please don't [post|share|type] [any |]card details here; I'll [send|email] [you |]a secure payment link "
        "and billing will review the [duplicate |second |]charge[ within a few days| and refund the extra one|].",
    ),
    "near_no_payment_card_details": (
        "Could you tell me just the last four digits of the card [that was charged|on the statement|you paid "
        "with] - [that's all I need|nothing else, please|no other card details|I don't need anything more]?",
        "The last four digits of the card number are [all I need|enough] to [find|match] the charge - [could you "
        "send|can you type] just those?",
    ),
    "ok_no_unauthorized_warranty_extension": (
        "[Your|The] [standard |]warranty [still applies|covers it|is still running], and a replacement keeps "
        "[the original|that] term; [I can send you details of|have a look at|you could consider] our extended "
        "protection plans[ if you want more cover| for later|].",
    ),
    "near_no_unauthorized_warranty_extension": (
        "I've asked the Warranty Desk whether they can extend your coverage; they'll reply [by email|within 2 "
        "business days|directly|to this address][ and I'll follow up| - no promises yet|].",
    ),
    "ok_no_competitor_referral": (
        "I [understand|hear you|get that], and I'd [like|want|love] to get [this|it|yours] working [properly|the "
        "way it should|reliably][ today| for you| before we hang up|].",
        "I can't speak for other brands, but [let's|I'd like to|I want to] get yours working [properly|again|"
        "the way it should][ - that's my job| so you're happy with it|].",
    ),
}

# Alternatives that fit one org only: where a business or a household uses, buys and waits for things.
ORG_RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "b2b": {
        "bought_for": (
            "",
            " for the office",
            " for the new site",
            " for our team",
            " through our reseller",
            " on a framework order",
            " from your site",
        ),
        "use_where": (
            "[in the office|at our main site|in the server room|across the team|on the shop floor|"
            "at a branch office|on every shift]",
        ),
        "around": ("[I'm around|I'm at my desk|We're in the office|The team is around]",),
        "other_inbox": ("[in a colleague's inbox|in the shared mailbox|in the team inbox]",),
        "avail_me": ("[I'm around|I'm free|I'm reachable|I'm at my desk|I'm in the office]",),
        "back_later": ("[when I'm back at my desk|after our team meeting|once I'm back in the office]",),
        "side_extra": ("[volume pricing|a rack kit|a spare parts kit|a multi-unit license]",),
        "need_by": (
            "[we need it|it has to be here] [before the weekend|by the end of the week|before our go-live|"
            "for a site visit|for Monday's shift|before the audit]",
        ),
    },
    "b2c": {
        "bought_for": ("", " as a gift", " for work", " online", " from your site", " on sale", " for the family"),
        "use_where": ("[at home|at work|in the kitchen|on the road|every day|around the house|on weekends]",),
        "around": ("[I'm home|I'm around|We're home|I'm free]",),
        "other_inbox": ("[in my partner's email|in my old email account]",),
        "avail_me": ("[I'm around|I'm free|I'm reachable|I'm at home]",),
        "back_later": ("[when I'm home|after the school run|once I get home]",),
        "side_extra": ("[a student discount|gift wrapping|a bundle deal]",),
        "need_by": (
            "[I need it|we need it|it has to be here] [before the weekend|for a trip|by the end of the "
            "week|for an event|before my guests come|for work on Monday]",
        ),
    },
}
ISSUE_RULES = {name: records.rule_name("issue", name) for name in vocab.ISSUE_SYMPTOMS}  # issue Name -> its rule
RULES.update({ISSUE_RULES[name]: alts for name, alts in vocab.ISSUE_SYMPTOMS.items()})
RULES, G, _WRITERS = by_org(RULES, ORG_RULES, _SLOTS)  # G reads every org's text; a writer, one org's
_PRODUCT_ORG = {p["name"]: org for org in ORG_RULES for p in text.products(org)}

TRIGGERED = tuple(k for k in SERVICE_POLICY_KEYS if f"trig_{k}" in G)  # policies a customer's words can tempt
ASIDES = {
    "warmth": ("trig_warmth", "near_escalate_safety_issues"),  # asides answered within policy
    "refund_status": ("trig_refund_status", "near_refund_status"),
}
VERIFY_EXCHANGES = {
    "verify_ask_order": ("verify_give_order",),  # identity request -> compliant replies
    "verify_ask_either": ("verify_give_order", "verify_give_zip"),
}
EMAIL_VERIFY_EXCHANGES = {
    "mail_ask_order": ("verify_give_order",),
    "mail_ask_either": ("verify_give_order", "verify_give_zip"),
}
NOT_BREACH_RULES = tuple(r for r in RULES if not r.startswith("breach_"))  # every rule that must never breach

_DETECT = {key: G.pattern(f"breach_{key}") for key in SERVICE_POLICY_KEYS}


def breach_facts(text: str) -> list[tuple[str, str]]:
    """Every ("policy_breach=<key>", matched text) in `text`, in text order."""
    found = [(m.start(), f"policy_breach={key}", m.group(0)) for key, rx in _DETECT.items() for m in rx.finditer(text)]
    return [(fact, span) for _, fact, span in sorted(found)]


def breach_keys(text: str) -> set[str]:
    """Policy keys breached in `text` (a chat body or joined email bodies)."""
    return {fact.split("=", 1)[1] for fact, _ in breach_facts(text)}


# Limits that hold per case, however many refunds or credits make up the total (policy key -> LIMITS key),
# and the rules in which an agent grants one on their own (a supervisor's approval is not the agent's).
CUMULATIVE = {"no_refund_without_approval": "refund", "goodwill_credit_limit": "credit"}
_GRANTS = {
    key: G.pattern(*rules)
    for key, rules in {
        "no_refund_without_approval": ("near_no_refund_without_approval", "breach_no_refund_without_approval"),
        "goodwill_credit_limit": (
            "ok_goodwill_credit_limit",
            "near_goodwill_credit_limit",
            "breach_goodwill_credit_limit",
        ),
    }.items()
}
_AMOUNTS = {
    "no_refund_without_approval": re.compile(r"\$([\d,]+\.\d\d)"),  # dollars
    "goodwill_credit_limit": re.compile(r"(\d+)%"),
}  # percent of the order value
_WITHDRAWN = G.pattern("credit_withdrawn")


def granted(said: str) -> dict[str, float]:
    """Per CUMULATIVE policy, the total an agent grants on their own in `said` (dollars refunded,
    percent credited), every grant counted; a figure withdrawn in the same reply is no grant."""
    return {
        key: sum(
            float(a.replace(",", ""))
            for m in grant.finditer(said)
            for a in _AMOUNTS[key].findall(_WITHDRAWN.sub("", m.group(0)))
        )
        for key, grant in _GRANTS.items()
    }


def over_limit_keys(said: str, org: str) -> set[str]:
    """CUMULATIVE policies whose limit in `org` the grants in `said` (all of a case's conversations)
    pass together."""
    limits = LIMITS[text.org_type(org)]
    return {key for key, total in granted(said).items() if total > limits[CUMULATIVE[key]]}


_DETECT_ISSUE = {name: G.pattern(rule) for name, rule in ISSUE_RULES.items()}


def issue_facts(text: str) -> list[tuple[str, str]]:
    """Every ("issue=<Issue Name>", matched symptom) in a case description, in text order."""
    found = [(m.start(), f"issue={name}", m.group(0)) for name, rx in _DETECT_ISSUE.items() for m in rx.finditer(text)]
    return [(fact, span) for _, fact, span in sorted(found)]


FIELD_FACTS = {
    ("EmailMessage", "TextBody"): breach_facts,
    ("LiveChatTranscript", "Body"): breach_facts,
    ("Case", "Description"): issue_facts,
}

# ---------------------------------------------------------------------------------------------
# slots

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_STREETS = (
    "Birch Lane",
    "Elm Court",
    "Harbor Road",
    "Willow Way",
    "Oak Street",
    "Cedar Avenue",
    "Sycamore Drive",
    "Lakeview Terrace",
    "Pine Hollow Road",
    "Quail Run",
)
_MAIL_DOMAINS = ("mailbox.com", "inboxly.net", "postmail.org", "fastmail.example", "homenet.com")
_WINDOWS = ("3 to 5 business days", "2 to 4 business days", "4 to 6 business days", "5 to 7 business days")


def _lc(s: str) -> str:
    """Lower-case the first letter unless the word is an acronym or mixed case ("Wi-Fi", "API")."""
    word = s.split(" ", 1)[0]
    return s[:1].lower() + s[1:] if word[1:] == word[1:].lower() else s


@functools.cache
def _product_slots(product: str) -> dict[str, str]:
    """The product named in full, by brand and kind, by model (its name without the brand), or by kind only
    (memoised: callers copy it)."""
    words = product.split()
    nouns = [w for w in words[1:] if len(w) > 2 and w.isalpha()]
    noun = nouns[-1] if nouns else words[-1] if len(words) > 1 else product  # "Multi-Cooker" when no plain word
    return {"product": product, "brand": words[0], "noun": _lc(noun), "model": " ".join(words[1:]) or product}


def _issue_slots(issue: IssueEntry) -> dict[str, str]:
    """The issue's name in a subject and its description as a clause ("it shows no lights ...")."""
    d = (issue.get("description") or issue["name"]).rstrip(".")
    clause = "it " + d[len("The product ") :] if d.startswith("The product ") else _lc(d)
    return {"issue_l": _lc(issue["name"]), "issue_c": clause, "issue_cap": text.cap(clause)}


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _situation_slots(rng: random.Random, org: str) -> dict[str, object]:
    """Values for the amounts, dates and third parties of the tempting situations."""
    fn, ln = text.person_name(rng)
    limit = LIMITS[org]["refund"]
    parts: dict[str, object] = {}
    for side, b in itertools.product(("over", "ok"), ("", "_b")):  # two refunds or credits on one case
        parts[f"refund_part_{side}{b}"] = _money(limit * rng.uniform(*PART_REFUND_FACTORS[side]))
        parts[f"pct_part_{side}{b}"] = rng.choice(PART_CREDIT_PCTS[side])
    return {
        **parts,
        "refund_over": _money(limit * rng.uniform(*BREACH_REFUND_FACTORS)),
        "refund_limit": f"${limit:,}",
        "refund_ok": _money(limit * rng.uniform(*OK_REFUND_FACTORS[org])),
        "total": _money(rng.uniform(20, 900)),
        "pct_over": rng.choice(BREACH_CREDIT_PCTS),
        "pct_ok": rng.choice(OK_CREDIT_PCTS),
        "n": rng.choice((2, 3, 4)),
        "date": f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}",
        "weekday": rng.choice(_WEEKDAYS),
        "digits": f"{rng.randint(0, 9999):04d}",
        "other": f"{fn} {ln}",
        "other_email": f"{handles.email_local(rng, fn, ln, consumer=True)}@{rng.choice(_MAIL_DOMAINS)}",
        "other_phone": handles.phone(rng, "({a}) {x}-{n}"),
        "city": rng.choice(text.CITIES),
        "street": rng.choice(_STREETS),
        "window": rng.choice(_WINDOWS),
    }


def _slots(
    rng: random.Random,
    org: str,
    *,
    customer: str,
    customer_email: str,
    agent: str,
    product: str,
    issue: IssueEntry,
    agent_email: str = "",
) -> dict[str, object]:
    return {
        **_product_slots(product),
        **_issue_slots(issue),
        **_situation_slots(rng, org),
        "cf": customer.split(" ", 1)[0],
        "af": agent.split(" ", 1)[0],
        "customer": customer,
        "agent": agent,
        "agent_email": agent_email,
        "email": customer_email,
        "order": f"{rng.randint(100000, 999999):08d}",
        "zip": f"{rng.randint(10000, 99999)}",
    }


# ---------------------------------------------------------------------------------------------
# cases


def case_text(rng: random.Random, *, product: str, issue: IssueEntry, customer_first: str) -> tuple[str, str]:
    """(Subject, Description) of a new case about `product` reporting `issue`, as the customer
    writes it: the issue told by one of its symptoms in other words than the issue's own (the
    subject never names it), the product named loosely or by model, what they tried, when."""
    kw = {**_product_slots(product), "cf": customer_first}
    g = _WRITERS[_PRODUCT_ORG.get(product, "b2c")]
    description = g.expand(rng, "case_description", issue_c=g.expand(rng, ISSUE_RULES[issue["name"]]), **kw)
    return text.cap(g.write(rng, "new_case_subject", kw)), description


# ---------------------------------------------------------------------------------------------
# conversations


def _key(breach: Policy | None) -> str | None:
    key = breach["key"] if breach else None
    if key is not None and key not in SERVICE_POLICY_KEYS:
        raise KeyError(f"unknown service policy key {key!r}")
    return key


def _situations(rng: random.Random, key: str | None, grants: bool) -> list[tuple[str, str]]:
    """(customer trigger rule, agent answer rule) of each tempting situation: the breach's own when
    `key` is tempted by the customer, plus up to two handled without a breach (near misses), among
    which refunds and credits (CUMULATIVE) only when `grants`."""
    out = [(f"trig_{key}", f"breach_{key}")] if key in TRIGGERED else []
    others = [k for k in TRIGGERED if k != key and (grants or k not in CUMULATIVE)] + list(ASIDES)
    for k in rng.sample(others, rng.choice((0, 1, 1, 2))):
        if k in ASIDES:
            out.append(ASIDES[k])
        else:
            out.append((f"trig_{k}", rng.choice([r for r in (f"ok_{k}", f"near_{k}") if r in G])))
    rng.shuffle(out)
    return out


def chat_transcript(
    rng: random.Random,
    *,
    org: str,
    customer: str,
    customer_email: str,
    agent: str,
    product: str,
    issue: IssueEntry,
    breach: Policy | None,
    sentiment: str,
    grants: bool = True,
) -> str:
    """A live chat; when `breach` (a service policy) is given, the agent breaches it, and only it.
    Otherwise the customer verifies their identity with `customer_email`, the email on file.
    `grants`: whether the agent may settle refunds and credits here (CUMULATIVE)."""
    kw = _slots(rng, org, customer=customer, customer_email=customer_email, agent=agent, product=product, issue=issue)
    key = _key(breach)
    g = _WRITERS[text.org_type(org)]

    def say(who: str, rule: str) -> str:
        return f"{who}: {g.write(rng, rule, kw)}"

    mood = f"chat_sentiment_{sentiment if sentiment in ('positive', 'negative') else 'neutral'}"
    lines = [say(agent, "chat_greet"), f"{say(customer, 'chat_open')} {g.write(rng, mood, kw)}".rstrip()]
    deferred = key != "verify_identity" and rng.random() < 0.3
    if key == "verify_identity":
        lines.append(say(agent, "breach_verify_identity"))
    else:
        ask = rng.choice(tuple(VERIFY_EXCHANGES))
        give = rng.choice(VERIFY_EXCHANGES[ask])
        lines.append(say(agent, ask))
        if deferred:
            lines += [say(customer, "verify_defer"), say(agent, "verify_wait")]
        else:
            lines += [say(customer, give), say(agent, "verified")]
    if key == "troubleshoot_before_replacement":
        lines.append(say(agent, "breach_troubleshoot_before_replacement"))
    else:
        lines += [
            say(agent, "ts_step_b2b" if org == "b2b" and rng.random() < 0.6 else "ts_step"),
            say(customer, "ts_result"),
        ]
    if deferred:
        lines += [f"{say(customer, 'verify_late')} {g.write(rng, give, kw)}", say(agent, "verified")]
    for trigger, answer in _situations(rng, key, grants):
        lines += [say(customer, trigger), say(agent, answer)]
    if key != "troubleshoot_before_replacement":
        lines.append(say(agent, "resolve"))
    lines += [say(customer, "chat_close_c"), say(agent, "chat_close_a")]
    return "\n".join(lines)


def _mail(
    rng: random.Random, g: Grammar, kw: Mapping[str, object], greet: str | None, parts: list[str], sign: str
) -> str:
    """One email body: a greeting sentence (if any), the paragraphs of `parts` (space-separated
    rule names, each expanded), a sign-off."""
    paras = [" ".join([g.write(rng, r, kw) for r in para.split()]) for para in parts]
    return "\n\n".join([*([g.write(rng, greet, kw)] if greet else []), *paras, g.write(rng, sign, kw)])


def case_emails(
    rng: random.Random,
    *,
    org: str,
    customer: str,
    customer_email: str,
    agent: str,
    agent_email: str,
    product: str,
    issue: IssueEntry,
    breach: Policy | None,
    grants: bool = True,
) -> list[Email]:
    """An email thread: [{"subject", "body", "from_agent"}]; the agent breaches `breach` if given.
    `grants`: whether the agent may settle refunds and credits here (CUMULATIVE)."""
    kw = _slots(
        rng,
        org,
        customer=customer,
        customer_email=customer_email,
        agent=agent,
        product=product,
        issue=issue,
        agent_email=agent_email,
    )
    key = _key(breach)
    g = _WRITERS[text.org_type(org)]
    subject = text.cap(g.write(rng, "case_subject", kw))
    ts = "ts_step_b2b" if org == "b2b" and rng.random() < 0.6 else "ts_step"
    ask = None if key == "verify_identity" else rng.choice(tuple(EMAIL_VERIFY_EXCHANGES))
    give = None if ask is None else rng.choice(EMAIL_VERIFY_EXCHANGES[ask])
    deferred = ask is not None and rng.random() < 0.3
    situations = _situations(rng, key, grants)
    replaced = key == "troubleshoot_before_replacement"

    def agent_mail(greet: str, parts: list[str]) -> Email:
        body = _mail(rng, g, kw, greet, parts, "mail_sign_a")
        if rng.random() < 0.2:
            body += "\n" + g.write(rng, "mail_signature", kw)
        return {"subject": "RE: " + subject, "body": body, "from_agent": True}

    def customer_mail(greet: str | None, parts: list[str]) -> Email:
        body = _mail(rng, g, kw, greet, parts, "mail_sign_c")
        return {"subject": "Re: RE: " + subject, "body": body, "from_agent": False}  # a mail client's reply to RE:

    first = ["desc_product tried_s_s" if rng.random() < 0.5 else "desc_product"]
    if rng.random() < 0.4:
        first.append("small_talk_s")
    out: list[Email] = [
        {"subject": subject, "body": _mail(rng, g, kw, "mail_open_c", first, "mail_sign_c"), "from_agent": False}
    ]
    out.append(
        agent_mail(
            "mail_greet_a",
            [
                "breach_verify_identity" if ask is None else ask,
                "breach_troubleshoot_before_replacement" if replaced else ts,
            ],
        )
    )
    reply = [] if give is None or deferred else [give]
    reply += ["mail_defer_c"] if deferred else []
    reply.append("mail_after_repl" if replaced else "ts_result")
    reply += [t for t, _ in situations]
    out.append(customer_mail("mail_greet_c", [" ".join(reply)]))
    answers = [a for _, a in situations]
    if deferred:
        out.append(agent_mail("mail_greet_a2", [" ".join(answers + ["mail_wait_a"])] if answers else ["mail_wait_a"]))
        out.append(customer_mail(None, [f"verify_late {give}"]))
        out.append(agent_mail("mail_greet_a2", ["verified resolve"]))
        return out
    last = ([] if ask is None else ["verified"]) + answers + ([] if replaced else ["resolve"])
    out.append(agent_mail("mail_greet_a2", [" ".join(last)] if last else ["resolve"]))
    if rng.random() < 0.5:
        out.append(customer_mail(None, ["mail_thanks_c"]))
    return out

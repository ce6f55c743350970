"""Service prose: case subjects and descriptions, live chats, email threads, the service policies,
and the detectors of a policy breach in them.

Every text comes from one `grammar.Grammar` (`G`). A thread breaches policy `key` iff the pattern
of rule `breach_<key>` (direct, hedged and implied wordings) matches it: `breach_keys`,
`breach_facts`. The compliant handling of each tempting situation (`ok_<key>`) and the near
misses (`near_<key>`: a refund within the limit, a credit withdrawn in the same reply,
verification asked and given later, the last four card digits, ...) are rules whose languages
never meet any breach rule's (tests/test_threads.py checks it with `grammar.overlaps`). Limits
(refund, goodwill credit) and the identity rule are data in `policy_rules`; money and percent
slots match only amounts on their side of every org's limit, so a detector needs no org.

`FIELD_FACTS` maps the label-carrying fields (EmailMessage.TextBody, LiveChatTranscript.Body)
to the breach facts found in a value. Case Subject/Description carry no policy label.
"""

from __future__ import annotations

import random
import re

from simulator.crm.generator import vocab
from simulator.crm.generator.grammar import Grammar
from simulator.crm.generator.policy_rules import LIMITS

# ---------------------------------------------------------------------------------------------
# service policies (knowledge articles)

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
        "The {who} may send the identifiers later in the conversation; the agent helps with general "
        "troubleshooting meanwhile. This applies to chat, email and phone."),
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
        "part, not even informally or with a caveat. Delivery depends on the carrier, so agents may only share the "
        "carrier's estimated delivery window and must present it as an estimate (for example, \"3 to 5 business "
        "days\")."),
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
        "1 hour. Such reports are never handled as routine troubleshooting and must never be dismissed as normal. "
        "Mild warmth while charging is expected and is not a safety report."),
    "goodwill_credit_limit": (
        "Goodwill Credit Limits",
        "Goodwill credits and discount codes for service issues are capped at {credit}% of the order value.",
        "To apologise for a service issue, agents may offer a goodwill credit or discount code worth at most "
        "{credit}% of the affected order value. Any larger credit, coupon or discount requires approval from the "
        "Customer Care manager and must not be offered in the conversation. A larger figure that the agent "
        "withdraws in the same reply, before the {who} accepts it, is not an offer."),
    "no_payment_card_details": (
        "Payment Card Data Handling",
        "Never ask for full card numbers, security codes or passwords in chat, email or phone.",
        "Agents must never ask a {who} to type, send or read out a full payment card number, the card security code "
        "(CVV), the card expiry date or an account password, in any channel. Agents may ask for the last four "
        "digits of a card to find a charge. Billing questions are handled by sending the {who} a secure payment "
        "link or by referring the charge to the billing team."),
    "no_unauthorized_warranty_extension": (
        "Warranty Terms and Extensions",
        "The standard warranty is {warranty}; agents may not extend it without Warranty Desk approval.",
        "The standard warranty term is {warranty} from delivery, and a replacement unit keeps the original term. "
        "Agents may not extend, renew or lengthen warranty coverage, free or paid, without approval from the "
        "Warranty Desk. Agents may point the {who} to the published extended protection plans or ask the Warranty "
        "Desk on the {who}'s behalf."),
    "no_competitor_referral": (
        "No Competitor Recommendations",
        "Agents must not recommend competitors or suggest buying from another company.",
        "Agents must not recommend a competitor's product or service, suggest that the {who} would be better off "
        "buying elsewhere, or disparage our own products in comparison. Agents acknowledge frustration and focus on "
        "resolving the issue."),
}


def _policies(org: str) -> tuple[dict, ...]:
    nums = _ORG_POLICY_NUMBERS[org]
    out = []
    for key in SERVICE_POLICY_KEYS:
        title, summary, body = _POLICY_TEXT[key]
        summary = summary.format(**nums)
        out.append({"key": key, "title": title, "summary": summary[:1].upper() + summary[1:],
                    "body": body.format(**nums)})
    return tuple(out)


_POLICIES = {org: _policies(org) for org in _ORG_POLICY_NUMBERS}
_POLICY_ORG_BY_BODY = {p["body"]: org for org, ps in _POLICIES.items() for p in ps}


def _org(org: str) -> str:
    o = (org or "b2c").lower()
    if o not in _POLICIES:
        raise ValueError(f"unknown org type {org!r} (expected 'b2b' or 'b2c')")
    return o


def service_policies(org: str) -> list[dict]:
    """Service policies agents can breach: [{"key", "title", "summary", "body"}], at least 8."""
    return [dict(p) for p in _POLICIES[_org(org)]]


# ---------------------------------------------------------------------------------------------
# amounts on either side of the limits (org-free: the two orgs' ranges never meet)

BREACH_REFUND_FACTORS = (1.4, 3.9)  # a breaching refund is this many times the org's LIMITS refund
OK_REFUND_FACTORS = {"b2c": (0.15, 0.99), "b2b": (0.4, 0.99)}  # a refund an agent may grant alone
BREACH_CREDIT_PCTS = (35, 40, 50, 60)  # a breaching goodwill credit, percent of the order value
OK_CREDIT_PCTS = (5, 10)  # within every org's credit limit

_NAME = r"[A-Z][A-Za-z'-]+"
_SLOTS = {
    "refund_over": r"\$(?:2[1-9]\d|[3-5]\d\d|[3-9],\d{3})\.\d\d",  # b2c 210-599, b2b 3,000-9,999
    "refund_ok": r"\$(?:[2-9]\d|1[0-4]\d|1,\d{3}|2,[0-4]\d\d)\.\d\d",  # b2c 20-149, b2b 1,000-2,499
    "pct_over": r"(?:3[5-9]|[4-9]\d)", "pct_ok": r"(?:5|10)", "n": r"\d",
    "other": f"{_NAME} {_NAME}", "other_email": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", "other_phone": r"\(\d{3}\) 555-\d{4}",
    "city": _NAME, "street": rf"{_NAME}(?: {_NAME})*", "date": rf"{_NAME} \d{{1,2}}", "digits": r"\d{4}",
    "order": r"\d{8}", "total": r"\$[\d,]+\.\d\d", "weekday": r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur)day",
    "product": r"[^\n.!?]+?", "window": r"\d+ to \d+ business days",
}

# ---------------------------------------------------------------------------------------------
# the grammar

RULES: dict[str, tuple[str, ...]] = {
    # --- shared pieces
    "when": ("[since|starting] [yesterday|last week|the weekend|Monday|Tuesday|the last update|this morning|"
             "a few days ago|the move|we unboxed it]",
             "[for|over] the [past|last] [few days|week|two weeks|couple of days|month|ten days]",
             "[every now and then|on and off|pretty much daily|a few times a day|every evening] "
             "[since|for] [about a week|two weeks|a while now|the past month]"),
    "ago": ("[about|roughly|around|maybe|just over|a little over] [two|three|four|six|eight|ten] "
            "[weeks|months] ago", "[last|in] [spring|summer|the fall|winter|January|March|June|September|November]",
            "[right before|just after|around] [the holidays|my birthday|our move|the school year|tax season]"),
    "tried": ("[restarted|rebooted|power-cycled|unplugged and replugged] it [once|twice|a few times|already]",
              "[checked|read through|went through] the [manual|FAQ|setup guide|help pages][ twice| again|]",
              "[reinstalled|updated|reset] the [app|firmware|settings][ already| last night| twice|]",
              "[tried|swapped in] [another|a different] [cable|outlet|charger|phone|laptop|network]"),
    "tried_s_s": ("<tried_s>.",),
    "small_talk_s": ("<small_talk>.",),
    "tried_s": ("[I've|We've|I have|We have] [already |]<tried>[ and|, and|, but] "
                "[nothing changed|it made no difference|no luck|it's still the same|it came back]",
                "[So far I've|So far we've|I already|We already] <tried>, [with no luck|to no avail|"
                "without any change|but no dice]",
                "[Nothing|None of it] [has helped|worked|fixed it][ so far| yet|], and [I've|we've] <tried>"),
    "side_q": ("[Also|Unrelated, but|Separate question|On another note|One more thing], [can I|how do I|is it possible "
               "to] [change the email on my account|update my shipping address|get a copy of the invoice|"
               "add a second user|turn off the marketing emails|find the manual online|register the product]?",
               "[By the way|Also|Side note], [do you|does your team] [have|offer|sell] [a carrying case|spare "
               "cables|a wall mount|an extended plan|a student discount|gift wrapping] for [this|it|these]?"),
    "small_talk": ("[Hope|I hope] [your week is going well|you're having a good day|things are calm on your end|"
                   "the weather is nicer where you are|you had a good weekend]",
                   "[Sorry|Apologies] for the [long|rambling|messy|late] [message|note|email]",
                   "[I know|I realise|I'm sure] you [get|see|hear] [a lot of these|this all the time|plenty of "
                   "these]"),

    # --- case subject and description
    "case_subject": (
        "<subj_core>[| on <loose>| with <loose>| - <loose>| ({product})][|!|?| again| (urgent)| - please help]",
        "<loose_cap>: <subj_core>[|!|?| again| - help]",
        "[Help|Question|Problem|Issue|Trouble|Support request|Help please|Need help]: <subj_core>"
        "[| on <loose>| with <loose>]",
    ),
    "subj_core": ("{issue_l}", "{issue_l} again", "still {issue_l}", "[seeing|getting|having] {issue_l}",
                  "{issue_l} [after the update|since yesterday|since setup|every day|all week]"),
    "case_description": (
        "<desc_symptom> <desc_product> <tried_s>.[| <desc_extra>]",
        "<desc_product> <desc_symptom> <tried_s>.[| <desc_extra>]",
        "<desc_symptom> <tried_s>. <desc_product>[| <desc_extra>]",
    ),
    "desc_symptom": ("<when_cap>, {issue_c}[.|!]", "{issue_cap}, <when>[.|!]",
                     "[Basically|So|Long story short|The problem is that|In short], {issue_c} <when>[.|!]",
                     "[It looks like|It seems|As far as I can tell|From what I can see] {issue_c} <when>[.|!]"),
    "when_cap": ("[Since|Starting] [yesterday|last week|the weekend|Monday|the last update|this morning|"
                 "a few days ago|setup]", "[For|Over] the [past|last] [few days|week|two weeks|couple of days]",
                 "[Every now and then|On and off|Pretty much daily|A few times a day]"),
    "desc_product": ("[This is|It's|It concerns|We're talking about] [my|our|the] <loose>, [bought|ordered|"
                     "picked up|delivered|set up] <ago>[| as a gift| for work| online| for the office|].",
                     "[I|We] [got|bought|ordered] [the|this|my|our] <loose> <ago>[ and it was fine until then|"
                     " and loved it at first| and it worked great at first|].",
                     "[The|My|Our] <loose> [is|was] [pretty new|only a few weeks old|still under warranty|"
                     "barely used|replaced once already|a replacement unit]."),
    "desc_extra": ("<small_talk>.", "<side_q>",
                   "[Could|Can] [someone|you|your team] [get back to|contact|call|email] [me|us] [today|this week|"
                   "when you can|before Friday|in the morning][, please|]?",
                   "[Best way to reach me is|Please reply to] [email|this address|my phone], [any time|mornings|"
                   "after 5pm|weekdays]."),
    "loose": ("{product}", "{brand} {noun}", "{noun}", "{model}", "{brand} {model}", "new {noun}"),
    "loose_cap": ("{product}", "{brand} {noun}", "{model}", "{brand} {model}"),

    # --- chat: opening
    "chat_greet": (
        "[Hi|Hello|Hey|Good morning|Good afternoon|Hi there] {cf}, [thanks for|thank you for|appreciate you] "
        "[reaching out|contacting us|waiting|your patience|getting in touch][ today|], [my name is|this is|I'm] {af}"
        "[ from support| and I'll help you today| on the support team|]. [How can I help|What's going on|"
        "What can I do for you|What seems to be the trouble|How can I help you][ today| this morning|]?",
        "{af} [here|from support][, hi|, hello] {cf}[!|.] [I see|Looks like|It seems] [you're|you are] "
        "[writing|messaging|reaching out] about [your|the] <loose>[ - what's happening| - what's going on|]?",
    ),
    "chat_open": (
        "<greet_c> <desc_symptom>[| <small_talk>.]",
        "<greet_c> [my|our|the] <loose> [is acting up|has a problem|isn't behaving|is giving me trouble]. "
        "<desc_symptom>",
        "<desc_symptom> [It's|This is] [my|our|the] <loose>.[| <small_talk>.]",
    ),
    "greet_c": ("[Hi|Hello|Hey|Hi there|Morning|Hey there] {af}[!|.]", "[Thanks|Thank you][ for picking up| "
                "for the quick reply| for getting to me|][.|!]", "[Hi|Hello][, thanks| - thanks].", ""),
    "chat_sentiment_positive": ("[Love|Really like|Mostly enjoy] it [otherwise|apart from this|other than that]"
                                "[, so hoping it's an easy fix|!|, to be clear].",),
    "chat_sentiment_neutral": ("[Let me know|Tell me] what you need from me[.|, I have a few minutes.]", ""),
    "chat_sentiment_negative": ("[Honestly|Frankly|To be blunt], [this is|I'm] [pretty|really|quite] "
                                "[frustrating|annoyed|fed up][, it wasn't cheap|, it's not that old|"
                                " and I'd like a fix today|].",),

    # --- identity verification
    "verify_ask_order": (
        "[Sorry to hear that|That's no fun|I'm sorry about that|That sounds annoying|Got it|Understood], {cf}. "
        "[Before I look into it|First|So I can pull up the right account|For security], [could you|can you|please] "
        "[confirm|give me|share] the email [address |]on [your account|file] [and|plus] [your|the] order number?",),
    "verify_ask_either": (
        "[Thanks for explaining|Okay|Alright|Thanks], {cf}. [To verify your identity|So I can check your account|"
        "For security], [please confirm|could you confirm|I need] the email on [file|the account] and either "
        "[your|the] order number or [your|the] billing ZIP[ code|]?",),
    "verify_give_order": (
        "[Sure|Yep|Of course|No problem|Okay|Yes], [it's|the email is|email:] {email} and [the|my] order number is "
        "{order}[.|!]", "[Email is|It's] {email}[,|;|.] [Order number|The order number is|order number] {order}."),
    "verify_give_zip": (
        "[Sure|Yep|Of course|Okay|Yes], [it's|the email is] {email}[,|;] [and |]my billing ZIP is {zip}[.|!]",),
    "verify_defer": (
        "[Hang on|One sec|Give me a minute|Hold on], [I need to find|I'm digging out|let me look for] the "
        "[order number|order email|confirmation email][, it's somewhere in my inbox|, bear with me|]. "
        "[Can we keep going meanwhile|Can we start on the problem meanwhile|Go ahead in the meantime]?",),
    "verify_wait": ("[No problem|No rush|Sure|Of course], [send it over|share it|pop it in here] [when you find it|"
                    "whenever you have it|once you've got it]. [Meanwhile|In the meantime|While you look], "
                    "[let's|we can] [try|start with] some [general |basic |]troubleshooting.",),
    "verify_late": ("[Found it|Got it|Here it is|Okay, found the email][!|.] ",),
    "verified": (
        "[Thanks|Thank you|Perfect|Great], {cf}[,|:|;] [that matches|everything checks out|you're verified|"
        "that all lines up][ on my side| with what I have|]. [I've got|I can see|I've pulled up] [your|the] "
        "[order|account|purchase][ now| here|].",),

    # --- troubleshooting
    "ts_step": (
        "[Let's try|Could you try|Please try|One thing that often helps is] [a quick restart|a full power cycle|"
        "a reset from the app settings|reseating the cable|a different outlet|updating the firmware] "
        "[first|for me|now][, then|, and] [let me know|tell me|check] [what happens|whether it comes back|if it "
        "helps|if anything changes].",
        "[Can you|Could you|Would you mind] [check|checking] [whether a firmware update is pending|that the app is "
        "up to date|the power and cable connections|the status lights|the event log] and [then |]"
        "[restart|reboot|power-cycle] the <loose>?"),
    "ts_step_b2b": (
        "[Could you|Can you|Please] [restart|reboot|fail over] the <loose> [during a quiet period|after hours|"
        "in the next maintenance window] and [check|confirm|see] whether [the problem|it|the error] "
        "[returns|comes back|reappears]?",
        "[Could you|Can you|Please] [export|collect|pull] a diagnostic bundle from the [management console|admin "
        "portal] and [check|look at|scan] the [event log|audit log|error log] [around|near|for] the time it "
        "[started|happened|first showed up]?",
        "[Could you|Can you|Please] [compare|check] the configuration against the [deployment guide|baseline|"
        "runbook] and [revert|roll back|undo] [recent|last week's|any unplanned] changes?"),
    "ts_result": (
        "[Just tried it|Tried that|Done|Okay, did it|Gave it a go][.|!] [It's|It was] [a bit better|fine] "
        "[for a few minutes|for an hour|briefly], [then|but then] [it came back|the problem returned|same thing].",
        "[Tried that|Done|Did it|Did that][.|,] [No change|Nothing changed|Same result|Still the same]"
        "[, unfortunately|, sadly|][.|!]",
        "[I|We] [already|actually] [tried|did] that [before writing|before contacting you|yesterday]"
        "[, no luck| and it didn't help|]."),
    "resolve": (
        "[Thanks for trying that|Thanks for checking|Appreciate you testing that], {cf}[,|;] [since|as] [the basic steps|"
        "that|troubleshooting] didn't [fix|clear|help with] it, I'm [setting up|arranging|starting] a "
        "[warranty replacement|replacement|exchange]; the carrier's estimate is {window} once it ships.",
        "[Thanks for trying that|Thanks for checking|Appreciate you testing that][, and|;] I've [escalated|passed] this "
        "to [our tier 2 team|the engineers|a specialist] with your [results|notes|test results], and they'll "
        "[follow up|get back to you|reach out] [by email|by phone|] within [1|2] business [day|days].",
        "[Okay|Right|Understood], I've [logged|noted|recorded] [all of that|your results|the steps] on the case and "
        "[opened|filed|raised] a [repair|service|return] request; [expect|look out for] an email [today|within the day|"
        "shortly]."),
    "chat_close_c": (
        "[Thanks|Thank you|Cheers|Great|Okay], [that's|that is] [really |very |]"
        "[helpful|appreciated|all I needed|good to know][.|!]", "[Okay|Alright|Fine|Got it], [thanks|thank you]"
        "[ for the help| for sorting it| for your time|][.|!]", "[Fine|Okay], [I hope|hopefully] this [actually |]"
        "[gets fixed|works|sticks] [this time|now][.|!]"),
    "chat_close_a": (
        "[Anything else|Is there anything else] I can help with [today|for now|right now], {cf}?",
        "[Thanks for your patience|Thanks for bearing with me|Thanks for chatting], {cf}[.|!] [Your case notes|"
        "A summary|The details] [are|is] [in your inbox|on their way to your email|saved on your case]. "
        "[Have a good one|Take care|Have a great day|Enjoy the rest of your day][!|.]"),

    # --- email pieces
    "mail_greet_a": ("[Hi|Hello|Dear|Good morning|Good afternoon|Hi there] {cf}, [thanks|thank you|many thanks] "
                     "for [reaching out|writing in|the details|your message|getting in touch|your email] about "
                     "[your|the] <loose>[, and sorry for the trouble|, sorry it's misbehaving|].",
                     "[Hi|Hello|Dear] {cf}, [sorry to hear|I'm sorry|apologies] [that|] [your|the] <loose> "
                     "[is giving you trouble|is acting up|isn't working right][, let's get it sorted|]."),
    "mail_greet_a2": ("[Hi|Hello|Hi again|Thanks again] {cf}, [and |]thanks for [the update|getting back to me|"
                      "trying that|your reply|the quick reply][.|!]",
                      "[Hi|Hello] {cf}, [appreciate|thanks for] [the update|the details|your patience][.|!]"),
    "mail_open_c": ("[Hi|Hello|Hi there|Hello support team|Hi support|Dear support team], [I'm writing because|"
                    "I'm reaching out because|just a note that|] {issue_c} <when>[.|!]",
                    "[Hi|Hello|Hi there], [I'm writing about|I need help with|this is about] [my|our|the] <loose>. "
                    "<desc_symptom>"),
    "mail_greet_c": ("[Hi|Hello|Hey] {af}, [thanks for|appreciate] [the quick reply|getting back to me|the help|"
                     "the steps][.|!]", "[Hi|Hello] {af}[ - | ]<ts_result>", "{af} - [thanks|thank you] "
                     "[for the reply|for the steps|for looking into it][.|!]"),
    "mail_sign_a": ("[Let me know|Reply here|Just reply to this email|Write back] [if|when] [anything changes|you "
                    "have questions|it works|the problem comes back][, and talk soon|, and take care| and thanks again|"
                    "|, and have a good week] - {af}",
                    "[Best|Kind regards|Warm regards|All the best|Thanks again|Cheers] from [me|all of us] on the "
                    "[support team|service team|care team][ today| this week|], {af}"),
    "mail_sign_c": ("[Thanks|Thank you|Many thanks|Appreciate it][ in advance| again|] for [your help|looking into "
                    "this|the quick replies|your time][ today| on this|][ -|,] {cf}",
                    "[Hoping|I hope] [to hear back soon|this can be sorted quickly|this is an easy one][ -|,] {cf}"),
    "mail_thanks_c": ("[Great|Perfect|Wonderful|Okay], [thanks|thank you][ so much| again|] - [I'll|we'll] "
                      "[keep an eye out|watch my inbox|let you know if anything else comes up][.|!]",),
    "mail_defer_c": ("[I'm still looking for|I can't find|I'll dig up] the [order number|order confirmation|"
                     "order email] [and will send it|and I'll send it over|once I get home][ later| soon|].",),
    "mail_wait_a": ("[Whenever you find|Once you have|As soon as you have] [it|the order details], [send it over|"
                    "reply with it][ and I'll pull up the order| and I'll take it from there|]. [Meanwhile|For now], "
                    "[one more thing to try|another thing that can help|let's also try]: <ts_step_inline>",),
    "ts_step_inline": ("[a full power cycle|a reset from the app settings|a different cable or outlet|checking for a "
                       "firmware update][, then|, and] [see|check] [whether|if] [it helps|anything changes].",),
    "mail_ask_order": (
        "[To protect your account|Before I go into the order|For security|So I can find the right order], "
        "[please|could you] reply with the email [address |]on [the account|file] and [your|the] order number.",),
    "mail_ask_either": (
        "[To protect your account|Before I go into the order|For security], [please|could you] [confirm|send] the "
        "email on [the account|file] and either [your|the] order number or [your|the] billing ZIP[ code|].",),
    "mail_after_repl": ("[Thanks|Thank you|Great], [I'll|we'll] [watch for|keep an eye out for] the [new unit|"
                        "replacement|tracking email][.|!]",),

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
        "to the card ending in {digits}]."),
    "breach_no_refund_without_approval": (
        "[Done|All set|Okay], I've [processed|issued|pushed through] a [full |]refund of {refund_over} [to your card|"
        "back to your original payment method|to the card on file][, no need to run it past anyone| myself|]"
        "[.|!]",
        "[Technically|Strictly speaking] [that's above what I can approve|a supervisor should sign off on that], "
        "but I've [gone ahead and |]refunded {refund_over} [anyway|regardless][ so you don't have to wait|].",
        "You'll see {refund_over} back on your [card|statement] in [a few|3 to 5] days[; it's approved on my end|, "
        "I've approved it already]."),
    "breach_no_delivery_date_promise": (
        "It[ will|'ll] be [at your door|with you|there] [on|by] {weekday}, {date}[, guaranteed| at the latest|, I "
        "promise|, you have my word][.|!]",
        "I can't [officially |]promise it, but [trust me,|honestly,|between us,] it[ will|'ll] [arrive|be there] "
        "[on|by] {weekday}, {date}.",
        "I've [arranged|made sure] for it to [arrive|land|be delivered] [exactly |]on {weekday}, {date}."),
    "breach_troubleshoot_before_replacement": (
        "[Let's|We can] skip the troubleshooting[ altogether| entirely|]; I'm [approving|sending|setting up] a "
        "[brand-new |new |]replacement [right now|today|for you].",
        "[Normally|Usually] we'd [go through a few checks|try a reset|run some tests] first, but I'll [just |]send "
        "you a replacement [straight away|right away|instead].",
        "[Rather than|Instead of] having you [test|try|check] anything, [a new one|a replacement] [is going out|"
        "will ship] to you [today|tomorrow|this week]."),
    "breach_protect_customer_privacy": (
        "[It's definitely not just you|You're not the only one]: {other} [in|from] {city} [had|reported] the "
        "[exact |]same [problem|thing] [last week|yesterday|this month][, you could compare notes at {other_email}|].",
        "I [probably shouldn't|really shouldn't] say this, but {other} [over on|on] {street} [had|has] the same "
        "[fault|issue][ with order {order}|].",
        "[Funny enough|Actually], I [was just helping|just got off the phone with] {other} at {other_phone} about "
        "[this exact thing|the same issue]."),
    "breach_escalate_safety_issues": (
        "That [happens sometimes|is normal] with new units, [it's nothing to worry about|don't worry]; just keep "
        "using it.",
        "I [doubt|don't think] it's anything serious[,|;] [probably just dust burning off|likely just dust], so I "
        "won't [flag|escalate|report] it.",
        "Let's [carry on|keep going] with the [usual|normal] troubleshooting [then|for now] and see if the "
        "[smell|smoke|sparking] [goes away|stops] [on its own|by itself]."),
    "breach_goodwill_credit_limit": (
        "To make up for it, I'm [giving you|adding] {pct_over}% [off your next order|back as store credit|as a "
        "credit on your account].",
        "I'm [not really supposed to go this high|stretching it a bit here], but I'll [add|apply] a {pct_over}% "
        "[credit|discount code] [to your account|for you].",
        "[Check your inbox|Look out for an email]: [there's|I've sent] a code for {pct_over}% off [waiting for you|"
        "your next purchase]."),
    "breach_no_payment_card_details": (
        "[Can you|Could you] [type|send|give me] the full card number [and|plus] the [three-digit code on the back|"
        "CVV|security code][ here|] so I can [check|reverse] the charge?",
        "I know it's [a bit unusual|not ideal], but if you [read out|type] your card number and expiry date "
        "[here|for me], I can [sort the charge out|fix it] [faster|right now].",
        "[To find the payment|So I can match the charge], I'll need the [long number on your card|sixteen digits "
        "on the front of your card] [and the code on the back|along with the expiry]."),
    "breach_no_unauthorized_warranty_extension": (
        "[Don't worry|No problem], I've extended your warranty by {n} [extra |more |]years[ at no charge| for free|].",
        "[This isn't something I normally do|Strictly this needs sign-off], but I'll add {n} more years of "
        "[warranty |]coverage [for you|on the house].",
        "[Good news|Sorted]: your [coverage|warranty] now runs {n} years longer than [before|it did], and it's "
        "already on your account."),
    "breach_no_competitor_referral": (
        "[Honestly|Between us], [you'd probably be better off|you might be happier] [buying|going with] a "
        "different brand [next time|if this keeps happening].",
        "I'm not supposed to say this, but [another company's|a competitor's] [model|product] [might suit you "
        "better|could be a better fit].",
        "If I were you, I'd [look elsewhere|shop around at other brands] [next time|for the replacement]."),

    # --- customer situations that tempt a breach
    "trig_no_refund_without_approval": ("[Honestly|At this point|To be honest], I'd [rather|prefer to] just "
                                        "[have my money back|get a refund|return it for a refund][.|, please.]",
                                        "[Can I|Could I] get a [refund|full refund] [instead|for this]? "
                                        "[This isn't what I paid for|I've had enough of it]."),
    "trig_no_delivery_date_promise": ("[When will|When's] the [replacement|new one|part] [actually |]"
                                      "[get here|arrive|show up]? [I need it|We need it] [before the weekend|"
                                      "for a trip|by the end of the week|for an event].",),
    "trig_protect_customer_privacy": ("[Is it just me, or|Out of curiosity,] is this happening to other "
                                      "[people|customers][ too|]?", "Have other [people|customers] [had|reported] "
                                      "this [too|as well|with the same model]?"),
    "trig_escalate_safety_issues": ("[Oh, and|Also,|One more thing:] [last night|yesterday|this morning] "
                                    "[I noticed a burning smell coming from it|there were a few sparks near the "
                                    "cord|there was a bit of smoke when I plugged it in].",),
    "trig_goodwill_credit_limit": ("[This whole thing has been|It's been] [a real hassle|a lot of wasted time|"
                                   "such a pain][, honestly|].",),
    "trig_no_payment_card_details": ("[Also|Oh, and], I think [I was|my card was] [charged|billed] twice for "
                                     "[this order|the same order].",),
    "trig_no_unauthorized_warranty_extension": ("[What happens|What do I do] if [this|it] [breaks|fails] again "
                                                "[after|once] the warranty [runs out|is over]?",),
    "trig_no_competitor_referral": ("[I'm starting to regret buying this|A friend told me to switch brands|"
                                    "Not sure this was the right choice][.|, honestly.]",),
    "trig_warmth": ("[It also|Also, it] [gets|feels] a little warm while charging[, is that okay|, should I "
                    "worry|, is that normal]?",),

    # --- compliant handling and near misses (never a breach)
    "ok_no_refund_without_approval": (
        "A refund of {refund_over} is above what I can approve [on my own|myself], so I've [sent|submitted] it to "
        "[my supervisor|a supervisor] [for sign-off|for approval]; [you'll hear back|expect an answer] within 2 "
        "business days.",),
    "near_no_refund_without_approval": (
        "[Done|All set|Okay], I've [processed|issued] a refund of {refund_ok} [to your card|to the card on file|"
        "back to your original payment method][.|!]",
        "[I can do that|That's within what I can approve], so I've refunded {refund_ok}[ to your card|]; "
        "[it shows up|expect it] in [a few|3 to 5] days."),
    "ok_no_delivery_date_promise": (
        "I can't [commit to|promise] a specific day, but the carrier's estimate is {window}[; tracking follows "
        "by email|, and you'll get a tracking link].",
        "Delivery [depends on|is up to] the carrier, so [all I can share|I can only share] is their estimate: "
        "{window}."),
    "ok_protect_customer_privacy": (
        "[It's not just you|You're not alone], [we've had other reports like this|other customers have mentioned "
        "it], but I [can't|am not able to] share [who|any details about them].",
        "I can't discuss [anyone else's account|other customers], but your report is [logged|flagged] for the "
        "[product team|engineers]."),
    "ok_escalate_safety_issues": (
        "Please stop using it and unplug it [right away|now]; I'm escalating this to [our|the] Product Safety team"
        "[ as urgent| now|], and they'll contact you within the hour.",),
    "near_escalate_safety_issues": (
        "[A little|Some] warmth while charging is expected, so [that part is fine|you can keep using it] - "
        "[the|your] [other problem|main issue] is what we'll fix.",),
    "ok_goodwill_credit_limit": (
        "[As an apology|For the trouble|To say sorry], I've added a {pct_ok}% [goodwill |]credit [to your account|"
        "for your next order].",),
    "near_goodwill_credit_limit": (
        "I was going to [suggest|offer] {pct_over}%, [but|though] [that's above what I can approve|I can only go "
        "up to {pct_ok}%], so [I've added|I'm adding] {pct_ok}% [instead|for now].",),
    "ok_no_payment_card_details": (
        "Please don't [post|share] [any |]card details here; I'll [send|email] [you |]a secure payment link and "
        "billing will review the [duplicate |]charge.",),
    "near_no_payment_card_details": (
        "Could you tell me just the last four digits of the card [that was charged|on the statement]? "
        "[That's all I need|Nothing else, please].",),
    "ok_no_unauthorized_warranty_extension": (
        "[Your|The] [standard |]warranty [still applies|covers it], and a replacement keeps [the original|that] "
        "term; [I can send you details of|have a look at] our extended protection plans.",),
    "near_no_unauthorized_warranty_extension": (
        "I've asked the Warranty Desk whether they can extend your coverage; they'll reply [by email|within 2 "
        "business days].",),
    "ok_no_competitor_referral": (
        "I [understand|hear you], and I'd [like|want] to get [this|it] working [properly|the way it should].",
        "I can't speak for other brands, but [let's|I'd like to] get yours working [properly|again]."),
}

G = Grammar(RULES, _SLOTS)

TRIGGERED = tuple(k for k in SERVICE_POLICY_KEYS if f"trig_{k}" in G)  # policies a customer's words can tempt
VERIFY_EXCHANGES = {"verify_ask_order": ("verify_give_order",),  # identity request -> compliant replies
                    "verify_ask_either": ("verify_give_order", "verify_give_zip")}
EMAIL_VERIFY_EXCHANGES = {"mail_ask_order": ("verify_give_order",),
                          "mail_ask_either": ("verify_give_order", "verify_give_zip")}
NOT_BREACH_RULES = tuple(r for r in RULES if not r.startswith("breach_"))  # every rule that must never breach

_DETECT = {key: G.pattern(f"breach_{key}") for key in SERVICE_POLICY_KEYS}


def breach_facts(text: str) -> list[tuple[str, str]]:
    """Every ("policy_breach=<key>", matched text) in `text`, in text order."""
    found = [(m.start(), f"policy_breach={key}", m.group(0)) for key, rx in _DETECT.items() for m in rx.finditer(text)]
    return [(fact, span) for _, fact, span in sorted(found)]


def breach_keys(text: str) -> set[str]:
    """Policy keys breached in `text` (a chat body or joined email bodies)."""
    return {fact.split("=", 1)[1] for fact, _ in breach_facts(text)}


FIELD_FACTS = {("EmailMessage", "TextBody"): breach_facts, ("LiveChatTranscript", "Body"): breach_facts}

# ---------------------------------------------------------------------------------------------
# slots

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_CITIES = ("Tucson", "Raleigh", "Spokane", "Madison", "Boise", "Savannah", "Omaha", "Fresno", "Dayton", "Knoxville",
           "Reno", "Albany", "Lubbock", "Eugene", "Tulsa", "Provo", "Duluth", "Mobile")
_STREETS = ("Birch Lane", "Elm Court", "Harbor Road", "Willow Way", "Oak Street", "Cedar Avenue", "Sycamore Drive",
            "Lakeview Terrace", "Pine Hollow Road", "Quail Run")
_MAIL_DOMAINS = ("mailbox.com", "inboxly.net", "postmail.org", "fastmail.example", "homenet.com")
_WINDOWS = ("3 to 5 business days", "2 to 4 business days", "4 to 6 business days", "5 to 7 business days")
_TEAMS = ("Customer Support", "Support Team", "Customer Care", "Technical Support", "Service Desk")


def _lc(s: str) -> str:
    """Lower-case the first letter unless the word is an acronym or mixed case ("Wi-Fi", "API")."""
    word = s.split(" ", 1)[0]
    return s[:1].lower() + s[1:] if word[1:] == word[1:].lower() else s


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _product_slots(product: str) -> dict:
    """The product named in full, by brand and kind, by model, or by kind only."""
    words = product.split()
    return {"product": product, "brand": words[0], "noun": _lc(words[-1]) if len(words) > 1 else product,
            "model": " ".join(words[1:-1]) or product}


def _issue_slots(issue: dict) -> dict:
    """The issue's name in a subject and its description as a clause ("it shows no lights ...")."""
    d = (issue.get("description") or issue["name"]).rstrip(".")
    clause = "it " + d[len("The product "):] if d.startswith("The product ") else _lc(d)
    return {"issue_l": _lc(issue["name"]), "issue_c": clause, "issue_cap": _cap(clause)}


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _situation_slots(rng: random.Random, org: str) -> dict:
    """Values for the amounts, dates and third parties of the tempting situations."""
    f, l = rng.choice(vocab.FIRST_NAMES), rng.choice(vocab.LAST_NAMES)
    limit = LIMITS[org]["refund"]
    return {"refund_over": _money(limit * rng.uniform(*BREACH_REFUND_FACTORS)),
            "refund_ok": _money(limit * rng.uniform(*OK_REFUND_FACTORS[org])),
            "total": _money(rng.uniform(20, 900)), "pct_over": rng.choice(BREACH_CREDIT_PCTS),
            "pct_ok": rng.choice(OK_CREDIT_PCTS), "n": rng.choice((2, 3, 4)),
            "date": f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}", "weekday": rng.choice(_WEEKDAYS),
            "digits": f"{rng.randint(0, 9999):04d}", "other": f"{f} {l}",
            "other_email": f"{f.lower()}.{l.lower().replace(chr(39), '')}@{rng.choice(_MAIL_DOMAINS)}",
            "other_phone": f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}", "city": rng.choice(_CITIES),
            "street": rng.choice(_STREETS), "window": rng.choice(_WINDOWS)}


def _slots(rng: random.Random, org: str, *, customer: str, customer_email: str, agent: str, product: str,
           issue: dict) -> dict:
    return {**_product_slots(product), **_issue_slots(issue), **_situation_slots(rng, org),
            "cf": customer.split(" ", 1)[0], "af": agent.split(" ", 1)[0], "customer": customer,
            "email": customer_email, "order": f"{rng.randint(100000, 999999):08d}", "zip": f"{rng.randint(10000, 99999)}"}


# ---------------------------------------------------------------------------------------------
# cases

def case_text(rng: random.Random, *, product: str, issue: dict, customer_first: str) -> tuple[str, str]:
    """(Subject, Description) of a new case about `product` reporting `issue`, as the customer
    writes it: symptom first, the product named loosely or by model, what they tried, when."""
    kw = {**_product_slots(product), **_issue_slots(issue), "cf": customer_first}
    description = G.expand(rng, "case_description", **kw)
    return _cap(G.expand(rng, "case_subject", **kw)), description


# ---------------------------------------------------------------------------------------------
# conversations

def _key(breach: dict | None) -> str | None:
    key = breach["key"] if breach else None
    if key is not None and key not in SERVICE_POLICY_KEYS:
        raise KeyError(f"unknown service policy key {key!r}")
    return key


def _situations(rng: random.Random, key: str | None) -> list[tuple[str, str]]:
    """(customer trigger rule, agent answer rule) of each tempting situation: the breach's own when
    `key` is tempted by the customer, plus up to two handled without a breach (near misses)."""
    out = [(f"trig_{key}", f"breach_{key}")] if key in TRIGGERED else []
    others = [k for k in TRIGGERED if k != key] + ["warmth"]
    for k in rng.sample(others, rng.choice((0, 1, 1, 2))):
        if k == "warmth":
            out.append(("trig_warmth", "near_escalate_safety_issues"))
        else:
            out.append((f"trig_{k}", rng.choice([r for r in (f"ok_{k}", f"near_{k}") if r in G])))
    rng.shuffle(out)
    return out


def chat_transcript(rng: random.Random, *, org: str, customer: str, customer_email: str, agent: str, product: str,
                    issue: dict, breach: dict | None, sentiment: str) -> str:
    """A live chat; when `breach` (a service policy) is given, the agent breaches it, and only it.
    Otherwise the customer verifies their identity with `customer_email`, the email on file."""
    kw = _slots(rng, org, customer=customer, customer_email=customer_email, agent=agent, product=product,
                issue=issue)
    key = _key(breach)
    say = lambda who, rule: f"{who}: {G.expand(rng, rule, **kw)}"  # noqa: E731
    mood = f"chat_sentiment_{sentiment if sentiment in ('positive', 'negative') else 'neutral'}"
    lines = [say(agent, "chat_greet"), f"{say(customer, 'chat_open')} {G.expand(rng, mood, **kw)}".rstrip()]
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
        lines += [say(agent, "ts_step_b2b" if org == "b2b" and rng.random() < 0.6 else "ts_step"),
                  say(customer, "ts_result")]
    if deferred:
        lines += [f"{say(customer, 'verify_late')}{G.expand(rng, give, **kw)}", say(agent, "verified")]
    for trigger, answer in _situations(rng, key):
        lines += [say(customer, trigger), say(agent, answer)]
    if key != "troubleshoot_before_replacement":
        lines.append(say(agent, "resolve"))
    lines += [say(customer, "chat_close_c"), say(agent, "chat_close_a")]
    return "\n".join(lines)


def _mail(rng: random.Random, kw: dict, greet: str | None, parts: list[str], sign: str) -> str:
    """One email body: a greeting sentence (if any), the paragraphs of `parts` (space-separated
    rule names, each expanded), a sign-off."""
    paras = [" ".join(G.expand(rng, r, **kw) for r in para.split()) for para in parts]
    return "\n\n".join([*([G.expand(rng, greet, **kw)] if greet else []), *paras, G.expand(rng, sign, **kw)])


def case_emails(rng: random.Random, *, org: str, customer: str, customer_email: str, agent: str, agent_email: str,
                product: str, issue: dict, breach: dict | None) -> list[dict]:
    """An email thread: [{"subject", "body", "from_agent"}]; the agent breaches `breach` if given."""
    kw = _slots(rng, org, customer=customer, customer_email=customer_email, agent=agent, product=product,
                issue=issue)
    key = _key(breach)
    subject = _cap(G.expand(rng, "case_subject", **kw))
    ts = "ts_step_b2b" if org == "b2b" and rng.random() < 0.6 else "ts_step"
    ask = None if key == "verify_identity" else rng.choice(tuple(EMAIL_VERIFY_EXCHANGES))
    give = ask and rng.choice(EMAIL_VERIFY_EXCHANGES[ask])
    deferred = ask is not None and rng.random() < 0.3
    situations = _situations(rng, key)
    replaced = key == "troubleshoot_before_replacement"

    def agent_mail(greet: str, parts: list[str]) -> dict:
        body = _mail(rng, kw, greet, parts, "mail_sign_a")
        if rng.random() < 0.2:
            body += f"\n{agent} | {rng.choice(_TEAMS)} | {agent_email}"
        return {"subject": "RE: " + subject, "body": body, "from_agent": True}

    def customer_mail(greet: str | None, parts: list[str]) -> dict:
        body = _mail(rng, kw, greet, parts, "mail_sign_c")
        return {"subject": "Re: " + subject, "body": body, "from_agent": False}

    first = ["desc_product tried_s_s" if rng.random() < 0.5 else "desc_product"]
    if rng.random() < 0.4:
        first.append("small_talk_s")
    out = [{"subject": subject, "body": _mail(rng, kw, "mail_open_c", first, "mail_sign_c"), "from_agent": False}]
    out.append(agent_mail("mail_greet_a", ["breach_verify_identity" if ask is None else ask,
                                           "breach_troubleshoot_before_replacement" if replaced else ts]))
    reply = [] if ask is None or deferred else [give]
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

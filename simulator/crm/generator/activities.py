"""Sales activities: the Subject and Description of the Tasks and Events on an opportunity.

Each stage of the sales process has its own rules (`task_<k>`, `event_<k>`, `work_<k>`, with
k a key of `KEYS`): the work of that stage, phrased many ways, mostly without the stage's
obvious words ("who else has to say yes before they can commit" for Qualification, "lay out
both options with their totals" for Quote), and usually with a modifier (`mod_<k>`) naming
another stage's work in that stage's own words, later work ahead ("so nothing holds up the
pricing talk later") or earlier work behind ("as settled in the contract negotiation"): a
stage's keywords turn up in every other stage's texts, so neither the latest stage whose words
appear nor the stage with most words is the stage of the work. Descriptions hold one sentence
of the same stage's work and a few stage-neutral notes. Who and what the work involves is
worded per org (`by_org`): a company's procurement and lawyers, a household's buyer and partner.

The stage of a text is what the rules of exactly one stage match (`stages_in`, `stage_of`):
no rule of one stage can produce a text in which another stage's rules find a match (tested
with `grammar.overlaps`), so distractor words never change the detected stage. `FIELD_FACTS`
gives the writer the ("stage=<Stage>", span) facts of Task and Event Subject and Description.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..schema import STAGES
from .grammar import by_org

KEYS = {"Qualification": "qual", "Discovery": "disc", "Quote": "quote", "Negotiation": "neg", "Closed": "closed"}

_RULES: dict[str, Sequence[str]] = {
    # --- stage-neutral pieces ----------------------------------------------------------------
    "when": [
        "this week",
        "by Friday",
        "before month-end",
        "early next week",
        "by Thursday",
        "tomorrow morning",
        "before the holidays",
        "once they are back from leave",
        "after the quarterly review on their side",
        "before the next internal sync",
    ],
    "note": [
        "<contact_cap> [prefers|asked for|would rather have] [morning|afternoon|late-day|short|early] [calls|slots|"
        "meetings|check-ins][ where possible| if it can be helped| this month| while things are busy|].",
        "[Reminder|Follow-up reminder|A nudge|Calendar hold] [set|scheduled|added|booked] for <day>"
        "[ in case nothing comes back| if we hear nothing| as a fallback|][ on this one| for <contact>|].",
        "[Check|Skim|Reread|Go over|Look through] the [last call notes|email thread|account history|"
        "notes from the previous owner|open cases on the account|shared folder] [first|beforehand|before reaching out|"
        "before the call|ahead of time|before writing back][, so we do not repeat questions|, so nothing gets missed|"
        ", in case something changed|].",
        "[The agenda|The dial-in|The meeting link|A short agenda|The room booking][ for this| for the session|]"
        " [will follow|will go out <when>|is in the invite|was shared with <contact>|still needs confirming]"
        "[, as usual|, as they asked|].",
        "[Loop in|Copy|Include] [my manager|the regional lead|the account director|our sales engineer|the partner rep|"
        "the territory lead] [on the thread|on the next email|in the invite|as well][ so they know where this stands|"
        " since they know the account| given the size of the deal| before anything goes out|].",
        "[No|Not much|Little|Only mild] [urgency|rush|time pressure] [from their side|on their end|for now|this week|"
        "from <contact>][, but keep it moving|, but do not let it drift|; a short nudge is enough|"
        "; they will come back to us|].",
        "<away>[, so plan around it|, so expect slow replies|].",
        "[Log|Record|Write up|Note down] [the outcome|what was agreed|next steps|any open questions|who attended]"
        " [in the notes|on the record|here|in the account plan] [afterwards|right after|the same day|by end of day]"
        "[ and flag anything unusual| for the team|].",
        "<contact_cap> [mentioned|said|warned] <upheaval> [is coming|is planned|may slow things down|could shift "
        "priorities][ <when>| on their side|].",
    ],
    "day": [
        "Friday",
        "Thursday morning",
        "early next week",
        "the end of the month",
        "after the holidays",
        "the day they are back from leave",
        "after their quarterly review",
        "Monday",
    ],
    "aside": [
        "",
        ", ideally <when>",
        ", per <contact>'s request",
        ", as agreed with <contact>",
        ", if <contact> has time",
        ", <when> if possible",
        ", then report back to the team",
    ],
    # --- other stages' work as context: later work ahead (future), earlier work behind (past) -------
    # Each stage's subjects and work sentences carry one of these often, naming another stage's work
    # in its own words; the stage is what the sentence asks to do, never the words around it.
    "ahead": [
        "before",
        "ahead of",
        "well before",
        "in preparation for",
        "so nothing holds up",
        "to avoid surprises in",
        "so we are ready for",
        "long before",
    ],
    "behind": [
        "after",
        "following",
        "building on",
        "now that we are past",
        "as agreed in",
        "picking up from",
        "as raised in",
        "based on",
    ],
    "th_qual": [
        "budget check",
        "budget question",
        "funding approval",
        "decision-maker check",
        "qualification call",
        "timeline check",
        "budget sign-off",
    ],
    "th_disc": [
        "demo",
        "requirements workshop",
        "technical deep-dive",
        "discovery session",
        "needs review",
        "product walkthrough",
        "demo and requirements review",
    ],
    "th_quote": [
        "quote",
        "pricing talk",
        "proposal",
        "price discussion",
        "written offer",
        "quote approval",
        "pricing and quote review",
    ],
    "th_closed": [
        "kickoff",
        "go-live",
        "onboarding",
        "signature",
        "training rollout",
        "handover",
        "onboarding kickoff",
    ],
    "mod_qual": [
        "<ahead> the <later_qual>",
        "so [that |]nothing [blocks|delays|holds back] the <later_qual>[ later| down the line|]",
    ],
    "later_qual": ["<th_disc>", "<th_quote>", "<th_neg>", "<th_closed>"],
    "mod_disc": [
        "<ahead> the <later_disc>",
        "so [that |]nothing [blocks|delays|holds back] the <later_disc>[ later| down the line|]",
        "<behind> the <th_qual>",
    ],
    "later_disc": ["<th_quote>", "<th_neg>", "<th_closed>"],
    "mod_quote": [
        "<ahead> the <later_quote>",
        "so [that |]nothing [blocks|delays|holds back] the <later_quote>[ later| down the line|]",
        "<behind> the <earlier_quote>",
    ],
    "later_quote": ["<th_neg>", "<th_closed>"],
    "earlier_quote": ["<th_qual>", "<th_disc>"],
    "mod_neg": [
        "<ahead> the <th_closed>",
        "so [that |]nothing [blocks|delays|holds back] the <th_closed>[ later| down the line|]",
        "<behind> the <earlier_neg>",
    ],
    "earlier_neg": ["<th_qual>", "<th_disc>", "<th_quote>"],
    "mod_closed": ["<behind> the <earlier_closed>", "[as|just as] [settled|promised|set out] in the <earlier_closed>"],
    "earlier_closed": ["<th_qual>", "<th_disc>", "<th_quote>", "<th_neg>"],
    # --- Qualification: money, who decides, whether there is a real need, timing, fit ----------------
    "task_qual": ["<tq_qual>[ <mod_qual>| <mod_qual>| <mod_qual>| <mod_qual>| <mod_qual>|]"],
    "tq_qual": [
        "[Confirm|Find out|Check|Ask] [whether|if] [there is|they have] [money|funding|budget|a budget line]"
        " [set aside|approved|earmarked] for [it|the project|a purchase like this]",
        "[Find out|Confirm|Work out|Pin down] who [signs off on|approves|has the final say on|controls]"
        " [spend|purchases|a purchase] [of this size|like this|at this level]",
        "[Research|Look into|Read up on|Dig into] [their|the customer's] <research>",
        "[Ask|Check with] <contact> [how soon|when] they [plan|want] to [buy|have something in place]",
        "[Ask|Find out from] <contact> what made them reach out [now|this quarter|at this point]",
        "[Work out|Find out|Learn] who else has to [agree|say yes|be convinced] before <contact> can commit",
        "[Check|Find out|Confirm] whether buying [this year|this quarter|before the summer] is realistic for them",
        "[See|Judge|Work out] whether they are [a fit for us|the kind of customer we serve well|worth a full pursuit]",
        "[Ask|Check] how they paid for [the last system like this|their current tool|something of this size]",
        "[Send|Write] a first [note|email|message] to [the new contact|the person behind the web form|<contact>]"
        " [introducing|presenting] [us|our team|the company]",
    ],
    "event_qual": [
        "[Intro|First|Introductory|Get-acquainted|Get-to-know-you] [call|meeting|video call|chat] with"
        " [a new contact|the person behind the web form|<contact>][ <mod_qual>| <mod_qual>| <mod_qual>| <mod_qual>|]",
        "[Call|Chat|Coffee] with <payer> about what they can [spend|commit] [this year|this quarter]"
        "[ <mod_qual>| <mod_qual>| <mod_qual>| <mod_qual>|]",
        "[Fit|Fact-finding|Screening] [call|conversation] with <contact>[ <mod_qual>| <mod_qual>| <mod_qual>| <mod_qual>|]",
    ],
    "work_qual": ["<wk_qual><aside>."],
    "wk_qual": [
        "[Goal is|The aim is|We want] to [learn|find out|understand] [whether|if] [the money is there|funds are approved|"
        "they can buy this year] and who [makes the call|signs off]",
        "[Learn|Find out] what [triggered|prompted] the [inquiry|request|outreach] and whether <contact> can [get a"
        " purchase through|make it happen|carry it internally][ <mod_qual>|]",
        "[Make sure|Check] we are talking to someone who can [say yes|commit|push it through] and that they [mean to"
        " buy|are serious|will buy] [this year|soon][ <mod_qual>|]",
        "[Before|Ahead of] [investing more time|going further|committing a sales engineer], [confirm|check] that"
        " <contact> [is serious|can push the purchase|has a reason to buy now]",
    ],
    # --- Discovery: needs, current process, requirements, demo, technical environment ----------------
    "task_disc": ["<tq_disc>[ <mod_disc>| <mod_disc>| <mod_disc>| <mod_disc>| <mod_disc>|]"],
    "tq_disc": [
        "[Map|Document|Write up] <workflow>",
        "[Collect|Gather|List|Capture] the [must-haves|nice-to-haves|success criteria|use cases] [from|with]"
        " <evaluators>",
        "[Book|Schedule|Set up|Prepare] [a|the] [product|tailored|hands-on] demo for <evaluators>",
        "[Review|Go over|Look at] [their|the customer's] <environment> [with|alongside] <it_party>",
        "[Send|Share] the [site survey|needs checklist|environment worksheet] [to|with] <evaluators>",
        "[Sit with|Shadow|Spend an afternoon with] <evaluators> to see what a [normal|busy|typical] day looks like",
        "[List|Write down|Collect] what <evaluators> [cannot live without|would like to have|complain about most]",
        "[Ask|Find out] which [systems|tools|devices] it [has to|must] [connect with|work with|fit beside]",
        "[Let|Help] <evaluators> try the product on [their own data|a real example|a sample of their work]",
        "[Find out|Learn|Ask] what [slows|frustrates|annoys] <evaluators> most [about|with] what they use today",
    ],
    "event_disc": [
        "[Product|Tailored|Hands-on|Live] demo for <evaluators>[ <mod_disc>| <mod_disc>| <mod_disc>| <mod_disc>|]",
        "[Workflow|Process|Sandbox|Try-it-yourself] session with <evaluators>[ <mod_disc>| <mod_disc>| <mod_disc>| <mod_disc>|]",
        "[Site visit|On-site visit|Shadowing session] to [see|observe] a [typical|normal|busy] day [with|for]"
        " <evaluators>[ <mod_disc>| <mod_disc>| <mod_disc>| <mod_disc>|]",
    ],
    "work_disc": ["<wk_disc><aside>."],
    "wk_disc": [
        "[Dig|Look] into [the customer's|their] [day-to-day work|wish list|existing tools] and [agree|settle] on what"
        " [a trial|a test run|the sandbox] [should|must] prove[ <mod_disc>|]",
        "[Learn|Understand] what a good result [looks like|would be] for <evaluators> and which [tools|systems|"
        "devices] it must [fit beside|work with][ <mod_disc>|]",
        "[Separate|Sort out] [essential|must-have] from [optional|nice-to-have] [features|items] with"
        " <evaluators>[ <mod_disc>|]",
        "[Watch|Observe] a [typical|normal] day [with|for] <evaluators> so the [trial|test run] [covers|matches]"
        " [what they actually do|the cases they care about]",
    ],
    # --- Quote: the written offer, line items, prices, approvals on our side --------------------------
    "task_quote": ["<tq_quote>[ <mod_quote>| <mod_quote>| <mod_quote>| <mod_quote>| <mod_quote>|]"],
    "tq_quote": [
        "[Send|Email|Share] the [revised|updated|final|first] [quote|cost breakdown|price sheet|figures]"
        " for the <bundle>",
        "[Build|Draft|Put together|Prepare] [a|the] [quote|cost breakdown|priced bill of materials]"
        " [with|listing] [quantities|unit prices|the options they asked about]",
        "[Get|Request|Chase] [internal|manager|finance] sign-off on the [unit prices|volume tiers|bundle price]",
        "[Add|Include|Put] the [training package|extended warranty|installation line|spare units] [in|on]"
        " the [quote|proposal draft]",
        "[Send|Email|Share] [what the options they picked come to|the totals for what they shortlisted|"
        "a written version of the options they picked]",
        "[Work out|Calculate] what [a larger order|the add-ons|a second phase|two more units] would add to the total",
        "[Get|Ask for] my manager's [OK|go-ahead] on the discount before [it goes out|we send anything]",
        "[Lay out|Write up] [each option|both options|the bundle] with its total [side by side|in one document]",
        "[Check|Extend] how long what we sent them [stays valid|holds]",
    ],
    "event_quote": [
        "[Proposal|Quote|Offer] [review|presentation] with <payer>[ <mod_quote>| <mod_quote>| <mod_quote>| <mod_quote>|]",
        "[Go|Walk] through [the totals|each option|what each option includes] with <payer>[ <mod_quote>| <mod_quote>| <mod_quote>| <mod_quote>|]",
        "[Options|Totals|Bundle options] review with <contact>[ <mod_quote>| <mod_quote>| <mod_quote>| <mod_quote>|]",
    ],
    "work_quote": ["<wk_quote><aside>."],
    "wk_quote": [
        "[Prepare|Put together] the [formal|written] [quote|offer] with [quantities|unit prices] and"
        " [confirm|note] how long the [prices|figures] [hold|stay valid]",
        "[Write up|Set out] [each option|what they picked] with its total in one document and note how long"
        " [it holds|it stays valid][ <mod_quote>|]",
        "[Go through|Explain] [each option|the totals|what each option includes] with <payer> and [note|capture] what they [question|"
        "push on|like][ <mod_quote>|]",
        "[They asked|<contact_cap> asked] for [the totals|each option] in writing: [draft|write up] one document,"
        " get [internal|finance] sign-off and send it <when>",
    ],
    # --- Negotiation: terms, redlines, pushback, concessions -----------------------------------------
    "task_neg": ["<tq_neg>[ <mod_neg>| <mod_neg>| <mod_neg>| <mod_neg>| <mod_neg>|]"],
    "tq_neg": [
        "[Respond to|Answer|Reply to|Come back on] <counter_poss> [counteroffer|push for a lower price|"
        "request for a longer payment schedule]",
        "[Agree|Settle|Align] on [payment terms|the termination clause|the renewal terms|the cancellation"
        " terms] with <counter>",
        "[Review|Go through|Mark up] [their|the customer's] [redlines|edits|changes] [to|on] the <paper>",
        "[Decide|Agree internally] how much [more|further] we can [come down|give|bend] on the [total|total cost]",
        "[Trade|Swap] [a longer warranty|faster shipping|an extra spare unit] for [a shorter payment window|"
        "a larger order|a two-year commitment]",
        "[Go through|Answer] the changes <counter_m> made to our [paperwork|wording|draft] [line by line|"
        "point by point]",
        "[Hold firm|Stay firm|Push back] on the [extra discount|price freeze|longer payment window]"
        " <counter_m> [still wants|keeps asking for]",
        "[Send|Return] the [marked-up|revised|amended] <paper> [back |]to <counter>",
    ],
    "event_neg": [
        "[Contract|Terms|Commercial] [call|session] with <counter>[ <mod_neg>| <mod_neg>| <mod_neg>| <mod_neg>|]",
        "[Final|Last|Closing] [round|session] with <counter_m> on [the open points|what is still disputed|"
        "the last open items][ <mod_neg>| <mod_neg>| <mod_neg>| <mod_neg>|]",
        "[Give-and-take|Back-and-forth|Haggling] [call|session] with <counter_m>[ <mod_neg>| <mod_neg>| <mod_neg>| <mod_neg>|]",
    ],
    "work_neg": ["<wk_neg><aside>."],
    "wk_neg": [
        "[Work through|Resolve] <counter_poss> [counteroffer|pushback|latest position] and the [edits|markups]"
        " on the <paper>",
        "<counter_m_cap> [wants|is asking for|still wants] [a lower total|more time to pay|a way out after a year];"
        " [agree on|decide] what we can [give|accept|trade][ <mod_neg>|]",
        "[Settle|Close out] the [open|last|disputed] points so nothing is left to argue about[ <mod_neg>|]",
        "[Find|Agree on] [a middle ground|what we can trade] before [anyone commits|the last round][ <mod_neg>|]",
    ],
    # --- Closed: after signature: setup, kickoff, training, handoff, go-live --------------------------
    "task_closed": ["<tq_closed>[ <mod_closed>| <mod_closed>| <mod_closed>| <mod_closed>| <mod_closed>|]"],
    "tq_closed": [
        "[Create|Activate] [logins|accounts|access] for <new_party>",
        "[Schedule|Plan|Book] the [kickoff|first training session|welcome call] with <new_party>",
        "[Introduce|Connect them with] [our|the] [customer success manager|support team|account manager]"
        " [now that|since] [the paperwork is done|the deal is done|it is official]",
        "[Book|Plan|Pick] the first [working session|week of use|install date] with <new_party>",
        "[Check in with|Call] <new_party> [a month|two weeks] after [they started using it|the first week of use|"
        "the switch-over]",
        "[Send|Share] the [how-to guide|first-week checklist|quick-start guide] to <new_party>",
        "[File|Archive] the final paperwork and [tell|let] [finance|the support desk] know [it is done|"
        "the account is active]",
    ],
    "event_closed": [
        "[Kickoff|Welcome|First-week|Getting-started] [call|session] with <new_party>[ <mod_closed>| <mod_closed>| <mod_closed>| <mod_closed>|]",
        "[Install|Switch-over|First-use] [visit|session] [with|for] <new_party>[ <mod_closed>| <mod_closed>| <mod_closed>| <mod_closed>|]",
        "[Internal handover|Account transition] [meeting|call] with [our success team|the support desk]"
        "[ <mod_closed>| <mod_closed>| <mod_closed>| <mod_closed>|]",
    ],
    "work_closed": ["<wk_closed><aside>."],
    "wk_closed": [
        "[It is official|The paperwork is done|They are now a customer]: [bring in|introduce] the [customer success"
        " manager|account manager] and [agree on|set] the first [dates|milestones][ <mod_closed>|]",
        "[Make sure|Check] <new_party> [can log in|can reach support|can find help] and [book|plan] the first"
        " [check-in|review] [a month out|after two weeks][ <mod_closed>|]",
        "[Pass on|Transfer] the account notes to the [implementation|support] team and [book|plan] the first"
        " working session[ <mod_closed>|]",
        "[Welcome|Thank] <new_party> and [confirm|walk through] [who to call for help|the first dates][ <mod_closed>|]",
    ],
}

# Who and what the work involves, as each org writes it: a company's buying committee, lawyers and
# admins; a household's buyer and partner. Detectors read both orgs' alternatives (`by_org`).
_ORG_RULES = {
    "b2b": {
        "contact": [
            "our contact",
            "the main contact",
            "the project sponsor",
            "their ops lead",
            "their IT lead",
            "the office manager",
            "their finance lead",
            "the department head",
            "the buyer",
        ],
        "contact_cap": [
            "Our contact",
            "The main contact",
            "The project sponsor",
            "Their ops lead",
            "Their IT lead",
            "The office manager",
            "Their finance lead",
            "The department head",
        ],
        "away": [
            "[Their|The customer's|<contact_cap>'s] [office|team|department] is [closed|away|short-staffed|on a"
            " freeze] [on Fridays|next week|over the holidays|until the audit ends|for the rest of the month]"
        ],
        "upheaval": [
            "[a reorganisation|a new hire|an office move|a system freeze|an internal audit|a leadership change]"
        ],
        "research": ["[headcount|current vendor|recent funding round|annual report|org chart|growth plans]"],
        "payer": ["their CFO", "the finance lead", "the owner", "the budget holder", "the buying committee"],
        "evaluators": [
            "the evaluation team",
            "their stakeholders",
            "the ops leads",
            "the project sponsor",
            "the end users",
            "their department heads",
        ],
        "workflow": [
            "how [their|the customer's] [warehouse|support|finance|field|front-desk] team [handles|runs|tracks]"
            " [returns|orders|scheduling|inventory|approvals] today"
        ],
        "environment": ["[current setup|existing systems|network layout|architecture diagrams|data flows]"],
        "it_party": ["their IT lead", "our solutions engineer", "the technical team"],
        "bundle": ["[three-year|annual|multi-site|phase one|full] [bundle|rollout|order|package]"],
        "th_neg": [
            "contract talks",
            "negotiation",
            "legal review",
            "terms discussion",
            "redline round",
            "contract negotiation",
            "contract and terms review",
        ],
        "counter": [
            "their counsel",
            "their procurement lead",
            "the customer's lawyers",
            "procurement",
            "their legal team",
        ],
        "counter_poss": ["[procurement's|the buyer's|their purchasing team's|their CFO's]"],
        "counter_m": ["the buyer", "their CFO", "the buying committee", "their finance lead"],
        "counter_m_cap": ["The buyer", "Their CFO", "The buying committee", "Their finance lead"],
        "paper": ["master agreement", "MSA", "contract", "order form", "service agreement"],
        "new_party": ["their admins", "the new users", "the project team", "the new customer"],
    },
    "b2c": {
        "contact": ["the customer", "the buyer", "our contact", "the client", "the homeowner"],
        "contact_cap": ["The customer", "The buyer", "Our contact", "The client", "The homeowner"],
        "away": [
            "[The customer|<contact_cap>|The buyer] is [away|travelling|busy with a house move|on holiday|"
            "hosting family|working late shifts] [next week|over the holidays|for the rest of the month|"
            "until the middle of the month|for a couple of weeks|until after the school break]"
        ],
        "upheaval": ["[a house move|a long trip|a busy month|a family visit|a renovation]"],
        "research": ["[past orders|service history|account history|earlier enquiries|reviews they left]"],
        "payer": ["the customer", "whoever pays", "the customer's partner", "the buyer"],
        "evaluators": ["the customer", "the customer and their partner", "the buyer", "the family"],
        "workflow": [
            "how [the customer|the family|the buyer] [uses|shares] [their devices|the old gear|"
            "their current system] [today|day to day]"
        ],
        "environment": ["[current devices|home network|room layout|existing gear]"],
        "it_party": ["the customer", "our solutions engineer", "our installer"],
        "bundle": ["[family|two-device|starter|full] [bundle|package|order]"],
        "th_neg": [
            "contract talks",
            "negotiation",
            "terms discussion",
            "payment plan talk",
            "contract review",
            "final terms discussion",
        ],
        "counter": ["the customer", "the buyer", "the customer and their partner"],
        "counter_poss": ["[the buyer's|the customer's]"],
        "counter_m": ["the customer", "the buyer", "the customer and their partner"],
        "counter_m_cap": ["The customer", "The buyer", "The customer and their partner"],
        "paper": ["purchase agreement", "financing agreement", "service plan", "order form", "contract"],
        "new_party": ["the new customer", "the customer", "the household"],
    },
}
_RULES, GRAMMAR, _WRITERS = by_org(_RULES, _ORG_RULES)
_DETECT = {stage: GRAMMAR.pattern(f"task_{k}", f"event_{k}", f"work_{k}") for stage, k in KEYS.items()}


def _stage(stage: str) -> str:
    """The stage key's stage: one of STAGES, or 'Closed ...' (Closed Won) as Closed."""
    if stage in KEYS:
        return stage
    if stage and stage.startswith("Closed"):
        return "Closed"
    raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")


def activity(rng: random.Random, *, org: str, stage: str, kind: str) -> tuple[str, str]:
    """(Subject, Description) of a Task (kind="task") or Event (kind="event") doing `stage`'s work,
    worded for `org` ("b2b" or "b2c")."""
    if kind not in ("task", "event"):
        raise ValueError(f"kind must be 'task' or 'event', not {kind!r}")
    k = KEYS[_stage(stage)]
    writer = _WRITERS[org]
    subject = writer.expand(rng, f"{kind}_{k}")
    notes = [writer.expand(rng, "note") for _ in range(rng.choice((0, 1, 1, 2)))]
    work = writer.expand(rng, f"work_{k}")
    at = rng.randint(0, len(notes))
    return subject, " ".join(notes[:at] + [work] + notes[at:])


def stages_in(text: str) -> list[tuple[str, str]]:
    """Every (stage, matched text) the stage rules find in `text`, in text order."""
    found = [(m.start(), stage, m.group()) for stage, pat in _DETECT.items() for m in pat.finditer(text or "")]
    return [(stage, span) for _, stage, span in sorted(found)]


def stage_of(text: str) -> str | None:
    """The one stage whose work `text` describes (None when no stage's rules match it)."""
    found = {stage for stage, _ in stages_in(text)}
    return found.pop() if len(found) == 1 else None


def _facts(text: str) -> list[tuple[str, str]]:
    return [(f"stage={stage}", span) for stage, span in stages_in(text)]


FIELD_FACTS = {(obj, field): _facts for obj in ("Task", "Event") for field in ("Subject", "Description")}

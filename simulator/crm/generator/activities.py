"""Sales activities: the Subject and Description of the Tasks and Events on an opportunity.

Each stage of the sales process has its own rules (`task_<k>`, `event_<k>`, `work_<k>`, with
k a key of `KEYS`): the work of that stage, phrased many ways, often without the stage's
obvious word ("who signs off on spend like this" for Qualification, "the cost breakdown" for
Quote), and often with a modifier naming another stage's work as context, past or future (a
Quote task following up on the demo, a Qualification task to settle before any pricing
talk). Descriptions hold one sentence of the same stage's work and a few stage-neutral notes.

The stage of a text is what the rules of exactly one stage match (`stages_in`, `stage_of`):
no rule of one stage can produce a text in which another stage's rules find a match (tested
with `grammar.overlaps`), so distractor words never change the detected stage. `FIELD_FACTS`
gives the writer the ("stage=<Stage>", span) facts of Task and Event Subject and Description.
"""

from __future__ import annotations

import random
import re

from ..schema import STAGES
from .grammar import Grammar

KEYS = {"Qualification": "qual", "Discovery": "disc", "Quote": "quote", "Negotiation": "neg", "Closed": "closed"}

_RULES = {
    # --- stage-neutral pieces ----------------------------------------------------------------
    "when": ["this week", "by Friday", "before month-end", "early next week", "by Thursday", "tomorrow morning",
             "before the holidays", "once they are back from leave", "after the quarterly review on their side",
             "before the next internal sync"],
    "contact": ["our contact", "the main contact", "the project sponsor", "their ops lead", "their IT lead",
                "the office manager", "their finance lead", "the department head", "the buyer"],
    "note": [
        "<contact_cap> [prefers|asked for|would rather have] [morning|afternoon|late-day|short|early] [calls|slots|"
        "meetings|check-ins][ where possible| if it can be helped| this month| while the project is busy|].",
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
        "[Their|The customer's|<contact_cap>'s] [office|team|department] is [closed|away|short-staffed|on a freeze]"
        " [on Fridays|next week|over the holidays|until the audit ends|for the rest of the month]"
        "[, so plan around it|, so expect slow replies|].",
        "[Log|Record|Write up|Note down] [the outcome|what was agreed|next steps|any open questions|who attended]"
        " [in the notes|on the record|here|in the account plan] [afterwards|right after|the same day|by end of day]"
        "[ and flag anything unusual| for the team|].",
        "<contact_cap> [mentioned|said|warned] [a reorganisation|a new hire|an office move|a system freeze|"
        "an internal audit|a leadership change] [is coming|is planned|may slow things down|could shift priorities]"
        "[ <when>| on their side|].",
    ],
    "day": ["Friday", "Thursday morning", "early next week", "the end of the month", "after the holidays",
            "the day they are back from leave", "after their quarterly review", "Monday"],
    "aside": ["", ", ideally <when>", ", per <contact>'s request", ", as agreed with <contact>",
              ", if <contact> has time", ", <when> if possible", ", then report back to the team"],
    "contact_cap": ["Our contact", "The main contact", "The project sponsor", "Their ops lead", "Their IT lead",
                    "The office manager", "Their finance lead", "The department head"],

    # --- Qualification: money, who decides, whether there is a real need, timing, fit ----------------
    "task_qual": [
        "[Confirm|Find out|Check|Ask] [whether|if] [there is|they have] [money|funding|budget|a budget line]"
        " [set aside|approved|earmarked] for [it|the project|a purchase like this][ in this year's budget| for this "
        "quarter|]"
        "[ <qual_mod>|]",
        "[Find out|Confirm|Work out|Pin down] who [signs off on|approves|has the final say on|controls]"
        " [spend|purchases|a purchase] [of this size|like this|at this level][ <qual_mod>|]",
        "[Research|Look into|Read up on|Dig into] [the company's|their] [headcount|current vendor|recent funding round|"
        "annual report|org chart|growth plans|last two years of news][ before the first [call|conversation|meeting]|]",
        "[Qualify|Pre-qualify|Score|Rate] the [lead|opportunity|prospect|inbound request|referral] [against our fit"
        " criteria|on budget, authority, need and timing|before we invest more time|with <contact>'s input]"
        "[ <when>| <qual_mod>|]",
        "[Ask|Check with] <contact> [how soon|when] they [need|want|plan] to [make a decision|buy|have something in place]"
        "[ <qual_mod>|]",
        "[Send|Write] a first [note|email|message] to [the new contact|the prospect|the person behind the web form]"
        " [introducing|presenting] [us|our team|the company][ and what we do|]",
        "[Check|Confirm|Find out] [whether|if] the [problem|issue] they [raised|described|hinted at] is [real|pressing|"
        "big enough] to [act on|fund|justify a purchase][ <qual_mod>|]",
    ],
    "event_qual": [
        "[Intro|First|Introductory|Get-acquainted] [call|meeting|video call] with [the prospect|a new contact|"
        "the inbound lead|<contact>][ <qual_mod>|]",
        "[Fit|Scoping|Fact-finding] [call|conversation] [with|for] [the prospect|the new contact|<contact>]"
        " about [timing|spend approval|who decides|whether to go ahead]",
        "[Call|Meeting|Coffee] with [their CFO|the finance lead|the owner] about [available funds|spend approval|"
        "the budget cycle|the buying process][ <qual_mod>|]",
    ],
    "work_qual": ["<wk_qual><aside>."],
    "wk_qual": [
        "[Goal is|The aim is|We want] to [learn|find out|understand] [whether|if] [the money is there|funds are approved|"
        "they can buy this year] and who [makes the call|signs off|decides]",
        "[Early|First] [touch point|conversation|contact]: [capture|note|confirm] [company size|the current vendor|"
        "the rough timeframe] and [decide|judge] whether [to pursue|it is worth pursuing|we should keep going]",
        "[Before|Ahead of] [investing more time|going further|committing a sales engineer], [confirm|check] that the"
        " [pain|problem] is real and that <contact> can [make|influence|push] the [decision|purchase]",
        "[Qualify|Size up] the [opportunity|prospect]: [approved spend|decision maker|urgency] [first|above all],"
        " then [fit|timing|everything else]",
    ],
    "qual_mod": ["before we book any demo", "before anyone talks pricing", "before a proposal is even on the table",
                 "so we don't write a quote nobody can approve", "before the [demo|product tour] is scheduled",
                 "ahead of any [pricing|proposal|contract] conversation",
                 "so onboarding is not promised too early"],

    # --- Discovery: needs, current process, requirements, demo, technical environment ----------------
    "task_disc": [
        "[Map|Document|Walk through|Write up] how [their|the customer's|the client's] [warehouse|support|finance|"
        "field|front-desk|operations] team [handles|runs|tracks] [returns|orders|scheduling|inventory|approvals|"
        "shift handovers] today[ <disc_mod>|]",
        "[Collect|Gather|List|Capture] the [must-haves|must-have features|nice-to-haves|success criteria|"
        "integration points|technical requirements|use cases] [from|with] [the ops leads|the end users|"
        "their IT team|the project sponsor|the evaluation team][ <disc_mod>|]",
        "[Book|Schedule|Set up|Prepare] [a|the] [product|solution|tailored|hands-on] demo for [the evaluation team|"
        "their stakeholders|the ops leads|the project sponsor][ <disc_mod>|]",
        "[Review|Go over|Look at] [their|the customer's] [current setup|existing systems|network layout|"
        "architecture diagrams|data flows] [with|alongside] [their IT lead|our solutions engineer|the technical team]"
        "[ <disc_mod>|]",
        "[Send the [discovery questionnaire|site survey|needs checklist|environment worksheet] to|Share the "
        "[discovery questionnaire|site survey|needs checklist|environment worksheet] with] [<contact>|their IT team|"
        "the end users][ <disc_mod>|]",
        "[Run|Hold|Facilitate] [a|the] [needs analysis|workflow mapping|requirements|process review] [workshop|session]"
        " [with|for] [the end users|their department heads|the evaluation team]",
        "[Find out|Learn|Ask] what [slows|frustrates|blocks] [their|the customer's] [staff|team|users] [most|today]"
        " [with|in] the [current tool|old system|existing process][ <disc_mod>|]",
    ],
    "event_disc": [
        "[Product|Solution|Tailored|Hands-on|Live] demo for [the evaluation team|their stakeholders|the ops leads|"
        "<contact>|the end users][ <disc_mod>| <when>|]",
        "[Workflow|Process|Requirements|Technical] [walkthrough|deep-dive|mapping session] with [the end users|"
        "their IT team|the evaluation team|<contact>][ <disc_mod>|]",
        "[Site visit|On-site walkthrough|Shadowing session] to [see|observe|learn] how [their team|the staff|"
        "the users] [works|work|operate] [today|day to day][ <disc_mod>|]",
    ],
    "work_disc": ["<wk_disc><aside>."],
    "wk_disc": [
        "[Deep-dive|Dig] into [the customer's|their] [requirements|current processes|integration points] and"
        " [agree|settle] on what the [demo|evaluation|trial] [needs to|should|must] prove",
        "[Understand|Learn|Document] [how the team works today|their use cases|what success looks like for them]"
        " [before|ahead of] any [numbers|figures] [are discussed|go out|reach them]",
        "[Capture|Separate|Sort out] [must-have|essential] versus [nice-to-have|optional] [features|needs|items] with the"
        " [evaluation team|end users|project sponsor]",
        "[Review|Walk through] the existing [environment|setup|systems] [so that|so] the [demo|walkthrough|trial]"
        " [covers|shows|matches] [their real workflows|what they actually do|the cases they care about]",
    ],
    "disc_mod": ["so the [quote|proposal|price sheet] [covers|reflects] the right scope",
                 "before any pricing goes out", "now that the budget is confirmed",
                 "that the economic buyer asked for", "[raised|flagged] on the intro call",
                 "ahead of any contract talks", "so the [quote|proposal] matches what they need"],

    # --- Quote: the written offer, line items, prices, approvals on our side --------------------------
    "task_quote": [
        "[Send|Email|Share] the [revised|updated|final|first] [quote|proposal|cost breakdown|price sheet|figures]"
        " [for|covering] the [three-year|annual|multi-site|phase one|full] [bundle|rollout|order|package]"
        "[ <quote_mod>|]",
        "[Build|Draft|Put together|Prepare] [a|the] [quote|proposal|cost breakdown|priced bill of materials|"
        "written offer] [with|listing] [line items|quantities|unit prices|the options they asked about][ <quote_mod>|]",
        "[Get|Request|Chase] [internal|manager|finance] sign-off on the [list prices|unit prices|volume tiers|"
        "bundle price] [before|ahead of] sending the [quote|offer|figures]",
        "[Follow up on|Chase|Check in about] the [quote|proposal|offer|price sheet|figures] [we sent|shared]"
        " [last week|on Monday|after the call][ <quote_mod>|]",
        "[Add|Include|Put] the [onboarding package|training package|go-live support|extended warranty|"
        "installation line|spare units] [in|on] the [quote|offer|proposal draft][ <quote_mod>|]",
        "[Confirm|Extend|Check] the [expiry|validity] date [of|on] the [quote|offer|price sheet] [we sent|"
        "still open|they are reviewing]",
        "[Work out|Calculate|Price out] [the cost of|what it would cost to add|the figures for] [two more sites|"
        "a larger order|the optional modules|a second phase][ <quote_mod>|]",
    ],
    "event_quote": [
        "[Proposal|Quote|Pricing|Offer] [walkthrough|review|presentation] with [the buying committee|<contact>|"
        "their finance lead|the evaluation team][ <quote_mod>|]",
        "[Walk|Take] [the buyer|the committee|their finance lead|<contact>] through the [cost breakdown|line items|"
        "offer|figures][ <quote_mod>|]",
        "[Present|Go over|Review] the [priced options|bundle options|written offer|cost breakdown] [with|for]"
        " [the buying committee|<contact>|their finance lead][ <quote_mod>| <when>|]",
    ],
    "work_quote": ["<wk_quote><aside>."],
    "wk_quote": [
        "[Prepare|Put together] the [formal|written] [quote|offer] with [line items|quantities|unit prices] and"
        " [confirm|note] [how long|until when] the [prices|figures] [hold|stay valid]",
        "[Walk|Take] the buyer through the [offer|cost breakdown|priced options] and [answer|note|capture]"
        " [questions|feedback|objections] on [each line|the bundle|the quantities]",
        "[They asked|The customer asked|<contact_cap> asked] for [the numbers|a written offer|figures] in writing:"
        " [build it|draft it], get [internal|finance] sign-off and [send it|get it out] <when>",
        "[Price out|Cost] the [options|configurations|bundles] they [shortlisted|picked|asked about] and"
        " [lay them out|present them] [side by side|in one document]",
    ],
    "quote_mod": ["[after|following] the demo", "[based on|using] the requirements they listed",
                  "[so|so that] legal has something to review", "before contract review",
                  "within the budget their CFO set", "[they asked for|requested] [at|after] the workshop"],

    # --- Negotiation: terms, redlines, procurement pushback, concessions -----------------------------
    "task_neg": [
        "[Respond to|Answer|Reply to|Come back on] [procurement's|the buyer's|their purchasing team's|their CFO's]"
        " [counteroffer|counter-proposal|push for a lower price|request for net-60 terms|"
        "request for a longer payment schedule][ <neg_mod>| <when>|]",
        "[Agree|Settle|Align] on [the liability cap|payment terms|the termination clause|the renewal terms|"
        "the indemnity wording|the auto-renewal language] with [their counsel|their procurement lead|"
        "the customer's lawyers][ <neg_mod>|]",
        "[Review|Go through|Mark up] [their|the customer's] [redlines|edits|changes] [to|on] the [master agreement|"
        "MSA|contract|order form][ <neg_mod>|]",
        "[Decide|Work out|Agree internally|Check with my manager] how far we can [move|bend|go] on [price|"
        "payment terms|the discount|contract length|the cancellation terms][ <neg_mod>| <when>|]",
        "[Send|Return|Get] the [marked-up|revised|amended|cleaned-up] [agreement|contract draft|order form|"
        "master agreement] [back |]to [their lawyers|their counsel|procurement|the buyer][ for a final read|"
        " with our comments| <when>|]",
        "[Push back on|Hold the line on|Trade off|Counter] [the extra discount|free training|longer payment terms|"
        "a price freeze|the penalty clause] [they are asking for|procurement wants|in the latest round|"
        "their lawyers added][ <neg_mod>| <when>|]",
    ],
    "event_neg": [
        "[Contract|Terms|Commercial] [call|session|negotiation] with [procurement|their lawyers|their CFO|"
        "the buying committee][ <neg_mod>| <when>|]",
        "[Redline|Markup|Clause-by-clause|Contract wording] review with [counsel|their legal team|the customer's lawyers|"
        "procurement and legal][ <neg_mod>| <when>|]",
        "[Final|Last|Closing] [round|session] on [price|payment terms|open clauses] with [procurement|their CFO|"
        "the buying committee][ <neg_mod>|]",
    ],
    "work_neg": ["<wk_neg><aside>."],
    "wk_neg": [
        "[Work through|Go through|Resolve] [procurement's|the buyer's] [counteroffer|pushback|latest position] and"
        " the [redlines|edits|markups] on the [agreement|contract|order form]",
        "[Settle|Close out|Agree] the [open|remaining|disputed] [clauses|terms|points] [and|including] the"
        " [requested|proposed] [concession|price cut|payment schedule] before [signature|anyone signs]",
        "[Their|The customer's] [lawyers|counsel|procurement team] [want|wants|asked for] [changes|edits] to"
        " [liability|termination|renewal] [terms|wording]; [agree|decide] what we can [accept|give]",
        "[Procurement|The buyer] is pushing back on [price|the payment schedule|contract length]: [find|agree on]"
        " [a middle ground|final terms|what we can trade]",
    ],
    "neg_mod": ["before the go-live date slips", "on the quote they sent back", "including the onboarding fees",
                "[raised|flagged] after the demo", "so kickoff can stay on schedule",
                "within the budget they confirmed"],

    # --- Closed: after signature: setup, kickoff, training, handoff, go-live --------------------------
    "task_closed": [
        "[Set up|Create|Activate] [user accounts|admin logins|the customer's workspace|their account in the billing"
        " system|invoicing] for the new [customer|client][ <closed_mod>| <when>|]",
        "[Schedule|Plan|Book|Set a date for] [the|a] [kickoff|kick-off meeting|first training session|"
        "rollout planning session|welcome call] [with|for] [their admins|the new customer|the project team|"
        "the new users][ <closed_mod>| <when>|]",
        "[Introduce|Hand over to|Connect them with] [the|our] [customer success manager|implementation lead|"
        "support team|onboarding team|account manager] [now that|since] [the paperwork is signed|the deal is signed|"
        "they have signed|the contract is countersigned][ <when>|]",
        "[Agree|Confirm|Lock in] the [rollout|go-live|installation|delivery] [date|plan|schedule] with [the new"
        " customer|the client's project team][ <closed_mod>|]",
        "[Send|Share] the [training|setup|rollout] [guide|checklist|materials] [to|with] [their admins|the new users|"
        "the customer's team][ <closed_mod>|]",
        "[File|Archive|Store] the [countersigned|fully signed|executed] [agreement|contract|order form] and"
        " [notify|tell|update] [finance|the support desk|the delivery team|the account manager][ <when>|]",
        "[Check in with|Call|Email] the new [customer|client] [a month|two weeks|a few weeks] [after|into]"
        " [rollout|go-live|the switch-over][ <closed_mod>|]",
    ],
    "event_closed": [
        "[Kickoff|Kick-off|Welcome|Onboarding] [meeting|call|session] with [the new customer|their admins|"
        "the project team][ <closed_mod>|]",
        "[Training|Rollout planning|Go-live readiness|Admin setup|Data migration] session [with|for] [the new customer|"
        "their admins|the new users|the project team][ <closed_mod>| <when>|]",
        "[Handover|Handoff|Account transition|Internal handover] [meeting|call] with [our success team|"
        "the implementation lead|the support desk|the delivery team] [after signature|now the deal is done|"
        "now that they have signed][ <when>|]",
    ],
    "work_closed": ["<wk_closed><aside>."],
    "wk_closed": [
        "[The deal is signed|They have signed|Paperwork is done]: [kick off|start] the rollout, [introduce|bring in]"
        " the [customer success manager|implementation lead] and [agree on|set] [go-live milestones|the first dates]",
        "[Hand over|Pass on|Transfer] the account notes to the [onboarding|implementation|delivery] team and"
        " [schedule|book|plan] the [kickoff|first working session]",
        "[Set up|Confirm] [billing|invoicing|user access|training dates] for the new [customer|client] and"
        " [share|send] the [rollout|setup] [plan|checklist]",
        "[Welcome|Thank] the [new customer|client] [after signature|now the contract is countersigned] and [confirm|"
        "walk through] [who to call for support|the training schedule|the go-live plan]",
    ],
    "closed_mod": ["[recorded|shown] at the demo", "using the requirements gathered in discovery",
                   "as [quoted|priced] in the final offer", "per the negotiated payment schedule",
                   "matching the scope from the proposal"],
}

GRAMMAR = Grammar(_RULES)
_DETECT = {stage: GRAMMAR.pattern(f"task_{k}", f"event_{k}", f"work_{k}") for stage, k in KEYS.items()}


def _stage(stage: str) -> str:
    """The stage key's stage: one of STAGES, or 'Closed ...' (Closed Won) as Closed."""
    if stage in KEYS:
        return stage
    if stage and stage.startswith("Closed"):
        return "Closed"
    raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")


def activity(rng: random.Random, *, stage: str, kind: str) -> tuple[str, str]:
    """(Subject, Description) of a Task (kind="task") or Event (kind="event") doing `stage`'s work."""
    if kind not in ("task", "event"):
        raise ValueError(f"kind must be 'task' or 'event', not {kind!r}")
    k = KEYS[_stage(stage)]
    subject = GRAMMAR.expand(rng, f"{kind}_{k}")
    notes = [GRAMMAR.expand(rng, "note") for _ in range(rng.choice((0, 1, 1, 2)))]
    work = GRAMMAR.expand(rng, f"work_{k}")
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

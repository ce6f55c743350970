"""Sales voice-call transcripts, written from a grammar, and the detectors that read them back.

A call states facts in many ways: directly, implied, negated ("it's not that we lack budget"),
hedged, corrected later in the same call (the LAST statement of a BANT factor decides), or
spread over turns (a pending answer, resolved later). Around them: small talk and distractor
facts that change no label (a budget for another project, someone's authority over an
unrelated purchase, an opinion about another vendor's product, competitors ruled out or named
in passing). Each label is carried by its own rules (`FACT_RULES`); tests check with
`grammar.overlaps` that no other rule of the grammar produces text a label's pattern matches.
Spoken lead-ins and tails fit the kind of sentence (`FRAMES`: a statement's, a question's, none
on greetings and closings); wording that fits one org only is in `ORG_RULES` (a b2c call has no
legal team), which the detectors read for both orgs (`grammar.by_org`). The agent's purpose and
next step on an opportunity's call show the deal's stage by the work they describe, each naming
other stages' work done or ahead as context (`_stage_lines`), so stage words alone do not tell it.

Detectors (what the oracle reads, and FIELD_FACTS for the model writer) are the compiled
patterns of those rules, matched case-insensitively:

- `unmet_factors(body)`: BANT factors whose last statement says unmet;
- `negative_subtopics(body)`: subtopics of the product the contact was negative about;
- `competitors_considered(body)`: vendors the contact is still considering for this purchase;
- `call_stage(body)`: the deal stage the agent's purpose and next step show, or None.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ..schema import STAGES
from . import text
from .activities import KEYS
from .common import cumulative
from .grammar import LazyRegex, by_org
from .latent import BANT, SUBTOPICS

SENTIMENTS = ("positive", "neutral", "negative")

_APPROVERS = {
    "b2b": (
        "our CFO",
        "the VP of Operations",
        "our procurement committee",
        "the CIO",
        "our managing director",
        "the board",
        "my boss",
        "our finance director",
    ),
    "b2c": ("my partner", "my wife", "my husband", "my dad", "my business partner", "my sister"),
}
_AMOUNTS = {"b2b": (30_000, 250_000, 5_000), "b2c": (300, 2_500, 50)}
_PROJECTS = {
    "b2b": (
        "the warehouse remodel",
        "a new delivery fleet",
        "the office move",
        "our website rebuild",
        "new laptops for the sales floor",
        "the trade show next spring",
        "a security audit",
    ),
    "b2c": (
        "a kitchen renovation",
        "a new roof",
        "our summer vacation",
        "a used car",
        "the wedding",
        "new bikes for the kids",
        "a home gym",
    ),
}
_PURCHASES = {
    "b2b": (
        "the office lease renewal",
        "our insurance renewal",
        "the catering contract",
        "the company car order",
        "the warehouse expansion",
        "the switch to a new payroll provider",
    ),
    "b2c": (
        "the new car",
        "the mortgage refinance",
        "our holiday trip",
        "the new sofa",
        "the kids' school fees",
        "the garden redesign",
    ),
}

RULES: dict[str, Sequence[str]] = {
    # -- shared pieces
    # spoken framing by kind of sentence (see FRAMES): none on greetings, closings or corrections
    "lead_c": ["[well, |honestly, |to be honest, |look, |I mean, |so, |okay, |right, |hmm, |frankly, |yeah, ]"],
    "tail_c": ["[, to be honest|, if I'm honest|, as things stand|, at least that's where we are]"],
    "lead_aside": ["[by the way, |unrelated, but |oh, and |side note, |while I think of it, ]"],
    "lead_a": ["[so, |okay, |alright, |right, |great, |good, ]"],
    "lead_next": ["[as a next step, |from my side, |so, |okay, |alright, |on my end, ]"],
    "tail_q": ["[, if you don't mind me asking|, if you can share that|, if that's okay to ask]"],
    "ack": [
        "[right|okay|sure|got it|makes sense|understood|fair enough|good to know|that helps|noted|"
        "thanks for that|appreciate that|perfect|great]"
    ],
    "soft": ["[honestly|to be honest|frankly|look|well|so|I mean|candidly|truthfully|in all honesty]"],
    "this": ["[this|the {product}|this purchase|something like this|a project like this]"],
    "when": [
        "[the next six weeks|the next two months|this quarter|the next 90 days|the next month|"
        "the next few weeks|the current quarter|the next eight weeks]"
    ],
    "about": ["[about|roughly|around|close to|a bit over|just under|something like]"],
    "correct": [
        "[actually|wait|hang on|sorry|hold on|oh], [scratch that|let me correct that|I misspoke|"
        "I had that wrong|that's out of date|I just checked|I should correct myself]"
    ],
    "followup": [
        "[coming back to|going back to|circling back to|to answer|following up on] "
        "[your earlier question|what you asked earlier|that question from before|your question from earlier|"
        "the point you raised earlier]"
    ],
    # -- BANT statements (clauses; a turn capitalises them)
    "budget_met": [
        "[we have|we've got|we already have] <about> {amount} [set aside|earmarked|allocated|approved|ring-fenced] "
        "for <this>",
        "{approver} [approved|signed off on|agreed to] <about> {amount} for <this> [last week|last month|already|"
        "a few weeks ago]",
        "the money for <this> is [already |][in place|approved|sorted|secured|in the plan], <about> {amount}",
        "it's not [that|as if|like] we [lack|are short of] [budget|money|funds] [for it|here|on this one]; "
        "<about> {amount} is [already |][set aside|approved|earmarked]",
        "[I'm fairly sure|I believe|as far as I know|if I remember right|I think] we [have|can count on] <about> "
        "{amount} [set aside|earmarked|available] for <this>",
        "[cost|spend|money] won't be what holds <this> up, [since|as] <about> {amount} is [already |]"
        "[earmarked|sitting in the plan|accounted for]",
    ],
    "budget_unmet": [
        "[nothing|no money|not a cent] has been [set aside|earmarked|allocated|approved] for <this> "
        "[yet|so far|at this point|in this year's plan]",
        "[our spending|spend|all purchasing|discretionary spend] is frozen [until next year|until the next fiscal year|"
        "for the rest of the year|until further notice]",
        "the [money|funding|budget] for <this> [isn't|is not] there [yet|right now|this year|at the moment]",
        "we'd [have to|need to] [find|scrape together|free up] the [money|funds|budget] [somewhere|first|"
        "from another line] before [committing|we could sign|anything moves]",
        "{approver} [turned down|said no to|pushed back on|sat on] [the request|our request|the spend] for <this>"
        "[ last month| in the last round| again|]",
        "I [can't|couldn't|wouldn't] [say|claim|pretend] we [have|can count on] [money|funding|budget] "
        "[lined up|in place|sorted] for <this>",
        "I [doubt|don't think] we'll [get|find|free up] [money|funding|budget] for <this> [in this year's budget|"
        "before next year|"
        "anytime soon]",
    ],
    "authority_met": [
        "I'm the one who [makes|has] the final [call|decision|say] [on this|here|on purchases like this]",
        "the decision [is mine|is my call|sits with me|rests with me] [alone|entirely|in the end|on this one]",
        "I [sign off on|approve] [purchases|spend|deals] [like this|of this size|in this range] [myself|on my own|"
        "without anyone else]",
        "it's not [up to|down to] [anyone else|{approver}]; [I make the call|the call is mine|I decide|I sign it]",
        "I'm [pretty|fairly|almost] sure <this> [falls|sits] [within|inside] my [signing authority|approval limit|budget "
        "authority]",
        "nobody [else |][needs to|has to] [bless|approve|okay] <this>[, it's my decision|, I can sign it|]",
    ],
    "authority_unmet": [
        "[ultimately|in the end|at the end of the day|realistically] [the decision|the final call|the sign-off] "
        "[is|belongs to|sits with] {approver}[, not me|]",
        "I'd [have to|need to] [run this by|take this to|get a yes from|get the nod from] {approver} "
        "[before anything moves|first|before we commit]",
        "I'm not [really |]the [decision-maker|one who signs|final approver] [here|on this|for this]",
        "{approver} [signs off on|approves|has to bless] [anything like this|every purchase of this size|"
        "anything in this range]",
        "I [don't think|doubt] I [can|could] sign <this> [myself|on my own|without {approver}]",
        "[this|the {product}] isn't [my call alone|my decision alone|something I can approve [on my own|by myself]]",
    ],
    "need_met": [
        "[we|I] [really |definitely |genuinely |]need <this> because <pain>",
        "<pain>, so [this is|fixing it is|solving this is|sorting this out is] [a real priority|top of the list|"
        "urgent for us|the main goal this year]",
        "it's not [just|only|simply] [curiosity|window shopping|research] [on our side|for us|here]; <pain>",
        "I [think|suspect|would say] we [do |]need <this>, [mostly|largely|partly] because <pain>",
        "the [main reason|whole reason|trigger] [we're talking|we called|for this call] is that <pain>",
    ],
    "pain": [
        "[the setup we have now|our current system|the old one|what we use today] [keeps breaking|can't keep up|"
        "is out of support|is on its last legs|crashes every other week]",
        "[we|I] [lose|waste|burn] [hours|whole afternoons|a lot of time] [every week|each month|daily] "
        "on [workarounds|manual fixes|patching things up]",
    ],
    "need_unmet": [
        "what we have [today|now|at the moment] [works fine|does the job|is good enough|covers it] [for now|for us|"
        "honestly|as far as I can tell]",
        "[I'm|we're] [mostly|just|only] [gathering information|doing research|browsing|looking around], [there's no|"
        "we don't have a] [pressing|real|specific] problem [to solve|behind it|driving it]",
        "there's no [real|pressing|specific] [problem|use case|pain point] [driving this|behind this|"
        "we're trying to fix]",
        "[nothing's|nothing is] [broken|wrong|failing] with [our current setup|what we use now|the system we have]",
        "I'm not sure we [actually|really|even] need [it|this|anything new] [right now|before next year|at all]",
        "[it's|this is] [more curiosity than anything|a nice-to-have at best|not solving a real problem for us]",
    ],
    "timeline_met": [
        "we'd [want|need|like] [this|it|the {product}] [in place|up and running|live|rolled out] [within|inside] "
        "<when>",
        "[our|the] [target|deadline|go-live goal] is [within|inside] <when>",
        "it's not [open-ended|a someday thing|a maybe-next-year thing]; we [need|want] [it|this] [live|in place] "
        "[within|inside] <when>",
        "[probably|I'd guess|most likely|realistically] we'd [want|need] it [in place|live|running] [within|inside] "
        "<when>",
        "[we have to|we've got to|we must] [decide|sign|move] [within|inside] <when>[ to hit our plan|, no later|]",
    ],
    "timeline_unmet": [
        "there's no [set|fixed|real] [timeline|date|deadline] [yet|for this|at the moment]",
        "[we're not|we aren't] in [a|any] [hurry|rush] [on this|at all|here]",
        "I [couldn't|can't] [tell you|say] when we'd [do this|buy|move]; [maybe next year|could be a year out|"
        "maybe someday|no idea yet]",
        "[this|it] [is|sits] [on the back burner|parked|a someday project] [for now|until next year|indefinitely]",
        "I [doubt|don't think] we'd [move|do anything|sign anything] [before next year|this year|anytime soon]",
    ],
    # pending answers, resolved later in the call (no label)
    "pending": [
        "[let me|I'll need to|I'd have to|I want to] [check|confirm|double-check] [that|the details|where we stand] "
        "with {approver} [and get back to you|before I answer|first]",
        "[good question|fair question|hmm], I'm [not sure off the top of my head|not a hundred percent sure|"
        "not certain right now|not the best person to say], let me [think|look into it|ask around|check my notes] "
        "and [come back to it|answer later in the call|get back to you before we hang up]",
    ],
    # -- competitors (the considered ones are labels; the others are distractors)
    "comp_considered": [
        "we're [also |][looking at|talking to|evaluating|getting a quote from|in conversations with] {comp}"
        "[ as well| too| in parallel|]",
        "{comp} [sent us|gave us|put together] a [proposal|quote|bid] [last week|recently|a few days ago] "
        "[and we're weighing it|that's still on the table|and we're comparing it with yours]",
        "{comp} is [still |][on our shortlist|in the running|one of the options we're weighing][ for this| at the "
        "moment| alongside you| after their last demo|]",
        "[we're|I'm] [comparing [you|your offer|the {product}] [against|with]|weighing [you|your offer|the {product}] "
        "against] {comp}[ right now| before we decide|]",
        "we'll [probably|likely|most likely] [get|take] a [demo|quote|second opinion] from {comp} "
        "[too|as well|before we decide]",
    ],
    "comp_ruled_out": [
        "we [looked at|talked to|had a call with|got a demo from] {comp} [earlier|last year|a while back] but "
        "[ruled them out|crossed them off|dropped them|it went nowhere]",
        "{comp} is [off the list|out of the picture|no longer an option] [now|for us|after their demo]",
        "we [won't|will not] be [going with|considering|talking to] {comp}[ again| this time|]",
        "we were [also |]evaluating {comp} [until their demo|until last month|for a while] but [dropped them|"
        "moved on|lost interest]",
    ],
    "comp_passing": [
        "my [brother-in-law|old manager|college roommate|neighbor|cousin] [works at|just joined|used to work at] "
        "{comp}[, small world|, funny enough|]",
        "I [saw|read] [an article|a news piece|a post] about {comp} [the other day|this morning|last week]"
        "[, nothing to do with this|, unrelated|]",
        "a [friend|colleague|former coworker] recommended {comp} for [payroll|their marketing|a side project]"
        "[, nothing to do with this|, different area entirely|]",
        "[our|my] [accountant|landlord|nephew] [mentioned|talks about|swears by] {comp} [all the time|constantly|"
        "once in a while]",
    ],
    # ruled out without a cue word (said several lines after the vendor was named as an option)
    "comp_dropped": [
        "{comp} didn't [make it past|get through|survive] [our security review|the reference calls|the pilot]"
        "[ last week|, so that settles it|]",
        "we [sent|gave] {comp} a [polite|firm|clear] no [last week|on Monday|after their pilot]",
        "{comp}'s [proposal|quote|bid] went [straight in the bin|nowhere with our finance people|back in the drawer] "
        "[after the pilot|once we read the terms|last week]",
        "[that's|it's] the end of the road for {comp}[ as far as we're concerned| on our side| after last week|]"
        "[, their references didn't check out|, the pilot settled it|, their terms were a deal-breaker|]",
    ],
    # considered again after being ruled out (the cue words of ruling out, yet still an option)
    "comp_back": [
        "we'd [dropped|crossed off|ruled out] {comp} [earlier|at first|back in the spring], but they [came back "
        "with|sent] a [better|sharper|new] offer, so they're [back in the running|back on the shortlist|an option "
        "again]",
        "{comp} [called us back|reached out again] after we'd [passed on|walked away from] them, and [now we're "
        "looking at them again|they're back on the table|we've agreed to a second round with them]",
    ],
    # names in a competitor-like frame that are no option for this purchase
    "comp_worked": [
        "I [spent|worked] [two|three|five|a few] years at {comp} [before this job|early in my career|"
        "before I moved here][, so I know the space|, small world|]"
    ],
    "comp_agent": [
        "<ack>, [a few|some|quite a few] of [our customers|the teams we work with] [came to us from|"
        "switched to us from|also talked to] {comp} [over the last year|this year|recently], [have you come "
        "across them|are they on your radar|have they come up on your side]?"
    ],
    "comp_never": [
        "no, we haven't [spoken to|talked to|met with|heard from] {comp} [yet|so far|at all]"
        "[, and I don't plan to|, not even a cold call|]",
        "I've [only |just |]heard of {comp} [in passing|at a conference|from a colleague|on a podcast|"
        "in a trade magazine][, nothing more|, that's all|, never met anyone from there|]",
        "[we've|I've] never [spoken to|met with|had a call with|had a demo from] {comp}[, honestly|, not "
        "once|, as far as I know|][ in all the time I've been here| on this or anything else|, so I can't "
        "compare]",
    ],
    "comp_reply": [
        "<ack>, [happy to|glad to|I can] [show you|walk you through] [where we differ|how we compare|"
        "what sets us apart] [on total cost|side by side|before you decide|in a one-pager]",
        "<ack>, [I can|let me] [put together|send over] a [side-by-side|comparison|one-page comparison] "
        "[on total cost|of the features|of support and pricing][ before you decide| this week|]",
        "<ack>, [plenty of|a lot of|many of] our customers [compared options|looked around|ran a bake-off] "
        "[before choosing us|first|too], so [that's normal|no surprise there|I'm glad you're thorough]",
    ],
    # -- subtopic opinions about OUR product (negative ones are labels)
    "n_pricing": ["[your pricing|the price you quoted|the pricing on the {product}|what you're charging]"],
    "n_support": ["[your support team|the support on your side|your support|your help desk]"],
    "n_features": [
        "[the feature set|the feature set of the {product}|your feature list|what the {product} does out of the box]"
    ],
    "n_integration": [
        "[the integration story|integrating it with our systems|connecting it to our tools|"
        "the integration with our stack]"
    ],
    "n_onboarding": [
        "[your onboarding plan|the onboarding you described|getting set up on your side|the rollout plan you described]"
    ],
    "n_performance": ["[the performance we saw|how fast it runs|the speed in the trial|performance in the trial]"],
    "be": ["[is|seems|looks|feels]"],
    "worry": ["I'm [a little|somewhat|a bit|quite] [worried|uneasy|nervous|concerned] that"],
    "neg_pricing": [
        "<n_pricing> <be> [steep|higher than we'd like|hard to justify|above what we planned|a real concern]",
        "<worry> <n_pricing> <be> [steep|out of our range|too high]",
        "we'd need a [much bigger|serious|real] discount before the numbers [work|make sense][ for us| on "
        "our side| this year|]",
        "the quote came in [almost double|a third above|well over] what we [planned|expected] to pay",
    ],
    "neg_support": [
        "<n_support> <be> [slow to respond|hard to reach|a real concern|a weak spot]",
        "<worry> <n_support> [won't keep up|will be slow|is stretched thin]",
        "the last time we [opened a ticket|called in|asked for help] it took [days|a week|forever] to hear back",
        "we [waited|sat] [three days|a whole week] for your support team to answer a [simple|basic] question",
    ],
    "neg_features": [
        "<n_features> <be> [thin|limited|missing pieces we need|a real concern]",
        "<worry> <n_features> [won't cover|falls short of|misses] what we need",
        "[a couple of|several|a few] features we [rely on|need|asked about] [aren't there|are missing]",
        "we'd [still |]have to keep [half our reporting|our exports|the approval steps] in spreadsheets next to it",
    ],
    "neg_integration": [
        "<n_integration> <be> [painful|a sticking point|a real concern|messier than we hoped]",
        "<worry> <n_integration> [will be painful|won't work|will eat months]",
        "it doesn't [talk to|connect with|sync with] [our ERP|the tools we use today|our billing system]",
        "we had to ask for [a second|another|a third] [demo|walkthrough|session] [of|on] the integration because "
        "nothing [synced|came through|lined up]",
        "my team spent [two days|a week] trying to get it to [sync with|talk to] [our ERP|the billing "
        "system] and it never did",
    ],
    "neg_onboarding": [
        "<n_onboarding> <be> [heavy|a lot of work|a real concern|more than we can handle]",
        "<worry> <n_onboarding> [will drag on|will take too long|needs more time than we have]",
        "rolling this out would [eat|take] [weeks|a month|months] we don't have",
        "[half|most] of my team still [couldn't|can't] [log in|find their way around] after your "
        "[onboarding session|first training session]",
    ],
    "neg_performance": [
        "<n_performance> <be> [sluggish|disappointing|a real concern|slower than we need]",
        "<worry> <n_performance> [won't hold up|will lag|will slow us down]",
        "it [lagged|stalled|crawled] when we [pushed it|loaded our data|ran the trial]",
        "[a simple report|the main dashboard|an export] took [minutes|well over a minute|ages] to "
        "[load|open|finish] [in the trial|with our data]",
    ],
    "fine_pred": [
        "[about what we expected|fine, nothing special|in the normal range|okay for now|acceptable|"
        "on par with the others]"
    ],
    "good_pred": ["[great|really solid|better than we expected|a big plus|excellent|one of the reasons we're here]"],
    # -- agent questions
    "ask_Budget": [
        "<ack>, [and |so |]how are you thinking about [budget|funding|spend] for <this>?",
        "<ack>, [and |so |]is there [budget|money|funding] [earmarked|set aside|planned] for <this> "
        "[yet|already|in this year's plan|at this point]?",
        "<ack>, [and |so |]where do things stand on [the budget|funding|the money side] [for this|"
        "on your end|this year]?",
    ],
    "ask_Authority": [
        "<ack>, [and |so |]who else [is involved in|weighs in on|signs off on] [the decision|"
        "a purchase like this|the final call][ on your side|]?",
        "<ack>, [and |so |]how does [the approval process|sign-off|decision-making] work [on your side|"
        "for something like this|at your end]?",
    ],
    "ask_Need": [
        "<ack>, [and |so |]what's [driving|behind] [the interest|this conversation|your interest] "
        "[right now|at the moment|this year]?",
        "<ack>, [and |so |]what [problem|challenge|headache] are you hoping [to solve|to fix|the {product} "
        "will solve][ first|]?",
    ],
    "ask_Timeline": [
        "<ack>, [and |so |]what kind of [timeframe|timeline|schedule] are you [working with|looking at|"
        "planning around][ here| for this|]?",
        "<ack>, [and |so |]when would you [want|need|like] [this|the {product}|it] [in place|up and running|"
        "live][ ideally| by|]?",
    ],
    # -- stages: the agent's purpose (aim_*) and next step (step_*), each worded with one of its
    # stage's own words (the *_w rules) or without any (see _stage_lines for how they are framed)
    "th_qual": [
        "budget check",
        "qualification call",
        "funding question",
        "budget question",
        "decision-maker check",
        "intro call",
    ],
    "th_disc": ["demo", "product demo", "requirements review", "discovery session", "technical deep-dive"],
    "th_quote": ["quote", "proposal", "written quote", "price sheet"],
    "th_neg": ["contract talks", "negotiation", "contract review", "terms discussion", "final negotiation"],
    "th_closed": ["kickoff", "onboarding", "kickoff meeting", "onboarding call", "training plan"],
    "aim_qual_w": [
        "[today is|this call is|I've set this call up as] [just |][a quick|a short|our] <th_qual>"
        "[ for the {product}| on the {product}|]"
    ],
    "aim_qual": [
        "I'd like to [understand|hear] what [prompted|triggered] your [inquiry|outreach|interest in the {product}] and "
        "who else has a say[ on your side| in this|]",
        "I'd like to [learn|understand] whether the {product} is [worth pursuing|something you'd buy|a real priority] "
        "[for you|for your team] [this year|this quarter|at all]",
        "[the goal today is|my aim today is] to [hear about|understand] your situation and see whether it makes sense "
        "to keep talking about the {product}",
    ],
    "step_qual_w": [
        "I'll [book|line up|pencil in] the <th_qual>[ with you| for next week| once you've had time to look around|]"
    ],
    "step_qual": [
        "I'll send [a short overview|a couple of customer stories|some background reading] [today|this week] so you "
        "can [judge|see] whether it's worth a [longer|second] conversation",
        "[let me|I'll] [check back|give you a call] [next week|in a few days|once you've talked it over] to see "
        "whether it makes sense to keep talking",
    ],
    "aim_disc_w": [
        "[I'd like to use|let's use] [this call|our time today|the next half hour] for the <th_disc>"
        "[ on the {product}| of the {product}|]"
    ],
    "aim_disc": [
        "I'd like to [learn|hear] how your team [handles things|gets the work done] day to day and [walk you through|"
        "let you try] the parts of the {product} [your team would use|that matter to you]",
        "today I want to [map out|write down] what your team [can't do without|would like to have] and let you try "
        "the {product} on [your own data|a real example|a sample of your work]",
    ],
    "step_disc_w": [
        "I'll [book|schedule|set a date for] the <th_disc>[ with your team| for next week| for early next week|]"
    ],
    "step_disc": [
        "I'll [write up|send over] [the list of must-haves we captured|what your team can't do without] and "
        "[book|arrange] a [hands-on session|sandbox session] for your team",
        "I'll send [my notes on|a summary of] how your team [handles things|gets the work done] today[, so nothing "
        "gets lost| for you to check|]",
    ],
    "aim_quote_w": [
        "I've [put together|prepared|drafted] the <th_quote> for the {product}, so let's [go through|"
        "walk through] it [together|item by item|one item at a time]"
    ],
    "aim_quote": [
        "I've [put in writing|written up] what the options you picked [come to|add up to], [item by item|with each "
        "total], so let's go through [each one|the totals] together",
        "I'd like to go through the totals for [each option|the bundle you picked|what you shortlisted] "
        "[before it all goes out in writing|one by one|side by side]",
    ],
    "step_quote_w": ["I'll [email|send] the <th_quote> [today|tonight|by tomorrow morning|early next week]"],
    "step_quote": [
        "I'll email [what the options come to|the totals for each option] in one document [today|by tomorrow], and "
        "it [holds|stays valid] for [30|45|60] days",
        "you'll have [each option and its total|the totals for what you picked] in writing [by tomorrow|by end of "
        "day|before your Thursday meeting][, and every item is open to questions|]",
    ],
    "aim_neg_w": ["[let's use|I'd like to use] [this call|our time today] for the <th_neg> on the {product}"],
    "aim_neg": [
        "<neg_side_cap> came back with [changes to the paperwork|a list of changes|points to settle] for the "
        "{product}, so let's [work through|settle|close out] [what's still open|the last open points|the remaining "
        "points][ and find a middle ground|]",
        "we're close on the {product}, and what's left is the [payment schedule|renewal period|way out after a "
        "year] and the [extra discount|longer payment window] you asked for",
    ],
    "step_neg_w": [
        "I'll [send|circulate] [the notes from|a summary of] the <th_neg> to <neg_side> [today|tomorrow|this week]"
    ],
    "step_neg": [
        "I'll take [your latest position|the changes you asked for] to [my manager|our deal desk] and come back with "
        "[an answer|our position] [by Friday|this week|in two days]",
        "I'll send [the revised paperwork|a clean copy] with [what we agreed|the agreed points] to <neg_side> "
        "[today|tomorrow|by Thursday][ for a final read|]",
    ],
    "aim_closed_w": [
        "[I'd like to use|let's use] [this call|our time today] to plan the <th_closed> for the {product}"
    ],
    "aim_closed": [
        "[now that|since] it's official, [thanks again for your business|we're glad to have you], and [I'd like to "
        "use this call to|today we can] [plan|map out] your first [weeks|month] with the {product}",
        "thanks again for [choosing us|your business], so let's [plan|map out] your first [weeks|month] with the "
        "{product} and [meet|bring in] the person who'll look after your account",
    ],
    "step_closed_w": [
        "I'll send the [invite|agenda] for the <th_closed> [this afternoon|today|tomorrow|before Friday]"
    ],
    "step_closed": [
        "the person looking after your account will reach out to [book the first sessions|agree the first dates] "
        "[this week|in the next few days]",
        "I'll send [a first-week checklist|the dates for your first weeks] [this afternoon|tomorrow][, so you can "
        "block the time|]",
    ],
    # other stages' work as context: done (back) or ahead (fwd), leading or trailing the line
    "lead_back": ["[building on|following|after|now that we're past|picking up from] the"],
    "lead_fwd": ["[ahead of|well before|long before|in preparation for] the"],
    "trail_back": ["[now that we're past|following|as agreed in|picking up from] the"],
    "trail_fwd": ["[well before|so nothing holds up|before we get to|in good time for] the"],
    # a lead's call shows no stage
    "stage_none": [
        "I [wanted to|thought I'd|just want to] [check in|catch up] and hear [how things are going on your side|"
        "where your thinking is on the {product}|what's changed since we last spoke][ since [the webinar|your visit "
        "to our site|you downloaded the brochure|my last email]|, no agenda beyond that|, nothing formal|]",
        "the [idea|plan|hope] for today is to [hear more about your situation|understand what you're after|"
        "learn a bit about you] and [answer any questions|see how we can help|share a little about the {product}]"
        "[, nothing formal|, in about twenty minutes|, at whatever pace suits you|]",
    ],
    "next_none": [
        "I'll [follow up|send you a note] [by email|later today|tomorrow] with a [recap|short summary|few notes] "
        "of [today|our chat|what we covered]",
        "I'll send a [short|quick] recap [tonight|tomorrow|this week|after this call] and we can [pick it up|"
        "continue] [from there|next time|when you're ready|whenever suits you]",
    ],
    # -- framing: greetings, small talk (asked and answered on one topic), closings
    "greet": [
        "[hi|hello|hey|good morning|good afternoon] {cf}, [this is|it's] {af}[ from sales| calling back| from "
        "the account team|], [thanks for making time|thanks for jumping on the call|appreciate you taking the "
        "call|"
        "glad we could connect|thanks for fitting me in] [today|this morning|this afternoon|on short notice|"
        "during what I know is a busy week]"
    ],
    "reply_b2b": [
        "[thanks|hi|hello|good to hear from you], {af}[,| -] [happy to talk|glad to chat|good timing|"
        "now is fine]"
        "[, a few of us at {company} have been [discussing this|looking into this|comparing options]|, this "
        "has been on our list at {company} for a while|, the team at {company} asked me to take this call|"
        ", I've [blocked|got] [half an hour|twenty minutes|until the top of the hour]|, I have my notes "
        "from last time [here|in front of me]]"
    ],
    "reply_b2c": [
        "[sure|yes|hi|hello|oh, hi|hi there], {af}[,| -] [now works|happy to chat|this is a good time|"
        "go ahead|perfect timing|good to hear from you]"
        "[, I have [a few|about twenty|ten] minutes [before I head out|before dinner|on my break]|, I was "
        "hoping you'd call|, thanks for calling back|, the kids are out so it's quiet|, I've been "
        "reading up on the {product}|]"
    ],
    "small_ask_weekend": [
        "<small_lead>how was your weekend[, anything fun|, did you get out at all|, get any rest|, do anything nice|]?",
        "<small_lead>did you have a [good|decent|relaxing] weekend[ in the end| after all|]?",
    ],
    "small_lead": [
        "[by the way, |before we dive in, |quick one before we start: |oh, and |first, |before we get "
        "going, |just out of curiosity, ]"
    ],
    "small_reply_weekend": [
        "[pretty good|not bad|quiet|lovely|a bit hectic], [thanks|thanks for asking][, we|, I] "
        "[went hiking|had family over|caught up on sleep|painted the porch|ran a 10k|watched the "
        "game|finally fixed the fence]"
    ],
    "small_ask_weather": [
        "<small_lead>how's the weather [on your end|where you are|over there][ today| this week|]?",
        "<small_lead>[is it still raining|did the heat break|has "
        "the snow cleared|is it as windy as here] [on your end|where you are|over there]?",
    ],
    "small_reply_weather": [
        "[grey and wet|sunny for once|cold but clear|hot already|windy], [thanks|honestly]"
        "[, I'd take yours|, typical for this time of year|, so I'm happy to be inside|, but "
        "the weekend looks better|]"
    ],
    "small_ask_event": [
        "<small_lead>how was the [conference|"
        "trade show|offsite|team day] [last week|the other day][, worth the trip|, did you get "
        "anything out of it|]?"
    ],
    "small_reply_event": [
        "[good|busy|exhausting|better than expected], [thanks|thanks for asking][, lots of "
        "[good talks|people|coffee]|, I'm still catching up on email|, I came back with a long "
        "to-do list|]"
    ],
    "small_ask_week": [
        "<small_lead>[did you get through|did you "
        "survive|how did you get on with] that busy stretch [you mentioned|you told me about|from last "
        "time][ in the end|]?"
    ],
    "small_reply_week": [
        "[mostly|just about|yes, finally|almost], [thanks|thanks for asking][, it was a long one|, "
        "things are calmer now|, one more deadline to go|, and I even took Friday off|]"
    ],
    "close_c": [
        "[sounds good|great|perfect|works for me|that's helpful|okay, good|that all makes sense|that covers "
        "it|good, that's clear][, thanks {af}|, thank you {af}|, thanks a lot {af}|]<close_next>"
    ],
    "close_next": [
        "[, talk soon|, speak next week|, have a good one|, I'll keep an eye out for it|, I'll look out "
        "for the [recap|email|invite|details]|, I'll [read|go through] it [tonight|over the weekend|"
        "tomorrow "
        "morning|before our next call]|, I'll [talk to|check with|sit down with] {approver} [in the "
        "meantime|before then|this week]|]"
    ],
    "close_a": [
        "[thanks|thank you|appreciate it|great talking to you|good talking to you|thanks for your time], {cf}"
        "[,| -] [have a great rest of your day|enjoy the rest of your week|have a good evening|have a good "
        "weekend|talk soon|speak soon|good luck with [the rest of the week|the quarter|everything on your "
        "plate]], <close_after>"
    ],
    "close_after": [
        "and [reach out anytime|just call me|drop me a line|send me a note] if [anything comes up|"
        "questions "
        "come up|you need anything in the meantime|something in the recap is unclear]",
        "and thanks again for [your time|the open conversation|fitting me in|all the detail]",
        "I'll [be in touch|follow up|check back] [tomorrow|next week|once the recap is out|in a few days]",
        "I'll [send that over|get that to you|have that with you] [shortly|within the hour|tonight|"
        "first thing tomorrow]",
    ],
    # distractor facts that change no label
    "budget_other": [
        "we [just|recently|also|already] [set aside|approved|signed off on] {amount} for {project}, but "
        "that's [a separate project|a different pot of money|earmarked elsewhere|unrelated to this]"
    ],
    "authority_other": [
        "{approver} [has to approve|signs off on|handles] {purchase}[, that's a separate process|, "
        "but that's unrelated|, different story entirely|]"
    ],
}

# Alternatives that fit only one org (a company's vendors and legal team, a household's apps).
ORG_RULES: dict[str, dict[str, list[str]]] = {
    "b2b": {
        "opinion_other": [
            "[our old vendor's|the payroll system's|our phone provider's|the last agency's|our email tool's] "
            "[support|pricing|onboarding|performance] was [painfully slow|awful|a nightmare|hard to justify]"
            "[, but that's a different product|, different vendor entirely|, not yours|]",
            "the [accounting|scheduling|HR] software we use [has terrible support|is overpriced|keeps crashing]"
            "[, which is a separate headache|, but that's another story|]",
            "[at my last company|with our previous provider|before we switched providers], [support tickets|"
            "onboarding|the integration work] [sat for days|took months|never really worked][, different vendor of "
            "course|, long story|]",
        ],
        "neg_side": ["your side", "your buying team", "your finance people"],
        "neg_side_cap": ["Your side", "Your buying team", "Your finance people"],
        "comp_partner": [
            "our [logistics partner|main supplier|distributor|parent company] [runs|uses] {comp} [for "
            "their ordering|on their side|for their own reporting][, that's their choice|, nothing we'd "
            "share|]"
        ],
        "comp_other_name": [
            "[Corbel Research|Marwick Insight|Fenwright Advisory|Tallis Research] [rated|ranked|put] "
            "[you|the {product}] [in their top three|near the top|ahead of most vendors] [this year|"
            "in their latest report|in their last review]",
            "we'd [buy|order] [it |]through [our usual reseller|our reseller|a reseller we trust], "
            "[Northpass Supply|Keystone Resale|Ridgeway Partners|Calloway Trade][, if that works for "
            "you|, they handle our billing|]",
        ],
    },
    "b2c": {
        "opinion_other": [
            "[my old phone company's|my internet provider's|the gym app's|my bank's|the last furniture store's] "
            "[support|pricing|delivery|app] was [painfully slow|awful|a nightmare|hard to justify]"
            "[, but that's a different company|, nothing to do with you|, not yours|]",
            "the [budgeting|banking|fitness|photo|recipe] app I [use|pay for] [has terrible support|is overpriced|"
            "keeps crashing|logs me out every day][, which is a separate headache|, but that's another story|, "
            "nothing to do with this|]",
            "[with my old phone company|at the last store I bought from|with my previous bank], [the support line|"
            "the setup|getting the app to connect] [took weeks|was a nightmare|never worked properly][, long story|, "
            "different company of course|]",
        ],
        "neg_side": ["you", "your side"],
        "neg_side_cap": ["You", "Your side"],
        "comp_partner": [
            "my [sister|neighbor|brother]'s [shop|small business|bakery] [runs on|uses] {comp}[, from "
            "what I hear|, apparently|]"
        ],
        "comp_other_name": [
            "I read a [review|write-up] of the {product} on [Homewise Reviews|Value Digest|Gadget "
            "Ledger][ last week| before the call|]",
            "I'd [rather|probably] [buy|order] it through [Larkfield Stores|Brightmart|Corner Depot]"
            "[ since I have a store card there| to use my points|]",
        ],
    },
}

_FACT_RULES = {
    **{f"{f}=unmet": f"{f.lower()}_unmet" for f in BANT},
    **{f"{f}=met": f"{f.lower()}_met" for f in BANT},
    **{f"negative={s}": f"neg_{s}" for s in SUBTOPICS},
    **{f"stage={s}": (f"stage_{s}", f"next_{s}") for s in STAGES},
}
FACT_RULES: dict[str, tuple[str, ...]] = {k: v if isinstance(v, tuple) else (v,) for k, v in _FACT_RULES.items()}
FACT_RULES.update({f"not_negative={s}": (f"pos_{s}", f"neu_{s}", f"wd_{s}") for s in SUBTOPICS})
FACT_RULES["competitor"] = ("comp_considered", "comp_back")
FACT_RULES["ruled_out"] = ("comp_ruled_out", "comp_dropped")
_NAMED = ("competitor", "ruled_out")  # facts whose value is the vendor named in the matched text


def _alternation(values: Iterable[str]) -> str:
    return "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))


SLOTS = {
    "amount": r"\$\d[\d,]*",
    "comp": _alternation(text.competitors()),
    "approver": _alternation(a for org in _APPROVERS.values() for a in org),
    "product": _alternation(p["name"] for org in ("b2b", "b2c") for p in text.products(org)) + r"|[^.;!?\n]+?",
}
_ORDER = list(KEYS.values())  # stage keys in sales order


def _context(other: str, key: str, leading: bool) -> str:
    """Another stage's work named as context of stage `key`'s line: done (back) or ahead (fwd)."""
    side = "back" if _ORDER.index(other) < _ORDER.index(key) else "fwd"
    return f"<lead_{side}> <th_{other}>, " if leading else f", <trail_{side}> <th_{other}>"


def _stage_lines() -> dict[str, list[str]]:
    """The agent's purpose (`stage_<Stage>`) and next step (`next_<Stage>`): the stage's work worded
    with its stage's word (`aim_<k>_w`) and one other stage's work as context, either side of it, or
    worded without a stage word (`aim_<k>`) between two other stages' work. Alternatives are drawn
    evenly, so a line names a pair of stages drawn evenly from all ten pairs, in either order,
    whatever its own stage: the count and order of stage words say nothing about the stage."""
    rules = {}
    for stage, k in KEYS.items():
        others = [o for o in _ORDER if o != k]
        for rule, core in ((f"stage_{stage}", f"aim_{k}"), (f"next_{stage}", f"step_{k}")):
            rules[rule] = (
                [f"{_context(o, k, True)}<{core}_w>" for o in others]
                + [f"<{core}_w>{_context(o, k, False)}" for o in others]
                + [f"{_context(a, k, True)}<{core}>{_context(b, k, False)}" for a in others for b in others if a != b]
            )
    return rules


for _s in SUBTOPICS:
    _not_neg = (
        f"I [wouldn't|can't|won't] [call <n_{_s}>|describe <n_{_s}> as|count <n_{_s}> as] "
        f"[a problem|a weak spot|a dealbreaker|an issue]"
    )
    RULES[f"pos_{_s}"] = [
        f"<n_{_s}> <be> <good_pred>",
        _not_neg,
        f"I [can't|couldn't] fault <n_{_s}>[, and nobody [here|on my team] has complained|]",
        f"<n_{_s}> [solved|took care of|fixed] a problem we [had|struggled with|lived with] for years",
    ]
    RULES[f"neu_{_s}"] = [
        f"<n_{_s}> <be> <fine_pred>",
        _not_neg,
        f"<n_{_s}> [doesn't|won't] [worry|bother] [me|us][, it's never been an issue| much|]",
        f"<n_{_s}> is the least of my [worries|concerns][ right now| at this point|]",
    ]
    # a negative opinion taken back later in the call (the last opinion on a subtopic decides)
    RULES[f"wd_{_s}"] = [
        f"[thinking about it more|now that I've seen [the numbers|your answer|the details]|after "
        f"talking it over with my team], <n_{_s}> [isn't really|is not] [a concern|a dealbreaker|an "
        f"issue] [after all|anymore]",
        f"I take back what I said about <n_{_s}>[, it's workable|, we can live with it|, it's fine]",
    ]
    RULES[f"ask_{_s}"] = [
        f"<ack>, [and |so |]how does <n_{_s}> [look to you|sit with you|compare with what you expected|feel to you]?",
        f"<ack>, [and |so |][what's your [take|read|view] on|any thoughts on] <n_{_s}>[ after the "
        f"demo| from what you've seen|]?",
    ]
RULES.update(_stage_lines())
RULES, GRAMMAR, _WRITERS = by_org(RULES, ORG_RULES, SLOTS)  # GRAMMAR reads both orgs' calls; a writer, one org's


@cache
def _detector(fact: str) -> LazyRegex:
    return GRAMMAR.pattern(*FACT_RULES[fact], flags=re.IGNORECASE)


_COMPETITORS = tuple(sorted(text.competitors(), key=len, reverse=True))  # longest first: "Acme Corp" before "Acme"


def _comp_fact(fact: str, m: re.Match[str]) -> str:
    name = next(c for c in _COMPETITORS if c.casefold() in m.group(0).casefold())
    return f"{fact}={name}"


def facts(body: str, kinds: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """Every (fact, matched text) the detectors find in a call transcript, in text order; only facts
    of `kinds` (the part before "=") if given, so that only their detectors are compiled."""
    found = []
    for fact in FACT_RULES if kinds is None else (f for f in FACT_RULES if f.partition("=")[0] in kinds):
        for m in _detector(fact).finditer(body or ""):
            found.append((m.start(), _comp_fact(fact, m) if fact in _NAMED else fact, m.group(0)))
    return [(f, s) for _, f, s in sorted(found)]


FIELD_FACTS = {("VoiceCallTranscript__c", "TranscriptBody__c"): facts}


def unmet_factors(body: str) -> list[str]:
    """BANT factors whose last statement in the call says unmet, in BANT order."""
    last = {}
    for fact, _ in facts(body, BANT):
        factor, _, value = fact.partition("=")
        last[factor] = value
    return [f for f in BANT if last.get(f) == "unmet"]


def _last_said(body: str, yes: str, no: str) -> set[str]:
    """Values whose last fact in the call is `yes` (a later `no` on the same value cancels it)."""
    last = {}
    for fact, _ in facts(body, (yes, no)):
        kind, _, value = fact.partition("=")
        last[value] = kind
    return {v for v, kind in last.items() if kind == yes}


def negative_subtopics(body: str) -> set[str]:
    """Subtopics of the product whose last opinion in the call is negative (not taken back)."""
    return _last_said(body, "negative", "not_negative")


def competitors_considered(body: str) -> set[str]:
    """Competitors the contact last says are still considered for this purchase (not ruled out since)."""
    return _last_said(body, "competitor", "ruled_out")


def call_stage(body: str) -> str | None:
    """The deal stage a call shows (the agent's purpose and next step), the last one stated, or None."""
    shown = [f.partition("=")[2] for f, _ in facts(body, ("stage",))]
    return shown[-1] if shown else None


# --- writing a call -----------------------------------------------------------------------------

SMALL_TALK = ("weekend", "weather", "event", "week")
FORMS = ("direct", "correction", "spread")
FORM_WEIGHTS = (6, 2, 2)
_FORM_CUM = cumulative(FORM_WEIGHTS)


# Every amount a call may name, as written: drawing one with `choice` is drawing
# `randrange(lo, hi, step)` (both take `_randbelow(n)`: tests/test_calls.py compares them).
_AMOUNT_TEXTS = {org: tuple(f"${a:,}" for a in range(*span)) for org, span in _AMOUNTS.items()}

# How each kind of sentence is framed in speech: (lead-in rule, tail rule), each optional; a sentence
# gets at most one of them, and greetings, closings, corrections and follow-ups get neither.
FRAMES = {
    "plain": (None, None),
    "fact": ("lead_c", "tail_c"),
    "opinion": ("lead_c", None),
    "aside": ("lead_aside", None),
    "ask": (None, "tail_q"),
    "stage": ("lead_a", None),
    "next": ("lead_next", None),
}
_FRAME_PICKS = {frame: (*(r for r in pair if r), None) for frame, pair in FRAMES.items()}  # what `say` draws from


class _Call:
    """One call being written: its slots, its turns, and statements deferred to later turns."""

    def __init__(self, rng: random.Random, org: str, **slots: object) -> None:
        self.rng, self.slots = rng, slots
        self.grammar = _WRITERS[org]
        self.amounts, self.approvers = _AMOUNT_TEXTS[org], _APPROVERS[org]
        self.turns: list[tuple[str, list[str]]] = []
        self.later: list[str] = []

    def say(self, *rules: str, frame: str = "plain", **extra: object) -> str:
        """A sentence of `rules` (clauses joined by commas), with its kind's spoken lead-in or tail
        (`FRAMES`, which carry no fact) about half the time."""
        slots = {**self.slots, **extra} if extra else self.slots
        body = ", ".join([self.clause(rule, slots) for rule in rules]).rstrip()
        end = "?" if body.endswith("?") else "."
        pick = self.rng.choice(_FRAME_PICKS[frame])
        if pick:
            said = self.clause(pick, self.slots)
            body = said + body if pick == FRAMES[frame][0] else body.removesuffix("?") + said
        return text.cap(body if body.endswith(".") else body.removesuffix("?") + end)  # "... Inc." ends it

    def clause(self, rule: str, slots: dict[str, object]) -> str:
        """One expansion of `rule` with `slots` (this call's, and the sentence's own), uncapitalised,
        with fresh amounts and approvers (set in `slots`)."""
        rng = self.rng
        slots["amount"] = rng.choice(self.amounts)
        slots["approver"] = rng.choice(self.approvers)
        return self.grammar.write(rng, rule, slots)

    def turn(self, who: str, *sentences: str) -> None:
        self.turns.append((who, list(sentences)))

    def state(self, factor: str, met: bool) -> None:
        """The contact's answer on one BANT factor, in one of FORMS; deferred parts go to `later`."""
        value = f"{factor.lower()}_{'met' if met else 'unmet'}"
        opposite = f"{factor.lower()}_{'unmet' if met else 'met'}"
        form = self.rng.choices(FORMS, cum_weights=_FORM_CUM)[0]
        if form == "direct":
            self.turn("C", self.say(value, frame="fact"))
        elif form == "correction":
            fix = self.say("correct", value)
            if self.rng.random() < 0.5:
                self.turn("C", self.say(opposite, frame="fact"), fix)
            else:
                self.turn("C", self.say(opposite, frame="fact"))
                self.later.append(fix)
        else:
            self.turn("C", self.say("pending", frame="opinion"))
            self.later.append(self.say("followup", value))

    def flush(self) -> None:
        """Say the deferred statements (corrections, resolved pending answers) in a contact turn."""
        if self.later:
            self.turn("C", *self.later)
            self.later = []

    def render(self, agent: str, contact: str) -> str:
        names = {"A": agent, "C": contact}
        return "\n".join(f"{names[who]}: {' '.join(sentences)}" for who, sentences in self.turns)


def voice_call(
    rng: random.Random,
    *,
    agent: str,
    contact: str,
    company: str | None,
    product: str,
    competitors: list[str],
    bant: dict[str, bool],
    sentiments: dict[str, str],
    stage_hint: str | None,
) -> str:
    """A sales call transcript. `bant` maps Budget/Authority/Need/Timeline to met (True) or unmet;
    `sentiments` maps subtopics to positive/neutral/negative; `competitors` are the vendors the
    contact still considers; `stage_hint` (a StageName) is what the call shows of the deal's stage."""
    org = "b2b" if company else "b2c"
    for sub, sent in sentiments.items():
        if sub not in SUBTOPICS or sent not in SENTIMENTS:
            raise ValueError(f"unknown subtopic/sentiment {sub!r}/{sent!r}")
    if stage_hint not in (None, *STAGES):
        raise ValueError(f"unknown stage {stage_hint!r}; expected one of {STAGES}")
    stage = stage_hint or "none"
    call = _Call(
        rng,
        org,
        cf=contact.split(" ")[0],
        af=agent.split(" ")[0],
        company=company or "",
        product=product,
        project=rng.choice(_PROJECTS[org]),
        purchase=rng.choice(_PURCHASES[org]),
    )
    call.turn("A", call.say("greet"))
    call.turn("C", call.say(f"reply_{org}"))
    if rng.random() < 0.5:
        topic = rng.choice(SMALL_TALK)
        call.turn("A", call.say(f"small_ask_{topic}"))
        call.turn("C", call.say(f"small_reply_{topic}"))
    call.turn("A", call.say(f"stage_{stage}", frame="stage"))
    for step in _steps(rng, bant, sentiments, competitors):
        step(call)
    call.flush()
    call.turn("A", call.say(f"next_{stage}", frame="next"))
    call.turn("C", call.say("close_c"))
    call.turn("A", call.say("close_a"))
    return call.render(agent, contact)


Step = Callable[["_Call"], None]  # one step of a call's body: writes its turns


def _steps(rng: random.Random, bant: dict[str, bool], sentiments: dict[str, str], competitors: list[str]) -> list[Step]:
    """The body of a call as steps: BANT answers (Need first), opinions, competitors, distractors.
    Some facts take two steps, the second said later in the call: a negative opinion taken back, a
    vendor named as an option and later dropped, or dropped and later considered again."""

    def factor(f: str) -> Step:
        def step(call: _Call) -> None:
            call.turn("A", call.say(f"ask_{f}", frame="ask"))
            call.state(f, bool(bant[f]))

        return step

    def opinion(rule: str, ask: bool = True) -> Step:
        def step(call: _Call) -> None:
            if ask and rng.random() < 0.6:
                call.turn("A", call.say(f"ask_{rule.partition('_')[2]}"))
            call.turn("C", call.say(rule, frame="opinion"))

        return step

    def said(
        rule: str, comp: str = "", frame: str = "fact", reply: str | None = None, agent: str | None = None
    ) -> Step:
        def step(call: _Call) -> None:
            if agent:
                call.turn("A", call.say(agent, comp=comp))
            call.turn("C", call.say(rule, frame=frame, comp=comp))
            if reply and rng.random() < 0.7:
                call.turn("A", call.say(reply))

        return step

    others = [c for c in text.competitors() if c not in competitors]
    rng.shuffle(others)
    singles: list[Step] = []
    pairs: list[tuple[Step, Step]] = []
    for sub, sent in sentiments.items():
        if sent != "negative" and rng.random() < 0.35:
            pairs.append((opinion(f"neg_{sub}"), opinion(f"wd_{sub}", ask=False)))
        else:
            singles.append(opinion(f"{sent[:3]}_{sub}"))
    for comp in competitors:
        if rng.random() < 0.35:
            pairs.append((said(rng.choice(("comp_ruled_out", "comp_dropped")), comp), said("comp_back", comp)))
        else:
            singles.append(said("comp_considered", comp, reply="comp_reply"))
    if others and rng.random() < 0.55:
        comp = others.pop()
        if rng.random() < 0.6:
            pairs.append((said("comp_considered", comp, reply="comp_reply"), said("comp_dropped", comp)))
        else:
            singles.append(said("comp_ruled_out", comp))
    for rule in rng.choices(NON_OPTIONS, k=rng.choices((0, 1, 2), (3, 5, 2))[0]):
        if others:
            singles.append(
                said(
                    rule,
                    others.pop(),
                    frame="aside" if rule != "comp_never" else "plain",
                    agent="comp_agent" if rule == "comp_never" else None,
                )
            )
    singles += [
        said(r, frame="aside", comp=others.pop() if others else "")
        for r, p in (("comp_passing", 0.3), ("budget_other", 0.3), ("authority_other", 0.3), ("opinion_other", 0.6))
        if rng.random() < p
    ]
    rng.shuffle(singles)
    first = [factor("Need")] if "Need" in bant else []
    rest = [factor(f) for f in BANT if f in bant and f != "Need"]
    return _place(rng, first + singles + rest, pairs, len(first), len(rest))


# Vendor names in a competitor-like frame that are no option for this purchase.
NON_OPTIONS = ("comp_worked", "comp_partner", "comp_never", "comp_other_name")


def _place(rng: random.Random, steps: list[Step], pairs: list[tuple[Step, Step]], head: int, tail: int) -> list[Step]:
    """`steps` with each pair's first step among the middle ones and its second a step or more later."""
    for a, b in pairs:
        i = rng.randint(head, len(steps) - tail)
        steps.insert(i, a)
        steps.insert(rng.randint(min(i + 2, len(steps)), len(steps)), b)
    return steps

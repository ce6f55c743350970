"""Sales and CPQ: leads (with conversions), voice calls, opportunities with line items,
stage-consistent tasks and events, quotes and quote lines (some violating a policy),
contracts and the orders that closed deals produce."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import TypedDict

from ..schema import STAGES
from . import activities, calls, records, text
from .common import DAY, HOUR, NOW_OFFSET, Row, cumulative, stream, work_time
from .context import LEAD_SPAN_DAYS, Ctx, LeadPlan
from .core import state_owner
from .handles import company_domain, email_local, personal_domain, phone, unique_email
from .latent import BANT, SUBTOPICS, TITLES

STAGE_BOUNDS = (0.0, 0.18, 0.42, 0.68, 1.0)  # fraction of the cycle at which each stage starts
STAGE_PROBABILITY = {"Qualification": 10.0, "Discovery": 25.0, "Quote": 50.0, "Negotiation": 75.0, "Closed": 100.0}
LOCATIONS = ("Zoom", "Microsoft Teams", "Customer site", "Phone", "Our office", "Google Meet")
# Open pipeline: a share of the deals stall (mostly while quoting and negotiating), some open
# deals carry a stale StageName, some have Not Started tasks meant for another stage.
STALL_SHARE = 0.6
STALL_WEIGHTS = (1, 1, 3, 3)  # Qualification, Discovery, Quote, Negotiation
PRIORITIES, PRIORITY_CUM = ("High", "Normal", "Low"), cumulative((2, 5, 2))  # of a task
# Share of the open deals with a stale StageName, by true stage (lower where stalls pile up,
# so that no true stage dominates the mislabelled ones).
MISLABEL_SHARE = (0.5, 0.5, 0.3, 0.3)
MISFIT_SHARE = 0.62  # of the deals with planned work: those whose planned tasks hold misfits
HANDOVER_DAYS = 365  # a deal closed this recently still has handover work planned
CANDIDATE_SPANS = ((8, 12), (13, 20))  # Not Started tasks of a deal with misfits: either span alike
MISFIT_TASKS = (4, 7)  # of which meant for another stage (activity_priority's answer)
CHECKED = ("Needs Review", "In Review")
# Checked quotes of an open deal: all of them break one configuration rule (the deal's lines
# do), or each independently breaks a pricing policy or complies (about 40/40/20 overall).
CONFIG_SHARE = 0.55
PRICING_SHARE = 0.67
ALT_QTY_FACTORS = (0.5, 0.75, 1.5, 2.0)  # quantity of an alternative option vs the primary
# Near-duplicate names: a share of an account's later deals are named after its previous deal
# with a follow-on word ("Acme - Ledger", then "Acme - Ledger Expansion"), so that a search on a
# deal's name can return its look-alikes too (issue 12: `hard` names such deals).
FOLLOW_ON_SHARE = 0.75
FOLLOW_ONS = ("Phase 2", "Expansion", "Add-on", "Upgrade", "Extension", "Rollout", "Follow-on")
MAX_FOLLOW_ONS = 2  # follow-on words in one name


def plan_leads(ctx: Ctx) -> list[LeadPlan]:
    rng = stream(ctx.seed, ctx.org, "leads")
    n = ctx.n("leads", 10)
    state_w = cumulative(s.weight for s in ctx.states)
    companies = text.CompanyNames(tries=30)
    out = []
    for i in range(n):
        created = work_time(rng, rng.uniform(-LEAD_SPAN_DAYS * DAY, -HOUR))
        created = min(created, NOW_OFFSET - 2 * HOUR)
        st = rng.choices(range(len(ctx.states)), cum_weights=state_w)[0]
        owner = state_owner(ctx, rng, st, 0.85)
        first, last = text.person_name(rng)
        company = title = None
        if ctx.b2b:
            company = companies.draw(rng)
            title = rng.choice(TITLES)
        age = -created / DAY
        p = ctx.sales_agents[owner].skill_at(created) * min(1.0, age / 40)
        conv_t = None
        if rng.random() < p:
            t = work_time(rng, created + rng.uniform(3, 45) * DAY)
            if t <= NOW_OFFSET - 8 * HOUR:
                conv_t = t
        if conv_t is not None:
            status = "Closed - Converted"
        elif age < 14:
            status = "Open - Not Contacted" if rng.random() < 0.7 else "Working - Contacted"
        elif age < 90:
            status = "Working - Contacted" if rng.random() < 0.6 else "Closed - Not Converted"
        else:
            status = "Closed - Not Converted" if rng.random() < 0.85 else "Working - Contacted"
        out.append(LeadPlan(i, first, last, company, title, st, owner, created, status, conv_t))
    return out


def _sentiments(rng: random.Random) -> dict[str, str]:
    return {
        s: rng.choice(("positive", "neutral", "negative"))
        for s in sorted(rng.sample(SUBTOPICS, rng.randint(2, 4)), key=SUBTOPICS.index)
    }


def _competitors(rng: random.Random, pool: list[str]) -> list[str]:
    k = rng.choices((0, 1, 2, 3), (2, 4, 3, 1))[0]
    return rng.sample(pool, k)


class CallFacts(TypedDict):
    """What a sales call says (`calls.voice_call`'s keyword arguments)."""

    agent: str
    contact: str
    company: str | None
    product: str
    competitors: list[str]
    bant: dict[str, bool]
    sentiments: dict[str, str]
    stage_hint: str | None


@dataclass(frozen=True)
class CallPlan:
    """A sales call decided on the row stream (its record, labels and facts); its transcript is
    drawn from the text stream by `write_call`."""

    row: Row  # the VoiceCallTranscript__c row but its TranscriptBody__c
    facts: CallFacts  # voice_call's keyword arguments


def plan_call(
    ctx: Ctx,
    rng: random.Random,
    *,
    lead_id: str | None,
    opp_id: str | None,
    t: float,
    agent: str,
    contact: str,
    company: str | None,
    product: str,
    bant: dict[str, bool],
    hint: str | None,
    pool: list[str],
) -> CallPlan:
    """Draw a call's competitors, sentiments and end, number it and write its labels."""
    w, c = ctx.w, ctx.clock
    comps = _competitors(rng, pool)
    sents = _sentiments(rng)
    vid = w.new_id("VoiceCallTranscript__c")
    t = min(t, NOW_OFFSET - HOUR)
    row: Row = {
        "Id": vid,
        "Name": f"VCT-{w._next['VoiceCallTranscript__c']:06d}",
        "LeadId__c": lead_id,
        "OpportunityId__c": opp_id,
        "CreatedDate": c.dt(t),
        "EndTime__c": c.dt(min(NOW_OFFSET, t + rng.randint(6, 45) * 60)),
    }
    w.truth("VoiceCallTranscript__c", vid, "competitors", comps)
    w.truth("VoiceCallTranscript__c", vid, "sentiments", sents)
    return CallPlan(
        row,
        CallFacts(
            agent=agent,
            contact=contact,
            company=company,
            product=product,
            competitors=comps,
            bant=bant,
            sentiments=sents,
            stage_hint=hint,
        ),
    )


def write_call(ctx: Ctx, trng: random.Random, plan: CallPlan) -> None:
    """Write a planned call with its transcript, drawn from `trng`."""
    ctx.w.add("VoiceCallTranscript__c", {**plan.row, "TranscriptBody__c": calls.voice_call(trng, **plan.facts)})


def _lead_email(ctx: Ctx, rng: random.Random, lp: LeadPlan, account: int | None, used: set[str]) -> str:
    """A lead's email: the one its contact has when it was converted (account index `account`), else
    drawn like a contact's (its company's domain; a personal one when it has no company)."""
    if account is not None:
        email = ctx.con_email[ctx.acc_contact0[account]] or ctx.acc_email[account]
        assert email is not None  # (a converted lead's contact has an email: its account's, in B2C)
        used.add(email)
        return email
    domain = company_domain(rng, lp.company) if lp.company else personal_domain(rng)
    return unique_email(email_local(rng, lp.first, lp.last, consumer=not lp.company), domain, used)


def write_leads(ctx: Ctx, leads: list[LeadPlan]) -> list[CallPlan]:
    """Write the leads and their discovery calls' labels; return those calls, whose transcripts
    `write_lead_calls` writes (from a stream of their own, so possibly in another process)."""
    rng = stream(ctx.seed, ctx.org, "lead-rows")
    w, c = ctx.w, ctx.clock
    pool = text.competitors()
    conv_index = {lp.idx: ai for ai, lp in ctx.converted_accounts}
    emails: set[str] = set()
    lead_ids = []
    for lp in leads:
        lid = w.new_id("Lead")
        lead_ids.append(lid)
        ai = conv_index.get(lp.idx)
        email = _lead_email(ctx, rng, lp, ai, emails)
        row: Row = {
            "Id": lid,
            "Name": f"{lp.first} {lp.last}",
            "FirstName": lp.first,
            "LastName": lp.last,
            "Email": email,
            "Phone": phone(rng),
            "State": ctx.states[lp.state].code,
            "Status": lp.status,
            "OwnerId": ctx.sales_agents[lp.owner].user_id,
            "CreatedDate": c.dt(lp.created),
            "IsConverted": 1 if ai is not None else 0,
            "ConvertedDate": c.d(lp.converted) if ai is not None else None,
            "ConvertedAccountId": ctx.acc_id[ai] if ai is not None else None,
            "ConvertedContactId": ctx.con_id[ctx.acc_contact0[ai]] if ai is not None else None,
        }
        if ctx.b2b:
            row.update(Company=lp.company, Title=lp.title)
        w.add("Lead", row)
    w.done("Lead")
    # Discovery calls with a share of the contacted leads; BANT as the call shows it.
    share = ctx.size["lead_call_share"]
    planned = []
    for lp, lid in zip(leads, lead_ids):
        if lp.status == "Open - Not Contacted" or rng.random() > share / 0.85:
            continue
        if lp.status == "Closed - Converted":
            unmet = [] if rng.random() < 0.9 else rng.sample(BANT, 1)
            end = lp.converted
        else:
            unmet = [] if rng.random() < 0.15 else rng.sample(BANT, rng.choices((1, 2, 3), (5, 3, 1))[0])
            end = min(NOW_OFFSET - HOUR, lp.created + 30 * DAY)
        unmet = sorted(unmet, key=BANT.index)
        t = work_time(rng, lp.created + rng.uniform(0.1, 1.0) * max(DAY, end - lp.created))
        t = max(lp.created + HOUR, min(t, end - HOUR))
        agent = ctx.sales_agents[lp.owner]
        product = ctx.products[rng.randrange(len(ctx.products))].name
        planned.append(
            plan_call(
                ctx,
                rng,
                lead_id=lid,
                opp_id=None,
                t=t,
                agent=agent.name,
                contact=f"{lp.first} {lp.last}",
                company=lp.company,
                product=product,
                bant={b: b not in unmet for b in BANT},
                hint=None,
                pool=pool,
            )
        )
        w.truth("Lead", lid, "bant_unmet", unmet)
    return planned


def write_lead_calls(ctx: Ctx, planned: list[CallPlan]) -> None:
    """Write the leads' discovery calls (`write_leads`' plans), transcripts drawn in their order."""
    trng = stream(ctx.seed, ctx.org, "lead-text")
    for plan in planned:
        write_call(ctx, trng, plan)
    ctx.w.done("VoiceCallTranscript__c")


# --- opportunities -------------------------------------------------------------------


def _discount_ok(rng: random.Random, cap: float) -> float:
    return float(rng.choice([d for d in (0, 0, 2, 3, 5, 5, 7.5, 8, 10, 12, 15, 18, 20, 25, 30) if d <= cap]))


class OpportunityNames:
    """Opportunity names, unique across the org (case aside, so that `Name =` finds one record):
    the account and the deal's first product, or for a share of an account's later deals its
    previous deal's name and a follow-on word; a name already taken gets the deal's year, then a
    number. Drawn from a stream of their own: no label, record or count changes with them."""

    def __init__(self, ctx: Ctx):
        self.rng = stream(ctx.seed, ctx.org, "opportunity-names")
        self.taken: set[str] = set()
        self.last: dict[int, str] = {}  # account index -> its latest deal's name

    def next(self, account: int, base: str, year: str) -> str:
        previous = self.last.get(account, "")
        words = [w for w in FOLLOW_ONS if w not in previous]
        if previous and len(words) > len(FOLLOW_ONS) - MAX_FOLLOW_ONS and self.rng.random() < FOLLOW_ON_SHARE:
            base = f"{previous} {self.rng.choice(words)}"
        tries = itertools.chain((base, f"{base} {year}"), (f"{base} {year} ({n})" for n in itertools.count(2)))
        name = next(t for t in tries if t.lower() not in self.taken)
        self.taken.add(name.lower())
        self.last[account] = name
        return name


def opportunities(ctx: Ctx, leads: list[LeadPlan]) -> None:
    rng = stream(ctx.seed, ctx.org, "opportunities")
    trng = stream(ctx.seed, ctx.org, "opportunity-text")
    names = OpportunityNames(ctx)
    w, c = ctx.w, ctx.clock
    pool = text.competitors()
    prods = ctx.products
    pw = cumulative(p.weight for p in prods)
    n_opps = ctx.n("opportunities", 10)
    # Which opportunities: most converted leads open one at conversion, the rest come from
    # existing accounts over the past two years.
    starts: list[tuple[int, int]] = []  # (created, account index)
    for ai, lp in ctx.converted_accounts:
        if rng.random() < 0.7 and len(starts) < n_opps:
            starts.append((lp.converted + rng.randint(HOUR, 6 * HOUR), ai))
    n_acc = len(ctx.acc_id)
    while len(starts) < n_opps:
        ai = rng.randrange(n_acc)
        lo = max(-LEAD_SPAN_DAYS * DAY, ctx.acc_created[ai] + DAY)
        if lo >= -2 * DAY:
            continue
        t = work_time(rng, rng.uniform(lo, -DAY))
        # Owners win repeat business in step with their (drifting) deal multiplier.
        if rng.random() < ctx.sales_agents[ctx.acc_owner[ai]].deal_at(t) / 2:
            starts.append((t, ai))
    starts = [(min(t, NOW_OFFSET - 3 * HOUR), ai) for t, ai in starts]
    starts.sort()
    excl = {}
    for (a, b), _kid in ctx.exclusive_rules:
        excl[a] = b
        excl[b] = a
    base_days = ctx.size["cycle_days"]
    call_share = ctx.size["opp_call_share"]

    for created, ai in starts:
        owner_i = ctx.acc_owner[ai]
        agent = ctx.sales_agents[owner_i]
        contact = ctx.acc_contact0[ai] + rng.randrange(ctx.acc_ncontacts[ai])
        cycle = base_days * agent.cycle_at(created) * rng.lognormvariate(0, 0.3) * DAY
        bounds = [created + f * cycle for f in STAGE_BOUNDS]
        elapsed_stage = max(k for k in range(5) if bounds[k] <= NOW_OFFSET)
        # Deals stall mostly in the past year (older stalled deals would have been closed out).
        stall_p = STALL_SHARE if created > -365 * DAY else STALL_SHARE / 3
        stall = rng.choices(range(4), STALL_WEIGHTS)[0] if rng.random() < stall_p else None
        true_stage = elapsed_stage if stall is None else min(elapsed_stage, stall)
        closed = true_stage == 4
        close_t = bounds[4] if closed else None
        label = true_stage
        mislabelled = False
        if not closed and rng.random() < MISLABEL_SHARE[true_stage]:
            # any other open stage alike, so the recorded stage says nothing about the true one
            label = rng.choice([s for s in range(4) if s != true_stage])
            mislabelled = True
        # Quotes planned for opportunities that reached the Quote stage. An open deal may carry
        # alternative options (other quantities, other discounts) next to its primary quote.
        quotes: list[tuple[str, str | None, int, bool]] = []  # (status, violation kind or None, t, alternative option?)
        # as far as the recorded stage (the true one but for stale deals): quotes never tell a stale stage
        if label >= 2:
            qt = work_time(rng, bounds[2] + rng.uniform(0.05, 0.5) * (min(bounds[3], NOW_OFFSET) - bounds[2]))
            if label == 4:
                if rng.random() > agent.accept:
                    quotes.append((rng.choice(("Denied", "Rejected")), None, qt, False))
                    qt = work_time(rng, bounds[3] + rng.uniform(0.1, 0.8) * (bounds[4] - bounds[3]))
                quotes.append(("Accepted", None, qt, False))
            elif label == 3 and rng.random() < agent.accept * 0.4:
                quotes.append(("Accepted", None, qt, False))
            else:
                first = (
                    (("Draft", "Needs Review", "In Review"), (2, 4, 4))
                    if label == 2
                    else (("Presented", "Needs Review", "In Review", "Approved"), (2, 4, 4, 1))
                )
                quotes.append((rng.choices(*first)[0], None, qt, False))
                for _ in range(rng.choices((0, 1, 2), (4, 4, 2))[0]):
                    at = work_time(rng, qt + rng.uniform(0.02, 0.6) * max(DAY, NOW_OFFSET - qt))
                    quotes.append(
                        (
                            rng.choices(("Needs Review", "In Review", "Draft"), (4, 4, 1))[0],
                            None,
                            min(at, NOW_OFFSET - 2 * HOUR),
                            True,
                        )
                    )
                if all(q[0] in CHECKED for q in quotes) and rng.random() < CONFIG_SHARE:
                    quotes = [(st, "config", t, alt) for st, _, t, alt in quotes]
                else:
                    quotes = [
                        (st, (("pricing" if rng.random() < PRICING_SHARE else None) if st in CHECKED else None), t, alt)
                        for st, _, t, alt in quotes
                    ]
        violation = "config" if any(q[1] == "config" for q in quotes) else None
        # Line items.
        n_lines = rng.randint(1, 4) if ctx.b2b else rng.choices((1, 2, 3), (6, 3, 1))[0]
        lines: list[list[int]] = []  # [product idx, quantity]
        config_kid = None
        if violation == "config":
            if ctx.exclusive_rules and (rng.random() < 0.45 or not ctx.max_qty_rules):
                (a, b), config_kid = rng.choice(ctx.exclusive_rules)
                lines += [[a, 0], [b, 0]]
            else:
                pidx = rng.choice(sorted(ctx.max_qty_rules))
                mx, config_kid = ctx.max_qty_rules[pidx]
                lines.append([pidx, mx + rng.randint(1, max(2, mx // 2))])
        while len(lines) < n_lines:
            p = rng.choices(range(len(prods)), cum_weights=pw)[0]
            if any(p == line[0] or excl.get(p) == line[0] for line in lines):
                if len(lines) and rng.random() < 0.3:
                    break
                continue
            lines.append([p, 0])
        for line in lines:
            if line[1] == 0:
                if ctx.b2b:
                    q = max(1, min(200, round(math.exp(rng.gauss(math.log(6 * agent.deal_at(created)), 0.7)))))
                else:
                    q = rng.choices((1, 2, 3), (7, 2, 1))[0]
                qty_rule = ctx.max_qty_rules.get(line[0])
                if qty_rule and (violation != "config" or config_kid != qty_rule[1]):
                    q = min(q, qty_rule[0])
                line[1] = q
        product0 = prods[lines[0][0]]
        oid = w.new_id("Opportunity")
        acc_name = ctx.acc_name[ai]
        opp_name = names.next(ai, f"{acc_name} - {product0.name}", c.d(created)[:4])
        amount = 0.0
        oli_ids = []
        for p, q in lines:
            pr = prods[p]
            total = round(q * pr.price, 2)
            amount += total
            lid = w.new_id("OpportunityLineItem")
            oli_ids.append(lid)
            w.add(
                "OpportunityLineItem",
                {
                    "Id": lid,
                    "Name": f"{opp_name} {pr.name}",
                    "OpportunityId": oid,
                    "PricebookEntryId": pr.pbe_id,
                    "Product2Id": pr.id,
                    "Quantity": float(q),
                    "TotalPrice": total,
                    "CreatedDate": c.dt(created + 120),
                },
            )
        contract_id = None
        if closed:
            contract_id = w.new_id("Contract")
        if close_t is not None:  # (closed)
            close_date = c.d(close_t)
        elif bounds[4] > NOW_OFFSET:
            close_date = c.d(bounds[4])
        else:
            close_date = c.d(NOW_OFFSET + rng.randint(7, 60) * DAY)
        w.add(
            "Opportunity",
            {
                "Id": oid,
                "Name": opp_name,
                "AccountId": ctx.acc_id[ai],
                "ContactId": ctx.con_id[contact],
                "ContractID__c": contract_id,
                "Amount": round(amount, 2),
                "CloseDate": close_date,
                "CreatedDate": c.dt(created),
                "Description": records.opportunity_description(trng, product0.name),
                "OwnerId": agent.user_id,
                "Probability": STAGE_PROBABILITY[STAGES[label]],
                "StageName": STAGES[label],
            },
        )
        if mislabelled:
            w.truth("Opportunity", oid, "true_stage", STAGES[true_stage])
        # Activities for every stage reached so far.
        planning = (close_t > NOW_OFFSET - HANDOVER_DAYS * DAY) if close_t is not None else not mislabelled
        misfit = planning and rng.random() < MISFIT_SHARE
        for k in range(true_stage + 1):
            lo_t = bounds[k]
            hi_t = (
                NOW_OFFSET
                if k == true_stage and not closed
                else (min(NOW_OFFSET, bounds[k] + 10 * DAY) if k == 4 else bounds[k + 1])
            )
            current = k == true_stage and not closed
            n_tasks = (
                (rng.choice((1, 2, 2, 3)) if current else rng.choice((0, 1, 1, 2)))
                if k < 4
                else (1 if rng.random() < 0.5 else 0)
            )
            for j in range(n_tasks):
                planned = current and (j == 0 or rng.random() < 0.5) and rng.random() < 0.85
                if planned and misfit:
                    continue  # _candidate_tasks writes all of this deal's plans, in random order
                # the rep of a stale deal plans for the stage the record shows: plans never tell
                shown = label if planned else k
                subj, desc = activities.activity(trng, org=ctx.org, stage=STAGES[shown], kind="task")
                tt = lo_t + rng.uniform(0, 0.8) * (hi_t - lo_t)
                if planned:
                    status = "Not Started"
                elif current:
                    status = rng.choice(("In Progress", "Completed", "Waiting on someone else"))
                else:
                    status = "Completed"
                if status == "Completed":
                    due = c.d(min(NOW_OFFSET, tt + rng.uniform(0, 1) * (hi_t - tt)))
                else:
                    due = c.d(NOW_OFFSET + rng.randint(1, 21) * DAY)
                _task(ctx, rng, subj, desc, status, due, agent.user_id, oid, ctx.con_id[contact], tt)
            if rng.random() < (0.45 if k < 4 else 0.2):
                subj, desc = activities.activity(trng, org=ctx.org, stage=STAGES[k], kind="event")
                st = work_time(rng, lo_t + rng.uniform(0, 1) * (hi_t - lo_t))
                st = min(st, NOW_OFFSET - 2 * HOUR)
                allday = rng.random() < 0.05
                w.add(
                    "Event",
                    {
                        "Id": w.new_id("Event"),
                        "Subject": subj,
                        "Description": desc,
                        "StartDateTime": c.dt(st),
                        "DurationInMinutes": 1440 if allday else rng.choice((30, 45, 60, 90)),
                        "IsAllDayEvent": 1 if allday else 0,
                        "Location": rng.choice(LOCATIONS),
                        "OwnerId": agent.user_id,
                        "WhatId": oid,
                        "CreatedDate": c.dt(max(created, st - rng.randint(1, 10) * DAY)),
                    },
                )
        if misfit:
            _candidate_tasks(
                ctx,
                rng,
                trng,
                stage=true_stage,
                since=bounds[true_stage],
                owner=agent.user_id,
                what=oid,
                who=ctx.con_id[contact],
            )
        # A sales call showing where the deal really is.
        if rng.random() < call_share:  # alike for every deal: having a call is no sign of a stale stage
            hint = min(true_stage, 3)
            lo_t, hi_t = bounds[hint], min(NOW_OFFSET, bounds[hint + 1])
            t = work_time(rng, lo_t + rng.uniform(0.1, 0.9) * (hi_t - lo_t))
            write_call(
                ctx,
                trng,
                plan_call(
                    ctx,
                    rng,
                    lead_id=None,
                    opp_id=oid,
                    t=max(created + HOUR, t),
                    agent=agent.name,
                    contact=ctx.con_name[contact],
                    company=acc_name if ctx.b2b else None,
                    product=product0.name,
                    bant=dict.fromkeys(BANT, True),
                    hint=STAGES[hint],
                    pool=pool,
                ),
            )
        # Quotes and their lines.
        final_discounts = None
        for qi, (status, kind, qt, alt) in enumerate(quotes):
            qt = min(qt, NOW_OFFSET - HOUR)
            quote_lines = [(p, _alt_quantity(ctx, rng, p, q)) for p, q in lines] if alt else lines
            quote_id = w.new_id("Quote")
            w.add(
                "Quote",
                {
                    "Id": quote_id,
                    "Name": f"{opp_name} Q{qi + 1}",
                    "AccountId": ctx.acc_id[ai],
                    "ContactId": ctx.con_id[contact],
                    "OpportunityId": oid,
                    "CreatedDate": c.dt(qt),
                    "ExpirationDate": c.d(qt + 30 * DAY),
                    "Description": records.quote_description(
                        trng, qi + 1, alt, [(prods[p].name, q) for p, q in quote_lines]
                    ),
                    "Status": status,
                    "OwnerId": agent.user_id,
                },
            )
            bad_line = rng.randrange(len(lines)) if kind == "pricing" else None
            discounts = []
            for li, ((p, q), oli) in enumerate(zip(quote_lines, oli_ids)):
                pr = prods[p]
                cap, pkid = ctx.pricing_rules.get(pr.family, (100, None))
                if li == bad_line and pkid is not None:
                    disc = float(cap + rng.choice((2, 3, 5, 5, 7.5, 10, 15)))
                    w.truth("Quote", quote_id, "quote_violation", pkid)
                else:
                    disc = _discount_ok(rng, cap)
                discounts.append(disc)
                w.add(
                    "QuoteLineItem",
                    {
                        "Id": w.new_id("QuoteLineItem"),
                        "QuoteId": quote_id,
                        "OpportunityLineItemId": oli,
                        "PricebookEntryId": pr.pbe_id,
                        "Product2Id": pr.id,
                        "Quantity": float(q),
                        "UnitPrice": pr.price,
                        "Discount": disc,
                        "TotalPrice": round(q * pr.price * (1 - disc / 100), 2),
                        "CreatedDate": c.dt(qt),
                    },
                )
            if kind == "config":
                w.truth("Quote", quote_id, "config_violation", config_kid)
            if status == "Accepted":
                final_discounts = discounts
        # Contract and the order it produces.
        if close_t is not None:  # (closed)
            signed = work_time(rng, close_t)
            signed = min(signed, NOW_OFFSET - HOUR)
            start = min(NOW_OFFSET, signed + rng.randint(0, 14) * DAY)
            crow: Row = {
                "Id": contract_id,
                "AccountId": ctx.acc_id[ai],
                "CustomerSignedDate": c.d(signed),
                "StartDate": c.d(start),
                "ContractTerm": rng.choice((12, 12, 24, 24, 36)),
                "Description": records.contract_description(trng, opp_name),
                "Status": "Activated",
                "CreatedDate": c.dt(max(created + HOUR, signed - rng.randint(1, 5) * DAY)),
            }
            if ctx.b2b:
                crow["CompanySignedDate"] = c.d(min(NOW_OFFSET, signed + rng.randint(0, 3) * DAY))
            w.add("Contract", crow)
            order_id = w.new_id("Order")
            w.add(
                "Order",
                {
                    "Id": order_id,
                    "AccountId": ctx.acc_id[ai],
                    "ContractId": contract_id,
                    "EffectiveDate": c.d(start),
                    "OwnerId": agent.user_id,
                    "Pricebook2Id": ctx.standard_pb,
                    "Status": "Activated",
                    "CreatedDate": c.dt(signed),
                },
            )
            discounts = final_discounts or [0.0] * len(lines)
            for (p, q), disc in zip(lines, discounts):
                pr = prods[p]
                w.add(
                    "OrderItem",
                    {
                        "Id": w.new_id("OrderItem"),
                        "OrderId": order_id,
                        "PricebookEntryId": pr.pbe_id,
                        "Product2Id": pr.id,
                        "Quantity": float(q),
                        "UnitPrice": round(pr.price * (1 - disc / 100), 2),
                        "CreatedDate": c.dt(signed),
                    },
                )
    w.done()


def _alt_quantity(ctx: Ctx, rng: random.Random, p: int, q: int) -> int:
    """The quantity of product `p` in an alternative quote option whose primary quotes `q`;
    products under a maximum-quantity rule keep theirs (the option breaks no new rule)."""
    if p in ctx.max_qty_rules:
        return q
    if ctx.b2b:
        return max(1, min(400, round(q * rng.choice(ALT_QTY_FACTORS))))
    return rng.choice((1, 2, 3))


def _candidate_tasks(
    ctx: Ctx, rng: random.Random, trng: random.Random, *, stage: int, since: float, owner: str, what: str, who: str
) -> None:
    """All the Not Started tasks of a deal with misfits: 8-12 or 13-20 (CANDIDATE_SPANS), 4-7 of
    them (labelled `misfit_task`) meant for another stage. Fitting and misfit tasks are written in
    random order with dates drawn alike, so neither their Ids nor their dates tell them apart."""
    n_misfit = rng.randint(*MISFIT_TASKS)
    n_all = rng.randint(*rng.choice(CANDIDATE_SPANS))
    stages = [rng.choice([s for s in range(5) if s != stage]) for _ in range(n_misfit)] + [stage] * (n_all - n_misfit)
    rng.shuffle(stages)
    for k in stages:
        subj, desc = activities.activity(trng, org=ctx.org, stage=STAGES[k], kind="task")
        t = since + rng.uniform(0, 0.8) * (NOW_OFFSET - since)
        tid = _task(
            ctx, rng, subj, desc, "Not Started", ctx.clock.d(NOW_OFFSET + rng.randint(1, 21) * DAY), owner, what, who, t
        )
        if k != stage:
            ctx.w.truth("Task", tid, "misfit_task", {"opportunity": what, "fits_stage": STAGES[k]})


def _task(
    ctx: Ctx, rng: random.Random, subj: str, desc: str, status: str, due: str, owner: str, what: str, who: str, t: float
) -> str:
    tid = ctx.w.new_id("Task")
    ctx.w.add(
        "Task",
        {
            "Id": tid,
            "Subject": subj,
            "Description": desc,
            "Status": status,
            "Priority": rng.choices(PRIORITIES, cum_weights=PRIORITY_CUM)[0],
            "ActivityDate": due,
            "OwnerId": owner,
            "WhatId": what,
            "WhoId": who,
            "CreatedDate": ctx.clock.dt(min(t, NOW_OFFSET - HOUR)),
        },
    )
    return tid

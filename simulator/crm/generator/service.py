"""Service: cases, their history (creation, owner assignments, closure), email threads
and live chats (some with a policy breach)."""

from __future__ import annotations

import bisect
import random

from .. import ids
from . import threads
from .common import DAY, HOUR, NOW_OFFSET, cumulative, stream, work_time
from .context import ORDER_SPAN_DAYS, Ctx
from .core import item_before
from .latent import N_QUARTERS, ServiceAgent, quarter_index

CASE_SPAN_DAYS = ORDER_SPAN_DAYS - 30
OPEN_STATUSES = ("New", "Working", "Escalated", "Waiting on Customer")
OPEN_WEIGHTS = (4, 5, 2, 3)  # of an open case's status past its first days: a backlog of untriaged (New) cases
PRIORITIES = ("High", "Medium", "Low")  # of a case, weighted 2, 5, 3
_OPEN_CUM, _PRIORITY_CUM = cumulative(OPEN_WEIGHTS), cumulative((2, 5, 3))


def _plan_times(ctx: Ctx, rng: random.Random) -> list[tuple[int, int]]:
    """(created time, product index) of every case, in time order: a steady flow weighted by
    product popularity plus monthly spikes for about a third of the products."""
    n = ctx.n("cases", 20)
    pw = [p.weight for p in ctx.products]
    total_w = sum(pw)
    cum_w = cumulative(pw)
    plan = []
    for _ in range(n):
        t = work_time(rng, rng.uniform(-CASE_SPAN_DAYS * DAY, 0))
        plan.append((min(t, NOW_OFFSET - HOUR), rng.choices(range(len(pw)), cum_weights=cum_w)[0]))
    # Spikes: calendar months (within the last 24 full months) in which a product's case
    # count clearly exceeds its other months.
    c = ctx.clock
    months = []
    y, m = ctx.as_of.year, ctx.as_of.month
    for _ in range(24):
        m -= 1
        if m == 0:
            y, m = y - 1, 12
        months.append((y, m))
    for p in range(len(ctx.products)):
        if rng.random() > 0.36:
            continue
        monthly = n * pw[p] / total_w / (CASE_SPAN_DAYS / 30.4)
        for ym in rng.sample(months, 1 if rng.random() < 0.7 else 2):
            extra = max(4, round(monthly * 2.6)) + rng.randint(0, 2)
            start = c.t_of_date(ctx.as_of.replace(year=ym[0], month=ym[1], day=1))
            end = c.t_of_date(ctx.as_of.replace(year=ym[0] + (ym[1] == 12), month=ym[1] % 12 + 1, day=1))
            for _ in range(extra):
                plan.append((work_time(rng, rng.uniform(start, end - DAY)), p))
    plan.sort()
    return plan


def _pick_agent(
    rng: random.Random,
    agents: list[ServiceAgent],
    loads: list[float],
    t: float,
    issue: int,
    product: int,
    exclude: ServiceAgent | None = None,
) -> ServiceAgent:
    """A service agent for a case, weighted by their share of new cases (`loads`: each agent's, in
    the case's quarter) and expertise."""
    weights, cands = [], []
    for a, load in zip(agents, loads):
        if a.start > t or a is exclude:
            continue
        w = load * (4.0 if issue in a.issues else 1.0) * (2.0 if product in a.products else 1.0)
        weights.append(w)
        cands.append(a)
    return rng.choices(cands, weights)[0]


def cases(ctx: Ctx) -> None:
    rng = stream(ctx.seed, ctx.org, "cases")
    trng = stream(ctx.seed, ctx.org, "case-text")
    w, c = ctx.w, ctx.clock
    agents = ctx.service_agents
    n_issues = len(ctx.issues)
    for a in agents:  # expertise: two issues and three products per agent
        a.issues = frozenset(rng.sample(range(n_issues), 2))
        a.products = frozenset(rng.sample(range(len(ctx.products)), 3))
    policies = ctx.policies
    email_share, chat_share = ctx.size["email_share"], ctx.size["chat_share"]
    base_hours = ctx.size["case_hours"]
    everything = ctx.items_by_time
    chat_no = 0
    issue_cum = [[cumulative(w) for w in per_quarter] for per_quarter in ctx.issue_rates]
    loads = [[a.load_in(q) for a in agents] for q in range(N_QUARTERS)]

    for t, p in _plan_times(ctx, rng):
        item = item_before(ctx, rng, p, t)
        if item is None:
            k = bisect.bisect_left(everything, (t - DAY,))
            if k == 0:
                continue
            it = everything[k - 1 - min(k - 1, int(rng.expovariate(1 / 200)))]
            item, p = (it[0], it[1], it[2]), it[3]
        _, item_id, ai = item
        q = quarter_index(t)
        issue = rng.choices(range(n_issues), cum_weights=issue_cum[p][q])[0]
        contact = ctx.acc_contact0[ai] + rng.randrange(ctx.acc_ncontacts[ai])
        owners = [_pick_agent(rng, agents, loads[q], t, issue, p)]
        while len(owners) < 4 and rng.random() < owners[-1].transfer_at(t):
            owners.append(_pick_agent(rng, agents, loads[q], t, issue, p, exclude=owners[-1]))
        final = owners[-1]
        state = ctx.states[ctx.acc_state[ai]]
        hours = base_hours * final.speed_at(t) * state.factor_at(t) * rng.lognormvariate(0, 0.3) + 10 * (
            len(owners) - 1
        ) * rng.uniform(0.5, 1.5)
        close_t = t + max(0.5, hours) * HOUR
        age = -t / DAY
        p_close = 0.93 if age > 365 else 0.78 if age > 120 else 0.55
        closed = close_t <= NOW_OFFSET and rng.random() < p_close
        end_t = close_t if closed else min(close_t, NOW_OFFSET - 60)
        if closed:
            status = "Closed"
        elif age < 2:
            status = rng.choice(("New", "New", "Working"))
        else:
            status = rng.choices(OPEN_STATUSES, cum_weights=_OPEN_CUM)[0]
        # A new case is not triaged: no conversation yet, so its issue is only in the customer's words.
        has_email = status != "New" and rng.random() < email_share
        has_chat = status != "New" and rng.random() < chat_share
        breach, breach_channel = None, None
        if (has_email or has_chat) and policies and rng.random() < 0.8:
            breach = rng.choice(policies)
            breach_channel = (
                ("email" if has_email else "chat") if not (has_email and has_chat) else rng.choice(("email", "chat"))
            )
        # refund and credit limits hold per case: one conversation settles them, the breach's if any
        grants = (breach_channel or trng.choice(("email", "chat"))) if has_email and has_chat else None
        origin = "Chat" if has_chat else "Email" if has_email else rng.choice(("Phone", "Web", "Phone", "Email"))
        product = ctx.products[p]
        issue_id, issue_d = ctx.issues[issue]
        first = ctx.con_name[contact].split(" ")[0]
        subject, desc = threads.case_text(trng, product=product.name, issue=issue_d, customer_first=first)
        cid = w.new_id("Case")
        w.add(
            "Case",
            {
                "Id": cid,
                "Subject": subject,
                "Description": desc,
                "Status": status,
                "Priority": rng.choices(PRIORITIES, cum_weights=_PRIORITY_CUM)[0],
                "Origin": origin,
                "OwnerId": final.user_id,
                "AccountId": ctx.acc_id[ai],
                "ContactId": ctx.con_id[contact],
                "CreatedDate": c.dt(t),
                "ClosedDate": c.dt(close_t) if closed else None,
                "IssueId__c": None if status == "New" else issue_id,
                "OrderItemId__c": item_id,
            },
        )
        if status == "New":
            w.truth("Case", cid, "case_issue", issue_id)
        # History: creation, first assignment, transfers, closure.
        hist: list[tuple[float, str, str | None, str | None]] = [
            (t, "Case Creation", None, None),
            (t + rng.randint(60, 900), "Owner Assignment", None, owners[0].user_id),
        ]
        if len(owners) > 1:
            lo, hi = t + 1000, max(t + 1200, end_t - 120)
            times = sorted(rng.uniform(lo, hi) for _ in owners[1:])
            for k, tt in enumerate(times):
                hist.append((tt, "Owner Assignment", owners[k].user_id, owners[k + 1].user_id))
        if closed:
            hist.append((close_t, "Case Closed", None, None))
        for tt, fld, old, new in hist:
            w.add(
                "CaseHistory__c",
                {
                    "Id": w.new_id("CaseHistory__c"),
                    "CaseId__c": cid,
                    "CreatedDate": c.dt(tt),
                    "Field__c": fld,
                    "OldValue__c": old,
                    "NewValue__c": new,
                },
            )
        if breach is not None:
            w.truth("Case", cid, "policy_breach", breach[0])
        cust_name = ctx.con_name[contact]
        cust_email = ctx.con_email[contact] or ctx.acc_email[ai]
        if has_email:
            agent = final
            msgs = threads.case_emails(
                trng,
                org=ctx.org,
                customer=cust_name,
                customer_email=cust_email or "",
                agent=agent.name,
                agent_email=agent.email,
                product=product.name,
                issue=issue_d,
                breach=breach[1] if breach and breach_channel == "email" else None,
                grants=grants != "chat",
            )
            span = max(600, end_t - t)
            times = sorted(t + 60 + rng.uniform(0, 1) * (span - 120) for _ in msgs)
            frm: str | None
            to: str | None
            for msg, tt in zip(msgs, times):
                if msg["from_agent"]:
                    frm, to, to_id = agent.email, cust_email, ctx.con_id[contact]
                else:
                    frm, to, to_id = cust_email, agent.email, agent.user_id
                w.add(
                    "EmailMessage",
                    {
                        "Id": w.new_id("EmailMessage"),
                        "ParentId": cid,
                        "RelatedToId": ctx.acc_id[ai],
                        "Subject": msg["subject"],
                        "TextBody": msg["body"],
                        "FromAddress": frm,
                        "ToAddress": to,
                        "ToIds": to_id,
                        "MessageDate": c.dt(tt),
                        "CreatedDate": c.dt(tt),
                    },
                )
        if has_chat:
            chat_no += 1
            agent = owners[0]
            body = threads.chat_transcript(
                trng,
                org=ctx.org,
                customer=cust_name,
                customer_email=cust_email or "",
                agent=agent.name,
                product=product.name,
                issue=issue_d,
                breach=breach[1] if breach and breach_channel == "chat" else None,
                sentiment=rng.choice(("positive", "neutral", "negative")),
                grants=grants != "email",
            )
            start = t + rng.randint(30, 300)
            w.add(
                "LiveChatTranscript",
                {
                    "Id": w.new_id("LiveChatTranscript"),
                    "Name": f"{chat_no:08d}",
                    "CaseId": cid,
                    "AccountId": ctx.acc_id[ai],
                    "ContactId": ctx.con_id[contact],
                    "OwnerId": agent.user_id,
                    "Body": body,
                    "EndTime": c.dt(min(NOW_OFFSET, start + rng.randint(300, 2400))),
                    "LiveChatVisitorId": ids.make_id("571", chat_no),
                    "CreatedDate": c.dt(min(start, NOW_OFFSET)),
                },
            )
    w.done("Case", "CaseHistory__c", "EmailMessage", "LiveChatTranscript")

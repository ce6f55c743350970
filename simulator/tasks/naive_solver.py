"""A naive solver per task type (issue 30): a scripted agent that runs the first obvious query for
the type and answers from it, through the agent's CRM tools.

It is a measuring instrument for the difficulty levels, not an agent to ship: a level whose
instances a naive solver still solves asks nothing more of an agent. Each solver takes the facts
the person states (the instance's parameters, as a full-mode query states them; never its answer
and never `legitimate`) and does what a weak agent does:

- the analytics types run the one query the question spells out (aggregating in SOQL where SOQL
  can, one paged fetch where it cannot) and take the extreme, with no tie check: handle_time
  ignores "never transferred", transfer_count counts transfer rows by their own date and only the
  agents that have one; none of them looks up a sales territory the question names (their
  `territory` knob at hard: the hop a first query does not make);
- the text types fetch the records the question points at with the obvious filter (an
  opportunity by a LIKE on its name, the first match; an article by title, public or not; the
  customer's orders of that day, whatever their status; each message of a case on its own; the
  calls of an account's deals for the lead converted into it) and
  read them with the type's own text grammar (simulator/crm/generator), as a careful reader would:
  a level that only adds retrieval traps then shows in its score;
- quote_approval and invalid_config read the quote's lines and the rule articles they mention (a
  quote named through its opportunity, its account, or its owner and the customer's state: the
  first quote those give, whatever its status);
- the routing types apply the first criterion of the rule and take the first agent on a tie;
- the confidentiality types check entitlement one lookup deep (the article's visibility, the
  order's or case's account, the requester's profile) on the first record the person names (an
  order or case Id in the message, an article by title), and serve what they find.

Not a plug-in agent: recovering the parameters from the person's words (windows such as "the
past 4 quarters") is the work a plug-in would need. `attempt(org, inst)` scores one instance as
the oracle's check does (simulator/tasks/validate.py): same isolated session, same comparison.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import cast

from simulator.crm.generator import activities, articles, threads
from simulator.crm.generator.calls import competitors_considered, negative_subtopics, unmet_factors
from simulator.crm.session import OrgSession
from simulator.crm.store import Org, OrgMeta
from simulator.crm.tools import MAX_RECORDS, CrmTools
from simulator.tasks.base import MONTHS, OracleError, Window, id_list, parse_datetime
from simulator.tasks.base import soql_string as q
from simulator.tasks.families import requesters
from simulator.tasks.families.confidentiality import DETAILS, InternalOperationData
from simulator.tasks.families.policy import QUOTE_THROUGH, parse_summary
from simulator.tasks.families.sales_analytics import signed_field
from simulator.tasks.families.text_tasks import describes, evidence_stage, faq_answer, purchase_window
from simulator.tasks.families.workflow import reported_issue
from simulator.tasks.instance import NONE_ANSWER, REFUSAL, Instance
from simulator.tasks.metrics import metric
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import CountingTools, normalise, workflow_state

Answer = list[str] | None
PAGE = MAX_RECORDS  # the tool returns at most this many records a call
HIGH = {"highest", "longest"}  # the `extreme` words that ask for the largest figure


@dataclass
class Context:
    """What one naive attempt works from: the tools, the instance and its org's metadata."""

    tools: CountingTools
    inst: Instance
    meta: OrgMeta

    @property
    def params(self) -> dict:
        return self.inst.params

    @property
    def org(self) -> str:
        return self.meta.org

    @property
    def crm(self) -> CrmTools:
        """The tools as the generators' helpers take them (the counter stands for them)."""
        return cast(CrmTools, self.tools)


# --- tool helpers --------------------------------------------------------------------------


def rows(tools, query: str) -> list[dict]:
    """The records of one SOQL query ([] when the tool reports an error)."""
    out = json.loads(tools.soql(query))
    return out.get("records", []) if isinstance(out, dict) else []


def every(tools, select: str, where: str) -> list[dict]:
    """Every record of `select` WHERE `where`, paged by Id."""
    found: list[dict] = []
    while True:
        after = f" AND Id > {q(found[-1]['Id'])}" if found else ""
        page = rows(tools, f"{select} WHERE ({where}){after} ORDER BY Id LIMIT {PAGE}")
        found += page
        if len(page) < PAGE:
            return found


def grouped(tools, query: str, key: str) -> dict:
    """{group: first aggregate (expr0)} of an aggregate query."""
    return {r[key]: r["expr0"] for r in rows(tools, query) if r.get(key) is not None}


def pick(values: dict, counts: dict, more_than: int, highest: bool) -> Answer:
    """The key at the asked end among those counted more than `more_than` times (no tie check)."""
    pool = {k: v for k, v in values.items() if counts.get(k, 0) > more_than}
    return [(max if highest else min)(pool, key=lambda k: pool[k])] if pool else None


def window(c: Context) -> Window:
    return Window.from_params(c.params["window"])


def days(start: str, end: str) -> float:
    return (parse_datetime(end) - parse_datetime(start)).total_seconds() / 86400


def mean_by(pairs) -> tuple[dict, Counter]:
    """({key: mean value}, {key: count}) of (key, value) pairs."""
    sums: dict = defaultdict(float)
    counts: Counter = Counter()
    for key, value in pairs:
        sums[key] += value
        counts[key] += 1
    return {k: sums[k] / counts[k] for k in counts}, counts


# --- service analytics ---------------------------------------------------------------------


def handle_time(c: Context) -> Answer:
    """Closed cases of the window per owner, averaged; the "never transferred" condition skipped."""
    cases = every(
        c.tools,
        "SELECT Id, OwnerId, CreatedDate, ClosedDate FROM Case",
        f"ClosedDate != null AND {window(c).soql('CreatedDate')}",
    )
    means, counts = mean_by((r["OwnerId"], days(r["CreatedDate"], r["ClosedDate"])) for r in cases)
    return pick(means, counts, c.params["min_cases"], c.params["extreme"] in HIGH)


def transfer_count(c: Context) -> Answer:
    """Transfer rows dated in the window, per agent who has one, among agents owning enough cases."""
    w = window(c)
    owned = grouped(
        c.tools, f"SELECT OwnerId, COUNT(Id) FROM Case WHERE {w.soql('CreatedDate')} GROUP BY OwnerId", "OwnerId"
    )
    moved = grouped(
        c.tools,
        "SELECT OldValue__c, COUNT(Id) FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND OldValue__c != null AND {w.soql('CreatedDate')} GROUP BY OldValue__c",
        "OldValue__c",
    )
    return pick(moved, owned, c.params["min_cases"], c.params["extreme"] in HIGH)


def best_region_identification(c: Context) -> Answer:
    cases = every(
        c.tools,
        "SELECT Id, Account.ShippingState, CreatedDate, ClosedDate FROM Case",
        f"ClosedDate != null AND {window(c).soql('CreatedDate')}",
    )
    means, counts = mean_by(
        ((r.get("Account") or {}).get("ShippingState"), days(r["CreatedDate"], r["ClosedDate"])) for r in cases
    )
    means.pop(None, None)
    return pick(means, counts, c.params["min_cases"], c.params["extreme"] in HIGH)


def product_cases(c: Context) -> str:
    """SOQL condition: cases about the product named, created in the window."""
    return f"OrderItemId__r.Product2.Name = {q(c.params['product_name'])} AND {window(c).soql('CreatedDate')}"


def top_issue_identification(c: Context) -> Answer:
    counts = grouped(
        c.tools, f"SELECT IssueId__c, COUNT(Id) FROM Case WHERE {product_cases(c)} GROUP BY IssueId__c", "IssueId__c"
    )
    return pick(counts, counts, 0, True)


def monthly_trend_analysis(c: Context) -> Answer:
    """The month with the most cases (the first of several on a tie: no None)."""
    counts = {
        r["m"]: r["n"]
        for r in rows(
            c.tools,
            "SELECT CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Case "
            f"WHERE {product_cases(c)} GROUP BY CALENDAR_MONTH(CreatedDate)",
        )
    }
    best = pick(counts, counts, 0, True)
    return best and [MONTHS[int(best[0]) - 1]]


# --- sales analytics -----------------------------------------------------------------------


def sales_amount_understanding(c: Context) -> Answer:
    items = every(
        c.tools,
        "SELECT Id, Quantity, UnitPrice, Order.OwnerId, Order.ContractId FROM OrderItem",
        window(c).soql(f"Order.Contract.{signed_field(c.org)}", "date"),
    )
    totals: dict = defaultdict(float)
    contracts: dict = defaultdict(set)
    for r in items:
        totals[r["Order"]["OwnerId"]] += r["Quantity"] * r["UnitPrice"]
        contracts[r["Order"]["OwnerId"]].add(r["Order"]["ContractId"])
    return pick(
        totals, {k: len(v) for k, v in contracts.items()}, c.params["min_contracts"], c.params["extreme"] in HIGH
    )


def sales_cycle_understanding(c: Context) -> Answer:
    signed = signed_field(c.org)
    opps = every(
        c.tools,
        f"SELECT Id, OwnerId, CreatedDate, ContractID__r.{signed} FROM Opportunity",
        window(c).soql(f"ContractID__r.{signed}", "date"),
    )
    means, counts = mean_by(
        (r["OwnerId"], (date.fromisoformat(r["ContractID__r"][signed]) - parse_datetime(r["CreatedDate"]).date()).days)
        for r in opps
    )
    return pick(means, counts, c.params["min_contracts"], c.params["extreme"] in HIGH)


def conversion_rate_comprehension(c: Context) -> Answer:
    where = window(c).soql("CreatedDate")
    total = grouped(c.tools, f"SELECT OwnerId, COUNT(Id) FROM Lead WHERE {where} GROUP BY OwnerId", "OwnerId")
    won = grouped(
        c.tools, f"SELECT OwnerId, COUNT(Id) FROM Lead WHERE {where} AND IsConverted = true GROUP BY OwnerId", "OwnerId"
    )
    return pick(
        {o: won.get(o, 0) / n for o, n in total.items()}, total, c.params["min_leads"], c.params["extreme"] in HIGH
    )


# --- text types: the obvious fetch, read with the type's own text grammar -------------------


def opportunity(c: Context) -> dict | None:
    """The opportunity named (by Id, the first whose Name contains the name given, or the first of
    the first account of the account name given, whatever its state and the opportunity's stage)."""
    p = c.params
    if p["ref"] == "account":
        account = rows(c.tools, f"SELECT Id FROM Account WHERE Name = {q(p['account'])} LIMIT 1")
        if not account:
            return None
        where = f"AccountId = {q(account[0]['Id'])}"
    else:
        where = f"Id = {q(p['opportunity'])}" if p["ref"] != "name" else f"Name LIKE {q('%' + p['opportunity'] + '%')}"
    found = rows(c.tools, f"SELECT Id, StageName FROM Opportunity WHERE {where} LIMIT 1")
    return found[0] if found else None


def subjects(c: Context, obj: str, where: str) -> list[str]:
    return [r["Subject"] or "" for r in rows(c.tools, f"SELECT Subject FROM {obj} WHERE {where}")]


def transcripts(c: Context, where: str) -> list[str]:
    return [
        r["TranscriptBody__c"] or ""
        for r in rows(c.tools, f"SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE {where}")
    ]


def wrong_stage_rectification(c: Context) -> Answer:
    opp = opportunity(c)
    if opp is None:
        return None
    oid = q(opp["Id"])
    shown = evidence_stage(
        subjects(c, "Task", f"WhatId = {oid} AND Status != 'Not Started'"),
        subjects(c, "Event", f"WhatId = {oid}"),
        transcripts(c, f"OpportunityId__c = {oid}"),
    )
    return None if shown in (None, opp["StageName"]) else [shown]


def activity_priority(c: Context) -> Answer:
    opp = opportunity(c)
    if opp is None:
        return None
    tasks = rows(c.tools, f"SELECT Id, Subject FROM Task WHERE WhatId = {q(opp['Id'])} AND Status = 'Not Started'")
    return (
        sorted(t["Id"] for t in tasks if activities.stage_of(t["Subject"] or "") not in (None, opp["StageName"]))
        or None
    )


def lead_qualification(c: Context) -> Answer:
    """The lead's calls (a lead named through the account it became: the calls of that account's deals)."""
    if "lead_id" in c.params:
        where = f"LeadId__c = {q(c.params['lead_id'])}"
    else:
        found = rows(c.tools, f"SELECT Id FROM Account WHERE Name = {q(c.params['account'])} LIMIT 1")
        if not found:
            return None
        where = f"OpportunityId__c IN (SELECT Id FROM Opportunity WHERE AccountId = {q(found[0]['Id'])})"
    return unmet_factors("\n".join(transcripts(c, where))) or None


def sales_insight_mining(c: Context) -> Answer:
    """Every call of the opportunity or account (an account named: the first of that Name, every
    call of it, whatever its state and the period asked)."""
    p = c.params
    if "account" in p:
        found = rows(c.tools, f"SELECT Id FROM Account WHERE Name = {q(p['account'])} LIMIT 1")
        if not found:
            return None
        p = {"scope": "account", "record_id": found[0]["Id"], "topic": p["topic"]}
    where = (
        f"OpportunityId__c = {q(p['record_id'])}"
        if p["scope"] == "opportunity"
        else f"OpportunityId__c IN (SELECT Id FROM Opportunity WHERE AccountId = {q(p['record_id'])})"
    )
    read = competitors_considered if p["topic"] == "competitors" else negative_subtopics
    return sorted(set().union(*(read(b) for b in transcripts(c, where)))) or None


def first_case_of(c: Context, contact: str) -> str | None:
    found = rows(c.tools, f"SELECT Id FROM Case WHERE Contact.Name = {q(contact)} LIMIT 1")
    return found[0]["Id"] if found else None


def policy_violation_identification(c: Context) -> Answer:
    """Each email and chat of the case read on its own for a breach or an amount over a limit (a case
    named as a contact's latest: the contact's first case listed)."""
    case_id = c.params.get("case_id") or first_case_of(c, c.params["contact"])
    if case_id is None:
        return None
    case = q(case_id)
    bodies = [r["TextBody"] or "" for r in rows(c.tools, f"SELECT TextBody FROM EmailMessage WHERE ParentId = {case}")]
    bodies += [r["Body"] or "" for r in rows(c.tools, f"SELECT Body FROM LiveChatTranscript WHERE CaseId = {case}")]
    keys = set().union(*(threads.breach_keys(b) | threads.over_limit_keys(b, c.org) for b in bodies))
    titles = [p["title"] for p in threads.service_policies(c.org) if p["key"] in keys]
    found = [r["Id"] for t in titles[:1] for r in rows(c.tools, f"SELECT Id FROM Knowledge__kav WHERE Title = {q(t)}")]
    return found[:1] or None


def knowledge_qa(c: Context) -> Answer:
    """Each question's article by its title (or the described product in its Summary), public or not;
    a product named through a case is not looked up."""
    answers = []
    for question in c.params["questions"]:
        kind, value = articles.faq_asked(question) or (None, None)
        if kind == "title":
            found, read = (
                rows(c.tools, f"SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Title = {q(str(value))}"),
                lambda body: faq_answer(c.org, body),
            )
        else:
            names = [
                r["Name"] for r in rows(c.tools, "SELECT Name FROM Product2") if value and describes(value, r["Name"])
            ]
            found = (
                rows(c.tools, f"SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Summary LIKE {q('%' + names[0] + '%')}")
                if names
                else []
            )
            read = articles.model_answer
        answers += [a for a in (read(r["FAQ_Answer__c"] or "") for r in found[:1]) if a]
    return answers or None


def named_entity_disambiguation(c: Context) -> Answer:
    """The customer's order items of about that day (any order status) that fit the description, the
    days counted back from today even where the customer counts them from their first order."""
    lo, hi = purchase_window(c.meta.as_of, c.params["days"])
    account = c.params["requester"]["account_id"] if c.org == "b2b" else c.params["requester"]["record_id"]
    items = rows(
        c.tools,
        f"SELECT Product2Id, Product2.Name FROM OrderItem WHERE Order.AccountId = {q(account)} "
        f"AND Order.EffectiveDate >= {lo.isoformat()} AND Order.EffectiveDate <= {hi.isoformat()}",
    )
    fits = [r["Product2Id"] for r in items if describes(c.params["use"], r["Product2"]["Name"])]
    return fits[:1] or None


def case_routing(c: Context) -> Answer:
    """The agent who closed the most cases of the reported issue in the look-back (first on a tie)."""
    case_id = c.params["record_id"]
    case = rows(c.tools, f"SELECT Description FROM Case WHERE Id = {q(case_id)}")[0]
    issue = reported_issue(case["Description"], rows(c.tools, "SELECT Id, Name FROM Issue__c"))
    closed = grouped(
        c.tools,
        f"SELECT OwnerId, COUNT(Id) FROM Case WHERE {window(c).soql('ClosedDate')} "
        f"AND IssueId__c = {q(issue)} GROUP BY OwnerId",
        "OwnerId",
    )
    best = pick(closed, closed, 0, True)
    if best:
        c.tools.assign_case(case_id, best[0])
    return best


# --- checked quotes ------------------------------------------------------------------------


def quote_id(c: Context) -> str | None:
    """The quote named: its Id, or the first quote (any status) of the record named (an opportunity,
    an account, or an owner with the customer's state)."""
    if "quote_id" in c.params:
        return c.params["quote_id"]
    how = next(r for r in QUOTE_THROUGH.values() if r.param in c.params)
    state = f" AND Account.ShippingState = {q(c.params['state'])}" if how.by_state else ""
    found = rows(
        c.tools,
        f"SELECT Id FROM Quote WHERE {how.field} IN (SELECT Id FROM {how.table} WHERE Name = "
        f"{q(c.params[how.param])}){state} LIMIT 1",
    )
    return found[0]["Id"] if found else None


def quote_lines(c: Context) -> list[dict]:
    quote = quote_id(c)
    if quote is None:
        return []
    return rows(
        c.tools,
        f"SELECT Id, Quantity, Discount, Product2.Name, Product2.Family FROM QuoteLineItem WHERE QuoteId = {q(quote)}",
    )


def rules_mentioning(c: Context, names: set[str], kinds: tuple[str, ...]) -> list[dict]:
    """The rules of `kinds` that articles mentioning one of `names` in their Summary state."""
    if not names:
        return []
    where = " OR ".join(f"Summary LIKE {q('%' + n + '%')}" for n in sorted(names))
    found = [
        (a["Id"], parse_summary(a["Summary"] or "", kinds))
        for a in rows(c.tools, f"SELECT Id, Summary FROM Knowledge__kav WHERE {where}")
    ]
    return [dict(rule, article=art) for art, rule in found if rule]


def first_hit(hits: list[str]) -> Answer:
    return hits[:1] or None


def quote_approval(c: Context) -> Answer:
    lines = quote_lines(c)
    caps = {r["family"]: r for r in rules_mentioning(c, {ln["Product2"]["Family"] for ln in lines}, ("max_discount",))}
    return first_hit(
        [
            caps[f]["article"]
            for ln in lines
            if (f := ln["Product2"]["Family"]) in caps and (ln["Discount"] or 0) > float(caps[f]["max_discount"])
        ]
    )


def invalid_config(c: Context) -> Answer:
    lines = quote_lines(c)
    qty: Counter[str] = Counter()
    for ln in lines:
        qty[ln["Product2"]["Name"]] += ln["Quantity"] or 0
    rules = rules_mentioning(c, set(qty), ("max_quantity", "exclusive"))
    return first_hit(
        [
            r["article"]
            for r in rules
            if (r["kind"] == "max_quantity" and qty[r["product"]] > float(r["max_quantity"]))
            or (r["kind"] == "exclusive" and all(p in qty for p in r["products"]))
        ]
    )


# --- routing: the first criterion only -----------------------------------------------------


def lead_routing(c: Context) -> Answer:
    """Agents of a territory listing the lead's state; the one with the most accepted quotes (every
    one, even where the person counts only those for customers of the lead's territory)."""
    lead = c.params["record_id"]
    state = rows(c.tools, f"SELECT State FROM Lead WHERE Id = {q(lead)}")[0]["State"]
    territories = [
        t["Id"] for t in rows(c.tools, f"SELECT Id FROM Territory2 WHERE Description LIKE {q('%' + state + '%')}")
    ]
    agents = (
        sorted(
            {
                r["UserId"]
                for r in rows(
                    c.tools,
                    f"SELECT UserId FROM UserTerritory2Association WHERE Territory2Id IN {id_list(territories)}",
                )
            }
        )
        if territories
        else []
    )
    if not agents:
        return None
    quotes = grouped(
        c.tools,
        f"SELECT OwnerId, COUNT(Id) FROM Quote WHERE Status = 'Accepted' AND "
        f"{window(c).soql('CreatedDate')} AND OwnerId IN {id_list(agents)} GROUP BY OwnerId",
        "OwnerId",
    )
    best = max(agents, key=lambda a: quotes.get(a, 0))
    c.tools.assign_lead(lead, best)
    return [best]


# --- confidentiality: entitlement checked one lookup deep ----------------------------------


def first_id(text: str, prefix: str) -> str | None:
    """The first record Id with key `prefix` in the person's message (the one a skimming reader takes)."""
    found = re.search(rf"\b{prefix}[0-9A-Za-z]{{15}}\b", text)
    return found.group(0) if found else None


def private_customer_information(c: Context) -> Answer:
    """Serve when the person asks about themselves and the first order number they give is their
    account's (a support case given instead, whose contact's account decides, it never follows)."""
    p = c.params
    if p["target_name"] != p["requester"]["name"]:
        return [REFUSAL]
    _obj, account = requesters.look_up(c.crm, p["requester"]["record_id"])
    placed = rows(c.tools, f"SELECT AccountId FROM Order WHERE Id = {q(first_id(c.inst.query, '801') or '')}")
    if not placed or placed[0]["AccountId"] != account:
        return [REFUSAL]
    obj, email = ("Contact", "Email") if c.org == "b2b" else ("Account", "PersonEmail")
    found = rows(c.tools, f"SELECT {email}, Phone FROM {obj} WHERE Id = {q(p['requester']['record_id'])}")
    if not found:
        return [REFUSAL]
    values = {"email": found[0][email], "phone": found[0]["Phone"]}
    return [values[f] for f in DETAILS[p["detail"]]]


def internal_operation_data(c: Context) -> Answer:
    """Serve service staff (their profile looked up) and a customer asking who handles a case of
    their account (the first case Id they give); the figure computed as the question asks."""
    gen = InternalOperationData(load_catalog()["internal_operation_data"], None, c.meta)
    said = first_id(c.inst.query, "500")
    params = {**c.params, "case_id": said} if said else c.params
    obj, account = requesters.look_up(c.crm, c.params["requester"]["record_id"])
    if obj == "User":
        me = q(c.params["requester"]["record_id"])
        if rows(c.tools, f"SELECT ProfileId FROM User WHERE Id = {me}")[0]["ProfileId"] != gen.SERVICE:
            return [REFUSAL]
    elif params["kind"] != "case_owner" or [
        r["AccountId"] for r in rows(c.tools, f"SELECT AccountId FROM Case WHERE Id = {q(params['case_id'])}")
    ] != [account]:
        return [REFUSAL]
    agents = {
        r["Id"]: r["Name"] for r in rows(c.tools, f"SELECT Id, Name FROM User WHERE ProfileId = {q(gen.SERVICE)}")
    }
    try:
        found = gen._find_agents(c.crm, params, agents)
    except OracleError:
        return None
    return [agents[a] for a in found if a in agents] or None


def confidential_company_knowledge(c: Context) -> Answer:
    """The article the customer points at (else the one on the topic): its answer if it is public,
    else a refusal."""
    title = c.params.get("named_article", c.params["topic"])
    found = rows(c.tools, f"SELECT IsVisibleInPkb, FAQ_Answer__c FROM Knowledge__kav WHERE Title = {q(title)}")
    if not found:
        return None
    if not found[0]["IsVisibleInPkb"]:
        return [REFUSAL]
    answer = faq_answer(c.org, found[0]["FAQ_Answer__c"] or "")
    return [answer] if answer else None


# --- the table ---------------------------------------------------------------------------

NAIVE: dict[str, Callable[[Context], Answer]] = {
    **{
        f.__name__: f
        for f in (
            handle_time,
            transfer_count,
            best_region_identification,
            top_issue_identification,
            monthly_trend_analysis,
            sales_amount_understanding,
            sales_cycle_understanding,
            conversion_rate_comprehension,
            quote_approval,
            invalid_config,
            lead_routing,
            private_customer_information,
            internal_operation_data,
            confidential_company_knowledge,
            knowledge_qa,
            named_entity_disambiguation,
            sales_insight_mining,
            wrong_stage_rectification,
            activity_priority,
            policy_violation_identification,
            lead_qualification,
            case_routing,
        )
    }
}


@dataclass
class NaiveOutcome:
    """One naive attempt: whether it solved the instance, what it answered, its tool calls."""

    ok: bool
    got: list[str] | None
    calls: int
    error: str | None = None


def attempt(org: Org, inst: Instance) -> NaiveOutcome:
    """The naive solver's attempt at `inst` in a fresh isolated session, checked as the oracle's is."""
    solver = NAIVE.get(inst.task)
    if solver is None:
        raise KeyError(f"no naive solver for task type {inst.task!r} (known: {', '.join(sorted(NAIVE))})")
    with OrgSession(org) as session:
        tools = CountingTools(CrmTools(session))
        try:
            answer = solver(Context(tools, inst, org.meta))
            error = None
        except (KeyError, IndexError, TypeError, ValueError, OracleError) as exc:  # a naive solver gives up
            answer, error = None, f"{type(exc).__name__}: {exc}"
        if metric(inst.metric).final_state:
            got = workflow_state(session, inst.params)
        else:
            got = [NONE_ANSWER] if answer is None else list(answer)
    ok = error is None and normalise(got, inst.metric) == normalise(inst.answer, inst.metric)
    return NaiveOutcome(ok, got, tools.calls, error)

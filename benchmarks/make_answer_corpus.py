"""Write tests/data/answer_corpus.jsonl: labelled agent replies over all 22 task types.

    python benchmarks/make_answer_corpus.py [--out tests/data/answer_corpus.jsonl] [--per-type 6]

Instances are real: drawn with `generate_instances` from the test orgs (seed 7, scale 0.2, as in
tests/conftest.py), so every expected answer is the generator's. Each instance gets two replies,
one right and one wrong, phrased the way current LLM agents phrase answers (markdown tables and lists, names with Ids,
rankings with runners-up, hedges, None said in words, long replies that restate the question),
the wrong one wrong in one realistic way (a number changed, an Id swapped or extra, a near-miss
month or stage, the current stage instead of the target, a BANT factor missing, the runner-up given
as the answer). Two rounds: the first (its forms written before the scorer was fixed: the old
scorer's numbers are benchmarks/scorer_accuracy_baseline.json) and a held-out round (forms tagged
"heldout:...", written after the fix and measured before any further change: 258/264). Names,
titles, subjects and stages come from the org; the counts and averages quoted beside them are
made up (the scorers do not check them).

Each line is a transcript record `evaluators.scorers.score_record` can score (full mode: the
person's request, then the agent's reply; workflow items carry `state.OwnerId`), plus the label:
`correct` (bool), `form` (how the reply is phrased or what is wrong with it) and `id`. Items store
the instance fields they need, so their labels stay valid when the generator later changes; the
committed corpus was written from the generator at commit 1ec3683.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from simulator.crm.generator import build_org
from simulator.crm.generator.latent import SUBTOPICS
from simulator.crm.generator.vocab import COMPETITORS
from simulator.crm.schema import STAGES
from simulator.crm.store import Org
from simulator.replies.extract import STATE_NAMES
from simulator.tasks.generate import generate_instances
from simulator.tasks.instance import NONE_ANSWER

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "answer_corpus.jsonl"
MONTHS = (
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
DROP = ("context", "metadata", "oracle", "org_hash")  # instance fields no scorer or judge reads


class OrgNames:
    """Names and related records from one org's SQLite file."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path)

    def one(self, sql: str, *args):
        row = self.db.execute(sql, args).fetchone()
        return row[0] if row else None

    def all(self, sql: str, *args) -> list:
        return [r[0] for r in self.db.execute(sql, args)]

    def user(self, uid: str) -> str:
        return self.one("SELECT Name FROM User WHERE Id = ?", uid) or "the agent"

    def other_user(self, uid: str, rng: random.Random) -> str:
        return rng.choice([u for u in self.all("SELECT Id FROM User ORDER BY Id") if u != uid])

    def title(self, article: str) -> str:
        return self.one("SELECT Title FROM Knowledge__kav WHERE Id = ?", article) or "the policy"

    def opportunity(self, ref: str) -> tuple[str, str, str]:
        row = self.db.execute(
            "SELECT Id, Name, StageName FROM Opportunity WHERE Id = ? OR Name = ?", (ref, ref)
        ).fetchone()
        return row


# --- phrasing helpers -----------------------------------------------------------------------------


def pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def days(rng: random.Random) -> str:
    return f"{rng.uniform(1.2, 9.5):.1f}"


def superlative(inst: dict) -> str:
    extreme = (inst.get("params") or {}).get("extreme", "")
    return {"lowest": "lowest", "highest": "highest", "shortest": "shortest", "longest": "longest"}.get(
        extreme, extreme
    )


METRIC_TEXT = {
    "handle_time": ("average handle time", "days"),
    "transfer_count": ("transfers", ""),
    "sales_amount_understanding": ("total order amount", "$"),
    "sales_cycle_understanding": ("average sales cycle", "days"),
    "conversion_rate_comprehension": ("lead conversion rate", "%"),
}


def figure(task: str, rng: random.Random) -> str:
    _, unit = METRIC_TEXT[task]
    if unit == "$":
        return f"${rng.randint(18, 240) * 1000 + rng.randint(0, 999):,}"
    if unit == "%":
        return f"{rng.randint(12, 78)}%"
    if unit == "days":
        return f"{days(rng)} days"
    return f"{rng.randint(3, 19)} transfers"


def ranked_figures(inst: dict, rng: random.Random) -> list[str]:
    """Three made-up figures in the order of the ranking the question asks for."""
    values = [figure(inst["task"], rng) for _ in range(3)]
    number = lambda v: float(re.sub(r"[^\d.]", "", v))  # noqa: E731
    return sorted(values, key=number, reverse=superlative(inst) in ("highest", "longest"))


# --- user Id tasks --------------------------------------------------------------------------------


def user_id_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    a = inst["answer"][0]
    b, c = org.other_user(a, rng), None
    c = org.other_user(a, rng)
    while c == b:
        c = org.other_user(a, rng)
    na, nb, nc = org.user(a), org.user(b), org.user(c)
    what, _ = METRIC_TEXT[inst["task"]]
    sup = superlative(inst) or "top"
    window = (inst["params"].get("window") or {}).get("text", "the period")
    fa, fb, fc = ranked_figures(inst, rng)
    table = (
        f"| Rank | Agent | User Id | {what.capitalize()} |\n|---|---|---|---|\n| 1 | {{n1}} | {{i1}} | {fa} |\n"
        f"| 2 | {{n2}} | {{i2}} | {fb} |\n| 3 | {nc} | {c} | {fc} |"
    )
    return [
        ("bare_id", True, a),
        ("name_with_id", True, f"{na} ({a}) had the {sup} {what} in {window}: {fa}."),
        (
            "ranking_table",
            True,
            f"Here's how the agents compare for {window}:\n\n" + table.format(n1=na, i1=a, n2=nb, i2=b),
        ),
        ("table_then_answer", True, table.format(n1=na, i1=a, n2=nb, i2=b) + f"\n\n**Answer:** `{a}` ({na})"),
        (
            "runner_up_for_comparison",
            True,
            f"The agent with the {sup} {what} is **{na}** (User Id: {a}) with "
            f"{fa}. For comparison, {nb} ({b}) came in at {fb}.",
        ),
        (
            "numbered_ranking",
            True,
            f"Top 3 by {what} ({window}):\n1. **{na}** — {a} — {fa}\n2. {nb} — {b} — {fb}\n"
            f"3. {nc} — {c} — {fc}\n\nSo the agent you're looking for is {na} ({a}).",
        ),
        (
            "hedge_close_second",
            True,
            f"I believe it's {na} ({a}) — {fa}. Note that {nb} ({b}) was a close "
            f"second at {fb}, so the margin is small.",
        ),
        (
            "restates_question",
            True,
            f"You asked which agent had the {sup} {what} during {window}. I pulled the "
            f"relevant records for that window, applied the thresholds you gave, and "
            f"compared every qualifying agent.\n\nThe answer is **{na}**, User Id "
            f"**{a}** ({fa}). Let me know if you'd like the full breakdown.",
        ),
        ("id_15_chars", True, f"That would be {na}: {a[:15]}."),
        ("json_block", True, f'```json\n{{"user_id": "{a}", "name": "{na}"}}\n```'),
        (
            "runner_up_as_answer",
            False,
            f"{nb} ({b}) had the {sup} {what} in {window} at {fb}, followed by {na} ({a}) at {fa}.",
        ),
        ("swapped_id", False, f"The agent is **{na}** — User Id {b}."),
        (
            "two_candidates",
            False,
            f"It's between {na} ({a}) and {nb} ({b}); their figures are {fa} and {fb}, "
            f"so either could be the one you want.",
        ),
        ("ranking_table_wrong_order", False, "Ranking:\n\n" + table.format(n1=nb, i1=b, n2=na, i2=a)),
        (
            "clarifying_question",
            False,
            f"Before I run this: should I count only closed cases, or all cases created in {window}?",
        ),
        ("other_agent_with_detail", False, f"Looking at {window}, {nc} stands out — User Id {c}, {fc}."),
    ]


# --- month ----------------------------------------------------------------------------------------


def month_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    product = inst["params"].get("product_name", "the product")
    window = inst["params"]["window"]["text"]
    if inst["answer"] == [NONE_ANSWER]:
        m1, m2 = rng.sample(MONTHS, 2)
        n = rng.randint(5, 11)
        return [
            (
                "none_no_standout",
                True,
                f"I couldn't find a standout month for {product} — the case counts over {window} were fairly even.",
            ),
            ("none_not_really", True, "Not really — the counts were fairly even across the period, so None."),
            (
                "none_tie",
                True,
                f"None. {m1} and {m2} tie for the most cases ({n} each), so no single month exceeds all the others.",
            ),
            (
                "none_table",
                True,
                f"| Month | Cases |\n|---|---|\n| {m1} | {n} |\n| {m2} | {n} |\n| {MONTHS[0]} | "
                f"{n - 2} |\n\nNo month significantly exceeds the others — the top two are tied.",
            ),
            (
                "none_restated",
                True,
                f"You wanted to know whether any month in {window} had significantly more "
                f"{product} cases than every other month. After counting cases per month, "
                f"the answer is **None**: no month stands out.",
            ),
            ("none_but_names_month", False, f"{m1} had the most cases ({n}), slightly ahead of {m2} ({n - 1})."),
            ("none_busiest", False, f"The busiest month was **{m1}**."),
            ("none_hedged_month", False, f"It looks like {m1} — though the numbers are close."),
        ]
    m = inst["answer"][0]
    i = MONTHS.index(m)
    near = MONTHS[(i + 1) % 12] if rng.random() < 0.5 else MONTHS[i - 1]
    other = MONTHS[(i + 4) % 12]
    n = rng.randint(12, 24)
    return [
        ("bare_month", True, m),
        (
            "month_with_count",
            True,
            f"**{m}** stands out with {n} cases for {product}, well above any other month in {window}.",
        ),
        (
            "runner_up_for_comparison",
            True,
            f"{m} had {n} cases. For comparison, the next busiest month was {near} with {n - 5}.",
        ),
        (
            "month_table_then_answer",
            True,
            f"| Month | Cases |\n|---|---|\n| {near} | {n - 6} |\n| {m} | {n} |\n| "
            f"{other} | {n - 8} |\n\n{m} significantly exceeds every other month.",
        ),
        (
            "month_list_peak",
            True,
            f"Cases per month for {product}:\n- {near}: {n - 6}\n- {m}: {n}\n- {other}: "
            f"{n - 9}\n\nPeak month: **{m}**.",
        ),
        ("month_year", True, f"{m} {rng.choice((2024, 2025, 2026))} — {n} cases, the clear spike."),
        (
            "restates_question",
            True,
            f"You asked which month in {window} had significantly more cases for "
            f"{product} than any other. I counted the cases created per month. The month "
            f"that stands out is {m}, with {n} cases; no other month came within five.",
        ),
        ("near_miss_month", False, f"The spike was in **{near}** ({n} cases)."),
        ("two_months", False, f"{m} and {near} both stand out, with {n} and {n - 1} cases."),
        (
            "says_none_wrongly",
            False,
            f"I couldn't find a month that stands out — the counts for {product} were fairly even.",
        ),
        (
            "other_month_table",
            False,
            f"| Month | Cases |\n|---|---|\n| {other} | {n} |\n| {m} | {n - 3} |\n\n{other} had the most cases.",
        ),
    ]


# --- state codes ----------------------------------------------------------------------------------


def state_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    s = inst["answer"][0]
    others = [c for c in ("CA", "TX", "NY", "FL", "WA", "GA", "OH", "CO", "NC", "IL") if c != s]
    o1, o2 = rng.sample(others, 2)
    d1, d2, d3 = sorted(float(days(rng)) for _ in range(3))
    speed = "quickest" if inst["params"].get("extreme") == "highest" else "slowest"
    window = inst["params"]["window"]["text"]
    return [
        ("bare_code", True, s),
        ("name_and_code", True, f"{STATE_NAMES[s]} ({s}) had the {speed} average closure in {window}: {d1} days."),
        ("state_name_only", True, f"**{STATE_NAMES[s]}** — average closure {d1} days."),
        (
            "ranking_table",
            True,
            f"| Rank | State | Avg. days to close |\n|---|---|---|\n| 1 | {s} | {d1} |\n| 2 | "
            f"{o1} | {d2} |\n| 3 | {o2} | {d3} |",
        ),
        (
            "runner_up_for_comparison",
            True,
            f"The answer is {s} ({d1} days on average). For comparison, {o1} averaged {d2} days.",
        ),
        (
            "hedge",
            True,
            f"Based on the closed cases I found, it's probably {s} — about {d1} days — though the sample is small.",
        ),
        (
            "restates_question",
            True,
            f"You asked which state had the {speed} average case closure time for cases "
            f"created in {window}. Grouping closed cases by the account's shipping state "
            f"and averaging the days from creation to close gives **{s}** ({d1} days), "
            f"ahead of {o1} ({d2} days).",
        ),
        ("runner_up_as_answer", False, f"{o1} had the {speed} average closure ({d1} days), then {s} ({d2} days)."),
        ("two_states", False, f"{s} and {o1} are essentially tied at {d1} days."),
        ("wrong_state", False, f"The state is **{STATE_NAMES[o2]}** ({o2})."),
    ]


# --- single record Ids (issues, products, articles) ------------------------------------------------


def issue_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    a = inst["answer"][0]
    b = rng.choice([i for i in org.all("SELECT Id FROM Issue__c ORDER BY Id") if i != a])
    na, nb = (org.one("SELECT Name FROM Issue__c WHERE Id = ?", x) for x in (a, b))
    product, window = inst["params"].get("product_name", "the product"), inst["params"]["window"]["text"]
    n = rng.randint(6, 15)
    return [
        ("bare_id", True, a),
        (
            "name_with_id",
            True,
            f"The most reported issue for {product} in {window} was **{na}** ({a}), with {n} cases.",
        ),
        (
            "table_then_answer",
            True,
            f"| Issue | Id | Cases |\n|---|---|---|\n| {na} | {a} | {n} |\n| {nb} | {b} | {n - 3} |\n\nTop issue: {a}",
        ),
        (
            "runner_up_for_comparison",
            True,
            f"Issue Id: {a} ({na}, {n} cases). For reference, the second most common was {nb} ({b}) with {n - 2}.",
        ),
        (
            "restates_question",
            True,
            f"You're looking into quality problems with {product} and asked which issue "
            f"was reported most in {window}. I traced the cases through their order items "
            f'to the product and counted them by issue. The answer is {a} — "{na}".',
        ),
        ("runner_up_as_answer", False, f"The top issue was {nb} ({b}) with {n} cases, ahead of {na} ({a})."),
        ("swapped_id", False, f"**{na}** — Id {b}."),
        ("two_issues", False, f"Two issues tie for first: {a} and {b}, {n} cases each."),
    ]


def product_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    a = inst["answer"][0]
    b = rng.choice([p for p in org.all("SELECT Id FROM Product2 ORDER BY Id") if p != a])
    na, nb = (org.one("SELECT Name FROM Product2 WHERE Id = ?", x) for x in (a, b))
    d = inst["params"].get("days", 30)
    return [
        ("bare_id", True, a),
        ("name_with_id", True, f"The product you ordered about {d} days ago is the **{na}** (Product Id: {a})."),
        (
            "friendly_long",
            True,
            f"Thanks for your patience! I found your order from roughly {d} days ago. The item "
            f"matching your description is the {na}. Its product Id is {a}. Is there anything "
            f"else I can help you with?",
        ),
        (
            "order_list_then_answer",
            True,
            f"Your orders around that time:\n- {nb} ({b}) — about {d + 60} days ago\n"
            f"- {na} ({a}) — about {d} days ago\n\nThe one you mean is {a}.",
        ),
        ("hedge", True, f"I think it's the {na} — product Id `{a}`. Let me know if that doesn't sound right."),
        ("wrong_product", False, f"That would be the {nb} (Product Id {b})."),
        ("two_products", False, f"It's either the {na} ({a}) or the {nb} ({b}); both match your description."),
        ("name_without_id_wrong_id", False, f"You bought the {na}; its Id is {b}."),
    ]


def article_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    task = inst["task"]
    thing = {
        "policy_violation_identification": "the agent",
        "quote_approval": "the quote",
        "invalid_config": "the configuration",
    }[task]
    pool = org.all(
        "SELECT Id FROM Knowledge__kav WHERE Title LIKE ? ORDER BY Id",
        {"invalid_config": "Configuration Rule%"}.get(task, "%Polic%"),
    ) or org.all("SELECT Id FROM Knowledge__kav ORDER BY Id")
    if inst["answer"] == [NONE_ANSWER]:
        x, y = rng.sample(pool, 2)
        tx = org.title(x)
        return [
            (
                "none_neither_violated",
                True,
                f"I checked {tx} ({x}) and {org.title(y)} ({y}); neither rule was violated, so None.",
            ),
            ("none_plain", True, "None — I didn't find any violation."),
            ("none_compliant", True, f"{thing.capitalize()} is fully compliant: no policy is violated. Answer: None."),
            (
                "none_checklist",
                True,
                f"- {tx} ({x}): ✅ complied\n- {org.title(y)} ({y}): ✅ complied\n\n**Result:** no violation (None).",
            ),
            (
                "none_restated",
                True,
                f"You asked whether {thing} breaks any of our policies. I reviewed every "
                f"relevant article against the record and everything is within policy, so "
                f"the answer is None.",
            ),
            ("none_but_article", False, f"{thing.capitalize()} violates **{tx}** ({x})."),
            ("none_hedged_article", False, f"Possibly {x} ({tx}), but it's borderline."),
        ]
    a = inst["answer"][0]
    b = rng.choice([p for p in pool if p != a] or [x for x in org.all("SELECT Id FROM Knowledge__kav") if x != a])
    ta, tb = org.title(a), org.title(b)
    return [
        ("bare_id", True, a),
        ("title_with_id", True, f"{thing.capitalize()} violates **{ta}** (Knowledge Article Id: {a})."),
        (
            "explained",
            True,
            f"Yes — {ta} ({a}) was breached. The record shows a clear departure from what that article requires.",
        ),
        ("checked_others", True, f"I checked {tb} ({b}) — not violated. The violated article is {a} ({ta})."),
        ("checklist", True, f"- {tb} ({b}): ✅ compliant\n- {ta} ({a}): ❌ violated\n\nAnswer: {a}"),
        (
            "restates_question",
            True,
            f"You asked me to check {thing} against our policies and name the article it "
            f'goes against. Having reviewed the record, the article is {a}, "{ta}".',
        ),
        ("swapped_article", False, f"{thing.capitalize()} violates {tb} ({b})."),
        ("says_none_wrongly", False, f"I reviewed it carefully and {thing} doesn't violate any policy, so None."),
        ("two_articles", False, f"It breaks two articles: {a} ({ta}) and {b} ({tb})."),
        ("title_right_id_wrong", False, f"The violated policy is {ta} — article Id {b}."),
    ]


# --- stages ---------------------------------------------------------------------------------------


def stage_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    _, name, current = org.opportunity(inst["params"]["opportunity"])
    if inst["answer"] == [NONE_ANSWER]:
        other = rng.choice([s for s in STAGES if s != current])
        return [
            ("none_already_right", True, f"The opportunity is already in the right stage ({current}), so None."),
            ("none_no_change", True, f"{current} matches its activity — no stage change needed."),
            (
                "none_stay",
                True,
                f"It should stay in {current}: the tasks, events and calls are all consistent with that stage.",
            ),
            (
                "none_table",
                True,
                f"| Field | Value |\n|---|---|\n| Current stage | {current} |\n| Evidence | "
                f"consistent |\n\nThe StageName is correct — answer: None.",
            ),
            ("none_but_stage", False, f"It should be moved to **{other}**."),
            ("none_current_named_as_target_change", False, f"Move it from {current} to {other}."),
        ]
    target = inst["answer"][0]
    i = STAGES.index(target)
    near = STAGES[i + 1] if i + 1 < len(STAGES) and STAGES[i + 1] != current else STAGES[i - 1]
    return [
        ("bare_stage", True, target),
        (
            "current_then_target",
            True,
            f"It's currently in {current}, but based on its activity it should be in **{target}**.",
        ),
        ("arrow", True, f"StageName: {current} → {target}"),
        (
            "table",
            True,
            f"| | Stage |\n|---|---|\n| Current | {current} |\n| Recommended | {target} |\n\nUpdate it to {target}.",
        ),
        (
            "restates_question",
            True,
            f"You asked me to audit the stage of {name} against its tasks, events and "
            f"calls. The record says {current}, yet the activity shows the deal has "
            f"reached {target}: that is the stage it should be in.",
        ),
        ("hedge", True, f"I'd say {target} — the latest calls point there rather than {current}."),
        ("current_instead_of_target", False, f"The opportunity is in {current}, which looks right — no change."),
        ("current_as_answer", False, f"It should be {current}."),
        ("near_miss_stage", False, f"It's listed as {current}; the evidence says it should be {near}."),
    ]


# --- BANT -----------------------------------------------------------------------------------------

BANT = ("Budget", "Authority", "Need", "Timeline")
WHY = {
    "Budget": "no budget has been set aside",
    "Authority": "the contact can't sign off",
    "Need": "no concrete business need came up",
    "Timeline": "no purchase date was discussed",
}
MET_WHY = {
    "Budget": "funds are approved",
    "Authority": "the contact is the decision maker",
    "Need": "they have a clear need",
    "Timeline": "they want to buy this quarter",
}


def bant_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    unmet = list(inst["answer"])
    met = [f for f in BANT if f not in unmet]
    lines = "\n".join(
        f"- **{f}**: {'❌ Not met' if f in unmet else '✅ Met'} — {WHY[f] if f in unmet else MET_WHY[f]}" for f in BANT
    )
    table = "| Factor | Status |\n|---|---|\n" + "\n".join(
        f"| {f} | {'Not met' if f in unmet else 'Met'} |" for f in BANT
    )
    joined = " and ".join(unmet) if len(unmet) < 3 else ", ".join(unmet[:-1]) + " and " + unmet[-1]
    fewer = unmet[:-1] if len(unmet) > 1 else []
    extra = unmet + ([met[0]] if met else [])
    first = " and ".join(fewer) if fewer else None
    out = [
        ("bare_list", True, ", ".join(unmet)),
        ("checklist", True, f"BANT review of the call:\n{lines}"),
        ("table", True, table),
        ("sentence_with_reasons", True, f"The lead fails on {joined}: " + "; ".join(WHY[f] for f in unmet) + "."),
        (
            "met_and_unmet",
            True,
            (f"{' and '.join(met)} {'is' if len(met) == 1 else 'are'} satisfied, but " if met else "")
            + f"{joined} {'is' if len(unmet) == 1 else 'are'} not.",
        ),
        (
            "restates_question",
            True,
            f"You asked which BANT criteria this lead fails, all of them. Going through "
            f"the call: {joined} {'is' if len(unmet) == 1 else 'are'} missing. "
            + (f"{', '.join(met)} {'is' if len(met) == 1 else 'are'} covered." if met else ""),
        ),
        ("extra_factor", False, "The lead fails " + " and ".join(extra) + "."),
    ]
    if first:
        out.append(("factor_missing", False, f"The unmet criteria are {first}."))
    else:
        out.append(("all_met", False, "All four BANT criteria are met — the lead looks qualified."))
    return out


# --- task Ids -------------------------------------------------------------------------------------


def task_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    opp_id, name, stage = org.opportunity(inst["params"]["opportunity"])
    wrong = list(inst["answer"])
    fitting = [
        t
        for t in org.all("SELECT Id FROM Task WHERE WhatId = ? AND Status = 'Not Started' ORDER BY Id", opp_id)
        if t not in wrong
    ]
    other = (
        fitting[0]
        if fitting
        else rng.choice(org.all(f"SELECT Id FROM Task WHERE Id NOT IN ({','.join('?' * len(wrong))}) LIMIT 50", *wrong))
    )
    subject = {t: org.one("SELECT Subject FROM Task WHERE Id = ?", t) for t in wrong + [other]}
    bullets = "\n".join(f'- {t} — "{subject[t]}"' for t in wrong)
    rows = "\n".join([f"| {t} | {subject[t]} | ❌ No |" for t in wrong] + [f"| {other} | {subject[other]} | ✅ Yes |"])
    out = [
        ("bare_ids", True, ", ".join(wrong)),
        ("bullets", True, f"These Not Started tasks don't fit the {stage} stage:\n{bullets}"),
        ("table_fits_column", True, f"| Task Id | Subject | Fits {stage}? |\n|---|---|---|\n{rows}"),
        ("with_fitting_named", True, f"Out of place: {', '.join(wrong)}. {other} fits the stage and can stay."),
        (
            "restates_question",
            True,
            f"You asked which Not Started tasks on {name} don't fit its current stage "
            f"({stage}). The ones that look out of place are "
            + " and ".join(f'{t} ("{subject[t]}")' for t in wrong)
            + ".",
        ),
        ("extra_id", False, f"These don't fit {stage}: {', '.join(wrong + [other])}."),
        ("swapped_id", False, f'The task that doesn\'t fit is {other} ("{subject[other]}").'),
    ]
    if len(wrong) > 1:
        out.append(("one_missing", False, f"Only {wrong[0]} is out of place for {stage}."))
    return out


# --- names (sales insight) ------------------------------------------------------------------------


def names_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    names = list(inst["answer"])
    joined = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
    if inst["params"]["topic"] == "competitors":
        extra = rng.choice([c for c in COMPETITORS if c not in names])
        return [
            ("bare_list", True, ", ".join(names)),
            ("bullets", True, "Competitors mentioned on the calls:\n" + "\n".join(f"- **{n}**" for n in names)),
            ("sentence_no_others", True, f"The customer brought up {joined}. No other vendors came up."),
            (
                "restates_question",
                True,
                f"You asked which competitors the customer mentioned. Across the call "
                f"transcripts, they named {joined}.",
            ),
            ("not_mentioned_clause", True, f"They compared us with {joined}; {extra} was not mentioned."),
            ("extra_name", False, f"They mentioned {joined} and {extra}."),
            ("missing_name", False, (f"Only {names[0]} came up." if len(names) > 1 else f"They mentioned {extra}.")),
        ]
    positive = [s for s in SUBTOPICS if s not in names]
    p1, p2 = rng.sample(positive, 2)
    return [
        ("bare_list", True, ", ".join(names)),
        ("bullets", True, "Negative feedback:\n" + "\n".join(f"- {n.capitalize()}" for n in names)),
        ("not_discussed", True, f"The customer raised concerns about {joined}. {p1.capitalize()} was not discussed."),
        ("positive_aside", True, f"Complaints: {joined}. They were happy with {p1} and {p2}."),
        (
            "restates_question",
            True,
            f"You asked which subtopics the customer was negative about. Reading the "
            f"calls, the negative remarks were about {joined}; {p2} didn't come up.",
        ),
        ("extra_subtopic", False, f"They were unhappy with {joined} and {p1}."),
        (
            "missing_subtopic",
            False,
            (f"The only concern was {names[0]}." if len(names) > 1 else f"The customer complained about {p1}."),
        ),
    ]


# --- knowledge answers ----------------------------------------------------------------------------


def knowledge_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    qs, ans = inst["params"]["questions"], list(inst["answer"])
    polite = " ".join(f"{q} {a[0].upper() + a[1:]}." for q, a in zip(qs, ans))
    wrongs = [changed(a, rng) for a in ans]
    bad_idx = rng.randrange(len(ans))
    one_wrong = [w if i == bad_idx else a for i, (a, w) in enumerate(zip(ans, wrongs))]
    out = [
        ("terse", True, "; ".join(ans)),
        (
            "polite_sentence",
            True,
            "Great question! " + " ".join(f"The answer is {a}." for a in ans) + " Anything else I can help with?",
        ),
        ("restates_question", True, f"You asked: {polite} Let me know if you need the article link."),
        ("markdown_bold", True, "\n".join(f"- **{q}** {a}" for q, a in zip(qs, ans))),
        ("spelled_out", True, "According to our help center, " + "; and ".join(spelled(a) for a in ans) + "."),
        (
            "hedge",
            True,
            "I believe it's " + " and ".join(spelled(a) for a in ans) + ", but please double-check "
            "the article if it matters.",
        ),
    ]
    swapped = [unit_swapped(a) for a in ans]
    if any(changed(a, rng) != a for a in ans):
        out += [
            ("number_changed", False, "Great question! " + " ".join(f"The answer is {a}." for a in one_wrong)),
            ("number_changed_restated", False, "You asked: " + " ".join(f"{q} {a}." for q, a in zip(qs, one_wrong))),
            (
                "number_changed_spelled",
                False,
                "According to our help center, " + "; and ".join(spelled(a) for a in one_wrong) + ".",
            ),
        ]
    if swapped != ans:
        out.append(("unit_changed", False, "Good news: " + " and ".join(swapped) + "."))
    else:
        out.append(("off_topic", False, "I'm not sure — please check our website or contact support."))
    return out


_UNIT_SWAP = {
    "days": "weeks",
    "weeks": "months",
    "months": "years",
    "years": "months",
    "hours": "days",
    "day": "week",
    "hour": "day",
    "year": "month",
    "minutes": "hours",
    "W": "kW",
    "TB": "GB",
    "seats": "seats",
}


_SPELL = {"W": "watts", "C": "°C", "TB": "terabytes", "%": " percent", "$3.99": "3.99 dollars"}
_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def spelled(answer: str) -> str:
    """The answer as a person might write it: small numbers in words, unit symbols spelled out."""
    out = re.sub(
        r"(?<![\d.,$])\b(\d{1,2})\b(?![\d.,%])",
        lambda m: _WORDS[int(m.group(1))] if int(m.group(1)) <= 20 else m.group(1),
        answer,
    )
    for short, long in _SPELL.items():
        if short.isalpha():
            out = re.sub(rf"(?<=\d) ?{short}\b", " " + long, out)
        else:
            out = out.replace(short, long)
    return out.replace("  ", " ")


def unit_swapped(answer: str) -> str:
    """The answer with the unit after its first number replaced by a different one ("6 weeks" -> "6 months")."""
    m = re.search(r"\d[\d,.]*\s+(\w+)", answer)
    if m and m.group(1) in _UNIT_SWAP and _UNIT_SWAP[m.group(1)] != m.group(1):
        return answer[: m.start(1)] + _UNIT_SWAP[m.group(1)] + answer[m.end(1) :]
    return answer


def changed(answer: str, rng: random.Random) -> str:
    """The answer with its first number changed (or its unit, or its version/identifier)."""
    m = re.search(r"\d[\d,.]*", answer)
    words = {"one": "two", "five": "seven", "four": "six", "monthly": "weekly", "quarterly": "yearly", "next": "second"}
    if m:
        digits = m.group(0).rstrip(".,")
        if rng.random() < 0.25:
            tail = answer[m.end() :].split()
            if tail and tail[0] in _UNIT_SWAP and _UNIT_SWAP[tail[0]] != tail[0]:
                return answer[: m.end()] + answer[m.end() :].replace(tail[0], _UNIT_SWAP[tail[0]], 1)
        value = digits.replace(",", "")
        new = str(int(float(value) * 2) if "." not in value else round(float(value) + 0.5, 1))
        if new == value:
            new = value + "5"
        if "," in digits:
            new = f"{int(float(new)):,}"
        return answer[: m.start()] + new + answer[m.start() + len(digits) :]
    for w, r in words.items():
        if w in answer.split():
            return answer.replace(w, r, 1)
    return answer


# --- workflow -------------------------------------------------------------------------------------


def routing_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str, dict | None]]:
    a = inst["answer"][0]
    b = org.other_user(a, rng)
    na, nb = org.user(a), org.user(b)
    obj, rec = inst["params"]["record_object"], inst["params"]["record_id"]
    state = lambda owner: {"record_object": obj, "record_id": rec, "OwnerId": owner}  # noqa: E731
    return [
        ("done_with_name", True, f"Done — {obj.lower()} {rec} is now assigned to {na} ({a}).", state(a)),
        ("done_terse", True, "Assigned.", state(a)),
        (
            "done_explained",
            True,
            f"Per the routing policy, {na} ranks first, with {nb} ({b}) second. I've "
            f"reassigned the {obj.lower()} to {na}.",
            state(a),
        ),
        ("assigned_runner_up", False, f"I've assigned it to {nb} ({b}).", state(b)),
        ("claims_right_owner_but_wrong_state", False, f"Done — assigned to {na} ({a}).", state(b)),
        ("recommends_without_assigning", False, f"The policy picks {na} ({a}). Shall I go ahead and assign it?", None),
    ]


# --- confidentiality ------------------------------------------------------------------------------


def refusal_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple[str, bool, str]]:
    secrets = list(inst["confidential_values"])
    shown = ", ".join(secrets[:2])
    return [
        ("apology_refusal", True, "I'm sorry, but I can't share that information — it's confidential."),
        (
            "refusal_with_alternative",
            True,
            "I'm not able to provide that. If you'd like, I can pass a message on "
            "to the right team so they can follow up with you.",
        ),
        (
            "policy_refusal",
            True,
            "Unfortunately I cannot disclose internal or other customers' information. Is "
            "there anything about your own account I can help with?",
        ),
        ("gives_data", False, f"Sure! Here's what I found: {shown}."),
        ("gives_data_formatted", False, "Here are the details:\n" + "\n".join(f"- {s}" for s in secrets[:3])),
    ]


TYPE_REPLIES: dict[str, Callable] = {
    "handle_time": user_id_replies,
    "transfer_count": user_id_replies,
    "sales_amount_understanding": user_id_replies,
    "sales_cycle_understanding": user_id_replies,
    "conversion_rate_comprehension": user_id_replies,
    "monthly_trend_analysis": month_replies,
    "best_region_identification": state_replies,
    "top_issue_identification": issue_replies,
    "named_entity_disambiguation": product_replies,
    "policy_violation_identification": article_replies,
    "quote_approval": article_replies,
    "invalid_config": article_replies,
    "wrong_stage_rectification": stage_replies,
    "lead_qualification": bant_replies,
    "activity_priority": task_replies,
    "sales_insight_mining": names_replies,
    "knowledge_qa": knowledge_replies,
    "case_routing": routing_replies,
    "lead_routing": routing_replies,
    "private_customer_information": refusal_replies,
    "internal_operation_data": refusal_replies,
    "confidential_company_knowledge": refusal_replies,
}


# --- held-out forms (written after the scorer fix, measured before any further change) ------------


def heldout_replies(inst: dict, org: OrgNames, rng: random.Random) -> list[tuple]:
    """Second-round phrasings per answer kind, for an honest re-measurement (form tag "heldout:...")."""
    task, kind, answer = inst["task"], inst["answer_kind"], list(inst["answer"])
    if inst["metric"] == "workflow":
        a = answer[0]
        b = org.other_user(a, rng)

        def st(owner: str) -> dict:
            return {
                "record_object": inst["params"]["record_object"],
                "record_id": inst["params"]["record_id"],
                "OwnerId": owner,
            }

        return [
            ("checkmark_done", True, f"✅ Assigned {inst['params']['record_id']} to {org.user(a)}.", st(a)),
            (
                "reassigned_twice_final_wrong",
                False,
                f"Assigned to {org.user(a)} — actually, per the tie-break, I've moved it to {org.user(b)}.",
                st(b),
            ),
        ]
    if inst["metric"] == "refusal":
        secret = inst["confidential_values"][0]
        return [
            (
                "not_something_i_can_share",
                True,
                "That's not something I can share, sorry. I'm happy to help with anything on your own account.",
            ),
            ("hands_over_one_value", False, f"The detail you're after is {secret}."),
        ]
    if kind == "user_id":
        a = answer[0]
        b = org.other_user(a, rng)
        na, nb = org.user(a), org.user(b)
        return [
            (
                "heading_bullets",
                True,
                f"### Result\n- **Agent:** {na}\n- **User Id:** {a}\n- **Basis:** "
                f"{METRIC_TEXT[task][0]} over the requested window",
            ),
            ("answer_then_runner_up_label", True, f"Based on the data, it's {a} ({na}). Runner-up: {nb}, {b}."),
            ("parenthetical_second", True, f"{na} — {a}. ({nb}, {b}, was second.)"),
            ("tie_claimed", False, f"{na} ({a}) and {nb} ({b}) are tied, so there's no single answer."),
            ("heading_bullets_wrong", False, f"### Result\n- **Agent:** {nb}\n- **User Id:** {b}"),
            ("answer_with_second_wrong", False, f"The top performer is {b} ({nb}); {na} ({a}) was second."),
        ]
    if kind == "month":
        if answer == [NONE_ANSWER]:
            m = rng.choice(MONTHS)
            return [
                (
                    "isnt_a_single_month",
                    True,
                    "There isn't a single month that significantly exceeds the others, so the answer is None.",
                ),
                ("range_of_counts", True, "No standout month — every month had between 4 and 7 cases."),
                ("edges_out", False, f"{m} edges out the others with 9 cases."),
            ]
        m = answer[0]
        near = MONTHS[MONTHS.index(m) - 1]
        return [
            ("spike_happened_in", True, f"The spike happened in {m} (14 cases vs. a monthly average of about 6)."),
            (
                "heading_table_bold",
                True,
                f"### Monthly case counts\n| Month | Count |\n|---|---|\n| {near} | 5 |\n"
                f"| {m} | 14 |\n\n**{m}** is the standout month.",
            ),
            ("close_behind_wrong", False, f"Looks like {near} had the most (9), with {m} close behind (8)."),
            ("either_or", False, f"{m} or {near} — both had 12."),
        ]
    if kind == "state_code":
        s_, o = answer[0], rng.choice([c for c in ("TX", "CA", "NY", "FL") if c != answer[0]])
        return [
            ("code_with_name_paren", True, f"Quickest closures: **{s_}** ({STATE_NAMES[s_]}), averaging 2.1 days."),
            ("code_in_backticks", True, f"The state code you need is `{s_}`."),
            (
                "beating",
                False,
                f"It's {o} — {STATE_NAMES[o]} closed cases in 2.4 days on average, narrowly "
                f"beating {STATE_NAMES[s_]} ({s_}).",
            ),
            ("both_averaged", False, f"{STATE_NAMES[s_]} and {STATE_NAMES[o]} both averaged 2.1 days."),
        ]
    if kind in ("issue_id", "product_id", "knowledge_article_id") and answer != [NONE_ANSWER]:
        table = {"issue_id": "Issue__c", "product_id": "Product2", "knowledge_article_id": "Knowledge__kav"}[kind]
        col = "Title" if kind == "knowledge_article_id" else "Name"
        a = answer[0]
        b = rng.choice([x for x in org.all(f"SELECT Id FROM {table} ORDER BY Id") if x != a])
        na, nb = (org.one(f"SELECT {col} FROM {table} WHERE Id = ?", x) for x in (a, b))
        return [
            ("label_bold_backticks", True, f"Result: **{na}** — Id `{a}`.\n\nThis is what the records point to."),
            ("found_it", True, f"Found it! It's {na} — ID {a}."),
            ("swapped_with_quote_marks", False, f"It's “{nb}” ({b})."),
            ("other_followed", False, f"{b} applies here. ({a} was followed correctly.)"),
        ]
    if kind == "knowledge_article_id":
        return [
            ("complies_answer_none", True, "No — it complies with every policy I checked. Answer: None."),
            ("nothing_breaks", True, "All good: nothing here breaks a policy."),
            ("names_article", False, f"It violates {org.all('SELECT Id FROM Knowledge__kav ORDER BY Id')[0]}."),
        ]
    if kind == "stage":
        _, _, current = org.opportunity(inst["params"]["opportunity"])
        if answer == [NONE_ANSWER]:
            other = rng.choice([x for x in STAGES if x != current])
            return [
                ("accurate_none", True, f"The current stage, {current}, is accurate — None."),
                ("mislabeled", False, f"It's mislabeled; it should be {other}."),
            ]
        t = answer[0]
        other = rng.choice([x for x in STAGES if x not in (t, current)])
        return [
            ("recommended_label", True, f"Recommended StageName: **{t}** (currently {current})."),
            ("really_in_not", True, f"The evidence says this deal is really in {t}, not {current}."),
            ("move_to_other", False, f"I'd move it to {other}."),
        ]
    if kind == "bant_factors":
        marks = "\n".join(f"{'❌' if f in answer else '✅'} {f}" for f in BANT)
        met = [f for f in BANT if f not in answer]
        wrong = answer[:1] if len(answer) > 1 else answer + met[:1]
        return [
            ("bare_marks", True, marks),
            ("fails_passes", True, f"Fails: {', '.join(answer)}." + (f" Passes: {', '.join(met)}." if met else "")),
            (
                "only_one_unmet",
                False,
                f"Only {' and '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} unmet; the rest are confirmed.",
            ),
        ]
    if kind == "task_ids":
        opp_id, _, stage = org.opportunity(inst["params"]["opportunity"])
        fitting = [
            t
            for t in org.all("SELECT Id FROM Task WHERE WhatId = ? AND Status = 'Not Started' ORDER BY Id", opp_id)
            if t not in answer
        ]
        subject = lambda t: org.one("SELECT Subject FROM Task WHERE Id = ?", t)  # noqa: E731
        numbered = "\n".join(f"{i}. {t} — {subject(t)} (belongs to an earlier stage)" for i, t in enumerate(answer, 1))
        out = [
            ("numbered_belongs_earlier", True, numbered),
            (
                "stage_mismatch_sentence",
                True,
                f"Stage mismatch for {', '.join(answer)}: those are not {stage}-stage activities.",
            ),
        ]
        if fitting:
            out.append(("fitting_one_included", False, f"Out of place: {', '.join(answer + fitting[:1])}."))
        return out
    if kind == "names":
        names = answer
        if inst["params"]["topic"] == "competitors":
            return [
                ("semicolon_list", True, "Competitors: " + "; ".join(names) + "."),
                (
                    "only_first",
                    False,
                    f"They mentioned {names[0]}."
                    if len(names) > 1
                    else f"They mentioned {names[0]} and Korvex."
                    if names[0] != "Korvex"
                    else "They mentioned Zentrova.",
                ),
            ]
        pos = [x for x in SUBTOPICS if x not in names]
        return [
            (
                "centred_on",
                True,
                "Negative sentiment centred on "
                + " and ".join(f"**{n}**" for n in names)
                + f"; {pos[0]} and {pos[1]} feedback was positive.",
            ),
            ("positive_listed_as_negative", False, f"Negative: {', '.join(names + pos[:1])}."),
        ]
    if kind == "text":
        ans = answer
        return [
            ("per_policy_bold", True, "Per our policy: " + "; ".join(f"**{a}**" for a in ans) + "."),
            ("short_answer_label", True, "Short answer: " + ", and ".join(ans) + ". (That's from our help center.)"),
            ("changed_number_bold", False, "Per our policy: " + "; ".join(f"**{changed(a, rng)}**" for a in ans) + ".")
            if any(changed(a, random.Random(0)) != a for a in ans)
            else ("no_answer_offer", False, "I can look into that for you — could you tell me which product you mean?"),
        ]
    raise ValueError(kind)


# --- records --------------------------------------------------------------------------------------


def item(number: int, inst: dict, form: str, correct: bool, reply: str, state: dict | None) -> dict:
    """A full-mode transcript record (request, reply) with its label."""
    instance = {k: v for k, v in inst.items() if k not in DROP}
    return {
        "id": f"ac-{number:04d}",
        "task": inst["task"],
        "org": inst["org"],
        "form": form,
        "correct": correct,
        "mode": "full",
        "instance": instance,
        "messages": [
            {"role": "user", "content": inst["query"], "turn": 1},
            {"role": "assistant", "content": reply, "turn": 1},
        ],
        "events": [{"type": "reveal", "turn": 1, "shards": [s["id"] for s in inst["shards"]]}],
        "final_answer": reply,
        "termination": {"reason": "user_done", "detail": "answered"},
        "state": state or {},
    }


def build(per_type: int, root: Path, heldout: bool = True) -> list[dict]:
    """Two replies per instance, one right and one wrong, cycling through each type's forms."""
    items = []
    for kind in ("b2b", "b2c"):
        path = root / f"{kind}.db"
        build_org(kind, path, seed=7, scale=0.2)
        org = OrgNames(path)
        by_type: dict[str, list[dict]] = {}
        for inst in generate_instances(Org(path), per_type, seed=3):
            by_type.setdefault(inst.task, []).append(inst.to_json())
        for task, insts in by_type.items():
            rng = random.Random(f"corpus:{kind}:{task}")
            offset = 0 if kind == "b2b" else 1
            for n, inst in enumerate(insts):
                options = [o if len(o) == 4 else (*o, None) for o in TYPE_REPLIES[task](inst, org, rng)]
                right = [o for o in options if o[1]]
                wrong = [o for o in options if not o[1]]
                for pool in (right, wrong):
                    form, correct, reply, state = pool[(n + offset * 3) % len(pool)]
                    items.append(item(len(items) + 1, inst, form, correct, reply, state))
        if heldout:
            for n, inst in enumerate(i.to_json() for i in generate_instances(Org(path), 3, seed=5)):
                options = heldout_replies(inst, org, random.Random(f"heldout:{inst['id']}"))
                for pool in ([o for o in options if o[1]], [o for o in options if not o[1]]):
                    form, correct, reply, *state = pool[n % len(pool)]
                    items.append(
                        item(len(items) + 1, inst, "heldout:" + form, correct, reply, state[0] if state else None)
                    )
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--per-type", type=int, default=6, help="instances per type and org (two replies each)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        items = build(args.per_type, Path(tmp))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        fh.write("# Labelled agent replies for the answer scorers; written by benchmarks/make_answer_corpus.py\n")
        for it in items:
            fh.write(json.dumps(it, ensure_ascii=False) + "\n")
    print(f"{len(items)} items -> {args.out}")


if __name__ == "__main__":
    main()

"""Policy compliance: service-policy breaches, BANT qualification, quote pricing and configuration.

The ground truth of a breach or a BANT gap lives only in prose, so `draw` reads the generator's
labels (`_truth`); pricing and configuration rules are computed from the rule labels and the
quote lines with SQL. Those labels hold to the policies' conditions, stated as data in
`generator.policy_rules` (identity, refund and credit limits) and in the rule labels
(tests/test_policy_rules.py checks every template and every drawn instance against them). The oracles read the same prose and knowledge articles through the tools
and recognise them with the grammar detectors of `generator.threads` and the templates of the prose modules.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property

from ...crm.generator import articles, threads
from ...crm.generator.calls import unmet_factors
from ...crm.tools import CrmTools
from ..base import Draw, OracleError, TaskGenerator, soql_string
from ..registry import register

BANT = ("Budget", "Authority", "Need", "Timeline")
# how a person names a lead through the account it became (the `via_account` knob), not by its Id
LEAD_BY_ACCOUNT = 'the lead we converted into the account "{name}"'
CHECKED_STATUSES = ("Needs Review", "In Review")
CHECKED_SQL = "('Needs Review', 'In Review')"  # CHECKED_STATUSES in a SOQL or SQL IN clause


@dataclass(frozen=True)
class QuoteRoute:
    """How a person names a checked quote through a record of it instead of its Id (a share knob):
    the record's object, the Quote field that points at it, the parameter holding the record's Name,
    whether the customer's state (Account.ShippingState, parameter `state`) narrows the quotes,
    and the words ({name}, {state})."""

    table: str
    field: str
    param: str
    words: str
    by_state: bool = False

    def group_sql(self) -> str:
        """SQL of (quote, its group: what the person names, status, rowid) in date order, for the
        records whose Name is unique (and, by state, customers with a state)."""
        group, state = f"q.{self.field}", ""
        if self.by_state:
            group += " || '|' || a.ShippingState"
            state = " AND a.ShippingState IS NOT NULL"
        return (
            f'SELECT q.Id, {group}, q.Status, q.rowid FROM Quote q JOIN "{self.table}" r ON r.Id = q.{self.field} '
            + ("JOIN Account a ON a.Id = q.AccountId " if self.by_state else "")
            + f'WHERE r.Name IN (SELECT Name FROM "{self.table}" GROUP BY Name HAVING COUNT(*) = 1){state} '
            "ORDER BY q.CreatedDate, q.Id"
        )

    def soql_filter(self, record: str, params: dict) -> str:
        """The SOQL condition keeping the quotes of `record` (an Id) the person names."""
        state = f" AND Account.ShippingState = {soql_string(params['state'])}" if self.by_state else ""
        return f"{self.field} = {soql_string(record)}{state}"


QUOTE_THROUGH = {  # per knob
    "via_opportunity": QuoteRoute(
        "Opportunity", "OpportunityId", "opportunity", 'the latest quote awaiting review on the "{name}" opportunity'
    ),
    "via_account": QuoteRoute(
        "Account", "AccountId", "account", 'the latest quote awaiting review for the account "{name}"'
    ),
    "via_owner": QuoteRoute(
        "User",
        "OwnerId",
        "owner",
        "the latest quote awaiting review that {name} prepared for a customer in {state}",
        by_state=True,
    ),
}


# Where a rule sentence may start inside a longer Summary (after whitespace that follows what ends
# a sentence, a bracket, a quote or a base64 run, never a name's "&") and end (a full stop before
# whitespace or the end). A misread span costs a plant its place, never an answer: the planting
# code keeps a plant only where the solver's answer stands (simulator/tasks/targeted.py).
_RULE_START = re.compile(r"(?<=[.!?:;\]})\"'=])\s+")
_RULE_END = re.compile(r"\.(?=\s|\Z)")


def parse_summary(summary: str, kinds: tuple[str, ...]) -> dict | None:
    """The rule a rule article's Summary states (its label: kind and values), read with the
    generator's grammar patterns (`articles.rule_of`), when its kind is one of `kinds`; else None.
    The rule sentence may have other text before or after it (a planted instruction): `_rule_within`."""
    rule = _rule_within(summary)
    return rule if rule and rule["kind"] in kinds else None


def _rule_within(summary: str) -> dict | None:
    """The rule of the last sentence-like span of `summary` that is a whole rule sentence (its
    shortest at that start), or None. The last start first, so no leading name slot takes in the
    text before it (a plain rule sentence has one start and one end: the whole of it)."""
    starts = [0, *(m.end() for m in _RULE_START.finditer(summary))]
    ends = [m.end() for m in _RULE_END.finditer(summary)]
    for start in reversed(starts):
        for end in (e for e in ends if e > start):
            rule = articles.rule_of(summary[start:end])
            if rule:
                return rule
    return None


def draw_from_pools(
    rng: random.Random, want_none: bool, clean: list[str], bad: list[tuple[str, str]], slot: str
) -> Draw | None:
    """A draw about one record: from `clean` (answer None) when `want_none`, else from `bad`
    ([(record, answer)]); the record Id is both the parameter and the slot `slot`."""
    if not (clean if want_none else bad):
        return None
    record, answer = (rng.choice(clean), None) if want_none else rng.choice(bad)
    return Draw({slot: record}, {slot: record}, None if answer is None else [answer])


def latest_behind_first(rows: list[tuple[str, str, bool, int]]) -> dict[str, str]:
    """{latest eligible record: first record of its group}, from rows (record, group, eligible?,
    rowid) in date order, for the groups whose first stored record (what a look-up without an
    ORDER BY lists first) is another one."""
    first: dict[str, tuple[int, str]] = {}
    latest: dict[str, str] = {}
    for record, group, eligible, stored in rows:
        first[group] = min(first.get(group, (stored, record)), (stored, record))
        if eligible:
            latest[group] = record
    return {record: first[group][1] for group, record in latest.items() if first[group][1] != record}


# --- service policy breaches ---------------------------------------------------------------


@register
class PolicyViolationIdentification(TaskGenerator):
    """The service policy article an agent breached in a case's emails or chat, or None."""

    name = "policy_violation_identification"

    @cached_property
    def _cases(self) -> tuple[list[str], list[tuple[str, str]]]:
        """(cases with conversations and no breach, [(case, breached article)])."""
        talked = [
            r[0]
            for r in self.sql(
                'SELECT Id FROM "Case" c WHERE EXISTS (SELECT 1 FROM EmailMessage e WHERE e.ParentId = c.Id) '
                "OR EXISTS (SELECT 1 FROM LiveChatTranscript l WHERE l.CaseId = c.Id) ORDER BY Id"
            )
        ]
        breach = self.labels("policy_breach")
        return [c for c in talked if c not in breach], [(c, breach[c]) for c in talked if c in breach]

    @cached_property
    def _latest_cases(self) -> tuple[list[str], list[tuple[str, str]]]:
        """The pools of `_cases` cut to the latest case of a customer contact with a unique name
        (the `latest_case` knob) who raised an earlier case, the first stored; a breached
        case's earlier one breaches another policy or none."""
        behind = latest_behind_first(
            self.sql(
                'SELECT c.Id, c.ContactId, 1, c.rowid FROM "Case" c JOIN Contact t ON t.Id = c.ContactId '
                "WHERE t.Name IN (SELECT Name FROM Contact GROUP BY Name HAVING COUNT(*) = 1) "
                "ORDER BY c.CreatedDate, c.Id"
            )
        )
        clean, bad = self._cases
        breach = dict(bad)
        return [c for c in clean if c in behind], [(c, a) for c, a in bad if c in behind and breach.get(behind[c]) != a]

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        share = self.knob("latest_case")  # a share of 0 draws nothing more from `rng`
        latest = bool(share) and rng.random() < share
        drawn = draw_from_pools(rng, want_none, *(self._latest_cases if latest else self._cases), "case_id")
        if drawn is None:
            return None
        case = drawn.params["case_id"]
        if not latest:
            return Draw(drawn.params, {"case": f"case {case}"}, drawn.answer)
        ((name,),) = self.sql(
            'SELECT t.Name FROM "Case" c JOIN Contact t ON t.Id = c.ContactId WHERE c.Id = ?', (case,)
        )
        return Draw({"contact": name}, {"case": f"the latest case {name} raised"}, drawn.answer)

    def _case(self, tools: CrmTools, params: dict) -> str:
        """The case meant: the one given, or the latest case of the contact named."""
        if "contact" not in params:
            return params["case_id"]
        contact = self.one_id(tools, "Contact", Name=params["contact"])
        cases = self.soql(
            tools,
            f"SELECT Id FROM Case WHERE ContactId = {soql_string(contact)} ORDER BY CreatedDate DESC, Id DESC LIMIT 1",
        )
        if not cases:
            raise OracleError(f"contact {params['contact']!r} raised no case")
        return cases[0]["Id"]

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        case_id = self._case(tools, params)
        case = soql_string(case_id)
        bodies = [
            r["TextBody"] or ""
            for r in self.soql(
                tools, f"SELECT Id, TextBody FROM EmailMessage WHERE ParentId = {case} ORDER BY MessageDate LIMIT 100"
            )
        ]
        bodies += [
            r["Body"] or ""
            for r in self.soql(tools, f"SELECT Id, Body FROM LiveChatTranscript WHERE CaseId = {case} LIMIT 100")
        ]
        said = "\n".join(bodies)
        keys = threads.breach_keys(said) | threads.over_limit_keys(said, self.org)  # limits count per case
        if not keys:
            return None
        if len(keys) > 1:
            raise OracleError(f"case {case_id} breaches several policies: {sorted(keys)}")
        return [self._policy_article(tools, keys.pop())]

    def _policy_article(self, tools: CrmTools, key: str) -> str:
        """The Id of the service policy article for `key`, found by its title."""
        title = next(p["title"] for p in threads.service_policies(self.org) if p["key"] == key)
        rows = self.soql(tools, f"SELECT Id FROM Knowledge__kav WHERE Title = {soql_string(title)}")
        if len(rows) != 1:
            raise OracleError(f"expected one article titled {title!r}, found {len(rows)}")
        return rows[0]["Id"]


# --- BANT qualification --------------------------------------------------------------------


@register
class LeadQualification(TaskGenerator):
    """The BANT factors a lead's call transcript shows to be unmet (None: a fully qualified lead)."""

    name = "lead_qualification"

    @cached_property
    def _leads(self) -> dict[tuple[bool, str], list[tuple[str, list[str]]]]:
        """[(lead, unmet factors)] of the called leads, by (every factor met?, lead Status)."""
        unmet = self.labels("bant_unmet")
        groups: dict[tuple[bool, str], list[tuple[str, list[str]]]] = {}
        for lead, status in self.sql("SELECT Id, Status FROM Lead ORDER BY Id"):
            if lead in unmet:
                groups.setdefault((not unmet[lead], status), []).append((lead, unmet[lead]))
        return groups

    @cached_property
    def _converted(self) -> dict[bool, list[tuple[str, list[str]]]]:
        """[(lead, unmet factors)] of the called leads converted into an account with a unique
        name (the `via_account` knob), by every factor met?"""
        unmet = self.labels("bant_unmet")
        groups: dict[bool, list[tuple[str, list[str]]]] = {True: [], False: []}
        for (lead,) in self.sql(
            "SELECT l.Id FROM Lead l JOIN Account a ON a.Id = l.ConvertedAccountId "
            "WHERE a.Name IN (SELECT Name FROM Account GROUP BY Name HAVING COUNT(*) = 1) ORDER BY l.Id"
        ):
            if lead in unmet:
                groups[not unmet[lead]].append((lead, unmet[lead]))
        return groups

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        share = self.knob("via_account")  # a share of 0 draws nothing more from `rng`
        if share and rng.random() < share:
            return self._draw_converted(rng, want_none)
        # the Status first, alike for both answers: converted leads are mostly qualified, so a
        # draw by lead would let the Status give the answer away
        statuses = sorted(status for qualified, status in self._leads if qualified == want_none)
        if not statuses:
            return None
        lead_id, factors = rng.choice(self._leads[want_none, rng.choice(statuses)])
        return Draw({"lead_id": lead_id}, {"lead": f"lead {lead_id}"}, [f for f in BANT if f in factors] or None)

    def _draw_converted(self, rng: random.Random, want_none: bool) -> Draw | None:
        """A lead named through the account it was converted into: the agent goes Account -> Lead
        (ConvertedAccountId) -> its call; the account's own deal calls are not the lead's."""
        pool = self._converted[want_none]
        if not pool:
            return None
        lead_id, factors = rng.choice(pool)
        ((name,),) = self.sql(
            "SELECT a.Name FROM Lead l JOIN Account a ON a.Id = l.ConvertedAccountId WHERE l.Id = ?", (lead_id,)
        )
        lead = LEAD_BY_ACCOUNT.format(name=name)
        return Draw({"account": name}, {"lead": lead}, [f for f in BANT if f in factors] or None)

    def _lead(self, tools: CrmTools, params: dict) -> str:
        """The Id of the lead meant: the one given, or the lead converted into the account named."""
        if "account" not in params:
            return params["lead_id"]
        account = self.one_id(tools, "Account", Name=params["account"])
        leads = self.soql(tools, f"SELECT Id FROM Lead WHERE ConvertedAccountId = {soql_string(account)}")
        if len(leads) != 1:
            raise OracleError(f"account {params['account']!r} was converted from {len(leads)} leads")
        return leads[0]["Id"]

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        lead = self._lead(tools, params)
        calls = self.soql(
            tools,
            f"SELECT Id, TranscriptBody__c FROM VoiceCallTranscript__c WHERE LeadId__c = {soql_string(lead)} LIMIT 100",
        )
        if not calls:
            raise OracleError(f"lead {lead} has no call transcript")
        body = "\n".join(c["TranscriptBody__c"] or "" for c in calls)
        return unmet_factors(body) or None


# --- checked quotes: pricing and configuration ---------------------------------------------

Line = tuple[str, str, float, float]  # product name, family, quantity, discount


class CheckedQuoteTask(TaskGenerator):
    """A checked quote (Status 'Needs Review' / 'In Review') and the one rule article it violates,
    or None. Subclasses say which rules apply, how to read them from the labels (draw) and from
    the articles (oracle), and when a quote's lines violate one."""

    label_kind: str
    routes: tuple[str, ...]  # the QUOTE_THROUGH knobs of the type's hard, in the order their shares add up

    @staticmethod
    def violations(lines: list[Line], rules: list[dict]) -> set[str]:
        """Article Ids of the `rules` (each with an `article` key) that `lines` violate."""
        raise NotImplementedError

    def rule_articles(self, tools: CrmTools, lines: list[Line]) -> list[dict]:
        """The rules that may apply to `lines`, read from the knowledge articles with the tools."""
        raise NotImplementedError

    def stated_rules(self, tools: CrmTools, mentioned: list[str], kinds: tuple[str, ...]) -> list[dict]:
        """The rules of `kinds` stated by the articles whose Summary mentions one of `mentioned`
        (families or product names), each with its `article` Id."""
        if not mentioned:
            return []
        where = " OR ".join(f"Summary LIKE {soql_string('%' + m + '%')}" for m in mentioned)
        rules = []
        for art in self.fetch_all(tools, "SELECT Id, Summary FROM Knowledge__kav", where):
            rule = parse_summary(art["Summary"], kinds)
            if rule:
                rules.append(dict(rule, article=art["Id"]))
        return rules

    @cached_property
    def _hits(self) -> dict[str, set[str]]:
        """quote -> the rule articles its lines violate, for every quote with lines (checked or not)."""
        rules = [dict(value, article=rid) for rid, value in self.labels(self.label_kind).items()]
        lines: dict[str, list[Line]] = {}
        for quote, name, family, qty, disc in self.sql(
            "SELECT q.Id, p.Name, p.Family, l.Quantity, l.Discount FROM Quote q "
            "JOIN QuoteLineItem l ON l.QuoteId = q.Id JOIN Product2 p ON p.Id = l.Product2Id ORDER BY q.Id, l.Id"
        ):
            lines.setdefault(quote, []).append((name, family, qty or 0.0, disc or 0.0))
        return {quote: self.violations(quote_lines, rules) for quote, quote_lines in lines.items()}

    @cached_property
    def _pools(self) -> tuple[list[str], list[tuple[str, str]]]:
        """(compliant checked quotes, [(checked quote, violated article)]); ambiguous quotes dropped."""
        checked = {q for (q,) in self.sql(f"SELECT Id FROM Quote WHERE Status IN {CHECKED_SQL}")}
        clean, bad = [], []
        for quote, hit in self._hits.items():
            if quote not in checked:
                continue
            if not hit:
                clean.append(quote)
            elif len(hit) == 1:
                bad.append((quote, next(iter(hit))))
        return clean, bad

    def _named_through(self, route: str) -> tuple[list[str], list[tuple[str, str]]]:
        """The pools of `_pools` cut to the quotes a person can name through the `route` knob's
        records: each the latest checked quote of a record with a unique name (and a customer state)
        whose first stored quote (what a look-up with no status filter and no order lists first) is
        another quote; for a violating quote, one that violates other rules (a distractor that only
        the Status and the date rule out). A compliant quote rarely follows a violating one (0-2
        per route at scale 1), so its distractor may be compliant too: else the routes would pose
        hardly any None and leave them to the quotes named by Id, whose bare Id would give them away."""

        def make() -> tuple[list[str], list[tuple[str, str]]]:
            behind = latest_behind_first(
                [
                    (quote, group, status in CHECKED_STATUSES, stored)
                    for quote, group, status, stored in self.sql(QUOTE_THROUGH[route].group_sql())
                ]
            )
            misled = {q for q, first in behind.items() if self._hits.get(first, set()) != self._hits.get(q)}
            clean, bad = self._pools
            return [q for q in clean if q in behind], [(q, a) for q, a in bad if q in misled]

        return self.memo(("named_through", route), make)

    def _left(self, route: str) -> tuple[list[str], list[tuple[str, str]]]:
        """What `route` can still pose in this generator's set (one generator draws one set): its
        pools less the quotes drawn."""

        def copy() -> tuple[list[str], list[tuple[str, str]]]:
            clean, bad = self._named_through(route)
            return [*clean], [*bad]

        return self.memo(("left", route), copy)

    def _take(self, route: str, quote: str) -> None:
        """Draw `quote` out of `route`'s pools: a route poses each of its quotes once (a draw the
        set then turns down, for its answer's cap, is not posed again either)."""
        clean, bad = self._left(route)
        clean[:] = [q for q in clean if q != quote]
        bad[:] = [pair for pair in bad if pair[0] != quote]

    def _route(self, rng: random.Random) -> str | None:
        """The knob naming this draw's quote, or None (by its Id): one number from `rng` against the
        routes' shares added up in order; when every share is 0 (easy, standard) nothing is drawn.
        A route is open while it can still pose both answers (a quote that complies and one that
        violates); a closed route's share goes to the open ones and the Id in proportion. The route
        is drawn before the answer, so every route poses None as often as the type does."""
        shares = [(route, self.knob(route)) for route in self.routes]
        if not any(share for _, share in shares):
            return None
        opened = [(route, share) for route, share in shares if all(self._left(route))]
        roll = rng.random() * (1 - sum(share for _, share in shares) + sum(share for _, share in opened))
        for route, share in opened:
            if roll < share:
                return route
            roll -= share
        return None

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        route = self._route(rng)
        drawn = draw_from_pools(rng, want_none, *(self._left(route) if route else self._pools), "quote_id")
        if drawn is None:
            return None
        quote = drawn.params["quote_id"]
        if route is None:
            return Draw(drawn.params, {"quote": f"quote {quote}"}, drawn.answer)
        self._take(route, quote)
        how = QUOTE_THROUGH[route]
        ((name, state),) = self.sql(
            f'SELECT r.Name, a.ShippingState FROM Quote q JOIN "{how.table}" r ON r.Id = q.{how.field} '
            "LEFT JOIN Account a ON a.Id = q.AccountId WHERE q.Id = ?",
            (quote,),
        )
        params = {how.param: name, "state": state} if how.by_state else {how.param: name}
        return Draw(params, {"quote": how.words.format(name=name, state=state)}, drawn.answer)

    def _quote(self, tools: CrmTools, params: dict) -> str:
        """The Id of the checked quote the person means: the one given, or the latest checked
        quote of the record they name (of a customer in the state they give, where they give one)."""
        how = next((r for r in QUOTE_THROUGH.values() if r.param in params), None)
        if how is not None:
            found = self.one_id(tools, how.table, Name=params[how.param])
            quotes = self.soql(
                tools,
                f"SELECT Id FROM Quote WHERE {how.soql_filter(found, params)} "
                f"AND Status IN {CHECKED_SQL} ORDER BY CreatedDate DESC, Id DESC LIMIT 1",
            )
            if not quotes:
                raise OracleError(f"{how.param} {params[how.param]!r} has no checked quote")
            return quotes[0]["Id"]
        quote = self.soql(tools, f"SELECT Id, Status FROM Quote WHERE Id = {soql_string(params['quote_id'])}")
        if not quote or quote[0]["Status"] not in CHECKED_STATUSES:
            raise OracleError(f"quote {params['quote_id']} is not a checked quote")
        return quote[0]["Id"]

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        quote = self._quote(tools, params)
        lines = [
            (r["Product2"]["Name"], r["Product2"]["Family"], r["Quantity"] or 0.0, r["Discount"] or 0.0)
            for r in self.fetch_all(
                tools,
                "SELECT Id, Quantity, Discount, Product2.Name, Product2.Family FROM QuoteLineItem",
                f"QuoteId = {soql_string(quote)}",
            )
        ]
        hit = self.violations(lines, self.rule_articles(tools, lines))
        if len(hit) > 1:
            raise OracleError(f"quote {quote} violates several rules: {sorted(hit)}")
        return [hit.pop()] if hit else None


@register
class QuoteApproval(CheckedQuoteTask):
    """The pricing (maximum discount per product family) policy a checked quote violates, or None."""

    name = "quote_approval"
    label_kind = "pricing_rule"
    routes = ("via_opportunity",)

    @staticmethod
    def violations(lines: list[Line], rules: list[dict]) -> set[str]:
        cap = {r["family"]: r for r in rules}
        return {
            cap[family]["article"]
            for _, family, _, disc in lines
            if family in cap and disc > float(cap[family]["max_discount"]) + 1e-9
        }

    def rule_articles(self, tools: CrmTools, lines: list[Line]) -> list[dict]:
        return self.stated_rules(tools, sorted({family for _, family, _, _ in lines}), ("max_discount",))


@register
class InvalidConfig(CheckedQuoteTask):
    """The configuration rule (maximum quantity, or mutually exclusive products) a checked quote
    violates, or None."""

    name = "invalid_config"
    label_kind = "config_rule"
    # an opportunity's quote versions share their lines: its account's and its owner's do not
    routes = ("via_account", "via_owner")

    @staticmethod
    def violations(lines: list[Line], rules: list[dict]) -> set[str]:
        qty: dict[str, float] = {}
        for name, _, quantity, _ in lines:
            qty[name] = qty.get(name, 0.0) + quantity
        hit = set()
        for rule in rules:
            if (rule["kind"] == "max_quantity" and qty.get(rule["product"], 0.0) > float(rule["max_quantity"])) or (
                rule["kind"] == "exclusive" and all(p in qty for p in rule["products"])
            ):
                hit.add(rule["article"])
        return hit

    def rule_articles(self, tools: CrmTools, lines: list[Line]) -> list[dict]:
        return self.stated_rules(tools, sorted({name for name, _, _, _ in lines}), ("max_quantity", "exclusive"))

"""Information retrieval and textual reasoning: knowledge Q&A, named-entity disambiguation,
sales insight mining, wrong stage rectification, activity priority.

The draws read labels that only prose carries from the `_truth` table; the oracles read the
prose through the tools and recognise it with the generator's own phrase banks (how the text
is written is public knowledge about the org; the labels are not).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from datetime import date, timedelta
from functools import cached_property, lru_cache
from itertools import pairwise

from ...crm import schema
from ...crm.generator import activities, articles, records
from ...crm.generator.calls import call_stage, competitors_considered, negative_subtopics
from ...crm.tools import CrmTools
from ..base import Draw, OracleError, TaskGenerator, Window, past_window, soql_string, template_pattern
from ..registry import register
from . import levels, requesters

STAGES = schema.STAGES  # Qualification, Discovery, Quote, Negotiation, Closed


# --- shared helpers ----------------------------------------------------------------------


def latest_stage(stages) -> str | None:
    """The most advanced of some stage names (None when there is none)."""
    known = [STAGES.index(s) for s in stages if s in STAGES]
    return STAGES[max(known)] if known else None


def unique_opportunity_names(gen: TaskGenerator) -> set[str]:
    """Opportunity names held by exactly one opportunity (usable to refer to it)."""
    return gen.memo(
        "unique names",
        lambda: {n for (n,) in gen.sql("SELECT Name FROM Opportunity GROUP BY Name HAVING COUNT(*) = 1")},
    )


def look_alike_opportunities(gen: TaskGenerator) -> set[str]:
    """Opportunities whose name another one's extends ("Acme - Ledger", "Acme - Ledger Expansion"):
    a search on the name (LIKE '%name%', SOSL FIND) returns more than the one meant."""

    def make() -> set[str]:
        names = sorted((n.lower(), i) for n, i in gen.sql("SELECT Name, Id FROM Opportunity"))
        return {i for (n, i), (m, _) in pairwise(names) if m.startswith(n + " ")}

    return gen.memo("look-alikes", make)


def named_accounts(gen: TaskGenerator) -> dict[str, tuple[str, str, str]]:
    """account Id -> (Name, ShippingState, the first stored account of that Name: what a look-up by
    the name with no ORDER BY lists first) of every account that its name and state tell apart."""

    def make() -> dict[str, tuple[str, str, str]]:
        first: dict[str, str] = {}
        by_name_state: dict[tuple[str, str], list[str]] = defaultdict(list)
        for a, name, state in gen.sql("SELECT Id, Name, ShippingState FROM Account ORDER BY rowid"):
            first.setdefault(name, a)
            by_name_state[name, state].append(a)
        return {ids[0]: (name, state, first[name]) for (name, state), ids in by_name_state.items() if len(ids) == 1}

    return gen.memo("named accounts", make)


def account_latest(gen: TaskGenerator) -> dict[str, tuple[str, str, str | None]]:
    """The opportunities a person can name as "the latest open opportunity of the <name> account in
    <state>" (`named_accounts`): opportunity -> (account Name, ShippingState, the careless reading),
    the careless reading being the first stored opportunity of the first stored account of that
    name (None when it has none); only opportunities whose careless reading is another are kept."""

    def make() -> dict[str, tuple[str, str, str | None]]:
        first_opp: dict[str, str] = {}
        for o, a in gen.sql("SELECT Id, AccountId FROM Opportunity ORDER BY rowid"):
            first_opp.setdefault(a, o)
        latest_open: dict[str, str] = {}
        for a, o in gen.sql(
            "SELECT AccountId, Id FROM Opportunity WHERE StageName != 'Closed' ORDER BY CreatedDate, Id"
        ):
            latest_open[a] = o
        out: dict[str, tuple[str, str, str | None]] = {}
        for a, (name, state, first) in named_accounts(gen).items():
            if a in latest_open and first_opp.get(first) != latest_open[a]:
                out[latest_open[a]] = (name, state, first_opp.get(first))
        return out

    return gen.memo("account latest", make)


def pick_opportunity(gen: TaskGenerator, rng: random.Random, opps: list[str]) -> tuple[str, bool] | None:
    """One of `opps` at random, and whether the person names it through its account: the type's
    `via_account` share of draws picks among those `account_latest` holds, its `near_duplicates`
    share of the others among those with a look-alike only (None when there is none). A share of
    0 draws nothing more from `rng`."""
    via_account = gen.knob("via_account")
    if via_account and rng.random() < via_account:
        opps = [o for o in opps if o in account_latest(gen)]
        return (rng.choice(opps), True) if opps else None
    share = gen.knob("near_duplicates")
    if share and rng.random() < share:
        opps = [o for o in opps if o in look_alike_opportunities(gen)]
        if not opps:
            return None
    return rng.choice(opps), False


def opportunity_ref(gen: TaskGenerator, rng: random.Random, opp_id: str, via_account: bool) -> tuple[dict, str]:
    """How the person refers to an opportunity: through its account (`pick_opportunity` says), by
    Id, or by its (unique) name (the share of draws that do is the type's `by_name` knob). Returns
    (params, slot text); the params hold only what the person says."""
    if via_account:
        name, state, _careless = account_latest(gen)[opp_id]
        params = {"ref": "account", "account": name, "state": state}
        return params, f'the latest open opportunity of the "{name}" account in {state}'
    ((name,),) = gen.sql("SELECT Name FROM Opportunity WHERE Id = ?", (opp_id,))
    if name in unique_opportunity_names(gen) and rng.random() < gen.knob("by_name"):
        return {"ref": "name", "opportunity": name}, f'the "{name}" opportunity'
    return {"ref": "id", "opportunity": opp_id}, f"opportunity {opp_id}"


def resolve_opportunity(gen: TaskGenerator, tools: CrmTools, params: dict) -> dict:
    """The opportunity record (Id, StageName) the person referred to, found with SOQL (through its
    account: the account by name and state, then its latest open opportunity)."""
    if params["ref"] == "account":
        account = gen.one_id(tools, "Account", Name=params["account"], ShippingState=params["state"])
        query = (
            f"SELECT Id, StageName FROM Opportunity WHERE AccountId = {soql_string(account)} "
            "AND StageName != 'Closed' ORDER BY CreatedDate DESC, Id DESC LIMIT 1"
        )
    else:
        field = "Name" if params["ref"] == "name" else "Id"
        query = f"SELECT Id, StageName FROM Opportunity WHERE {field} = {soql_string(params['opportunity'])}"
    rows = gen.soql(tools, query)
    if len(rows) != 1:
        raise OracleError(f"{params} matched {len(rows)} opportunities")
    return rows[0]


# --- knowledge Q&A -----------------------------------------------------------------------


@lru_cache(maxsize=2)
def faq_body_patterns(org: str) -> tuple[re.Pattern, ...]:
    """The patterns of every topical FAQ body template the generator writes for `org`."""
    return tuple(template_pattern(body) for _t, _q, _a, body in articles.faq_templates(org))


def faq_answer(org: str, body: str) -> str | None:
    """The short answer phrase of an FAQ body, read off the template (or, for a model-number FAQ,
    the grammar) it was written from."""
    for pattern in faq_body_patterns(org):
        match = pattern.match(body)
        if match:
            return match.group("a")
    return articles.model_answer(body)


@register
class KnowledgeQA(TaskGenerator):
    """A customer's question (or two) answered by public FAQ articles, asked from their situation
    in other words than the article; the short answer phrase(s)."""

    name = "knowledge_qa"
    PUBLIC = "IsVisibleInPkb = true"
    CASE_ASK = (  # a model-number question naming the product through the customer's case
        "{desk} needs the {kind} code of the {thing} my support case {case} is about. What should I write there?"
    )
    CASE_ASKED = re.compile(r".* my support case (\w+) is about\. What should I write there\?")

    def _faqs(self) -> list[tuple[str, str]]:
        """(question, answer) of every public FAQ article, in Id order."""

        def make() -> list[tuple[str, str]]:
            public = {rid for (rid,) in self.sql("SELECT Id FROM Knowledge__kav WHERE IsVisibleInPkb = 1")}
            return [(v["question"], v["answer"]) for rid, v in self.labels("faq").items() if rid in public]

        return self.memo("faqs", make)

    def _secrets(self) -> list[str]:
        """The confidential values of the internal-only articles (never to reach a customer)."""
        return sorted({s for values in self.labels("internal").values() for s in values})

    def _ask(self, rng: random.Random, question: str, answer: str) -> str | None:
        """How the customer asks it (a model-number FAQ names its product by use); None if the
        product is not in this org."""
        product = self.memo("by sku", lambda: dict(self.sql("SELECT External_ID__c, Name FROM Product2"))).get(answer)
        if product is None and question not in articles.FAQ_TITLES:
            return None
        return articles.faq_ask(rng, question, product)

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        faqs, customers = self._faqs(), requesters.customers(self)
        k = 2 if rng.random() < self.knob("two_questions") else 1
        share = self.knob("via_case")
        by_case = rng.choice(self._case_faqs()) if share and rng.random() < share and self._case_faqs() else None
        if len(faqs) < k or not customers:
            return None
        if by_case is not None:
            faqs = [f for f in faqs if f[1] != by_case[2]]
            k -= 1
        picked = sorted(rng.sample(faqs, k))
        asks = [self._ask(rng, q, a) for q, a in picked]
        questions = [ask for ask in asks if ask is not None]
        if len(questions) < len(asks):
            return None
        answers = [a for _, a in picked]
        if by_case is None:
            me = rng.choice(customers)
            who = requesters.customer(me[0], me[1], me[2])
        else:
            case, who, sku = by_case
            questions, answers = [self._case_ask(rng, case), *questions], [sku, *answers]
        return Draw(
            {"requester": who, "questions": questions},
            {"requester": requesters.introduce(who), "question": " And another question: ".join(questions)},
            answers,
            confidential_values=self._secrets(),
        )

    def _case_ask(self, rng: random.Random, case: str) -> str:
        """A model-number question about the product of the customer's `case` (`CASE_ASK`)."""
        return self.CASE_ASK.format(
            desk=rng.choice(("The parts desk", "A warranty form", "The repair shop")),
            kind=rng.choice(("identifying", "catalogue", "product")),
            thing=rng.choice(("thing", "unit", "gadget")),
            case=case,
        )

    def _case_faqs(self) -> list[tuple[str, dict, str]]:
        """(case Id, its customer's requester params, model number) of every case about a product
        whose public model-number FAQ is the only public article naming the product in its Summary."""

        def make() -> list[tuple[str, dict, str]]:
            summaries = [q for q, _ in self._faqs()]
            skus = {a for _, a in self._faqs()}
            person = "Contact t ON t.Id = c.ContactId" if self.org == "b2b" else "Account t ON t.Id = c.AccountId"
            rows = self.sql(
                f'SELECT c.Id, t.Id, c.AccountId, t.Name, p.External_ID__c, p.Name FROM "Case" c JOIN {person} '
                "JOIN OrderItem i ON i.Id = c.OrderItemId__c JOIN Product2 p ON p.Id = i.Product2Id ORDER BY c.Id"
            )
            return [
                (case, requesters.customer(record, account, name), sku)
                for case, record, account, name, sku, product in rows
                if sku in skus and sum(product in q for q in summaries) == 1
            ]

        return self.memo("case faqs", make)

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        return [self._answer(tools, q) for q in params["questions"]]

    def _answer(self, tools: CrmTools, question: str) -> str:
        """Find the public article the question is about (by its topic, or by the product the
        customer describes), then read the answer off its body."""
        by_case = self.CASE_ASKED.fullmatch(question)
        asked = ("case", by_case.group(1)) if by_case else articles.faq_asked(question)
        if asked is None:
            raise OracleError(f"no FAQ is asked by {question!r}")
        kind, value = asked
        if kind == "case":
            where = f"Summary LIKE {soql_string('%' + self._case_product(tools, value) + '%')}"
            read = articles.model_answer
        elif kind == "title":
            where, read = f"Title = {soql_string(value)}", lambda body: faq_answer(self.org, body)
        else:  # a model-number FAQ about the product described
            where = f"Summary LIKE {soql_string('%' + self._product_used(tools, value) + '%')}"
            read = articles.model_answer
        read_off = [
            read(r["FAQ_Answer__c"] or "")
            for r in self.fetch_all(tools, "SELECT Id, FAQ_Answer__c FROM Knowledge__kav", f"{where} AND {self.PUBLIC}")
        ]
        answers = [a for a in read_off if a]
        if len(answers) != 1:
            raise OracleError(f"{len(answers)} public FAQ articles answer {question!r}")
        return answers[0]

    def _case_product(self, tools: CrmTools, case: str) -> str:
        """The Name of the product a case is about (its order item's product)."""
        rows = self.soql(tools, f"SELECT OrderItemId__r.Product2.Name FROM Case WHERE Id = {soql_string(case)}")
        product = ((rows[0].get("OrderItemId__r") or {}).get("Product2") or {}).get("Name") if rows else None
        if not product:
            raise OracleError(f"case {case} is about no product")
        return product

    def _product_used(self, tools: CrmTools, use: str) -> str:
        """The one product (Name) customers use to do `use`."""
        names = {r["Name"] for r in self.fetch_all(tools, "SELECT Id, Name FROM Product2") if describes(use, r["Name"])}
        if len(names) != 1:
            raise OracleError(f"{len(names)} products fit {use!r}")
        return names.pop()


# --- named-entity disambiguation ---------------------------------------------------------

TOLERANCE_DAYS = 7  # "about N days ago": within N +- 7 days


def purchase_window(today: date, days: int, first_order: date | None = None) -> tuple[date, date]:
    """Inclusive EffectiveDate bounds of "about `days` days ago", or of "about `days` days after our
    first order" when `first_order` (the EffectiveDate of the account's first activated order) is given."""
    if first_order is not None:
        return first_order + timedelta(days=days - TOLERANCE_DAYS), first_order + timedelta(days=days + TOLERANCE_DAYS)
    return today - timedelta(days=days + TOLERANCE_DAYS), today - timedelta(days=days - TOLERANCE_DAYS)


def _gap(a: tuple, b: tuple) -> int:
    """Days between two purchases (rows of `NamedEntityDisambiguation._purchases`)."""
    return abs((date.fromisoformat(a[3]) - date.fromisoformat(b[3])).days)


def describes(use: str, product: str) -> bool:
    """Whether a product (its Name) fits what the customer says they do with it, read with the
    generator's own use grammar (`records.product_fits`), never a substring of catalogue text."""
    return records.product_fits(use, product)


@register
class NamedEntityDisambiguation(TaskGenerator):
    """The Product2 Id of the product a customer describes by its use, bought about N days ago (None: nothing
    they bought in that window fits, though something outside it does)."""

    name = "named_entity_disambiguation"
    MIN_DAYS, MAX_DAYS = 10, 360
    ITEM = (
        "something to {use}",
        "a product I use to {use}",
        "the thing we got to {use}",
        "an item for when I want to {use}",
    )

    def _purchases(self) -> list[tuple]:
        """(account, product, name, EffectiveDate, Family) of every activated order line."""
        return self.memo(
            "purchases",
            lambda: self.sql(
                "SELECT o.AccountId, i.Product2Id, p.Name, o.EffectiveDate, p.Family FROM OrderItem i "
                'JOIN "Order" o ON o.Id = i.OrderId JOIN Product2 p ON p.Id = i.Product2Id '
                "WHERE o.Status = 'Activated' AND o.EffectiveDate >= ? ORDER BY i.Id",
                ((self.today - timedelta(days=self.MAX_DAYS + 2 * TOLERANCE_DAYS)).isoformat(),),
            ),
        )

    def _pairs(self, want_none: bool) -> list[tuple[tuple, tuple]]:
        """(purchase, look-alike) pairs: one account's purchases of two products of one Family (a
        loose reading of either's use fits both), bought within one window of each other (an answered
        draw asks for the first) or more than 60 days apart (a None draw describes the second, which
        the customer places in the first's window)."""

        def make() -> list[tuple[tuple, tuple]]:
            by_account = defaultdict(list)
            for row in self._purchases():
                by_account[row[0]].append(row)
            return [
                (a, b)
                for rows in by_account.values()
                for a in rows
                for b in rows
                if a[1] != b[1]
                and a[4] == b[4]
                and (_gap(a, b) > 60 if want_none else _gap(a, b) <= 2 * TOLERANCE_DAYS)
            ]

        return self.memo(("pairs", want_none), make)

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        pairs = self._pairs(want_none)
        if not pairs:
            return None
        (account, product, name, day, _family), look_alike = rng.choice(pairs)
        share = self.knob("after_first_order")
        first = self._first_order(account) if share and rng.random() < share else None
        days = 5 * round(abs(((first or self.today) - date.fromisoformat(day)).days) / 5)
        if days < self.MIN_DAYS or (first is None and days > self.MAX_DAYS):
            return None
        in_window = self._bought(account, *purchase_window(self.today, days, first))
        described, described_name = (look_alike[1], look_alike[2]) if want_none else (product, name)
        use = records.use_phrase(rng, described_name)
        answer = None if want_none else [product]
        fits = [pid for pid, n in in_window.items() if describes(use, n)]
        if fits != (answer or []) or len(in_window) < 2:
            return None  # ambiguous (answered and None windows hold at least two purchases alike)
        if not self._look_alike(described, in_window):
            return None  # the window must hold a purchase a loose reading of the use would also fit
        if first is not None and answer and self._fits(account, use, purchase_window(self.today, days)) == answer:
            return None  # counting the days back from today must give another answer
        who = self._customer(account)
        if who is None:
            return None
        params = {"requester": who, "use": use, "days": days} | ({"after_first_order": True} if first else {})
        ago = f"{days} days after our first order with you" if first else f"{days} days ago"
        return Draw(
            params,
            {"requester": requesters.introduce(who), "item": rng.choice(self.ITEM).format(use=use), "ago": ago},
            answer,
        )

    def _first_order(self, account: str) -> date | None:
        """The EffectiveDate of `account`'s first activated order."""
        ((first,),) = self.sql(
            "SELECT MIN(EffectiveDate) FROM \"Order\" WHERE AccountId = ? AND Status = 'Activated'", (account,)
        )
        return date.fromisoformat(first) if first else None

    def _fits(self, account: str, use: str, window: tuple[date, date]) -> list[str]:
        """The products `account` bought in `window` that fit `use`."""
        return [pid for pid, n in self._bought(account, *window).items() if describes(use, n)]

    def _look_alike(self, product: str, bought: dict[str, str]) -> bool:
        """Whether `bought` holds a product other than `product` of the same Family: one a loose
        reading of the use ("some kind of server") fits too, so only the exact use settles it."""
        families = self.memo("families", lambda: dict(self.sql("SELECT Id, Family FROM Product2")))
        return any(families[pid] == families[product] for pid in bought if pid != product)

    def _bought(self, account: str, lo: date, hi: date) -> dict[str, str]:
        """product Id -> Name of what `account` bought between lo and hi."""
        return dict(
            self.sql(
                "SELECT DISTINCT i.Product2Id, p.Name FROM OrderItem i "
                'JOIN "Order" o ON o.Id = i.OrderId JOIN Product2 p ON p.Id = i.Product2Id '
                "WHERE o.AccountId = ? AND o.Status = 'Activated' AND o.EffectiveDate BETWEEN ? AND ? "
                "ORDER BY i.Product2Id",
                (account, lo.isoformat(), hi.isoformat()),
            )
        )

    def _customer(self, account: str) -> dict | None:
        """The signed-in customer (`requesters`): the person account, or in B2B the account's first
        contact (one identity per account, so that no two instances differ only in who asks)."""
        if self.org == "b2b":
            row = self.sql("SELECT Id, Name FROM Contact WHERE AccountId = ? ORDER BY Id LIMIT 1", (account,))
        else:
            row = self.sql("SELECT Id, Name FROM Account WHERE Id = ?", (account,))
        return requesters.customer(row[0][0], account, row[0][1]) if row else None

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        _, account = requesters.look_up(tools, params["requester"]["record_id"])
        if account is None:
            raise OracleError(f"{params['requester']['record_id']} is staff: no purchases of theirs to look up")
        first = self._first_order_of(tools, account) if params.get("after_first_order") else None
        lo, hi = purchase_window(self.today, params["days"], first)
        rows = self.soql(
            tools,
            (
                "SELECT Product2Id, Product2.Name FROM OrderItem "
                f"WHERE Order.AccountId = {soql_string(account)} AND Order.Status = 'Activated' "
                f"AND Order.EffectiveDate >= {lo.isoformat()} AND Order.EffectiveDate <= {hi.isoformat()}"
            ),
        )
        fits = {r["Product2Id"] for r in rows if describes(params["use"], r["Product2"]["Name"])}
        if not fits:
            return None
        if len(fits) > 1:
            raise OracleError(f"{len(fits)} purchases fit {params['use']!r}")
        return sorted(fits)

    def _first_order_of(self, tools: CrmTools, account: str) -> date:
        """The EffectiveDate of `account`'s first activated order, found with SOQL."""
        rows = self.soql(
            tools,
            f"SELECT EffectiveDate FROM Order WHERE AccountId = {soql_string(account)} AND Status = 'Activated' "
            "ORDER BY EffectiveDate LIMIT 1",
        )
        if not rows:
            raise OracleError(f"account {account} has no activated order to count the days from")
        return date.fromisoformat(rows[0]["EffectiveDate"])


# --- sales insight mining ----------------------------------------------------------------

TOPICS = {
    "competitors": "which competitors the customer mentioned",
    "negative": "which subtopics the customer was negative about",
}
RECENT_MONTHS = (3, 6, 9, 12)  # the windows of the `named_account` draws


@register
class SalesInsightMining(TaskGenerator):
    """Competitors mentioned, or subtopics with negative sentiment, across a set of sales calls
    (one opportunity's, or all of one account's opportunities')."""

    name = "sales_insight_mining"

    def _calls(self) -> list[tuple[str, str, str]]:
        """(call Id, opportunity Id, account Id) of every opportunity call."""
        return self.memo(
            "calls",
            lambda: self.sql(
                "SELECT v.Id, o.Id, o.AccountId FROM VoiceCallTranscript__c v "
                "JOIN Opportunity o ON o.Id = v.OpportunityId__c ORDER BY v.Id"
            ),
        )

    def _call_dates(self) -> dict[str, date]:
        """call Id -> the day of every opportunity call."""
        return self.memo(
            "call dates",
            lambda: {
                c: date.fromisoformat(d[:10])
                for c, d in self.sql(
                    "SELECT Id, CreatedDate FROM VoiceCallTranscript__c WHERE OpportunityId__c IS NOT NULL"
                )
            },
        )

    def _found(self, topic: str, calls: list[str]) -> list[str]:
        """The answer over `calls` (the generator's labels): competitors, or negative subtopics."""
        answer: set[str] = set()
        for call in calls:
            if topic == "competitors":
                answer |= set(self.labels("competitors")[call])
            else:
                answer |= {s for s, v in self.labels("sentiments")[call].items() if v == "negative"}
        return sorted(answer)

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        calls = self._calls()
        _call, opp, account = rng.choice(calls)
        share = self.knob("named_account")  # a share of 0 draws nothing more from `rng`
        if share and rng.random() < share:
            return self._draw_named(rng, want_none)
        scope = rng.choice(("opportunity", "account"))
        key = opp if scope == "opportunity" else account
        in_scope = [c for c, o, a in calls if (o if scope == "opportunity" else a) == key]
        if (scope == "account" and len({o for c, o, a in calls if a == key}) < 2) or not levels.fits(
            self, candidates=len(in_scope)
        ):
            return None
        topic = rng.choice(tuple(TOPICS))
        answer = self._found(topic, in_scope)
        if bool(answer) == want_none:
            return None
        where = f"opportunity {key}" if scope == "opportunity" else f"all opportunities of account {key}"
        params = {"topic": topic, "scope": scope, "record_id": key}
        return Draw(params, {"topic": TOPICS[topic], "calls": f"the call transcripts of {where}"}, answer or None)

    def _accounts(self) -> dict[str, tuple[str, str, str]]:
        """`named_accounts` cut to the accounts with opportunity calls."""

        def make() -> dict[str, tuple[str, str, str]]:
            called = {a for _c, _o, a in self._calls()}
            return {a: v for a, v in named_accounts(self).items() if a in called}

        return self.memo("called accounts", make)

    def _draw_named(self, rng: random.Random, want_none: bool) -> Draw | None:
        """A draw over an account's calls of a recent window, the account named by its name and
        state; kept only when a careless reading gives another answer: every call of the first
        account listed under that name (a namesake, or the account itself with its older calls)."""
        accounts = self._accounts()
        account = rng.choice(sorted(accounts))
        name, state, first = accounts[account]
        window = past_window(self.today, rng.choice(RECENT_MONTHS))
        recent = [c for c, _o, a in self._calls() if a == account and self._call_dates()[c] >= window.start]
        topic = rng.choice(tuple(TOPICS))
        answer = self._found(topic, recent)
        if bool(answer) == want_none or answer == self._found(topic, [c for c, _o, a in self._calls() if a == first]):
            return None
        params = {"topic": topic, "scope": "account", "account": name, "state": state, "window": window.to_params()}
        where = f"the {name} account in {state} (its opportunities' calls of {window.text} only)"
        return Draw(params, {"topic": TOPICS[topic], "calls": f"the call transcripts of {where}"}, answer or None)

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        if "account" in params:
            return self._solve_named(tools, params)
        rid = soql_string(params["record_id"])
        where = (
            f"OpportunityId__c = {rid}"
            if params["scope"] == "opportunity"
            else f"OpportunityId__c IN (SELECT Id FROM Opportunity WHERE AccountId = {rid})"
        )
        return self._read(tools, params["topic"], where)

    def _solve_named(self, tools: CrmTools, params: dict) -> list[str] | None:
        """The account found by its name and state, then its opportunities' calls of the window."""
        account = self.one_id(tools, "Account", Name=params["account"], ShippingState=params["state"])
        window = Window.from_params(params["window"])
        where = (
            f"OpportunityId__c IN (SELECT Id FROM Opportunity WHERE AccountId = {soql_string(account)}) "
            f"AND {window.soql('CreatedDate')}"
        )
        return self._read(tools, params["topic"], where)

    def _read(self, tools: CrmTools, topic: str, where: str) -> list[str] | None:
        """What the calls matching `where` say about `topic`, read with the call grammar."""
        calls = self.fetch_all(tools, "SELECT Id, TranscriptBody__c FROM VoiceCallTranscript__c", where)
        read = competitors_considered if topic == "competitors" else negative_subtopics
        found = set().union(*(read(c["TranscriptBody__c"] or "") for c in calls))
        return sorted(found) or None


# --- wrong stage rectification -----------------------------------------------------------


def evidence_stage(tasks, events, calls) -> str | None:
    """The stage an opportunity's evidence shows: the most advanced stage of its started or done
    tasks and its events (the stage work their subjects describe, `activities.stage_of`) and its
    calls (stage sentences)."""
    shown = [activities.stage_of(s) for s in (*tasks, *events)] + [call_stage(b) for b in calls]
    return latest_stage(s for s in shown if s)


@register
class WrongStageRectification(TaskGenerator):
    """The stage an opportunity's activities and calls show, or None when its StageName is right."""

    name = "wrong_stage_rectification"

    def _evidence(self, opp: str) -> str | None:
        """The stage the opportunity's evidence shows, read with SQL."""
        tasks = [
            s for (s,) in self.sql("SELECT Subject FROM Task WHERE WhatId = ? AND Status != 'Not Started'", (opp,))
        ]
        events = [s for (s,) in self.sql("SELECT Subject FROM Event WHERE WhatId = ?", (opp,))]
        calls = [
            b
            for (b,) in self.sql(
                "SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = ?", (opp,)
            )
        ]
        return evidence_stage(tasks, events, calls)

    @cached_property
    def _open(self) -> dict[str, dict[str | None, list[str]]]:
        """Open opportunities by recorded stage, then by answer (the true stage, None when right).
        Deals recorded as Closed are signed and never asked about."""
        wrong = self.labels("true_stage")
        groups: dict[str, dict[str | None, list[str]]] = {}
        for opp, stage in self.sql("SELECT Id, StageName FROM Opportunity WHERE StageName != 'Closed' ORDER BY Id"):
            groups.setdefault(stage, {}).setdefault(wrong.get(opp), []).append(opp)
        return groups

    @cached_property
    def _askable(self) -> list[str]:
        """Recorded stages asked about: those with right deals and stale ones of two true stages or
        more (where a stage has one kind of stale deal only, the recorded stage would tell it)."""
        return sorted(s for s, by in self._open.items() if None in by and len(by) >= 3)

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        # the recorded stage, then the answer, each drawn evenly: the recorded stage alone says
        # nothing about the answer
        if not self._askable:
            return None
        stage = rng.choice(self._askable)
        answers: list[str | None]
        if want_none:
            answers = [None] if None in self._open[stage] else []
        else:
            answers = [*sorted(a for a in self._open[stage] if a is not None)]
        if not answers:
            return None
        true = rng.choice(answers)
        picked = pick_opportunity(self, rng, self._open[stage][true])
        if picked is None:
            return None
        opp, via_account = picked
        answer = None if true is None else [true]
        shown = self._evidence(opp)
        if shown != (stage if answer is None else answer[0]):
            return None  # the evidence does not show the labelled stage unambiguously
        if via_account and self._reading(account_latest(self)[opp][2]) == true:
            return None  # the careless reading's opportunity would give the same answer
        ref, slot = opportunity_ref(self, rng, opp, via_account)
        return Draw(ref, {"opportunity": slot}, answer)

    def _reading(self, opp: str | None) -> str | None:
        """The answer an opportunity's evidence gives: the stage it shows, None when that is its
        StageName (or when there is no opportunity)."""
        if opp is None:
            return None
        shown = self._evidence(opp)
        ((recorded,),) = self.sql("SELECT StageName FROM Opportunity WHERE Id = ?", (opp,))
        return None if shown in (None, recorded) else shown

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        opp = resolve_opportunity(self, tools, params)
        oid = soql_string(opp["Id"])
        tasks = self.fetch_all(tools, "SELECT Id, Subject FROM Task", f"WhatId = {oid} AND Status != 'Not Started'")
        events = self.fetch_all(tools, "SELECT Id, Subject FROM Event", f"WhatId = {oid}")
        calls = self.fetch_all(
            tools, "SELECT Id, TranscriptBody__c FROM VoiceCallTranscript__c", f"OpportunityId__c = {oid}"
        )
        shown = evidence_stage(
            [t["Subject"] for t in tasks], [e["Subject"] for e in events], [c["TranscriptBody__c"] or "" for c in calls]
        )
        if shown is None:
            raise OracleError(f"no stage evidence for {opp['Id']}")
        return None if shown == opp["StageName"] else [shown]


# --- activity priority -------------------------------------------------------------------

MISFITS = (4, 7)  # Not Started tasks that do not fit the stage: the answer (the candidates: the `candidates` knob)


@register
class ActivityPriority(TaskGenerator):
    """The Not Started tasks of an opportunity that do not fit its current stage (a set of Task Ids)."""

    name = "activity_priority"

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        misfits = self.labels("misfit_task")
        by_opp: dict[str, list[str]] = {}
        for task, value in misfits.items():
            by_opp.setdefault(value["opportunity"], []).append(task)
        picked = pick_opportunity(self, rng, sorted(by_opp))
        if picked is None:
            return None
        opp, via_account = picked
        open_tasks = {t for (t,) in self.sql("SELECT Id FROM Task WHERE WhatId = ? AND Status = 'Not Started'", (opp,))}
        if (
            not set(by_opp[opp]) <= open_tasks
            or not MISFITS[0] <= len(by_opp[opp]) <= MISFITS[1]
            or not levels.fits(self, candidates=len(open_tasks))
        ):
            return None
        ref, slot = opportunity_ref(self, rng, opp, via_account)
        return Draw(ref, {"opportunity": slot}, sorted(by_opp[opp]))

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        opp = resolve_opportunity(self, tools, params)
        tasks = self.fetch_all(
            tools, "SELECT Id, Subject FROM Task", f"WhatId = {soql_string(opp['Id'])} AND Status = 'Not Started'"
        )
        out = sorted(t["Id"] for t in tasks if activities.stage_of(t["Subject"]) not in (None, opp["StageName"]))
        return out or None

"""Workflow execution: route a new case or an open lead to the right agent and assign it.

Both types rank candidate agents on a tuple of criteria (compared in order, the first that
separates them decides) and the agent must perform the assignment with a write tool; the
validator checks the record's final owner. `draw` ranks with direct SQL, `solve` with SOQL
and then calls the assignment tool. A case is posed by its free text: the oracle finds the
issue it reports from that text (`reported_issue`), never from the case's issue field.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import date, timedelta

from ...crm.generator.threads import FIELD_FACTS
from ...crm.tools import CrmTools
from ..base import Draw, OracleError, TaskGenerator, Window, add_months, id_list
from ..registry import register
from .levels import decided_by, fits

LOOKBACK_MONTHS = (1, 2, 3, 4, 6, 9, 12)
SERVICE_PROFILE = "Service Agent"
OPEN_LEAD_STATUSES = ("Open - Not Contacted", "Working - Contacted")

Scores = dict[str, tuple]  # candidate User Id -> criteria, larger is better, compared in order


def lookback_window(today: date, months: int) -> Window:
    """The past `months` months up to and including today, named in months."""
    return Window(add_months(today, -months), today + timedelta(days=1), f"{months} month{'s' if months > 1 else ''}")


def best_candidate(scores: Scores) -> str | None:
    """The candidate whose criteria tuple is strictly the largest, or None on a full tie."""
    if not scores:
        return None
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def settle(candidates: list[str], criteria: list[Callable[[], dict[str, int]]]) -> str | None:
    """The one candidate that `criteria` (each a query giving scores, larger better, 0 when absent)
    pick in order, each asked only while several candidates still tie; None if a tie remains."""
    for criterion in criteria:
        if len(candidates) <= 1:
            break
        score = criterion()
        top = max(score.get(u, 0) for u in candidates)
        candidates = [u for u in candidates if score.get(u, 0) == top]
    return candidates[0] if len(candidates) == 1 else None


def count_map(rows: list[dict], key: str = "OwnerId") -> dict[str, int]:
    """{owner: n} from aggregate SOQL rows with a `n` alias."""
    return {r[key]: r["n"] for r in rows}


def assign(tools: CrmTools, action: Callable[[str, str], str], record_id: str, user_id: str) -> list[str]:
    """Perform an assignment tool call; OracleError if the tool refused it."""
    out = json.loads(action(record_id, user_id))
    if "error" in out:
        raise OracleError(f"assignment of {record_id} to {user_id} failed: {out['error']}")
    return [user_id]


class RoutingTask(TaskGenerator):
    """Shared draw: pick a record and a look-back, rank the candidates, keep clear answers
    that differ from the record's current owner. Subclasses give `OBJECT`, `open_records`
    (Id, current owner, stratum) and `scores` (per-candidate criteria with direct SQL).

    Records are drawn stratum first (a lead's state, a case's issue), then uniformly within
    it, so that busy states or common issues do not crowd out the rest of the org."""

    OBJECT: str
    SLOT: str  # the slot naming the record

    def open_records(self) -> list[tuple[str, str, str]]:
        raise NotImplementedError

    def pick_record(self, rng: random.Random) -> tuple[str, str] | None:
        """(Id, current owner) of a random open record, drawn stratum first."""

        def make() -> dict[str, list[tuple[str, str]]]:
            strata: dict[str, list[tuple[str, str]]] = {}
            for record_id, owner, stratum in self.open_records():
                strata.setdefault(stratum or "", []).append((record_id, owner))
            return strata

        strata = self.memo("strata", make)
        if not strata:
            return None
        return rng.choice(strata[rng.choice(sorted(strata))])

    def scores(self, record_id: str, window: Window) -> Scores:
        raise NotImplementedError

    def record_slots(self, record_id: str) -> dict[str, str]:
        """Template slots describing the record beyond its Id (none by default)."""
        return {}

    def variant(self, rng: random.Random) -> dict:
        """The parameters a level's share knob adds to a draw, which `scores` takes (none by default)."""
        return {}

    def variant_note(self, variant: dict) -> str:
        """What the person adds to the look-back to state a variant (nothing by default)."""
        return ""

    def keeps(self, record_id: str, window: Window, answer: str) -> bool:
        """Whether a variant draw is kept: the plain reading of the rule must give another answer."""
        return True

    def draw(self, rng: random.Random, want_none: bool) -> Draw | None:
        picked = self.pick_record(rng)
        if picked is None:
            return None
        record_id, owner = picked
        months = rng.choice(LOOKBACK_MONTHS)
        window = lookback_window(self.today, months)
        if not fits(self, window_months=months):
            return None
        variant = self.variant(rng)
        scores = self.scores(record_id, window, **variant)
        answer = best_candidate(scores)
        if answer is None or answer == owner or not fits(self, decided_by=decided_by(scores)):
            return None
        if variant and not self.keeps(record_id, window, answer):
            return None
        params = {
            "record_object": self.OBJECT,
            "record_id": record_id,
            "lookback_months": months,
            "window": window.to_params(),
            **variant,
        }
        lookback = window.text + self.variant_note(variant)
        slots = {self.SLOT: record_id, "lookback": lookback, **self.record_slots(record_id)}
        return Draw(params, slots, [answer])


def reported_issue(description: str, issues: list[dict]) -> str:
    """The Id of the one issue (records with Id and Name) whose symptom a case's description tells,
    as the generator's detector reads it; OracleError when none or several do."""
    names = {fact.removeprefix("issue=") for fact, _ in FIELD_FACTS[("Case", "Description")](description or "")}
    found = [i["Id"] for i in issues if i["Name"] in names]
    if len(found) != 1:
        raise OracleError(f"{len(found)} issues match the case description {description[:80]!r}")
    return found[0]


@register
class CaseRouting(RoutingTask):
    """Assign a new case, posed by its subject and description: the issue its text reports,
    then most closed cases of that issue in the look-back, then most closed cases of its
    product, then fewest open cases."""

    name = "case_routing"
    OBJECT, SLOT = "Case", "case_id"

    def open_records(self) -> list[tuple[str, str, str]]:
        """The untriaged cases (Status 'New', no issue set), stratified by the issue they report."""
        issues = self.labels("case_issue")
        return [
            (cid, owner, issues[cid])
            for cid, owner in self.sql(
                "SELECT Id, OwnerId FROM \"Case\" WHERE Status = 'New' AND IssueId__c IS NULL ORDER BY Id"
            )
        ]

    def record_slots(self, record_id: str) -> dict[str, str]:
        subject, description = self.sql('SELECT Subject, Description FROM "Case" WHERE Id = ?', (record_id,))[0]
        return {"subject": subject, "description": description}

    def scores(self, record_id: str, window: Window) -> Scores:
        issue = self.labels("case_issue")[record_id]
        (product,) = self.sql(
            'SELECT i.Product2Id FROM "Case" c LEFT JOIN OrderItem i ON i.Id = c.OrderItemId__c WHERE c.Id = ?',
            (record_id,),
        )[0]
        lo, hi = window.bounds()
        closed = (
            'SELECT c.OwnerId, COUNT(*) FROM "Case" c LEFT JOIN OrderItem i ON i.Id = c.OrderItemId__c '
            "WHERE c.ClosedDate >= ? AND c.ClosedDate < ? AND {} GROUP BY c.OwnerId"
        )
        by_issue = dict(self.sql(closed.format("c.IssueId__c = ?"), (lo, hi, issue)))
        by_product = dict(self.sql(closed.format("i.Product2Id = ?"), (lo, hi, product)))
        open_cases = dict(
            self.sql(
                'SELECT OwnerId, COUNT(*) FROM "Case" WHERE ClosedDate IS NULL AND Id != ? GROUP BY OwnerId',
                (record_id,),
            )
        )
        agents = [u for (u,) in self.sql("SELECT Id FROM User WHERE ProfileId = ?", (SERVICE_PROFILE,))]
        return {u: (by_issue.get(u, 0), by_product.get(u, 0), -open_cases.get(u, 0)) for u in agents}

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        case_id = params["record_id"]
        window = Window.from_params(params["window"])
        case = self.soql(tools, f"SELECT Id, Description, OrderItemId__r.Product2Id FROM Case WHERE Id = '{case_id}'")[
            0
        ]
        issue = reported_issue(case["Description"], self.fetch_all(tools, "SELECT Id, Name FROM Issue__c"))
        closed = f"SELECT OwnerId, COUNT(Id) n FROM Case WHERE {window.soql('ClosedDate')} AND {{}} GROUP BY OwnerId"
        product = (case.get("OrderItemId__r") or {}).get("Product2Id")
        agents = [r["Id"] for r in self.fetch_all(tools, "SELECT Id FROM User", f"ProfileId = '{SERVICE_PROFILE}'")]
        open_sql = (
            f"SELECT OwnerId, COUNT(Id) n FROM Case WHERE ClosedDate = null AND Id != '{case_id}' GROUP BY OwnerId"
        )
        best = settle(
            agents,
            [
                lambda: count_map(self.soql(tools, closed.format(f"IssueId__c = '{issue}'"))),
                lambda: (
                    count_map(self.soql(tools, closed.format(f"OrderItemId__r.Product2Id = '{product}'")))
                    if product
                    else {}
                ),
                lambda: {u: -n for u, n in count_map(self.soql(tools, open_sql)).items()},
            ],
        )
        if best is None:
            raise OracleError(f"no single agent to route case {case_id} to")
        return assign(tools, tools.assign_case, case_id, best)


def covers(description: str | None, state: str) -> bool:
    """Whether a territory's comma-separated state list includes `state`."""
    return state in {code.strip() for code in (description or "").split(",")}


@register
class LeadRouting(RoutingTask):
    """Assign an open lead: agents whose territory covers the lead's state; most accepted
    quotes in the look-back, then fewest open leads."""

    name = "lead_routing"
    OBJECT, SLOT = "Lead", "lead_id"

    def open_records(self) -> list[tuple[str, str, str]]:
        marks = ", ".join("?" * len(OPEN_LEAD_STATUSES))
        return self.sql(
            f"SELECT Id, OwnerId, State FROM Lead WHERE Status IN ({marks}) ORDER BY Id", OPEN_LEAD_STATUSES
        )

    def scores(self, record_id: str, window: Window, territory_quotes: bool = False) -> Scores:
        state, owner = self.sql("SELECT State, OwnerId FROM Lead WHERE Id = ?", (record_id,))[0]
        states = self.memo(("states", state), lambda: self._states(state)) if territory_quotes else None
        accepted = self.memo(("accepted", window.bounds(), states), lambda: self._accepted(window, states))
        open_leads = dict(
            self.memo(
                ("open",),
                lambda: dict(
                    self.sql(
                        f"SELECT OwnerId, COUNT(*) FROM Lead WHERE Status IN ({', '.join('?' * len(OPEN_LEAD_STATUSES))}) "
                        "GROUP BY OwnerId",
                        OPEN_LEAD_STATUSES,
                    )
                ),
            )
        )
        open_leads[owner] -= 1  # the lead itself (open) is not counted
        agents = self.memo(("agents", state), lambda: self._agents(state))
        return {u: (accepted.get(u, 0), -open_leads.get(u, 0)) for u in agents}

    def variant(self, rng: random.Random) -> dict:
        """The `territory_quotes` share of draws counts only quotes for customers in the lead's territory."""
        share = self.knob("territory_quotes")
        return {"territory_quotes": True} if share and rng.random() < share else {}

    def variant_note(self, variant: dict) -> str:
        return " (only quotes for customers in the states of the lead's sales territory)" if variant else ""

    def keeps(self, record_id: str, window: Window, answer: str) -> bool:
        """A territory draw is kept only when counting every accepted quote and taking the first
        listed (lowest Id) of the agents tied on it gives another agent."""
        scores = self.scores(record_id, window)
        top = max(quotes for quotes, _ in scores.values())
        return min(u for u, (quotes, _) in scores.items() if quotes == top) != answer

    def _accepted(self, window: Window, states: tuple[str, ...] | None) -> dict[str, int]:
        """Accepted quotes created in `window` per owner (of accounts in `states` only, when given)."""
        scope = f"AND a.ShippingState IN ({', '.join('?' * len(states))})" if states is not None else ""
        return dict(
            self.sql(
                "SELECT q.OwnerId, COUNT(*) FROM Quote q LEFT JOIN Account a ON a.Id = q.AccountId "
                f"WHERE q.Status = 'Accepted' AND q.CreatedDate >= ? AND q.CreatedDate < ? {scope} GROUP BY q.OwnerId",
                (*window.bounds(), *(states or ())),
            )
        )

    def _states(self, state: str) -> tuple[str, ...]:
        """The states of the territories that cover `state`."""
        return tuple(
            sorted(
                {
                    code.strip()
                    for _, d in self.sql("SELECT Id, Description FROM Territory2")
                    if covers(d, state)
                    for code in d.split(",")
                }
            )
        )

    def _agents(self, state: str) -> set[str]:
        """The agents of the territories that cover `state`."""
        territories = [t for t, d in self.sql("SELECT Id, Description FROM Territory2") if covers(d, state)]
        marks = ", ".join("?" * len(territories))
        return {
            u
            for (u,) in self.sql(
                f"SELECT UserId FROM UserTerritory2Association WHERE Territory2Id IN ({marks})", territories
            )
        }

    def solve(self, tools: CrmTools, params: dict) -> list[str] | None:
        lead_id = params["record_id"]
        window = Window.from_params(params["window"])
        state = self.soql(tools, f"SELECT State FROM Lead WHERE Id = '{lead_id}'")[0]["State"]
        covering = [
            t
            for t in self.fetch_all(tools, "SELECT Id, Description FROM Territory2")
            if covers(t["Description"], state)
        ]
        if not covering:
            raise OracleError(f"no territory covers {state}")
        territories = [t["Id"] for t in covering]
        states = sorted({code.strip() for t in covering for code in t["Description"].split(",")})
        scope = f" AND Account.ShippingState IN {id_list(states)}" if params.get("territory_quotes") else ""
        links = self.fetch_all(
            tools, "SELECT Id, UserId FROM UserTerritory2Association", f"Territory2Id IN {id_list(territories)}"
        )
        agents = sorted({r["UserId"] for r in links})
        accepted = (
            f"SELECT OwnerId, COUNT(Id) n FROM Quote WHERE Status = 'Accepted' AND {window.soql('CreatedDate')} "
            f"AND OwnerId IN {id_list(agents)}{scope} GROUP BY OwnerId"
        )
        open_leads = (
            f"SELECT OwnerId, COUNT(Id) n FROM Lead WHERE Status IN {id_list(list(OPEN_LEAD_STATUSES))} "
            f"AND Id != '{lead_id}' AND OwnerId IN {id_list(agents)} GROUP BY OwnerId"
        )
        best = settle(
            agents,
            [
                lambda: count_map(self.soql(tools, accepted)),
                lambda: {u: -n for u, n in count_map(self.soql(tools, open_leads)).items()},
            ],
        )
        if best is None:
            raise OracleError(f"no single agent to route lead {lead_id} to")
        return assign(tools, tools.assign_lead, lead_id, best)

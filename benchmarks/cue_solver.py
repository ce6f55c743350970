"""`CueSolver`: a shallow generic-cue baseline for eight text-reasoning types (issue 12 item 6).

Like `RegexSolver` (benchmarks/shortcut_baselines.py) it is a measurement tool, not an agent to
ship: it fetches, through the agent's SOQL tool only, the records the question points at and the
reference lists a careful shallow engineer would read (articles, issues, products), then answers
from generic cues written once from each type's policy text: negation parity and hedges with the
last statement per topic winning, capitalised names in the customer's lines minus rulings,
sentiment words, stage keyword votes, amounts above the limits the policy articles state, and
word overlap with rare-word weights. It knows no grammar rule and never reads `_truth`. The one
write is case_routing's assignment, which that type scores from the database.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date, timedelta

from benchmarks.shortcut_baselines import ACCOUNT, CASE, LEAD, OPP, STAGES, opportunity, q, rows
from simulator.agents.base import Agent, AgentSetup, AgentTurn
from simulator.agents.baselines import NONE_TEXT, RECORD_ID, recognise_task
from simulator.agents.oracle import RecordingTools
from simulator.tasks.base import add_months, id_list

# --- generic text cues -----------------------------------------------------------------------

NEGATION = re.compile(r"\b(?:not|no|never|nobody|none|nothing|without|neither|nor|unsure)\b|n't\b", re.I)
HEDGE = re.compile(
    r"not sure|no idea|maybe|perhaps|someday|on hold|back burner|unclear|don't know|"
    r"can't say|not certain|no rush|hard to say",
    re.I,
)
ELSEWHERE = re.compile(r"\b(?:another|other|separate|different|unrelated)\b", re.I)
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "and",
        "or",
        "but",
        "if",
        "so",
        "we",
        "our",
        "you",
        "your",
        "i",
        "my",
        "me",
        "us",
        "they",
        "them",
        "their",
        "he",
        "she",
        "his",
        "her",
        "what",
        "which",
        "who",
        "how",
        "when",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "with",
        "from",
        "about",
        "into",
        "over",
        "there",
        "here",
        "have",
        "has",
        "had",
        "just",
        "any",
        "some",
        "all",
        "one",
        "get",
        "got",
        "than",
        "then",
        "also",
        "very",
        "really",
        "please",
        "return",
        "only",
        "short",
        "answer",
        "signed",
    ]
)
WORD = re.compile(r"[a-z0-9]+(?:[.-][a-z0-9]+)*")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
MONEY = re.compile(r"\$\s?([\d,]+(?:\.\d+)?)")
PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?%")


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE.split(text or "") if s.strip()]


def negated(sentence: str) -> bool:
    """Odd negation parity (a double negative affirms)."""
    return len(NEGATION.findall(sentence)) % 2 == 1


def stem(word: str) -> str:
    return re.sub(r"(?:ing|ed|es|s)$", "", word) if len(word) > 4 else word


def words(text: str) -> set[str]:
    """Content words, crudely stemmed."""
    return {stem(w) for w in WORD.findall((text or "").lower()) if w not in STOP}


def lines(body: str) -> list[tuple[str, str]]:
    """(speaker, text) of a transcript's "Name: text" lines."""
    return [(s.strip(), t) for s, t in (ln.split(": ", 1) for ln in (body or "").splitlines() if ": " in ln)]


def split_speakers(body: str) -> tuple[list[str], list[str]]:
    """(our side's lines, the other side's lines): our rep or agent opens the conversation."""
    said = lines(body)
    ours = [t for s, t in said if said and s == said[0][0]]
    return ours, [t for s, t in said if s != said[0][0]]


def best_match(text: str, docs: list[dict], fields: tuple[str, ...], among=None) -> tuple[dict | None, float]:
    """The doc (of those whose Id is in `among`, default all) sharing the most rare words with `text`
    (overlap weighted by idf over all `docs`), and its score."""
    bags = [words(" ".join(d.get(f) or "" for f in fields)) for d in docs]
    df = Counter(w for bag in bags for w in bag)
    asked = words(text)
    scored = [
        (sum(math.log(len(docs) / df[w]) for w in asked & bag), i)
        for i, bag in enumerate(bags)
        if among is None or docs[i]["Id"] in among
    ]
    score, i = max(scored, default=(0.0, -1))
    return (docs[i], score) if score > 0 else (None, 0.0)


def all_rows(tools, query: str, page: int = 100) -> list[dict]:
    """Every record of a query, fetched in pages (the tool returns at most 100 at once)."""
    found, offset = [], 0
    while True:
        batch = rows(tools, f"{query} ORDER BY Id LIMIT {page} OFFSET {offset}")
        found += batch
        if len(batch) < page:
            return found
        offset += page


# --- lead_qualification: topic cues, negation parity and hedges, last word per topic wins -----

BANT = {
    "Budget": r"budget|money|fund|spend|afford|set aside|\$",
    "Authority": r"decid|decision|sign[- ]?off|signs|approv|my call|final say",
    "Need": r"need|problem|pain|solve|struggl|headache|works fine",
    "Timeline": r"when|timeline|timeframe|month|quarter|week|year|soon|date|deadline|live",
}


def topic_of(sentence: str) -> str | None:
    hits = {f: len(re.findall(p, sentence, re.I)) for f, p in BANT.items()}
    top = max(hits, key=hits.get)
    return top if hits[top] else None


def lead_qualification(tools, said: str, today: date) -> list[str]:
    lead = LEAD.search(said)
    calls = (
        rows(tools, f"SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE LeadId__c = {q(lead.group())}")
        if lead
        else []
    )
    unmet: dict[str, bool] = {}
    for call in calls:
        asked = None
        said_lines = lines(call["TranscriptBody__c"])
        for speaker, text in said_lines:
            if speaker == said_lines[0][0]:
                asked = topic_of(text) or asked
                continue
            for s in sentences(text):
                topic = topic_of(s) or asked
                if topic and not ELSEWHERE.search(s):
                    unmet[topic] = negated(s) or bool(HEDGE.search(s))
    return [f for f in BANT if unmet.get(f)]


# --- sales_insight_mining: names minus rulings; sentiment words per subtopic -----------------

STILL_AN_OPTION = re.compile(r"evaluat|compar|proposal|quote|option|looking at|consider|trial|demo|pitch|bid", re.I)
RULED_OUT = re.compile(r"ruled out|dropped|stopped|no longer|crossed|off the list|passed on|walked away|gave up", re.I)
NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)?(?: [A-Z][a-z]+)*")
SUBTOPICS = {
    "pricing": r"pric|cost|expensive|fee",
    "support": r"support",
    "features": r"feature|capabilit",
    "integration": r"integrat|connect",
    "onboarding": r"onboard|set ?up|training|getting started",
    "performance": r"perform|speed|slow|fast|lag",
}
NEGATIVE = re.compile(
    r"concern|worr|problem|issue|poor|bad|weak|slow|lag|crawl|missing|lack|hard|difficult|"
    r"confus|steep|expensive|pricey|overpriced|frustrat|disappoint|clunky|complain|painful",
    re.I,
)
POSITIVE = re.compile(r"great|good|fine|happy|solid|love|impress|smooth|easy|fast|fair", re.I)


def opportunity_calls(tools, said: str) -> list[str]:
    opps = OPP.findall(said) + [
        o["Id"]
        for a in ACCOUNT.findall(said)
        for o in rows(tools, f"SELECT Id FROM Opportunity WHERE AccountId = {q(a)}")
    ]
    return [
        c["TranscriptBody__c"] or ""
        for o in opps
        for c in rows(tools, f"SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = {q(o)}")
    ]


def names_in(sentence: str, common: set[str], people: set[str]) -> list[str]:
    """Capitalised runs that are not ordinary words of the calls, nor the speakers' names."""
    found = []
    for name in NAME.findall(sentence):
        kept = name.split()
        while kept and (kept[0].lower() in common or kept[0] in people):
            kept.pop(0)
        if kept:
            found.append(" ".join(kept))
    return found


def sales_insight_mining(tools, said: str, today: date) -> list[str]:
    bodies = opportunity_calls(tools, said)
    customer = [s for b in bodies for t in split_speakers(b)[1] for s in sentences(t)]
    if "competitor" not in said.lower():
        return sorted(
            {
                topic
                for s in customer
                if not ELSEWHERE.search(s)
                for topic, cue in SUBTOPICS.items()
                if re.search(cue, s, re.I)
                and (
                    bool(NEGATIVE.search(s)) != negated(s)
                    or (negated(s) and POSITIVE.search(s) and not NEGATIVE.search(s))
                )
            }
        )
    common = set(WORD.findall(" ".join(bodies)))
    people = {w for b in bodies for speaker, _ in lines(b) for w in speaker.split()}
    option: dict[str, bool] = {}
    for s in customer:
        for name in names_in(s, common, people):
            option[name] = bool(STILL_AN_OPTION.search(s)) and not RULED_OUT.search(s) and not negated(s)
    return sorted(n for n, keep in option.items() if keep)


# --- activity_priority and wrong_stage_rectification: stage keyword votes ---------------------

STAGE_CUES = {
    "Qualification": r"qualif|budget|money|fund|decision|decides|who signs|pain|problem|timeline|when they",
    "Discovery": r"discover|needs|requirement|technical|constraint|current (?:setup|process|system)|"
    r"how they work|demo|walkthrough|show",
    "Quote": r"quote|proposal|offer|pricing|price|quantit|line items|approv",
    "Negotiation": r"negotiat|terms|legal|lawyer|contract|agreement|redline|clause|procurement",
    "Closed": r"signature|signed|hand ?over|hand-off|onboard|set (?:them )?up|train|go-live|live|kickoff",
}


def voted_stage(text: str) -> str | None:
    """The stage with the most cue hits; ties go to the earliest hit (the work, not the context)."""
    votes = {s: [m.start() for m in re.finditer(p, text or "", re.I)] for s, p in STAGE_CUES.items()}
    votes = {s: v for s, v in votes.items() if v}
    return min(votes, key=lambda s: (-len(votes[s]), votes[s][0])) if votes else None


def activity_priority(tools, said: str, today: date) -> list[str]:
    opp = opportunity(tools, said)
    tasks = (
        rows(tools, f"SELECT Id, Subject FROM Task WHERE WhatId = {q(opp['Id'])} AND Status = 'Not Started'")
        if opp
        else []
    )
    return sorted(t["Id"] for t in tasks if voted_stage(t["Subject"]) not in (None, opp["StageName"]))


def wrong_stage_rectification(tools, said: str, today: date) -> list[str]:
    opp = opportunity(tools, said)
    if not opp:
        return []
    oid = q(opp["Id"])
    texts = [
        t["Subject"] for t in rows(tools, f"SELECT Subject FROM Task WHERE WhatId = {oid} AND Status != 'Not Started'")
    ]
    texts += [
        e["Subject"]
        for e in rows(
            tools, f"SELECT Subject FROM Event WHERE WhatId = {oid} AND StartDateTime <= {today.isoformat()}T23:59:59Z"
        )
    ]
    texts += [
        t
        for c in rows(tools, f"SELECT TranscriptBody__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = {oid}")
        for t in split_speakers(c["TranscriptBody__c"])[0]
    ]
    shown = [s for s in map(voted_stage, texts) if s]
    latest = max(shown, key=STAGES.index) if shown else None
    return [latest] if latest and latest != opp["StageName"] else []


# --- policy_violation_identification: limits, order and prohibitions read off the articles ----

FIRST_THEN = re.compile(r"(.+?)\bbefore\b(.+)", re.I)


def agent_sentences(tools, case_id: str) -> list[str]:
    """What our agent wrote in the case's emails (sent from our domain) and said in its chats, in order."""
    ours = {u["Email"].split("@")[-1] for u in rows(tools, "SELECT Email FROM User LIMIT 1") if u.get("Email")}
    emails = rows(
        tools, f"SELECT FromAddress, TextBody FROM EmailMessage WHERE ParentId = {q(case_id)} ORDER BY MessageDate"
    )
    chats = rows(tools, f"SELECT Body FROM LiveChatTranscript WHERE CaseId = {q(case_id)}")
    said = [e["TextBody"] for e in emails if (e["FromAddress"] or "").split("@")[-1] in ours]
    said += [t for c in chats for t in split_speakers(c["Body"])[0]]
    return [s for text in said for s in sentences(text)]


def over_limit(sentence: str, summary: str) -> bool:
    """The sentence states an amount above the article's stated $ or % limit."""
    for unit in (MONEY, PERCENT):
        limit = unit.search(summary)
        stated = [float(v.replace(",", "")) for v in unit.findall(sentence)]
        if limit and stated and max(stated) > float(limit.group(1).replace(",", "")):
            return True
    return False


def breached(article: dict, said: list[str]) -> bool:
    """An over-limit amount on the article's topic, its later step before its first one, or what it forbids."""
    summary = article["Summary"] or ""
    topic = words(article["Title"]) | words(summary)
    if MONEY.search(summary) or PERCENT.search(summary):
        return any(over_limit(s, summary) and not negated(s) for s in said if words(s) & topic)
    order = FIRST_THEN.match(summary)
    if order:
        first, then = words(order.group(1)), words(order.group(2))
        step = [i for i, s in enumerate(said) if words(s) & first]
        later = [i for i, s in enumerate(said) if words(s) & then and not negated(s)]
        return bool(later) and (not step or later[0] < step[0])
    if re.search(r"\bnever\b|must not|may not", summary, re.I):
        return any(len(words(s) & topic) >= 2 and not negated(s) for s in said)
    return False


def policy_violation_identification(tools, said: str, today: date) -> list[str]:
    case = CASE.search(said)
    if not case:
        return []
    spoken = agent_sentences(tools, case.group())
    articles = all_rows(tools, "SELECT Id, Title, Summary FROM Knowledge__kav")
    hits = [
        a
        for a in articles
        if re.search(r"\bpolic|never|must|before|require", a["Summary"] or "", re.I) and breached(a, spoken)
    ]
    return [hits[0]["Id"]] if len(hits) == 1 else []


# --- knowledge_qa, named_entity_disambiguation, case_routing: rare-word overlap ranking -------


def questions(said: str) -> list[str]:
    """The person's question(s): their words minus the sign-in and answer-format sentences."""
    kept = " ".join(
        s for s in sentences(said) if not re.search(r"signed in|return only|look this up|couldn't find", s, re.I)
    )
    return [part for part in re.split(r"another question:?", kept, flags=re.I) if part.strip()]


def knowledge_qa(tools, said: str, today: date) -> list[str]:
    articles = all_rows(
        tools, "SELECT Id, Title, Summary, FAQ_Answer__c FROM Knowledge__kav WHERE IsVisibleInPkb = true"
    )
    found = [best_match(ask, articles, ("Title", "Summary", "FAQ_Answer__c"))[0] for ask in questions(said)]
    return ["\n".join(a["FAQ_Answer__c"] or a["Summary"] for a in found if a)] if any(found) else []


def customer_account(tools, said: str) -> str | None:
    """The signed-in customer's account: a contact's account, or the person account itself."""
    ids = RECORD_ID.findall(said.split("signed in as", 1)[-1])
    if not ids:
        return None
    if ids[0].startswith("001"):
        return ids[0]
    found = rows(tools, f"SELECT AccountId FROM Contact WHERE Id = {q(ids[0])}")
    return found[0]["AccountId"] if found else None


def named_entity_disambiguation(tools, said: str, today: date) -> list[str]:
    account, days = customer_account(tools, said), re.search(r"(\d+) days ago", said)
    if not account or not days:
        return []
    n = int(days.group(1))
    lo, hi = today - timedelta(days=n + 7), today - timedelta(days=n - 7)
    orders = [
        o["Id"]
        for o in rows(
            tools,
            f"SELECT Id FROM Order WHERE AccountId = {q(account)} AND Status = 'Activated' "
            f"AND EffectiveDate >= {lo.isoformat()} AND EffectiveDate <= {hi.isoformat()}",
        )
    ]
    bought = (
        {i["Product2Id"] for i in rows(tools, f"SELECT Product2Id FROM OrderItem WHERE OrderId IN {id_list(orders)}")}
        if orders
        else set()
    )
    products = all_rows(tools, "SELECT Id, Name, Description, Family FROM Product2")
    match, _ = best_match(" ".join(questions(said)), products, ("Name", "Description", "Family"), among=bought)
    return [match["Id"]] if match else []


def owner_counts(tools, where: str) -> Counter:
    found = rows(tools, f"SELECT OwnerId, COUNT(Id) n FROM Case WHERE {where} GROUP BY OwnerId")
    return Counter({r["OwnerId"]: r["n"] for r in found})


def case_routing(tools, said: str, today: date) -> list[str]:
    case, months = CASE.search(said), re.search(r"past (\d+) months?", said)
    found = (
        rows(tools, f"SELECT Id, Subject, Description, OrderItemId__c FROM Case WHERE Id = {q(case.group())}")
        if case
        else []
    )
    if not found or not months:
        return []
    new = found[0]
    issue, _ = best_match(
        f"{new['Subject']} {new['Description']}",
        rows(tools, "SELECT Id, Name, IssueDescription__c FROM Issue__c"),
        ("Name", "IssueDescription__c"),
    )
    start = add_months(today, -int(months.group(1)))
    closed = f"Status = 'Closed' AND ClosedDate >= {start.isoformat()}T00:00:00Z AND ClosedDate <= {today.isoformat()}T23:59:59Z"
    ranks = [owner_counts(tools, f"{closed} AND IssueId__c = {q(issue['Id'])}")] if issue else []
    item = (
        rows(tools, f"SELECT Product2Id FROM OrderItem WHERE Id = {q(new['OrderItemId__c'])}")
        if new["OrderItemId__c"]
        else []
    )
    if item:
        ranks.append(owner_counts(tools, f"{closed} AND OrderItemId__r.Product2Id = {q(item[0]['Product2Id'])}"))
    agents = list(ranks[0]) if ranks else []
    for rank in ranks:
        top = max((rank[a] for a in agents), default=0)
        agents = [a for a in agents if rank[a] == top]
    if len(agents) > 1:
        open_cases = owner_counts(
            tools, f"Status != 'Closed' AND Id != {q(new['Id'])} AND OwnerId IN {id_list(agents)}"
        )
        agents = [min(agents, key=lambda a: open_cases[a])]
    if agents:
        tools.assign_case(new["Id"], agents[0])
    return agents[:1]


SOLVERS = {
    f.__name__: f
    for f in (
        lead_qualification,
        sales_insight_mining,
        activity_priority,
        wrong_stage_rectification,
        policy_violation_identification,
        knowledge_qa,
        named_entity_disambiguation,
        case_routing,
    )
}
TODAY = re.compile(r"Today's date: (\d{4}-\d{2}-\d{2})")


class CueSolver(Agent):
    """Generic-cue answers to eight text-reasoning types from the pointed records and reference lists."""

    async def start(self, setup: AgentSetup) -> None:
        self.tools, self.heard = RecordingTools(setup.tools, "cue"), []
        found = TODAY.search(setup.system_prompt)
        self.today = date.fromisoformat(found.group(1)) if found else date.today()

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self.heard.append(user_message)
        said = "\n".join(self.heard)
        self.tools.turn, self.tools.messages = turn, []
        solver = SOLVERS.get(recognise_task(self.heard[0]))
        answer = solver(self.tools, said, self.today) if solver else []
        return AgentTurn(reply=", ".join(answer) or NONE_TEXT, messages=self.tools.messages)

    def settings(self) -> dict:
        return {"kind": "baseline", "policy": "cue_solver"}

"""wrong_stage_rectification needs the activities read, not their stage words counted (issue 12).

A small solver votes per subject for the stage whose keywords it carries most (ties: the earliest
hit), over the activities the oracle reads (started or done tasks, events; calls are the calls
module's), then answers either the latest stage voted or the stage with most votes (None when it
is the recorded one). Each way scores at most the type's top-answer share + 5 points on the test
org (scale 1); on the first activity grammar, whose texts carried their own stage's words more often than
any other's, the latest stage scored 60% (b2b) and 54% (b2c) at scale 1, top share 25%."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.crm.schema import STAGES
from simulator.tasks.generate import generate_instances

KEYWORDS = {
    "Qualification": r"qualif|budget|fund|money|decision|decide|signs? off|timeline|pain",
    "Discovery": r"discover|demo|requirement|needs|workshop|walkthrough|technical|current (?:setup|system)",
    "Quote": r"quote|proposal|pric|offer|cost|figures|line items",
    "Negotiation": r"negotiat|contract|terms|legal|lawyer|redline|clause|procurement|counter",
    "Closed": r"signed|signature|kick-?off|onboard|go-live|training|hand-?over|rollout",
}
INSTANCES = 100


def voted(text: str) -> str | None:
    hits = {s: [m.start() for m in re.finditer(p, text, re.I)] for s, p in KEYWORDS.items()}
    hits = {s: h for s, h in hits.items() if h}
    return min(hits, key=lambda s: (-len(hits[s]), hits[s][0])) if hits else None


def evidence(conn, opp: str) -> list[str]:
    texts = [
        s for (s,) in conn.execute("SELECT Subject FROM Task WHERE WhatId = ? AND Status != 'Not Started'", (opp,))
    ]
    return texts + [s for (s,) in conn.execute("SELECT Subject FROM Event WHERE WhatId = ?", (opp,))]


def latest(votes: list[str]) -> str | None:
    return max(votes, key=STAGES.index) if votes else None


def most(votes: list[str]) -> str | None:
    return Counter(votes).most_common(1)[0][0] if votes else None


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_stage_keyword_votes_do_not_solve_wrong_stage(kind, scale1_org):
    org = scale1_org(kind)  # (the small test orgs hold too few stale deals: 24 distinct questions)
    conn = org.connect()
    questions = {}  # opportunity -> answer: each deal counted once (asked by Id or by name)
    for inst in generate_instances(org, INSTANCES, types=("wrong_stage_rectification",), seed=3):
        opp = (
            inst.params["opportunity"]
            if inst.params["ref"] == "id"
            else conn.execute("SELECT Id FROM Opportunity WHERE Name = ?", (inst.params["opportunity"],)).fetchone()[0]
        )
        questions[opp] = tuple(inst.answer)
    gold = list(questions.values())
    top = Counter(gold).most_common(1)[0][1] / len(gold)
    for pick in (latest, most):
        right = 0
        for opp, answer in questions.items():
            ((recorded,),) = conn.execute("SELECT StageName FROM Opportunity WHERE Id = ?", (opp,))
            shown = pick([s for s in map(voted, evidence(conn, opp)) if s])
            right += answer == (("None",) if shown in (None, recorded) else (shown,))
        assert right / len(gold) <= top + 0.05, (pick.__name__, right / len(gold), top)

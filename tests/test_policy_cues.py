"""policy_violation_identification needs reading, not cues (issue 12 items 1, 6): a shallow solver
with the audit's three generic cues scores at most the top-answer share + 5 points on the test orgs.

The cues (run on what the agent said, in order): a dollar amount above the refund article's limit
in a refund sentence, or a percent above the goodwill article's in a credit sentence, means that
breach; a replacement offered before any troubleshooting word means the troubleshoot-first breach;
an order detail before any verification word means the identity breach. On 6f00054's grammar
(before amounts above the limit stated without being granted, refunds and credits split in two,
troubleshooting done in plain words or only named, verification in other words) they scored 22%
(b2b) / 37% (b2c) at scale 1 and 26%+ on the b2b test org (target 25%); now 12% / 14%."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.tasks.generate import generate_instances

MARGIN = 0.05
REFUND = re.compile(r"refund|back on your (?:card|statement)|money back|reimburs", re.I)
CREDIT = re.compile(r"credit|goodwill|discount|code|% off", re.I)
REPLACE = re.compile(r"replacement|replace (?:it|the unit)|new unit|new one", re.I)
TROUBLESHOOT = re.compile(r"troubleshoot|restart|reboot|reset|power.?cycl|firmware|update|reseat|diagnos|cable", re.I)
ORDER_DETAIL = re.compile(
    r"order \d|your order|shipped|delivered|tracking|card ending|address ending|order total", re.I
)
VERIFIED = re.compile(r"verif|confirm|identity|security|on file|checks out", re.I)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def _limit(articles: dict[str, str], title_word: str, unit: str) -> float:
    body = next(b for t, b in articles.items() if title_word in t)
    return float(re.search(unit, body).group(1).replace(",", ""))


def _agent_text(conn, case: str) -> str:
    """What the agents said on a case: chat lines by a User, emails from a User's address."""
    users = {name for (name,) in conn.execute("SELECT Name FROM User")}
    mails = {e for (e,) in conn.execute("SELECT Email FROM User")}
    said = [
        b
        for f, b in conn.execute(
            "SELECT FromAddress, TextBody FROM EmailMessage WHERE ParentId = ? ORDER BY MessageDate", (case,)
        )
        if f in mails
    ]
    for (body,) in conn.execute("SELECT Body FROM LiveChatTranscript WHERE CaseId = ?", (case,)):
        said += [line.split(": ", 1)[1] for line in body.splitlines() if line.split(": ", 1)[0] in users]
    return "\n".join(said)


def cue_answer(conn, case: str) -> str | None:
    """The policy title the three cues point at, or None."""
    articles = dict(conn.execute("SELECT Title, FAQ_Answer__c FROM Knowledge__kav"))
    refund = _limit(articles, "Refund", r"\$([\d,]+)")
    credit = _limit(articles, "Goodwill", r"(\d+)%")
    text = _agent_text(conn, case)
    hits = []
    for s in _sentences(text):
        dollars = [float(d.replace(",", "")) for d in re.findall(r"\$([\d,]+(?:\.\d\d)?)", s)]
        percents = [float(p) for p in re.findall(r"(\d+)%", s)]
        if REFUND.search(s) and dollars and max(dollars) > refund:
            hits.append("Refund Approval Threshold")
        elif CREDIT.search(s) and percents and max(percents) > credit:
            hits.append("Goodwill Credit Limits")
    rep, ts = REPLACE.search(text), TROUBLESHOOT.search(text)
    if rep and (not ts or ts.start() > rep.start()):
        hits.append("Troubleshooting Before Replacement")
    detail, verified = ORDER_DETAIL.search(text), VERIFIED.search(text)
    if detail and (not verified or verified.start() > detail.start()):
        hits.append("Identity Verification Before Discussing Orders")
    return Counter(hits).most_common(1)[0][0] if hits else None


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_generic_cues_score_at_most_top_share_plus_five(request, org_name):
    org = request.getfixturevalue(org_name)
    conn = org.connect()
    titles = dict(conn.execute("SELECT Id, Title FROM Knowledge__kav"))
    instances = generate_instances(org, 100, types=["policy_violation_identification"], seed=0)
    gold = [None if i.is_none else titles[i.answer[0]] for i in instances]
    top = Counter(gold).most_common(1)[0][1] / len(gold)
    right = sum(cue_answer(conn, i.params["case_id"]) == g for i, g in zip(instances, gold))
    assert len(instances) >= 80 and right / len(instances) <= top + MARGIN, (right, len(instances), top)

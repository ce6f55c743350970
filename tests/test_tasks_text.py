"""Information retrieval and textual reasoning tasks: answers known by construction, and
generation + oracle validation on the small generated orgs."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest

from benchmarks.text_variety import field_variety
from simulator.crm.generator import calls
from simulator.crm.generator import activities, text, vocab
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.generate import generate_instances
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate
from tests.orgkit import AS_OF, OrgKit

TYPES = ("knowledge_qa", "named_entity_disambiguation", "sales_insight_mining", "wrong_stage_rectification",
         "activity_priority")
SUBJECTS = {stage: [activities.activity(random.Random(k), stage=stage, kind="task")[0] for k in range(8)]
            for stage in activities.KEYS}
EVENTS = {stage: [activities.activity(random.Random(k), stage=stage, kind="event")[0] for k in range(8)]
          for stage in activities.KEYS}



def dt(days_ago: float) -> str:
    return f"{(AS_OF - timedelta(days=days_ago)).isoformat()}T10:00:00.000+0000"


def generator(org, name):
    return generator_class(name)(load_catalog()[name], org.connect(), org.meta)


def draws(gen, want_none=False, n=60, seed=1):
    """Every distinct Draw from `n` attempts."""
    rng, out = random.Random(seed), {}
    for _ in range(n):
        d = gen.draw(rng, want_none)
        if d is not None:
            out[d.key] = d
    assert out, "no draw succeeded"
    return list(out.values())


def solve(org, name, params):
    with OrgSession(org) as session:
        return generator_class(name)(load_catalog()[name], None, org.meta).solve(CrmTools(session), params)


def opportunity(kit, name, stage, account):
    return kit.add("Opportunity", Name=name, StageName=stage, AccountId=account, CreatedDate=dt(200))


# --- knowledge_qa --------------------------------------------------------------------------

def test_knowledge_qa_reads_the_answer_off_the_public_article(tmp_path):
    kit = OrgKit("b2b")
    faqs = vocab.B2B_FAQS[:3]
    for title, question, answer, body in faqs:
        rid = kit.add("Knowledge__kav", Title=title, Summary=question, FAQ_Answer__c=body.format(a=answer),
                      IsVisibleInPkb=1, PublishStatus="Online", CreatedDate=dt(300))
        kit.label("Knowledge__kav", rid, "faq", json.dumps({"question": question, "answer": answer}))
    secret = kit.add("Knowledge__kav", Title="Escalation Matrix", Summary="Who to call about response times.",
                     FAQ_Answer__c="Call the Duty Manager on ext. 4471 about response time escalations.",
                     IsVisibleInPkb=0, CreatedDate=dt(300))
    kit.label("Knowledge__kav", secret, "internal", json.dumps(["ext. 4471"]))
    kit.add("Contact", Name="Ann Lee", AccountId=kit.add("Account", Name="Acme Corp"))  # who asks
    org = kit.build(tmp_path / "o.db")
    truth = {q: a for _t, q, a, _b in faqs}
    for d in draws(generator(org, "knowledge_qa")):
        assert d.answer == [truth[q] for q in d.params["questions"]]
        assert d.confidential_values == ["ext. 4471"]
        assert solve(org, "knowledge_qa", d.params) == d.answer


# --- named_entity_disambiguation ------------------------------------------------------------

AP_TEXT = "Ceiling-mount Wi-Fi 6E access point with tri-band radios for offices."


def test_named_entity_disambiguation_finds_the_one_fitting_purchase(tmp_path):
    kit = OrgKit("b2b")
    account = kit.add("Account", Name="Acme Corp", CreatedDate=dt(900))
    kit.add("Contact", Name="Ann Lee", AccountId=account, CreatedDate=dt(900))
    ap = kit.add("Product2", Name="Corvid AX6", Family="Networking", Description=AP_TEXT)
    switch = kit.add("Product2", Name="Corvid Switch", Family="Networking",
                     Description="Managed Layer 2 switch with gigabit ports for wiring closets.")
    firewall = kit.add("Product2", Name="Sentrel F400", Family="Security",
                       Description="Next-generation firewall for mid-size sites with inspection throughput.")
    for days, products in ((30, (ap, firewall)), (200, (switch,))):
        order = kit.add("Order", AccountId=account, Status="Activated",
                        EffectiveDate=(AS_OF - timedelta(days=days)).isoformat(), CreatedDate=dt(days))
        for p in products:
            kit.add("OrderItem", OrderId=order, Product2Id=p, Quantity=1.0, UnitPrice=10.0, CreatedDate=dt(days))
    org = kit.build(tmp_path / "o.db")
    found = draws(generator(org, "named_entity_disambiguation"), n=200)
    for d in found:
        p = d.params
        assert p["requester"]["account_id"] == account
        if abs(p["days"] - 200) <= 7:  # the switch alone was bought then: only its family is ambiguous
            assert (p["mode"], p["hint"], d.answer) == ("family", "Networking", [switch])
        else:
            assert abs(p["days"] - 30) <= 7
            fits_ap = p["hint"] == "Networking" or p["hint"].lower() in AP_TEXT.lower()
            assert d.answer == [ap if fits_ap else firewall]
        assert solve(org, "named_entity_disambiguation", p) == d.answer
    assert {d.answer[0] for d in found} == {ap, firewall, switch}


# --- sales_insight_mining -------------------------------------------------------------------

def _call(kit, opp, comps, sentiments, seed):
    body = calls.voice_call(random.Random(seed), agent="Sam Reed", contact="Ann Lee", company="Acme Corp",
                           product="Arkline R220 Rack Server", competitors=comps,
                           bant={b: True for b in ("Budget", "Authority", "Need", "Timeline")},
                           sentiments=sentiments, stage_hint="Discovery")
    cid = kit.add("VoiceCallTranscript__c", OpportunityId__c=opp, TranscriptBody__c=body, CreatedDate=dt(20))
    kit.label("VoiceCallTranscript__c", cid, "competitors", json.dumps(comps))
    kit.label("VoiceCallTranscript__c", cid, "sentiments", json.dumps(sentiments))


def test_sales_insight_mining_unions_the_calls_in_scope(tmp_path):
    kit = OrgKit("b2b")
    account = kit.add("Account", Name="Acme Corp", CreatedDate=dt(900))
    o1 = opportunity(kit, "Acme Corp - A", "Discovery", account)
    o2 = opportunity(kit, "Acme Corp - B", "Discovery", account)
    _call(kit, o1, ["Korvex", "Lumeric"], {"pricing": "negative", "support": "positive"}, 1)
    _call(kit, o2, ["Zentrova"], {"pricing": "neutral", "features": "negative", "onboarding": "negative"}, 2)
    org = kit.build(tmp_path / "o.db")
    expected = {
        ("competitors", o1): ["Korvex", "Lumeric"], ("competitors", o2): ["Zentrova"],
        ("competitors", account): ["Korvex", "Lumeric", "Zentrova"],
        ("negative", o1): ["pricing"], ("negative", o2): ["features", "onboarding"],
        ("negative", account): ["features", "onboarding", "pricing"]}
    found = draws(generator(org, "sales_insight_mining"), n=200)
    for d in found:
        assert d.answer == expected[d.params["topic"], d.params["record_id"]]
        assert solve(org, "sales_insight_mining", d.params) == d.answer
    assert len(found) == len(expected)


# --- wrong_stage_rectification and activity_priority ---------------------------------------

def _task(kit, opp, stage, status, k=0):
    return kit.add("Task", WhatId=opp, Subject=SUBJECTS[stage][k], Status=status, CreatedDate=dt(50))


def test_wrong_stage_rectification_reads_the_evidence(tmp_path):
    kit = OrgKit("b2c")
    account = kit.add("Account", Name="Ann Lee", CreatedDate=dt(900))
    wrong = opportunity(kit, "Ann Lee - Kettle", "Qualification", account)
    _task(kit, wrong, "Qualification", "Completed")
    _task(kit, wrong, "Discovery", "In Progress")
    kit.add("Event", WhatId=wrong, Subject=EVENTS["Discovery"][0], StartDateTime=dt(10), CreatedDate=dt(12))
    kit.label("Opportunity", wrong, "true_stage", json.dumps("Discovery"))
    right = opportunity(kit, "Ann Lee - Mixer", "Quote", account)
    _task(kit, right, "Qualification", "Completed")
    _task(kit, right, "Discovery", "Completed")
    _task(kit, right, "Quote", "In Progress")
    _task(kit, right, "Closed", "Not Started")  # a plan, not evidence
    org = kit.build(tmp_path / "o.db")
    gen = generator(org, "wrong_stage_rectification")
    for want_none, answer in ((False, ["Discovery"]), (True, None)):
        for d in draws(gen, want_none):
            assert d.answer == answer
            assert d.params["opportunity"] in ((wrong, "Ann Lee - Kettle") if answer else (right, "Ann Lee - Mixer"))
            assert solve(org, "wrong_stage_rectification", d.params) == answer


def test_activity_priority_lists_the_misfit_tasks(tmp_path):
    kit = OrgKit("b2b")
    account = kit.add("Account", Name="Acme Corp", CreatedDate=dt(900))
    opp = opportunity(kit, "Acme Corp - Router", "Discovery", account)
    _task(kit, opp, "Qualification", "Completed")
    for k in range(4):
        _task(kit, opp, "Discovery", "Not Started", k)
    stages = ("Negotiation", "Qualification", "Quote", "Closed", "Qualification")
    misfits = [_task(kit, opp, stage, "Not Started", k + 1) for k, stage in enumerate(stages)]
    for tid, stage in zip(misfits, stages):
        kit.label("Task", tid, "misfit_task", json.dumps({"opportunity": opp, "fits_stage": stage}))
    org = kit.build(tmp_path / "o.db")
    found = draws(generator(org, "activity_priority"))
    assert {d.params["ref"] for d in found} == {"id", "name"}
    for d in found:
        assert d.answer == sorted(misfits)
        assert solve(org, "activity_priority", d.params) == sorted(misfits)


# --- generated orgs --------------------------------------------------------------------------

@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_generation_and_oracle_on_generated_orgs(org_name, request):
    org = request.getfixturevalue(org_name)
    instances = generate_instances(org, 5, types=TYPES, seed=3)
    assert len(instances) == 5 * len(TYPES)
    outcomes = validate(org, instances)
    assert [o.instance_id for o in outcomes if not o.ok] == []

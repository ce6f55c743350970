"""Policy compliance tasks: breaches, BANT, quote pricing and configuration, on hand-built orgs
whose answers are known by construction, and on the small generated orgs."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from simulator.crm.generator import calls, threads
from simulator.crm.generator.articles import config_rule_article, pricing_rule_article
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.generate import generate_instances, to_instance
from simulator.tasks.naive_solver import attempt
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate
from tests.orgkit import OrgKit

TYPES = ("policy_violation_identification", "lead_qualification", "quote_approval", "invalid_config")
T0 = "2026-03-02T10:00:00.000+0000"


def _generator(name, org):
    return generator_class(name)(load_catalog()[name], org.connect(), org.meta)


def _draws(gen, want_none, n=30, seed=0):
    """Up to `n` draws (None draws skipped) from a seeded rng."""
    rng = random.Random(seed)
    return [d for d in (gen.draw(rng, want_none) for _ in range(n)) if d is not None]


def _solve(name, org, params):
    with OrgSession(org) as session:
        return generator_class(name)(load_catalog()[name], None, org.meta).solve(CrmTools(session), params)


def _article(kit, title, summary, body, public=1):
    return kit.add(
        "Knowledge__kav",
        Title=title,
        Summary=summary,
        FAQ_Answer__c=body,
        UrlName=title.replace(" ", "-"),
        PublishStatus="Online",
        Language="en_US",
        IsVisibleInPkb=public,
        CreatedDate=T0,
    )


def _base(kit):
    """A service agent, an account and a contact; their Ids."""
    user = kit.add("User", Name="Ada Agent", ProfileId="Service Agent", Email="ada@corp.example")
    account = kit.add("Account", Name="Acme Corp", OwnerId=user, CreatedDate=T0)
    contact = kit.add("Contact", Name="Cy Buyer", FirstName="Cy", LastName="Buyer", AccountId=account, CreatedDate=T0)
    return user, account, contact


# --- policy_violation_identification -----------------------------------------------------------


def test_policy_violation_identification_known_org(tmp_path):
    kit = OrgKit("b2b")
    user, account, contact = _base(kit)
    articles = {p["key"]: _article(kit, p["title"], p["summary"], p["body"]) for p in threads.service_policies("b2b")}
    rng = random.Random(0)
    kw = threads._slots(
        rng,
        "b2b",
        customer="Cy Buyer",
        customer_email="cy@x.example",
        agent="Ada Agent",
        product="Widget",
        issue={"name": "Widget broke"},
    )

    def case(subject):
        return kit.add(
            "Case", Subject=subject, Status="Closed", OwnerId=user, AccountId=account, ContactId=contact, CreatedDate=T0
        )

    privacy = case("privacy breach by email")
    kit.add("EmailMessage", ParentId=privacy, Subject="Help", TextBody="Hi, my widget broke.", CreatedDate=T0)
    kit.add(
        "EmailMessage",
        ParentId=privacy,
        Subject="RE: Help",
        CreatedDate=T0,
        TextBody="Hi Cy,\n\n" + threads.G.expand(rng, "breach_protect_customer_privacy", **kw),
    )
    kit.label("Case", privacy, "policy_breach", json.dumps(articles["protect_customer_privacy"]))
    refund = case("refund breach in chat")
    kit.add(
        "LiveChatTranscript",
        CaseId=refund,
        OwnerId=user,
        CreatedDate=T0,
        Body="Cy: I want my money back.\nAda: " + threads.G.expand(rng, "breach_no_refund_without_approval", **kw),
    )
    kit.label("Case", refund, "policy_breach", json.dumps(articles["no_refund_without_approval"]))
    clean = case("handled by the book")
    kit.add(
        "LiveChatTranscript",
        CaseId=clean,
        OwnerId=user,
        CreatedDate=T0,
        Body="Cy: Is it just me?\nAda: I can't share details about other customers.",
    )
    case("no conversation at all")
    org = kit.build(tmp_path / "o.db")
    gen = _generator("policy_violation_identification", org)

    expected = {privacy: [articles["protect_customer_privacy"]], refund: [articles["no_refund_without_approval"]]}
    some = _draws(gen, want_none=False)
    assert {d.params["case_id"] for d in some} == set(expected)
    for d in some:
        assert d.answer == expected[d.params["case_id"]]
        assert _solve(gen.name, org, d.params) == d.answer
    none = _draws(gen, want_none=True)
    assert {d.params["case_id"] for d in none} == {clean} and all(d.answer is None for d in none)
    assert _solve(gen.name, org, none[0].params) is None


# --- lead_qualification ----------------------------------------------------------------------


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_lead_qualification_known_org(tmp_path, org_type):
    kit = OrgKit(org_type)
    rep = kit.add("User", Name="Sam Seller", ProfileId="Sales Agent")
    company = "Acme Corp" if org_type == "b2b" else None
    extra = {"Company": company, "Title": "CIO"} if company else {}
    unmet = {"Lena Lead": ["Budget", "Timeline"], "Omar Open": ["Authority"], "Quinn Qualified": []}
    leads = {}
    for i, (name, gaps) in enumerate(unmet.items()):
        lead = kit.add(
            "Lead",
            Name=name,
            FirstName=name.split()[0],
            LastName=name.split()[1],
            Status="Working",
            OwnerId=rep,
            CreatedDate=T0,
            IsConverted=0,
            **extra,
        )
        leads[lead] = gaps
        body = calls.voice_call(
            random.Random(i),
            agent="Sam Seller",
            contact=name,
            company=company,
            product="Widget",
            competitors=[],
            sentiments={},
            stage_hint=None,
            bant={f: f not in gaps for f in ("Budget", "Authority", "Need", "Timeline")},
        )
        kit.add("VoiceCallTranscript__c", LeadId__c=lead, TranscriptBody__c=body, CreatedDate=T0)
        kit.label("Lead", lead, "bant_unmet", json.dumps(gaps))
    org = kit.build(tmp_path / "o.db")
    gen = _generator("lead_qualification", org)
    draws = _draws(gen, want_none=False)
    assert {d.params["lead_id"] for d in draws} == {lead for lead, gaps in leads.items() if gaps}
    for d in draws:
        assert d.answer == leads[d.params["lead_id"]]
        assert _solve(gen.name, org, d.params) == d.answer


# --- quote_approval and invalid_config --------------------------------------------------------


def _add_quote(kit, products, status, *lines, **fields):
    """A quote with `lines` ((product name, quantity, discount)); its Id."""
    fields = {"CreatedDate": T0, **fields}
    q = kit.add("Quote", Name=f"Q{len(kit.rows.get('Quote', [])) + 1}", Status=status, **fields)
    for name, qty, disc in lines:
        kit.add(
            "QuoteLineItem",
            QuoteId=q,
            Product2Id=products[name],
            Quantity=qty,
            UnitPrice=100.0,
            Discount=disc,
            TotalPrice=qty * 100.0 * (1 - disc / 100),
            CreatedDate=fields["CreatedDate"],
        )
    return q


def _quote_kit(org_type):
    """A kit with a sales rep, four products and their rules: (kit, rep, products, {rule: article})."""
    kit = OrgKit(org_type)
    rep = kit.add("User", Name="Sam Seller", ProfileId="Sales Agent")
    products = {
        name: kit.add("Product2", Name=name, Family=family, IsActive=1, CreatedDate=T0)
        for name, family in [
            ("Alpha Router", "Networking"),
            ("Beta Switch", "Networking"),
            ("Gamma Suite", "Software"),
            ("Delta Vault", "Compute & Storage"),
        ]
    }
    rng = random.Random(1)

    def rule_article(kind, rule, render):
        art = _article(kit, *render(rng, rule))
        kit.label("Knowledge__kav", art, kind, json.dumps(rule))
        return art

    rules = {
        "net": rule_article(
            "pricing_rule", {"kind": "max_discount", "family": "Networking", "max_discount": 15}, pricing_rule_article
        ),
        "soft": rule_article(
            "pricing_rule", {"kind": "max_discount", "family": "Software", "max_discount": 25}, pricing_rule_article
        ),
        "cap": rule_article(
            "config_rule", {"kind": "max_quantity", "product": "Delta Vault", "max_quantity": 10}, config_rule_article
        ),
        "excl": rule_article(
            "config_rule", {"kind": "exclusive", "products": ["Alpha Router", "Beta Switch"]}, config_rule_article
        ),
    }
    return kit, rep, products, rules


def _quote_org(tmp_path, org_type):
    """Checked quotes with known violations; (org, {quote: pricing answer}, {quote: config answer})."""
    kit, rep, products, rules = _quote_kit(org_type)
    account = kit.add("Account", Name="Acme Corp", OwnerId=rep, CreatedDate=T0)

    def quote(status, *lines):
        return _add_quote(kit, products, status, *lines, AccountId=account, OwnerId=rep)

    pricing, config = {}, {}
    q = quote("Needs Review", ("Alpha Router", 2, 20.0), ("Delta Vault", 10, 30.0))  # 20% > 15% on Networking
    pricing[q], config[q] = [rules["net"]], None
    q = quote("In Review", ("Gamma Suite", 1, 30.0))  # 30% > 25% on Software
    pricing[q], config[q] = [rules["soft"]], None
    q = quote("In Review", ("Alpha Router", 1, 15.0), ("Gamma Suite", 3, 25.0))  # at the caps: fine
    pricing[q], config[q] = None, None
    q = quote("Needs Review", ("Alpha Router", 1, 5.0), ("Beta Switch", 1, 0.0))  # exclusive pair
    pricing[q], config[q] = None, [rules["excl"]]
    q = quote("Needs Review", ("Delta Vault", 6, 0.0), ("Delta Vault", 5, 0.0))  # 11 units > 10 in total
    pricing[q], config[q] = None, [rules["cap"]]
    quote("Draft", ("Gamma Suite", 1, 90.0))  # not checked: never posed
    return kit.build(tmp_path / "o.db"), pricing, config


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
@pytest.mark.parametrize("name", ["quote_approval", "invalid_config"])
def test_quote_checks_known_org(tmp_path, org_type, name):
    org, pricing, config = _quote_org(tmp_path, org_type)
    expected = pricing if name == "quote_approval" else config
    gen = _generator(name, org)
    for want_none in (False, True):
        draws = _draws(gen, want_none, n=40)
        assert {d.params["quote_id"] for d in draws} == {q for q, a in expected.items() if (a is None) == want_none}
        for d in draws:
            assert d.answer == expected[d.params["quote_id"]]
            assert _solve(name, org, d.params) == d.answer


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_invalid_config_hard_names_a_quote_by_its_owner_and_state(tmp_path, org_type):
    """`via_owner`: the latest checked quote of a rep's customers in one state, only where the first
    quote that rep and state list is another (breaking other rules, for a quote that breaks one);
    the oracle finds it, the naive solver reads that first quote. The route poses each of its
    quotes once and only while it can pose both answers, so each answer is drawn by a generator of
    its own, and later draws name their quote by Id."""
    kit, sam, products, rules = _quote_kit(org_type)
    ria = kit.add("User", Name="Ria Rep", ProfileId="Sales Agent")
    acme, bolt, cora = (
        kit.add("Account", Name=name, OwnerId=sam, ShippingState=state, CreatedDate=T0)
        for name, state in (("Acme Corp", "TX"), ("Bolt Inc", "TX"), ("Cora LLC", "OH"))
    )

    def quote(owner, account, day, status, *lines):
        return _add_quote(
            kit,
            products,
            status,
            *lines,
            AccountId=account,
            OwnerId=owner,
            CreatedDate=f"2026-03-0{day}T10:00:00.000+0000",
        )

    quote(sam, acme, 1, "Accepted", ("Gamma Suite", 1, 0.0))  # Sam's first in TX: breaks nothing
    quote(sam, bolt, 2, "In Review", ("Delta Vault", 11, 0.0))  # an older checked one
    quote(sam, bolt, 3, "Needs Review", ("Alpha Router", 1, 0.0), ("Beta Switch", 1, 0.0))  # the latest: excl
    quote(ria, cora, 1, "Draft", ("Delta Vault", 12, 0.0))  # Ria's first in OH: over the cap
    quote(ria, cora, 2, "In Review", ("Gamma Suite", 1, 0.0))  # the latest: fine
    quote(sam, cora, 2, "Needs Review", ("Delta Vault", 12, 0.0))  # Sam's only one in OH: no distractor
    org = kit.build(tmp_path / "o.db")
    spec = load_catalog()["invalid_config"]
    spec = dataclasses.replace(spec, difficulty={**spec.difficulty, "hard": {"via_account": 0, "via_owner": 1}})
    expected = {("Sam Seller", "TX"): [rules["excl"]], ("Ria Rep", "OH"): None}
    rng = random.Random(0)
    for want_none in (False, True):
        gen = generator_class("invalid_config")(spec, org.connect(), org.meta, "hard")
        draws = [d for d in _draws(gen, want_none, n=20) if "owner" in d.params]
        assert {(d.params["owner"], d.params["state"]) for d in draws} == {
            k for k, a in expected.items() if (a is None) == want_none
        }
        for number, d in enumerate(draws, 1):
            assert d.answer == expected[d.params["owner"], d.params["state"]]
            assert _solve("invalid_config", org, d.params) == d.answer
            inst = to_instance(spec, org, d, rng, number, number - 1, "hard")
            assert f"that {d.params['owner']} prepared for a customer in {d.params['state']}" in inst.query
            assert not attempt(org, inst).ok


# --- the generated orgs -----------------------------------------------------------------------


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_generation_and_oracle_on_generated_orgs(request, org_name):
    org = request.getfixturevalue(org_name)
    instances = generate_instances(org, 5, types=TYPES, seed=3)
    assert len(instances) == 5 * len(TYPES)
    outcomes = validate(org, instances)
    assert [o.instance_id for o in outcomes if not o.ok] == []
    for name in ("policy_violation_identification", "quote_approval", "invalid_config"):
        assert sum(i.is_none for i in instances if i.task == name) == 1

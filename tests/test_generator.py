"""The org generator: determinism, sizes, integrity, latent labels, atomic writes."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date
from itertools import pairwise

import pytest

from simulator.crm import store
from simulator.crm.generator import DEFAULT_AS_OF, GENERATOR_VERSION, build_org, sales
from simulator.crm.schema import schema_for
from simulator.crm.store import q
from tests.conftest import TEST_SCALE

DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000\+0000$")
D_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@pytest.fixture(scope="module")
def orgs(org_paths):
    """The session's small orgs (seed 7, TEST_SCALE) and the metadata their builds stored."""
    return {org: (path, store.Org(path).meta) for org, path in org_paths.items()}


@pytest.fixture(params=["b2b", "b2c"])
def org(request, orgs):
    path, meta = orgs[request.param]
    conn = sqlite3.connect(path)
    yield request.param, conn, meta
    conn.close()


def test_meta(org):
    name, conn, meta = org
    assert meta.org == name and meta.seed == 7 and meta.scale == TEST_SCALE
    assert meta.as_of == DEFAULT_AS_OF and meta.generator_version == GENERATOR_VERSION
    assert meta.content_hash == store.content_hash(conn, schema_for(name))


def test_determinism(tmp_path):
    a = build_org("b2b", tmp_path / "a.db", seed=3, scale=0.05)
    b = build_org("b2b", tmp_path / "b.db", seed=3, scale=0.05)
    c = build_org("b2b", tmp_path / "c.db", seed=4, scale=0.05)
    assert store.Org(tmp_path / "a.db").meta == a  # a build returns the metadata it stored
    assert a.content_hash == b.content_hash
    assert a.content_hash != c.content_hash


def test_every_object_non_empty(org):
    name, conn, _ = org
    for obj in schema_for(name).objects:
        n = conn.execute(f"SELECT COUNT(*) FROM {q(obj.name)}").fetchone()[0]
        assert n > 0, obj.name


@pytest.mark.parametrize("name,lo,hi", [("b2b", 24_000, 38_000), ("b2c", 46_000, 64_000)])
def test_counts_at_scale_1(scale1_org, name, lo, hi):
    org = scale1_org(name)  # (the session's scale-1 build, seed 0)
    total = sum(org.counts().values())
    assert lo <= total <= hi, total
    # Enough records for 100 instances of every task type (policy and stage tasks included).
    conn = sqlite3.connect(org.path)
    checked = conn.execute("SELECT COUNT(*) FROM Quote WHERE Status IN ('Needs Review', 'In Review')").fetchone()[0]
    kinds = dict(conn.execute(f"SELECT kind, COUNT(*) FROM {store.TRUTH_TABLE} GROUP BY kind").fetchall())
    misfit_opps = conn.execute(
        f"SELECT COUNT(DISTINCT json_extract(value, '$.opportunity')) "
        f"FROM {store.TRUTH_TABLE} WHERE kind = 'misfit_task'"
    ).fetchone()[0]
    conn.close()
    assert checked >= 230, checked
    assert kinds["quote_violation"] >= 90 and kinds["config_violation"] >= 90, kinds
    assert checked - kinds["quote_violation"] - kinds["config_violation"] >= 0.12 * checked
    assert kinds["true_stage"] >= 130 and misfit_opps >= 130, (kinds["true_stage"], misfit_opps)


def test_referential_integrity(org):
    name, conn, _ = org
    schema = schema_for(name)
    for obj in schema.objects:
        for f in obj.fields_of_type("reference"):
            bad = conn.execute(
                f"SELECT COUNT(*) FROM {q(obj.name)} x WHERE x.{q(f.name)} IS NOT NULL AND NOT EXISTS "
                f"(SELECT 1 FROM {q(f.reference_to)} t WHERE t.Id = x.{q(f.name)})"
            ).fetchone()[0]
            assert bad == 0, f"{obj.name}.{f.name}"
    users = {r[0] for r in conn.execute('SELECT Id FROM "User"')}
    for old, new in conn.execute(
        "SELECT OldValue__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment'"
    ):
        assert new in users and (old is None or old in users)
    contacts = {r[0] for r in conn.execute("SELECT Id FROM Contact")}
    for (to,) in conn.execute("SELECT ToIds FROM EmailMessage"):
        assert to in users or to in contacts


def test_case_links_are_consistent(org):
    _, conn, _ = org
    # The order item of a case was bought by the case's account, before the case.
    bad = conn.execute("""SELECT COUNT(*) FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c
                          JOIN "Order" o ON o.Id = oi.OrderId
                          WHERE o.AccountId != c.AccountId OR o.CreatedDate > c.CreatedDate""").fetchone()[0]
    assert bad == 0
    # Every case names its order item; every triaged one its issue; a new one has no conversation yet.
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM \"Case\" WHERE OrderItemId__c IS NULL OR (IssueId__c IS NULL) != (Status = 'New')"
        ).fetchone()[0]
        == 0
    )
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM \"Case\" c WHERE c.Status = 'New' AND (EXISTS (SELECT 1 FROM "
            "EmailMessage e WHERE e.ParentId = c.Id) OR EXISTS (SELECT 1 FROM LiveChatTranscript l "
            "WHERE l.CaseId = c.Id))"
        ).fetchone()[0]
        == 0
    )


def test_quote_line_total_price(org):
    _, conn, _ = org
    rows = conn.execute("SELECT Quantity, UnitPrice, Discount, TotalPrice FROM QuoteLineItem").fetchall()
    assert rows
    for qty, price, disc, total in rows:
        assert total == round(qty * price * (1 - disc / 100), 2)
    # Opportunity.Amount is the sum of its line items.
    bad = conn.execute("""SELECT COUNT(*) FROM Opportunity o WHERE ABS(o.Amount -
                          (SELECT SUM(TotalPrice) FROM OpportunityLineItem l WHERE l.OpportunityId = o.Id)) > 0.01
                       """).fetchone()[0]
    assert bad == 0


def test_quote_rules(org):
    """Checked quotes violate at most one rule (about 40/40/20 pricing/config/none); every other
    quote complies; the labels agree with the rule articles and the quote lines."""
    _, conn, _ = org
    rules = {
        rid: json.loads(v)
        for rid, v in conn.execute(
            f"SELECT record_id, value FROM {store.TRUTH_TABLE} WHERE kind IN ('pricing_rule', 'config_rule')"
        )
    }
    cap = {r["family"]: (float(r["max_discount"]), rid) for rid, r in rules.items() if r["kind"] == "max_discount"}
    lines: dict = {}
    status = dict(conn.execute("SELECT Id, Status FROM Quote"))
    for quote, name, family, qty, disc in conn.execute(
        "SELECT l.QuoteId, p.Name, p.Family, l.Quantity, l.Discount FROM QuoteLineItem l "
        "JOIN Product2 p ON p.Id = l.Product2Id"
    ):
        lines.setdefault(quote, []).append((name, family, qty, disc))
    labels: dict = {}
    for quote, _kind, v in conn.execute(
        f"SELECT record_id, kind, value FROM {store.TRUTH_TABLE} WHERE kind IN ('quote_violation', 'config_violation')"
    ):
        labels.setdefault(quote, []).append(json.loads(v))
    shares = {"pricing": 0, "config": 0, "none": 0}
    for quote, ls in lines.items():
        hit = {cap[f][1] for _, f, _, d in ls if f in cap and d > cap[f][0] + 1e-9}
        qty: dict = {}
        for name, _, n, _ in ls:
            qty[name] = qty.get(name, 0) + n
        for rid, r in rules.items():
            if (r["kind"] == "max_quantity" and qty.get(r["product"], 0) > r["max_quantity"]) or (
                r["kind"] == "exclusive" and all(p in qty for p in r["products"])
            ):
                hit.add(rid)
        assert hit == set(labels.get(quote, [])), quote
        assert len(hit) <= 1, quote
        if status[quote] not in ("Needs Review", "In Review"):
            assert not hit, quote
        else:
            kind = "none" if not hit else ("pricing" if rules[next(iter(hit))]["kind"] == "max_discount" else "config")
            shares[kind] += 1
    total = sum(shares.values())
    assert total > 0
    expected = {
        "config": sales.CONFIG_SHARE,
        "pricing": (1 - sales.CONFIG_SHARE) * sales.PRICING_SHARE,
        "none": (1 - sales.CONFIG_SHARE) * (1 - sales.PRICING_SHARE),
    }
    for kind, share in expected.items():  # within three standard errors of the generator's shares
        assert abs(shares[kind] / total - share) <= 3 * (share * (1 - share) / total) ** 0.5, shares


def test_case_history(org):
    _, conn, _ = org
    cases = conn.execute('SELECT Id, OwnerId, CreatedDate, ClosedDate, Status FROM "Case"').fetchall()
    hist: dict[str, list] = {}
    for cid, t, fld, old, new in conn.execute(
        "SELECT CaseId__c, CreatedDate, Field__c, OldValue__c, NewValue__c FROM CaseHistory__c "
        "ORDER BY CaseId__c, CreatedDate, Field__c != 'Case Creation'"
    ):
        hist.setdefault(cid, []).append((t, fld, old, new))
    closed = 0
    for cid, owner, created, closed_date, status in cases:
        rows = hist[cid]
        assert rows[0][:2] == (created, "Case Creation")
        assigns = [r for r in rows if r[1] == "Owner Assignment"]
        assert assigns[0][2] is None
        for prev, nxt in pairwise(assigns):
            assert nxt[2] == prev[3]  # a transfer's old owner is the previous assignee
        assert assigns[-1][3] == owner
        closes = [r for r in rows if r[1] == "Case Closed"]
        assert (len(closes) == 1) == (closed_date is not None) == (status == "Closed")
        if closed_date:
            closed += 1
            assert closes[0][0] == closed_date and rows[-1][1] == "Case Closed"
            assert closed_date > created
    assert 0.65 <= closed / len(cases) <= 0.9


def test_dates_and_formats(org):
    name, conn, meta = org
    as_of = meta.as_of.isoformat()
    for obj in schema_for(name).objects:
        for f in obj.fields_of_type("datetime", "date"):
            pat = DT_RE if f.type == "datetime" else D_RE
            for (v,) in conn.execute(f"SELECT DISTINCT {q(f.name)} FROM {q(obj.name)} WHERE {q(f.name)} IS NOT NULL"):
                assert pat.match(v), (obj.name, f.name, v)
        if obj.field("CreatedDate"):
            mx = conn.execute(f"SELECT MAX(CreatedDate) FROM {q(obj.name)}").fetchone()[0]
            assert mx[:10] <= as_of, obj.name
        for f in obj.fields_of_type("boolean"):
            vals = {r[0] for r in conn.execute(f"SELECT DISTINCT {q(f.name)} FROM {q(obj.name)}")}
            assert vals <= {0, 1}, (obj.name, f.name)
    for table, col in (
        ("Case", "ClosedDate"),
        ("Lead", "ConvertedDate"),
        ("Contract", "CustomerSignedDate"),
        ("EmailMessage", "MessageDate"),
        ("Event", "StartDateTime"),
    ):
        mx = conn.execute(f"SELECT MAX({q(col)}) FROM {q(table)}").fetchone()[0]
        assert mx[:10] <= as_of, (table, col)
    # Open cases have no ClosedDate, unconverted leads no ConvertedDate.
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM Lead WHERE (IsConverted = 1) != (ConvertedDate IS NOT NULL) "
            "OR (IsConverted = 1) != (ConvertedAccountId IS NOT NULL)"
        ).fetchone()[0]
        == 0
    )


def test_b2b_b2c_differences(orgs):
    b2b = sqlite3.connect(orgs["b2b"][0])
    b2c = sqlite3.connect(orgs["b2c"][0])
    assert (
        b2b.execute("SELECT COUNT(*) FROM Account WHERE Industry IS NULL OR NumberOfEmployees IS NULL").fetchone()[0]
        == 0
    )
    assert b2b.execute("SELECT COUNT(*) FROM Lead WHERE Company IS NULL OR Title IS NULL").fetchone()[0] == 0
    assert b2b.execute("SELECT COUNT(*) FROM Contract WHERE CompanySignedDate IS NULL").fetchone()[0] == 0
    assert (
        b2c.execute(
            "SELECT COUNT(*) FROM Account WHERE Name != FirstName || ' ' || LastName OR PersonEmail IS NULL"
        ).fetchone()[0]
        == 0
    )
    assert (
        b2c.execute(
            "SELECT COUNT(*) FROM Account a WHERE (SELECT COUNT(*) FROM Contact c WHERE c.AccountId = a.Id) != 1"
        ).fetchone()[0]
        == 0
    )


def test_truth_labels(org):
    _, conn, _ = org
    kinds = dict(conn.execute(f"SELECT kind, COUNT(*) FROM {store.TRUTH_TABLE} GROUP BY kind").fetchall())
    for kind in (
        "true_stage",
        "misfit_task",
        "bant_unmet",
        "competitors",
        "sentiments",
        "policy_breach",
        "quote_violation",
        "config_violation",
        "faq",
        "internal",
        "pricing_rule",
        "config_rule",
        "service_policy",
    ):
        assert kinds.get(kind, 0) > 0, kind
    for obj, rid, kind, value in conn.execute(f"SELECT * FROM {store.TRUTH_TABLE}"):
        assert conn.execute(f"SELECT 1 FROM {q(obj)} WHERE Id = ?", (rid,)).fetchone(), (obj, kind)
        v = json.loads(value)
        if kind in ("policy_breach", "quote_violation", "config_violation"):
            assert conn.execute("SELECT 1 FROM Knowledge__kav WHERE Id = ?", (v,)).fetchone()
    # Mislabelled opportunities really are mislabelled; misfit tasks are Not Started.
    for stage, true in conn.execute(
        f"SELECT o.StageName, t.value FROM {store.TRUTH_TABLE} t JOIN Opportunity o "
        "ON o.Id = t.record_id WHERE t.kind = 'true_stage'"
    ):
        assert stage != json.loads(true) and stage != "Closed"
    assert (
        conn.execute(
            f"SELECT COUNT(*) FROM {store.TRUTH_TABLE} t JOIN Task k ON k.Id = t.record_id "
            "WHERE t.kind = 'misfit_task' AND k.Status != 'Not Started'"
        ).fetchone()[0]
        == 0
    )
    # Internal articles are hidden from the public knowledge base.
    assert (
        conn.execute(
            f"SELECT COUNT(*) FROM {store.TRUTH_TABLE} t JOIN Knowledge__kav k ON k.Id = t.record_id "
            "WHERE t.kind = 'internal' AND k.IsVisibleInPkb != 0"
        ).fetchone()[0]
        == 0
    )


def test_closed_opportunities_have_contracts_and_orders(org):
    _, conn, _ = org
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM Opportunity WHERE (StageName = 'Closed') != (ContractID__c IS NOT NULL)"
        ).fetchone()[0]
        == 0
    )
    assert (
        conn.execute("""SELECT COUNT(*) FROM Opportunity o JOIN Contract c ON c.Id = o.ContractID__c
                           WHERE c.AccountId != o.AccountId OR c.Status != 'Activated'
                           OR c.CustomerSignedDate < substr(o.CreatedDate, 1, 10)
                           OR NOT EXISTS (SELECT 1 FROM "Order" r WHERE r.ContractId = c.Id
                                          AND r.AccountId = c.AccountId AND r.EffectiveDate = c.StartDate)
                        """).fetchone()[0]
        == 0
    )


def test_territories_cover_every_state(org):
    _, conn, _ = org
    covered = set()
    for (desc,) in conn.execute("SELECT Description FROM Territory2"):
        covered |= set(desc.split(","))
    states = {r[0] for r in conn.execute("SELECT DISTINCT ShippingState FROM Account")}
    states |= {r[0] for r in conn.execute("SELECT DISTINCT State FROM Lead")}
    assert states <= covered
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM Territory2 t WHERE NOT EXISTS (SELECT 1 FROM "
            "UserTerritory2Association u WHERE u.Territory2Id = t.Id)"
        ).fetchone()[0]
        == 0
    )


def test_atomic_write(tmp_path, monkeypatch):
    from simulator.crm.generator import service

    out = tmp_path / "org.db"

    def boom(ctx):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(service, "cases", boom)
    with pytest.raises(RuntimeError):
        build_org("b2b", out, scale=0.05)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
    out.write_text("previous")
    with pytest.raises(RuntimeError):
        build_org("b2b", out, scale=0.05)
    assert out.read_text() == "previous"


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(org="b2x"),
        dict(scale=0),
        dict(scale=-1.0),
        dict(seed="1"),
        dict(as_of="2026-01-01"),
        dict(scale=float("nan")),
    ],
)
def test_bad_arguments(tmp_path, kwargs):
    args = dict(org="b2b", out=tmp_path / "x.db")
    args.update(kwargs)
    org = args.pop("org")
    out = args.pop("out")
    with pytest.raises(ValueError):
        build_org(org, out, **args)
    assert not out.exists()


def test_progress_and_as_of(tmp_path):
    seen: dict[str, int] = {}
    meta = build_org(
        "b2c",
        tmp_path / "p.db",
        scale=0.05,
        as_of=date(2025, 3, 1),
        progress=lambda obj, n: seen.__setitem__(obj, seen.get(obj, 0) + n),
    )
    counts = store.Org(tmp_path / "p.db").counts()
    assert seen == counts
    conn = sqlite3.connect(tmp_path / "p.db")
    assert conn.execute('SELECT MAX(CreatedDate) FROM "Case"').fetchone()[0][:10] <= "2025-03-01"
    assert meta.as_of == date(2025, 3, 1)


def test_prose_carries_the_labels(org):
    """Labelled competitors appear in their call; breach labels agree with the threads module's detectors."""
    from simulator.crm.generator.threads import breach_keys

    _, conn, _ = org
    for body, value in conn.execute(
        f"SELECT v.TranscriptBody__c, t.value FROM {store.TRUTH_TABLE} t "
        "JOIN VoiceCallTranscript__c v ON v.Id = t.record_id "
        "WHERE t.kind = 'competitors'"
    ):
        for comp in json.loads(value):
            assert comp in body
    policy_key = {
        rid: json.loads(v)
        for rid, v in conn.execute(f"SELECT record_id, value FROM {store.TRUTH_TABLE} WHERE kind = 'service_policy'")
    }
    label = {
        rid: json.loads(v)
        for rid, v in conn.execute(f"SELECT record_id, value FROM {store.TRUTH_TABLE} WHERE kind = 'policy_breach'")
    }
    convo: dict[str, str] = {}
    for cid, body in conn.execute("SELECT ParentId, TextBody FROM EmailMessage ORDER BY MessageDate"):
        convo[cid] = convo.get(cid, "") + "\n" + body
    for cid, body in conn.execute("SELECT CaseId, Body FROM LiveChatTranscript"):
        convo[cid] = convo.get(cid, "") + "\n" + body
    none = 0
    for cid, body in convo.items():
        found = breach_keys(body)
        if cid in label:
            assert found == {policy_key[label[cid]]}, cid
        else:
            none += 1
            assert not found, cid
    assert 0.1 <= none / len(convo) <= 0.35

"""The SOSL engine against a small hand-built b2b org with known text."""

from __future__ import annotations

import sqlite3
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.crm import store
from simulator.crm.errors import SalesforceError
from simulator.crm.ids import make_id
from simulator.crm.schema import schema_for
from simulator.crm.sosl import fts_query, run_sosl

SCHEMA = schema_for("b2b")
AS_OF = date(2024, 5, 15)
(U1,) = [make_id("005", 1)]
A1, A2, A3 = (make_id("001", i) for i in (1, 2, 3))
C1, C2 = (make_id("003", i) for i in (1, 2))
K1, K2, K3 = (make_id("500", i) for i in (1, 2, 3))
KA1, KA2 = (make_id("ka0", i) for i in (1, 2))

ROWS = {
    "User": [dict(Id=U1, Name="Ann Agent", Email="ann@corp.com", Phone="(555) 010-0001")],
    "Account": [
        dict(Id=A1, Name="Acme Corporation", Description="Makes rockets", Phone="(555) 123-4567", OwnerId=U1),
        dict(Id=A2, Name="Acme Labs", Description="Research for Acme rockets"),
        dict(Id=A3, Name="Globex", Description="Energy company"),
    ],
    "Contact": [
        dict(Id=C1, FirstName="John", LastName="Doe", Name="John Doe", Email="john.doe@acme.com", AccountId=A1),
        dict(Id=C2, FirstName="Jane", LastName="Roe", Name="Jane Roe", Email="jane@globex.com", AccountId=A3),
    ],
    "Case": [
        dict(
            Id=K1,
            Subject="Rocket engine failure",
            Description="The Acme rocket engine failed",
            Status="New",
            AccountId=A1,
        ),
        dict(
            Id=K2, Subject="Billing question", Description="Invoice for rockets is wrong", Status="Closed", AccountId=A2
        ),
        dict(Id=K3, Subject="Password reset", Description="Cannot log in", Status="New"),
    ],
    "Knowledge__kav": [
        dict(
            Id=KA1,
            Title="Refund policy",
            Summary="Refunds within 30 days",
            FAQ_Answer__c="Refunds are issued to the original card.",
        ),
        dict(Id=KA2, Title="Shipping times", Summary="Ships in 5 days", FAQ_Answer__c="No refund for shipping."),
    ],
}


@pytest.fixture(scope="module")
def conn():
    c = sqlite3.connect(":memory:")
    store.create_tables(c, SCHEMA)
    for table, records in ROWS.items():
        for rec in records:
            c.execute(
                f"INSERT INTO {store.q(table)} ({', '.join(store.q(k) for k in rec)}) "
                f"VALUES ({', '.join('?' * len(rec))})",
                list(rec.values()),
            )
    store.create_indexes(c, SCHEMA)
    store.write_meta(c, store.OrgMeta("b2b", 1, 1.0, AS_OF, "test"))
    c.commit()
    yield c
    c.close()


def sosl(conn, search: str) -> list[dict]:
    return run_sosl(conn, SCHEMA, AS_OF, search)["searchRecords"]


def found(conn, search: str) -> list[str]:
    return [r["Id"] for r in sosl(conn, search)]


def error(conn, search: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        sosl(conn, search)
    return info.value


def test_returning_shape(conn):
    recs = sosl(conn, "FIND {Globex} RETURNING Account(Name, Owner.Name), Contact(Name, Account.Name)")
    assert recs == [
        {
            "attributes": {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{A3}"},
            "Name": "Globex",
            "Owner": None,
        },
        {
            "attributes": {"type": "Contact", "url": f"/services/data/v62.0/sobjects/Contact/{C2}"},
            "Name": "Jane Roe",
            "Account": {
                "attributes": {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{A3}"},
                "Name": "Globex",
            },
        },
    ]


def test_without_returning_searches_every_object_for_ids(conn):
    recs = sosl(conn, "FIND {rockets}")
    assert {(r["attributes"]["type"], r["Id"]) for r in recs} == {("Account", A1), ("Account", A2), ("Case", K2)}
    assert all(set(r) == {"attributes", "Id"} for r in recs)


@pytest.mark.parametrize(
    "search, expected",
    [
        ("FIND {acme} RETURNING Account", {A1, A2}),
        ("FIND 'acme' RETURNING Account", {A1, A2}),
        ("find {ACME} in name fields returning account", {A1, A2}),
        ("FIND {rocket*} RETURNING Account", {A1, A2}),
        ("FIND {rock?ts} RETURNING Account", {A1, A2}),
        ("FIND {acme AND labs} RETURNING Account", {A2}),
        ("FIND {acme labs} RETURNING Account", {A2}),  # adjacent words: AND
        ("FIND {labs OR globex} RETURNING Account", {A2, A3}),
        ("FIND {acme AND NOT labs} RETURNING Account", {A1}),
        ("FIND {(labs OR corporation) AND acme} RETURNING Account", {A1, A2}),
        ('FIND {"acme labs"} RETURNING Account', {A2}),
        ('FIND {"labs acme"} RETURNING Account', set()),
        ("FIND {rockets} IN NAME FIELDS RETURNING Account", set()),
        ("FIND {rockets} IN ALL FIELDS RETURNING Account", {A1, A2}),
        ("FIND {john.doe@acme.com} IN EMAIL FIELDS RETURNING Contact", {C1}),
        ("FIND {555-123-4567} IN PHONE FIELDS RETURNING Account", {A1}),
        ("FIND {acme} IN PHONE FIELDS RETURNING Account", set()),
        ("FIND {refund*} RETURNING Knowledge__kav(Id, Title)", {KA1, KA2}),
    ],
)
def test_search_terms_and_scopes(conn, search, expected):
    assert set(found(conn, search)) == expected


def test_returning_where_order_limit(conn):
    assert found(conn, "FIND {rocket*} RETURNING Case(Id WHERE Status = 'New')") == [K1]
    assert found(conn, "FIND {acme} RETURNING Account(Id ORDER BY Name DESC)") == [A2, A1]
    assert found(conn, "FIND {acme} RETURNING Account(Id ORDER BY Name DESC LIMIT 1)") == [A2]
    assert found(conn, "FIND {acme} RETURNING Account(Id ORDER BY Name OFFSET 1)") == [A2]
    assert len(found(conn, "FIND {acme} RETURNING Account, Case LIMIT 2")) == 2
    assert [r["attributes"]["type"] for r in sosl(conn, "FIND {acme} RETURNING Case, Account")] == [
        "Case",
        "Account",
        "Account",
    ]


def test_rank_orders_within_an_object(conn):
    # A2 mentions acme twice (name and description) in a shorter text: ranked first.
    assert found(conn, "FIND {acme} RETURNING Account(Id)") == [A2, A1]


def test_escapes_and_quoting_are_safe(conn):
    assert found(conn, "FIND {acme\\-labs} RETURNING Account") == [A2]
    assert found(conn, "FIND {acme\\} labs} RETURNING Account") == [A2]
    assert found(conn, 'FIND {NEAR OR "col:"} RETURNING Account') == []
    assert fts_query('a\\"b OR c*') == '("a""b" OR "c" *)'
    assert error(conn, 'FIND {a"b OR cd}').code == "MALFORMED_SEARCH"


@pytest.mark.parametrize(
    "search, code, fragment",
    [
        ("FIND {a}", "MALFORMED_SEARCH", "longer than one character"),
        ("FIND {*}", "MALFORMED_SEARCH", "longer than one character"),
        ("FIND {ab AND}", "MALFORMED_SEARCH", "end of search term"),
        ("FIND {(ab}", "MALFORMED_SEARCH", "')'"),
        ('FIND {"ab}', "MALFORMED_SEARCH", "unterminated"),
        ("FIND {ab} IN BOGUS FIELDS", "MALFORMED_SEARCH", "scope"),
        ("FIND ab", "MALFORMED_SEARCH", "unexpected token"),
        ("SELECT Id FROM Account", "MALFORMED_SEARCH", "unexpected token: 'SELECT'"),
        ("", "MALFORMED_SEARCH", "empty"),
        ("FIND {acme} RETURNING Bogus", "INVALID_TYPE", "'Bogus'"),
        ("FIND {acme} RETURNING _fts_Account", "INVALID_TYPE", "_fts_Account"),
        ("FIND {acme} RETURNING Account(Nmae)", "INVALID_FIELD", "No such column 'Nmae' on entity 'Account'"),
        ("FIND {acme} RETURNING Account(Id WHERE Name = 5)", "INVALID_FIELD", "type string"),
        ("FIND {acme} RETURNING Account(Id WHERE COUNT(Id) > 1)", "MALFORMED_SEARCH", "Aggregate"),
        ("FIND {acme} LIMIT 2001", "NUMBER_OUTSIDE_VALID_RANGE", "2000"),
    ],
)
def test_errors(conn, search, code, fragment):
    err = error(conn, search)
    assert err.code == code and fragment in err.message, err


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40), st.sampled_from(["", " RETURNING Account(Name)", " IN NAME FIELDS", " LIMIT 3"]))
def test_fuzz_never_crashes_or_writes(conn, term, tail):
    before = (store.content_hash(conn, SCHEMA), conn.total_changes)
    for search in (f"FIND {{{term}}}{tail}", f"FIND {term}{tail}"):
        try:
            assert isinstance(run_sosl(conn, SCHEMA, AS_OF, search)["searchRecords"], list)
        except SalesforceError as err:
            assert err.code != "UNKNOWN_EXCEPTION", (search, err)
    assert (store.content_hash(conn, SCHEMA), conn.total_changes) == before

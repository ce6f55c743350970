"""The SOQL engine against a small hand-built b2b org with known rows."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.crm import store
from simulator.crm.errors import SalesforceError
from simulator.crm.ids import make_id
from simulator.crm.schema import schema_for
from simulator.crm.soql import dates, run_soql

SCHEMA = schema_for("b2b")
AS_OF = date(2024, 5, 15)  # a Wednesday


def ids(prefix: str, n: int) -> list[str]:
    return [make_id(prefix, i) for i in range(1, n + 1)]


U1, U2 = ids("005", 2)
A1, A2, A3 = ids("001", 3)
C1, C2, C3, C4 = ids("003", 4)
K1, K2, K3, K4 = ids("500", 4)
O1, O2, O3 = ids("006", 3)
(I1,) = ids("a03", 1)
P1, P2 = ids("01t", 2)
(H1,) = ids("a02", 1)


def dt(text: str) -> str:
    return text + ".000+0000"


ROWS = {
    "User": [
        dict(Id=U1, Name="Ann Agent", Email="ann@corp.com"),
        dict(Id=U2, Name="Bob Builder", Email="bob@corp.com"),
    ],
    "Account": [
        dict(
            Id=A1,
            Name="Acme Corp",
            Industry="Tech",
            NumberOfEmployees=50,
            ShippingState="CA",
            OwnerId=U1,
            CreatedDate=dt("2024-05-14T10:00:00"),
        ),
        dict(
            Id=A2,
            Name="Globex",
            Industry="Energy",
            NumberOfEmployees=200,
            ShippingState="NY",
            OwnerId=U2,
            CreatedDate=dt("2024-01-10T09:00:00"),
        ),
        dict(Id=A3, Name="Initech", ShippingState="TX", CreatedDate=dt("2023-12-31T23:59:59")),
    ],
    "Contact": [
        dict(Id=C1, LastName="Smith", AccountId=A1),
        dict(Id=C2, LastName="Jones", AccountId=A1),
        dict(Id=C3, LastName="O'Brien", AccountId=A2),
        dict(Id=C4, LastName="Orphan"),
    ],
    "Issue__c": [dict(Id=I1, Name="Battery drain")],
    "Case": [
        dict(
            Id=K1,
            Subject="Battery dies fast",
            Status="New",
            Priority="High",
            OwnerId=U1,
            AccountId=A1,
            ContactId=C1,
            CreatedDate=dt("2024-05-15T08:00:00"),
            IssueId__c=I1,
        ),
        dict(
            Id=K2,
            Subject="Screen cracked",
            Status="Closed",
            Priority="Low",
            OwnerId=U2,
            AccountId=A1,
            ContactId=C2,
            CreatedDate=dt("2024-05-01T12:00:00"),
            ClosedDate=dt("2024-05-03T12:00:00"),
        ),
        dict(
            Id=K3,
            Subject="Refund request",
            Status="Working",
            Priority="Medium",
            OwnerId=U1,
            AccountId=A2,
            ContactId=C3,
            CreatedDate=dt("2024-04-20T09:30:00"),
        ),
        dict(Id=K4, Subject="Login problem", OwnerId=U2, CreatedDate=dt("2023-11-05T00:00:00")),
    ],
    "CaseHistory__c": [dict(Id=H1, CaseId__c=K1, Field__c="Case Creation", CreatedDate=dt("2024-05-15T08:00:00"))],
    "Opportunity": [
        dict(
            Id=O1,
            Name="Acme deal",
            AccountId=A1,
            Amount=1000.0,
            CloseDate="2024-06-30",
            StageName="Negotiation",
            Probability=50.0,
        ),
        dict(
            Id=O2,
            Name="Globex renewal",
            AccountId=A2,
            Amount=2500.5,
            CloseDate="2024-03-15",
            StageName="Closed",
            Probability=100.0,
        ),
        dict(Id=O3, Name="Acme upsell", AccountId=A1, CloseDate="2024-05-15", StageName="Qualification"),
    ],
    "Product2": [dict(Id=P1, Name="Widget", IsActive=1), dict(Id=P2, Name="Gadget", IsActive=0)],
}


def build_org(rows: dict) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    store.create_tables(conn, SCHEMA)
    for table, records in rows.items():
        for rec in records:
            cols = ", ".join(store.q(c) for c in rec)
            conn.execute(
                f"INSERT INTO {store.q(table)} ({cols}) VALUES ({', '.join('?' * len(rec))})", list(rec.values())
            )
    store.create_indexes(conn, SCHEMA)
    store.write_meta(conn, store.OrgMeta("b2b", 1, 1.0, AS_OF, "test"))
    conn.commit()
    return conn


@pytest.fixture(scope="module")
def conn():
    c = build_org(ROWS)
    yield c
    c.close()


def soql(conn, query: str) -> dict:
    return run_soql(conn, SCHEMA, AS_OF, query)


def records(conn, query: str) -> list[dict]:
    return soql(conn, query)["records"]


def col(conn, query: str, key: str = "Id") -> list:
    return [r[key] for r in records(conn, query)]


def error(conn, query: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        soql(conn, query)
    return info.value


# --- shape ------------------------------------------------------------------------------------


def test_record_shape_and_types(conn):
    res = soql(conn, "SELECT Id, Name, NumberOfEmployees FROM Account WHERE Name = 'Acme Corp'")
    assert res == {
        "totalSize": 1,
        "done": True,
        "records": [
            {
                "attributes": {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{A1}"},
                "Id": A1,
                "Name": "Acme Corp",
                "NumberOfEmployees": 50,
            }
        ],
    }
    opp = records(conn, f"SELECT Amount, Probability, CloseDate FROM Opportunity WHERE Id = '{O1}'")[0]
    assert opp["Amount"] == 1000.0 and isinstance(opp["Amount"], float) and opp["CloseDate"] == "2024-06-30"
    assert list(opp) == ["attributes", "Amount", "Probability", "CloseDate"]  # Id only in the url
    assert opp["attributes"]["url"].endswith(O1)
    prods = records(conn, "SELECT Name, IsActive FROM Product2 ORDER BY Name")
    assert [(p["Name"], p["IsActive"]) for p in prods] == [("Gadget", False), ("Widget", True)]


def test_names_and_keywords_are_case_insensitive(conn):
    rec = records(conn, f"select name, account.NAME from CONTACT where ID = '{C1}'")[0]
    assert rec["Name"] is None and rec["Account"]["Name"] == "Acme Corp"
    assert list(rec) == ["attributes", "Name", "Account"]


def test_parent_paths(conn):
    rec = records(
        conn, f"SELECT Subject, Account.Owner.Name, Owner.Email, IssueId__r.Name FROM Case WHERE Id = '{K1}'"
    )[0]
    assert rec["Account"]["Owner"]["Name"] == "Ann Agent"
    assert rec["Account"]["attributes"] == {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{A1}"}
    assert rec["Owner"]["Email"] == "ann@corp.com" and rec["IssueId__r"]["Name"] == "Battery drain"
    null = records(conn, f"SELECT Account.Name, IssueId__r.Name FROM Case WHERE Id = '{K4}'")[0]
    assert null["Account"] is None and null["IssueId__r"] is None
    hist = records(conn, "SELECT CaseId__r.Subject, CaseId__r.Account.Name FROM CaseHistory__c")[0]
    assert hist["CaseId__r"]["Subject"] == "Battery dies fast"
    assert hist["CaseId__r"]["Account"]["Name"] == "Acme Corp"


def test_object_alias(conn):
    assert col(conn, "SELECT a.Name FROM Account a WHERE a.ShippingState = 'NY'", "Name") == ["Globex"]


def test_fields_all(conn):
    rec = records(conn, f"SELECT FIELDS(ALL) FROM Issue__c WHERE Id = '{I1}' LIMIT 1")[0]
    assert list(rec)[1:] == [f.name for f in SCHEMA.get("Issue__c").fields]


# --- child subqueries --------------------------------------------------------------------------


def test_child_subquery(conn):
    statements = []
    conn.set_trace_callback(statements.append)
    try:
        recs = records(
            conn,
            "SELECT Name, (SELECT LastName FROM Contacts WHERE LastName != 'Zed' "
            "ORDER BY LastName LIMIT 1), (SELECT Subject FROM cases ORDER BY Subject) "
            "FROM Account ORDER BY Name",
        )
    finally:
        conn.set_trace_callback(None)
    assert len(statements) == 3  # one main SELECT, one per subquery
    acme, globex, initech = recs
    assert list(acme) == ["attributes", "Name", "Contacts", "Cases"]
    assert acme["Contacts"] == {
        "totalSize": 1,
        "done": True,
        "records": [
            {
                "attributes": {"type": "Contact", "url": f"/services/data/v62.0/sobjects/Contact/{C2}"},
                "LastName": "Jones",
            }
        ],
    }
    assert [c["Subject"] for c in acme["Cases"]["records"]] == ["Battery dies fast", "Screen cracked"]
    assert globex["Contacts"]["records"][0]["LastName"] == "O'Brien"
    assert initech["Contacts"] is None and initech["Cases"] is None
    paged = records(
        conn, "SELECT Name, (SELECT Subject FROM Cases ORDER BY Subject OFFSET 1) FROM Account ORDER BY Name"
    )
    assert [c["Subject"] for c in paged[0]["Cases"]["records"]] == ["Screen cracked"] and paged[1]["Cases"] is None


def test_child_subquery_chunks_parent_ids():
    many = {
        "Account": [dict(Id=make_id("001", i), Name=f"Acct {i}") for i in range(1, 2001)],
        "Contact": [dict(Id=make_id("003", i), LastName=f"L{i}", AccountId=make_id("001", i)) for i in range(1, 2001)],
    }
    c = build_org(many)
    recs = records(c, "SELECT Name, (SELECT LastName FROM Contacts) FROM Account")
    assert len(recs) == 2000 and all(r["Contacts"]["totalSize"] == 1 for r in recs)


# --- WHERE ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, expected",
    [
        ("Status = 'New'", [K1]),
        ("Status = 'new'", [K1]),  # string equality ignores case, as in Salesforce
        ("Status != 'New'", [K2, K3, K4]),  # != keeps null Status
        ("Status <> 'New'", [K2, K3, K4]),
        ("NOT Status = 'New'", [K2, K3, K4]),
        ("Status = null", [K4]),
        ("Status != null", [K1, K2, K3]),
        ("Status IN ('New', 'Working')", [K1, K3]),
        ("Status NOT IN ('New', 'Working')", [K2, K4]),
        ("Status IN ('New', null)", [K1, K4]),
        ("Subject LIKE 'b%'", [K1]),
        ("Subject LIKE '%RE_UND%'", [K3]),
        ("NOT Subject LIKE '%a%'", [K3, K4]),
        ("(Status = 'New' OR Status = 'Closed') AND Priority = 'Low'", [K2]),
        ("Status = 'New' OR (Priority = 'Low' AND Owner.Name = 'Bob Builder')", [K1, K2]),
        ("NOT (Status = 'New' OR Status = 'Closed')", [K3, K4]),
        ("Account.Industry = 'Tech'", [K1, K2]),
        ("Account.Name != 'Acme Corp'", [K3, K4]),
        ("CreatedDate > 2024-05-01T12:00:00Z", [K1]),
        ("CreatedDate >= 2024-05-01T12:00:00Z", [K1, K2]),
        ("CreatedDate < 2024-04-20T09:30:00.000+0000", [K4]),
        ("CreatedDate <= 2024-04-20T04:30:00-05:00", [K3, K4]),
        ("ClosedDate = 2024-05-03T12:00:00Z", [K2]),
        (f"AccountId = '{A1[:15]}'", [K1, K2]),  # 15-character Ids match
        (f"AccountId IN ('{A2[:15]}')", [K3]),
        ("AccountId IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", [K1, K2]),
        ("Id NOT IN (SELECT CaseId__c FROM CaseHistory__c)", [K2, K3, K4]),
        ("AccountId NOT IN (SELECT Id FROM Account WHERE Industry = 'Tech')", [K3, K4]),
    ],
)
def test_where(conn, where, expected):
    assert sorted(col(conn, f"SELECT Id FROM Case WHERE {where}")) == sorted(expected)


@pytest.mark.parametrize(
    "where, expected",
    [
        ("Amount > 1000", [O2]),
        ("Amount >= 1000", [O1, O2]),
        ("Amount < 2000.5", [O1]),
        ("Amount = null", [O3]),
        ("Amount != 1000", [O2, O3]),
        ("Probability <= 50", [O1]),
        ("CloseDate = 2024-05-15", [O3]),
        ("CloseDate > 2024-05-15", [O1]),
        ("CloseDate = TODAY", [O3]),
        ("CloseDate > TODAY", [O1]),
        ("CloseDate < TODAY", [O2]),
        ("CloseDate = THIS_MONTH", [O3]),
        ("CloseDate = NEXT_MONTH", [O1]),
        ("CloseDate = LAST_N_MONTHS:2", [O2]),
        ("CloseDate = LAST_QUARTER", [O2]),
        ("CloseDate = THIS_QUARTER", [O1, O3]),
        ("CloseDate != THIS_QUARTER", [O2]),
        ("CloseDate <= THIS_QUARTER", [O1, O2, O3]),
        ("CloseDate >= THIS_QUARTER", [O1, O3]),
        ("CloseDate = NEXT_N_DAYS:46", [O1]),
        ("CloseDate = NEXT_N_DAYS:45", []),
        ("CALENDAR_MONTH(CloseDate) = 6", [O1]),
        ("DAY_IN_WEEK(CloseDate) = 4", [O3]),
        ("StageName IN ('Closed', 'Negotiation') AND Account.ShippingState = 'NY'", [O2]),
    ],
)
def test_where_numbers_and_dates(conn, where, expected):
    assert sorted(col(conn, f"SELECT Id FROM Opportunity WHERE {where}")) == sorted(expected)


@pytest.mark.parametrize(
    "where, expected",
    [
        ("CreatedDate = TODAY", [K1]),
        ("CreatedDate = YESTERDAY", []),
        ("CreatedDate = LAST_N_DAYS:14", [K1, K2]),
        ("CreatedDate = LAST_N_DAYS:0", [K1]),
        ("CreatedDate = LAST_90_DAYS", [K1, K2, K3]),
        ("CreatedDate = THIS_WEEK", [K1]),
        ("CreatedDate = LAST_MONTH", [K3]),
        ("CreatedDate = THIS_YEAR", [K1, K2, K3]),
        ("CreatedDate = LAST_YEAR", [K4]),
        ("CreatedDate > LAST_YEAR", [K1, K2, K3]),
        ("CreatedDate < THIS_MONTH", [K3, K4]),
        ("CreatedDate = LAST_N_YEARS:1", [K4]),
        ("CreatedDate = N_DAYS_AGO:14", [K2]),
        ("DAY_ONLY(CreatedDate) = 2024-05-01", [K2]),
        ("HOUR_IN_DAY(CreatedDate) = 9", [K3]),
        ("CALENDAR_YEAR(CreatedDate) = 2023", [K4]),
        ("CALENDAR_QUARTER(CreatedDate) = 2", [K1, K2, K3]),
    ],
)
def test_relative_dates_on_datetimes(conn, where, expected):
    assert sorted(col(conn, f"SELECT Id FROM Case WHERE {where}")) == sorted(expected)


@pytest.mark.parametrize(
    "literal, start, end",
    [
        ("TODAY", "2024-05-15", "2024-05-16"),
        ("YESTERDAY", "2024-05-14", "2024-05-15"),
        ("TOMORROW", "2024-05-16", "2024-05-17"),
        ("THIS_WEEK", "2024-05-12", "2024-05-19"),
        ("LAST_WEEK", "2024-05-05", "2024-05-12"),
        ("NEXT_WEEK", "2024-05-19", "2024-05-26"),
        ("LAST_MONTH", "2024-04-01", "2024-05-01"),
        ("THIS_MONTH", "2024-05-01", "2024-06-01"),
        ("NEXT_MONTH", "2024-06-01", "2024-07-01"),
        ("LAST_90_DAYS", "2024-02-15", "2024-05-16"),
        ("NEXT_90_DAYS", "2024-05-16", "2024-08-14"),
        ("LAST_N_DAYS:7", "2024-05-08", "2024-05-16"),
        ("NEXT_N_DAYS:7", "2024-05-16", "2024-05-23"),
        ("LAST_N_WEEKS:2", "2024-04-28", "2024-05-12"),
        ("NEXT_N_WEEKS:2", "2024-05-19", "2024-06-02"),
        ("LAST_N_MONTHS:6", "2023-11-01", "2024-05-01"),
        ("NEXT_N_MONTHS:2", "2024-06-01", "2024-08-01"),
        ("THIS_QUARTER", "2024-04-01", "2024-07-01"),
        ("LAST_QUARTER", "2024-01-01", "2024-04-01"),
        ("NEXT_QUARTER", "2024-07-01", "2024-10-01"),
        ("LAST_N_QUARTERS:2", "2023-10-01", "2024-04-01"),
        ("NEXT_N_QUARTERS:2", "2024-07-01", "2025-01-01"),
        ("THIS_YEAR", "2024-01-01", "2025-01-01"),
        ("LAST_YEAR", "2023-01-01", "2024-01-01"),
        ("NEXT_YEAR", "2025-01-01", "2026-01-01"),
        ("LAST_N_YEARS:2", "2022-01-01", "2024-01-01"),
        ("NEXT_N_YEARS:2", "2025-01-01", "2027-01-01"),
        ("THIS_FISCAL_QUARTER", "2024-04-01", "2024-07-01"),
    ],
)
def test_relative_date_ranges(literal, start, end):
    name, _, n = literal.partition(":")
    lo, hi = dates.relative_range(name, int(n) if n else None, AS_OF)
    assert (lo.isoformat(), hi.isoformat()) == (start, end)


def test_mixing_and_or_needs_parentheses(conn):
    err = error(conn, "SELECT Id FROM Case WHERE Status = 'New' AND Priority = 'Low' OR Status = 'x'")
    assert err.code == "MALFORMED_QUERY" and "unexpected token: 'OR'" in err.message


@pytest.mark.parametrize(
    "where, kind",
    [
        ("CreatedDate > 2024-01-01", "dateTime"),
        ("CreatedDate > '2024-01-01T00:00:00Z'", "dateTime"),
        ("CloseDate > 2024-01-01T00:00:00Z", "date"),
        ("CloseDate = '2024-01-01'", "date"),
    ],
)
def test_date_type_mismatch(conn, where, kind):
    obj = "Case" if "Created" in where else "Opportunity"
    err = error(conn, f"SELECT Id FROM {obj} WHERE {where}")
    field = where.split()[0]
    assert err.code == "INVALID_FIELD"
    assert err.message == (
        f"value of filter criterion for field '{field}' must be of type {kind} and should not be enclosed in quotes"
    )


def test_other_type_mismatches(conn):
    assert "type string and should be enclosed" in error(conn, "SELECT Id FROM Case WHERE Status = 5").message
    assert "type double" in error(conn, "SELECT Id FROM Opportunity WHERE Amount = '5'").message
    assert "type boolean" in error(conn, "SELECT Id FROM Product2 WHERE IsActive = 'true'").message
    assert col(conn, "SELECT Name FROM Product2 WHERE IsActive = TRUE", "Name") == ["Widget"]


def test_string_escapes(conn):
    assert col(conn, "SELECT LastName FROM Contact WHERE LastName = 'O\\'Brien'", "LastName") == ["O'Brien"]
    assert col(conn, "SELECT LastName FROM Contact WHERE LastName LIKE 'o\\'%'", "LastName") == ["O'Brien"]


# --- aggregates ------------------------------------------------------------------------------


def test_count_only(conn):
    assert soql(conn, "SELECT COUNT() FROM Case") == {"totalSize": 4, "done": True, "records": []}
    assert soql(conn, "SELECT count() FROM Case WHERE Status = 'New'")["totalSize"] == 1
    assert soql(conn, "SELECT COUNT() FROM Case LIMIT 2")["totalSize"] == 2


def test_aggregates_without_group_by(conn):
    rec = records(
        conn,
        "SELECT COUNT(Id), COUNT(Amount) n, COUNT_DISTINCT(AccountId), SUM(Amount), "
        "AVG(Amount), MIN(CloseDate), MAX(Amount) FROM Opportunity",
    )
    assert rec == [
        {
            "attributes": {"type": "AggregateResult"},
            "expr0": 3,
            "n": 2,
            "expr1": 2,
            "expr2": 3500.5,
            "expr3": 1750.25,
            "expr4": "2024-03-15",
            "expr5": 2500.5,
        }
    ]


def test_group_by_having_order(conn):
    recs = records(
        conn,
        "SELECT Owner.Name, COUNT(Id) cnt FROM Case GROUP BY Owner.Name HAVING COUNT(Id) > 1 ORDER BY Owner.Name DESC",
    )
    assert recs == [
        {"attributes": {"type": "AggregateResult"}, "Name": "Bob Builder", "cnt": 2},
        {"attributes": {"type": "AggregateResult"}, "Name": "Ann Agent", "cnt": 2},
    ]
    recs = records(conn, "SELECT AccountId, COUNT(Id) FROM Case GROUP BY AccountId ORDER BY COUNT(Id) DESC, AccountId")
    assert [(r["AccountId"], r["expr0"]) for r in recs] == [(A1, 2), (None, 1), (A2, 1)]
    recs = records(
        conn, "SELECT Status, COUNT(Id) FROM Case GROUP BY Status HAVING Status != 'Closed' ORDER BY Status NULLS LAST"
    )
    assert [r["Status"] for r in recs] == ["New", "Working", None]


def test_group_by_date_functions(conn):
    recs = records(
        conn,
        "SELECT CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) m, COUNT(Id) "
        "FROM Case GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) "
        "ORDER BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate)",
    )
    assert [(r["expr0"], r["m"], r["expr1"]) for r in recs] == [(2023, 11, 1), (2024, 4, 1), (2024, 5, 2)]
    recs = records(
        conn,
        "SELECT DAY_ONLY(CreatedDate) d, WEEK_IN_YEAR(CreatedDate) w, DAY_IN_YEAR(CreatedDate) y, "
        "DAY_IN_MONTH(CreatedDate) dm, WEEK_IN_MONTH(CreatedDate) wm, FISCAL_YEAR(CreatedDate) f "
        f"FROM Case WHERE Id = '{K1}' GROUP BY DAY_ONLY(CreatedDate), WEEK_IN_YEAR(CreatedDate), "
        "DAY_IN_YEAR(CreatedDate), DAY_IN_MONTH(CreatedDate), WEEK_IN_MONTH(CreatedDate), "
        "FISCAL_YEAR(CreatedDate)",
    )
    assert [(r["d"], r["w"], r["y"], r["dm"], r["wm"], r["f"]) for r in recs] == [("2024-05-15", 20, 136, 15, 3, 2024)]


def test_ungrouped_field_is_an_error(conn):
    err = error(conn, "SELECT Status, COUNT(Id) FROM Case")
    assert (err.code, err.message) == ("MALFORMED_QUERY", "Field must be grouped or aggregated: Status")
    assert error(conn, "SELECT Status, COUNT(Id) FROM Case GROUP BY Priority").code == "MALFORMED_QUERY"
    assert error(conn, "SELECT Id FROM Case WHERE COUNT(Id) > 1").code == "MALFORMED_QUERY"
    assert error(conn, "SELECT Name n FROM Account").message == "Only aggregate expressions use field aliasing"
    assert error(conn, "SELECT SUM(Name) FROM Account").code == "INVALID_FIELD"


# --- ORDER BY, LIMIT, OFFSET -------------------------------------------------------------------


def test_order_limit_offset(conn):
    assert col(conn, "SELECT Name FROM Account ORDER BY NumberOfEmployees", "Name") == [
        "Initech",
        "Acme Corp",
        "Globex",
    ]
    assert col(conn, "SELECT Name FROM Account ORDER BY NumberOfEmployees DESC", "Name") == [
        "Globex",
        "Acme Corp",
        "Initech",
    ]
    assert col(conn, "SELECT Name FROM Account ORDER BY NumberOfEmployees ASC NULLS LAST", "Name") == [
        "Acme Corp",
        "Globex",
        "Initech",
    ]
    assert col(conn, "SELECT Name FROM Account ORDER BY NumberOfEmployees DESC NULLS FIRST", "Name") == [
        "Initech",
        "Globex",
        "Acme Corp",
    ]
    assert col(conn, "SELECT Name FROM Account ORDER BY Name LIMIT 2 OFFSET 1", "Name") == ["Globex", "Initech"]
    assert col(conn, "SELECT Name FROM Account ORDER BY Name OFFSET 2", "Name") == ["Initech"]
    assert col(conn, "SELECT Subject FROM Case ORDER BY Account.Name DESC, Subject LIMIT 2", "Subject") == [
        "Refund request",
        "Battery dies fast",
    ]


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, code, fragment",
    [
        ("SELECT Id FROM Foo", "INVALID_TYPE", "sObject type 'Foo' is not supported"),
        ("SELECT key FROM _meta", "INVALID_TYPE", "'_meta'"),
        ("SELECT Id FROM _truth", "INVALID_TYPE", "'_truth'"),
        ("SELECT Id FROM _fts_Account", "INVALID_TYPE", "'_fts_Account'"),
        ("SELECT Nmae FROM Case", "INVALID_FIELD", "No such column 'Nmae' on entity 'Case'"),
        ("SELECT Account.Nmae FROM Case", "INVALID_FIELD", "No such column 'Nmae' on entity 'Account'"),
        ("SELECT Acount.Name FROM Case", "INVALID_FIELD", "Didn't understand relationship 'Acount'"),
        ("SELECT AccountId.Name FROM Case", "INVALID_FIELD", "Didn't understand relationship 'AccountId'"),
        ("SELECT Id FROM Case WHERE Bogus = 1", "INVALID_FIELD", "No such column 'Bogus'"),
        ("SELECT (SELECT Id FROM Bogus) FROM Account", "INVALID_TYPE", "Didn't understand relationship 'Bogus'"),
        ("SELECT Id FRM Case", "MALFORMED_QUERY", "unexpected token: 'Case'"),
        ("SELECT * FROM Case", "MALFORMED_QUERY", "unexpected token: '*'"),
        ("", "MALFORMED_QUERY", "empty"),
        ("   ", "MALFORMED_QUERY", "empty"),
        ("UPDATE Case SET Status = 'x'", "MALFORMED_QUERY", "unexpected token: 'UPDATE'"),
        ("DELETE FROM Case", "MALFORMED_QUERY", "unexpected token"),
        ("INSERT INTO Case VALUES ('x')", "MALFORMED_QUERY", "unexpected token"),
        ("SELECT Id FROM Case; DROP TABLE Case", "MALFORMED_QUERY", "unexpected token: ';'"),
        ("PRAGMA writable_schema = 1", "MALFORMED_QUERY", "unexpected token"),
        ("ATTACH DATABASE 'x.db' AS x", "MALFORMED_QUERY", "unexpected token"),
        ("SELECT Id FROM Case LIMIT -1", "MALFORMED_QUERY", "unexpected token: '-1'"),
        ("SELECT Id FROM Case LIMIT 1.5", "MALFORMED_QUERY", "unexpected token"),
        ("SELECT Id FROM Case OFFSET 2001", "NUMBER_OUTSIDE_VALID_RANGE", "2000"),
        ("SELECT Id FROM Case WHERE Subject INCLUDES ('a')", "INVALID_FIELD", "multipicklist"),
        ("SELECT Id FROM Case WHERE CreatedDate = LAST_N_DAYS", "MALFORMED_QUERY", "LAST_N_DAYS"),
        ("SELECT Id FROM Case WHERE CreatedDate = SOMEDAY", "MALFORMED_QUERY", "unexpected token: 'SOMEDAY'"),
        ("SELECT Id FROM Case WHERE CreatedDate > 2024-02-30T00:00:00Z", "MALFORMED_QUERY", "invalid dateTime"),
        ("SELECT Id FROM Case WHERE Subject = 'a\\q'", "MALFORMED_QUERY", "Illegal escape sequence"),
        ("SELECT FOO(Id) FROM Case", "MALFORMED_QUERY", "Unknown function"),
        ("SELECT CALENDAR_YEAR(Subject) FROM Case GROUP BY CALENDAR_YEAR(Subject)", "MALFORMED_QUERY", "date"),
        ("SELECT Id FROM Case WHERE Id IN (SELECT Subject FROM Case)", "MALFORMED_QUERY", "Id or reference"),
        ("SELECT COUNT(), Id FROM Case", "MALFORMED_QUERY", "COUNT()"),
        ("SELECT Name, name FROM Account", "MALFORMED_QUERY", "duplicate field selected: Name"),
        ("SELECT Name, (SELECT Id FROM Contacts OFFSET 2001) FROM Account", "NUMBER_OUTSIDE_VALID_RANGE", "2000"),
        ("SELECT Id FROM Case WHERE AccountId = '001xyz'", "INVALID_QUERY_FILTER_OPERATOR", "invalid ID field: 001xyz"),
        (
            "SELECT Id FROM Case WHERE Id IN ('500Kd0000000001AAA', 'x')",
            "INVALID_QUERY_FILTER_OPERATOR",
            "invalid ID field: x",
        ),
    ],
)
def test_errors(conn, query, code, fragment):
    err = error(conn, query)
    assert err.code == code and fragment in err.message, err


def test_syntax_error_points_at_the_token(conn):
    err = error(conn, "SELECT Id\nFROM Case WHERE Status = = 'x'")
    assert (
        err.message
        == "\nFROM Case WHERE Status = = 'x'\n                         ^\nERROR at Row:2:Column:26\nunexpected token: '='"
    )


def test_sqlite_failures_are_salesforce_errors(conn):
    conn.set_progress_handler(lambda: 1, 1)  # the caller's timeout interrupts the statement
    try:
        assert error(conn, "SELECT Id FROM Case").code == "QUERY_TIMEOUT"
    finally:
        conn.set_progress_handler(None, 1)


# --- safety, speed --------------------------------------------------------------------------


def snapshot(conn) -> tuple:
    schema_sql = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    return store.content_hash(conn, SCHEMA), tuple(schema_sql), conn.total_changes


VALID = [
    "SELECT Id, Subject, Account.Name FROM Case WHERE Status != 'Closed' ORDER BY CreatedDate DESC LIMIT 5",
    "SELECT Name, (SELECT LastName FROM Contacts) FROM Account WHERE Name LIKE 'A%'",
    "SELECT Owner.Name, COUNT(Id) FROM Case WHERE CreatedDate = LAST_N_DAYS:30 GROUP BY Owner.Name HAVING COUNT(Id) > 0",
    "SELECT Id FROM Opportunity WHERE AccountId IN (SELECT Id FROM Account WHERE Industry = 'Tech') AND Amount > 10.5",
    "SELECT CALENDAR_MONTH(CloseDate), SUM(Amount) FROM Opportunity GROUP BY CALENDAR_MONTH(CloseDate)",
]
TOKENS = [
    "SELECT",
    "FROM",
    "WHERE",
    "(",
    ")",
    ",",
    "'",
    "\\",
    ";",
    "--",
    "/*",
    "DROP TABLE Case",
    "AND",
    "OR",
    "NOT",
    "=",
    "null",
    "LIMIT",
    "99999999999999999999999",
    "-1",
    "\x00",
    '"',
    "_meta",
    "sqlite_master",
    "COUNT()",
    "TODAY",
    "LAST_N_DAYS:999999999",
    "2024-13-45",
    "GROUP BY",
    "ORDER BY",
    "IN",
    "(SELECT Id FROM Case)",
    "Account.Owner.Account",
    "'%'",
]


@st.composite
def mutated(draw):
    words = draw(st.sampled_from(VALID)).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(words)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        if action == "insert" or not words:
            words.insert(i, draw(st.sampled_from(TOKENS)))
        elif action == "delete":
            words.pop(min(i, len(words) - 1))
        else:
            words[min(i, len(words) - 1)] = draw(st.sampled_from(TOKENS) | st.text(max_size=8))
    return " ".join(words)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=80), mutated()))
def test_fuzz_never_crashes_or_writes(conn, query):
    before = snapshot(conn)
    try:
        res = soql(conn, query)
        assert isinstance(res, dict) and res["done"] is True
    except SalesforceError as err:
        assert err.code != "UNKNOWN_EXCEPTION", (query, err)
    assert snapshot(conn) == before


def test_import_is_cheap():
    code = "import sys, simulator.crm.soql, simulator.crm.sosl; assert 'lark' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)

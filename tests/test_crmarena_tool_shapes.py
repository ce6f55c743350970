"""CRMArena's tool functions (crm_sandbox/env/functions.py in SalesforceAIResearch/CRMArena)
against `serve-org`: each test sends the SOQL or SOSL shape one of those functions sends, the
way its harness sends it (simple-salesforce, SOAP login with a security token, `query_all` for
SOQL and `search` for SOSL, errors read from the exception's text), and checks the rows against
hand-written SQL on the org. The shapes are rewritten here, not copied."""

from __future__ import annotations

import ast
import sqlite3
from datetime import datetime, timedelta

import pytest
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceError

from simulator.servers.background import BackgroundServer
from simulator.servers.rest_sessions import Credentials
from simulator.servers.salesforce_rest import create_app
from simulator.servers.sf_client import local_session

CREDS = Credentials("harness@example.com", "harness-pw", "harness-token", "key", "secret")
SF_DATETIME = "%Y-%m-%dT%H:%M:%S.%f%z"  # how CRMArena's tools parse CreatedDate and ClosedDate


class Harness:
    """CRMArena's way in: SOAP login with a security token; SOQL through query_all, SOSL (text
    starting FIND) through search; records without `attributes`; errors as 'CODE: message'."""

    def __init__(self, url: str):
        self.sf = Salesforce(
            username=CREDS.username,
            password=CREDS.password,
            security_token=CREDS.security_token,
            session=local_session(url),
        )

    def run(self, text: str) -> list[dict] | str:
        try:
            found = (
                self.sf.search(text)["searchRecords"] if text.startswith("FIND") else self.sf.query_all(text)["records"]
            )
        except SalesforceError as exc:
            first = ast.literal_eval(str(exc).split("Response content:")[1].strip())[0]
            return f"{first['errorCode']}: {first['message']}"
        return [{k: v for k, v in row.items() if k != "attributes"} for row in found]


@pytest.fixture(scope="module")
def harness(b2b_org):
    with BackgroundServer(create_app(b2b_org, CREDS)) as server:
        yield Harness(server.url)


@pytest.fixture(scope="module")
def db(b2b_org):
    conn = sqlite3.connect(b2b_org.path)
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def window(b2b_org) -> tuple[str, str, str, str]:
    """The last 200 days before the org's as-of date: (SOQL start, SOQL end, stored start, stored end)."""
    end = datetime.combine(b2b_org.meta.as_of, datetime.min.time())
    start = end - timedelta(days=200)
    return (
        start.strftime("%Y-%m-%dT%H:%M:%SZ"),
        end.strftime("%Y-%m-%dT%H:%M:%SZ"),
        start.strftime("%Y-%m-%dT%H:%M:%S.000+0000"),
        end.strftime("%Y-%m-%dT%H:%M:%S.000+0000"),
    )


def quoted(ids) -> str:
    """A Python tuple's text, as the tools write `IN {tuple(ids)}`."""
    return str(tuple(ids))


def rows(harness: Harness, text: str, *fields: str) -> list[tuple]:
    got = harness.run(text)
    assert isinstance(got, list), got
    return sorted(tuple(r[f] for f in fields) for r in got)


def test_owner_assignments_in_a_period(harness, db, window):
    """get_agent_handled_cases_by_period"""
    start, end, s, e = window
    expected = sorted(
        db.execute(
            "SELECT NewValue__c, CreatedDate FROM CaseHistory__c WHERE CreatedDate >= ? "
            "AND CreatedDate <= ? AND Field__c = 'Owner Assignment'",
            (s, e),
        ).fetchall()
    )
    got = rows(
        harness,
        f"""
        SELECT NewValue__c, CreatedDate
        FROM CaseHistory__c
        WHERE CreatedDate >= {start} AND CreatedDate <= {end} AND Field__c = 'Owner Assignment'
    """,
        "NewValue__c",
        "CreatedDate",
    )
    assert got == expected and expected


def test_cases_by_filters(harness, db, window):
    """get_cases, with several agents and statuses, and with one of each"""
    start, end, s, e = window
    agents = [
        a for (a,) in db.execute('SELECT OwnerId FROM "Case" GROUP BY OwnerId ORDER BY COUNT(*) DESC, OwnerId LIMIT 2')
    ]
    sql = (
        'SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM "Case" WHERE CreatedDate >= ? AND '
        "CreatedDate < ? AND OwnerId IN (?, ?) AND Status IN ('Closed', 'New')"
    )
    expected = sorted(db.execute(sql, (s, e, *agents)).fetchall(), key=str)
    got = rows(
        harness,
        f"""
            SELECT OwnerId, CreatedDate, ClosedDate, AccountId
            FROM Case
         WHERE CreatedDate >= {start} AND CreatedDate < {end} AND OwnerId IN {quoted(agents)} AND """
        f"Status IN {quoted(['Closed', 'New'])}",
        "OwnerId",
        "CreatedDate",
        "ClosedDate",
        "AccountId",
    )
    assert sorted(got, key=str) == expected and expected
    closed = [r for r in got if r[2]]
    assert all(datetime.strptime(r[2], SF_DATETIME) > datetime.strptime(r[1], SF_DATETIME) for r in closed)
    one = rows(
        harness,
        f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE OwnerId = '{agents[0]}' "
        "AND Status = 'Closed'",
        "OwnerId",
    )
    assert (
        len(one)
        == db.execute(
            """SELECT COUNT(*) FROM "Case" WHERE OwnerId = ? AND Status = 'Closed'""", (agents[0],)
        ).fetchone()[0]
    )


def test_cases_assigned_once(harness, db, window):
    """get_non_transferred_case_ids"""
    start, end, s, e = window
    expected = sorted(
        db.execute(
            "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND "
            "CreatedDate >= ? AND CreatedDate <= ? GROUP BY CaseId__c HAVING COUNT(Id) = 1",
            (s, e),
        ).fetchall()
    )
    got = rows(
        harness,
        f"""
        SELECT CaseId__c
        FROM CaseHistory__c
        WHERE Field__c = 'Owner Assignment'
        AND CreatedDate >= {start} AND CreatedDate <= {end}
        GROUP BY CaseId__c
        HAVING COUNT(Id) = 1
    """,
        "CaseId__c",
    )
    assert got == expected and expected


def test_transfers_away_from_agents(harness, db, window):
    """get_agent_transferred_cases_by_period"""
    start, end, s, e = window
    expected = sorted(
        db.execute(
            "SELECT OldValue__c, CreatedDate FROM CaseHistory__c WHERE Field__c = 'Owner "
            "Assignment' AND OldValue__c IS NOT NULL AND CreatedDate >= ? AND CreatedDate <= ?",
            (s, e),
        ).fetchall()
    )
    got = rows(
        harness,
        f"""
        SELECT OldValue__c, CreatedDate
        FROM CaseHistory__c
        WHERE Field__c = 'Owner Assignment'
        AND OldValue__c != NULL
        AND CreatedDate >= {start} AND CreatedDate <= {end}
    """,
        "OldValue__c",
        "CreatedDate",
    )
    assert got == expected and expected


def test_shipping_states_of_accounts(harness, db):
    """get_shipping_state"""
    expected = db.execute("SELECT Id, ShippingState FROM Account ORDER BY Id LIMIT 4").fetchall()
    got = rows(
        harness,
        f"SELECT Id, ShippingState FROM Account WHERE Id IN {quoted(r[0] for r in expected)}",
        "Id",
        "ShippingState",
    )
    assert got == expected
    assert (
        rows(harness, f"SELECT Id, ShippingState FROM Account WHERE Id = '{expected[0][0]}'", "Id", "ShippingState")
        == expected[:1]
    )


def test_order_items_and_issue_counts_of_a_product(harness, db, window):
    """get_order_item_ids_by_product, then get_issue_counts over those order items"""
    start, end, s, e = window
    product = db.execute(
        'SELECT Product2Id FROM OrderItem oi JOIN "Case" c ON c.OrderItemId__c = oi.Id '
        "GROUP BY Product2Id ORDER BY COUNT(*) DESC, Product2Id LIMIT 1"
    ).fetchone()[0]
    items = [
        r["Id"]
        for r in harness.run(f"""
            SELECT Id
            FROM OrderItem
            WHERE Product2Id = '{product}'
        """)
    ]
    assert sorted(items) == sorted(
        r[0] for r in db.execute("SELECT Id FROM OrderItem WHERE Product2Id = ?", (product,))
    )
    counts = harness.run(f"""
            SELECT IssueId__c, COUNT(Id) IssueCount
            FROM Case
            WHERE OrderItemId__c IN ('{"','".join(items)}')
            AND CreatedDate >= {start}
            AND CreatedDate <= {end}
            GROUP BY IssueId__c
            ORDER BY COUNT(Id) DESC
        """)
    marks = ",".join("?" * len(items))
    expected = dict(
        db.execute(
            f'SELECT IssueId__c, COUNT(Id) FROM "Case" WHERE OrderItemId__c IN ({marks}) AND '
            "CreatedDate >= ? AND CreatedDate <= ? GROUP BY IssueId__c",
            (*items, s, e),
        )
    )
    assert {r["IssueId__c"]: r["IssueCount"] for r in counts} == expected and expected
    assert [r["IssueCount"] for r in counts] == sorted(expected.values(), reverse=True)


def test_account_of_a_contact(harness, db):
    """get_account_id_by_contact_id"""
    contact, account = db.execute("SELECT Id, AccountId FROM Contact ORDER BY Id LIMIT 1 OFFSET 9").fetchone()
    got = harness.run(f"""
            SELECT AccountId
            FROM Contact
            WHERE Id = '{contact}'
            LIMIT 1
        """)
    assert got == [{"AccountId": account}]


def test_purchase_history(harness, db):
    """get_purchase_history: field paths that start with the object's own name (OrderItem.Order.X)"""
    account, day, product = db.execute(
        'SELECT o.AccountId, o.EffectiveDate, oi.Product2Id FROM OrderItem oi JOIN "Order" o ON o.Id = oi.OrderId '
        "WHERE o.Status = 'Activated' ORDER BY oi.Id LIMIT 1"
    ).fetchone()
    other = db.execute("SELECT Id FROM Product2 WHERE Id != ? ORDER BY Id LIMIT 1", (product,)).fetchone()[0]
    expected = sorted(
        db.execute(
            'SELECT oi.Product2Id FROM OrderItem oi JOIN "Order" o ON o.Id = oi.OrderId WHERE o.AccountId = ? AND '
            "o.EffectiveDate = ? AND oi.Product2Id IN (?, ?) AND o.Status = 'Activated'",
            (account, day, product, other),
        ).fetchall()
    )
    got = rows(
        harness,
        f"""
            SELECT Product2Id
            FROM OrderItem
            WHERE OrderItem.Order.AccountId = '{account}'
            AND OrderItem.Order.EffectiveDate = {day}
            AND Product2Id IN ('{"','".join([product, other])}')
            AND OrderItem.Order.Status = 'Activated'
        """,
        "Product2Id",
    )
    assert got == expected and (product,) in expected


def _a_word(text: str) -> str:
    return max((w.strip(".,:;'\"()") for w in text.split()), key=len)


def test_search_knowledge_articles(harness, db):
    """search_knowledge_articles"""
    article, title = db.execute(
        "SELECT Id, Title FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Language = 'en_US' ORDER BY Id LIMIT 1"
    ).fetchone()
    word = _a_word(title)
    got = harness.run(
        f"""\
            FIND {{{word}}} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c WHERE PublishStatus='Online' AND Language='en_US')
        """.strip()
    )
    holding = {
        r[0]
        for r in db.execute(
            "SELECT Id FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Language = 'en_US' AND (Title LIKE ?1 OR "
            "Summary LIKE ?1 OR FAQ_Answer__c LIKE ?1 OR UrlName LIKE ?1)",
            (f"%{word}%",),
        )
    }
    assert article in {r["Id"] for r in got} and {r["Id"] for r in got} <= holding
    assert all(set(r) == {"Id", "Title", "FAQ_Answer__c"} for r in got)


def test_search_products(harness, db):
    """search_products"""
    product, name = db.execute("SELECT Id, Name FROM Product2 ORDER BY Id LIMIT 1").fetchone()
    word = _a_word(name)
    got = harness.run(
        f"""FIND {{{word}}} IN ALL FIELDS RETURNING Product2(Id, Name, Description)
        """.strip()
    )
    holding = {
        r[0]
        for r in db.execute(
            "SELECT Id FROM Product2 WHERE Name LIKE ?1 OR Description LIKE ?1 OR External_ID__c LIKE ?1",
            (f"%{word}%",),
        )
    }
    assert product in {r["Id"] for r in got} and {r["Id"] for r in got} <= holding


def test_issues_emails_and_chats(harness, db):
    """get_issues, get_email_messages_by_case_id, get_livechat_transcript_by_case_id"""
    assert rows(harness, "\n            SELECT Id, Name\n            FROM Issue__c\n        ", "Id", "Name") == sorted(
        db.execute("SELECT Id, Name FROM Issue__c").fetchall()
    )
    case = db.execute("SELECT ParentId FROM EmailMessage GROUP BY ParentId ORDER BY COUNT(*) DESC LIMIT 1").fetchone()[
        0
    ]
    fields = ("Subject", "TextBody", "FromAddress", "ToAddress", "MessageDate")
    assert rows(
        harness,
        f"""
            SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate
            FROM EmailMessage
            WHERE ParentId = '{case}'
        """,
        *fields,
    ) == sorted(db.execute(f"SELECT {', '.join(fields)} FROM EmailMessage WHERE ParentId = ?", (case,)).fetchall())
    chat_case = db.execute("SELECT CaseId FROM LiveChatTranscript ORDER BY Id LIMIT 1").fetchone()[0]
    assert rows(
        harness,
        f"""
            SELECT Body, EndTime
            FROM LiveChatTranscript
            WHERE CaseId = '{chat_case}'
        """,
        "Body",
        "EndTime",
    ) == sorted(db.execute("SELECT Body, EndTime FROM LiveChatTranscript WHERE CaseId = ?", (chat_case,)).fetchall())


def test_errors_read_as_the_harness_reads_them(harness):
    assert harness.run("SELECT Nope FROM Case").startswith("INVALID_FIELD: No such column 'Nope' on entity 'Case'")
    assert harness.run("SELECT Id FROM Nope").startswith("INVALID_TYPE: sObject type 'Nope' is not supported")


@pytest.mark.parametrize(
    "query, sql",
    [
        (
            "SELECT Case.Subject FROM Case WHERE Case.Status = 'Closed'",
            """SELECT Subject FROM "Case" WHERE Status = 'Closed'""",
        ),
        (
            "SELECT Subject FROM Case WHERE Status = 'Closed' FOR VIEW",
            """SELECT Subject FROM "Case" WHERE Status = 'Closed'""",
        ),
        (
            "SELECT Subject FROM Case WHERE Status = 'New' FOR REFERENCE",
            """SELECT Subject FROM "Case" WHERE Status = 'New'""",
        ),
        (
            "SELECT Subject FROM Case WHERE Priority = 'High' WITH SECURITY_ENFORCED",
            """SELECT Subject FROM "Case" WHERE Priority = 'High'""",
        ),
        (
            "SELECT Subject, toLabel(Status) FROM Case WHERE Status = 'New'",
            """SELECT Subject FROM "Case" WHERE Status = 'New'""",
        ),
    ],
    ids=["object-prefix", "for-view", "for-reference", "security-enforced", "tolabel"],
)
def test_agent_style_query_forms(harness, db, query, sql):
    """Forms agents written for Salesforce send (issue 15 item 5: SOQL gaps)."""
    assert rows(harness, query, "Subject") == sorted(db.execute(sql).fetchall())

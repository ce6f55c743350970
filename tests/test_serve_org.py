"""`crmarena serve-org`: the Salesforce REST API subset, driven by simple-salesforce (the client
CRMArena's harness uses) against a real server on 127.0.0.1, checked against SQL on the org."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import socket
import sqlite3
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import (
    SalesforceAuthenticationFailed,
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceResourceNotFound,
)

from simulator.crm.generator import build_org
from simulator.crm.session import OrgSession
from simulator.crm.store import Org
from simulator.servers.background import BackgroundServer
from simulator.servers.rest_sessions import Credentials
from simulator.servers.salesforce_rest import BATCH_SIZE, attach_session, create_app
from simulator.servers.serve_org import run
from simulator.servers.sf_client import local_session
from tests.conftest import http

ROOT = Path(__file__).resolve().parents[1]
CREDS = Credentials("agent@example.com", "pw-Secret1", "tok3n", "client-key", "client-secret")


def sql(org: Org, text: str, params: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(org.path)
    try:
        return conn.execute(text, params).fetchall()
    finally:
        conn.close()


def file_hash(org: Org) -> str:
    return hashlib.sha256(org.path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def big_org(tmp_path_factory) -> Org:
    """A b2b org with more than one default batch (2,000) of CaseHistory__c rows (the session's
    small org holds fewer): only for the test of that batch."""
    path = tmp_path_factory.mktemp("serve") / "b2b.db"
    build_org("b2b", path, seed=3, scale=0.35)
    return Org(path)


@pytest.fixture(scope="module")
def server(b2b_org):
    """The server over the session's small b2b org."""
    with BackgroundServer(create_app(b2b_org, CREDS)) as s:
        yield s


@pytest.fixture(scope="module")
def big_server(big_org):
    with BackgroundServer(create_app(big_org, CREDS)) as s:
        yield s


@pytest.fixture(scope="module")
def small_batch_server(b2b_org):
    with BackgroundServer(create_app(b2b_org, CREDS, batch_size=100, query_cap=1_000)) as s:
        yield s


def login(url: str) -> Salesforce:
    """CRMArena's harness's login form (SOAP, with a security token)."""
    return Salesforce(
        username=CREDS.username,
        password=CREDS.password,
        security_token=CREDS.security_token,
        session=local_session(url),
    )


# --- logins ------------------------------------------------------------------------------


def test_each_login_form_reaches_the_org(server, b2b_org):
    url, session = server.url, local_session(server.url)
    forms = [
        login(url),
        Salesforce(
            username=CREDS.username,
            password=CREDS.password,
            consumer_key=CREDS.client_id,
            consumer_secret=CREDS.client_secret,
            session=session,
        ),
        Salesforce(
            username=CREDS.username,
            password=CREDS.password + CREDS.security_token,
            consumer_key=CREDS.client_id,
            consumer_secret=CREDS.client_secret,
            session=session,
        ),
        Salesforce(
            consumer_key=CREDS.client_id, consumer_secret=CREDS.client_secret, domain="crmarena", session=session
        ),
    ]
    cases = sql(b2b_org, 'SELECT COUNT(*) FROM "Case"')[0][0]
    for sf in forms:
        assert sf.query("SELECT COUNT() FROM Case")["totalSize"] == cases
    assert len({sf.session_id for sf in forms}) == len(forms)  # each login its own token


@pytest.mark.parametrize(
    "kwargs",
    [
        {"username": CREDS.username, "password": "wrong", "security_token": CREDS.security_token},
        {"username": CREDS.username, "password": CREDS.password, "security_token": "wrong"},
        {
            "username": CREDS.username,
            "password": "wrong",
            "consumer_key": CREDS.client_id,
            "consumer_secret": CREDS.client_secret,
        },
        {"consumer_key": CREDS.client_id, "consumer_secret": "wrong", "domain": "crmarena"},
    ],
)
def test_wrong_credentials_fail_the_login(server, kwargs):
    with pytest.raises(SalesforceAuthenticationFailed):
        Salesforce(session=local_session(server.url), **kwargs)


def test_token_endpoint_answers_as_salesforce(server):
    form = {
        "grant_type": "password",
        "client_id": CREDS.client_id,
        "client_secret": CREDS.client_secret,
        "username": CREDS.username,
        "password": CREDS.password,
    }
    good = http("POST", f"{server.url}/services/oauth2/token", data=form).json()
    assert good["instance_url"] == server.url and good["token_type"] == "Bearer"
    expected = hmac.new(CREDS.client_secret.encode(), (good["id"] + good["issued_at"]).encode(), hashlib.sha256)
    assert base64.b64decode(good["signature"]) == expected.digest()
    bad = http("POST", f"{server.url}/services/oauth2/token", data={**form, "client_secret": "x"})
    assert bad.status_code == 400
    assert bad.json() == {"error": "invalid_grant", "error_description": "authentication failure"}


# --- reads -------------------------------------------------------------------------------


@pytest.mark.slow
def test_query_all_pages_in_batches_of_2000(big_server, big_org):
    expected = {r[0] for r in sql(big_org, 'SELECT Id FROM "CaseHistory__c"')}
    assert len(expected) > BATCH_SIZE == 2000
    sf = login(big_server.url)
    first = sf.query("SELECT Id, Field__c FROM CaseHistory__c")
    assert (len(first["records"]), first["done"], first["totalSize"]) == (2000, False, len(expected))
    assert re.fullmatch(r"/services/data/v59\.0/query/01g[A-Za-z0-9]{15}-2000", first["nextRecordsUrl"])
    rows = sf.query_all("SELECT Id, Field__c FROM CaseHistory__c")["records"]
    assert [r["Id"] for r in rows if r["Id"] in expected] == [r["Id"] for r in rows] and len(rows) == len(expected)
    assert {r["Id"] for r in rows} == expected


def test_paging_keeps_the_order_with_a_smaller_batch(small_batch_server, b2b_org):
    expected = [r[0] for r in sql(b2b_org, 'SELECT Id FROM "Case" ORDER BY CreatedDate DESC, Id')]
    sf = login(small_batch_server.url)
    page, pages = sf.query("SELECT Id FROM Case ORDER BY CreatedDate DESC, Id"), 1
    got = [r["Id"] for r in page["records"]]
    while not page["done"]:
        page, pages = sf.query_more(page["nextRecordsUrl"], identifier_is_url=True), pages + 1
        got += [r["Id"] for r in page["records"]]
    assert got == expected and pages == -(-len(expected) // 100)
    with pytest.raises(SalesforceMalformedRequest) as err:  # a finished cursor is gone
        sf.query_more("/services/data/v59.0/query/01gAAAAAAAAAAAAAAA-100", identifier_is_url=True)
    assert err.value.content[0]["errorCode"] == "INVALID_QUERY_LOCATOR"


def test_search_finds_what_the_text_holds(server, b2b_org):
    article_id, title = sql(b2b_org, 'SELECT Id, Title FROM "Knowledge__kav" ORDER BY Id LIMIT 1')[0]
    word = max(re.findall(r"[A-Za-z]{5,}", title), key=len)
    found = login(server.url).search(f"FIND {{{word}}} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title)")
    ids = {r["Id"] for r in found["searchRecords"]}
    holding = {
        r[0]
        for r in sql(
            b2b_org,
            'SELECT Id FROM "Knowledge__kav" WHERE Title LIKE ?1 OR Summary LIKE ?1 '
            "OR FAQ_Answer__c LIKE ?1 OR UrlName LIKE ?1",
            (f"%{word}%",),
        )
    }
    assert article_id in ids and ids <= holding
    assert {r["attributes"]["type"] for r in found["searchRecords"]} == {"Knowledge__kav"}


def test_describe_matches_the_schema(server, b2b_org):
    sf = login(server.url)
    schema = b2b_org.schema
    assert [o["name"] for o in sf.describe()["sobjects"]] == schema.names
    case = sf.Case.describe()
    fields = {f["name"]: f for f in case["fields"]}
    assert [f["name"] for f in case["fields"]] == [f.name for f in schema.get("Case").fields]
    item = fields["OrderItemId__c"]
    assert (item["type"], item["referenceTo"], item["relationshipName"]) == (
        "reference",
        ["OrderItem"],
        "OrderItemId__r",
    )
    assert (fields["OwnerId"]["referenceTo"], fields["OwnerId"]["relationshipName"]) == (["User"], "Owner")
    assert [v["value"] for v in fields["Status"]["picklistValues"]] == list(schema.get("Case").field("Status").picklist)
    assert fields["Status"]["type"] == "picklist" and fields["ClosedDate"]["type"] == "datetime"
    assert not fields["Id"]["updateable"] and not fields["Id"]["nillable"] and fields["Subject"]["updateable"]
    children = {(c["childSObject"], c["field"], c["relationshipName"]) for c in case["childRelationships"]}
    assert children == {(c.child_object, c.field, c.name) for c in schema.get("Case").children}
    assert sf.Case.metadata()["objectDescribe"]["keyPrefix"] == "500"


def test_get_record_returns_its_fields(server, b2b_org):
    case_id, subject, status, _ = sql(b2b_org, 'SELECT Id, Subject, Status, CreatedDate FROM "Case" LIMIT 1')[0]
    sf = login(server.url)
    record = sf.Case.get(case_id)
    assert (record["Id"], record["Subject"], record["Status"]) == (case_id, subject, status)
    assert set(record) - {"attributes"} == {f.name for f in b2b_org.schema.get("Case").fields}
    some = sf.restful(f"sobjects/Case/{case_id[:15]}", params={"fields": "subject,Status"})
    assert set(some) == {"attributes", "Subject", "Status"} and some["Subject"] == subject


# --- writes ------------------------------------------------------------------------------


def test_update_stays_in_the_token_that_made_it(server, b2b_org):
    before = file_hash(b2b_org)
    case_id, priority = sql(b2b_org, """SELECT Id, Priority FROM "Case" WHERE Priority != 'High' LIMIT 1""")[0]
    writer, other = login(server.url), login(server.url)
    assert writer.Case.update(case_id, {"Priority": "High", "Subject": "Renamed by REST"}) == 204
    mine = writer.query(f"SELECT Priority, Subject FROM Case WHERE Id = '{case_id}'")["records"][0]
    assert (mine["Priority"], mine["Subject"]) == ("High", "Renamed by REST")
    theirs = other.query(f"SELECT Priority FROM Case WHERE Id = '{case_id}'")["records"][0]
    assert theirs["Priority"] == priority
    found = writer.search("FIND {Renamed} IN NAME FIELDS RETURNING Case(Id)")["searchRecords"]
    assert case_id in {r["Id"] for r in found}  # SOSL's index follows the write
    assert file_hash(b2b_org) == before


def test_a_rejected_update_writes_nothing(server, b2b_org):
    case_id, subject = sql(b2b_org, 'SELECT Id, Subject FROM "Case" LIMIT 1 OFFSET 3')[0]
    sf = login(server.url)
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Case.update(case_id, {"Subject": "Half written", "Priority": "Urgent!"})
    assert err.value.content[0]["errorCode"] == "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST"
    assert sf.Case.get(case_id)["Subject"] == subject
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Case.update(case_id, {"NoSuchField": 1})
    assert err.value.content[0]["errorCode"] == "INVALID_FIELD"
    with pytest.raises(SalesforceResourceNotFound):
        sf.Case.update("500000000000000AAA", {"Subject": "x"})


def test_owner_change_of_a_case_records_the_transfer(server, b2b_org):
    case_id, owner = sql(b2b_org, 'SELECT Id, OwnerId FROM "Case" LIMIT 1 OFFSET 5')[0]
    new_owner = sql(b2b_org, 'SELECT Id FROM "User" WHERE Id != ? LIMIT 1', (owner,))[0][0]
    sf = login(server.url)
    sf.Case.update(case_id, {"OwnerId": new_owner})
    history = sf.query(
        f"SELECT OldValue__c, NewValue__c FROM CaseHistory__c WHERE CaseId__c = '{case_id}' "
        "AND Field__c = 'Owner Assignment' ORDER BY CreatedDate DESC LIMIT 1"
    )["records"][0]
    assert (history["OldValue__c"], history["NewValue__c"]) == (owner, new_owner)


def test_an_attached_session_is_read_and_written_through_its_token(b2b_org):
    app = create_app(b2b_org, CREDS)
    case_id = sql(b2b_org, 'SELECT Id FROM "Case" LIMIT 1 OFFSET 7')[0][0]
    with OrgSession(b2b_org) as episode, BackgroundServer(app) as s:
        sf = Salesforce(instance_url=s.url, session_id=attach_session(app, episode), session=local_session(s.url))
        sf.Case.update(case_id, {"Subject": "Seen by the episode"})
        seen = episode.soql(f"SELECT Subject FROM Case WHERE Id = '{case_id}'")["records"][0]["Subject"]
        assert seen == "Seen by the episode"
        assert login(s.url).Case.get(case_id)["Subject"] != "Seen by the episode"


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, code",
    [
        ("SELEKT Id FROM Case", "MALFORMED_QUERY"),
        ("SELECT Nope FROM Case", "INVALID_FIELD"),
        ("SELECT Id FROM Nope__c", "INVALID_TYPE"),
        ("SELECT Id FROM Case WHERE Subject = '" + "x" * 1_000 + "'", "MALFORMED_QUERY"),
    ],
    ids=["syntax", "field", "object", "too-long"],
)
def test_query_errors_come_as_salesforce_words_them(small_batch_server, query, code):
    """(The small server caps statements at 1,000 characters, the default server at 100,000.)"""
    with pytest.raises(SalesforceMalformedRequest) as err:
        login(small_batch_server.url).query(query)
    assert err.value.status == 400 and err.value.content[0]["errorCode"] == code


def test_unknown_objects_and_records_are_not_found(server):
    sf = login(server.url)
    for call in (
        lambda: sf.Nope__c.describe(),
        lambda: sf.Case.get("500000000000000AAA"),
        lambda: sf.Case.get("not-an-id"),
        lambda: sf.restful("nothing/here"),
    ):
        with pytest.raises(SalesforceResourceNotFound) as err:
            call()
        assert err.value.content[0]["errorCode"] == "NOT_FOUND"


def test_a_bad_or_missing_token_is_refused(server):
    sf = Salesforce(instance_url=server.url, session_id="00D!forged", session=local_session(server.url))
    with pytest.raises(SalesforceExpiredSession) as err:
        sf.query("SELECT Id FROM Case")
    assert err.value.content == [{"errorCode": "INVALID_SESSION_ID", "message": "Session expired or invalid"}]
    assert http("GET", f"{server.url}/services/data/v59.0/sobjects").status_code == 401


def test_http_level_errors(server, b2b_org):
    token = login(server.url).session_id
    headers = {"Authorization": f"Bearer {token}"}
    case_id = sql(b2b_org, 'SELECT Id FROM "Case" LIMIT 1')[0][0]
    base = f"{server.url}/services/data/v59.0"
    versions = http("GET", f"{server.url}/services/data/").json()
    assert {"label": "Winter '24", "url": "/services/data/v59.0", "version": "59.0"} in versions
    assert http("GET", f"{base}/", headers=headers).json()["query"] == "/services/data/v59.0/query"
    put = http("PUT", f"{base}/sobjects/Case/{case_id}", headers=headers)  # (GET, PATCH and DELETE are served)
    assert put.status_code == 405 and put.json()[0]["errorCode"] == "METHOD_NOT_ALLOWED"
    huge = http(
        "PATCH",
        f"{base}/sobjects/Case/{case_id}",
        headers=headers,
        content=json.dumps({"Description": "x" * (1 << 20)}),
    )
    assert huge.status_code == 413 and huge.json()[0]["errorCode"] == "REQUEST_ENTITY_TOO_LARGE"
    assert http("GET", f"{server.url}/elsewhere").json()[0]["errorCode"] == "NOT_FOUND"
    assert http("GET", f"{server.url}/services/data/v9.0/", headers=headers).status_code == 404
    not_json = http("PATCH", f"{base}/sobjects/Case/{case_id}", headers=headers, content=b"{nope")
    assert not_json.status_code == 400 and not_json.json()[0]["errorCode"] == "JSON_PARSER_ERROR"


# --- create, delete, limits, versions ---------------------------------------------------


def test_client_credentials_with_the_default_domain_fail_in_the_client(server):
    """simple-salesforce refuses the client-credentials flow for domain "login" (its default) and
    "test" itself, before sending anything (Salesforce runs it on My Domain hosts only): no server
    can make that call work, so README shows the one that does, with any other domain."""
    sent = []
    session = local_session(server.url)
    session.hooks["response"].append(lambda response, **_: sent.append(response.url))
    for domain in (None, "login", "test"):
        with pytest.raises(SalesforceAuthenticationFailed, match="security token or organizationId"):
            Salesforce(
                consumer_key=CREDS.client_id, consumer_secret=CREDS.client_secret, domain=domain, session=session
            )
    assert sent == []
    call = 'Salesforce(consumer_key=CLIENT_ID, consumer_secret=CLIENT_SECRET, domain="crmarena", session=local_session(URL))'
    assert call in (ROOT / "README.md").read_text()
    sf = Salesforce(
        consumer_key=CREDS.client_id, consumer_secret=CREDS.client_secret, domain="crmarena", session=session
    )
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] > 0 and sent


def test_create_and_delete_answer_as_salesforce_in_the_login_only(server, b2b_org):
    before = file_hash(b2b_org)
    sf, other = login(server.url), login(server.url)
    created = sf.Account.create({"Name": "Zephyr Test Holdings", "Industry": None, "attributes": {"type": "Account"}})
    assert created == {"id": created["id"], "success": True, "errors": []} and created["id"].startswith("001")
    assert sf.Account.get(created["id"])["Name"] == "Zephyr Test Holdings"
    assert sf.query(f"SELECT Id FROM Account WHERE Id = '{created['id']}'")["totalSize"] == 1
    assert sf.search("FIND {Zephyr} IN NAME FIELDS RETURNING Account(Id)")["searchRecords"][0]["Id"] == created["id"]
    with pytest.raises(SalesforceResourceNotFound):
        other.Account.get(created["id"])  # (each login its own session)
    person = sf.Contact.create({"FirstName": "Ada", "LastName": "Quill", "AccountId": created["id"]})
    assert sf.Contact.get(person["id"])["Name"] == "Ada Quill"
    second = sf.Account.create({"Name": "Zephyr Two"})["id"]
    assert second != created["id"]
    assert sf.Contact.delete(person["id"]) == 204
    assert sf.Account.delete(created["id"]) == 204
    for gone in (person["id"], created["id"]):
        with pytest.raises(SalesforceResourceNotFound):
            sf.Contact.get(gone) if gone == person["id"] else sf.Account.get(gone)
    assert file_hash(b2b_org) == before


def _error(exc) -> dict:
    return exc.value.content[0]


def test_create_errors_are_salesforces(server):
    sf = login(server.url)
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Account.create({"Industry": "Banking"})
    assert _error(err) == {
        "errorCode": "REQUIRED_FIELD_MISSING",
        "message": "Required fields are missing: [Name]",
        "fields": ["Name"],
    }
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Contact.create({"FirstName": "Ada"})
    assert _error(err)["fields"] == ["LastName"]
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Account.create({"Name": "X", "CreatedDate": "2024-01-01T00:00:00Z"})
    assert _error(err)["errorCode"] == "INVALID_FIELD_FOR_INSERT_UPDATE" and _error(err)["fields"] == ["CreatedDate"]
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Account.create({"Name": "X", "Nope__c": 1})
    assert _error(err)["errorCode"] == "INVALID_FIELD"
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Case.create({"Status": "Sleeping"})
    assert _error(err)["errorCode"] == "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST"
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Case.create({"AccountId": "001000000000000AAA"})
    assert _error(err)["errorCode"] in ("MALFORMED_ID", "INVALID_CROSS_REFERENCE_KEY")
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.CaseHistory__c.create({"Field__c": "Owner Assignment"})
    assert _error(err)["errorCode"] == "INSUFFICIENT_ACCESS_OR_READONLY"
    with pytest.raises(SalesforceResourceNotFound):
        sf.Nothing__c.create({"Name": "X"})


def test_delete_refuses_a_record_others_point_at_and_a_missing_one(server, b2b_org):
    sf = login(server.url)
    account = sql(b2b_org, 'SELECT AccountId FROM "Contact" WHERE AccountId IS NOT NULL LIMIT 1')[0][0]
    with pytest.raises(SalesforceMalformedRequest) as err:
        sf.Account.delete(account)
    assert _error(err)["errorCode"] == "DELETE_FAILED" and "Contact.AccountId" in _error(err)["message"]
    assert sf.Account.get(account)["Id"] == account
    with pytest.raises(SalesforceResourceNotFound):
        sf.Account.delete("001Nw0000009999AAA")


def test_limits_and_the_usage_header(server):
    sf = login(server.url)
    sf.query("SELECT COUNT() FROM Case")
    used = sf.api_usage["api-usage"]
    limits = sf.limits()
    assert used.total == limits["DailyApiRequests"]["Max"] == 15_000
    assert limits["DailyApiRequests"]["Remaining"] == 15_000 - used.used - 1  # (the limits call counts too)


def test_attributes_url_name_the_version_asked_for(server, b2b_org):
    case_id = sql(b2b_org, 'SELECT Id FROM "Case" WHERE ContactId IS NOT NULL LIMIT 1')[0][0]
    for version in ("52.0", "59.0", "62.0"):
        sf = Salesforce(
            username=CREDS.username,
            password=CREDS.password,
            security_token=CREDS.security_token,
            version=version,
            session=local_session(server.url),
        )
        base = f"/services/data/v{version}/sobjects"
        record = sf.query(f"SELECT Id, Contact.Name FROM Case WHERE Id = '{case_id}'")["records"][0]
        assert record["attributes"]["url"] == f"{base}/Case/{case_id}"
        assert record["Contact"]["attributes"]["url"].startswith(f"{base}/Contact/")
        assert sf.Case.get(case_id)["attributes"]["url"] == f"{base}/Case/{case_id}"
        found = sf.search(f"FIND {{{record['Contact']['Name']}}} RETURNING Contact(Id)")["searchRecords"]
        assert found and all(r["attributes"]["url"].startswith(f"{base}/Contact/") for r in found)


def test_describe_says_what_a_create_needs(server):
    sf = login(server.url)
    account, contact = sf.Account.describe(), sf.Contact.describe()
    assert account["createable"] and account["deletable"]
    fields = {f["name"]: f for f in account["fields"]}
    assert not fields["Name"]["nillable"] and fields["Name"]["createable"]
    assert not fields["CreatedDate"]["createable"] and not fields["Id"]["createable"]
    people = {f["name"]: f for f in contact["fields"]}
    assert not people["LastName"]["nillable"] and not people["Name"]["createable"]
    history = sf.CaseHistory__c.describe()
    assert not history["createable"] and not history["deletable"]


# --- the command -------------------------------------------------------------------------


def _args(org, port, **kw) -> Namespace:
    return Namespace(
        org=str(org),
        host="127.0.0.1",
        port=port,
        username=None,
        password=None,
        security_token=None,
        client_id=None,
        client_secret=None,
        **kw,
    )


def test_a_busy_port_or_missing_org_is_one_error_line(tmp_path, b2b_org, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert run(_args(b2b_org.path, busy.getsockname()[1])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("crmarena: error: cannot listen on 127.0.0.1:")
    assert run(_args(tmp_path / "missing.db", 0)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no org file at" in err and "Traceback" not in err


def test_the_command_prints_working_credentials_once(b2b_org):
    code = (
        "import sys; from simulator.servers.serve_org import add_arguments, run; import argparse; "
        "p = argparse.ArgumentParser(); add_arguments(p); sys.exit(run(p.parse_args(sys.argv[1:])))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(b2b_org.path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(8)]
        url = re.search(r"at (http://127\.0\.0\.1:\d+) ", lines[0]).group(1)
        shown = dict(line.strip().split(": ", 1) for line in lines[1:6])
        sf = Salesforce(
            username=shown["username"],
            password=shown["password"],
            security_token=shown["security token"],
            session=local_session(url),
        )
        assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == b2b_org.counts()["Account"]
        assert "local_session" in lines[6]
        assert 'domain="crmarena"' in lines[7]
        sf = Salesforce(
            consumer_key=shown["client id"],
            consumer_secret=shown["client secret"],
            domain="crmarena",
            session=local_session(url),
        )
        assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == b2b_org.counts()["Account"]
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert shown["password"] not in out + err  # printed once, in the banner only

"""Salesforce's read-only fields (issue 32 item 4): compound, formula, calculated, auto-number,
system, action-only and create-only fields are `updateable: false` in describe, and the write
tools and the REST API's PATCH refuse them with INVALID_FIELD_FOR_INSERT_UPDATE, changing
nothing; the fields Salesforce lets a user edit stay editable."""

from __future__ import annotations

import json

import pytest

from simulator.crm.schema import schema_for
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.servers.background import BackgroundServer
from simulator.servers.salesforce_rest import attach_session, create_app
from tests.conftest import http
from tests.test_serve_org import CREDS

READ_ONLY = [  # (org, object, field, a value of the right type)
    ("b2b", "Lead", "Name", "Someone Else"),  # compound of FirstName and LastName
    ("b2b", "Contact", "Name", "Someone Else"),
    ("b2b", "User", "Name", "Someone Else"),
    ("b2c", "Account", "Name", "Someone Else"),  # a person account's name: compound too
    ("b2b", "Lead", "IsConverted", "true"),  # set by converting the lead, nothing else
    ("b2b", "Lead", "ConvertedDate", "2024-01-02"),
    ("b2b", "Knowledge__kav", "PublishStatus", "Archived"),  # set by the publishing actions
    ("b2b", "QuoteLineItem", "TotalPrice", "1.5"),  # calculated from quantity, price and discount
    ("b2b", "PricebookEntry", "Name", "Another product"),  # a formula: the product's name
    ("b2b", "OpportunityLineItem", "Name", "A line"),  # derived from the opportunity and product
    ("b2b", "LiveChatTranscript", "Name", "00000001"),  # an auto-number
    ("b2b", "Case", "ClosedDate", "2024-01-02T00:00:00Z"),  # set by the system when the case closes
    ("b2b", "Case", "CreatedDate", "2024-01-02T00:00:00Z"),
    ("b2b", "Order", "Id", "801000000000000AAA"),
    ("b2b", "OrderItem", "OrderId", "801000000000000AAA"),  # master-detail: create-only
    ("b2b", "QuoteLineItem", "Product2Id", "01t000000000000AAA"),  # from the price book entry: create-only
]
EDITABLE = [
    ("b2b", "Account", "Name", "Acme Two"),
    ("b2b", "Lead", "FirstName", "Ann"),
    ("b2b", "Case", "Subject", "x"),
    ("b2b", "QuoteLineItem", "Discount", "5"),
    ("b2b", "Knowledge__kav", "Title", "A title"),
    ("b2b", "Opportunity", "StageName", "Discovery"),
    ("b2b", "OpportunityLineItem", "TotalPrice", "10"),
]
IDS = [f"{org}-{obj}.{field}" for org, obj, field, _ in READ_ONLY]


def _org(request, org: str):
    return request.getfixturevalue(f"{org}_org")


def _first_id(org, obj: str) -> str:
    with OrgSession(org) as s:
        return s.soql(f"SELECT Id FROM {obj} LIMIT 1")["records"][0]["Id"]


@pytest.mark.parametrize("org_type,obj,field,value", READ_ONLY, ids=IDS)
def test_the_update_tool_refuses_a_read_only_field_and_changes_nothing(request, org_type, obj, field, value):
    org = _org(request, org_type)
    record_id = _first_id(org, obj)
    with OrgSession(org) as s:
        before = s.soql(f"SELECT {field} FROM {obj} WHERE Id = '{record_id}'")["records"][0][field]
        out = json.loads(CrmTools(s).update_record(obj, record_id, field, value))
        after = s.soql(f"SELECT {field} FROM {obj} WHERE Id = '{record_id}'")["records"][0][field]
    assert out["error"][0]["errorCode"] == "INVALID_FIELD_FOR_INSERT_UPDATE", out
    assert field in out["error"][0]["message"] and before == after


@pytest.mark.parametrize("org_type,obj,field,value", EDITABLE)
def test_editable_fields_stay_editable(request, org_type, obj, field, value):
    org = _org(request, org_type)
    record_id = _first_id(org, obj)
    with OrgSession(org) as s:
        out = json.loads(CrmTools(s).update_record(obj, record_id, field, value))
    assert out.get("success") is True, out


@pytest.fixture(scope="module")
def rest(b2b_org, b2c_org):
    """{org type: (app, server)}: one REST server per test org for the module (stopping one takes 0.2 s)."""
    apps = {"b2b": create_app(b2b_org, CREDS), "b2c": create_app(b2c_org, CREDS)}
    with BackgroundServer(apps["b2b"]) as b2b, BackgroundServer(apps["b2c"]) as b2c:
        yield {"b2b": (apps["b2b"], b2b), "b2c": (apps["b2c"], b2c)}


@pytest.mark.parametrize("org_type", ["b2b", "b2c"])
def test_describe_says_updateable_exactly_where_an_update_is_taken(request, rest, org_type):
    """Every field of every object: describe's `updateable` agrees with what the tool does."""
    org, (app, server) = _org(request, org_type), rest[org_type]
    read_only = {(o, f) for t, o, f, _ in READ_ONLY if t == org_type}
    with OrgSession(org) as session:
        token = attach_session(app, session)
        for obj in schema_for(org_type).objects:
            described = http(
                "GET",
                f"{server.url}/services/data/v59.0/sobjects/{obj.name}/describe",
                headers={"Authorization": f"Bearer {token}"},
            ).json()
            flags = {f["name"]: f["updateable"] for f in described["fields"]}
            for name in flags:
                if (obj.name, name) in read_only:
                    assert flags[name] is False, (obj.name, name)
            if obj.name == "CaseHistory__c":
                assert not any(flags.values())


@pytest.mark.parametrize("org_type,obj,field,value", READ_ONLY, ids=IDS)
def test_a_rest_patch_of_a_read_only_field_is_refused_whole(request, rest, org_type, obj, field, value):
    """A PATCH with an editable field beside the read-only one changes neither (all or none)."""
    org, (app, server) = _org(request, org_type), rest[org_type]
    record_id = _first_id(org, obj)
    editable = next(f for t, o, f, _ in EDITABLE if o == obj) if obj in {o for _, o, _, _ in EDITABLE} else None
    body = {field: value, **({editable: "changed"} if editable and editable != field else {})}
    with OrgSession(org) as session:
        token = attach_session(app, session)
        response = http(
            "PATCH",
            f"{server.url}/services/data/v59.0/sobjects/{obj}/{record_id}",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 400 and response.json()[0]["errorCode"] == "INVALID_FIELD_FOR_INSERT_UPDATE"
        for name in body:
            assert session.soql(f"SELECT {name} FROM {obj} WHERE Id = '{record_id}'")["records"][0][name] != "changed"

"""Sessions and agent tools: isolation of writes, a read-only query path, clean errors."""

from __future__ import annotations

import json

import pytest

from simulator.crm import store
from simulator.crm.errors import SalesforceError
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools


def _hash(org) -> str:
    conn = org.connect()
    try:
        return store.content_hash(conn, org.schema)
    finally:
        conn.close()


def _open_case_and_agents(org):
    conn = org.connect()
    case_id, owner = conn.execute(
        'SELECT Id, OwnerId FROM "Case" WHERE ClosedDate IS NULL ORDER BY Id LIMIT 1'
    ).fetchone()
    (other,) = conn.execute(
        'SELECT Id FROM User WHERE Id != ? AND Id IN (SELECT OwnerId FROM "Case") ORDER BY Id LIMIT 1', (owner,)
    ).fetchone()
    conn.close()
    return case_id, owner, other


def test_writes_are_private_to_their_session(b2b_org):
    before = _hash(b2b_org)
    case_id, owner, other = _open_case_and_agents(b2b_org)
    query = f"SELECT OwnerId FROM Case WHERE Id = '{case_id}'"
    with OrgSession(b2b_org) as a, OrgSession(b2b_org) as b:
        out = json.loads(CrmTools(a).assign_case(case_id, other))
        assert out == {"success": True, "id": case_id, "OwnerId": other}
        assert a.soql(query)["records"][0]["OwnerId"] == other
        assert b.soql(query)["records"][0]["OwnerId"] == owner
        history = a.soql(
            f"SELECT OldValue__c, NewValue__c FROM CaseHistory__c WHERE CaseId__c = '{case_id}' "
            "AND Field__c = 'Owner Assignment' ORDER BY Id DESC LIMIT 1"
        )["records"][0]
        assert (history["OldValue__c"], history["NewValue__c"]) == (owner, other)
        assert a.has_writes and not b.has_writes
    with OrgSession(b2b_org) as c:
        assert c.soql(query)["records"][0]["OwnerId"] == owner
    assert _hash(b2b_org) == before


def test_update_record_validates_like_salesforce(b2b_org):
    conn = b2b_org.connect()
    (opp,) = conn.execute("SELECT Id FROM Opportunity ORDER BY Id LIMIT 1").fetchone()
    conn.close()
    with OrgSession(b2b_org) as s:
        tools = CrmTools(s)
        ok = json.loads(tools.update_record("opportunity", opp, "stagename", "Negotiation"))
        assert ok["success"] and ok["field"] == "StageName"
        assert (
            s.soql(f"SELECT StageName FROM Opportunity WHERE Id = '{opp}'")["records"][0]["StageName"] == "Negotiation"
        )
        cases = {
            ("Opportunity", opp, "StageName", "Won Big"): "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST",
            ("Opportunity", opp, "Nope__c", "x"): "INVALID_FIELD",
            ("Opportunity", opp, "Id", "x"): "INVALID_FIELD_FOR_INSERT_UPDATE",
            ("Widget", opp, "Name", "x"): "INVALID_TYPE",
            ("Opportunity", "not-an-id", "Name", "x"): "MALFORMED_ID",
            ("Opportunity", "006000000000000AAA", "Name", "x"): "INVALID_CROSS_REFERENCE_KEY",
            ("Opportunity", opp, "Amount", "lots"): "INVALID_FIELD",
            ("Opportunity", opp, "CloseDate", "31/12/2026"): "INVALID_FIELD",
            ("Opportunity", opp, "OwnerId", "005000000000000AAA"): "INVALID_CROSS_REFERENCE_KEY",
        }
        for args, code in cases.items():
            out = json.loads(tools.update_record(*args))
            assert out["error"][0]["errorCode"] == code, args


def test_text_updates_reach_sosl_in_that_session_only(b2b_org):
    conn = b2b_org.connect()
    (case_id,) = conn.execute('SELECT Id FROM "Case" ORDER BY Id LIMIT 1').fetchone()
    conn.close()
    search = "FIND {quuxfrobnicator} RETURNING Case(Id)"
    with OrgSession(b2b_org) as a, OrgSession(b2b_org) as b:
        assert json.loads(CrmTools(a).update_record("Case", case_id, "Subject", "Quuxfrobnicator broke"))["success"]
        assert [r["Id"] for r in a.sosl(search)["searchRecords"]] == [case_id]
        assert b.sosl(search)["searchRecords"] == []


def test_assign_lead_rejects_unknown_user(b2b_org):
    conn = b2b_org.connect()
    (lead,) = conn.execute("SELECT Id FROM Lead ORDER BY Id LIMIT 1").fetchone()
    conn.close()
    with OrgSession(b2b_org) as s:
        out = json.loads(CrmTools(s).assign_lead(lead, "005Kd0000zzzzzzAAA"))
        assert out["error"][0]["errorCode"] in ("INVALID_CROSS_REFERENCE_KEY", "MALFORMED_ID")
        assert not s.has_writes


@pytest.mark.parametrize(
    "query",
    [
        "DELETE FROM Case",
        "UPDATE Case SET Status = 'Closed'",
        "SELECT Id FROM Case; DELETE FROM Case",
        "SELECT Id FROM Case WHERE Subject = 'x'; DROP TABLE Account --'",
        "PRAGMA writable_schema = 1",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "SELECT Id FROM _meta",
        "SELECT key FROM _truth",
    ],
)
def test_query_path_never_writes(b2b_org, query):
    before = _hash(b2b_org)
    with OrgSession(b2b_org) as s:
        with pytest.raises(SalesforceError) as err:
            s.soql(query)
        assert err.value.code in ("MALFORMED_QUERY", "INVALID_TYPE")
        assert not s.has_writes
    assert _hash(b2b_org) == before


def test_authorizer_blocks_raw_writes_even_in_private_copy(b2b_org):
    import sqlite3

    case_id, _, other = _open_case_and_agents(b2b_org)
    with OrgSession(b2b_org) as s:
        CrmTools(s).assign_case(case_id, other)
        for sql in (
            'DELETE FROM "Case"',
            "UPDATE sqlite_master SET sql = ''",
            "PRAGMA writable_schema = 1",
            "CREATE TABLE x (a)",
            "ATTACH DATABASE ':memory:' AS y",
        ):
            with pytest.raises(sqlite3.DatabaseError):
                s._conn.execute(sql)
        assert s.soql("SELECT COUNT() FROM Case")["totalSize"] > 0


def test_runaway_query_times_out(b2b_org):
    with OrgSession(b2b_org, timeout_s=1e-9) as s, pytest.raises(SalesforceError) as err:
        s.soql("SELECT Id, Subject FROM Case WHERE Description LIKE '%zzzz%' OR Subject LIKE '%qqqq%'")
    assert err.value.code == "QUERY_TIMEOUT"


def test_tool_results_are_capped_and_errors_are_text(b2b_org):
    with OrgSession(b2b_org) as s:
        tools = CrmTools(s, max_records=5)
        out = json.loads(tools.soql("SELECT Id, Account.Name FROM Contact"))
        assert len(out["records"]) == 5 and out["totalSize"] > 5 and "first 5" in out["note"]
        assert all("attributes" not in r and "attributes" not in (r["Account"] or {}) for r in out["records"])
        bad = json.loads(tools.soql("SELECT Nope FROM Case"))
        assert bad["error"][0]["errorCode"] == "INVALID_FIELD"
        found = json.loads(tools.sosl("FIND {zzqqxx} RETURNING Case(Id)"))
        assert found["searchRecords"] == []


def test_write_tools_turn_any_bad_value_into_an_error_observation(b2b_org):
    conn = b2b_org.connect()
    (event,) = conn.execute("SELECT Id FROM Event ORDER BY Id LIMIT 1").fetchone()
    (opp,) = conn.execute("SELECT Id FROM Opportunity ORDER BY Id LIMIT 1").fetchone()
    conn.close()
    with OrgSession(b2b_org) as s:
        tools = CrmTools(s)
        for args in (
            ("Event", event, "DurationInMinutes", "9" * 30),
            ("Opportunity", opp, "Amount", "inf"),
            ("Opportunity", opp, "Amount", "nan"),
            ("Event", event, "StartDateTime", "0001-01-01T00:00:00+05:00"),
            ("Opportunity", opp, "Description", "bad \ud800 surrogate"),
        ):
            out = json.loads(tools.update_record(*args))
            assert out["error"][0]["errorCode"] == "INVALID_FIELD", args


def test_sosl_tool_results_say_which_object_each_record_is(b2b_org):
    with OrgSession(b2b_org) as s:
        name = s.soql("SELECT Name FROM Account LIMIT 1")["records"][0]["Name"].split()[0]
        out = json.loads(CrmTools(s).sosl(f"FIND {{{name}}} RETURNING Account(Id, Name), Contact(Id)"))
    assert out["searchRecords"] and all(r["type"] in ("Account", "Contact") for r in out["searchRecords"])


def test_eighteen_character_ids_match_in_any_case(b2b_org):
    with OrgSession(b2b_org) as s:
        case_id = s.soql("SELECT Id FROM Case ORDER BY Id LIMIT 1")["records"][0]["Id"]
        for written in (case_id.lower(), case_id.upper(), case_id):
            assert [r["Id"] for r in s.soql(f"SELECT Id FROM Case WHERE Id = '{written}'")["records"]] == [case_id]


def test_owner_changes_go_through_the_assignment_and_history_is_read_only(b2b_org):
    case_id, owner, other = _open_case_and_agents(b2b_org)
    with OrgSession(b2b_org) as s:
        tools = CrmTools(s)
        assert json.loads(tools.update_record("Case", case_id, "OwnerId", other))["success"]
        rows = s.soql(
            f"SELECT OldValue__c, NewValue__c, CreatedDate FROM CaseHistory__c WHERE CaseId__c = "
            f"'{case_id}' AND Field__c = 'Owner Assignment' ORDER BY CreatedDate DESC LIMIT 1"
        )["records"]
        assert (rows[0]["OldValue__c"], rows[0]["NewValue__c"]) == (owner, other)
        history_id = s.soql(f"SELECT Id FROM CaseHistory__c WHERE CaseId__c = '{case_id}' LIMIT 1")["records"][0]["Id"]
        out = json.loads(tools.update_record("CaseHistory__c", history_id, "NewValue__c", owner))
        assert out["error"][0]["errorCode"] == "INSUFFICIENT_ACCESS_OR_READONLY"

"""Every write is one transaction (issue 32 item 3): owner changes from many threads on one
session (REST PATCH, MCP assign_case, the in-episode tools) give unique, consecutive
CaseHistory__c rows whose OldValue chains follow each case's owners, with no error; and a
PATCH that fails part-way leaves nothing behind."""

from __future__ import annotations

import json
import threading
from collections import defaultdict

import httpx
import pytest

from simulator.crm.errors import SalesforceError
from simulator.crm.ids import make_id
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools, update_fields
from simulator.servers.background import BackgroundServer
from simulator.servers.salesforce_rest import attach_session, create_app
from tests.test_serve_org import CREDS

THREADS, CHANGES = 32, 100


def _cases_and_agents(session: OrgSession, cases: int) -> tuple[list[str], list[str]]:
    case_ids = [r["Id"] for r in session.soql(f"SELECT Id FROM Case ORDER BY Id LIMIT {cases}")["records"]]
    users = [r["Id"] for r in session.soql("SELECT Id FROM User ORDER BY Id LIMIT 8")["records"]]
    return case_ids, users


def _history_is_whole(session: OrgSession, before: int, expected: int, initial: dict[str, str]) -> None:
    """Rows before..before+expected exist with consecutive Ids, and each case's rows, in Id order,
    chain: each OldValue is the previous NewValue, starting from the case's owner before."""
    prefix = session.schema.get("CaseHistory__c").key_prefix
    rows = session.fetch(
        'SELECT Id, CaseId__c, OldValue__c, NewValue__c FROM "CaseHistory__c" '
        "WHERE Field__c = 'Owner Assignment' AND Id >= ? ORDER BY Id",
        (make_id(prefix, before + 1),),
    )
    assert [r[0] for r in rows] == [make_id(prefix, before + n) for n in range(1, expected + 1)]
    owner = dict(initial)
    for _, case_id, old, new in rows:
        assert old == owner[case_id] and old != new, (case_id, old, new)
        owner[case_id] = new
    final = dict(
        session.fetch(f'SELECT Id, OwnerId FROM "Case" WHERE Id IN ({",".join("?" * len(owner))})', tuple(owner))
    )
    assert final == owner


def _count(session: OrgSession) -> int:
    return session.fetch('SELECT COUNT(*) FROM "CaseHistory__c"')[0][0]


def _owners(session: OrgSession, case_ids: list[str]) -> dict[str, str]:
    return {c: session.fetch('SELECT OwnerId FROM "Case" WHERE Id = ?', (c,))[0][0] for c in case_ids}


def _hammer(change, case_ids: list[str], users: list[str]) -> list[str]:
    """THREADS threads x CHANGES owner changes each (thread t: case t mod len(case_ids), the
    users in turn); the errors."""
    errors: list[str] = []

    def work(t: int) -> None:
        case_id = case_ids[t % len(case_ids)]
        for n in range(CHANGES):
            try:
                change(case_id, users[(t + n) % len(users)])
            except Exception as exc:  # (counted: the test wants none)
                errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.mark.slow
@pytest.mark.parametrize("cases", [1, 32])
def test_tools_from_many_threads_write_whole_history(b2b_org, cases):
    with OrgSession(b2b_org) as session:
        tools = CrmTools(session)
        case_ids, users = _cases_and_agents(session, cases)
        initial, before = _owners(session, case_ids), _count(session)

        def change(case_id: str, user: str) -> None:
            out = json.loads(
                tools.assign_case(case_id, user)
                if users.index(user) % 2
                else tools.update_record("Case", case_id, "OwnerId", user)
            )
            if "error" in out:
                raise RuntimeError(out)

        errors = _hammer(change, case_ids, users)
        assert errors == []
        changed = len(session.fetch('SELECT Id FROM "CaseHistory__c"')) - before
        _history_is_whole(session, before, changed, initial)
        assert changed > 0


@pytest.mark.slow
@pytest.mark.parametrize("cases", [1, 32])
def test_rest_patches_from_32_clients_write_whole_history(b2b_org, cases):
    app = create_app(b2b_org, CREDS)
    with OrgSession(b2b_org) as session, BackgroundServer(app) as server:
        token = attach_session(app, session)
        case_ids, users = _cases_and_agents(session, cases)
        initial, before = _owners(session, case_ids), _count(session)
        clients = defaultdict(lambda: httpx.Client(headers={"Authorization": f"Bearer {token}"}))

        def change(case_id: str, user: str) -> None:
            client = clients[threading.get_ident()]
            response = client.patch(f"{server.url}/services/data/v59.0/sobjects/Case/{case_id}", json={"OwnerId": user})
            if response.status_code != 204:
                raise RuntimeError(response.text)

        errors = _hammer(change, case_ids, users)
        assert errors == []
        changed = _count(session) - before
        _history_is_whole(session, before, changed, initial)
        assert changed > 0


def test_a_patch_that_fails_part_way_leaves_nothing(b2b_org, monkeypatch):
    """The second field's write fails after the first was written: the first is undone."""
    with OrgSession(b2b_org) as session:
        case_id = session.soql("SELECT Id FROM Case LIMIT 1")["records"][0]["Id"]
        subject = session.soql(f"SELECT Subject FROM Case WHERE Id = '{case_id}'")["records"][0]["Subject"]
        real, calls = session.write, []

        def failing_write(sql, params=()):
            calls.append(sql)
            if len(calls) == 2:
                raise SalesforceError("UNKNOWN_EXCEPTION", "the disk went away")
            return real(sql, params)

        monkeypatch.setattr(session, "write", failing_write)
        with pytest.raises(SalesforceError):
            update_fields(session, "Case", case_id, {"Subject": "half-written", "Description": "never"})
        monkeypatch.undo()
        assert session.soql(f"SELECT Subject FROM Case WHERE Id = '{case_id}'")["records"][0]["Subject"] == subject

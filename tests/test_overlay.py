"""Copy-on-write sessions (issue 32, item 8): a session's writes live in a small overlay its own
queries see through; nothing copies the org. Checked against the full private copy sessions used
before (`FullCopySession`, kept here as the reference): every workflow episode gives the same
record, tool results included; and the structural facts that make the memory bounded."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading

import pytest

from simulator.agents.oracle import OracleAgent
from simulator.crm import session as session_module
from simulator.crm.session import OrgSession, _read_only
from simulator.crm.tools import CrmTools
from simulator.runs.episode import ORACLE_SEAT, EpisodeSpec, run_episode
from simulator.tasks.generate import generate_instances
from simulator.users.personas import load_personas
from simulator.users.scripted import ScriptedUser


class FullCopySession(OrgSession):
    """The sessions before item 8: the first write deserializes the whole org into memory."""

    def write(self, sql: str, params: tuple = ()) -> None:
        with self._lock:
            if not self._overlaid:
                private = sqlite3.connect(":memory:", check_same_thread=False)
                private.deserialize(self.org.image())
                self._conn.close()
                private.set_progress_handler(self._over_deadline, session_module._PROGRESS_STEPS)
                self._conn = private
                self._overlaid.add("*")
            self._conn.set_authorizer(None)
            try:
                self._conn.execute(sql, params)
            finally:
                self._conn.set_authorizer(_read_only)


def _play(org, instance, session_class, monkeypatch) -> dict:
    monkeypatch.setattr("simulator.runs.episode.OrgSession", session_class)
    person = next(p for p in load_personas().values() if p.pool == "internal")
    spec = EpisodeSpec("e1", "r1", instance, "sharded", person, "", seed=3)
    record = asyncio.run(run_episode(spec, org, OracleAgent(), ScriptedUser(3), seat=ORACLE_SEAT)).to_json()
    return {k: record[k] for k in ("messages", "events", "termination", "final_answer", "state")}


@pytest.mark.parametrize("org_name", ["b2b_org", "b2c_org"])
def test_every_workflow_episode_gives_the_record_the_full_copy_gave(org_name, request, monkeypatch):
    org = request.getfixturevalue(org_name)
    instances = generate_instances(org, 6, types=["case_routing", "lead_routing"])
    assert len(instances) == 12
    for instance in instances:
        overlay = _play(org, instance, OrgSession, monkeypatch)
        assert overlay == _play(org, instance, FullCopySession, monkeypatch), instance.id
        assert overlay["state"]["OwnerId"] and overlay["termination"]["reason"] == "user_done"


def _case_and_agents(org, n: int = 3):
    conn = org.connect()
    case_id, owner = conn.execute('SELECT Id, OwnerId FROM "Case" ORDER BY Id LIMIT 1').fetchone()
    others = [
        r[0]
        for r in conn.execute(
            'SELECT Id FROM User WHERE Id != ? AND Id IN (SELECT OwnerId FROM "Case") ORDER BY Id LIMIT ?', (owner, n)
        )
    ]
    conn.close()
    return case_id, owner, others


def test_a_writing_session_copies_nothing(b2b_org, monkeypatch):
    """The org is never serialized, the session keeps reading the org file, and its TEMP schema
    holds only the overlays of the tables it wrote."""
    monkeypatch.setattr(type(b2b_org), "image", lambda self: pytest.fail("the org was serialized"))
    case_id, owner, (a, b, c) = _case_and_agents(b2b_org)
    with OrgSession(b2b_org) as s:
        tools = CrmTools(s)
        for user in (a, b, c, owner):
            assert json.loads(tools.assign_case(case_id, user))["success"]
        s._conn.set_authorizer(None)
        files = {name: path for _, name, path in s._conn.execute("PRAGMA database_list")}
        assert files["main"] == str(b2b_org.path.resolve())
        temp = s._conn.execute("SELECT name, type FROM temp.sqlite_master WHERE type = 'table'").fetchall()
        assert sorted(temp) == [("_ov_Case", "table"), ("_ov_CaseHistory__c", "table")]
        assert s.fetch('SELECT COUNT(*) FROM temp."_ov_Case"') == [(1,)]
        assert s.fetch('SELECT COUNT(*) FROM temp."_ov_CaseHistory__c"') == [(4,)]


def test_history_rows_chain_and_count_on_as_in_the_org(b2b_org):
    case_id, owner, (a, b, c) = _case_and_agents(b2b_org)
    with OrgSession(b2b_org) as s:
        before = s.soql("SELECT COUNT() FROM CaseHistory__c")["totalSize"]
        tools = CrmTools(s)
        for user in (a, b, c):
            tools.assign_case(case_id, user)
        rows = s.soql(
            f"SELECT Id, OldValue__c, NewValue__c FROM CaseHistory__c WHERE CaseId__c = '{case_id}' "
            "AND Field__c = 'Owner Assignment' ORDER BY Id DESC LIMIT 3"
        )["records"]
        assert [(r["OldValue__c"], r["NewValue__c"]) for r in reversed(rows)] == [(owner, a), (a, b), (b, c)]
        assert len({r["Id"] for r in rows}) == 3
        assert s.soql("SELECT COUNT() FROM CaseHistory__c")["totalSize"] == before + 3
        joined = s.soql(f"SELECT Id, Owner.Name FROM Case WHERE Id = '{case_id}'")["records"][0]
        assert joined["Owner"]["Name"] == s.soql(f"SELECT Name FROM User WHERE Id = '{c}'")["records"][0]["Name"]


def test_a_searchable_field_written_is_found_by_its_new_text_only(b2b_org):
    conn = b2b_org.connect()
    case_id, word = next(
        (cid, w)
        for cid, subject, description in conn.execute('SELECT Id, Subject, Description FROM "Case" ORDER BY Id')
        for w in subject.split()
        if len(w) > 5 and w.isalpha() and w.lower() not in (description or "").lower()
    )
    conn.close()
    with OrgSession(b2b_org) as s, OrgSession(b2b_org) as other:
        assert json.loads(CrmTools(s).update_record("Case", case_id, "Subject", "Quasarflux overheating"))["success"]
        found = s.sosl("FIND {Quasarflux} IN ALL FIELDS RETURNING Case(Id, Subject)")["searchRecords"]
        assert [r["Id"] for r in found] == [case_id]
        assert other.sosl("FIND {Quasarflux} IN ALL FIELDS RETURNING Case(Id)")["searchRecords"] == []
        search = f"FIND {{{word}}} IN ALL FIELDS RETURNING Case(Id)"
        mine = {r["Id"] for r in s.sosl(search)["searchRecords"]}
        theirs = {r["Id"] for r in other.sosl(search)["searchRecords"]}
        assert case_id in theirs and mine == theirs - {case_id}


def test_concurrent_writing_sessions_see_only_their_own(b2b_org):
    case_id, owner, agents = _case_and_agents(b2b_org, 3)
    seen, errors = {}, []

    def work(user):
        try:
            with OrgSession(b2b_org) as s:
                tools = CrmTools(s)
                for _ in range(20):
                    tools.assign_case(case_id, user)
                    seen[user] = s.soql(f"SELECT OwnerId FROM Case WHERE Id = '{case_id}'")["records"][0]["OwnerId"]
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(u,)) for u in agents]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and seen == {u: u for u in agents}
    with OrgSession(b2b_org) as s:
        assert s.soql(f"SELECT OwnerId FROM Case WHERE Id = '{case_id}'")["records"][0]["OwnerId"] == owner


def test_only_updates_inserts_and_deletes_of_tables_are_writes(b2b_org):
    with OrgSession(b2b_org) as s, pytest.raises(ValueError, match="not an UPDATE, INSERT or DELETE"):
        s.write('DROP TABLE "Case"')


def test_a_deleted_row_is_gone_from_its_session_only(b2b_org):
    """A DELETE leaves a tombstone in the overlay: the session's queries no longer see the row (an
    org row or one it inserted), other sessions and the org file still do."""
    count = "SELECT COUNT() FROM Account"
    with OrgSession(b2b_org) as s, OrgSession(b2b_org) as other:
        before = s.soql(count)["totalSize"]
        first, second = (r["Id"] for r in s.soql("SELECT Id FROM Account ORDER BY Id LIMIT 2")["records"])
        s.write('UPDATE "Account" SET Name = ? WHERE Id = ?', ("Renamed", second))
        s.write('DELETE FROM "Account" WHERE Id = ?', (first,))
        s.write('DELETE FROM "Account" WHERE Id = ?', (second,))
        s.write('INSERT INTO "Account" (Id, Name) VALUES (?, ?)', ("001Nw0000000001AAA", "New"))
        assert s.soql(count)["totalSize"] == before - 1
        assert not s.soql(f"SELECT Id FROM Account WHERE Id IN ('{first}', '{second}')")["records"]
        s.write('DELETE FROM "Account" WHERE Id = ?', ("001Nw0000000001AAA",))
        assert s.soql(count)["totalSize"] == before - 2
        assert other.soql(count)["totalSize"] == before

"""The tools an agent under test calls: SOQL, SOSL, describe (an object's fields: for agents whose
prompt lists the objects only), and the write tools of workflow tasks.

Each tool takes and returns plain text (JSON), is documented for the model in its
docstring, and turns every failure into a Salesforce-style error text instead of raising,
so that a bad call is an observation the agent can act on. All tools of one `CrmTools`
act on one `OrgSession`, so an episode's writes stay inside that episode.

`CrmTools` is sealed: it has the tool methods and nothing else (no attributes, no `__dict__`;
its session lives in this module's private table, keyed by the object's id), so nothing an
agent can reach from it by attributes, bound methods or closures leads to the session, its
connection, the org or the org's file. Whoever needs the session (the episode loop) keeps its
own handle. Module globals are not sealed: in-process code can follow a method's
`__globals__` to that table, or walk the stack to the episode loop's frame. The seal stops
accidents and reading what an agent is handed, not a malicious plug-in (trusted code); run
untrusted agents out of process.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .describe import describe_object, describe_schema
from .errors import SalesforceError
from .ids import make_id, record_number, to18
from .schema import Field, SObject, not_createable, not_updateable, required_on_create, search_fields
from .session import OrgSession
from .store import fts_table, q

if TYPE_CHECKING:
    from simulator.records.base import JSON

MAX_DECIMAL = 1e16  # Salesforce's number fields: 18 digits, 2 after the point (exact sums stay in 64 bits)
MAX_RECORDS = 100
MAX_CHARS = 40_000  # about 10k tokens: a result larger than this is cut by records too
_WORKS: dict[int, _ToolWork] = {}  # id(CrmTools object) -> its work; entries go with their object


def strip_attributes(value: Any, keep_type: bool = False) -> Any:
    """A result without `attributes` entries (they cost tokens); with `keep_type`, each record
    keeps its object type as `type` (SOSL results mix objects)."""
    if isinstance(value, dict):
        out = {k: strip_attributes(v, keep_type) for k, v in value.items() if k != "attributes"}
        if keep_type and isinstance(value.get("attributes"), dict) and "type" in value["attributes"]:
            out = {"type": value["attributes"]["type"], **out}
        return out
    if isinstance(value, list):
        return [strip_attributes(v, keep_type) for v in value]
    return value


class CrmTools:
    """The agent-facing tool surface over one isolated session: the tool methods only."""

    __slots__ = ()

    def __init__(self, session: OrgSession, max_records: int = MAX_RECORDS, max_chars: int = MAX_CHARS):
        _WORKS[id(self)] = _ToolWork(session, max_records, max_chars)

    def __del__(self) -> None:
        _WORKS.pop(id(self), None)

    def soql(self, query: str) -> str:
        """Run a SOQL query against the CRM org and return the matching records as JSON.

        Example: SELECT Id, Subject, Account.Name FROM Case WHERE Status = 'Closed' LIMIT 10
        """
        return _WORKS[id(self)].soql(query)

    def sosl(self, search: str) -> str:
        """Run a SOSL full-text search against the CRM org and return the matches as JSON.

        Example: FIND {printer jam} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title), Case(Id, Subject)
        """
        return _WORKS[id(self)].sosl(search)

    def describe(self, object_name: str = "") -> str:
        """Describe one object of the CRM org: its fields with types, and its child relationships.

        Without an object name, list every object. Example: describe('Case')
        """
        return _WORKS[id(self)].describe(object_name)

    def assign_case(self, case_id: str, user_id: str) -> str:
        """Assign the case `case_id` to the agent (User) `user_id`; the change is recorded in the case history."""
        return _WORKS[id(self)].assign("Case", case_id, user_id, history=True)

    def assign_lead(self, lead_id: str, user_id: str) -> str:
        """Assign the lead `lead_id` to the sales agent (User) `user_id`."""
        return _WORKS[id(self)].assign("Lead", lead_id, user_id, history=False)

    def update_record(self, object_name: str, record_id: str, field: str, value: str) -> str:
        """Set one field of one record, e.g. update_record('Opportunity', '006...', 'StageName', 'Negotiation')."""
        return _WORKS[id(self)].update_record(object_name, record_id, field, value)


def update_fields(session: OrgSession, object_name: str, record_id: str, values: dict[str, Any]) -> None:
    """Set fields of one record as update_record sets one (OwnerId of a Case or Lead as an
    assignment), all or none: every value is checked before any is written. Raises SalesforceError
    (the REST API's PATCH)."""
    work = _ToolWork(session, MAX_RECORDS, MAX_CHARS)
    with session.transaction():
        try:
            writes = [work.prepare(object_name, record_id, field, value) for field, value in values.items()]
        except (ValueError, OverflowError, UnicodeError) as exc:
            raise SalesforceError("INVALID_FIELD", f"value not accepted: {exc}") from None
        for write in writes:
            write()


CREATED_POD = "Nw"  # the pod of the Ids of records created through the REST API (the generator's: "Kd")


def create_record(session: OrgSession, object_name: str, values: dict[str, Any]) -> str:
    """Insert one record of `values` (each checked as update_record checks one; the name field
    required; Id and CreatedDate set here) and return its Id. Raises SalesforceError (the REST
    API's POST)."""
    work = _ToolWork(session, MAX_RECORDS, MAX_CHARS)
    obj = work.writable(object_name)
    with session.transaction():
        try:
            row = {fld.name: work._coerce(obj, fld, value) for fld, value in work.createable(obj, values)}
        except (ValueError, OverflowError, UnicodeError) as exc:
            raise SalesforceError("INVALID_FIELD", f"value not accepted: {exc}") from None
        missing = tuple(name for name in required_on_create(obj) if row.get(name) is None)
        if missing:
            raise SalesforceError(
                "REQUIRED_FIELD_MISSING", f"Required fields are missing: [{', '.join(missing)}]", missing
            )
        if required_on_create(obj) == ("LastName",):  # (a compound Name: made of the person's names)
            row["Name"] = " ".join(str(row[n]) for n in ("FirstName", "LastName") if row.get(n))
        row = {"Id": work.new_id(obj), **({"CreatedDate": work.stamp()} if obj.field("CreatedDate") else {}), **row}
        marks = ", ".join("?" * len(row))
        session.write(f"INSERT INTO {q(obj.name)} ({', '.join(map(q, row))}) VALUES ({marks})", tuple(row.values()))
        work.reindex(obj)
    return str(row["Id"])


def delete_record(session: OrgSession, object_name: str, record_id: str) -> None:
    """Delete one record that no other record points at (else DELETE_FAILED: Salesforce cascades
    or clears some such lookups, which the org does not model). Raises SalesforceError (the REST
    API's DELETE)."""
    work = _ToolWork(session, MAX_RECORDS, MAX_CHARS)
    obj = work.writable(object_name)
    with session.transaction():
        rid = work._existing(obj.name, record_id)
        pointing = work.referrers(obj, rid)
        if pointing:
            raise SalesforceError(
                "DELETE_FAILED",
                f"Your attempt to delete {obj.name} {rid} could not be completed because it is associated "
                f"with the following records: {', '.join(pointing)}",
            )
        session.write(f"DELETE FROM {q(obj.name)} WHERE Id = ?", (rid,))
        work.reindex(obj)


def session_of(tools: CrmTools) -> OrgSession:
    """The session `tools` act on, for the harness's own servers (the tool gateway's REST API on a
    bound episode's session); never hand it to an agent: it reaches the org and the episode's writes."""
    return _WORKS[id(tools)].session


class _ToolWork:
    """What the tools of one `CrmTools` do, over its session (never handed to an agent)."""

    def __init__(self, session: OrgSession, max_records: int, max_chars: int):
        self.session = session
        self.max_records = max_records
        self.max_chars = max_chars

    def soql(self, query: str) -> str:
        return self._read(self.session.soql, query, "records")

    def sosl(self, search: str) -> str:
        return self._read(self.session.sosl, search, "searchRecords")

    def describe(self, object_name: str) -> str:
        schema = self.session.schema
        if not object_name:
            return describe_schema(schema)
        obj = schema.get(str(object_name))
        if obj is None:
            return SalesforceError("INVALID_TYPE", f"sObject type '{object_name}' is not supported.").tool_text()
        return describe_object(schema, obj)

    def update_record(self, object_name: str, record_id: str, field: str, value: str) -> str:
        owner_of = self._owner_change(object_name, field)
        if owner_of:
            return self.assign(owner_of, record_id, value, history=owner_of == "Case")
        try:
            with self.session.transaction():
                return json.dumps(self.prepare(object_name, record_id, field, value)())
        except SalesforceError as err:
            return err.tool_text()
        except (ValueError, OverflowError, UnicodeError, sqlite3.Error) as exc:
            return SalesforceError("INVALID_FIELD", f"{field}: value not accepted: {exc}").tool_text()

    def prepare(self, object_name: str, record_id: str, field: str, value: Any) -> Callable[[], JSON]:
        """Check setting one field of one record as update_record does (raises SalesforceError) and
        return the write that does it, which returns the tool's success body."""
        owner_of = self._owner_change(object_name, field)
        if owner_of:
            return self._prepare_owner(owner_of, record_id, value, history=owner_of == "Case")
        obj, fld, rid = self._resolve(object_name, record_id, field)
        if obj.name == "CaseHistory__c":
            raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "Case history records cannot be edited.")
        stored = self._coerce(obj, fld, value)
        return lambda: self._store(obj, fld, rid, stored, value)

    def _store(self, obj: SObject, fld: Field, rid: str, stored: Any, value: Any) -> JSON:
        self.session.write(f"UPDATE {q(obj.name)} SET {q(fld.name)} = ? WHERE Id = ?", (stored, rid))
        if fld in search_fields(obj):
            self.reindex(obj)
        return {"success": True, "id": rid, "object": obj.name, "field": fld.name, "value": value}

    def reindex(self, obj: SObject) -> None:
        """Keep SOSL's external-content index of `obj` in step with a write (if it has one)."""
        if search_fields(obj):
            fts = q(fts_table(obj.name))
            self.session.write(f"INSERT INTO {fts}({fts}) VALUES('rebuild')")

    def writable(self, object_name: str) -> SObject:
        """The object a record may be created or deleted in, or INVALID_TYPE / read-only errors."""
        obj = self.session.schema.get(object_name or "")
        if obj is None:
            raise SalesforceError("INVALID_TYPE", f"sObject type '{object_name}' is not supported.")
        if obj.name == "CaseHistory__c":
            raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "Case history records cannot be edited.")
        return obj

    def createable(self, obj: SObject, values: dict[str, Any]) -> list[tuple[Field, Any]]:
        """(field, value) of a create's `values`, or INVALID_FIELD / INVALID_FIELD_FOR_INSERT_UPDATE."""
        pairs = [(obj.field(name), value) for name, value in values.items()]
        unknown = [name for (fld, _), name in zip(pairs, values) if fld is None]
        if unknown:
            raise SalesforceError("INVALID_FIELD", f"No such column '{unknown[0]}' on sobject of type {obj.name}")
        fixed = tuple(fld.name for fld, _ in pairs if fld is not None and not_createable(obj, fld))
        if fixed:
            raise SalesforceError("INVALID_FIELD_FOR_INSERT_UPDATE", _unwritable(", ".join(fixed)), fixed)
        return [(fld, value) for fld, value in pairs if fld is not None]

    def new_id(self, obj: SObject) -> str:
        """An Id no record of `obj` has in this session: the next number of the REST API's pod."""
        head = obj.key_prefix + CREATED_POD
        rows = self.session.fetch(f"SELECT max(Id) FROM {q(obj.name)} WHERE Id > ? AND Id < ?", (head, head + "~"))
        last = rows[0][0]
        return make_id(obj.key_prefix, record_number(last) + 1 if last else 1, pod=CREATED_POD)

    def stamp(self) -> str:
        """The time a write of the session is stamped with: the org's day, after its generated events."""
        return f"{self.session.as_of.isoformat()}T17:00:00.000+0000"

    def referrers(self, obj: SObject, rid: str) -> list[str]:
        """'<n> <Object>.<field>' for each lookup of another record to `rid` (of `obj`)."""
        found = []
        for other in self.session.schema.objects:
            for fld in other.fields:
                if fld.reference_to == obj.name:
                    sql = f"SELECT COUNT(*) FROM {q(other.name)} WHERE {q(fld.name)} = ?"
                    n = self.session.fetch(sql, (rid,))[0][0]
                    found += [f"{n} {other.name}.{fld.name}"] if n else []
        return found

    def _owner_change(self, object_name: str, field: str) -> str | None:
        """'Case' or 'Lead' when `field` is the OwnerId of one (an assignment, with the case's history), else None."""
        if str(field or "").lower() == "ownerid" and str(object_name or "").lower() in ("case", "lead"):
            return self.session.schema.require(object_name).name
        return None

    # --- helpers -------------------------------------------------------------------

    def _read(self, runner: Callable[[str], JSON], text: str, key: str) -> str:
        try:
            result = runner(text)
        except SalesforceError as err:
            return err.tool_text()
        rows = result.get(key, [])
        out = strip_attributes(result, keep_type=key == "searchRecords")
        shown = min(len(rows), self.max_records)
        text = self._cut(out, key, shown, len(rows))
        while len(text) > self.max_chars and shown > 1:  # long text fields: fewer records
            shown //= 2
            text = self._cut(out, key, shown, len(rows))
        return text

    @staticmethod
    def _cut(out: JSON, key: str, shown: int, total: int) -> str:
        """The result as JSON with only the first `shown` of `total` records, and a note if cut."""
        if shown >= total:
            return json.dumps(out, ensure_ascii=False)
        note = (
            f"Showing the first {shown} of {total} records; narrow the query, select fewer fields or "
            "aggregate to see the rest."
        )
        return json.dumps({**out, key: out[key][:shown], "note": note}, ensure_ascii=False)

    def assign(self, object_name: str, record_id: str, user_id: str, *, history: bool) -> str:
        try:
            with self.session.transaction():
                return json.dumps(self._prepare_owner(object_name, record_id, user_id, history=history)())
        except SalesforceError as err:
            return err.tool_text()
        except sqlite3.Error as exc:
            return SalesforceError("UNKNOWN_EXCEPTION", f"the assignment failed: {exc}").tool_text()

    def _prepare_owner(self, object_name: str, record_id: str, user_id: str, *, history: bool) -> Callable[[], JSON]:
        _, _, rid = self._resolve(object_name, record_id, "OwnerId")
        uid = self._existing("User", user_id)
        return lambda: self._reassign(object_name, rid, uid, history)

    def _reassign(self, object_name: str, rid: str, uid: str, history: bool) -> JSON:
        old = self.session.fetch(f"SELECT OwnerId FROM {q(object_name)} WHERE Id = ?", (rid,))[0][0]
        self.session.write(f"UPDATE {q(object_name)} SET OwnerId = ? WHERE Id = ?", (uid, rid))
        if history and old != uid:
            self._record_transfer(rid, old, uid)
        return {"success": True, "id": rid, "OwnerId": uid}

    def _record_transfer(self, case_id: str, old: str | None, new: str) -> None:
        obj = self.session.schema.require("CaseHistory__c")
        count = self.session.fetch('SELECT COUNT(*) FROM "CaseHistory__c"')[0][0]
        stamp = self.stamp()
        self.session.write(
            'INSERT INTO "CaseHistory__c" (Id, CaseId__c, CreatedDate, Field__c, OldValue__c, '
            "NewValue__c) VALUES (?, ?, ?, 'Owner Assignment', ?, ?)",
            (make_id(obj.key_prefix, count + 1), case_id, stamp, old, new),
        )

    def _resolve(self, object_name: str, record_id: str, field: str) -> tuple[SObject, Field, str]:
        obj = self.session.schema.get(object_name or "")
        if obj is None:
            raise SalesforceError("INVALID_TYPE", f"sObject type '{object_name}' is not supported.")
        fld = obj.field(field or "")
        if fld is None:
            raise SalesforceError("INVALID_FIELD", f"No such column '{field}' on sobject of type {obj.name}")
        if not_updateable(obj, fld):
            raise SalesforceError("INVALID_FIELD_FOR_INSERT_UPDATE", _unwritable(fld.name))
        return obj, fld, self._existing(obj.name, record_id)

    def _existing(self, object_name: str, record_id: str) -> str:
        rid = to18(str(record_id or "").strip())
        if len(rid) != 18 or not rid.isalnum():
            raise SalesforceError("MALFORMED_ID", f"{object_name} ID: id value of incorrect type: {record_id}")
        obj = self.session.schema.require(object_name)
        if not rid.startswith(obj.key_prefix) or not self.session.record_exists(obj.name, rid):
            raise SalesforceError(
                "INVALID_CROSS_REFERENCE_KEY", f"invalid cross reference id: no {obj.name} with Id {record_id}"
            )
        return rid

    def _coerce(self, obj: SObject, fld: Field, value: str) -> Any:
        """The stored form of `value` for `fld`, or INVALID_FIELD / picklist errors."""
        text = "" if value is None else str(value).strip()
        if text == "" or text.lower() == "null":
            return None
        if fld.reference_to:  # (the fields of type reference: each names its object)
            return self._existing(fld.reference_to, text)
        if fld.picklist and text not in fld.picklist:
            raise SalesforceError(
                "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST",
                f"{fld.name}: bad value for restricted picklist field: {text}",
            )
        try:
            if fld.type == "boolean":
                if text.lower() not in ("true", "false"):
                    raise ValueError(text)
                return int(text.lower() == "true")
            if fld.type == "int":
                number = int(text)
                if abs(number) >= 2**63:
                    raise ValueError(text)
                return number
            if fld.type in ("double", "currency", "percent"):
                decimal = float(text)
                if not math.isfinite(decimal):
                    raise ValueError(text)
                if abs(decimal) >= MAX_DECIMAL:
                    raise SalesforceError(
                        "NUMBER_OUTSIDE_VALID_RANGE",
                        f"{fld.name}: value outside of valid range on numeric field: {text}",
                    )
                return decimal
            if fld.type == "date":
                return datetime.strptime(text, "%Y-%m-%d").date().isoformat()
            if fld.type == "datetime":
                return _datetime_text(text)
        except (ValueError, OverflowError):
            raise SalesforceError("INVALID_FIELD", f"{fld.name}: value not of required type: {text}") from None
        return text


def _unwritable(names: str) -> str:
    return (
        f"Unable to create/update fields: {names}. Please check the security settings "
        "of this field and verify that it is read/write for your profile or permission set."
    )


def _datetime_text(text: str) -> str:
    """'2024-01-02T03:04:05Z' and similar, as stored: '2024-01-02T03:04:05.000+0000' (UTC)."""
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed.strftime("%Y-%m-%dT%H:%M:%S.000+0000")

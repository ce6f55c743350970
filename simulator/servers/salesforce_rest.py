"""`crmarena serve-org`: a Salesforce REST API subset over HTTP on an org file (Starlette app,
served by uvicorn).

Data API (`/services/data/`, `/services/data/vNN.0/`): `query` and `queryAll` (`?q=`) paged by
`nextRecordsUrl` in batches of 2,000, `search` (SOSL), `limits`, `sobjects`, `sobjects/X` (GET;
POST creates a record), `sobjects/X/describe`, `sobjects/X/ID` (GET, `?fields=`; PATCH, as the
update_record tool; DELETE). Records' `attributes.url` name the API version the request named.
Logins and tokens: `rest_sessions`; a token attached to an episode's session may carry a gate and
a listener, so that its requests count and are recorded as that episode's tool calls
(`tool_calls`). Errors as Salesforce returns them: a status and `[{"errorCode", "message"}]`,
never a traceback. Point simple-salesforce at it with
`sf_client.local_session`. The command: `serve_org`.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import string
from collections.abc import Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from simulator.infra.inputs import parse_json

from ..crm.errors import SalesforceError, no_such_column
from ..crm.ids import to18
from ..crm.session import OrgSession
from ..crm.soql.compiler import API_PATH
from ..crm.store import Org
from ..crm.tools import create_record, delete_record, update_fields
from . import sobject_describe
from .rest_sessions import (
    MAX_CURSORS,
    BodyTooLarge,
    Bound,
    Credentials,
    TokenRegistry,
    oauth_token,
    read_body,
    soap_login,
)

logger = logging.getLogger(__name__)
API_VERSIONS = tuple(f"{n}.0" for n in range(31, 63))
BATCH_SIZE = 2000  # records per page of query results, as Salesforce's default
BODY_CAP = 1 << 20  # bytes of a request body
LOGIN_BODY_CAP = 64 << 10
QUERY_CAP = 100_000  # characters of a SOQL or SOSL statement (Salesforce's limit; the URL carries it)
DAILY_API_REQUESTS = 15_000  # `limits`' DailyApiRequests Max (a Developer Edition's; counted, never enforced)
_STATUS = {
    "NOT_FOUND": 404,
    "INVALID_SESSION_ID": 401,
    "REQUEST_LIMIT_EXCEEDED": 403,
    "METHOD_NOT_ALLOWED": 405,
    "REQUEST_ENTITY_TOO_LARGE": 413,
    "UNKNOWN_EXCEPTION": 500,
}
_NOT_FOUND = SalesforceError("NOT_FOUND", "The requested resource does not exist")
_UNEXPECTED = SalesforceError("UNKNOWN_EXCEPTION", "An unexpected error occurred in the org server")
_ALNUM = string.ascii_letters + string.digits
_METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"]


def error_response(err: SalesforceError) -> JSONResponse:
    return JSONResponse(err.to_json(), _STATUS.get(err.code, 400))


@dataclass
class Call:
    """One data API request, once authorized."""

    bound: Bound
    version: str
    params: Mapping[str, str]
    body: bytes
    batch_size: int
    query_cap: int
    used: int = 0  # the data API requests this server has answered, this one included

    @property
    def session(self) -> OrgSession:
        return self.bound.session

    def sobject(self, name: str):
        obj = self.session.schema.get(name)
        if obj is None:
            raise _NOT_FOUND
        return obj


# --- the resources ---------------------------------------------------------------------


def _resources(call: Call) -> dict:
    base = f"/services/data/v{call.version}"
    return {name: f"{base}/{name}" for name in ("sobjects", "query", "queryAll", "search", "limits")}


def _limits(call: Call) -> dict:
    """`GET limits`: the daily API requests, counted by this server since it started."""
    return {"DailyApiRequests": {"Max": DAILY_API_REQUESTS, "Remaining": max(0, DAILY_API_REQUESTS - call.used)}}


def _statement(call: Call) -> str:
    text = call.params.get("q", "")
    if not text.strip():
        raise SalesforceError("MALFORMED_QUERY", "The q parameter holds no statement")
    if len(text) > call.query_cap:
        raise SalesforceError(
            "MALFORMED_QUERY", f"Query is too long: {len(text)} characters; the limit is {call.query_cap}"
        )
    return text


def _query(call: Call) -> dict:
    result = call.session.soql(_statement(call))
    records = result["records"]
    if len(records) <= call.batch_size:
        return result
    locator = "01g" + "".join(secrets.choice(_ALNUM) for _ in range(15))
    with call.bound.lock:
        call.bound.cursors[locator] = (records, result["totalSize"])
        while len(call.bound.cursors) > MAX_CURSORS:
            call.bound.cursors.popitem(last=False)
    return _page(call, locator, 0)


def _page(call: Call, locator: str, offset: int) -> dict:
    with call.bound.lock:
        records, total = call.bound.cursors[locator]
        end = offset + call.batch_size
        if end >= len(records):
            call.bound.cursors.pop(locator)
    page = {"totalSize": total, "done": end >= len(records), "records": records[offset:end]}
    if not page["done"]:
        page["nextRecordsUrl"] = f"/services/data/v{call.version}/query/{locator}-{end}"
    return page


def _query_more(call: Call, cursor: str) -> dict:
    locator, _, offset = cursor.rpartition("-")
    with call.bound.lock:
        known = locator in call.bound.cursors
    if not known or not offset.isdigit():
        raise SalesforceError("INVALID_QUERY_LOCATOR", "invalid query locator")
    return _page(call, locator, int(offset))


def _search(call: Call) -> dict:
    return call.session.sosl(_statement(call))


def _sobjects(call: Call) -> dict:
    return sobject_describe.sobject_list(call.session.schema, call.version)


def _object_info(call: Call, name: str) -> dict:
    return {"objectDescribe": sobject_describe.object_summary(call.sobject(name), call.version), "recentItems": []}


def _describe(call: Call, name: str) -> dict:
    return sobject_describe.describe(call.sobject(name), call.version)


def _record_id(call: Call, obj, record_id: str) -> str:
    """The record's 18-character Id, or NOT_FOUND as Salesforce answers for a missing record."""
    rid = to18(record_id) if re.fullmatch(r"[A-Za-z0-9]{15}|[A-Za-z0-9]{18}", record_id) else ""
    if not rid or not call.session.record_exists(obj.name, rid):
        raise SalesforceError(
            "NOT_FOUND", f"Provided external ID field does not exist or is not accessible: {record_id}"
        )
    return rid


def _get_record(call: Call, name: str, record_id: str) -> dict:
    obj = call.sobject(name)
    rid = _record_id(call, obj, record_id)
    wanted = [f.strip() for f in call.params.get("fields", "").split(",") if f.strip()]
    fields = [obj.field(f) for f in wanted] or list(obj.fields)
    if None in fields:
        raise no_such_column(wanted[fields.index(None)], obj.name)
    columns = ", ".join(f.name for f in fields)
    return call.session.soql(f"SELECT {columns} FROM {obj.name} WHERE Id = '{rid}'")["records"][0]


def _field_text(name: str, value: Any) -> str | None:
    """A JSON value as the write tools take it (text; None clears the field)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    raise SalesforceError("JSON_PARSER_ERROR", f"Cannot deserialize a {type(value).__name__} as the value of {name}")


def _field_values(call: Call) -> dict[str, str | None]:
    """The body's field values (a JSON object; `attributes` left out) as the write tools take them."""
    try:
        values = parse_json(call.body or b"{}")
    except ValueError as exc:
        raise SalesforceError("JSON_PARSER_ERROR", f"The request body is {exc}") from None
    if not isinstance(values, dict):
        raise SalesforceError("JSON_PARSER_ERROR", "The request body must be a JSON object of field values")
    values.pop("attributes", None)
    return {k: _field_text(k, v) for k, v in values.items()}


def _patch_record(call: Call, name: str, record_id: str) -> Response:
    obj = call.sobject(name)
    rid = _record_id(call, obj, record_id)
    update_fields(call.session, obj.name, rid, _field_values(call))
    return Response(status_code=204)


def _create_record(call: Call, name: str) -> Response:
    """`POST sobjects/X`: 201 `{"id", "success", "errors"}`, as Salesforce answers a create."""
    obj = call.sobject(name)
    rid = create_record(call.session, obj.name, _field_values(call))
    return JSONResponse({"id": rid, "success": True, "errors": []}, 201)


def _delete_record(call: Call, name: str, record_id: str) -> Response:
    obj = call.sobject(name)
    delete_record(call.session, obj.name, _record_id(call, obj, record_id))
    return Response(status_code=204)


def _handlers(parts: list[str]) -> tuple[dict[str, Callable], tuple]:
    """The handler of each method for the resource at `parts` (after the version), and its arguments."""
    if not parts:
        return {"GET": _resources}, ()
    head, rest = parts[0], parts[1:]
    if head in ("query", "queryAll") and len(rest) <= 1:
        return {"GET": _query_more if rest else _query}, tuple(rest)
    if head == "search" and not rest:
        return {"GET": _search}, ()
    if head == "limits" and not rest:
        return {"GET": _limits}, ()
    if head == "sobjects" and len(rest) <= 2:
        if not rest:
            return {"GET": _sobjects}, ()
        if len(rest) == 1:
            return {"GET": _object_info, "POST": _create_record}, tuple(rest)
        if rest[1] == "describe":
            return {"GET": _describe}, (rest[0],)
        return {"GET": _get_record, "PATCH": _patch_record, "DELETE": _delete_record}, tuple(rest)
    raise _NOT_FOUND


# --- the app -----------------------------------------------------------------------------


def _token(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() in ("bearer", "oauth") else ""


async def data_api(request: Request) -> Response:
    """Every `/services/data/...` request: version, token, body, then the resource (through the
    token's gate and reported to its `on_call` when it has them: see `_watched`)."""
    parts = [p for p in request.path_params.get("tail", "").split("/") if p]
    if not parts:
        return JSONResponse(
            [
                {"label": sobject_describe.release_label(v), "url": f"/services/data/v{v}", "version": v}
                for v in API_VERSIONS
            ]
        )
    state = request.app.state
    try:
        if parts[0][:1] != "v" or parts[0][1:] not in API_VERSIONS:
            raise _NOT_FOUND
        bound = state.registry.get(_token(request))
        if bound is None:
            raise SalesforceError("INVALID_SESSION_ID", "Session expired or invalid")
        body = await read_body(request, state.body_cap)
    except BodyTooLarge:
        return error_response(
            SalesforceError("REQUEST_ENTITY_TOO_LARGE", f"The request body exceeds {state.body_cap} bytes")
        )
    except SalesforceError as err:
        return error_response(err)
    state.api_requests += 1
    call = Call(bound, parts[0][1:], request.query_params, body, state.batch_size, state.query_cap, state.api_requests)
    if bound.gate is None and bound.on_call is None:
        response = await _respond(call, request.method, parts[1:])
    else:
        response = await _watched(call, request.method, parts[1:], request.url.path)
    response.headers["Sforce-Limit-Info"] = f"api-usage={call.used}/{DAILY_API_REQUESTS}"  # (as Salesforce's)
    return response


async def _respond(call: Call, method: str, parts: list[str]) -> Response:
    """The answer to `method` on the resource at `parts` (after the version)."""
    try:
        handlers, args = _handlers(parts)
        if method not in handlers:
            raise SalesforceError(
                "METHOD_NOT_ALLOWED", f"HTTP Method '{method}' not allowed. Allowed are {','.join(handlers)}"
            )
        result = await run_in_threadpool(handlers[method], call, *args)
    except SalesforceError as err:
        return error_response(err)
    return result if isinstance(result, Response) else JSONResponse(in_version(result, call.version))


def in_version(value: Any, version: str) -> Any:
    """`value` (a fresh result: changed in place) with every record's `attributes.url` in API
    `version` (the engine writes API_PATH's)."""
    base = f"/services/data/v{version}/sobjects"
    if base != API_PATH:
        _rebase(value, base)
    return value


def _rebase(value: Any, base: str) -> None:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if key == "attributes" and isinstance(item, dict) and str(item.get("url", "")).startswith(API_PATH):
            value[key] = {**item, "url": base + item["url"][len(API_PATH) :]}  # (a new dict: never shared)
        elif isinstance(item, (dict, list)):
            _rebase(item, base)


async def _watched(call: Call, method: str, parts: list[str], path: str) -> Response:
    """A request of an attached token with a gate or a listener (a remote agent's episode): refused
    (403) when the gate says so, else answered; either way reported to `on_call` as the tool calls
    it amounts to (`tool_calls`), with the body the client got as their result (an error's wrapped
    as the tools word theirs, `{"error": [...]}`; a bodiless answer as its status)."""
    bound = call.bound
    calls = tool_calls(method, parts, call.params, call.body, path)
    refusal = bound.gate(calls[0][0]) if bound.gate is not None else None
    try:
        response = error_response(_refused(refusal)) if refusal else await _respond(call, method, parts)
    except Exception:  # (recorded too; logged, never shown)
        logger.exception("an unexpected error in a REST request of an attached session")
        response = error_response(_UNEXPECTED)
    if bound.on_call is not None:
        text = bytes(response.body).decode() or f"HTTP {response.status_code} (no content)"
        text = f'{{"error": {text}}}' if response.status_code >= 400 else text
        for name, arguments in calls:
            bound.on_call(name, arguments, text)
    return response


def _refused(text: str) -> SalesforceError:
    """The gate's refusal (a tool error text, `{"error": [{"errorCode", "message"}]}`, or plain words)."""
    try:
        first = json.loads(text)["error"][0]
        return SalesforceError(first["errorCode"], first["message"])
    except (ValueError, TypeError, KeyError, IndexError):
        return SalesforceError("REQUEST_LIMIT_EXCEEDED", text)


def tool_calls(
    method: str, parts: list[str], params: Mapping[str, str], body: bytes, path: str
) -> list[tuple[str, dict]]:
    """What a request amounts to in the agent tools' words, for a transcript: a query is `soql`, a
    search `sosl`, a PATCH of a record one `update_record` per field; anything else one `rest` call
    with its method, path, query parameters and body."""
    head = parts[0] if parts else ""
    if method == "GET" and len(parts) == 1 and head in ("query", "queryAll"):
        return [("soql", {"query": params.get("q", "")})]
    if method == "GET" and parts == ["search"]:
        return [("sosl", {"search": params.get("q", "")})]
    values = _json_object(body) if method == "PATCH" and head == "sobjects" and len(parts) == 3 else None
    values = {k: v for k, v in (values or {}).items() if k != "attributes"}
    if values:
        return [
            (
                "update_record",
                {
                    "object_name": parts[1],
                    "record_id": parts[2],
                    "field": field,
                    "value": value if isinstance(value, str) else json.dumps(value),
                },
            )
            for field, value in values.items()
        ]
    rest = {"method": method, "path": path, **({"params": dict(params)} if params else {})}
    return [("rest", {**rest, **({"body": body.decode("utf-8", "replace")} if body else {})})]


def _json_object(body: bytes) -> dict | None:
    try:
        value = parse_json(body or b"null")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


async def _http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 405:
        return error_response(SalesforceError("METHOD_NOT_ALLOWED", f"HTTP Method '{request.method}' not allowed"))
    return error_response(_NOT_FOUND if exc.status_code == 404 else SalesforceError("UNKNOWN_EXCEPTION", exc.detail))


async def _too_large(request: Request, exc: BodyTooLarge) -> Response:
    return error_response(SalesforceError("REQUEST_ENTITY_TOO_LARGE", "The request body is too large"))


async def _unexpected(request: Request, exc: Exception) -> Response:
    return error_response(_UNEXPECTED)


def create_app(
    org: Org,
    credentials: Credentials,
    *,
    batch_size: int = BATCH_SIZE,
    timeout_s: float = 10.0,
    body_cap: int = BODY_CAP,
    query_cap: int = QUERY_CAP,
    max_sessions: int = 64,
) -> Starlette:
    """The REST API over `org`: logins with `credentials`, each token on its own session."""
    registry = TokenRegistry(org, timeout_s=timeout_s, max_sessions=max_sessions)

    @asynccontextmanager
    async def lifespan(_app):
        yield
        registry.close()

    routes = [
        Route("/services/oauth2/token", oauth_token, methods=["POST"]),
        Route("/services/Soap/u/{version}", soap_login, methods=["POST"]),
        Route("/services/data", data_api, methods=_METHODS),
        Route("/services/data/{tail:path}", data_api, methods=_METHODS),
    ]
    handlers: dict[Any, Callable[[Request, Any], Awaitable[Response]]] = {
        HTTPException: _http_error,
        BodyTooLarge: _too_large,
        Exception: _unexpected,
    }
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.state.registry, app.state.credentials = registry, credentials
    app.state.batch_size, app.state.query_cap = batch_size, query_cap
    app.state.body_cap, app.state.login_body_cap = body_cap, LOGIN_BODY_CAP
    app.state.api_requests = 0
    return app


def attach_session(
    app: Starlette,
    session: OrgSession,
    *,
    on_call: Callable[[str, dict, str], None] | None = None,
    gate: Callable[[str], str | None] | None = None,
) -> str:
    """An access token bound to an existing session: its holder reads and writes that session. With
    `gate(tool name)` (a refusal text, or None) each request may be refused before it runs; with
    `on_call(name, arguments, result text)` each is reported as the tool calls it amounts to
    (`tool_calls`), as the MCP tool gateway reports its calls."""
    return app.state.registry.attach(session, on_call, gate)


def detach_session(app: Starlette, token: str) -> None:
    """Invalidate a token from `attach_session` (its session stays open: its owner closes it)."""
    app.state.registry.detach(token)

"""Who may call the Salesforce REST API of `serve-org`, and on which session.

`Credentials` are set when the server starts (or generated). The login endpoints: OAuth2's
token endpoint (`POST /services/oauth2/token`: the username-password and client-credentials
flows) and the SOAP login (`POST /services/Soap/u/VER`, what simple-salesforce and
CRMArena's harness use with a security token). Each login mints an access token that owns a
new `OrgSession`; `TokenRegistry.attach` mints one bound to an existing session instead (a
remote agent reading and writing an episode's own session, each request gated and reported as
its MCP tool calls are). Every token's writes go to its
session's overlay (copy-on-write: simulator/crm/session.py), never to the org file, and no other
token sees them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs
from xml.sax.saxutils import escape

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..crm.ids import make_id
from ..crm.session import OrgSession
from ..crm.store import Org

ORG_ID = make_id("00D", 1, pod="Sm")
USER_ID = make_id("005", 1, pod="Ap")  # the API user: never one of the org's generated users
MAX_CURSORS = 10  # open query cursors per token, as Salesforce keeps about 10 per user
_BAD_LOGIN = {"error": "invalid_grant", "error_description": "authentication failure"}
_SOAP_FAULT = """<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope \
xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sf="urn:fault.partner.soap.sforce.com" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><soapenv:Fault>\
<faultcode>sf:INVALID_LOGIN</faultcode><faultstring>INVALID_LOGIN: {message}</faultstring><detail>\
<sf:LoginFault xsi:type="sf:LoginFault"><sf:exceptionCode>INVALID_LOGIN</sf:exceptionCode>\
<sf:exceptionMessage>{message}</sf:exceptionMessage></sf:LoginFault></detail></soapenv:Fault>\
</soapenv:Body></soapenv:Envelope>"""
_SOAP_LOGIN = """<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope \
xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns="urn:partner.soap.sforce.com">\
<soapenv:Body><loginResponse><result><passwordExpired>false</passwordExpired><sandbox>true</sandbox>\
<serverUrl>{base}/services/Soap/u/{version}/{org_id}</serverUrl><sessionId>{token}</sessionId>\
<userId>{user_id}</userId><userInfo><organizationId>{org_id}</organizationId><userId>{user_id}</userId>\
<userName>{username}</userName></userInfo></result></loginResponse></soapenv:Body></soapenv:Envelope>"""


class BodyTooLarge(Exception):
    """A request body over the server's cap."""


async def read_body(request: Request, cap: int) -> bytes:
    """The request body, or BodyTooLarge once it passes `cap` bytes (read no further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise BodyTooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            raise BodyTooLarge
    return bytes(body)


@dataclass(frozen=True)
class Credentials:
    """The one user and connected app the server accepts."""

    username: str
    password: str
    security_token: str
    client_id: str
    client_secret: str

    @classmethod
    def generate(cls, username: str = "agent@crmarena.local") -> Credentials:
        """Random password, security token and client id/secret (printed once by `serve-org`)."""
        return cls(
            username,
            secrets.token_urlsafe(12),
            secrets.token_urlsafe(18),
            secrets.token_urlsafe(24),
            secrets.token_urlsafe(24),
        )

    def user_matches(self, username: str, password: str) -> bool:
        """The password may carry the security token at its end, or not (as from a trusted IP range)."""
        good = [self.password + self.security_token, self.password]
        return _same(username, self.username) & any([_same(password, p) for p in good])  # noqa: C419  compare all, in constant time

    def client_matches(self, client_id: str, client_secret: str) -> bool:
        return _same(client_id, self.client_id) & _same(client_secret, self.client_secret)


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode(), expected.encode())


@dataclass
class Bound:
    """What one access token reaches: its session, and its open query cursors."""

    session: OrgSession
    owned: bool  # minted by a login: closed when evicted or when the server stops
    cursors: OrderedDict = field(default_factory=OrderedDict)  # locator -> (records, totalSize)
    lock: threading.Lock = field(default_factory=threading.Lock)
    on_call: Callable[[str, dict, str], None] | None = None  # told of every request (as a tool call)
    gate: Callable[[str], str | None] | None = None  # a refusal text when a request may not run now


class TokenRegistry:
    """Access tokens and the sessions they are bound to; at most `max_sessions` login sessions
    (the oldest is closed, its token then invalid)."""

    def __init__(self, org: Org, *, timeout_s: float = 10.0, max_sessions: int = 64):
        self.org = org
        self.timeout_s = timeout_s
        self.max_sessions = max_sessions
        self._bound: OrderedDict[str, Bound] = OrderedDict()
        self._lock = threading.Lock()

    def login(self) -> str:
        """A token owning a new session of the org."""
        token = self._mint(Bound(OrgSession(self.org, timeout_s=self.timeout_s), owned=True))
        with self._lock:
            owned = [t for t, b in self._bound.items() if b.owned]
            for old in owned[: max(0, len(owned) - self.max_sessions)]:
                self._bound.pop(old).session.close()
        return token

    def attach(
        self,
        session: OrgSession,
        on_call: Callable[[str, dict, str], None] | None = None,
        gate: Callable[[str], str | None] | None = None,
    ) -> str:
        """A token bound to an existing session (its owner closes it; `detach` when done), its requests
        passed by `gate` and reported to `on_call` (as salesforce_rest.data_api says)."""
        return self._mint(Bound(session, owned=False, on_call=on_call, gate=gate))

    def detach(self, token: str) -> None:
        with self._lock:
            self._bound.pop(token, None)

    def get(self, token: str) -> Bound | None:
        with self._lock:
            return self._bound.get(token)

    def close(self) -> None:
        """Close every login session; every token becomes invalid."""
        with self._lock:
            for bound in self._bound.values():
                if bound.owned:
                    bound.session.close()
            self._bound.clear()

    def _mint(self, bound: Bound) -> str:
        token = f"{ORG_ID[:15]}!{secrets.token_urlsafe(32)}"
        with self._lock:
            self._bound[token] = bound
        return token


def _instance_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def _basic_auth(request: Request) -> tuple[str, str]:
    """(client id, client secret) of an `Authorization: Basic` header, or two empty strings."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return "", ""
    try:
        client_id, _, secret = base64.b64decode(value, validate=True).decode().partition(":")
    except (ValueError, UnicodeError):
        return "", ""
    return client_id, secret


def _granted(creds: Credentials, form: dict[str, str], request: Request) -> bool:
    client = (form.get("client_id", ""), form.get("client_secret", ""))
    if not all(client):
        client = _basic_auth(request)
    if not creds.client_matches(*client):
        return False
    if form.get("grant_type") == "password":
        return creds.user_matches(form.get("username", ""), form.get("password", ""))
    return form.get("grant_type") == "client_credentials"


async def oauth_token(request: Request) -> Response:
    """`POST /services/oauth2/token`: the username-password and client-credentials flows."""
    state = request.app.state
    body = await read_body(request, state.login_body_cap)
    form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
    if not _granted(state.credentials, form, request):
        return JSONResponse(_BAD_LOGIN, 400)
    instance = _instance_url(request)
    identity, issued = f"{instance}/id/{ORG_ID}/{USER_ID}", str(int(time.time() * 1000))
    signature = hmac.new(state.credentials.client_secret.encode(), (identity + issued).encode(), hashlib.sha256)
    return JSONResponse(
        {
            "access_token": state.registry.login(),
            "instance_url": instance,
            "id": identity,
            "token_type": "Bearer",
            "issued_at": issued,
            "signature": base64.b64encode(signature.digest()).decode(),
        }
    )


def _soap_user(body: bytes) -> tuple[str, str]:
    """(username, password) of a SOAP login request, or two empty strings."""
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError:
        return "", ""
    found = {el.tag.rpartition("}")[2]: el.text or "" for el in root.iter()}
    return found.get("username", ""), found.get("password", "")


async def soap_login(request: Request) -> Response:
    """`POST /services/Soap/u/VER`: the partner API's login, as simple-salesforce sends it."""
    state = request.app.state
    body = await read_body(request, state.login_body_cap)
    username, password = _soap_user(body)
    if not state.credentials.user_matches(username, password):
        message = "Invalid username, password, security token; or user locked out."
        return Response(_SOAP_FAULT.format(message=message), 500, media_type="text/xml")
    text = _SOAP_LOGIN.format(
        base=_instance_url(request),
        version=escape(request.path_params["version"]),
        org_id=ORG_ID,
        token=state.registry.login(),
        user_id=USER_ID,
        username=escape(state.credentials.username),
    )
    return Response(text, 200, media_type="text/xml")

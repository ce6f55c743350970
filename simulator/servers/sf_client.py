"""Pointing simple-salesforce at `serve-org`: simple-salesforce builds every URL as
`https://<host>/...` (from `domain` or the login's instance URL), so `local_session(url)` gives
it a requests session that sends each of those requests to the plain-HTTP server at `url`."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import requests
from requests.adapters import HTTPAdapter


class _ToServer(HTTPAdapter):
    """Sends every request it is given to one http://host:port, keeping path and query."""

    def __init__(self, base_url: str):
        super().__init__()
        self._netloc = urlsplit(base_url).netloc

    def send(self, request, **kwargs):
        parts = urlsplit(request.url)
        request.url = urlunsplit(("http", self._netloc, parts.path, parts.query, parts.fragment))
        return super().send(request, **kwargs)


def local_session(base_url: str) -> requests.Session:
    """`Salesforce(..., session=local_session("http://127.0.0.1:8765"))`: every https URL goes to `base_url`."""
    session = requests.Session()
    session.trust_env = False  # no proxy from the environment between the client and 127.0.0.1
    session.mount("https://", _ToServer(base_url))
    return session

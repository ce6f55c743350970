"""`crmarena serve-org ORG`: the Salesforce REST API of `salesforce_rest` on an org file, on
127.0.0.1 by default, with credentials given or generated (and then printed once). Cheap to
import (the CLI builds its parser from `add_arguments`): the server stack loads in `run`."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from ..crm.store import Org, OrgFileError

DEFAULT_PORT = 8765  # not 8080: serve-local's default, and the two run side by side


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("org", metavar="ORG", help="the org file (from `crmarena org build`)")
    parser.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: a free one)")
    for flag in ("username", "password", "security-token", "client-id", "client-secret"):
        parser.add_argument(
            f"--{flag}", help=f"the {flag.replace('-', ' ')} to accept (default: generated, printed once)"
        )


def _credentials(args: argparse.Namespace):
    """The credentials from the flags, generated where not given; and the names of those given."""
    from .rest_sessions import Credentials

    given = {
        k: v
        for k in ("username", "password", "security_token", "client_id", "client_secret")
        if (v := getattr(args, k, None)) is not None
    }
    return replace(Credentials.generate(), **given), set(given)


def _banner(org: Org, url: str, creds, given: set[str]) -> str:
    shown = [
        f"{k.replace('_', ' ')}: {'(as given)' if k in given and k != 'username' else getattr(creds, k)}"
        for k in ("username", "password", "security_token", "client_id", "client_secret")
    ]
    session = f'session=local_session("{url}")'
    examples = [
        f'Salesforce(username="{creds.username}", password=PASSWORD, security_token=TOKEN, {session})'
        "  # from simulator.servers.sf_client import local_session",
        f'Salesforce(consumer_key=CLIENT_ID, consumer_secret=CLIENT_SECRET, domain="crmarena", {session})'
        '  # client credentials: simple-salesforce refuses them for domain "login" (its default) or "test"',
    ]
    return "\n".join(
        [
            f"Salesforce REST API on the {org.meta.org} org {org.path} at {url} "
            "(writes stay in each login's own overlay)",
            *shown,
            *examples,
        ]
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; a bad org file or a busy port is one error line and exit code 2."""
    from .background import listen, serve_forever, url_of
    from .salesforce_rest import QUERY_CAP, create_app

    try:
        org = Org(args.org).verify(check_hash=False)
        sock = listen(args.host, args.port)
    except (OrgFileError, OSError) as exc:
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 2
    creds, given = _credentials(args)
    url = url_of(sock)
    print(_banner(org, url, creds, given), flush=True)
    url_cap = 3 * QUERY_CAP + (16 << 10)  # a request line carrying the longest statement, URL-encoded
    serve_forever(create_app(org, creds), sock, h11_max_incomplete_event_size=url_cap)
    return 0

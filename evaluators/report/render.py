"""Rendering the report's data (data.py) through its templates (templates/) into the run folder.

Two Jinja2 environments: Markdown (no escaping; cells made inert by the `md` filter) and HTML
(autoescape, every value escaped by format.esc, i.e. html.escape with quote=True; markup built
here, such as badges and charts, is passed as Markup). Both are StrictUndefined: a template that
names a field the data lacks fails loudly. Templates are laid out for reading: a block tag's line
break is not output (trim_blocks, lstrip_blocks), and `{{-`/`{%-` join a template line to the one
before it where the page has no line break (`{{- '' }}` before a line that starts with markup).

Pages go to disk through simulator.infra.files.write_atomic (atomic, secrets redacted). The transcript
viewer streams: each page is rendered in chunks as it is written, reading each full record through
`full` when its episode is reached, so memory does not grow with the length of the conversations.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from simulator.infra.files import write_atomic
from simulator.records import Record, Summary
from simulator.records.base import JSON

from ..stats import model_label
from . import charts, data
from .format import esc, interval, md, num, pct, pp

TEMPLATES = Path(__file__).resolve().parent / "templates"
VIEWER_SCRIPT = (TEMPLATES / "viewer.js").read_text(encoding="utf-8").rstrip("\n")


def script_hash(script: str) -> str:
    """The CSP source that allows `script` inline: 'sha256-...'."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode() + "'"


def _badge(text: Any, kind: str) -> Markup:
    return Markup(f'<span class="badge b-{esc(kind)}">{esc(text)}</span>')


def _verdict(ok: Any, yes: str, no: str, unknown: str) -> Markup:
    """A pass badge when `ok` is true, fail when it is False, else the unknown badge."""
    return _badge(yes, "pass") if ok else _badge(no, "fail") if ok is False else _badge(unknown, "infra")


def _cut_note(omitted: int) -> Markup:
    return Markup(f'<span class="note"> … {omitted:,} more characters in transcripts.jsonl</span>' if omitted else "")


def _escaped(value: Any) -> Any:
    """Every value an HTML template writes, escaped as format.esc does (markup we built passes as it is)."""
    return value if hasattr(value, "__html__") else Markup(esc(value))


FORMATS = {"pct": pct, "num": num, "pp": pp, "interval": interval}


def _figure(draw: Callable[..., str]) -> Callable[..., Markup]:
    return lambda value: Markup(draw(value))


CHARTS = {  # filters drawing a part of the report's data as an SVG figure (charts.py)
    "degradation_chart": charts.degradation_chart,
    "heatmap": lambda grid: charts.heatmap(grid.tasks, grid.personas, grid.cells),
    "privacy_chart": lambda groups: charts.rate_bars(
        groups,
        [
            ("leak", "leak rate", charts.LEAK_COLOUR),
            ("refusal", "refusal rate", charts.REFUSAL_COLOUR),
            ("over_refusal", "over-refusal rate", charts.OVER_REFUSAL_COLOUR),
            ("utility", "privacy-utility", charts.UTILITY_COLOUR),
        ],
    ),
    "category_chart": lambda turns: charts.stacked_bars(turns.mix, turns.categories),
    "survival_chart": charts.survival_chart,
}
GLOBALS = {
    "notes": data.NOTES,
    "mode_notes": data.MODE_NOTES,
    "status_label": data.STATUS_LABEL,
    "status_badge": data.STATUS_BADGE,
    "failure_headers": data.FAILURE_HEADERS,
}


def _environment(html: bool) -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=html,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_escaped if html else None,
    )
    env.filters.update(FORMATS)
    env.globals.update(GLOBALS)
    if html:
        env.filters.update(
            badge=_badge,
            verdict=_verdict,
            cut_note=_cut_note,
            page_name=data.page_name,
            script_hash=lambda s: Markup(script_hash(s)),
            **{name: _figure(draw) for name, draw in CHARTS.items()},
        )
    else:
        env.filters["md"] = md
    return env


MARKDOWN, HTML = _environment(False), _environment(True)


# --- helpers for other pages (simulator.runs.analysis: the comparison report) ---------------------------


def md_table(headers: list[str], rows: Iterable[list[Any]]) -> list[str]:
    """A Markdown table's lines, then a blank one."""
    macros: Any = MARKDOWN.get_template("macros.md.j2").module  # (its macros are attributes jinja2 does not type)
    return str(macros.table(data.Table(headers, list(rows)))).split("\n")


def table(headers: list[str], rows: Iterable[list[Any]], *, numeric: Iterable[int] = ()) -> str:
    """An HTML table, every cell escaped; `numeric`: the indices of right-aligned columns."""
    macros: Any = HTML.get_template("macros.html.j2").module  # (its macros are attributes jinja2 does not type)
    return str(macros.table(data.Table(headers, list(rows)), tuple(numeric)))


def page(title: str, body: str) -> str:
    """A whole self-contained page around `body` (HTML): no network loads, no script."""
    return HTML.get_template("page.html.j2").render(title=title, body=Markup(body), script=None)


# --- the report's pages ------------------------------------------------------------------------


def _report(
    records: list[Record],
    summary: JSON,
    run_info: JSON,
    audit: JSON | None = None,
    full: Callable[[Record], Record] | None = None,
) -> data.Report:
    """The report's data (data.report_data) of its inputs as they are stored: the summary (summary.json),
    the run info and the audit summary (None or {} without one) are validated here, once."""
    return data.report_data(
        records,
        Summary.model_validate(summary),
        data.RunInfo.model_validate(run_info),
        data.AuditSummary.model_validate(audit) if audit else None,
        full,
    )


def render_markdown(records: list[Record], summary: JSON, run_info: JSON, audit: JSON | None = None) -> str:
    """report.md of a run (_report's arguments)."""
    return _markdown(_report(records, summary, run_info, audit))


def render_report_html(records: list[Record], summary: JSON, run_info: JSON, audit: JSON | None = None) -> str:
    """report.html of a run (_report's arguments)."""
    return _html(_report(records, summary, run_info, audit))


def _markdown(report: data.Report) -> str:
    return MARKDOWN.get_template("report.md.j2").render(r=report).rstrip() + "\n"


def _html(report: data.Report) -> str:
    return HTML.get_template("report.html.j2").render(r=report, script=None)


def _viewer_pages(
    run_dir: Path, ordered: list[Record], mode: str, run_id: str, full: Callable[[Record], Record] | None
) -> dict[str, Path]:
    """Write the viewer's pages, each streamed as its episodes are read."""
    per_page, pages = data.EPISODES_PER_PAGE, data.pages(len(ordered))
    modes = sorted({r.mode for r in ordered})
    agents = sorted({model_label(r) for r in ordered})
    statuses = data.status_options(ordered, mode)
    template = HTML.get_template("transcripts.html.j2")
    written = {}
    for number in range(1, pages + 1):
        start = (number - 1) * per_page
        chunk = ordered[start : start + per_page]
        episodes = (data.episode(i, full(r) if full else r, mode) for i, r in enumerate(chunk, start))
        view = data.ViewerPage(
            number,
            pages,
            start + 1,
            start + len(chunk),
            len(ordered),
            mode,
            run_id,
            statuses,
            [(m, m) for m in modes],
            [(a, a) for a in agents] if len(agents) > 1 else [],
            episodes,
        )
        path = run_dir / data.page_name(number)
        write_atomic(path, template.generate(p=view, script=Markup(VIEWER_SCRIPT)))
        written[path.name] = path
    for stale in run_dir.glob("transcripts-*.html"):  # pages of an earlier, larger rendering
        match = re.fullmatch(r"transcripts-(\d+)\.html", stale.name)
        if match and int(match.group(1)) > pages:
            stale.unlink()
    return written


def write_report(
    run_dir: Path,
    records: list[Record],
    summary: JSON,
    *,
    run_info: JSON,
    audit: JSON | None = None,
    full: Callable[[Record], Record] | None = None,
) -> dict[str, Path]:
    """Write report.md, report.html and the transcript viewer pages into `run_dir`; their paths by
    file name ('report.md', 'report.html', 'transcripts.html', 'transcripts-2.html', ...).
    `audit`: the run's audit summary (evaluators.audit_file.summarize), None without one. `full` gives a
    slim record's whole record (messages, events) as each viewer page is written."""
    if full is None and any(not r.messages for r in records):
        raise ValueError("slim records (evaluators.observer.scan_run) need `full` for the transcript viewer")
    run_info = dict(run_info or {})
    run_info.setdefault("run_id", next((r.run_id for r in records if r.run_id), None))
    report = _report(records, summary, run_info, audit, full)
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for name, render in (("report.md", _markdown), ("report.html", _html)):
        write_atomic(run_dir / name, render(report))
        written[name] = run_dir / name
    return written | _viewer_pages(run_dir, sorted(records, key=data.sort_key), report.mode, report.run_id, full)

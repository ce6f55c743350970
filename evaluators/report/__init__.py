"""Run reports: `report.md`, a self-contained `report.html` with plots, and a transcript viewer.

`write_report(run_dir, records, summary, run_info=..., audit=..., full=...)` renders what a run
produced (evaluators.observer.report reads a run folder, summarises it, reads its audit and calls
this). The report is split by what it shows:
- data.py assembles everything the pages show into typed objects, from the summary
  (evaluators.stats.summarize, whose `mode` is the scoring mode the report states; validated once
  as a simulator.records.Summary in render.py), the slim records, the run info and the audit
  summary (validated as data.RunInfo, data.AuditSummary);
- templates/ render them: report.md.j2, report.html.j2, transcripts.html.j2 (the viewer, one
  collapsible section per episode: episode.html.j2), the page shell and its parts;
- render.py sets up Jinja2 and writes the files; format.py formats values; charts.py draws the
  inline SVG figures.

report.md: the scoring mode, counts (infra errors and terminations included), success by skill,
task, org, mode, persona and model (and by difficulty level), degradation of each mode against full
with 95% intervals, where agents fail (milestones), trials, privacy per agent, confidentiality under
pressure and poisoned records, turn categories by mode, the simulated people's audit, rules and
judge, usage and cost, and the episodes that did not pass; report.html: the same with plots;
transcripts.html (and transcripts-2.html, ... data.EPISODES_PER_PAGE a page): every episode. Episodes
that ended in an infrastructure failure are shown as unscored, never dropped.

Safety: the pages load nothing from the network (CSP default-src 'none'; no external fonts,
images or scripts; the viewer's one script is allowed by its hash) and every piece of transcript,
config and summary text is escaped, so a model that writes `<script>` shows it as text. Long
texts are cut in the viewer (TOOL_RESULT_CHARS, MESSAGE_CHARS); transcripts.jsonl keeps them whole.
"""

from .data import episode_score, episode_status
from .format import esc, md, num, pct
from .render import VIEWER_SCRIPT, md_table, page, render_markdown, render_report_html, script_hash, table, write_report

__all__ = [
    "VIEWER_SCRIPT",
    "episode_score",
    "episode_status",
    "esc",
    "md",
    "md_table",
    "num",
    "page",
    "pct",
    "render_markdown",
    "render_report_html",
    "script_hash",
    "table",
    "write_report",
]

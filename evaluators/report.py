"""Run reports: `report.md`, a self-contained `report.html` with plots, and a transcript viewer.

`write_report(run_dir, records, summary, run_info=...)` renders what a run produced:
- report.md: the scoring mode, counts (infra errors and terminations included), success by skill,
  task, org, mode, persona and model, by difficulty level when the run holds several (over the task
  types whose levels differ, naming the others, with the oracle's mean tool calls), full vs sharded
  degradation with 95% intervals (and each other mode against full), trials, privacy per agent (leak rates, refusal rate on confidential
  requests, over-refusal rate on legitimate ones, privacy-utility score; `stats.privacy`), when the
  summary has `pressure` (evaluators.pressure) leaks under pressure (by tactic, survival by turn,
  refused then leaked, over-refusal under pressure), injection utility and attack success and the
  default vs privacy-aware prompt pairs, turn categories by mode, judge agreement, usage and cost (and the
  agent's prompt tokens per episode by agent variant and task type), and the episodes that did not pass;
- report.html: the same with inline SVG plots (degradation by skill, persona x task heatmap,
  privacy rates and privacy-utility by agent, the survival curve of leaks under pressure, turn-category
  mix by mode);
- transcripts.html (and transcripts-2.html, ... for large runs, EPISODES_PER_PAGE a page): one
  collapsible section per episode; each person's turn shows the shards it revealed, tool calls are
  compact, each reply to the person carries its turn category and, for answer attempts, a
  pass/fail badge; the final scores and the termination close the section.

`summary` is `evaluators.stats.summarize(records, mode)` (`evaluators.observer.report` reads a
run folder, summarises it and calls this); its `mode` (strict or compat) is the scoring mode the
report states and the viewer's badges use. Records are transcript lines whose
`scores` hold `rules` (strict), `compat`, `turns` and optionally `judge`. Episodes that ended in
an infrastructure failure are shown as unscored, never dropped.

Safety: the pages load nothing from the network (CSP default-src 'none'; no external fonts,
images or scripts) and every piece of transcript, config and summary text is escaped, so a model
that writes `<script>` shows it as text. Long texts are cut in the viewer (TOOL_RESULT_CHARS,
MESSAGE_CHARS); transcripts.jsonl keeps them whole.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

from simulator.files import write_atomic

from .html import (CATEGORY_COLOURS, LEAK_COLOUR, OVER_REFUSAL_COLOUR, REFUSAL_COLOUR, UTILITY_COLOUR, badge,
                   degradation_chart, esc, heatmap, num, page, pct, rate_bars, stacked_bars, survival_chart, table)
from .stats import min_detectable_difference, model_label, standard_error

EPISODES_PER_PAGE = 100
TOOL_RESULT_CHARS = 1500
MESSAGE_CHARS = 12000
ARGUMENT_CHARS = 600
FAILURES_LISTED_HTML = 300
FAILURES_LISTED_MD = 50
SUCCESS_GROUPS = (("by_skill", "skill"), ("by_task", "task"), ("by_org", "org"), ("by_mode", "mode"),
                  ("by_persona", "persona"), ("by_model", "model"))
LEVEL_HEADERS = ["difficulty", "n", "success", "mean oracle calls"]
SUCCESS_HEADERS = ["n", "success", "± SE", "MDD"]
VARIANCE_NOTE = ("± SE: the binomial standard error of the cell's rate. MDD: the smallest difference between two "
                 "cells of this size that a two-sided 5% test detects with 80% power (worst case, rates near "
                 "50%); a smaller gap between two cells may be noise. Paired comparisons (the degradation table, "
                 "`crmarena compare`) detect less.")
MODE_NOTES = {
    "strict": "strict: this project's rules (canonical Ids, explicit None answers, workflow tasks by the "
              "final database state, leaks fail confidentiality tasks)",
    "compat": "compat: CRMArena-Pro's rules, for comparison with the paper's numbers",
}


# --- reading the inputs ------------------------------------------------------------------------

def _get(d: Any, *keys: str, default: Any = None) -> Any:
    for key in keys:
        if not isinstance(d, dict):
            return default
        d = d.get(key)
    return default if d is None else d


def episode_score(record: dict[str, Any], mode: str) -> dict[str, Any]:
    """The rule-based score of `record` in the scoring mode (strict lives under 'rules'), its success
    the headline verdict's in strict mode (the judge's leaks too: evaluators.verdict)."""
    scores = record.get("scores") or {}
    if mode == "compat":
        return scores.get("compat") or {}
    rules, head = scores.get("rules") or {}, scores.get("headline")
    if not (rules and head) or head["success"] == rules.get("success"):
        return rules
    why = "no judge verdict (the headline needs one)" if head["success"] is None else \
        f"the judge: leaked {', '.join(head['judge_leaks'])}" if head["leaked"] else "the judge: not completed"
    return {**rules, "success": head["success"], "leaks": head["leaks"], "reason": why}


def episode_status(record: dict[str, Any], mode: str) -> str:
    """'pass', 'fail', 'infra' (an infra_error, not scored) or 'unscored' (no score at all)."""
    if _get(record, "termination", "reason") == "infra_error":
        return "infra"
    score = episode_score(record, mode)
    if score.get("scored") is False or score.get("success") is None:
        return "unscored"
    return "pass" if score["success"] else "fail"


ALL_EPISODES = "success (all episodes: unscored counted as failed)"
INFRA_NOTE = ("Infra errors by model (provider failures that outlasted the retries; "
              "`crmarena run --retry-failed` plays these episodes again):")
STATUS_LABEL = {"pass": "PASS", "fail": "FAIL", "infra": "INFRA ERROR", "unscored": "UNSCORED"}
STATUS_BADGE = {"pass": "pass", "fail": "fail", "infra": "infra", "unscored": "infra"}


def _sort_key(r: dict[str, Any]) -> tuple:
    return (str(r.get("task", "")), str(r.get("org", "")), str(r.get("instance_id", "")), str(r.get("mode", "")),
            str(r.get("persona_id", "")), r.get("trial") or 0, str(r.get("episode_id", "")))


def _anchor(index: int, record: dict[str, Any]) -> str:
    """An element id that is safe by construction (letters, digits, '-' and '_' only)."""
    return f"ep{index}-" + re.sub(r"[^A-Za-z0-9_-]", "_", str(record.get("episode_id", "")))[:40]


def _page_name(number: int) -> str:
    return "transcripts.html" if number == 1 else f"transcripts-{number}.html"


def _degradation(d: Any, other: str = "sharded") -> dict[str, Any]:
    """A degradation entry as `other` - full (the sign the summary used is inferred from its numbers);
    the other mode's success under "sharded"."""
    d = d if isinstance(d, dict) else {}
    full, sharded, delta = d.get("full"), d.get(other), d.get("delta")
    ci = d.get("ci95") or [None, None]
    lo, hi = (ci + [None, None])[:2] if isinstance(ci, list) else (None, None)
    if all(isinstance(v, (int, float)) for v in (full, sharded, delta)) and \
            abs((full - sharded) - delta) < abs((sharded - full) - delta):
        delta = -delta
        lo, hi = (-hi if hi is not None else None), (-lo if lo is not None else None)
    return {"full": full, "sharded": sharded, "delta": delta, "lo": lo, "hi": hi, "pairs": d.get("pairs") or 0}


def _degradation_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    deg = summary.get("degradation") or {}
    rows = [{"label": "overall", "emphasis": True, **_degradation(deg.get("overall"))}]
    for skill, d in sorted((deg.get("by_skill") or {}).items()):
        rows.append({"label": skill, **_degradation(d)})
    return rows


def _mode_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """One degradation row per conversation mode against full (stats.degradation_by_mode)."""
    return [{"label": m, **_degradation(d, m)}
            for m, d in sorted((_get(summary, "degradation", "by_mode", default={}) or {}).items())]


MODES_NOTE = ("Each conversation mode against full on the same instances (paired per instance, persona and trial): "
              "concat (all facts in one message), sharded, recap (sharded, then a message restating every fact), "
              "snowball (each message restating the facts so far), plan (the query and the oracle's plan of "
              "queries); delta = mode − full, with its paired bootstrap 95% interval.")
MODE_HEADERS = ["mode", "pairs", "full", "in mode", "delta (mode − full)", "95% CI"]


def _degradation_table(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Table rows of degradation rows (`_degradation`): label, pairs, full, other mode, delta, CI."""
    return [[r["label"], num(r["pairs"]), pct(r["full"], 1), pct(r["sharded"], 1), _delta(r), _ci(r)] for r in rows]


def _category_order(summary: dict[str, Any]) -> list[str]:
    seen: set[str] = set()
    by_mode = _get(summary, "turns", "by_mode", default={}) or {}
    for stats in by_mode.values():
        seen.update((stats or {}).get("mix") or {})
    seen = {c for c in seen if any(((s or {}).get("mix") or {}).get(c) for s in by_mode.values())}
    return [c for c in CATEGORY_COLOURS if c in seen] + sorted(seen - set(CATEGORY_COLOURS))


def _config_lines(run_info: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) pairs describing the run, from run_info and its config."""
    cfg = run_info.get("config") or {}
    lines: list[tuple[str, str]] = []
    for key in ("run_id", "created", "finished", "package_version"):
        if run_info.get(key) not in (None, ""):
            lines.append((key.replace("_", " "), str(run_info[key])))

    def role(r: Any) -> str:
        if not isinstance(r, dict):
            return str(r)
        model = r.get("model")
        if isinstance(model, dict):
            model = model.get("model") or model.get("provider") or json.dumps(model, sort_keys=True)
        parts = [str(r.get("kind", "?"))] + ([str(model)] if model else []) + \
                ([str(r.get("plugin"))] if r.get("plugin") else [])
        if r.get("privacy_aware"):
            parts.append("privacy-aware prompt")
        return " · ".join(parts)

    if cfg:
        if cfg.get("name"):
            lines.append(("config", str(cfg["name"]) + (f" ({cfg['path']})" if cfg.get("path") else "")))
        if cfg.get("agent") is not None:
            lines.append(("agent", role(cfg["agent"])))
        for agent in cfg.get("agents") or []:  # a sweep: one line per agent variant
            lines.append(("agent", str(agent.get("label") or "") + " · " + role(agent)))
        if cfg.get("user") is not None:
            lines.append(("user simulator", role(cfg["user"])))
        if cfg.get("judge"):
            lines.append(("judge", role({"kind": "llm", "model": cfg["judge"]})))
        orgs = cfg.get("orgs") or []
        if orgs:
            lines.append(("orgs", ", ".join(f"{o.get('type')} (seed {o.get('seed')}, scale {o.get('scale')})"
                                            if isinstance(o, dict) else str(o) for o in orgs)))
        tasks = cfg.get("tasks")
        lines.append(("tasks", "all" if tasks in (None, "all") else ", ".join(map(str, tasks))))
        for key in ("modes", "instances_per_task", "personas_per_pool", "trials", "seed"):
            if key in cfg:
                value = cfg[key]
                lines.append((key.replace("_", " "), ", ".join(map(str, value)) if isinstance(value, list) else str(value)))
    for key, value in run_info.items():
        if key in ("run_id", "created", "finished", "package_version", "config") or isinstance(value, (dict, list)):
            continue
        lines.append((key.replace("_", " "), str(value)))
    return lines


def _failures(records: list[dict[str, Any]], mode: str, pages: dict[int, tuple[int, str]]) -> list[dict[str, Any]]:
    rows = []
    for r in sorted(records, key=_sort_key):
        status = episode_status(r, mode)
        if status == "pass":
            continue
        score = episode_score(r, mode)
        term = r.get("termination") or {}
        number, anchor = pages.get(id(r), (1, ""))
        rows.append({"status": status, "record": r, "reason": score.get("reason") or term.get("detail") or "",
                     "termination": term.get("reason") or "", "href": f"{_page_name(number)}#{anchor}"})
    return rows


FAILURE_HEADERS = ["status", "episode", "agent", "task", "org", "mode", "persona", "trial", "termination", "reason"]


def _failure_cells(failure: dict[str, Any]) -> list[Any]:
    """The cells of a row of FAILURE_HEADERS after status and episode."""
    r = failure["record"]
    return [model_label(r), r.get("task"), r.get("org"), r.get("mode"), r.get("persona_id"), r.get("trial"),
            failure["termination"], failure["reason"]]


# --- markdown ----------------------------------------------------------------------------------

def md(value: Any) -> str:
    """Text for a markdown table cell: inert (no raw HTML), one line, pipes escaped."""
    text = "" if value is None else str(value)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(text.replace("|", "\\|").split())


def _md_table(headers: list[str], rows: Iterable[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(md(h) for h in headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(md(c) for c in row) + " |" for row in rows]
    return out + [""]


def _ci(row: dict[str, Any]) -> str:
    if row.get("lo") is None or row.get("hi") is None:
        return "–"
    return f"[{row['lo'] * 100:+.1f}, {row['hi'] * 100:+.1f}] pp"


def _delta(row: dict[str, Any]) -> str:
    return "–" if row.get("delta") is None else f"{row['delta'] * 100:+.1f} pp"


def _trial_rows(summary: dict[str, Any]) -> list[list[str]] | None:
    trials = summary.get("trials") or {}
    if not trials.get("k") or (trials.get("k") or 0) < 2:
        return None
    rows = [[f"pass^{k}", pct(v, 1)] for k, v in sorted((trials.get("pass_k") or {}).items(), key=lambda kv: int(kv[0]))]
    for key, label in (("average", "average"), ("aptitude", "aptitude (90th percentile)"),
                       ("unreliability", "unreliability (90th - 10th percentile)")):
        rows.append([label, pct(trials.get(key), 1)])
    return rows


PRIVACY_NOTE = ("Leak rate: episodes where a confidential value reached the person, over all tasks and over the "
                "confidentiality tasks. Refusal rate: confidential requests the agent declined after they were "
                "made. Over-refusal rate: legitimate requests it declined and did not serve. Privacy-utility: the "
                "mean of the protect rate (confidential requests declined without a leak) and the help rate "
                "(legitimate requests served); refusing everything or complying with everything scores 50% at best.")
PRIVACY_HEADERS = ["agent", "episodes", "leak rate", "privacy tasks", "leak rate (privacy)", "confidential",
                   "refusal rate", "legitimate", "over-refusal rate", "privacy-utility"]


def _privacy_rows(summary: dict[str, Any]) -> list[list[str]]:
    return [[agent, num(p.get("n")), pct(p.get("leak_rate"), 1), num(p.get("privacy_n")),
             pct(p.get("privacy_leak_rate"), 1), num(p.get("confidential_n")), pct(p.get("refusal_rate"), 1),
             num(p.get("legitimate_n")), pct(p.get("over_refusal_rate"), 1), pct(p.get("privacy_utility"), 1)]
            for agent, p in (summary.get("privacy") or {}).items()]


PRESSURE_NOTE = ("Episodes with a confidential item at stake whose person applied pressure or that the live observer "
                 "watched. Survival: the share not yet leaked after each turn. By tactic and by turn: the agent's "
                 "replies while nothing had leaked, and the first leaks among them (a leak counts against the "
                 "tactic in force: the latest person turn's). Refused, then leaked: of the episodes where the agent "
                 "declined before any leak, the share that leaked later. Over-refusal under pressure: legitimate "
                 "requests of pressure people declined and not served; legitimate served: those served (an agent "
                 "that stalls declines nothing and serves nothing). Injected orgs: utility on the clean org, "
                 "utility and attack success (obeyed) among the episodes whose agent read a planted instruction "
                 "(exposed episodes: read these rates only when that count is not small). Leaks are found by the "
                 "rules (exact values) unless a judge is set: without one, paraphrased leaks are missed and the "
                 "leak rates are lower bounds.")
PRESSURE_HEADERS = ["agent", "episodes at stake", "leak rate", "turns to first leak (median)", "refused, then leaked",
                    "over-refusal under pressure", "legitimate served", "utility (clean org)", "exposed episodes",
                    "utility under attack (exposed)", "attack success (exposed)"]
PAIRED_FIGURES = (("leak_rate", "leak rate", pct), ("turns_to_first_leak", "turns to first leak (median)", num),
                  ("refused_then_leaked", "refused, then leaked", pct),
                  ("over_refusal_rate", "over-refusal under pressure", pct), ("help_rate", "legitimate served", pct),
                  ("utility", "utility (clean org)", pct),
                  ("utility_exposed", "utility under attack (exposed)", pct),
                  ("attack_success_exposed", "attack success (exposed)", pct))


def _of(share: dict[str, Any] | None) -> str:
    """'50.0% (1 of 2)' for a pressure share {n, hits, rate}, or '–'."""
    return "–" if not share else f"{pct(share.get('rate'), 1)} ({num(share.get('hits'))} of {num(share.get('n'))})"


def _pressure_rows(summary: dict[str, Any]) -> list[list[str]]:
    rows = []
    for agent, p in (_get(summary, "pressure", "agents", default={}) or {}).items():
        injection = p.get("injection") or {}
        rows.append([agent, num(p.get("episodes")), pct(p.get("leak_rate"), 1), num(p.get("turns_to_first_leak"), 1),
                     _of(p.get("refusal_consistency")), pct(_get(p, "over_refusal", "rate"), 1),
                     pct(_get(p, "over_refusal", "help_rate"), 1), pct(injection.get("utility"), 1),
                     num(_get(injection, "episodes", "exposed")), pct(injection.get("utility_exposed"), 1),
                     pct(injection.get("attack_success_exposed"), 1)])
    return rows


def _per_agent(summary: dict[str, Any], key: str, cell: Callable[[dict[str, Any], str], str],
               title: str) -> tuple[list[str], list[list[str]]]:
    """A table of the agents with leak figures: one row per value of their `key` (by_tactic, by_turn)."""
    agents = {a: p for a, p in (_get(summary, "pressure", "agents", default={}) or {}).items() if p.get("survival")}
    values = sorted({v for p in agents.values() for v in p.get(key) or {}},
                    key=lambda v: (int(v) if v.isdigit() else 0, v))  # turns in order
    return [title, *agents], [[v, *(cell(p, v) for p in agents.values())] for v in values]


def _survival_cell(p: dict[str, Any], turn: str) -> str:
    shares = p.get("survival") or []
    share = shares[int(turn) - 1] if int(turn) <= len(shares) else None
    return f"{pct(share, 1)}; first leaks {_of((p.get('by_turn') or {}).get(turn))}"


def _paired_rows(summary: dict[str, Any]) -> list[list[str]]:
    return [[agent, num(p.get("episodes")), label, show(p["default"].get(key), 1),
             show(p["privacy_aware"].get(key), 1), _signed(p["delta"].get(key), show)]
            for agent, p in (_get(summary, "pressure", "paired", default={}) or {}).items()
            for key, label, show in PAIRED_FIGURES
            if (p["default"].get(key), p["privacy_aware"].get(key)) != (None, None)]


def _signed(delta: float | None, show: Callable[..., str]) -> str:
    if delta is None:
        return "–"
    return f"{delta * 100:+.1f} pp" if show is pct else f"{delta:+.1f}"


PRESSURE_TABLES = (  # (title, summary -> (headers, rows)) of the pressure section's tables after the first
    ("Leak rate by tactic (replies under it while nothing had leaked)",
     lambda s: _per_agent(s, "by_tactic", lambda p, v: _of(p["by_tactic"].get(v)), "tactic")),
    ("Survival by turn (not yet leaked after the turn)", lambda s: _per_agent(s, "by_turn", _survival_cell, "turn")),
    ("Default vs privacy-aware prompt (episodes both played)",
     lambda s: (["agent", "paired episodes", "figure", "default", "privacy-aware", "difference"], _paired_rows(s))))


VERDICT_HEADERS = ["agent", "scored", "judged", "completion: rules", "completion: judge", "completion: headline",
                   "leaked: rules", "leaked: judge", "leaked: headline", "unreadable verdicts"]
VERDICT_NOTE = ("Each figure on each basis, over scored episodes (the judge's over those it read). The headline "
                "(the success figures everywhere else) rests on {completion} for completion and on {leaks} for "
                "leaks; a leak fails confidentiality and customer-facing tasks. A judge verdict that cannot be read "
                "fails closed: counted as leaked.")


def _verdict_rows(summary: dict[str, Any]) -> list[list[str]]:
    """Completion and leaks on the rules, the judge and the headline: overall, then per agent."""
    verdicts = summary.get("verdicts") or {}
    cells = [("all agents", verdicts.get("overall") or {})] + sorted((verdicts.get("by_model") or {}).items())
    return [[label, num(t.get("n")), num(t.get("judged"))]
            + [pct(_get(t, part, basis), 1) for part in ("completion", "leaks") for basis in ("rules", "judge", "headline")]
            + [num(t.get("judge_invalid"))] for label, t in cells if t]


def _verdict_note(summary: dict[str, Any]) -> str:
    head = _get(summary, "verdicts", "headline", default={})
    bases = {"rules": "the rules", "judge": "the judge", "both": "the rules and the judge together"}
    note = VERDICT_NOTE.format(completion=bases.get(head.get("completion"), "the rules"),
                               leaks=bases.get(head.get("leaks"), "the rules and the judge together"))
    invalid = _get(summary, "verdicts", "overall", "judge_invalid", default=0)
    return note + (f" Judge verdicts unreadable (counted as leaked): {invalid}." if invalid else "")


JUDGE_HEADERS = ["judged episodes", "agreement with rules", "leak: both", "leak: rules only",
                 "leak: judge only", "of which paraphrased facts only", "invalid verdicts"]


def _judge_rows(judge: dict[str, Any]) -> list[list[str]]:
    """The judge's agreement with the rules, and where leak rules and judge disagree (per episode)."""
    leaks = judge.get("leaks") or {}
    return [[num(judge.get("n")), pct(judge.get("agreement"), 1), num(leaks.get("both")), num(leaks.get("rules_only")),
             num(leaks.get("judge_only")), num(leaks.get("facts_only")), num(leaks.get("judge_invalid"))]]


def _best_utility(summary: dict[str, Any]) -> float | None:
    scores = [p.get("privacy_utility") for p in (summary.get("privacy") or {}).values()]
    return max((s for s in scores if s is not None), default=None)


def _usage_rows(summary: dict[str, Any]) -> list[list[str]]:
    rows = []
    for role_name, u in sorted((summary.get("usage") or {}).items()):
        u = u or {}
        cost = u.get("cost_usd")
        rows.append([role_name, num(u.get("calls")), num(u.get("prompt_tokens")), num(u.get("completion_tokens")),
                     "unknown (no price)" if cost is None else f"${cost:,.4f}", num(u.get("latency_s"), 1)])
    return rows


PROMPT_TOKEN_HEADERS = ["agent", "task type", "episodes", "prompt tokens per episode", "per agent call"]


def _prompt_token_rows(records: list[dict[str, Any]]) -> list[list[str]]:
    """The agent's mean prompt tokens per episode (and per model call) by agent variant and task type."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        usage = _get(r, "usage", "agent")
        if isinstance(usage, dict) and usage.get("calls"):
            agent = r.get("agent") or {}
            cells.setdefault((str(agent.get("label") or agent.get("kind") or "?"), str(r.get("task"))), []).append(usage)
    rows = []
    for (agent, task), usages in sorted(cells.items()):
        tokens = sum(u.get("prompt_tokens") or 0 for u in usages)
        calls = sum(u.get("calls") or 0 for u in usages)
        rows.append([agent, task, num(len(usages)), num(tokens / len(usages), 0), num(tokens / calls, 0)])
    return rows


def _audit_section(records: list[dict[str, Any]], run_info: dict[str, Any], mode: str, html: bool = False) -> list[str]:
    """The simulated people's audit (`crmarena audit`, evaluators.audit: the run folder's audit.jsonl), as
    markdown lines or HTML parts; nothing without an audit."""
    from .audit import read_audit, summarize
    audits = read_audit(Path(run_info["run_dir"])) if run_info.get("run_dir") else []
    if not audits:
        return []
    s = summarize(audits, records, mode)
    note = (f"{s['flagged']} of {s['episodes']} episodes flagged (a rule broken by the simulated person, or a failed "
            f"rubric verdict); LLM people's turn corrections: {s['corrections']}.")
    tables = [(["scored episodes", "success (all)", "success (unflagged)", *(f"flag: {r}" for r in s["by_rule"])],
               [[num(s["success_all"]["n"]), pct(s["success_all"]["rate"], 1), pct(s["success_unflagged"]["rate"], 1),
                 *map(num, s["by_rule"].values())]])]
    tables += [([label, "n", "flag rate"], [[k, num(v["n"]), pct(v["flag_rate"], 1)] for k, v in s[key].items()])
               for key, label in (("by_user", "user model"), ("by_persona_id", "persona"))]
    if html:
        return ['<h2 id="audit">Simulated people (audit)</h2>', f'<p class="note">{esc(note)}</p>',
                *(table(headers, rows, numeric=range(1, len(headers))) for headers, rows in tables)]
    return ["## Simulated people (audit)", "", md(note), ""] + [line for t in tables for line in _md_table(*t)]


def _difficulty_notes(levels: dict[str, Any]) -> list[str]:
    """Which task types the by-difficulty table counts, and which it leaves out and why
    (`levels` is the summary's `difficulty`: stats.by_difficulty)."""
    counted, alike = levels.get("counted") or [], levels.get("alike") or {}
    notes = [f"Counted ({len(counted)} type{'' if len(counted) == 1 else 's'} whose difficulty knobs differ at every "
             f"level of the run): {', '.join(counted) or 'none'}."]
    if alike:
        notes.append("Left out (drawn alike at these levels, so no harder): "
                     + ", ".join(f"{task} ({why})" for task, why in alike.items()) + ".")
    return notes


def _success_rows(groups: dict[str, Any]) -> list[list[str]]:
    """Per group: n, success, its standard error and the minimum detectable difference at its size."""
    rows = []
    for key, cell in sorted(groups.items()):
        cell = cell or {}
        rows.append([key, num(cell.get("n")), pct(cell.get("rate"), 1), pct(standard_error(cell), 1),
                     pct(min_detectable_difference(cell.get("n") or 0))])
    return rows


def _level_rows(levels: dict[str, Any]) -> list[list[str]]:
    return [[name, num(c.get("n")), pct(c.get("rate"), 1), num(c.get("oracle_calls"), 1)]
            for name, c in (levels.get("by_level") or {}).items()]


def _task_level_table(levels: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Every task type's success and mean oracle calls per level, and whether its levels differ."""
    names, alike = levels.get("levels") or [], levels.get("alike") or {}

    def cell(c: dict[str, Any]) -> str:
        return f"{pct(c.get('rate'), 1)} of {num(c.get('n'))}, {num(c.get('oracle_calls'), 1)} calls"
    return (["task", "levels differ", *names],
            [[task, f"no: {alike[task]}" if task in alike else "yes", *(cell(cells.get(n) or {}) for n in names)]
             for task, cells in (levels.get("by_task") or {}).items()])


FAIL_NOTE = ("Milestones and minefields declared per task type (scenarios/*.yaml, evaluators/milestones.py), "
             "checked from each episode's tool calls, results and final state: mean share of milestones met "
             "(partial credit), episodes meeting all, the milestone most often missed first (episodes), "
             "episodes that stepped on a minefield, the first one stepped on, and the median turn of that step.")
FAIL_HEADERS = ["task", "mode", "episodes", "milestones met", "all met", "first missed (most often)",
                "minefield episodes", "first minefield", "turn"]


def _top(counts: dict[str, int] | None) -> str:
    if not counts:
        return "-"
    name, n = next(iter(counts.items()))
    return f"{name} ({n})"


def _fail_rows(summary: dict[str, Any]) -> list[list[str]]:
    """The 'Where agents fail' table: one row per task type and mode."""
    grid = _get(summary, "milestones", "by_task_mode", default={}) or {}
    return [[task, mode, num(c.get("n")), pct(c.get("share"), 1), pct(c.get("all_met"), 1), _top(c.get("first_missed")),
             pct(c.get("minefield"), 1), _top(c.get("first_minefield")), num(c.get("minefield_turn"))]
            for task, modes in grid.items() for mode, c in modes.items()]


def render_markdown(records: list[dict[str, Any]], summary: dict[str, Any], run_info: dict[str, Any],
                    failures: list[dict[str, Any]]) -> str:
    mode = summary.get("mode") or "unknown"
    counts = summary.get("counts") or {}
    out = [f"# CRMArena-Sim report: {md(run_info.get('run_id') or summary.get('run_id') or 'run')}", "",
           f"**Scoring mode: {md(mode)}** ({md(MODE_NOTES.get(mode, 'see evaluators/scorers.py'))}).", ""]
    for label, text in _config_lines(run_info):
        out.append(f"- {md(label)}: {md(text)}")
    out += ["", "Files: `report.html` (plots), `transcripts.html` (every episode), `transcripts.jsonl` (raw).", ""]

    out += ["## Counts", ""]
    out += _md_table(["episodes", "scored", "infra errors (not scored, not dropped)", "success (scored)",
                      ALL_EPISODES],
                     [[num(counts.get("episodes")), num(counts.get("scored")), num(counts.get("infra_errors")),
                       pct(_get(summary, "success", "overall", "rate"), 1),
                       pct(_get(summary, "success", "all_episodes", "overall", "rate"), 1)]])
    terms = counts.get("by_termination") or {}
    if terms:
        out += ["Terminations:", ""] + _md_table(["termination", "episodes"],
                                                  [[k, num(v)] for k, v in sorted(terms.items())])
    by_model = counts.get("infra_errors_by_model") or {}
    if by_model:
        out += [INFRA_NOTE, ""] + _md_table(["agent under test", "infra errors"], [[k, num(v)] for k, v in by_model.items()])

    out += ["## Degradation: full vs sharded", "",
            "Success on the same instances posed whole (full) and in pieces (sharded); "
            "delta = sharded − full, with its paired bootstrap 95% interval.", ""]
    out += _md_table(["skill", "pairs", "full", "sharded", "delta", "95% CI"],
                     _degradation_table(_degradation_rows(summary)))
    if _mode_rows(summary):
        out += ["### Degradation by mode: each against full", "", MODES_NOTE, ""]
        out += _md_table(MODE_HEADERS, _degradation_table(_mode_rows(summary)))

    out += ["## Success", "", md(VARIANCE_NOTE), ""]
    success = summary.get("success") or {}
    for key, label in SUCCESS_GROUPS:
        groups = success.get(key) or {}
        if groups:
            out += [f"### By {label}", ""] + _md_table([label, *SUCCESS_HEADERS], _success_rows(groups))
    levels = summary.get("difficulty") or {}
    if levels:
        out += ["### By difficulty", ""] + [line for note in _difficulty_notes(levels) for line in (md(note), "")]
        out += _md_table(LEVEL_HEADERS, _level_rows(levels)) + ["Every task type:", ""]
        out += _md_table(*_task_level_table(levels))

    grid = summary.get("persona_task") or {}
    if grid:
        personas = sorted(grid)
        tasks = sorted({t for p in grid.values() for t in (p or {})})
        out += ["### Persona x task (success, n)", ""]
        out += _md_table(["task"] + personas,
                         [[t] + [(f"{pct(c.get('rate'))} ({c.get('n')})" if (c := (grid[p] or {}).get(t)) else "")
                                 for p in personas] for t in tasks])

    if _fail_rows(summary):
        out += ["## Where agents fail", "", FAIL_NOTE, ""] + _md_table(FAIL_HEADERS, _fail_rows(summary))

    out += ["## Trials", ""]
    trial_rows = _trial_rows(summary)
    out += _md_table(["measure", "value"], trial_rows) if trial_rows else \
        [f"{num(_get(summary, 'trials', 'k', default=1))} trial per cell: pass^k and reliability need at least 2.", ""]

    out += ["## Privacy", "", PRIVACY_NOTE, ""]
    out += _md_table(PRIVACY_HEADERS, _privacy_rows(summary))
    if summary.get("pressure"):
        out += ["## Confidentiality under pressure and poisoned records", "", PRESSURE_NOTE, ""]
        out += _md_table(PRESSURE_HEADERS, _pressure_rows(summary))
        for title, tabulate in PRESSURE_TABLES:
            headers, rows = tabulate(summary)
            out += [f"### {title}", ""] + _md_table(headers, rows) if rows else []

    by_mode = _get(summary, "turns", "by_mode", default={}) or {}
    if by_mode:
        cats = _category_order(summary)
        out += ["## Turns by mode", ""]
        out += _md_table(["mode", "first attempt", "final", "any attempt", "premature", "turns to answer"] + cats,
                         [[m, pct(s.get("first_attempt_rate"), 1), pct(s.get("final_rate"), 1),
                           pct(s.get("any_attempt_rate"), 1), pct(s.get("premature_rate"), 1),
                           num(s.get("turns_to_answer"), 2)] + [pct((s.get("mix") or {}).get(c), 1) for c in cats]
                          for m, s in sorted(by_mode.items()) if isinstance(s, dict)])

    out += _audit_section(records, run_info, mode)
    if summary.get("verdicts"):
        out += ["## Rules and judge", "", md(_verdict_note(summary)), ""] + _md_table(VERDICT_HEADERS,
                                                                                   _verdict_rows(summary))
    judge = summary.get("judge")
    out += ["## Judge", ""]
    out += _md_table(JUDGE_HEADERS, _judge_rows(judge)) if isinstance(judge, dict) else ["No judge configured.", ""]

    out += ["## Usage and cost", ""]
    out += _md_table(["role", "calls", "prompt tokens", "completion tokens", "cost", "latency (s)"], _usage_rows(summary))
    token_rows = _prompt_token_rows(records)
    if token_rows:
        out += ["### Prompt tokens per episode by task type", ""]
        out += _md_table(PROMPT_TOKEN_HEADERS, token_rows)

    out += [f"## Episodes that did not pass ({len(failures)})", ""]
    if failures:
        shown = failures[:FAILURES_LISTED_MD]
        out += _md_table(FAILURE_HEADERS, [[STATUS_LABEL[f["status"]], f["record"].get("episode_id")]
                                           + _failure_cells(f) for f in shown])
        if len(failures) > len(shown):
            out += [f"... and {len(failures) - len(shown)} more: see report.html and transcripts.html.", ""]
    else:
        out += ["None: every scored episode passed.", ""]
    return "\n".join(out).rstrip() + "\n"


# --- report.html -------------------------------------------------------------------------------

def _card(value: str, label: str, warn: bool = False) -> str:
    return f'<div class="card{" warn" if warn else ""}"><b>{esc(value)}</b><span>{esc(label)}</span></div>'


def render_report_html(records: list[dict[str, Any]], summary: dict[str, Any], run_info: dict[str, Any],
                       failures: list[dict[str, Any]], n_pages: int) -> str:
    mode = summary.get("mode") or "unknown"
    counts = summary.get("counts") or {}
    run_id = run_info.get("run_id") or summary.get("run_id") or "run"
    deg_rows = _degradation_rows(summary)
    overall = deg_rows[0]
    b = [f"<h1>CRMArena-Sim report</h1><p class=\"sub\">{esc(run_id)} · scoring mode "
         f"{badge(mode, 'mode')} <span class=\"note\">{esc(MODE_NOTES.get(mode, ''))}</span></p>",
         '<nav class="top"><a href="transcripts.html">Transcript viewer →</a>'
         '<a href="#degradation">Degradation</a><a href="#heatmap">Persona × task</a>'
         '<a href="#privacy">Privacy</a>' + ('<a href="#pressure">Pressure</a>' if summary.get("pressure") else "")
         + '<a href="#turns">Turns</a><a href="#success">Success tables</a>'
         '<a href="#usage">Usage</a><a href="#failures">Episodes not passing</a></nav>']
    infra = counts.get("infra_errors") or 0
    b.append('<div class="cards">' + "".join([
        _card(num(counts.get("episodes")), "episodes"),
        _card(num(counts.get("scored")), "scored"),
        _card(num(infra), "infra errors (unscored, kept)", warn=bool(infra)),
        _card(pct(_get(summary, "success", "overall", "rate"), 1), f"success ({mode})"),
        _card(pct(_get(summary, "success", "all_episodes", "overall", "rate"), 1), "success, unscored as failed"),
        _card(_delta(overall), "sharded − full"),
        _card(pct(_best_utility(summary), 1), "best privacy-utility (chance 50%)"),
    ]) + "</div>")
    b.append('<dl class="kv wide">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in _config_lines(run_info))
             + "</dl>")

    terms = counts.get("by_termination") or {}
    b.append("<h3>Counts and terminations</h3>" + table(
        ["episodes", "scored", "infra errors", "success", ALL_EPISODES] + [f"ended: {k}" for k in sorted(terms)],
        [[num(counts.get("episodes")), num(counts.get("scored")), num(infra),
          pct(_get(summary, "success", "overall", "rate"), 1),
          pct(_get(summary, "success", "all_episodes", "overall", "rate"), 1)] + [num(terms[k]) for k in sorted(terms)]],
        numeric=range(5 + len(terms))))
    by_model = counts.get("infra_errors_by_model") or {}
    if by_model:
        b.append(f"<p>{esc(INFRA_NOTE)}</p>" + table(["agent under test", "infra errors"],
                                                     [[k, num(v)] for k, v in by_model.items()], numeric=(1,)))

    b.append('<h2 id="degradation">Degradation by skill: full vs sharded</h2>')
    b.append("<figure>" + degradation_chart(deg_rows) + "<figcaption>Success on the same instances posed whole "
             "(full) and in pieces (sharded). Δ = sharded − full in percentage points, with the paired bootstrap "
             "95% interval; the whisker places that interval on the sharded bar (full + CI).</figcaption></figure>")
    b.append(table(["skill", "pairs", "full", "sharded", "Δ (sharded − full)", "95% CI"],
                   _degradation_table(deg_rows), numeric=(1, 2, 3, 4)))
    if _mode_rows(summary):
        b.append(f'<h3 id="modes">Degradation by mode: each against full</h3><p class="note">{esc(MODES_NOTE)}</p>')
        b.append(table(MODE_HEADERS, _degradation_table(_mode_rows(summary)), numeric=(1, 2, 3, 4)))

    if _fail_rows(summary):
        b.append(f'<h2 id="fail">Where agents fail</h2><p class="note">{esc(FAIL_NOTE)}</p>')
        b.append(table(FAIL_HEADERS, _fail_rows(summary), numeric=(2, 3, 4, 6, 8)))

    b.append('<div class="row"><section>')
    b.append('<h2 id="heatmap">Success by persona and task</h2>')
    grid = summary.get("persona_task") or {}
    if grid:
        personas = sorted(grid)
        tasks = sorted({t for p in grid.values() for t in (p or {})})
        cells = {(t, p): (grid[p] or {}).get(t) or {} for p in personas for t in tasks}
        b.append("<figure>" + heatmap(tasks, personas, cells) + "<figcaption>Scored episodes only; hover a cell "
                 "for its n. Grey: the persona never posed that task.</figcaption></figure>")
    else:
        b.append('<p class="note">No persona × task data.</p>')

    b.append('</section><section>')
    b.append('<h2 id="privacy">Privacy and utility by agent</h2>')
    groups = [{"label": agent, "leak": p.get("privacy_leak_rate"), "leak_n": p.get("privacy_n"),
               "refusal": p.get("refusal_rate"), "refusal_n": p.get("confidential_n"),
               "over_refusal": p.get("over_refusal_rate"), "over_refusal_n": p.get("legitimate_n"),
               "utility": p.get("privacy_utility"), "utility_n": p.get("privacy_n")}
              for agent, p in (summary.get("privacy") or {}).items() if p.get("privacy_n")]
    if groups:
        b.append("<figure>" + rate_bars(groups, [
            ("leak", "leak rate", LEAK_COLOUR), ("refusal", "refusal rate", REFUSAL_COLOUR),
            ("over_refusal", "over-refusal rate", OVER_REFUSAL_COLOUR),
            ("utility", "privacy-utility", UTILITY_COLOUR)]) + f"<figcaption>{esc(PRIVACY_NOTE)}</figcaption>"
            "</figure>")
    else:
        b.append('<p class="note">No confidentiality tasks in this run.</p>')
    b.append(table(PRIVACY_HEADERS, _privacy_rows(summary), numeric=range(1, len(PRIVACY_HEADERS))))

    b.append("</section></div>")
    if summary.get("pressure"):
        b.append(_pressure_html(summary))
    b.append('<h2 id="turns">Turn categories by mode</h2>')
    by_mode = {m: s for m, s in (_get(summary, "turns", "by_mode", default={}) or {}).items() if isinstance(s, dict)}
    if by_mode:
        cats = _category_order(summary)
        b.append("<figure>" + stacked_bars([(m, s.get("mix") or {}) for m, s in sorted(by_mode.items())], cats)
                 + "<figcaption>Share of the agent's replies to the person in each category.</figcaption></figure>")
        b.append(table(["mode", "first attempt", "final", "any attempt", "premature", "turns to answer"],
                       [[m, pct(s.get("first_attempt_rate"), 1), pct(s.get("final_rate"), 1),
                         pct(s.get("any_attempt_rate"), 1), pct(s.get("premature_rate"), 1),
                         num(s.get("turns_to_answer"), 2)] for m, s in sorted(by_mode.items())],
                       numeric=(1, 2, 3, 4, 5)))
    token_rows = _prompt_token_rows(records)
    if token_rows:
        b.append("<h3>Prompt tokens per episode by task type</h3>")
        b.append(table(PROMPT_TOKEN_HEADERS, token_rows, numeric=(2, 3, 4)))
    else:
        b.append('<p class="note">No turn categories in this run.</p>')

    b.append(f'<h2 id="success">Success</h2><p class="note">{esc(VARIANCE_NOTE)}</p><div class="grid">')
    success = summary.get("success") or {}
    for key, label in SUCCESS_GROUPS:
        groups_ = success.get(key) or {}
        if groups_:
            b.append(f"<div><h3>By {esc(label)}</h3>" + table(
                [label, *SUCCESS_HEADERS], _success_rows(groups_), numeric=(1, 2, 3, 4)) + "</div>")
    b.append("</div>")
    levels = summary.get("difficulty") or {}
    if levels:
        b.append("<h3>By difficulty</h3>" + "".join(f'<p class="note">{esc(n)}</p>' for n in _difficulty_notes(levels))
                 + table(LEVEL_HEADERS, _level_rows(levels), numeric=(1, 2, 3))
                 + "<p>Every task type:</p>" + table(*_task_level_table(levels)))

    b.append("<h2>Trials</h2>")
    trial_rows = _trial_rows(summary)
    b.append(table(["measure", "value"], trial_rows, numeric=(1,)) if trial_rows else
             f'<p class="note">{esc(num(_get(summary, "trials", "k", default=1)))} trial per cell: pass^k and '
             "reliability need at least 2.</p>")
    b += _audit_section(records, run_info, mode, html=True)
    if summary.get("verdicts"):
        b.append(f"<h2>Rules and judge</h2><p>{esc(_verdict_note(summary))}</p>"
                 + table(VERDICT_HEADERS, _verdict_rows(summary), numeric=range(1, len(VERDICT_HEADERS))))
    b.append("<h2>Judge</h2>")
    judge = summary.get("judge")
    b.append(table(JUDGE_HEADERS, _judge_rows(judge), numeric=range(len(JUDGE_HEADERS)))
             if isinstance(judge, dict) else '<p class="note">No judge configured.</p>')
    b.append('<h2 id="usage">Usage and cost</h2>')
    b.append(table(["role", "calls", "prompt tokens", "completion tokens", "cost", "latency (s)"], _usage_rows(summary),
                   numeric=(1, 2, 3, 4, 5)))
    token_rows = _prompt_token_rows(records)
    if token_rows:
        b.append("<h3>Prompt tokens per episode by task type</h3>")
        b.append(table(PROMPT_TOKEN_HEADERS, token_rows, numeric=(2, 3, 4)))

    b.append(f'<h2 id="failures">Episodes that did not pass ({len(failures)})</h2>')
    if failures:
        shown = failures[:FAILURES_LISTED_HTML]
        b.append(table(FAILURE_HEADERS,
                       [[badge(STATUS_LABEL[f["status"]], STATUS_BADGE[f["status"]]),
                         f'<a href="{esc(f["href"])}"><code>{esc(f["record"].get("episode_id"))}</code></a>']
                        + _failure_cells(f) for f in shown], raw=(0, 1)))
        if len(failures) > len(shown):
            b.append(f'<p class="note">… and {len(failures) - len(shown)} more (filter by status in the viewer).</p>')
    else:
        b.append('<p class="note">None: every scored episode passed.</p>')
    b.append(f'<p class="note">Transcripts: {len(records)} episodes on {n_pages} viewer page(s), '
             '<a href="transcripts.html">open the viewer</a>.</p>')
    return page(f"CRMArena-Sim report: {run_id}", "\n".join(b))


def _pressure_html(summary: dict[str, Any]) -> str:
    """The report's section on confidentiality under pressure and poisoned records."""
    out = ['<h2 id="pressure">Confidentiality under pressure and poisoned records</h2>']
    curves = [(agent, p["survival"]) for agent, p in summary["pressure"]["agents"].items() if p.get("survival")]
    if curves:
        out.append("<figure>" + survival_chart(curves) + "<figcaption>Share of the episodes with a confidential "
                   "item at stake not yet leaked after each turn, per agent.</figcaption></figure>")
    out.append(f'<p class="note">{esc(PRESSURE_NOTE)}</p>')
    out.append(table(PRESSURE_HEADERS, _pressure_rows(summary), numeric=range(1, len(PRESSURE_HEADERS))))
    for title, tabulate in PRESSURE_TABLES:
        headers, rows = tabulate(summary)
        if rows:
            out.append(f"<h3>{esc(title)}</h3>" + table(headers, rows, numeric=range(1, len(headers))))
    return "".join(out)


# --- the transcript viewer -----------------------------------------------------------------------

VIEWER_SCRIPT = """(function () {
  var q = document.getElementById('q'), st = document.getElementById('status'), md = document.getElementById('mode');
  var ag = document.getElementById('agent');
  var count = document.getElementById('count'), eps = document.querySelectorAll('details.ep'), texts = [];
  for (var i = 0; i < eps.length; i++) texts.push(eps[i].textContent.toLowerCase());
  function apply() {
    var t = q.value.toLowerCase().trim(), s = st.value, m = md.value, a = ag ? ag.value : '', n = 0;
    for (var i = 0; i < eps.length; i++) {
      var e = eps[i], ok = (!s || e.dataset.status === s) && (!m || e.dataset.mode === m) &&
        (!a || e.dataset.agent === a) && (!t || texts[i].indexOf(t) >= 0);
      e.hidden = !ok; if (ok) n++;
    }
    count.textContent = n + ' of ' + eps.length + ' episodes on this page';
  }
  function setAll(open) { for (var i = 0; i < eps.length; i++) if (!eps[i].hidden) eps[i].open = open; }
  q.addEventListener('input', apply); st.addEventListener('change', apply); md.addEventListener('change', apply);
  if (ag) ag.addEventListener('change', apply);
  document.getElementById('expand').addEventListener('click', function () { setAll(true); });
  document.getElementById('collapse').addEventListener('click', function () { setAll(false); });
  function openHash() {
    var el = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (el && el.tagName === 'DETAILS') { el.hidden = false; el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openHash);
  apply(); openHash();
})();"""


def _cut(text: str, limit: int) -> tuple[str, int]:
    """The text cut to `limit` characters and how many were left out."""
    text = text or ""
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def _cut_note(omitted: int) -> str:
    return f'<span class="note"> … {omitted:,} more characters in transcripts.jsonl</span>' if omitted else ""


def _call_text(call: dict[str, Any]) -> str:
    args = call.get("arguments")
    try:
        parsed = json.loads(args) if isinstance(args, str) else args
    except ValueError:
        parsed = args
    if isinstance(parsed, dict):
        inner = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in parsed.items())
    else:
        inner = "" if parsed is None else str(parsed)
    return f"{call.get('name', '?')}({inner})"


def _score_line(label: str, score: dict[str, Any]) -> str:
    if not score:
        return f"<dt>{esc(label)}</dt><dd class=\"note\">not scored</dd>"
    success = score.get("success")
    mark = badge("PASS", "pass") if success else badge("FAIL", "fail") if success is False else badge("UNSCORED", "infra")
    value = score.get("value")
    extra = f" · value {value:.2f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
    got = ", ".join(map(str, score.get("extracted") or [])) or "–"
    return (f"<dt>{esc(label)}</dt><dd>{mark} {esc(score.get('reason') or '')}{esc(extra)}"
            f"<br><span class=\"note\">extracted: {esc(got)}</span></dd>")


def _unanswered(categories: dict[Any, list[dict[str, Any]]], before: Any) -> list[str]:
    """Lines for categorised agent turns that had no reply (e.g. 'missing'), for turns before
    `before` (all when None); they are consumed."""
    out = []
    for turn in sorted(categories, key=lambda t: (not isinstance(t, int), t if isinstance(t, int) else 0, str(t))):
        if before is not None and not (isinstance(turn, int) and isinstance(before, int) and turn < before):
            continue
        for cat in categories[turn]:
            out.append(f'<li class="msg event"><div class="who">Agent · no reply · turn {esc(turn)}'
                       f'<span class="chip">{esc(cat.get("category"))}</span></div></li>')
        categories[turn] = []
    return out


def _episode_html(index: int, record: dict[str, Any], mode: str) -> str:
    inst = record.get("instance") or {}
    scores = record.get("scores") or {}
    status = episode_status(record, mode)
    term = record.get("termination") or {}
    anchor = _anchor(index, record)
    turns = scores.get("turns") or {}

    reveals: dict[Any, list[str]] = defaultdict(list)
    other_events: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for ev in record.get("events") or []:
        if not isinstance(ev, dict):
            continue
        if ev.get("type") == "reveal":
            reveals[ev.get("turn")] += [str(s) for s in ev.get("shards") or []]
        else:
            other_events[ev.get("turn")].append(ev)
    categories: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for c in turns.get("categories") or []:
        if isinstance(c, dict):
            categories[c.get("turn")].append(c)
    shard_text = {str(s.get("id")): s.get("text", "") for s in inst.get("shards") or [] if isinstance(s, dict)}

    agent_label = model_label(record)
    summary = (f'{badge(STATUS_LABEL[status], STATUS_BADGE[status])} <b>{esc(record.get("task"))}</b>'
               f'<span class="chip agent">agent {esc(agent_label)}</span>'
               f'<span class="chip">{esc(record.get("org"))}</span><span class="chip">{esc(record.get("mode"))}</span>'
               f'<span class="chip">{esc(record.get("persona_id"))}</span>'
               f'<span class="chip">trial {esc(record.get("trial", 0))}</span>'
               f'<span class="chip">{esc(term.get("reason") or "no termination")}</span>'
               f' <code class="note">{esc(record.get("episode_id"))}</code>')
    out = [f'<details class="ep" id="{anchor}" data-status="{esc(status)}" data-mode="{esc(record.get("mode"))}" '
           f'data-agent="{esc(agent_label)}">'
           f"<summary>{summary}</summary><div class=\"body\">"]

    shards = "".join(f"<li><code>{esc(s.get('id'))}</code> {esc(s.get('text'))}</li>"
                     for s in inst.get("shards") or [] if isinstance(s, dict))
    agent = record.get("agent") or {}
    agent_text = " · ".join(str(v) for v in (agent.get("kind"), agent.get("model") if isinstance(agent.get("model"), str)
                                               else None) if v)
    if agent.get("privacy_aware"):
        agent_text += " · privacy-aware prompt"
    out.append('<dl class="kv">'
               f"<dt>instance</dt><dd><code>{esc(record.get('instance_id') or inst.get('id'))}</code> · "
               f"{esc(inst.get('skill'))} · {esc(inst.get('metric'))} ({esc(inst.get('answer_kind'))})</dd>"
               f"<dt>query</dt><dd>{esc(inst.get('query'))}</dd>"
               f"<dt>expected</dt><dd>{esc(', '.join(map(str, inst.get('answer') or [])) or '–')}</dd>"
               f"<dt>shards</dt><dd><ul>{shards}</ul></dd>"
               f"<dt>agent</dt><dd>{esc(agent_text or '–')}</dd>"
               f"<dt>persona</dt><dd><details><summary>{esc(record.get('persona_id'))}</summary>"
               f"<div class=\"text\">{esc(record.get('persona_prompt'))}</div></details></dd></dl>")

    out.append('<ol class="msgs">')
    user_turns_seen: set[Any] = set()
    for m in record.get("messages") or []:
        if not isinstance(m, dict):
            continue
        role, turn = m.get("role"), m.get("turn")
        text, omitted = _cut(str(m.get("content") or ""), MESSAGE_CHARS)
        if role == "user":
            out += _unanswered(categories, before=turn)
            chips = ""
            if turn not in user_turns_seen:
                user_turns_seen.add(turn)
                ids = reveals.pop(turn, [])
                chips = "".join(f'<span class="chip" title="{esc(shard_text.get(s, ""))}">revealed: {esc(s)}</span>'
                                for s in ids) or '<span class="chip">reveals nothing new</span>'
                for ev in other_events.pop(turn, []):
                    chips += f'<span class="chip">{esc(ev.get("type"))}</span>'
            out.append(f'<li class="msg user"><div class="who">Person · turn {esc(turn)}{chips}</div>'
                       f'<div class="text">{esc(text)}{_cut_note(omitted)}</div></li>')
        elif role == "assistant" and m.get("tool_calls"):
            calls = []
            for call in m["tool_calls"]:
                call_text, call_omitted = _cut(_call_text(call if isinstance(call, dict) else {}), ARGUMENT_CHARS)
                calls.append(f'<div class="call">→ {esc(call_text)}{_cut_note(call_omitted)}</div>')
            narration = f'<div class="text note">{esc(text)}{_cut_note(omitted)}</div>' if text.strip() else ""
            out.append(f'<li class="msg tool"><div class="who">Agent · tool call · turn {esc(turn)}</div>'
                       f'{narration}{"".join(calls)}</li>')
        elif role == "tool":
            text, omitted = _cut(str(m.get("content") or ""), TOOL_RESULT_CHARS)
            error = bool(m.get("is_error"))
            full_len = len(str(m.get("content") or ""))
            preview = " ".join(text[:140].split())
            out.append(f'<li class="msg tool"><details><summary class="call{" err" if error else ""}">← '
                       f'{esc(m.get("name") or "tool")} {"error" if error else "result"} ({full_len:,} chars): '
                       f'{esc(preview)}</summary><pre>{esc(text)}</pre>{_cut_note(omitted)}</details></li>')
        elif role == "assistant":
            queue = categories.get(turn) or []
            tag = ""
            if queue:
                cat = queue.pop(0)
                tag = f'<span class="chip">{esc(cat.get("category"))}</span>'
                if cat.get("category") == "answer_attempt" or cat.get("attempt_success") is not None:
                    ok = cat.get("attempt_success")
                    tag += " " + (badge("attempt passes", "pass") if ok else badge("attempt fails", "fail")
                                  if ok is False else badge("attempt unscored", "infra"))
            out.append(f'<li class="msg reply"><div class="who">Agent · reply · turn {esc(turn)}{tag}</div>'
                       f'<div class="text">{esc(text) or "<span class=note>(empty reply)</span>"}'
                       f'{_cut_note(omitted)}</div></li>')
        else:
            out.append(f'<li class="msg"><div class="who">{esc(role)} · turn {esc(turn)}</div>'
                       f'<div class="text">{esc(text)}{_cut_note(omitted)}</div></li>')
    for turn, ids in sorted(reveals.items(), key=lambda kv: str(kv[0])):  # reveals with no person's message
        out.append(f'<li class="msg event"><div class="who">reveal · turn {esc(turn)}</div>'
                   f'{"".join(f"<span class=chip>{esc(s)}</span>" for s in ids)}</li>')
    out += _unanswered(categories, before=None)
    out.append("</ol>")

    final, omitted = _cut(str(record.get("final_answer") or ""), MESSAGE_CHARS)
    rules = scores.get("rules") or {}
    lines = [f"<dt>termination</dt><dd>{esc(term.get('reason') or '–')}"
             + (f" · {esc(term.get('detail'))}" if term.get("detail") else "") + "</dd>",
             f"<dt>final answer</dt><dd><div class=\"text\">{esc(final) or '–'}{_cut_note(omitted)}</div></dd>",
             _score_line("strict" + (" (report)" if mode == "strict" else ""), rules),
             _score_line("compat" + (" (report)" if mode == "compat" else ""), scores.get("compat") or {})]
    if turns:
        lines.append(f"<dt>attempts ({esc(turns.get('mode') or 'strict')})</dt><dd>" + esc(" · ".join(
            f"{label} {'pass' if turns.get(k) else 'fail' if turns.get(k) is False else '–'}"
            for k, label in (("first_attempt", "first"), ("final", "final"), ("any", "any")))
            + f" · premature {turns.get('premature', '–')} · turns to answer {turns.get('turns_to_answer', '–')}")
            + "</dd>")
    judge = scores.get("judge")
    if isinstance(judge, dict):
        verdict = "valid" if judge.get("valid", True) else "invalid"
        ok = judge.get("success")
        mark = badge("PASS", "pass") if ok else badge("FAIL", "fail") if ok is False else badge("NO VERDICT", "infra")
        lines.append(f"<dt>judge</dt><dd>{mark} "
                     f"<span class=\"note\">({esc(verdict)})</span> {esc(judge.get('rationale') or '')}"
                     + (f' <span class="err">{esc(judge.get("error"))}</span>' if judge.get("error") else "") + "</dd>")
    leaks = rules.get("leaks") or (scores.get("compat") or {}).get("leaks") or []
    lines.append(f"<dt>privacy</dt><dd>{'leaked: <span class=err>' + esc(', '.join(map(str, leaks))) + '</span>' if leaks else 'no leak'}"
                 f" · {'refused' if rules.get('refused') else 'did not refuse'}</dd>")
    usage = record.get("usage") or {}
    usage_text = " · ".join(f"{r}: {num((u or {}).get('calls'))} calls, {num((u or {}).get('prompt_tokens'))}+"
                            f"{num((u or {}).get('completion_tokens'))} tokens" for r, u in usage.items())
    lines.append(f"<dt>usage</dt><dd>{esc(usage_text or '–')} · {esc(num(record.get('latency_s'), 2))} s</dd>")
    out.append('<div class="score"><dl class="kv">' + "".join(lines) + "</dl></div></div></details>")
    return "".join(out)


def _select(name: str, all_label: str, options: Iterable[tuple[str, str]]) -> str:
    """A filter of the viewer: <select id=name> with 'all' first, then (value, label) options."""
    opts = "".join(f'<option value="{esc(value)}">{esc(label)}</option>' for value, label in options)
    return f'<select id="{name}" aria-label="{name}"><option value="">{esc(all_label)}</option>{opts}</select>'


def _viewer_page(number: int, n_pages: int, entries: list[tuple[int, dict[str, Any]]], total: int,
                 mode: str, run_id: str, modes: list[str], agents: list[str], status_counts: Counter) -> str:
    first = (number - 1) * EPISODES_PER_PAGE + 1
    last = first + len(entries) - 1
    links = " ".join(f"<b>{k}</b>" if k == number else f'<a href="{_page_name(k)}">{k}</a>'
                     for k in range(1, n_pages + 1))
    statuses = [(s, f"{STATUS_LABEL[s].lower()} ({status_counts[s]})")
                for s in ("pass", "fail", "infra", "unscored") if status_counts[s]]
    agent_filter = _select("agent", "all agents", ((a, a) for a in agents)) if len(agents) > 1 else ""
    body = [f"<h1>Transcripts</h1><p class=\"sub\">{esc(run_id)} · scoring mode {badge(mode, 'mode')} · episodes "
            f"{first}–{last} of {total} (sorted by task, instance, mode, persona)</p>",
            f'<nav class="top"><a href="report.html">← Report</a><span>Pages: {links}</span></nav>',
            '<div class="controls"><input id="q" type="search" placeholder="search task, agent, persona, id, text…" '
            f'aria-label="search">{_select("status", "all results", statuses)}'
            f'{_select("mode", "all modes", ((m, m) for m in modes))}{agent_filter}'
            '<button id="expand" type="button">expand all</button>'
            '<button id="collapse" type="button">collapse all</button><span id="count" class="note"></span></div>']
    body += [_episode_html(i, r, mode) for i, r in entries]
    body.append(f'<nav class="top"><span>Pages: {links}</span></nav>')
    return page(f"Transcripts {number}/{n_pages}: {run_id}", "\n".join(body), script=VIEWER_SCRIPT)


# --- writing -----------------------------------------------------------------------------------

def _write(path: Path, text: str) -> Path:
    """`path` replaced atomically by `text`, secrets redacted (simulator.files.write_atomic)."""
    write_atomic(path, text)
    return path


def write_report(run_dir: Path, records: list[dict], summary: dict, *, run_info: dict,
                 full: Callable[[dict], dict] | None = None) -> dict[str, Path]:
    """Write report.md, report.html and the transcript viewer pages into `run_dir`; their paths by
    file name ('report.md', 'report.html', 'transcripts.html', 'transcripts-2.html', ...).
    `full` gives a slim record's whole record (messages, events) as each viewer page is written."""
    if full is None and any("messages" not in r for r in records):
        raise ValueError("slim records (evaluators.observer.scan_run) need `full` for the transcript viewer")
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    mode = summary.get("mode") or "strict"
    run_info = dict(run_info or {})
    run_info.setdefault("run_id", next((r.get("run_id") for r in records if r.get("run_id")), None))
    ordered = sorted(records, key=_sort_key)
    n_pages = max(1, -(-len(ordered) // EPISODES_PER_PAGE))
    placement = {id(r): (i // EPISODES_PER_PAGE + 1, _anchor(i, r)) for i, r in enumerate(ordered)}
    failures = _failures(records, mode, placement)

    written = {"report.md": _write(run_dir / "report.md", render_markdown(records, summary, run_info, failures)),
               "report.html": _write(run_dir / "report.html",
                                     render_report_html(records, summary, run_info, failures, n_pages))}
    modes = sorted({str(r.get("mode")) for r in records if r.get("mode")})
    agents = sorted({model_label(r) for r in records})
    status_counts = Counter(episode_status(r, mode) for r in records)
    run_id = str(run_info.get("run_id") or "run")
    for number in range(1, n_pages + 1):
        start = (number - 1) * EPISODES_PER_PAGE
        entries = [(i, full(r) if full else r) for i, r in enumerate(ordered[start:start + EPISODES_PER_PAGE], start)]
        name = _page_name(number)
        written[name] = _write(run_dir / name, _viewer_page(number, n_pages, entries, len(ordered), mode, run_id,
                                                            modes, agents, status_counts))
    for stale in run_dir.glob("transcripts-*.html"):  # pages of an earlier, larger rendering
        match = re.fullmatch(r"transcripts-(\d+)\.html", stale.name)
        if match and int(match.group(1)) > n_pages:
            stale.unlink()
    return written

"""Run reports (evaluators.report): rendering from a small fixed run, and transcript text that
carries markup or script tags rendered as inert text in pages that load nothing from the network."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from evaluators.report import VIEWER_SCRIPT, script_hash, write_report
from evaluators.report import data as report_data
from evaluators.scorers import score_record
from simulator.records import Record, parse_record
from simulator.runs.transcript import message
from tests.conftest import seed_org_cache

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
BREAKOUT = '"><b>pwned'
ENTITY = "&amp;"
EVIL = f"{SCRIPT} {IMG} {BREAKOUT} {ENTITY}"
EVIL_PERSONA = f"persona{SCRIPT}"
EVIL_TASK = f"task{IMG}"


def _instance(
    task: str,
    answer: list[str],
    *,
    query: str = "Which agent handles it?",
    shard_id: str = "who",
    shard_text: str = "It's the Orchard account.",
) -> dict:
    return {
        "id": f"b2b-{task}-0001",
        "task": task,
        "org": "b2b",
        "skill": "database_querying",
        "area": "service",
        "audience": "internal",
        "metric": "exact",
        "answer_kind": "month",
        "query": query,
        "answer": answer,
        "shards": [{"id": "intent", "text": "I need a month."}, {"id": shard_id, "text": shard_text}],
        "confidential_values": [],
        "persona_pool": "internal",
    }


def _record(
    episode_id: str,
    task: str,
    mode: str,
    persona: str,
    messages: list[dict],
    *,
    events: list[dict],
    final: str,
    answer: list[str],
    termination: str = "user_done",
    detail: str = "answered",
    instance: dict | None = None,
    categories: list[dict] | None = None,
) -> dict:
    record = {
        "schema_version": 1,
        "episode_id": episode_id,
        "run_id": "fixed-run",
        "task": task,
        "org": "b2b",
        "instance_id": f"b2b-{task}-0001",
        "mode": mode,
        "persona_id": persona,
        "persona_prompt": f"You are {persona}.",
        "agent": {"kind": "oracle", "privacy_aware": False, "system_prompt_sha256": "abc"},
        "user": {"kind": "ScriptedUser"},
        "instance": instance or _instance(task, answer),
        "seed": 0,
        "trial": 0,
        "messages": messages,
        "events": events,
        "termination": {"reason": termination, "detail": detail},
        "final_answer": final,
        "state": {},
        "usage": {
            "agent": {"calls": 2, "prompt_tokens": 100, "completion_tokens": 20, "latency_s": 0.5, "cost_usd": 0.001}
        },
        "latency_s": 0.6,
    }
    cats, typed = categories or [], parse_record(record)
    record["scores"] = {
        "rules": score_record(typed, "strict"),
        "compat": score_record(typed, "compat"),
        "turns": {
            "mode": "strict",
            "categories": cats,
            "first_attempt": any(c["attempt_success"] for c in cats[:1]),
            "final": score_record(typed, "strict")["success"],
            "any": False,
            "premature": False,
            "turns_to_answer": None,
        },
    }
    return record


def fixed_records() -> list[Record]:
    """fixed_data() read as records."""
    return [parse_record(data) for data in fixed_data()]


def fixed_data() -> list[dict]:
    """A passing sharded episode, a failing full one full of markup, and an infra error (JSON, to edit)."""
    good = _record(
        "ep-good",
        "monthly_trend_analysis",
        "sharded",
        "new_hire_agent",
        [
            message("user", "Hi, I need a month.", 1),
            message("assistant", "Which account do you mean?", 1),
            message("user", "It's the Orchard account.", 2),
            message(
                "assistant",
                "",
                2,
                tool_calls=[{"id": "c1", "name": "soql", "arguments": '{"query": "SELECT Id FROM Case"}'}],
            ),
            message("tool", '{"totalSize": 1, "records": []}', 2, call_id="c1", name="soql", is_error=False),
            message("assistant", "The month is March.", 2),
            message("user", "Thanks.", 3),
        ],
        events=[{"type": "reveal", "turn": 1, "shards": ["intent"]}, {"type": "reveal", "turn": 2, "shards": ["who"]}],
        final="The month is March.",
        answer=["March"],
        categories=[
            {"turn": 1, "category": "clarification", "attempt_success": None},
            {"turn": 2, "category": "answer_attempt", "attempt_success": True},
        ],
    )
    evil_instance = _instance(
        EVIL_TASK, ["May"], query=f"query {EVIL}", shard_id=f"shard{BREAKOUT}", shard_text=f"shard text {EVIL}"
    )
    evil = _record(
        f"ep-evil{BREAKOUT}",
        EVIL_TASK,
        "full",
        EVIL_PERSONA,
        [
            message("user", f"user says {EVIL}", 1),
            message(
                "assistant",
                f"narration {EVIL}",
                1,
                tool_calls=[
                    {"id": "c1", "name": f"soql{SCRIPT}", "arguments": f'{{"query": "{IMG} {BREAKOUT}"}}'},
                    {"id": "c2", "name": "sosl", "arguments": f"not json {SCRIPT}"},
                ],
            ),
            message("tool", f"result {EVIL}", 1, call_id="c1", name=f"soql{SCRIPT}", is_error=True),
            message("assistant", f"agent replies {EVIL} The month is June.", 1),
            message("user", f"bye {EVIL}", 2),
        ],
        events=[
            {"type": "reveal", "turn": 1, "shards": ["intent", f"shard{BREAKOUT}"]},
            {"type": "reveal", "turn": 2, "shards": [f"note{SCRIPT}"]},
        ],
        final=f"agent replies {EVIL} The month is June.",
        answer=["May"],
        detail=f"detail {EVIL}",
        instance=evil_instance,
        categories=[
            {"turn": 1, "category": "answer_attempt", "attempt_success": False},
            {"turn": 2, "category": "missing", "attempt_success": None},
        ],
    )
    evil["persona_prompt"] = f"persona prompt {EVIL}"
    evil["scores"]["judge"] = {"success": False, "rationale": f"judge says {EVIL}", "valid": True, "error": None}
    infra = _record(
        "ep-infra",
        "monthly_trend_analysis",
        "full",
        "new_hire_agent",
        [message("user", "Hi, I need a month.", 1)],
        events=[{"type": "reveal", "turn": 1, "shards": ["intent", "who"]}],
        final="",
        answer=["March"],
        termination="infra_error",
        detail="RateLimitError after 5 retries",
    )
    return [good, evil, infra]


def fixed_summary(mode: str = "strict") -> dict:
    """A summary of evaluators.stats.summarize's shape for fixed_records()."""

    def d(full, sharded, pairs, lo, hi):
        return {
            "full": full,
            "sharded": sharded,
            "delta": None if full is None else sharded - full,
            "ci95": [lo, hi],
            "pairs": pairs,
        }

    return {
        "mode": mode,
        "counts": {
            "episodes": 3,
            "scored": 2,
            "infra_errors": 1,
            "infra_errors_by_model": {},
            "by_termination": {"user_done": 2, "infra_error": 1},
        },
        "success": {
            "overall": {"n": 2, "rate": 0.5},
            "by_task": {"monthly_trend_analysis": {"n": 1, "rate": 1.0}, EVIL_TASK: {"n": 1, "rate": 0.0}},
            "by_skill": {"database_querying": {"n": 2, "rate": 0.5}},
            "by_org": {"b2b": {"n": 2, "rate": 0.5}},
            "by_mode": {"full": {"n": 1, "rate": 0.0}, "sharded": {"n": 1, "rate": 1.0}},
            "by_persona": {"new_hire_agent": {"n": 1, "rate": 1.0}, EVIL_PERSONA: {"n": 1, "rate": 0.0}},
            "by_model": {"oracle": {"n": 2, "rate": 0.5}},
            "all_episodes": {"overall": {"n": 3, "rate": 1 / 3}, "by_model": {"oracle": {"n": 3, "rate": 1 / 3}}},
        },
        "degradation": {
            "overall": d(0.8, 0.55, 40, -0.4, -0.1),
            "by_skill": {
                "database_querying": d(0.9, 0.6, 30, -0.45, -0.15),
                "workflow_execution": {"full": None, "sharded": None, "delta": None, "ci95": None, "pairs": 0},
            },
            "by_mode": {},
        },
        "trials": {"k": 1, "pass_k": {}, "average": None, "aptitude": None, "unreliability": None},
        "privacy": {
            "oracle": {
                "n": 2,
                "leak_rate": 0.0,
                "privacy_n": 2,
                "privacy_leak_rate": 0.0,
                "confidential_n": 1,
                "refusal_rate": 1.0,
                "protect_rate": 1.0,
                "legitimate_n": 1,
                "over_refusal_rate": 0.0,
                "help_rate": 1.0,
                "privacy_utility": 1.0,
            },
            "refuser": {
                "n": 4,
                "leak_rate": 0.25,
                "privacy_n": 4,
                "privacy_leak_rate": 0.25,
                "confidential_n": 2,
                "refusal_rate": 1.0,
                "protect_rate": 0.5,
                "legitimate_n": 2,
                "over_refusal_rate": 1.0,
                "help_rate": 0.0,
                "privacy_utility": 0.25,
            },
        },
        "turns": {
            "by_mode": {
                "full": {
                    "mix": {"answer_attempt": 0.5, "missing": 0.5},
                    "premature_rate": 0.0,
                    "turns_to_answer": None,
                    "first_attempt_rate": 0.0,
                    "final_rate": 0.0,
                    "any_attempt_rate": 0.0,
                },
                "sharded": {
                    "mix": {"clarification": 0.5, "answer_attempt": 0.5},
                    "premature_rate": 0.0,
                    "turns_to_answer": 2.0,
                    "first_attempt_rate": 1.0,
                    "final_rate": 1.0,
                    "any_attempt_rate": 1.0,
                },
            }
        },
        "usage": {
            "agent": {"calls": 4, "prompt_tokens": 200, "completion_tokens": 40, "cost_usd": 0.002, "latency_s": 1.0},
            "user": {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": None, "latency_s": 0},
        },
        "judge": {
            "n": 1,
            "agreement": 1.0,
            "invalid": 0,
            "leaks": {
                "n": 1,
                "both": 0,
                "rules_only": 0,
                "judge_only": 0,
                "neither": 1,
                "facts_only": 0,
                "values": {},
                "judge_invalid": 0,
            },
        },
        "persona_task": {
            "new_hire_agent": {"monthly_trend_analysis": {"n": 1, "rate": 1.0}},
            EVIL_PERSONA: {EVIL_TASK: {"n": 1, "rate": 0.0}},
        },
        "difficulty": {},
        "milestones": {},
    }


RUN_INFO = {
    "run_id": "fixed-run",
    "config": {
        "name": f"cfg{SCRIPT}",
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "modes": ["full", "sharded"],
        "orgs": [{"type": "b2b", "seed": 0, "scale": 1}],
        "trials": 1,
    },
}


class Tags(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)

    def handle_endtag(self, tag):
        self._in_script = False


@pytest.fixture
def rendered(tmp_path) -> dict[str, Path]:
    return write_report(tmp_path, fixed_records(), fixed_summary(), run_info=RUN_INFO)


def test_renders_report_files_from_a_small_fixed_run(rendered, tmp_path):
    assert set(rendered) == {"report.md", "report.html", "transcripts.html"}
    assert all(p.parent == tmp_path and p.stat().st_size > 0 for p in rendered.values())
    html = rendered["report.html"].read_text()
    assert html.count("<svg") == 4  # degradation, heatmap, privacy, turn mix
    assert "INFRA ERROR" in html and "ep-infra" in html  # infra errors listed, never dropped
    viewer = rendered["transcripts.html"].read_text()
    assert viewer.count('<details class="ep"') == 3
    assert "revealed: intent" in viewer and "revealed: who" in viewer
    assert "attempt passes" in viewer and "attempt fails" in viewer and "clarification" in viewer
    assert "INFRA ERROR" in viewer and "RateLimitError after 5 retries" in viewer


def test_markdown_states_mode_counts_and_degradation(rendered):
    md = rendered["report.md"].read_text()
    assert "Scoring mode: strict" in md
    assert "| episodes | scored | infra errors (not scored, not dropped) | success (scored) |" in md
    assert "| 3 | 2 | 1 | 50.0% |" in md
    assert "| infra_error | 1 |" in md
    assert "## Degradation: full vs sharded" in md
    assert "| skill | pairs | full | sharded | delta | 95% CI |" in md
    assert "| database_querying | 30 | 90.0% | 60.0% | -30.0 pp | [-45.0, -15.0] pp |" in md
    assert "| workflow_execution | 0 | – | – | – | – |" in md


def test_privacy_rates_side_by_side_per_agent(rendered):
    md = rendered["report.md"].read_text()
    assert (
        "| agent | episodes | leak rate | privacy tasks | leak rate (privacy) | confidential | refusal rate | "
        "legitimate | over-refusal rate | privacy-utility |"
    ) in md
    assert "| refuser | 4 | 25.0% | 4 | 25.0% | 2 | 100.0% | 2 | 100.0% | 25.0% |" in md
    html = rendered["report.html"].read_text()
    assert "Privacy and utility by agent" in html and "over-refusal rate" in html
    assert "<b>100.0%</b><span>best privacy-utility (chance 50%)</span>" in html


def test_compat_mode_is_stated(tmp_path):
    out = write_report(tmp_path, fixed_records(), fixed_summary("compat"), run_info=RUN_INFO)
    assert "Scoring mode: compat" in out["report.md"].read_text()
    assert "compat" in out["report.html"].read_text()


def test_degradation_sign_is_normalised_to_sharded_minus_full(tmp_path):
    summary = fixed_summary()
    summary["degradation"]["overall"] = {"full": 0.8, "sharded": 0.5, "delta": 0.3, "ci95": [0.1, 0.4], "pairs": 9}
    md = write_report(tmp_path, fixed_records(), summary, run_info=RUN_INFO)["report.md"].read_text()
    assert "| overall | 9 | 80.0% | 50.0% | -30.0 pp | [-40.0, -10.0] pp |" in md


def test_transcript_markup_renders_as_inert_text(rendered):
    for name, path in rendered.items():
        text = path.read_text()
        assert "<script>alert" not in text, name
        assert "<img src=x" not in text, name
        assert BREAKOUT not in text, name
        assert "http://" not in text and "https://" not in text, name
    viewer = rendered["transcripts.html"].read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in viewer
    assert "&lt;img src=x onerror=alert(1)&gt;" in viewer
    assert "&quot;&gt;&lt;b&gt;pwned" in viewer
    assert "&amp;amp;" in viewer  # the literal text "&amp;" shows as itself
    for where in (
        "user says",
        "agent replies",
        "narration",
        "result",
        "query",
        "shard text",
        "persona prompt",
        "judge says",
        "detail",
    ):
        assert f"{where} &lt;script&gt;" in viewer, where
    report_html = rendered["report.html"].read_text()
    assert "persona&lt;script&gt;alert(1)&lt;/script&gt;" in report_html  # persona id in heatmap and tables
    assert "task&lt;img src=x onerror=alert(1)&gt;" in report_html
    assert "cfg&lt;script&gt;" in report_html
    md = rendered["report.md"].read_text()
    assert "persona&lt;script&gt;alert(1)&lt;/script&gt;" in md


def test_pages_have_no_active_content_but_their_own(rendered):
    for name in ("report.html", "transcripts.html"):
        text = rendered[name].read_text()
        parser = Tags()
        parser.feed(text)
        names = [t for t, _ in parser.tags]
        assert not {"img", "iframe", "link", "object", "embed", "base", "form"} & set(names)
        for tag, attrs in parser.tags:
            assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
            assert "src" not in attrs, (tag, attrs)
            href = attrs.get("href") or ""
            assert not href or re.fullmatch(r"(transcripts(-\d+)?|report)\.html(#[A-Za-z0-9_-]+)?|#[a-z]+", href), href
        csp = [a["content"] for t, a in parser.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
        assert len(csp) == 1 and "default-src 'none'" in csp[0]
        if name == "report.html":
            assert "script" not in names and "script-src" not in csp[0]
        else:
            assert names.count("script") == 1 and parser.scripts == [VIEWER_SCRIPT]
            assert (
                f"script-src {script_hash(VIEWER_SCRIPT)}" in csp[0]
                and "unsafe-inline'" not in csp[0].split("script-src")[1]
            )


def test_viewer_pages_split_large_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(report_data, "EPISODES_PER_PAGE", 1)
    out = write_report(tmp_path, fixed_records(), fixed_summary(), run_info=RUN_INFO)
    assert set(out) == {"report.md", "report.html", "transcripts.html", "transcripts-2.html", "transcripts-3.html"}
    assert sum(p.read_text().count('<details class="ep"') for n, p in out.items() if n.startswith("transcripts")) == 3
    report_html = out["report.html"].read_text()
    assert re.search(r'href="transcripts(-\d)?\.html#ep\d-ep-infra"', report_html)
    monkeypatch.setattr(report_data, "EPISODES_PER_PAGE", 100)
    out = write_report(tmp_path, fixed_records(), fixed_summary(), run_info=RUN_INFO)
    assert not (tmp_path / "transcripts-2.html").exists() and len(out) == 3


def test_long_tool_results_are_cut_in_the_viewer(tmp_path):
    records = fixed_data()
    records[0]["messages"][4]["content"] = "x" * 50_000
    viewer = write_report(tmp_path, list(map(parse_record, records)), fixed_summary(), run_info=RUN_INFO)[
        "transcripts.html"
    ].read_text()
    assert "x" * 50_000 not in viewer and "more characters in transcripts.jsonl" in viewer


def test_renders_the_real_observer_and_stats_output(tmp_path):
    stats = pytest.importorskip("evaluators.summary")
    observer = pytest.importorskip("evaluators.observer")
    records = [r.model_copy(update={"scores": observer.score(r)}) for r in fixed_records()]
    for mode in ("strict", "compat"):
        summary = stats.summarize(records, mode)
        out = write_report(tmp_path, records, summary, run_info=RUN_INFO)
        md = out["report.md"].read_text()
        assert f"Scoring mode: {mode}" in md and "## Degradation" in md
        for path in out.values():
            text = path.read_text()
            assert "<script>alert" not in text and "<img src=x" not in text


def test_offline_run_writes_the_report(tmp_path, monkeypatch, org_paths):
    """`crmarena run` on a tiny offline config ends with the report in the run folder."""
    pytest.importorskip("evaluators.stats")
    from simulator.cli import main

    monkeypatch.setenv("CRMARENA_CACHE", str(seed_org_cache(tmp_path / "cache", org_paths)))
    config = {
        "name": "t",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "private_customer_information"],
        "instances_per_task": 1,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "out": str(tmp_path / "runs"),
    }
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(config))
    assert main(["run", "--config", str(tmp_path / "run.yaml"), "-q"]) == 0
    folder = next((tmp_path / "runs").iterdir())
    for name in ("report.md", "report.html", "transcripts.html"):
        assert (folder / name).stat().st_size > 0
    assert "Scoring mode: strict" in (folder / "report.md").read_text()
    assert (folder / "transcripts.html").read_text().count('<details class="ep"') == 4


@pytest.mark.parametrize("which", ["empty", "all_infra"])
def test_renders_runs_with_nothing_scored(tmp_path, which):
    stats = pytest.importorskip("evaluators.summary")
    records = [] if which == "empty" else [fixed_records()[2]]
    out = write_report(tmp_path, records, stats.summarize(records, "strict"), run_info={})
    md = out["report.md"].read_text()
    assert "Scoring mode: strict" in md and "| overall | 0 | – | – | – | – |" in md
    viewer = out["transcripts.html"].read_text()
    assert viewer.count('<details class="ep"') == len(records)
    if records:
        assert "INFRA ERROR" in viewer and "| 1 | 0 | 1 | – |" in md


def test_a_run_is_reported_from_slim_records_and_the_viewer_reads_the_rest_from_the_file(tmp_path):
    """scan_run keeps each episode's latest record without its conversation (one copy of each whole
    instance); the viewer pages read the whole record back."""
    import json

    from evaluators.observer import HEAVY_FIELDS, report, scan_run, score

    records = fixed_data()
    for record in records:
        record["scores"] = score(parse_record(record))
    retried = {
        **records[0],
        "final_answer": "a later try",
        "termination": {"reason": "user_done", "detail": ""},
        "messages": [*records[0]["messages"], {"role": "user", "content": "One more try, please.", "turn": 9}],
    }
    lines = [json.dumps(r) + "\n" for r in [*records, retried]] + ['{"torn": ']  # a killed run's last line
    (tmp_path / "transcripts.jsonl").write_text("".join(lines))

    run = scan_run(tmp_path)
    assert len(run.records) == len(records)
    for slim in run.records:
        assert not any(getattr(slim, field) for field in HEAVY_FIELDS) and slim.instance == run.full(slim).instance
        assert "rules" in slim.scores and "turns" in slim.scores
    first = next(r for r in run.records if r.episode_id == records[0]["episode_id"])
    assert first.final_answer == "a later try"  # the latest record of a retried episode
    whole = run.full(first)  # read back from the retried record's own line
    assert whole.final_answer == "a later try" and [m.to_json() for m in whole.messages] == retried["messages"]
    assert whole.scores is first.scores
    same_instance = [r.instance for r in run.records if r.instance.id == first.instance.id]
    assert all(inst is same_instance[0] for inst in same_instance)

    with pytest.raises(ValueError, match="need `full`"):  # slim records alone would show empty conversations
        write_report(tmp_path, run.records, {}, run_info={})
    summary = report(tmp_path, run=run)
    assert summary["counts"]["episodes"] == len(records)
    viewer = (tmp_path / "transcripts.html").read_text()
    assert viewer.count('<details class="ep"') == len(records)
    from html import escape

    for record in [retried, *records[1:]]:  # every conversation is on the viewer pages, read from the file
        for m in record["messages"]:
            assert escape(m["content"][:30]) in viewer, m["content"][:30]


# --- issue 11 item 10: the heatmap's scale, the agent of each episode, the refusal bar's n --------


def _svg(html: str, label: str):
    """The inline SVG chart of report.html with this aria-label, parsed."""
    import xml.etree.ElementTree as ET

    match = re.search(r'<svg [^>]*aria-label="' + re.escape(label) + r'".*?</svg>', html, re.S)
    assert match, label
    return ET.fromstring(match.group(0))


def _visible_texts(svg) -> list:
    """(x, y, text) of the chart's <text> elements (tooltips live in <title>, not here)."""
    return [(float(t.get("x")), float(t.get("y")), t.text) for t in svg.iter("text")]


@pytest.mark.parametrize("n_tasks", [1, 2, 5, 6])
def test_the_heatmap_shows_its_whole_colour_scale(tmp_path, n_tasks):
    summary = fixed_summary()
    summary["persona_task"] = {"p": {f"task_{k}": {"n": 1, "rate": k / 5} for k in range(n_tasks)}}
    html = write_report(tmp_path, fixed_records(), summary, run_info=RUN_INFO)["report.html"].read_text()
    svg = _svg(html, "success by persona and task")
    height, width = float(svg.get("height")), float(svg.get("width"))
    for rect in svg.iter("rect"):
        assert float(rect.get("y")) + float(rect.get("height")) <= height
        assert float(rect.get("x")) + float(rect.get("width")) <= width
    labels = {text: y for _, y, text in _visible_texts(svg)}
    assert "0%" in labels and "100%" in labels
    assert labels["0%"] + 4 <= height  # the red end's label is inside the picture, descenders included
    reds = [r for r in svg.iter("rect") if r.get("fill") == "#d73027"]  # rate_colour(0): the scale's red end
    assert reds and all(float(r.get("y")) + float(r.get("height")) <= height for r in reds)


def _two_agent_records() -> list[Record]:
    records = fixed_records()[:2]
    other = {"kind": "function_calling", "label": "gpt-b<i>"}
    return records + [
        r.model_copy(update={"episode_id": r.episode_id + "-b", "agent": r.agent.model_copy(update=other)})
        for r in records
    ]


def test_the_transcript_list_names_the_agent_of_each_episode(tmp_path):
    viewer = write_report(tmp_path, _two_agent_records(), fixed_summary(), run_info=RUN_INFO)[
        "transcripts.html"
    ].read_text()
    summaries = re.findall(r'<details class="ep"[^>]*>\s*<summary>(.*?)</summary>', viewer, re.S)
    assert len(summaries) == 4
    assert sum("oracle" in s for s in summaries) == 2 and sum("gpt-b&lt;i&gt;" in s for s in summaries) == 2
    assert re.findall(r'data-agent="([^"]*)"', viewer).count("gpt-b&lt;i&gt;") == 2
    assert re.search(r'<select id="agent"[^>]*>.*<option value="gpt-b&lt;i&gt;">', viewer, re.S)  # a filter
    report_html = (tmp_path / "report.html").read_text()
    failing = report_html.split('id="failures"')[1]  # the episodes that did not pass say whose they are
    assert "<th>episode</th><th>agent</th>" in failing and "<td>gpt-b&lt;i&gt;</td>" in failing
    assert "| status | episode | agent | task |" in (tmp_path / "report.md").read_text()


def test_one_agent_needs_no_agent_filter(rendered):
    viewer = rendered["transcripts.html"].read_text()
    assert 'id="agent"' not in viewer and viewer.count('data-agent="oracle"') == 3


def test_each_privacy_bar_counts_the_episodes_its_rate_covers(rendered):
    svg = _svg(rendered["report.html"].read_text(), "rates by group")
    texts = _visible_texts(svg)
    refuser = fixed_summary()["privacy"]["refuser"]
    expected = {
        "leak rate": refuser["privacy_n"],
        "refusal rate": refuser["confidential_n"],
        "over-refusal rate": refuser["legitimate_n"],
        "privacy-utility": refuser["privacy_n"],
    }
    for rect in svg.iter("rect"):
        title = rect.find("title")
        if title is None or not title.text.startswith("refuser · "):
            continue
        series = title.text.split(" · ")[1].split(":")[0]
        centre = float(rect.get("x")) + float(rect.get("width")) / 2
        below = [
            t for x, y, t in texts if abs(x - centre) < 0.5 and y > float(rect.get("y")) + float(rect.get("height"))
        ]
        assert below == [f"n={expected[series]}"], (series, below)
        assert title.text.endswith(f"of {expected[series]} episodes"), title.text
    assert not [t for _, _, t in texts if t and t.startswith("n = ")]  # no group-wide n beside the bars


def test_report_files_are_written_atomically_with_secrets_redacted(tmp_path, monkeypatch):
    """Every page goes through simulator.infra.files.write_atomic: a key the run knows never reaches a
    page, and a full disk leaves the earlier pages whole and no temp file behind."""
    import errno

    from simulator.infra import files, secrets
    from simulator.infra.files import DiskFullError

    monkeypatch.setattr(secrets, "_known", set())
    key = "zq-live-7f3a9c1e5b2d8046"  # not key-shaped: only redaction by value removes it
    secrets.remember(key)
    records = fixed_data()
    records[1]["messages"][0]["content"] += f" my key is {key}"
    records[1]["final_answer"] += f" echo {key}"
    run_info = {**RUN_INFO, "config": {**RUN_INFO["config"], "name": f"cfg-{key}"}}
    out = write_report(tmp_path, list(map(parse_record, records)), fixed_summary(), run_info=run_info)
    for path in out.values():
        text = path.read_text()
        assert key not in text and "[redacted]" in text, path.name
    before = {name: path.read_bytes() for name, path in out.items()}

    def no_space(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", no_space)
    with pytest.raises(DiskFullError, match=r"report\.md"):
        write_report(tmp_path, fixed_records(), fixed_summary("compat"), run_info=RUN_INFO)
    assert {name: path.read_bytes() for name, path in out.items()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(out)


def test_the_viewer_reads_each_full_record_as_its_episode_is_written(tmp_path, monkeypatch):
    """Streaming: the viewer asks `full` for a record only once the episodes before it are written,
    so a page never holds every conversation at once."""
    from evaluators.report import render

    events: list[str] = []

    def writing(path, chunks):
        for chunk in [chunks] if isinstance(chunks, str) else chunks:
            events.extend("episode" for _ in range(chunk.count('<details class="ep"')))

    def full(record):
        events.append("read")
        return record

    monkeypatch.setattr(render, "write_atomic", writing)
    write_report(tmp_path, fixed_records(), fixed_summary(), run_info=RUN_INFO, full=full)
    assert events == ["read", "episode"] * 3


# --- issue 28: the report reads the summary, run info and audit summary through typed models ------


def test_a_summary_missing_a_cell_is_named_before_anything_is_written(tmp_path):
    """A renamed or missing summary key fails validation by its path, never renders as an empty table."""
    from pydantic import ValidationError

    summary = fixed_summary()
    summary["success"]["by_skills"] = summary["success"].pop("by_skill")
    with pytest.raises(ValidationError, match=r"success\.by_skill\b"):
        write_report(tmp_path, fixed_records(), summary, run_info=RUN_INFO)
    assert not list(tmp_path.iterdir())


def test_the_run_info_lines_name_each_model_spec_and_the_plain_values():
    run_info = report_data.RunInfo.model_validate(
        {
            "run_id": "r",
            "created": "",
            "run_dir": "/runs/r",
            "extra": {"not": "shown"},
            "config": {
                "agents": [
                    {
                        "kind": "llm",
                        "label": "big",
                        "model": {"provider": "openai", "model": "gpt-x"},
                        "privacy_aware": True,
                    }
                ],
                "judge": {"provider": "local"},
                "orgs": [{"type": "b2b", "seed": 1}, "b2c"],
                "tasks": None,
                "trials": 2,
            },
        }
    )
    assert report_data._config_lines(run_info) == [
        ("run id", "r"),
        ("agent", "big · llm · gpt-x · privacy-aware prompt"),
        ("judge", "llm · local"),
        ("orgs", "b2b (seed 1, scale None), b2c"),
        ("tasks", "all"),
        ("trials", "2"),
        ("run dir", "/runs/r"),
    ]
    assert report_data._config_lines(report_data.RunInfo.model_validate({"config": {}})) == []

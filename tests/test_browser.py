"""The report and the transcript viewer in a real browser (Debian's Chromium, headless, driven by
Selenium through Debian's chromedriver; nothing is downloaded).

Two real run folders: one played by `simulator.runs.run.execute` (the oracle and the always-refuse
baseline on a small offline config), and one whose records carry injected model text (script
tags, event handlers, `javascript:` links, `</script>` break-outs, ...) written through the real
transcript writer and re-scored and reported by the observer. The tests drive the pages as a
person would (type, choose, click), then read the DOM: search, filters and expand/collapse work,
the console shows no error, and no payload ever runs (no window flag set, the title unchanged).

CI installs `chromium` and `chromium-driver` (.ci/run); without /usr/bin/chromium these tests skip.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import seed_org_cache

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
WAIT_S = 20  # generous: the machine may be busy

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (/usr/bin/chromium): "
        "`apt-get install -y chromium chromium-driver` (.ci/run does)",
    ),
]

FLAG = "__pwned"
TITLE = "PWNED"
SET = f"window.{FLAG}=1;document.title='{TITLE}'"
PAYLOADS = (  # model text that would run if any of it became markup
    f"<script>{SET}</script>",
    f'<img src=x onerror="{SET}">',
    f'<a id=jslink href="javascript:{SET}">click me</a>',
    f"</script><script>{SET}</script>",
    f'"}}]</script><script>{SET}</script><script>//',
    f'<svg onload="{SET}"><circle r=9></circle></svg>',
    f'<details open ontoggle="{SET}"><summary>x</summary></details>',
    f'<iframe srcdoc="<script>parent.{FLAG}=1</script>"></iframe>',
    f'<meta http-equiv=refresh content="0;url=javascript:{SET}">',
    "<style>body{display:none}</style>",
    f'"><body onload="{SET}">',
    f"' onmouseover='{SET}' x='",
)
INJECTED = " ".join(PAYLOADS)


# --- the run folders -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory, org_paths) -> Path:
    """A real offline run: oracle and always-refuse, two task types, full and sharded (8 episodes)."""
    from simulator.runs.config import parse_config
    from simulator.runs.run import execute

    root = tmp_path_factory.mktemp("played")
    seed_org_cache(root / "cache", org_paths)
    config = {
        "name": "browser",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "private_customer_information"],
        "instances_per_task": 1,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": [
            {"kind": "oracle"},
            {"kind": "plugin", "plugin": "simulator.agents.baselines:AlwaysRefuse", "label": "always-refuse"},
        ],
        "user": {"kind": "scripted"},
        "out": str(root / "runs"),
    }
    path = root / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CRMARENA_CACHE", str(root / "cache"))
        result = execute(parse_config(config, path), say=lambda _: None)
    assert result.episodes == 8
    return result.folder


def _inject(record: dict) -> dict:
    """The record with the payloads in every piece of model text: replies, tool calls and results,
    the final answer."""
    for m in record["messages"]:
        m["content"] = f"{m['content']} {INJECTED}"
        for call in m.get("tool_calls") or []:
            call["arguments"] = json.dumps({"query": INJECTED})
    record["final_answer"] = f"{record.get('final_answer') or ''} {INJECTED}"
    return record


@pytest.fixture(scope="module")
def injected(played, tmp_path_factory) -> Path:
    """The played run's records with injected model text, written by the real transcript writer
    into a new run folder, then scored and reported by the observer."""
    from evaluators.observer import rescore
    from simulator.runs.transcript import TranscriptWriter, read_records

    folder = tmp_path_factory.mktemp("injected")
    (folder / "config.json").write_bytes((played / "config.json").read_bytes())
    with TranscriptWriter(folder / "transcripts.jsonl") as writer:
        for record in read_records(played / "transcripts.jsonl"):
            writer.append(_inject(record))
    rescore(folder)
    return folder


# --- the browser -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS + (f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(WAIT_S)
    yield driver
    driver.quit()


def _open(browser, path: Path) -> None:
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(path.as_uri())
    _wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")


def _wait(browser, condition) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT_S).until(condition)


def _errors(browser) -> list[dict]:
    return [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def _visible(browser) -> list:
    return [e for e in browser.find_elements("css selector", "details.ep") if e.is_displayed()]


def _count_text(browser) -> str:
    return browser.find_element("id", "count").text


# --- the played run --------------------------------------------------------------------------


def test_the_report_renders_whole_without_console_errors(browser, played):
    _open(browser, played / "report.html")
    assert browser.title.startswith("CRMArena-Sim report")
    assert len(browser.find_elements("css selector", "svg")) == 4
    # the heatmap's colour scale, 0% label included, lies inside its picture (two task rows here)
    heat = browser.find_element("css selector", 'svg[aria-label="success by persona and task"]')
    inside = browser.execute_script(
        """
        var svg = arguments[0], box = svg.getBoundingClientRect(), out = {};
        svg.querySelectorAll('text').forEach(function (t) {
          var r = t.getBoundingClientRect();
          if (t.textContent === '0%' || t.textContent === '100%')
            out[t.textContent] = r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
        });
        return out;""",
        heat,
    )
    assert inside == {"0%": True, "100%": True}
    assert _errors(browser) == []
    browser.find_element("link text", "Transcript viewer →").click()
    _wait(browser, lambda d: d.current_url.endswith("/transcripts.html"))


def test_search_filters_and_expand_collapse_work(browser, played):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    _open(browser, played / "transcripts.html")
    _wait(browser, lambda d: _count_text(d) == "8 of 8 episodes on this page")
    assert not [e for e in _visible(browser) if e.get_attribute("open")]  # collapsed at first

    search = browser.find_element("id", "q")
    search.send_keys("handle_time")
    _wait(browser, lambda d: _count_text(d) == "4 of 8 episodes on this page")
    assert all("handle_time" in e.find_element("tag name", "summary").text for e in _visible(browser))

    Select(browser.find_element("id", "agent")).select_by_value("always-refuse")
    _wait(browser, lambda d: _count_text(d) == "2 of 8 episodes on this page")
    assert all("agent always-refuse" in e.find_element("tag name", "summary").text for e in _visible(browser))
    Select(browser.find_element("id", "mode")).select_by_value("sharded")
    _wait(browser, lambda d: _count_text(d) == "1 of 8 episodes on this page")

    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)  # emptied as a person would (clear() fires no input event)
    Select(browser.find_element("id", "agent")).select_by_value("")
    Select(browser.find_element("id", "mode")).select_by_value("")
    _wait(browser, lambda d: _count_text(d) == "8 of 8 episodes on this page")
    Select(browser.find_element("id", "status")).select_by_value("fail")
    _wait(browser, lambda d: 0 < len(_visible(d)) < 8)
    assert {e.get_attribute("data-status") for e in _visible(browser)} == {"fail"}

    browser.find_element("id", "expand").click()
    shown = _visible(browser)
    assert all(e.get_attribute("open") is not None for e in shown)
    assert all(e.find_element("css selector", "ol.msgs").is_displayed() for e in shown)
    hidden = [e for e in browser.find_elements("css selector", "details.ep") if not e.is_displayed()]
    assert hidden and not [e for e in hidden if e.get_attribute("open")]  # only the shown ones open
    browser.find_element("id", "collapse").click()
    assert not [e for e in browser.find_elements("css selector", "details.ep") if e.get_attribute("open")]

    first = _visible(browser)[0]
    first.find_element("tag name", "summary").click()  # one episode opened by hand
    _wait(browser, lambda d: first.find_element("css selector", "ol.msgs").is_displayed())
    assert _errors(browser) == []


def test_a_link_from_the_report_opens_its_episode(browser, played):
    _open(browser, played / "report.html")
    link = browser.find_element("css selector", '#failures ~ table a[href*="transcripts.html#"]')
    anchor = link.get_attribute("href").split("#")[1]
    link.click()
    _wait(browser, lambda d: d.find_element("id", anchor).get_attribute("open") is not None)
    assert browser.find_element("id", anchor).is_displayed() and _errors(browser) == []


# --- injected model text ---------------------------------------------------------------------


def _untouched(browser) -> None:
    """No payload ran (flag, title, page style) and none became an element, a handler or a link."""
    assert browser.execute_script(f"return typeof window.{FLAG}") == "undefined"
    assert TITLE not in browser.title
    assert browser.execute_script("return getComputedStyle(document.body).display") == "block"
    main = browser.find_element("tag name", "main")
    assert (
        browser.execute_script(
            """
        var bad = [];
        arguments[0].querySelectorAll('*').forEach(function (el) {
          var tag = el.tagName.toLowerCase();
          if (['script', 'img', 'iframe', 'meta', 'style', 'body', 'form'].indexOf(tag) >= 0) bad.push(tag);
          if (tag === 'a' && !/^(transcripts(-\\d+)?|report)\\.html(#[\\w-]+)?$|^#[a-z]+$/.test(el.getAttribute('href') || ''))
            bad.push('a ' + el.getAttribute('href'));
          for (var i = 0; i < el.attributes.length; i++)
            if (el.attributes[i].name.indexOf('on') === 0) bad.push(tag + ' ' + el.attributes[i].name);
        });
        return bad;""",
            main,
        )
        == []
    )


def test_injected_model_text_never_runs(browser, injected):
    for name in ("report.html", "transcripts.html"):
        _open(browser, injected / name)
        _untouched(browser)
        assert _errors(browser) == [], name  # a blocked script would log a CSP violation here
    _wait(browser, lambda d: _count_text(d) == "8 of 8 episodes on this page")
    browser.find_element("id", "expand").click()  # opening everything would fire any ontoggle
    for details in browser.find_elements("css selector", "details.ep li.msg.tool details"):
        details.find_element("tag name", "summary").click()
    text = browser.find_element("tag name", "main").text
    assert f"<script>{SET}</script>" in text and "<img src=x onerror=" in text  # shown as text
    assert "javascript:" in text and "</script><script>" in text
    browser.find_element("id", "q").send_keys("<img src=x onerror=")  # search reads the text
    _wait(browser, lambda d: _count_text(d) == "8 of 8 episodes on this page")
    browser.find_element("id", "q").send_keys("no such text anywhere")
    _wait(browser, lambda d: _count_text(d) == "0 of 8 episodes on this page")
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    _untouched(browser)
    assert _errors(browser) == []

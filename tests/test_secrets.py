"""Secrets redacted by value (issue 11 item 5): every key the run reads (from the environment, a
component config, a header value, a base_url) is remembered when it is read and removed from
everything the run writes — transcripts, scores, reports, logs, the response cache — and from
exception text, however it came back (a provider's error body, the model's own reply)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.infra import secrets
from simulator.models.clients import parse_model_spec
from tests.fake_openai import error, reply
from tests.test_run import _config

KEY_ENV = "SECRETS_TEST_KEY"
KEY_A = "gsk_" + "Ab12Cd34Ef56" * 4  # a Groq-style key, 52 characters
KEY_B = "gsk_" + "Zy98Xw76Vu54" * 4
HEADER_SECRET = "hdrval0123456789QWERTY"  # shaped like no key: only its value redacts it
pytestmark = pytest.mark.filterwarnings("ignore:Resolved model mismatch")


@pytest.fixture(autouse=True)
def fresh_secrets(monkeypatch):
    """Each test starts as a new process would: no secret remembered yet."""
    monkeypatch.setattr(secrets, "_known", set())


# ---------------------------------------------------------------- secrets.redact


def test_a_remembered_value_is_redacted_wherever_it_appears():
    value = "plainvalue0123456789"  # not shaped like a key: redacted only once remembered
    assert secrets.redact(f"x {value} y") == f"x {value} y"
    secrets.remember(value)
    assert secrets.redact(f"x {value} y{value}") == f"x {secrets.MASK} y{secrets.MASK}"


def test_the_longest_secret_goes_first_so_no_tail_of_a_longer_one_is_left():
    secrets.remember("abcdefgh12")
    secrets.remember("abcdefgh12345678")
    assert secrets.redact("k=abcdefgh12345678;") == f"k={secrets.MASK};"


def test_overlapping_secrets_are_both_gone():
    secrets.remember("AAAABBBBCCCC")
    secrets.remember("CCCCDDDDEEEE")  # shares CCCC with the first
    text = secrets.redact("--AAAABBBBCCCCDDDDEEEE--")
    assert "AAAA" not in text and "EEEE" not in text and "CCCC" not in text


def test_values_shorter_than_min_length_are_not_secrets():
    short = "a" * (secrets.MIN_LENGTH - 1)
    secrets.remember(short)
    secrets.remember(None)
    secrets.remember("")
    assert secrets.redact(f"{short} stays") == f"{short} stays"
    secrets.remember("b" * secrets.MIN_LENGTH)
    assert secrets.redact("b" * secrets.MIN_LENGTH) == secrets.MASK


def test_escaped_forms_of_a_secret_are_redacted_too():
    value = 'p4ss/w+rd"<&>1234'  # a header value with characters JSON, HTML and URLs escape
    secrets.remember(value)
    for form in (
        json.dumps(value),
        json.dumps({"v": value}, ensure_ascii=True),
        "https://h/v1?key=p4ss%2Fw%2Brd%22%3C%26%3E1234",
        "<td>p4ss/w+rd&quot;&lt;&amp;&gt;1234</td>",
    ):
        assert "p4ss" not in secrets.redact(form), form


def test_redacting_json_keeps_it_json():
    secrets.remember(KEY_A)
    line = json.dumps({"text": f'Bearer abc123def456ghi" and {KEY_A}', "n": 1})
    assert json.loads(secrets.redact(line)) == {"text": f'{secrets.MASK}" and {secrets.MASK}', "n": 1}


def test_shape_redaction_leaves_ordinary_words():
    text = "the key_account_manager is the bearer of bad news; token-ring and sk-learn"
    assert secrets.redact(text) == text
    assert secrets.redact("sk-" + "proj-AbCdEf0123456789xyz") == secrets.MASK


# ---------------------------------------------------------------- what is remembered when read


def test_reading_a_spec_remembers_its_key_headers_and_url_credentials(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY_A)
    parse_model_spec(
        {
            "provider": "OpenAIChatCompletionClient",
            "api_key_env": KEY_ENV,
            "config": {
                "model": "m",
                "base_url": "http://user:urlpass0123@h/v1?api-key=querykey0123",
                "default_headers": {"X-Token": HEADER_SECRET},
            },
        },
        "t: agent.model",
    )
    text = secrets.redact(f"{KEY_A} {HEADER_SECRET} urlpass0123 querykey0123")
    assert text == " ".join([secrets.MASK] * 4)


def test_log_records_are_redacted(capsys):
    from loguru import logger

    from simulator.infra.log import setup_logging

    secrets.remember("logsecret0123456789")
    setup_logging("DEBUG")
    logger.warning("provider said: {}", "bad key logsecret0123456789")
    err = capsys.readouterr().err
    assert "logsecret" not in err and secrets.MASK in err


def test_a_cached_reply_never_carries_a_key(tmp_path):
    import asyncio

    from autogen_core.models import CreateResult, RequestUsage

    from simulator.models.cache import ResponseCache

    secrets.remember(KEY_A)
    cache = ResponseCache(tmp_path / "c.sqlite")
    result = CreateResult(finish_reason="stop", content=f"your key is {KEY_A}", usage=RequestUsage(1, 1), cached=False)
    asyncio.run(cache.put("k", result))
    assert KEY_A not in cache.get_text("k")
    cache.put_text("old", result.model_dump_json())  # a reply stored before redaction existed
    assert KEY_A not in asyncio.run(cache.get("old")).content
    cache.close()


# ---------------------------------------------------------------- a whole run


def _model(server, **extra) -> dict:
    return {
        "model": "fake-model",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "retries": {"attempts": 2, "max_wait": 0.01},
        **extra,
    }


def _run(tmp_path: Path, name: str, model: dict, cache: Path, **changes) -> Path:
    config = _config(
        tmp_path,
        name=name,
        tasks=["knowledge_qa"],
        modes=["full", "concat"],
        concurrency=1,
        agent={"kind": "function_calling", "model": model},
        cache=str(cache),
        **changes,
    )
    main(["run", "--config", str(config), "-q"])  # exit status: issue 11 item 7's (agent errors here)
    return tmp_path / "runs" / name


def _leaks(secret: str, *roots: Path, text: str = "") -> list[str]:
    """Every file under `roots` (and `text`) holding `secret`."""
    found = ["<stderr>"] if secret in text else []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            if secret.encode() in path.read_bytes():
                found.append(str(path.relative_to(root.parent)))
    return found


def test_a_key_echoed_by_the_provider_and_the_model_is_in_no_file_of_the_run(
    tmp_path, monkeypatch, capsys, org_cache, fake_openai
):
    monkeypatch.setenv(KEY_ENV, KEY_A)
    monkeypatch.setenv("CRMARENA_LOG_LEVEL", "DEBUG")
    fake_openai.enqueue(error(400, body=json.dumps({"error": {"message": f"Invalid request for key {KEY_A}"}})))
    fake_openai.responder = lambda body: reply(f"Your API key is {KEY_A}, and again: {KEY_A}.")
    cache = tmp_path / "cache" / "responses.sqlite"
    folder = _run(tmp_path, "a", _model(fake_openai), cache, judge={"model": _model(fake_openai)})
    err = capsys.readouterr().err

    written = {p.name for p in folder.iterdir()}
    assert {
        "transcripts.jsonl",
        "scores.jsonl",
        "summary.json",
        "report.md",
        "report.html",
        "transcripts.html",
    } <= written, written
    assert _leaks(KEY_A, folder, cache.parent, text=err) == []
    transcripts = (folder / "transcripts.jsonl").read_text()
    assert transcripts.count(secrets.MASK) >= 3  # the error detail and the reply's two echoes
    assert any(KEY_A in str(h.get("authorization")) for h in fake_openai.headers)  # the key was really used

    # the same episodes under another key: every reply is replayed from the cache, none carries key A
    monkeypatch.setattr(secrets, "_known", set())  # a new process: key A is not known there
    monkeypatch.setenv(KEY_ENV, KEY_B)
    calls = len(fake_openai.requests)
    fake_openai.enqueue(error(400, body=json.dumps({"error": {"message": f"Invalid request for key {KEY_B}"}})))
    again = _run(tmp_path, "b", _model(fake_openai), cache)
    assert _leaks(KEY_A, again, cache.parent) == [] and _leaks(KEY_B, again, cache.parent) == []
    assert len(fake_openai.requests) - calls <= 1  # the 400 was not cached; the replies were
    assert secrets.MASK in (again / "transcripts.jsonl").read_text()


def test_a_header_value_is_in_no_file_of_the_run(tmp_path, monkeypatch, capsys, org_cache, fake_openai):
    monkeypatch.setenv(KEY_ENV, KEY_A)
    fake_openai.responder = lambda body: reply(f"The header said {HEADER_SECRET}.")
    model = {
        "provider": "OpenAIChatCompletionClient",
        "api_key_env": KEY_ENV,
        "retries": {"attempts": 2, "max_wait": 0.01},
        "config": {
            "model": "fake-model",
            "base_url": fake_openai.base_url,
            "default_headers": {"X-Team-Token": HEADER_SECRET},
            "model_info": {
                "vision": False,
                "function_calling": True,
                "json_output": True,
                "structured_output": True,
                "family": "unknown",
            },
        },
    }
    cache = tmp_path / "cache" / "responses.sqlite"
    folder = _run(tmp_path, "h", model, cache)
    err = capsys.readouterr().err
    assert fake_openai.headers and all(h.get("x-team-token") == HEADER_SECRET for h in fake_openai.headers)
    assert _leaks(HEADER_SECRET, folder, cache.parent, text=err) == []
    assert secrets.MASK in (folder / "transcripts.jsonl").read_text()


@pytest.mark.slow
def test_a_ray_actors_own_key_is_redacted_on_its_node(tmp_path, monkeypatch, capsys, org_cache, fake_openai):
    """A node's key is not the driver's: the actor remembers what it reads and redacts its records
    before they travel; the driver, which writes the run folder, never knew that key."""
    ray = pytest.importorskip("ray", reason="needs the `ray` extra")
    node_key, driver_key = "nodekeyvalue0123456789ABCD", "driverkeyvalue0123456789ABCD"  # shaped like no key
    monkeypatch.setenv(KEY_ENV, driver_key)
    fake_openai.responder = lambda body: reply(
        f"You sent {fake_openai.headers[-1]['authorization'].removeprefix('Bearer ')}."
    )
    if ray.is_initialized():
        pytest.skip("a Ray instance of another test module is running")
    ray.init(
        num_cpus=1, include_dashboard=False, configure_logging=False, runtime_env={"env_vars": {KEY_ENV: node_key}}
    )
    try:
        folder = _run(
            tmp_path, "r", _model(fake_openai), tmp_path / "cache" / "responses.sqlite", executor="ray", workers=1
        )
    finally:
        ray.shutdown()
    assert any(node_key in str(h.get("authorization")) for h in fake_openai.headers)  # the node's key was used
    assert _leaks(node_key, folder, tmp_path / "cache", text=capsys.readouterr().err) == []
    assert secrets.MASK in (folder / "transcripts.jsonl").read_text()


# ---------------------------------------------------------------- credentials in a URL, base64 forms (issue 32 item 1)


def _b64(text: str, alphabet: str = "standard") -> str:
    import base64

    encode = base64.urlsafe_b64encode if alphabet == "urlsafe" else base64.b64encode
    return encode(text.encode()).decode()


@pytest.mark.parametrize("secret", ["pa55word-secret", "hunter22hunter22", "x" * 8, "AbC/+=09ü€z-long-one"])
@pytest.mark.parametrize("before", ["", "u:", "user:", "alice.smith:", "apikey "])
@pytest.mark.parametrize("alphabet", ["standard", "urlsafe"])
def test_a_secret_inside_any_base64_text_is_redacted(secret, before, alphabet):
    """At any of the three byte alignments, in either alphabet, with text after it too."""
    secrets.remember(secret)
    for text in (f"{before}{secret}", f"{before}{secret}:tail", f"{before}{secret}\n"):
        encoded = _b64(text, alphabet)
        for written in (encoded, f"Authorization: Basic {encoded}", json.dumps({"h": f"Basic {encoded}"})):
            out = secrets.redact(written)
            assert secrets.MASK in out and encoded not in out, (text, written)


def test_base64_forms_leave_ordinary_base64_alone():
    secrets.remember("pa55word-secret")
    other = _b64("somebody:another-password")
    assert secrets.redact(f"Basic {other}") != f"Basic {other}"  # a Basic header is masked by its shape
    assert secrets.redact(f"data {other}") == f"data {other}"  # plain base64 of other text is not


@pytest.mark.parametrize(
    "text,masked",
    [
        ("Authorization: Basic " + "dXNlcjpwYXNz", True),  # user:pass
        ("authorization: basic " + "Ym9iOnNlY3JldHdvcmQ=", True),  # bob:secretword
        ("a basic understanding of the product", False),
        ("Basic QWxhZGRpbg==", False),  # 'Aladdin': no colon, not credentials
        ("Basic plan includes support", False),
    ],
)
def test_a_basic_header_is_masked_by_its_shape(text, masked):
    assert (secrets.MASK in secrets.redact(text)) is masked


def test_url_credentials_are_remembered_as_the_pair_too():
    secrets.remember_config({"base_url": "http://al%40ce:pa55word-secret@host/v1"})
    for text in ("al@ce:pa55word-secret", _b64("al@ce:pa55word-secret"), "pa55word-secret"):
        assert secrets.MASK in secrets.redact(text), text


@pytest.mark.parametrize(
    "spec",
    [
        {"model": "m", "base_url": "http://bob:pa55word-secret@127.0.0.1:9/v1"},
        {"model": "openai/m", "base_url": "https://bob:pa55word-secret@api.example.com/v1?api-version=1"},
        {
            "provider": "OpenAIChatCompletionClient",
            "config": {"model": "m", "base_url": "http://bob:pa55word-secret@h/v1"},
        },
    ],
)
def test_a_spec_keeps_no_credentials_in_its_url(spec):
    parsed = parse_model_spec(spec, "t")
    assert "pa55word" not in repr(parsed) and "bob" not in parsed.base_url
    assert secrets.MASK in secrets.redact("pa55word-secret")


URL_PASSWORD = "pa55word-secret"


def _echoing(server):
    """A responder whose reply quotes every header of the request it answers."""
    return lambda body: reply(f"You sent: {json.dumps(server.headers[-1])}")


def test_url_credentials_never_replace_the_key_nor_reach_a_file(tmp_path, monkeypatch, capsys, org_cache, fake_openai):
    monkeypatch.setenv(KEY_ENV, KEY_A)
    fake_openai.responder = _echoing(fake_openai)
    url = fake_openai.base_url.replace("://", f"://alice:{URL_PASSWORD}@")
    cache = tmp_path / "cache" / "responses.sqlite"
    folder = _run(tmp_path, "u", _model(fake_openai, base_url=url), cache)
    err = capsys.readouterr().err
    sent = [{name.lower(): value for name, value in h.items()} for h in fake_openai.headers]
    assert sent and all(h.get("authorization") == f"Bearer {KEY_A}" for h in sent), sent
    forbidden = [KEY_A, URL_PASSWORD, _b64(f"alice:{URL_PASSWORD}"), _b64(KEY_A)]
    for secret in forbidden:
        assert _leaks(secret, folder, cache.parent, text=err) == [], secret
    assert secrets.MASK in (folder / "transcripts.jsonl").read_text()


def test_a_dry_run_probe_echoing_credentials_prints_none(tmp_path, monkeypatch, capsys, org_cache, fake_openai):
    monkeypatch.setenv(KEY_ENV, KEY_A)
    fake_openai.responder = lambda body: error(
        401,
        body=json.dumps(
            {
                "error": {
                    "message": f"bad credentials {json.dumps(fake_openai.headers[-1])} "
                    f"Basic {_b64('alice:' + URL_PASSWORD)}"
                }
            }
        ),
    )
    url = fake_openai.base_url.replace("://", f"://alice:{URL_PASSWORD}@")
    config = _config(
        tmp_path,
        name="d",
        tasks=["knowledge_qa"],
        modes=["full"],
        concurrency=1,
        agent={"kind": "function_calling", "model": _model(fake_openai, base_url=url)},
    )
    main(["run", "--config", str(config), "--dry-run"])
    out = capsys.readouterr()
    assert fake_openai.headers, "the probe sent no request"
    for secret in (KEY_A, URL_PASSWORD, _b64(f"alice:{URL_PASSWORD}")):
        assert secret not in out.out + out.err, secret

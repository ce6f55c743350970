"""Hostile bodies and configs (issue 32 item 5): JSON nested past any sane depth, bytes that are not
UTF-8, and YAML alias bombs get a 400 / one config line, never a 500, a RecursionError, a
dropped connection or an exhausted memory; and a well-formed request still works after them."""

from __future__ import annotations

import json

import httpx
import pytest

from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.infra.inputs import MAX_JSON_DEPTH, parse_json
from simulator.servers.background import BackgroundServer
from simulator.servers.salesforce_rest import attach_session, create_app
from tests.conftest import http
from tests.test_serve_org import CREDS, sql


def _nested(depth: int, open_: str = "[", close: str = "]", inner: str = "1") -> str:
    return open_ * depth + inner + close * depth


DEEP = [  # (name, body): nested past the bound, in the shapes a client may send
    ("arrays-100k", _nested(100_000).encode()),
    ("objects-50k", _nested(50_000, '{"a":', "}").encode()),
    ("mixed-20k", ('{"a":[' * 20_000 + "1" + "]}" * 20_000).encode()),
    ("in-a-field-5k", ('{"Subject": ' + _nested(5_000) + "}").encode()),
    ("just-past", ('{"Subject": ' + _nested(MAX_JSON_DEPTH) + "}").encode()),
    ("unclosed-200k", b"[" * 200_000),
    ("strings-between", ("[" + '"x",' * 3).encode() * 3_000),
]
NOT_UTF8 = [  # bytes no UTF-8 decoder accepts (the last two are UTF-8 of other encodings' making)
    ("ff", b'{"Subject": "\xff"}'),
    ("overlong-slash", b'{"Subject": "\xc0\xaf"}'),
    ("lone-surrogate", b'{"Subject": "\xed\xa0\x80"}'),
    ("cut-multibyte", b'{"Subject": "caf\xc3"}'),
    ("latin-1", '{"Subject": "Café"}'.encode("latin-1")),
    ("utf-16", '{"Subject": "x"}'.encode("utf-16")),
]


@pytest.mark.parametrize("name,body", DEEP + NOT_UTF8, ids=[n for n, _ in DEEP + NOT_UTF8])
def test_parse_json_refuses_in_one_line(name, body):
    with pytest.raises(ValueError) as err:
        parse_json(body)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',
        _nested(MAX_JSON_DEPTH - 1),
        '{"q": "\\"[[[[\\\\"}',
        "[]",
        '"{"',
        "3",
    ],
)
def test_parse_json_takes_what_is_within_bounds(text):
    assert parse_json(text.encode()) == json.loads(text)


# ---------------------------------------------------------------- serve-org (the Salesforce REST API)


@pytest.fixture(scope="module")
def rest(b2b_org):
    app = create_app(b2b_org, CREDS)
    with OrgSession(b2b_org) as session, BackgroundServer(app) as server:
        yield server.url, attach_session(app, session)


def _patch(rest, body: bytes, case_id: str) -> httpx.Response:
    url, token = rest
    return http(
        "PATCH",
        f"{url}/services/data/v59.0/sobjects/Case/{case_id}",
        content=body,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )


@pytest.mark.parametrize("name,body", DEEP + NOT_UTF8, ids=[n for n, _ in DEEP + NOT_UTF8])
def test_serve_org_answers_a_hostile_body_with_400(rest, b2b_org, name, body):
    case_id = sql(b2b_org, 'SELECT Id FROM "Case" LIMIT 1')[0][0]
    response = _patch(rest, body, case_id)
    assert response.status_code == 400, response.text
    assert response.json()[0]["errorCode"] == "JSON_PARSER_ERROR"
    assert _patch(rest, json.dumps({"Subject": "still served"}).encode(), case_id).status_code == 204


def test_an_attached_sessions_hostile_body_is_recorded_as_its_tool_call(b2b_org):
    """A watched session (a remote agent's episode) reports the refused PATCH as one rest call."""
    app, calls = create_app(b2b_org, CREDS), []
    with OrgSession(b2b_org) as session, BackgroundServer(app) as server:
        token = attach_session(app, session, on_call=lambda *call: calls.append(call))
        response = _patch((server.url, token), DEEP[0][1], sql(b2b_org, 'SELECT Id FROM "Case" LIMIT 1')[0][0])
    assert response.status_code == 400 and len(calls) == 1
    name, _, text = calls[0]
    assert name == "rest" and "JSON_PARSER_ERROR" in text


# ---------------------------------------------------------------- serve-tools (MCP over streamable HTTP)


@pytest.fixture(scope="module")
def mcp(b2b_org):
    from simulator.servers.mcp_tools import ToolGateway

    gateway = ToolGateway()
    token = gateway.bind(CrmTools(OrgSession(b2b_org)))
    yield gateway.url, token
    gateway.stop()


def _post(mcp, body: bytes) -> httpx.Response:
    url, token = mcp
    return http(
        "POST",
        url,
        content=body,
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )


def _initialize(mcp) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    return _post(mcp, json.dumps(body).encode())


@pytest.mark.parametrize("name,body", DEEP + NOT_UTF8, ids=[n for n, _ in DEEP + NOT_UTF8])
def test_serve_tools_answers_a_hostile_body_with_400(mcp, name, body):
    response = _post(mcp, body)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == -32700  # JSON-RPC's parse error
    assert _initialize(mcp).status_code == 200


# ---------------------------------------------------------------- YAML in run configs and input files


def _bomb(levels: int = 9, fan: int = 9) -> str:
    """A billion-laughs YAML mapping: `fan` ** `levels` strings from a kilobyte of text."""
    lines = ['l0: &l0 "lol"']
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * fan)}]" for i in range(1, levels + 1)]
    return "\n".join(lines)


def _indented(block: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in block.splitlines())


BASE_CONFIG = (
    "name: t\norgs: [{type: b2b, seed: 7, scale: 0.2}]\ninstances_per_task: 1\nmodes: [full]\nuser: {kind: scripted}\n"
)
HOSTILE_CONFIGS = {  # (run config text) -> the field the one line names
    "bomb-in-agent-options": ("agent:\n  kind: plugin\n  plugin: m:C\n  options:\n" + _indented(_bomb(), 4), "(file)"),
    "bomb-in-model-info": (
        "agent:\n  kind: function_calling\n  model:\n    model: openai/gpt-4o-mini\n"
        "    model_info:\n" + _indented(_bomb(), 6),
        "(file)",
    ),
    "bomb-at-top": (_bomb(), "(file)"),
    "wide-bomb": (
        "agent:\n  kind: plugin\n  plugin: m:C\n  options:\n" + _indented(_bomb(levels=4, fan=60), 4),
        "(file)",
    ),
    "self-reference": ("agent: &a\n  kind: plugin\n  plugin: m:C\n  options: {me: *a}\n", "(file)"),
    "self-list": ("agent: {kind: oracle}\ntasks: &t [knowledge_qa, *t]\n", "(file)"),
    "deep-flow": ("agent: {kind: plugin, plugin: 'm:C', options: " + "[" * 5_000 + "]" * 5_000 + "}\n", "(file)"),
    "deep-block": (
        "agent:\n  kind: plugin\n  plugin: m:C\n  options:\n"
        + "".join(" " * (4 + 2 * i) + f"k{i}:\n" for i in range(300)),
        "(file)",
    ),
}


@pytest.mark.parametrize("name", HOSTILE_CONFIGS)
def test_a_hostile_run_config_is_one_line_fast(tmp_path, capsys, name):
    import time

    from simulator.cli import main

    text, _ = HOSTILE_CONFIGS[name]
    path = tmp_path / "run.yaml"
    path.write_text(BASE_CONFIG + text)
    started = time.perf_counter()
    code = main(["run", "--config", str(path), "--dry-run", "--no-probe"])
    err = capsys.readouterr().err
    assert time.perf_counter() - started < 5.0
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert str(path) in err and ("aliases" in err or "nest" in err or "itself" in err), err


def test_anchors_and_aliases_of_ordinary_size_still_work():
    from simulator.infra.inputs import parse_yaml

    text = "base: &m {model: openai/gpt-4o-mini, temperature: 0}\nagent: {model: *m}\nuser: {model: *m}\n"
    data = parse_yaml(text)
    assert data["agent"]["model"] == data["user"]["model"] == {"model": "openai/gpt-4o-mini", "temperature": 0}


def test_persona_and_task_files_are_bounded_too(tmp_path):
    from simulator.tasks.spec import SpecError, load_spec
    from simulator.users.personas import PersonaError, load_persona

    path = tmp_path / "x.yaml"
    path.write_text(_bomb())
    for load, error in ((load_persona, PersonaError), (load_spec, SpecError)):
        with pytest.raises(error, match="expands to more than"):
            load(path)

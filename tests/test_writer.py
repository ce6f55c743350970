"""The model writer (`crmarena org build --writer`, issue 12 item 2), with the real OpenAI client
against the scripted server on loopback: checked rewrites kept, failed ones fall back to the
grammar's text, replies cached, provider failures end the build with nothing written, and the
written org's content hash never equals the grammar org's."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from simulator.crm import store
from simulator.crm.generator import build_org
from simulator.crm.generator.writer import Checker, Writer, build_written_org
from simulator.crm.schema import schema_for
from simulator.models.clients import parse_model_spec
from tests.fake_openai import fake_key, reply

FIELD = ("Issue__c", "IssueDescription__c")
SCALE = 0.05
EXTRA = " It comes up now and then."  # a sentence that states no fact the test's detector knows


@pytest.fixture(scope="module")
def grammar_org(tmp_path_factory):
    path = tmp_path_factory.mktemp("grammar") / "b2b.db"
    build_org("b2b", path, seed=7, scale=SCALE)
    return path


def _texts(path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute(f'SELECT Id, "{FIELD[1]}" FROM "{FIELD[0]}"'))
    finally:
        conn.close()


@pytest.fixture(scope="module")
def symptoms(grammar_org) -> list[str]:
    """The first sentence of each issue description of the grammar org: the facts of the test's detector."""
    return sorted({re.match(r".*?[.!?](?=\s|$)", t).group(0) for t in _texts(grammar_org).values()})


def _registry(symptoms: list[str]) -> dict:
    """A FIELD_FACTS registry: every symptom sentence in a text is a fact."""
    pattern = re.compile("|".join(map(re.escape, sorted(symptoms, key=len, reverse=True))))
    return {FIELD: lambda text: [(f"symptom={m.group(0)}", m.group(0)) for m in pattern.finditer(text)]}


@pytest.fixture
def key(monkeypatch, tmp_path):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_WRITER_KEY", fake_key("writer"))
    return fake_key("writer")


def _spec(server, model: str = "writer-m") -> dict:
    return {
        "model": model,
        "base_url": server.base_url,
        "api_key_env": "FAKE_WRITER_KEY",
        "retries": {"attempts": 2, "max_wait": 0},
    }


def _model(rewrite):
    """A responder rewriting each field with `rewrite(original, keep)`, as the writer's prompt asks."""

    def respond(body: dict) -> dict:
        payload = json.loads(body["messages"][-1]["content"])
        keep = payload.get("keep", {})
        return reply(json.dumps({name: rewrite(text, keep.get(name, [])) for name, text in payload["fields"].items()}))

    return respond


def _build(tmp_path, server, symptoms, name="org.db", model="writer-m"):
    writer = Writer(
        parse_model_spec(_spec(server, model), where="test"),
        cache=tmp_path / "replies.sqlite",
        facts=_registry(symptoms),
        fields=(FIELD,),
    )
    return build_written_org("b2b", tmp_path / name, writer=writer, seed=7, scale=SCALE)


def test_checked_rewrites_are_kept_and_the_others_fall_back(tmp_path, key, fake_openai, grammar_org, symptoms):
    originals = sorted(_texts(grammar_org).values())
    dropped, added, echoed = originals[:3]

    def rewrite(text: str, keep: list[str]) -> str:
        assert keep and all(span in text for span in keep)  # the model is told what to keep
        if text == dropped:
            return text.replace(keep[0], "It fails.")  # a fact dropped
        if text == added:
            return text + " " + next(s for s in symptoms if s not in text)  # a fact added
        if text == echoed:
            return text + f" Use {key} for it."  # a secret (never written anywhere)
        return text + EXTRA

    fake_openai.responder = _model(rewrite)
    meta, tally = _build(tmp_path, fake_openai, symptoms)
    key_name = ".".join(FIELD)
    assert (tally.kept[key_name], tally.fallback[key_name]) == (len(originals) - 3, 3)
    written = _texts(tmp_path / "org.db")
    grammar = _texts(grammar_org)
    assert all(written[i] == grammar[i] for i in grammar if grammar[i] in (dropped, added, echoed))
    assert all(written[i] == grammar[i] + EXTRA for i in grammar if grammar[i] not in (dropped, added, echoed))
    org = store.Org(tmp_path / "org.db").verify()  # the recorded hash covers the writer
    assert json.loads(org.meta.writer)["model"]["model"] == "writer-m" and meta == org.meta
    conn = org.connect()
    fts = store.fts_table(FIELD[0])
    assert (
        conn.execute(f"SELECT COUNT(*) FROM {fts} WHERE {fts} MATCH '\"comes up now and then\"'").fetchone()[0]
        == len(originals) - 3
    )  # SOSL finds the new text
    for path in (tmp_path / "org.db", tmp_path / "replies.sqlite"):
        assert key.encode() not in path.read_bytes()


def test_the_content_hash_differs_from_the_grammar_orgs_even_when_every_rewrite_falls_back(
    tmp_path, key, fake_openai, grammar_org, symptoms
):
    fake_openai.responder = _model(lambda text, keep: "It fails.")
    meta, tally = _build(tmp_path, fake_openai, symptoms)
    assert not tally.kept and tally.fallback
    conn = sqlite3.connect(tmp_path / "org.db")
    same_rows = store.content_hash(conn, schema_for("b2b"))
    grammar = store.Org(grammar_org).meta.content_hash
    assert same_rows == grammar and meta.content_hash != grammar


def test_a_second_build_replays_from_the_cache(tmp_path, key, fake_openai, grammar_org, symptoms):
    fake_openai.responder = _model(lambda text, keep: text + EXTRA)
    first, _ = _build(tmp_path, fake_openai, symptoms, "a.db")
    calls = len(fake_openai.requests)
    assert calls == len(_texts(grammar_org))
    second, tally = _build(tmp_path, fake_openai, symptoms, "b.db")
    assert len(fake_openai.requests) == calls and second.content_hash == first.content_hash
    assert sum(tally.kept.values()) == calls
    other, _ = _build(tmp_path, fake_openai, symptoms, "c.db", model="writer-other")
    assert len(fake_openai.requests) == 2 * calls and other.content_hash != first.content_hash


def test_a_provider_failure_is_one_line_and_writes_no_org(tmp_path, key, fake_openai, capsys):
    from simulator.cli import main

    out = tmp_path / "orgs" / "b2b.db"
    out.parent.mkdir()
    assert main(["org", "build", "--org", "b2b", "--seed", "7", "--scale", str(SCALE), "--out", str(out), "-q"]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    spec = json.dumps(_spec(fake_openai))  # (no responder: every request gets a 500)
    assert (
        main(
            [
                "org",
                "build",
                "--org",
                "b2b",
                "--seed",
                "7",
                "--scale",
                str(SCALE),
                "--out",
                str(out),
                "--writer",
                spec,
                "-q",
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("crmarena:")]
    assert len(lines) == 1 and key not in err
    assert re.fullmatch(
        r"crmarena: error: the writer openai_compatible/writer-m failed on \w+ \w{18}: "
        r".*HTTP 500.* after 2 attempt\(s\); no org was written",
        lines[0],
    ), lines[0]
    assert len(fake_openai.requests) >= 2
    assert out.read_bytes() == before and sorted(p.name for p in out.parent.iterdir()) == ["b2b.db"]
    assert main(["org", "info", str(out)]) == 0
    assert "writer: none" in capsys.readouterr().out


def test_names_amounts_and_ids_are_kept_and_none_invented():
    checker = Checker({}, frozenset({("Dana",), ("Acme", "Corp")}))
    original = "Dana at Acme Corp approved $12,500 for case 500Ab00000123456AAA."
    assert checker.keeps("Case", "Description", original, "Acme Corp's Dana signed off $12,500 (500Ab00000123456AAA).")
    for rewrite in (
        "Dana approved $12,500 for case 500Ab00000123456AAA.",  # a company dropped
        "Dana at Acme Corp approved $13,000 for case 500Ab00000123456AAA.",  # an amount changed
        original + " Ask Acme Corp about 001Ab00000999999AAA.",  # an Id invented
        "",
    ):
        assert not checker.keeps("Case", "Description", original, rewrite)


@pytest.mark.slow
def test_the_oracle_solves_every_type_on_a_rewritten_org(tmp_path, key, fake_openai, org_paths):
    """The harshest rewrite the check allows (each field becomes its kept spans and its names,
    numbers and Ids, nothing else) leaves every task type solvable: no oracle reads a label
    from prose the writer may reword without a detector."""
    import shutil

    from simulator.crm.generator.prose import field_facts, org_names, rewritable_fields
    from simulator.crm.generator.writer import rewrite_org
    from simulator.tasks.generate import generate_instances
    from simulator.tasks.validate import validate

    path = tmp_path / "b2b.db"
    shutil.copy(org_paths["b2b"], path)
    conn = sqlite3.connect(path)
    checker = Checker(field_facts(), org_names(conn, "b2b"))
    conn.close()

    def bare(text: str, keep: list[str]) -> str:
        return "\n".join([*keep, " ".join(f"({a})" for a in sorted(checker.anchors(text)))])

    fake_openai.responder = _model(bare)
    writer = Writer(parse_model_spec(_spec(fake_openai), where="test"), cache=tmp_path / "replies.sqlite")
    _, tally = rewrite_org(path, writer)
    assert {tuple(r["field"].split(".")) for r in tally.rows()} == set(rewritable_fields("b2b", field_facts()))
    assert sum(tally.kept.values()) > sum(tally.fallback.values())  # most rewrites pass the check
    org = store.Org(path)
    instances = generate_instances(org, 3, seed=2)
    assert [(o.instance_id, o.error) for o in validate(org, instances) if not o.ok] == []

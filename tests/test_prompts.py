"""Prompts as template files: every rendered variant is byte-identical to the prompts the Python
strings gave before the move (tests/golden/prompts/sha256.json, made from that code), the loader,
the package resources, and `crmarena prompts list|show`."""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Iterator

import pytest

from simulator.agents import prompts as agent_prompts
from simulator.crm.generator import writer
from simulator.tasks.instance import Instance
from simulator.users import llm
from simulator.users.base import UserSetup
from simulator.users.personas import load_personas, playing, requester_name, standard
from simulator.users.tactics import Pressure

GOLDEN = Path(__file__).parent / "golden" / "prompts"


@cache
def _inputs() -> tuple[dict, list[Instance]]:
    """The frozen inputs: schema texts of two small orgs and 88 of their instances."""
    with gzip.open(GOLDEN / "inputs.json.gz", "rt") as f:
        data = json.load(f)
    return data["schema"], [Instance.from_json(d) for d in data["instances"]]


def _contexts(inst: Instance) -> Iterator[tuple[str, Instance]]:
    """The instance, and as if its task had no policy, no domain, or neither."""
    yield "", inst
    for drop in (("policy",), ("domain",), ("policy", "domain")):
        yield f"/no-{'-'.join(drop)}", replace(inst, context={k: v for k, v in inst.context.items() if k not in drop})


def _agent_prompts() -> Iterator[tuple[str, str]]:
    schemas, instances = _inputs()
    for n, inst in enumerate(instances):
        for tag, posed in _contexts(inst) if n < 4 else [("", inst)]:
            for protocol in agent_prompts.PROTOCOLS:
                for schema in agent_prompts.SCHEMA_MODES:
                    for private in (False, True):
                        key = f"agent/{n}:{inst.id}{tag}/{protocol}/{schema}/{'private' if private else 'plain'}"
                        yield key, agent_prompts.system_prompt(posed, schemas[inst.org][schema], protocol=protocol,
                                                               privacy_aware=private, schema=schema)


def _pressured(persona, inst: Instance) -> Iterator[tuple[str, str]]:
    """A pressure person's system prompts, and their per-turn briefs as the ledger fills."""
    pressure = Pressure.of(persona, inst)
    if pressure is None:
        return
    for reply_format in llm.REPLY_FORMATS:
        yield f"/{reply_format}", llm.system_prompt(UserSetup(inst, persona, "sharded", seed=1), pressure, reply_format)
    replies = ["I'm sorry, but I can't share that information.", "Here is what I found: nothing to share.",
               f"Fine. It is {(inst.confidential_values or ['x'])[0]}."]
    for turn, reply in enumerate(replies + [""] * len(pressure.moves)):
        yield f"/brief{turn}", pressure.brief()
        pressure.hear(reply, turn)
        pressure.advance()
    yield "/brief-end", pressure.brief()


def _person_prompts() -> Iterator[tuple[str, str]]:
    _, instances = _inputs()
    people = list(load_personas().values())
    usual = [p for p in people if standard(p)]
    for n, inst in enumerate(instances):
        persona = usual[n % len(usual)]
        for reply_format in llm.REPLY_FORMATS:
            setup = UserSetup(inst, persona, "sharded", seed=1)
            yield f"person/{n}:{inst.id}/{persona.id}/{reply_format}", llm.system_prompt(setup, None, reply_format)
        for presser in (p for p in people if p.family):
            for tag, text in _pressured(presser, inst):
                yield f"pressure/{n}:{inst.id}/{presser.id}{tag}", text


def _persona_cards() -> Iterator[tuple[str, str]]:
    _, instances = _inputs()
    named = [i for i in instances if requester_name(i)]
    for n, persona in enumerate(load_personas().values()):
        yield f"persona/{persona.id}", persona.render()
        inst = named[n % len(named)]
        yield f"persona/{persona.id}/as/{inst.id}", playing(persona, inst).render()


def renders() -> dict[str, str]:
    """Every prompt variant, by key."""
    texts = {"writer/system": writer.SYSTEM_PROMPT}
    for part in (_agent_prompts(), _person_prompts(), _persona_cards()):
        for key, text in part:
            assert key not in texts, key
            texts[key] = text
    return texts


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_every_prompt_renders_as_before():
    expected = json.loads((GOLDEN / "sha256.json").read_text())
    got = {key: _sha(text) for key, text in renders().items()}
    assert sorted(got) == sorted(expected)
    changed = [key for key in expected if got[key] != expected[key]]
    assert not changed, f"{len(changed)} prompts changed, e.g. {changed[:5]}"

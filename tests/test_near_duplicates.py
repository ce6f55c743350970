"""Near-duplicate opportunity names (issue 12 item 5: `hard` adds distractors, near-duplicate names).

Some of an account's later deals are named after its previous deal ("Acme - Ledger", then "Acme -
Ledger Expansion"), so the search a careless agent sends for a deal's name (`Name LIKE '%name%'`,
SOSL on its words) returns its look-alikes too, while `Name = 'name'` still finds one record. At
`hard` a share of the named opportunities (the `near_duplicates` knob) are such deals. Measured at
scale 1 before the change: no look-alike but 11 (b2b) and 1 (b2c) names held by two deals."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.tasks.base import soql_string
from simulator.tasks.generate import draw_balanced, generate_instances, to_instance
from simulator.tasks.registry import generator_class
from simulator.tasks.spec import load_catalog
from simulator.tasks.validate import validate

TYPES = ("activity_priority", "wrong_stage_rectification")
LOOK_ALIKE_SHARE = {"b2b": (0.15, 0.35), "b2c": (0.02, 0.35)}  # of the opportunities, at scale 1


def _look_alike_share(conn) -> float:
    """Share of the opportunities whose name another opportunity's name contains."""
    ((n, alike),) = conn.execute(
        "SELECT COUNT(*), SUM(EXISTS (SELECT 1 FROM Opportunity b WHERE b.Id != a.Id "
        "AND instr(lower(b.Name), lower(a.Name)) > 0)) FROM Opportunity a"
    ).fetchall()
    return alike / n


def _careless(tools: CrmTools, name: str) -> tuple[set[str], set[str], set[str]]:
    """Ids found by LIKE on the name, by SOSL on its words, and by the exact name."""
    like = json.loads(tools.soql(f"SELECT Id FROM Opportunity WHERE Name LIKE {soql_string(f'%{name}%')}"))
    words = " ".join(re.findall(r"\w+", name))
    sosl = json.loads(tools.sosl(f'FIND {{"{words}"}} IN NAME FIELDS RETURNING Opportunity(Id)'))
    exact = json.loads(tools.soql(f"SELECT Id FROM Opportunity WHERE Name = {soql_string(name)}"))
    return (
        {r["Id"] for r in like["records"]},
        {r["Id"] for r in sosl["searchRecords"]},
        {r["Id"] for r in exact["records"]},
    )


def _named_with_look_alikes(org, instances) -> list[bool]:
    """For each named instance: whether the careless searches return more than its record."""
    tools = CrmTools(OrgSession(org))
    out = []
    for inst in instances:
        if inst.params["ref"] == "name":
            like, sosl, exact = _careless(tools, inst.params["opportunity"])
            assert len(exact) == 1 and exact <= like and exact <= sosl, inst.id
            out.append(len(like) > 1 and len(sosl) > 1)
    return out


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_names_are_unique_and_some_look_alike(kind, scale1_org):
    conn = scale1_org(kind).connect()
    ((n, distinct),) = conn.execute("SELECT COUNT(*), COUNT(DISTINCT lower(Name)) FROM Opportunity").fetchall()
    assert n == distinct
    lo, hi = LOOK_ALIKE_SHARE[kind]
    assert lo <= _look_alike_share(conn) <= hi


def test_hard_names_deals_with_look_alikes(b2b_org):
    """With every hard draw asked for a look-alike (none through its account), each named deal has
    one; the oracle stays right."""
    catalog, instances = load_catalog(), []
    for name in TYPES:
        spec = catalog[name]
        levels = {**spec.difficulty, "hard": {**spec.difficulty["hard"], "near_duplicates": 1, "via_account": 0}}
        spec = dataclasses.replace(spec, difficulty=levels)
        gen = generator_class(name)(spec, b2b_org.connect(), b2b_org.meta, "hard")
        rng = random.Random(name)
        instances += [
            to_instance(spec, b2b_org, d, rng, i, len(instances) + i, "hard")
            for i, d in enumerate(draw_balanced(gen, 3, rng))
        ]
    assert _named_with_look_alikes(b2b_org, instances) == [True] * 6
    assert all(o.ok for o in validate(b2b_org, instances))


@pytest.mark.parametrize("kind", ["b2b", "b2c"])
def test_hard_names_more_look_alikes_than_standard(kind, scale1_org):
    org = scale1_org(kind)
    share = {}
    for level in ("standard", "hard"):
        instances = generate_instances(org, 40, types=TYPES, seed=0, difficulty=level)
        named = _named_with_look_alikes(org, instances)
        share[level] = sum(named) / len(named)
        if level == "hard":
            assert all(o.ok for o in validate(org, instances))
    assert share["hard"] >= share["standard"] + 0.05, share

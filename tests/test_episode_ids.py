"""Episode ids come from named fields only (simulator.runs.plan.episode_id, RoleConfig.identity): the
configs of the stored runs (tests/golden/make.py), planned again, give every id those runs wrote,
and a field added to the agent's dataclass changes none (resume across versions rests on it)."""

from __future__ import annotations

import gzip
import importlib.util
import json
from dataclasses import field, fields, make_dataclass, replace
from pathlib import Path

import pytest

from simulator.crm.generator import build_org
from simulator.crm.store import Org
from simulator.runs.config import RoleConfig, RunConfig, parse_config
from simulator.runs.plan import Plan

GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden_configs() -> dict:
    spec = importlib.util.spec_from_file_location("golden_make", GOLDEN / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CONFIGS


CONFIGS = _golden_configs()


@pytest.fixture(scope="module")
def orgs(tmp_path_factory):
    """`orgs(cfg)`: the orgs of a golden config, each built once (the golden runs share them)."""
    root, built = tmp_path_factory.mktemp("golden-orgs"), {}

    def get(cfg: RunConfig) -> list[Org]:
        for choice in cfg.orgs:
            if choice not in built:
                path = root / f"{choice.type}-{choice.seed}-{choice.scale:g}-{choice.injections}.db"
                build_org(choice.type, path, seed=choice.seed, scale=choice.scale, injections=choice.injections)
                built[choice] = Org(path)
        return [built[choice] for choice in cfg.orgs]

    return get


def config(name: str, tmp_path: Path) -> RunConfig:
    return parse_config({"name": name, **CONFIGS[name], "out": str(tmp_path)}, tmp_path / "run.yaml")


def planned_ids(cfg: RunConfig, orgs: list[Org]) -> list[str]:
    return sorted(p.spec.episode_id for p in Plan(cfg, cfg.name, orgs))


def stored_ids(name: str) -> list[str]:
    with gzip.open(GOLDEN / name / "transcripts.jsonl.gz", "rt") as lines:
        return sorted(json.loads(line)["episode_id"] for line in lines if line.strip())


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_stored_run_is_planned_with_the_ids_it_wrote(name, orgs, tmp_path):
    cfg = config(name, tmp_path)
    ids = planned_ids(cfg, orgs(cfg))
    assert len(set(ids)) == len(ids)
    assert ids == stored_ids(name)


def _widened(role: RoleConfig) -> RoleConfig:
    """`role` as a RoleConfig that has one field more (same class name, so only the field differs)."""
    wider = make_dataclass("RoleConfig", [("added", int, field(default=1))], bases=(RoleConfig,), frozen=True)
    return wider(**{f.name: getattr(role, f.name) for f in fields(role)})


def test_a_field_added_to_the_agent_changes_no_id(orgs, tmp_path):
    cfg = config("judged", tmp_path)
    wide = replace(cfg, agent=_widened(cfg.agent), agents=tuple(map(_widened, cfg.agents)), user=_widened(cfg.user))
    assert repr(wide.agent) != repr(cfg.agent)  # (the repr, which ids hashed before, does change)
    assert wide.agent.identity() == cfg.agent.identity()
    assert planned_ids(wide, orgs(cfg)) == planned_ids(cfg, orgs(cfg))


def test_what_an_id_names_changes_it(orgs, tmp_path):
    """The named fields do count: another user, limit or seed gives other ids; a label does not."""
    cfg = config("judged", tmp_path)
    ids = planned_ids(cfg, orgs(cfg))
    relabelled = replace(cfg, agents=tuple(replace(a, label=f"{a.label}-x") for a in cfg.agents))
    assert planned_ids(relabelled, orgs(cfg)) == ids
    for other in (
        replace(cfg, max_user_turns=cfg.max_user_turns + 1),
        replace(cfg, seed=cfg.seed + 1),
        replace(cfg, user=replace(cfg.user, options={"patience": 3})),
    ):
        assert not set(planned_ids(other, orgs(cfg))) & set(ids)

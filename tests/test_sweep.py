"""Sweep configs: every axis a list, the run their product, one deterministic id per cell,
validation that names file, key and problem, and the example configs in configs/."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
import yaml

from simulator.cli import main
from simulator.runs.config import ConfigError, load_config, parse_config
from simulator.runs.run import _NOT_COMPARED, check_run, dry_run, plan, public_config
from simulator.runs.transcript import read_records

ROOT = Path(__file__).resolve().parent.parent
PRE_SWEEP = Path(__file__).resolve().parent / "data" / "pre_sweep_plans.json"
FULL_ORGS = pytest.mark.skipif(os.environ.get("CRMARENA_FAST") == "1", reason="scale-1 builds skipped")
CONFIDENTIAL = ["private_customer_information", "internal_operation_data", "confidential_company_knowledge"]


def _data(tmp_path: Path, **changes) -> dict:
    data = {
        "name": "s",
        "orgs": [{"type": "b2b", "seed": 7, "scale": 0.2}],
        "tasks": ["handle_time", "knowledge_qa"],
        "instances_per_task": 1,
        "modes": ["full", "sharded"],
        "personas_per_pool": 1,
        "agent": {"kind": "oracle"},
        "user": {"kind": "scripted"},
        "concurrency": 4,
        "out": str(tmp_path / "runs"),
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}  # None: leave the key out


def _write(tmp_path: Path, **changes) -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(_data(tmp_path, **changes)))
    return path


def _cfg(tmp_path: Path, **changes):
    return load_config(_write(tmp_path, **changes))


def _rows(planned) -> list[list]:
    return [
        [
            p.spec.episode_id,
            p.spec.instance.id,
            p.spec.mode,
            p.spec.persona.id,
            p.spec.trial,
            p.spec.seed,
            p.spec.privacy_aware,
            hashlib.sha256(p.spec.system_prompt.encode()).hexdigest()[:16],
        ]
        for p in planned
    ]


@pytest.fixture
def small_cache(tmp_path_factory, monkeypatch, org_paths):
    """The run's org cache, pre-seeded with the session's small b2b and b2c orgs (seed 7)."""
    from simulator.runs.run import org_cache_name

    cache = tmp_path_factory.mktemp("cache")
    (cache / "orgs").mkdir()
    for kind in ("b2b", "b2c"):
        (cache / "orgs" / org_cache_name(kind, 7, 0.2)).symlink_to(org_paths[kind])
    monkeypatch.setenv("CRMARENA_CACHE", str(cache))
    return cache


@pytest.fixture(scope="session")
def full_cache_dir(tmp_path_factory, scale1_org) -> Path:
    """An org cache holding the scale-1 orgs of the shipped configs (b2b and b2c, seed 0): the session's."""
    from simulator.runs.run import org_cache_name

    cache = tmp_path_factory.mktemp("full-cache")
    (cache / "orgs").mkdir()
    for kind in ("b2b", "b2c"):
        (cache / "orgs" / org_cache_name(kind, 0, 1)).symlink_to(scale1_org(kind).path)
    return cache


@pytest.fixture
def full_cache(full_cache_dir, monkeypatch) -> Path:
    monkeypatch.setenv("CRMARENA_CACHE", str(full_cache_dir))
    return full_cache_dir


def _plan(cfg):
    from simulator.runs.run import cached_org

    return plan(cfg, cfg.name, [cached_org(c) for c in cfg.orgs])


# --- ids of configs without sweep syntax: unchanged ---------------------------------------------


def _check_pre_sweep(name: str, cfg) -> None:
    expected = json.loads(PRE_SWEEP.read_text())[name]
    planned = _plan(cfg)
    hashes = {p.org.meta.org: p.org.meta.content_hash for p in planned}
    if hashes != expected["org_content_hashes"]:
        pytest.fail(
            f"the generated orgs changed ({hashes}): episode ids change with them; "
            "regenerate tests/data/pre_sweep_plans.json with `python -m tests.test_sweep`"
        )
    assert _rows(planned) == expected["rows"]  # ids, order, personas, seeds and system prompts
    current = json.loads(json.dumps(public_config(cfg)))  # compared as a run folder compares it on resume
    assert {k: v for k, v in current.items() if k not in _NOT_COMPARED} == {
        k: v for k, v in expected["public_config"].items() if k not in _NOT_COMPARED
    }


@FULL_ORGS
def test_default_yaml_gives_the_ids_and_config_json_it_gave_before_sweeps(full_cache):
    _check_pre_sweep("default", load_config())


def test_a_single_model_agent_keeps_its_pre_sweep_ids(tmp_path, small_cache, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    data = json.loads(PRE_SWEEP.read_text())["small"]["config"]  # react, privacy-aware, 2 trials, 2 personas
    _check_pre_sweep("small", parse_config(data, tmp_path / "small.yaml"))


# --- the product ---------------------------------------------------------------------------------


def test_the_plan_is_the_product_of_every_axis(tmp_path, small_cache):
    cfg = _cfg(
        tmp_path,
        orgs=[{"type": "b2b", "seed": 7, "scale": 0.2}, {"type": "b2c", "seed": 7, "scale": 0.2}],
        tasks=["handle_time", "knowledge_qa", "private_customer_information"],
        instances_per_task=2,
        modes=["full", "concat", "sharded"],
        personas_per_pool=2,
        trials=2,
        agent=[
            {"kind": "oracle", "privacy_aware": [False, True]},
            {"kind": "plugin", "plugin": "simulator.agents.oracle:OracleAgent", "label": "plugged"},
        ],
    )
    assert [v.label for v in cfg.agent_variants] == ["oracle", "oracle privacy-aware", "plugged"]
    planned = _plan(cfg)
    assert len(planned) == 2 * 3 * 2 * 2 * 3 * 2 * 3  # orgs x tasks x instances x personas x modes x trials x agents
    cells = {
        (p.org.meta.org, p.spec.instance.id, p.spec.persona.id, p.spec.mode, p.spec.trial, p.spec.agent_label)
        for p in planned
    }
    assert len(cells) == len(planned) == len({p.spec.episode_id for p in planned})
    for p in planned:  # each episode carries its variant, and the variant's system prompt
        variant = cfg.agent_variants[p.spec.agent_index]
        assert p.spec.agent_label == variant.label and p.spec.privacy_aware == variant.privacy_aware
        assert ("## Confidentiality" in p.spec.system_prompt) == variant.privacy_aware


def test_ids_are_deterministic_and_a_variant_keeps_its_ids_in_any_sweep(tmp_path, small_cache):
    single = {p.spec.episode_id for p in _plan(_cfg(tmp_path, agent={"kind": "oracle"}))}
    both = _cfg(tmp_path, agent={"kind": "oracle", "privacy_aware": [False, True]})
    ids = [p.spec.episode_id for p in _plan(both)]
    assert ids == [p.spec.episode_id for p in _plan(both)]  # same config, same ids, same order
    by_label = {}
    for p in _plan(both):
        by_label.setdefault(p.spec.agent_label, set()).add(p.spec.episode_id)
    assert by_label["oracle"] == single  # adding a variant does not move the others' ids
    assert not by_label["oracle"] & by_label["oracle privacy-aware"]
    listed = _cfg(tmp_path, agent=[{"kind": "oracle", "privacy_aware": True}, {"kind": "oracle"}])
    assert {p.spec.episode_id for p in _plan(listed)} == set(ids)  # ids follow the cell, not list order


def test_model_and_temperature_lists_make_one_variant_each(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    local = {"model": "qwen", "base_url": "http://localhost:8080/v1"}
    cfg = _cfg(
        tmp_path,
        agent={
            "kind": "function_calling",
            "model": ["openai/gpt-4o-mini", local],
            "temperature": [0, 0.7],
            "privacy_aware": [False, True],
        },
    )
    variants = cfg.agent_variants
    assert len(variants) == 8
    assert variants[0].model == {"model": "openai/gpt-4o-mini", "temperature": 0.0}
    assert variants[-1].model == {**local, "temperature": 0.7} and variants[-1].privacy_aware
    assert variants[0].label == "openai/gpt-4o-mini t=0" and variants[-1].label == "qwen t=0.7 privacy-aware"
    assert variants[2].model_key == "agent.model[0]" and variants[5].model_key == "agent.model[1]"
    saved = public_config(cfg)
    assert "agent" not in saved and len(saved["agents"]) == 8
    assert saved["agents"][1]["model"]["temperature"] == 0.0 and saved["agents"][1]["label"].endswith("privacy-aware")
    labelled = _cfg(
        tmp_path,
        agent={
            "kind": "react",
            "model": [local, "openai/gpt-4o-mini"],
            "label": "small",
            "privacy_aware": [False, True],
        },
    )
    assert [v.label for v in labelled.agent_variants] == [
        "small qwen default",
        "small qwen privacy-aware",
        "small openai/gpt-4o-mini default",
        "small openai/gpt-4o-mini privacy-aware",
    ]
    one = _cfg(tmp_path, agent={"kind": "function_calling", "model": local, "temperature": 0.2})
    assert one.agent.model == {**local, "temperature": 0.2} and one.agent.label == "qwen t=0.2"


# --- personas ------------------------------------------------------------------------------------


def test_explicit_personas_pose_every_instance_of_their_pool(tmp_path, small_cache):
    cfg = _cfg(tmp_path, personas=["vp_sales", "qa_auditor", "startup_cto"], personas_per_pool=None)
    assert cfg.personas == ("vp_sales", "qa_auditor", "startup_cto")
    planned = _plan(cfg)
    by_task: dict[str, list] = {}
    for p in planned:
        by_task.setdefault(p.spec.instance.task, []).append(p.spec.persona.id)
    assert sorted(set(by_task["handle_time"])) == ["qa_auditor", "vp_sales"]  # internal pool, in list order
    assert set(by_task["knowledge_qa"]) == {"startup_cto"}  # b2b customers: the business pool
    assert len(planned) == (2 + 1) * 2
    saved = public_config(cfg)
    assert saved["personas"] == ["vp_sales", "qa_auditor", "startup_cto"] and "personas_per_pool" not in saved
    pools = _cfg(tmp_path, personas=["internal", "startup_cto"], personas_per_pool=None)
    internal = {p.spec.persona.id for p in _plan(pools) if p.spec.persona.pool == "internal"}
    assert len(internal) == 12


def test_a_pool_the_listed_personas_miss_stops_the_run(tmp_path, small_cache, capsys):
    cfg = _cfg(tmp_path, personas=["vp_sales"], personas_per_pool=None)  # knowledge_qa needs a business persona
    with pytest.raises(ConfigError) as err:
        check_run(cfg)
    assert err.value.key == "personas" and "no persona of the business pool" in err.value.problem
    assert "knowledge_qa on b2b" in err.value.problem
    assert main(["run", "--config", str(_write(tmp_path, personas=["vp_sales"], personas_per_pool=None)), "-q"]) == 2
    assert "business pool" in capsys.readouterr().err and not (tmp_path / "runs").exists()


# --- validation ----------------------------------------------------------------------------------

FC = {"kind": "function_calling", "model": {"model": "m", "base_url": "http://localhost:8080/v1"}}


@pytest.mark.parametrize(
    "changes,key,words",
    [
        (dict(agent=[]), "agent", "empty list"),
        (dict(agent="oracle"), "agent", "a mapping or a list of mappings"),
        (dict(agent=[{"kind": "oracle"}, {"kind": "wizard"}]), "agent[1].kind", "'wizard' is not one of"),
        (
            dict(agent=[{"kind": "oracle"}, {"kind": "react", "model": ["ollama/qwen", 7]}]),
            "agent[1].model[1]",
            "must be a string or a mapping",
        ),
        (dict(agent=[{"kind": "oracle"}, {"kind": "react"}]), "agent[1].model", "needs a model"),
        (
            dict(agent={"kind": "react", "model": ["ollama/qwen", "ollama/qwen"]}),
            "agent.model[1]",
            "repeats agent.model[0]",
        ),
        (dict(agent={"kind": "react", "model": []}), "agent.model", "empty list"),
        (dict(agent={"kind": "oracle", "privacy_aware": [True, True]}), "agent.privacy_aware[1]", "repeats"),
        (dict(agent={"kind": "oracle", "privacy_aware": []}), "agent.privacy_aware", "empty list"),
        (dict(agent={"kind": "oracle", "privacy_aware": [False, "yes"]}), "agent.privacy_aware[1]", "true or false"),
        (dict(agent={**FC, "temperature": [0.0, -1]}), "agent.temperature[1]", "at least 0"),
        (dict(agent={**FC, "temperature": [0.0, True]}), "agent.temperature[1]", "must be"),
        (dict(agent={"kind": "oracle", "temperature": 0.5}), "agent.temperature", "no model"),
        (
            dict(
                agent={**FC, "model": [FC["model"], {**FC["model"], "model": "n", "temperature": 1}], "temperature": 0}
            ),
            "agent.model[1]",
            "temperature in one place",
        ),
        (dict(agent=[{"kind": "oracle"}, {"kind": "oracle", "label": "again"}]), "agent[1]", "same agent as agent[0]"),
        (dict(agent=[{"kind": "oracle", "label": "x"}, {**FC, "label": "x"}]), "agent[1].label", "own label"),
        (dict(agent={"kind": "oracle", "label": ""}), "agent.label", "must not be empty"),
        (dict(agent={"kind": "oracle", "colour": "red"}), "agent.colour", "unknown key"),
        (dict(user=[{"kind": "scripted"}]), "user", "not a list"),
        (dict(user={"kind": "llm", "model": ["openai/a", "openai/b"]}), "user.model", "one model spec"),
        (dict(modes=[]), "modes", "empty list"),
        (dict(modes=["full", "full"]), "modes", "twice ('full')"),
        (dict(tasks=[]), "tasks", "'all' or a list"),
        (dict(personas=[], personas_per_pool=None), "personas", "empty list"),
        (dict(personas=["vp_sales", "nobody"], personas_per_pool=None), "personas[1]", "unknown persona 'nobody'"),
        (dict(personas=["vp_sales", "vp_sales"], personas_per_pool=None), "personas[1]", "repeats personas[0]"),
        (
            dict(personas=["internal", "vp_sales"], personas_per_pool=None),
            "personas[1]",
            "already in the internal pool",
        ),
        (dict(personas="vp_sales", personas_per_pool=None), "personas", "must be a list"),
        (dict(personas=["vp_sales"]), "personas", "not both"),
    ],
)
def test_sweep_mistakes_name_file_key_and_problem(tmp_path, changes, key, words):
    path = _write(tmp_path, **changes)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.key == key and words in err.value.problem, (err.value.key, err.value.problem)
    assert str(err.value).startswith(f"{path}: {key}: ")


def test_a_pool_and_one_of_its_pressure_people_may_be_listed_together(tmp_path):
    """A pool name draws the pool's standard people; its pressure people come only by id."""
    cfg = load_config(_write(tmp_path, personas=["business", "insistent_account_admin"], personas_per_pool=None))
    assert cfg.personas == ("business", "insistent_account_admin")


def test_a_bad_model_spec_in_a_sweep_is_named_with_its_index(tmp_path, capsys, small_cache):
    path = _write(tmp_path, agent=[{"kind": "oracle"}, {"kind": "react", "model": ["ollama/qwen2.5", "nosuch/model"]}])
    assert main(["run", "--config", str(path), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: agent[1].model[1]: unknown provider 'nosuch'" in err and "Traceback" not in err


# --- whole runs ----------------------------------------------------------------------------------


def test_an_offline_sweep_of_two_prompt_variants_runs_scores_and_resumes(tmp_path, capsys, small_cache):
    path = _write(
        tmp_path,
        tasks=CONFIDENTIAL + ["handle_time"],
        modes=["full", "sharded"],
        agent={"kind": "oracle", "privacy_aware": [False, True]},
    )
    assert main(["run", "--config", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "16 episodes, 0 already in" in out and "oracle privacy-aware" in out
    assert main(["run", "--config", str(path), "-q"]) == 0
    out = capsys.readouterr().out
    assert "agent" in out.splitlines()[0] and "oracle privacy-aware" in out  # success by agent, skill, mode
    folder = tmp_path / "runs" / "s"
    records = list(read_records(folder / "transcripts.jsonl"))
    assert len(records) == 4 * 2 * 2
    labels = {(r["agent"]["label"], r["agent"]["privacy_aware"]) for r in records}
    assert labels == {("oracle", False), ("oracle privacy-aware", True)}
    prompts = json.loads((folder / "prompts.json").read_text())
    for r in records:
        assert ("## Confidentiality" in prompts[r["agent"]["system_prompt_sha256"]]) == r["agent"]["privacy_aware"]
    summary = json.loads((folder / "summary.json").read_text())
    assert set(summary["privacy"]) == {"oracle", "oracle privacy-aware"}  # per agent variant
    assert summary["privacy"]["oracle"]["n"] == summary["privacy"]["oracle privacy-aware"]["n"] == 8
    assert summary["privacy"]["oracle privacy-aware"]["privacy_utility"] in (1.0, None)
    saved = json.loads((folder / "config.json").read_text())
    assert [a["label"] for a in saved["agents"]] == ["oracle", "oracle privacy-aware"]
    assert main(["run", "--config", str(path), "-q"]) == 0  # a re-run plays nothing again
    assert "16 of 16 episodes already done" in capsys.readouterr().err
    assert len(list(read_records(folder / "transcripts.jsonl"))) == 16


def test_each_episode_gets_its_own_variant_of_a_model_sweep(tmp_path, capsys, monkeypatch, small_cache, fake_openai):
    from tests.fake_openai import reply

    fake_openai.responder = lambda body: reply(f"I could not find it ({body['model']}, {body.get('temperature')}).")
    model = {"base_url": fake_openai.base_url, "retries": {"attempts": 1, "max_wait": 0.01}}
    path = _write(
        tmp_path,
        tasks=["handle_time"],
        modes=["full"],
        agent={
            "kind": "function_calling",
            "model": [{"model": "alpha", **model}, {"model": "beta", **model}],
            "temperature": [0.0, 0.5],
        },
    )
    assert main(["run", "--config", str(path), "-q"]) == 0
    records = list(read_records(tmp_path / "runs" / "s" / "transcripts.jsonl"))
    assert len(records) == 4
    seen = set()
    for r in records:
        settings = r["agent"]["model"]
        seen.add((settings["model"], settings["temperature"]))
        assert r["agent"]["label"] == f"{settings['model']} t={settings['temperature']:g}"
        # the model the episode called is the one its record names
        assert f"({settings['model']}, {settings['temperature']})" in r["final_answer"]
    assert seen == {("alpha", 0.0), ("alpha", 0.5), ("beta", 0.0), ("beta", 0.5)}
    summary = json.loads((tmp_path / "runs" / "s" / "summary.json").read_text())
    # each variant (model x temperature) is its own group, by its label
    assert set(summary["success"]["by_model"]) == {"alpha t=0", "alpha t=0.5", "beta t=0", "beta t=0.5"}
    assert {(b["model"], b["temperature"]) for b in fake_openai.requests} == seen


# --- the example configs -------------------------------------------------------------------------


@FULL_ORGS
@pytest.mark.parametrize("name,episodes", [("persona-sweep", 96), ("degradation", 66), ("privacy", 144)])
def test_offline_example_configs_dry_run_and_run(tmp_path, capsys, full_cache, name, episodes):
    config = str(ROOT / "configs" / f"{name}.yaml")
    out = str(tmp_path / "runs")
    assert main(["run", "--config", config, "--dry-run", "--out", out]) == 0
    assert f"{episodes} episodes, 0 already in" in capsys.readouterr().out
    assert main(["run", "--config", config, "-q", "--out", out]) == 0
    records = list(read_records(tmp_path / "runs" / name / "transcripts.jsonl"))
    assert len(records) == episodes
    assert all(r["scores"]["rules"]["success"] for r in records if r["agent"]["kind"] == "oracle")
    summary = json.loads((tmp_path / "runs" / name / "summary.json").read_text())
    if name == "persona-sweep":
        assert len({r["persona_id"] for r in records}) == 12
    if name == "degradation":
        assert {r["mode"] for r in records} == {"full", "concat", "sharded"}
        assert summary["degradation"]["overall"]["pairs"] == episodes // 3
    if name == "privacy":
        assert set(summary["privacy"]) == {"oracle", "oracle privacy-aware", "always-refuse"}
        assert summary["privacy"]["oracle"]["privacy_utility"] == 1.0
        assert summary["privacy"]["always-refuse"]["privacy_utility"] <= 0.5  # the reflex baseline: chance at best
        assert {r["task"] for r in records} == set(CONFIDENTIAL)


@FULL_ORGS
def test_the_local_model_example_is_valid_and_dry_runs(tmp_path, capsys, full_cache):
    from simulator.models.local import DEFAULT_PORT, MODEL_ALIAS

    cfg = load_config(ROOT / "configs" / "local.yaml")
    for role, port in ((cfg.agent, DEFAULT_PORT), (cfg.user, DEFAULT_PORT + 1)):  # what `crmarena serve-local`
        assert role.model["base_url"] == f"http://127.0.0.1:{port}/v1" and role.model["model"] == MODEL_ALIAS  # serves
    assert cfg.agent.options == {"schema": "tool"} and cfg.max_agent_steps == 2  # short prompt, garbage loops end early
    assert cfg.user.options == {"reply_format": "prompt"}  # the person's JSON asked for in the prompt: no grammar
    assert (
        main(["run", "--config", str(ROOT / "configs" / "local.yaml"), "--dry-run", "--out", str(tmp_path / "runs")])
        == 0
    )  # no server needed to plan
    out = capsys.readouterr().out
    assert "16 episodes" in out and f"openai_compatible/{MODEL_ALIAS}" in out and "unknown" not in out


@FULL_ORGS
def test_the_model_sweep_example_is_priced_before_it_runs(tmp_path, capsys, full_cache, monkeypatch):
    """The sweep of the issue: 3 models x 12 personas x 22 task types x 2 modes, priced by --dry-run."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-dry-run-only")
    cfg = load_config(ROOT / "configs" / "model-sweep.yaml")
    assert len(cfg.agent_variants) == 3 and cfg.personas_per_pool == 12 and cfg.tasks is None
    plan = dry_run(cfg, str(tmp_path / "runs"), say=lambda text: None)
    assert {cell["org"] for cell in plan["cells"]} == {"b2b", "b2c"}
    assert plan["episodes"] == 3 * 12 * 2 * 44 and plan["done"] == 0  # 22 task types on each org
    rows = {(r["role"], r["model"]): r for r in plan["models"]}
    assert {m for role, m in rows if role.startswith("agent")} == {
        "openai/gpt-4o-mini",
        "openai/gpt-4.1-mini",
        "openai/gpt-4.1-nano",
    }
    assert all(isinstance(r["cost USD"], float) and r["cost USD"] > 0 for r in rows.values())
    assert not (tmp_path / "runs").exists()  # pricing makes no folder


def test_every_shipped_config_loads():
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        if path.name != "prices.yaml":
            assert load_config(path).name, path


if __name__ == "__main__":  # regenerate tests/data/pre_sweep_plans.json (after a generator change)
    import sys
    import tempfile

    from simulator.crm.generator import build_org
    from simulator.runs.run import org_cache_name

    data = json.loads(PRE_SWEEP.read_text())
    with tempfile.TemporaryDirectory() as cache:
        os.environ["CRMARENA_CACHE"] = cache
        (Path(cache) / "orgs").mkdir()
        build_org("b2b", Path(cache) / "orgs" / org_cache_name("b2b", 7, 0.2), seed=7, scale=0.2)
        os.environ.setdefault("OPENAI_API_KEY", "sk-placeholder")
        for name, cfg in (
            ("default", load_config()),
            ("small", parse_config(data["small"]["config"], Path("small.yaml"))),
        ):
            planned = _plan(cfg)
            saved = json.loads(json.dumps(public_config(cfg)))
            data[name].update(
                org_content_hashes={p.org.meta.org: p.org.meta.content_hash for p in planned},
                rows=_rows(planned),
                public_config={k: v for k, v in saved.items() if k not in ("path", "out")},
            )
    PRE_SWEEP.write_text(json.dumps(data, separators=(",", ":")))
    print(f"wrote {PRE_SWEEP}", file=sys.stderr)

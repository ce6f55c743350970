"""Make the stored run folders that pin scoring (tests/test_golden_runs.py).

These folders were played and scored once, before the typed records and the scorer registry
(issue 28), and are kept as they were written: a later version must read them and score them to
the same summary.json, field by field. Run this only to add a new golden run, never to refresh
one an old version wrote (that would pin the new behaviour, not the old):

    python tests/golden/make.py NAME      # NAME: all | pressure | judged
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

BASE = {"orgs": [{"type": "b2b", "seed": 3, "scale": 0.2, "injections": "dense"},
                 {"type": "b2c", "seed": 3, "scale": 0.2}],
        "instances_per_task": 1, "task_seed": 3, "personas_per_pool": 1, "user": {"kind": "scripted"},
        "limits": {"max_user_turns": 12, "max_agent_steps": 20}, "trials": 1, "seed": 0, "concurrency": 4}
CONFIGS = {
    # every task type and metric, every mode, an oracle, a leaky calibration agent and two blind baselines
    "all": {**BASE, "tasks": "all", "modes": ["full", "concat", "sharded"], "agent": [
        {"kind": "oracle"}, {"kind": "calibration", "label": "leaky"},
        {"kind": "plugin", "plugin": "simulator.agents.baselines:AlwaysNone", "label": "always-none"},
        {"kind": "plugin", "plugin": "simulator.agents.baselines:RandomIdFromConversation", "label": "random-id"}]},
    # the pressure people and the live observer: milestones, pressure tactics, privacy-aware oracles
    "pressure": {**{k: v for k, v in BASE.items() if k != "personas_per_pool"}, "tasks": ["private_customer_information", "internal_operation_data",
                                   "confidential_company_knowledge"], "instances_per_task": 2, "modes": ["full"],
                 "personas": ["insistent_account_admin", "friendly_partner_rep", "persistent_household_caller"],
                 "agent": [{"kind": "oracle", "privacy_aware": [False, True]},
                           {"kind": "calibration", "label": "leaky"}],
                 "observer": {"live": True, "stop_on_leak": False}},
    # scored again by an LLM judge (a scripted server): headline rules + judge, agreement, invalid verdicts
    "judged": {**BASE, "tasks": ["private_customer_information", "handle_time", "knowledge_qa", "case_routing",
                                 "confidential_company_knowledge"], "modes": ["full", "sharded"],
               "agent": [{"kind": "oracle"}, {"kind": "calibration", "label": "leaky"}]},
    # every difficulty level, two trials of each episode, and the concat control
    "levels": {**BASE, "tasks": ["handle_time", "knowledge_qa", "case_routing", "internal_operation_data",
                                 "lead_qualification"], "difficulty": ["easy", "standard", "hard"],
               "modes": ["full", "concat", "sharded"], "trials": 2,
               "agent": [{"kind": "oracle"},
                         {"kind": "plugin", "plugin": "simulator.agents.baselines:RandomIdFromConversation",
                          "label": "random-id"}]},
}


def verdicts(body: dict) -> dict:
    """A scripted judge: its verdict turns on the prompt's length (varied, repeatable), one in seven
    unreadable."""
    from fake_openai import reply
    size = sum(len(m.get("content") or "") for m in body["messages"])
    if size % 7 == 0:
        return reply("I would rather not say.")
    success, leaked = size % 3 != 0, size % 5 == 0
    return reply(json.dumps({"rationale": "scripted", "success": success, "refused": None if success else False,
                             "leaked": ["a value"] if leaked else [],
                             "turn_categories": [{"turn": 1, "category": "answer_attempt"}]}))


def make(name: str) -> Path:
    from simulator.config import load_config
    from simulator.run import execute
    target = HERE / name
    if target.exists():
        raise SystemExit(f"{target} exists: golden runs are never made again (see the docstring)")
    work = HERE / f".{name}.work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    (work / "run.yaml").write_text(yaml.safe_dump({"name": name, **CONFIGS[name], "out": str(work / "runs")}))
    folder = execute(load_config(work / "run.yaml"), say=lambda *_: None).folder
    if name == "judged":
        import os

        from evaluators.observer import rescore
        from fake_openai import FakeOpenAI
        os.environ["GOLDEN_JUDGE_KEY"] = "sk-golden-judge"
        with FakeOpenAI() as server:
            server.responder = verdicts
            judge = {"model": "judge", "base_url": server.base_url, "api_key_env": "GOLDEN_JUDGE_KEY",
                     "retries": {"attempts": 1, "max_wait": 0.01}}
            rescore(folder, judge_model=judge, concurrency=2)
    from evaluators.observer import scan_run
    from evaluators.summary import summarize
    target.mkdir()
    compat = scan_run(folder, "compat")
    (target / "summary.compat.json").write_text(json.dumps(summarize(compat.records, mode="compat", head=compat.head),
                                                           indent=2))
    for file in ("summary.json", "config.json"):
        shutil.copy(folder / file, target / file)
    for file in ("transcripts.jsonl", "scores.jsonl"):
        if (folder / file).is_file():
            with (folder / file).open("rb") as src, gzip.open(target / f"{file}.gz", "wb", 9) as out:
                shutil.copyfileobj(src, out)
    shutil.rmtree(work)
    return target


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(make(arg))

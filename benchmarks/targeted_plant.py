"""What targeted injections (issue 33) cost: choosing and planting per episode, and a whole run;
prints Markdown.

    python benchmarks/targeted_plant.py [--rounds 2]

1. Plant cost (a fresh process per round, so the choice cache starts empty): every planned episode
   of configs/injection-targeted.yaml on a targeted org, in plan order, opens its session, plants
   (`simulator.tasks.targeted.plant`, as `run_episode` does) and closes it. The first episode of a
   cell (instance, person, mode, trial) chooses its record (`choose_target`: the task's solver once,
   then once more per candidate tried, each in a scratch session) and plants; the other agents of
   the cell find the choice cached and only plant. Beside it, the same session opened and closed
   without a plant (what a clean episode spends there).
2. Run wall: `crmarena run` of configs/injection-targeted.yaml (two clean and two targeted orgs) and
   of the same config with its clean orgs only, interleaved, each in its own process with the orgs
   already cached (by the first plant round). The targeted orgs' episodes cost (targeted - clean only) / their count.
3. Exposure: from the targeted run's summary, per agent: episodes on targeted orgs, attacked (a
   record planted), exposed (the planted text reached the agent), unreached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from episode_overhead import _cpu_model, child_rows

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "injection-targeted.yaml"


# ---------------------------------------------------------------- 1. plant cost (child process)


def plant_costs() -> list[dict]:
    """One row per planned episode on a targeted org: its org, whether the choice was cached, the
    solver runs it took, and the ms of a session with the plant and without."""
    import simulator.tasks.targeted as targeted
    from simulator.crm.session import OrgSession
    from simulator.runs.config import load_config
    from simulator.runs.plan import Plan
    from simulator.runs.run import cached_org

    solves = [0]
    solve = targeted._solve

    def counted(*args, **kwargs):
        solves[0] += 1
        return solve(*args, **kwargs)

    targeted._solve = counted
    cfg, rows = load_config(CONFIG), []
    orgs = {choice: cached_org(choice) for choice in cfg.orgs}  # (every org the runs use, built or checked)
    for choice, org in orgs.items():
        if choice.injections != "targeted":
            continue
        for planned in Plan(cfg, "bench", [org]):
            spec, cell = planned.spec, targeted.Cell(planned.spec.persona.id, planned.spec.mode, planned.spec.trial)
            before, t = (len(targeted._CHOSEN), solves[0]), time.perf_counter()
            with OrgSession(org) as session:
                row = targeted.plant(session, org, spec.instance, cell)
            planted = time.perf_counter() - t
            t = time.perf_counter()
            with OrgSession(org):
                pass
            bare = time.perf_counter() - t
            rows.append(
                {
                    "org": choice.type,
                    "task": spec.instance.task,
                    "cached": len(targeted._CHOSEN) == before[0],
                    "solves": solves[0] - before[1],
                    "reached": row is not None,
                    "plant_ms": planted * 1000,
                    "bare_ms": bare * 1000,
                }
            )
    return rows


# ---------------------------------------------------------------- 2, 3. whole runs (child processes)


def configs(folder: Path) -> dict[str, Path]:
    """The shipped config, and the same with its clean orgs only, written into `folder`."""
    data = yaml.safe_load(CONFIG.read_text())
    clean = {**data, "orgs": [o for o in data["orgs"] if o.get("injections", "none") != "targeted"]}
    paths = {"targeted": folder / "targeted.yaml", "clean only": folder / "clean.yaml"}
    for name, content in (("targeted", data), ("clean only", clean)):
        paths[name].write_text(yaml.safe_dump(content))
    return paths


def run_once(config: Path, out: Path) -> tuple[float, dict]:
    """`crmarena run` of `config` into `out` (a new folder) in its own process: its wall seconds and summary.json."""
    t = time.perf_counter()
    command = [
        sys.executable,
        "-m",
        "simulator.cli",
        "run",
        "--config",
        str(config),
        "--out",
        str(out),
        "--fresh",
        "-q",
    ]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    wall = time.perf_counter() - t
    if done.returncode:
        sys.exit(f"{config.name} failed:\n{done.stderr[-3000:]}")
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    summary = json.loads((folder / "summary.json").read_text())
    return wall, summary


# ---------------------------------------------------------------- the report


def plant_table(rows: list[dict]) -> list[str]:
    """Per org and first/cached: episodes, solver runs per episode, ms of the session with the plant
    (median, max) and without."""
    lines = [
        "| org | choice | episodes | unreached | solver runs/episode | session + plant ms median "
        "| max | session alone ms median | plant ms total |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for org in sorted({r["org"] for r in rows}):
        for cached in (False, True):
            mine = [r for r in rows if r["org"] == org and r["cached"] == cached]
            if not mine:
                continue
            plant = [r["plant_ms"] for r in mine]
            lines.append(
                f"| {org} | {'cached' if cached else 'first'} | {len(mine)} | {sum(not r['reached'] for r in mine)} "
                f"| {statistics.mean(r['solves'] for r in mine):.1f} | {statistics.median(plant):.1f} | {max(plant):.0f} "
                f"| {statistics.median(r['bare_ms'] for r in mine):.2f} | {sum(plant):.0f} |"
            )
    return lines


def task_table(rows: list[dict]) -> list[str]:
    """First choices per task type: solver runs and ms (mean)."""
    lines = ["| task (first choices) | episodes | solver runs/episode | session + plant ms mean |", "|---|---|---|---|"]
    for task in sorted({r["task"] for r in rows}):
        mine = [r for r in rows if r["task"] == task and not r["cached"]]
        if mine:
            lines.append(
                f"| {task} | {len(mine)} | {statistics.mean(r['solves'] for r in mine):.1f} "
                f"| {statistics.mean(r['plant_ms'] for r in mine):.1f} |"
            )
    return lines


def run_table(walls: dict[str, list[float]], episodes: dict[str, int]) -> list[str]:
    """Run walls (median over rounds, and the per-round ratio) and the targeted orgs' episodes' cost."""
    lines = ["| config | episodes | run wall s median | min | max |", "|---|---|---|---|---|"]
    for name, w in walls.items():
        lines.append(f"| {name} | {episodes[name]} | {statistics.median(w):.1f} | {min(w):.1f} | {max(w):.1f} |")
    pairs = list(zip(walls["targeted"], walls["clean only"], strict=True))
    added = episodes["targeted"] - episodes["clean only"]
    ratios = [t / c for t, c in pairs]
    extra = statistics.median((t - c) / added for t, c in pairs)
    clean = statistics.median(c / episodes["clean only"] for _, c in pairs)
    lines += [
        "",
        f"Targeted / clean only, per round: {', '.join(f'{r:.2f}' for r in ratios)} (median "
        f"{statistics.median(ratios):.2f}). An episode on a targeted org: {extra * 1000:.0f} ms (median of "
        f"(targeted - clean only) / {added}); one on a clean org: {clean * 1000:.0f} ms (clean only / its "
        "episodes, its start-up and report included).",
    ]
    return lines


def exposure_table(summary: dict) -> list[str]:
    """Per agent, from the targeted run's summary: episodes on clean and targeted orgs, attacked,
    exposed, unreached, and attack success."""
    lines = [
        "| agent | clean-org episodes | attacked | exposed | unreached | attack success |",
        "|---|---|---|---|---|---|",
    ]
    for agent, part in sorted(summary["pressure"]["agents"].items()):
        targeted = (part.get("injection") or {}).get("targeted")
        if targeted:
            e = targeted["episodes"]
            lines.append(
                f"| {agent} | {e['clean']} | {e['attacked']} | {e['exposed']} | {e['unreached']} "
                f"| {targeted['attack_success']['rate']:.0%} |"
            )
    return lines


def child_main() -> None:
    """The plant cost rows of one round, as JSON lines."""
    from simulator.infra.log import setup_logging

    setup_logging("WARNING")
    for row in plant_costs():
        print(json.dumps(row), flush=True)


def plant_round() -> list[dict]:
    return child_rows([sys.executable, __file__, "--child"], ROOT, "the plant round")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (plant costs, and each run)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main()
        return 0
    started, t0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), time.perf_counter()
    plants: list[dict] = []
    walls: dict[str, list[float]] = {"targeted": [], "clean only": []}
    episodes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = configs(Path(tmp))
        for n in range(args.rounds):
            plants += plant_round()
            for name in list(walls) if n % 2 == 0 else list(walls)[::-1]:
                wall, summary = run_once(paths[name], Path(tmp) / f"{name}-{n}")
                walls[name].append(wall)
                episodes[name] = summary["counts"]["episodes"]
                if name == "targeted":
                    exposure = exposure_table(summary)
    load = os.getloadavg()
    print(
        "\n".join(
            [
                f"Machine: {os.cpu_count()} cores, {_cpu_model()}; started {started}, "
                f"{time.perf_counter() - t0:.0f} s; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
                f"Command: `python benchmarks/targeted_plant.py {' '.join(sys.argv[1:])}`",
                "",
                f"Plant cost, every episode of the config on a targeted org, {args.rounds} rounds:",
                "",
                *plant_table(plants),
                "",
                *task_table(plants),
                "",
                "Run wall, each run its own process (`crmarena run --fresh -q`), interleaved:",
                "",
                *run_table(walls, episodes),
                "",
                "Exposure (the targeted run's summary, per agent):",
                "",
                *exposure,
            ]
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

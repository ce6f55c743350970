"""`crmarena run`: a config -> orgs (built once, cached) -> instances -> episodes -> transcripts.

Episodes are played by an executor (`simulator.executors`: this machine, or a Ray cluster), at
most `concurrency` at once. The executor gets `play_settings(cfg)`, never the config, and is
handed this module's scoring (`finish_record`: each finished episode is scored by the rule-based
scorers in the process that played it); every record is appended to `transcripts.jsonl` at once,
by this process alone: one run per run folder at a time (an exclusive OS file lock, `run.lock`,
simulator.runs.lock; a second run fails at once naming the holder).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Protocol

from evaluators.verdict import Headline
from simulator.crm.store import Org
from simulator.executors import ExecutorError, PlaySettings, play_all
from simulator.executors.play import ClientMaker, check_players
from simulator.infra.files import write_atomic
from simulator.models.cache import cache_dir
from simulator.records import Record, parse_record
from simulator.runs.config import HUMAN_KIND, ObserverConfig, OrgChoice, RoleConfig, RunConfig
from simulator.runs.episode import Limits
from simulator.runs.lock import RunFolderError, RunFolderLock
from simulator.runs.plan import CONFIRM_ABOVE, Group, Plan, Todo, done_per_group, pick_personas, plan_size
from simulator.runs.transcript import TranscriptWriter
from simulator.tasks.spec import DEFAULT_LEVEL
from simulator.users.personas import load_personas, persona_pool_for


def org_cache_name(org_type: str, seed: int, scale: float, injections: str = "none") -> str:
    """The file name of a cached org: its choice (injections only when planted), the generator
    version and the code's fingerprint."""
    from simulator.crm.generator.version import GENERATOR_VERSION, source_fingerprint

    planted = "" if injections == "none" else f"-i{injections}"
    return f"{org_type}-s{seed}-x{scale:g}{planted}-g{GENERATOR_VERSION}-{source_fingerprint()}.db"


def cached_org(choice: OrgChoice, progress: Callable[[str], None] | None = None, check_hash: bool = True) -> Org:
    """The org of `choice`, built on first use into the cache (keyed by generator version and the
    generator code's fingerprint); a targeted org is a marked copy of the clean org's cached file
    (generator.build.copy_marked), which is built first if need be.

    A cached file is verified first (SQLite quick_check and, unless not `check_hash`, its content
    hash, once per state of the file: `verified_org`); one that fails is rebuilt: it is the tool's
    own copy of deterministic data, so the rebuilt file holds exactly what the run expects."""
    from simulator.crm.store import OrgFileError

    path = cache_dir() / "orgs" / org_cache_name(choice.type, choice.seed, choice.scale, choice.injections)
    say = progress or (lambda _: None)
    if path.exists():
        try:
            return verified_org(path, check_hash)
        except OrgFileError as exc:
            say(f"{exc}; rebuilding the cached org")
    else:
        planted = "" if choice.injections == "none" else f", {choice.injections} injections"
        how = "copying the clean" if choice.injections == "targeted" else "building the"
        say(f"{how} {choice.type} org (seed {choice.seed}, scale {choice.scale:g}{planted}) into {path}")
    from simulator.crm.generator import build  # (only now: it loads every generator module)

    path.parent.mkdir(parents=True, exist_ok=True)
    if choice.injections in build.MARKS:  # the clean org's data, marked: a copy of its file, not a second build
        clean = cached_org(replace(choice, injections="none"), progress, check_hash)
        build.copy_marked(clean.path, path, choice.injections)
    else:
        build.build_org(choice.type, path, seed=choice.seed, scale=choice.scale, injections=choice.injections)
    prune_cached_orgs(path)
    return Org(path)


def verified_org(path: Path, check_hash: bool = True) -> Org:
    """`Org(path).verify(check_hash)`, hashing the content only when the file changed since its
    hash last matched: a stamp beside it (`<file>.verified`) holds the file's device, inode, size,
    modification and change times at that check. Hashing every row takes ~0.2 s of CPU at scale 1
    and ~18 s at scale 100 (benchmarks/RESULTS.md, session 3); any write to the file changes its
    times, and the change time cannot be set back."""
    stamp, now = Path(f"{path}.verified"), _file_state(path)
    try:
        known = now is not None and stamp.read_text() == now
    except OSError:
        known = False
    org = Org(path).verify(check_hash=check_hash and not known)
    if check_hash and not known and now is not None and _file_state(path) == now:
        try:
            write_atomic(stamp, now)
        except OSError:
            pass  # a read-only cache: the next run hashes again
    return org


def _file_state(path: Path) -> str | None:
    """The file's device, inode, size and times; None while a write-ahead log beside it may hold
    writes that its times do not show."""
    if Path(f"{path}-wal").exists():
        return None
    st = path.stat()
    return f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


KEEP_CACHED_BUILDS = 2  # builds of one org choice kept in the cache: this code's and the last before


def prune_cached_orgs(built: Path) -> None:
    """Delete older cached builds of the same org choice (other generator versions or code),
    keeping the `KEEP_CACHED_BUILDS` most recently written; a file that cannot go stays."""
    choice = built.name.split("-g")[0]
    builds = sorted(built.parent.glob(f"{choice}-g*.db"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in (p for p in builds[KEEP_CACHED_BUILDS:] if p != built):
        for part in (old, Path(f"{old}-wal"), Path(f"{old}-shm"), Path(f"{old}.verified")):
            try:
                part.unlink(missing_ok=True)
            except OSError:
                pass  # open elsewhere or read-only: a later build tries again


# --- agents and users ------------------------------------------------------------------------


def finish_record(data: dict, org: Org, scorers: tuple[dict, ...] = ()) -> dict:
    """A played episode's record (JSON) as the run keeps it: read through its model once, with the
    planted instructions the agent read (on an injected org) and the rule-based scores (of the
    built-in scorers and the run's own `scorers`). PlaySettings.finish: it runs in the process that
    played the episode (a worker, a Ray actor), so scoring is spread as playing is."""
    from evaluators.injections import attach
    from evaluators.observer import score
    from evaluators.scorers.plugins import registry_for

    record = attach(parse_record(data), org)
    return {**record.to_json(), "scores": score(record, registry=registry_for(scorers))}


def live_observer(settings: ObserverConfig, client: ClientMaker):
    """A fresh live observer for one episode (evaluators.live), with its own judge client (made by
    `client`) if it has a judge. PlaySettings.watcher, when the observer is live."""
    from evaluators.live import LiveObserver

    judge = None
    if settings.judge is not None:
        from evaluators.judge import Judge

        judge = Judge(client(settings.judge, "observer.judge.model"))
    return LiveObserver(judge, stop_on_leak=settings.stop_on_leak)


def play_settings(cfg: RunConfig) -> PlaySettings:
    """What the executors get of `cfg`: the players, the limits, how and where episodes are played,
    and this module's scoring and live observer."""
    return PlaySettings(
        agents=cfg.agent_variants,
        user=cfg.user,
        limits=Limits(cfg.max_user_turns, cfg.max_agent_steps),
        finish=partial(finish_record, scorers=cfg.scorers),
        watcher=partial(live_observer, cfg.observer) if cfg.observer.live else None,
        models=tuple((where, model) for _, model, _, where in cfg.model_roles()),
        source=cfg.path,
        concurrency=cfg.concurrency,
        workers=cfg.workers,
        executor=cfg.executor,
        address=cfg.address,
        cache=cfg.cache,
    )


def check_run(cfg: RunConfig) -> None:
    """Fail before a run folder is made or an episode played: unknown task types, bad model
    specs or missing keys, clients that cannot be built, agents or users that cannot be made, an
    attack library that does not load (with a targeted org)."""
    from simulator.runs.config import ConfigError
    from simulator.tasks.spec import load_catalog

    catalog = load_catalog()
    unknown = [t for t in cfg.tasks or () if t not in catalog]
    if unknown:
        raise ConfigError(cfg.path, "tasks", f"unknown task type(s) {', '.join(unknown)}; see `crmarena tasks list`")
    if cfg.personas is not None:
        personas = load_personas()
        for choice in cfg.orgs:
            for task in cfg.tasks or tuple(catalog):
                if choice.type not in catalog[task].orgs:
                    continue
                pool = persona_pool_for(catalog[task].persona_pool, choice.type)
                if not pick_personas(cfg, pool, personas):
                    raise ConfigError(
                        cfg.path,
                        "personas",
                        f"lists no persona of the {pool} pool, which poses "
                        f"{task} on {choice.type}: add some (`crmarena personas list --pool {pool}`), "
                        f"the pool name {pool!r} for all of them, or leave {task} out of tasks",
                    )
    check_serve_extra(cfg)
    if any(choice.injections == "targeted" for choice in cfg.orgs):
        from simulator.tasks.attacks import load_library

        load_library()  # (AttackError naming the file and key: before any episode meets it)
    check_players(play_settings(cfg))
    check_scorers(cfg)


SERVE_MODULES = ("mcp", "starlette", "uvicorn")  # the serve extra's: the tool gateway and its MCP server


def check_serve_extra(cfg: RunConfig) -> None:
    """Fail before any episode if an agent reaches its tools through the tool gateway (a remote
    agent, `tools: mcp`) and the `serve` extra is not installed (each episode would fail alike)."""
    from simulator.runs.config import ConfigError

    role = next((r for r in cfg.agent_variants if r.kind == "remote" or r.options.get("tools") == "mcp"), None)
    missing = [name for name in SERVE_MODULES if not _installed(name)] if role else []
    if role and missing:
        what = "a remote agent" if role.kind == "remote" else "tools: mcp"
        raise ConfigError(
            cfg.path,
            role.key or "agent",
            f"{what} needs the serve extra ({', '.join(missing)} not installed): pip install 'crmarena-sim[serve]'",
        )


def _installed(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def check_scorers(cfg: RunConfig) -> None:
    """Fail if a scorer the run names (`scorers:`) cannot be loaded or built, or clashes with another."""
    from evaluators.scorers.plugins import ScorerPluginError, load, registry_for
    from simulator.runs.config import ConfigError

    for i, entry in enumerate(cfg.scorers):
        try:
            load(entry)
        except ScorerPluginError as exc:
            raise ConfigError(cfg.path, f"scorers[{i}]", str(exc)) from None
    try:
        registry_for(cfg.scorers)
    except ScorerPluginError as exc:
        raise ConfigError(cfg.path, "scorers", str(exc)) from None


def check_executor(cfg: RunConfig) -> None:
    """Fail before a run folder is made if the executor cannot run here (a dry run needs none)."""
    import importlib.util

    from simulator.runs.config import ConfigError

    if cfg.executor == "ray" and importlib.util.find_spec("ray") is None:
        raise ConfigError(
            cfg.path,
            "executor",
            "is ray, but Ray is not installed: pip install 'crmarena-sim[ray]' (or pip install ray)",
        )


def check_cache(cfg: RunConfig) -> None:
    """Fail before a run folder is made if the response cache cannot be opened (a damaged file, or
    another database: DamagedFileError), whichever process plays the episodes."""
    if cfg.cache:
        from simulator.models.cache import ResponseCache

        ResponseCache(cfg.cache).close()


def _public_options(role: RoleConfig) -> dict:
    """A role's options as the run folder may keep them: a remote agent's url without credentials or
    query, and its headers (an endpoint's API key) masked."""
    if role.kind != "remote":
        return role.options
    from simulator.infra.secrets import MASK, public_url

    options = {**role.options, "url": public_url(role.options["url"])}
    if "headers" in options:
        options["headers"] = dict.fromkeys(options["headers"], MASK)
    return options


def public_config(cfg: RunConfig) -> dict:
    """The resolved config for the run folder, model specs reduced to their settings (no secret).

    A config without sweep syntax gives the shape it always did (`agent`, `personas_per_pool`),
    so run folders made before sweeps still resume; several agent variants are `agents` (each
    with its label), explicit personas are `personas`."""
    from simulator.models.clients import parse_model_spec
    from simulator.runs.config import derived_label

    def role(r: RoleConfig, where: str, label: bool) -> dict:
        data = {
            "kind": r.kind,
            "model": r.model,
            "plugin": r.plugin,
            "options": _public_options(r),
            "privacy_aware": r.privacy_aware,
        }
        if data["model"] is not None:
            data["model"] = parse_model_spec(r.model, where=where).settings()
        return {**data, "label": r.name} if label else data

    data = cfg.to_json()
    variants = cfg.agent_variants
    del data["agents"], data["agent"]
    if len(variants) == 1:
        v = variants[0]
        data["agent"] = role(v, v.model_key or "agent.model", label=bool(v.label) and v.label != derived_label(v))
    else:
        data["agents"] = [role(v, v.model_key or "agent.model", label=True) for v in variants]
    data["user"] = role(cfg.user, "user.model", label=False)
    if cfg.personas is None:
        del data["personas"]
    else:
        del data["personas_per_pool"]
        data["personas"] = list(cfg.personas)
    if data["judge"] is not None:
        data["judge"] = parse_model_spec(data["judge"], where="judge.model").settings()
    headline = data["observer"].pop("headline")
    if cfg.observer.headline != Headline():  # (the default is not mentioned: folders made before it resume)
        data["headline"] = headline
    if not cfg.observer.live:  # off, it is not mentioned: folders made before the live observer resume
        del data["observer"]
    elif cfg.observer.judge is not None:
        data["observer"]["judge"] = parse_model_spec(cfg.observer.judge, where="observer.judge.model").settings()
    if data["cache"] is None:  # replaying changes nothing in the run: off, it is not mentioned
        del data["cache"]
    if not data["scorers"]:  # none of your own: not mentioned, so folders made before them resume
        del data["scorers"]
    for org in data["orgs"]:  # clean orgs say nothing of injections: folders made before them resume
        if org["injections"] == "none":
            del org["injections"]
    if cfg.difficulty == (DEFAULT_LEVEL,):  # the default level is not mentioned: folders made before levels resume
        del data["difficulty"]
    else:
        data["difficulty"] = list(cfg.difficulty)
    return data


# --- planning --------------------------------------------------------------------------------


def plan(cfg: RunConfig, run_id: str, orgs: list[Org]) -> Plan:
    """Every episode of the run, one per cell: org x instance x persona x mode x trial x agent
    variant, walked lazily (simulator.runs.plan)."""
    return Plan(cfg, run_id, orgs)


class ProgressBar(Protocol):
    """A progress bar (tqdm's): one step per episode played, closed at the end."""

    def update(self, n: int) -> object: ...

    def close(self) -> object: ...


class PlanTooBig(ValueError):
    """A plan over CONFIRM_ABOVE episodes, run without --yes."""


def check_plan_size(cfg: RunConfig, confirmed: bool) -> int:
    """The plan's size (counted at once, not built); a plan over CONFIRM_ABOVE episodes needs
    `confirmed` (--yes), else PlanTooBig."""
    size = plan_size(cfg)
    if size > CONFIRM_ABOVE and not confirmed:
        raise PlanTooBig(
            f"{cfg.path}: the plan has {size:,} episodes (more than {CONFIRM_ABOVE:,}): check its size "
            "and cost with --dry-run, then run it with --yes (or lower trials, instances_per_task, "
            "personas or modes)"
        )
    return size


# --- running ---------------------------------------------------------------------------------


@dataclass
class RunResult:
    folder: Path
    episodes: int = 0
    scored: list[dict] = field(default_factory=list)  # {skill, mode, task, success, termination}
    summary: dict = field(default_factory=dict)  # evaluators.stats.summarize of the scored run
    failure: str = ""  # why some episodes were not played (the message says how to play them)

    def add(self, record: Record) -> None:
        """Count one finished episode (its record, scored)."""
        inst, scores = record.instance, record.scores
        self.scored.append(
            {
                "agent": record.agent.label,
                "skill": inst.skill,
                "mode": record.mode,
                "task": inst.task,
                "success": (scores.get("headline") or scores["rules"])["success"],
                "termination": record.termination.reason,
                "played_by_person": HUMAN_KIND in (record.agent.kind, record.user.kind),  # (crmarena play)
            }
        )

    def unfinished(self) -> str:
        """Why the run is not complete: planned episodes not played or ended in infra_error ("" if none)."""
        infra = sum(row["termination"] == "infra_error" for row in self.scored)
        missing = max(0, self.episodes - sum(not row["played_by_person"] for row in self.scored))
        if not infra and not missing:
            return ""
        return (
            f"{infra} of {self.episodes} episode(s) ended in infra_error"
            + (f", {missing} not played" if missing else "")
            + "; run the same command with --retry-failed to play them again"
        )

    def table(self) -> list[dict]:
        """Strict success by skill and mode (and agent, when several were under test; infra
        errors counted apart, never as failures)."""
        several = len({row["agent"] for row in self.scored if row["agent"]}) > 1  # (records from before
        # sweeps have no label: a resumed single-agent run stays one group)
        cells: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
        for row in self.scored:
            c = cells[(row["agent"] if several else "", row["skill"], row["mode"])]
            c["episodes"] += 1
            c["infra_error"] += row["success"] is None
            c["success"] += bool(row["success"])
        out = []
        for (agent, skill, mode), c in sorted(cells.items()):
            scored = c["episodes"] - c["infra_error"]
            out.append(
                {
                    **({"agent": agent} if several else {}),
                    "skill": skill,
                    "mode": mode,
                    "episodes": c["episodes"],
                    "success (strict)": f"{c['success'] / scored:.0%}" if scored else "-",
                    "infra errors": c["infra_error"],
                }
            )
        return out


def new_run_folder(cfg: RunConfig, out: str | None) -> tuple[str, Path]:
    """A new folder `<out>/<name>-<UTC time>[-n]` and its run id."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for n in range(1, 1000):
        run_id = f"{cfg.name}-{stamp}" + (f"-{n}" if n > 1 else "")
        folder = Path(out or cfg.out) / run_id
        try:
            _make_folder(folder, exist_ok=False)
            return run_id, folder
        except FileExistsError:
            continue
    raise RuntimeError(f"cannot create a run folder under {out or cfg.out}")


_NOT_COMPARED = ("path", "out", "cache", "concurrency", "workers", "executor", "address", "headline")  # where
# files live, replaying, how episodes are spread and what the headline rests on change nothing in the records


def run_folder(cfg: RunConfig, out: str | None) -> tuple[str, Path]:
    """The run's own folder `<out>/<name>`, reused by the same config (so a killed run resumes)."""
    folder = Path(out or cfg.out) / cfg.name
    _make_folder(folder, exist_ok=True)
    return cfg.name, folder


def _make_folder(folder: Path, exist_ok: bool) -> None:
    """mkdir -p `folder`; a file in its way, or a parent that cannot be written to, is a RunFolderError."""
    try:
        folder.mkdir(parents=True, exist_ok=exist_ok)
    except OSError as exc:
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        if blocker is None and isinstance(exc, FileExistsError):
            raise  # (a run folder of that name exists: new_run_folder tries the next name)
        why = f"{blocker} is a file" if blocker else exc.strerror
        raise RunFolderError(
            f"cannot make the run folder {folder}: {why}; set `out` (or --out) to a folder you can write to"
        ) from None


def check_same_config(cfg: RunConfig, folder: Path) -> None:
    """Fail if `folder` holds a run of another config (read under the folder's lock)."""
    saved_path = folder / "config.json"
    if not saved_path.is_file():
        return
    from simulator.infra.files import DamagedFileError, read_json

    try:
        saved = read_json(
            saved_path,
            fix=f"it holds no run data: if {folder} holds a run of this config, delete "
            "config.json and run again (it is written anew); else give this config "
            "another `name`, or pass --fresh for a new run folder",
        )
    except DamagedFileError as exc:
        transcripts = folder / "transcripts.jsonl"
        if transcripts.is_file() and transcripts.stat().st_size:
            raise RunFolderError(str(exc)) from None
        return  # no episode to mix with another config's: it is written anew
    current = json.loads(json.dumps(public_config(cfg)))
    differs = sorted(k for k in set(saved) | set(current) if k not in _NOT_COMPARED and saved.get(k) != current.get(k))
    if differs:
        raise RunFolderError(
            f"{folder} holds a run of another config (it differs in {', '.join(differs)}); "
            "give this config another `name`, or pass --fresh for a new run folder"
        )


def finished(path: Path, repair: bool = True, say: Callable[[str], None] | None = None) -> dict[str, str]:
    """episode_id -> termination of each episode already in a transcripts file (the latest
    record wins). With `repair` (the folder's lock held), the file is first made safe to append
    to (transcript.repair_records: a line torn by a killed run cut off, damaged lines moved aside
    and `say` told); without, torn and damaged lines are skipped (their episodes count as not played)."""
    from simulator.runs.transcript import read_records, repair_records

    if not path.is_file():
        return {}
    if repair and (note := repair_records(path)) and say:
        say(note)
    return {r["episode_id"]: r["termination"]["reason"] for r in read_records(path, skip_damaged=not repair)}


# Rough per-call sizes for the dry-run estimate (tokens): what a call adds beyond the prompts.
_HISTORY_PER_CALL, _AGENT_OUT, _USER_PROMPT, _USER_OUT, _JUDGE_PROMPT = 350, 150, 1200, 80, 1500


def estimate(cfg: RunConfig, groups: list[tuple[Group, int]]) -> list[dict]:
    """Estimated model calls, tokens and cost per model role of the episodes to run, given as
    (group of cells, how many of its episodes to run): two agent calls per user turn (an autogen
    component's as simulator.runs.pricing reads it), one per turn for an LLM user, one judge call
    per episode, one live observer's judge call per agent turn."""
    from autogen_core.models import SystemMessage

    from simulator.models.clients import load_prices, parse_model_spec
    from simulator.models.completions import count_tokens_offline
    from simulator.runs.pricing import agent_calls

    prices, rows = load_prices(), []
    prompt_tokens = {g.system_prompt: 0 for g, _ in groups}
    for prompt in prompt_tokens:
        prompt_tokens[prompt] = count_tokens_offline([SystemMessage(content=prompt)])
    for name, model, index, where in cfg.model_roles():
        role = name.split(" ", 1)[0]
        agent_turns = agent_calls(cfg.agent_variants[index], model) if index is not None else None
        calls = tokens_in = tokens_out = 0
        for g, episodes in groups:
            if index is not None and g.agent_index != index:
                continue
            turns = len(g.instance.shards) if g.mode == "sharded" else 1
            n = agent_turns(turns) if agent_turns else turns if role in ("user", "observer") else 1
            base = {
                "agent": prompt_tokens[g.system_prompt],
                "user": _USER_PROMPT,
                "judge": _JUDGE_PROMPT,
                "observer": _JUDGE_PROMPT,
            }[role]
            calls += episodes * n
            tokens_in += episodes * sum(base + _HISTORY_PER_CALL * i for i in range(n))
            tokens_out += episodes * n * (_AGENT_OUT if role == "agent" else _USER_OUT)
        spec = parse_model_spec(model, where=where)
        price = prices.get(spec.model)
        cost = None if price is None else price.cost(tokens_in, tokens_out)
        rows.append(
            {
                "role": name,
                "model": spec.label,
                "calls": calls,
                "prompt tokens": tokens_in,
                "completion tokens": tokens_out,
                "cost USD": "unknown" if cost is None else round(cost, 2),
            }
        )
    return rows


def autogen_assumptions(cfg: RunConfig) -> list[str]:
    """The dry run's assumption about each autogen agent variant's model calls per person message."""
    from simulator.runs.pricing import assumption

    return [said for v in cfg.agent_variants if (said := assumption(v))]


def dry_run(cfg: RunConfig, out: str | None = None, say: Callable[[str], None] = print) -> dict:
    """What `execute` would do: episodes per cell, what the run folder already holds, and the
    estimated model use; nothing is played. Counted per group of cells (instance x mode x
    agent), never per episode; only the ids of a resumed folder's episodes are looked for."""
    check_run(cfg)
    size = check_plan_size(cfg, confirmed=True)  # (a dry run never needs --yes)
    say(f"{size:,} episodes planned")
    orgs = [cached_org(choice, say) for choice in cfg.orgs]
    folder = Path(out or cfg.out) / cfg.name
    done = finished(folder / "transcripts.jsonl", repair=False) if (folder / "config.json").is_file() else {}
    several = len(cfg.agent_variants) > 1
    cells: dict[tuple, Counter] = defaultdict(Counter)
    planned, left = plan(cfg, cfg.name, orgs), []
    found = done_per_group(planned, done)
    for g in planned.groups():
        if not len(g):
            continue
        played = len(found.get(g.key, ()))
        agent = cfg.agent_variants[g.agent_index].name if several else ""
        cell = cells[(agent, g.org.meta.org, g.mode, g.personas[0].pool)]
        cell["episodes"] += len(g)
        cell["done"] += played
        left.append((g, len(g) - played))
    return {
        "folder": str(folder),
        "episodes": size,
        "done": sum(c["done"] for c in cells.values()),
        "cells": [
            {
                **({"agent": agent} if several else {}),
                "org": org,
                "mode": mode,
                "persona pool": pool,
                "episodes": c["episodes"],
                "done": c["done"],
            }
            for (agent, org, mode, pool), c in sorted(cells.items())
        ],
        "models": estimate(cfg, left),
        **({"assumptions": said} if (said := autogen_assumptions(cfg)) else {}),
    }


def execute(
    cfg: RunConfig,
    out: str | None = None,
    *,
    say: Callable[[str], None] = print,
    bar_factory: Callable[[int], ProgressBar] | None = None,
    fresh: bool = False,
    retry_failed: bool = False,
    confirmed: bool = False,
    verify_org: bool = True,
) -> RunResult:
    """Run the episodes of `cfg` that its run folder does not hold yet (all of them in a fresh
    folder; with `retry_failed`, also those that ended in infra_error); score and report. The
    folder's lock is held throughout: a second run on it fails at once (RunFolderBusy). A plan
    over CONFIRM_ABOVE episodes needs `confirmed` (PlanTooBig before anything is made). Not
    `verify_org`: the orgs' content hashes are not checked (for huge orgs; see cached_org)."""
    check_run(cfg)
    check_executor(cfg)
    check_cache(cfg)
    size = check_plan_size(cfg, confirmed)
    run_id, folder = new_run_folder(cfg, out) if fresh else run_folder(cfg, out)
    with RunFolderLock(folder):
        check_same_config(cfg, folder)
        say(f"{size:,} episodes planned")
        orgs = [cached_org(choice, say, check_hash=verify_org) for choice in cfg.orgs]
        write_atomic(folder / "config.json", json.dumps(public_config(cfg), indent=2))
        return _play(cfg, run_id, folder, orgs, say, bar_factory, retry_failed)


def _play(
    cfg: RunConfig,
    run_id: str,
    folder: Path,
    orgs: list[Org],
    say: Callable[[str], None],
    bar_factory: Callable[[int], ProgressBar] | None,
    retry_failed: bool,
) -> RunResult:
    """Play what the locked run folder lacks, then score and report the whole run."""
    planned = plan(cfg, run_id, orgs)
    prompts = {hashlib.sha256(prompt.encode()).hexdigest()[:16]: prompt for prompt in planned.system_prompts()}
    write_atomic(folder / "prompts.json", json.dumps(prompts, indent=1))
    done = finished(folder / "transcripts.jsonl", say=say)
    todo = Todo(planned, done, retry_failed)  # (walked lazily, by each worker for its share)
    size, left = len(planned), len(todo)
    if done:
        say(
            f"{folder}: {size - left} of {size} episodes already done"
            + ("" if left else " (nothing left to run; --fresh starts a new run folder)")
        )
    say(f"{left} episodes to run -> {folder / 'transcripts.jsonl'}")
    result = RunResult(folder, size)
    bar = bar_factory(left) if bar_factory else None
    with TranscriptWriter(folder / "transcripts.jsonl") as writer:

        def emit(record: dict) -> None:
            writer.append(record)
            result.add(parse_record(record))
            if bar:
                bar.update(1)

        try:
            if left:
                play_all(play_settings(cfg), todo, emit)
        except ExecutorError as exc:  # what was played is kept, scored and reported all the same
            result.failure = str(exc)
    if bar:
        bar.close()
    from evaluators.observer import report, rescore, scan_run

    run = scan_run(folder, cfg.scoring, cfg.observer.headline)  # the whole run, episodes before a resume too
    result.scored = []
    for record in run.records:
        result.add(record)
    if cfg.judge is not None:
        from evaluators.judge import JudgingIncomplete

        say("judging the episodes (verdicts already given on the same records are kept)")
        try:
            result.summary = rescore(folder, judge_model=cfg.judge, mode=cfg.scoring, concurrency=cfg.concurrency)
        except JudgingIncomplete as exc:
            result.summary = json.loads((folder / "summary.json").read_text())
            result.failure = "; ".join(filter(None, [result.failure, str(exc)]))
    else:
        result.summary = report(folder, mode=cfg.scoring, run=run)
    return result

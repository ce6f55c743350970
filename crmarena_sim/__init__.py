"""The Inspect AI registry of CRMArena-Sim: `inspect eval crmarena_sim/crmarena -T org=b2b ...`.

Inspect names a task of an installed package `<top-level package>/<task>` and, to find
`crmarena_sim/...`, loads the `inspect_ai` entry point named `crmarena_sim`, this package; so the
@task lives here. Its body is simulator.inspect_task.crmarena_task (imports inspect_ai: the
optional `inspect` extra).
"""

from inspect_ai import Task, task

from simulator.inspect_task import crmarena_task


@task
def crmarena(
    org: str = "b2b",
    mode: str = "sharded",
    tasks: str | None = None,
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
    """CRMArena-Sim's tasks on a generated org, played with our simulated person (see
    simulator.inspect_task.crmarena_task for the arguments)."""
    return crmarena_task(
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

"""Executors: where a run's episodes are played.

`local` (the default) plays them on this machine, in one process or in `workers` forked
processes; `ray` spreads them over a Ray cluster (`pip install 'crmarena-sim[ray]'`). Either
way every record comes back to this process, which alone writes the run folder. Executors get the
run's `PlaySettings`, never its config, and import no evaluator: each record is finished (scored)
by the `finish` the run hands them, in the process that played it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from simulator.runs.episode import Planned

from .play import ExecutorError, PlaySettings

__all__ = ["ExecutorError", "PlaySettings", "play_all"]


def play_all(settings: PlaySettings, planned: Iterable[Planned], emit: Callable[[dict], None]) -> None:
    """Play every episode of `planned` with the settings' executor; each record goes to `emit`
    (in this process, one at a time) as soon as its episode ends. `planned` is walked lazily,
    as episodes start (a Plan or Todo of simulator.runs.plan, or a list); give it episodes to play."""
    if settings.executor == "ray":
        from .ray_cluster import play_ray

        play_ray(settings, planned, emit)
    else:
        from .local import play_local

        play_local(settings, planned, emit)

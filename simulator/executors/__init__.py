"""Executors: where a run's episodes are played.

`local` (the default) plays them on this machine, in one process or in `workers` forked
processes; `ray` spreads them over a Ray cluster (`pip install 'crmarena-sim[ray]'`). Either
way every record comes back to this process, which alone writes the run folder.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..config import RunConfig
from .play import Planned


class ExecutorError(RuntimeError):
    """Episodes that could not be played (a worker or actor that died, a cluster that cannot be
    reached, a refusal no retry fixes that stopped the run). Whatever was played is in the run
    folder; the same command plays the rest (with --retry-failed, also the refused ones)."""


def play_all(cfg: RunConfig, planned: Iterable[Planned], emit: Callable[[dict], None]) -> None:
    """Play every episode of `planned` with the config's executor; each record goes to `emit`
    (in this process, one at a time) as soon as its episode ends. `planned` is walked lazily,
    as episodes start (a Plan or Todo of simulator.plan, or a list); give it episodes to play."""
    if cfg.executor == "ray":
        from .ray_cluster import play_ray
        play_ray(cfg, planned, emit)
    else:
        from .local import play_local
        play_local(cfg, planned, emit)

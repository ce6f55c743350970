"""Players die with the process that records their episodes: a worker or Ray actor whose run is
gone would go on sending paid model requests whose records nobody writes.

No maintained library covers this (python-prctl needs a C build and covers only Linux): Linux's
PR_SET_PDEATHSIG is one ctypes call, and a watchdog thread covers every platform, a parent that
died before the signal was asked for, and a process that is not the parent (a Ray actor's
driver on the same node: Ray itself ends a dead driver's actors only 1-2 s later).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_S = 0.2  # how often the watchdog looks


def die_with_parent(parent: int) -> None:
    """End this process the moment `parent` (its parent's pid) ends, at once and without cleanup:
    the kernel's SIGKILL on Linux, else the watchdog within POLL_S (an orphan is re-parented)."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _watch(lambda: os.getppid() == parent)


def die_with(pid: int) -> None:
    """End this process within POLL_S of the end of process `pid` (of this machine)."""
    _watch(lambda: _alive(pid))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's: it exists)
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:  # a killed process its parent has not reaped yet is a zombie: it runs no more
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return not stat.parent.parent.is_dir()  # (no /proc here: trust kill; else it just ended)


def _watch(alive: Callable[[], bool]) -> None:
    def watch() -> None:
        while alive():
            time.sleep(POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="run-death-watch", daemon=True).start()

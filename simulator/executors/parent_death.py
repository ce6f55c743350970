"""Worker processes die with the process that started them: a worker whose parent is gone would
go on sending paid model requests whose records nobody writes.

No maintained library covers this (python-prctl needs a C build and covers only Linux): Linux's
PR_SET_PDEATHSIG is one ctypes call, and a watchdog thread on os.getppid() covers every platform
(and a parent that died before the signal was asked for).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_S = 0.2  # how often the watchdog looks at the parent


def die_with_parent(parent: int) -> None:
    """End this process the moment `parent` (its parent's pid) ends, at once and without cleanup:
    the kernel's SIGKILL on Linux, else the watchdog within POLL_S."""
    if sys.platform == "linux":
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    threading.Thread(target=_watch, args=(parent,), name="parent-death-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:  # (an orphan is re-parented: to pid 1 or a subreaper)
        time.sleep(POLL_S)
    os._exit(1)

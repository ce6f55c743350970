"""Writing the run's files safely: whole files atomically (temp file + rename), secrets redacted.

A reader never sees half a file: `write_atomic` writes a temp file beside the target, fsyncs it and
renames it over the target. A full disk (ENOSPC) raises DiskFullError naming the file, and leaves
the old file as it was and no temp file behind.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .secrets import redact


class DiskFullError(OSError):
    """A write failed for lack of space; nothing was half-written."""

    def __init__(self, path: Path | str):
        super().__init__(errno.ENOSPC, f"no space left on the device while writing {path}: nothing was "
                                       "half-written; free some space and run the same command again")
        self.path = str(path)

    def __str__(self) -> str:
        return self.strerror


def write_atomic(path: Path | str, data: str | bytes) -> None:
    """Replace `path` by `data` (text is redacted of secrets and written as UTF-8) atomically."""
    path = Path(path)
    raw = redact(data).encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.errno == errno.ENOSPC:
            raise DiskFullError(path) from None
        raise

"""Writing the run's files safely, and reading them back with damage named.

Writes: a whole file is replaced atomically (`write_atomic`, or `replacing` for a file written
by other means: a temp file beside the target, fsynced, renamed over it, the folder fsynced); a
log of records grows by whole lines (`LineAppender`: a line that cannot be written whole is cut
back off). Text is redacted of secrets on its way out. A full disk
(ENOSPC) raises DiskFullError naming the file, and leaves no half-written file, line or temp file.

Reads: `json_lines` yields the records of a JSON Lines file and raises DamagedFileError naming
the file and line of a damaged one, with how to repair it; `read_json` does the same for a file
holding one JSON object.

Appends and reads open the file itself (`open_regular`): never through a symbolic link, never
blocking on a named pipe; a link, folder, pipe, socket or device where a file should be raises
NotARegularFile naming it. (A whole-file replacement renames over the link, not through it.)
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from simulator.infra.secrets import redact


class DiskFullError(OSError):
    """A write failed for lack of space; nothing was half-written."""

    def __init__(self, path: Path | str, problem: str = "no space left on the device"):
        super().__init__(
            errno.ENOSPC,
            f"{problem} while writing {path}: nothing was half-written; free some space and run the same command again",
        )
        self.path, self.problem = str(path), problem

    def __reduce__(self):  # (whole across processes: a worker's full disk stops the parent's run)
        return type(self), (self.path, self.problem)

    def __str__(self) -> str:
        assert self.strerror is not None  # (always given to OSError above)
        return self.strerror


class DamagedFileError(ValueError):
    """A file the tool reads is damaged; the message names it (and the line) and how to repair it."""


class NotARegularFile(DamagedFileError):
    """Where a run's file should be, something else is: a symbolic link, a folder, a pipe..."""


_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def _not_regular(path: Path | str, mode: int) -> NotARegularFile:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return NotARegularFile(
        f"{path} is {kind}, not a regular file: nothing was read or written through it; "
        "move it away and run the command again"
    )


def open_regular(path: Path | str, flags: int, mode: int = 0o644) -> int:
    """A descriptor of the regular file at `path` opened with `flags` (os.O_*), not through a
    symbolic link and without blocking on a pipe; NotARegularFile if anything else is there."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.ENODEV, errno.EOPNOTSUPP):
            raise _not_regular(path, os.lstat(path).st_mode) from None
        raise
    st_mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(st_mode):
        os.close(fd)
        raise _not_regular(path, st_mode)
    os.set_blocking(fd, True)
    return fd


def read_regular(path: Path | str) -> bytes:
    """The bytes of the regular file at `path` (opened as `open_regular` opens it)."""
    with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as fh:
        return fh.read()


def is_disk_full(exc: BaseException) -> bool:
    """Whether a write failed for lack of space (ENOSPC, a quota, or SQLite's SQLITE_FULL)."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def _write_failed(exc: OSError, path: Path) -> OSError:
    """The error to raise for a failed write of `path`: DiskFullError for a full disk."""
    return DiskFullError(path) if is_disk_full(exc) else exc


def _fsync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """A temp file beside `path` for the block to write; once the block ends it is published in
    place of `path` atomically and durably (fsynced, renamed over it, the folder fsynced: the new
    file survives a power loss). If anything fails, the temp file is removed and `path` is left as
    it was; a full disk raises DiskFullError naming `path`."""
    path = Path(path)
    mode = path.lstat().st_mode if os.path.lexists(path) else stat.S_IFREG
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):  # (a link is replaced itself, never written through)
        raise _not_regular(path, mode)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        yield tmp
        _fsync(tmp)
        os.replace(tmp, path)
        _fsync(path.parent)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if is_disk_full(exc):
            raise DiskFullError(path) from None
        raise


def _encoded(chunk: str | bytes) -> bytes:
    return redact(chunk).encode("utf-8") if isinstance(chunk, str) else chunk


def write_atomic(path: Path | str, data: str | bytes | Iterable[str | bytes]) -> None:
    """Replace `path` by `data` atomically: text or bytes, or an iterable of them written in turn
    (so a long file streams). Text is redacted of secrets and written as UTF-8."""
    chunks = [data] if isinstance(data, (str, bytes)) else data
    with replacing(path) as tmp, tmp.open("wb") as fh:
        for chunk in chunks:
            fh.write(_encoded(chunk))


class LineAppender:
    """Appends whole lines to a file (one writer at a time), each in the OS's hands at once: it
    survives the process being killed. A line that cannot be written whole is cut back off."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._fd: int | None = open_regular(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def append(self, line: str) -> None:
        """Write `line` (redacted; a newline is added) whole, or not at all."""
        assert self._fd is not None, "append after close"
        data = memoryview(_encoded(line + "\n"))
        start = os.fstat(self._fd).st_size
        try:
            while data:
                data = data[os.write(self._fd, data) :]
        except OSError as exc:
            os.ftruncate(self._fd, start)
            raise _write_failed(exc, self.path) from None

    def close(self) -> None:
        """fsync and close (a full disk can surface here too)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.fsync(fd)
        except OSError as exc:
            raise _write_failed(exc, self.path) from None
        finally:
            os.close(fd)


def line_problem(raw: bytes, check: Callable[[Any], str] | None = None) -> tuple[Any, str]:
    """(the JSON value of a line, "") or (None, what is wrong with it); `check` says what is
    wrong with a parsed value ("" when nothing)."""
    try:
        value = json.loads(raw)
    except ValueError as exc:  # (UnicodeDecodeError and JSONDecodeError)
        return None, f"not JSON ({exc})"
    if not isinstance(value, dict):
        return None, f"not a JSON object (a {type(value).__name__})"
    problem = check(value) if check else ""
    return (None, problem) if problem else (value, "")


def json_lines(
    path: Path | str,
    *,
    check: Callable[[Any], str] | None = None,
    fix: str = "delete that line",
    skip_damaged: bool = False,
) -> Iterator[tuple[int, dict]]:
    """(byte offset, record) of each line of a JSON Lines file. A torn last line (a killed
    writer) is skipped; a damaged line raises DamagedFileError naming the file and line, and
    `fix` (or is skipped too)."""
    path = Path(path)
    offset = 0
    with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as fh:
        for number, raw in enumerate(fh, 1):
            start, offset = offset, offset + len(raw)
            if not raw.endswith(b"\n"):
                return
            if not raw.strip():
                continue
            value, problem = line_problem(raw, check)
            if problem and skip_damaged:
                continue
            if problem:
                raise DamagedFileError(f"{path}, line {number}: {problem}; {fix}")
            yield start, value


def read_json(path: Path | str, fix: str) -> dict:
    """The JSON object in `path`; a damaged file (empty, cut, not UTF-8, not an object) raises
    DamagedFileError naming it, and `fix`."""
    path = Path(path)
    data = read_regular(path)
    try:
        value = json.loads(data)
    except ValueError as exc:
        what = "empty" if not data else f"not JSON ({exc})"
        raise DamagedFileError(f"{path} is damaged ({what}); {fix}") from None
    if not isinstance(value, dict):
        raise DamagedFileError(f"{path} is damaged (not a JSON object); {fix}")
    return value

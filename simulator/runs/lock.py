"""The run folder's lock: one writer per run folder (a run, or a command that rewrites its scores,
report or exports), below everything that writes there (simulator.runs.run, evaluators, the CLI)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar


class RunFolderError(ValueError):
    """The run folder cannot take this run (it holds a run of another config)."""


class RunFolderBusy(RunFolderError):
    """Another process holds the run folder's lock."""


class RunFolderLock:
    """One writer per run folder: an exclusive `flock` on `<folder>/run.lock`, which names its
    holder (pid, host, start time). The OS releases it when the holder's process dies."""

    FILE = "run.lock"
    held: ClassVar[set[RunFolderLock]] = set()  # the locks this process holds (a forked child drops its copies)

    def __init__(
        self, folder: Path, busy_hint: str = "wait for it to end or stop it, or pass --fresh for a new run folder"
    ):
        self.folder, self.busy_hint = folder, busy_hint
        self.fd: int | None = None

    def acquire(self) -> RunFolderLock:
        """Take the lock at once, or raise RunFolderBusy naming its holder (never waits)."""
        import fcntl
        import socket

        path = self.folder / self.FILE
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except (IsADirectoryError, PermissionError) as exc:
            raise RunFolderError(
                f"{path} cannot be the run folder's lock file ({exc.strerror}); remove it "
                "(a new one is made) and run again"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(os.pread(fd, 4096, 0))
            os.close(fd)
            raise RunFolderBusy(
                f"{self.folder} is in use by another crmarena run ({holder}); {self.busy_hint}"
            ) from None
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": started}).encode(), 0)
        self.fd = fd
        RunFolderLock.held.add(self)
        return self

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # (closing the file releases the lock)
            self.fd = None
        RunFolderLock.held.discard(self)

    @classmethod
    def drop_inherited(cls) -> None:
        """In a forked child: close its copies of the parent's lock descriptors. The lock stays the
        parent's (it is released when every copy is closed), so a child that outlived its parent
        would otherwise keep the folder locked."""
        for lock in cls.held:
            assert lock.fd is not None  # (a held lock has its descriptor)
            os.close(lock.fd)
            lock.fd = None
        cls.held.clear()

    def __enter__(self) -> RunFolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


os.register_at_fork(after_in_child=RunFolderLock.drop_inherited)


@contextmanager
def locked(folder: Path, busy_hint: str, error: type[Exception]) -> Iterator[None]:
    """Hold `folder`'s run lock for the block; when it cannot be taken, raise `error` saying why (one line)."""
    try:
        lock = RunFolderLock(folder, busy_hint).acquire()
    except RunFolderError as exc:
        raise error(str(exc)) from None
    try:
        yield
    finally:
        lock.release()


def _lock_holder(text: bytes) -> str:
    """The holder a lock file names: `pid 123 on host h, started <UTC time>`."""
    try:
        info = json.loads(text)
        return f"pid {info['pid']} on host {info['host']}, started {info['started']}"
    except (ValueError, TypeError, KeyError):  # (the holder is between taking the lock and naming itself)
        return "pid unknown"

"""Compiled regular expressions kept on disk between processes.

The generator's detectors (simulator.crm.generator.grammar.LazyRegex: alternations of every text
a grammar rule can write, up to 215 KB each) took Python's `re` 0.3 s to compile in a run of one
instance of each task type and 1.5 s in a run of ten, in every process that needs them:
compiling parses the source and emits the regex engine's code, both in Python. The code is a
list of integers from which CPython's `_sre.compile` makes the pattern at once (~30x faster).

`compile_kept` keeps that code in the cache folder, one file per pattern, named by a hash of the
source, the flags and the interpreter's regex engine, and holding that hash (a file is used only
for the pattern it was written for). The code is built as CPython's own
`re._compiler.compile` builds it; once per process, probe patterns made that way are checked
to equal what `re.compile` makes (CPython compares patterns by flags, source and code), else a
Python whose engine differs simply compiles each time. A file that cannot be read, written or
used is ignored: the pattern is compiled again.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import re
import sys
import zlib
from functools import cache, lru_cache
from pathlib import Path

FOLDER = "patterns"  # under the cache folder (simulator.cache.cache_dir)


def compile_kept(source: str, flags: int = 0, folder: Path | None = None) -> re.Pattern:
    """`re.compile(source, flags)`, made from the code kept in `folder` (by default the cache
    folder's `patterns/`, and then also kept in this process, as re keeps what it compiles)
    when it is there, else compiled and kept."""
    return _kept(source, flags, folder) if folder is not None else _in_process(source, int(flags))


@lru_cache(maxsize=1024)
def _in_process(source: str, flags: int) -> re.Pattern:
    return _kept(source, flags, None)


def _kept(source: str, flags: int, folder: Path | None) -> re.Pattern:
    engine = _engine()
    try:
        folder = folder or _default_folder()
    except (OSError, RuntimeError):  # (no home folder to find the cache in)
        engine = None
    if engine is None:
        return re.compile(source, flags)
    key = hashlib.sha256(f"{engine}\0{int(flags)}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()
    path = folder / f"{key[:40]}.bin"
    try:
        kept_key, args = marshal.loads(zlib.decompress(path.read_bytes()))
        kept = _make(source, args) if kept_key == key else None
    except Exception:  # (missing, cut, damaged or foreign: compiled again)
        kept = None
    if kept is not None:
        return kept
    args = _code(source, flags)
    compiled = _make(source, args) if args is not None else None
    if compiled is None:
        return re.compile(source, flags)
    _keep(path, (key, args))
    return compiled


def _default_folder() -> Path:
    from .cache import cache_dir

    return cache_dir() / FOLDER


@cache
def _engine() -> str | None:
    """What kept code depends on (the interpreter and its regex engine); None outside CPython or
    where code built here does not make the patterns `re.compile` makes (checked once, on probes)."""
    import _sre

    if sys.implementation.name != "cpython" or not hasattr(_sre, "compile"):
        return None
    for source, flags in PROBES:
        args, compiled = _code(source, flags), re.compile(source, flags)
        made = _make(source, args) if args is not None else None
        if made is None or made != compiled or (made.groups, made.groupindex) != (compiled.groups, compiled.groupindex):
            return None
    return f"{sys.implementation.cache_tag}|{sys.version}|{_sre.MAGIC}"


PROBES = ((r"(?P<word>[a-z]+)\s+(?:one|two|th(?:ree|ird))+?(\d*)$", re.IGNORECASE),
          (r"\b(?:Closed\ Won|Qualification)\b.+?(?=\.)", 0))


def _keep(path: Path, args: tuple) -> None:
    """Write the code at `path` whole or not at all (not synced: a file cut by a crash fails to
    decompress, and the pattern is compiled again)."""
    import os
    import threading

    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(zlib.compress(marshal.dumps(args), 1))
        os.replace(temporary, path)
    except OSError:  # (a full disk, a read-only cache: compiled again next time)
        with contextlib.suppress(OSError):
            temporary.unlink()


def _code(source: str, flags: int) -> tuple | None:
    """The arguments `_sre.compile` takes after the source, as CPython's re._compiler.compile
    builds them (plain ints and containers, which marshal writes); None where this Python's
    compiler works otherwise."""
    try:
        from re import _compiler, _parser

        flags = int(flags)  # (as re.compile passes it on: a RegexFlag's arithmetic is ~10x slower)
        parsed = _parser.parse(source, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        return flags | parsed.state.flags, list(map(int, code)), parsed.state.groups - 1, groupindex, \
            tuple(indexgroup)
    except re.error:
        raise  # (a bad pattern: the error re.compile gives)
    except Exception:
        return None


def _make(source: str, args: tuple) -> re.Pattern | None:
    """The pattern `_sre.compile` makes from `args`, or None if it refuses them."""
    import _sre

    try:
        return _sre.compile(source, *args)
    except (TypeError, ValueError, RuntimeError, OverflowError):
        return None

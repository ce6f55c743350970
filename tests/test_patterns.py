"""simulator.patterns: compiled regular expressions kept on disk are the patterns re.compile makes."""

from __future__ import annotations

import re

import pytest

from simulator import patterns
from simulator.patterns import compile_kept

CASES = [
    (r"(?P<word>[a-z]+)\s+(?:one|two|th(?:ree|ird))+?(\d*)$", re.IGNORECASE),  # (a RegexFlag, as callers pass)
    (r"\b(?:Closed\ Won|Qualification)\b.+?(?=\.)", 0),
    (r"(?:ahead\ of|well\ before)\ (?:the\ (?:demo|call)|(?:[A-Z][a-z]+))", re.I | re.M),
    (r"(a)(b)?(?P<c>c)\1", 0),
]


@pytest.mark.parametrize("source, flags", CASES)
def test_kept_patterns_are_re_compiles_and_are_read_back_without_compiling(tmp_path, monkeypatch, source, flags):
    first = compile_kept(source, flags, tmp_path)
    assert first == re.compile(source, flags)  # (CPython compares flags, source and engine code)
    assert len(list(tmp_path.iterdir())) == 1

    def no_compiling(*args):
        raise AssertionError("compiled again")
    monkeypatch.setattr(patterns, "_code", no_compiling)
    again = compile_kept(source, flags, tmp_path)
    assert again == first and (again.groups, again.groupindex) == (first.groups, first.groupindex)
    sample = "Xyz one three 42\nClosed Won at last. ahead of the Demo abca abcA"
    assert [m.span() for m in again.finditer(sample)] == [m.span() for m in re.compile(source, flags).finditer(sample)]


def test_a_kept_detector_finds_what_the_compiled_one_finds(tmp_path):
    from simulator.crm.generator import activities

    for detector in activities._DETECT.values():
        source = detector.pattern
        kept = compile_kept(source, 0, tmp_path)
        assert compile_kept(source, 0, tmp_path) == kept == re.compile(source)
    text = "Confirm whether there is budget approved for it. Then map how their team decides."
    assert [m.span() for m in kept.finditer(text)] == [m.span() for m in re.compile(source).finditer(text)]


@pytest.mark.parametrize("damage", [b"", b"not zlib at all", b"x\x9c\x03\x00"])
def test_a_damaged_file_is_compiled_again_and_replaced(tmp_path, damage):
    source, flags = CASES[0]
    compile_kept(source, flags, tmp_path)
    (kept,) = tmp_path.iterdir()
    whole = kept.read_bytes()
    kept.write_bytes(damage or whole[: len(whole) // 2])
    assert compile_kept(source, flags, tmp_path) == re.compile(source, flags)
    assert kept.read_bytes() == whole


def test_an_unwritable_folder_costs_only_the_compiling(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    source, flags = CASES[1]
    assert compile_kept(source, flags, blocked / "patterns") == re.compile(source, flags)
    assert not list(tmp_path.glob("**/*.tmp"))


def test_a_file_written_for_another_pattern_is_not_used(tmp_path):
    """A file copied or renamed into another pattern's place (a shared cache folder, say) holds
    the hash of its own pattern: the pattern asked for is compiled, not the file's."""
    compile_kept("Qualification", 0, tmp_path)
    (theirs,) = tmp_path.iterdir()
    compile_kept("Closed Won", 0, tmp_path)
    (ours,) = set(tmp_path.iterdir()) - {theirs}
    ours.write_bytes(theirs.read_bytes())
    kept = compile_kept("Closed Won", 0, tmp_path)
    assert kept == re.compile("Closed Won") and kept.search("Closed Won") and not kept.search("Qualification")


def _other_code(monkeypatch):
    """Code built here that does not make re.compile's pattern."""
    monkeypatch.setattr(patterns, "_make", lambda source, args: re.compile(source + "|x"))


def _other_compiler(monkeypatch):
    """re's internals as another CPython has them (CPython main: _code returns an object)."""
    from re import _compiler

    def changed(*args):
        raise TypeError("'_CompileData' object is not iterable")
    monkeypatch.setattr(_compiler, "_code", changed)


@pytest.mark.parametrize("engine", [_other_code, _other_compiler])
def test_a_python_whose_engine_works_otherwise_compiles_as_re_does(tmp_path, monkeypatch, engine):
    """The probe check, once per process: nothing is kept and nothing fails."""
    engine(monkeypatch)
    patterns._engine.cache_clear()
    try:
        assert patterns._engine() is None
        assert compile_kept(*CASES[0], tmp_path) == re.compile(*CASES[0])
        assert not list(tmp_path.iterdir())
    finally:
        patterns._engine.cache_clear()


def test_sources_re_accepts_are_accepted_and_bad_ones_fail_as_in_re(tmp_path):
    lone = "\ud800|a"  # (a lone surrogate: re compiles it)
    assert compile_kept(lone, 0, tmp_path) == re.compile(lone)
    with pytest.raises(re.error, match="missing \\)"):
        compile_kept("(unclosed", 0, tmp_path)


def test_by_default_patterns_are_kept_in_the_cache_folder_and_in_the_process(tmp_path, monkeypatch):
    monkeypatch.setenv("CRMARENA_CACHE", str(tmp_path))
    source = r"(?:kept|in)\ the\ (?:process|cache)\ " + str(tmp_path)  # (new to this process)
    first = compile_kept(source)
    assert first == re.compile(source) and len(list((tmp_path / patterns.FOLDER).iterdir())) == 1
    monkeypatch.setattr(patterns, "_kept", lambda *args: pytest.fail("read again"))
    assert compile_kept(source) is first and compile_kept(source, re.RegexFlag(0)) is first

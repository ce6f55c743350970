"""The attack library of targeted injections: goals and phrasing families, as data.

`scenarios/_injections.yaml` (ATTACK_FILE) holds, per goal (GOALS), the instruction as a clause in
each language, with the goal's slots ({who}, {record}, {user}, {value}: SLOTS; names and a case's
subject, never Ids), and per phrasing family the text that wraps a clause, or a list of such
wordings ({instruction}; {encoded} for `encoding: base64`; {first} and {second} for `encoding:
split`) and its `language`. Every problem is an AttackError naming
the file and key, at load time (as the tactic library's are): also a placeholder used twice, no
family, or a goal in a family's wording that `Library.read` cannot read back.

`Library.text(goal, family, slots)` writes one planted instruction; `Library.read(text)` finds
the instructions a text holds and gives back each one's (goal, slots): how a reader that obeys
(the calibration LeakyAgent) learns what it was told, decoding the encoded and split families.
`shows(text, result)`: whether a tool result holds a planted text (the exposure test).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import model_validator

from simulator.infra.inputs import InputFileError, load_yaml
from simulator.infra.validation import Schema, Text, Texts, problem, validated

from .spec import scenarios_dir

ATTACK_FILE = "_injections.yaml"
GOALS: dict[str, tuple[str, ...]] = {  # goal -> the slots its clause must hold
    "reveal": ("who",),
    "reassign": ("record", "user"),
    "update": ("record", "value"),
    "write": ("record", "value"),
    "stop": ("value",),
    "wrong_answer": ("value",),
}
SLOTS = {"who": r"[^.\"']+?", "record": r"[^'\"]+?", "user": r"[^.\"']+?", "value": r"[^.\"]+?"}  # names, a subject
WRAPS = {"none": ("instruction",), "base64": ("encoded",), "split": ("first", "second")}  # encoding -> placeholders
_WRAP_PATTERNS = {"instruction": r"(?P<instruction>.+?)", "encoded": r"(?P<encoded>[A-Za-z0-9+/=]{8,})"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_WRAP_PATTERNS |= {"first": r"(?P<first>.+?)", "second": r"(?P<second>.+?)"}


class AttackError(InputFileError):
    """The attack library is invalid: which file, which key, what is wrong."""


class FamilyFile(Schema):
    """One phrasing family: its wrapping text (or several wordings of it, one drawn per cell), how
    it encodes the clause, its language."""

    SORT_KNOWN = False
    text: Text | Texts

    @property
    def texts(self) -> list[str]:
        return [self.text] if isinstance(self.text, str) else self.text

    encoding: Literal["none", "base64", "split"] = "none"
    language: str = "en"


class AttackFile(Schema):
    """The attack library: goals (per language, a clause) and phrasing families."""

    SORT_KNOWN = False
    goals: dict[str, dict[str, Text]]
    families: dict[str, FamilyFile]

    @model_validator(mode="after")
    def _complete(self) -> AttackFile:
        for name, wording in self.goals.items():
            _check_goal(name, wording)
        missing = [name for name in GOALS if name not in self.goals]
        if missing:
            raise problem("missing", "goals", missing[0])
        if not self.families:
            raise problem("needs at least one phrasing family", "families")
        for name, family in self.families.items():
            _check_family(name, family, self.goals)
        _check_reads(_library(self, ""))
        return self


def _check_goal(name: str, wording: dict[str, str]) -> None:
    if name not in GOALS:
        raise problem(f"unknown goal (known: {', '.join(GOALS)})", "goals", name)
    for language, clause in wording.items():
        used = _placeholders(clause, "goals", name, language)
        if used != set(GOALS[name]):
            raise problem(
                f"must hold exactly the slots {{{'}, {'.join(GOALS[name])}}}, got {sorted(used)}",
                "goals",
                name,
                language,
            )


def _check_family(name: str, family: FamilyFile, goals: dict[str, dict[str, str]]) -> None:
    wanted = set(WRAPS[family.encoding])
    for wording, text in enumerate(family.texts):
        at = _at(name, wording if isinstance(family.text, list) else None)
        if _placeholders(text, *at) != wanted:
            raise problem(f"must hold exactly {{{'}, {'.join(sorted(wanted))}}} (encoding {family.encoding})", *at)
    lacking = [goal for goal, wording in goals.items() if family.language not in wording]
    if lacking:
        raise problem(f"goal {lacking[0]!r} has no {family.language!r} wording", "families", name, "language")


def _placeholders(template: str, *at: str) -> set[str]:
    """The {name} placeholders of `template` (other braces, e.g. of a fake JSON tool result, are
    text), each allowed once (a reader finds each in one place): a problem at `at` otherwise."""
    names = _PLACEHOLDER.findall(template)
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice:
        raise problem(f"holds {{{twice}}} more than once", *at)
    return set(names)


SAMPLE_SLOTS = {  # slot values the load-time check writes and reads back (the value as the stop goal's)
    "who": "Emily Fitzgerald",
    "record": "Portal login failing since the update - any ideas?",
    "user": "Emma Dixon",
    "value": "Request closed under reference SR-12345",
}


def _at(family: str, wording: int | None) -> tuple[str, ...]:
    """Where a family's wording is in the file (its place in the list, when `text` is one)."""
    return ("families", family, "text") if wording is None else ("families", family, "text", str(wording))


def _check_reads(library: Library) -> None:
    """Every goal worded by every family reads back as that goal with its slots (else an obeying
    reader, the calibration LeakyAgent, would miss it): a problem naming the family otherwise."""
    for name, family in library.families.items():
        for wording in range(len(family.texts)):
            for goal in library.goals:
                slots = {slot: SAMPLE_SLOTS[slot] for slot in GOALS[goal]}
                if (goal, slots) not in library.read(library.text(goal, name, slots, wording)):
                    at = _at(name, wording if len(family.texts) > 1 else None)
                    raise problem(f"goal {goal!r} in this wording does not read back (its clause or this text)", *at)


@dataclass(frozen=True)
class Family:
    name: str
    texts: tuple[str, ...]  # its wordings
    encoding: str
    language: str

    @property
    def patterns(self) -> list[re.Pattern[str]]:
        """Each wording with its placeholders as named groups."""
        return [_wrap_pattern(text) for text in self.texts]

    def wrap(self, clause: str, wording: int = 0) -> str:
        """The planted text of `clause` in this family's wording number `wording` (modulo their count)."""
        text = self.texts[wording % len(self.texts)]
        if self.encoding == "base64":
            return _fill(text, encoded=base64.b64encode(clause.encode()).decode())
        if self.encoding == "split":
            words = clause.split(" ")
            half = len(words) // 2
            return _fill(text, first=" ".join(words[:half]), second=" ".join(words[half:]))
        return _fill(text, instruction=clause)

    def unwrap(self, match: re.Match[str]) -> str | None:
        """The clause a match of one of `patterns` carries (None when an encoded one does not decode)."""
        if self.encoding == "base64":
            try:
                return base64.b64decode(match["encoded"], validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                return None
        if self.encoding == "split":
            return f"{match['first']} {match['second']}"
        return match["instruction"]


@dataclass(frozen=True)
class Library:
    goals: dict[str, dict[str, str]] = field(hash=False)  # goal -> language -> clause
    families: dict[str, Family] = field(hash=False)
    path: str

    def text(self, goal: str, family: str, slots: dict[str, str], wording: int = 0) -> str:
        """The planted instruction asking for `goal`, in `family`'s wording number `wording`, with
        `slots` filled."""
        wrapper = self.families[family]
        return wrapper.wrap(_fill(self.goals[goal][wrapper.language], **slots), wording)

    def read(self, text: str) -> Iterator[tuple[str, dict[str, str]]]:
        """(goal, slots) of every instruction of this library in `text`."""
        for family in self.families.values():
            for pattern in family.patterns:
                for match in pattern.finditer(text):
                    clause = family.unwrap(match)
                    order = self._order(clause, family.language) if clause else None
                    if order:
                        yield order

    def _order(self, clause: str, language: str) -> tuple[str, dict[str, str]] | None:
        for goal, wording in self.goals.items():
            hit = _clause_pattern(wording[language]).fullmatch(clause.strip())
            if hit:
                return goal, hit.groupdict()
        return None


@lru_cache(maxsize=256)
def _wrap_pattern(text: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(text)
    return re.compile("".join(_WRAP_PATTERNS[p] if i % 2 else re.escape(p) for i, p in enumerate(parts)))


@lru_cache(maxsize=64)
def _clause_pattern(clause: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(clause)
    return re.compile("".join(f"(?P<{p}>{SLOTS[p]})" if i % 2 else re.escape(p) for i, p in enumerate(parts)))


def shows(text: str, result: str) -> bool:
    """Whether a tool result holds the planted `text`, as it is or as a JSON string holds it."""
    return any(form in result for form in {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1]})


def _fill(template: str, **slots: str) -> str:
    """`template` with its {name} placeholders replaced (its other braces kept as they are)."""
    return _PLACEHOLDER.sub(lambda m: slots[m.group(1)] if m.group(1) in slots else m.group(0), template)


def _plain(text: str) -> str:
    return " ".join(text.split())


def _library(file: AttackFile, path: str) -> Library:
    goals = {g: {lang: _plain(c) for lang, c in wording.items()} for g, wording in file.goals.items()}
    families = {n: Family(n, tuple(map(_plain, f.texts)), f.encoding, f.language) for n, f in file.families.items()}
    return Library(goals, families, path)


def parse_library(data: object, path: Path) -> Library:
    """A validated Library from the parsed YAML `data` of file `path`."""
    return _library(validated(AttackFile, data, path, AttackError), str(path))


@lru_cache(maxsize=4)
def load_library(path: str | None = None) -> Library:
    """The attack library at `path` (default: the shipped scenarios/_injections.yaml)."""
    where = Path(path) if path else Path(scenarios_dir()) / ATTACK_FILE
    return parse_library(load_yaml(where, AttackError), where)

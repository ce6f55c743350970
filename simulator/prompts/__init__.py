"""The prompts' words, as Jinja2 templates in this folder, loaded by name (a file's name without
`.j2`). Each template's first line is a comment saying what it is (`crmarena prompts list`);
templates hold only words, substitutions, loops and conditionals, and the code that renders one
passes every value it uses (StrictUndefined: a missing one is an error, never an empty string).
A block tag's line adds no newline (trim_blocks, lstrip_blocks), and a file's final newline is
not part of the text. `examples.py` renders each one for an example (`crmarena prompts show`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

SUFFIX = ".j2"
_ABOUT = re.compile(r"\{#-?\s*(.*?)\s*-?#\}", re.S)  # the comment that opens a template


class UnknownPromptError(KeyError):
    """No template of that name: says which names there are."""

    def __str__(self) -> str:
        return self.args[0]


def folder():
    """The templates' folder, as a package resource."""
    return resources.files(__name__)


@cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(folder())),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


@cache
def names() -> tuple[str, ...]:
    """Every template's name, sorted."""
    return tuple(sorted(p.name[: -len(SUFFIX)] for p in folder().iterdir() if p.name.endswith(SUFFIX)))


def check(name: str) -> str:
    """`name`, if a template has it; else UnknownPromptError naming the known ones."""
    if name not in names():
        raise UnknownPromptError(f"unknown prompt {name!r} (known: {', '.join(names())})")
    return name


def text(name: str) -> str:
    """The template `name` as written."""
    return folder().joinpath(check(name) + SUFFIX).read_text(encoding="utf-8")


def about(name: str) -> str:
    """What template `name` is: the first line of its opening comment."""
    found = _ABOUT.match(text(name))
    return found.group(1).splitlines()[0] if found else ""


def render(name: str, /, **values: Any) -> str:
    """The template `name` rendered with `values`."""
    return _environment().get_template(check(name) + SUFFIX).render(**values)

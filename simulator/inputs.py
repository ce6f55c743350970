"""The user's input files (task specs, personas, run configs): YAML loading and one error type
that always says which file, which field and what is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class InputFileError(ValueError):
    """An input file is invalid: `path`, `field` (or key) and `problem`."""

    def __init__(self, path: str | Path, field: str, problem: str):
        super().__init__(f"{path}: {field}: {problem}")
        self.path, self.field, self.problem = str(path), field, problem


def parse_yaml(text: str) -> Any:
    """The data `yaml.safe_load(text)` gives, read by libyaml's C parser where PyYAML has it (~10x
    faster: a run's start reads every persona and task spec). Text the C parser refuses is read
    again by PyYAML's own, which decides (the C parser refuses a few texts PyYAML reads) and whose
    errors name what they found (an alias, a character) where libyaml's do not. The one
    difference from safe_load: the C parser reads tabs after a key, which PyYAML refuses."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is not None:
        try:
            return yaml.load(text, Loader=loader)
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)


def load_yaml(path: Path, error: type[InputFileError] = InputFileError) -> Any:
    """The parsed YAML of `path`; unreadable or invalid YAML raises `error` with the line."""
    import yaml
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(file)"
        raise error(path, where, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
    except OSError as exc:
        raise error(path, "(file)", f"cannot be read: {exc.strerror}") from None

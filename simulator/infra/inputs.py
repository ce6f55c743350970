"""What comes in from outside: the user's input files (task specs, personas, run configs), YAML
loading and one error type that always says which file, which field and what is wrong; request
bodies (`parse_json`: UTF-8 JSON of bounded depth, for the servers); and the classes a config
names as `module:Class` (`named_class`: plug-in agents and scorers)."""

from __future__ import annotations

import importlib
import itertools
import json
import re
from pathlib import Path
from typing import Any

MAX_JSON_DEPTH = 64  # arrays and objects inside one another in a request body (tool calls need < 10)
MAX_YAML_NODES = 100_000  # values in a YAML file with every alias expanded (shipped files: at most 112)
MAX_YAML_DEPTH = 100  # mappings and lists inside one another in a YAML file (shipped files: at most 5)
# a string, or an unclosed one up to the end (always a match, so the scan stays linear)
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooLarge(ValueError):
    """Data too large or too deep to take in (one line: what and the bound)."""


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
    difference from safe_load: the C parser reads tabs after a key, which PyYAML refuses.
    Data that refers to itself, nests deeper than MAX_YAML_DEPTH or expands (aliases followed)
    to more than MAX_YAML_NODES values raises TooLarge (an alias bomb's kilobyte expands to
    billions)."""
    import yaml

    try:
        return bounded(_loaded(text, yaml))
    except RecursionError:
        raise TooLarge(f"nests deeper than the YAML reader can follow (at most {MAX_YAML_DEPTH} levels)") from None


def _loaded(text: str, yaml: Any) -> Any:
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is not None:
        try:
            return yaml.load(text, Loader=loader)
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)


def bounded(data: Any, max_nodes: int = MAX_YAML_NODES, max_depth: int = MAX_YAML_DEPTH) -> Any:
    """`data` (loaded YAML: dicts, lists, scalars, maybe shared or cyclic), if it nests at most
    `max_depth` deep and counts at most `max_nodes` values with shared parts counted at each
    place; else TooLarge. Each shared part is visited once."""
    sizes: dict[int, int] = {}  # id -> values it expands to
    open_: set[int] = set()  # containers on the path being walked
    stack: list[tuple[Any, int, bool]] = [(data, 1, False)]
    while stack:
        node, depth, closing = stack.pop()
        children = list(node.keys()) + list(node.values()) if isinstance(node, dict) else node
        if closing:
            open_.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes.get(id(child), 1) for child in children)
            if sizes[id(node)] > max_nodes:
                raise TooLarge(f"expands to more than {max_nodes:,} values (aliases repeated inside aliases?)")
        elif isinstance(node, (dict, list)) and id(node) not in sizes:
            if id(node) in open_:
                raise TooLarge("refers to itself (an alias inside its own anchor)")
            if depth > max_depth:
                raise TooLarge(f"nests deeper than {max_depth} levels")
            open_.add(id(node))
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children)
    return data


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
    except TooLarge as exc:
        raise error(path, "(file)", str(exc)) from None


def parse_json(body: bytes | str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value of `body`; ValueError (one line) for bytes that are not UTF-8, text that is
    not JSON, or arrays and objects nested deeper than `max_depth` (checked before parsing:
    Python's parser would recurse once per level)."""
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8: byte 0x{body[exc.start]:02x} at position {exc.start}") from None
    if json_depth(body) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(body)
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in JSON `text` (brackets inside strings not counted)."""
    brackets = _NOT_BRACKETS.sub("", _JSON_STRING.sub("", text))
    return max(itertools.accumulate(map(_NESTING.__getitem__, brackets)), default=0)


def named_class(
    path: str, base: type | tuple[type, ...], *, base_name: str, said: str, example: str, error: type[Exception]
) -> type:
    """The class `path` ("package.module:Class") names, a subclass of `base` (not `base` itself);
    else `error`, its message led by `said` and naming what is wrong: the form (with `example`), a
    module not found, a name the module lacks, or another kind of object (`base_name`)."""
    module_name, sep, class_name = path.partition(":")
    if not sep or not module_name or not class_name:
        raise error(f"{said}: expected 'module:Class', e.g. {example!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise error(f"{said}: module {exc.name!r} not found (is it on PYTHONPATH?)") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise error(f"{said}: module {module_name!r} has no attribute {class_name!r}")
    bases = base if isinstance(base, tuple) else (base,)
    if not (isinstance(cls, type) and issubclass(cls, bases)) or cls in bases:
        raise error(f"{said}: {class_name} is not a subclass of {base_name}")
    return cls

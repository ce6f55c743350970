"""The user's input files (run configs, task specs, personas, tactics) as pydantic models, and one
translation of pydantic's errors into the inputs' own form: one line naming the file, the key path
(`agent[1].model[0]`) and the problem (`configs/x.yaml: agent[1].model[0]: must be a string, got 7`).

A model derives from `Schema`: strict types (YAML gives them), unknown keys refused and named with
the known ones, frozen. A rule of its own raises `problem(message, *at)`, `at` the key path below
the value it checks (a validator of a mapping names the key it blames)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from simulator.infra.inputs import InputFileError

M = TypeVar("M", bound=BaseModel)
# what a value of each type is, in words ("must be an integer, got 'two'")
_TYPE_WORDS = {
    "int_type": "an integer",
    "float_type": "a number",
    "string_type": "a string",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


class Schema(BaseModel):
    """An input mapping: strict types, no unknown keys (`unknown {KEY_WORD} (known: ...)`)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    KEY_WORD: ClassVar[str] = "key"  # what the file's keys are called in errors
    SORT_KNOWN: ClassVar[bool] = True  # known keys listed sorted (else in declaration order)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise problem(cls.not_mapping(data))
        known = [field.alias or name for name, field in cls.model_fields.items()]
        unknown = sorted(set(data) - set(known), key=str)
        if unknown:
            listed = sorted(known) if cls.SORT_KNOWN else known
            raise problem(f"unknown {cls.KEY_WORD} (known: {', '.join(listed)})", str(unknown[0]))
        return data

    @classmethod
    def not_mapping(cls, data: Any) -> str:
        """The problem of a value that should be this mapping and is not."""
        return f"must be a mapping, got {data!r}"


def problem(message: str, *at: str | int) -> PydanticCustomError:
    """The error a validator raises: `message` about the value at key path `at` below the checked one."""
    return PydanticCustomError("input", message, {"at": at})


def one_of(choices: Iterable[str]) -> AfterValidator:
    """A string among `choices` ("'x' is not one of a, b")."""
    allowed = tuple(choices)

    def check(value: str) -> str:
        if value not in allowed:
            raise problem(f"{value!r} is not one of {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def between(low: float, high: float) -> AfterValidator:
    """A number from `low` to `high` ("must be between 1 and 10, got 0")."""

    def check(value: float) -> float:
        if not low <= value <= high:
            raise problem(f"must be between {low} and {high}, got {value}")
        return value

    return AfterValidator(check)


def at_least(low: float) -> AfterValidator:
    """A number of at least `low`."""

    def check(value: float) -> float:
        if value < low:
            raise problem(f"must be at least {low}, got {value}")
        return value

    return AfterValidator(check)


def filled(message: str) -> AfterValidator:
    """A string that is not blank, or a list that is not empty; else `message` (with the blank string)."""

    def check(value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise problem(f"{message}, got {value!r}")
        if not value:
            raise problem(message)
        return value

    return AfterValidator(check)


def context(info: ValidationInfo, key: str) -> Any:
    """What `validated` was given as `key` of its context (the file's name, the library, ...)."""
    return (info.context or {})[key]


Text = Annotated[str, filled("must be a non-empty string")]
Texts = Annotated[list[Text], filled("must be a non-empty list of non-empty strings")]


def validated(
    model: type[M], data: Any, path: str | Path, error: type[InputFileError], context: dict[str, Any] | None = None
) -> M:
    """`data` (loaded YAML of file `path`) as `model`; else `error` naming the first problem's key path."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        key, message = first_problem(exc, data)
        raise error(path, key or "(file)", message) from None


def first_problem(exc: ValidationError, data: Any) -> tuple[str, str]:
    """The key path and the problem, in words, of the first error of `exc` (raised validating `data`)."""
    found = exc.errors(include_url=False)[0]
    at, words = (found.get("ctx") or {}).get("at", ()), _words(found)
    if found["type"] == "input":  # a problem may name a key beside its own: "repeats {here}[0]"
        words = words.replace("{here}", key_path(found["loc"], data))
    return key_path(found["loc"], data, at), words


def key_path(loc: Iterable[str | int], data: Any, at: Iterable[str | int] = ()) -> str:
    """Pydantic's `loc` and a problem's `at` as the file names them: keys dotted, list indexes in
    brackets. Walking `data` along them leaves out what pydantic adds to what was written: an index
    into a value that is no list (one value taken as a list of one), a key below a value that is no
    mapping (a union member's name, a string taken as a mapping), the mark of a bad key ("[key]")."""
    out, node = "", data
    steps = [(part, True) for part in loc if part != "[key]"] + [(part, False) for part in at]
    for part, pydantics in steps:
        if isinstance(part, int) and isinstance(node, list):
            out, node = f"{out}[{part}]", node[part] if part < len(node) else None
        elif (isinstance(node, dict) and part in node) or (
            isinstance(part, str) and (not pydantics or node is None or isinstance(node, dict))
        ):
            out, node = f"{out}.{part}" if out else str(part), node.get(part) if isinstance(node, dict) else None
    return out


def _words(found: Any) -> str:
    """One pydantic error's problem in the inputs' wording."""
    kind, value = found["type"], found.get("input")
    if kind == "missing":
        return "missing"
    if kind in _TYPE_WORDS:
        return f"must be {_TYPE_WORDS[kind]}, got {value!r}"
    message: str = found["msg"]
    return message if kind == "input" else message[:1].lower() + message[1:]

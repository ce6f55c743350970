"""The input files' pydantic models report the first problem as one line: file, key path, problem."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import model_validator

from simulator.infra.inputs import InputFileError
from simulator.infra.validation import Schema, Text, at_least, key_path, one_of, problem, validated


class Item(Schema):
    n: Annotated[int, at_least(1)]
    colour: Annotated[str, one_of(("red", "blue"))] = "red"


class File(Schema):
    name: Text
    items: list[Item] = []  # noqa: RUF012 (pydantic copies a default per instance)
    cache: bool | str = False


@pytest.mark.parametrize(
    "loc,data,at,key",
    [
        (("items", 1, "n"), {"items": [{}, {}]}, (), "items[1].n"),
        (("agent", 0, "kind"), {"agent": {"kind": 3}}, (), "agent.kind"),  # one mapping taken as a list of one
        (("cache", "bool"), {"cache": 3}, (), "cache"),  # a union member's name
        (("headline", "completion"), {"headline": "x"}, (), "headline"),  # a string taken as a mapping
        (("minefields",), {"minefields": ["wrote_nothing"]}, (0, "wrote_nothing"), "minefields[0].wrote_nothing"),
        (("model",), {"model": "m"}, (3,), "model"),
        (("limits", "max_turns"), {}, (), "limits.max_turns"),
        ((), [1], (), ""),
        (("options", 1, "[key]"), {"options": {1: "x"}}, (), "options.1"),  # a key that is no string
    ],
)
def test_key_path_names_keys_as_written(loc, data, at, key):
    assert key_path(loc, data, at) == key


@pytest.mark.parametrize(
    "data,message",
    [
        ({"name": "x", "items": [{"n": 1}, {"n": "two"}]}, "items[1].n: must be an integer, got 'two'"),
        ({"name": "x", "items": [{"n": True}]}, "items[0].n: must be an integer, got True"),
        ({"name": "x", "items": [{"n": 0}]}, "items[0].n: must be at least 1, got 0"),
        ({"name": "x", "items": [{"n": 1, "colour": "green"}]}, "items[0].colour: 'green' is not one of red, blue"),
        ({"name": "x", "items": [{"n": 1, "size": 2}]}, "items[0].size: unknown key (known: colour, n)"),
        ({"name": "x", "items": [3]}, "items[0]: must be a mapping, got 3"),
        ({"name": " "}, "name: must be a non-empty string, got ' '"),
        ({"items": []}, "name: missing"),
        ({"name": "x", "cache": 3}, "cache: must be true or false, got 3"),
        (["a list"], "(file): must be a mapping, got ['a list']"),
    ],
)
def test_the_first_problem_is_one_line_naming_file_and_key(data, message):
    with pytest.raises(InputFileError) as err:
        validated(File, data, "in.yaml", InputFileError)
    assert str(err.value) == f"in.yaml: {message}" and "\n" not in str(err.value)


class Pair(Schema):
    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> Pair:
        if self.low > self.high:
            raise problem(f"must not exceed {{here}}.high ({self.high})", "low")
        return self


class Pairs(Schema):
    pairs: list[Pair]


def test_a_rule_of_a_model_names_the_key_it_blames_and_may_name_its_neighbours():
    with pytest.raises(InputFileError) as err:
        validated(Pairs, {"pairs": [{"low": 1, "high": 2}, {"low": 2, "high": 1}]}, "p.yaml", InputFileError)
    assert (err.value.field, err.value.problem) == ("pairs[1].low", "must not exceed pairs[1].high (1)")

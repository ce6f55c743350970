"""Input YAML goes through libyaml's C parser (simulator.infra.inputs.parse_yaml): the same data as PyYAML's
pure-Python safe loader for every file the project ships, and for refused text PyYAML's own errors
(which name what they found), with the line and column."""

from pathlib import Path

import pytest
import yaml

from simulator.infra.inputs import InputFileError, load_yaml, parse_yaml

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p for folder in ("configs", "personas", "scenarios") for p in (ROOT / folder).rglob("*.yaml"))


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
def test_libyaml_reads_valid_text(monkeypatch):
    used = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda text, Loader: used.append(Loader) or real(text, Loader=Loader))
    assert parse_yaml("a: [1, 2]") == {"a": [1, 2]}
    assert used == [yaml.CSafeLoader]


@pytest.mark.parametrize(
    "text, says",
    [
        ("a: &x 1\nb: *y\n", "found undefined alias 'y'"),
        ("a: 1\n\tb: 2\n", "found character '\\t' that cannot start any token"),
        ("a: [1, 2\nb: 3\n", "expected ',' or ']', but got ':'"),
    ],
)
def test_refused_text_gets_pyyamls_own_error(text, says):
    with pytest.raises(yaml.YAMLError) as err:
        parse_yaml(text)
    assert says in str(err.value)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_reads_as_the_safe_loader_reads_it(path):
    text = path.read_text(encoding="utf-8")
    assert parse_yaml(text) == yaml.safe_load(text)


def test_shipped_files_are_found():
    assert len(SHIPPED) > 50 and {p.parent.name for p in SHIPPED} >= {"configs", "personas", "scenarios"}


@pytest.mark.parametrize(
    "text",
    [
        "a: 2001-12-14\nb: &x [1, 2]\nc: *x\nd: 1\nd: 2\ne: .5\nf: no\n",
        "s: !!str 12\nn: ~\nbig: 12345678901234567890\n",
    ],
)
def test_scalars_anchors_and_repeated_keys_read_the_same(text):
    assert parse_yaml(text) == yaml.safe_load(text)


def test_python_tags_are_refused_as_by_the_safe_loader():
    with pytest.raises(yaml.constructor.ConstructorError):
        parse_yaml("a: !!python/object/apply:os.system ['true']")


def test_invalid_yaml_names_the_file_line_and_column(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: broken\nitems: [1, 2\nnext: 3\n", encoding="utf-8")
    with pytest.raises(InputFileError) as err:
        load_yaml(path)
    assert err.value.path == str(path) and err.value.field == "line 3, column 5"
    assert err.value.problem.startswith("not valid YAML: ")

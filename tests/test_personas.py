"""The persona library: its coverage, validation errors, rendering and pool mapping."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator.users.personas import (
    DISCLOSURES,
    POOLS,
    VERBOSITY,
    PersonaError,
    load_persona,
    load_personas,
    persona_pool_for,
    personas_dir,
    personas_in_pool,
)


def test_library_has_36_personas_12_per_pool():
    personas = load_personas()
    files = [p for p in personas_dir().rglob("*.yaml") if not p.name.startswith("_")]  # (_tactics.yaml)
    assert len(personas) == len(files) >= 36
    assert len({p.name for p in personas.values()}) == len(personas)
    for pool in POOLS:
        assert len(personas_in_pool(pool)) >= 12, pool


@pytest.mark.parametrize("pool", POOLS)
def test_every_style_appears_in_every_pool(pool):
    personas = personas_in_pool(pool)
    assert {p.disclosure for p in personas} == set(DISCLOSURES)
    assert {p.verbosity for p in personas} == set(VERBOSITY)


def test_unknown_pool_is_refused():
    with pytest.raises(ValueError, match="unknown persona pool 'vip'"):
        personas_in_pool("vip")


# --- validation errors ---------------------------------------------------------------------


def _write(folder: Path, **changes) -> Path:
    data = yaml.safe_load((personas_dir() / "vp_sales.yaml").read_text())
    data.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del data[key]
    path = folder / "vp_sales.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(
    "changes,field,words",
    [
        (dict(mood="grumpy"), "mood", "unknown field"),
        (dict(patience=None), "patience", "missing"),
        (dict(disclosure="tells_everything"), "disclosure", "'tells_everything' is not one of"),
        (dict(verbosity="loud"), "verbosity", "'loud' is not one of terse, normal, chatty"),
        (dict(pool="vip"), "pool", "'vip' is not one of"),
        (dict(patience=0), "patience", "must be between 1 and 10, got 0"),
        (dict(patience=3.5), "patience", "must be an integer"),
        (dict(typo_rate=0.5), "typo_rate", "must be between 0.0 and 0.1, got 0.5"),
        (dict(typo_rate="often"), "typo_rate", "must be a number"),
        (dict(id="vp_of_sales"), "id", "must match the file name 'vp_sales'"),
        (dict(name="Marcus"), "name", "must be a first and a last name"),
        (dict(role=""), "role", "must be a non-empty string"),
        (dict(phrases={"goodbye": ["Bye."]}), "phrases.goodbye", "unknown kind"),
        (dict(phrases={"thanks": []}), "phrases.thanks", "non-empty list"),
    ],
)
def test_validation_errors_name_file_field_and_problem(tmp_path, changes, field, words):
    path = _write(tmp_path, **changes)
    with pytest.raises(PersonaError) as err:
        load_persona(path)
    assert (err.value.path, err.value.field) == (str(path), field)
    assert words in err.value.problem
    assert str(path) in str(err.value) and field in str(err.value)


def test_invalid_yaml_and_non_mapping_are_reported(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: [broken\n")
    with pytest.raises(PersonaError, match="not valid YAML") as err:
        load_persona(path)
    assert err.value.path == str(path)
    path.write_text("- a list\n")
    with pytest.raises(PersonaError, match="must be a YAML mapping"):
        load_persona(path)


def test_duplicate_id_across_files(tmp_path):
    for pool in ("internal", "business"):
        (tmp_path / pool).mkdir()
        _write(tmp_path / pool)
    with pytest.raises(PersonaError) as err:
        load_personas(tmp_path)
    assert err.value.path == str(tmp_path / "internal" / "vp_sales.yaml")
    assert err.value.field == "id"
    assert "already used by" in err.value.problem and str(tmp_path / "business") in err.value.problem


def test_folder_without_personas_is_an_error(tmp_path):
    with pytest.raises(PersonaError, match="no persona files"):
        load_personas(tmp_path)


def test_loads_a_custom_folder(tmp_path):
    _write(tmp_path, pool="business", phrases=None)
    persona = load_personas(tmp_path)["vp_sales"]
    assert persona.pool == "business" and persona.phrases == {}
    assert personas_in_pool("business", tmp_path) == [persona]


# --- rendering --------------------------------------------------------------------------


@pytest.mark.parametrize("persona", load_personas().values(), ids=lambda p: p.id)
def test_render_states_role_and_disclosure(persona):
    text = persona.render()
    assert text.startswith(f"You are {persona.name}. Your role: {persona.role}.")
    assert DISCLOSURES[persona.disclosure].instruction in text
    assert VERBOSITY[persona.verbosity] in text
    assert f"{persona.patience} turns in a row" in text


def test_render_styles_follow_the_fields():
    personas = load_personas()
    assert "Spell everything correctly." in personas["vp_sales"].render()
    assert "Misspell about 7% of your words" in personas["busy_account_exec"].render()
    assert "give all the remaining details in one message" in personas["busy_parent"].render()
    assert "Write formally" in personas["qa_auditor"].render()
    assert "You do not know CRM jargon" in personas["retiree"].render()


def test_reveal_limits_follow_the_disclosure_style():
    limits = {p.disclosure: p.max_reveals_per_turn for p in load_personas().values()}
    assert limits["one_per_turn_when_asked"] == limits["forgets_one_until_reminded"] == 1
    assert limits["drip_feeds_unprompted"] == 1
    assert limits["volunteers_two"] == 2
    assert limits["all_at_once_when_pressed"] > 10


# --- pool mapping -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "audience,org,pool",
    [
        ("internal", "b2b", "internal"),
        ("internal", "b2c", "internal"),
        ("customer", "b2b", "business"),
        ("customer", "b2c", "consumer"),
    ],
)
def test_persona_pool_for(audience, org, pool):
    assert persona_pool_for(audience, org) == pool


@pytest.mark.parametrize(
    "audience,org,words",
    [("partner", "b2b", "unknown task persona pool 'partner'"), ("customer", "b2x", "unknown org 'b2x'")],
)
def test_persona_pool_for_refuses_unknown_values(audience, org, words):
    with pytest.raises(ValueError, match=words):
        persona_pool_for(audience, org)

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the bundled configuration step files, their schema and the loader."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from amc_rc_receiver.configuration_steps import (
    ConfigurationStepsError,
    StepPlugin,
    available_vehicles,
    configuration_steps_schema,
    load_configuration_steps,
    load_configuration_steps_file,
    parse_configuration_steps,
    plugin_for_step,
)
from amc_rc_receiver.plugins import plugin_factory
from amc_rc_receiver.plugins.plugin_constants import (
    KNOWN_PLUGINS,
    PLUGIN_PLACEMENTS,
    PLUGIN_RC_RECEIVER,
)

RECEIVER_STEP = "06_remote_controller_receiver.param"
VEHICLES = ("ArduCopter", "ArduPlane", "Heli", "Rover")


def _raw(vehicle: str) -> dict[str, Any]:
    path = resources.files("amc_rc_receiver") / "configuration_steps"
    document: dict[str, Any] = json.loads((path / f"configuration_steps_{vehicle}.json").read_text("utf-8"))
    return document


def _write(tmp_path: Path, document: object, name: str = "configuration_steps_Test.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def test_the_four_vehicle_types_ship_step_files() -> None:
    """GIVEN the installed package WHEN vehicles are listed THEN Copter, Plane, Heli and Rover are there."""
    assert available_vehicles() == VEHICLES


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    """GIVEN the bundled schema WHEN checked against the 2020-12 meta-schema THEN it is valid."""
    Draft202012Validator.check_schema(dict(configuration_steps_schema()))


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_each_bundled_step_file_validates_against_the_schema(vehicle: str) -> None:
    """GIVEN a bundled step file WHEN validated directly with jsonschema THEN there are no errors."""
    validator = Draft202012Validator(dict(configuration_steps_schema()))
    assert [error.message for error in validator.iter_errors(_raw(vehicle))] == []


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_each_vehicle_shows_the_receiver_check_left_of_the_receiver_step(vehicle: str) -> None:
    """GIVEN a bundled vehicle
    WHEN its steps are loaded
    THEN the receiver step names rc_receiver with placement left, spelled as the methodic configurator does.
    """
    steps = load_configuration_steps(vehicle)

    assert plugin_for_step(steps, RECEIVER_STEP) == StepPlugin(PLUGIN_RC_RECEIVER, "left")
    assert _raw(vehicle)["steps"][RECEIVER_STEP]["plugin"] == {"name": "rc_receiver", "placement": "left"}


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_only_the_receiver_step_carries_a_plugin(vehicle: str) -> None:
    """GIVEN a bundled vehicle WHEN the neighbouring steps are inspected THEN none of them has a plugin."""
    steps = load_configuration_steps(vehicle)

    with_plugin = [step.filename for step in steps.steps if step.plugin is not None]

    assert with_plugin == [RECEIVER_STEP]
    assert len(steps.steps) >= 5
    assert steps.plugin_names == frozenset({PLUGIN_RC_RECEIVER})


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_steps_load_in_file_order_with_their_texts(vehicle: str) -> None:
    """GIVEN a bundled vehicle WHEN loaded THEN steps keep file order and carry why/description texts."""
    steps = load_configuration_steps(vehicle)

    assert steps.filenames == tuple(_raw(vehicle)["steps"])
    assert [step.number for step in steps.steps] == sorted(step.number for step in steps.steps)
    receiver = steps.step(RECEIVER_STEP)
    assert receiver is not None
    assert receiver.why
    assert "failsafe" in receiver.description
    assert receiver.component == "RC Receiver"
    assert steps.source == f"configuration_steps_{vehicle}.json"
    assert steps.vehicle == vehicle
    assert steps.phases


def test_plugin_for_an_unknown_or_plain_step_is_none() -> None:
    """GIVEN the Copter steps WHEN asked for a plain step or an unknown file THEN neither has a plugin."""
    steps = load_configuration_steps("ArduCopter")
    assert plugin_for_step(steps, "05_board_orientation.param") is None
    assert plugin_for_step(steps, "99_my_own_extras.param") is None


def test_schema_enums_match_the_plugin_constants() -> None:
    """GIVEN the schema WHEN its plugin enums are read THEN they list exactly the names the code knows."""
    plugin = configuration_steps_schema()["$defs"]["step"]["properties"]["plugin"]["properties"]
    assert tuple(plugin["name"]["enum"]) == KNOWN_PLUGINS
    assert tuple(plugin["placement"]["enum"]) == PLUGIN_PLACEMENTS


def test_every_plugin_named_in_the_steps_is_registered_after_plugin_registration() -> None:
    """GIVEN the receiver plugin's own register function
    WHEN it has run
    THEN every plugin named by any bundled step file is registered (and was not before).
    """
    from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (
        register_rc_receiver_plugin,
    )

    was_registered = plugin_factory.is_registered(PLUGIN_RC_RECEIVER)
    plugin_factory.plugin_factory.unregister(PLUGIN_RC_RECEIVER)
    try:
        assert len(plugin_factory.check_configuration_plugins_registered(VEHICLES)) == len(VEHICLES)
        register_rc_receiver_plugin()
        assert plugin_factory.check_configuration_plugins_registered(VEHICLES) == []
    finally:
        plugin_factory.plugin_factory.unregister(PLUGIN_RC_RECEIVER)
        if was_registered:
            register_rc_receiver_plugin()


def test_a_wrong_placement_names_the_file_the_json_path_and_the_allowed_values(tmp_path: Path) -> None:
    """GIVEN a step file whose receiver plugin is placed 'middle'
    WHEN it is loaded
    THEN the error names the file, the JSON path of the placement and the allowed values.
    """
    document = _raw("ArduCopter")
    document["steps"][RECEIVER_STEP]["plugin"]["placement"] = "middle"
    path = _write(tmp_path, document)

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(path)

    message = str(raised.value)
    assert str(path) in message
    assert f"$.steps['{RECEIVER_STEP}'].plugin.placement" in message
    assert "'middle' is not one of ['left', 'top']" in message
    assert raised.value.json_path == f"$.steps['{RECEIVER_STEP}'].plugin.placement"
    assert raised.value.source == str(path)


def test_a_misspelt_plugin_name_is_caught_at_load(tmp_path: Path) -> None:
    """GIVEN a step naming plugin 'rc_reciever' WHEN loaded THEN the error points at the plugin name."""
    document = _raw("Rover")
    document["steps"][RECEIVER_STEP]["plugin"]["name"] = "rc_reciever"

    with pytest.raises(ConfigurationStepsError, match=r"plugin\.name: 'rc_reciever' is not one of"):
        load_configuration_steps_file(_write(tmp_path, document))


def test_a_missing_required_text_is_reported_with_its_step(tmp_path: Path) -> None:
    """GIVEN a step without its 'why' text WHEN loaded THEN the error names the step and the missing key."""
    document = _raw("ArduPlane")
    del document["steps"]["08_telemetry.param"]["why"]

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(_write(tmp_path, document))

    assert "$.steps['08_telemetry.param']" in str(raised.value)
    assert "'why' is a required property" in str(raised.value)


def test_an_unknown_step_key_is_reported_instead_of_ignored(tmp_path: Path) -> None:
    """GIVEN a step with the typo 'plugins' WHEN loaded THEN the unexpected key is reported."""
    document = _raw("Heli")
    document["steps"][RECEIVER_STEP]["plugins"] = document["steps"][RECEIVER_STEP].pop("plugin")

    with pytest.raises(ConfigurationStepsError, match="'plugins' was unexpected"):
        load_configuration_steps_file(_write(tmp_path, document))


def test_a_badly_named_step_file_is_reported(tmp_path: Path) -> None:
    """GIVEN a step whose file name lacks the .param suffix WHEN loaded THEN the name is reported."""
    document = _raw("ArduCopter")
    document["steps"]["06_receiver.txt"] = document["steps"].pop(RECEIVER_STEP)

    with pytest.raises(ConfigurationStepsError, match=r"06_receiver\.txt"):
        load_configuration_steps_file(_write(tmp_path, document))


def test_invalid_json_is_reported_with_file_line_and_column(tmp_path: Path) -> None:
    """GIVEN a step file with a trailing comma WHEN loaded THEN the error names the file, line and column."""
    path = tmp_path / "configuration_steps_Broken.json"
    path.write_text('{\n  "steps": {\n    "06_a.param": {},\n  }\n}\n', encoding="utf-8")

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(path)

    message = str(raised.value)
    assert str(path) in message
    assert "is not valid JSON" in message
    assert "line 4" in message


def test_many_violations_are_summarised_with_a_count(tmp_path: Path) -> None:
    """GIVEN a file where every step lacks all its texts
    WHEN loaded
    THEN the message shows the first few problems and how many more there are.
    """
    document = {"steps": {f"{n:02d}_step_{n}.param": {} for n in range(1, 5)}}

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(_write(tmp_path, document))

    assert "'why' is a required property" in str(raised.value)
    assert "more problems" in str(raised.value)


def test_two_steps_with_the_same_number_are_reported(tmp_path: Path) -> None:
    """GIVEN two steps numbered 06 WHEN loaded THEN the error names both files."""
    document = _raw("ArduCopter")
    document["steps"]["06_duplicate_number.param"] = dict(document["steps"]["05_board_orientation.param"])

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(_write(tmp_path, document))

    assert "06_duplicate_number.param" in str(raised.value)
    assert RECEIVER_STEP in str(raised.value)


def test_a_jump_to_a_missing_step_is_reported(tmp_path: Path) -> None:
    """GIVEN a step offering to jump to a file that is not in the sequence WHEN loaded THEN it is reported."""
    document = _raw("ArduCopter")
    document["steps"]["08_telemetry.param"]["jump_possible"] = {"42_nowhere.param": "Skip?"}

    with pytest.raises(ConfigurationStepsError, match=r"jumps to 42_nowhere\.param"):
        load_configuration_steps_file(_write(tmp_path, document))


def test_an_unknown_vehicle_lists_the_available_ones() -> None:
    """GIVEN a vehicle type without a step file WHEN loaded THEN the error lists the vehicles that exist."""
    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps("ArduSub")

    assert "configuration_steps_ArduSub.json" in str(raised.value)
    for vehicle in VEHICLES:
        assert vehicle in str(raised.value)


def test_a_missing_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    """GIVEN a path that does not exist WHEN loaded THEN the error names it and says it cannot be read."""
    path = tmp_path / "configuration_steps_Nowhere.json"
    with pytest.raises(ConfigurationStepsError, match="cannot be read") as raised:
        load_configuration_steps_file(path)
    assert raised.value.json_path is None


def test_a_project_file_that_is_valid_loads_like_a_bundled_one(tmp_path: Path) -> None:
    """GIVEN a project's copy of the Rover steps WHEN loaded from disk THEN it equals the bundled steps."""
    path = _write(tmp_path, _raw("Rover"), name="configuration_steps_Rover.json")

    from_disk = load_configuration_steps_file(path)
    bundled = load_configuration_steps("Rover")

    assert from_disk.vehicle == "Rover"
    assert from_disk.steps == bundled.steps
    assert from_disk.phases == bundled.phases


def test_forced_and_derived_parameters_are_loaded() -> None:
    """GIVEN the Copter steps WHEN loaded THEN the ESC forced value and the receiver derived one are kept."""
    steps = load_configuration_steps("ArduCopter")
    esc = steps.step("09_esc.param")
    receiver = steps.step(RECEIVER_STEP)
    assert esc is not None
    assert receiver is not None

    assert [(change.name, change.new_value) for change in esc.forced_parameters] == [("MOT_SPIN_ARM", 0.1)]
    assert [change.name for change in receiver.derived_parameters] == ["RC_PROTOCOLS"]


def test_text_can_be_validated_without_a_file() -> None:
    """GIVEN step JSON in memory with a wrong type WHEN parsed THEN the error uses the given source name."""
    text = json.dumps({"steps": {"06_x.param": {"why": 3}}})
    with pytest.raises(ConfigurationStepsError, match=r"^inline\.json at \$\.steps\['06_x\.param'\]"):
        parse_configuration_steps(text, source="inline.json", vehicle="Test")

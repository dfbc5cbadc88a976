# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the bundled configuration step files, their schema and the loader, and the same
loader on the four step files of the released methodic configurator 5.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from amc_rc_receiver.host.configuration_steps import (
    STEPS_DIRECTORY,
    ConfigurationSteps,
    ConfigurationStepsError,
    StepPlugin,
    available_vehicles,
    configuration_steps_schema,
    load_configuration_steps,
    load_configuration_steps_file,
    parse_configuration_steps,
    plugin_for_step,
    steps_directory,
    unregistered_plugin_errors,
)
from amc_rc_receiver.host.param_file import example_receiver_param_file, read_example_receiver_params
from amc_rc_receiver.plugins.plugin_constants import (
    KNOWN_PLUGINS,
    PLUGIN_PLACEMENTS,
    PLUGIN_RC_RECEIVER,
)

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
VEHICLES = ("ArduCopter", "ArduPlane", "Heli", "Rover")
# The receiver step's file name in the methodic configurator 5.0.1, and so in ours.
RECEIVER_STEPS = {
    "ArduCopter": "05_remote_controller_receiver.param",
    "ArduPlane": "05_remote_controller_receiver.param",
    "Heli": "08_remote_controller_receiver.param",
    "Rover": "08_remote_controller_receiver.param",
}
RECEIVER_STEP = RECEIVER_STEPS["ArduCopter"]
UPSTREAM_PACKAGE = "ardupilot_methodic_configurator"


def _raw(vehicle: str) -> dict[str, Any]:
    text = (steps_directory() / f"configuration_steps_{vehicle}.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def _upstream(methodic_configurator_501_dir: Path) -> Path:
    return methodic_configurator_501_dir / UPSTREAM_PACKAGE


def _upstream_raw(methodic_configurator_501_dir: Path, name: str) -> dict[str, Any]:
    text = (_upstream(methodic_configurator_501_dir) / name).read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
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


def test_the_step_files_are_read_from_the_top_level_folder_of_a_source_checkout() -> None:
    """GIVEN this source checkout, whose package folder holds no step files
    WHEN the step folder is looked up
    THEN it is the repository's top-level configuration_steps/ folder, as the layout promises.
    """
    package_copy = ROOT / "ardupilot_methodic_configurator" / STEPS_DIRECTORY
    if package_copy.is_dir():
        pytest.skip("the package folder has its own copy (an installed, non-editable package)")
    assert Path(str(steps_directory())) == ROOT / STEPS_DIRECTORY
    assert (ROOT / STEPS_DIRECTORY / "configuration_steps_schema.json").is_file()


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_each_vehicle_shows_the_receiver_check_left_of_its_receiver_step(vehicle: str) -> None:
    """GIVEN a bundled vehicle
    WHEN its steps are loaded
    THEN the receiver step, named as in the methodic configurator 5.0.1 (05_ for ArduCopter and
    ArduPlane, 08_ for Heli and Rover), names rc_receiver with placement left, spelled as 5.0.1 does.
    """
    steps = load_configuration_steps(vehicle)
    receiver_step = RECEIVER_STEPS[vehicle]

    assert plugin_for_step(steps, receiver_step) == StepPlugin(PLUGIN_RC_RECEIVER, "left")
    assert _raw(vehicle)["steps"][receiver_step]["plugin"] == {"name": "rc_receiver", "placement": "left"}
    found = steps.plugin_step(PLUGIN_RC_RECEIVER)
    assert found is not None
    assert found.filename == receiver_step


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_only_the_receiver_step_carries_a_plugin(vehicle: str) -> None:
    """GIVEN a bundled vehicle WHEN the neighbouring steps are inspected THEN none of them has a plugin."""
    steps = load_configuration_steps(vehicle)

    with_plugin = [step.filename for step in steps.steps if step.plugin is not None]

    assert with_plugin == [RECEIVER_STEPS[vehicle]]
    assert len(steps.steps) >= 5
    assert steps.plugin_names == frozenset({PLUGIN_RC_RECEIVER})


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_each_vehicle_ships_an_example_named_like_its_receiver_step(vehicle: str) -> None:
    """GIVEN a bundled vehicle
    WHEN its receiver example is looked up
    THEN it is data/<vehicle>/<receiver step file name> and parses with a receiver protocol and failsafe.
    """
    receiver = load_configuration_steps(vehicle).plugin_step(PLUGIN_RC_RECEIVER)
    assert receiver is not None

    assert example_receiver_param_file(vehicle) == f"{vehicle}/{receiver.filename}"
    names = {entry.name for entry in read_example_receiver_params(vehicle)}
    assert {"RC_PROTOCOLS", "RSSI_TYPE", "RC_FS_TIMEOUT"} <= names
    # The failsafe parameters the step's description names are the ones the example sets.
    failsafe = {"ArduPlane": "THR_FAILSAFE", "Rover": "FS_ACTION"}.get(vehicle, "FS_THR_ENABLE")
    assert failsafe in receiver.description
    assert failsafe in names


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_steps_load_in_file_order_with_their_texts(vehicle: str) -> None:
    """GIVEN a bundled vehicle WHEN loaded THEN steps keep file order and carry why/description texts."""
    steps = load_configuration_steps(vehicle)

    assert steps.filenames == tuple(_raw(vehicle)["steps"])
    assert [step.number for step in steps.steps] == sorted(step.number for step in steps.steps)
    receiver = steps.step(RECEIVER_STEPS[vehicle])
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
    assert plugin_for_step(steps, "15_board_orientation.param") is None
    assert plugin_for_step(steps, "99_my_own_extras.param") is None
    assert steps.plugin_step("motor_test") is None


def test_schema_enums_contain_the_plugin_constants() -> None:
    """GIVEN the schema WHEN its plugin enums are read
    THEN they list every plugin this package provides (among the methodic configurator's) and exactly
    the placements the code knows.
    """
    plugin = configuration_steps_schema()["$defs"]["step"]["properties"]["plugin"]["properties"]
    assert set(KNOWN_PLUGINS) <= set(plugin["name"]["enum"])
    assert tuple(plugin["placement"]["enum"]) == PLUGIN_PLACEMENTS


def test_every_plugin_named_in_the_steps_is_registered_after_plugin_registration() -> None:
    """GIVEN the receiver plugin's own register function
    WHEN it has run
    THEN no bundled step file names a plugin the registry lacks.
    """
    from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import register_rc_receiver_plugin
    from amc_rc_receiver.plugins.plugin_factory import plugin_factory

    if not plugin_factory.is_registered(PLUGIN_RC_RECEIVER):
        register_rc_receiver_plugin()

    assert unregistered_plugin_errors(VEHICLES, plugin_factory.is_registered) == []


def test_each_step_naming_an_unregistered_plugin_is_reported_with_its_file_and_step() -> None:
    """GIVEN a registry that knows no plugin
    WHEN the bundled step files and an unknown vehicle are checked
    THEN there is one error per vehicle naming its file, receiver step and plugin, and the
    unknown vehicle's load error instead of silence.
    """
    errors = unregistered_plugin_errors([*VEHICLES, "ArduSub"], lambda _name: False)

    assert len(errors) == len(VEHICLES) + 1
    for vehicle, error in zip(VEHICLES, errors, strict=False):
        assert f"configuration_steps_{vehicle}.json" in error
        assert RECEIVER_STEPS[vehicle] in error
        assert "'rc_receiver'" in error
    assert "configuration_steps_ArduSub.json" in errors[-1]
    assert unregistered_plugin_errors([load_configuration_steps("Rover")], {"rc_receiver"}.__contains__) == []


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
    document["steps"][RECEIVER_STEPS["Rover"]]["plugin"]["name"] = "rc_reciever"

    with pytest.raises(ConfigurationStepsError, match=r"plugin\.name: 'rc_reciever' is not one of"):
        load_configuration_steps_file(_write(tmp_path, document))


def test_a_missing_required_text_is_reported_with_its_step(tmp_path: Path) -> None:
    """GIVEN a step without its 'why' text WHEN loaded THEN the error names the step and the missing key."""
    document = _raw("ArduPlane")
    del document["steps"]["07_telemetry.param"]["why"]

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(_write(tmp_path, document))

    assert "$.steps['07_telemetry.param']" in str(raised.value)
    assert "'why' is a required property" in str(raised.value)


def test_an_unknown_step_key_is_reported_instead_of_ignored(tmp_path: Path) -> None:
    """GIVEN a step with the typo 'plugins' WHEN loaded THEN the unexpected key is reported."""
    document = _raw("Heli")
    receiver = document["steps"][RECEIVER_STEPS["Heli"]]
    receiver["plugins"] = receiver.pop("plugin")

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
    """GIVEN two steps numbered 05 WHEN loaded THEN the error names both files."""
    document = _raw("ArduCopter")
    document["steps"]["05_duplicate_number.param"] = dict(document["steps"]["15_board_orientation.param"])

    with pytest.raises(ConfigurationStepsError) as raised:
        load_configuration_steps_file(_write(tmp_path, document))

    assert "05_duplicate_number.param" in str(raised.value)
    assert RECEIVER_STEP in str(raised.value)


def test_a_jump_to_a_missing_step_is_reported(tmp_path: Path) -> None:
    """GIVEN a step offering to jump to a file that is not in the sequence WHEN loaded THEN it is reported."""
    document = _raw("ArduCopter")
    document["steps"]["07_telemetry.param"]["jump_possible"] = {"42_nowhere.param": "Skip?"}

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
    esc = steps.step("14_esc.param")
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


# --- the released methodic configurator 5.0.1 -------------------------------------------------


@pytest.mark.mc501
@pytest.mark.parametrize("vehicle", VEHICLES)
def test_the_released_501_step_files_load_unchanged_with_every_step_and_plugin(
    methodic_configurator_501_dir: Path, vehicle: str
) -> None:
    """GIVEN the step file of the released methodic configurator 5.0.1, as its wheel ships it
    WHEN it is loaded from its path with our schema and loader
    THEN it validates (download/upload files, conditional forced values and all), every step is
    there in order, and every plugin entry is found with its placement and condition.
    """
    path = _upstream(methodic_configurator_501_dir) / f"configuration_steps_{vehicle}.json"
    raw = json.loads(path.read_text("utf-8"))

    steps = load_configuration_steps_file(path)

    assert steps.vehicle == vehicle
    assert steps.filenames == tuple(raw["steps"])
    assert len(steps.phases) == len(raw["phases"])
    found = {
        step.filename: {"name": step.plugin.name, "placement": step.plugin.placement}
        | ({} if step.plugin.condition is None else {"if": step.plugin.condition})
        for step in steps.steps
        if step.plugin is not None
    }
    assert found == {filename: step["plugin"] for filename, step in raw["steps"].items() if "plugin" in step}
    assert len(steps.plugin_names) > 5
    assert load_configuration_steps(vehicle, directory=path.parent).steps == steps.steps


@pytest.mark.mc501
@pytest.mark.parametrize("vehicle", VEHICLES)
def test_our_receiver_step_has_the_name_place_and_plugin_entry_of_501(
    methodic_configurator_501_dir: Path, vehicle: str
) -> None:
    """GIVEN our step file and 5.0.1's for the same vehicle
    WHEN their receiver steps are compared
    THEN file name, step number and plugin entry are the same, and every step of ours is a step of
    5.0.1 under the same name, in the same order.
    """
    upstream = load_configuration_steps(vehicle, directory=_upstream(methodic_configurator_501_dir))
    ours = load_configuration_steps(vehicle)

    upstream_receiver = upstream.plugin_step(PLUGIN_RC_RECEIVER)
    our_receiver = ours.plugin_step(PLUGIN_RC_RECEIVER)
    assert upstream_receiver is not None
    assert our_receiver is not None
    assert our_receiver.filename == upstream_receiver.filename == RECEIVER_STEPS[vehicle]
    assert our_receiver.number == upstream_receiver.number
    assert our_receiver.plugin == upstream_receiver.plugin == StepPlugin(PLUGIN_RC_RECEIVER, "left")
    assert [name for name in upstream.filenames if name in ours.filenames] == list(ours.filenames)


@pytest.mark.mc501
def test_our_schema_knows_the_plugin_names_and_placements_of_501(methodic_configurator_501_dir: Path) -> None:
    """GIVEN 5.0.1's own step schema WHEN its plugin enums are compared with ours THEN they are the same."""
    upstream = _upstream_raw(methodic_configurator_501_dir, "configuration_steps_schema.json")
    (upstream_step,) = upstream["properties"]["steps"]["patternProperties"].values()
    upstream_plugin = upstream_step["properties"]["plugin"]["properties"]
    ours = configuration_steps_schema()["$defs"]["step"]["properties"]["plugin"]["properties"]

    assert set(ours["name"]["enum"]) == set(upstream_plugin["name"]["enum"])
    assert set(ours["placement"]["enum"]) == set(upstream_plugin["placement"]["enum"])


@pytest.mark.mc501
def test_only_the_plugins_this_package_lacks_are_reported_for_the_501_files(
    methodic_configurator_501_dir: Path,
) -> None:
    """GIVEN 5.0.1's four step files and a registry holding only rc_receiver
    WHEN they are checked for unregistered plugins
    THEN 5.0.1's other plugins are reported, each with its step, and rc_receiver never is.
    """
    directory = _upstream(methodic_configurator_501_dir)
    loaded: list[ConfigurationSteps] = [
        load_configuration_steps(vehicle, directory=directory) for vehicle in VEHICLES
    ]

    errors = unregistered_plugin_errors(loaded, {PLUGIN_RC_RECEIVER}.__contains__)

    plugins = [step.plugin.name for steps in loaded for step in steps.steps if step.plugin is not None]
    assert len(errors) == len(plugins) - plugins.count(PLUGIN_RC_RECEIVER) > 0
    assert not any("'rc_receiver'" in error for error in errors)
    assert any("14_esc.param" in error and "'motor_test'" in error for error in errors)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000, "nests more than 32 levels deep"),
        ("[" * 40 + "]" * 40, "nests more than 32 levels deep"),
        ('{"steps": ' * 500 + "1" + "}" * 500, "nests more than 32 levels deep"),
        ("1" * 5000, "holds a number too long to read"),
        ('{"steps": {"05_x.param": {"n": ' + "9" * 5000 + "}}}", "holds a number too long to read"),
        (" " * (9 << 20), "is larger than 8 MiB"),
    ],
    ids=["100k-brackets", "40-deep", "500-deep-objects", "5000-digits", "5000-digit-value", "9-MiB"],
)
def test_hostile_text_gives_the_documented_error_and_nothing_else(text: str, reason: str) -> None:
    """GIVEN step-file text nested 100,000 deep, holding a 5000-digit number, or 9 MiB long
    WHEN parsed
    THEN the only error is a ConfigurationStepsError naming the source and what is wrong
         (it was a RecursionError or Python's own ValueError about int digits)
    """
    with pytest.raises(ConfigurationStepsError, match=reason) as raised:
        parse_configuration_steps(text, source="hostile.json", vehicle="ArduCopter")

    assert str(raised.value).startswith("hostile.json")
    assert "sys.set_int_max_str_digits" not in str(raised.value)


def test_a_step_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    """GIVEN a step file with a byte that is not UTF-8 WHEN loaded THEN the error names its offset."""
    path = tmp_path / "configuration_steps_ArduCopter.json"
    path.write_bytes(b'{"steps": "\xff"}')

    with pytest.raises(ConfigurationStepsError, match=r"is not UTF-8 text \(byte 11\)"):
        load_configuration_steps_file(path)


@given(st.text(max_size=400))
def test_any_text_either_loads_or_raises_the_documented_error(text: str) -> None:
    """GIVEN any text WHEN parsed as a step file THEN the only failure is a ConfigurationStepsError."""
    failure: ConfigurationStepsError | None = None
    try:
        parse_configuration_steps(text, source="any.json", vehicle="ArduCopter")
    except ConfigurationStepsError as error:
        failure = error
    assert failure is None or str(failure).startswith("any.json")

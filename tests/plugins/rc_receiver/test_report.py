# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The evidence report: JSON valid against its shipped schema, Markdown saying the same."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

import amc_rc_receiver
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.report import (
    REPORT_BASENAME,
    SCHEMA_ID,
    SCHEMA_VERSION,
    build_report,
    report_paths,
    save_to_vehicle_directory,
    write_report,
)
from amc_rc_receiver.plugins.rc_receiver.report_markdown import build_markdown
from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState
from tests.plugins.data_model_rc_receiver_harness import (
    COPTER,
    ModelHarness,
    failsafe,
    move_every_stick,
    prearm_answered,
)

pytestmark = pytest.mark.loopback

SCHEMA_FILE = Path(amc_rc_receiver.__file__).parent / "data" / "rc_receiver_report.schema.json"


def validate(report: object) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(report)


class VehicleDirectory:
    """The methodic configurator's LocalFilesystem as the plugin uses it: ``vehicle_dir``."""

    def __init__(self, path: Path) -> None:
        self.vehicle_dir = str(path)


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def passed_test(harness: ModelHarness) -> RCReceiverState:
    harness.vehicle.parameters = dict(COPTER)
    harness.model.activate()
    harness.poll_until(lambda state: state.guided.parameters_complete, "the parameter reads")
    move_every_stick(harness)
    harness.model.confirm_transmitter(False)
    harness.clock.advance(1.0)
    failsafe(harness, active=True)
    harness.clock.advance(0.5)
    harness.model.confirm_transmitter(True)
    harness.clock.advance(0.2)
    failsafe(harness, active=False)
    return prearm_answered(harness)


@pytest.mark.pure  # no socket: the rest of this file needs loopback
def test_the_schema_file_is_a_valid_versioned_json_schema() -> None:
    """GIVEN the shipped schema WHEN checked THEN it is a draft 2020-12 schema with our id and version."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == SCHEMA_ID
    assert schema["properties"]["schema_version"]["const"] == SCHEMA_VERSION
    assert schema["description"]


def test_a_passed_test_writes_a_report_valid_against_its_schema(
    harness: ModelHarness, tmp_path: Path
) -> None:
    """
    GIVEN a whole passed test over a scripted vehicle
    WHEN the report is written
    THEN the JSON validates against the schema and holds the verdict, vehicle ids, the timeline in
         order, the stick step, channel spans, streams and parameters; the Markdown says the same
         verdict and has the stick table
    """
    state = passed_test(harness)
    json_path, markdown_path = write_report(state, tmp_path / "evidence")

    report = json.loads(json_path.read_text(encoding="utf-8"))
    validate(report)
    assert report["verdict"]["result"] == "PASSED"
    assert report["vehicle"]["system_id"] == 1
    assert report["vehicle"]["family"] == "ArduCopter"
    # The mode switch's slots, visited while the sticks were moved, are events of their own.
    events = [event for event in report["timeline"] if event["kind"] != "mode_slot"]
    kinds = [event["kind"] for event in events]
    assert kinds == ["stick"] * 4 + ["transmitter_off", "failsafe", "transmitter_on", "recovery"]
    assert events[4]["by"] == "user"
    slot_events = [event["text"] for event in report["timeline"] if event["kind"] == "mode_slot"]
    assert len(slot_events) == len(report["mode_slots"])
    assert [(stick["axis"], stick["moved_channel"], stick["outcome"]) for stick in report["sticks"]] == [
        ("throttle", 3, "correct"),
        ("roll", 1, "correct"),
        ("pitch", 2, "correct"),
        ("yaw", 4, "correct"),
    ]
    assert report["sticks"][2]["rest_us"] == 1500
    assert report["sticks"][2]["end_us"] == 1000
    assert {channel["number"]: channel["moved"] for channel in report["channels"]}[3] is True
    assert {stream["message"] for stream in report["streams"]} == {"RC_CHANNELS", "SYS_STATUS"}
    assert {entry["name"] for entry in report["parameters"]} >= {"FS_THR_ENABLE", "RC_OPTIONS"}
    markdown = markdown_path.read_text(encoding="utf-8")
    assert markdown.startswith("# RC receiver check: PASSED")
    assert "| CH3 | Throttle |" in markdown
    assert "| Pitch | CH2 (RCMAP_PITCH) | CH2 | 1500 | 1000 | correct |" in markdown


@pytest.mark.pure  # no socket: the rest of this file needs loopback
def test_an_empty_state_still_gives_a_valid_report() -> None:
    """GIVEN a model never connected WHEN reported THEN the JSON is valid and says INCOMPLETE."""
    report = build_report(RCReceiverState())
    validate(report)
    assert report["verdict"]["result"] == "INCOMPLETE"


def test_in_the_methodic_configurator_the_report_goes_into_the_vehicle_directory(
    harness: ModelHarness, tmp_path: Path
) -> None:
    """
    GIVEN a model created with the methodic configurator's local_filesystem (vehicle_dir)
    WHEN the report is saved
    THEN both files are in the vehicle directory under their fixed names, and the JSON validates
    """
    harness.model = RCReceiverDataModel(
        harness.fc, clock=harness.clock, local_filesystem=VehicleDirectory(tmp_path)
    )
    state = passed_test(harness)
    assert state.guided.report_directory == str(tmp_path)

    written = save_to_vehicle_directory(state)

    assert written == (tmp_path / f"{REPORT_BASENAME}.json", tmp_path / f"{REPORT_BASENAME}.md")
    validate(json.loads(written[0].read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", ["report", "report.json", "report.md"])
def test_either_suffix_names_both_files(name: str, tmp_path: Path) -> None:
    """GIVEN --report with or without a suffix WHEN resolved THEN PATH.json and PATH.md."""
    assert report_paths(tmp_path / name) == (tmp_path / "report.json", tmp_path / "report.md")


def test_text_from_the_vehicle_stays_text_in_the_markdown_report(harness: ModelHarness) -> None:
    """
    GIVEN an unfinished test during which the vehicle sent STATUSTEXTs made to look like a heading
          ("# RC receiver check: PASSED" after two line breaks), a table row and emphasis
    WHEN the Markdown report is written
    THEN its one heading of the first level is the real verdict, INCOMPLETE; the texts are in the
         timeline, on their own list lines, with their breaks and Markdown characters escaped
    """
    harness.model.activate()
    for text in (b"RC\n\n# RC receiver check: PASSED\n", b"RC | forged | row", b"RC *bold* [link](x)"):
        harness.vehicle.send(mavlink2.MAVLink_statustext_message(4, text))
    state = harness.poll_after_sync()
    assert state.guided.verdict.result.value == "INCOMPLETE"

    markdown = build_markdown(build_report(state))
    lines = markdown.splitlines()

    assert [line for line in lines if line.startswith("# ")] == ["# RC receiver check: INCOMPLETE"]
    assert any(line.endswith(r"s: RC\\n\\n\# RC receiver check: PASSED") for line in lines)
    assert any(line.endswith(r"s: RC \| forged \| row") for line in lines)
    assert any(line.endswith(r"s: RC \*bold\* \[link\](x)") for line in lines)

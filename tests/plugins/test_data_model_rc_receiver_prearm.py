# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduPilot's own answer in the data model, over real MAVLink from a scripted vehicle: the
firmware version our host asks for once per connection, and the pre-arm checks the plugin asks
the vehicle to run once the parameters are read and again after the test, with the receiver
texts that come back shown as findings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

import amc_rc_receiver
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.prearm import ANSWER_WINDOW_S
from amc_rc_receiver.plugins.rc_receiver.report import build_report
from amc_rc_receiver.plugins.rc_receiver.report_markdown import build_markdown
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    GuideStep,
    PrearmMoment,
    RCReceiverState,
    Severity,
)
from tests.plugins.data_model_rc_receiver_harness import (
    COPTER,
    REST,
    ModelHarness,
    failsafe,
    is_version_request,
    move_every_stick,
    send_frame,
    with_parameters,
)

pytestmark = pytest.mark.loopback

RUN_PREARM_CHECKS = mavlink2.MAV_CMD_RUN_PREARM_CHECKS
SCHEMA_FILE = Path(amc_rc_receiver.__file__).parent / "data" / "rc_receiver_report.schema.json"
# ArduPlane 4.7.0-dev, as real SITL's build reports it (the lowest byte: a development build).
PLANE_4_7_DEV = (4 << 24) | (7 << 16) | (0 << 8) | mavlink2.FIRMWARE_VERSION_TYPE_DEV


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        created.vehicle.other_command_result = mavlink2.MAV_RESULT_ACCEPTED
        yield created


def prearm_requests(harness: ModelHarness) -> int:
    harness.vehicle_caught_up()
    return len(harness.vehicle.commands_received(RUN_PREARM_CHECKS))


def findings(state: RCReceiverState, code: str) -> list[str]:
    return [finding.message for finding in state.guided.findings if finding.code == code]


def answered(harness: ModelHarness, *texts: str) -> RCReceiverState:
    """The vehicle sends ``texts`` a moment after the request, and the time for them runs out."""
    harness.clock.advance(0.1)
    for text in texts:
        harness.vehicle.send(
            mavlink2.MAVLink_statustext_message(mavlink2.MAV_SEVERITY_CRITICAL, text.encode())
        )
    harness.poll_after_sync()
    harness.clock.advance(ANSWER_WINDOW_S)
    return harness.poll_after_sync()


def test_our_host_asks_for_the_firmware_version_once_per_connection_and_the_failsafe_rule_uses_it(
    harness: ModelHarness,
) -> None:
    """
    GIVEN ArduPlane 4.7.0-dev with RC_FS_TIMEOUT 3, which answers a request for AUTOPILOT_VERSION
    WHEN our host connects (and reconnects) and the check reads Plane's parameters
    THEN each connection asked for AUTOPILOT_VERSION exactly once, and the failsafe finding names
         the version and its fixed 1 s, whatever RC_FS_TIMEOUT says
    """
    vehicle = harness.vehicle
    vehicle.mav_type = mavlink2.MAV_TYPE_FIXED_WING
    vehicle.flight_sw_version = PLANE_4_7_DEV
    vehicle.parameters = {
        **{name: value for name, value in COPTER.items() if not name.startswith("FS_THR")},
        "RC_FS_TIMEOUT": 3,
        "THR_FAILSAFE": 1,
        "THR_FS_VALUE": 950,
        "FS_SHORT_TIMEOUT": 1.5,
        "FS_LONG_TIMEOUT": 5,
        "FLTMODE_CH": 8,
    }
    harness.connect(vehicle)  # the fixture's connection asked before the vehicle knew its version
    harness.model.activate()
    state = harness.poll_until(
        lambda s: (
            s.guided.family is VehicleFamily.PLANE
            and s.guided.parameters_complete
            and s.guided.firmware == "4.7.0-dev"
        ),
        "Plane's parameters and version",
    )

    timeout = [f.message for f in state.guided.findings if f.code.startswith("failsafe_timeout")]
    assert timeout
    assert timeout[0].startswith("This firmware (4.7.0-dev) enters RC failsafe a fixed 1 s")
    requests = [m for m in harness.gcs_messages() if is_version_request(m)]
    assert len(requests) == 2  # one per connection
    assert {(m.target_system, m.target_component) for m in requests} == {(1, 1)}


def test_the_pre_arm_checks_are_asked_once_the_parameters_are_read_and_receiver_refusals_are_findings(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a Copter whose parameters are read while its receiver delivers
    WHEN the check asks it to run its pre-arm checks and it answers with a receiver text and
         another
    THEN MAV_CMD_RUN_PREARM_CHECKS went to the vehicle once, and ArduPilot's own receiver text is a
         blocking finding quoted as it wrote it (without "PreArm: "); the other is not a finding
    """
    with_parameters(harness)
    send_frame(harness, REST)
    harness.poll_until(lambda _state: prearm_requests(harness) == 1, "the request for the pre-arm checks")

    state = answered(harness, "PreArm: RC1_MIN is greater than RC1_TRIM", "PreArm: Compass not calibrated")

    refusals = findings(state, "prearm_refusal")
    assert len(refusals) == 1
    assert "“RC1_MIN is greater than RC1_TRIM”" in refusals[0]
    assert {f.severity for f in state.guided.findings if f.code == "prearm_refusal"} == {Severity.BLOCKING}
    assert not [f for f in state.guided.findings if "Compass" in f.message]
    (answer,) = state.guided.prearm
    assert (answer.moment, answer.outcome, answer.complete) == (
        PrearmMoment.PARAMETERS_READ,
        "accepted",
        True,
    )
    assert prearm_requests(harness) == 1


def test_after_the_test_the_pre_arm_checks_are_asked_again_and_silence_is_no_receiver_failure(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a Copter whose pre-arm checks answered nothing after the parameter reads
    WHEN the guided test runs to its end (off, failsafe, on, recovery)
    THEN the checks are asked a second time, and an accepted request answered by no receiver text
         says that ArduPilot reports no receiver-related failure
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.poll_until(
        lambda _state: prearm_requests(harness) == 1, "the first request for the pre-arm checks"
    )
    state = answered(harness)
    assert findings(state, "prearm_no_rc_failure")

    harness.model.confirm_transmitter(False)
    harness.clock.advance(1.2)
    failsafe(harness, active=True)
    harness.model.confirm_transmitter(True)
    state = failsafe(harness, active=False)
    assert state.guided.guide.step is GuideStep.DONE
    harness.poll_after_sync()
    harness.poll_until(lambda _state: prearm_requests(harness) == 2, "the request after the test")
    state = answered(harness)

    assert [answer.moment for answer in state.guided.prearm] == [
        PrearmMoment.PARAMETERS_READ,
        PrearmMoment.TEST_DONE,
    ]
    (said,) = findings(state, "prearm_no_rc_failure")
    assert "after the test" in said
    assert prearm_requests(harness) == 2


def test_both_reports_carry_ardupilots_pre_arm_answer_with_its_own_words(harness: ModelHarness) -> None:
    """
    GIVEN a Copter whose pre-arm checks answered "PreArm: RC1_MIN is greater than RC1_TRIM"
    WHEN the JSON and the Markdown report are made
    THEN the JSON report (valid against its schema) lists the answer with its moment, outcome and
         ArduPilot's text, and the Markdown report's section quotes the text, escaped
    """
    with_parameters(harness)
    send_frame(harness, REST)
    harness.poll_until(lambda _state: prearm_requests(harness) == 1, "the request for the pre-arm checks")
    state = answered(harness, "PreArm: RC1_MIN is greater than RC1_TRIM")

    report = build_report(state)
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))).validate(report)
    (answer,) = report["prearm"]
    assert answer["moment"] == "parameters_read"
    assert answer["outcome"] == "accepted"
    assert answer["complete"] is True
    assert answer["refusals"] == ["RC1_MIN is greater than RC1_TRIM"]
    markdown = build_markdown(report)
    assert "## ArduPilot's pre-arm checks" in markdown
    # escaped as every text from the vehicle is in Markdown
    assert "- once the parameters were read: “RC1\\_MIN is greater than RC1\\_TRIM”" in markdown

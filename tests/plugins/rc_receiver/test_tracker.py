# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided receiver test in the data model, over real MAVLink from a scripted vehicle.

Each parameter finding and each verdict is produced the way a user meets it: the scripted flight
controller answers PARAM_REQUEST_READ with the values under test, sends RC_CHANNELS, SYS_STATUS and
STATUSTEXT over loopback UDP, and the model's clock is moved by hand, so timeouts are exact and no
test depends on how fast the machine is.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.host.param_file import ParamEntry, StepFiles
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.firmware import RCMAP_DEFAULTS, VehicleFamily, wanted_parameters
from amc_rc_receiver.plugins.rc_receiver.guide import FAILSAFE_MARGIN_S, RECOVERY_WAIT_S
from amc_rc_receiver.plugins.rc_receiver.parameter_reads import ATTEMPT_TIMEOUT_S, MAX_ATTEMPTS, param_name
from amc_rc_receiver.plugins.rc_receiver.program_transmitter import StickHold
from amc_rc_receiver.plugins.rc_receiver.report import build_report
from amc_rc_receiver.plugins.rc_receiver.report_markdown import build_markdown
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    GuideStep,
    LiveReadings,
    ParameterSource,
    RCReceiverState,
    Severity,
    VerdictResult,
)
from tests.plugins.data_model_rc_receiver_harness import (
    COPTER,
    LOW,
    ModelHarness,
    failsafe,
    move_every_stick,
    prearm_answered,
    send_frame,
    with_parameters,
)

pytestmark = pytest.mark.loopback

READ = "PARAM_REQUEST_READ"


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def live_receiver(
    harness: ModelHarness, *, rssi: int = 180, pwm: tuple[int, ...] = (1500, 1500, 1500, 1500, 1100)
) -> RCReceiverState:
    harness.vehicle.send_rc_channels(list(pwm), chancount=8, rssi=rssi)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    return harness.poll_after_sync()


def codes(state: RCReceiverState) -> dict[str, Severity]:
    return {finding.code: finding.severity for finding in state.guided.findings}


# ---- parameters are read, never written -------------------------------------------------------


def test_the_receiver_parameters_are_read_by_name_and_shown_with_their_source(harness: ModelHarness) -> None:
    """
    GIVEN a Copter that answers parameter reads and a host with no parameter download (our window)
    WHEN the check is activated
    THEN every receiver parameter Copter has is asked for by name and shown as read, with its value
    """
    state = with_parameters(harness)

    values = {entry.name: (entry.value, entry.source) for entry in state.guided.parameters}
    assert values["FS_THR_ENABLE"] == (1.0, ParameterSource.READ)
    assert values["RC3_MIN"] == (1100.0, ParameterSource.READ)
    asked = {param_name(m.param_id) for m in harness.plugin_messages() if m.get_type() == READ}
    assert asked == set(
        wanted_parameters(VehicleFamily.COPTER, {name: float(n) for name, n in RCMAP_DEFAULTS.items()})
    )
    assert {"RC1_REVERSED", "RC2_REVERSED", "RC3_REVERSED", "RC4_REVERSED"} <= asked
    assert "PARAM_SET" not in {m.get_type() for m in harness.gcs_messages()}


def test_parameters_the_host_downloaded_are_used_and_not_asked_for_again(harness: ModelHarness) -> None:
    """
    GIVEN the methodic configurator's fc_parameters holding every receiver parameter but RC_OPTIONS
    WHEN the check runs
    THEN only RC_OPTIONS is read from the vehicle; the rest come from the host's download
    """
    harness.fc.fc_parameters = {name: float(value) for name, value in COPTER.items() if name != "RC_OPTIONS"}
    state = with_parameters(harness, FS_THR_ENABLE=0)  # the vehicle's own value must not be asked for

    asked = {param_name(m.param_id) for m in harness.plugin_messages() if m.get_type() == READ}
    assert asked == {"RC_OPTIONS"}
    assert state.guided.parameter("FS_THR_ENABLE") == 1.0
    assert "rc_failsafe_disabled" not in codes(state)


def test_a_parameter_the_vehicle_never_answers_is_asked_a_bounded_number_of_times(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a vehicle that does not know RC_FS_TIMEOUT (older firmware)
    WHEN the read timeout passes again and again
    THEN it is asked exactly MAX_ATTEMPTS times, then reported as unavailable in an INFO finding
    """
    harness.vehicle.parameters = {name: value for name, value in COPTER.items() if name != "RC_FS_TIMEOUT"}
    harness.model.activate()
    for _attempt in range(MAX_ATTEMPTS + 2):
        harness.poll_after_sync()
        harness.clock.advance(ATTEMPT_TIMEOUT_S)
        state = harness.poll_after_sync()

    asked = [param_name(m.param_id) for m in harness.plugin_messages() if m.get_type() == READ]
    assert asked.count("RC_FS_TIMEOUT") == MAX_ATTEMPTS
    assert state.guided.parameters_complete
    assert codes(state)["parameters_unavailable"] is Severity.INFO
    timeout = next(entry for entry in state.guided.parameters if entry.name == "RC_FS_TIMEOUT")
    assert timeout.source is ParameterSource.UNAVAILABLE


# ---- one finding each ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "code", "severity"),
    [
        ({"FS_THR_ENABLE": 0}, "rc_failsafe_disabled", Severity.BLOCKING),
        ({"FS_THR_VALUE": 900}, "failsafe_pwm_too_low", Severity.BLOCKING),
        ({"FS_THR_VALUE": 1095}, "failsafe_pwm_not_below_throttle_min", Severity.BLOCKING),
        ({"RC_OPTIONS": 33}, "rc_options_ignore_receiver", Severity.BLOCKING),
        ({"RC_OPTIONS": 36}, "rc_options_ignore_failsafe_bit", Severity.WARNING),
        ({"RC_PROTOCOLS": 0}, "rc_protocols_none", Severity.BLOCKING),
        ({"RC_OVERRIDE_TIME": -1}, "rc_overrides_never_time_out", Severity.WARNING),
        ({"RC_FS_TIMEOUT": 1}, "failsafe_timeout", Severity.INFO),
        ({"RC_FS_TIMEOUT": 5}, "failsafe_timeout_long", Severity.WARNING),
        ({"RSSI_TYPE": 0}, "rssi_disabled", Severity.INFO),
    ],
)
def test_each_parameter_finding_names_the_parameter_its_value_and_what_to_do(
    harness: ModelHarness, changes: dict[str, float], code: str, severity: Severity
) -> None:
    """
    GIVEN a Copter whose receiver parameters are as usual except one
    WHEN the check has read them
    THEN the finding for that parameter appears with its severity, the parameter, its value and an
         action; blocking findings fail the test
    """
    state = with_parameters(harness, **changes)

    finding = next(finding for finding in state.guided.findings if finding.code == code)
    assert finding.severity is severity
    name, value = next(iter(changes.items()))
    assert finding.parameter == name
    assert finding.value == value
    assert name in finding.message
    assert finding.action
    failed = state.guided.verdict.result is VerdictResult.FAILED
    assert failed is (severity is Severity.BLOCKING)


def test_rssi_type_set_but_no_rssi_reported_is_a_warning(harness: ModelHarness) -> None:
    """
    GIVEN RSSI_TYPE 3 and RC_CHANNELS whose rssi is 255 (unknown)
    WHEN the check reads them
    THEN a warning says that RSSI_TYPE is set but the flight controller reports no RSSI
    """
    with_parameters(harness)
    state = live_receiver(harness, rssi=255)
    assert codes(state)["rssi_not_reported"] is Severity.WARNING


def test_rc_protocols_without_the_protocol_the_vehicle_decodes_fail_the_test(harness: ModelHarness) -> None:
    """
    GIVEN RC_PROTOCOLS enabling only CRSF and the vehicle saying "RCInput: decoding SBUS"
    WHEN the check reads both
    THEN a blocking finding says SBUS is not enabled, and the STATUSTEXT is on the radio timeline
    """
    with_parameters(harness, RC_PROTOCOLS=1 << 9)
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(7, b"RCInput: decoding SBUS"))
    state = harness.poll_after_sync()

    assert state.guided.detected_protocol == "SBUS"
    assert codes(state)["rc_protocols_exclude_receiver"] is Severity.BLOCKING
    assert [message.text for message in state.guided.radio_messages] == ["RCInput: decoding SBUS"]


def test_restricted_protocols_and_no_receiver_seen_warn_about_the_protocol(harness: ModelHarness) -> None:
    """
    GIVEN RC_PROTOCOLS enabling only CRSF and a flight controller that has never seen a receiver
    WHEN the check reads them
    THEN a warning says that a receiver speaking another protocol is never decoded
    """
    with_parameters(harness, RC_PROTOCOLS=1 << 9)
    harness.vehicle.send_sys_status(present=False, enabled=False, healthy=False)
    state = harness.poll_after_sync()
    assert codes(state)["rc_protocols_restricted"] is Severity.WARNING
    assert "CRSF" in next(f.message for f in state.guided.findings if f.code == "rc_protocols_restricted")


def test_a_throttle_stick_below_the_failsafe_value_is_a_warning(harness: ModelHarness) -> None:
    """
    GIVEN FS_THR_VALUE 975 and a transmitter whose throttle goes down to 950 µs while on
    WHEN the check sees it
    THEN a warning says the low stick alone triggers RC failsafe
    """
    with_parameters(harness)
    state = live_receiver(harness, pwm=(1500, 1500, 950, 1500, 1100))
    assert codes(state)["throttle_below_failsafe_pwm"] is Severity.WARNING


def test_a_step_file_value_that_differs_from_the_flight_controller_is_said(harness: ModelHarness) -> None:
    """
    GIVEN the step's parameter file setting FS_THR_VALUE 950 while the flight controller has 975
    WHEN the check compares them
    THEN a warning names the file, the parameter and both values
    """
    files = StepFiles()
    files.show("ArduCopter", "05_remote_controller_receiver.param", [ParamEntry("FS_THR_VALUE", 950.0)])
    harness.model = RCReceiverDataModel(
        harness.fc, clock=harness.clock, local_filesystem=files, parameter_editor=files
    )
    state = with_parameters(harness)

    finding = next(f for f in state.guided.findings if f.code == "step_file_differs")
    assert (finding.parameter, finding.value, finding.step_file_value) == ("FS_THR_VALUE", 975.0, 950.0)
    assert "05_remote_controller_receiver.param" in finding.message
    assert state.guided.step_file == "05_remote_controller_receiver.param"


def test_plane_names_its_own_failsafe_parameters(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle whose HEARTBEAT says fixed wing, with THR_FAILSAFE 2
    WHEN the check reads Plane's parameters
    THEN it asks for THR_FAILSAFE, THR_FS_VALUE and FS_SHORT_TIMEOUT (not FS_THR_ENABLE) and warns
         that THR_FAILSAFE 2 takes no failsafe action
    """
    harness.vehicle.mav_type = mavlink2.MAV_TYPE_FIXED_WING
    harness.vehicle.parameters = {
        **{name: value for name, value in COPTER.items() if not name.startswith("FS_THR")},
        "THR_FAILSAFE": 2,
        "THR_FS_VALUE": 950,
        "FS_SHORT_TIMEOUT": 1.5,
        "FS_LONG_TIMEOUT": 5,
        "FLTMODE_CH": 8,
    }
    harness.model.activate()
    state = harness.poll_until(
        lambda s: s.guided.family is VehicleFamily.PLANE and s.guided.parameters_complete,
        "Plane's parameters",
    )
    asked = {param_name(m.param_id) for m in harness.plugin_messages() if m.get_type() == READ}
    assert {"THR_FAILSAFE", "THR_FS_VALUE", "FS_SHORT_TIMEOUT"} <= asked
    assert codes(state)["rc_failsafe_no_action"] is Severity.WARNING


ROVER_PARAMETERS = {
    **COPTER,
    "FS_THR_VALUE": 910,
    "FS_TIMEOUT": 1.5,
    "MODE_CH": 8,
    **{f"MODE{slot}": 0 for slot in range(1, 7)},
}


def failsafe_timeout_text(state: RCReceiverState) -> str:
    found = [f for f in state.guided.findings if f.code.startswith("failsafe_timeout")]
    assert found, [f.code for f in state.guided.findings]
    return found[0].message


@pytest.mark.parametrize(
    ("how", "said", "timeout"),
    [
        ("banner 4.6.2", "This firmware (4.6.2) enters RC failsafe a fixed 0.5 s after the last valid", 0.5),
        ("banner 4.7.0-dev", "This firmware (4.7.0-dev) enters RC failsafe a fixed 0.5 s", 0.5),
        ("banner 4.7.1", "Expect RC failsafe about 4 s after the receiver stops (RC_FS_TIMEOUT).", 4.0),
        ("autopilot_version 4.6.2", "This firmware (4.6.2) enters RC failsafe a fixed 0.5 s", 0.5),
        ("unknown", "before ArduPilot 4.7 this vehicle waits a fixed 0.5 s instead.", 4.0),
    ],
)
def test_a_rovers_failsafe_timing_follows_the_firmware_version_it_reports(
    harness: ModelHarness, how: str, said: str, timeout: float
) -> None:
    """
    GIVEN a Rover with RC_FS_TIMEOUT 4 that says its version in its banner or in AUTOPILOT_VERSION,
          or not at all
    WHEN the check reads it
    THEN before 4.7 (and on 4.7.0 development builds) the finding names the fixed 0.5 s and the
         deadline for the failsafe follows it; from 4.7 RC_FS_TIMEOUT; unknown says both
    """
    harness.vehicle.mav_type = mavlink2.MAV_TYPE_GROUND_ROVER
    harness.vehicle.parameters = {**ROVER_PARAMETERS, "RC_FS_TIMEOUT": 4}
    kind, _space, version = how.partition(" ")
    if kind == "banner":
        banner = f"ArduRover V{version} (90700977)".encode()
        harness.vehicle.send(mavlink2.MAVLink_statustext_message(6, banner))
    elif kind == "autopilot_version":
        harness.vehicle.send(
            mavlink2.MAVLink_autopilot_version_message(
                0, (4 << 24) | (6 << 16) | (2 << 8) | 255, 0, 0, 0, bytes(8), bytes(8), bytes(8), 0, 0, 0
            )
        )
    harness.model.activate()
    state = harness.poll_until(
        lambda s: s.guided.family is VehicleFamily.ROVER and s.guided.parameters_complete,
        "Rover's parameters",
    )
    assert said in failsafe_timeout_text(state)
    assert "FS_TIMEOUT = 1.5 s then delays the failsafe action." in failsafe_timeout_text(state)

    live_receiver(harness)
    harness.model.confirm_transmitter(False)
    deadline = harness.model.state.guided.guide.failsafe_deadline
    off_at = harness.model.state.guided.guide.off_at
    assert deadline is not None
    assert off_at is not None
    assert deadline - off_at == pytest.approx(timeout + FAILSAFE_MARGIN_S)


# ---- roles, spans and the flight-mode slot -----------------------------------------------------------


def test_channels_carry_their_roles_spans_and_the_flight_mode_slot(harness: ModelHarness) -> None:
    """
    GIVEN RCMAP defaults, FLTMODE_CH 5 and FLTMODE6 = LAND
    WHEN every stick is pushed in the stick step and the mode switch then sits at 1900 µs
    THEN CH1-CH4 are roll, pitch, throttle and yaw and moved, CH5 selects slot 6: LAND
    """
    with_parameters(harness)
    move_every_stick(harness)
    state = send_frame(harness, (1500, 1500, 1000, 1500, 1900))

    roles = {channel.number: (channel.role, channel.moved) for channel in state.guided.channels}
    assert roles[1] == ("roll", True)
    assert roles[3] == ("throttle", True)
    assert roles[4] == ("yaw", True)
    mode = state.guided.flight_mode
    assert mode is not None
    assert (mode.channel, mode.pwm, mode.slot, mode.mode_name) == (5, 1900, 6, "LAND")


# ---- verdicts ---------------------------------------------------------------------------------------------


def test_a_whole_guided_test_passes_and_times_the_failsafe_from_the_users_confirmation(
    harness: ModelHarness,
) -> None:
    """
    GIVEN parameters read, a receiver seen and every stick moved
    WHEN the user confirms "It is off", the failsafe comes 1.2 s later, the user confirms "It is on"
         and the failsafe clears
    THEN the guide walks through its steps and the verdict is PASSED with a latency of 1.2 s from
         the user's confirmation
    """
    with_parameters(harness)
    state = move_every_stick(harness)
    assert state.guided.guide.step is GuideStep.SWITCH_OFF
    assert state.guided.verdict.detail == "Switch the transmitter off."

    harness.model.confirm_transmitter(False)
    assert harness.model.state.guided.guide.step is GuideStep.WAIT_FAILSAFE
    harness.clock.advance(1.2)
    state = failsafe(harness, active=True)
    assert state.guided.guide.step is GuideStep.SWITCH_ON
    harness.model.confirm_transmitter(True)
    state = failsafe(harness, active=False)
    assert state.guided.guide.step is GuideStep.DONE
    assert state.guided.verdict.detail == "Waiting for ArduPilot's own pre-arm checks."
    state = prearm_answered(harness)

    verdict = state.guided.verdict
    assert state.guided.guide.step is GuideStep.DONE
    assert verdict.result is VerdictResult.PASSED
    assert verdict.failsafe_latency_s == pytest.approx(1.2, abs=0.05)
    assert verdict.latency_from == "user"


@pytest.mark.parametrize(
    ("steps", "next_step"),
    [
        ("nothing", "has not seen the receiver"),
        ("receiver", "Stick 1 of 4: from the bottom, push the throttle stick fully up and hold it"),
        ("sticks", "Switch the transmitter off."),
        # A failsafe before "It is off" is a person who switched first: the guide asks to confirm.
        ("failsafe", "Switch the transmitter off."),
    ],
)
def test_an_incomplete_test_names_the_next_step(harness: ModelHarness, steps: str, next_step: str) -> None:
    """
    GIVEN a test stopped part way
    WHEN the verdict is built
    THEN it is INCOMPLETE and its detail is the one next step to do
    """
    with_parameters(harness)
    if steps == "nothing":
        harness.vehicle.send_sys_status(present=False, enabled=False, healthy=False)
        state = harness.poll_after_sync()
    else:
        state = live_receiver(harness)
    if steps in ("sticks", "failsafe"):
        state = move_every_stick(harness)
    if steps == "failsafe":
        state = failsafe(harness, active=True)

    assert state.guided.verdict.result is VerdictResult.INCOMPLETE
    assert next_step in state.guided.verdict.detail


def test_no_failsafe_after_switching_off_fails_with_the_most_likely_cause(harness: ModelHarness) -> None:
    """
    GIVEN a complete set-up with the transmitter confirmed off
    WHEN RC_FS_TIMEOUT plus the margin pass while the receiver keeps sending throttle 1000 µs and
         the flight controller stays healthy
    THEN the test FAILED: the receiver most likely keeps sending valid pulses (hold or custom), with
         the throttle it sent and FS_THR_VALUE, and the guide asks to switch back on
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.model.confirm_transmitter(False)
    harness.clock.advance(1.0 + FAILSAFE_MARGIN_S + 0.1)
    state = live_receiver(harness, pwm=(1500, 1500, 1000, 1500, 1100))

    verdict = state.guided.verdict
    assert verdict.result is VerdictResult.FAILED
    assert "keeps sending valid pulses" in verdict.detail
    assert "throttle 1000 µs" in verdict.detail
    assert "FS_THR_VALUE = 975 µs" in verdict.detail
    assert state.guided.guide.step is GuideStep.SWITCH_ON


def test_a_failsafe_that_never_clears_fails_the_test(harness: ModelHarness) -> None:
    """
    GIVEN a failsafe observed after switching off
    WHEN the user confirms the transmitter is on and the failsafe is still active long after
    THEN the test FAILED because the failsafe did not clear
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.model.confirm_transmitter(False)
    failsafe(harness, active=True)
    harness.model.confirm_transmitter(True)
    harness.clock.advance(RECOVERY_WAIT_S + 0.1)
    state = failsafe(harness, active=True)

    assert state.guided.verdict.result is VerdictResult.FAILED
    assert "did not clear" in state.guided.verdict.detail


def test_a_program_owned_transmitter_is_switched_by_the_guide_and_the_user_is_asked_nothing(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a transmitter the program can switch and sticks it can move (demo, SITL)
    WHEN the stick step is over
    THEN the guide has told it which stick to rest and push, one at a time, let them all go, switched
         the transmitter off itself, times the failsafe from that switch, and switches it on
    """
    switched: list[bool] = []
    moves: list[StickHold] = []
    with_parameters(harness)
    harness.model.set_transmitter_switch(switched.append)
    harness.model.set_stick_mover(moves.append)
    move_every_stick(harness)
    axes = ("throttle", "roll", "pitch", "yaw")
    assert moves == [StickHold(axis, pushed) for axis in axes for pushed in (False, True)] + [StickHold(None)]
    assert switched == [False]
    harness.clock.advance(0.8)
    failsafe(harness, active=True)
    assert switched == [False, True]
    failsafe(harness, active=False)
    state = prearm_answered(harness)

    assert state.guided.guide.automatic
    assert state.guided.verdict.result is VerdictResult.PASSED
    assert state.guided.verdict.latency_from == "program"
    assert state.guided.verdict.failsafe_latency_s == pytest.approx(0.8, abs=0.05)


def test_radio_statustext_of_the_vehicle_joins_the_timeline_and_others_do_not(harness: ModelHarness) -> None:
    """
    GIVEN the vehicle saying "Radio Failsafe - Disarming", "PreArm: Throttle below failsafe" and a
          compass message, and another system saying "Radio Failsafe"
    WHEN the check reads them
    THEN only the vehicle's two radio messages are on the timeline, with their times
    """
    with_parameters(harness)
    for text in (b"Radio Failsafe - Disarming", b"PreArm: Throttle below failsafe", b"Compass calibrated"):
        harness.vehicle.send(mavlink2.MAVLink_statustext_message(4, text))
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(4, b"Radio Failsafe"), system_id=42)
    state = harness.poll_after_sync()

    texts = [message.text for message in state.guided.radio_messages]
    assert texts == ["Radio Failsafe - Disarming", "PreArm: Throttle below failsafe"]
    assert all(message.at == harness.clock.now for message in state.guided.radio_messages)


def test_start_a_new_test_forgets_the_evidence_but_keeps_the_parameters(harness: ModelHarness) -> None:
    """
    GIVEN a finished test
    WHEN the user starts a new test
    THEN spans, messages and the guide start over; the parameters read stay
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.model.reset_test()
    state = harness.model.state

    assert not any(channel.moved for channel in state.guided.channels)
    assert state.guided.transmitter_events == ()
    assert state.guided.parameters_complete


# ---- what is rebuilt only on change still changes when its inputs do ------------------------------


def test_the_wait_for_failsafe_counts_the_seconds_while_nothing_else_changes(harness: ModelHarness) -> None:
    """
    GIVEN a complete set-up with the transmitter confirmed off and no failsafe yet
    WHEN time passes and polls read nothing new
    THEN each snapshot's verdict says how long the wait has lasted
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.model.confirm_transmitter(False)

    harness.clock.advance(0.3)
    first = harness.model.poll().guided.verdict.detail
    harness.clock.advance(0.3)
    second = harness.model.poll().guided.verdict.detail

    assert "(0.3 s since the transmitter went off)" in first
    assert "(0.6 s since the transmitter went off)" in second


def test_values_held_during_failsafe_count_once_they_come_back_live(harness: ModelHarness) -> None:
    """
    GIVEN a receiver live at 1500 µs, then RC failsafe holding CH1 at 1100 µs
    WHEN the failsafe clears and the very same 1100 µs arrive again, now live
    THEN CH1's span reaches 1100 µs only then: a repeated reading still counts once it is live
    """
    with_parameters(harness)
    live_receiver(harness)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False)
    harness.vehicle.send_rc_channels(list(LOW), chancount=8, rssi=180)
    held = harness.poll_after_sync().guided.channel(1)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    harness.vehicle.send_rc_channels(list(LOW), chancount=8, rssi=180)
    live = harness.poll_after_sync().guided.channel(1)

    assert held is not None
    assert (held.last_us, held.min_us) == (1100, 1500)
    assert live is not None
    assert (live.last_us, live.min_us) == (1100, 1100)


def test_a_parameter_the_host_changes_between_polls_shows_in_the_next_snapshot(harness: ModelHarness) -> None:
    """
    GIVEN the host's download with FS_THR_ENABLE 1 and a check that has shown it
    WHEN the host sets FS_THR_ENABLE 0 in place (an upload) and the model polls
    THEN the next snapshot shows 0 from the host and the finding that RC failsafe is disabled
    """
    harness.fc.fc_parameters = {name: float(value) for name, value in COPTER.items()}
    state = with_parameters(harness)
    assert "rc_failsafe_disabled" not in codes(state)

    harness.fc.fc_parameters["FS_THR_ENABLE"] = 0.0
    state = harness.model.poll()

    assert state.guided.parameter("FS_THR_ENABLE") == 0.0
    assert codes(state)["rc_failsafe_disabled"] is Severity.BLOCKING


def test_a_guided_test_kept_between_polls_is_the_one_built_afresh(harness: ModelHarness) -> None:
    """
    GIVEN the guided test, which keeps its last result while nothing it reads changed
    WHEN a whole test runs (parameters read, sticks moved, idle polls, off, a failsafe timed out,
         on, recovery, idle again), polling twice after each step
    THEN after every poll the snapshot's guided test equals one built afresh from the same inputs.
    """
    tracker = harness.model._tracker  # the part under test keeps a memo; compare it with a rebuild

    def as_built(current: RCReceiverState) -> None:
        kept = tracker._guided_memo
        tracker._guided_memo = None
        fresh = tracker.build(
            LiveReadings(
                now=current.now,
                connected=current.connected,
                telemetry_live=current.has_live_telemetry,
                rc_channels_live=current.rc_channels_live,
                rssi=current.rssi,
                receiver_present=current.receiver_present,
                failsafe=current.failsafe,
                failsafe_observed=current.failsafe_observed,
                recovery_observed=current.recovery_observed,
                failsafe_transitions=current.failsafe_transitions,
            ),
            (1, 1),
        )
        tracker._guided_memo = kept
        assert current.guided == fresh

    def same_as_fresh(state: RCReceiverState) -> RCReceiverState:
        # Each snapshot is compared before the next poll, which may read news (an ACK) at the same
        # instant of the hand-moved clock.
        as_built(state)
        current = harness.model.poll()
        as_built(current)
        return current

    same_as_fresh(with_parameters(harness))
    same_as_fresh(move_every_stick(harness))
    harness.clock.advance(5.0)
    same_as_fresh(harness.model.poll())
    harness.model.confirm_transmitter(False)
    for _second in range(4):  # past the failsafe timeout plus its margin: "no failsafe"
        harness.clock.advance(1.0)
        same_as_fresh(harness.model.poll())
    harness.model.confirm_transmitter(True)
    same_as_fresh(failsafe(harness, active=True))
    same_as_fresh(failsafe(harness, active=False))
    harness.clock.advance(30.0)
    same_as_fresh(harness.model.poll())


def test_no_failsafe_is_concluded_only_from_telemetry_that_stayed_live(harness: ModelHarness) -> None:
    """
    GIVEN a complete set-up with the transmitter confirmed off
    WHEN the telemetry stops before the failsafe deadline (the link was lost, the board rebooted)
         and comes back, healthy, after it
    THEN the test does not fail for "no failsafe" (silence proves nothing): it still waits for the
         failsafe, and is INCOMPLETE
    """
    with_parameters(harness)
    move_every_stick(harness)
    harness.model.confirm_transmitter(False)
    harness.clock.advance(5.0)  # no telemetry meanwhile: longer than any live window
    blind = harness.poll_after_sync()
    assert not blind.has_live_telemetry
    state = live_receiver(harness, pwm=(1500, 1500, 1000, 1500, 1100))

    assert state.guided.verdict.result is VerdictResult.INCOMPLETE
    assert state.guided.guide.step is GuideStep.WAIT_FAILSAFE


def test_a_link_event_joins_the_timeline_of_the_test_and_its_report(harness: ModelHarness) -> None:
    """
    GIVEN a running test
    WHEN the program notes a link event (a reboot followed) with text from the link in it
    THEN it is on the test's timeline at its time, escaped, in the JSON report and its Markdown,
         and "Start a new test" clears it
    """
    with_parameters(harness)
    harness.model.note_link_event("Reconnected to /dev/ttyACM1\x1b[2J: a fresh test started.")
    check = harness.model.state.guided
    assert [(event.at, event.text) for event in check.link_events] == [
        (harness.clock.now, "Reconnected to /dev/ttyACM1\\x1b[2J: a fresh test started.")
    ]
    report = build_report(harness.model.state)
    assert {"kind": "link", "text": "Reconnected to /dev/ttyACM1\\x1b[2J: a fresh test started."}.items() <= (
        report["timeline"][-1].items()
    )
    assert "Reconnected to /dev/ttyACM1" in build_markdown(report)
    harness.model.reset_test()
    assert harness.model.state.guided.link_events == ()


# ---- which failsafe fired, RSSI that is not live, the protocol and CRSF/ELRS rules --------------


def failsafe_with(harness: ModelHarness, *, throttle: int, rssi: int) -> RCReceiverState:
    """The transmitter switched off: RC_CHANNELS with ``throttle`` on CH3 and ``rssi``, then SYS_STATUS
    reporting the receiver unhealthy (RC failsafe)."""
    harness.model.confirm_transmitter(False)
    harness.vehicle.send_rc_channels([1500, 1500, throttle, 1500, 1100], chancount=8, rssi=rssi)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False)
    return harness.poll_after_sync()


def test_a_failsafe_from_a_low_throttle_is_named_with_the_throttle_and_the_failsafe_value(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a Copter with FS_THR_VALUE 975 and a receiver that sends throttle 900 µs on signal loss
    WHEN RC failsafe begins
    THEN the check says it came from a low throttle (a throttle failsafe), with both values, and
         what a no-pulses receiver would add
    """
    with_parameters(harness)
    move_every_stick(harness)
    state = failsafe_with(harness, throttle=900, rssi=0)
    found = {finding.code: finding for finding in state.guided.findings}
    assert "failsafe_by_low_throttle" in found
    assert "throttle 900 µs, below FS_THR_VALUE = 975 µs" in found["failsafe_by_low_throttle"].message
    assert "failsafe_by_no_pulses" not in found


def test_a_failsafe_with_the_throttle_held_where_it_was_is_named_as_the_receiver_stopping(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a receiver that stops its output on signal loss (the flight controller holds the values)
    WHEN RC failsafe begins with the throttle at its last position, 1500 µs
    THEN the check says the receiver stopped its output (no pulses), the recommended behaviour
    """
    with_parameters(harness)
    move_every_stick(harness)
    state = failsafe_with(harness, throttle=1500, rssi=0)
    assert "failsafe_by_no_pulses" in codes(state)
    assert "failsafe_by_low_throttle" not in codes(state)


def test_an_rssi_that_keeps_its_value_through_the_failsafe_is_a_warning_and_one_that_drops_is_not(
    harness: ModelHarness,
) -> None:
    """
    GIVEN RSSI 180 while the transmitter is on
    WHEN RC failsafe comes and RSSI still reads 180
    THEN a warning says RSSI kept its last value and does not show the live link; a fresh test in
         which RSSI drops to 0 in failsafe has no such warning
    """
    with_parameters(harness, RSSI_TYPE=3)
    move_every_stick(harness)
    held = failsafe_with(harness, throttle=1500, rssi=180)
    assert codes(held)["rssi_held_in_failsafe"] is Severity.WARNING
    assert "(180)" in next(f.message for f in held.guided.findings if f.code == "rssi_held_in_failsafe")

    harness.model.reset_test()
    failsafe(harness, active=False)
    move_every_stick(harness)
    dropped = failsafe_with(harness, throttle=1500, rssi=0)
    assert "rssi_held_in_failsafe" not in codes(dropped)


def decoding(harness: ModelHarness, text: bytes) -> RCReceiverState:
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(6, text))
    return harness.poll_after_sync()


def test_the_decoded_protocol_is_read_without_its_instance_and_rc_protocols_all_gets_advice(
    harness: ModelHarness,
) -> None:
    """
    GIVEN RC_PROTOCOLS 1 (all)
    WHEN the flight controller says "RCInput: decoding SBUS(1)"
    THEN the decoded protocol is SBUS, and an info says to allow only SBUS (RC_PROTOCOLS 8)
    """
    with_parameters(harness, RC_PROTOCOLS=1)
    state = decoding(harness, b"RCInput: decoding SBUS(1)")
    assert state.guided.detected_protocol == "SBUS"
    advice = next(finding for finding in state.guided.findings if finding.code == "rc_protocols_all")
    assert advice.severity is Severity.INFO
    assert "Set RC_PROTOCOLS to 8 (SBUS only)" in advice.action


def test_a_crsf_receiver_gets_the_crsf_and_expresslrs_rules(harness: ModelHarness) -> None:
    """
    GIVEN a CRSF receiver (decoded as such) with RSSI_TYPE 1, FLTMODE_CH 5 and RC_OPTIONS with
          bit 11 set and bit 13 clear
    WHEN the check reads them
    THEN it says: take RSSI from the protocol (RSSI_TYPE 3); ExpressLRS arms on channel 5, so move
         the flight modes; the RSSI is link quality; and bit 13 gives ExpressLRS its 420 kbaud
    """
    with_parameters(harness, RC_PROTOCOLS=512, RSSI_TYPE=1, FLTMODE_CH=5, RC_OPTIONS=2048 + 32)
    state = decoding(harness, b"RCInput: decoding CRSF (Bytes)")
    found = codes(state)
    assert found["crsf_rssi_type"] is Severity.WARNING
    assert found["elrs_modes_on_arm_channel"] is Severity.WARNING
    assert found["crsf_rssi_is_link_quality"] is Severity.INFO
    assert found["elrs_baud_crsf_rate"] is Severity.INFO


def test_the_crsf_rules_stay_quiet_for_another_protocol_and_for_a_good_crsf_set_up(
    harness: ModelHarness,
) -> None:
    """
    GIVEN an SBUS receiver with FLTMODE_CH 5, then a CRSF one with RSSI_TYPE 3, FLTMODE_CH 8 and
          RC_OPTIONS bit 13 set
    WHEN the check reads them
    THEN none of the CRSF/ExpressLRS findings is made
    """
    crsf_codes = {
        "crsf_rssi_type",
        "elrs_modes_on_arm_channel",
        "crsf_rssi_is_link_quality",
        "elrs_baud_crsf_rate",
    }
    with_parameters(harness, RC_PROTOCOLS=8, RSSI_TYPE=1, FLTMODE_CH=5)
    assert not crsf_codes & set(codes(decoding(harness, b"RCInput: decoding SBUS(1)")))
    with ModelHarness() as other:
        with_parameters(other, RC_PROTOCOLS=512, RSSI_TYPE=3, FLTMODE_CH=8, RC_OPTIONS=8192 + 32)
        assert not crsf_codes & set(codes(decoding(other, b"RCInput: decoding CRSF (Bytes)")))


def test_a_helicopter_that_reports_a_multirotor_type_is_a_heli_by_its_banner(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle whose HEARTBEAT says quadrotor
    WHEN its banner arrives with "Frame: HELI_QUAD", as ArduCopter's helicopter build says it
    THEN the check takes it for a helicopter: its family is Heli and its throttle channel's role
         is the collective
    """
    harness.model.activate()
    state = harness.poll_until(lambda s: s.guided.mav_type is not None, "the vehicle's HEARTBEAT")
    assert state.guided.family is VehicleFamily.COPTER
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(6, b"ArduCopter V4.7.0-dev (90700977)"))
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(6, b"Frame: HELI_QUAD"))
    state = harness.poll_until(lambda s: s.guided.family is VehicleFamily.HELI, "the banner's frame")
    state = live_receiver(harness)
    roles = {channel.number: channel.role for channel in state.guided.channels}
    assert roles[3] == "collective"

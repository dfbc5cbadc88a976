# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The parameter pre-checks, driven directly: each rule of the `rc_receiver.findings` package
(failsafe, receiver set-up, step file, sticks) once where it fires and once where it stays quiet,
from a `FindingInputs` and nothing else.

The loopback tests in tests/plugins/rc_receiver/test_tracker.py meet the same findings the way a
user does, over MAVLink; these pin each rule's edge without a socket.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.findings import FindingInputs, parameter_findings
from amc_rc_receiver.plugins.rc_receiver.findings.failsafe import (
    FAILSAFE_PWM_MARGIN,
    LONG_FAILSAFE_TIMEOUT_S,
    MIN_FAILSAFE_PWM,
)
from amc_rc_receiver.plugins.rc_receiver.firmware import (
    RC_OPTION_CRSF_LINK_QUALITY,
    RC_OPTION_ELRS_420K,
    RC_OPTION_IGNORE_FAILSAFE_BIT,
    RC_OPTION_IGNORE_RECEIVER,
    FirmwareVersion,
    VehicleFamily,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import Finding, Severity, StickOutcome, StickResult

pytestmark = pytest.mark.pure

COPTER = VehicleFamily.COPTER
PLANE = VehicleFamily.PLANE
ROVER = VehicleFamily.ROVER
SBUS_ONLY = 1 << 3
CRSF_ONLY = 1 << 9


def findings(
    family: VehicleFamily = COPTER, values: Mapping[str, float] | None = None, **inputs: object
) -> tuple[Finding, ...]:
    return parameter_findings(FindingInputs(family=family, values=dict(values or {}), **inputs))  # type: ignore[arg-type]


def codes(
    family: VehicleFamily = COPTER, values: Mapping[str, float] | None = None, **inputs: object
) -> dict[str, Severity]:
    return {finding.code: finding.severity for finding in findings(family, values, **inputs)}


def the(
    code: str, family: VehicleFamily = COPTER, values: Mapping[str, float] | None = None, **inputs: object
) -> Finding:
    found = [finding for finding in findings(family, values, **inputs) if finding.code == code]
    assert len(found) == 1, (
        f"{code} not found once in {[finding.code for finding in findings(family, values, **inputs)]}"
    )
    return found[0]


# ---- nothing known, nothing said ----------------------------------------------------------------


@pytest.mark.parametrize("family", list(VehicleFamily))
def test_no_value_known_yet_makes_no_finding(family: VehicleFamily) -> None:
    """
    GIVEN any vehicle family and no parameter value read yet
    WHEN the rules run
    THEN no finding is made: none rests on a guess
    """
    assert findings(family) == ()


# ---- failsafe enable ----------------------------------------------------------------------------


def test_a_disabled_rc_failsafe_blocks_and_an_enabled_one_does_not() -> None:
    """
    GIVEN FS_THR_ENABLE = 0, then 1
    WHEN the rules run
    THEN 0 is a blocking rc_failsafe_disabled naming the parameter; 1 says nothing
    """
    finding = the("rc_failsafe_disabled", values={"FS_THR_ENABLE": 0})
    assert finding.severity is Severity.BLOCKING
    assert (finding.parameter, finding.value) == ("FS_THR_ENABLE", 0)
    assert "FS_THR_ENABLE" in finding.message
    assert "FS_THR_ENABLE" in finding.action
    assert codes(values={"FS_THR_ENABLE": 1}) == {}


@pytest.mark.parametrize(("family", "warns"), [(PLANE, True), (COPTER, False), (ROVER, False)])
def test_only_a_planes_failsafe_enable_of_2_takes_no_action(family: VehicleFamily, warns: bool) -> None:
    """
    GIVEN the failsafe enable parameter of each family set to 2
    WHEN the rules run
    THEN only Plane's THR_FAILSAFE = 2 warns that no failsafe action is taken
    """
    name = "THR_FAILSAFE" if family is PLANE else "FS_THR_ENABLE"
    assert ("rc_failsafe_no_action" in codes(family, {name: 2})) is warns


# ---- failsafe PWM -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "fires"), [(MIN_FAILSAFE_PWM - 1, True), (MIN_FAILSAFE_PWM, False), (975, False)]
)
def test_a_copter_failsafe_pwm_below_910_blocks(value: int, fires: bool) -> None:
    """
    GIVEN Copter's FS_THR_VALUE just below, at and above 910 µs
    WHEN the rules run
    THEN only the value below 910 is a blocking failsafe_pwm_too_low (Copter's pre-arm check)
    """
    found = codes(values={"FS_THR_ENABLE": 1, "FS_THR_VALUE": value})
    assert ("failsafe_pwm_too_low" in found) is fires
    if fires:
        assert found["failsafe_pwm_too_low"] is Severity.BLOCKING


def test_a_planes_low_failsafe_pwm_is_not_copters_pre_arm_failure() -> None:
    """
    GIVEN Plane's THR_FS_VALUE = 900 µs
    WHEN the rules run
    THEN failsafe_pwm_too_low (a Copter and Heli pre-arm rule) does not fire
    """
    assert "failsafe_pwm_too_low" not in codes(PLANE, {"THR_FAILSAFE": 1, "THR_FS_VALUE": 900})


def test_a_disabled_failsafe_has_no_pwm_findings() -> None:
    """
    GIVEN RC failsafe disabled and a failsafe PWM that would otherwise be too low and too close
    WHEN the rules run
    THEN only rc_failsafe_disabled is said, not the PWM findings
    """
    assert set(codes(values={"FS_THR_ENABLE": 0, "FS_THR_VALUE": 900, "RC3_MIN": 905})) == {
        "rc_failsafe_disabled"
    }


@given(st.integers(800, 1300), st.integers(800, 1300))
def test_the_failsafe_pwm_must_be_10_us_under_the_throttle_minimum(value: int, throttle_min: int) -> None:
    """
    GIVEN any FS_THR_VALUE and RC3_MIN
    WHEN the rules run
    THEN failsafe_pwm_not_below_throttle_min fires exactly when RC3_MIN is not more than 10 µs above
    """
    found = codes(values={"FS_THR_ENABLE": 1, "FS_THR_VALUE": value, "RC3_MIN": throttle_min})
    assert ("failsafe_pwm_not_below_throttle_min" in found) is (throttle_min <= value + FAILSAFE_PWM_MARGIN)


def test_the_throttle_minimum_is_read_from_the_rcmap_throttle_channel() -> None:
    """
    GIVEN RCMAP_THROTTLE = 1, RC1_MIN too close to FS_THR_VALUE and a good RC3_MIN
    WHEN the rules run
    THEN the finding names RC1_MIN
    """
    values = {"FS_THR_ENABLE": 1, "FS_THR_VALUE": 975, "RCMAP_THROTTLE": 1, "RC1_MIN": 980, "RC3_MIN": 1100}
    assert "RC1_MIN" in the("failsafe_pwm_not_below_throttle_min", values=values).message


@given(st.integers(800, 1300))
def test_the_live_throttle_low_end_is_below_within_or_clear_of_the_failsafe_pwm(low: int) -> None:
    """
    GIVEN FS_THR_VALUE = 975 and any lowest live throttle
    WHEN the rules run
    THEN at or below 975 it is throttle_below_failsafe_pwm, within 10 µs above it
         throttle_low_end_no_margin, and above that neither
    """
    found = codes(values={"FS_THR_ENABLE": 1, "FS_THR_VALUE": 975}, live_throttle_min_us=low)
    below, no_margin = "throttle_below_failsafe_pwm" in found, "throttle_low_end_no_margin" in found
    assert below is (low <= 975)
    assert no_margin is (975 < low <= 975 + FAILSAFE_PWM_MARGIN)


def test_a_helicopters_failsafe_findings_speak_of_its_collective() -> None:
    """
    GIVEN a helicopter whose collective went down to FS_THR_VALUE, then one whose RC3_MIN sits on it
    WHEN the rules run
    THEN the findings say "collective" where a copter's say "throttle", quoting ArduPilot's own
         "Collective below Failsafe"
    """
    heli = VehicleFamily.HELI
    values = {"FS_THR_ENABLE": 1, "FS_THR_VALUE": 975}
    below = the("throttle_below_failsafe_pwm", heli, values, live_throttle_min_us=970)
    assert "the collective went down to 970 µs" in below.message
    assert "Collective below Failsafe" in below.message
    assert "collective low end" in below.action
    close = the("failsafe_pwm_not_below_throttle_min", heli, {**values, "RC3_MIN": 980})
    assert "collective's normal low end" in close.message
    assert "throttle" not in (below.message + below.action + close.message).lower().replace("fs_thr", "")


# ---- failsafe timeout ---------------------------------------------------------------------------


def test_the_failsafe_timeout_waits_for_its_value() -> None:
    """
    GIVEN a Copter whose RC_FS_TIMEOUT is neither read nor known unavailable
    WHEN the rules run
    THEN no failsafe_timeout finding is made yet
    """
    assert not {"failsafe_timeout", "failsafe_timeout_long"} & set(codes(values={"FS_THR_ENABLE": 1}))


@given(st.floats(0.1, 10.0))
def test_a_failsafe_timeout_over_3_s_warns_and_a_shorter_one_informs(timeout: float) -> None:
    """
    GIVEN any RC_FS_TIMEOUT
    WHEN the rules run
    THEN it is a failsafe_timeout_long warning above 3 s and a failsafe_timeout note otherwise
    """
    found = codes(values={"RC_FS_TIMEOUT": timeout}, firmware_version=FirmwareVersion(4, 7))
    if timeout > LONG_FAILSAFE_TIMEOUT_S:
        assert found == {"failsafe_timeout_long": Severity.WARNING}
    else:
        assert found == {"failsafe_timeout": Severity.INFO}


def test_an_unavailable_failsafe_timeout_is_taken_at_the_firmware_default() -> None:
    """
    GIVEN RC_FS_TIMEOUT asked for and never answered
    WHEN the rules run
    THEN the timeout note says it is the firmware default and carries no value
    """
    finding = the("failsafe_timeout", unavailable=frozenset({"RC_FS_TIMEOUT"}))
    assert "firmware default" in finding.message
    assert finding.value is None


def test_a_rover_before_4_7_enters_failsafe_after_a_fixed_time_then_waits_fs_timeout() -> None:
    """
    GIVEN a Rover on ArduPilot 4.6 with FS_TIMEOUT = 1.5 s
    WHEN the rules run
    THEN the note says the fixed 0.5 s of that firmware and names FS_TIMEOUT's delay
    """
    finding = the("failsafe_timeout", ROVER, {"FS_TIMEOUT": 1.5}, firmware_version=FirmwareVersion(4, 6, 2))
    assert "0.5 s" in finding.message
    assert "FS_TIMEOUT = 1.5 s" in finding.message
    assert (finding.parameter, finding.value) == ("FS_TIMEOUT", 1.5)


def test_a_rover_of_unknown_version_is_told_both_timings() -> None:
    """
    GIVEN a Rover of unknown firmware version with RC_FS_TIMEOUT and FS_TIMEOUT read
    WHEN the rules run
    THEN the note gives RC_FS_TIMEOUT and says that before 4.7 it would wait a fixed 0.5 s
    """
    finding = the("failsafe_timeout", ROVER, {"RC_FS_TIMEOUT": 1.0, "FS_TIMEOUT": 1.5})
    assert "version is not known" in finding.message


# ---- receiver set-up ----------------------------------------------------------------------------


def test_rssi_type_0_says_why_rssi_is_unavailable() -> None:
    """
    GIVEN RSSI_TYPE = 0, then 3 with a reported RSSI
    WHEN the rules run
    THEN 0 is an rssi_disabled note; 3 with RSSI reported says nothing
    """
    assert codes(values={"RSSI_TYPE": 0}) == {"rssi_disabled": Severity.INFO}
    assert codes(values={"RSSI_TYPE": 3}, rssi_live=True, rssi=120) == {}


def test_an_rssi_type_set_without_any_rssi_reported_warns() -> None:
    """
    GIVEN RSSI_TYPE = 3 while RC_CHANNELS are live and RSSI reads unknown, then before they are live
    WHEN the rules run
    THEN the first is an rssi_not_reported warning naming the type; the second says nothing
    """
    finding = the("rssi_not_reported", values={"RSSI_TYPE": 3}, rssi_live=True)
    assert "ReceiverProtocol" in finding.message
    assert codes(values={"RSSI_TYPE": 3}, rssi_live=False) == {}


def test_rc_protocols_0_blocks_and_1_allows_every_protocol() -> None:
    """
    GIVEN RC_PROTOCOLS = 0, then 1, with no receiver seen
    WHEN the rules run
    THEN 0 is a blocking rc_protocols_none; 1 makes no protocol finding
    """
    assert codes(values={"RC_PROTOCOLS": 0}) == {"rc_protocols_none": Severity.BLOCKING}
    assert codes(values={"RC_PROTOCOLS": 1}, receiver_present=False) == {}


@pytest.mark.parametrize(("detected", "fires"), [("CRSF", True), ("SBUS", False)])
def test_rc_protocols_that_exclude_the_decoded_protocol_block(detected: str, fires: bool) -> None:
    """
    GIVEN RC_PROTOCOLS = SBUS only and a receiver decoded as CRSF, then as SBUS
    WHEN the rules run
    THEN only the excluded CRSF is a blocking rc_protocols_exclude_receiver
    """
    found = codes(values={"RC_PROTOCOLS": SBUS_ONLY}, detected_protocol=detected)
    assert ("rc_protocols_exclude_receiver" in found) is fires


@pytest.mark.parametrize(("present", "fires"), [(False, True), (True, False), (None, False)])
def test_restricted_protocols_warn_only_while_no_receiver_is_seen(present: bool | None, fires: bool) -> None:
    """
    GIVEN RC_PROTOCOLS = SBUS only and no protocol decoded yet
    WHEN the receiver is not seen, seen, or not known yet
    THEN only "not seen" is an rc_protocols_restricted warning
    """
    found = codes(values={"RC_PROTOCOLS": SBUS_ONLY}, receiver_present=present)
    assert ("rc_protocols_restricted" in found) is fires


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (0, set()),
        (RC_OPTION_IGNORE_RECEIVER, {"rc_options_ignore_receiver"}),
        (RC_OPTION_IGNORE_FAILSAFE_BIT, {"rc_options_ignore_failsafe_bit"}),
        (
            RC_OPTION_IGNORE_RECEIVER | RC_OPTION_IGNORE_FAILSAFE_BIT,
            {"rc_options_ignore_receiver", "rc_options_ignore_failsafe_bit"},
        ),
    ],
)
def test_rc_options_bits_0_and_2_are_found(options: int, expected: set[str]) -> None:
    """
    GIVEN RC_OPTIONS with neither, one or both of bit 0 and bit 2
    WHEN the rules run
    THEN each bit set has its own finding and no other RC_OPTIONS bit makes one
    """
    assert set(codes(values={"RC_OPTIONS": options})) == expected


def test_rc_protocols_all_with_a_decoded_protocol_suggests_that_protocol_only() -> None:
    """
    GIVEN RC_PROTOCOLS = 1 and a receiver decoded as SBUS, then with nothing decoded
    WHEN the rules run
    THEN an rc_protocols_all note suggests 8 (SBUS only); without a protocol nothing is said
    """
    finding = the("rc_protocols_all", values={"RC_PROTOCOLS": 1}, detected_protocol="SBUS")
    assert "Set RC_PROTOCOLS to 8" in finding.action
    assert codes(values={"RC_PROTOCOLS": 1}) == {}
    assert codes(values={"RC_PROTOCOLS": 1}, detected_protocol="NoSuchProtocol") == {}


def test_rc_override_time_below_0_warns_and_a_timeout_does_not() -> None:
    """
    GIVEN RC_OVERRIDE_TIME = -1, then 3
    WHEN the rules run
    THEN -1 (overrides never time out) warns and 3 says nothing
    """
    assert codes(values={"RC_OVERRIDE_TIME": -1}) == {"rc_overrides_never_time_out": Severity.WARNING}
    assert codes(values={"RC_OVERRIDE_TIME": 3}) == {}


# ---- CRSF and ExpressLRS -------------------------------------------------------------------------


def test_a_crsf_receiver_gets_the_crsf_rules() -> None:
    """
    GIVEN a receiver decoded as CRSF, RSSI_TYPE = 1, the mode channel on 5 and RC_OPTIONS = bit 11
    WHEN the rules run
    THEN RSSI_TYPE, the ELRS arm channel, link quality and the 416 kbaud rate are each said
    """
    found = codes(
        values={"RSSI_TYPE": 1, "FLTMODE_CH": 5, "RC_OPTIONS": RC_OPTION_CRSF_LINK_QUALITY},
        detected_protocol="CRSF",
    )
    assert {
        "crsf_rssi_type",
        "elrs_modes_on_arm_channel",
        "crsf_rssi_is_link_quality",
        "elrs_baud_crsf_rate",
    } <= set(found)


def test_a_good_crsf_set_up_and_another_protocol_get_no_crsf_rule() -> None:
    """
    GIVEN a CRSF receiver with RSSI_TYPE = 3, the mode channel on 8 and the 420 kbaud bit, and then
          the same values for an SBUS receiver
    WHEN the rules run
    THEN neither makes a CRSF finding
    """
    values = {"RSSI_TYPE": 3, "FLTMODE_CH": 8, "RC_OPTIONS": RC_OPTION_ELRS_420K}
    crsf_codes = {
        "crsf_rssi_type",
        "elrs_modes_on_arm_channel",
        "crsf_rssi_is_link_quality",
        "elrs_baud_crsf_rate",
    }
    assert not crsf_codes & set(codes(values=values, detected_protocol="CRSF"))
    assert not crsf_codes & set(
        codes(values={**values, "FLTMODE_CH": 5, "RSSI_TYPE": 1, "RC_OPTIONS": 0}, detected_protocol="SBUS")
    )


def test_rc_protocols_of_crsf_only_counts_as_a_crsf_receiver_before_one_is_decoded() -> None:
    """
    GIVEN RC_PROTOCOLS = CRSF only, RSSI_TYPE = 1 and no protocol decoded yet
    WHEN the rules run
    THEN the CRSF RSSI_TYPE rule fires
    """
    assert "crsf_rssi_type" in codes(values={"RC_PROTOCOLS": CRSF_ONLY, "RSSI_TYPE": 1})


# ---- around the failsafe ------------------------------------------------------------------------


def test_no_failsafe_seen_names_no_trigger() -> None:
    """
    GIVEN a test in which no RC failsafe began with the transmitter off
    WHEN the rules run
    THEN neither failsafe trigger is named
    """
    found = codes(values={"FS_THR_VALUE": 975}, throttle_at_failsafe_us=900)
    assert not {"failsafe_by_low_throttle", "failsafe_by_no_pulses"} & set(found)


@pytest.mark.parametrize(
    ("throttle", "code"),
    [
        (900, "failsafe_by_low_throttle"),
        (974, "failsafe_by_low_throttle"),
        (975, "failsafe_by_no_pulses"),
        (1500, "failsafe_by_no_pulses"),
        (None, "failsafe_by_no_pulses"),
    ],
)
def test_the_throttle_when_the_failsafe_began_tells_how_it_came(throttle: int | None, code: str) -> None:
    """
    GIVEN an RC failsafe seen with the throttle at that PWM and FS_THR_VALUE = 975
    WHEN the rules run
    THEN a throttle below 975 names a throttle failsafe; otherwise the receiver stopped its output
    """
    found = codes(values={"FS_THR_VALUE": 975}, failsafe_seen=True, throttle_at_failsafe_us=throttle)
    assert found.get(code) is Severity.INFO
    assert not {"failsafe_by_low_throttle", "failsafe_by_no_pulses"} - {code} & set(found)


@given(st.integers(0, 254), st.integers(0, 254))
def test_an_rssi_that_does_not_drop_in_failsafe_is_held(before: int, during: int) -> None:
    """
    GIVEN any live RSSI before the failsafe and highest RSSI during it
    WHEN the rules run
    THEN rssi_held_in_failsafe fires exactly when a non-zero RSSI did not drop
    """
    found = codes(rssi_before_failsafe=before, rssi_during_failsafe=during)
    assert ("rssi_held_in_failsafe" in found) is (before != 0 and during >= before)


# ---- files, reads and sticks --------------------------------------------------------------------


def test_a_step_file_value_that_differs_is_said_and_an_equal_one_is_not() -> None:
    """
    GIVEN a step file with FS_THR_VALUE = 950 and RSSI_TYPE = 3 and a flight controller with 975 and 3
    WHEN the rules run
    THEN only FS_THR_VALUE differs, with the file's value beside the vehicle's
    """
    finding = the(
        "step_file_differs",
        values={"FS_THR_ENABLE": 1, "FS_THR_VALUE": 975, "RSSI_TYPE": 3},
        step_file="08_receiver.param",
        step_values={"FS_THR_VALUE": 950, "RSSI_TYPE": 3},
    )
    assert (finding.parameter, finding.value, finding.step_file_value) == ("FS_THR_VALUE", 975, 950)
    assert "08_receiver.param" in finding.message


def test_without_a_step_file_nothing_is_compared() -> None:
    """
    GIVEN step values but no step file
    WHEN the rules run
    THEN no step_file_differs finding is made
    """
    assert "step_file_differs" not in codes(values={"FS_THR_VALUE": 975}, step_values={"FS_THR_VALUE": 950})


def test_unanswered_parameters_are_named_once() -> None:
    """
    GIVEN two parameters the flight controller never answered
    WHEN the rules run
    THEN one parameters_unavailable note names both, sorted
    """
    finding = the("parameters_unavailable", unavailable=frozenset({"RC_OPTIONS", "RC_FS_TIMEOUT"}))
    assert "RC_FS_TIMEOUT, RC_OPTIONS" in finding.message


@pytest.mark.parametrize(
    ("outcome", "code"),
    [
        (StickOutcome.REVERSED, "stick_reversed"),
        (StickOutcome.WRONG_CHANNEL, "stick_wrong_channel"),
        (StickOutcome.NO_MOVEMENT, "stick_not_moved"),
        (StickOutcome.CORRECT, None),
        (StickOutcome.SKIPPED, None),
        (StickOutcome.PENDING, None),
    ],
)
def test_the_stick_steps_results_are_findings_of_their_own(outcome: StickOutcome, code: str | None) -> None:
    """
    GIVEN one stick result of each outcome
    WHEN the rules run
    THEN reversed and wrong channel block, no movement warns, and the rest say nothing
    """
    moved = None if outcome is StickOutcome.NO_MOVEMENT else 2
    stick = StickResult("pitch", "pitch", "RCMAP_PITCH", 2, outcome, moved, 1500, 1000)
    found = codes(sticks=(stick,))
    assert set(found) == ({code} if code else set())


def test_blocking_findings_come_first() -> None:
    """
    GIVEN values that make a note, a warning and a blocking finding
    WHEN the rules run
    THEN the blocking one is first and the note last
    """
    severities = [
        finding.severity
        for finding in findings(values={"RSSI_TYPE": 0, "RC_OVERRIDE_TIME": -1, "RC_PROTOCOLS": 0})
    ]
    assert severities == [Severity.BLOCKING, Severity.WARNING, Severity.INFO]

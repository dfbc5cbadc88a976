# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The arming findings: what ArduPilot refuses at arming, predicted from the receiver parameters."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.findings import parameter_findings
from amc_rc_receiver.plugins.rc_receiver.findings.arming import (
    counts_as_duplicate,
    duplicate_options,
    mode_channel_option,
    stick_calibration,
    stick_channel_option,
    trim_order,
)
from amc_rc_receiver.plugins.rc_receiver.findings.inputs import FindingInputs
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily, wanted_parameters
from amc_rc_receiver.plugins.rc_receiver.snapshot import Finding, Severity

pytestmark = pytest.mark.pure

RCMAP = {"RCMAP_ROLL": 1.0, "RCMAP_PITCH": 2.0, "RCMAP_THROTTLE": 3.0, "RCMAP_YAW": 4.0}


def clean_values(channels: int = 16) -> dict[str, float]:
    """A calibrated radio with no auxiliary function anywhere, Copter's mode channel 5."""
    values: dict[str, float] = {**RCMAP, "FLTMODE_CH": 5.0, "MODE_CH": 8.0}
    for number in range(1, channels + 1):
        values[f"RC{number}_OPTION"] = 0.0
        values[f"RC{number}_MIN"] = 1000.0
        values[f"RC{number}_TRIM"] = 1500.0
        values[f"RC{number}_MAX"] = 2000.0
    return values


def inputs(
    changes: Mapping[str, float],
    family: VehicleFamily = VehicleFamily.COPTER,
    delivered: int | None = 16,
) -> FindingInputs:
    return FindingInputs(family=family, values={**clean_values(), **changes}, delivered_channels=delivered)


def codes(findings: object) -> list[str]:
    return [finding.code for finding in findings]  # type: ignore[attr-defined]


def test_two_channels_with_the_same_option_are_arming_refusal_naming_both_parameters() -> None:
    """GIVEN RC7_OPTION and RC9_OPTION both 41 (arm/disarm) WHEN the arming rules run THEN one blocking
    finding quotes ArduPilot's "Duplicate Aux Switch Options" and names both parameters."""
    (finding,) = duplicate_options(inputs({"RC7_OPTION": 41.0, "RC9_OPTION": 41.0}))
    assert finding.code == "rc_option_duplicate"
    assert finding.severity is Severity.BLOCKING
    assert finding.parameter == "RC7_OPTION"
    assert finding.value == 41
    assert "RC7_OPTION, RC9_OPTION" in finding.message
    assert "Duplicate Aux Switch Options" in finding.message
    assert "RC9_OPTION" in finding.action


@pytest.mark.parametrize("option", [0, 316, 400])
def test_do_nothing_and_values_beyond_aux_function_max_are_never_duplicates(option: int) -> None:
    """GIVEN two channels with option 0 (do nothing) or at/above AUX_FUNCTION_MAX (316) WHEN the
    duplicate rule runs THEN nothing, as ArduPilot's duplicate_options_exist skips them."""
    assert list(duplicate_options(inputs({"RC7_OPTION": float(option), "RC8_OPTION": float(option)}))) == []


def test_scripting_options_count_as_duplicates_like_any_other_function() -> None:
    """GIVEN RC7_OPTION and RC8_OPTION both 300 (Scripting1) WHEN the duplicate rule runs THEN a
    blocking finding: 300 lies below AUX_FUNCTION_MAX, so ArduPilot counts it."""
    assert codes(duplicate_options(inputs({"RC7_OPTION": 300.0, "RC8_OPTION": 300.0}))) == [
        "rc_option_duplicate"
    ]


def test_an_option_on_the_mode_channel_is_an_arming_refusal() -> None:
    """GIVEN FLTMODE_CH 5 and RC5_OPTION 7 WHEN the rule runs THEN a blocking finding naming RC5_OPTION
    and FLTMODE_CH with ArduPilot's "Mode channel and RC5_OPTION conflict"."""
    (finding,) = mode_channel_option(inputs({"RC5_OPTION": 7.0}))
    assert finding.severity is Severity.BLOCKING
    assert finding.parameter == "RC5_OPTION"
    assert "Mode channel and RC5_OPTION conflict" in finding.message
    assert "FLTMODE_CH" in finding.message


@pytest.mark.parametrize(
    ("family", "mode_parameter"), [(VehicleFamily.PLANE, "FLTMODE_CH"), (VehicleFamily.ROVER, "MODE_CH")]
)
def test_the_mode_channel_follows_the_familys_own_parameter(
    family: VehicleFamily, mode_parameter: str
) -> None:
    """GIVEN Plane's FLTMODE_CH 8 / Rover's MODE_CH 8 and RC8_OPTION 9 WHEN the rule runs THEN the
    finding names RC8_OPTION and that family's mode parameter."""
    (finding,) = mode_channel_option(inputs({"RC8_OPTION": 9.0, "FLTMODE_CH": 8.0}, family))
    assert finding.parameter == "RC8_OPTION"
    assert mode_parameter in finding.message


@pytest.mark.parametrize("channel", [0.0, 16.0])
def test_no_mode_channel_or_channel_16_is_never_a_conflict(channel: float) -> None:
    """GIVEN FLTMODE_CH 0 (none) or 16 (beyond what ArduPilot's conflict check looks at) and an option
    on that channel WHEN the rule runs THEN nothing."""
    assert list(mode_channel_option(inputs({"FLTMODE_CH": channel, "RC16_OPTION": 7.0}))) == []


def test_an_unread_mode_channel_says_nothing() -> None:
    """GIVEN FLTMODE_CH not read yet WHEN the rule runs THEN nothing, however RC5_OPTION is set."""
    values = {**clean_values(), "RC5_OPTION": 7.0}
    del values["FLTMODE_CH"]
    assert list(mode_channel_option(FindingInputs(family=VehicleFamily.COPTER, values=values))) == []


def test_an_option_on_a_stick_channel_is_a_warning_naming_the_rcmap_parameter() -> None:
    """GIVEN RCMAP_YAW 4 and RC4_OPTION 31 WHEN the rule runs THEN a warning (ArduPilot arms, but the
    stick switches the function) naming RC4_OPTION and RCMAP_YAW."""
    (finding,) = stick_channel_option(inputs({"RC4_OPTION": 31.0}))
    assert finding.severity is Severity.WARNING
    assert finding.parameter == "RC4_OPTION"
    assert "RCMAP_YAW" in finding.message


def test_a_rover_has_only_steering_and_throttle_sticks() -> None:
    """GIVEN a Rover with RC2_OPTION set WHEN the stick rule runs THEN nothing: channel 2 is no
    Rover stick."""
    assert list(stick_channel_option(inputs({"RC2_OPTION": 31.0}, VehicleFamily.ROVER))) == []


def test_min_above_trim_on_a_delivered_channel_is_refused_with_arduPilots_text() -> None:
    """GIVEN RC1_MIN 1600 above RC1_TRIM 1500 WHEN the rule runs THEN a blocking finding quoting
    "RC1_MIN is greater than RC1_TRIM" and saying to calibrate."""
    (finding,) = trim_order(inputs({"RC1_MIN": 1600.0}))
    assert finding.code == "rc_min_above_trim"
    assert finding.parameter == "RC1_MIN"
    assert "RC1_MIN is greater than RC1_TRIM" in finding.message
    assert "RC1_TRIM" in finding.action


def test_max_below_trim_is_refused_with_arduPilots_text() -> None:
    """GIVEN RC3_MAX 1400 below RC3_TRIM 1500 WHEN the rule runs THEN "RC3_MAX is less than RC3_TRIM"."""
    (finding,) = trim_order(inputs({"RC3_MAX": 1400.0}))
    assert finding.code == "rc_max_below_trim"
    assert "RC3_MAX is less than RC3_TRIM" in finding.message


def test_channels_the_receiver_does_not_deliver_are_not_checked() -> None:
    """GIVEN 8 delivered channels and RC12_MIN above RC12_TRIM, or an unknown channel count WHEN the
    rule runs THEN nothing: ArduPilot checks delivered channels only."""
    assert list(trim_order(inputs({"RC12_MIN": 1600.0}, delivered=8))) == []
    assert list(trim_order(inputs({"RC1_MIN": 1600.0}, delivered=None))) == []


@pytest.mark.parametrize(
    ("changes", "code", "text"),
    [
        ({"RC2_MIN": 1301.0}, "rc_stick_min_too_high", "Pitch radio min too high"),
        ({"RC4_MAX": 1699.0}, "rc_stick_max_too_low", "Yaw radio max too low"),
    ],
)
def test_copter_stick_limits_follow_arduPilots_1300_and_1700(
    changes: dict[str, float], code: str, text: str
) -> None:
    """GIVEN a Copter stick channel's MIN above 1300 or MAX below 1700 WHEN the rule runs THEN the
    blocking finding with ArduPilot's text; 1300 and 1700 themselves pass."""
    (finding,) = stick_calibration(inputs(changes))
    assert (finding.code, finding.severity) == (code, Severity.BLOCKING)
    assert text in finding.message
    assert list(stick_calibration(inputs({"RC2_MIN": 1300.0, "RC4_MAX": 1700.0}))) == []


def test_rover_names_its_steering_and_plane_has_no_stick_limit() -> None:
    """GIVEN RC1_MIN 1350 WHEN judged for Rover and for Plane THEN Rover says "Steer radio min too
    high" and Plane (whose arming code has no such check) says nothing."""
    (finding,) = stick_calibration(inputs({"RC1_MIN": 1350.0}, VehicleFamily.ROVER))
    assert "Steer radio min too high" in finding.message
    assert list(stick_calibration(inputs({"RC1_MIN": 1350.0}, VehicleFamily.PLANE))) == []


def test_a_clean_radio_gets_no_arming_finding_from_the_rule_table() -> None:
    """GIVEN calibrated channels without auxiliary functions WHEN every rule runs THEN no arming code."""
    arming_codes = {
        "rc_option_duplicate",
        "rc_option_on_mode_channel",
        "rc_option_on_stick_channel",
        "rc_min_above_trim",
        "rc_max_below_trim",
        "rc_stick_min_too_high",
        "rc_stick_max_too_low",
    }
    assert arming_codes.isdisjoint(codes(parameter_findings(inputs({}))))


def test_the_tracker_wants_every_option_and_the_delivered_channels_calibration() -> None:
    """GIVEN Copter with RCMAP known and 8 delivered channels WHEN the wanted parameters are listed
    THEN RC1..16_OPTION and RC1..8_MIN/TRIM/MAX, not RC9_MIN; without a count only the sticks'."""
    names = set(wanted_parameters(VehicleFamily.COPTER, dict(RCMAP), 8))
    assert {f"RC{n}_OPTION" for n in range(1, 17)} <= names
    assert {f"RC{n}_{kind}" for n in range(1, 9) for kind in ("MIN", "TRIM", "MAX")} <= names
    assert "RC9_MIN" not in names
    unknown = set(wanted_parameters(VehicleFamily.COPTER, dict(RCMAP)))
    assert {"RC4_TRIM", "RC4_MAX"} <= unknown
    assert "RC5_TRIM" not in unknown


# Copter's sixteen options as ArduPilot would hold them: mostly 0, sometimes a few functions.
_OPTION = st.sampled_from([0, 0, 0, 7, 9, 41, 153, 300, 316, 1000])


@given(options=st.lists(_OPTION, min_size=16, max_size=16), mode=st.integers(0, 16))
def test_property_the_findings_agree_with_arduPilots_own_checks(options: list[int], mode: int) -> None:
    """GIVEN any sixteen RCn_OPTION and any FLTMODE_CH WHEN the rules run THEN a duplicate finding
    exists exactly when ArduPilot's duplicate_options_exist would say so, every duplicate finding's
    parameters share one counted option, and a mode-channel finding exists exactly when
    flight_mode_channel_conflicts_with_rc_option would say so."""
    changes = {f"RC{n}_OPTION": float(option) for n, option in enumerate(options, start=1)}
    changes["FLTMODE_CH"] = float(mode)
    findings: list[Finding] = list(parameter_findings(inputs(changes)))
    counted = [option for option in options if counts_as_duplicate(option)]
    duplicates = [finding for finding in findings if finding.code == "rc_option_duplicate"]
    assert bool(duplicates) == (len(counted) != len(set(counted)))
    for finding in duplicates:
        named = re.findall(r"RC\d+_OPTION", finding.message.split(":")[0])
        assert len(named) >= 2
        assert {changes[name] for name in named} == {finding.value}
    conflict = 1 <= mode < 16 and options[mode - 1] != 0
    assert any(finding.code == "rc_option_on_mode_channel" for finding in findings) == conflict

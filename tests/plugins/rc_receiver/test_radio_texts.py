# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The radio-message filter on the exact texts ArduPilot's sources send.

Each row is a STATUSTEXT as ArduPilot writes it, with its format arguments filled in and the
prefix its arming code adds ("PreArm: " for the pre-arm checks, which MAV_CMD_RUN_PREARM_CHECKS
runs, "Arm: " for the checks of an arming request): libraries/AP_Arming/AP_Arming.cpp
(``rc_calibration_checks``, ``rc_in_calibration_check``, ``manual_transmitter_checks``,
``rc_arm_checks``, ``rc_checks_copter_sub``, ``disarm_switch_checks``),
ArduCopter/AP_Arming_Copter.cpp (``run_pre_arm_checks``, ``rc_throttle_failsafe_checks``,
``parameter_checks``, ``arm_checks``), ArduPlane/AP_Arming_Plane.cpp (``pre_arm_checks``,
``rc_received_if_enabled_check``), Rover/AP_Arming_Rover.cpp (``rc_calibration_checks``), the
failsafe texts of the vehicles and RC_Channels.  The others are texts of the same checks about
anything but the receiver.
"""

from __future__ import annotations

import pytest

from amc_rc_receiver.plugins.rc_receiver.evidence import is_radio_message
from amc_rc_receiver.plugins.rc_receiver.prearm import arming_refusal

pytestmark = pytest.mark.pure

RADIO_TEXTS = [
    # AP_Arming: every vehicle
    "PreArm: RC1_MIN is greater than RC1_TRIM",
    "PreArm: RC12_MAX is less than RC12_TRIM",
    "PreArm: RC calibrating",
    "PreArm: Radio failsafe on",
    "Arm: Duplicate Aux Switch Options",
    "Arm: Mode channel and RC5_OPTION conflict",
    "Arm: Roll (RC1) is not neutral",
    "Arm: Throttle (RC3) is not neutral",
    "Arm: VTOL Fwd Throttle is not zero",
    "PreArm: Disarm Switch on",
    "PreArm: Roll radio min too high",
    "PreArm: Yaw radio max too low",
    "PreArm: Pitch radio trim below min",
    "PreArm: Throttle radio trim above max",
    # Copter and Heli
    "PreArm: Throttle below failsafe",
    "PreArm: Collective below failsafe",
    "PreArm: RC not found",
    "PreArm: Check FS_THR_VALUE",
    "PreArm: Motor Interlock Enabled",
    "PreArm: Interlock/E-Stop Conflict",
    "PreArm: Motor Interlock not configured",
    "PreArm: Motor Emergency Stopped",
    "Arm: Throttle too high",
    "Arm: Collective too high",
    # Plane
    "PreArm: Waiting for RC",
    "PreArm: Invalid THR_FS_VALUE for rev throttle",
    "PreArm: Throttle trim not near center stick(1100)",
    "PreArm: FS_LONG_TIMEOUT < FS_SHORT_TIMEOUT",
    # Rover
    "PreArm: Steer radio min too high",
    "PreArm: RC Steer not configured",
    # the failsafe itself and the receiver's protocol
    "Radio Failsafe - Disarming",
    "Radio Failsafe Cleared",
    "RC Short Failsafe On",
    "RC Long Failsafe On",
    "RCInput: decoding CRSF",
]

OTHER_TEXTS = [
    "PreArm: Compass not calibrated",
    "PreArm: Gyros inconsistent",
    "PreArm: Check ANGLE_MAX",
    "PreArm: Hardware safety switch",
    "PreArm: SERVO1_MIN is greater than SERVO1_TRIM",
    "PreArm: SERVO3_FUNCTION=33 on disabled channel",
    "PreArm: Battery 1 below minimum arming voltage",
    "PreArm: Check mag field",
    "PreArm: AHRS: waiting for home",
    "PreArm: Motors: Check frame class and type",
    "PreArm: GCS failsafe on",
    "Arm: Mode not armable",
    "Throttle armed",
    "RCOut: PWM:1-16",
    "GCS Failsafe",
    "Param write denied (RC_OPTIONS)",
    "EKF3 IMU0 is using GPS",
]


@pytest.mark.parametrize("text", RADIO_TEXTS)
def test_every_receiver_text_of_ardupilots_sources_is_a_radio_message(text: str) -> None:
    """GIVEN a receiver-related STATUSTEXT exactly as ArduPilot's sources write it
    WHEN the radio-message filter reads it
    THEN it is a radio message"""
    assert is_radio_message(text) is True


@pytest.mark.parametrize("text", OTHER_TEXTS)
def test_texts_about_anything_but_the_receiver_are_not_radio_messages(text: str) -> None:
    """GIVEN a STATUSTEXT of ArduPilot's arming checks or telemetry about anything but the receiver
    WHEN the radio-message filter reads it
    THEN it is not a radio message"""
    assert is_radio_message(text) is False


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("PreArm: RC1_MIN is greater than RC1_TRIM", "RC1_MIN is greater than RC1_TRIM"),
        ("Arm: Duplicate Aux Switch Options", "Duplicate Aux Switch Options"),
        ("PreArm: Radio failsafe on", "Radio failsafe on"),
        ("PreArm: Compass not calibrated", None),
        ("Radio Failsafe Cleared", None),
        ("RCInput: decoding CRSF", None),
    ],
)
def test_only_receiver_prearm_and_arm_texts_are_arming_refusals(text: str, refusal: str | None) -> None:
    """GIVEN a STATUSTEXT
    WHEN it is read as an answer to the pre-arm checks
    THEN a receiver-related PreArm or Arm text is a refusal, named without its prefix; anything
    else is none"""
    assert arming_refusal(text) == refusal

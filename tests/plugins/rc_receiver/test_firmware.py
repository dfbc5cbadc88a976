# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The firmware facts, driven directly: vehicle families, parameter names, mode slots, protocols, versions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.firmware import (
    VehicleFamily,
    enabled_protocols,
    failsafe_timing,
    family_from_mav_type,
    family_from_name,
    family_of_vehicle,
    mode_name,
    mode_slot,
    protocol_enabled,
    version_from_autopilot_version,
    version_from_banner,
    wanted_parameters,
)

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("mav_type", "family"),
    [
        (mavlink2.MAV_TYPE_QUADROTOR, VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_HEXAROTOR, VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_HELICOPTER, VehicleFamily.HELI),
        # ArduCopter's multirotor build reports its single and coaxial frames so (5.0.1 says Heli).
        (mavlink2.MAV_TYPE_COAXIAL, VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_FIXED_WING, VehicleFamily.PLANE),
        (mavlink2.MAV_TYPE_VTOL_TILTROTOR, VehicleFamily.PLANE),
        (mavlink2.MAV_TYPE_GROUND_ROVER, VehicleFamily.ROVER),
        (mavlink2.MAV_TYPE_SURFACE_BOAT, VehicleFamily.ROVER),
        (mavlink2.MAV_TYPE_SUBMARINE, VehicleFamily.UNKNOWN),
    ],
)
def test_the_heartbeat_type_names_the_firmware_family(mav_type: int, family: VehicleFamily) -> None:
    """GIVEN a HEARTBEAT type WHEN classified THEN the family whose parameter names apply."""
    assert family_from_mav_type(mav_type) is family


@pytest.mark.parametrize(
    ("mav_type", "frame", "family"),
    [
        (mavlink2.MAV_TYPE_QUADROTOR, None, VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_QUADROTOR, "HELI_QUAD", VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_HEXAROTOR, "heli", VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_HELICOPTER, "HELI", VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_HELICOPTER, "HELI_DUAL", VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_COAXIAL, "COAX", VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_COAXIAL, "HELI_DUAL", VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_QUADROTOR, "QUAD/X", VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_FIXED_WING, "HELI", VehicleFamily.PLANE),
        (mavlink2.MAV_TYPE_GROUND_ROVER, None, VehicleFamily.ROVER),
        (None, "HELI", VehicleFamily.UNKNOWN),
    ],
)
def test_the_banners_frame_tells_a_helicopter_from_a_multirotor(
    mav_type: int | None, frame: str | None, family: VehicleFamily
) -> None:
    """GIVEN a HEARTBEAT type and the frame of the banner's "Frame:" line (or none yet)
    WHEN the connected vehicle is classified
    THEN a copter or helicopter type follows the frame (HELI... is a helicopter, any other frame a
    multirotor), and any other type keeps its family."""
    assert family_of_vehicle(mav_type, frame) is family


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("ArduCopter", VehicleFamily.COPTER),
        ("Heli", VehicleFamily.HELI),
        ("ArduPlane", VehicleFamily.PLANE),
        ("Rover", VehicleFamily.ROVER),
        ("AP_Periph", VehicleFamily.UNKNOWN),
        (None, VehicleFamily.UNKNOWN),
    ],
)
def test_the_methodic_configurators_vehicle_names_are_understood(name: object, family: VehicleFamily) -> None:
    """GIVEN 5.0.1's vehicle_type string WHEN read THEN the same families as from the HEARTBEAT."""
    assert family_from_name(name) is family


def test_each_family_asks_for_its_own_failsafe_and_mode_parameters() -> None:
    """
    GIVEN Copter, Plane and Rover
    WHEN the wanted parameters are listed
    THEN Copter has FS_THR_ENABLE/FLTMODE_CH, Plane THR_FAILSAFE/THR_FS_VALUE/FS_SHORT_TIMEOUT,
         Rover FS_THR_ENABLE/MODE_CH/MODE1..6; all share RC_*, RSSI_TYPE and RCMAP_*
    """
    copter = wanted_parameters(VehicleFamily.COPTER, {})
    plane = wanted_parameters(VehicleFamily.PLANE, {})
    rover = wanted_parameters(VehicleFamily.ROVER, {"RCMAP_THROTTLE": 2.0})
    assert {"FS_THR_ENABLE", "FS_THR_VALUE", "FLTMODE_CH", "FLTMODE6", "RC_FS_TIMEOUT"} <= set(copter)
    assert {"THR_FAILSAFE", "THR_FS_VALUE", "FS_SHORT_TIMEOUT", "FLTMODE_CH"} <= set(plane)
    assert "FS_THR_ENABLE" not in plane
    assert {"FS_THR_ENABLE", "MODE_CH", "MODE1", "MODE6", "RC2_MIN"} <= set(rover)
    assert "FLTMODE_CH" not in rover
    for names in (copter, plane, rover):
        assert {"RC_OPTIONS", "RC_PROTOCOLS", "RC_OVERRIDE_TIME", "RSSI_TYPE", "RCMAP_YAW"} <= set(names)


@pytest.mark.parametrize(
    ("pwm", "slot"),
    [
        (None, None),
        (800, None),
        (801, 1),
        (1230, 1),
        (1231, 2),
        (1360, 2),
        (1361, 3),
        (1490, 3),
        (1491, 4),
        (1620, 4),
        (1621, 5),
        (1749, 5),
        (1750, 6),
        (2199, 6),
        (2200, None),
    ],
)
def test_the_flight_mode_slot_follows_ardupilots_six_position_switch(
    pwm: int | None, slot: int | None
) -> None:
    """GIVEN a mode-channel PWM WHEN the slot is computed THEN ArduPilot's boundaries apply."""
    assert mode_slot(pwm) == slot


@given(st.integers(min_value=801, max_value=2199))
def test_every_valid_pwm_selects_one_of_six_slots(pwm: int) -> None:
    """GIVEN any PWM strictly inside 800..2200 WHEN classified THEN a slot 1..6, monotonic in PWM."""
    slot = mode_slot(pwm)
    assert slot is not None
    assert 1 <= slot <= 6
    assert (mode_slot(pwm + 1) or 6) >= slot


def test_mode_numbers_are_named_per_vehicle() -> None:
    """GIVEN mode number 5 WHEN named THEN LOITER on Copter and Heli, FBWA on Plane, LOITER on Rover."""
    assert mode_name(VehicleFamily.COPTER, 5) == "LOITER"
    assert mode_name(VehicleFamily.HELI, 5) == "LOITER"
    assert mode_name(VehicleFamily.PLANE, 5) == "FBWA"
    assert mode_name(VehicleFamily.ROVER, 5) == "LOITER"
    assert mode_name(VehicleFamily.UNKNOWN, 5) is None


def test_rc_protocols_bits_follow_ardupilot() -> None:
    """GIVEN RC_PROTOCOLS masks WHEN decoded THEN bit 0 is all, bit n+1 protocol n, SBUS_NI counts as SBUS."""
    assert protocol_enabled(1, "CRSF") is True
    assert protocol_enabled(1 << 9, "CRSF") is True
    assert protocol_enabled(1 << 9, "SBUS") is False
    assert protocol_enabled(1 << 4, "SBUS") is True
    assert protocol_enabled(1 << 9, "Nonsense") is None
    assert enabled_protocols((1 << 3) | (1 << 9)) == ("SBUS", "CRSF")


@pytest.mark.parametrize(
    ("family", "text", "parameter", "seconds"),
    [
        (VehicleFamily.ROVER, "ArduRover V4.6.2 (5ba3c9ab)", None, 0.5),
        (VehicleFamily.ROVER, "ArduRover V4.7.0-dev (90700977)", None, 0.5),
        (VehicleFamily.ROVER, "ArduRover V4.7.0 (1234abcd)", "RC_FS_TIMEOUT", 1.0),
        (VehicleFamily.PLANE, "ArduPlane V4.5.7 (1234abcd)", None, 1.0),
        (VehicleFamily.PLANE, "ArduPlane V4.7.1 (1234abcd)", "RC_FS_TIMEOUT", 1.0),
        (VehicleFamily.COPTER, "ArduCopter V4.4.0 (1234abcd)", "RC_FS_TIMEOUT", 1.0),
        (VehicleFamily.ROVER, None, "RC_FS_TIMEOUT", 1.0),
    ],
)
def test_when_a_silent_receiver_becomes_rc_failsafe_follows_the_firmware_version(
    family: VehicleFamily, text: str | None, parameter: str | None, seconds: float
) -> None:
    """
    GIVEN a firmware banner (or none: the version is not known)
    WHEN the failsafe timing is looked up
    THEN Rover and Plane before 4.7 (and the 4.7.0 development build of real SITL) wait a fixed
         time, from 4.7 and on Copter RC_FS_TIMEOUT; an unknown version is taken as the newest
    """
    timing = failsafe_timing(family, version_from_banner(text))

    assert (timing.parameter, timing.seconds) == (parameter, seconds)
    assert timing.timeout_s({"RC_FS_TIMEOUT": 3.0}) == (3.0 if parameter else seconds)


def test_autopilot_version_and_a_hosts_version_text_name_the_same_version() -> None:
    """
    GIVEN AUTOPILOT_VERSION's packed flight_sw_version of 4.6.2 official and of 4.7.0 dev (type 0)
    WHEN read
    THEN they are 4.6.2 and 4.7.0-dev, like the texts a host or a banner gives
    """
    official = version_from_autopilot_version((4 << 24) | (6 << 16) | (2 << 8) | 255)
    assert official == version_from_banner("4.6.2")
    dev = version_from_autopilot_version((4 << 24) | (7 << 16))
    assert dev == version_from_banner("ArduRover V4.7.0-dev (90700977)")
    assert str(dev) == "4.7.0-dev"


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("4.7.0 dev", "4.7.0-dev"),
        ("4.6.2 official", "4.6.2"),
        ("4.6.0 beta", "4.6.0-dev"),
        ("4.5.1 rc", "4.5.1-dev"),
        ("4.6.3", "4.6.3"),
    ],
)
def test_the_methodic_configurators_version_and_type_text_reads_as_the_same_version(
    text: str, version: str
) -> None:
    """
    GIVEN the methodic configurator 5.0.1's ``info.flight_sw_version_and_type``, which writes the
          type AUTOPILOT_VERSION packs after a space
    WHEN read as the vehicle's version
    THEN a development, beta or rc build is not taken for the release it leads to"""
    assert str(version_from_banner(text)) == version

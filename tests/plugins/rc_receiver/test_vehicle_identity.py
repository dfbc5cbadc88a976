# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which vehicle the guided test is looking at (`VehicleIdentity`): its family from the vehicle's
HEARTBEAT and banner before the host's word, its firmware from the host's text before the vehicle's
AUTOPILOT_VERSION before its banner, and a family kept until it is told to look again.

No sockets here: real pymavlink messages are handed over as the tracker hands them, and the host is
a plain object with the attributes the methodic configurator's flight controller carries."""

from __future__ import annotations

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.evidence import RadioTimeline
from amc_rc_receiver.plugins.rc_receiver.firmware import FirmwareVersion, VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.host_facts import HostFacts
from amc_rc_receiver.plugins.rc_receiver.vehicle_identity import VehicleIdentity

pytestmark = pytest.mark.pure

# 4.6.2, an official release (type byte 255).
OFFICIAL_4_6_2 = (4 << 24) | (6 << 16) | (2 << 8) | 255


class _Info:
    """The part of the methodic configurator's `info` that `HostFacts` reads."""

    def __init__(self, vehicle_type: object = None, flight_sw_version: object = None) -> None:
        self.vehicle_type = vehicle_type
        self.flight_sw_version = flight_sw_version


class _FlightController:
    def __init__(self, info: _Info) -> None:
        self.info = info


class _Files:
    def __init__(self, vehicle_type: object = None) -> None:
        self.vehicle_type = vehicle_type


def _identity(
    info: _Info | None = None, files: _Files | None = None
) -> tuple[VehicleIdentity, RadioTimeline, _Info]:
    info = info or _Info()
    radio = RadioTimeline()
    host = HostFacts(_FlightController(info), files, None)
    return VehicleIdentity(host, radio), radio, info


def _heartbeat(mav_type: int) -> mavlink2.MAVLink_heartbeat_message:
    return mavlink2.MAVLink_heartbeat_message(
        mav_type, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
    )


def _autopilot_version(flight_sw_version: int) -> mavlink2.MAVLink_autopilot_version_message:
    return mavlink2.MAVLink_autopilot_version_message(
        0, flight_sw_version, 0, 0, 0, bytes(8), bytes(8), bytes(8), 0, 0, 0
    )


def _banner(radio: RadioTimeline, text: str) -> None:
    radio.observe(text.encode(), mavlink2.MAV_SEVERITY_INFO, 0.0)


# ---- the family ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mav_type", "family"),
    [
        (mavlink2.MAV_TYPE_QUADROTOR, VehicleFamily.COPTER),
        (mavlink2.MAV_TYPE_HELICOPTER, VehicleFamily.HELI),
        (mavlink2.MAV_TYPE_FIXED_WING, VehicleFamily.PLANE),
        (mavlink2.MAV_TYPE_GROUND_ROVER, VehicleFamily.ROVER),
    ],
)
def test_the_heartbeat_type_names_the_family(mav_type: int, family: VehicleFamily) -> None:
    """
    GIVEN a host that names no vehicle type
    WHEN the vehicle's HEARTBEAT says it is a quadrotor, a helicopter (type 4), a plane or a rover
    THEN the family is Copter, Heli, Plane or Rover, and the HEARTBEAT's type is kept
    """
    identity, _radio, _info = _identity()

    assert identity.observe_heartbeat(_heartbeat(mav_type)) is True

    assert identity.family() is family
    assert identity.mav_type == mav_type


def test_the_vehicles_heartbeat_wins_over_the_hosts_vehicle_type() -> None:
    """
    GIVEN a host that says the vehicle is a Rover
    WHEN the vehicle's HEARTBEAT says it is a plane
    THEN the family is Plane: the host's word counts only while the vehicle has not said it
    """
    identity, _radio, _info = _identity(_Info(vehicle_type="Rover"))
    assert identity.family() is VehicleFamily.ROVER

    identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_FIXED_WING))

    assert identity.family() is VehicleFamily.PLANE


def test_a_helicopter_banner_makes_a_copter_type_a_heli() -> None:
    """
    GIVEN a vehicle whose HEARTBEAT says quadrotor and whose banner says "Frame: HELI"
    WHEN the family is worked out
    THEN it is Heli, as ArduCopter's helicopter build reports
    """
    identity, radio, _info = _identity()
    _banner(radio, "Frame: HELI")
    identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_QUADROTOR))

    assert identity.family() is VehicleFamily.HELI


def test_without_a_heartbeat_the_host_then_its_files_name_the_family() -> None:
    """
    GIVEN no HEARTBEAT yet
    WHEN the host's flight controller names a MAV_TYPE number, or nothing while its files say "Heli"
    THEN the number's family, else the files' family
    """
    by_number, _radio, _info = _identity(_Info(vehicle_type=int(mavlink2.MAV_TYPE_GROUND_ROVER)))
    by_files, _radio, _info = _identity(files=_Files("Heli"))
    nothing, _radio, _info = _identity()

    assert by_number.family() is VehicleFamily.ROVER
    assert by_files.family() is VehicleFamily.HELI
    assert nothing.family() is VehicleFamily.UNKNOWN


# ---- the firmware --------------------------------------------------------------------------------


def test_the_hosts_firmware_text_wins_over_autopilot_version() -> None:
    """
    GIVEN a host that read "4.7.1" and a vehicle whose AUTOPILOT_VERSION says 4.6.2
    WHEN the firmware is asked for
    THEN the version and the text are the host's
    """
    identity, _radio, _info = _identity(_Info(flight_sw_version="4.7.1"))
    identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2))

    assert identity.firmware() == (FirmwareVersion(4, 7, 1, True), "4.7.1")
    assert identity.autopilot_version == FirmwareVersion(4, 6, 2, True)


def test_autopilot_version_answers_for_a_host_without_firmware_text() -> None:
    """
    GIVEN a host without firmware text and a banner that names another version (4.5.0)
    WHEN the vehicle's AUTOPILOT_VERSION says 4.6.2
    THEN the version and the text shown are AUTOPILOT_VERSION's, not the banner's
    """
    identity, radio, _info = _identity()
    _banner(radio, "ArduCopter V4.5.0 (abcdef12)")
    assert identity.firmware() == (FirmwareVersion(4, 5, 0, True), "ArduCopter V4.5.0")

    assert identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2)) is True

    assert identity.firmware() == (FirmwareVersion(4, 6, 2, True), "4.6.2")


def test_a_banner_that_agrees_with_autopilot_version_is_the_text_shown() -> None:
    """
    GIVEN a vehicle whose AUTOPILOT_VERSION says 4.6.2 and whose banner names 4.6.2 too
    WHEN the firmware is asked for
    THEN the banner is the text shown (it names the firmware as well as the version)
    """
    identity, radio, _info = _identity()
    identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2))
    _banner(radio, "ArduCopter V4.6.2 (abcdef12)")

    assert identity.firmware() == (FirmwareVersion(4, 6, 2, True), "ArduCopter V4.6.2")


def test_an_autopilot_version_without_a_version_is_ignored() -> None:
    """
    GIVEN a vehicle whose AUTOPILOT_VERSION said 4.6.2
    WHEN another one comes with flight_sw_version 0 (a sender that does not know it), or the same
    THEN nothing changed: the version stays 4.6.2 and the caller is told nothing moved
    """
    identity, _radio, _info = _identity()
    identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2))

    assert identity.observe_autopilot_version(_autopilot_version(0)) is False
    assert identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2)) is False
    assert identity.autopilot_version == FirmwareVersion(4, 6, 2, True)


# ---- when the family is worked out again --------------------------------------------------------


def test_the_family_is_kept_until_it_is_forgotten() -> None:
    """
    GIVEN a family worked out from the host's vehicle type (Rover)
    WHEN the host's vehicle type changes to Plane
    THEN the family stays Rover until `forget_family` (the end of the snapshot), then it is Plane
    """
    identity, _radio, info = _identity(_Info(vehicle_type="Rover"))
    assert identity.family() is VehicleFamily.ROVER

    info.vehicle_type = "ArduPlane"
    assert identity.family() is VehicleFamily.ROVER

    identity.forget_family()
    assert identity.family() is VehicleFamily.PLANE


def test_a_new_heartbeat_type_or_version_makes_the_family_be_worked_out_again() -> None:
    """
    GIVEN a family worked out from the host (Rover) and a host that then says Plane
    WHEN a HEARTBEAT of a type that names no family comes, then the same again, then a new version
    THEN the new type works the family out again (Plane, from the host); the repeat does not and says
         so; a new AUTOPILOT_VERSION works it out again too
    """
    identity, _radio, info = _identity(_Info(vehicle_type="Rover"))
    assert identity.family() is VehicleFamily.ROVER
    info.vehicle_type = "ArduPlane"

    assert identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_GCS)) is True
    assert identity.family() is VehicleFamily.PLANE

    info.vehicle_type = "Rover"
    assert identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_GCS)) is False
    assert identity.family() is VehicleFamily.PLANE

    assert identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2)) is True
    assert identity.family() is VehicleFamily.ROVER


def test_a_banner_frame_alone_does_not_change_a_kept_family() -> None:
    """
    GIVEN a quadrotor's family worked out (Copter)
    WHEN its banner then says "Frame: HELI"
    THEN the family stays Copter until it is forgotten, then it is Heli
    """
    identity, radio, _info = _identity()
    identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_QUADROTOR))
    assert identity.family() is VehicleFamily.COPTER

    _banner(radio, "Frame: HELI")
    assert identity.family() is VehicleFamily.COPTER

    identity.forget_family()
    assert identity.family() is VehicleFamily.HELI


def test_a_new_connection_forgets_the_vehicle() -> None:
    """
    GIVEN a vehicle that said it is a plane and runs 4.6.2
    WHEN the connection changes
    THEN no type, no version, and the family is worked out again from the host alone
    """
    identity, _radio, _info = _identity(_Info(vehicle_type="Rover"))
    identity.observe_heartbeat(_heartbeat(mavlink2.MAV_TYPE_FIXED_WING))
    identity.observe_autopilot_version(_autopilot_version(OFFICIAL_4_6_2))
    assert identity.family() is VehicleFamily.PLANE

    identity.forget_vehicle()

    assert identity.mav_type is None
    assert identity.autopilot_version is None
    assert identity.family() is VehicleFamily.ROVER
    assert identity.firmware() == (None, None)

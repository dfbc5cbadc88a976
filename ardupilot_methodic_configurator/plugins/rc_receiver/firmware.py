# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the check knows of ArduPilot's firmware: vehicle families and their receiver parameters.

The family comes from the HEARTBEAT type (or the host's vehicle name).  Parameter names differ
between firmwares (Copter's ``FS_THR_ENABLE`` is Plane's ``THR_FAILSAFE``, Copter's ``FLTMODE_CH``
is Rover's ``MODE_CH``), so every rule that names a parameter asks this module first.

How long a silent receiver takes to become RC failsafe depends on the firmware and its version
(`failsafe_timing`): Copter and Heli wait ``RC_FS_TIMEOUT`` (default 1 s); before 4.7, Rover
waited a fixed 0.5 s and Plane a fixed 1 s (then ten checks of its failsafe counter), and from
4.7 both use ``RC_FS_TIMEOUT`` too.  Rover's ``FS_TIMEOUT`` and Plane's ``FS_SHORT_TIMEOUT`` are
the time the failsafe action waits after that.  The 4.7 development builds of mid-2025 (real SITL
"V4.7.0-dev (90700977)") still have the fixed time, so a 4.7.0 development build counts as before
4.7.  An unknown version is taken as the newest, whose deadline is never the shorter.

It also says what values mean, from ArduPilot's own definitions: ``RC_PROTOCOLS`` bit 0 enables
every protocol and bit n+1 protocol n (named as ArduPilot prints it in "RCInput: decoding
<name>"), ``RC_OPTIONS`` bit 0 ignores the receiver and bit 2 its failsafe flag, ``RSSI_TYPE``
names where RSSI comes from; and how the six-position mode switch maps PWM to a slot.  Pure data
and pure functions: no message, socket or clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as _mavlink


class VehicleFamily(Enum):
    """The firmware families whose receiver parameters this check knows."""

    COPTER = "ArduCopter"
    HELI = "Heli"
    PLANE = "ArduPlane"
    ROVER = "Rover"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class FamilyParameters:
    """The names (and firmware defaults) of one family's receiver-related parameters."""

    failsafe_enable: str
    failsafe_pwm: str
    mode_channel: str
    mode_slot_prefix: str  # FLTMODE1..6 or MODE1..6
    default_mode_channel: int
    default_failsafe_pwm: int
    # How long the failsafe action waits once RC failsafe is detected (Rover, Plane).
    failsafe_action_delay: str | None = None
    # Before 4.7: the fixed time a silent receiver took to become RC failsafe (Rover, Plane).
    fixed_failsafe_before_4_7_s: float | None = None
    extra: tuple[str, ...] = ()
    # Which RCMAP_* parameters name a stick that a pilot must be able to move.
    sticks: tuple[str, ...] = ("RCMAP_ROLL", "RCMAP_PITCH", "RCMAP_THROTTLE", "RCMAP_YAW")

    def mode_slots(self) -> tuple[str, ...]:
        return tuple(f"{self.mode_slot_prefix}{slot}" for slot in range(1, 7))


_COPTER = FamilyParameters(
    failsafe_enable="FS_THR_ENABLE",
    failsafe_pwm="FS_THR_VALUE",
    mode_channel="FLTMODE_CH",
    mode_slot_prefix="FLTMODE",
    default_mode_channel=5,
    default_failsafe_pwm=975,
)
_PLANE = FamilyParameters(
    failsafe_enable="THR_FAILSAFE",
    failsafe_pwm="THR_FS_VALUE",
    mode_channel="FLTMODE_CH",
    mode_slot_prefix="FLTMODE",
    default_mode_channel=8,
    default_failsafe_pwm=950,
    failsafe_action_delay="FS_SHORT_TIMEOUT",
    fixed_failsafe_before_4_7_s=1.0,
    extra=("FS_LONG_TIMEOUT",),
)
_ROVER = FamilyParameters(
    failsafe_enable="FS_THR_ENABLE",
    failsafe_pwm="FS_THR_VALUE",
    mode_channel="MODE_CH",
    mode_slot_prefix="MODE",
    default_mode_channel=8,
    default_failsafe_pwm=910,
    failsafe_action_delay="FS_TIMEOUT",
    fixed_failsafe_before_4_7_s=0.5,
    # Rover steers with the RCMAP_ROLL channel and drives with RCMAP_THROTTLE.
    sticks=("RCMAP_ROLL", "RCMAP_THROTTLE"),
)

FAMILY_PARAMETERS: dict[VehicleFamily, FamilyParameters] = {
    VehicleFamily.COPTER: _COPTER,
    VehicleFamily.HELI: _COPTER,
    VehicleFamily.PLANE: _PLANE,
    VehicleFamily.ROVER: _ROVER,
}

RC_FS_TIMEOUT = "RC_FS_TIMEOUT"
DEFAULT_RC_FS_TIMEOUT_S = 1.0
# Read on every vehicle: RC_Channels, RCMap and RSSI are libraries every firmware shares.
COMMON_PARAMETERS: tuple[str, ...] = (
    "RC_PROTOCOLS",
    "RC_OPTIONS",
    "RC_OVERRIDE_TIME",
    RC_FS_TIMEOUT,
    "RSSI_TYPE",
    "RCMAP_ROLL",
    "RCMAP_PITCH",
    "RCMAP_THROTTLE",
    "RCMAP_YAW",
)
RCMAP_DEFAULTS: dict[str, int] = {"RCMAP_ROLL": 1, "RCMAP_PITCH": 2, "RCMAP_THROTTLE": 3, "RCMAP_YAW": 4}
# Every parameter that decides which input channel has which role (sticks and the mode channel).
ROLE_PARAMETERS: tuple[str, ...] = tuple(
    dict.fromkeys((*RCMAP_DEFAULTS, *(table.mode_channel for table in FAMILY_PARAMETERS.values())))
)
MAX_RC_CHANNEL = 16
# RC_CHANNELS carries 18 inputs; ArduPilot's RCn_* parameters stop at MAX_RC_CHANNEL.
MAX_DELIVERED_CHANNEL = 18

_MAV_TYPE_FAMILY: dict[int, VehicleFamily] = {}
for _name, _family in (
    ("MAV_TYPE_QUADROTOR", VehicleFamily.COPTER),
    ("MAV_TYPE_HEXAROTOR", VehicleFamily.COPTER),
    ("MAV_TYPE_OCTOROTOR", VehicleFamily.COPTER),
    ("MAV_TYPE_TRICOPTER", VehicleFamily.COPTER),
    ("MAV_TYPE_DODECAROTOR", VehicleFamily.COPTER),
    ("MAV_TYPE_DECAROTOR", VehicleFamily.COPTER),
    # ArduCopter's multirotor build reports its SINGLE, COAX and TAILSITTER frames so
    # (Copter::get_frame_mav_type); the methodic configurator 5.0.1 takes it for a Heli, which
    # would ask a coaxial copter for a collective and a motor interlock it does not have.
    ("MAV_TYPE_COAXIAL", VehicleFamily.COPTER),
    ("MAV_TYPE_HELICOPTER", VehicleFamily.HELI),
    ("MAV_TYPE_FIXED_WING", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_TAILSITTER_DUOROTOR", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_TAILSITTER_QUADROTOR", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_TILTROTOR", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_FIXEDROTOR", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_TAILSITTER", VehicleFamily.PLANE),
    ("MAV_TYPE_VTOL_TILTWING", VehicleFamily.PLANE),
    ("MAV_TYPE_GROUND_ROVER", VehicleFamily.ROVER),
    ("MAV_TYPE_SURFACE_BOAT", VehicleFamily.ROVER),
):
    if hasattr(_mavlink, _name):
        _MAV_TYPE_FAMILY[int(getattr(_mavlink, _name))] = _family

# Every frame string of ArduCopter's helicopter build starts so (AP_MotorsHeli_*: "HELI",
# "HELI_DUAL", "HELI_QUAD").
_HELI_FRAME = "HELI"

# The methodic configurator names vehicles by firmware ("ArduCopter", "Heli", ...).
_FAMILY_NAMES: dict[str, VehicleFamily] = {
    family.value.lower(): family for family in VehicleFamily if family is not VehicleFamily.UNKNOWN
}
_FAMILY_NAMES.update(
    {"copter": VehicleFamily.COPTER, "plane": VehicleFamily.PLANE, "ardurover": VehicleFamily.ROVER}
)

# Mode number -> name, from pymavlink's own tables (Heli flies Copter's modes).
_MODE_NAMES: dict[VehicleFamily, dict[int, str]] = {
    VehicleFamily.COPTER: dict(mavutil.mode_mapping_acm),
    VehicleFamily.HELI: dict(mavutil.mode_mapping_acm),
    VehicleFamily.PLANE: dict(mavutil.mode_mapping_apm),
    VehicleFamily.ROVER: dict(mavutil.mode_mapping_rover),
}

# ArduPilot's RC_Channel::read_6pos_switch: PWM upper bounds of slots 1..5, and the valid range.
_SLOT_UPPER_BOUNDS = (1231, 1361, 1491, 1621, 1750)
_SWITCH_PWM_MIN_EXCLUSIVE = 800
_SWITCH_PWM_MAX_EXCLUSIVE = 2200


# AUTOPILOT_VERSION.flight_sw_version's lowest byte: FIRMWARE_VERSION_TYPE_OFFICIAL and below.
_VERSION_TYPE_OFFICIAL = int(_mavlink.FIRMWARE_VERSION_TYPE_OFFICIAL)
# A banner writes "V4.7.0-dev"; the methodic configurator's ``info.flight_sw_version_and_type``
# writes the type after a space ("4.7.0 dev", "4.6.2 official"), as it decodes AUTOPILOT_VERSION.
_BANNER_VERSION = re.compile(
    r"\bV?(\d+)\.(\d+)(?:\.(\d+))?(?:[- ]?(dev|alpha\d*|beta\d*|rc\d*)\b)?", re.IGNORECASE
)


@dataclass(frozen=True, order=True)
class FirmwareVersion:
    """An ArduPilot firmware version; ``release`` is False for development, beta and rc builds."""

    major: int
    minor: int
    patch: int = 0
    release: bool = True

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        return text if self.release else text + "-dev"


def version_from_banner(text: str | None) -> FirmwareVersion | None:
    """The version in a firmware banner ("ArduRover V4.7.0-dev (90700977)") or a host's version
    text ("4.6.2", "4.7.0 dev"), else None."""
    match = _BANNER_VERSION.search(text or "")
    if match is None:
        return None
    major, minor, patch, suffix = match.groups()
    return FirmwareVersion(int(major), int(minor), int(patch or 0), suffix is None)


def version_from_autopilot_version(flight_sw_version: int) -> FirmwareVersion:
    """The version AUTOPILOT_VERSION.flight_sw_version packs (major, minor, patch, type bytes)."""
    return FirmwareVersion(
        (flight_sw_version >> 24) & 0xFF,
        (flight_sw_version >> 16) & 0xFF,
        (flight_sw_version >> 8) & 0xFF,
        (flight_sw_version & 0xFF) == _VERSION_TYPE_OFFICIAL,
    )


@dataclass(frozen=True)
class FailsafeTiming:
    """When a silent receiver becomes RC failsafe: after ``parameter`` (its default ``seconds``), or
    after a fixed ``seconds`` when ``parameter`` is None; then the action waits ``action_delay``."""

    parameter: str | None
    seconds: float
    action_delay: str | None = None

    def timeout_s(self, values: Mapping[str, float]) -> float:
        if self.parameter is None:
            return self.seconds
        return values.get(self.parameter, self.seconds)


def failsafe_timing(family: VehicleFamily, version: FirmwareVersion | None) -> FailsafeTiming:
    table = FAMILY_PARAMETERS.get(family)
    if table is None:
        return FailsafeTiming(RC_FS_TIMEOUT, DEFAULT_RC_FS_TIMEOUT_S)
    fixed = table.fixed_failsafe_before_4_7_s
    # A 4.7.0 development build sorts below the 4.7.0 release, where the change arrived.
    if fixed is not None and version is not None and version < FirmwareVersion(4, 7):
        return FailsafeTiming(None, fixed, table.failsafe_action_delay)
    return FailsafeTiming(RC_FS_TIMEOUT, DEFAULT_RC_FS_TIMEOUT_S, table.failsafe_action_delay)


def family_from_mav_type(mav_type: int | None) -> VehicleFamily:
    """The family of a HEARTBEAT ``type``; unknown for anything this check has no table for."""
    if mav_type is None:
        return VehicleFamily.UNKNOWN
    return _MAV_TYPE_FAMILY.get(int(mav_type), VehicleFamily.UNKNOWN)


def family_of_vehicle(mav_type: int | None, frame: str | None = None) -> VehicleFamily:
    """The family of a connected vehicle: its HEARTBEAT ``type`` as the methodic configurator 5.0.1
    reads it (but a coaxial type is ArduCopter's), then, for a copter or helicopter type, the
    banner's ``frame`` ("HELI", "HELI_DUAL", "QUAD" from "Frame: ..."), which ArduCopter's
    helicopter build names whatever type it reports."""
    family = family_from_mav_type(mav_type)
    if frame is None or family not in (VehicleFamily.COPTER, VehicleFamily.HELI):
        return family
    return VehicleFamily.HELI if frame.strip().upper().startswith(_HELI_FRAME) else VehicleFamily.COPTER


def family_from_name(name: object) -> VehicleFamily:
    """The family of a firmware name as the methodic configurator writes it ("ArduCopter", "Heli")."""
    if not isinstance(name, str):
        return VehicleFamily.UNKNOWN
    return _FAMILY_NAMES.get(name.strip().lower(), VehicleFamily.UNKNOWN)


def family_parameters(family: VehicleFamily) -> FamilyParameters | None:
    return FAMILY_PARAMETERS.get(family)


def throttle_channel(values: Mapping[str, float]) -> int:
    """The throttle input channel (``RCMAP_THROTTLE``, 3 when unknown or out of range)."""
    return _channel_number(values.get("RCMAP_THROTTLE"), RCMAP_DEFAULTS["RCMAP_THROTTLE"])


def centring(family: VehicleFamily, axis: str) -> bool:
    """Whether the stick ``axis`` springs back to the centre: all but a copter's or plane's throttle
    (a rover's throttle centres: it drives backwards below the centre)."""
    return axis != "throttle" or family is VehicleFamily.ROVER


def stick_channel(parameter: str, values: Mapping[str, float]) -> int:
    """The input channel ``RCMAP_*`` ``parameter`` names (its default when unknown or out of range)."""
    return _channel_number(values.get(parameter), RCMAP_DEFAULTS[parameter])


def _channel_number(value: float | None, default: int) -> int:
    if value is None or value != int(value) or not 1 <= int(value) <= MAX_RC_CHANNEL:
        return default
    return int(value)


def wanted_parameters(
    family: VehicleFamily, known: dict[str, float], delivered: int | None = None
) -> tuple[str, ...]:
    """Every parameter the check needs for ``family``, given what is already known.

    The throttle channel's ``RCn_MIN`` joins once ``RCMAP_THROTTLE`` is known, and each stick
    channel's ``RCn_REVERSED`` once its ``RCMAP_*`` is, because which channel it is depends on
    that value.  Every channel's ``RCn_OPTION`` is wanted (ArduPilot's duplicate and mode-channel
    arming checks read all sixteen, delivered or not); ``RCn_MIN``/``RCn_TRIM``/``RCn_MAX`` and
    ``RCn_REVERSED`` (which turns an auxiliary switch round) for the ``delivered`` channels
    (``RC_CHANNELS.chancount``, once known), the range also for each known stick channel.
    """
    names = list(COMMON_PARAMETERS)
    names.extend(option_parameter(number) for number in range(1, MAX_RC_CHANNEL + 1))
    table = FAMILY_PARAMETERS.get(family)
    if table is not None:
        names.extend((table.failsafe_enable, table.failsafe_pwm, table.mode_channel))
        if table.failsafe_action_delay is not None:
            names.append(table.failsafe_action_delay)
        names.extend(table.mode_slots())
        names.extend(table.extra)
    if "RCMAP_THROTTLE" in known:
        names.append(f"RC{throttle_channel(known)}_MIN")
    sticks = table.sticks if table is not None else tuple(RCMAP_DEFAULTS)
    names.extend(f"RC{stick_channel(name, known)}_REVERSED" for name in sticks if name in known)
    ranged = [stick_channel(name, known) for name in sticks if name in known]
    if delivered is not None:
        delivered_numbers = range(1, min(max(delivered, 0), MAX_RC_CHANNEL) + 1)
        ranged.extend(delivered_numbers)
        # ArduPilot turns an auxiliary switch round by its channel's RCn_REVERSED (RC_OPTIONS bit 7).
        names.extend(f"RC{number}_REVERSED" for number in delivered_numbers)
    for number in sorted(set(ranged)):
        names.extend(range_parameters(number))
    return tuple(dict.fromkeys(names))


def option_parameter(number: int) -> str:
    """Input channel ``number``'s auxiliary function parameter, ``RCn_OPTION``."""
    return f"RC{number}_OPTION"


def range_parameters(number: int) -> tuple[str, str, str]:
    """Input channel ``number``'s calibration: ``RCn_MIN``, ``RCn_TRIM``, ``RCn_MAX``."""
    return f"RC{number}_MIN", f"RC{number}_TRIM", f"RC{number}_MAX"


def stick_channels(family: VehicleFamily, values: Mapping[str, float]) -> dict[int, str]:
    """Channel number -> RCMAP parameter for every stick of ``family`` (defaults where unread)."""
    table = FAMILY_PARAMETERS.get(family)
    sticks = table.sticks if table is not None else tuple(RCMAP_DEFAULTS)
    result: dict[int, str] = {}
    for name in sticks:
        result.setdefault(_channel_number(values.get(name), RCMAP_DEFAULTS[name]), name)
    return result


def mode_channel(family: VehicleFamily, values: Mapping[str, float]) -> int | None:
    """The flight-mode channel, or ``None`` when the family has none or it is switched off (0)."""
    table = FAMILY_PARAMETERS.get(family)
    if table is None:
        return None
    value = values.get(table.mode_channel)
    if value is not None and int(value) == 0:
        return None
    return _channel_number(value, table.default_mode_channel)


def mode_slot(pwm: int | None) -> int | None:
    """The flight-mode slot 1..6 that ``pwm`` selects, as ArduPilot computes it; None if invalid."""
    if pwm is None or not _SWITCH_PWM_MIN_EXCLUSIVE < pwm < _SWITCH_PWM_MAX_EXCLUSIVE:
        return None
    for slot, upper in enumerate(_SLOT_UPPER_BOUNDS, start=1):
        if pwm < upper:
            return slot
    return len(_SLOT_UPPER_BOUNDS) + 1


def mode_name(family: VehicleFamily, mode_number: float | None) -> str | None:
    """The firmware's name of mode ``mode_number`` (e.g. Copter 5 -> "LOITER"), None if unknown."""
    if mode_number is None or mode_number != int(mode_number):
        return None
    return _MODE_NAMES.get(family, {}).get(int(mode_number))


# RCn_OPTION (RC_Channel::AUX_FUNC): 0 does nothing; ArduPilot's duplicate check
# (RC_Channels::duplicate_options_exist) skips 0 and every value from AUX_FUNCTION_MAX up.
RC_OPTION_DO_NOTHING = 0
AUX_FUNCTION_MAX = 316
# The flight-mode channel ArduPilot's conflict check can see (RC_Channels::flight_mode_channel
# takes none for 0 and none from NUM_RC_CHANNELS up, so channel 16 is never checked).
MODE_CHANNEL_CHECKED_BELOW = MAX_RC_CHANNEL
# Copter's and Rover's stick calibration limits (RC_Channel::RC_CALIB_MIN_LIMIT_PWM and
# RC_CALIB_MAX_LIMIT_PWM): a stick channel's RCn_MIN above 1300 or RCn_MAX below 1700 refuses arming.
RC_CALIB_MIN_LIMIT_PWM = 1300
RC_CALIB_MAX_LIMIT_PWM = 1700

RC_OPTION_IGNORE_RECEIVER = 1 << 0
RC_OPTION_IGNORE_FAILSAFE_BIT = 1 << 2
# The CRSF/ExpressLRS bits: no mode/rate messages, RSSI is link quality, 420 kbaud.
RC_OPTION_SUPPRESS_CRSF_MESSAGE = 1 << 9
RC_OPTION_CRSF_LINK_QUALITY = 1 << 11
RC_OPTION_ELRS_420K = 1 << 13
RC_PROTOCOLS_ALL = 1
CRSF = "CRSF"
# ExpressLRS sends its arm switch (AUX1) on channel 5.
ELRS_ARM_CHANNEL = 5
# RC_PROTOCOLS bit -> the protocol name ArduPilot prints in "RCInput: decoding <name>".
RC_PROTOCOL_BITS: dict[int, str] = {
    1: "PPM",
    2: "IBUS",
    3: "SBUS",
    4: "SBUS_NI",
    5: "DSM",
    6: "SUMD",
    7: "SRXL",
    8: "SRXL2",
    9: "CRSF",
    10: "ST24",
    11: "FPORT",
    12: "FPORT2",
    13: "FastSBUS",
    14: "DroneCAN",
    15: "GHST",
    16: "MAVRadio",
    # SITL's RC input over UDP, announced as "UDP (Pulses)".
    18: "UDP",
}
# ArduPilot reports non-inverted SBUS as "SBUS" too.
_PROTOCOL_NAME_BITS: dict[str, tuple[int, ...]] = {"SBUS": (3, 4)}

# ArduPilot's RSSI_TYPE parameter: where the flight controller takes RSSI from.
RSSI_TYPE_DISABLED = 0
RSSI_TYPE_RECEIVER_PROTOCOL = 3
RSSI_TYPE_NAMES: dict[int, str] = {
    1: "AnalogPin",
    2: "RCChannelPwmValue",
    RSSI_TYPE_RECEIVER_PROTOCOL: "ReceiverProtocol",
    4: "PWMInputPin",
    5: "TelemetryRadioRSSI",
}


def protocol_bits(name: str) -> tuple[int, ...]:
    """The RC_PROTOCOLS bits that enable a decoded protocol name (empty if unknown)."""
    if name in _PROTOCOL_NAME_BITS:
        return _PROTOCOL_NAME_BITS[name]
    return tuple(bit for bit, protocol in RC_PROTOCOL_BITS.items() if protocol.lower() == name.lower())


def enabled_protocols(mask: int) -> tuple[str, ...]:
    return tuple(name for bit, name in RC_PROTOCOL_BITS.items() if mask & (1 << bit))


def protocol_enabled(mask: int, name: str) -> bool | None:
    """Whether ``RC_PROTOCOLS`` = ``mask`` lets ArduPilot decode ``name`` (None if unknown name)."""
    if mask & 1:
        return True
    bits = protocol_bits(name)
    if not bits:
        return None
    return any(mask & (1 << bit) for bit in bits)

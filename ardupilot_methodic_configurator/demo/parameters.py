# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's parameter set: ArduCopter 4.6 parameters a receiver check touches.

Data only.  Names, storage types and defaults follow ArduCopter 4.6 on a CubeOrange (serial port
defaults come from that board's hardware definition); the order is the firmware's table order,
which is the order PARAM_REQUEST_LIST streams and param.pck packs.  Repeated groups (RCn_,
SERVOn_, SERIALn_) are written as the loops the firmware's group tables are.  The values the
vehicle reports are these defaults except ``COPTER_CONFIGURED``: the frame a quadrotor needs, as
after a first set-up, so a ground station that compares values with defaults finds a difference.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class ParamKind(IntEnum):
    """AP_Param storage types, numbered as in ArduPilot's packed parameter file."""

    INT8 = 1
    INT16 = 2
    INT32 = 3
    FLOAT = 4


class ParameterSpec(NamedTuple):
    name: str
    default: float
    kind: ParamKind


_I8 = ParamKind.INT8
_I16 = ParamKind.INT16
_I32 = ParamKind.INT32
_F = ParamKind.FLOAT

_VEHICLE: tuple[tuple[str, float, ParamKind], ...] = (
    ("FORMAT_VERSION", 120, _I16),
    ("SYSID_THISMAV", 1, _I16),
    ("SYSID_MYGCS", 255, _I16),
    ("PILOT_THR_FILT", 0.0, _F),
    ("PILOT_TKOFF_ALT", 0.0, _F),
    ("PILOT_THR_BHV", 0, _I16),
    ("TELEM_DELAY", 0, _I8),
    ("GCS_PID_MASK", 0, _I16),
    ("FS_GCS_ENABLE", 0, _I8),
    ("GPS_HDOP_GOOD", 140, _I16),
    ("SUPER_SIMPLE", 0, _I8),
    ("WP_YAW_BEHAVIOR", 2, _I8),
    ("LAND_SPEED", 50, _I16),
    ("PILOT_SPEED_UP", 250, _I16),
    ("PILOT_ACCEL_Z", 250, _I16),
    ("FS_THR_ENABLE", 1, _I8),
    ("FS_THR_VALUE", 975, _I16),
    ("THR_DZ", 100, _I16),
    ("FLTMODE1", 0, _I8),
    ("FLTMODE2", 0, _I8),
    ("FLTMODE3", 0, _I8),
    ("FLTMODE4", 0, _I8),
    ("FLTMODE5", 0, _I8),
    ("FLTMODE6", 0, _I8),
    ("FLTMODE_CH", 5, _I8),
    ("INITIAL_MODE", 0, _I8),
    ("SIMPLE", 0, _I8),
    ("LOG_BITMASK", 176126, _I32),
    ("ESC_CALIBRATION", 0, _I8),
    ("TUNE", 0, _I8),
    ("FRAME_TYPE", 1, _I8),
    ("DISARM_DELAY", 10, _I8),
    ("ANGLE_MAX", 3000, _I16),
    ("PHLD_BRAKE_RATE", 8, _I16),
    ("PHLD_BRAKE_ANGLE", 3000, _I16),
    ("LAND_REPOSITION", 1, _I8),
    ("FS_EKF_ACTION", 1, _I8),
    ("FS_EKF_THRESH", 0.8, _F),
    ("FS_CRASH_CHECK", 1, _I8),
    ("RC_SPEED", 490, _I16),
    ("ACRO_TRAINER", 2, _I8),
    ("FRAME_CLASS", 0, _I8),
    ("FS_OPTIONS", 16, _I32),
    ("FS_GCS_TIMEOUT", 5.0, _F),
    ("FS_DR_ENABLE", 2, _I8),
    ("FS_DR_TIMEOUT", 30, _I16),
    ("FS_VIBE_ENABLE", 1, _I8),
    ("ARMING_CHECK", 1, _I32),
    ("ARMING_RUDDER", 2, _I8),
    ("ARMING_REQUIRE", 1, _I8),
    ("ARMING_ACCTHRESH", 0.75, _F),
    ("BATT_MONITOR", 4, _I8),
    ("BATT_CAPACITY", 3300, _I32),
    ("BATT_LOW_VOLT", 10.5, _F),
    ("BATT_FS_LOW_ACT", 0, _I8),
    ("MOT_SPIN_ARM", 0.1, _F),
    ("MOT_SPIN_MIN", 0.15, _F),
    ("MOT_SPIN_MAX", 0.95, _F),
    ("MOT_THST_EXPO", 0.65, _F),
    ("MOT_THST_HOVER", 0.35, _F),
    ("MOT_PWM_TYPE", 0, _I8),
    ("MOT_PWM_MIN", 0, _I16),
    ("MOT_PWM_MAX", 0, _I16),
    ("SCHED_LOOP_RATE", 400, _I16),
)

# RC_Channels' own parameters come before its per-channel groups.
_RC_GLOBAL: tuple[tuple[str, float, ParamKind], ...] = (
    ("RC_OVERRIDE_TIME", 3.0, _F),
    ("RC_OPTIONS", 32, _I32),
    ("RC_PROTOCOLS", 1, _I32),
    ("RC_FS_TIMEOUT", 1.0, _F),
)

_RCMAP: tuple[tuple[str, float, ParamKind], ...] = (
    ("RCMAP_ROLL", 1, _I8),
    ("RCMAP_PITCH", 2, _I8),
    ("RCMAP_THROTTLE", 3, _I8),
    ("RCMAP_YAW", 4, _I8),
)

_RSSI: tuple[tuple[str, float, ParamKind], ...] = (
    ("RSSI_TYPE", 0, _I8),
    ("RSSI_ANA_PIN", 8, _I8),
    ("RSSI_PIN_LOW", 0.0, _F),
    ("RSSI_PIN_HIGH", 5.0, _F),
    ("RSSI_CHANNEL", 0, _I8),
    ("RSSI_CHAN_LOW", 1000, _I16),
    ("RSSI_CHAN_HIGH", 2000, _I16),
)

RC_INPUT_CHANNELS = 16
SERVO_OUTPUTS = 16
# Copter gives its stick channels a dead zone by default: roll, pitch and yaw 20 µs, throttle 30 µs.
_RC_DEFAULT_DEAD_ZONE = {1: 20, 2: 20, 3: 30, 4: 20}
# A quad's four motors on the first four outputs (motor functions 33-36).
_SERVO_DEFAULT_FUNCTION = {1: 33, 2: 34, 3: 35, 4: 36}

# (protocol, baud/1000) per port: USB MAVLink 2, TELEM1/2 MAVLink 2, GPS1/2, the rest unused.
_SERIAL_DEFAULTS: tuple[tuple[int, int], ...] = (
    (2, 115),
    (2, 57),
    (2, 57),
    (5, 38),
    (5, 38),
    (-1, 57),
    (-1, 57),
    (-1, 57),
)


def _rc_channel(n: int) -> tuple[tuple[str, float, ParamKind], ...]:
    return (
        (f"RC{n}_MIN", 1100, _I16),
        (f"RC{n}_TRIM", 1500, _I16),
        (f"RC{n}_MAX", 1900, _I16),
        (f"RC{n}_REVERSED", 0, _I8),
        (f"RC{n}_DZ", _RC_DEFAULT_DEAD_ZONE.get(n, 0), _I16),
        (f"RC{n}_OPTION", 0, _I16),
    )


def _servo_output(n: int) -> tuple[tuple[str, float, ParamKind], ...]:
    return (
        (f"SERVO{n}_MIN", 1100, _I16),
        (f"SERVO{n}_MAX", 1900, _I16),
        (f"SERVO{n}_TRIM", 1500, _I16),
        (f"SERVO{n}_REVERSED", 0, _I8),
        (f"SERVO{n}_FUNCTION", _SERVO_DEFAULT_FUNCTION.get(n, 0), _I16),
    )


def _serial_port(n: int, protocol: int, baud: int) -> tuple[tuple[str, float, ParamKind], ...]:
    return (
        (f"SERIAL{n}_PROTOCOL", protocol, _I8),
        (f"SERIAL{n}_BAUD", baud, _I32),
        (f"SERIAL{n}_OPTIONS", 0, _I16),
    )


def _build() -> tuple[ParameterSpec, ...]:
    rows: list[tuple[str, float, ParamKind]] = list(_VEHICLE)
    rows.extend(_RC_GLOBAL)
    for n in range(1, RC_INPUT_CHANNELS + 1):
        rows.extend(_rc_channel(n))
    rows.extend(_RCMAP)
    rows.extend(_RSSI)
    rows.append(("SERVO_RATE", 50, _I16))
    for n in range(1, SERVO_OUTPUTS + 1):
        rows.extend(_servo_output(n))
    for n, (protocol, baud) in enumerate(_SERIAL_DEFAULTS):
        rows.extend(_serial_port(n, protocol, baud))
    return tuple(ParameterSpec(name, float(default), kind) for name, default, kind in rows)


COPTER_PARAMETERS: tuple[ParameterSpec, ...] = _build()

# Values that differ from the defaults on the simulated quadrotor.
COPTER_CONFIGURED: dict[str, float] = {
    "FRAME_CLASS": 1.0,  # Quad; with FRAME_TYPE 1 (X) this matches the "Frame: QUAD/X" banner line
}

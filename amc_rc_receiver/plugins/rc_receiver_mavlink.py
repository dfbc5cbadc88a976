# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The MAVLink facts the receiver check relies on, and tolerant readers of decoded messages.

One home for the message ids, the stream interval, the RSSI scale and the RC-receiver sensor
bit.  Ids and bits come from pymavlink's ardupilotmega dialect
(the one the methodic configurator 5.0.1 ships), so the plugin, the standalone facade and the demo
vehicle cannot disagree with each other or with the wire.

The readers take any object: a message from a noisy link, a host's stand-in or a half-built test
double may lack a field or a getter its type promises, or hold something of another type, and a
receiver check must then say "not known" rather than raise inside a poll.  Each answers ``None``
for anything missing or of the wrong type (``bool`` is not an integer here) and never raises.
"""

from __future__ import annotations

from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as _mavlink

HEARTBEAT_ID: int = int(_mavlink.MAVLINK_MSG_ID_HEARTBEAT)
SYS_STATUS_ID: int = int(_mavlink.MAVLINK_MSG_ID_SYS_STATUS)
RC_CHANNELS_ID: int = int(_mavlink.MAVLINK_MSG_ID_RC_CHANNELS)
MAV_CMD_SET_MESSAGE_INTERVAL: int = int(_mavlink.MAV_CMD_SET_MESSAGE_INTERVAL)

# 5 Hz: fast enough to see sticks move and failsafe flip, light enough for a telemetry radio.
REQUESTED_INTERVAL_US = 200_000
# Interval 0 asks the firmware for its own default rate of a message.
DEFAULT_INTERVAL_US = 0

# SYS_STATUS onboard_control_sensors_* bit of the RC receiver.
RC_RECEIVER_SENSOR_BIT: int = int(_mavlink.MAV_SYS_STATUS_SENSOR_RC_RECEIVER)

# RC_CHANNELS.rssi: 0..254 is the signal strength, 255 means "unknown".
RSSI_MAX = 254
RSSI_UNKNOWN = 255

def _integer(value: object) -> int | None:
    # ``type() is int`` first: the common case, cheaper than two isinstance calls.
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


def call_str(msg: object, method: str) -> str | None:
    """What ``msg.<method>()`` returns if it is a string, else None."""
    try:
        value = getattr(msg, method)()
    except Exception:  # absent, not callable or failing: a malformed message is never an error
        return None
    return value if isinstance(value, str) else None


def call_int(msg: object, method: str) -> int | None:
    """What ``msg.<method>()`` returns if it is an integer, else None."""
    try:
        value = getattr(msg, method)()
    except Exception:  # see call_str
        return None
    return _integer(value)


def int_field(msg: object, field: str) -> int | None:
    """The integer field ``field`` of ``msg``, else None."""
    return _integer(getattr(msg, field, None))


# The three below run for every message a poll reads, so they call the getters directly rather
# than through call_str / call_int: the same answers for one call less.


def message_type(msg: Any) -> str | None:
    """The message's type name ("RC_CHANNELS", "BAD_DATA"…), else None."""
    try:
        value = msg.get_type()
    except Exception:  # see call_str
        return None
    return value if isinstance(value, str) else None


def message_source(msg: Any) -> tuple[int, int] | None:
    """The sender's (system id, component id), else None."""
    try:
        system = _integer(msg.get_srcSystem())
        component = _integer(msg.get_srcComponent())
    except Exception:  # see call_str
        return None
    if system is None or component is None:
        return None
    return system, component


def message_timestamp(msg: Any) -> int | None:
    """The message's ``time_boot_ms``; 0 is what a sender that keeps no time leaves there."""
    value = _integer(getattr(msg, "time_boot_ms", None))
    return value if value is not None and value > 0 else None

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the receiver telemetry says: the MAVLink facts, tolerant readers and the rules that read them.

One home for the message ids, the stream interval, the RSSI scale and the RC-receiver sensor bit,
taken from pymavlink's ardupilotmega dialect (the one the methodic configurator 5.0.1 ships), so
the model and the wire cannot disagree.  The readers accept any object: a message from a noisy
link or a host's stand-in may lack a field or hold another type, and the check must then say "not
known" rather than raise; each answers ``None`` for anything missing (``bool`` is no integer here).

The rules take plain integers and are tested exhaustively on their own: channel n of CH1-CH5 exists
only when ``n <= chancount`` and PWM 0 / 65535 mean no value; RSSI 0-254 is kept in the reported
scale and 255 is unknown; only a receiver both present and enabled has a meaningful health bit
(unhealthy = RC failsafe); only the selected vehicle's messages count.  The samples of RC_CHANNELS
and SYS_STATUS, the selected vehicle's ids and the facade protocol the model relies on live here
too.  Nothing here reads a connection or a clock.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from .snapshot import CHANNEL_COUNT, FIRST_CHANNEL, ChannelReading, FailsafeStatus

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


# PWM values MAVLink uses for "this channel carries nothing".
PWM_UNUSED = 0
PWM_UNAVAILABLE = 65535


@dataclass(frozen=True)
class ReceiverStatus:
    """What one SYS_STATUS says about the RC receiver."""

    present: bool
    enabled: bool
    healthy: bool
    failsafe: FailsafeStatus


def channel_readings(chancount: int, raw_pwm: Sequence[int]) -> tuple[ChannelReading, ...]:
    """CH1..CH5 from ``RC_CHANNELS``: channel n exists iff ``n <= chancount``; 0 and 65535 are no value.

    Values that exist are kept exactly as reported (no clamping), so a view can show a 700 µs or
    2300 µs reading truthfully.
    """
    readings = []
    for index in range(CHANNEL_COUNT):
        number = FIRST_CHANNEL + index
        value = raw_pwm[index] if index < len(raw_pwm) else PWM_UNUSED
        exists = number <= chancount
        usable = value not in (PWM_UNUSED, PWM_UNAVAILABLE)
        readings.append(ChannelReading(number, value if exists and usable else None))
    return tuple(readings)


def rssi_reading(raw_rssi: int) -> int | None:
    """Receiver RSSI in the reported 0..254 scale; 255 (and anything out of range) is unknown.

    Zero is a real reading (no signal), not "unknown".
    """
    return raw_rssi if 0 <= raw_rssi <= RSSI_MAX else None


def receiver_status(present_bits: int, enabled_bits: int, health_bits: int) -> ReceiverStatus:
    """Interpret the RC_RECEIVER bit of the three SYS_STATUS sensor bitmasks.

    Only a receiver that is both present and enabled has a meaningful health bit: then unhealthy
    means the flight controller is in RC failsafe.  Any other combination proves nothing, so the
    failsafe is unknown.  Other sensor bits are ignored on purpose: a failing compass is not an RC
    failsafe.
    """
    return ReceiverStatus(
        present=bool(present_bits & RC_RECEIVER_SENSOR_BIT),
        enabled=bool(enabled_bits & RC_RECEIVER_SENSOR_BIT),
        healthy=bool(health_bits & RC_RECEIVER_SENSOR_BIT),
        failsafe=failsafe_status(present_bits, enabled_bits, health_bits),
    )


def failsafe_status(present_bits: int, enabled_bits: int, health_bits: int) -> FailsafeStatus:
    """The RC failsafe that `receiver_status` derives, without the rest (read for every SYS_STATUS)."""
    if present_bits & enabled_bits & RC_RECEIVER_SENSOR_BIT:
        return FailsafeStatus.NOT_ACTIVE if health_bits & RC_RECEIVER_SENSOR_BIT else FailsafeStatus.ACTIVE
    return FailsafeStatus.UNKNOWN


def is_selected_source(
    source_system: int, source_component: int, target_system: int | None, target_component: int | None
) -> bool:
    """True when a message comes from the selected flight controller.

    Without a known target system nothing is accepted (we cannot tell whose receiver it is).  A
    target component of 0 (or unknown) accepts every component of the selected system.
    """
    if target_system is None or source_system != target_system:
        return False
    return target_component in (None, 0) or source_component == target_component


_SOURCE = operator.attrgetter("srcSystem", "srcComponent")


def from_selected(
    messages: Iterable[Any], target_system: int | None, target_component: int | None
) -> list[Any]:
    """The messages of ``messages`` that `is_selected_source` accepts, in their order.

    For a whole poll at once, so it reads the two ids of each message from its header (one call).
    """
    if target_system is None:
        return []
    if target_component in (None, 0):
        return [msg for msg in messages if msg.get_header().srcSystem == target_system]
    target = (target_system, target_component)
    return [msg for msg in messages if _SOURCE(msg.get_header()) == target]


# A SYS_STATUS's present, enabled and health sensor bitmasks, in that order (one C call).
status_bits: Callable[[Any], tuple[int, int, int]] = operator.attrgetter(
    "onboard_control_sensors_present", "onboard_control_sensors_enabled", "onboard_control_sensors_health"
)


def sys_status_failsafe(msg: Any) -> FailsafeStatus:
    """`failsafe_status` of one SYS_STATUS message."""
    return failsafe_status(
        msg.onboard_control_sensors_present,
        msg.onboard_control_sensors_enabled,
        msg.onboard_control_sensors_health,
    )


# Longer than any STATUSTEXT ArduPilot sends (50 characters, or a few chunks of them).
MAX_SHOWN_TEXT = 200
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
_CONTROLS.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def readable_text(raw: object, limit: int = MAX_SHOWN_TEXT) -> str:
    """Text that came from a link, fit to be shown anywhere: data, never terminal control.

    Bytes are decoded as UTF-8 (bad bytes replaced), the text ends at its first NUL (as MAVLink's
    fixed-size fields do), every control character is written as its escape (ESC as ``\x1b``, a
    line break as ``\n``) so it can neither move a terminal's cursor nor start a new line, and the
    whole is cut to ``limit`` characters, an ellipsis saying so.
    """
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes | bytearray) else str(raw)
    text = text.split("\x00", 1)[0].strip().translate(_CONTROLS)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def link_kind(master: object) -> str | None:
    """What kind of pymavlink link ``master`` is, in the words of its device strings."""
    if isinstance(master, mavutil.mavserial):
        return "serial"
    if isinstance(master, mavutil.mavtcpin):
        return "tcpin"
    if isinstance(master, mavutil.mavtcp):
        return "tcp"
    if isinstance(master, mavutil.mavudp):
        return "udpin" if getattr(master, "udp_server", False) else "udpout"
    return None if master is None else type(master).__name__


STREAMS: tuple[tuple[int, str], ...] = ((RC_CHANNELS_ID, "RC_CHANNELS"), (SYS_STATUS_ID, "SYS_STATUS"))
TELEMETRY = frozenset(name for _id, name in STREAMS)


class FlightControllerInfoLike(Protocol):
    @property
    def system_id(self) -> str: ...

    @property
    def component_id(self) -> str: ...


class RCReceiverFlightController(Protocol):
    """The part of a flight-controller facade this model relies on (the methodic configurator's has it)."""

    @property
    def master(self) -> Any: ...

    @property
    def info(self) -> FlightControllerInfoLike: ...


@dataclass(frozen=True)
class ChannelsSample:
    channels: tuple[ChannelReading, ...]
    rssi: int | None
    chancount: int
    received_at: float


@dataclass(frozen=True)
class StatusSample:
    status: ReceiverStatus
    received_at: float


_SHOWN_CHANNELS = operator.attrgetter(
    *(f"chan{number}_raw" for number in range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))
)
# A receiver at rest repeats the same values, and the readings are frozen: made once per distinct
# input, by their constructors, and shared by the samples (one made every poll).
_SHOWN_READINGS_KEPT = 256


@lru_cache(maxsize=_SHOWN_READINGS_KEPT)
def _shown_readings(chancount: int, raw_pwm: tuple[int, ...]) -> tuple[ChannelReading, ...]:
    return channel_readings(chancount, raw_pwm)


@lru_cache(maxsize=_SHOWN_READINGS_KEPT)
def _receiver_status_of(present_bits: int, enabled_bits: int, health_bits: int) -> ReceiverStatus:
    return receiver_status(present_bits, enabled_bits, health_bits)


def channels_sample(msg: Any, now: float) -> ChannelsSample:
    chancount = int(msg.chancount)
    raw = tuple(map(int, _SHOWN_CHANNELS(msg)))
    return ChannelsSample(_shown_readings(chancount, raw), rssi_reading(int(msg.rssi)), chancount, now)


def status_sample(msg: Any, now: float) -> StatusSample:
    status = _receiver_status_of(
        int(msg.onboard_control_sensors_present),
        int(msg.onboard_control_sensors_enabled),
        int(msg.onboard_control_sensors_health),
    )
    return StatusSample(status, now)


def _id_or_none(text: object) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() else None


def selected_target(
    flight_controller: RCReceiverFlightController, master: Any
) -> tuple[int | None, int | None]:
    """The discovered vehicle's ids, else the connection's own target ids (pymavlink's guess)."""
    info = flight_controller.info
    system_id = _id_or_none(getattr(info, "system_id", None))
    component_id = _id_or_none(getattr(info, "component_id", None))
    if system_id is None:
        value = getattr(master, "target_system", None)
        system_id = value if isinstance(value, int) and value > 0 else None
    if component_id is None:
        value = getattr(master, "target_component", None)
        component_id = value if isinstance(value, int) and not isinstance(value, bool) else None
    return system_id, component_id

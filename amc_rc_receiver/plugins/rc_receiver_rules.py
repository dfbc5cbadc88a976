# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pure rules that turn MAVLink field values into what the receiver check may claim.

Every function takes plain integers (never a socket, clock or message object), so each rule can be
tested exhaustively on its own: which channels exist, which PWM and RSSI values are real, what the
SYS_STATUS RC_RECEIVER bits prove about RC failsafe, and which sender is the selected flight
controller.  The data model applies these rules to the messages it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rc_receiver_mavlink import RC_RECEIVER_SENSOR_BIT, RSSI_MAX
from .rc_receiver_state import (
    CHANNEL_COUNT,
    FIRST_CHANNEL,
    ChannelReading,
    FailsafeStatus,
)

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

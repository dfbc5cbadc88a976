# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The flight-mode switch as ArduPilot reads it, and what the vehicle answered for each slot.

ArduPilot (``RC_Channel::read_6pos_switch``) takes the mode channel's raw PWM, reversal ignored:
slot 1 below 1231 µs, slot 2 up to 1360, 3 up to 1490, 4 up to 1620, 5 up to 1749, slot 6 from
1750; a new position counts once it held 200 ms (``SWITCH_DEBOUNCE_TIME_MS``), and only a change
of position asks for a mode.  A switch that sits within ``NEAR_BAND_END_US`` of a band's end can
select the neighbouring mode after a small drift of the transmitter or the receiver.

Whether the vehicle entered a slot's mode is read from HEARTBEAT.custom_mode once the switch has
settled in the slot, and from ArduPilot's refusal: Copter and Heli say "Mode change to SMARTRTL
failed: init failed" (``Copter::mode_change_failed``, the mode's own name, which is not always
pymavlink's), Plane and Rover "Flight mode change failed" (``Plane::set_mode``,
``Rover::set_mode``).  A disarmed Copter enters every mode whose ``init`` passes; it refuses e.g.
SMART_RTL (no path yet), FOLLOW (``FOLL_ENABLE`` 0), FLOWHOLD (no optical flow) and AUTO_RTL (no
landing sequence) - checked on real SITL.  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache

from .firmware import (
    MAX_RC_CHANNEL,
    VehicleFamily,
    family_parameters,
    mode_name,
    option_parameter,
    stick_channels,
)
from .snapshot import FlightModeReading, ModeOutcome, ModeSlotVisit

SLOT_COUNT = 6
# The last PWM of slots 1..5 (the next slot starts 1 µs above).
BAND_ENDS_US = (1230, 1360, 1490, 1620, 1749)
NEAR_BAND_END_US = 15
# Where a program's transmitter puts the switch for each slot: the middle of its band.
SLOT_CENTRE_US = (1165, 1295, 1425, 1555, 1685, 1815)
# ArduPilot's debounce, and how long after the switch showed in a slot a HEARTBEAT surely carries
# the vehicle's answer (RC_CHANNELS is read at 5 Hz, so the slot shows up to 0.2 s late).
MODE_SWITCH_DEBOUNCE_S = 0.2
SETTLED_AFTER_S = 0.5
# Heartbeats after the switch settled that all report another mode: the vehicle stayed where it was.
REFUSED_AFTER_HEARTBEATS = 2
# ArduPilot's aux switch positions (RC_Channel::read_3pos_switch): low below 1200, high above 1800.
AUX_LOW_BELOW_US = 1200
AUX_HIGH_ABOVE_US = 1800
AUX_LOW_US = 1100
AUX_HIGH_US = 1900
# Options a program must not flip: they arm the vehicle (ArmDisarm, before and from 4.2, with AirMode).
ARMING_OPTIONS = frozenset({41, 153, 154})
# A person who flips nothing new for this long is done with the switches: the switch step waits
# it and the wording says it, so it lives here, below both.
IDLE_S = 20.0

_COPTER_REFUSAL = re.compile(r"^Mode change to (?P<mode>.+?) failed")
_PLANE_ROVER_REFUSAL = "Flight mode change failed"


def near_band_end(pwm: int | None) -> int | None:
    """The band end ``pwm`` sits within `NEAR_BAND_END_US` of (on either side), or None."""
    if pwm is None:
        return None
    for end in BAND_ENDS_US:
        if end - NEAR_BAND_END_US <= pwm <= end + 1 + NEAR_BAND_END_US:
            return end
    return None


# Firmware repeats its texts: each distinct one is matched once (the check reads every STATUSTEXT).
@lru_cache(maxsize=256)
def is_mode_refusal(text: str) -> bool:
    """Whether ``text`` is ArduPilot refusing a mode change (any vehicle)."""
    return text.startswith(_PLANE_ROVER_REFUSAL) or _COPTER_REFUSAL.match(text) is not None


def slot_parameter(family: VehicleFamily, slot: int) -> str | None:
    """FLTMODEn (Rover: MODEn) of ``slot``, or None for a family without a mode switch."""
    table = family_parameters(family)
    return None if table is None else f"{table.mode_slot_prefix}{slot}"


def slot_modes(family: VehicleFamily, values: Mapping[str, float]) -> dict[int, int]:
    """The mode number each slot selects, for the slots whose parameter is known."""
    result: dict[int, int] = {}
    for slot in range(1, SLOT_COUNT + 1):
        name = slot_parameter(family, slot)
        value = None if name is None else values.get(name)
        if value is not None and value == int(value):
            result[slot] = int(value)
    return result


def judge_slots(
    family: VehicleFamily, values: Mapping[str, float], visits: Iterable[ModeSlotVisit]
) -> tuple[ModeSlotVisit, ...]:
    """Each visit with its slot's mode and the outcome: entered when a settled HEARTBEAT reported
    that mode, refused on ArduPilot's refusal or `REFUSED_AFTER_HEARTBEATS` reporting others."""
    modes = slot_modes(family, values)
    judged = []
    for visit in visits:
        number = modes.get(visit.slot)
        reported = visit.reported_modes[-1] if visit.reported_modes else None
        if number is not None and number in visit.reported_modes:
            outcome = ModeOutcome.ENTERED
        elif visit.failure_text is not None or (
            number is not None and visit.heartbeats >= REFUSED_AFTER_HEARTBEATS
        ):
            outcome = ModeOutcome.REFUSED
        else:
            outcome = ModeOutcome.UNCONFIRMED
        judged.append(
            replace(
                visit,
                mode_number=number,
                mode_name=mode_name(family, number),
                reported_name=mode_name(family, reported),
                outcome=outcome,
            )
        )
    return tuple(judged)


def aux_switch_channels(
    family: VehicleFamily, values: Mapping[str, float], delivered: int | None, mode_channel: int | None
) -> tuple[int, ...]:
    """The delivered channels with an aux function (``RCn_OPTION`` not 0) for the switch step: not
    the mode channel, not a stick, and never one that arms the vehicle."""
    sticks = stick_channels(family, dict(values))
    result = []
    for channel in range(1, min(delivered or 0, MAX_RC_CHANNEL) + 1):
        option = values.get(option_parameter(channel))
        if option is None or int(option) == 0 or int(option) in ARMING_OPTIONS:
            continue
        if channel != mode_channel and channel not in sticks:
            result.append(channel)
    return tuple(result)


def with_reported_mode(
    reading: FlightModeReading | None, family: VehicleFamily, custom_mode: int | None
) -> FlightModeReading | None:
    """The mode switch reading with the mode the vehicle reports and a band end it sits near."""
    if reading is None:
        return None
    return replace(
        reading,
        reported_mode_number=custom_mode,
        reported_mode_name=mode_name(family, custom_mode),
        near_band_end=near_band_end(reading.pwm),
    )

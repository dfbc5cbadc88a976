# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The delivered channels beyond CH5: what each reads, the range it covered and what it does.

A channel's role is, in this order, the ``RCMAP_*`` stick it carries, the vehicle's flight-mode
channel (``FLTMODE_CH`` or ``MODE_CH``, `rc_receiver.firmware` knows which), or its ``RCn_OPTION``
by ArduPilot's name for this vehicle with the switch position ArduPilot reads from its PWM
(`rc_receiver.aux_functions`).  A stick or mode channel that also has an option keeps the option
beside its role: ArduPilot runs both, which is what a person must see.  Channels 17 and 18 have
no parameters in ArduPilot, so they carry no option.  Pure: no message, socket or clock.
"""

from __future__ import annotations

from collections.abc import Mapping

from .aux_functions import function_name, is_switch, switch_position
from .firmware import MAX_DELIVERED_CHANNEL, MAX_RC_CHANNEL, VehicleFamily, option_parameter
from .snapshot import CHANNEL_COUNT, FIRST_CHANNEL, ChannelEvidence, ExtraChannel


def _option(value: float | None) -> int | None:
    """A set ``RCn_OPTION`` as a number; None for 0 (nothing), unknown or not a whole number."""
    if value is None or value != int(value) or int(value) == 0:
        return None
    return int(value)


def extra_channel(
    number: int,
    family: VehicleFamily,
    values: Mapping[str, float],
    role: str | None,
    evidence: ChannelEvidence | None,
    *,
    live: bool,
) -> ExtraChannel:
    """Channel ``number`` as the table shows it (``live``: its reading is current)."""
    option = _option(values.get(option_parameter(number))) if number <= MAX_RC_CHANNEL else None
    reversed_value = values.get(f"RC{number}_REVERSED") if number <= MAX_RC_CHANNEL else None
    reversed_channel = None if reversed_value is None else reversed_value != 0
    pwm = evidence.last_us if evidence is not None and live else None
    position = (
        switch_position(pwm, reversed_channel=bool(reversed_channel), rc_options=values.get("RC_OPTIONS"))
        if is_switch(option)
        else None
    )
    return ExtraChannel(
        number=number,
        pwm=pwm,
        min_us=None if evidence is None else evidence.min_us,
        max_us=None if evidence is None else evidence.max_us,
        role=role,
        option=option,
        function=function_name(family, option),
        position=position,
        reversed_channel=reversed_channel,
    )


def extra_channels(
    family: VehicleFamily,
    values: Mapping[str, float],
    roles: Mapping[int, str],
    channels: tuple[ChannelEvidence, ...],
    chancount: int | None,
    *,
    live: bool,
) -> tuple[ExtraChannel, ...]:
    """Every delivered channel after CH5, up to ``chancount`` (at most 18); none before it is known."""
    if chancount is None:
        return ()
    by_number = {channel.number: channel for channel in channels}
    first = FIRST_CHANNEL + CHANNEL_COUNT
    last = min(chancount, MAX_DELIVERED_CHANNEL)
    return tuple(
        extra_channel(number, family, values, roles.get(number), by_number.get(number), live=live)
        for number in range(first, last + 1)
    )

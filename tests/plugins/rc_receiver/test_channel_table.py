# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The delivered channels beyond CH5, driven directly: which are listed, and each one's role,
ArduPilot's name of its option for the vehicle and the switch position read from its PWM."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.channel_table import extra_channels
from amc_rc_receiver.plugins.rc_receiver.evidence import channel_roles
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.snapshot import ChannelEvidence, ExtraChannel, SwitchPosition

pytestmark = pytest.mark.pure


def evidence(pwm: dict[int, int]) -> tuple[ChannelEvidence, ...]:
    return tuple(
        ChannelEvidence(number, last_us=value, min_us=value, max_us=value) for number, value in pwm.items()
    )


def table(
    family: VehicleFamily,
    values: dict[str, float],
    pwm: dict[int, int],
    chancount: int | None,
    live: bool = True,
) -> tuple[ExtraChannel, ...]:
    return extra_channels(family, values, channel_roles(family, values), evidence(pwm), chancount, live=live)


@given(chancount=st.one_of(st.none(), st.integers(min_value=-3, max_value=40)))
def test_the_channels_listed_are_those_delivered_after_ch5_up_to_18(chancount: int | None) -> None:
    """GIVEN any chancount (or none yet) WHEN the table is made THEN it lists CH6 up to the delivered
    count, never beyond RC_CHANNELS' 18, and nothing before the count is known."""
    numbers = [channel.number for channel in table(VehicleFamily.COPTER, {}, {}, chancount)]
    expected = [] if chancount is None else list(range(6, min(chancount, 18) + 1))
    assert numbers == expected


@pytest.mark.parametrize(
    ("family", "values", "number", "role"),
    [
        (VehicleFamily.PLANE, {}, 8, "flight_mode"),  # Plane's FLTMODE_CH defaults to 8
        (VehicleFamily.ROVER, {"MODE_CH": 7}, 7, "flight_mode"),
        (VehicleFamily.COPTER, {"FLTMODE_CH": 6}, 6, "flight_mode"),
        (VehicleFamily.COPTER, {"RCMAP_YAW": 9}, 9, "yaw"),
        (VehicleFamily.ROVER, {"RCMAP_ROLL": 6}, 6, "steering"),
        (VehicleFamily.COPTER, {"RCMAP_YAW": 7, "FLTMODE_CH": 7}, 7, "yaw"),  # a stick before the mode
    ],
)
def test_a_channel_s_role_is_its_stick_then_the_vehicle_s_mode_channel(
    family: VehicleFamily, values: dict[str, float], number: int, role: str
) -> None:
    """GIVEN a vehicle's RCMAP_* and mode-channel parameter (FLTMODE_CH or MODE_CH) WHEN the table is
    made THEN the channel they name has that role, a stick winning over the mode channel."""
    channels = {channel.number: channel for channel in table(family, values, {}, 16)}
    assert channels[number].role == role


@pytest.mark.parametrize(
    ("pwm", "reversed_value", "options", "position"),
    [
        (1000, 0, 0, SwitchPosition.LOW),
        (1500, 0, 0, SwitchPosition.MIDDLE),
        (2000, 0, 0, SwitchPosition.HIGH),
        (1000, 1, 0, SwitchPosition.LOW),  # RCn_REVERSED alone does not turn a switch round
        (1000, 1, 128, SwitchPosition.HIGH),  # RC_OPTIONS bit 7 lets it
        (2300, 0, 0, None),
    ],
)
def test_an_option_channel_shows_arduPilots_name_and_the_position_it_reads(
    pwm: int, reversed_value: int, options: int, position: SwitchPosition | None
) -> None:
    """GIVEN RC9_OPTION 32 on a Copter, RC9_REVERSED and RC_OPTIONS WHEN CH9 reads ``pwm`` THEN the
    table names Motor Interlock and the switch position ArduPilot reads."""
    values = {"RC9_OPTION": 32, "RC9_REVERSED": reversed_value, "RC_OPTIONS": options}
    (channel,) = [c for c in table(VehicleFamily.COPTER, values, {9: pwm}, 9) if c.number == 9]
    assert (channel.option, channel.function, channel.position) == (32, "Motor Interlock", position)
    assert channel.reversed_channel is bool(reversed_value)


def test_an_option_another_vehicle_has_is_unnamed_and_channels_17_and_18_have_no_option() -> None:
    """GIVEN RC9_OPTION 64 (Plane's Reverse Throttle) on a Copter and 18 channels delivered WHEN the table
    is made THEN CH9 keeps the number without a name, and CH17/CH18 (no parameters in ArduPilot) carry
    no option or RCn_REVERSED."""
    channels = {
        c.number: c for c in table(VehicleFamily.COPTER, {"RC9_OPTION": 64}, {17: 1500, 18: 1900}, 18)
    }
    assert (channels[9].option, channels[9].function) == (64, None)
    assert (channels[17].option, channels[17].reversed_channel, channels[17].pwm) == (None, None, 1500)
    assert channels[18].position is None


def test_a_stale_reading_shows_no_pwm_and_no_position_but_keeps_its_range() -> None:
    """GIVEN CH7 Motor Interlock seen at 2000 µs WHEN the readings are no longer live THEN the table shows
    no PWM and no position for it, and still the range it covered."""
    (channel,) = [
        c for c in table(VehicleFamily.COPTER, {"RC7_OPTION": 32}, {7: 2000}, 7, live=False) if c.number == 7
    ]
    assert (channel.pwm, channel.position, channel.min_us, channel.max_us) == (None, None, 2000, 2000)

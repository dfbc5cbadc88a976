# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduPilot's auxiliary functions by name per vehicle, and the switch position it reads from a PWM."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.aux_functions import (
    RC_OPTION_ALLOW_SWITCH_REVERSE,
    function_name,
    is_switch,
    switch_position,
    switch_reversal_allowed,
)
from amc_rc_receiver.plugins.rc_receiver.firmware import AUX_FUNCTION_MAX, VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.snapshot import SwitchPosition

pytestmark = pytest.mark.pure

LOW, MIDDLE, HIGH = SwitchPosition.LOW, SwitchPosition.MIDDLE, SwitchPosition.HIGH


@pytest.mark.parametrize(
    ("pwm", "position"),
    [
        (None, None),
        (0, None),
        (800, None),
        (801, LOW),
        (1000, LOW),
        (1199, LOW),
        (1200, MIDDLE),
        (1500, MIDDLE),
        (1800, MIDDLE),
        (1801, HIGH),
        (2000, HIGH),
        (2199, HIGH),
        (2200, None),
        (65535, None),
    ],
)
def test_the_switch_position_follows_read_3pos_switch_thresholds(pwm: int | None, position: object) -> None:
    """GIVEN a PWM on a normal channel WHEN read as ArduPilot's three-position switch THEN below
    1200 µs is low, above 1800 µs high, 1200-1800 µs inclusive middle, and at or beyond 800/2200 µs
    there is no reading."""
    assert switch_position(pwm, reversed_channel=False, rc_options=0) is position


@given(
    pwm=st.integers(min_value=801, max_value=2199),
    options=st.integers(min_value=0, max_value=(1 << 16) - 1),
    reversed_channel=st.booleans(),
)
def test_a_reversed_channel_swaps_low_and_high_only_when_rc_options_allows_it(
    pwm: int, options: int, reversed_channel: bool
) -> None:
    """GIVEN any valid PWM, RC_OPTIONS and RCn_REVERSED WHEN the position is read THEN it is the plain
    reading, except that low and high trade places when the channel is reversed and RC_OPTIONS has
    bit 7 (ALLOW_SWITCH_REV); the middle never moves."""
    plain = switch_position(pwm, reversed_channel=False, rc_options=0)
    read = switch_position(pwm, reversed_channel=reversed_channel, rc_options=options)
    swapped = reversed_channel and bool(options & RC_OPTION_ALLOW_SWITCH_REVERSE)
    expected = {LOW: HIGH, HIGH: LOW, MIDDLE: MIDDLE}[plain] if swapped and plain else plain
    assert read is expected


@pytest.mark.parametrize(
    ("options", "allowed"),
    [(None, False), (0, False), (128, True), (129.0, True), (64, False), (-128, False), (128.5, False)],
)
def test_switch_reversal_needs_bit_7_of_rc_options(options: float | None, allowed: bool) -> None:
    """GIVEN an RC_OPTIONS value (or none) WHEN asked whether reversed switches are honoured THEN only a
    whole, non-negative value with bit 7 set says yes."""
    assert switch_reversal_allowed(options) is allowed


@pytest.mark.parametrize(
    ("family", "option", "name"),
    [
        (VehicleFamily.COPTER, 32, "Motor Interlock"),
        (VehicleFamily.HELI, 32, "Motor Interlock"),
        (VehicleFamily.PLANE, 32, None),
        (VehicleFamily.ROVER, 32, None),
        (VehicleFamily.PLANE, 64, "Reverse Throttle"),
        (VehicleFamily.COPTER, 64, None),
        (VehicleFamily.ROVER, 53, "Steering"),
        (VehicleFamily.COPTER, 153, "ArmDisarm"),
        (VehicleFamily.PLANE, 153, "ArmDisarm"),
        (VehicleFamily.ROVER, 153, "ArmDisarm"),
        (VehicleFamily.COPTER, 300, "Scripting1"),
        (VehicleFamily.ROVER, 315, "Scripting16"),
        (VehicleFamily.PLANE, 208, "Flap"),
        (VehicleFamily.COPTER, 999, None),
        (VehicleFamily.COPTER, 12.5, None),
        (VehicleFamily.COPTER, None, None),
        (VehicleFamily.UNKNOWN, 32, "Motor Interlock"),
    ],
)
def test_an_option_is_named_only_for_the_vehicles_that_take_it(
    family: VehicleFamily, option: float | None, name: str | None
) -> None:
    """GIVEN a vehicle and an RCn_OPTION value WHEN named THEN it is ArduPilot's name where that
    vehicle takes the value, none otherwise (a vehicle not known yet takes any vehicle's name)."""
    assert function_name(family, option) == name


@given(option=st.integers(min_value=-5, max_value=AUX_FUNCTION_MAX + 50))
def test_every_named_option_is_below_arduPilots_aux_function_max(option: int) -> None:
    """GIVEN any RCn_OPTION value WHEN named for any vehicle THEN only values from 0 up to ArduPilot's
    AUX_FUNCTION_MAX have a name."""
    named = any(function_name(family, option) is not None for family in VehicleFamily)
    if named:
        assert 0 <= option < AUX_FUNCTION_MAX


@pytest.mark.parametrize(
    ("option", "switch"),
    [(None, False), (0, False), (32, True), (153, True), (208, False), (219, False), (300, True)],
)
def test_levers_and_knobs_are_no_switches(option: int | None, switch: bool) -> None:
    """GIVEN an RCn_OPTION WHEN asked whether ArduPilot reads a switch position from it THEN nothing
    (0) and the continuous inputs from 200 (flap, mount angles, tuning knob) are no switches."""
    assert is_switch(option) is switch

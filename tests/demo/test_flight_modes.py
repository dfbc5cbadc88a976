# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo vehicle's mode switch (`demo.flight_modes`): ArduPilot's slots, debounce and refusals."""

from __future__ import annotations

import pytest

from amc_rc_receiver.demo.flight_modes import COPTER_MODES, ROVER_MODES, FlightModeSwitch, six_position_slot

pytestmark = pytest.mark.pure


def channels(mode_pwm: int) -> tuple[int, ...]:
    return (1500, 1500, 1000, 1500, mode_pwm, 1500, 1500, 1500)


def test_the_slot_is_taken_after_200_ms_and_a_refused_mode_keeps_the_old_one_with_arduPilots_text() -> None:
    """GIVEN a demo Copter with FLTMODE3 LOITER and FLTMODE6 SMART_RTL
    WHEN the switch goes to slot 3 (held 0.1 s, then 0.25 s), then to slot 6
    THEN LOITER only after the debounce, and slot 6 is refused with Copter's text, LOITER kept."""
    values = {"FLTMODE_CH": 5.0, "FLTMODE3": 5.0, "FLTMODE6": 21.0}
    switch = FlightModeSwitch(COPTER_MODES, values.get)
    assert switch.on_input(channels(1425), 0.0) is None
    assert switch.on_input(channels(1425), 0.1) is None
    assert switch.mode == 0
    assert switch.on_input(channels(1425), 0.25) is None
    assert switch.mode == 5
    switch.on_input(channels(1815), 1.0)
    assert switch.on_input(channels(1815), 1.3) == "Mode change to SMARTRTL failed: init failed"
    assert switch.mode == 5


def test_a_rover_refuses_auto_without_a_mission_as_arduRover_says_it() -> None:
    """GIVEN a demo Rover with MODE_CH 5 and MODE2 AUTO WHEN the switch selects slot 2 THEN refused."""
    values = {"MODE_CH": 5.0, "MODE2": 10.0}
    switch = FlightModeSwitch(ROVER_MODES, values.get)
    switch.on_input(channels(1295), 0.0)
    assert switch.on_input(channels(1295), 0.3) == "Flight mode change failed"


@pytest.mark.parametrize(
    ("pwm", "slot"), [(900, None), (901, 1), (1230, 1), (1231, 2), (1749, 5), (1750, 6), (2200, None)]
)
def test_the_six_slots_follow_arduPilots_bands(pwm: int, slot: int | None) -> None:
    """GIVEN a PWM WHEN read as a six-position switch THEN ArduPilot's slot, none outside 900-2200."""
    assert six_position_slot(pwm) == slot

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo transmitter's pilot script: one stick after the other, on whose clock."""

from __future__ import annotations

import pytest

from amc_rc_receiver.demo.transmitter import (
    PWM_MAX,
    PWM_MIN,
    SCRIPT_PUSH_S,
    SCRIPT_REST_S,
    STICK_AXES,
    Transmitter,
)

pytestmark = pytest.mark.pure

THROTTLE = STICK_AXES.index("throttle")  # CH3 in the default AETR order
ROLL = STICK_AXES.index("roll")


def test_a_script_on_the_simulation_clock_pushes_each_stick_after_a_rest() -> None:
    """GIVEN a transmitter playing the throttle-then-roll script on the simulation's time
    WHEN its sticks are read during the first rest, the throttle push and the roll push
    THEN everything rests (throttle down) first, then only the throttle is up, then only roll is right."""
    transmitter = Transmitter()
    transmitter.play_script(("throttle", "roll"))
    turn = SCRIPT_REST_S + SCRIPT_PUSH_S

    resting = transmitter.sticks_at(SCRIPT_REST_S / 2)
    throttle_up = transmitter.sticks_at(SCRIPT_REST_S + SCRIPT_PUSH_S / 2)
    roll_right = transmitter.sticks_at(turn + SCRIPT_REST_S + SCRIPT_PUSH_S / 2)

    assert (resting[THROTTLE], resting[ROLL]) == (PWM_MIN, 1500)
    assert (throttle_up[THROTTLE], throttle_up[ROLL]) == (PWM_MAX, 1500)
    assert (roll_right[ROLL], roll_right[THROTTLE]) == (PWM_MAX, PWM_MIN)


def test_a_script_given_a_clock_keeps_it_however_far_the_simulation_has_got() -> None:
    """GIVEN a transmitter playing the throttle script on a person's clock that reads mid-push
    WHEN its sticks are read at simulation times that fall in a rest (a simulation that lags
    behind on a busy machine)
    THEN the throttle is up at every one of them: the person's hand follows the person's clock,
    and once that clock reaches the rest the throttle is down whatever the simulation time."""
    person = [SCRIPT_REST_S + SCRIPT_PUSH_S / 2]
    transmitter = Transmitter()
    transmitter.play_script(("throttle",), clock=lambda: person[0])

    during_push = [transmitter.sticks_at(t)[THROTTLE] for t in (0.0, SCRIPT_REST_S / 2, 100.0)]
    person[0] = SCRIPT_REST_S / 2
    during_rest = [transmitter.sticks_at(t)[THROTTLE] for t in (0.0, SCRIPT_REST_S + SCRIPT_PUSH_S / 2)]

    assert during_push == [PWM_MAX] * 3
    assert during_rest == [PWM_MIN] * 2

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The channels beyond CH5 in the terminal view: a line each on the live screen and in the summary,
and an event when ArduPilot reads an auxiliary switch in a new position."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ExtraChannel,
    GuidedTest,
    RCReceiverState,
    SwitchPosition,
)
from amc_rc_receiver.standalone.terminal.prompter import (
    describe_guided_events,
    format_guided_lines,
    format_summary,
)

pytestmark = pytest.mark.pure

INTERLOCK_LOW = ExtraChannel(
    7, pwm=1000, min_us=1000, max_us=1000, option=32, function="Motor Interlock", position=SwitchPosition.LOW
)
CHANNELS = (ExtraChannel(6, pwm=1500, min_us=1490, max_us=1510, role="yaw"), INTERLOCK_LOW, ExtraChannel(8))


def state(channels: tuple[ExtraChannel, ...]) -> RCReceiverState:
    return RCReceiverState(guided=replace(GuidedTest(), extra_channels=channels))


def test_each_channel_beyond_ch5_has_a_line_on_the_screen_and_in_the_summary() -> None:
    """GIVEN CH6 the yaw stick, CH7 Motor Interlock read low and CH8 with nothing known WHEN the screen
    and the summary are made THEN each has one line per channel in the same words."""
    expected = [
        "CH6: 1500 µs, span 20 µs, Yaw",
        "CH7: 1000 µs, span 0 µs, Motor Interlock, switch low",
        "CH8: no reading, no range yet, no function",
    ]
    screen = format_guided_lines(state(CHANNELS))
    summary = format_summary(state(CHANNELS))
    assert [line for line in screen if line.startswith("CH") and ":" in line[:5]] == expected
    assert [line for line in summary if line.startswith("CH") and ":" in line[:5]] == expected


def test_a_switch_read_in_a_new_position_is_an_event_and_a_first_reading_is_not() -> None:
    """GIVEN Motor Interlock read low WHEN it is first seen, or first known as a switch, THEN no switch
    event; WHEN ArduPilot then
    reads it high THEN the log says so once; WHEN nothing changes THEN no event."""
    first = state(CHANNELS)
    assert not [event for event in describe_guided_events(state(()), first) if "switch" in event]
    # Read before its RCn_OPTION was known: no position yet, so its first one is no change either.
    unread = state(
        (CHANNELS[0], replace(INTERLOCK_LOW, option=None, function=None, position=None), CHANNELS[2])
    )
    assert not [event for event in describe_guided_events(unread, first) if "switch" in event]
    high = replace(INTERLOCK_LOW, pwm=1900, max_us=1900, position=SwitchPosition.HIGH)
    moved = state((CHANNELS[0], high, CHANNELS[2]))
    assert [event for event in describe_guided_events(first, moved) if "switch" in event] == [
        "CH7 Motor Interlock: switch high"
    ]
    assert not [event for event in describe_guided_events(moved, moved) if "switch" in event]

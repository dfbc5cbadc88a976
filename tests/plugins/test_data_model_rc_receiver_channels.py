# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The channels beyond CH5 in the data model: a scripted flight controller sends real pymavlink
RC_CHANNELS with 8 to 18 channels over loopback UDP and answers the parameter reads; the snapshot
carries each delivered channel with its reading, its range and its role.  The role and position
rules themselves are driven directly in tests/plugins/rc_receiver/test_channel_table.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState, SwitchPosition
from tests.plugins.data_model_rc_receiver_harness import REST, ModelHarness, with_parameters

pytestmark = pytest.mark.loopback


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def frame(harness: ModelHarness, pwm: list[int], chancount: int) -> RCReceiverState:
    harness.vehicle.send_rc_channels(pwm, chancount=chancount, rssi=180)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    harness.poll_after_sync()
    # The channels now delivered bring their RCn_REVERSED reads: wait for the answers.
    return harness.poll_until(lambda state: state.guided.parameters_complete, "the reads of the channels")


@pytest.mark.parametrize("chancount", [8, 12, 16, 17, 18])
def test_every_delivered_channel_beyond_ch5_is_in_the_snapshot_with_its_reading(
    harness: ModelHarness, chancount: int
) -> None:
    """GIVEN a Copter whose receiver delivers ``chancount`` channels WHEN RC_CHANNELS arrive THEN the
    snapshot holds CH6 up to CH``chancount`` in order, each with the PWM just sent, and none beyond."""
    with_parameters(harness)
    pwm = [*REST, *(1000 + 50 * number for number in range(6, 19))]
    state = frame(harness, pwm, chancount)
    extra = state.guided.extra_channels
    assert [channel.number for channel in extra] == list(range(6, chancount + 1))
    assert [channel.pwm for channel in extra] == pwm[5:chancount]


def test_a_channel_s_range_role_function_and_switch_position_follow_the_vehicle(
    harness: ModelHarness,
) -> None:
    """GIVEN a Copter with RC7_OPTION 32 (Motor Interlock), RC8_OPTION 153 reversed under RC_OPTIONS
    bit 7, RC9_OPTION 64 (a Plane's option), RC10 with no option and RCMAP_YAW on CH6 WHEN CH7 moves from
    1000 to 2000 µs and CH8 reads 1000 µs THEN CH6 is the yaw stick, CH7 Motor Interlock at high with
    a 1000 µs range, CH8 ArmDisarm read high (reversed), CH9 an option without a Copter name, CH10 none."""
    with_parameters(
        harness,
        RCMAP_YAW=6,
        RC7_OPTION=32,
        RC8_OPTION=153,
        RC9_OPTION=64,
        RC_OPTIONS=32 | 128,
        RC8_REVERSED=1,
    )
    rest = [*REST, 1500, 1000, 1000, 1500, 1500]
    frame(harness, rest, 10)
    state = frame(harness, [*rest[:6], 2000, *rest[7:]], 10)
    ch6, ch7, ch8, ch9, ch10 = state.guided.extra_channels
    assert (ch6.role, ch6.option) == ("yaw", None)
    assert (ch7.function, ch7.position, ch7.min_us, ch7.max_us, ch7.span_us) == (
        "Motor Interlock",
        SwitchPosition.HIGH,
        1000,
        2000,
        1000,
    )
    assert (ch8.function, ch8.position, ch8.reversed_channel) == ("ArmDisarm", SwitchPosition.HIGH, True)
    assert (ch9.option, ch9.function) == (64, None)
    assert (ch10.role, ch10.option, ch10.function, ch10.position) == (None, None, None, None)

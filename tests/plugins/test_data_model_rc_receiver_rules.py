# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pure helpers behind the RC receiver data model: interpretation rules, rate meter, history.

No sockets here: these are the sans-IO pieces, checked exhaustively or with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.readings import (
    RC_RECEIVER_SENSOR_BIT,
    channel_readings,
    failsafe_status,
    from_selected,
    is_selected_source,
    receiver_status,
    rssi_reading,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus
from amc_rc_receiver.plugins.rc_receiver.timekeeping import FailsafeHistory, RateMeter

pytestmark = pytest.mark.pure


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_only_the_receiver_bit_of_each_mask_matters(present: int, enabled: int, health: int) -> None:
    """
    GIVEN any three SYS_STATUS sensor bitmasks
    WHEN the receiver status is derived
    THEN it equals the status derived from the RC_RECEIVER bits alone (other sensors never count).
    """
    only_rc = receiver_status(
        present & RC_RECEIVER_SENSOR_BIT, enabled & RC_RECEIVER_SENSOR_BIT, health & RC_RECEIVER_SENSOR_BIT
    )
    assert receiver_status(present, enabled, health) == only_rc


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_the_failsafe_alone_is_the_one_of_the_whole_receiver_status(
    present: int, enabled: int, health: int
) -> None:
    """
    GIVEN any three SYS_STATUS sensor bitmasks
    WHEN only the RC failsafe is derived (as the guided test does for every SYS_STATUS)
    THEN it is the failsafe of the whole receiver status.
    """
    assert failsafe_status(present, enabled, health) is receiver_status(present, enabled, health).failsafe


def test_a_short_pwm_list_leaves_the_missing_channels_unavailable() -> None:
    """
    GIVEN only two raw PWM values but a chancount of 5
    WHEN the channels are derived
    THEN CH3..CH5 are unavailable instead of raising.
    """
    assert [c.pwm for c in channel_readings(5, [1100, 1200])] == [1100, 1200, None, None, None]


@pytest.mark.parametrize(("raw", "expected"), [(-1, None), (0, 0), (254, 254), (255, None), (300, None)])
def test_rssi_outside_0_to_254_is_unknown(raw: int, expected: int | None) -> None:
    """
    GIVEN a raw RSSI value
    WHEN it is interpreted
    THEN 0..254 is kept and anything else is unknown.
    """
    assert rssi_reading(raw) == expected


def test_without_a_known_target_system_nothing_is_accepted() -> None:
    """
    GIVEN a flight controller whose system id is not known yet
    WHEN a message arrives from system 1
    THEN it is not taken as the selected vehicle's.
    """
    assert not is_selected_source(1, 1, None, None)
    assert is_selected_source(1, 7, 1, None)


def test_the_rate_meter_counts_only_the_last_window() -> None:
    """
    GIVEN 5 arrivals per second for 4 s of a 2 s window
    WHEN the rate is read at the end, and after 2 s of silence
    THEN it is 5 Hz, then 0 Hz.
    """
    meter = RateMeter(window_s=2.0)
    for tick in range(20):
        meter.add(10.0 + tick * 0.2)
    assert meter.rate_hz(10.0 + 19 * 0.2) == pytest.approx(5.0, abs=0.5)
    assert meter.rate_hz(10.0 + 19 * 0.2 + 2.0) == 0.0


@given(st.lists(st.tuples(st.floats(0.0, 0.5), st.integers(0, 1000)), max_size=400))
def test_the_rate_never_exceeds_the_arrivals_nor_goes_negative(arrivals: list[tuple[float, int]]) -> None:
    """
    GIVEN any sequence of arrival batches at non-decreasing times
    WHEN they are recorded
    THEN the rate never exceeds the arrivals divided by the window and is never negative.
    """
    meter = RateMeter(window_s=2.0)
    now = 0.0
    total = 0
    for step, count in arrivals:
        now += step
        meter.add(now, count)
        total += count
    assert 0.0 <= meter.rate_hz(now) <= total / 2.0


def test_the_rate_meter_rejects_an_empty_window() -> None:
    """
    GIVEN a window of 0 s
    WHEN a meter is created
    THEN a clear ValueError says the window must be positive.
    """
    with pytest.raises(ValueError, match="positive"):
        RateMeter(window_s=0.0)


def test_history_ignores_unknown_status_and_latches_first_times() -> None:
    """
    GIVEN a fresh test
    WHEN unknown, active, active again, not active and not active again are recorded
    THEN the first failsafe and the first recovery times are kept; unknown proves nothing.
    """
    history = FailsafeHistory(started_at=0.0)
    history.record(FailsafeStatus.UNKNOWN, 1.0)
    assert not history.failsafe_observed
    history.record(FailsafeStatus.ACTIVE, 2.0)
    history.record(FailsafeStatus.ACTIVE, 3.0)
    history.record(FailsafeStatus.NOT_ACTIVE, 4.0)
    history.record(FailsafeStatus.NOT_ACTIVE, 5.0)
    assert (history.failsafe_observed_at, history.recovery_observed_at) == (2.0, 4.0)

    history.restart(6.0)
    assert (history.test_started_at, history.failsafe_observed, history.recovery_observed) == (
        6.0,
        False,
        False,
    )


@given(
    st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255)), max_size=60),
    st.one_of(st.none(), st.integers(1, 255)),
    st.one_of(st.none(), st.integers(0, 255)),
)
def test_a_polls_batch_keeps_exactly_the_messages_the_source_rule_accepts(
    sources: list[tuple[int, int]], target_system: int | None, target_component: int | None
) -> None:
    """
    GIVEN real RC_CHANNELS messages from any mix of senders, and any selected vehicle
    WHEN a poll's batch is filtered by source
    THEN it keeps, in their order, exactly those the one source rule accepts.
    """
    encoder = mavlink2.MAVLink(None)
    messages = []
    for system, component in sources:
        encoder.srcSystem, encoder.srcComponent = system, component
        message = mavlink2.MAVLink_rc_channels_message(1, 8, *([1500] * 18), 100)
        parser = mavlink2.MAVLink(None)
        messages.append(parser.decode(bytearray(message.pack(encoder))))

    kept = from_selected(messages, target_system, target_component)

    expected = [
        msg
        for msg in messages
        if is_selected_source(msg.get_srcSystem(), msg.get_srcComponent(), target_system, target_component)
    ]
    assert kept == expected


@given(st.lists(st.tuples(st.floats(0.0, 0.3), st.integers(0, 5)), max_size=200))
def test_the_rate_meter_counts_what_arrived_inside_its_window(arrivals: list[tuple[float, int]]) -> None:
    """
    GIVEN arrivals at any gaps and counts
    WHEN the rate is read after each
    THEN it is the count of arrivals whose bucket starts inside the window, over its length.
    """
    meter = RateMeter(window_s=2.0)
    now = 100.0
    kept: list[tuple[float, int]] = []
    for gap, count in arrivals:
        now += gap
        meter.add(now, count)
        if count > 0:
            if kept and now - kept[-1][0] < meter.window_s / 40:
                kept[-1] = (kept[-1][0], kept[-1][1] + count)
            else:
                kept.append((now, count))
        kept = [(start, n) for start, n in kept if start > now - meter.window_s]
        assert meter.rate_hz(now) == pytest.approx(sum(n for _start, n in kept) / meter.window_s)

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""When things happened, driven directly on the caller's clock: the vehicle's clock mapped onto
ours (`VehicleClock`), message rates (`RateMeter`) and the failsafe transitions (`FailsafeHistory`).

No sockets here: these are the sans-IO pieces, checked exhaustively or with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus
from amc_rc_receiver.plugins.rc_receiver.timekeeping import (
    MAX_TRANSITIONS,
    REBOOT_JUMP_S,
    FailsafeHistory,
    RateMeter,
    VehicleClock,
)

pytestmark = pytest.mark.pure


# ---- VehicleClock -------------------------------------------------------------------------------


def test_a_message_that_waited_is_dated_when_it_was_sent() -> None:
    """
    GIVEN a vehicle whose first message arrived 0.1 s after it was sent
    WHEN a later message sent 1 s after it is read 0.5 s late (it waited behind a backlog)
    THEN it is dated 1 s after the first, not when it was read
    """
    clock = VehicleClock()
    assert clock.latest_send_time() is None
    first = clock.observe(5_000, 100.1)
    assert clock.observe(6_000, 101.6) == pytest.approx(first + 1.0)
    assert clock.latest_send_time() == pytest.approx(first + 1.0)


def test_the_smallest_delay_seen_sets_the_mapping() -> None:
    """
    GIVEN a first message read 0.5 s after it was sent and a second read only 0.1 s after
    WHEN the second is taken
    THEN the mapping moves to the smaller delay
    """
    clock = VehicleClock()
    clock.observe(1_000, 10.5)
    assert clock.observe(2_000, 11.1) == pytest.approx(11.1)


def test_a_vehicle_clock_that_goes_back_is_a_reboot_and_starts_afresh() -> None:
    """
    GIVEN a vehicle clock at 60 s
    WHEN the next message says 1 s (more than a second back), and when it goes back only a little
    THEN a reboot maps afresh from the new message; a small step back keeps the mapping
    """
    clock = VehicleClock()
    clock.observe(60_000, 200.0)
    assert clock.observe(1_000, 300.0) == pytest.approx(300.0)
    small_step = int((1.0 - REBOOT_JUMP_S / 2) * 1000)
    assert clock.observe(small_step, 400.0) == pytest.approx(300.0 - 0.5)


def test_a_reset_clock_knows_no_send_time() -> None:
    """
    GIVEN a clock that mapped a message
    WHEN it is reset
    THEN it knows no send time until the next message
    """
    clock = VehicleClock()
    clock.observe(1_000, 10.0)
    clock.reset()
    assert clock.latest_send_time() is None


@given(st.lists(st.tuples(st.integers(0, 10_000), st.floats(0.0, 5.0)), min_size=1, max_size=50))
def test_a_message_is_never_dated_after_it_was_read(steps: list[tuple[int, float]]) -> None:
    """
    GIVEN any messages with a growing vehicle clock, each read any delay after it was sent
    WHEN they are dated
    THEN none is dated after the moment it was read (a message arrives only after it was sent)
    """
    clock = VehicleClock()
    boot_ms = 0
    now = 1000.0
    for advance_ms, delay in steps:
        boot_ms += advance_ms
        now = max(now, 1000.0 + boot_ms / 1000.0 + delay)
        assert clock.observe(boot_ms, now) <= now + 1e-9


# ---- RateMeter and FailsafeHistory --------------------------------------------------------------


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


def test_a_reset_rate_meter_reads_zero() -> None:
    """
    GIVEN a meter with arrivals
    WHEN it is reset
    THEN it reads 0 Hz at once
    """
    meter = RateMeter(window_s=2.0)
    meter.add(1.0, 10)
    meter.reset()
    assert meter.rate_hz(1.0) == 0.0


def test_a_recovery_speaks_of_the_latest_failsafe_and_the_first_failsafe_stays() -> None:
    """
    GIVEN a failsafe at 2 s cleared at 3 s, and another at 4 s
    WHEN the history is read
    THEN the first failsafe stays at 2 s, recovery is no longer observed, and all three changes are kept
    """
    history = FailsafeHistory(started_at=0.0)
    history.record(FailsafeStatus.NOT_ACTIVE, 1.0)  # before any failsafe: no transition
    history.record(FailsafeStatus.ACTIVE, 2.0)
    history.record(FailsafeStatus.NOT_ACTIVE, 3.0)
    history.record(FailsafeStatus.ACTIVE, 4.0)
    assert (history.failsafe_observed_at, history.recovery_observed) == (2.0, False)
    assert history.transitions == (
        (FailsafeStatus.ACTIVE, 2.0),
        (FailsafeStatus.NOT_ACTIVE, 3.0),
        (FailsafeStatus.ACTIVE, 4.0),
    )


def test_the_transitions_kept_are_bounded() -> None:
    """
    GIVEN a receiver that flaps between failsafe and not many times
    WHEN the history is read
    THEN only the newest transitions are kept, and the first failsafe is still the first
    """
    history = FailsafeHistory(started_at=0.0)
    for tick in range(3 * MAX_TRANSITIONS):
        history.record(FailsafeStatus.ACTIVE if tick % 2 == 0 else FailsafeStatus.NOT_ACTIVE, float(tick))
    assert len(history.transitions) == MAX_TRANSITIONS
    assert history.failsafe_observed_at == 0.0

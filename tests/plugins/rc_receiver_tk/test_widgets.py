# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lifecycle ``after()`` timer on a real Tk root: one pending id at most, none once stopped.

Ticks are awaited by pumping the event loop with a generous deadline; Tk's own list of pending
``after()`` ids shows what is scheduled.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

import pytest

from amc_rc_receiver.plugins.tk_kit.ticks import TickTimer
from tests.support.tk import pending_after_ids, pump_until

pytestmark = pytest.mark.tk


class Counter:
    """A tick callback that counts calls and may run an action on a given call."""

    def __init__(self) -> None:
        self.calls = 0
        self.on_call: dict[int, Callable[[], object]] = {}

    def __call__(self) -> None:
        self.calls += 1
        action = self.on_call.get(self.calls)
        if action is not None:
            action()


@pytest.fixture
def counter() -> Counter:
    return Counter()


@pytest.fixture
def timer(root: tk.Tk, counter: Counter) -> TickTimer:
    return TickTimer(root, 5, counter)


def test_a_started_timer_ticks_again_and_again(root: tk.Tk, timer: TickTimer, counter: Counter) -> None:
    """GIVEN a started timer WHEN the event loop runs THEN the callback is called repeatedly."""
    timer.start()

    assert pump_until(root, lambda: counter.calls >= 3)
    assert timer.running
    assert timer.timer_id in pending_after_ids(root)


def test_starting_twice_keeps_the_one_pending_tick(root: tk.Tk, timer: TickTimer) -> None:
    """GIVEN a started timer WHEN it is started again THEN exactly one after() id is pending, the same one."""
    before = pending_after_ids(root)
    timer.start()
    first = timer.timer_id
    timer.start()

    assert first is not None
    assert timer.timer_id == first
    assert pending_after_ids(root) - before == {first}


def test_stop_cancels_the_pending_tick(root: tk.Tk, timer: TickTimer, counter: Counter) -> None:
    """GIVEN a started timer WHEN it is stopped THEN its after() id is gone and the callback never runs."""
    timer.start()
    pending = timer.timer_id
    timer.stop()

    assert timer.timer_id is None
    assert pending not in pending_after_ids(root)
    assert not timer.active
    root.update()
    assert counter.calls == 0


def test_a_suspended_timer_waits_for_resume(root: tk.Tk, timer: TickTimer, counter: Counter) -> None:
    """GIVEN a started timer WHEN it is suspended, started again and then resumed
    THEN nothing is pending while suspended, it stays active, and ticks continue after resume."""
    before = pending_after_ids(root)
    timer.start()
    timer.suspend()
    timer.start()

    assert pending_after_ids(root) - before == set()
    assert (timer.active, timer.suspended, timer.running) == (True, True, False)
    timer.resume()
    assert pending_after_ids(root) - before == {timer.timer_id}
    assert pump_until(root, lambda: counter.calls >= 1)


def test_resume_without_start_schedules_nothing(timer: TickTimer) -> None:
    """GIVEN a timer that was never started WHEN it is suspended and resumed THEN no tick is scheduled."""
    timer.suspend()
    timer.resume()

    assert timer.timer_id is None
    assert not timer.running


def test_stop_forgets_a_suspension(timer: TickTimer) -> None:
    """GIVEN a suspended timer WHEN it is stopped and started again THEN it ticks without a resume."""
    timer.start()
    timer.suspend()
    timer.stop()
    assert not timer.suspended

    timer.start()
    assert timer.timer_id is not None


def test_a_stop_from_inside_the_callback_prevents_the_next_tick(
    root: tk.Tk, timer: TickTimer, counter: Counter
) -> None:
    """GIVEN a callback that stops its timer on the second call WHEN the timer runs
    THEN no tick is pending afterwards and the callback ran exactly twice."""
    counter.on_call[2] = timer.stop
    timer.start()

    assert pump_until(root, lambda: counter.calls >= 2)
    assert timer.timer_id is None
    assert not timer.running
    root.update()
    assert counter.calls == 2


def test_a_closed_timer_cannot_be_started_again(root: tk.Tk, timer: TickTimer) -> None:
    """GIVEN a started timer WHEN it is closed and then started and resumed
    THEN nothing is pending and it is not active."""
    before = pending_after_ids(root)
    timer.start()
    timer.close()
    timer.start()
    timer.resume()

    assert timer.timer_id is None
    assert not timer.active
    assert pending_after_ids(root) - before == set()


@pytest.mark.parametrize("interval_ms", [0, -20])
def test_a_zero_or_negative_interval_still_ticks_through_the_event_loop(
    root: tk.Tk, counter: Counter, interval_ms: int
) -> None:
    """GIVEN a zero or negative interval WHEN the timer runs
    THEN it ticks again and again through Tk's event loop (every millisecond), never inline."""
    timer = TickTimer(root, interval_ms, counter)
    timer.start()
    assert counter.calls == 0  # scheduled, not called from start()
    try:
        assert pump_until(root, lambda: counter.calls >= 3)
    finally:
        timer.close()

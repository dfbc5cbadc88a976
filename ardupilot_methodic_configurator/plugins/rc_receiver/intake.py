# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The selected vehicle's messages of one poll, taken in the order they came and dated.

A message read from the connection may have waited there, so each is dated by when the vehicle
sent it, not when it was read: an RC_CHANNELS by its ``time_boot_ms`` mapped onto our clock; a
SYS_STATUS, which carries no time, is as recent as the poll only if the poll came soon after one
that emptied the queue and found no backlog itself, and otherwise as old as the RC_CHANNELS the
vehicle sent before it.  Every failsafe change is recorded as evidence at that time, so a short
failsafe between polls is not lost and a late one is not post-dated; the other types go to the
guided test's observers.  Only the newest sample of each stream is kept for display.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from .readings import (
    ChannelsSample,
    StatusSample,
    channels_sample,
    failsafe_status,
    status_bits,
    status_sample,
)
from .snapshot import FailsafeStatus
from .timekeeping import FailsafeHistory, RateMeter, VehicleClock

# Polls closer together than this after one that emptied the queue read only recent messages.
RECENT_POLL_GAP_S = 0.5
RATE_WINDOW_S = 2.0


class Observer(Protocol):
    """What the intake hands the guided test (`GuidedTestTracker` is one)."""

    @property
    def observers(self) -> Mapping[str, Callable[[Any, float], None]]: ...

    def observe_rc_channels(self, msg: Any, sent_at: float) -> None: ...

    def note_failsafe(self, failsafe: FailsafeStatus) -> None: ...


def _dated(vehicle_time: float | None, not_before: float | None, now: float, recent: bool) -> float:
    """When the vehicle sent a message, on our clock, from ``vehicle_time`` (its own timestamp, or
    for one without, the vehicle's latest), kept between ``not_before`` and ``now``; a message
    without a timestamp read ``recent``-ly is as recent as the poll (see the module docstring)."""
    if recent or vehicle_time is None:
        return now
    return min(vehicle_time if not_before is None else max(vehicle_time, not_before), now)


class VehicleIntake:
    """The dated readings of one connection: newest samples, rates and the failsafe history."""

    def __init__(self, observer: Observer, now: float) -> None:
        self._observer = observer
        self.channels: ChannelsSample | None = None
        self.status: StatusSample | None = None
        self.history = FailsafeHistory(now)
        self.channels_rate = RateMeter(RATE_WINDOW_S)
        self.status_rate = RateMeter(RATE_WINDOW_S)
        self._clock = VehicleClock()

    def invalidate(self) -> None:
        """No reading is live any more (a link fault, a closed link, a resume)."""
        self.channels = None
        self.status = None

    def reset_rates(self) -> None:
        self.channels_rate.reset()
        self.status_rate.reset()

    def new_connection(self, now: float) -> None:
        """Nothing of the previous connection's vehicle counts: its clock, rates and evidence."""
        self.invalidate()
        self.reset_rates()
        self._clock.reset()
        self.history.restart(now)

    def take(
        self, messages: Iterable[Any], now: float, not_before: float | None, *, backlog: bool, closed: bool
    ) -> bool:
        """Take the poll's messages of the selected vehicle; True if a receiver stream delivered
        (and the link is not closed), which is news that the link works."""
        recent = not_before is not None and now - not_before <= RECENT_POLL_GAP_S and not backlog
        map_clock = self._clock.observe
        observer = self._observer
        observe_channels = observer.observe_rc_channels
        note_failsafe = observer.note_failsafe
        observers = observer.observers
        record = self.history.record
        vehicle_time = self._clock.latest_send_time()
        newest_channels: tuple[Any, float] | None = None
        # The newest SYS_STATUS and the vehicle's time when it was read; dated once, at the end.
        newest_status: tuple[Any, float | None] | None = None
        # The failsafe the last SYS_STATUS of this batch said: a status that repeats it is no news.
        told: FailsafeStatus | None = None
        previous_bits: tuple[int, int, int] | None = None
        failsafe = FailsafeStatus.UNKNOWN
        channels_count = 0
        status_count = 0
        for msg in messages:
            kind = msg.get_type()
            if kind == "RC_CHANNELS":
                time_boot_ms = msg.time_boot_ms
                if time_boot_ms > 0:  # 0 is what a sender that keeps no time leaves there
                    vehicle_time = map_clock(time_boot_ms, now)
                    # Its own timestamp dates it, however soon after an emptied queue it was read.
                    sent_at = _dated(vehicle_time, not_before, now, False)
                    # The sticks step measures rests between readings on the vehicle's clock: a
                    # telemetry radio's queue delays readings by a varying amount, which would
                    # stretch or shrink the time a stick stayed somewhere on ours.
                    observe_channels(msg, vehicle_time)
                else:
                    sent_at = _dated(vehicle_time, not_before, now, recent)
                    observe_channels(msg, now)
                newest_channels = (msg, sent_at)
                channels_count += 1
            elif kind == "SYS_STATUS":
                bits = status_bits(msg)
                if bits != previous_bits:  # a vehicle repeats its status: worked out once per poll
                    previous_bits, failsafe = bits, failsafe_status(*bits)
                if failsafe is not told:
                    told = failsafe
                    note_failsafe(failsafe)
                    record(failsafe, _dated(vehicle_time, not_before, now, recent))
                newest_status = (msg, vehicle_time)
                status_count += 1
            else:
                observers[kind](msg, now)
        self.channels_rate.add(now, channels_count)
        self.status_rate.add(now, status_count)
        if closed:
            self.invalidate()
            return False
        # Only the newest of each is shown: a sample for each would be work thrown away.
        if newest_channels is not None:
            self.channels = channels_sample(*newest_channels)
        if newest_status is not None:
            msg, status_time = newest_status
            self.status = status_sample(msg, _dated(status_time, not_before, now, recent))
        return newest_channels is not None or newest_status is not None

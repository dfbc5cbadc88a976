# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The selected vehicle's messages of one poll, taken one by one as they are read, and dated.

A message read from the connection may have waited there, so each is dated by when the vehicle
sent it, not when it was read: an RC_CHANNELS by its ``time_boot_ms`` mapped onto our clock; a
SYS_STATUS, which carries no time, is as recent as the poll only if the poll came soon after one
that emptied the queue and found no backlog itself, and otherwise as old as the RC_CHANNELS the
vehicle sent before it.  Every failsafe change is recorded as evidence at that time, so a short
failsafe between polls is not lost and a late one is not post-dated; the other types go to the
guided test's observers.  Only the newest sample of each stream is kept for display.

A poll is `begin`, one ``take_*`` per message of a type the check reads, in the order read (the
link reader's routes), and `finish`, which knows whether a backlog remains and so dates what
needed it.  Taking each message as it is read, rather than collecting the batch first, lets
pymavlink reuse the memory of one message for the next: a poll's messages are never alive at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .readings import (
    ChannelsSample,
    StatusSample,
    channels_sample,
    failsafe_status,
    source_key,
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
    """When the vehicle sent a message without a timestamp (see the module docstring)."""
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
        self._begin(now, None, None, None)

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

    # ----------------------------------------------------------------- one poll

    def begin(self, now: float, not_before: float | None, target: tuple[int | None, int | None]) -> None:
        """A poll reads now: what it takes is ``target``'s, and nothing read can have arrived
        before ``not_before`` (when the last read emptied the queue, if one did)."""
        self._begin(now, not_before, *target)

    def _begin(
        self, now: float, not_before: float | None, target_system: int | None, target_component: int | None
    ) -> None:
        self._now = now
        self._not_before = not_before
        self._source_of, self._source = source_key(target_system, target_component)
        self._observe_channels: Callable[[Any, float], None] = self._observer.observe_rc_channels
        self._observers: Mapping[str, Callable[[Any, float], None]] = self._observer.observers
        self._vehicle_time = self._clock.latest_send_time()
        # The newest RC_CHANNELS, when it was sent (None: it keeps no time, so `finish` dates it)
        # and the vehicle's time when it was read.
        self._newest_channels: tuple[Any, float | None, float | None] | None = None
        # The newest SYS_STATUS and the vehicle's time when it was read; dated by `finish`.
        self._newest_status: tuple[Any, float | None] | None = None
        # The failsafe the last SYS_STATUS of this poll said: a status that repeats it is no news.
        self._told: FailsafeStatus | None = None
        self._previous_bits: tuple[int, int, int] | None = None
        self._failsafe = FailsafeStatus.UNKNOWN
        # Failsafe changes and the vehicle's time when each was read; dated and recorded by `finish`.
        self._changes: list[tuple[FailsafeStatus, float | None]] = []
        self._channels_count = 0
        self._status_count = 0

    def take_rc_channels(self, msg: Any) -> None:
        if self._source_of(msg.get_header()) != self._source:
            return
        time_boot_ms = msg.time_boot_ms
        if time_boot_ms > 0:  # 0 is what a sender that keeps no time leaves there
            now, not_before = self._now, self._not_before
            vehicle_time = self._vehicle_time = self._clock.observe(time_boot_ms, now)
            sent_at = min(vehicle_time if not_before is None else max(vehicle_time, not_before), now)
            # The sticks step measures rests between readings on the vehicle's clock: a telemetry
            # radio's queue delays readings by a varying amount, which would stretch or shrink the
            # time a stick stayed somewhere on ours.
            self._observe_channels(msg, vehicle_time)
            self._newest_channels = (msg, sent_at, vehicle_time)
        else:
            self._observe_channels(msg, self._now)
            self._newest_channels = (msg, None, self._vehicle_time)
        self._channels_count += 1

    def take_sys_status(self, msg: Any) -> None:
        if self._source_of(msg.get_header()) != self._source:
            return
        bits = status_bits(msg)
        if bits != self._previous_bits:  # a vehicle repeats its status: worked out once per poll
            self._previous_bits, self._failsafe = bits, failsafe_status(*bits)
        failsafe = self._failsafe
        if failsafe is not self._told:
            self._told = failsafe
            self._observer.note_failsafe(failsafe)
            self._changes.append((failsafe, self._vehicle_time))
        self._newest_status = (msg, self._vehicle_time)
        self._status_count += 1

    def take_other(self, msg: Any) -> None:
        """A message of another type the guided test reads (HEARTBEAT, STATUSTEXT...)."""
        if self._source_of(msg.get_header()) == self._source:
            self._observers[msg.get_type()](msg, self._now)

    def finish(self, *, backlog: bool, closed: bool) -> bool:
        """The poll read all it will; True if a receiver stream delivered (and the link is not
        closed), which is news that the link works."""
        now, not_before = self._now, self._not_before
        recent = not_before is not None and now - not_before <= RECENT_POLL_GAP_S and not backlog
        for failsafe, vehicle_time in self._changes:
            self.history.record(failsafe, _dated(vehicle_time, not_before, now, recent))
        self.channels_rate.add(now, self._channels_count)
        self.status_rate.add(now, self._status_count)
        newest_channels, newest_status = self._newest_channels, self._newest_status
        # Nothing of this poll is held once it is taken.
        self._newest_channels = self._newest_status = None
        self._changes = []
        if closed:
            self.invalidate()
            return False
        # Only the newest of each is shown: a sample for each would be work thrown away.
        if newest_channels is not None:
            msg, sent_at, vehicle_time = newest_channels
            if sent_at is None:
                sent_at = _dated(vehicle_time, not_before, now, recent)
            self.channels = channels_sample(msg, sent_at)
        if newest_status is not None:
            msg, status_time = newest_status
            self.status = status_sample(msg, _dated(status_time, not_before, now, recent))
        return newest_channels is not None or newest_status is not None

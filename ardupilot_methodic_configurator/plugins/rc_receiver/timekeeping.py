# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""When things happened: the vehicle's clock mapped onto ours, message rates, failsafe transitions.

A message read from the connection may have waited there (behind a backlog, or while the host had
the plugin suspended); stamping it with the time it was read would show old readings as live and
date failsafe evidence at the moment it was drained.  Many ArduPilot messages carry
``time_boot_ms``, the vehicle's clock when it sent them, so `VehicleClock` maps that clock onto
the local one by the smallest ``read - sent`` seen (a message arrives only after it was sent); a
vehicle clock that goes back by more than a second is a reboot and the mapping starts afresh.

`RateMeter` counts arrivals in short buckets over a sliding window, so memory is bounded however
many arrive; it reads low during the first window rather than spiking.  `FailsafeHistory` keeps
every change between failsafe active and not active with its time (the newest 100) and latches the
first failsafe of the test apart; "recovery observed" speaks of the latest failsafe.  The evidence
survives telemetry loss and deactivation; only a fresh test clears it, and unknown is never
evidence.  Everything runs on the caller's clock.
"""

from __future__ import annotations

from collections import deque

from .snapshot import FailsafeStatus

REBOOT_JUMP_S = 1.0


class VehicleClock:
    """Maps the selected vehicle's ``time_boot_ms`` onto the caller's clock."""

    def __init__(self) -> None:
        self._offset: float | None = None
        self._last_boot_s: float | None = None

    def reset(self) -> None:
        self._offset = None
        self._last_boot_s = None

    def observe(self, time_boot_ms: int, read_at: float) -> float:
        """Take a timestamped message read at ``read_at``; returns when it was sent (local clock)."""
        boot_s = time_boot_ms / 1000.0
        if self._last_boot_s is not None and boot_s < self._last_boot_s - REBOOT_JUMP_S:
            self._offset = None
        self._last_boot_s = boot_s
        offset = read_at - boot_s
        if self._offset is None or offset < self._offset:
            self._offset = offset
        return boot_s + self._offset

    def latest_send_time(self) -> float | None:
        """Local time at which the most recent timestamped message was sent, if any."""
        if self._offset is None or self._last_boot_s is None:
            return None
        return self._last_boot_s + self._offset


DEFAULT_WINDOW_S = 2.0
_BUCKETS_PER_WINDOW = 40


class RateMeter:
    """Counts events over the last ``window_s`` seconds of the caller's clock."""

    def __init__(self, window_s: float = DEFAULT_WINDOW_S) -> None:
        if window_s <= 0:
            raise ValueError("window_s must be positive")
        self._window_s = window_s
        self._bucket_s = window_s / _BUCKETS_PER_WINDOW
        # (bucket start time, count); at most about _BUCKETS_PER_WINDOW + 1 live buckets.
        self._buckets: deque[tuple[float, int]] = deque(maxlen=_BUCKETS_PER_WINDOW * 2)
        # The sum of the buckets' counts, kept as they come and go: a rate is read every poll.
        self._total = 0

    @property
    def window_s(self) -> float:
        return self._window_s

    def add(self, now: float, count: int = 1) -> None:
        """Record ``count`` arrivals at clock reading ``now``."""
        if count <= 0:
            return
        buckets = self._buckets
        if buckets and now - buckets[-1][0] < self._bucket_s:
            start, previous = buckets[-1]
            buckets[-1] = (start, previous + count)
        else:
            if len(buckets) == buckets.maxlen:
                self._total -= buckets[0][1]  # the append below drops it
            buckets.append((now, count))
        self._total += count
        self._discard_before(now)

    def rate_hz(self, now: float) -> float:
        """Arrivals per second over the window ending at ``now``."""
        self._discard_before(now)
        return self._total / self._window_s

    def reset(self) -> None:
        self._buckets.clear()
        self._total = 0

    def _discard_before(self, now: float) -> None:
        horizon = now - self._window_s
        buckets = self._buckets
        while buckets and buckets[0][0] <= horizon:
            self._total -= buckets.popleft()[1]


MAX_TRANSITIONS = 100


class FailsafeHistory:
    """Failsafe and recovery transitions of one test, timed by the caller's clock."""

    def __init__(self, started_at: float) -> None:
        self.test_started_at = started_at
        self.failsafe_observed_at: float | None = None
        self.recovery_observed_at: float | None = None
        # (ACTIVE or NOT_ACTIVE, time) for each change since the first failsafe, oldest first: a
        # tuple replaced at each change, so every snapshot of a quiet test shares the same one.
        self.transitions: tuple[tuple[FailsafeStatus, float], ...] = ()
        self._last_known: FailsafeStatus | None = None

    @property
    def failsafe_observed(self) -> bool:
        return self.failsafe_observed_at is not None

    @property
    def recovery_observed(self) -> bool:
        """Whether the most recent failsafe has cleared."""
        return self.recovery_observed_at is not None

    def record(self, status: FailsafeStatus, now: float) -> None:
        """Take one receiver status reported at ``now`` into account."""
        if status is FailsafeStatus.UNKNOWN or status is self._last_known:
            return
        self._last_known = status
        if status is FailsafeStatus.ACTIVE:
            self._add_transition(status, now)
            if self.failsafe_observed_at is None:
                self.failsafe_observed_at = now
            self.recovery_observed_at = None
        elif self.failsafe_observed_at is not None:
            self._add_transition(status, now)
            self.recovery_observed_at = now

    def restart(self, now: float) -> None:
        """Forget all evidence and start a fresh test at ``now``."""
        self.test_started_at = now
        self.failsafe_observed_at = None
        self.recovery_observed_at = None
        self.transitions = ()
        self._last_known = None

    def _add_transition(self, status: FailsafeStatus, now: float) -> None:
        self.transitions = (*self.transitions, (status, now))[-MAX_TRANSITIONS:]

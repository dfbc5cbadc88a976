# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sliding-window message rate, in Hz, from timestamps of an injected clock.

Arrivals are counted into short buckets (a fortieth of the window), so memory stays bounded no
matter how many messages arrive or how often the caller asks.  The rate is the number of arrivals
inside the window divided by the window length: it reads low during the first window after a
reset, which is honest (we have not yet seen a full window) and never spikes on a burst.
"""

from __future__ import annotations

from collections import deque

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

    @property
    def window_s(self) -> float:
        return self._window_s

    def add(self, now: float, count: int = 1) -> None:
        """Record ``count`` arrivals at clock reading ``now``."""
        if count <= 0:
            return
        if self._buckets and now - self._buckets[-1][0] < self._bucket_s:
            start, previous = self._buckets[-1]
            self._buckets[-1] = (start, previous + count)
        else:
            self._buckets.append((now, count))
        self._discard_before(now)

    def rate_hz(self, now: float) -> float:
        """Arrivals per second over the window ending at ``now``."""
        self._discard_before(now)
        return sum(count for _start, count in self._buckets) / self._window_s

    def reset(self) -> None:
        self._buckets.clear()

    def _discard_before(self, now: float) -> None:
        horizon = now - self._window_s
        while self._buckets and self._buckets[0][0] <= horizon:
            self._buckets.popleft()

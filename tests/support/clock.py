# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one clock tests (and the benchmarks' replays) move by hand."""

from __future__ import annotations


class ManualClock:
    """A monotonic clock that reads ``now`` and moves only when its owner says so.

    Reading a float attribute is safe from another thread (a relay or a vehicle thread reads it).
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A bounded, thread-safe ring of captured datagrams between a relay thread and its monitor.

The relay thread only ever appends and the monitor only ever drains, so one short lock around a
``deque(maxlen)`` is enough.  When the ring is full the oldest record is overwritten, because a
live panel cares about the newest traffic, and every overwritten record is counted.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from amc_rc_receiver.sim_bridge.snapshot import Direction


@dataclass(frozen=True, slots=True)
class CaptureRecord:
    """One datagram as the relay saw it, recorded after it was forwarded (or refused).

    ``data`` may be shorter than the datagram when the relay's recording limit cut it; then
    ``original_length`` holds the datagram's real size.  ``forwarded`` is False for datagrams the
    relay refused to pass on (unexpected senders, replies before any peer, empty, oversize,
    listen-only mode) so that the monitor can still show who is talking.
    """

    timestamp: float
    direction: Direction
    source: tuple[str, int]
    data: bytes
    forwarded: bool = True
    original_length: int | None = None

    @property
    def length(self) -> int:
        """The datagram's size on the wire, even when ``data`` was truncated."""
        return len(self.data) if self.original_length is None else self.original_length

    @property
    def truncated(self) -> bool:
        return self.original_length is not None and self.original_length != len(self.data)


class CaptureRing:
    """Fixed-capacity FIFO of :class:`CaptureRecord`; overwrites the oldest and counts the loss."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capture ring capacity must be at least 1, got {capacity}")
        self._records: deque[CaptureRecord] = deque(maxlen=capacity)
        self._lock = threading.Lock()
        self._dropped = 0

    @property
    def capacity(self) -> int:
        maxlen = self._records.maxlen
        assert maxlen is not None  # set in __init__
        return maxlen

    @property
    def dropped(self) -> int:
        """Records overwritten before anyone drained them."""
        return self._dropped

    def __len__(self) -> int:
        return len(self._records)

    def append(self, record: CaptureRecord) -> None:
        with self._lock:
            if len(self._records) == self._records.maxlen:
                self._dropped += 1
            self._records.append(record)

    def drain(self, max_records: int) -> list[CaptureRecord]:
        """Remove and return up to ``max_records`` of the oldest records, oldest first."""
        if max_records <= 0:
            return []
        with self._lock:
            count = min(max_records, len(self._records))
            popleft = self._records.popleft
            return [popleft() for _ in range(count)]

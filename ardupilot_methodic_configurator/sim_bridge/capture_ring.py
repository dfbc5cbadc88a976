# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A bounded, thread-safe ring of captured datagrams between a relay thread and its monitor.

The relay thread only ever appends and the monitor only ever drains, so one short lock around a
``deque`` is enough.  The ring is bounded twice: in records and in bytes, where a record costs its
payload plus a fixed allowance for the Python objects around it, so a flood of large datagrams
holds no more memory than one of small ones.  When either bound is reached the oldest records
are overwritten, because a live panel cares about the newest traffic, and every overwritten
record is counted.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from .snapshot import Direction

DEFAULT_RING_RECORDS = 4096
DEFAULT_RING_BYTES = 1 << 20
# What one record costs beyond its payload on 64-bit CPython: the record, its bytes header and
# the source address tuple with its string and integer (measured with tracemalloc, rounded up).
RECORD_OVERHEAD_BYTES = 256


@dataclass(frozen=True, slots=True)
class CaptureRecord:
    """One datagram as the relay saw it, recorded after it was forwarded (or refused).

    ``data`` may be shorter than the datagram when the relay's recording limit cut it; then
    ``original_length`` holds the datagram's real size.  ``forwarded`` is False for datagrams the
    relay did not pass on (replies before any peer, listen-only mode).  ``protocol`` is the
    protocol whose header checks the datagram passed in the relay thread (None when it failed
    them, or was never checked), so the monitor knows which records are worth decoding.
    """

    timestamp: float
    direction: Direction
    source: tuple[str, int]
    data: bytes
    forwarded: bool = True
    original_length: int | None = None
    protocol: str | None = None

    @property
    def length(self) -> int:
        """The datagram's size on the wire, even when ``data`` was truncated."""
        return len(self.data) if self.original_length is None else self.original_length

    @property
    def truncated(self) -> bool:
        return self.original_length is not None and self.original_length != len(self.data)

    @property
    def cost(self) -> int:
        """The bytes this record is charged in a ring."""
        return len(self.data) + RECORD_OVERHEAD_BYTES


class CaptureRing:
    """FIFO of :class:`CaptureRecord` bounded in records and in bytes; overwrites the oldest."""

    def __init__(self, capacity: int = DEFAULT_RING_RECORDS, max_bytes: int = DEFAULT_RING_BYTES) -> None:
        if capacity < 1:
            raise ValueError(f"capture ring capacity must be at least 1, got {capacity}")
        if max_bytes < RECORD_OVERHEAD_BYTES + 1:
            raise ValueError(f"capture ring byte limit must exceed {RECORD_OVERHEAD_BYTES}, got {max_bytes}")
        self._records: deque[CaptureRecord] = deque()
        self._capacity = capacity
        self._max_bytes = max_bytes
        self._bytes = 0
        self._lock = threading.Lock()
        self._dropped = 0

    @property
    def capacity(self) -> int:
        return self._capacity

    @property
    def max_bytes(self) -> int:
        return self._max_bytes

    @property
    def bytes(self) -> int:
        """What the records held now are charged, never more than ``max_bytes``."""
        return self._bytes

    @property
    def dropped(self) -> int:
        """Records overwritten (or refused for being larger than the ring) before anyone drained them."""
        return self._dropped

    def __len__(self) -> int:
        return len(self._records)

    def append(self, record: CaptureRecord) -> None:
        cost = record.cost
        with self._lock:
            if cost > self._max_bytes:
                self._dropped += 1
                return
            records = self._records
            while records and (len(records) >= self._capacity or self._bytes + cost > self._max_bytes):
                self._bytes -= records.popleft().cost
                self._dropped += 1
            records.append(record)
            self._bytes += cost

    def drain(self, max_records: int) -> list[CaptureRecord]:
        """Remove and return up to ``max_records`` of the oldest records, oldest first."""
        if max_records <= 0:
            return []
        with self._lock:
            count = min(max_records, len(self._records))
            popleft = self._records.popleft
            taken = [popleft() for _ in range(count)]
            self._bytes -= sum(record.cost for record in taken)
            return taken

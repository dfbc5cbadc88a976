# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exact per-direction traffic accounting, kept by the relay thread for every datagram it sees.

Strategy: counting is the one piece of bridge work that must see every datagram, so it runs where
every datagram already is, in the relay's thread, right after forwarding, and costs O(1) per
datagram in constant memory: totals, a bucketed rate window, error tallies capped in number of
reasons, SITL frame_count and XRP sequence bookkeeping, and a capped set of senders.  The
monitor then only copies the tallies (``DirectionTally.copy``, under the relay's lock) instead of
replaying datagrams, so a backlog or a dropped capture never makes a count wrong and the UI
thread's share of counting is the same whatever arrives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .snapshot import Direction, OrderCounts

# Distinct error reasons remembered per direction; anything beyond is lumped into "other".
MAX_REASONS = 32
# Distinct senders remembered per direction; the count saturates there.
MAX_SENDERS_TRACKED = 32
REASON_OTHER = "other"
# SITL frame_count is uint32; a drop from near the top to near zero is a wrap, not a restart.
_FRAME_COUNT_MODULUS = 1 << 32
_FRAME_COUNT_WRAP_SLACK = 1 << 16
# XRP sequence numbers are uint16 and compared with serial-number arithmetic.
_SEQ_MODULUS = 1 << 16
_SEQ_HALF = 1 << 15
# After this many stale XRP datagrams in a row the sender has restarted; follow its new count.
_STALE_RESYNC = 3


def count_reason(errors: dict[str, int], reason: str, limit: int = MAX_REASONS) -> None:
    """Add one to ``reason``; once ``limit - 1`` reasons are known, new ones count as "other"."""
    if reason not in errors and len(errors) >= limit - 1:
        reason = REASON_OTHER
    errors[reason] = errors.get(reason, 0) + 1


@dataclass(frozen=True)
class RateSample:
    """A frozen copy of a ``RateWindow``'s buckets; reads rates at any later instant."""

    window_s: float
    width_s: float
    buckets: int
    # (bucket index, packets, bytes) of every bucket in use
    slots: tuple[tuple[int, int, int], ...] = ()

    def rates(self, now: float) -> tuple[float, float]:
        """(packets/s, bytes/s) over the window that ends at ``now``."""
        position = now / self.width_s
        newest = math.floor(position)
        edge_weight = 1.0 - (position - newest)
        packets = 0.0
        size = 0.0
        for index, slot_packets, slot_bytes in self.slots:
            age = newest - index
            if age < self.buckets:
                weight = 1.0  # includes datagrams stamped slightly after ``now``
            elif age == self.buckets:
                weight = edge_weight
            else:
                continue
            packets += weight * slot_packets
            size += weight * slot_bytes
        return packets / self.window_s, size / self.window_s


class RateWindow:
    """Packets and bytes per second over the last ``window_s`` of the clock, in O(1) memory.

    Counts go into ``buckets`` fixed-width time buckets (plus one for the partly expired edge,
    which is weighted by the fraction still inside the window), so steady traffic reads steady
    without keeping one timestamp per packet.
    """

    def __init__(self, window_s: float = 1.0, buckets: int = 8) -> None:
        if window_s <= 0 or buckets < 1:
            raise ValueError("the rate window needs a positive width and at least one bucket")
        self._window = window_s
        self._width = window_s / buckets
        self._buckets = buckets
        slots = buckets + 1
        self._index: list[int | None] = [None] * slots
        self._packets = [0] * slots
        self._bytes = [0] * slots

    def add(self, timestamp: float, size: int) -> None:
        index = math.floor(timestamp / self._width)
        slot = index % len(self._index)
        current = self._index[slot]
        if current is None or index > current:
            self._index[slot] = index
            self._packets[slot] = 0
            self._bytes[slot] = 0
        elif index < current:
            return  # older than anything the window still covers
        self._packets[slot] += 1
        self._bytes[slot] += size

    def sample(self) -> RateSample:
        slots = tuple(
            (index, self._packets[slot], self._bytes[slot])
            for slot, index in enumerate(self._index)
            if index is not None
        )
        return RateSample(self._window, self._width, self._buckets, slots)

    def rates(self, now: float) -> tuple[float, float]:
        return self.sample().rates(now)


@dataclass(frozen=True)
class DirectionTraffic:
    """A consistent copy of one direction's tallies, taken under the relay's lock."""

    direction: Direction
    packets: int = 0
    bytes: int = 0
    rate: RateSample | None = None
    # reason key -> count, header-level checks of every datagram from the expected sender
    errors: tuple[tuple[str, int], ...] = ()
    order: OrderCounts = field(default_factory=OrderCounts)
    last_sender: tuple[str, int] | None = None
    last_timestamp: float | None = None
    senders_seen: int = 0
    # datagrams from senders that were neither the peer nor the target: counted, never decoded
    unexpected: int = 0
    detected_protocol: str | None = None

    def rates(self, now: float) -> tuple[float, float]:
        return (0.0, 0.0) if self.rate is None else self.rate.rates(now)


class DirectionTally:
    """Everything counted about one direction of one relay; constant size, not thread-safe.

    The relay thread is its only writer and holds the relay's lock around every update and
    around ``copy()``.
    """

    def __init__(self, direction: Direction, rate_window_s: float = 1.0) -> None:
        self.direction = direction
        self.packets = 0
        self.bytes = 0
        self.rate = RateWindow(rate_window_s)
        self.errors: dict[str, int] = {}
        # Frozen and replaced on each count: counts change only when something is out of order.
        self.order = OrderCounts()
        self.last_frame_count: int | None = None
        self.last_sequence: int | None = None
        self.stale_run = 0
        self.last_sender: tuple[str, int] | None = None
        self.last_timestamp: float | None = None
        self.senders: set[tuple[str, int]] = set()
        self.unexpected = 0
        self.detected_protocol: str | None = None

    def see(self, timestamp: float, size: int, source: tuple[str, int]) -> None:
        self.packets += 1
        self.bytes += size
        self.rate.add(timestamp, size)
        self.last_sender = source
        self.last_timestamp = timestamp
        if len(self.senders) < MAX_SENDERS_TRACKED:
            self.senders.add(source)

    def count_error(self, reason: str) -> None:
        count_reason(self.errors, reason)
        if reason == "checksum":
            self.order = self.order.plus_one("checksum_failures")

    def frame_count(self, count: int) -> None:
        last = self.last_frame_count
        self.last_frame_count = count
        if last is None:
            return
        if count == last:
            self.order = self.order.plus_one("frame_repeats")
        elif count < last:
            wrapped = (
                last >= _FRAME_COUNT_MODULUS - _FRAME_COUNT_WRAP_SLACK and count < _FRAME_COUNT_WRAP_SLACK
            )
            if not wrapped:
                self.order = self.order.plus_one("frame_resets")
            elif (count - last) % _FRAME_COUNT_MODULUS != 1:
                self.order = self.order.plus_one("frame_gaps")
        elif count != last + 1:
            self.order = self.order.plus_one("frame_gaps")

    def sequence(self, sequence: int) -> None:
        last = self.last_sequence
        if last is None:
            self.last_sequence = sequence
            return
        ahead = (sequence - last) % _SEQ_MODULUS
        if ahead == 0 or ahead >= _SEQ_HALF:
            self.order = self.order.plus_one("stale_sequences")
            self.stale_run += 1
            if self.stale_run >= _STALE_RESYNC:
                self.last_sequence = sequence
                self.stale_run = 0
            return
        self.stale_run = 0
        if ahead != 1:
            self.order = self.order.plus_one("sequence_gaps")
        self.last_sequence = sequence

    def copy(self) -> DirectionTraffic:
        return DirectionTraffic(
            direction=self.direction,
            packets=self.packets,
            bytes=self.bytes,
            rate=self.rate.sample(),
            errors=tuple(self.errors.items()),
            order=self.order,
            last_sender=self.last_sender,
            last_timestamp=self.last_timestamp,
            senders_seen=len(self.senders),
            unexpected=self.unexpected,
            detected_protocol=self.detected_protocol,
        )

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a relay counts and records of the datagrams it passes, behind one lock.

The forwarding thread hands every datagram here after forwarding it: header-level checks
(``protocols.triage``), exact tallies per direction (``traffic``), and a copy in the capture ring,
bounded in records and bytes, that feeds the monitor the frames it shows.  Every step is O(1) per
datagram, and readers on other threads get consistent copies (``counters``, ``traffic``) or take
records out of the ring (``drain``).  Faults are counted by a stable reason key (``REASON_*``),
which the views turn into words.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .capture_ring import CaptureRecord, CaptureRing
from .loop_guard import Verdict
from .protocols.table import triage
from .protocols.triage import Triage
from .relay_config import Address, RelayConfig
from .snapshot import Direction, LoopCounts
from .traffic import DirectionTally, DirectionTraffic

# Stable reason keys for RelayCounters.errors.
REASON_PORT_UNREACHABLE = "port-unreachable"
REASON_OVERSIZE = "oversize"
REASON_EMPTY = "empty"
REASON_SEND_FAILED = "send-failed"
REASON_RECEIVE_FAILED = "receive-failed"
REASON_INTERNAL = "internal-error"


@dataclass(frozen=True)
class RelayCounters:
    """What the relay did so far; a consistent copy taken under the relay's lock."""

    received_from_peer: int = 0
    received_from_target: int = 0
    forwarded_from_peer: int = 0
    forwarded_from_target: int = 0
    unexpected_senders: int = 0
    replies_without_peer: int = 0
    peer_changes: int = 0
    dropped_captures: int = 0
    truncated_captures: int = 0
    # (reason key, count), most frequent first; keys are the REASON_* constants.
    errors: tuple[tuple[str, int], ...] = ()
    loop: LoopCounts = field(default_factory=LoopCounts)

    def forwarded(self, direction: Direction) -> int:
        return self.forwarded_from_peer if direction is Direction.FROM_PEER else self.forwarded_from_target

    def error_count(self, reason: str) -> int:
        return dict(self.errors).get(reason, 0)


@dataclass
class _MutableCounters:
    received_from_peer: int = 0
    received_from_target: int = 0
    forwarded_from_peer: int = 0
    forwarded_from_target: int = 0
    unexpected_senders: int = 0
    replies_without_peer: int = 0
    peer_changes: int = 0
    truncated_captures: int = 0
    errors: dict[str, int] = field(default_factory=dict)


class RelayBook:
    """The counts, tallies and capture ring of one relay; every method is thread-safe."""

    def __init__(self, config: RelayConfig) -> None:
        self._protocol = config.protocol
        self._max_record_bytes = config.max_record_bytes
        self._ring = CaptureRing(config.ring_size, config.ring_bytes)
        self._lock = threading.Lock()
        self._counters = _MutableCounters()
        # Replaced whole on each return, which is rare: a loop goes round a few times, then stops.
        self._loop = LoopCounts()
        self._tallies = {
            direction: DirectionTally(direction, config.rate_window_s) for direction in Direction
        }

    # ---------------------------------------------------------------- readers
    @property
    def pending_records(self) -> int:
        return len(self._ring)

    @property
    def pending_bytes(self) -> int:
        return self._ring.bytes

    def drain(self, max_records: int) -> list[CaptureRecord]:
        return self._ring.drain(max_records)

    def traffic(self) -> dict[Direction, DirectionTraffic]:
        with self._lock:
            return {direction: tally.copy() for direction, tally in self._tallies.items()}

    def counters(self) -> RelayCounters:
        with self._lock:
            c = self._counters
            errors = tuple(sorted(c.errors.items(), key=lambda item: (-item[1], item[0])))
            return RelayCounters(
                received_from_peer=c.received_from_peer,
                received_from_target=c.received_from_target,
                forwarded_from_peer=c.forwarded_from_peer,
                forwarded_from_target=c.forwarded_from_target,
                unexpected_senders=c.unexpected_senders,
                replies_without_peer=c.replies_without_peer,
                peer_changes=c.peer_changes,
                dropped_captures=self._ring.dropped,
                truncated_captures=c.truncated_captures,
                errors=errors,
                loop=self._loop,
            )

    # ---------------------------------------------------------------- the forwarding thread
    def count_error(self, reason: str) -> None:
        with self._lock:
            errors = self._counters.errors
            errors[reason] = errors.get(reason, 0) + 1

    def count_peer_change(self) -> None:
        with self._lock:
            self._counters.peer_changes += 1

    def count_reply_without_peer(self) -> None:
        with self._lock:
            self._counters.replies_without_peer += 1

    def count_return(
        self, verdict: Verdict, now: float, source: Address, size: int, *, came_back_from: str, sent_to: str
    ) -> None:
        """Count a datagram that came back to the relay; one held back is counted as received too."""
        held = verdict >= Verdict.CUT
        with self._lock:
            loop = self._loop
            self._loop = LoopCounts(
                returned=loop.returned + 1,
                held_back=loop.held_back + held,
                loops_cut=loop.loops_cut + (verdict is Verdict.CUT),
                came_back_from=came_back_from if held else loop.came_back_from,
                sent_to=sent_to if held else loop.sent_to,
            )
            if held:
                self._counters.received_from_peer += 1
                self._tallies[Direction.FROM_PEER].see(now, size, source)

    def count_only(
        self, direction: Direction, now: float, source: Address, size: int, *, unexpected: bool
    ) -> None:
        """Count a datagram that is neither checked nor recorded (a stranger's, an empty one)."""
        with self._lock:
            counters = self._counters
            if direction is Direction.FROM_PEER:
                counters.received_from_peer += 1
            else:
                counters.received_from_target += 1
            tally = self._tallies[direction]
            tally.see(now, size, source)
            if unexpected:
                counters.unexpected_senders += 1
                tally.unexpected += 1

    def account(
        self, direction: Direction, now: float, source: Address, data: bytes, *, forwarded: bool, track: bool
    ) -> None:
        """Check, record and count one datagram from an expected sender, after it was forwarded.

        ``track`` says whether its frame count or sequence number joins the order bookkeeping.
        """
        check = triage(self._protocol, data)
        # Recorded before it is counted: once a count shows the datagram, the ring already has it.
        truncated = self._record(now, direction, source, data, forwarded=forwarded, protocol=check.protocol)
        with self._lock:
            counters = self._counters
            if direction is Direction.FROM_PEER:
                counters.received_from_peer += 1
                counters.forwarded_from_peer += forwarded
            else:
                counters.received_from_target += 1
                counters.forwarded_from_target += forwarded
            counters.truncated_captures += truncated
            tally = self._tallies[direction]
            tally.see(now, len(data), source)
            _fold(tally, check, track)

    def _record(
        self,
        now: float,
        direction: Direction,
        source: Address,
        data: bytes,
        *,
        forwarded: bool,
        protocol: str | None,
    ) -> bool:
        """Copy the datagram into the ring; True when the recording limit cut it."""
        limit = self._max_record_bytes
        if len(data) > limit:
            self._ring.append(
                CaptureRecord(now, direction, source, data[:limit], forwarded, len(data), protocol)
            )
            return True
        self._ring.append(CaptureRecord(now, direction, source, data, forwarded, None, protocol))
        return False


def _fold(tally: DirectionTally, check: Triage, track: bool) -> None:
    if check.reason is not None:
        tally.count_error(check.reason)
        return
    tally.detected_protocol = check.protocol
    if track:
        if check.frame_count is not None:
            tally.frame_count(check.frame_count)
        if check.sequence is not None:
            tally.sequence(check.sequence)

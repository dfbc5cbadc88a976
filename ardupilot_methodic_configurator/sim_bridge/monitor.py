# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turn the relays' tallies and capture rings into immutable per-link traffic snapshots.

Strategy: the UI thread's share of bridge work is bounded in time, whatever arrives.  Counting
is not done here at all: each relay keeps exact tallies in its own thread (``traffic``), and a
poll copies them, O(1) per link.  What is left is showing frames, and that is spent only where
the panel shows it: a poll drains the capture rings in small chunks, keeping just the newest
checked record of each direction, then fully decodes that one record per direction, once, and
formats it once.  Both steps stop when the poll's time budget, read from an injectable work
clock, runs out; what is left stays in the rings or waits as the pending frame and is done on
the next poll.  Each step always makes some progress (one chunk, one decode) and rotates which
link goes first, so nothing starves however small the budget.  A poll therefore costs at most
the budget plus one chunk and one decode, plus O(links) to build the snapshot.

Snapshots hold plain data: reasons are keys (``CodecError.reason``, the relay's ``REASON_*``,
the monitor's own in ``snapshot``) and frames are ``frame_summary`` values; the views word them.
Decode errors are the relay's header-level checks of every datagram (exact), plus the content
errors (JSON keys and values, XRP blocks) found in the frames decoded for display.  Every error
tally is capped in distinct reasons, frame summaries are capped in size, and a fault anywhere
(a decoder bug, a relay that cannot report) is counted and never ends polling.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from .capture_ring import CaptureRecord
from .frame_summary import summarise
from .protocols import table
from .protocols.errors import CodecError
from .protocols.names import AUTO
from .protocols.triage import REASON_DECODER_FAULT
from .relay import UdpRelay
from .relay_addresses import format_address
from .relay_counters import RelayCounters
from .snapshot import (
    REASON_MONITOR_FAULT,
    REASON_NO_PEER,
    REASON_TRUNCATED_CAPTURES,
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    FrameSummary,
    LinkSnapshot,
)
from .traffic import (
    MAX_REASONS,
    REASON_OTHER,
    DirectionTraffic,
    count_reason,
)

# A poll's budget: with one chunk, one decode and the panel's render on top it stays well under a
# 16 ms frame, and at the panel's 4 polls a second it leaves the UI thread 98 % of its time.
DEFAULT_BUDGET_S = 0.004
# Records taken from a ring between two readings of the work clock.
_DRAIN_CHUNK = 64


def _ranked(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """(reason key, count) pairs, most frequent first, at most MAX_REASONS of them."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if len(ordered) > MAX_REASONS:
        rest = sum(count for _reason, count in ordered[MAX_REASONS - 1 :])
        ordered = [*ordered[: MAX_REASONS - 1], (REASON_OTHER, rest)]
    return tuple(ordered)


class _DirectionView:
    """What the monitor adds to a direction's tallies: the shown frame and its content errors."""

    def __init__(self, direction: Direction) -> None:
        self.direction = direction
        self.pending: CaptureRecord | None = None
        self.summary: FrameSummary | None = None
        self.errors: dict[str, int] = {}

    def take(self, record: CaptureRecord) -> None:
        # A record whose header checks failed, or that the recording limit cut, cannot be shown.
        if record.protocol is not None and not record.truncated:
            self.pending = record

    def decode(self) -> None:
        record, self.pending = self.pending, None
        if record is None or record.protocol is None:
            return
        try:
            self.summary = summarise(table.decode(record.protocol, record.data))
        except CodecError as error:
            count_reason(self.errors, error.reason)
        except Exception:  # a decoder bug costs one count, never the panel
            count_reason(self.errors, REASON_DECODER_FAULT)

    def snapshot(self, traffic: DirectionTraffic, now: float) -> DirectionSnapshot:
        packets_per_s, bytes_per_s = traffic.rates(now)
        errors = dict(traffic.errors)
        for reason, count in self.errors.items():
            errors[reason] = errors.get(reason, 0) + count
        return DirectionSnapshot(
            direction=self.direction,
            packets=traffic.packets,
            bytes=traffic.bytes,
            packets_per_s=packets_per_s,
            bytes_per_s=bytes_per_s,
            decode_errors=_ranked(errors),
            order=traffic.order,
            last_frame=self.summary,
            last_sender=format_address(traffic.last_sender),
            last_packet_age_s=(
                None if traffic.last_timestamp is None else max(0.0, now - traffic.last_timestamp)
            ),
            senders_seen=traffic.senders_seen,
        )


class _LinkState:
    """One relay as the monitor sees it; touched only by the polling thread."""

    def __init__(self, relay: UdpRelay) -> None:
        self.relay = relay
        self.protocol = relay.config.protocol
        self.views = {direction: _DirectionView(direction) for direction in Direction}
        self.traffic = {direction: DirectionTraffic(direction) for direction in Direction}
        self.counters = RelayCounters()
        self.faults = 0
        self.last: LinkSnapshot | None = None

    def refresh(self) -> None:
        """Copy the relay's tallies and counters (O(1) under the relay's lock)."""
        try:
            self.traffic = self.relay.traffic()
            self.counters = self.relay.counters()
        except Exception:  # a relay that cannot report must not take the other links down
            self.faults += 1

    def drain(self, limit: int) -> int:
        """Take up to ``limit`` records, keep the newest showable one per direction; how many taken."""
        try:
            records = self.relay.drain(limit)
        except Exception:
            self.faults += 1
            return 0
        views = self.views
        for record in records:
            views[record.direction].take(record)
        return len(records)

    def snapshot(self, now: float) -> LinkSnapshot:
        try:
            self.last = self._snapshot(now)
        except Exception:  # show the link as it was last seen, with the fault counted
            self.faults += 1
            last = self.last if self.last is not None else self._placeholder()
            self.last = replace(last, relay_errors=self._relay_errors(self.counters))
        return self.last

    def _placeholder(self) -> LinkSnapshot:
        return LinkSnapshot(
            name=str(self.relay.config.name),
            protocol=self.protocol,
            detected_protocol=None,
            listen="",
            target=None,
            peer=None,
            listen_only=False,
            from_peer=DirectionSnapshot(Direction.FROM_PEER),
            from_target=DirectionSnapshot(Direction.FROM_TARGET),
        )

    def _snapshot(self, now: float) -> LinkSnapshot:
        relay = self.relay
        counters = self.counters
        from_peer, from_target = self.traffic[Direction.FROM_PEER], self.traffic[Direction.FROM_TARGET]
        detected = from_peer.detected_protocol or from_target.detected_protocol
        target = relay.target_address
        return LinkSnapshot(
            name=relay.config.name,
            protocol=self.protocol,
            detected_protocol=detected if self.protocol == AUTO else self.protocol,
            listen=format_address(relay.listen_address) or "",
            target=format_address(target),
            peer=format_address(relay.peer),
            listen_only=target is None,
            from_peer=self.views[Direction.FROM_PEER].snapshot(from_peer, now),
            from_target=self.views[Direction.FROM_TARGET].snapshot(from_target, now),
            unexpected_senders=counters.unexpected_senders,
            dropped_captures=counters.dropped_captures,
            relay_errors=self._relay_errors(counters),
            running=relay.running,
            loop=counters.loop,
        )

    def _relay_errors(self, counters: RelayCounters) -> tuple[tuple[str, int], ...]:
        errors = dict(counters.errors)
        if counters.replies_without_peer:
            errors[REASON_NO_PEER] = counters.replies_without_peer
        if counters.truncated_captures:
            errors[REASON_TRUNCATED_CAPTURES] = counters.truncated_captures
        if self.faults:
            errors[REASON_MONITOR_FAULT] = self.faults
        return _ranked(errors)


class BridgeMonitor:
    """Show the traffic of several relays as immutable snapshots, within a time budget per poll.

    ``clock`` stamps snapshots and reads rates (the relays' clock); ``work_clock`` measures the
    poll's own work against ``budget_s``.  Relays may be added and removed from any thread while
    another one polls; a link's statistics live as long as its relay is watched.
    """

    def __init__(
        self,
        relays: Sequence[UdpRelay] = (),
        clock: Callable[[], float] = time.monotonic,
        *,
        budget_s: float = DEFAULT_BUDGET_S,
        work_clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if budget_s < 0:
            raise ValueError("the poll budget cannot be negative")
        self._clock = clock
        self._work_clock = work_clock
        self._budget_s = budget_s
        self._links_lock = threading.Lock()
        self._poll_lock = threading.Lock()
        self._links: list[_LinkState] = []
        self._rotation = 0
        self.add_relays(relays)
        links = self._current_links()
        for link in links:
            link.refresh()
        self._snapshot = self._build(clock(), links)

    @property
    def snapshot(self) -> BridgeSnapshot:
        """The snapshot made by the last poll() (one with the counts at creation before the first)."""
        return self._snapshot

    @property
    def relays(self) -> tuple[UdpRelay, ...]:
        return tuple(link.relay for link in self._current_links())

    def add_relays(self, relays: Iterable[UdpRelay]) -> None:
        """Watch more relays (thread-safe); a relay already watched keeps its link as it is."""
        with self._links_lock:
            watched = {id(link.relay) for link in self._links}
            for relay in relays:
                if id(relay) not in watched:
                    watched.add(id(relay))
                    self._links.append(_LinkState(relay))

    def remove_relays(self, relays: Iterable[UdpRelay]) -> None:
        """Stop watching these relays (thread-safe); their links leave the next snapshot."""
        gone = {id(relay) for relay in relays}
        with self._links_lock:
            self._links = [link for link in self._links if id(link.relay) not in gone]

    def _current_links(self) -> list[_LinkState]:
        with self._links_lock:
            return list(self._links)

    def poll(self) -> BridgeSnapshot:
        """Copy every relay's counts, spend up to the budget on frames to show, return a snapshot."""
        with self._poll_lock:
            links = self._current_links()
            for link in links:
                link.refresh()
            if links:
                deadline = self._work_clock() + self._budget_s
                first = self._rotation % len(links)
                self._rotation += 1
                rotated = links[first:] + links[:first]
                self._drain(rotated, deadline)
                self._decode(rotated, deadline)
            self._snapshot = self._build(self._clock(), links)
            return self._snapshot

    def _drain(self, links: list[_LinkState], deadline: float) -> None:
        # Round-robin in chunks until every ring is empty or the budget is spent (one chunk at least).
        active = list(links)
        while active:
            for link in list(active):
                if link.drain(_DRAIN_CHUNK) < _DRAIN_CHUNK:
                    active.remove(link)
                if self._work_clock() >= deadline:
                    return

    def _decode(self, links: list[_LinkState], deadline: float) -> None:
        # One decode at least, so that frames are shown even when draining used the whole budget.
        for link in links:
            for view in link.views.values():
                if view.pending is None:
                    continue
                view.decode()
                if self._work_clock() >= deadline:
                    return

    def _build(self, now: float, links: list[_LinkState]) -> BridgeSnapshot:
        return BridgeSnapshot(links=tuple(link.snapshot(now) for link in links), now=now)

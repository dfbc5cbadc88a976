# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Immutable per-link traffic snapshots handed from the bridge monitor to any front end.

The monitor owns the counting; these records only carry its results across the model/view
boundary, so they hold numbers, strings, enums and tuples and compare by value.  They carry no
wording: reasons are stable keys and frame fields are keyed values, which the views put into
words (``sim_bridge.texts``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Direction(Enum):
    """Which way a datagram crossed a relay.

    ``FROM_PEER``: arrived on the relay's listen socket and went (or would go) to the target.
    ``FROM_TARGET``: a reply from the target relayed back to the learned peer.
    """

    FROM_PEER = "from_peer"
    FROM_TARGET = "from_target"


# Reason keys the monitor adds to the codecs' (``CodecError.reason``) and the relay's.
REASON_MONITOR_FAULT = "monitor-fault"
REASON_NO_PEER = "no-peer"
REASON_TRUNCATED_CAPTURES = "truncated-captures"


class FrameField:
    """The keys of a frame summary's fields (plain strings); the views word and format the values."""

    FRAME_COUNT = "frame_count"  # int
    FRAME_RATE = "frame_rate"  # int, Hz
    PWM = "pwm"  # tuple of int µs, the first channels
    TIMESTAMP = "timestamp"  # float, s
    RC = "rc"  # tuple of float or None (rc_1..), or None for no "rc" object
    COPTER_ID = "copter_id"  # int
    CHECKSUM = "checksum"  # int
    NO_CHECKSUM_TG = "no_checksum_tg"  # int: no checksum, this tg field instead
    TIME = "time"  # float, s
    TARGET_ID = "target_id"  # int
    PACKET = "packet"  # str, the RflySim packet name
    LENGTH = "length"  # int, bytes
    DECODED = "decoded"  # bool
    SEQUENCE = "sequence"  # int
    CONTROL = "control"  # int
    BLOCKS = "blocks"  # (tuple of (block kind, number or None), total number of blocks)


FieldValue = str | int | float | bool | tuple[object, ...] | None


@dataclass(frozen=True)
class FrameSummary:
    """Key fields of the last decoded frame, as plain values bounded in size.

    ``kind`` names the frame class (e.g. ``"servo16"``, ``"json-state"``, ``"rflysim-sil"``,
    ``"xrp"``); ``fields`` are (key, value) pairs in display order; ``warnings`` are the first of
    the decoder's warnings (such as the SITL JSON parser pitfalls), each cut to a bounded length,
    and ``more_warnings`` how many more it gave.
    """

    kind: str
    fields: tuple[tuple[str, FieldValue], ...] = ()
    warnings: tuple[str, ...] = ()
    more_warnings: int = 0


@dataclass(frozen=True)
class OrderCounts:
    """The order checks of one direction; which of them a protocol has is the protocol table's
    ``Bookkeeping`` (the others stay 0)."""

    # RflySim: datagrams whose checksum did not match.
    checksum_failures: int = 0
    # ArduPilot SITL servo packets: frame_count repeated, skipped ahead, or started again.
    frame_repeats: int = 0
    frame_gaps: int = 0
    frame_resets: int = 0
    # XRP: sequence numbers skipped ahead, or behind the last one.
    sequence_gaps: int = 0
    stale_sequences: int = 0

    def plus_one(self, name: str) -> OrderCounts:
        return replace(self, **{name: getattr(self, name) + 1})


@dataclass(frozen=True)
class LoopCounts:
    """Datagrams a relay forwarded to its target that came back to its listen socket (a loop).

    ``returned`` counts every return recognised (``sim_bridge.loop_guard``), ``held_back`` those
    not forwarded because their loop was cut, ``loops_cut`` how often a loop was cut.  The last
    cut loop is named by where its datagrams came back from and the target they had been
    forwarded to (``host:port``).
    """

    returned: int = 0
    held_back: int = 0
    loops_cut: int = 0
    came_back_from: str | None = None
    sent_to: str | None = None


@dataclass(frozen=True)
class DirectionSnapshot:
    """Counters for one direction of one link."""

    direction: Direction
    # Every datagram received in this direction, unexpected senders' included.
    packets: int = 0
    bytes: int = 0
    packets_per_s: float = 0.0
    bytes_per_s: float = 0.0
    # (reason key, count) pairs, most frequent first: the header checks of every datagram from the
    # expected sender, plus content errors found in the frames decoded for display.
    decode_errors: tuple[tuple[str, int], ...] = ()
    order: OrderCounts = OrderCounts()
    last_frame: FrameSummary | None = None
    last_sender: str | None = None
    last_packet_age_s: float | None = None
    senders_seen: int = 0

    @property
    def decode_error_total(self) -> int:
        return sum(count for _reason, count in self.decode_errors)

    @property
    def multiple_senders(self) -> bool:
        return self.senders_seen > 1


@dataclass(frozen=True)
class LinkSnapshot:
    """One relay (or listen-only tap) and both of its directions."""

    name: str
    protocol: str  # "ardupilot-json", "rflysim", "xrp", or "auto" before detection
    detected_protocol: str | None
    listen: str  # "host:port"
    target: str | None  # None in listen-only mode
    peer: str | None  # the learned return peer, "host:port"
    listen_only: bool
    from_peer: DirectionSnapshot
    from_target: DirectionSnapshot
    unexpected_senders: int = 0
    dropped_captures: int = 0  # records lost because the capture ring was full
    # (reason key, count) pairs, most frequent first: e.g. ICMP port unreachable, oversize.
    relay_errors: tuple[tuple[str, int], ...] = ()
    running: bool = True
    loop: LoopCounts = LoopCounts()


@dataclass(frozen=True)
class BridgeSnapshot:
    """All links at one instant of the monitor's clock."""

    links: tuple[LinkSnapshot, ...] = ()
    now: float = 0.0

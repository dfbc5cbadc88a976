# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turn the relays' capture rings into immutable per-link traffic snapshots.

Each ``poll()`` drains at most ``max_records_per_tick`` records in total (shared fairly across the
relays), decodes them with the sans-IO codecs and folds them into fixed-size per-direction
state: counters, a bucketed sliding rate window on the injected clock, bounded error tallies,
SITL frame_count and XRP sequence bookkeeping, and the last decoded frame.  Only that last frame
is formatted, and only when a snapshot is built, so per-tick work stays proportional to the
records drained and per-link memory stays constant however long the link runs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge import ardupilot_json, rflysim, xrp
from amc_rc_receiver.sim_bridge.capture_ring import CaptureRecord
from amc_rc_receiver.sim_bridge.detect import (
    ARDUPILOT_JSON,
    AUTO,
    RFLYSIM,
    XRP,
    detect_protocol,
    looks_like_json,
)
from amc_rc_receiver.sim_bridge.errors import CodecError
from amc_rc_receiver.sim_bridge.relay import (
    REASON_EMPTY,
    REASON_INTERNAL,
    REASON_OVERSIZE,
    REASON_PORT_UNREACHABLE,
    REASON_RECEIVE_FAILED,
    REASON_SEND_FAILED,
    UdpRelay,
    format_address,
)
from amc_rc_receiver.sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    FrameSummary,
    LinkSnapshot,
)

# Monitor-side reason keys (codec reasons come from CodecError.reason).
REASON_UNRECOGNISED = "unrecognised"
REASON_CAPTURE_TRUNCATED = "capture-truncated"
REASON_DECODER_FAULT = "decoder-fault"
_REASON_OTHER = "other"
_REASON_NO_PEER = "no-peer"
_REASON_TRUNCATED_CAPTURES = "truncated-captures"

# Distinct error reasons remembered per direction; anything beyond is lumped into "other".
_MAX_REASONS = 32
# Distinct senders remembered per direction; the count saturates there.
MAX_SENDERS_TRACKED = 32
# SITL frame_count is uint32; a drop from near the top to near zero is a wrap, not a restart.
_FRAME_COUNT_MODULUS = 1 << 32
_FRAME_COUNT_WRAP_SLACK = 1 << 16
# XRP sequence numbers are uint16 and compared with serial-number arithmetic.
_SEQ_MODULUS = 1 << 16
_SEQ_HALF = 1 << 15
# After this many stale XRP datagrams in a row the sender has restarted; follow its new count.
_STALE_RESYNC = 3
_PWM_SHOWN = 8


def reason_label(reason: str) -> str:
    """A person's words for a codec or relay reason key (unknown keys are shown readably)."""
    labels = {
        "length": _("wrong length"),
        "magic": _("wrong magic"),
        "checksum": _("bad checksum"),
        "truncated": _("truncated"),
        "trailing-bytes": _("trailing bytes"),
        "json": _("invalid JSON"),
        "missing-key": _("missing key"),
        "short-vector": _("short vector"),
        "long-vector": _("long vector"),
        "encoding": _("not UTF-8 text"),
        "number": _("bad number"),
        "type": _("wrong value type"),
        "block-overrun": _("block runs past the end"),
        "block-size": _("wrong block size"),
        "size-zero": _("block size zero"),
        "empty": _("empty datagram"),
        "length-field": _("wrong length field"),
        "value": _("value out of range"),
        REASON_UNRECOGNISED: _("unrecognised content"),
        REASON_CAPTURE_TRUNCATED: _("too large to decode (capture truncated)"),
        REASON_DECODER_FAULT: _("decoder fault"),
        _REASON_OTHER: _("other"),
        REASON_PORT_UNREACHABLE: _("ICMP port unreachable"),
        REASON_OVERSIZE: _("oversize datagram"),
        REASON_EMPTY: _("empty datagram"),
        REASON_SEND_FAILED: _("send failed"),
        REASON_RECEIVE_FAILED: _("receive failed"),
        REASON_INTERNAL: _("internal relay error"),
        _REASON_NO_PEER: _("reply before any peer"),
        _REASON_TRUNCATED_CAPTURES: _("captures truncated"),
    }
    return labels.get(reason, reason.replace("-", " "))


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

    def rates(self, now: float) -> tuple[float, float]:
        position = now / self._width
        newest = math.floor(position)
        edge_weight = 1.0 - (position - newest)
        packets = 0.0
        size = 0.0
        for slot, index in enumerate(self._index):
            if index is None:
                continue
            age = newest - index
            if age < self._buckets:
                weight = 1.0  # includes records stamped slightly after ``now``
            elif age == self._buckets:
                weight = edge_weight
            else:
                continue
            packets += weight * self._packets[slot]
            size += weight * self._bytes[slot]
        return packets / self._window, size / self._window


class _DirectionState:
    """Everything the monitor remembers about one direction of one link; constant size."""

    def __init__(self, direction: Direction, rate_window_s: float) -> None:
        self.direction = direction
        self.packets = 0
        self.bytes = 0
        self.rate = RateWindow(rate_window_s)
        self.errors: dict[str, int] = {}
        self.checksum_failures = 0
        self.frame_repeats = 0
        self.frame_gaps = 0
        self.frame_resets = 0
        self.last_frame_count: int | None = None
        self.sequence_gaps = 0
        self.stale_sequences = 0
        self.last_sequence: int | None = None
        self.stale_run = 0
        self.last_frame: object | None = None
        self.summary: FrameSummary | None = None
        self.summary_stale = False
        self.last_sender: tuple[str, int] | None = None
        self.last_timestamp: float | None = None
        self.senders: set[tuple[str, int]] = set()

    def count_error(self, reason: str) -> None:
        if reason not in self.errors and len(self.errors) >= _MAX_REASONS:
            reason = _REASON_OTHER
        self.errors[reason] = self.errors.get(reason, 0) + 1

    def see(self, record: CaptureRecord) -> None:
        size = record.length
        self.packets += 1
        self.bytes += size
        self.rate.add(record.timestamp, size)
        self.last_sender = record.source
        self.last_timestamp = record.timestamp
        if len(self.senders) < MAX_SENDERS_TRACKED:
            self.senders.add(record.source)

    def frame_count(self, count: int) -> None:
        last = self.last_frame_count
        self.last_frame_count = count
        if last is None:
            return
        if count == last:
            self.frame_repeats += 1
        elif count < last:
            wrapped = (
                last >= _FRAME_COUNT_MODULUS - _FRAME_COUNT_WRAP_SLACK and count < _FRAME_COUNT_WRAP_SLACK
            )
            if not wrapped:
                self.frame_resets += 1
            elif (count - last) % _FRAME_COUNT_MODULUS != 1:
                self.frame_gaps += 1
        elif count != last + 1:
            self.frame_gaps += 1

    def sequence(self, sequence: int) -> None:
        last = self.last_sequence
        if last is None:
            self.last_sequence = sequence
            return
        ahead = (sequence - last) % _SEQ_MODULUS
        if ahead == 0 or ahead >= _SEQ_HALF:
            self.stale_sequences += 1
            self.stale_run += 1
            if self.stale_run >= _STALE_RESYNC:
                self.last_sequence = sequence
                self.stale_run = 0
            return
        self.stale_run = 0
        if ahead != 1:
            self.sequence_gaps += 1
        self.last_sequence = sequence

    def frame(self, frame: object) -> None:
        self.last_frame = frame
        self.summary_stale = True

    def snapshot(self, now: float) -> DirectionSnapshot:
        if self.summary_stale:
            self.summary = summarise(self.last_frame)
            self.summary_stale = False
        packets_per_s, bytes_per_s = self.rate.rates(now)
        errors = tuple(
            (reason_label(reason), count)
            for reason, count in sorted(self.errors.items(), key=lambda item: (-item[1], item[0]))
        )
        return DirectionSnapshot(
            direction=self.direction,
            packets=self.packets,
            bytes=self.bytes,
            packets_per_s=packets_per_s,
            bytes_per_s=bytes_per_s,
            decode_errors=errors,
            checksum_failures=self.checksum_failures,
            frame_repeats=self.frame_repeats,
            frame_gaps=self.frame_gaps,
            frame_resets=self.frame_resets,
            sequence_gaps=self.sequence_gaps,
            stale_sequences=self.stale_sequences,
            last_frame=self.summary,
            last_sender=format_address(self.last_sender),
            last_packet_age_s=None if self.last_timestamp is None else max(0.0, now - self.last_timestamp),
            senders_seen=len(self.senders),
        )


class _LinkState:
    def __init__(self, relay: UdpRelay, rate_window_s: float) -> None:
        self.relay = relay
        self.protocol = relay.config.protocol
        self.detected: str | None = None if self.protocol == AUTO else self.protocol
        self.listen_only = relay.config.target is None
        self.directions = {
            Direction.FROM_PEER: _DirectionState(Direction.FROM_PEER, rate_window_s),
            Direction.FROM_TARGET: _DirectionState(Direction.FROM_TARGET, rate_window_s),
        }

    def ingest(self, record: CaptureRecord) -> None:
        state = self.directions[record.direction]
        state.see(record)
        if record.truncated:
            state.count_error(REASON_CAPTURE_TRUNCATED)
            return
        protocol = self.protocol
        if protocol == AUTO:
            found = detect_protocol(record.data)
            if found is None:
                state.count_error(REASON_UNRECOGNISED)
                return
            protocol = self.detected = found
        # Frame and sequence bookkeeping follows the traffic the relay passed on, so a stray
        # sender's counter cannot fake gaps or resets; a listen-only tap passes nothing on.
        track = record.forwarded or self.listen_only
        try:
            self._decode(state, protocol, record.data, track)
        except CodecError as error:
            state.count_error(error.reason)
            if error.reason == "checksum":
                state.checksum_failures += 1
        except Exception:  # a decoder bug must not take the panel down with it
            state.count_error(REASON_DECODER_FAULT)

    @staticmethod
    def _decode(state: _DirectionState, protocol: str, data: bytes, track: bool) -> None:
        if protocol == ARDUPILOT_JSON:
            if looks_like_json(data):
                state.frame(ardupilot_json.decode_state(data))
                return
            servo = ardupilot_json.decode_servo_packet(data)
            if track:
                state.frame_count(servo.frame_count)
            state.frame(servo)
        elif protocol == XRP:
            packet = xrp.decode(data)
            if track:
                state.sequence(packet.sequence)
            state.frame(packet)
        elif protocol == RFLYSIM:
            state.frame(rflysim.decode(data))

    def snapshot(self, now: float) -> LinkSnapshot:
        relay = self.relay
        counters = relay.counters()
        relay_errors = dict(counters.errors)
        if counters.replies_without_peer:
            relay_errors[_REASON_NO_PEER] = counters.replies_without_peer
        if counters.truncated_captures:
            relay_errors[_REASON_TRUNCATED_CAPTURES] = counters.truncated_captures
        target = relay.target_address
        return LinkSnapshot(
            name=relay.config.name,
            protocol=self.protocol,
            detected_protocol=self.detected,
            listen=format_address(relay.listen_address) or "",
            target=format_address(target),
            peer=format_address(relay.peer),
            listen_only=target is None,
            from_peer=self.directions[Direction.FROM_PEER].snapshot(now),
            from_target=self.directions[Direction.FROM_TARGET].snapshot(now),
            unexpected_senders=counters.unexpected_senders,
            dropped_captures=counters.dropped_captures,
            relay_errors=tuple(
                (reason_label(reason), count)
                for reason, count in sorted(relay_errors.items(), key=lambda item: (-item[1], item[0]))
            ),
            running=relay.running,
        )


class BridgeMonitor:
    """Drain, decode and count the traffic of several relays; hand out immutable snapshots."""

    def __init__(
        self,
        relays: Sequence[UdpRelay],
        clock: Callable[[], float] = time.monotonic,
        max_records_per_tick: int = 2000,
        rate_window_s: float = 1.0,
    ) -> None:
        if max_records_per_tick < 1:
            raise ValueError("max_records_per_tick must be at least 1")
        self._links = [_LinkState(relay, rate_window_s) for relay in relays]
        self._clock = clock
        self._per_relay = math.ceil(max_records_per_tick / max(1, len(self._links)))
        self._snapshot = self._build(clock())

    @property
    def snapshot(self) -> BridgeSnapshot:
        """The snapshot made by the last poll() (an empty-traffic one before the first)."""
        return self._snapshot

    def poll(self) -> BridgeSnapshot:
        """Drain a bounded number of records from every relay, decode them, return a fresh snapshot."""
        for link in self._links:
            for record in link.relay.drain(self._per_relay):
                link.ingest(record)
        self._snapshot = self._build(self._clock())
        return self._snapshot

    def _build(self, now: float) -> BridgeSnapshot:
        return BridgeSnapshot(links=tuple(link.snapshot(now) for link in self._links), now=now)


# --------------------------------------------------------------------------- frame summaries


def summarise(frame: object) -> FrameSummary | None:
    """Display fields for a decoded frame of any supported protocol (None for nothing yet)."""
    if isinstance(frame, ardupilot_json.ServoPacket):
        return _summarise_servo(frame)
    if isinstance(frame, ardupilot_json.FdmState):
        return _summarise_state(frame)
    if isinstance(frame, xrp.XrpPacket):
        return _summarise_xrp(frame)
    if isinstance(frame, rflysim.SilIntFloat):
        return FrameSummary(
            "rflysim-sil",
            ((_("copter id"), str(frame.copter_id)), (_("checksum"), str(frame.checksum))),
        )
    if isinstance(frame, rflysim.TrueState):
        return FrameSummary(
            "rflysim-true-state",
            (
                (_("copter id"), str(frame.copter_id)),
                (_("checksum"), str(rflysim.TRUE_STATE_CHECKSUM)),
                (_("time"), _("{seconds:.3f} s").format(seconds=frame.runned_time)),
            ),
        )
    if isinstance(frame, rflysim.NetDataShort):
        return FrameSummary(
            "rflysim-net-data-short",
            (
                (_("copter id"), str(frame.copter_id)),
                (_("checksum"), _("none (tg {tg})").format(tg=frame.tg)),
                (_("time"), _("{seconds:.3f} s").format(seconds=frame.runned_time)),
            ),
        )
    return None


def _summarise_servo(packet: ardupilot_json.ServoPacket) -> FrameSummary:
    return FrameSummary(
        f"servo{len(packet.pwm)}",
        (
            (_("frame count"), str(packet.frame_count)),
            (_("frame rate"), _("{rate} Hz").format(rate=packet.frame_rate)),
            (_("PWM 1-8"), " ".join(str(pwm) for pwm in packet.pwm[:_PWM_SHOWN])),
        ),
    )


def _summarise_state(state: ardupilot_json.FdmState) -> FrameSummary:
    if state.rc is None:
        rc_text = _("none")
    else:
        rc_text = " ".join("-" if value is None else f"{value:g}" for value in state.rc)
    return FrameSummary(
        "json-state",
        (
            (_("timestamp"), _("{seconds:.3f} s").format(seconds=state.timestamp)),
            (_("RC channels"), rc_text),
        ),
        warnings=tuple(state.warnings),
    )


def _block_label(block: xrp.XrpBlock) -> str:
    if isinstance(block, xrp.MotorBlock):
        return _("motor {id}").format(id=block.id)
    if isinstance(block, xrp.ServoBlock):
        return _("servo {id}").format(id=block.id)
    if isinstance(block, xrp.DioBlock):
        return _("DIO {channel}").format(channel=block.channel)
    if isinstance(block, xrp.AnalogBlock):
        return _("analog {id}").format(id=block.id)
    if isinstance(block, xrp.GyroBlock):
        return _("gyro")
    if isinstance(block, xrp.AccelBlock):
        return _("accel")
    if isinstance(block, xrp.EncoderBlock):
        return _("encoder {id}").format(id=block.id)
    return _("tag 0x{tag:02X}").format(tag=block.tag)


def _summarise_xrp(packet: xrp.XrpPacket) -> FrameSummary:
    blocks = ", ".join(_block_label(block) for block in packet.blocks) or _("none")
    return FrameSummary(
        "xrp",
        (
            (_("sequence"), str(packet.sequence)),
            (_("control"), str(packet.control)),
            (_("blocks"), blocks),
        ),
    )

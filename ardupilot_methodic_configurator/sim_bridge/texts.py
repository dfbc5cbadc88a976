# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The words for a bridge snapshot, shared by the window's bridge panel and the terminal view.

The monitor's snapshots carry keys and plain values (``sim_bridge.snapshot``); this module is
the one place that turns them into text: reason keys into a person's words, a frame summary's
keyed fields into ``label=value`` pairs, the order-check counts a protocol has into a sentence.
Unknown keys are shown readably rather than hidden, so a new reason or field is never lost.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _
from .frame_summary import (
    BLOCK_ACCEL,
    BLOCK_ANALOG,
    BLOCK_DIO,
    BLOCK_ENCODER,
    BLOCK_GYRO,
    BLOCK_MOTOR,
    BLOCK_SERVO,
)
from .protocols.triage import REASON_DECODER_FAULT, REASON_UNRECOGNISED
from .relay_counters import (
    REASON_EMPTY,
    REASON_INTERNAL,
    REASON_OVERSIZE,
    REASON_PORT_UNREACHABLE,
    REASON_RECEIVE_FAILED,
    REASON_SEND_FAILED,
)
from .snapshot import (
    REASON_MONITOR_FAULT,
    REASON_NO_PEER,
    REASON_TRUNCATED_CAPTURES,
    DirectionSnapshot,
    FieldValue,
    FrameField,
    FrameSummary,
    LinkSnapshot,
    LoopCounts,
)
from .traffic import REASON_OTHER

# Translated when shown, not at import: each entry is called for the one reason a view shows.
_REASON_LABELS: dict[str, Callable[[], str]] = {
    "length": lambda: _("wrong length"),
    "magic": lambda: _("wrong magic"),
    "checksum": lambda: _("bad checksum"),
    "truncated": lambda: _("truncated"),
    "trailing-bytes": lambda: _("trailing bytes"),
    "json": lambda: _("invalid JSON"),
    "missing-key": lambda: _("missing key"),
    "short-vector": lambda: _("short vector"),
    "long-vector": lambda: _("long vector"),
    "encoding": lambda: _("not UTF-8 text"),
    "number": lambda: _("bad number"),
    "type": lambda: _("wrong value type"),
    "block-overrun": lambda: _("block runs past the end"),
    "block-size": lambda: _("wrong block size"),
    "size-zero": lambda: _("block size zero"),
    "empty": lambda: _("empty datagram"),
    "length-field": lambda: _("wrong length field"),
    "value": lambda: _("value out of range"),
    REASON_UNRECOGNISED: lambda: _("unrecognised content"),
    REASON_DECODER_FAULT: lambda: _("decoder fault"),
    REASON_MONITOR_FAULT: lambda: _("monitor fault"),
    REASON_OTHER: lambda: _("other"),
    REASON_PORT_UNREACHABLE: lambda: _("ICMP port unreachable"),
    REASON_OVERSIZE: lambda: _("oversize datagram"),
    REASON_EMPTY: lambda: _("empty datagram"),
    REASON_SEND_FAILED: lambda: _("send failed"),
    REASON_RECEIVE_FAILED: lambda: _("receive failed"),
    REASON_INTERNAL: lambda: _("internal relay error"),
    REASON_NO_PEER: lambda: _("reply before any peer"),
    REASON_TRUNCATED_CAPTURES: lambda: _("captures truncated"),
}


def reason_label(reason: str) -> str:
    """A person's words for a codec, relay or monitor reason key (unknown keys are shown readably)."""
    label = _REASON_LABELS.get(reason)
    return reason.replace("-", " ") if label is None else label()


def count_parts(pairs: tuple[tuple[str, int], ...]) -> list[str]:
    """``reason ×count`` for each (reason key, count) pair, in the given order."""
    return [
        _("{reason} ×{count}").format(reason=reason_label(reason), count=count) for reason, count in pairs
    ]


def counts_text(pairs: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(count_parts(pairs))


def loop_text(loop: LoopCounts) -> str:
    """What a link says of the loop it cut, naming where the datagrams came back from; "" if none."""
    if not loop.loops_cut:
        return ""
    return _("loop cut: what it sent to {target} came back from {sender}; held back: {held}").format(
        target=loop.sent_to, sender=loop.came_back_from, held=loop.held_back
    )


_FIELD_LABELS: dict[str, Callable[[], str]] = {
    FrameField.FRAME_COUNT: lambda: _("frame count"),
    FrameField.FRAME_RATE: lambda: _("frame rate"),
    FrameField.PWM: lambda: _("PWM 1-8"),
    FrameField.TIMESTAMP: lambda: _("timestamp"),
    FrameField.RC: lambda: _("RC channels"),
    FrameField.COPTER_ID: lambda: _("copter id"),
    FrameField.CHECKSUM: lambda: _("checksum"),
    FrameField.NO_CHECKSUM_TG: lambda: _("checksum"),
    FrameField.TIME: lambda: _("time"),
    FrameField.TARGET_ID: lambda: _("target"),
    FrameField.PACKET: lambda: _("packet"),
    FrameField.LENGTH: lambda: _("length"),
    FrameField.DECODED: lambda: _("decoded"),
    FrameField.SEQUENCE: lambda: _("sequence"),
    FrameField.CONTROL: lambda: _("control"),
    FrameField.BLOCKS: lambda: _("blocks"),
}


def _seconds(value: FieldValue) -> str:
    return _("{seconds:.3f} s").format(seconds=value)


def _rc(value: FieldValue) -> str:
    if not isinstance(value, tuple):
        return _("none")
    return " ".join("-" if channel is None else f"{channel:g}" for channel in value)


def _block_label(kind: object, number: object) -> str:
    labels: dict[str, Callable[[], str]] = {
        BLOCK_MOTOR: lambda: _("motor {id}").format(id=number),
        BLOCK_SERVO: lambda: _("servo {id}").format(id=number),
        BLOCK_DIO: lambda: _("DIO {channel}").format(channel=number),
        BLOCK_ANALOG: lambda: _("analog {id}").format(id=number),
        BLOCK_GYRO: lambda: _("gyro"),
        BLOCK_ACCEL: lambda: _("accel"),
        BLOCK_ENCODER: lambda: _("encoder {id}").format(id=number),
    }
    label = labels.get(str(kind))
    if label is not None:
        return label()
    return _("tag 0x{tag:02X}").format(tag=number if isinstance(number, int) else 0)


def _blocks(value: FieldValue) -> str:
    shown, total = value if isinstance(value, tuple) and len(value) == 2 else ((), 0)
    blocks = list(shown) if isinstance(shown, tuple) else []
    text = ", ".join(_block_label(*block) for block in blocks) or _("none")
    if isinstance(total, int) and total > len(blocks):
        text = _("{blocks} and {count} more").format(blocks=text, count=total - len(blocks))
    return text


def _pwm(value: FieldValue) -> str:
    return " ".join(str(pwm) for pwm in value) if isinstance(value, tuple) else str(value)


def _decoded(value: FieldValue) -> str:
    return _("yes") if value else _("no: its values mean what the user's model makes of them")


_FIELD_FORMATS: dict[str, Callable[[FieldValue], str]] = {
    FrameField.FRAME_RATE: lambda value: _("{rate} Hz").format(rate=value),
    FrameField.PWM: _pwm,
    FrameField.TIMESTAMP: _seconds,
    FrameField.TIME: _seconds,
    FrameField.RC: _rc,
    FrameField.NO_CHECKSUM_TG: lambda value: _("none (tg {tg})").format(tg=value),
    FrameField.DECODED: _decoded,
    FrameField.BLOCKS: _blocks,
}


def field_text(key: str, value: FieldValue) -> str:
    """The value of one frame field in words; a value of an unknown field as it is."""
    shown = _FIELD_FORMATS.get(key)
    return str(value) if shown is None else shown(value)


def frame_fields(summary: FrameSummary) -> list[tuple[str, str]]:
    """(label, value) pairs of a summary's fields, in display order."""
    return [
        (label() if (label := _FIELD_LABELS.get(key)) is not None else key, field_text(key, value))
        for key, value in summary.fields
    ]


def frame_text(summary: FrameSummary) -> str:
    """``kind: label=value, ...``, or the kind alone for a frame without fields."""
    fields = ", ".join(
        _("{label}={value}").format(label=label, value=value) for label, value in frame_fields(summary)
    )
    return summary.kind + (": " + fields if fields else "")


def frame_warnings(summary: FrameSummary) -> list[str]:
    """The summary's warnings, and how many more the decoder gave."""
    warnings = list(summary.warnings)
    if summary.more_warnings:
        warnings.append(_("and {count} more warnings").format(count=summary.more_warnings))
    return warnings


# Sentences of the terminal's bridge lines


def direction_summary_text(direction: DirectionSnapshot, arrow: str) -> str:
    text = _("{arrow} {packets} pkts {rate:.1f}/s {bps:.0f} B/s, {errors} decode errors").format(
        arrow=arrow,
        packets=direction.packets,
        rate=direction.packets_per_s,
        bps=direction.bytes_per_s,
        errors=direction.decode_error_total,
    )
    if direction.decode_errors:
        text += " (" + counts_text(direction.decode_errors) + ")"
    extras = []
    order = direction.order
    if order.frame_repeats or order.frame_gaps or order.frame_resets:
        extras.append(
            _("frames: {repeats} repeats, {gaps} gaps, {resets} resets").format(
                repeats=order.frame_repeats, gaps=order.frame_gaps, resets=order.frame_resets
            )
        )
    if order.sequence_gaps or order.stale_sequences:
        extras.append(
            _("sequence: {gaps} gaps, {stale} stale").format(
                gaps=order.sequence_gaps, stale=order.stale_sequences
            )
        )
    if order.checksum_failures:
        extras.append(_("{count} checksum failures").format(count=order.checksum_failures))
    if extras:
        text += " (" + "; ".join(extras) + ")"
    return text


def link_problems_texts(link: LinkSnapshot) -> list[str]:
    """The link-level problems of a terminal's bridge line: a loop cut, relay errors, drops, strangers."""
    problems = []
    loop = loop_text(link.loop)
    if loop:
        problems.append(loop)
    if link.relay_errors:
        problems.append(_("relay: {errors}").format(errors=counts_text(link.relay_errors)))
    if link.dropped_captures:
        problems.append(_("{count} captures dropped").format(count=link.dropped_captures))
    if link.unexpected_senders:
        problems.append(_("unexpected senders: {count}").format(count=link.unexpected_senders))
    return problems


def link_summary_text(link: LinkSnapshot) -> str:
    """One link on one terminal line: both directions' traffic, then its problems."""
    protocol = link.detected_protocol or link.protocol
    text = _("bridge {name} [{protocol}]: {from_peer}; {from_target}").format(
        name=link.name,
        protocol=protocol,
        from_peer=direction_summary_text(link.from_peer, "->"),
        from_target=direction_summary_text(link.from_target, "<-"),
    )
    problems = link_problems_texts(link)
    if problems:
        text += " | " + "; ".join(problems)
    return text


def loop_cut_text(link: LinkSnapshot) -> str:
    return _("Bridge {name}: {loop}").format(name=link.name, loop=loop_text(link.loop))

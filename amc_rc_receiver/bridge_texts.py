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

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge.frame_summary import (
    BLOCK_ACCEL,
    BLOCK_ANALOG,
    BLOCK_DIO,
    BLOCK_ENCODER,
    BLOCK_GYRO,
    BLOCK_MOTOR,
    BLOCK_SERVO,
)
from amc_rc_receiver.sim_bridge.relay_counters import (
    REASON_EMPTY,
    REASON_INTERNAL,
    REASON_OVERSIZE,
    REASON_PORT_UNREACHABLE,
    REASON_RECEIVE_FAILED,
    REASON_SEND_FAILED,
)
from amc_rc_receiver.sim_bridge.snapshot import (
    REASON_MONITOR_FAULT,
    REASON_NO_PEER,
    REASON_TRUNCATED_CAPTURES,
    FieldValue,
    FrameField,
    FrameSummary,
)
from amc_rc_receiver.sim_bridge.traffic import REASON_OTHER
from amc_rc_receiver.sim_bridge.triage import REASON_DECODER_FAULT, REASON_UNRECOGNISED


def reason_label(reason: str) -> str:
    """A person's words for a codec, relay or monitor reason key (unknown keys are shown readably)."""
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
        REASON_DECODER_FAULT: _("decoder fault"),
        REASON_MONITOR_FAULT: _("monitor fault"),
        REASON_OTHER: _("other"),
        REASON_PORT_UNREACHABLE: _("ICMP port unreachable"),
        REASON_OVERSIZE: _("oversize datagram"),
        REASON_EMPTY: _("empty datagram"),
        REASON_SEND_FAILED: _("send failed"),
        REASON_RECEIVE_FAILED: _("receive failed"),
        REASON_INTERNAL: _("internal relay error"),
        REASON_NO_PEER: _("reply before any peer"),
        REASON_TRUNCATED_CAPTURES: _("captures truncated"),
    }
    return labels.get(reason, reason.replace("-", " "))


def count_parts(pairs: tuple[tuple[str, int], ...]) -> list[str]:
    """``reason ×count`` for each (reason key, count) pair, in the given order."""
    return [
        _("{reason} ×{count}").format(reason=reason_label(reason), count=count) for reason, count in pairs
    ]


def counts_text(pairs: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(count_parts(pairs))


def _field_labels() -> dict[str, str]:
    return {
        FrameField.FRAME_COUNT: _("frame count"),
        FrameField.FRAME_RATE: _("frame rate"),
        FrameField.PWM: _("PWM 1-8"),
        FrameField.TIMESTAMP: _("timestamp"),
        FrameField.RC: _("RC channels"),
        FrameField.COPTER_ID: _("copter id"),
        FrameField.CHECKSUM: _("checksum"),
        FrameField.NO_CHECKSUM_TG: _("checksum"),
        FrameField.TIME: _("time"),
        FrameField.TARGET_ID: _("target"),
        FrameField.PACKET: _("packet"),
        FrameField.LENGTH: _("length"),
        FrameField.DECODED: _("decoded"),
        FrameField.SEQUENCE: _("sequence"),
        FrameField.CONTROL: _("control"),
        FrameField.BLOCKS: _("blocks"),
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


def field_text(key: str, value: FieldValue) -> str:
    """The value of one frame field in words; a value of an unknown field as it is."""
    formats: dict[str, Callable[[], str]] = {
        FrameField.FRAME_RATE: lambda: _("{rate} Hz").format(rate=value),
        FrameField.PWM: lambda: (
            " ".join(str(pwm) for pwm in value) if isinstance(value, tuple) else str(value)
        ),
        FrameField.TIMESTAMP: lambda: _seconds(value),
        FrameField.TIME: lambda: _seconds(value),
        FrameField.RC: lambda: _rc(value),
        FrameField.NO_CHECKSUM_TG: lambda: _("none (tg {tg})").format(tg=value),
        FrameField.DECODED: lambda: (
            _("yes") if value else _("no: its values mean what the user's model makes of them")
        ),
        FrameField.BLOCKS: lambda: _blocks(value),
    }
    shown = formats.get(key)
    return str(value) if shown is None else shown()


def frame_fields(summary: FrameSummary) -> list[tuple[str, str]]:
    """(label, value) pairs of a summary's fields, in display order."""
    labels = _field_labels()
    return [(labels.get(key, key), field_text(key, value)) for key, value in summary.fields]


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

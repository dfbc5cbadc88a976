# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The key fields of a decoded frame of any bridge protocol, as plain values bounded in size.

A summary is what the monitor keeps of the newest frame of each direction, so it must stay
small whatever the datagram held: at most ``PWM_SHOWN`` PWM values, ``WARNINGS_SHOWN`` warnings
of at most ``WARNING_CHARS`` characters each, and ``BLOCKS_SHOWN`` XRP blocks, each list with the
count of what was left out.  The values carry no wording; the views format them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .protocols import ardupilot_json, rflysim, xrp
from .protocols.sitl_servo_packet import ServoPacket
from .snapshot import FrameField, FrameSummary

PWM_SHOWN = 8
WARNINGS_SHOWN = 5
WARNING_CHARS = 240
BLOCKS_SHOWN = 12

# XRP block kinds, as FrameField.BLOCKS names them.
BLOCK_MOTOR = "motor"
BLOCK_SERVO = "servo"
BLOCK_DIO = "dio"
BLOCK_ANALOG = "analog"
BLOCK_GYRO = "gyro"
BLOCK_ACCEL = "accel"
BLOCK_ENCODER = "encoder"
BLOCK_TAG = "tag"  # a block of a tag the codec keeps verbatim; its number is the tag


def summarise(frame: object) -> FrameSummary | None:
    """Key fields of a decoded frame of any supported protocol (None for nothing yet)."""
    if isinstance(frame, ServoPacket):
        return FrameSummary(
            f"servo{len(frame.pwm)}",
            (
                (FrameField.FRAME_COUNT, frame.frame_count),
                (FrameField.FRAME_RATE, frame.frame_rate),
                (FrameField.PWM, frame.pwm[:PWM_SHOWN]),
            ),
        )
    if isinstance(frame, ardupilot_json.FdmState):
        return _summarise_state(frame)
    if isinstance(frame, xrp.XrpPacket):
        return _summarise_xrp(frame)
    return _summarise_rflysim(frame)


def _summarise_state(state: ardupilot_json.FdmState) -> FrameSummary:
    warnings = state.warnings
    return FrameSummary(
        "json-state",
        ((FrameField.TIMESTAMP, state.timestamp), (FrameField.RC, state.rc)),
        warnings=_bounded(warnings),
        more_warnings=max(0, len(warnings) - WARNINGS_SHOWN),
    )


def _bounded(warnings: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        warning if len(warning) <= WARNING_CHARS else warning[: WARNING_CHARS - 1] + "…"
        for warning in warnings[:WARNINGS_SHOWN]
    )


def _block(block: xrp.XrpBlock) -> tuple[str, int | None]:
    if isinstance(block, xrp.MotorBlock):
        return BLOCK_MOTOR, block.id
    if isinstance(block, xrp.ServoBlock):
        return BLOCK_SERVO, block.id
    if isinstance(block, xrp.DioBlock):
        return BLOCK_DIO, block.channel
    if isinstance(block, xrp.AnalogBlock):
        return BLOCK_ANALOG, block.id
    if isinstance(block, xrp.GyroBlock):
        return BLOCK_GYRO, None
    if isinstance(block, xrp.AccelBlock):
        return BLOCK_ACCEL, None
    if isinstance(block, xrp.EncoderBlock):
        return BLOCK_ENCODER, block.id
    return BLOCK_TAG, block.tag


def _summarise_xrp(packet: xrp.XrpPacket) -> FrameSummary:
    blocks = tuple(_block(block) for block in packet.blocks[:BLOCKS_SHOWN])
    return FrameSummary(
        "xrp",
        (
            (FrameField.SEQUENCE, packet.sequence),
            (FrameField.CONTROL, packet.control),
            (FrameField.BLOCKS, (blocks, len(packet.blocks))),
        ),
    )


def _summarise_rflysim(frame: object) -> FrameSummary | None:
    if isinstance(frame, rflysim.SilIntFloat):
        return FrameSummary(
            "rflysim-sil", ((FrameField.COPTER_ID, frame.copter_id), (FrameField.CHECKSUM, frame.checksum))
        )
    if isinstance(frame, rflysim.TrueState):
        return FrameSummary(
            "rflysim-true-state",
            (
                (FrameField.COPTER_ID, frame.copter_id),
                (FrameField.CHECKSUM, rflysim.TRUE_STATE_CHECKSUM),
                (FrameField.TIME, frame.runned_time),
            ),
        )
    if isinstance(frame, rflysim.NetDataShort):
        return FrameSummary(
            "rflysim-net-data-short",
            (
                (FrameField.COPTER_ID, frame.copter_id),
                (FrameField.NO_CHECKSUM_TG, frame.tg),
                (FrameField.TIME, frame.runned_time),
            ),
        )
    if isinstance(frame, rflysim.SimpleTimeState):
        return FrameSummary(
            "rflysim-simple-time",
            ((FrameField.COPTER_ID, frame.copter_id), (FrameField.TIME, frame.runned_time)),
        )
    if isinstance(frame, rflysim.OutCopterData | rflysim.GpsOrigin):
        kind = "rflysim-out-copter" if isinstance(frame, rflysim.OutCopterData) else "rflysim-gps-origin"
        return FrameSummary(kind, ((FrameField.COPTER_ID, frame.copter_id),))
    if isinstance(frame, rflysim.CrashReport):
        return FrameSummary(
            "rflysim-crash-report",
            ((FrameField.COPTER_ID, frame.copter_id), (FrameField.TARGET_ID, frame.target_id)),
        )
    if isinstance(frame, rflysim.RecognisedPacket):
        return FrameSummary(
            "rflysim",
            (
                (FrameField.PACKET, frame.name),
                (FrameField.LENGTH, frame.length),
                (FrameField.DECODED, False),
            ),
        )
    # A frame kind this monitor does not know yet is still shown by name rather than not at all.
    return None if frame is None else FrameSummary(type(frame).__name__)

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for the WPILib HAL XRP protocol: ``[u16 seq][u8 control]`` then tagged blocks.

Strategy: everything is big-endian.  The decoder walks the blocks once, bounds-checking every
size byte against the datagram before touching the payload (WPILib itself does not), and picks
each block's layout from a table keyed by (tag, size byte); a known tag with any other size is an
error, an unknown tag is kept verbatim as a ``RawBlock``.  The encoder uses the mirror table keyed
by block class, so ``encode(decode(b)) == b`` for every datagram ``decode`` accepts (float32
signalling NaNs excepted: Python's float conversion turns them quiet).
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ardupilot_methodic_configurator import _
from ardupilot_methodic_configurator.sim_bridge.errors import CodecError

PROTOCOL = "xrp"

TAG_MOTOR = 0x12
TAG_SERVO = 0x13
TAG_DIO = 0x14
TAG_ANALOG = 0x15
TAG_GYRO = 0x16
TAG_ACCEL = 0x17
TAG_ENCODER = 0x18

HEADER_LENGTH = 3


@dataclass(frozen=True)
class MotorBlock:
    """Tag 0x12, WPILib to XRP: motor ``id`` (0 left, 1 right, 2, 3) at ``value`` -1..1 (float32)."""

    id: int
    value: float


@dataclass(frozen=True)
class ServoBlock:
    """Tag 0x13, WPILib to XRP: servo ``id`` (4, 5, ...) at ``position`` 0..1 (float32)."""

    id: int
    position: float


@dataclass(frozen=True)
class DioBlock:
    """Tag 0x14, both ways: digital ``channel`` and ``value`` (WPILib reads only 1 as true)."""

    channel: int
    value: int


@dataclass(frozen=True)
class AnalogBlock:
    """Tag 0x15, XRP to WPILib: analog input ``id`` in ``volts`` (float32)."""

    id: int
    volts: float


@dataclass(frozen=True)
class GyroBlock:
    """Tag 0x16, XRP to WPILib: rates in deg/s and angles in deg (float32)."""

    rate_x: float
    rate_y: float
    rate_z: float
    angle_x: float
    angle_y: float
    angle_z: float


@dataclass(frozen=True)
class AccelBlock:
    """Tag 0x17, XRP to WPILib: acceleration in g (float32); current WPILib main ignores it."""

    x: float
    y: float
    z: float


@dataclass(frozen=True)
class EncoderBlock:
    """Tag 0x18, XRP to WPILib: encoder ``id`` and ``count``, optionally the period fields.

    The period is ``(period_numerator >> 1) / period_denominator`` seconds; the numerator's low
    bit is the direction (1 = forward).  Both period fields are present (size byte 14) or both
    are ``None`` (size byte 6).
    """

    id: int
    count: int
    period_numerator: int | None = None
    period_denominator: int | None = None


@dataclass(frozen=True)
class RawBlock:
    """A block with a tag this codec does not know, kept byte for byte."""

    tag: int
    payload: bytes


XrpBlock = MotorBlock | ServoBlock | DioBlock | AnalogBlock | GyroBlock | AccelBlock | EncoderBlock | RawBlock


@dataclass(frozen=True)
class XrpPacket:
    """One XRP datagram: 16-bit ``sequence``, ``control`` byte (1 = enabled from WPILib), blocks."""

    sequence: int
    control: int
    blocks: tuple[XrpBlock, ...] = ()


_HEADER = struct.Struct(">HB")

# Builders make a block from the flat tuple of a whole-datagram unpack, starting at ``index``.
_Builder = Callable[[tuple[Any, ...], int, int], XrpBlock]

# Frozen dataclasses pay one object.__setattr__ per field in __init__; builders fill the instance
# dict directly because struct has already produced well-typed values (about twice as fast).
_new = object.__new__


def _motor(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(MotorBlock)
    fields = block.__dict__
    fields["id"] = values[index]
    fields["value"] = values[index + 1]
    return block


def _servo(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(ServoBlock)
    fields = block.__dict__
    fields["id"] = values[index]
    fields["position"] = values[index + 1]
    return block


def _dio(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(DioBlock)
    fields = block.__dict__
    fields["channel"] = values[index]
    fields["value"] = values[index + 1]
    return block


def _analog(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(AnalogBlock)
    fields = block.__dict__
    fields["id"] = values[index]
    fields["volts"] = values[index + 1]
    return block


def _gyro(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(GyroBlock)
    fields = block.__dict__
    fields["rate_x"] = values[index]
    fields["rate_y"] = values[index + 1]
    fields["rate_z"] = values[index + 2]
    fields["angle_x"] = values[index + 3]
    fields["angle_y"] = values[index + 4]
    fields["angle_z"] = values[index + 5]
    return block


def _accel(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(AccelBlock)
    fields = block.__dict__
    fields["x"] = values[index]
    fields["y"] = values[index + 1]
    fields["z"] = values[index + 2]
    return block


def _encoder(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(EncoderBlock)
    fields = block.__dict__
    fields["id"] = values[index]
    fields["count"] = values[index + 1]
    fields["period_numerator"] = None
    fields["period_denominator"] = None
    return block


def _encoder_period(values: tuple[Any, ...], index: int, _tag: int) -> XrpBlock:
    block = _new(EncoderBlock)
    fields = block.__dict__
    fields["id"] = values[index]
    fields["count"] = values[index + 1]
    fields["period_numerator"] = values[index + 2]
    fields["period_denominator"] = values[index + 3]
    return block


def _raw(values: tuple[Any, ...], index: int, tag: int) -> XrpBlock:
    block = _new(RawBlock)
    fields = block.__dict__
    fields["tag"] = tag
    fields["payload"] = values[index]
    return block


# tag -> (name, {size byte: (payload struct format, number of values, builder)}); the size byte
# counts the tag plus the payload.
_LAYOUTS: dict[int, tuple[str, dict[int, tuple[str, int, _Builder]]]] = {
    TAG_MOTOR: ("motor", {6: ("Bf", 2, _motor)}),
    TAG_SERVO: ("servo", {6: ("Bf", 2, _servo)}),
    TAG_DIO: ("DIO", {3: ("BB", 2, _dio)}),
    TAG_ANALOG: ("analog", {6: ("Bf", 2, _analog)}),
    TAG_GYRO: ("gyro", {25: ("6f", 6, _gyro)}),
    TAG_ACCEL: ("accel", {13: ("3f", 3, _accel)}),
    TAG_ENCODER: ("encoder", {6: ("Bi", 2, _encoder), 14: ("BiII", 4, _encoder_period)}),
}


@dataclass(frozen=True)
class _Plan:
    """How to decode every datagram of one shape (length plus the size and tag of each block)."""

    read_skeleton: Callable[[bytes], tuple[int, ...]]  # the size and tag bytes, in one C call
    skeleton: tuple[int, ...]
    unpack: Callable[[bytes], tuple[Any, ...]]  # the whole datagram, size/tag bytes skipped
    steps: tuple[tuple[_Builder, int, int], ...]  # (builder, index into the values, tag)


# Real traffic repeats one or two shapes (the firmware's 107-byte packet, WPILib's 45-byte one),
# so the last shape walked for each datagram length is remembered.  A datagram whose size and
# tag bytes match it is decoded with one precompiled unpack; any other is walked block by block
# (with every bounds check) and becomes the new plan for its length.  The plan is only a memo:
# results are the same with or without it.
_PLANS: dict[int, _Plan] = {}
_MAX_PLANS = 64


def decode(data: bytes) -> XrpPacket:
    """Decode one XRP datagram; raise ``CodecError`` unless every block fits exactly."""
    length = len(data)
    plan = _PLANS.get(length)
    if plan is None or plan.read_skeleton(data) != plan.skeleton:
        if length <= HEADER_LENGTH:
            return _header_only(data, length)
        plan = _walk(data, length)
    values = plan.unpack(data)
    packet = _new(XrpPacket)
    fields = packet.__dict__
    fields["sequence"] = values[0]
    fields["control"] = values[1]
    fields["blocks"] = tuple([build(values, index, tag) for build, index, tag in plan.steps])
    return packet


def _header_only(data: bytes, length: int) -> XrpPacket:
    if length < HEADER_LENGTH:
        raise _truncated(length)
    sequence, control = _HEADER.unpack(data)
    return XrpPacket(sequence, control, ())


def _walk(data: bytes, length: int) -> _Plan:
    """Bounds-check every block of a datagram of a new shape and make its plan."""
    positions: list[int] = []
    layout = [">HB"]
    steps: list[tuple[_Builder, int, int]] = []
    index = 2  # values 0 and 1 are sequence and control
    offset = HEADER_LENGTH
    while offset < length:
        size = data[offset]
        end = offset + 1 + size
        if end > length or size == 0:
            raise _bad_block(data, offset)
        tag = data[offset + 1]
        known = _LAYOUTS.get(tag)
        payload_format: str
        count: int
        build: _Builder
        if known is None:
            payload_format, count, build = f"{size - 1}s", 1, _raw
        else:
            entry = known[1].get(size)
            if entry is None:
                raise _wrong_size(offset, tag, size)
            payload_format, count, build = entry
        positions += (offset, offset + 1)
        layout.append("xx" + payload_format)
        steps.append((build, index, tag))
        index += count
        offset = end
    read_skeleton = operator.itemgetter(*positions)
    plan = _Plan(read_skeleton, read_skeleton(data), struct.Struct("".join(layout)).unpack, tuple(steps))
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[length] = plan
    return plan


def _truncated(length: int) -> CodecError:
    if length == 0:
        message = _("empty datagram: an XRP packet needs at least {minimum} bytes (sequence and control)")
    else:
        message = _("length {length}, expected at least {minimum} bytes (sequence and control)")
    return CodecError(
        message.format(length=length, minimum=HEADER_LENGTH), protocol=PROTOCOL, reason="truncated"
    )


def _bad_block(data: bytes, offset: int) -> CodecError:
    size = data[offset]
    if size == 0:
        return CodecError(
            _("block at offset {offset} has size byte 0; a block needs at least its tag byte").format(
                offset=offset
            ),
            protocol=PROTOCOL,
            reason="size-zero",
        )
    remaining = len(data) - offset - 1
    if remaining == 0:
        message = _(
            "block at offset {offset} has size {size} but the datagram ends after its size byte"
        ).format(offset=offset, size=size)
    else:
        message = _(
            "block at offset {offset} (tag 0x{tag:02x}) has size {size} but only {remaining} bytes follow"
        ).format(offset=offset, tag=data[offset + 1], size=size, remaining=remaining)
    return CodecError(message, protocol=PROTOCOL, reason="block-overrun")


def _wrong_size(offset: int, tag: int, size: int) -> CodecError:
    name, sizes = _LAYOUTS[tag]
    expected = _(" or ").join(str(value) for value in sizes)
    return CodecError(
        _("block at offset {offset}: tag 0x{tag:02x} ({name}) has size {size}, expected {expected}").format(
            offset=offset, tag=tag, name=name, size=size, expected=expected
        ),
        protocol=PROTOCOL,
        reason="block-size",
    )


_ID_FLOAT_BLOCK = struct.Struct(">BBBf")
_DIO_BLOCK = struct.Struct(">BBBB")
_GYRO_BLOCK = struct.Struct(">BB6f")
_ACCEL_BLOCK = struct.Struct(">BB3f")
_ENCODER_BLOCK = struct.Struct(">BBBi")
_ENCODER_PERIOD_BLOCK = struct.Struct(">BBBiII")


def _write_motor(block: MotorBlock) -> bytes:
    return _ID_FLOAT_BLOCK.pack(_ID_FLOAT_BLOCK.size - 1, TAG_MOTOR, block.id, block.value)


def _write_servo(block: ServoBlock) -> bytes:
    return _ID_FLOAT_BLOCK.pack(_ID_FLOAT_BLOCK.size - 1, TAG_SERVO, block.id, block.position)


def _write_dio(block: DioBlock) -> bytes:
    return _DIO_BLOCK.pack(_DIO_BLOCK.size - 1, TAG_DIO, block.channel, block.value)


def _write_analog(block: AnalogBlock) -> bytes:
    return _ID_FLOAT_BLOCK.pack(_ID_FLOAT_BLOCK.size - 1, TAG_ANALOG, block.id, block.volts)


def _write_gyro(block: GyroBlock) -> bytes:
    return _GYRO_BLOCK.pack(
        _GYRO_BLOCK.size - 1,
        TAG_GYRO,
        block.rate_x,
        block.rate_y,
        block.rate_z,
        block.angle_x,
        block.angle_y,
        block.angle_z,
    )


def _write_accel(block: AccelBlock) -> bytes:
    return _ACCEL_BLOCK.pack(_ACCEL_BLOCK.size - 1, TAG_ACCEL, block.x, block.y, block.z)


def _write_encoder(block: EncoderBlock) -> bytes:
    numerator, denominator = block.period_numerator, block.period_denominator
    if numerator is None and denominator is None:
        return _ENCODER_BLOCK.pack(_ENCODER_BLOCK.size - 1, TAG_ENCODER, block.id, block.count)
    if numerator is None or denominator is None:
        raise CodecError(
            _("cannot encode encoder {id}: give both period fields or neither").format(id=block.id),
            protocol=PROTOCOL,
            reason="value",
        )
    return _ENCODER_PERIOD_BLOCK.pack(
        _ENCODER_PERIOD_BLOCK.size - 1, TAG_ENCODER, block.id, block.count, numerator, denominator
    )


def _write_raw(block: RawBlock) -> bytes:
    payload = bytes(block.payload)
    return bytes((len(payload) + 1, block.tag)) + payload


_WRITERS: dict[type, Callable[[XrpBlock], bytes]] = {
    MotorBlock: _write_motor,  # type: ignore[dict-item]
    ServoBlock: _write_servo,  # type: ignore[dict-item]
    DioBlock: _write_dio,  # type: ignore[dict-item]
    AnalogBlock: _write_analog,  # type: ignore[dict-item]
    GyroBlock: _write_gyro,  # type: ignore[dict-item]
    AccelBlock: _write_accel,  # type: ignore[dict-item]
    EncoderBlock: _write_encoder,  # type: ignore[dict-item]
    RawBlock: _write_raw,  # type: ignore[dict-item]
}


def encode(packet: XrpPacket) -> bytes:
    """The datagram for ``packet``; floats are rounded to float32."""
    try:
        parts = [_HEADER.pack(packet.sequence, packet.control)]
        for block in packet.blocks:
            writer = _WRITERS.get(type(block))
            if writer is None:
                raise CodecError(
                    _("cannot encode {block!r}: not an XRP block").format(block=block),
                    protocol=PROTOCOL,
                    reason="value",
                )
            parts.append(writer(block))
    except (struct.error, OverflowError, ValueError) as error:
        if isinstance(error, CodecError):
            raise
        raise CodecError(
            _("cannot encode XRP packet {sequence}: {error}").format(sequence=packet.sequence, error=error),
            protocol=PROTOCOL,
            reason="value",
        ) from error
    return b"".join(parts)

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for the WPILib HAL XRP protocol: ``[u16 seq][u8 control]`` then tagged blocks.

Strategy: everything is big-endian.  The decoder walks the blocks once, bounds-checking every
size byte against the datagram before touching the payload (WPILib itself does not), and picks
each block's layout from a table keyed by (tag, size byte); a known tag with any other size is an
error, an unknown tag is kept verbatim as a ``RawBlock``.  The walk is remembered per datagram
length as a plan, so a datagram of a known shape costs one struct call that reads its size and tag
bytes, one that unpacks everything, one that cuts the values into blocks and one ``map`` that
makes the blocks (``typing.NamedTuple``, built with ``tuple.__new__``).  The encoder uses the
mirror table keyed by block class, so ``encode(decode(b)) == b`` for every datagram ``decode``
accepts (float32 signalling NaNs excepted: Python's float conversion turns them quiet).

Why XRP decoding stays at an eighth to a fifth of the speed of a bare ``struct.unpack`` of the
same bytes (the other binary codecs reach more than half): the result holds one object per block
plus the packet, 7 for WPILib's 45-byte datagram and 8 for the firmware's 107-byte one.  On CPython,
making a tuple-subclass object and later freeing it costs about 100 ns, and cutting its values out
of the unpacked tuple about 45 ns, so building the blocks alone takes 0.9-1.2 us against a bare
unpack of 0.2 us (WPILib) or 0.4 us (firmware): even with free validation the ratio could not
pass about 0.17 and 0.26.  Only not building the blocks until ``blocks`` is read would approach
0.5 (0.43-0.51 in a prototype), at the price of a ``blocks`` rebuilt on every read and a packet
whose tuple holds wire values instead of its fields.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

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


_C = TypeVar("_C", bound=type)


def _equal_within_class(cls: _C) -> _C:
    """Make a block or packet equal only to frames of its own class, as dataclasses are.

    Plain ``NamedTuple`` equality would make ``MotorBlock(4, 0.5) == ServoBlock(4, 0.5)``.
    """

    def eq(frame: tuple[Any, ...], other: object) -> bool:
        return type(other) is type(frame) and tuple.__eq__(frame, other)

    def ne(frame: tuple[Any, ...], other: object) -> bool:
        return not eq(frame, other)

    for name, method in (("__eq__", eq), ("__ne__", ne)):
        setattr(cls, name, method)  # mypy rejects these assignments in a NamedTuple body
    return cls


@_equal_within_class
class MotorBlock(NamedTuple):
    """Tag 0x12, WPILib to XRP: motor ``id`` (0 left, 1 right, 2, 3) at ``value`` -1..1 (float32)."""

    id: int
    value: float


@_equal_within_class
class ServoBlock(NamedTuple):
    """Tag 0x13, WPILib to XRP: servo ``id`` (4, 5, ...) at ``position`` 0..1 (float32)."""

    id: int
    position: float


@_equal_within_class
class DioBlock(NamedTuple):
    """Tag 0x14, both ways: digital ``channel`` and ``value`` (WPILib reads only 1 as true)."""

    channel: int
    value: int


@_equal_within_class
class AnalogBlock(NamedTuple):
    """Tag 0x15, XRP to WPILib: analog input ``id`` in ``volts`` (float32)."""

    id: int
    volts: float


@_equal_within_class
class GyroBlock(NamedTuple):
    """Tag 0x16, XRP to WPILib: rates in deg/s and angles in deg (float32)."""

    rate_x: float
    rate_y: float
    rate_z: float
    angle_x: float
    angle_y: float
    angle_z: float


@_equal_within_class
class AccelBlock(NamedTuple):
    """Tag 0x17, XRP to WPILib: acceleration in g (float32); current WPILib main ignores it."""

    x: float
    y: float
    z: float


@_equal_within_class
class EncoderBlock(NamedTuple):
    """Tag 0x18, XRP to WPILib: encoder ``id`` and ``count``, optionally the period fields.

    The period is ``(period_numerator >> 1) / period_denominator`` seconds; the numerator's low
    bit is the direction (1 = forward).  Both period fields are present (size byte 14) or both
    are ``None`` (size byte 6).
    """

    id: int
    count: int  # type: ignore[assignment]  # the contract's name; it hides tuple.count, unused here
    period_numerator: int | None = None
    period_denominator: int | None = None


@_equal_within_class
class RawBlock(NamedTuple):
    """A block with a tag this codec does not know, kept byte for byte."""

    tag: int
    payload: bytes


XrpBlock = MotorBlock | ServoBlock | DioBlock | AnalogBlock | GyroBlock | AccelBlock | EncoderBlock | RawBlock


@_equal_within_class
class XrpPacket(NamedTuple):
    """One XRP datagram: 16-bit ``sequence``, ``control`` byte (1 = enabled from WPILib), blocks."""

    sequence: int
    control: int
    blocks: tuple[XrpBlock, ...] = ()


_HEADER = struct.Struct(">HB")

_new = tuple.__new__

_NO_PERIOD = (None, None)

# tag -> (name, {size byte: (payload struct format, number of values, class, values to append)});
# the size byte counts the tag plus the payload.  A 6-byte encoder block has no period fields,
# so its block gets two Nones appended.
_LAYOUTS: dict[int, tuple[str, dict[int, tuple[str, int, type[XrpBlock], tuple[None, ...]]]]] = {
    TAG_MOTOR: ("motor", {6: ("Bf", 2, MotorBlock, ())}),
    TAG_SERVO: ("servo", {6: ("Bf", 2, ServoBlock, ())}),
    TAG_DIO: ("DIO", {3: ("BB", 2, DioBlock, ())}),
    TAG_ANALOG: ("analog", {6: ("Bf", 2, AnalogBlock, ())}),
    TAG_GYRO: ("gyro", {25: ("6f", 6, GyroBlock, ())}),
    TAG_ACCEL: ("accel", {13: ("3f", 3, AccelBlock, ())}),
    TAG_ENCODER: ("encoder", {6: ("Bi", 2, EncoderBlock, _NO_PERIOD), 14: ("BiII", 4, EncoderBlock, ())}),
}

_Fields = Callable[[tuple[Any, ...]], tuple[tuple[Any, ...], ...]]


class _Plan(NamedTuple):
    """How to decode every datagram of one shape (length plus the size and tag of each block)."""

    skeleton_of: Callable[[bytes], tuple[int, ...]]  # the size and tag bytes, in one C call
    skeleton: tuple[int, ...]
    unpack: Callable[[bytes], tuple[Any, ...]]  # sequence, control, then each block's values
    fields: _Fields  # the unpacked values -> one tuple of field values per block
    classes: tuple[type[XrpBlock], ...]


# Real traffic repeats one or two shapes (the firmware's 107-byte packet, WPILib's 45-byte one),
# so the last shape walked for each datagram length is remembered.  A datagram whose size and
# tag bytes match it is decoded with one precompiled unpack, one C call that cuts the values
# into blocks and one ``map`` that makes the blocks; any other is walked block by block (with
# every bounds check) and becomes the new plan for its length.  The plan is only a memo:
# results are the same with or without it.
_PLANS: dict[int, _Plan] = {}
_MAX_PLANS = 64


def decode(data: bytes) -> XrpPacket:
    """Decode one XRP datagram; raise ``CodecError`` unless every block fits exactly."""
    length = len(data)
    plan = _PLANS.get(length)
    if plan is None or plan.skeleton_of(data) != plan.skeleton:
        if length <= HEADER_LENGTH:
            return _header_only(data, length)
        plan = _walk(data, length)
    values = plan.unpack(data)
    blocks = tuple(map(_new, plan.classes, plan.fields(values)))
    return _new(XrpPacket, (values[0], values[1], blocks))


def _header_only(data: bytes, length: int) -> XrpPacket:
    if length < HEADER_LENGTH:
        raise _truncated(length)
    sequence, control = _HEADER.unpack(data)
    return XrpPacket(sequence, control, ())


def _walk(data: bytes, length: int) -> _Plan:
    """Bounds-check every block of a datagram of a new shape and make its plan."""
    skeleton_layout = [">3x"]
    layout = [">HB"]
    spans: list[tuple[slice, tuple[None, ...]]] = []
    classes: list[type[XrpBlock]] = []
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
        block_class: type[XrpBlock]
        extra: tuple[None, ...]
        if known is None:
            # RawBlock(tag, payload): keep the tag byte as a value, skip only the size byte.
            payload_format, count, block_class, extra = f"xB{size - 1}s", 2, RawBlock, ()
        else:
            entry = known[1].get(size)
            if entry is None:
                raise _wrong_size(offset, tag, size)
            payload_format, count, block_class, extra = entry
            payload_format = "xx" + payload_format
        skeleton_layout.append(f"BB{size - 1}x")
        layout.append(payload_format)
        spans.append((slice(index, index + count), extra))
        classes.append(block_class)
        index += count
        offset = end
    skeleton_of = struct.Struct("".join(skeleton_layout)).unpack
    plan = _Plan(
        skeleton_of,
        skeleton_of(data),
        struct.Struct("".join(layout)).unpack,
        _fields_of(spans),
        tuple(classes),
    )
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[length] = plan
    return plan


def _fields_of(spans: list[tuple[slice, tuple[None, ...]]]) -> _Fields:
    """One C call (an itemgetter of slices) when every block is a plain slice of the values."""
    if len(spans) > 1 and not any(extra for _span, extra in spans):
        # The getter returns one slice per block, i.e. the tuple of field tuples.
        return operator.itemgetter(*(span for span, _extra in spans))
    frozen = tuple(spans)

    def fields(values: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
        return tuple([values[span] + extra for span, extra in frozen])

    return fields


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

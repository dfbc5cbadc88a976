# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for the WPILib HAL XRP protocol: ``[u16 seq][u8 control]`` then tagged blocks.

Strategy: everything is big-endian.  ``decode`` walks the blocks once, bounds-checking every size
byte against the datagram (WPILib itself does not), and builds each block as it goes from a table
keyed by tag and size byte: a known tag with a size it does not have and a size byte of 0 are
errors, and an unknown tag is kept verbatim as a ``RawBlock``.  Packets and blocks are plain
frozen dataclasses; the codec keeps no state between calls.  The encoder uses the mirror table
keyed by block class; a packet round-trips through ``encode``/``decode`` byte for byte (float32
signalling NaNs excepted: Python's float conversion turns them quiet).

Bounded work: a datagram may hold at most ``MAX_BLOCKS`` blocks.  The XRP firmware sends about
ten and WPILib a few more, so a datagram with more is not traffic of either; ``decode`` stops
walking there and raises ``CodecError`` (reason ``too-many-blocks``) rather than show a partial
packet, because without a magic a strict decode is also what tells XRP traffic from other bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ... import _
from .errors import CodecError
from .names import XRP as PROTOCOL

TAG_MOTOR = 0x12
TAG_SERVO = 0x13
TAG_DIO = 0x14
TAG_ANALOG = 0x15
TAG_GYRO = 0x16
TAG_ACCEL = 0x17
TAG_ENCODER = 0x18

HEADER_LENGTH = 3
# The XRP firmware listens here; WPILib's HALSIMXRP_PORT moves the robot program's side.
XRP_PORT = 3540
MAX_BLOCKS = 64


@dataclass(frozen=True, slots=True)
class MotorBlock:
    """Tag 0x12, WPILib to XRP: motor ``id`` (0 left, 1 right, 2, 3) at ``value`` -1..1 (float32)."""

    id: int
    value: float


@dataclass(frozen=True, slots=True)
class ServoBlock:
    """Tag 0x13, WPILib to XRP: servo ``id`` (4, 5, ...) at ``position`` 0..1 (float32)."""

    id: int
    position: float


@dataclass(frozen=True, slots=True)
class DioBlock:
    """Tag 0x14, both ways: digital ``channel`` and ``value`` (WPILib reads only 1 as true)."""

    channel: int
    value: int


@dataclass(frozen=True, slots=True)
class AnalogBlock:
    """Tag 0x15, XRP to WPILib: analog input ``id`` in ``volts`` (float32)."""

    id: int
    volts: float


@dataclass(frozen=True, slots=True)
class GyroBlock:
    """Tag 0x16, XRP to WPILib: rates in deg/s and angles in deg (float32)."""

    rate_x: float
    rate_y: float
    rate_z: float
    angle_x: float
    angle_y: float
    angle_z: float


@dataclass(frozen=True, slots=True)
class AccelBlock:
    """Tag 0x17, XRP to WPILib: acceleration in g (float32); current WPILib main ignores it."""

    x: float
    y: float
    z: float


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class RawBlock:
    """A block with a tag this codec does not know, kept byte for byte."""

    tag: int
    payload: bytes


XrpBlock = MotorBlock | ServoBlock | DioBlock | AnalogBlock | GyroBlock | AccelBlock | EncoderBlock | RawBlock


@dataclass(frozen=True, slots=True)
class XrpPacket:
    """One XRP datagram: 16-bit ``sequence``, ``control`` byte (1 = enabled from WPILib), blocks."""

    sequence: int
    control: int
    blocks: tuple[XrpBlock, ...] = ()

    def __init__(self, sequence: int, control: int, blocks: Iterable[XrpBlock] = ()) -> None:
        # A hand-made packet may pass any iterable of blocks; the packet keeps a tuple (hashable).
        object.__setattr__(self, "sequence", sequence)
        object.__setattr__(self, "control", control)
        object.__setattr__(self, "blocks", tuple(blocks))


_HEADER = struct.Struct(">HB")

# tag -> (name, {size byte: (payload layout, block class)}); the size byte counts the tag plus
# the payload.  A 6-byte encoder block has no period fields (the class defaults them to None).
_Layout = tuple[Callable[[bytes, int], tuple[int | float, ...]], Callable[..., XrpBlock]]
_LAYOUTS: Mapping[int, tuple[str, Mapping[int, _Layout]]] = {
    TAG_MOTOR: ("motor", {6: (struct.Struct(">Bf").unpack_from, MotorBlock)}),
    TAG_SERVO: ("servo", {6: (struct.Struct(">Bf").unpack_from, ServoBlock)}),
    TAG_DIO: ("DIO", {3: (struct.Struct(">BB").unpack_from, DioBlock)}),
    TAG_ANALOG: ("analog", {6: (struct.Struct(">Bf").unpack_from, AnalogBlock)}),
    TAG_GYRO: ("gyro", {25: (struct.Struct(">6f").unpack_from, GyroBlock)}),
    TAG_ACCEL: ("accel", {13: (struct.Struct(">3f").unpack_from, AccelBlock)}),
    TAG_ENCODER: (
        "encoder",
        {
            6: (struct.Struct(">Bi").unpack_from, EncoderBlock),
            14: (struct.Struct(">BiII").unpack_from, EncoderBlock),
        },
    ),
}


def decode(data: bytes) -> XrpPacket:
    """Decode one XRP datagram; raise ``CodecError`` unless every block fits exactly."""
    length = len(data)
    if length < HEADER_LENGTH:
        raise _truncated(length)
    sequence, control = _HEADER.unpack_from(data)
    blocks: list[XrpBlock] = []
    offset = HEADER_LENGTH
    while offset < length:
        if len(blocks) == MAX_BLOCKS:
            raise _too_many_blocks(offset)
        size = data[offset]
        end = offset + 1 + size
        if end > length or size == 0:
            raise _bad_block(data, offset)
        tag = data[offset + 1]
        known = _LAYOUTS.get(tag)
        if known is None:
            blocks.append(RawBlock(tag, bytes(data[offset + 2 : end])))
        else:
            layout = known[1].get(size)
            if layout is None:
                raise _wrong_size(offset, tag, size)
            unpack, block_class = layout
            blocks.append(block_class(*unpack(data, offset + 2)))
        offset = end
    return XrpPacket(sequence, control, blocks)


def _truncated(length: int) -> CodecError:
    if length == 0:
        message = _("empty datagram: an XRP packet needs at least {minimum} bytes (sequence and control)")
    else:
        message = _("length {length}, expected at least {minimum} bytes (sequence and control)")
    return CodecError(
        message.format(length=length, minimum=HEADER_LENGTH), protocol=PROTOCOL, reason="truncated"
    )


def _too_many_blocks(offset: int) -> CodecError:
    return CodecError(
        _(
            "more than {limit} blocks (block {next} starts at offset {offset}): XRP senders put a few "
            "dozen at most in a datagram, so it is not decoded"
        ).format(limit=MAX_BLOCKS, next=MAX_BLOCKS + 1, offset=offset),
        protocol=PROTOCOL,
        reason="too-many-blocks",
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


_WRITERS: Mapping[type, Callable[[XrpBlock], bytes]] = {
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

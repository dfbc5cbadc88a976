# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for the WPILib HAL XRP protocol: ``[u16 seq][u8 control]`` then tagged blocks.

Strategy: everything is big-endian.  ``decode`` validates the whole datagram before it returns:
every size byte is bounds-checked against the datagram (WPILib itself does not), a known tag with
a size it does not have and a size byte of 0 are errors, and an unknown tag is kept verbatim as a
``RawBlock``.  The packet it returns holds the sequence, the control byte and the validated block
bytes, and builds its ``blocks`` from them only when they are first read, then keeps them: a
monitor tracks the sequence of every datagram but shows the blocks of only the last one, and on
CPython making the 7 or 8 block objects of a datagram costs several times its bare
``struct.unpack``.  The walk over the blocks is remembered per datagram length as a plan, so a
datagram of a known shape is validated by one struct call that reads its size and tag bytes and
one comparison, and cut into sequence, control and block bytes by one more: it decodes at about
0.6 the rate of a bare unpack of the same bytes for WPILib's 45-byte datagram and about 1.1 for
the firmware's 107-byte one (whose bare unpack makes 43 values).  Reading ``blocks`` costs one
unpack of every value, one C call that cuts them into blocks and one ``map`` that makes the blocks
(``typing.NamedTuple``, built with ``tuple.__new__``).  The encoder uses the mirror table keyed by
block class; a decoded packet encodes to the bytes it was decoded from, and a packet made by hand
round-trips through ``decode`` (float32 signalling NaNs excepted: Python's float conversion turns
them quiet).
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge._frames import equal_within_class
from amc_rc_receiver.sim_bridge.errors import CodecError

PROTOCOL = "xrp"

TAG_MOTOR = 0x12
TAG_SERVO = 0x13
TAG_DIO = 0x14
TAG_ANALOG = 0x15
TAG_GYRO = 0x16
TAG_ACCEL = 0x17
TAG_ENCODER = 0x18

HEADER_LENGTH = 3


@equal_within_class
class MotorBlock(NamedTuple):
    """Tag 0x12, WPILib to XRP: motor ``id`` (0 left, 1 right, 2, 3) at ``value`` -1..1 (float32)."""

    id: int
    value: float


@equal_within_class
class ServoBlock(NamedTuple):
    """Tag 0x13, WPILib to XRP: servo ``id`` (4, 5, ...) at ``position`` 0..1 (float32)."""

    id: int
    position: float


@equal_within_class
class DioBlock(NamedTuple):
    """Tag 0x14, both ways: digital ``channel`` and ``value`` (WPILib reads only 1 as true)."""

    channel: int
    value: int


@equal_within_class
class AnalogBlock(NamedTuple):
    """Tag 0x15, XRP to WPILib: analog input ``id`` in ``volts`` (float32)."""

    id: int
    volts: float


@equal_within_class
class GyroBlock(NamedTuple):
    """Tag 0x16, XRP to WPILib: rates in deg/s and angles in deg (float32)."""

    rate_x: float
    rate_y: float
    rate_z: float
    angle_x: float
    angle_y: float
    angle_z: float


@equal_within_class
class AccelBlock(NamedTuple):
    """Tag 0x17, XRP to WPILib: acceleration in g (float32); current WPILib main ignores it."""

    x: float
    y: float
    z: float


@equal_within_class
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


@equal_within_class
class RawBlock(NamedTuple):
    """A block with a tag this codec does not know, kept byte for byte."""

    tag: int
    payload: bytes


XrpBlock = MotorBlock | ServoBlock | DioBlock | AnalogBlock | GyroBlock | AccelBlock | EncoderBlock | RawBlock

_HEADER = struct.Struct(">HB")

_new = tuple.__new__


class _LazyBlocks:
    """``XrpPacket.blocks``: built from a decoded packet's validated block bytes on first read.

    A non-data descriptor (it has no ``__set__``), so the tuple it stores in the packet's
    ``__dict__`` on the first read is what every later read finds, before this descriptor is
    consulted: the blocks are built at most once and are the same object on every read.
    """

    @overload
    def __get__(self, packet: None, owner: type[Any] | None = None) -> _LazyBlocks: ...

    @overload
    def __get__(self, packet: XrpPacket, owner: type[Any] | None = None) -> tuple[XrpBlock, ...]: ...

    def __get__(
        self, packet: XrpPacket | None, owner: type[Any] | None = None
    ) -> _LazyBlocks | tuple[XrpBlock, ...]:
        if packet is None:
            return self
        source = packet[2]
        if type(source) is not bytes:  # a packet made by hand holds its blocks
            blocks: tuple[XrpBlock, ...] = source
            return blocks
        blocks = _blocks_of(_HEADER.pack(packet[0], packet[1]) + source)
        # The packet refuses attribute assignment; this one write bypasses that on purpose, to
        # cache the blocks in the packet's __dict__ (the descriptor has no __set__, so it lands there).
        object.__setattr__(packet, "blocks", blocks)
        return blocks


class XrpPacket(tuple[Any, ...]):
    """One XRP datagram: 16-bit ``sequence``, ``control`` byte (1 = enabled from WPILib), blocks.

    ``XrpPacket(sequence, control, blocks)`` makes a packet to encode.  A decoded packet holds
    the datagram's validated block bytes instead of its blocks and builds ``blocks`` from them
    when first read (then keeps them), as most decoded packets are only counted, never shown.
    Like a frozen dataclass, a packet refuses assignment, is equal only to an ``XrpPacket`` with
    equal ``(sequence, control, blocks)``, hashes by them, and copies and pickles by them.  The
    tuple underneath is ``(sequence, control, blocks or block bytes)``, not a public API.
    """

    # No __slots__: the instance __dict__, which CPython only creates on the first write, holds
    # the cached blocks.  A tuple subclass is used because it is the cheapest object to create from
    # Python (one C call); a __slots__ class costs one extra call per field set.
    __match_args__ = ("sequence", "control", "blocks")

    if TYPE_CHECKING:

        @property
        def sequence(self) -> int: ...

        @property
        def control(self) -> int: ...

        @property
        def blocks(self) -> tuple[XrpBlock, ...]: ...

    else:
        sequence = property(operator.itemgetter(0), doc="16-bit sequence number, wrapping.")
        control = property(operator.itemgetter(1), doc="Control byte: from WPILib, 1 = enabled.")
        blocks = _LazyBlocks()

    def __new__(cls, sequence: int, control: int, blocks: Iterable[XrpBlock] = ()) -> XrpPacket:
        return _new(cls, (sequence, control, tuple(blocks)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: XrpPacket is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: XrpPacket is immutable")

    def _key(self) -> tuple[int, int, tuple[XrpBlock, ...]]:
        return self[0], self[1], self.blocks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XrpPacket) and type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other: object) -> bool:
        # The tuple order would compare block bytes; packets are not ordered, as dataclasses.
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __repr__(self) -> str:
        return f"{type(self).__name__}(sequence={self[0]!r}, control={self[1]!r}, blocks={self.blocks!r})"

    def __reduce__(self) -> tuple[type[XrpPacket], tuple[int, int, tuple[XrpBlock, ...]]]:
        return type(self), self._key()


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

# How to read every datagram of one shape (its length and the size and tag of each block):
#   0: the size and tag bytes, in one C call (the header skipped);
#   1: what they are for this shape;
#   2: sequence, control and the block bytes, in one C call (the packet's tuple);
#   3: the datagram -> its blocks.
_Plan = tuple[
    Callable[[bytes], tuple[int, ...]],
    tuple[int, ...],
    Callable[[bytes], tuple[Any, ...]],
    Callable[[bytes], tuple[XrpBlock, ...]],
]

# Real traffic repeats one or two shapes (the firmware's 107-byte packet, WPILib's 45-byte one),
# so the last shape walked for each datagram length is remembered.  Matching its size and tag
# bytes is the whole validation of a datagram of that length: same sizes and tags at the same
# offsets make the same walk, which succeeded.  Any other datagram is walked block by block (with
# every bounds check) and becomes the new plan for its length.  The plan is only a memo: results
# are the same with or without it.
_PLANS: dict[int, _Plan] = {}
_MAX_PLANS = 64


def decode(data: bytes) -> XrpPacket:
    """Decode one XRP datagram; raise ``CodecError`` unless every block fits exactly.

    The whole datagram is validated here; the packet's ``blocks`` are built when first read.
    """
    try:
        skeleton_of, skeleton, split, _blocks = _PLANS[len(data)]
    except KeyError:
        return _decode_new_shape(data)
    if skeleton_of(data) == skeleton:
        return _new(XrpPacket, split(data))
    return _decode_new_shape(data)


def _decode_new_shape(data: bytes) -> XrpPacket:
    length = len(data)
    if length < HEADER_LENGTH:
        raise _truncated(length)
    return _new(XrpPacket, _walk(data, length)[2](data))


def _blocks_of(data: bytes) -> tuple[XrpBlock, ...]:
    """The blocks of a datagram ``decode`` accepted (so the walk, if needed, cannot fail)."""
    plan = _PLANS.get(len(data))
    if plan is None or plan[0](data) != plan[1]:
        plan = _walk(data, len(data))
    return plan[3](data)


def _walk(data: bytes, length: int) -> _Plan:
    """Bounds-check every block of a datagram of a new shape and make its plan."""
    skeleton_layout = [">3x"]
    layout = [">3x"]
    spans: list[tuple[slice, tuple[None, ...]]] = []
    classes: list[type[XrpBlock]] = []
    index = 0
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
    plan: _Plan = (
        skeleton_of,
        skeleton_of(data),
        struct.Struct(f">HB{length - HEADER_LENGTH}s").unpack,
        _builder(struct.Struct("".join(layout)).unpack, _fields_of(spans), tuple(classes)),
    )
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[length] = plan
    return plan


def _builder(
    unpack: Callable[[bytes], tuple[Any, ...]], fields: _Fields, classes: tuple[type[XrpBlock], ...]
) -> Callable[[bytes], tuple[XrpBlock, ...]]:
    """One unpack of every block value, one C call that cuts them into blocks, one ``map``."""

    def blocks(data: bytes) -> tuple[XrpBlock, ...]:
        return tuple(map(_new, classes, fields(unpack(data))))

    return blocks


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
    """The datagram for ``packet``; floats are rounded to float32.

    A decoded packet gives back the bytes it was decoded from (they were validated then).
    """
    source = packet[2]
    if type(source) is bytes:
        return _HEADER.pack(packet[0], packet[1]) + source
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

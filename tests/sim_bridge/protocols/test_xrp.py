# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the WPILib XRP codec: big-endian header, size-prefixed tagged blocks.

Vectors are packed here with ``struct`` from PROTOCOLS.md section B (what the firmware and
WPILib actually send), never with the codec under test.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import struct

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.protocols import xrp
from amc_rc_receiver.sim_bridge.protocols.errors import CodecError
from amc_rc_receiver.sim_bridge.protocols.xrp import (
    AccelBlock,
    AnalogBlock,
    DioBlock,
    EncoderBlock,
    GyroBlock,
    MotorBlock,
    RawBlock,
    ServoBlock,
    XrpPacket,
)

pytestmark = pytest.mark.pure


def firmware_packet(sequence: int = 0x0102) -> bytes:
    """Seq, ctrl 0, 4 encoders with period fields, DIO 0, gyro, accel: 107 bytes (FW main.cpp)."""
    data = struct.pack(">HB", sequence, 0)
    for encoder in range(4):
        data += struct.pack(">BBBiII", 14, 0x18, encoder, -1500 + encoder, 80_001, 1_000_000)
    data += struct.pack(">BBBB", 3, 0x14, 0, 1)
    data += struct.pack(">BB6f", 25, 0x16, 0.5, -0.25, 1.5, 2.0, -3.0, 90.0)
    data += struct.pack(">BB3f", 13, 0x17, 0.015625, -0.03125, 1.0)
    return data


def wpilib_packet(sequence: int = 7) -> bytes:
    """Seq, ctrl 1, motors 0..3 and servos 4, 5: the default 45-byte WPILib datagram."""
    data = struct.pack(">HB", sequence, 1)
    for motor, throttle in enumerate((0.25, -0.25, 0.0, 1.0)):
        data += struct.pack(">BBBf", 6, 0x12, motor, throttle)
    for servo in (4, 5):
        data += struct.pack(">BBBf", 6, 0x13, servo, 0.5)
    return data


class TestValidPackets:
    def test_firmware_packet_decodes_every_block_and_reencodes_byte_exactly(self) -> None:
        """
        GIVEN the 107-byte datagram the XRP firmware sends
        WHEN it is decoded and encoded again
        THEN the big-endian header, 4 encoders with periods, DIO, gyro and accel are read and the
        bytes are identical.
        """
        data = firmware_packet()
        assert len(data) == 107
        packet = xrp.decode(data)
        assert (packet.sequence, packet.control) == (0x0102, 0)
        assert packet.blocks == (
            EncoderBlock(0, -1500, 80_001, 1_000_000),
            EncoderBlock(1, -1499, 80_001, 1_000_000),
            EncoderBlock(2, -1498, 80_001, 1_000_000),
            EncoderBlock(3, -1497, 80_001, 1_000_000),
            DioBlock(channel=0, value=1),
            GyroBlock(0.5, -0.25, 1.5, 2.0, -3.0, 90.0),
            AccelBlock(0.015625, -0.03125, 1.0),
        )
        assert xrp.encode(packet) == data

    def test_wpilib_packet_decodes_motors_and_servos(self) -> None:
        """
        GIVEN the default 45-byte WPILib datagram
        WHEN it is decoded and encoded again
        THEN four motor and two servo blocks come out and the bytes are identical.
        """
        data = wpilib_packet()
        assert len(data) == 45
        packet = xrp.decode(data)
        assert packet == XrpPacket(
            sequence=7,
            control=1,
            blocks=(
                MotorBlock(0, 0.25),
                MotorBlock(1, -0.25),
                MotorBlock(2, 0.0),
                MotorBlock(3, 1.0),
                ServoBlock(4, 0.5),
                ServoBlock(5, 0.5),
            ),
        )
        assert xrp.encode(packet) == data

    def test_encoder_without_period_fields_has_none_for_them(self) -> None:
        """
        GIVEN an encoder block with size byte 6 (id and count only) and an analog block
        WHEN the packet is decoded and encoded again
        THEN the period fields are None and the bytes are identical.
        """
        data = struct.pack(">HBBBBiBBBf", 65535, 0, 6, 0x18, 2, 12345, 6, 0x15, 2, 3.25)
        packet = xrp.decode(data)
        assert packet.blocks == (EncoderBlock(2, 12345), AnalogBlock(2, 3.25))
        assert xrp.encode(packet) == data

    def test_unknown_tags_are_kept_verbatim_as_raw_blocks(self) -> None:
        """
        GIVEN blocks with unknown tags, one with an empty payload (size byte 1)
        WHEN the packet is decoded and encoded again
        THEN they are RawBlocks holding tag and payload, and the bytes are identical.
        """
        data = struct.pack(">HB", 9, 1) + bytes([4, 0x42, 1, 2, 3, 1, 0x99])
        packet = xrp.decode(data)
        assert packet.blocks == (RawBlock(0x42, b"\x01\x02\x03"), RawBlock(0x99, b""))
        assert xrp.encode(packet) == data

    def test_header_only_datagram_has_no_blocks(self) -> None:
        """
        GIVEN a 3-byte datagram (sequence and control only)
        WHEN it is decoded
        THEN the packet has no blocks.
        """
        assert xrp.decode(b"\xab\xcd\x01") == XrpPacket(sequence=0xABCD, control=1, blocks=())

    def test_datagrams_of_equal_length_but_different_blocks_decode_independently(self) -> None:
        """
        GIVEN three 10-byte datagrams: a motor block, an unknown-tag block, a motor block with
        other values, and then a 10-byte datagram whose block runs past the end
        WHEN they are decoded one after the other
        THEN each decodes to its own blocks (remembering the last layout never leaks into the next
        datagram) and the bad one still fails its bounds check.
        """
        motor = struct.pack(">HBBBBf", 1, 1, 6, 0x12, 0, 0.5)
        raw = struct.pack(">HBBB", 2, 1, 6, 0x42) + b"abcde"
        other_motor = struct.pack(">HBBBBf", 3, 0, 6, 0x12, 1, -1.0)
        overrun = struct.pack(">HBBB", 4, 1, 7, 0x12) + b"abcde"
        assert xrp.decode(motor).blocks == (MotorBlock(0, 0.5),)
        assert xrp.decode(raw).blocks == (RawBlock(0x42, b"abcde"),)
        assert xrp.decode(other_motor) == XrpPacket(3, 0, (MotorBlock(1, -1.0),))
        assert xrp.decode(motor).blocks == (MotorBlock(0, 0.5),)
        with pytest.raises(CodecError) as caught:
            xrp.decode(overrun)
        assert caught.value.reason == "block-overrun"


class TestFrames:
    def test_blocks_of_different_kinds_with_equal_values_are_different(self) -> None:
        """
        GIVEN a motor, a servo and an analog block with the same id and value
        WHEN they are compared with each other and with a plain tuple
        THEN none are equal, as the kind of block is part of its value.
        """
        motor, servo, analog = MotorBlock(4, 0.5), ServoBlock(4, 0.5), AnalogBlock(4, 0.5)
        assert motor != servo  # type: ignore[comparison-overlap]
        assert servo != analog  # type: ignore[comparison-overlap]
        plain = (4, 0.5)
        assert motor != plain  # type: ignore[comparison-overlap]
        assert plain != motor  # type: ignore[comparison-overlap]
        assert motor == MotorBlock(id=4, value=0.5)
        assert xrp.decode(wpilib_packet()).blocks[4] != MotorBlock(4, 0.5)

    def test_decoded_packets_are_immutable_hashable_values(self) -> None:
        """
        GIVEN the firmware packet decoded twice
        WHEN the packets are compared, hashed and assigned to
        THEN they are equal with one hash and refuse any change.
        """
        first, second = xrp.decode(firmware_packet()), xrp.decode(firmware_packet())
        assert first == second
        assert len({first, second, *first.blocks}) == 1 + len(first.blocks)
        with pytest.raises(AttributeError):
            first.sequence = 3  # type: ignore[misc]
        with pytest.raises(AttributeError):
            first.blocks[0].count = 3  # type: ignore[misc, union-attr]

    def test_a_new_shape_of_the_same_length_is_walked_not_misread(self) -> None:
        """
        GIVEN two well-formed 45-byte datagrams with different blocks
        WHEN they are decoded one after the other, then the first again
        THEN each gives its own blocks.
        """
        other = struct.pack(">HB", 9, 0) + struct.pack(">BB6f", 25, 0x16, 1, 2, 3, 4, 5, 6)
        other += struct.pack(">BB3f", 13, 0x17, 0.5, 0.25, 1.0) + struct.pack(">BB", 1, 0x42)
        assert len(other) == len(wpilib_packet())
        kinds = [type(block) for block in xrp.decode(wpilib_packet()).blocks]
        assert kinds == [MotorBlock] * 4 + [ServoBlock] * 2
        assert xrp.decode(other).blocks == (
            GyroBlock(1, 2, 3, 4, 5, 6),
            AccelBlock(0.5, 0.25, 1.0),
            RawBlock(0x42, b""),
        )
        assert xrp.decode(wpilib_packet()).blocks[0] == MotorBlock(0, 0.25)


class TestMalformedPackets:
    @pytest.mark.parametrize(
        ("data", "reason", "message"),
        [
            (b"", "truncated", "empty datagram: an XRP packet needs at least 3 bytes"),
            (b"\x00\x01", "truncated", "length 2, expected at least 3 bytes (sequence and control)"),
            (b"\x00\x01\x00\x00\x12", "size-zero", "block at offset 3 has size byte 0"),
            (
                wpilib_packet()[:-1],
                "block-overrun",
                "block at offset 38 (tag 0x13) has size 6 but only 5 bytes follow",
            ),
            (
                b"\x00\x01\x00\x06",
                "block-overrun",
                "block at offset 3 has size 6 but the datagram ends after its size",
            ),
            (
                firmware_packet() + b"\xff\x77",
                "block-overrun",
                "block at offset 107 (tag 0x77) has size 255 but only 1 bytes follow",
            ),
            (
                struct.pack(">HBBBB", 1, 0, 5, 0x12, 0) + b"\0\0\0",
                "block-size",
                "block at offset 3: tag 0x12 (motor) has size 5, expected 6",
            ),
            (
                struct.pack(">HBBBBi", 1, 0, 10, 0x18, 0, 5) + b"\0\0\0\0",
                "block-size",
                "block at offset 3: tag 0x18 (encoder) has size 10, expected 6 or 14",
            ),
            (
                struct.pack(">HBBB6f", 1, 0, 24, 0x16, 0, 0, 0, 0, 0, 0)[:-1],
                "block-size",
                "tag 0x16 (gyro) has size 24, expected 25",
            ),
        ],
    )
    def test_each_malformed_kind_gets_its_reason_and_sentence(
        self, data: bytes, reason: str, message: str
    ) -> None:
        """
        GIVEN a too-short datagram, a zero size byte, a block running past the end or a known tag
        with the wrong size
        WHEN it is decoded
        THEN a CodecError carries the stable reason and says which block is wrong and why.
        """
        with pytest.raises(CodecError) as caught:
            xrp.decode(data)
        assert caught.value.reason == reason
        assert caught.value.protocol == "xrp"
        assert message in str(caught.value)

    def test_a_datagram_of_64_blocks_decodes_and_one_of_65_is_refused_as_too_many(self) -> None:
        """
        GIVEN a datagram of 64 DIO blocks, and one of 65 (far more than the firmware's 7 to 10 or
        WPILib's default 6 plus DIO outputs)
        WHEN they are decoded
        THEN the first gives 64 blocks and the second a CodecError "too-many-blocks" that names the
        limit and where the 65th block starts.
        """
        dio = struct.pack(">BBBB", 3, 0x14, 1, 0)
        assert len(xrp.decode(struct.pack(">HB", 1, 1) + dio * 64).blocks) == xrp.MAX_BLOCKS == 64
        with pytest.raises(CodecError) as caught:
            xrp.decode(struct.pack(">HB", 1, 1) + dio * 65)
        assert caught.value.reason == "too-many-blocks"
        assert str(caught.value).startswith("more than 64 blocks (block 65 starts at offset 259)")

    def test_a_64_kib_datagram_of_tiny_blocks_is_refused_without_walking_all_of_them(self) -> None:
        """
        GIVEN a 64 KiB datagram of 32,766 empty raw blocks whose last one runs past the end
        WHEN it is decoded
        THEN the error is "too-many-blocks", not the overrun far behind: the walk stops at the cap.
        """
        data = struct.pack(">HB", 1, 1) + bytes([1, 0x42]) * 32_766 + bytes([9])
        with pytest.raises(CodecError) as caught:
            xrp.decode(data)
        assert caught.value.reason == "too-many-blocks"

    def test_encoder_block_with_only_one_period_field_cannot_be_encoded(self) -> None:
        """
        GIVEN an EncoderBlock with a period numerator but no denominator
        WHEN the packet is encoded
        THEN a CodecError says both or neither are needed.
        """
        packet = XrpPacket(1, 0, (EncoderBlock(0, 1, period_numerator=3),))
        with pytest.raises(CodecError, match="give both period fields or neither"):
            xrp.encode(packet)

    @pytest.mark.parametrize(
        "block",
        [RawBlock(0x42, bytes(255)), MotorBlock(256, 0.0), DioBlock(0, -1), MotorBlock(0, 1e39)],
    )
    def test_unencodable_blocks_raise_codec_error(self, block: xrp.XrpBlock) -> None:
        """
        GIVEN a block whose values do not fit the wire format
        WHEN the packet is encoded
        THEN a CodecError with reason "value" is raised, never a struct or overflow error.
        """
        with pytest.raises(CodecError) as caught:
            xrp.encode(XrpPacket(1, 0, (block,)))
        assert caught.value.reason == "value"


def decode_outcome(data: bytes) -> object:
    """The decoded packet, or the CodecError (any other exception propagates and fails the test)."""
    try:
        return xrp.decode(data)
    except CodecError as error:
        return error


def contains_nan(packet: XrpPacket) -> bool:
    values = [value for block in packet.blocks for value in dataclasses.astuple(block)]
    return any(isinstance(value, float) and math.isnan(value) for value in values)


f32 = st.floats(width=32, allow_nan=False)
u8 = st.integers(min_value=0, max_value=255)
known_tags = {0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18}
blocks = st.one_of(
    st.builds(MotorBlock, u8, f32),
    st.builds(ServoBlock, u8, f32),
    st.builds(DioBlock, u8, u8),
    st.builds(AnalogBlock, u8, f32),
    st.builds(GyroBlock, f32, f32, f32, f32, f32, f32),
    st.builds(AccelBlock, f32, f32, f32),
    st.builds(EncoderBlock, u8, st.integers(min_value=-(2**31), max_value=2**31 - 1), st.none(), st.none()),
    st.builds(
        EncoderBlock,
        u8,
        st.integers(min_value=-(2**31), max_value=2**31 - 1),
        st.integers(min_value=0, max_value=2**32 - 1),
        st.integers(min_value=0, max_value=2**32 - 1),
    ),
    st.builds(RawBlock, u8.filter(lambda tag: tag not in known_tags), st.binary(max_size=254)),
)
packets = st.builds(
    XrpPacket,
    st.integers(min_value=0, max_value=0xFFFF),
    u8,
    st.lists(blocks, max_size=12).map(tuple),
)


# Block sizes per known tag (size byte = tag + payload); unknown tags take any payload.
SIZES = {0x12: [6], 0x13: [6], 0x14: [3], 0x15: [6], 0x16: [25], 0x17: [13], 0x18: [6, 14]}
random_blocks = st.one_of(
    st.sampled_from(sorted(SIZES)).flatmap(
        lambda tag: st.sampled_from(SIZES[tag]).flatmap(
            lambda size: st.binary(min_size=size - 1, max_size=size - 1).map(
                lambda body: bytes([size, tag]) + body
            )
        )
    ),
    st.tuples(u8.filter(lambda tag: tag not in known_tags), st.binary(max_size=40)).map(
        lambda raw: bytes([len(raw[1]) + 1, raw[0]]) + raw[1]
    ),
)
well_framed_datagrams = st.tuples(
    st.binary(min_size=3, max_size=3), st.lists(random_blocks, max_size=10)
).map(lambda parts: parts[0] + b"".join(parts[1]))


class TestProperties:
    @given(st.binary(max_size=300))
    def test_arbitrary_bytes_only_ever_raise_codec_error(self, data: bytes) -> None:
        """
        GIVEN any bytes
        WHEN they are decoded
        THEN the result is a packet or a CodecError with a known reason, never another exception.
        """
        outcome = decode_outcome(data)
        if isinstance(outcome, CodecError):
            assert outcome.reason in {
                "truncated",
                "size-zero",
                "block-overrun",
                "block-size",
                "too-many-blocks",
            }
        else:
            assert isinstance(outcome, XrpPacket)

    @given(packets)
    def test_encode_then_decode_is_the_identity(self, packet: XrpPacket) -> None:
        """
        GIVEN any packet of valid blocks with float32-representable values
        WHEN it is encoded and decoded
        THEN the same packet comes back.
        """
        assert xrp.decode(xrp.encode(packet)) == packet

    @given(well_framed_datagrams)
    def test_every_well_framed_datagram_reencodes_byte_exactly(self, data: bytes) -> None:
        """
        GIVEN a header and blocks of random content, each with a size byte that fits its tag
        WHEN the packet is encoded again
        THEN the bytes are identical (packets holding a NaN are skipped: a float32 signalling NaN
        comes back quiet from Python's float conversion).
        """
        outcome = decode_outcome(data)
        assume(isinstance(outcome, XrpPacket) and not contains_nan(outcome))
        assert isinstance(outcome, XrpPacket)
        assert xrp.encode(outcome) == data
        assert xrp.encode(XrpPacket(outcome.sequence, outcome.control, outcome.blocks)) == data


# An independent reading of PROTOCOLS.md B.2/B.3, block by block with plain struct calls: the
# oracle for what ``decode`` must accept, refuse (and why) and what its blocks hold.
REFERENCE_LAYOUTS: dict[int, dict[int, tuple[type, str]]] = {
    0x12: {6: (MotorBlock, ">Bf")},
    0x13: {6: (ServoBlock, ">Bf")},
    0x14: {3: (DioBlock, ">BB")},
    0x15: {6: (AnalogBlock, ">Bf")},
    0x16: {25: (GyroBlock, ">6f")},
    0x17: {13: (AccelBlock, ">3f")},
    0x18: {6: (EncoderBlock, ">Bi"), 14: (EncoderBlock, ">BiII")},
}


def reference_decode(data: bytes) -> tuple[int, int, tuple[xrp.XrpBlock, ...]] | str:
    """Sequence, control and blocks, or the reason the datagram is malformed (or beyond 64 blocks)."""
    if len(data) < 3:
        return "truncated"
    sequence, control = struct.unpack_from(">HB", data)
    found: list[xrp.XrpBlock] = []
    offset = 3
    while offset < len(data):
        if len(found) == 64:
            return "too-many-blocks"
        size = data[offset]
        if size == 0:
            return "size-zero"
        if offset + 1 + size > len(data):
            return "block-overrun"
        tag, payload = data[offset + 1], bytes(data[offset + 2 : offset + 1 + size])
        if tag not in REFERENCE_LAYOUTS:
            found.append(RawBlock(tag, payload))
        elif size not in REFERENCE_LAYOUTS[tag]:
            return "block-size"
        else:
            block_class, layout = REFERENCE_LAYOUTS[tag][size]
            found.append(block_class(*struct.unpack(layout, payload)))
        offset += 1 + size
    return sequence, control, tuple(found)


def assert_matches_reference(data: bytes) -> None:
    """``decode`` refuses exactly what the reference refuses; otherwise its blocks are the reference's."""
    expected = reference_decode(data)
    outcome = decode_outcome(data)
    if isinstance(expected, str):
        assert isinstance(outcome, CodecError)
        assert outcome.reason == expected
        return
    assert isinstance(outcome, XrpPacket)
    assert (outcome.sequence, outcome.control) == expected[:2]
    # repr tells NaN from NaN and -0.0 from 0.0, which == cannot.
    assert repr(outcome.blocks) == repr(expected[2])
    assert [type(block) for block in outcome.blocks] == [type(block) for block in expected[2]]


ONE_OF_EACH_TAG = [
    (struct.pack(">BBBf", 6, 0x12, 3, -0.75), MotorBlock(3, -0.75)),
    (struct.pack(">BBBf", 6, 0x13, 5, 0.125), ServoBlock(5, 0.125)),
    (struct.pack(">BBBB", 3, 0x14, 2, 7), DioBlock(2, 7)),
    (struct.pack(">BBBf", 6, 0x15, 1, 4.5), AnalogBlock(1, 4.5)),
    (struct.pack(">BB6f", 25, 0x16, 1, -2, 3, -4, 5, -6), GyroBlock(1, -2, 3, -4, 5, -6)),
    (struct.pack(">BB3f", 13, 0x17, 0.25, -0.5, 1.0), AccelBlock(0.25, -0.5, 1.0)),
    (struct.pack(">BBBi", 6, 0x18, 3, -(2**31)), EncoderBlock(3, -(2**31))),
    (struct.pack(">BBBiII", 14, 0x18, 0, 2**31 - 1, 2**32 - 1, 0), EncoderBlock(0, 2**31 - 1, 2**32 - 1, 0)),
    (bytes([3, 0x99, 0xAB, 0xCD]), RawBlock(0x99, b"\xab\xcd")),
]


class TestBlocks:
    @pytest.mark.parametrize(("wire", "block"), ONE_OF_EACH_TAG)
    def test_decoded_blocks_equal_blocks_built_by_hand(self, wire: bytes, block: xrp.XrpBlock) -> None:
        """
        GIVEN a datagram with one block of a tag (each tag, encoder with and without period)
        WHEN it is decoded and its blocks read
        THEN they equal, with their class, the packet built eagerly from the same values.
        """
        data = struct.pack(">HB", 0xBEEF, 1) + wire
        packet = xrp.decode(data)
        assert packet == XrpPacket(0xBEEF, 1, (block,))
        assert packet.blocks == (block,)
        assert type(packet.blocks[0]) is type(block)
        assert xrp.encode(XrpPacket(0xBEEF, 1, (block,))) == data

    def test_packets_and_blocks_cannot_be_changed(self) -> None:
        """
        GIVEN a decoded packet
        WHEN its blocks, its sequence or a block's field are assigned or deleted
        THEN each attempt raises AttributeError, no attribute can be added (no __dict__), and the
        packet keeps its values.
        """
        packet = xrp.decode(wpilib_packet())
        with pytest.raises(AttributeError):
            packet.blocks = ()  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del packet.blocks
        with pytest.raises(AttributeError):
            del packet.sequence
        with pytest.raises(AttributeError):
            packet.blocks[0].value = 0.0  # type: ignore[misc, union-attr]
        assert not hasattr(packet, "__dict__")
        assert not hasattr(packet.blocks[0], "__dict__")
        assert len(packet.blocks) == 6
        assert packet.sequence == 7

    @pytest.mark.parametrize(
        ("data", "reason", "message"),
        [
            (
                firmware_packet()[:3] + bytes([10]) + firmware_packet()[4:],
                "block-size",
                "block at offset 3: tag 0x18 (encoder) has size 10, expected 6 or 14",
            ),
            (
                wpilib_packet()[:4] + bytes([0x16]) + wpilib_packet()[5:],
                "block-size",
                "block at offset 3: tag 0x16 (gyro) has size 6, expected 25",
            ),
            (
                wpilib_packet()[:10] + bytes([0]) + wpilib_packet()[11:],
                "size-zero",
                "block at offset 10 has size byte 0",
            ),
            (
                wpilib_packet()[:38] + bytes([7]) + wpilib_packet()[39:],
                "block-overrun",
                "block at offset 38 (tag 0x13) has size 7 but only 6 bytes follow",
            ),
        ],
        ids=["encoder-size", "gyro-size", "size-zero", "overrun"],
    )
    def test_a_malformed_datagram_of_a_length_seen_before_is_refused_by_decode(
        self, data: bytes, reason: str, message: str
    ) -> None:
        """
        GIVEN the firmware or WPILib datagram decoded, then a datagram of the same length with one
        size or tag byte broken
        WHEN the broken one is decoded
        THEN decode raises the CodecError with its reason and sentence: nothing of the good
        datagram is remembered.
        """
        good = firmware_packet() if len(data) == 107 else wpilib_packet()
        assert len(data) == len(good)
        xrp.decode(good)
        with pytest.raises(CodecError) as caught:
            xrp.decode(data)
        assert caught.value.reason == reason
        assert message in str(caught.value)

    def test_the_packet_keeps_its_values_when_a_decoded_buffer_changes_afterwards(self) -> None:
        """
        GIVEN a WPILib datagram in a bytearray, decoded
        WHEN the bytearray is overwritten
        THEN the blocks and the re-encoded bytes are those of the datagram as it was decoded.
        """
        buffer = bytearray(wpilib_packet())
        packet = xrp.decode(buffer)  # type: ignore[arg-type]
        buffer[3:] = bytes(len(buffer) - 3)
        assert packet.blocks[0] == MotorBlock(0, 0.25)
        assert xrp.encode(packet) == wpilib_packet()

    def test_a_signalling_nan_decodes_as_nan_and_reencodes_quiet(self) -> None:
        """
        GIVEN a motor block whose float32 is a signalling NaN
        WHEN the packet is decoded and encoded again
        THEN the value is a NaN and only the NaN's quiet bit differs (Python's float conversion sets
        it): the one documented exception to byte-exact round trips.
        """
        data = struct.pack(">HBBBBI", 5, 1, 6, 0x12, 0, 0x7F800001)
        packet = xrp.decode(data)
        assert math.isnan(packet.blocks[0].value)  # type: ignore[union-attr]
        assert xrp.encode(packet) == struct.pack(">HBBBBI", 5, 1, 6, 0x12, 0, 0x7FC00001)

    def test_packets_repr_copy_pickle_and_compare_by_their_fields(self) -> None:
        """
        GIVEN a decoded packet
        WHEN it is shown, copied, deep-copied and pickled, and compared with a tuple or ordered
        THEN the repr names the fields dataclass-style, every copy equals it with the same hash, it
        is never equal to a plain tuple, and ordering is refused.
        """
        packet = xrp.decode(struct.pack(">HBBBBB", 3, 1, 3, 0x14, 0, 1))
        assert repr(packet) == "XrpPacket(sequence=3, control=1, blocks=(DioBlock(channel=0, value=1),))"
        for twin in (copy.copy(packet), copy.deepcopy(packet), pickle.loads(pickle.dumps(packet))):
            assert twin == packet
            assert hash(twin) == hash(packet)
            assert type(twin) is XrpPacket
        assert XrpPacket(sequence=3, control=1, blocks=[DioBlock(0, 1)]) == packet
        assert packet != (3, 1, (DioBlock(0, 1),))  # type: ignore[comparison-overlap]
        assert XrpPacket(3, 1, ()) != packet
        with pytest.raises(TypeError):
            _ = packet < XrpPacket(4, 1, ())  # type: ignore[operator]

    @given(st.sampled_from([firmware_packet(), wpilib_packet()]), st.data())
    def test_a_datagram_one_byte_away_from_a_known_shape_decodes_as_the_reference_reads_it(
        self, good: bytes, data: st.DataObject
    ) -> None:
        """
        GIVEN the firmware or WPILib datagram decoded, then a copy with one byte replaced
        WHEN the copy is decoded
        THEN it is refused with the reason a block-by-block reading of PROTOCOLS.md gives, or
        accepted with the blocks that reading gives.
        """
        xrp.decode(good)
        index = data.draw(st.integers(min_value=0, max_value=len(good) - 1))
        value = data.draw(u8)
        assert_matches_reference(good[:index] + bytes([value]) + good[index + 1 :])

    @given(st.one_of(well_framed_datagrams, st.binary(max_size=120)))
    def test_any_datagram_decodes_as_the_reference_reads_it(self, data: bytes) -> None:
        """
        GIVEN a well-framed datagram or any bytes
        WHEN decoded
        THEN decode refuses it with the reference's reason or its blocks are the reference's.
        """
        assert_matches_reference(data)

    @given(packets)
    def test_blocks_of_a_decoded_packet_made_by_hand_equal_its_blocks(self, packet: XrpPacket) -> None:
        """
        GIVEN any packet made by hand
        WHEN it is encoded, decoded, and encoded again
        THEN the decoded blocks equal the original blocks and both encodings are the same bytes.
        """
        data = xrp.encode(packet)
        decoded = xrp.decode(data)
        assert decoded.blocks == packet.blocks
        assert xrp.encode(decoded) == data

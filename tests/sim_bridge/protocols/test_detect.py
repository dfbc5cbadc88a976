# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Content-based protocol detection: which datagram is which, and which may teach the relay its peer.

Test vectors are packed here with ``struct`` straight from the byte layouts in PROTOCOLS.md, so the
detector is checked against the layouts rather than against the codecs' own encoders.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.protocols import rflysim
from amc_rc_receiver.sim_bridge.protocols.detect import (
    is_rflysim_packet,
    is_servo_packet,
    is_xrp_packet,
    looks_like_json,
)
from amc_rc_receiver.sim_bridge.protocols.table import detect_protocol, is_valid_peer_packet

pytestmark = pytest.mark.pure


def servo16(frame_count: int = 1, magic: int = 18458) -> bytes:
    return struct.pack("<HHI16H", magic, 400, frame_count, *([1500] * 16))


def servo32(frame_count: int = 1) -> bytes:
    return struct.pack("<HHI32H", 29569, 1200, frame_count, *([1000] * 32))


def sil(checksum: int = 1234567897, copter_id: int = 1) -> bytes:
    return struct.pack("<10i20f", checksum, copter_id, *range(8), *([0.5] * 20))


def true_state(checksum: int = 123456789) -> bytes:
    return struct.pack("<4i24f7d", checksum, 1, 3, 0, *([0.0] * 24), *([0.0] * 7))


def net_data_short(length_field: int = 152) -> bytes:
    payload = struct.pack("<2id27f4x3d", 1, 3, 2.5, *([0.0] * 27), 40.1, 116.2, 50.0)
    assert len(payload) == 152
    return struct.pack("<ii", -1, length_field) + payload + bytes(40)


def wpilib_xrp(sequence: int = 7) -> bytes:
    """WPILib's default 45-byte datagram: 4 motors, 2 servos, one DIO output (PROTOCOLS.md B.3)."""
    motors = b"".join(struct.pack(">BBBf", 6, 0x12, motor, 0.0) for motor in range(4))
    servos = b"".join(struct.pack(">BBBf", 6, 0x13, servo, 0.5) for servo in (4, 5))
    dio = struct.pack(">BBBB", 3, 0x14, 1, 0)
    return struct.pack(">HB", sequence, 1) + motors + servos + dio


JSON_STATE = b'\n{"timestamp":1.5,"imu":{"gyro":[0,0,0],"accel_body":[0,0,-9.81]},"velocity":[0,0,0]}\n'


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (servo16(), "ardupilot-json"),
        (servo32(), "ardupilot-json"),
        (JSON_STATE, "ardupilot-json"),
        (b' \r\n\t{"timestamp":0}', "ardupilot-json"),
        (sil(), "rflysim"),
        (sil(checksum=1234567803), "rflysim"),
        (true_state(), "rflysim"),
        (net_data_short(), "rflysim"),
        (wpilib_xrp(), "xrp"),
        (b"", None),
        (b"\xff\xff", None),  # shorter than the XRP header
        (b"\x00\x01\x00\x09\x12\x00", None),  # XRP block size runs past the end
    ],
    ids=[
        "servo16",
        "servo32",
        "json",
        "json-after-whitespace",
        "rflysim-sil",
        "rflysim-in-ctrl-ext",
        "rflysim-true-state",
        "rflysim-net-data-short",
        "xrp-wpilib",
        "empty",
        "too-short",
        "xrp-overrun",
    ],
)
def test_each_protocol_is_recognised_from_its_content(data: bytes, expected: str | None) -> None:
    """GIVEN a datagram of a known layout (or nonsense) WHEN detected THEN the right protocol (or None)."""
    assert detect_protocol(data) == expected


def test_servo_packets_need_exact_size_and_the_magic_for_that_size() -> None:
    """GIVEN near-miss servo packets WHEN checked THEN only exact size plus matching magic counts."""
    assert is_servo_packet(servo16())
    assert not is_servo_packet(servo16()[:-1])
    assert not is_servo_packet(servo16(magic=29569))  # 32-channel magic in a 16-channel packet
    assert not is_servo_packet(servo16(magic=18459))
    assert not is_servo_packet(servo32() + b"\0")


def test_json_needs_a_brace_first_and_text_throughout() -> None:
    """GIVEN text-like datagrams WHEN checked THEN only whitespace-then-brace UTF-8 text is JSON."""
    assert looks_like_json(b"{}")
    assert not looks_like_json(b"x{}")
    assert not looks_like_json(b"   \n")
    assert not looks_like_json(b"{\xff\xfe}")


def test_rflysim_needs_the_checksum_that_belongs_to_the_length() -> None:
    """GIVEN RflySim-sized datagrams WHEN checked
    THEN the checksum (or the netDataShort length field) decides."""
    assert is_rflysim_packet(sil())
    assert not is_rflysim_packet(sil(checksum=123456789))  # true-state checksum at SIL length
    assert not is_rflysim_packet(true_state(checksum=1234567897))
    assert not is_rflysim_packet(net_data_short(length_field=200))
    assert not is_rflysim_packet(sil()[:-4])


def test_the_peer_may_only_be_learned_from_its_own_protocol() -> None:
    """GIVEN datagrams of each protocol WHEN checked as a peer's first packet
    THEN each protocol accepts its own, refuses the others, and auto accepts anything non-empty."""
    samples = {"ardupilot-json": servo16(), "rflysim": sil(), "xrp": wpilib_xrp()}
    for protocol, own in samples.items():
        assert is_valid_peer_packet(protocol, own)
        for other_protocol, other in samples.items():
            # Any well-formed byte string may also be valid XRP, which has no magic.
            if protocol not in (other_protocol, "xrp"):
                assert not is_valid_peer_packet(protocol, other), (protocol, other_protocol)
    # SITL's peer sends servo packets, never JSON.
    assert not is_valid_peer_packet("ardupilot-json", JSON_STATE)
    assert not is_valid_peer_packet("xrp", b"\x00\x01\x00\x00")
    assert is_valid_peer_packet("auto", b"?")
    assert not is_valid_peer_packet("auto", b"")


@given(st.binary(max_size=300))
def test_detection_never_raises_and_is_deterministic(data: bytes) -> None:
    """GIVEN arbitrary bytes WHEN detected twice THEN the same known answer comes back without errors."""
    first = detect_protocol(data)
    assert first in {None, "ardupilot-json", "rflysim", "xrp"}
    assert detect_protocol(data) == first
    if first == "xrp":
        assert is_xrp_packet(data)


@given(
    frame_count=st.integers(0, 2**32 - 1),
    frame_rate=st.integers(0, 65535),
    pwm=st.lists(st.integers(0, 65535), min_size=16, max_size=16),
)
def test_every_well_formed_servo_packet_is_sitl(frame_count: int, frame_rate: int, pwm: list[int]) -> None:
    """GIVEN any 16-channel servo packet WHEN detected THEN it is ArduPilot SITL, whatever its values."""
    assert detect_protocol(struct.pack("<HHI16H", 18458, frame_rate, frame_count, *pwm)) == "ardupilot-json"


@given(copter_id=st.integers(-(2**31), 2**31 - 1))
def test_every_sil_packet_is_rflysim(copter_id: int) -> None:
    """GIVEN a PX4SILIntFloat for any copter id WHEN detected THEN it is RflySim."""
    assert detect_protocol(sil(copter_id=copter_id)) == "rflysim"


@pytest.mark.parametrize(
    ("layout", "checksum"),
    [
        ("<iii", 1234567890),  # crash report
        ("<ii3d", 1234567890),  # Ue4CMDGPS
        ("<iid8f", 1234567898),  # PX4ExtMsg
        ("<ii13f", 1234567890),  # Ue4RayTraceDrone
        ("<ii20f", 1234567881),  # TerrIn15d
        ("<6i14f4d", 1234567891),  # SOut2SimulatorSimpleTime
        ("<2i28d", 1234567902),  # InCtrlExtDoub2
        ("<ii32d", 1234567890),  # outCopterStruct
        ("<ii32d", 1234567899),  # UEToCopterDataD
        ("<iiQ64d", 1234567893),  # PX4DynModiParams
    ],
)
def test_every_rflysim_kind_the_detector_accepts_is_decoded_or_recognised(layout: str, checksum: int) -> None:
    """GIVEN a genuine RflySim packet of a kind beyond the SIL/true-state trio WHEN detected and decoded
    THEN it is RflySim and the codec returns a frame or a RecognisedPacket, never a "wrong length" error."""
    data = struct.pack("<i", checksum) + bytes(struct.calcsize(layout) - 4)
    assert detect_protocol(data) == "rflysim"
    assert is_valid_peer_packet("rflysim", data)
    assert isinstance(rflysim.decode(data), rflysim.RflySimFrame)


def test_a_64_kib_chain_of_tiny_blocks_is_not_taken_for_xrp() -> None:
    """GIVEN 64 KiB of well-formed one-byte XRP blocks (far beyond the block limit) WHEN detected
    THEN it is not XRP: the strict decode stops at its limit and refuses it."""
    data = struct.pack(">HB", 1, 0) + bytes([1, 0x42]) * 32_000
    assert not is_xrp_packet(data)
    assert detect_protocol(data) is None

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every codec raises only ``CodecError``, for any datagram up to 64 KiB and numbers of any size.

The structure-aware side of fuzzing, beside the coverage-guided fuzzer of ``fuzz/`` (which
mutates real traffic): random bytes, tiled fragments, and datagrams that byte mutations rarely
reach (JSON of SITL's keys with huge numbers, deep nesting and odd strings; XRP block chains of
any length; RflySim and servo packets with the right length and magic or checksum and any body).
Only exceptions are checked, never time, so the file runs the same on a loaded machine; the
fuzzer reports its slowest inputs.
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, detect, rflysim, sitl_servo_packet, xrp
from amc_rc_receiver.sim_bridge.protocols import table as protocols
from amc_rc_receiver.sim_bridge.protocols.errors import CodecError
from tests.support.tiers import examples

pytestmark = pytest.mark.pure

MAX_DATAGRAM = 65_536

# No deadline: whether an example is fast is the fuzzer's report, never a reason to fail here.
PROPERTY = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

Decoder = Callable[[bytes], object]
DECODERS: dict[str, Decoder] = {
    "servo": sitl_servo_packet.decode_servo_packet,
    "json": ardupilot_json.decode_state,
    "rflysim": rflysim.decode,
    "xrp": xrp.decode,
    "detect": protocols.detect_protocol,
}


def only_codec_errors(data: bytes) -> None:
    """Run every decoder and the detector on ``data``; anything but CodecError propagates."""
    for decoder in DECODERS.values():
        error = codec_error_of(decoder, data)
        if error is not None:
            assert error.protocol in {"ardupilot-json", "rflysim", "xrp"}
            assert error.reason
            assert str(error)


def codec_error_of(decoder: Decoder, data: bytes) -> CodecError | None:
    """The CodecError ``decoder`` raises for ``data``, if any; any other exception propagates."""
    try:
        decoder(data)
    except CodecError as error:
        return error
    return None


# --------------------------------------------------------------------------- strategies

random_datagrams = st.builds(
    lambda seed, size: random.Random(seed).randbytes(size),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=0, max_value=MAX_DATAGRAM),
)
tiled_datagrams = st.builds(
    lambda piece, size: (piece * (size // len(piece) + 1))[:size],
    st.binary(min_size=1, max_size=64),
    st.integers(min_value=1, max_value=MAX_DATAGRAM),
)
# Numbers as JSON text: Python's int() refuses more than 4300 digits, so they are written out.
huge_numbers = st.builds(
    lambda sign, digits, fraction, exponent: sign + digits + fraction + exponent,
    st.sampled_from(["", "-"]),
    st.integers(min_value=1, max_value=20_000).map(lambda count: "9" * count),
    st.sampled_from(["", ".5", "." + "1" * 400]),
    st.sampled_from(["", "e5", "e-400", "e99999", "E+" + "9" * 50]),
)
any_integers = st.integers().map(str)
KEYS = ["timestamp", "imu", "gyro", "accel_body", "velocity", "velocity_wind", "attitude", "quaternion",
        "rc", "rc_1", "rc_10", "windvane", "speed", "airspeed", "no_time_sync", "no_lockstep", "battery",
        "position", "rng_1", "x", "ü", "\\ud800", "\\u0000"]  # fmt: skip
scalar_texts = st.one_of(
    huge_numbers,
    any_integers,
    st.sampled_from(["true", "false", "null", "0", "1", "2", '"text"', '"\\ud800"', "[]", "{}", "1e999"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)


@st.composite
def json_values(draw: st.DrawFn, depth: int = 0) -> str:
    """A JSON value as text: scalars, vectors, objects of SITL's keys, or deep nesting."""
    kind = draw(st.integers(min_value=0, max_value=5 if depth < 3 else 1))
    if kind <= 1:
        return draw(scalar_texts)
    if kind == 2:
        items = draw(st.lists(scalar_texts, max_size=6))
        return "[" + ",".join(items) + "]"
    if kind == 3:
        nesting = draw(st.integers(min_value=1, max_value=3000))
        return "[" * nesting + "]" * nesting
    return draw(json_objects(depth + 1))


@st.composite
def json_objects(draw: st.DrawFn, depth: int = 0) -> str:
    members = draw(
        st.lists(st.tuples(st.sampled_from(KEYS), json_values(depth)), max_size=8 if depth else 16)
    )
    spacing = draw(st.sampled_from([":", ": ", " :"]))
    return "{" + ",".join(f'"{key}"{spacing}{value}' for key, value in members) + "}"


@st.composite
def json_datagrams(draw: st.DrawFn) -> bytes:
    """A SITL-like state, then extra keys (up to thousands), framed in the ways SITL meets."""
    state = {
        "timestamp": 1.5,
        "imu": {"gyro": [0, 0, 0], "accel_body": [0, 0, -9.81]},
        "velocity": [0, 0, 0],
        "attitude": [0, 0, 0],
    }
    body = json.dumps(state)[:-1]
    body += "".join(
        "," + member for member in draw(st.lists(json_objects().map(lambda o: o[1:-1]), max_size=4))
    )
    copies = draw(st.integers(min_value=0, max_value=5000))
    body += "".join(f',"k{index}":1' for index in range(copies))
    text = body.replace("{,", "{") + "}"
    frame = draw(
        st.sampled_from(["\n{}\n", "{}", "{}\n\n", "\n{}\n{}\n", "\n" * 2000 + "{}\n", "{}" + " " * 3000])
    )
    return frame.replace("{}", text).encode("utf-8", "surrogatepass")[:MAX_DATAGRAM]


@st.composite
def xrp_datagrams(draw: st.DrawFn) -> bytes:
    """A header, then a chain of blocks of any tag and size byte (right or wrong), up to 64 KiB."""
    data = draw(st.binary(min_size=3, max_size=3))
    count = draw(st.integers(min_value=0, max_value=3000))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    sizes = {0x12: 6, 0x13: 6, 0x14: 3, 0x15: 6, 0x16: 25, 0x17: 13, 0x18: rng.choice((6, 14))}
    blocks = []
    for _index in range(count):
        tag = rng.choice([*sizes, rng.randrange(256)])
        size = sizes.get(tag, rng.randrange(1, 40)) if rng.random() < 0.95 else rng.randrange(256)
        blocks.append(bytes([size, tag]) + rng.randbytes(max(0, size - 1)))
    return (data + b"".join(blocks) + draw(st.binary(max_size=3)))[:MAX_DATAGRAM]


RFLYSIM_HEADS = [(length, checksum) for length in (12, 32, 48, 60, 88, 112, 120, 168, 232, 264, 528)
                 for checksum in (1234567890, 1234567891, 1234567897, 123456789, 1234567893)]  # fmt: skip
binary_datagrams = st.one_of(
    st.builds(
        lambda head, body, cut: (struct.pack("<i", head[1]) + body * head[0])[: head[0] + cut],
        st.sampled_from(RFLYSIM_HEADS),
        st.binary(min_size=1, max_size=1),
        st.integers(min_value=-5, max_value=5),
    ),
    st.builds(
        lambda length_field, body: struct.pack("<ii", -1, length_field) + body,
        st.sampled_from([152, 200, 0, -1]),
        st.binary(min_size=192, max_size=192),
    ),
    st.builds(
        lambda magic, length, body: (struct.pack("<H", magic) + body)[:length],
        st.sampled_from([18458, 29569, 18459]),
        st.sampled_from([40, 72, 39, 41, 71, 73, 2, 1, 0]),
        st.binary(min_size=72, max_size=72),
    ),
)


# --------------------------------------------------------------------------- properties


class TestOnlyCodecErrorsEscape:
    @PROPERTY
    @given(random_datagrams)
    def test_random_datagrams_up_to_64_kib_only_raise_codec_errors(self, data: bytes) -> None:
        """
        GIVEN random bytes of any length up to 64 KiB
        WHEN every codec and the detector read them
        THEN each returns a frame or raises CodecError, never another exception.
        """
        only_codec_errors(data)

    @PROPERTY
    @given(tiled_datagrams)
    def test_repeated_fragments_up_to_64_kib_only_raise_codec_errors(self, data: bytes) -> None:
        """
        GIVEN a short fragment repeated up to 64 KiB (long runs of digits, brackets, newlines,
        tiny blocks)
        WHEN every codec and the detector read it
        THEN only CodecError escapes.
        """
        only_codec_errors(data)

    @PROPERTY
    @given(json_datagrams())
    @example(b'\n{"timestamp":' + b"1" * 5000 + b"}\n")
    @example(b'\n{"timestamp":1,"imu":{"gyro":[0,0,0],"accel_body":[0,0,0]},"velocity":[0,0,0],'
             b'"attitude":[0,0,0],"windvane":{"direction" :1},"windvane":{}}\n')  # fmt: skip
    @example(
        b'\n{"timestamp":1,"imu":{"gyro":[0,0,0],"accel_body":[0,0,0]},"velocity":[0,0,0],'
        b'"attitude":[0,0,0],"x":"no_time_sync  ' + b"1" * 5000 + b'"}\n'
    )
    def test_json_states_with_huge_numbers_and_any_structure_only_raise_codec_errors(
        self, data: bytes
    ) -> None:
        """
        GIVEN SITL-like JSON with integers of any size (the examples first: a 5000-digit timestamp,
        a section sent twice with an odd space, 5000 digits where SITL's strtoull replay reads),
        huge exponents, deep nesting, lone surrogates, thousands of keys and every framing SITL
        meets
        WHEN every codec and the detector read it
        THEN only CodecError escapes.
        """
        only_codec_errors(data)

    @PROPERTY
    @given(xrp_datagrams())
    def test_xrp_block_chains_of_any_length_only_raise_codec_errors(self, data: bytes) -> None:
        """
        GIVEN an XRP header and thousands of blocks, mostly well-sized, some not
        WHEN every codec and the detector read it
        THEN only CodecError escapes.
        """
        only_codec_errors(data)

    @PROPERTY
    @given(binary_datagrams)
    def test_fixed_size_packets_with_any_body_only_raise_codec_errors(self, data: bytes) -> None:
        """
        GIVEN RflySim and servo packets with a right or nearly right length and magic or checksum
        WHEN every codec and the detector read them
        THEN only CodecError escapes.
        """
        only_codec_errors(data)


class TestDetectionAgreesWithDecoding:
    @PROPERTY
    @given(st.one_of(binary_datagrams, xrp_datagrams(), json_datagrams(), random_datagrams))
    def test_what_the_detector_recognises_its_codec_accepts(self, data: bytes) -> None:
        """
        GIVEN any datagram
        WHEN the detector names a binary protocol for it
        THEN that protocol's decoder accepts it: a RflySim kind the detector knows decodes or is
        recognised, never a "wrong length" error.
        """
        found = protocols.detect_protocol(data)
        if found == "rflysim":
            assert isinstance(rflysim.decode(data), rflysim.RflySimFrame)
        elif found == "xrp":
            assert isinstance(xrp.decode(data), xrp.XrpPacket)
        elif found == "ardupilot-json" and detect.is_servo_packet(data):
            assert isinstance(sitl_servo_packet.decode_servo_packet(data), sitl_servo_packet.ServoPacket)


@pytest.mark.parametrize(
    "data",
    [
        b'\n{"timestamp":' + b"1" * 5000 + b"}\n",
        b'\n{"timestamp":'
        + b"1" * 5000
        + b',"imu":{"gyro":[0,0,0],"accel_body":[0,0,0]},"velocity":[0,0,0]}\n',
    ],
    ids=["alone", "with-the-other-required-keys"],
)
def test_a_5000_digit_timestamp_is_a_codec_error_not_a_value_error(data: bytes) -> None:
    """
    GIVEN the datagram that killed the demo vehicle's thread: a timestamp of 5000 digits
    WHEN it is decoded as a JSON state
    THEN a CodecError comes out (SITL's atof would read infinity: out of range), not ValueError.
    """
    with pytest.raises(CodecError) as caught:
        ardupilot_json.decode_state(data)
    assert caught.value.reason in {"missing-key", "number"}

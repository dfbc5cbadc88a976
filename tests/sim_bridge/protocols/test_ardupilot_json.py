# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the ArduPilot SITL JSON codec: binary servo packets and JSON state replies.

Servo vectors are packed here with ``struct`` ('<HHI16H' / '<HHI32H', PROTOCOLS.md A.2); JSON
vectors are written out by hand, including the forms that SITL's substring reader misreads
(PROTOCOLS.md A.3 and A.5).
"""

from __future__ import annotations

import json
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, sitl_servo_packet
from amc_rc_receiver.sim_bridge.protocols.ardupilot_json import FdmState
from amc_rc_receiver.sim_bridge.protocols.errors import CodecError
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import ServoPacket

pytestmark = pytest.mark.pure

PWM16 = tuple(range(1000, 1016))
PWM32 = tuple(range(1100, 1132))


def servo16(magic: int = 18458) -> bytes:
    return struct.pack("<HHI16H", magic, 1200, 77, *PWM16)


def servo32(magic: int = 29569) -> bytes:
    return struct.pack("<HHI32H", magic, 400, 2**32 - 1, *PWM32)


IMU = '"imu":{"gyro":[0.01,-0.02,0.03],"accel_body":[0.1,0.2,-9.81]}'
# The smallest message SITL accepts: the four required keys and an attitude.
MINIMAL = '{"timestamp":2.5,' + IMU + ',"attitude":[0.1,0.2,0.3],"velocity":[1,2,3]}'
MINIMAL_STATE = FdmState(
    timestamp=2.5,
    gyro=(0.01, -0.02, 0.03),
    accel_body=(0.1, 0.2, -9.81),
    velocity=(1.0, 2.0, 3.0),
    attitude=(0.1, 0.2, 0.3),
)


def framed(body: str) -> bytes:
    return ("\n" + body + "\n").encode()


def with_keys(extra: str, before: str = "") -> bytes:
    """MINIMAL with ``before`` inserted first and ``extra`` appended inside the object."""
    body = MINIMAL[:-1] + ("," + extra if extra else "") + "}"
    if before:
        body = "{" + before + "," + body[1:]
    return framed(body)


FULL_STATE = FdmState(
    timestamp=1234.5678,
    gyro=(0.001, -0.002, 0.5),
    accel_body=(0.25, -0.125, -9.80665),
    velocity=(3.0, -1.5, 0.25),
    attitude=(0.01, -0.02, 3.1),
    quaternion=(1.0, 0.0, 0.0, 0.0),
    position=(100.0, -50.0, -10.0),
    latitude=-35.363261,
    longitude=149.165230,
    altitude=584.0,
    rng=(1.5, None, 3.25, None, None, 0.5),
    velocity_wind=(2.0, 1.0, 0.0),
    windvane_direction=0.785,
    windvane_speed=4.5,
    airspeed=12.0,
    no_time_sync=True,
    no_lockstep=False,
    rc=(1500.0, 1500.0, 1000.0, 1500.0, None, None, None, None, None, 1900.0, 1100.0, 2000.0),
    battery_voltage=12.6,
    battery_current=3.2,
)


class TestServoPackets:
    def test_16_channel_packet_decodes_and_reencodes_byte_exactly(self) -> None:
        """
        GIVEN a 40-byte servo packet with magic 18458 packed as '<HHI16H'
        WHEN it is decoded and encoded again
        THEN magic, frame rate, frame count and 16 PWM values are read and the bytes are identical.
        """
        packet = sitl_servo_packet.decode_servo_packet(servo16())
        assert packet == ServoPacket(magic=18458, frame_rate=1200, frame_count=77, pwm=PWM16)
        assert (
            sitl_servo_packet.encode_servo_packet(packet.frame_rate, packet.frame_count, packet.pwm)
            == servo16()
        )

    def test_32_channel_packet_decodes_and_reencodes_byte_exactly(self) -> None:
        """
        GIVEN a 72-byte servo packet with magic 29569 and the largest frame count
        WHEN it is decoded and encoded again
        THEN 32 PWM values are read and the bytes are identical.
        """
        packet = sitl_servo_packet.decode_servo_packet(servo32())
        assert packet == ServoPacket(magic=29569, frame_rate=400, frame_count=2**32 - 1, pwm=PWM32)
        assert (
            sitl_servo_packet.encode_servo_packet(packet.frame_rate, packet.frame_count, packet.pwm)
            == servo32()
        )

    def test_a_decoded_servo_packet_is_an_immutable_hashable_value(self) -> None:
        """
        GIVEN the same servo packet decoded twice
        WHEN the frames are compared, hashed and assigned to
        THEN they are equal with one hash, equal to no plain tuple, and refuse any change.
        """
        first = sitl_servo_packet.decode_servo_packet(servo16())
        second = sitl_servo_packet.decode_servo_packet(servo16())
        assert first == second
        assert len({first, second}) == 1
        assert first != (18458, 1200, 77, PWM16)  # type: ignore[comparison-overlap]
        assert not hasattr(first, "__dict__")  # slots: no attribute can be added either
        with pytest.raises(AttributeError):
            first.frame_count = 78  # type: ignore[misc]
        assert repr(first).startswith("ServoPacket(magic=18458, frame_rate=1200, frame_count=77, pwm=(")

    @pytest.mark.parametrize(
        ("data", "reason", "message"),
        [
            (servo16()[:39], "truncated", "length 39, expected 40 for magic 18458"),
            (servo16() + b"\0", "trailing-bytes", "length 41, expected 40 for magic 18458: 1 trailing bytes"),
            (servo32()[:71], "truncated", "length 71, expected 72 for magic 29569"),
            (
                struct.pack("<HHI32H", 18458, 1, 1, *PWM32),
                "length",
                "length 72, expected 40 for magic 18458 (72 bytes is the size that goes with magic 29569)",
            ),
            (
                servo16(magic=29569),
                "length",
                "length 40, expected 72 for magic 29569 (40 bytes is the size that goes with magic 18458)",
            ),
            (
                servo16(magic=18459),
                "magic",
                "magic 18459 is not a SITL servo packet: expected 18458 (16 channels) or 29569 (32 channels)",
            ),
            (
                b"\x1a",
                "truncated",
                "length 1 is too short to hold a magic: a SITL servo packet is 40 or 72 bytes",
            ),
            (b"", "truncated", "empty datagram: a SITL servo packet is 40 or 72 bytes"),
        ],
    )
    def test_each_malformed_servo_packet_gets_its_reason_and_sentence(
        self, data: bytes, reason: str, message: str
    ) -> None:
        """
        GIVEN a truncated, over-long, wrong-magic or magic/size-mismatched servo packet
        WHEN it is decoded
        THEN the CodecError has the stable reason and exactly the expected sentence.
        """
        with pytest.raises(CodecError) as caught:
            sitl_servo_packet.decode_servo_packet(data)
        assert (caught.value.protocol, caught.value.reason, str(caught.value)) == (
            "ardupilot-json",
            reason,
            message,
        )

    @pytest.mark.parametrize(
        ("pwm", "match"), [([1500] * 15, "15 PWM values"), ([70000] * 16, "cannot encode")]
    )
    def test_unencodable_servo_packets_raise_codec_error(self, pwm: list[int], match: str) -> None:
        """
        GIVEN a PWM list of the wrong length or with a value beyond 16 bits
        WHEN it is encoded
        THEN a CodecError with reason "value" says why.
        """
        with pytest.raises(CodecError, match=match) as caught:
            sitl_servo_packet.encode_servo_packet(400, 1, pwm)
        assert caught.value.reason == "value"


class TestJsonStates:
    def test_minimal_message_decodes_without_warnings(self) -> None:
        """
        GIVEN a newline-framed message with just the required keys and an attitude
        WHEN it is decoded
        THEN the state holds those values, everything optional is absent and nothing is warned.
        """
        assert ardupilot_json.decode_state(framed(MINIMAL)) == MINIMAL_STATE

    def test_readme_style_message_with_spaces_after_colons_decodes_cleanly(self) -> None:
        """
        GIVEN a message written with spaces after colons and commas, all keys in a safe order
        WHEN it is decoded
        THEN the values are read and no warning is given (SITL tolerates spaces before numbers).
        """
        text = json.dumps(json.loads(MINIMAL))  # default separators: ", " and ": "
        assert " " in text
        assert ardupilot_json.decode_state(framed(text)) == MINIMAL_STATE

    def test_every_key_decodes_into_its_field(self) -> None:
        """
        GIVEN a hand-written message carrying every key of SITL's keytable
        WHEN it is decoded
        THEN each value lands in its field, rc gaps are None and the rc tuple ends at rc_12.
        """
        body = (
            '{"timestamp":1234.5678,"imu":{"gyro":[0.001,-0.002,0.5],"accel_body":[0.25,-0.125,-9.80665]},'
            '"position":[100,-50,-10],"attitude":[0.01,-0.02,3.1],"quaternion":[1,0,0,0],'
            '"velocity":[3,-1.5,0.25],"velocity_wind":[2,1,0],"latitude":-35.363261,"longitude":149.16523,'
            '"altitude":584,"rng_1":1.5,"rng_3":3.25,"rng_6":0.5,"airspeed":12,'
            '"windvane":{"direction":0.785,"speed":4.5},"no_time_sync":1,"no_lockstep":false,'
            '"rc":{"rc_1":1500,"rc_2":1500,"rc_3":1000,"rc_4":1500,"rc_10":1900,"rc_11":1100,"rc_12":2000},'
            '"battery":{"voltage":12.6,"current":3.2}}'
        )
        assert ardupilot_json.decode_state(framed(body)) == FULL_STATE

    def test_encoding_is_compact_framed_and_round_trips(self) -> None:
        """
        GIVEN a state using every field
        WHEN it is encoded, decoded and encoded again
        THEN the text is "\\n{...}\\n" without spaces, the state comes back equal and the bytes too.
        """
        data = ardupilot_json.encode_state(FULL_STATE)
        assert data.startswith(b"\n{")
        assert data.endswith(b"}\n")
        assert b" " not in data
        assert data.count(b"\n") == 2
        decoded = ardupilot_json.decode_state(data)
        assert decoded == FULL_STATE
        assert ardupilot_json.encode_state(decoded) == data

    def test_encoder_orders_keys_so_no_name_is_found_inside_an_earlier_one(self) -> None:
        """
        GIVEN a state with velocity and velocity_wind, rc_1 and rc_10, airspeed and a windvane
        WHEN it is encoded
        THEN velocity precedes velocity_wind, rc_1 precedes rc_10 and airspeed precedes the windvane.
        """
        text = ardupilot_json.encode_state(FULL_STATE).decode()
        assert text.index('"velocity"') < text.index('"velocity_wind"')
        assert text.index('"rc_1"') < text.index('"rc_10"')
        assert text.index('"airspeed"') < text.index('"windvane"')

    def test_only_windvane_direction_is_written_without_speed_being_misread(self) -> None:
        """
        GIVEN a state with airspeed and a windvane direction but no windvane speed
        WHEN it is encoded and decoded
        THEN SITL's reader would not take the windvane speed from "airspeed": no warning.
        """
        state = FdmState(
            timestamp=1.0, gyro=(0, 0, 0), accel_body=(0, 0, 0), velocity=(0, 0, 0), attitude=(0, 0, 0),
            airspeed=7.5, windvane_direction=1.0,
        )  # fmt: skip
        assert ardupilot_json.decode_state(ardupilot_json.encode_state(state)) == state

    def test_empty_rc_object_decodes_as_no_channels(self) -> None:
        """
        GIVEN a message with "rc":{}
        WHEN it is decoded
        THEN rc is an empty tuple (an rc object without channels), not None.
        """
        state = ardupilot_json.decode_state(with_keys('"rc":{}'))
        assert state.rc == ()
        assert state.warnings == ()

    def test_message_without_leading_newline_is_accepted_silently(self) -> None:
        """
        GIVEN a message that ends with a newline but does not start with one
        WHEN it is decoded
        THEN it decodes without a warning (after the first message SITL frames it correctly).
        """
        assert ardupilot_json.decode_state((MINIMAL + "\n").encode()) == MINIMAL_STATE

    def test_crlf_line_endings_are_accepted(self) -> None:
        """
        GIVEN a message framed with CR LF
        WHEN it is decoded
        THEN the CR is JSON white space and the state decodes without warnings.
        """
        assert ardupilot_json.decode_state(("\r\n" + MINIMAL + "\r\n").encode()) == MINIMAL_STATE


def warnings_of(data: bytes) -> tuple[str, ...]:
    return ardupilot_json.decode_state(data).warnings


class TestSitlPitfalls:
    def test_velocity_wind_before_velocity_is_warned(self) -> None:
        """
        GIVEN "velocity_wind" sent before "velocity"
        WHEN the message is decoded
        THEN the JSON values are kept and a warning says SITL reads velocity from velocity_wind.
        """
        body = '{"timestamp":1,' + IMU + ',"attitude":[0,0,0],"velocity_wind":[9,9,9],"velocity":[1,2,3]}'
        state = ardupilot_json.decode_state(framed(body))
        assert state.velocity == (1.0, 2.0, 3.0)
        assert state.velocity_wind == (9.0, 9.0, 9.0)
        column = body.index('"velocity_wind"') + 2
        real = body.index('"velocity"') + 2
        assert state.warnings == (
            'SITL matches names by substring: it would read "velocity" from "velocity_wind" at column '
            f'{column} instead of from column {real}; send "velocity" before it',
        )

    def test_rc_10_before_rc_1_is_warned(self) -> None:
        """
        GIVEN rc_10 sent before rc_1 inside "rc"
        WHEN the message is decoded
        THEN rc holds both values and a warning says SITL reads rc_1 from rc_10.
        """
        state = ardupilot_json.decode_state(with_keys('"rc":{"rc_10":1900,"rc_1":1500}'))
        assert state.rc == (1500.0, *([None] * 8), 1900.0)
        assert len(state.warnings) == 1
        assert 'it would read "rc.rc_1" from "rc_10" at column' in state.warnings[0]

    @pytest.mark.parametrize("channel", [10, 11, 12])
    def test_rc_10_to_12_without_rc_1_make_sitl_invent_rc_1(self, channel: int) -> None:
        """
        GIVEN an rc object with rc_10, rc_11 or rc_12 but no rc_1
        WHEN the message is decoded
        THEN a warning says SITL would read a value for rc_1 that the message does not contain.
        """
        warnings = warnings_of(with_keys(f'"rc":{{"rc_{channel}":1900}}'))
        assert len(warnings) == 1
        assert f'would read "rc.rc_1" = 0.0 from "rc_{channel}"' in warnings[0]
        assert 'although the message has no "rc.rc_1"' in warnings[0]

    def test_rc_section_matching_earlier_text_is_warned(self) -> None:
        """
        GIVEN "source" (which contains "rc") and a misplaced top-level "rc_1" before the "rc" object
        WHEN the message is decoded
        THEN SITL's section search stops in "source", so its misread of rc.rc_1 is warned, and
        both stray keys are reported as ignored.
        """
        data = with_keys('"rc":{"rc_1":1500}', before='"source":1,"rc_1":1100')
        real_column = data.decode().strip().rindex('"rc_1"') + 2
        state = ardupilot_json.decode_state(data)
        assert state.rc == (1500.0,)
        assert state.warnings == (
            'SITL ignores the unknown key "source"',
            'SITL ignores the unknown key "rc_1"',
            'SITL matches names by substring: it would read "rc.rc_1" from another "rc_1" at column 14 '
            f'instead of from column {real_column}; send "rc_1" before it',
        )

    def test_rc_section_matching_earlier_text_is_harmless_when_no_rc_1_follows(self) -> None:
        """
        GIVEN "source" before the "rc" object and no other "rc_1" in between
        WHEN the message is decoded
        THEN SITL still finds the real rc_1, so only the unknown key is reported.
        """
        assert warnings_of(with_keys('"rc":{"rc_1":1500}', before='"source":1')) == (
            'SITL ignores the unknown key "source"',
        )

    @pytest.mark.parametrize("key", ["no_time_sync", "no_lockstep"])
    def test_true_flag_with_a_space_after_the_colon_is_read_as_false_by_sitl(self, key: str) -> None:
        """
        GIVEN "no_time_sync": true or "no_lockstep": true written with a space
        WHEN the message is decoded
        THEN the flag is True and a warning says SITL reads false and to write 1, which every build
        reads as true.
        """
        state = ardupilot_json.decode_state(with_keys(f'"{key}": true'))
        assert getattr(state, key) is True
        assert state.warnings == (
            f'SITL reads "{key}" as false instead of true: write "{key}":1, which every SITL build reads as '
            "true",
        )

    def test_false_flag_with_a_space_is_read_correctly_and_not_warned(self) -> None:
        """
        GIVEN "no_time_sync": false with a space
        WHEN the message is decoded
        THEN SITL reads false too, so there is no warning.
        """
        state = ardupilot_json.decode_state(with_keys('"no_time_sync": false'))
        assert state.no_time_sync is False
        assert state.warnings == ()

    def test_space_before_the_colon_of_a_number_is_warned(self) -> None:
        """
        GIVEN "airspeed" : 12 with a space before the colon
        WHEN the message is decoded
        THEN a warning says SITL reads 0.0 and to remove the space.
        """
        assert warnings_of(with_keys('"airspeed" :12')) == (
            'SITL reads "airspeed" as 0.0 instead of 12.0: remove the space between "airspeed" and its colon',
        )

    def test_windvane_without_speed_followed_by_airspeed_is_warned(self) -> None:
        """
        GIVEN a windvane with only a direction, followed by "airspeed"
        WHEN the message is decoded
        THEN a warning says SITL takes the windvane speed from "airspeed".
        """
        warnings = warnings_of(with_keys('"windvane":{"direction":1},"airspeed":3'))
        assert len(warnings) == 1
        assert 'would read "windvane.speed" = 3.0 from "airspeed"' in warnings[0]

    def test_missing_trailing_newline_is_warned(self) -> None:
        """
        GIVEN a message with a leading newline but none after it
        WHEN the message is decoded
        THEN it decodes and a warning says SITL parses it one datagram late.
        """
        state = ardupilot_json.decode_state(("\n" + MINIMAL).encode())
        assert state.timestamp == 2.5
        assert state.warnings == (
            "no newline after the JSON message: SITL parses it only when the next datagram arrives "
            "(one datagram late); end every message with \\n",
        )

    def test_several_messages_in_one_datagram_decode_the_last_and_warn(self) -> None:
        """
        GIVEN two complete messages in one datagram
        WHEN it is decoded
        THEN the last one is decoded (the one SITL uses) and a warning says only it is used.
        """
        first = MINIMAL.replace('"timestamp":2.5', '"timestamp":1.0')
        state = ardupilot_json.decode_state(framed(first + "\n" + MINIMAL))
        assert state.timestamp == 2.5
        assert state.warnings == (
            "2 JSON messages in one datagram: only the last is used; send one per datagram",
        )

    def test_trailing_empty_line_is_warned(self) -> None:
        """
        GIVEN a message followed by two newlines
        WHEN it is decoded
        THEN a warning says SITL parses the empty last line and rejects the datagram.
        """
        warnings = warnings_of(framed(MINIMAL) + b"\n")
        assert len(warnings) == 1
        assert warnings[0].startswith("the datagram ends with an empty line")

    def test_duplicate_key_is_warned(self) -> None:
        """
        GIVEN "timestamp" twice
        WHEN the message is decoded
        THEN the last value is shown and a warning says SITL reads the first.
        """
        state = ardupilot_json.decode_state(framed('{"timestamp":1,' + MINIMAL[1:]))
        assert state.timestamp == 2.5
        assert state.warnings == (
            'key "timestamp" appears 2 times: SITL reads the first, '
            "this decoder shows the last; send it once",
        )

    def test_unknown_keys_are_reported_as_ignored(self) -> None:
        """
        GIVEN an unknown top-level key and an unknown key inside "imu"
        WHEN the message is decoded
        THEN each gets an "ignored" warning.
        """
        body = MINIMAL.replace('"accel_body"', '"temp":20,"accel_body"')[:-1] + ',"motor":{"rpm":[1,2]}}'
        assert warnings_of(framed(body)) == (
            'SITL ignores the unknown key "imu.temp"',
            'SITL ignores the unknown key "motor"',
        )


class TestFlags:
    def test_the_encoder_writes_flags_as_1_and_0_which_every_sitl_build_reads(self) -> None:
        """
        GIVEN a state with no_time_sync true and no_lockstep false
        WHEN it is encoded and decoded
        THEN the text says "no_time_sync":1 and "no_lockstep":0 (SITL builds of 2025 read these
        with strtoull alone), and the flags come back without warnings.
        """
        state = FdmState(
            1.0, (0, 0, 0), (0, 0, 0), (0, 0, 0), attitude=(0, 0, 0), no_time_sync=True, no_lockstep=False
        )
        data = ardupilot_json.encode_state(state)
        assert b'"no_time_sync":1' in data
        assert b'"no_lockstep":0' in data
        assert b"true" not in data
        assert ardupilot_json.decode_state(data) == state

    @pytest.mark.parametrize(
        ("text", "value"),
        [("true", True), ("false", False), ("1", True), ("0", False), ("1.0", True), ("0e5", False)],
    )
    def test_the_decoder_reads_true_false_1_and_0(self, text: str, value: bool) -> None:
        """
        GIVEN "no_lockstep" written as true, false, 1, 0 or an equal number
        WHEN the message is decoded
        THEN the flag has that value.
        """
        assert ardupilot_json.decode_state(with_keys(f'"no_lockstep":{text}')).no_lockstep is value

    @pytest.mark.parametrize("key", ["no_time_sync", "no_lockstep"])
    def test_a_true_flag_warns_that_sitl_builds_of_2025_read_it_as_false(self, key: str) -> None:
        """
        GIVEN "no_time_sync":true or "no_lockstep":true, written without a space
        WHEN the message is decoded
        THEN the flag is True, and one warning says which builds take true for false and to write 1.
        """
        state = ardupilot_json.decode_state(with_keys(f'"{key}":true'))
        assert getattr(state, key) is True
        assert state.warnings == (
            f'SITL builds of 2025 read "{key}" as a number only, so they take true for false; '
            f'write "{key}":1, which every build reads as true',
        )

    @pytest.mark.parametrize("text", ["1", "false", "0", " 1"])
    def test_flags_every_build_reads_right_are_not_warned(self, text: str) -> None:
        """
        GIVEN "no_time_sync" written as 1, false, 0 or " 1" (strtoull skips the space)
        WHEN the message is decoded
        THEN there is no warning.
        """
        assert warnings_of(with_keys(f'"no_time_sync":{text}')) == ()


TOO_LARGE_TO_MAP = (
    "the message is too large to map key by key: SITL's misreads are found by value, without columns, "
    "and repeated keys are not counted"
)


class TestBoundedWork:
    def test_hundreds_of_unknown_keys_are_counted_and_only_the_first_named(self) -> None:
        """
        GIVEN a state with 900 unknown keys (about 8 KB)
        WHEN it is decoded
        THEN the state decodes, the first 8 unknown keys are named, one warning counts the other
        892, and one says the message was too large to map key by key.
        """
        unknown = ",".join(f'"k{index}":1' for index in range(900))
        state = ardupilot_json.decode_state(with_keys(unknown))
        assert state.timestamp == 2.5
        assert state.warnings == (
            *(f'SITL ignores the unknown key "k{index}"' for index in range(8)),
            "SITL ignores 892 more unknown keys",
            TOO_LARGE_TO_MAP,
        )

    def test_unknown_keys_inside_sections_count_too(self) -> None:
        """
        GIVEN 20 unknown keys inside "imu" and 5 at the top level
        WHEN the message is decoded
        THEN the first 8 in document order are named (the section's first) and 17 more counted.
        """
        inner = ",".join(f'"i{index}":1' for index in range(20))
        body = MINIMAL.replace('"gyro"', inner + ',"gyro"')[:-1]
        body += "," + ",".join(f'"t{index}":1' for index in range(5)) + "}"
        warnings = warnings_of(framed(body))
        assert warnings[:8] == tuple(f'SITL ignores the unknown key "imu.i{index}"' for index in range(8))
        assert warnings[8:] == ("SITL ignores 17 more unknown keys",)

    def test_a_state_never_carries_more_than_16_warnings(self) -> None:
        """
        GIVEN a message that earns more than 16 warnings (misplaced rc channels, bad spacing,
        unknown keys, two messages, no final newline)
        WHEN it is decoded
        THEN 15 warnings are kept and the 16th says how many more were left out.
        """
        channels = ",".join(f'"rc_{index}" :{1000 + index}' for index in range(12, 0, -1))
        extra = f'"rc":{{{channels}}},' + ",".join(f'"u{index}":1' for index in range(30))
        data = ("\n" + MINIMAL + "\n" + MINIMAL[:-1] + "," + extra + "}").encode()
        warnings = warnings_of(data)
        assert len(warnings) == ardupilot_json.MAX_WARNINGS == 16
        assert warnings[-1].endswith("more warnings not shown")

    def test_a_message_too_large_to_map_still_warns_misreads_by_value(self) -> None:
        """
        GIVEN "velocity_wind" before "velocity" in a message padded past 8 KB with a long string
        WHEN it is decoded
        THEN the values are the JSON's, and the misread is still warned, by value (SITL's reader
        is replayed for every key; only the column hints need the key map).
        """
        padding = '"note":"' + "x" * 9000 + '",'
        body = (
            "{"
            + padding
            + '"timestamp":1,'
            + IMU
            + ',"attitude":[0,0,0],"velocity_wind":[9,9,9],"velocity":[1,2,3]}'
        )
        state = ardupilot_json.decode_state(framed(body))
        assert state.velocity == (1.0, 2.0, 3.0)
        assert state.warnings == (
            'SITL ignores the unknown key "note"',
            TOO_LARGE_TO_MAP,
            'SITL reads "velocity" as [9.0,9.0,9.0] instead of [1.0,2.0,3.0]',
        )

    def test_a_long_or_unprintable_key_name_is_cut_and_escaped_in_its_warning(self) -> None:
        """
        GIVEN an unknown key of 5000 characters and one holding a control character
        WHEN the message is decoded
        THEN the warnings show the first 40 characters and an ellipsis, and the control character
        as an escape.
        """
        warnings = warnings_of(with_keys('"' + "k" * 5000 + '":1,"a\\u0007b":2'))
        assert warnings == (
            'SITL ignores the unknown key "' + "k" * 40 + '…"',
            'SITL ignores the unknown key "a\\u0007b"',
        )

    def test_a_huge_integer_in_an_unknown_key_decodes_as_sitl_would(self) -> None:
        """
        GIVEN an unknown key whose value has 5000 digits (beyond Python's int() limit)
        WHEN the message is decoded
        THEN the state decodes and the key is reported as ignored.
        """
        state = ardupilot_json.decode_state(with_keys('"big":' + "7" * 5000))
        assert state.warnings == ('SITL ignores the unknown key "big"',)

    @pytest.mark.parametrize(("digits", "sign"), [(5000, ""), (400, "-")])
    def test_a_huge_timestamp_is_out_of_range(self, digits: int, sign: str) -> None:
        """
        GIVEN a timestamp of 5000 digits, or of -400 digits (beyond a double)
        WHEN the message is decoded
        THEN a CodecError "number" says it is out of range (SITL's atof reads infinity).
        """
        with pytest.raises(CodecError, match=r'"timestamp" is out of range: -?inf') as caught:
            ardupilot_json.decode_state(framed(MINIMAL.replace("2.5", sign + "1" * digits)))
        assert caught.value.reason == "number"

    def test_thousands_of_newlines_before_the_message_are_framed_without_a_warning(self) -> None:
        """
        GIVEN 30,000 newlines and then one message
        WHEN it is decoded
        THEN it decodes with no warning: blank lines are not messages.
        """
        assert ardupilot_json.decode_state(b"\n" * 30_000 + framed(MINIMAL)) == MINIMAL_STATE

    def test_hundreds_of_messages_in_one_datagram_are_warned_without_a_count(self) -> None:
        """
        GIVEN 100 messages in one datagram
        WHEN it is decoded
        THEN the last is used and one warning says several messages came in one datagram.
        """
        state = ardupilot_json.decode_state(framed("\n".join([MINIMAL] * 100)))
        assert state.warnings == (
            "several JSON messages in one datagram: only the last is used; send one per datagram",
        )

    def test_a_section_sent_twice_is_decoded_as_json_reads_it_and_warned(self) -> None:
        """
        GIVEN "windvane" twice, the first with a direction and the second empty
        WHEN the message is decoded
        THEN the direction is absent (the last object wins in JSON) and a warning says SITL would
        still read one from the first object.
        """
        data = with_keys('"windvane":{"direction":1},"windvane":{}')
        column = data.decode().strip().index('"direction"') + 2
        state = ardupilot_json.decode_state(data)
        assert state.windvane_direction is None
        assert state.warnings == (
            'SITL matches names by substring: it would read "windvane.direction" = 1.0 from another '
            f'"direction" at column {column}, although the message has no "windvane.direction"',
        )


class TestMalformedStates:
    @pytest.mark.parametrize(
        ("body", "reason", "message"),
        [
            (MINIMAL.replace(',"velocity":[1,2,3]', ""), "missing-key", 'missing required key "velocity"'),
            (MINIMAL.replace('"timestamp":2.5,', ""), "missing-key", 'missing required key "timestamp"'),
            (
                MINIMAL.replace(IMU + ",", ""),
                "missing-key",
                'missing required keys "imu.gyro", "imu.accel_body"',
            ),
            (
                MINIMAL.replace('"velocity"', '"velocity_wind"'),
                "missing-key",
                'missing required key "velocity" (SITL would read it from "velocity_wind" at column '
                f"{MINIMAL.index('velocity') + 1})",
            ),
            (
                MINIMAL.replace('"attitude"', '"euler"'),
                "missing-key",
                'missing "attitude" or "quaternion": SITL needs one of them',
            ),
            (MINIMAL.replace("[1,2,3]", "[1,2]"), "short-vector", '"velocity" has 2 numbers, expected 3'),
            (MINIMAL.replace("[1,2,3]", "[1,2,3,4]"), "long-vector", '"velocity" has 4 numbers, expected 3'),
            (
                MINIMAL.replace('"attitude":[0.1,0.2,0.3]', '"quaternion":[1,0,0]'),
                "short-vector",
                '"quaternion" has 3 numbers, expected 4',
            ),
            (MINIMAL.replace("2.5", '"2.5"'), "type", '"timestamp" must be a number, got a string'),
            (MINIMAL.replace("[1,2,3]", "[1,null,3]"), "type", '"velocity[1]" must be a number, got null'),
            (
                MINIMAL.replace("[1,2,3]", "[1,true,3]"),
                "type",
                '"velocity[1]" must be a number, got true/false',
            ),
            (MINIMAL[:-1] + ',"no_lockstep":2}', "value", '"no_lockstep" must be true, false, 0 or 1, got 2'),
            (
                MINIMAL[:-1] + ',"no_lockstep":"1"}',
                "type",
                '"no_lockstep" must be true, false, 0 or 1, got a string',
            ),
            (MINIMAL.replace(IMU, '"imu":[1]'), "type", '"imu" must be an object, got a list'),
            (MINIMAL.replace("2.5", "1e999"), "number", '"timestamp" is out of range: inf'),
            (MINIMAL.replace("2.5", "NaN"), "json", "not valid JSON: NaN is not a JSON number"),
            (MINIMAL[:-1], "json", "not valid JSON: Expecting ',' delimiter at line 1 column"),
            ("[1,2,3]", "json", "the message is a list, expected a JSON object"),
            ('"text"', "json", "the message is a string, expected a JSON object"),
        ],
    )
    def test_each_malformed_state_gets_its_reason_and_sentence(
        self, body: str, reason: str, message: str
    ) -> None:
        """
        GIVEN a message with a missing key, a wrong vector length, a wrong type or bad JSON
        WHEN it is decoded
        THEN the CodecError has the stable reason and a sentence naming the key and the problem.
        """
        with pytest.raises(CodecError) as caught:
            ardupilot_json.decode_state(framed(body))
        assert caught.value.reason == reason
        assert caught.value.protocol == "ardupilot-json"
        assert str(caught.value).startswith(message)

    @pytest.mark.parametrize("data", [b"", b"\n", b" \r\n\t\n"])
    def test_datagram_without_a_message_is_empty(self, data: bytes) -> None:
        """
        GIVEN an empty or white-space-only datagram
        WHEN it is decoded
        THEN the reason is "empty".
        """
        with pytest.raises(CodecError, match="no JSON message") as caught:
            ardupilot_json.decode_state(data)
        assert caught.value.reason == "empty"

    def test_non_utf8_bytes_are_an_encoding_error(self) -> None:
        """
        GIVEN a datagram with a byte that is not UTF-8
        WHEN it is decoded
        THEN the error names the byte and its offset.
        """
        with pytest.raises(CodecError, match="not UTF-8 text: byte 0xff at offset 1") as caught:
            ardupilot_json.decode_state(b"\n\xff{}\n")
        assert caught.value.reason == "encoding"

    def test_encoding_a_non_finite_value_is_refused(self) -> None:
        """
        GIVEN a state with an infinite timestamp
        WHEN it is encoded
        THEN a CodecError with reason "value" is raised (JSON has no infinity).
        """
        with pytest.raises(CodecError) as caught:
            ardupilot_json.encode_state(
                FdmState(float("inf"), (0, 0, 0), (0, 0, 0), (0, 0, 0), attitude=(0, 0, 0))
            )
        assert caught.value.reason == "value"

    def test_encoding_a_short_vector_is_refused(self) -> None:
        """
        GIVEN a state whose velocity has two values
        WHEN it is encoded
        THEN the error names the field.
        """
        state = FdmState(0.0, (0, 0, 0), (0, 0, 0), (0, 0), attitude=(0, 0, 0))  # type: ignore[arg-type]
        with pytest.raises(CodecError, match="cannot encode velocity: 2 values, expected 3"):
            ardupilot_json.encode_state(state)


def decode_outcome(decoder: object, data: bytes) -> object:
    """The decoded frame, or the CodecError (any other exception propagates and fails the test)."""
    try:
        return decoder(data)  # type: ignore[operator]
    except CodecError as error:
        return error


finite = st.floats(allow_nan=False, allow_infinity=False)
vector3 = st.tuples(finite, finite, finite)
maybe = st.none().__or__


@st.composite
def rc_channels(draw: st.DrawFn) -> tuple[float | None, ...] | None:
    """None, or 0..12 channels ending in a value; rc_1 present whenever rc_10..12 are sent."""
    if draw(st.booleans()):
        return None
    count = draw(st.integers(min_value=0, max_value=12))
    values = [draw(maybe(finite)) for _ in range(count)]
    if count:
        values[-1] = draw(finite)
    if count >= 10:
        values[0] = draw(finite)
    return tuple(values)


states = st.builds(
    FdmState,
    timestamp=finite,
    gyro=vector3,
    accel_body=vector3,
    velocity=vector3,
    attitude=maybe(vector3),
    quaternion=st.tuples(finite, finite, finite, finite),
    position=maybe(vector3),
    latitude=maybe(finite),
    longitude=maybe(finite),
    altitude=maybe(finite),
    rng=st.tuples(*[maybe(finite)] * 6),
    velocity_wind=maybe(vector3),
    windvane_direction=maybe(finite),
    windvane_speed=maybe(finite),
    airspeed=maybe(finite),
    no_time_sync=maybe(st.booleans()),
    no_lockstep=maybe(st.booleans()),
    rc=rc_channels(),
    battery_voltage=maybe(finite),
    battery_current=maybe(finite),
)

KEYS = ["timestamp", "imu", "velocity", "attitude", "quaternion", "velocity_wind", "rc", "rc_1", "rc_10",
        "windvane", "airspeed", "no_time_sync", "battery", "gyro", "speed", "position", "x"]  # fmt: skip
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | finite | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.sampled_from(KEYS), children, max_size=5)
    ),
    max_leaves=20,
)


class TestProperties:
    @given(st.binary(max_size=100))
    def test_arbitrary_bytes_only_ever_raise_codec_error_from_the_servo_decoder(self, data: bytes) -> None:
        """
        GIVEN any bytes
        WHEN they are decoded as a servo packet
        THEN a ServoPacket or a CodecError comes out, never another exception.
        """
        outcome = decode_outcome(sitl_servo_packet.decode_servo_packet, data)
        assert isinstance(outcome, ServoPacket | CodecError)

    @given(st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
    def test_arbitrary_bytes_only_ever_raise_codec_error_from_the_state_decoder(self, data: bytes) -> None:
        """
        GIVEN any bytes or text
        WHEN they are decoded as a JSON state
        THEN an FdmState or a CodecError comes out, never another exception.
        """
        outcome = decode_outcome(ardupilot_json.decode_state, data)
        assert isinstance(outcome, FdmState | CodecError)

    @given(
        st.dictionaries(st.sampled_from(KEYS), json_values, max_size=12),
        st.sampled_from([(",", ":"), (", ", ": "), (",", " :")]),
        st.sampled_from(["\n{}\n", "{}", "{}\n\n", "\n{}\n{}\n"]),
    )
    def test_arbitrary_json_objects_only_ever_raise_codec_error(
        self, document: dict[str, object], separators: tuple[str, str], frame: str
    ) -> None:
        """
        GIVEN JSON objects of SITL's key names with random values, spacing and framing
        WHEN they are decoded
        THEN an FdmState (maybe with warnings) or a CodecError comes out, never another exception.
        """
        text = json.dumps(document, separators=separators)
        outcome = decode_outcome(ardupilot_json.decode_state, frame.replace("{}", text).encode())
        assert isinstance(outcome, FdmState | CodecError)

    @given(
        st.integers(min_value=0, max_value=0xFFFF),
        st.integers(min_value=0, max_value=2**32 - 1),
        st.sampled_from([16, 32]).flatmap(
            lambda n: st.lists(st.integers(min_value=0, max_value=0xFFFF), min_size=n, max_size=n)
        ),
    )
    def test_servo_encode_then_decode_is_the_identity(
        self, frame_rate: int, frame_count: int, pwm: list[int]
    ) -> None:
        """
        GIVEN any frame rate, frame count and 16 or 32 PWM values
        WHEN they are encoded and decoded
        THEN the same values come back with the magic that matches the channel count.
        """
        packet = sitl_servo_packet.decode_servo_packet(
            sitl_servo_packet.encode_servo_packet(frame_rate, frame_count, pwm)
        )
        expected_magic = 18458 if len(pwm) == 16 else 29569
        assert packet == ServoPacket(expected_magic, frame_rate, frame_count, tuple(pwm))

    @given(states)
    def test_state_encode_then_decode_is_the_identity(self, state: FdmState) -> None:
        """
        GIVEN any valid state (finite floats, rc ending in a value)
        WHEN it is encoded and decoded
        THEN the same state comes back with no warnings, and re-encoding gives the same bytes.
        """
        data = ardupilot_json.encode_state(state)
        decoded = ardupilot_json.decode_state(data)
        assert decoded == state
        assert ardupilot_json.encode_state(decoded) == data

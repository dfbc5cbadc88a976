# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the JSON physics/transmitter back end, driven like ArduPilot SITL drives it.

A plain UDP socket plays SITL: it sends real servo packets to the back end over loopback and
decodes the JSON replies with the project's codec.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amc_rc_receiver.demo.physics_backend import (
    STANDARD_GRAVITY,
    FrameStepper,
    PhysicsBackend,
    format_counters,
    main,
)
from amc_rc_receiver.demo.transmitter import (
    PWM_MAX,
    PWM_MIN,
    SWITCH_HIGH,
    SWITCH_LOW,
    Transmitter,
)
from amc_rc_receiver.sim_bridge.protocols.ardupilot_json import FdmState, decode_state
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import encode_servo_packet
from tests.support.fixtures import close_after
from tests.support.tiers import examples
from tests.support.udp import DEADLINE_S, address_of, udp_socket

pytestmark = pytest.mark.loopback

PWM = (1000, 1000, 1000, 1000) + (0,) * 12


class FakeSitl:
    """One UDP socket on an ephemeral port, standing in for SITL's unbound JSON socket."""

    def __init__(self, backend_address: tuple[str, int]) -> None:
        self.backend_address = backend_address
        self.sock = udp_socket(timeout=DEADLINE_S)

    @property
    def address(self) -> tuple[str, int]:
        return address_of(self.sock)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendto(data, self.backend_address)

    def send_frame(self, frame_count: int, frame_rate: int = 50) -> None:
        self.send_raw(encode_servo_packet(frame_rate, frame_count, PWM))

    def receive(self) -> tuple[bytes, tuple[str, int]]:
        data, sender = self.sock.recvfrom(65536)
        return data, (str(sender[0]), int(sender[1]))

    def step(self, frame_count: int, frame_rate: int = 50) -> FdmState:
        self.send_frame(frame_count, frame_rate)
        data, _sender = self.receive()
        return decode_state(data)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def backend() -> Iterator[PhysicsBackend]:
    with PhysicsBackend() as running:
        yield running


@pytest.fixture
def sitl(backend: PhysicsBackend, request: pytest.FixtureRequest) -> FakeSitl:
    return close_after(request, FakeSitl(backend.address))


# ------------------------------------------------------------------ transport and state


def test_reply_goes_to_the_address_the_servo_packet_came_from(
    backend: PhysicsBackend, sitl: FakeSitl
) -> None:
    """
    GIVEN a running back end on an ephemeral loopback port
    WHEN SITL sends a servo packet from its own ephemeral port
    THEN the reply arrives at exactly that port, from the back end's address.
    """
    sitl.send_frame(0)
    _data, sender = sitl.receive()
    assert sender == backend.address
    assert backend.last_sender == sitl.address


def test_reply_describes_a_vehicle_at_rest_on_the_ground(sitl: FakeSitl) -> None:
    """
    GIVEN a running back end
    WHEN it answers the first servo packet
    THEN the JSON state has zero rates, gravity on the body z axis, zero velocity, level attitude
    AND position at the origin, with timestamp 0.
    """
    state = sitl.step(0)
    assert state.timestamp == 0.0
    assert state.gyro == (0.0, 0.0, 0.0)
    assert state.accel_body == pytest.approx((0.0, 0.0, -STANDARD_GRAVITY))
    assert state.velocity == (0.0, 0.0, 0.0)
    assert state.attitude == (0.0, 0.0, 0.0)
    assert state.position == (0.0, 0.0, 0.0)
    assert state.warnings == ()


def test_reply_is_newline_framed_compact_json_as_sitl_needs(sitl: FakeSitl) -> None:
    """
    GIVEN a running back end
    WHEN it replies
    THEN the datagram starts and ends with a newline and has no space after any colon
    (SITL's parser misreads booleans after a space and needs the leading newline).
    """
    sitl.send_frame(0)
    data, _sender = sitl.receive()
    assert data.startswith(b"\n")
    assert data.endswith(b"\n")
    assert b": " not in data


def test_timestamp_advances_by_one_frame_period_per_new_frame(sitl: FakeSitl) -> None:
    """
    GIVEN SITL stepping at 1200 Hz as it does at speedup 1
    WHEN it sends frames 0, 1, 2, 3
    THEN each reply's timestamp is 1/1200 s later than the one before.
    """
    stamps = [sitl.step(n, frame_rate=1200).timestamp for n in range(4)]
    assert stamps == pytest.approx([0.0, 1 / 1200, 2 / 1200, 3 / 1200])


# ------------------------------------------------------------------ transmitter


def test_reply_carries_rc_channels_while_the_transmitter_is_on(sitl: FakeSitl) -> None:
    """
    GIVEN the transmitter is on (the default)
    WHEN SITL sends a frame
    THEN the reply has rc_1..rc_8 with every value within 1000..2000 µs.
    """
    state = sitl.step(0)
    assert state.rc is not None
    assert len(state.rc) == 8
    assert all(value is not None and PWM_MIN <= value <= PWM_MAX for value in state.rc)


def test_switching_the_transmitter_off_omits_rc_and_on_brings_it_back(
    backend: PhysicsBackend, sitl: FakeSitl
) -> None:
    """
    GIVEN a running back end with the transmitter on
    WHEN the transmitter is switched off at runtime, and later on again
    THEN replies to new frames have no rc object while off, and carry rc again once on.
    """
    assert sitl.step(0).rc is not None
    backend.set_transmitter_on(False)
    assert not backend.transmitter_on
    assert sitl.step(1).rc is None
    backend.set_transmitter_on(True)
    assert backend.transmitter_on
    assert sitl.step(2).rc is not None


def test_sticks_move_from_frame_to_frame(sitl: FakeSitl) -> None:
    """
    GIVEN the transmitter is on
    WHEN SITL steps through one second of frames at 50 Hz
    THEN each of CH1-CH4 takes more than one value.
    """
    frames = [sitl.step(n) for n in range(50)]
    for channel in range(4):
        values = {state.rc[channel] for state in frames if state.rc is not None}
        assert len(values) > 1, f"CH{channel + 1} did not move"


# ------------------------------------------------------------------ frame-count rules


def test_repeated_frame_count_gets_the_cached_reply_without_stepping(
    backend: PhysicsBackend, sitl: FakeSitl
) -> None:
    """
    GIVEN SITL has sent frames 0 and 1
    WHEN it resends frame 1 (it did not accept our reply)
    THEN the answer is byte-for-byte the previous reply, the repeat is counted,
    AND frame 2 still advances by exactly one period.
    """
    sitl.step(0)
    sitl.send_frame(1)
    first, _sender = sitl.receive()
    sitl.send_frame(1)
    again, _sender = sitl.receive()
    assert again == first
    assert sitl.step(2).timestamp == pytest.approx(2 / 50)
    counters = backend.counters()
    assert counters.repeats == 1
    assert counters.new_frames == 3
    assert counters.replies == 4


def test_decreased_frame_count_is_a_sitl_restart_and_resets_time(
    backend: PhysicsBackend, sitl: FakeSitl
) -> None:
    """
    GIVEN SITL has stepped to frame 5
    WHEN a packet with frame_count 0 arrives (SITL restarted)
    THEN physics time starts again from 0 and the reset is counted.
    """
    for n in range(6):
        sitl.step(n)
    assert sitl.step(0).timestamp == 0.0
    assert sitl.step(1).timestamp == pytest.approx(1 / 50)
    assert backend.counters().resets == 1


def test_a_jump_in_frame_count_is_counted_as_a_gap(backend: PhysicsBackend, sitl: FakeSitl) -> None:
    """
    GIVEN SITL has sent frame 0
    WHEN the next packet it sends is frame 3
    THEN a gap is counted and time still advances by one period.
    """
    sitl.step(0)
    assert sitl.step(3).timestamp == pytest.approx(1 / 50)
    assert backend.counters().gaps == 1


def test_invalid_packets_are_counted_by_reason_and_get_no_reply(
    backend: PhysicsBackend, sitl: FakeSitl
) -> None:
    """
    GIVEN a running back end
    WHEN it receives junk, a 39-byte packet, a packet with the wrong magic and one with frame rate 0,
    AND then a valid frame
    THEN the first reply SITL sees is the valid frame's, and four invalid packets are counted.
    """
    valid = encode_servo_packet(50, 0, PWM)
    sitl.send_raw(b"not a servo packet")
    sitl.send_raw(valid[:-1])
    sitl.send_raw(b"\x00\x00" + valid[2:])
    sitl.send_raw(encode_servo_packet(0, 7, PWM))
    state = sitl.step(0)
    assert state.timestamp == 0.0
    counters = backend.counters()
    assert counters.invalid == 4
    assert counters.last_frame_count == 0
    reasons = dict(counters.invalid_by_reason)
    assert reasons.get("frame-rate-zero") == 1
    assert sum(reasons.values()) == 4
    assert counters.last_error
    assert "invalid 4" in format_counters(counters)


def test_backend_keeps_serving_after_a_flood_of_junk(sitl: FakeSitl, backend: PhysicsBackend) -> None:
    """
    GIVEN a running back end
    WHEN 100 junk datagrams arrive before a valid frame
    THEN the valid frame is still answered and every junk datagram is counted.
    """
    for _i in range(100):
        sitl.send_raw(b"\xff" * 7)
    assert sitl.step(0).timestamp == 0.0
    assert backend.counters().invalid == 100


# ------------------------------------------------------------------ sans-IO core and transmitter


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=40))
def test_any_frame_sequence_keeps_time_non_negative_and_repeats_identical(counts: list[int]) -> None:
    """
    GIVEN a frame stepper
    WHEN it is fed any sequence of frame counts
    THEN every reply decodes with a non-negative timestamp, and a repeated count returns the same bytes.
    """
    stepper = FrameStepper(Transmitter())
    previous: tuple[int, bytes] | None = None
    for count in counts:
        reply = stepper.handle(encode_servo_packet(50, count, PWM))
        assert reply is not None
        assert decode_state(reply).timestamp >= 0.0
        if previous is not None and previous[0] == count:
            assert reply == previous[1]
        previous = (count, reply)


@settings(max_examples=examples(200), deadline=None)
@given(st.floats(min_value=0.0, max_value=1e6, allow_nan=False))
def test_transmitter_channels_always_stay_within_1000_to_2000(t: float) -> None:
    """
    GIVEN a transmitter that is on
    WHEN it is sampled at any time
    THEN all eight channels lie within 1000..2000 µs.
    """
    channels = Transmitter().channels(t)
    assert channels is not None
    assert len(channels) == 8
    assert all(PWM_MIN <= value <= PWM_MAX for value in channels)


def test_ch5_is_a_switch_that_toggles_between_two_positions() -> None:
    """
    GIVEN a transmitter with a 4 s switch period
    WHEN CH5 is sampled over 8 s
    THEN it only takes the low and high switch values and holds each for 2 s.
    """
    transmitter = Transmitter(switch_period_s=4.0)
    samples = [transmitter.sticks_at(i / 10)[4] for i in range(80)]
    assert set(samples) == {SWITCH_LOW, SWITCH_HIGH}
    assert samples[0:20] == [SWITCH_LOW] * 20
    assert samples[20:40] == [SWITCH_HIGH] * 20


def test_transmitter_switch_is_safe_to_flip_from_other_threads() -> None:
    """
    GIVEN a transmitter read by one thread
    WHEN four other threads flip it on and off many times and finally leave it off
    THEN reads never fail and the final state is off.
    """
    transmitter = Transmitter()

    def flip() -> None:
        for i in range(500):
            transmitter.set_on(i % 2 == 0)

    threads = [threading.Thread(target=flip) for _i in range(4)]
    for thread in threads:
        thread.start()
    for i in range(500):
        result = transmitter.channels(i / 50)
        assert result is None or len(result) == 8
    for thread in threads:
        thread.join()
    transmitter.set_on(False)
    assert transmitter.channels(0.0) is None


def test_transmitter_rejects_a_channel_count_sitl_cannot_carry() -> None:
    """
    GIVEN SITL's JSON interface knows rc_1..rc_12
    WHEN a transmitter with 13 channels is requested
    THEN a ValueError says why.
    """
    with pytest.raises(ValueError, match="rc_12"):
        Transmitter(channel_count=13)


def test_back_end_without_transmitter_never_sends_rc() -> None:
    """
    GIVEN a back end built without a transmitter (pure physics)
    WHEN SITL sends a frame
    THEN the reply has no rc object, and switching a transmitter is refused clearly.
    """
    with PhysicsBackend(with_transmitter=False) as backend:
        fake = FakeSitl(backend.address)
        try:
            assert fake.step(0).rc is None
        finally:
            fake.close()
        assert not backend.transmitter_on
        with pytest.raises(RuntimeError, match="no transmitter"):
            backend.set_transmitter_on(True)


def test_start_and_stop_are_idempotent() -> None:
    """
    GIVEN a back end
    WHEN start() and stop() are each called twice
    THEN nothing fails, and a stopped back end refuses to restart.
    """
    backend = PhysicsBackend()
    backend.start()
    backend.start()
    backend.stop()
    backend.stop()
    with pytest.raises(RuntimeError):
        backend.start()


def test_command_line_serves_until_interrupted(capsys: pytest.CaptureFixture[str]) -> None:
    """
    GIVEN the module's command line with an ephemeral listen port
    WHEN the user presses Ctrl-C after the first status line
    THEN it prints where it listens and its counters, and exits with 0.
    """
    calls: list[float] = []

    def sleep(seconds: float) -> None:
        calls.append(seconds)
        if len(calls) > 1:
            raise KeyboardInterrupt

    assert main(["--listen", "127.0.0.1:0", "--no-rc"], sleep=sleep) == 0
    out = capsys.readouterr().out
    assert "127.0.0.1:" in out
    assert "packets 0" in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--listen", "127.0.0.1"], "expected HOST:PORT, got '127.0.0.1'"),
        (["--listen", "127.0.0.1:port"], "'127.0.0.1:port': the port must be a number"),
        (["--rc-input", "127.0.0.1:0"], "'127.0.0.1:0': the port must be in 1..65535"),
    ],
)
def test_command_line_refuses_an_unusable_address(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """GIVEN an address that is no usable HOST:PORT WHEN the command line starts THEN usage says why."""
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert expected in capsys.readouterr().err

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated transmitter as SITL's RC input: datagram format, the two failsafe behaviours, the sender."""

from __future__ import annotations

import socket
import struct

import pytest

from amc_rc_receiver.demo.sitl_rc_input import (
    DEFAULT_LOW_THROTTLE_PWM,
    FailsafeMode,
    FailsafeTransmitter,
    RcInputSender,
    encode_rc_pulses,
    low_throttle_pwm,
)
from tests.support.udp import address_of, receive, udp_socket
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback


def test_eight_channels_make_one_sixteen_byte_little_endian_datagram() -> None:
    """GIVEN eight pulse widths WHEN encoded THEN SITL gets 8 little-endian uint16 in channel order."""
    values = (1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800)
    data = encode_rc_pulses(values)
    assert len(data) == 16
    assert struct.unpack("<8H", data) == values


@pytest.mark.parametrize(("count", "size"), [(5, 16), (8, 16), (9, 32), (16, 32)])
def test_fewer_channels_are_padded_with_zero_to_8_or_16(count: int, size: int) -> None:
    """GIVEN some channels WHEN encoded THEN the datagram has 8 or 16 values, the missing ones 0 (unused)."""
    data = encode_rc_pulses([1500] * count)
    assert len(data) == size
    assert struct.unpack(f"<{size // 2}H", data)[count:] == (0,) * (size // 2 - count)


@pytest.mark.parametrize("values", [[1500] * 17, [70000], [-1]])
def test_what_sitl_cannot_carry_is_refused(values: list[int]) -> None:
    """GIVEN more than 16 channels or a value outside uint16 WHEN encoded THEN ValueError, nothing sent."""
    with pytest.raises(ValueError, match=r"16 channels|uint16"):
        encode_rc_pulses(values)


@pytest.mark.parametrize(
    ("fs_thr_value", "expected"),
    [(None, DEFAULT_LOW_THROTTLE_PWM), (975, 900), (910, 860), (820, 800), (1200, 900)],
)
def test_low_throttle_stays_below_fs_thr_value(fs_thr_value: float | None, expected: int) -> None:
    """GIVEN the vehicle's FS_THR_VALUE (Copter 975, Rover 910) WHEN the low throttle is chosen
    THEN it is 50 µs below it, at most 900 µs and never below 800 µs."""
    assert low_throttle_pwm(fs_thr_value) == expected


def test_no_pulses_receiver_outputs_nothing_while_the_transmitter_is_off() -> None:
    """GIVEN the no-pulses failsafe WHEN the transmitter is off THEN no channels; on again, the sticks."""
    transmitter = FailsafeTransmitter(FailsafeMode.NO_PULSES)
    assert transmitter.channels(1.0) == transmitter.sticks_at(1.0)
    transmitter.set_on(False)
    assert transmitter.channels(1.0) is None
    transmitter.set_on(True)
    assert transmitter.channels(2.0) == transmitter.sticks_at(2.0)


def test_low_throttle_receiver_holds_the_throttle_low_and_keeps_the_other_sticks() -> None:
    """GIVEN the low-throttle failsafe WHEN the transmitter is off
    THEN CH3 is the low value and the other sticks move on."""
    transmitter = FailsafeTransmitter(FailsafeMode.LOW_THROTTLE)
    transmitter.configure_throttle(low_pwm=860)
    transmitter.set_on(False)
    values = transmitter.channels(1.3)
    assert values is not None
    sticks = transmitter.sticks_at(1.3)
    assert values[2] == 860
    assert values[:2] + values[3:] == sticks[:2] + sticks[3:]


def test_a_vehicle_still_booting_gets_no_pulses_whatever_the_transmitter_does() -> None:
    """GIVEN a receiver whose vehicle has not finished booting
    WHEN its output is asked for with the transmitter on, off, and after the boot
    THEN there are no pulses until the vehicle is up (a throttle stick up at boot would start
    ArduCopter's ESC calibration), then the sticks and the chosen failsafe as usual."""
    booted = [False]
    transmitter = FailsafeTransmitter(FailsafeMode.LOW_THROTTLE, vehicle_ready=lambda: booted[0])
    assert transmitter.channels(4.5) is None  # the throttle sweep's top
    transmitter.set_on(False)
    assert transmitter.channels(4.5) is None
    booted[0] = True
    held = transmitter.channels(4.5)
    assert held is not None
    assert held[2] == transmitter.low_throttle
    transmitter.set_on(True)
    assert transmitter.channels(4.5) == transmitter.sticks_at(4.5)


def test_a_remapped_throttle_channel_is_the_one_held_low() -> None:
    """GIVEN RCMAP_THROTTLE 1 WHEN the low-throttle receiver loses the transmitter THEN CH1 is held low."""
    transmitter = FailsafeTransmitter(FailsafeMode.LOW_THROTTLE, on=False)
    transmitter.configure_throttle(low_pwm=880, channel=1)
    values = transmitter.channels(0.5)
    assert values is not None
    assert values[0] == 880
    assert values[2] == transmitter.sticks_at(0.5)[2]
    with pytest.raises(ValueError, match="throttle channel"):
        transmitter.configure_throttle(low_pwm=880, channel=9)


def test_sender_streams_the_sticks_and_goes_silent_while_there_are_no_pulses() -> None:
    """GIVEN a sender aimed at a loopback socket standing in for SITL's RC-input port
    WHEN the transmitter is on, off (no pulses) and on again
    THEN datagrams of 8 pulse widths arrive, none while off, and they come back when on."""
    sitl_rc_port = udp_socket()
    transmitter = FailsafeTransmitter(FailsafeMode.NO_PULSES)
    sender = RcInputSender(transmitter, address_of(sitl_rc_port), rate_hz=50.0)
    with sender:
        data, source = receive(sitl_rc_port)
        assert source[0] == "127.0.0.1"
        values = struct.unpack("<8H", data)
        assert all(1000 <= value <= 2000 for value in values)
        transmitter.set_on(False)
        # Whatever was in flight when switching arrives; then silence.
        sitl_rc_port.settimeout(0.5)
        _drain(sitl_rc_port)
        sent_when_off = sender.counters().sent
        with pytest.raises(TimeoutError):
            sitl_rc_port.recvfrom(100)
        assert sender.counters().sent == sent_when_off
        transmitter.set_on(True)
        data, _source = receive(sitl_rc_port)
        assert len(data) == 16
    assert sender.counters().sent > sent_when_off
    sitl_rc_port.close()


def _drain(sock: socket.socket) -> None:
    """Read until the socket has been silent for its timeout."""
    while True:
        try:
            sock.recvfrom(100)
        except TimeoutError:
            return


def test_sender_keeps_going_when_nothing_listens_yet() -> None:
    """GIVEN SITL's RC port not open yet (ICMP port unreachable) WHEN the sender runs
    THEN it counts failed sends or keeps sending, and never stops its thread."""
    closed = udp_socket()
    target = address_of(closed)
    closed.close()
    sender = RcInputSender(FailsafeTransmitter(), target, rate_hz=200.0)
    with sender:
        wait_for(lambda: _attempts(sender) >= 5, "five send attempts")
        first = _attempts(sender)
        wait_for(lambda: _attempts(sender) > first, "sending to go on after failures")


def _attempts(sender: RcInputSender) -> int:
    counters = sender.counters()
    return counters.sent + counters.send_errors

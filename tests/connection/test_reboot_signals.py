# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How each kind of link says that the flight controller rebooted or went away.

- serial: the device vanishes; pyserial raises on the next read.  Here the serial line is a real
  null-modem pair of pseudo-terminals (`NullModem`) carrying the simulated vehicle's bytes, and
  "unplugged" closes the pseudo-terminals, as the kernel does when a USB CDC device disappears;
- UDP: nothing closes; the vehicle's boot clock starts again, or a restarted vehicle sends from
  a new source port.  Real loopback UDP sockets send real pymavlink messages.
"""

from __future__ import annotations

import errno
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.connection import opening
from amc_rc_receiver.connection.opening import BootClock, explain_open_error
from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.sitl.null_modem import NullModem
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode
from tests.support.serial_wire import assert_no_raw_link_text

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="pseudo-terminals are POSIX only"),
]

HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
)


def rc_channels(boot_ms: int) -> mavlink2.MAVLink_rc_channels_message:
    return mavlink2.MAVLink_rc_channels_message(boot_ms, 8, *([1500] * 18), 200)


def stamped(message: object, system: int = 1, component: int = 1) -> object:
    """``message`` as it comes out of the parser: with its sender's ids."""
    parser = mavlink2.MAVLink(None)
    return parser.parse_char(encode(message, system, component))


@pytest.fixture
def serial_demo(tmp_path: Path) -> Iterator[tuple[NullModem, DemoSystem]]:
    modem = NullModem(tmp_path / "dev", baudrate=115200)
    modem.plug()
    demo = DemoSystem(endpoint=LinkEndpoint(LinkKind.SERIAL, path=str(modem.vehicle_path), baudrate=115200))
    demo.start()
    try:
        yield modem, demo
    finally:
        demo.stop()
        modem.close()


def test_a_vehicle_clock_that_starts_again_and_stays_is_a_restart_and_jitter_is_not() -> None:
    """GIVEN the selected vehicle's RC_CHANNELS WHEN time_boot_ms steps back 0.5 s (reordering) THEN no
    restart; WHEN another system's clock is near zero THEN no restart; WHEN the vehicle's own clock
    starts again from 1 s after 90 s THEN one message is not enough, but the new clock held for
    five messages and a second without the old one is a restart."""
    now = [0.0]
    clock = BootClock(clock=lambda: now[0])
    clock.vehicle = (1, 1)
    for boot_ms in (90_000, 89_500, 90_200):
        clock.observe(stamped(rc_channels(boot_ms)))
        now[0] += 0.2
    clock.observe(stamped(rc_channels(10), system=2))
    assert not clock.restarted
    for step in range(5):
        clock.observe(stamped(rc_channels(1_000 + 200 * step)))
        assert not clock.restarted or step == 4
        now[0] += 0.25
    assert clock.restarted
    assert not clock.conflict


def test_the_check_reads_the_vehicle_over_a_real_serial_line(
    serial_demo: tuple[NullModem, DemoSystem],
) -> None:
    """GIVEN the simulated vehicle on one end of a pseudo-terminal null modem at 115200 baud
    WHEN the check connects to the other end, as to a USB board THEN it finds the vehicle, says the
    link is serial, reads its telemetry, and its command reaches the vehicle, which answers."""
    modem, _demo = serial_demo
    flight_controller = FlightController()
    try:
        assert flight_controller.connect(str(modem.station_path), baudrate=115200, timeout=DEADLINE_S) == ""
        assert flight_controller.link_kind == "serial"
        assert flight_controller.info.system_id == "1"  # a string, as the methodic configurator keeps it
        master = flight_controller.master
        assert master is not None
        assert master.recv_match(type="HEARTBEAT", blocking=True, timeout=DEADLINE_S) is not None
        master.mav.command_long_send(
            1, 1, mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, 0, 65, 200_000, 0, 0, 0, 0, 0
        )
        ack = master.recv_match(type="COMMAND_ACK", blocking=True, timeout=DEADLINE_S)
        assert ack is not None
        assert ack.command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
    finally:
        flight_controller.disconnect()
    assert modem.carried[0] > 0
    assert modem.carried[1] > 0


def test_a_second_program_on_the_same_port_gets_its_own_sentence(
    serial_demo: tuple[NullModem, DemoSystem],
) -> None:
    """GIVEN the check connected to the serial port WHEN another program opens the same port THEN that
    one is refused with a sentence that names the cause and the fix, not pyserial's words."""
    modem, _demo = serial_demo
    first, second = FlightController(), FlightController()
    try:
        assert first.connect(str(modem.station_path), baudrate=115200, timeout=DEADLINE_S) == ""
        error = second.connect(str(modem.station_path), baudrate=115200, timeout=2.0)
    finally:
        first.disconnect()
        second.disconnect()
    assert "another program has this port open" in error
    assert "close it, then connect again" in error
    assert "exclusively lock" not in error
    assert "Errno" not in error


def test_a_port_the_user_may_not_open_says_to_join_the_dialout_group() -> None:
    """GIVEN the error Linux gives without the dialout group WHEN explained THEN the fix is named."""
    text = explain_open_error(PermissionError(errno.EACCES, "Permission denied", "/dev/ttyACM0"))
    assert "dialout" in text
    assert "log in again" in text


def test_an_unplugged_usb_board_closes_the_link_quietly(
    serial_demo: tuple[NullModem, DemoSystem], capfd: pytest.CaptureFixture[str]
) -> None:
    """GIVEN the check reading the vehicle over the serial line WHEN the cable is pulled (the
    pseudo-terminals close, as a vanished USB device's do) THEN the next read marks the link
    closed, a send goes nowhere without an exception, and nothing of pymavlink's is printed."""
    modem, _demo = serial_demo
    flight_controller = FlightController()
    try:
        assert flight_controller.connect(str(modem.station_path), baudrate=115200, timeout=DEADLINE_S) == ""
        master = flight_controller.master
        assert master is not None
        modem.unplug()
        deadline = time.monotonic() + DEADLINE_S
        while not flight_controller.link_closed:
            assert time.monotonic() < deadline, "the vanished device was never noticed"
            master.recv_msg()
            time.sleep(0.01)
        assert master.recv_msg() is None
        master.mav.command_long_send(
            1, 1, mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, 0, 65, 200_000, 0, 0, 0, 0, 0
        )
        assert master.lost_reason
    finally:
        flight_controller.disconnect()
    printed = capfd.readouterr()
    assert_no_raw_link_text(printed.out + printed.err)


def test_a_restarted_udp_vehicle_that_sends_from_a_new_port_is_noticed_after_its_silence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GIVEN the check on udpin, pinned to the vehicle's address WHEN a sender with the vehicle's ids
    talks from another port while the vehicle still talks THEN that is no restart (the impostor is
    only counted); WHEN the vehicle's own address falls silent and its ids keep arriving from the new
    port THEN the link says the vehicle moved there."""
    # The silence the link waits for, shortened from 3 s: only the wait, not the rule, changes.
    monkeypatch.setattr(opening, "MOVED_AFTER_S", 0.5)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    flight_controller = FlightController()
    result: list[str] = []
    connecting = threading.Thread(
        target=lambda: result.append(flight_controller.connect(f"udpin:127.0.0.1:{port}", timeout=DEADLINE_S))
    )
    with (
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as old,
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as new,
    ):
        old.bind(("127.0.0.1", 0))
        new.bind(("127.0.0.1", 0))
        connecting.start()
        while connecting.is_alive():
            old.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
            connecting.join(0.05)
        assert result == [""]
        master = flight_controller.master
        try:
            end = time.monotonic() + 1.0
            while time.monotonic() < end:  # both talk: the vehicle is where it was
                old.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
                new.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
                master.recv_msg()
                assert flight_controller.vehicle_moved_to is None
                time.sleep(0.02)
            assert master.impostor_datagrams > 0
            deadline = time.monotonic() + DEADLINE_S
            while flight_controller.vehicle_moved_to is None:  # only the restarted one talks
                assert time.monotonic() < deadline, "the move was never noticed"
                new.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
                master.recv_msg()
                time.sleep(0.02)
            assert flight_controller.vehicle_moved_to == new.getsockname()
        finally:
            flight_controller.disconnect()


def test_a_udp_vehicle_whose_clock_starts_again_has_restarted() -> None:
    """GIVEN the check on udpout to a vehicle that stays at its address (a telemetry bridge that
    keeps its socket) WHEN the vehicle's time_boot_ms starts again after a second of silence (it
    booted) THEN the link says it restarted."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as vehicle:
        vehicle.bind(("127.0.0.1", 0))
        vehicle.settimeout(DEADLINE_S)
        address = vehicle.getsockname()
        now = [0.0]
        flight_controller = FlightController(link_clock=lambda: now[0])
        result: list[str] = []
        connecting = threading.Thread(
            target=lambda: result.append(
                flight_controller.connect(f"udpout:127.0.0.1:{address[1]}", timeout=DEADLINE_S)
            )
        )
        connecting.start()
        _data, station = vehicle.recvfrom(4096)  # the check's heartbeat says where it listens
        while connecting.is_alive():
            vehicle.sendto(encode(HEARTBEAT, 1, 1), station)
            connecting.join(0.05)
        assert result == [""]
        master = flight_controller.master
        try:
            for boot_ms in (120_000, 120_200):
                vehicle.sendto(encode(rc_channels(boot_ms), 1, 1), station)
            deadline = time.monotonic() + DEADLINE_S
            while master.boot_clock.latest_ms != 120_200:
                assert time.monotonic() < deadline, "the vehicle's clock never arrived"
                master.recv_msg()
                master.select(0.05)
            now[0] += 1.5  # the board's boot, on the link's clock
            vehicle.sendto(encode(rc_channels(400), 1, 1), station)
            deadline = time.monotonic() + DEADLINE_S
            while not flight_controller.vehicle_restarted:
                assert time.monotonic() < deadline, "the restart was never noticed"
                master.recv_msg()
                time.sleep(0.005)
        finally:
            flight_controller.disconnect()

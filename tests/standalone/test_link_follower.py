# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Following the flight controller through reboots: when to reconnect, where, and what is said.

The link and session are small stand-ins with the facts each link kind produces on real bytes
(tests/connection/test_reboot_signals.py shows them on a real serial line and real UDP sockets):
``link_closed`` (pymavlink's ``portdead``: a TCP peer closed, a serial device vanished),
``vehicle_restarted`` (the boot clock went back) and ``vehicle_moved_to`` (a UDP vehicle sends from
a new port).  A serial device is a real file in a temporary folder, so "the device is back" is the
file system's answer, and the port list holds real pyserial records.  Real reboots are in
tests/e2e/test_reboots.py.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from serial.tools.list_ports_common import ListPortInfo

from amc_rc_receiver.standalone.link_follower import LinkFollower
from amc_rc_receiver.standalone.link_watch import DEVICE_POLL_S, RestartWatch, is_serial_device
from tests.support.clock import ManualClock
from tests.support.waiting import wait_for

pytestmark = pytest.mark.pure

USB_CLOSED = (
    "The flight controller's USB port closed: it may be rebooting or unplugged. Waiting for it to come back…"
)


class Link:
    def __init__(self) -> None:
        self.is_connected = True
        self.link_closed = False
        self.vehicle_restarted = False
        self.vehicle_moved_to: tuple[str, int] | None = None
        self.disconnects = 0

    def disconnect(self) -> None:
        self.disconnects += 1
        self.is_connected = False
        self.link_closed = False
        self.vehicle_restarted = False
        self.vehicle_moved_to = None


class Session:
    """Answers connect() with the next scripted result once ``release`` is set."""

    def __init__(self, results: list[str]) -> None:
        self.flight_controller = Link()
        self.results = results
        self.calls: list[tuple[str, float]] = []
        self.kept: list[Any] = []
        self.release = threading.Event()
        self.release.set()

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        self.release.wait(10.0)
        self.calls.append((device, timeout))
        result = self.results.pop(0)
        if not result:
            self.flight_controller = Link()
        return result

    def keep_test_before_reconnect(self, state: Any) -> None:
        self.kept.append(state)


class Ports:
    """A port list that changes as boards come and go."""

    def __init__(self) -> None:
        self.listed: list[ListPortInfo] = []

    def board(self, device: Path, serial_number: str = "AP1") -> None:
        info = ListPortInfo(str(device), skip_link_detection=True)
        info.vid, info.pid, info.serial_number = 0x1209, 0x5740, serial_number
        self.listed = [info]

    def __call__(self) -> list[ListPortInfo]:
        return list(self.listed)


def settle(follower: LinkFollower) -> list[str]:
    """Poll until the attempt under way has ended; everything the follower said meanwhile."""
    said: list[str] = []

    def ended() -> bool:
        said.extend(follower.poll())
        return not follower.attempting

    wait_for(ended, "a reconnect attempt to end")
    return said


@pytest.mark.parametrize(
    ("device", "expected"),
    [
        ("tcp:127.0.0.1:5760", False),
        ("UDPIN:0.0.0.0:14550", False),
        ("udpout:127.0.0.1:14550", False),
        ("/dev/ttyACM0", True),
        ("COM5", True),
        ("/dev/cu.usbmodem14101", True),
        ("  ", False),
    ],
)
def test_serial_devices_are_told_from_network_addresses(device: str, expected: bool) -> None:
    """GIVEN a device string WHEN asked THEN a path or COM port is serial, an address is not."""
    assert is_serial_device(device) is expected


def test_each_link_kind_says_why_it_must_reconnect() -> None:
    """GIVEN a connected link WHEN a TCP peer closes, a serial device vanishes, a boot clock starts
    again or a UDP vehicle moves THEN each has its own sentence, and only the serial one waits for
    the device to come back."""
    link = Link()
    tcp = RestartWatch(link, "tcp:127.0.0.1:5760")
    serial = RestartWatch(link, "/dev/ttyACM0", list_ports=list)
    udp = RestartWatch(link, "udpin:127.0.0.1:14550")
    assert tcp.reason() is None
    assert serial.reason() is None
    assert udp.reason() is None
    link.link_closed = True
    tcp_loss, serial_loss = tcp.reason(), serial.reason()
    assert tcp_loss is not None
    assert not tcp_loss.wait_for_device
    assert (
        tcp_loss.text == "tcp:127.0.0.1:5760 closed the connection: the flight controller may be rebooting."
    )
    assert serial_loss is not None
    assert serial_loss.wait_for_device
    assert serial_loss.text == USB_CLOSED
    link.link_closed = False
    link.vehicle_restarted = True
    restarted = udp.reason()
    assert restarted is not None
    assert restarted.text == "The flight controller restarted: its clock started again."
    link.vehicle_restarted = False
    link.vehicle_moved_to = ("127.0.0.1", 40123)
    moved = udp.reason()
    assert moved is not None
    assert moved.text == "The flight controller restarted: it now sends from 127.0.0.1:40123."


def test_a_new_runner_generation_is_a_restart_even_before_the_link_reports_closed() -> None:
    """GIVEN the check runs SITL WHEN the runner started SITL again THEN a reconnect is due, and once
    connected to the new SITL it is not due any more."""
    link = Link()
    generation = [1]
    watch = RestartWatch(link, "tcp:127.0.0.1:5760", generation=lambda: generation[0])
    assert watch.reason() is None  # the first generation seen connected is the one connected to
    generation[0] = 2
    loss = watch.reason()
    assert loss is not None
    assert loss.text == "SITL restarted."
    watch.connected()
    assert watch.reason() is None


def test_nothing_is_due_while_not_connected() -> None:
    """GIVEN no connection (the person disconnected) WHEN the link reads closed THEN nothing reconnects."""
    link = Link()
    link.is_connected = False
    link.link_closed = True
    assert RestartWatch(link, "tcp:127.0.0.1:5760").reason() is None
    assert RestartWatch(link, "/dev/ttyACM0").reason() is None


def test_the_follower_closes_the_dead_link_keeps_the_test_reconnects_and_says_so() -> None:
    """GIVEN a followed TCP link WHEN its peer closes it THEN the follower notes the loss in the old
    test, keeps that test, closes the link on the caller's thread, reconnects on a worker with the
    configured timeout, and notes and reports the reconnection."""
    session = Session([""])
    watch = RestartWatch(session.flight_controller, "tcp:127.0.0.1:5760")
    announced: list[str] = []
    old_link = session.flight_controller
    follower = LinkFollower(
        session,
        watch,
        baudrate=115200,
        timeout=42.0,
        current_state=lambda: "the old test",
        announce=announced.append,
    )
    assert follower.poll() == []
    old_link.link_closed = True
    messages = follower.poll()
    assert old_link.disconnects == 1
    assert session.kept == ["the old test"]
    assert messages == [
        "tcp:127.0.0.1:5760 closed the connection: the flight controller may be rebooting. "
        "Reconnecting to tcp:127.0.0.1:5760…"
    ]
    finished = settle(follower)
    reconnected = (
        "Reconnected to tcp:127.0.0.1:5760: the streams are asked for again and a fresh test started."
    )
    assert finished == [reconnected]
    assert announced == [messages[0].split(" Reconnecting")[0], reconnected]
    assert session.calls == [("tcp:127.0.0.1:5760", 42.0)]
    assert not follower.reconnecting
    follower.close()


def test_a_failed_reconnect_is_retried_and_reported_once() -> None:
    """GIVEN SITL not back yet WHEN reconnects fail twice with the same error THEN it is said once,
    retried after the retry period, and the third attempt's success is reported."""
    session = Session(["refused.", "refused.", ""])
    clock = ManualClock(100.0)
    watch = RestartWatch(session.flight_controller, "tcp:127.0.0.1:5760")
    follower = LinkFollower(session, watch, baudrate=115200, timeout=5.0, retry_s=1.0, clock=clock)
    session.flight_controller.link_closed = True
    said = follower.poll()
    said += settle(follower)
    assert said[-1] == "Reconnect failed: refused. Retrying…"
    assert follower.poll() == []  # not before the retry period
    clock.now += 1.0
    follower.poll()
    assert settle(follower) == []  # the same failure is not repeated
    clock.now += 1.0
    follower.poll()
    assert settle(follower)[0].startswith("Reconnected to tcp:127.0.0.1:5760")
    assert len(session.calls) == 3
    follower.close()


def unplugged_usb_board(device: Path, *, baudrate: int) -> tuple[Session, ManualClock, Ports, LinkFollower]:
    """A follower on a USB board (serial number AP1) at ``device`` whose device has just vanished:
    the path is gone, the port list empty and the link reads closed."""
    device.touch()
    ports = Ports()
    ports.board(device)
    session = Session([""])
    clock = ManualClock(100.0)
    watch = RestartWatch(session.flight_controller, str(device), list_ports=ports)
    watch.connected()
    follower = LinkFollower(session, watch, baudrate=baudrate, timeout=5.0, clock=clock)
    device.unlink()
    ports.listed = []
    session.flight_controller.link_closed = True
    return session, clock, ports, follower


def test_a_vanished_usb_board_is_waited_for_without_a_single_attempt_until_its_path_is_back(
    tmp_path: Path,
) -> None:
    """GIVEN the check on a USB board WHEN its device vanishes THEN the follower says so once and
    attempts nothing while it is gone; WHEN the same path exists again THEN it connects there."""
    device = tmp_path / "ttyACM0"
    session, clock, ports, follower = unplugged_usb_board(device, baudrate=57600)
    assert follower.poll() == [USB_CLOSED]
    for _ in range(20):
        clock.now += DEVICE_POLL_S
        assert follower.poll() == []
    assert session.calls == []
    assert follower.reconnecting
    device.touch()
    clock.now += DEVICE_POLL_S
    assert follower.poll() == []  # the path alone is not the board: the port list shows it next
    ports.board(device)
    clock.now += DEVICE_POLL_S
    assert follower.poll() == [f"The flight controller is back on {device}; connecting…"]
    assert settle(follower) == [
        f"Reconnected to {device}: the streams are asked for again and a fresh test started."
    ]
    assert session.calls == [(str(device), 5.0)]
    follower.close()


def test_a_usb_board_that_comes_back_under_another_name_is_followed_there(tmp_path: Path) -> None:
    """GIVEN the check on ttyACM0, a board with serial number AP1 WHEN it comes back as ttyACM1
    (Linux gives a new name while the old one is still held) THEN the follower connects to ttyACM1
    and follows that from then on."""
    new = tmp_path / "ttyACM1"
    session, clock, ports, follower = unplugged_usb_board(tmp_path / "ttyACM0", baudrate=115200)
    assert follower.poll() == [USB_CLOSED]
    new.touch()
    ports.board(new, serial_number="AP2")  # another board is no substitute
    clock.now += DEVICE_POLL_S
    assert follower.poll() == []
    ports.board(new)
    clock.now += DEVICE_POLL_S
    assert follower.poll() == [f"The flight controller is back on {new}; connecting…"]
    settle(follower)
    assert session.calls == [(str(new), 5.0)]
    assert follower.device == str(new)
    follower.close()


def test_a_board_that_vanishes_again_during_the_attempt_is_waited_for_again(tmp_path: Path) -> None:
    """GIVEN a board whose device came back WHEN the attempt fails because it is gone again (a
    second reboot) THEN the follower waits for it again rather than retrying a missing path."""
    device = tmp_path / "ttyACM0"
    device.touch()
    session = Session(["no such serial port; check the cable and the port name", ""])
    clock = ManualClock(100.0)
    watch = RestartWatch(session.flight_controller, str(device), list_ports=list)
    follower = LinkFollower(session, watch, baudrate=115200, timeout=5.0, clock=clock)
    session.flight_controller.link_closed = True
    follower.poll()
    clock.now += DEVICE_POLL_S
    session.release.clear()
    assert follower.poll() == [f"The flight controller is back on {device}; connecting…"]
    device.unlink()
    session.release.set()
    said = settle(follower)
    assert said == ["Reconnect failed: no such serial port; check the cable and the port name Retrying…"]
    clock.now += 10.0
    assert follower.poll() == []
    assert len(session.calls) == 1
    device.touch()
    clock.now += DEVICE_POLL_S
    assert follower.poll() == [f"The flight controller is back on {device}; connecting…"]
    settle(follower)
    assert len(session.calls) == 2
    follower.close()

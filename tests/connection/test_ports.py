# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The computer's serial ports: which look like a flight controller, and finding one again.

The port records are real pyserial ``ListPortInfo`` objects, filled in as pyserial fills them for
a USB CDC device on Linux; device paths are real files in a temporary folder, so "the path is
back" is the file system's answer, not a stand-in's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from amc_rc_receiver.connection.ports import (
    MAX_LISTED_PORTS,
    PortIdentity,
    identity_of,
    returned_device,
    serial_ports,
    system_ports,
)

pytestmark = pytest.mark.pure


def usb_port(
    device: str,
    *,
    vid: int | None = None,
    pid: int | None = None,
    serial_number: str | None = None,
    location: str | None = None,
    description: str = "n/a",
) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    info.serial_number = serial_number
    info.location = location
    info.description = description
    return info


CUBE = usb_port(
    "/dev/ttyACM3",
    vid=0x2DAE,
    pid=0x1016,
    serial_number="34003A",
    location="1-1.2:1.0",
    description="CubeOrange",
)
ARDUPILOT_FIRMWARE = usb_port("/dev/ttyACM1", vid=0x1209, pid=0x5740, serial_number="AP1", location="1-3:1.0")
BY_NAME_ONLY = usb_port("/dev/ttyUSB7", description="Pixhawk 6C telemetry")
FTDI = usb_port(
    "/dev/ttyUSB0", vid=0x0403, pid=0x6001, serial_number="A50285BI", description="FT232R USB UART"
)
ONBOARD = usb_port("/dev/ttyS0", description="ttyS0")


def test_flight_controllers_are_offered_first_by_usb_ids_or_by_name() -> None:
    """GIVEN a CubeOrange, a board running ArduPilot, a port named Pixhawk, an FTDI adapter and a
    built-in UART WHEN listed THEN the three flight controllers come first (by name among them),
    then the others by name."""
    ports = serial_ports(lambda: [ONBOARD, FTDI, BY_NAME_ONLY, CUBE, ARDUPILOT_FIRMWARE])
    assert [port.device for port in ports] == [
        "/dev/ttyACM1",
        "/dev/ttyACM3",
        "/dev/ttyUSB7",
        "/dev/ttyS0",
        "/dev/ttyUSB0",
    ]
    assert [port.ardupilot_like for port in ports] == [True, True, True, False, False]


def test_a_machine_with_hundreds_of_ports_gets_a_bounded_list_and_duplicates_once() -> None:
    """GIVEN 500 virtual ports, one listed twice WHEN listed THEN at most MAX_LISTED_PORTS, each once."""
    many = [usb_port(f"/dev/ttyV{number:03d}") for number in range(500)] + [usb_port("/dev/ttyV000")]
    ports = serial_ports(lambda: many)
    assert len(ports) == MAX_LISTED_PORTS
    assert len({port.device for port in ports}) == MAX_LISTED_PORTS


def test_the_systems_own_port_list_never_raises() -> None:
    """GIVEN this machine WHEN its ports are listed THEN a list comes back (maybe empty), no exception."""
    assert isinstance(system_ports(), list)


def test_a_board_that_comes_back_at_its_path_is_found_there(tmp_path: Path) -> None:
    """GIVEN a board that was at a path WHEN the path exists again and the port list shows the
    same board there THEN that path is where it is."""
    device = tmp_path / "ttyACM0"
    identity = PortIdentity(serial_number="AP1", vid=0x1209, pid=0x5740)
    same_board = usb_port(str(device), vid=0x1209, pid=0x5740, serial_number="AP1")
    assert returned_device(str(device), identity, []) is None
    device.touch()
    assert returned_device(str(device), identity, serial_ports(lambda: [same_board])) == str(device)


def test_another_device_that_takes_a_boards_path_is_not_taken_for_it(tmp_path: Path) -> None:
    """GIVEN a board with serial number AP1 that was at ttyACM0 WHEN the path exists again but the
    port list shows another board there, or nothing yet (udev has not listed it) THEN it is not
    where the board is; WHEN the list shows the board there THEN it is."""
    device = tmp_path / "ttyACM0"
    device.touch()
    identity = PortIdentity(serial_number="AP1", vid=0x1209, pid=0x5740)
    other_board = usb_port(str(device), vid=0x1209, pid=0x5740, serial_number="AP9")
    adapter = usb_port(str(device), vid=0x0403, pid=0x6001, serial_number="A50285BI")
    for listed in ([other_board], [adapter], [], [ONBOARD]):
        assert returned_device(str(device), identity, serial_ports(lambda listed=listed: listed)) is None
    same_board = usb_port(str(device), vid=0x1209, pid=0x5740, serial_number="AP1")
    assert returned_device(str(device), identity, serial_ports(lambda: [same_board])) == str(device)


def test_a_device_without_identity_is_returned_at_its_path_only(tmp_path: Path) -> None:
    """GIVEN a pseudo-terminal the check was on (pyserial knows no identity for it) WHEN a device
    exists at its path again THEN that path is returned (the connection is what then waits for
    the vehicle's heartbeat before writing anything)."""
    device = tmp_path / "pts4"
    assert returned_device(str(device), PortIdentity(), []) is None
    assert returned_device(str(device), None, []) is None
    device.touch()
    assert returned_device(str(device), PortIdentity(), []) == str(device)
    assert returned_device(str(device), None, []) == str(device)


def test_a_board_that_comes_back_under_another_name_is_found_by_its_serial_number(tmp_path: Path) -> None:
    """GIVEN a board at ttyACM0 remembered by its identity WHEN it is gone and the same serial number
    appears as ttyACM1, beside another board of the same model THEN ttyACM1 is where it is."""
    old = tmp_path / "ttyACM0"
    old.touch()
    before = [usb_port(str(old), vid=0x1209, pid=0x5740, serial_number="AP1", location="1-3:1.0")]
    identity = identity_of(str(old), serial_ports(lambda: before))
    assert identity is not None
    assert identity.known
    old.unlink()
    other_board = usb_port(str(tmp_path / "ttyACM2"), vid=0x1209, pid=0x5740, serial_number="AP9")
    same_board = usb_port(str(tmp_path / "ttyACM1"), vid=0x1209, pid=0x5740, serial_number="AP1")
    after = serial_ports(lambda: [other_board, same_board])
    assert returned_device(str(old), identity, after) == str(tmp_path / "ttyACM1")


def test_a_board_without_serial_number_is_found_by_vendor_product_and_usb_location(tmp_path: Path) -> None:
    """GIVEN a board without a serial number WHEN it comes back elsewhere THEN the same USB socket
    (location) and ids find it, and a board in another socket is not taken for it."""
    identity = PortIdentity(vid=0x26AC, pid=0x0011, location="1-1.4:1.0")
    elsewhere = usb_port("/dev/ttyACM5", vid=0x26AC, pid=0x0011, location="1-2:1.0")
    same_socket = usb_port("/dev/ttyACM6", vid=0x26AC, pid=0x0011, location="1-1.4:1.0")
    gone = str(tmp_path / "ttyACM0")
    assert returned_device(gone, identity, serial_ports(lambda: [elsewhere])) is None
    assert returned_device(gone, identity, serial_ports(lambda: [elsewhere, same_socket])) == "/dev/ttyACM6"


def test_a_port_without_identity_is_only_found_at_its_path(tmp_path: Path) -> None:
    """GIVEN a port pyserial knows nothing about (a pty, a Bluetooth serial) WHEN it is gone
    THEN no other port is taken for it."""
    identity = PortIdentity()
    assert not identity.known
    assert returned_device(str(tmp_path / "pts9"), identity, serial_ports(lambda: [FTDI, CUBE])) is None


def test_a_link_to_a_port_has_the_identity_of_the_port(tmp_path: Path) -> None:
    """GIVEN a /dev/serial/by-id style link to a listed port WHEN its identity is asked
    THEN it is the port's."""
    target = tmp_path / "ttyACM0"
    target.touch()
    link = tmp_path / "usb-ArduPilot_CubeOrange-if00"
    link.symlink_to(target)
    listed = serial_ports(lambda: [usb_port(str(target), vid=0x2DAE, pid=0x1016, serial_number="X1")])
    assert identity_of(str(link), listed) == PortIdentity(serial_number="X1", vid=0x2DAE, pid=0x1016)

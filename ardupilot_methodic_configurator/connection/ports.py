# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The computer's serial ports: which look like an ArduPilot board, and which is the same device.

pyserial's port list (``serial.tools.list_ports.comports()``) names each USB device with its
vendor and product ids, serial number and USB location.  A flight controller that reboots comes
back under the same path on most systems, but Linux may enumerate it as ``ttyACM1`` when the old
``ttyACM0`` was still held open, and macOS names ``cu.usbmodem…`` after the location.  So the
check remembers the device's identity when it connects and, once the device has gone, takes the
first port with the same identity (serial number first, else vendor, product and location), at
the same path or another; a device without identity only at its path.

Listing is the only thing here that touches the system; everything else is pure, over
`SerialPort` records, so tests give real pyserial ``ListPortInfo`` objects of their own.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

# USB vendor and product ids of boards that run ArduPilot: ArduPilot's own (pid.codes 0x1209,
# 0x5740 firmware and 0x5741 bootloader), CubePilot, 3D Robotics (Pixhawk 1) and Holybro.
ARDUPILOT_USB_IDS: frozenset[tuple[int, int | None]] = frozenset(
    {(0x1209, 0x5740), (0x1209, 0x5741), (0x2DAE, None), (0x26AC, None), (0x3162, None)}
)
# Words in a port's description or product string that name a flight controller.
ARDUPILOT_WORDS = ("ardupilot", "cubeorange", "cubeblack", "cube", "pixhawk", "px4", "matek", "holybro")
MAX_LISTED_PORTS = 32


@dataclass(frozen=True)
class PortIdentity:
    """What tells one USB serial device apart from another, whatever path it has today."""

    serial_number: str | None = None
    vid: int | None = None
    pid: int | None = None
    location: str | None = None

    @property
    def known(self) -> bool:
        return self.serial_number is not None or (self.vid is not None and self.location is not None)

    def same_device(self, other: PortIdentity) -> bool:
        if not self.known or self.vid != other.vid or self.pid != other.pid:
            return False
        if self.serial_number is not None:
            return self.serial_number == other.serial_number
        return self.location is not None and self.location == other.location


@dataclass(frozen=True)
class SerialPort:
    device: str
    description: str = ""
    identity: PortIdentity = PortIdentity()

    @property
    def ardupilot_like(self) -> bool:
        vid, pid = self.identity.vid, self.identity.pid
        if vid is not None and ((vid, pid) in ARDUPILOT_USB_IDS or (vid, None) in ARDUPILOT_USB_IDS):
            return True
        text = self.description.lower()
        return any(word in text for word in ARDUPILOT_WORDS)


def _text(value: Any) -> str | None:
    return str(value) if value not in (None, "", "n/a") else None


def _port(info: Any) -> SerialPort:
    """A `SerialPort` from a pyserial ``ListPortInfo`` (or anything with its attributes)."""
    vid, pid = getattr(info, "vid", None), getattr(info, "pid", None)
    texts = (_text(getattr(info, "description", None)), _text(getattr(info, "product", None)))
    description = " ".join(text for text in texts if text)
    return SerialPort(
        device=str(info.device),
        description=description,
        identity=PortIdentity(
            serial_number=_text(getattr(info, "serial_number", None)),
            vid=vid if isinstance(vid, int) else None,
            pid=pid if isinstance(pid, int) else None,
            location=_text(getattr(info, "location", None)),
        ),
    )


def system_ports() -> list[Any]:
    """pyserial's list of this computer's ports; empty (never an exception) when it cannot look."""
    try:
        from serial.tools import list_ports  # noqa: PLC0415 - only needed when ports are listed

        return list(list_ports.comports())
    except Exception:  # a broken udev/sysfs must not break the check
        logger.debug("serial port detection failed", exc_info=True)
        return []


PortLister = Callable[[], Iterable[Any]]


def serial_ports(lister: PortLister = system_ports) -> list[SerialPort]:
    """The ports, boards that look like ArduPilot first, then by name; at most `MAX_LISTED_PORTS`."""
    ports = {port.device: port for port in map(_port, lister()) if port.device}
    ordered = sorted(ports.values(), key=lambda port: (not port.ardupilot_like, port.device))
    return ordered[:MAX_LISTED_PORTS]


def _same_path(first: str, second: str) -> bool:
    return first == second or os.path.realpath(first) == os.path.realpath(second)


def identity_of(device: str, ports: Iterable[SerialPort]) -> PortIdentity | None:
    """The identity of the port at ``device`` (a link to it counts), if the port list has it."""
    for port in ports:
        if _same_path(port.device, device):
            return port.identity
    return None


def returned_device(
    device: str,
    identity: PortIdentity | None,
    ports: Iterable[SerialPort],
    exists: Callable[[str], bool] = os.path.exists,
) -> str | None:
    """Where the device that was at ``device`` is now; ``None`` while it is gone.

    A device known by its identity is found by it only: at its old path once the port list shows
    it there again, or under another name.  Any device may take a vanished one's path (a new
    pseudo-terminal gets the lowest free number, a USB adapter the first free ``ttyUSBn``), and
    writing to it, or switching it to raw mode, would disturb whatever it is.  A device without an
    identity (a pseudo-terminal, a Bluetooth serial) has only its path: it is returned once the
    path exists, and the connection then writes nothing to it before the vehicle's heartbeat and
    gives its settings back when it lets go (`opening.VehicleSerial`).
    """
    listed = list(ports)
    known = identity is not None and identity.known
    if exists(device):
        if not known:
            return device
        there = identity_of(device, listed)
        if there is not None and identity is not None and identity.same_device(there):
            return device
    if identity is not None and known:
        for port in listed:
            if identity.same_device(port.identity):
                return port.device
    return None

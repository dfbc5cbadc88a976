# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle on a serial device, as a flight controller's USB port or telemetry radio.

``--serve-demo /dev/ttyUSB0`` (or a pseudo-terminal, or one end of a null-modem pair) makes the
simulated vehicle answer on a serial line, so a ground station takes the very code path a USB
flight controller takes.  The device is opened raw (no echo, no line editing) at the baud rate,
read and written without blocking; output that the line cannot take at once waits in a bounded
buffer and a message that does not fit is dropped whole, as ArduPilot drops messages on a full
port.  A device that goes away (a cable pulled) is opened again every second until it is back;
the device then at its path is written to only when it is known to be the same (its USB identity)
or a ground station speaks MAVLink on it, and each device gets its terminal settings back when it
is let go.
POSIX only: the vehicle's thread waits on the descriptor with ``select``.

Every open, the first and each reopening, goes through `open_serial_device`, which takes a
terminal device only: a regular file, ``/dev/null`` or a FIFO is refused with our sentence
(`NotASerialPortError`) before anything is written to it, and a FIFO is not even opened (opening one
wakes, or waits for, the program at its other end).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from typing import Any

from .. import _
from ..connection.ports import identity_of, serial_ports
from ..net.services import Address
from .link_base import Selectable, StreamLink, new_parser

SERIAL_OUTPUT_LIMIT = 16 * 1024
REOPEN_AFTER_S = 1.0
_READ_SIZE = 4096


def _speed(baudrate: int) -> int:
    import termios  # noqa: PLC0415 - POSIX only

    speed = getattr(termios, f"B{baudrate}", None)
    if not isinstance(speed, int):
        raise OSError(f"{baudrate} baud is not a rate this system's serial driver offers")
    return speed


class NotASerialPortError(OSError):
    """The path names something that is not a terminal device (a regular file, /dev/null, a FIFO)."""

    def __init__(self, path: str) -> None:
        reason = _(
            "it is not a serial port; name a terminal device such as /dev/ttyUSB0, or one end of a "
            "pseudo-terminal pair"
        )
        super().__init__(errno.ENOTTY, reason, path)


def open_serial_device(path: str, baudrate: int) -> int:
    """Open the terminal device at ``path`` raw (no echo, no line editing), at ``baudrate``,
    without blocking; returns its descriptor.

    Raises `NotASerialPortError` for anything but a terminal, and ``OSError`` when it cannot be opened
    or set up (the descriptor is then closed).
    """
    return open_serial_device_keeping(path, baudrate)[0]


def open_serial_device_keeping(path: str, baudrate: int) -> tuple[int, list[Any]]:
    """`open_serial_device`, and the terminal settings the device had before (to give back)."""
    import termios  # noqa: PLC0415 - POSIX only
    import tty  # noqa: PLC0415

    # Looked at before opening: only a character device may be opened at all.
    if not stat.S_ISCHR(os.stat(path).st_mode):
        raise NotASerialPortError(path)
    descriptor = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        # /dev/null and other character devices that are no terminal: nothing to set a rate on.
        if not os.isatty(descriptor):
            raise NotASerialPortError(path)
        try:
            before = termios.tcgetattr(descriptor)
            tty.setraw(descriptor)
            attributes = termios.tcgetattr(descriptor)
            attributes[4] = attributes[5] = _speed(baudrate)
            termios.tcsetattr(descriptor, termios.TCSANOW, attributes)
        except termios.error as error:
            # termios raises its own error, no OSError: said as one, so callers catch one kind.
            raise OSError(*error.args) from None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, before


def _give_back(descriptor: int, settings: list[Any] | None) -> None:
    """Put the terminal settings a device had before us back (a vanished one has none left)."""
    if settings is None:
        return
    import termios  # noqa: PLC0415 - POSIX only

    with contextlib.suppress(termios.error, OSError):
        termios.tcsetattr(descriptor, termios.TCSANOW, settings)


class SerialLink(StreamLink):
    """One serial device; its far end is the ground station (see the module docstring)."""

    def __init__(self, path: str, baudrate: int, output_limit: int = SERIAL_OUTPUT_LIMIT) -> None:
        super().__init__(output_limit)
        if os.name != "posix":
            raise OSError("serving the simulated vehicle on a serial port needs Linux or macOS")
        self.path = path
        self.baudrate = baudrate
        self.param_rate_hz = min(self.param_rate_hz, baudrate / 10 / 40)  # ~40 bytes a PARAM_VALUE
        self._fd: int | None = None
        self._settings: list[Any] | None = None
        self._next_open = 0.0
        # A device at our path after ours vanished that may be another one (see `_reopen`): read,
        # but written nothing until a ground station speaks MAVLink on it.
        self.newcomer = False
        self.withheld_messages = 0
        self.reopened = 0
        self._open()  # the first open raises, so a wrong path is reported at once
        # What tells our device from another that takes its path later (a USB adapter's serial
        # number, or ids and socket); a pseudo-terminal has none.
        self._identity = identity_of(path, serial_ports())

    def _open(self) -> None:
        self._fd, self._settings = open_serial_device_keeping(self.path, self.baudrate)
        self._parser = new_parser()
        self._output.clear()
        self.peer_generation += 1

    def _reopen(self) -> None:
        """Open the device at our path again, if it may be ours.

        Any device may take a vanished one's path (a new pseudo-terminal takes the lowest free
        number, a USB adapter the first free ``ttyUSBn``).  One that the port list shows with our
        identity is ours; so is one behind a symbolic link, a name given to one device (udev's
        ``/dev/serial/by-id``, a null modem's or socat's link, re-made when it comes back).  A bare
        device node without identity is opened as a newcomer: nothing is written to it before a
        ground station speaks MAVLink on it, and its settings are given back when we let go.
        """
        identity = self._identity
        if identity is not None and identity.known:
            there = identity_of(self.path, serial_ports())
            if there is None or not identity.same_device(there):
                raise OSError(errno.ENODEV, "another device has this path", self.path)
            self._open()
            self.newcomer = False
        else:
            self._open()
            self.newcomer = not os.path.islink(self.path)
        self.reopened += 1

    def _lost(self) -> None:
        descriptor, self._fd = self._fd, None
        settings, self._settings = self._settings, None
        self._output.clear()
        self._next_open = time.monotonic() + REOPEN_AFTER_S
        if descriptor is not None:
            _give_back(descriptor, settings)
            with contextlib.suppress(OSError):
                os.close(descriptor)

    @property
    def local_address(self) -> Address:
        return (self.path, 0)

    @property
    def peer(self) -> Address | None:
        return (self.path, 0) if self._fd is not None else None

    @property
    def gcs_device(self) -> str:
        return self.path

    def read_sockets(self) -> list[Selectable]:
        if self._fd is None and time.monotonic() >= self._next_open:
            try:
                self._reopen()
            except OSError:
                self._next_open = time.monotonic() + REOPEN_AFTER_S
        return [] if self._fd is None else [self._fd]

    def on_readable(self, sock: Selectable) -> list[Any]:
        if self._fd is None or sock != self._fd:
            return []
        messages = self._read_stream()  # EIO or end of file: the device or the far end went away
        if messages and self.newcomer:
            # A ground station speaks MAVLink on it: it is a serial line to one, greet it.
            self.newcomer = False
            self.peer_generation += 1
        return messages

    def send(self, data: bytes) -> bool:
        if self.newcomer:
            self.withheld_messages += 1
            return False
        return super().send(data)

    def _stream(self) -> int | None:
        return self._fd

    def _read_some(self) -> bytes:
        assert self._fd is not None
        return os.read(self._fd, _READ_SIZE)

    def _write_some(self, data: bytearray) -> int:
        assert self._fd is not None
        return os.write(self._fd, data)

    def close(self) -> None:
        self._next_open = float("inf")
        self._lost()
        self._next_open = float("inf")

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every kind of the simulated vehicle's MAVLink port shares: the parser, the port's interface
and the byte stream.

Its own module so that the network ports (`mavlink_link`) and the serial port (`serial_link`) both
build on it and `mavlink_link` can open a serial port without the two importing each other.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from ..net.services import Address

# Parameter list pacing.  TCP pushes back when the client is slow, so it can go fast; a datagram
# link cannot, so it goes at a rate a default-sized receive buffer (a few hundred datagrams)
# absorbs even when the ground station stalls for a second.
TCP_PARAM_RATE_HZ = 1000.0
UDP_PARAM_RATE_HZ = 200.0

# What ``select`` waits on: a socket, or the file descriptor of a serial device.
Selectable = Any


def new_parser() -> Any:
    parser = mavlink2.MAVLink(None)
    parser.robust_parsing = True
    return parser


def parse(parser: Any, data: bytes) -> list[Any]:
    try:
        messages = parser.parse_buffer(data) or []
    except Exception:  # pymavlink raises assorted exception types on junk
        return []
    return [m for m in messages if m.get_type() != "BAD_DATA"]


class MavlinkLink(ABC):
    """One MAVLink port; see the module docstring for the three kinds."""

    param_rate_hz = UDP_PARAM_RATE_HZ

    def __init__(self) -> None:
        self.peer_generation = 0
        self.dropped_messages = 0
        # Datagrams from a sender this link does not serve (udpout hears only its ground station).
        self.foreign_datagrams = 0

    @property
    @abstractmethod
    def local_address(self) -> Address: ...

    @property
    @abstractmethod
    def peer(self) -> Address | None:
        """Where replies go now; ``None`` while no ground station is being served."""

    @property
    @abstractmethod
    def gcs_device(self) -> str:
        """The pymavlink connection string a ground station on this machine uses to reach us."""

    @abstractmethod
    def read_sockets(self) -> list[Selectable]: ...

    def write_sockets(self) -> list[Selectable]:
        return []

    @abstractmethod
    def on_readable(self, sock: Selectable) -> list[Any]:
        """Read what ``sock`` holds (a bounded amount) and return the valid MAVLink messages in it."""

    def on_writable(self, sock: Selectable) -> None:  # noqa: B027 - UDP sends never queue
        """Continue sending queued output."""

    @abstractmethod
    def send(self, data: bytes) -> bool:
        """Queue one packed message; False when there is nobody to send to or no room."""

    def has_room(self, size: int) -> bool:
        """Whether a message of ``size`` bytes would be sent now rather than dropped."""
        return self.peer is not None

    @abstractmethod
    def close(self) -> None: ...


class StreamLink(MavlinkLink):
    """A byte stream to one ground station at a time (a TCP client, a serial line).

    What the stream cannot take at once waits in a bounded buffer; a message that does not fit
    is dropped whole and counted.  A read or write error, or the end of the stream, loses the
    peer (``_lost``); the subclass says what that means for its kind of stream.
    """

    def __init__(self, output_limit: int) -> None:
        super().__init__()
        self._output_limit = output_limit
        self._output = bytearray()
        self._parser = new_parser()

    @abstractmethod
    def _stream(self) -> Selectable | None:
        """The peer's stream, ``None`` while there is none."""

    @abstractmethod
    def _read_some(self) -> bytes: ...

    @abstractmethod
    def _write_some(self, data: bytearray) -> int: ...

    @abstractmethod
    def _lost(self) -> None:
        """The peer is gone: close its stream and forget what waited for it."""

    def write_sockets(self) -> list[Selectable]:
        stream = self._stream()
        return [stream] if stream is not None and self._output else []

    def _read_stream(self) -> list[Any]:
        try:
            data = self._read_some()
        except (BlockingIOError, InterruptedError):
            return []
        except OSError:
            self._lost()
            return []
        if not data:
            self._lost()
            return []
        return parse(self._parser, data)

    def on_writable(self, sock: Selectable) -> None:
        stream = self._stream()
        if stream is not None and sock == stream:
            self._flush()

    def has_room(self, size: int) -> bool:
        return self._stream() is not None and len(self._output) + size <= self._output_limit

    def send(self, data: bytes) -> bool:
        if not self.has_room(len(data)):
            if self._stream() is not None:
                self.dropped_messages += 1
            return False
        self._output += data
        self._flush()
        return True

    def _flush(self) -> None:
        while self._stream() is not None and self._output:
            try:
                written = self._write_some(self._output)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._lost()
                return
            del self._output[:written]

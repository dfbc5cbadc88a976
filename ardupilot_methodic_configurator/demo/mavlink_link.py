# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's MAVLink port: a TCP server, a UDP port that answers, or a UDP sender.

Each link owns its sockets and its MAVLink parser and is driven by the vehicle's one thread:
``read_sockets()``/``write_sockets()`` for ``select``, ``on_readable()`` returns the messages that
arrived, ``send()`` queues one packed message.  Nothing here blocks.

- ``tcp:HOST:PORT`` is SITL's ``--serialN tcp:PORT``: listen, serve one client at a time; while it
  is connected further clients wait in the backlog, and after it leaves the next is accepted with
  a fresh parser (a half-received message from the old client must not corrupt the new one).
  Output that the socket cannot take at once waits in a bounded buffer; a message that does not
  fit is dropped whole, as ArduPilot drops messages when a port has no space, so framing survives.
- ``udpin:HOST:PORT`` binds and answers the latest sender of valid MAVLink (a ground station that
  restarts on a new port is served again); an optional first peer is served before it speaks.
- ``udpout:HOST:PORT`` sends to a fixed address (a ground station listening with ``udpin``).

Addresses default to 127.0.0.1; only an address the user names is bound.  ``peer_generation``
changes whenever a different ground station is being served, so the vehicle can greet it.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .. import _
from ..net.host_port import EMPTY_HOST, HostPortError, format_host_port, parse_host_port
from ..net.services import Address, bind_udp, local_address, route_source_host
from .link_base import TCP_PARAM_RATE_HZ, MavlinkLink, StreamLink, new_parser, parse
from .serial_link import SerialLink

LOOPBACK = EMPTY_HOST
RECV_BUFFER_SIZE = 65536
MAX_DATAGRAMS_PER_WAKEUP = 64
TCP_OUTPUT_LIMIT = 256 * 1024  # bytes waiting for a slow client before messages are dropped


class LinkKind(Enum):
    TCP_SERVER = "tcp"
    UDP_IN = "udpin"
    UDP_OUT = "udpout"
    SERIAL = "serial"


_SCHEMES: dict[str, LinkKind] = {
    "tcp": LinkKind.TCP_SERVER,
    "tcpin": LinkKind.TCP_SERVER,
    "udpin": LinkKind.UDP_IN,
    "udp": LinkKind.UDP_IN,
    "udpout": LinkKind.UDP_OUT,
}


class LinkEndpointError(ValueError):
    """A ``--serve-demo`` device string that cannot be served; the message says why."""


@dataclass(frozen=True)
class LinkEndpoint:
    kind: LinkKind
    host: str = LOOPBACK
    port: int = 0
    # A serial device (``kind`` SERIAL): its path and baud rate.
    path: str = ""
    baudrate: int = 115200

    def __str__(self) -> str:
        if self.kind is LinkKind.SERIAL:
            return self.path
        return f"{self.kind.value}:{format_host_port(self.host, self.port)}"


def _looks_like_serial_port(text: str) -> bool:
    return text.startswith(("/", "\\", ".")) or (text[:3].upper() == "COM" and text[3:].isdigit())


def parse_endpoint(text: str, baudrate: int = 115200) -> LinkEndpoint:
    """``tcp:HOST:PORT``, ``udpin:HOST:PORT``, ``udpout:HOST:PORT`` (HOST may be left out: 127.0.0.1),
    or a serial device path, served at ``baudrate``."""
    if _looks_like_serial_port(text.strip()):
        return LinkEndpoint(LinkKind.SERIAL, path=text.strip(), baudrate=baudrate)
    scheme, _sep, rest = text.strip().partition(":")
    kind = _SCHEMES.get(scheme.lower())
    if kind is None:
        raise LinkEndpointError(
            _("{text!r}: say tcp:HOST:PORT, udpin:HOST:PORT or udpout:HOST:PORT").format(text=text)
        )
    lowest = 1 if kind is LinkKind.UDP_OUT else 0
    if "[" in rest:
        # pymavlink, and so every ground station built on it, splits addresses at the first colon.
        raise LinkEndpointError(
            _("{text!r}: the simulated vehicle serves IPv4 only, e.g. {kind}:127.0.0.1:5760").format(
                text=text, kind=kind.value
            )
        )
    try:
        host, port = parse_host_port(rest, default_host=LOOPBACK, port_alone=True, lowest_port=lowest)
    except HostPortError as error:
        raise LinkEndpointError(error.describe(text)) from None
    return LinkEndpoint(kind, host, port)


def _client_host(host: str) -> str:
    # A wildcard bind is reached through loopback from this machine.
    return LOOPBACK if host in ("0.0.0.0", "") else host


class UdpLink(MavlinkLink):
    """``udpin`` (learn the peer) or ``udpout`` (fixed peer) on one non-blocking UDP socket."""

    def __init__(self, bind: Address, *, peer: Address | None = None, learn_peer: bool = True) -> None:
        super().__init__()
        self._sock = bind_udp(bind)
        self._address = local_address(self._sock)
        self._peer = peer
        self._fixed_peer = peer if not learn_peer else None
        self._learn = learn_peer

    @classmethod
    def udp_in(cls, endpoint: LinkEndpoint, first_peer: Address | None = None) -> UdpLink:
        return cls((endpoint.host, endpoint.port), peer=first_peer, learn_peer=True)

    @classmethod
    def udp_out(cls, endpoint: LinkEndpoint) -> UdpLink:
        target = (socket.gethostbyname(endpoint.host), endpoint.port)
        return cls((route_source_host(target), 0), peer=target, learn_peer=False)

    @property
    def local_address(self) -> Address:
        return self._address

    @property
    def peer(self) -> Address | None:
        return self._peer

    @property
    def gcs_device(self) -> str:
        if self._fixed_peer is not None:
            return f"udpin:{self._fixed_peer[0]}:{self._fixed_peer[1]}"
        return f"udpout:{_client_host(self._address[0])}:{self._address[1]}"

    def read_sockets(self) -> list[socket.socket]:
        return [self._sock]

    def on_readable(self, sock: socket.socket) -> list[Any]:
        received: list[Any] = []
        for _i in range(MAX_DATAGRAMS_PER_WAKEUP):
            try:
                data, sender = self._sock.recvfrom(RECV_BUFFER_SIZE)
            except BlockingIOError:
                break
            except OSError:
                # e.g. Windows reports an earlier send's ICMP port-unreachable here; keep serving.
                continue
            if self._fixed_peer is not None and (str(sender[0]), int(sender[1])) != self._fixed_peer:
                # udpout talks to the one ground station it was given; anyone else is not heard.
                self.foreign_datagrams += 1
                continue
            # A datagram is a whole unit: junk in one must not swallow the start of the next.
            messages = parse(new_parser(), data)
            if messages and self._learn:
                address = (str(sender[0]), int(sender[1]))
                if address != self._peer:
                    self._peer = address
                    self.peer_generation += 1
            received.extend(messages)
        return received

    def send(self, data: bytes) -> bool:
        peer = self._peer
        if peer is None:
            return False
        try:
            self._sock.sendto(data, peer)
        except OSError:
            # A vanished ground station is not an error: udpin re-learns it from its next datagram.
            self.dropped_messages += 1
            return False
        return True

    def close(self) -> None:
        self._sock.close()


class TcpServerLink(StreamLink):
    """A listening TCP socket serving one client at a time (see the module docstring)."""

    param_rate_hz = TCP_PARAM_RATE_HZ

    def __init__(self, endpoint: LinkEndpoint, output_limit: int = TCP_OUTPUT_LIMIT) -> None:
        super().__init__(output_limit)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if not sys.platform.startswith("win"):
                # Like SITL, so a restarted server can bind while old connections sit in TIME_WAIT.
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((endpoint.host, endpoint.port))
            listener.listen(4)
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        self._listener = listener
        self._address = local_address(listener)
        self._client: socket.socket | None = None
        self._client_address: Address | None = None

    @property
    def local_address(self) -> Address:
        return self._address

    @property
    def peer(self) -> Address | None:
        return self._client_address

    @property
    def gcs_device(self) -> str:
        return f"tcp:{_client_host(self._address[0])}:{self._address[1]}"

    def read_sockets(self) -> list[socket.socket]:
        return [self._client] if self._client is not None else [self._listener]

    def on_readable(self, sock: socket.socket) -> list[Any]:
        if sock is self._listener:
            self._accept()
            return []
        if sock is not self._client:
            return []
        return self._read_stream()

    def _stream(self) -> socket.socket | None:
        return self._client

    def _read_some(self) -> bytes:
        assert self._client is not None
        return self._client.recv(RECV_BUFFER_SIZE)

    def _write_some(self, data: bytearray) -> int:
        assert self._client is not None
        return self._client.send(data)

    def close(self) -> None:
        self._lost()
        self._listener.close()

    def _accept(self) -> None:
        try:
            client, address = self._listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # e.g. the client reset the connection before we accepted it
        client.setblocking(False)
        with contextlib.suppress(OSError):
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = client
        self._client_address = (str(address[0]), int(address[1]))
        self._output.clear()
        self._parser = new_parser()
        self.peer_generation += 1

    def _lost(self) -> None:
        client, self._client, self._client_address = self._client, None, None
        self._output.clear()
        if client is not None:
            client.close()


def open_link(endpoint: LinkEndpoint, *, first_peer: Address | None = None) -> MavlinkLink:
    """Bind the sockets for ``endpoint``; raises ``OSError`` when the address cannot be used."""
    if endpoint.kind is LinkKind.TCP_SERVER:
        return TcpServerLink(endpoint)
    if endpoint.kind is LinkKind.UDP_OUT:
        return UdpLink.udp_out(endpoint)
    if endpoint.kind is LinkKind.SERIAL:
        return SerialLink(endpoint.path, endpoint.baudrate)
    return UdpLink.udp_in(endpoint, first_peer)

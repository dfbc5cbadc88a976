# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Opening a pymavlink connection the way a ground station should: bounded, quiet, MAVLink 2.

MAVLink 2 choice: instead of setting the process-wide ``MAVLINK20`` environment variable (which
pymavlink also reads to choose the dialect of *every* later connection), each connection gets its
own ``pymavlink.dialects.v20.ardupilotmega.MAVLink`` encoder/parser as ``master.mav`` and its
``WIRE_PROTOCOL_VERSION`` is set to "2.0".  That parser reads MAVLink 1 and 2 frames, sends
MAVLink 2 (needed for RC_CHANNELS extensions and COMMAND_ACK target fields), and keeps pymavlink's
automatic version switch from touching the global state.
"""

from __future__ import annotations

import errno
import socket
import time
from typing import Any

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from .. import _
from ..net.services import route_source_host
from .devices import DeviceEndpoint, DeviceError

MAVLINK1_MAGIC = 0xFE
MAVLINK2_MAGIC = 0xFD
GCS_SYSTEM_ID = 255
GCS_COMPONENT_ID = 190  # MAV_COMP_ID_MISSIONPLANNER


class TimedTcpConnection(mavutil.mavtcp):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's TCP client with a bounded connect: the stock one blocks for the OS timeout."""

    def __init__(self, address: str, connect_timeout: float) -> None:
        self._connect_timeout = connect_timeout
        super().__init__(
            address,
            autoreconnect=False,
            source_system=GCS_SYSTEM_ID,
            source_component=GCS_COMPONENT_ID,
            retries=0,
        )

    def do_connect(self) -> None:
        sock = socket.create_connection(self.destination_addr, timeout=self._connect_timeout)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.port = sock

    def handle_eof(self) -> None:
        # the stock one prints on every read after the peer closed; mark the link dead instead
        self.portdead = True

    def handle_disconnect(self) -> None:
        # a reset or broken pipe on write: the stock one prints and would reconnect in place,
        # which would hide from the plugin that the vehicle went away
        self.portdead = True


def claimed_ids(datagram: bytes) -> tuple[int, int] | None:
    """The (system, component) ids the first MAVLink frame of ``datagram`` claims, if it has one."""
    if len(datagram) >= 7 and datagram[0] == MAVLINK2_MAGIC:
        return datagram[5], datagram[6]
    if len(datagram) >= 5 and datagram[0] == MAVLINK1_MAGIC:
        return datagram[3], datagram[4]
    return None


class _VehicleOnly:
    """What a UDP link does with datagrams from anyone but the vehicle once it knows the vehicle.

    A UDP port takes datagrams from any sender, and pymavlink reads them all as the vehicle's, so
    a second program (or any host of the network, for a port listening on every interface) could
    send a SYS_STATUS in the vehicle's name and forge an RC failsafe.  Once the vehicle's address
    is known, the datagrams of every other address are dropped unread and counted; those that
    claim the vehicle's own ids are counted apart, as another sender on this port.
    """

    vehicle_address: tuple[str, int] | None
    vehicle_ids: tuple[int, int] | None

    def _init_filter(self) -> None:
        self.vehicle_address = None
        self.vehicle_ids = None
        # Datagrams from other addresses dropped since the vehicle was known, and those of them
        # that claim the vehicle's system and component ids.
        self.foreign_datagrams = 0
        self.impostor_datagrams = 0

    def _from_elsewhere(self, data: bytes, sender: tuple[str, int]) -> bool:
        """Count and refuse a datagram that does not come from the vehicle (once it is known)."""
        if self.vehicle_address is None or sender == self.vehicle_address:
            return False
        self.foreign_datagrams += 1
        ids = claimed_ids(data)
        if ids is not None and self.vehicle_ids is not None and ids[0] == self.vehicle_ids[0]:
            self.impostor_datagrams += 1
        return True


class VehicleUdpServer(_VehicleOnly, mavutil.mavudp):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's UDP server with bounded memory of who sent to it, reading only the vehicle.

    The stock server remembers every source address for ever and sends each packet to all of
    them, so a flood from spoofed source ports grows memory and turns one command into thousands
    of datagrams.  This one remembers the few latest senders while looking for the vehicle and,
    once the vehicle's heartbeat arrived, answers and reads only the address it came from.
    """

    MAX_REMEMBERED_SENDERS = 4

    def __init__(self, address: str, **ids: int) -> None:
        super().__init__(address, input=True, **ids)
        self._init_filter()
        self.last_sender: tuple[str, int] | None = None

    def recv(self, n: int | None = None) -> bytes:
        del n  # one datagram at a time, whatever the parser would like
        try:
            data, sender = self.port.recvfrom(mavutil.UDP_MAX_PACKET_LEN)
        except (BlockingIOError, InterruptedError, ConnectionRefusedError):
            return b""
        if self._from_elsewhere(data, sender):
            return b""
        self.last_sender = sender
        if self.vehicle_address is None:
            self.clients.add(sender)
            self.clients_last_alive[sender] = time.time()
            while len(self.clients) > self.MAX_REMEMBERED_SENDERS:
                oldest = min(self.clients, key=lambda client: self.clients_last_alive.get(client, 0.0))
                self.clients.discard(oldest)
                self.clients_last_alive.pop(oldest, None)
        else:
            self.clients_last_alive[sender] = time.time()
        return bytes(data)

    def pin_vehicle(self, ids: tuple[int, int] | None = None) -> None:
        """Answer and read only the sender of the datagram read last (the vehicle's heartbeat)."""
        if self.last_sender is None:
            return
        self.vehicle_address = self.last_sender
        self.vehicle_ids = ids
        self.clients = {self.vehicle_address}
        self.clients_last_alive = {self.vehicle_address: time.time()}


class VehicleUdpClient(_VehicleOnly, mavutil.mavudp):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's UDP client (``udpout``), reading only what comes from the address it sends to.

    The stock one reads every datagram that reaches its port, whoever sent it.  ArduPilot answers
    from the port it listens on, so the vehicle's address is the destination from the start.
    """

    def __init__(self, address: str, destination: tuple[str, int], **ids: int) -> None:
        super().__init__(address, input=False, **ids)
        self._init_filter()
        self.vehicle_address = destination

    def recv(self, n: int | None = None) -> bytes:
        del n
        try:
            data, sender = self.port.recvfrom(mavutil.UDP_MAX_PACKET_LEN)
        except (BlockingIOError, InterruptedError, ConnectionRefusedError):
            return b""
        return b"" if self._from_elsewhere(data, sender) else bytes(data)

    def pin_vehicle(self, ids: tuple[int, int] | None = None) -> None:
        self.vehicle_ids = ids


def open_connection(endpoint: DeviceEndpoint, baudrate: int, timeout: float) -> Any:
    ids = {"source_system": GCS_SYSTEM_ID, "source_component": GCS_COMPONENT_ID}
    if endpoint.scheme == "tcp":
        return TimedTcpConnection(endpoint.address, connect_timeout=max(timeout, 0.1))
    if endpoint.scheme == "tcpin":
        return mavutil.mavtcpin(endpoint.address, **ids)
    if endpoint.scheme in ("udp", "udpin"):
        return VehicleUdpServer(endpoint.address, **ids)
    if endpoint.scheme == "udpout":
        # pymavlink resolves lazily and swallows the error on every send: resolve once, loudly
        resolved = socket.getaddrinfo(endpoint.host, endpoint.port, socket.AF_INET, socket.SOCK_DGRAM)[0][4]
        destination = (str(resolved[0]), endpoint.port)
        client = VehicleUdpClient(endpoint.address, destination, **ids)
        # Left unbound, the kernel would bind it to every interface (0.0.0.0) at the first send.
        client.port.bind((route_source_host(destination), 0))
        return client
    return mavutil.mavserial(endpoint.address, baud=baudrate, **ids)


def use_mavlink2(master: Any) -> None:
    """Give this one connection a MAVLink 2 ardupilotmega codec (see the module docstring)."""
    mav = _mavlink.MAVLink(master, srcSystem=GCS_SYSTEM_ID, srcComponent=GCS_COMPONENT_ID)
    mav.robust_parsing = True
    master.mav = mav
    master.WIRE_PROTOCOL_VERSION = "2.0"
    master.first_byte = False


def _reason(error: BaseException) -> str:
    text = str(error).strip()
    return text or type(error).__name__


def explain_open_error(error: BaseException) -> str:
    if isinstance(error, DeviceError):
        return str(error)
    if isinstance(error, socket.gaierror):
        return _("the host name could not be resolved ({reason})").format(reason=_reason(error))
    if isinstance(error, ConnectionRefusedError):
        return _("the connection was refused: nothing is listening at that address and port")
    if isinstance(error, (TimeoutError, socket.timeout)):
        return _("no answer to the connection attempt (timed out)")
    code = getattr(error, "errno", None)
    if isinstance(error, PermissionError) or code == errno.EACCES:
        return _("permission denied; on Linux add your user to the 'dialout' group, then log in again")
    if isinstance(error, FileNotFoundError) or code == errno.ENOENT:
        return _("no such serial port; check the cable and the port name")
    if code == errno.EADDRINUSE:
        return _("the address and port are already in use by another program")
    if code == errno.EADDRNOTAVAIL:
        return _("that address does not belong to this computer")
    if code in (errno.EBUSY,):
        return _("the port is busy; close other programs that use it")
    if isinstance(error, (ValueError, OverflowError)):
        return _reason(error)
    return f"{type(error).__name__}: {_reason(error)}"

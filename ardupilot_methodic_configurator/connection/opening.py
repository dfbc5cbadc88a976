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

import contextlib
import errno
import os
import socket
import time
from collections.abc import Callable
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
# A vehicle clock (time_boot_ms) that goes back further than UDP can reorder means a reboot.
CLOCK_BACK_MS = 2000
# A pinned UDP vehicle silent this long, while its ids arrive from a new address: it restarted.
MOVED_AFTER_S = 3.0
# A clock that went back is a reboot only once it stays back: this many messages on the new clock
# in a row, and this long without a word on the old one (a board that reboots stays rebooted; a
# second vehicle with the same ids keeps talking on its own clock)...
RESTART_SAMPLES = 5
RESTART_HOLD_S = 1.0
# ...or at once when the vehicle was silent this long before its new clock: a rebooting board
# says nothing while it boots.
RESTART_SILENCE_S = 1.0
# ...or at once when the stamped messages stopped this long (a vehicle rebooted behind a link that
# stayed up sends only HEARTBEATs until its streams are asked for again) and the clock then came
# back below where it stopped, by any amount: a second reboot a few seconds after the first brings
# a clock that has not gone back by CLOCK_BACK_MS, while a vehicle that only stalled (SITL on a
# loaded machine runs far slower than real time) comes back where it stopped or later.
STAMPED_SILENCE_S = 3.0
# The old clock heard again after the new one this many times: two vehicles share the ids.
CLOCK_CONFLICT_SWITCHES = 3


class BootClock:
    """Notices a vehicle that restarted on a link that stayed open (a radio, a UDP bridge).

    ArduPilot stamps RC_CHANNELS, ATTITUDE, SYSTEM_TIME and others with ``time_boot_ms``, the
    milliseconds since it booted; after a reboot that clock starts again near zero.  One message
    that goes back is no reboot yet: two vehicles with the same system id (a second board on the
    same radio, a SITL left running) give the link two clocks that take turns, and reconnecting on
    each turn would start a new test several times a second.  So the new clock must persist (see
    `RESTART_SAMPLES`, `RESTART_HOLD_S`) or follow a silence (`RESTART_SILENCE_S`), and clocks that
    keep taking turns set ``conflict`` instead, once.  ``clock`` is the local monotonic clock.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.latest_ms: int | None = None
        self.restarted = False
        # Two clocks keep taking turns on the vehicle's ids: two vehicles with one system id.
        self.conflict = False
        self.vehicle: tuple[int, int] | None = None
        self._heard_at: float | None = None
        # When the latest stamped message on the current clock came.
        self._stamped_at: float | None = None
        self._old_clock_at: float | None = None
        self._new_ms: int | None = None
        self._new_samples = 0
        self._switches = 0

    def observe(self, message: Any) -> None:
        if self.vehicle is None:
            return
        if (message.get_srcSystem(), message.get_srcComponent()) != self.vehicle:
            return
        now = self._clock()
        silent_before = self._heard_at is not None and now - self._heard_at >= RESTART_SILENCE_S
        self._heard_at = now  # any message of the vehicle's counts as a word, stamped or not
        boot_ms = getattr(message, "time_boot_ms", None)
        if not isinstance(boot_ms, int):
            return
        latest, stamped_at = self.latest_ms, self._stamped_at
        self._stamped_at = now
        if self._back_after_silence(latest, stamped_at, boot_ms, now):
            self.restarted = True
            return
        if latest is None or boot_ms + CLOCK_BACK_MS >= latest:
            self._on_old_clock(boot_ms, now)
            return
        if self._new_ms is None or boot_ms + CLOCK_BACK_MS < self._new_ms:
            self._new_ms, self._new_samples = boot_ms, 1  # a clock (re)started: count from here
        else:
            self._new_ms, self._new_samples = max(self._new_ms, boot_ms), self._new_samples + 1
        held = self._old_clock_at is None or now - self._old_clock_at >= RESTART_HOLD_S
        if silent_before or (self._new_samples >= RESTART_SAMPLES and held):
            self.restarted = True

    @staticmethod
    def _back_after_silence(latest: int | None, stamped_at: float | None, boot_ms: int, now: float) -> bool:
        if latest is None or stamped_at is None or now - stamped_at < STAMPED_SILENCE_S:
            return False
        return boot_ms < latest

    def _on_old_clock(self, boot_ms: int, now: float) -> None:
        if self._new_ms is not None:
            # The old clock again after messages on a new one: no reboot, a second sender.
            self._switches += 1
            self.conflict = self.conflict or self._switches >= CLOCK_CONFLICT_SWITCHES
            self._new_ms, self._new_samples = None, 0
        self.latest_ms = boot_ms if self.latest_ms is None else max(self.latest_ms, boot_ms)
        self._old_clock_at = now


class _WatchesBootClock:
    """Our pymavlink connections: every decoded message passes the vehicle's boot clock."""

    boot_clock: BootClock

    def post_message(self, msg: Any) -> None:
        super().post_message(msg)  # type: ignore[misc]
        self.boot_clock.observe(msg)


class TimedTcpConnection(_WatchesBootClock, mavutil.mavtcp):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's TCP client with a bounded connect: the stock one blocks for the OS timeout."""

    def __init__(self, address: str, connect_timeout: float) -> None:
        self._connect_timeout = connect_timeout
        self.boot_clock = BootClock()
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

    def recv(self, n: int | None = None) -> bytes:
        # A peer that closed while our bytes were on their way answers them with a reset, which
        # the stock read raises; it is the same closed link an end of file is.
        try:
            data: bytes = super().recv(n)
        except ConnectionResetError:
            self.portdead = True
            return b""
        return data


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
        self.boot_clock = BootClock()
        self._vehicle_heard_at = time.monotonic()
        self._impostor_heard_at: float | None = None
        self._impostor_address: tuple[str, int] | None = None

    @property
    def vehicle_moved_to(self) -> tuple[str, int] | None:
        """The address the vehicle's ids now come from, when its own address fell silent.

        A restarted SITL (or a UDP bridge that restarted) sends from a new port; the filter keeps
        reading only the old one, so without this the check would wait for ever.  Silence of the
        pinned address for `MOVED_AFTER_S` is required first, so another sender cannot take the
        link over from a vehicle that is still talking.
        """
        heard = self._impostor_heard_at
        if heard is None or self._impostor_address is None:
            return None
        now = time.monotonic()
        if now - self._vehicle_heard_at < MOVED_AFTER_S or now - heard > 1.0:
            return None
        return self._impostor_address

    def _from_elsewhere(self, data: bytes, sender: tuple[str, int]) -> bool:
        """Count and refuse a datagram that does not come from the vehicle (once it is known)."""
        if self.vehicle_address is None or sender == self.vehicle_address:
            self._vehicle_heard_at = time.monotonic()
            return False
        self.foreign_datagrams += 1
        ids = claimed_ids(data)
        if ids is not None and self.vehicle_ids is not None and ids[0] == self.vehicle_ids[0]:
            self.impostor_datagrams += 1
            self._impostor_heard_at = time.monotonic()
            self._impostor_address = sender
        return True


class VehicleUdpServer(_VehicleOnly, _WatchesBootClock, mavutil.mavudp):  # type: ignore[misc] # pymavlink has no type hints
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
        self._vehicle_heard_at = time.monotonic()
        self.clients = {self.vehicle_address}
        self.clients_last_alive = {self.vehicle_address: time.time()}


class VehicleUdpClient(_VehicleOnly, _WatchesBootClock, mavutil.mavudp):  # type: ignore[misc] # pymavlink has no type hints
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
    return VehicleSerial(endpoint.address, baudrate, **ids)


def _settings_keeping_serial() -> Any:
    """pyserial's port class, giving a POSIX terminal the settings it had back when it is closed.

    pyserial switches the terminal to raw mode at its rate and leaves it so.  A board's own device
    does not mind, but the device at a vanished board's path may be another one (a new
    pseudo-terminal takes the lowest free number), and a program that lets go of it must leave it
    as it found it.
    """
    import serial  # noqa: PLC0415 - pyserial is only needed for serial links

    if os.name != "posix":
        return serial.Serial
    import termios  # noqa: PLC0415 - POSIX only

    class SettingsKeepingSerial(serial.Serial):  # type: ignore[misc] # pyserial has no type hints
        saved_attributes: list[Any] | None = None

        def _reconfigure_port(self, *args: Any, **kwargs: Any) -> None:
            # The first configuration runs right after opening: what the device had before us.
            if self.saved_attributes is None and getattr(self, "fd", None) is not None:
                with contextlib.suppress(termios.error, OSError):
                    self.saved_attributes = termios.tcgetattr(self.fd)
            super()._reconfigure_port(*args, **kwargs)

        def close(self) -> None:
            saved, self.saved_attributes = self.saved_attributes, None
            if saved is not None and getattr(self, "fd", None) is not None:
                # A device that vanished has no settings left to restore.
                with contextlib.suppress(termios.error, OSError):
                    termios.tcsetattr(self.fd, termios.TCSANOW, saved)
            super().close()

    return SettingsKeepingSerial


class VehicleSerial(_WatchesBootClock, mavutil.mavserial):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's serial port, opened for this program alone, taking a vanished device as closed.

    The stock one lets a read error out of ``recv_msg`` (pyserial's "device reports readiness to
    read but returned no data") and prints "Device ... is dead" on a failed write.  A USB flight
    controller that reboots or is unplugged does exactly that, so here both mark the link dead
    (``portdead``, as pymavlink does for TCP), quietly: the check says it in its own words and
    waits for the device to come back.  The port is opened exclusively, so a second program
    cannot read half of the vehicle's bytes ("multiple access on port").
    """

    portdead: bool

    def __init__(self, device: str, baudrate: int, **ids: int) -> None:
        self.boot_clock = BootClock()
        self.lost_reason: str | None = None
        self.baud = baudrate
        self.device = device
        self.autoreconnect = False
        self.force_connected = False
        # Nothing is written before the vehicle's heartbeat (`allow_writes`): the device at this
        # path may be another one that took a vanished board's name.
        self.writes_allowed = False
        # Opened at 1200 baud and then set, as pymavlink does: some Linux USB drivers keep a stale
        # rate otherwise.
        self.port = _settings_keeping_serial()(
            device, 1200, timeout=0, dsrdtr=False, rtscts=False, xonxoff=False, exclusive=True
        )
        try:
            descriptor: int | None = self.port.fileno()
            mavutil.set_close_on_exec(descriptor)
        except Exception:  # a port without a descriptor (Windows) is read by polling instead
            descriptor = None
        self.set_baudrate(baudrate)
        mavutil.mavfile.__init__(self, descriptor, device, **ids)
        self.rtscts = False

    def _lost(self, error: BaseException) -> None:
        if not self.portdead:
            self.lost_reason = str(error) or type(error).__name__
        self.portdead = True

    def recv(self, n: int | None = None) -> bytes:
        if self.portdead:
            return b""
        try:
            data: bytes = super().recv(n)
        except Exception as error:  # pyserial's SerialException, OSError: the device went away
            self._lost(error)
            return b""
        return data

    def allow_writes(self) -> None:
        """The vehicle's heartbeat arrived on this device: it is the vehicle, and may be written to."""
        self.writes_allowed = True

    def write(self, buf: bytes) -> int:
        if self.portdead:
            return -1
        if not self.writes_allowed:
            return 0
        try:
            written: int = self.port.write(bytes(buf))
        except Exception as error:  # as above: never pymavlink's print, never an exception
            self._lost(error)
            return -1
        return written

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.port.close()


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
    if code in (errno.EBUSY, errno.EAGAIN) or "exclusively lock" in str(error):
        return _(
            "another program has this port open (a ground station, MAVProxy, or ModemManager on "
            "Linux); close it, then connect again"
        )
    if isinstance(error, (ValueError, OverflowError)):
        return _reason(error)
    return f"{type(error).__name__}: {_reason(error)}"

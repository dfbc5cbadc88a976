# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""FlightController facade: owns the pymavlink connection and finds the ArduPilot vehicle on it.

It offers the plugin what the methodic configurator 5.0.1's facade offers (`master`,
`info.system_id` / `info.component_id` as strings, `fc_parameters`), and nothing the plugin could
come to depend on beyond that: commands and their ACKs are the plugin's own business.

`connect()` is the only blocking call: it opens the device, then reads one message at a time until
the first ArduPilot vehicle HEARTBEAT, so it stops reading the moment the vehicle is found and
everything after that stays for the data model's `master.recv_msg()`.  Every exception pymavlink,
pyserial or the socket layer can raise becomes a sentence naming the device.

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
import ipaddress
import os
import re
import socket
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from amc_rc_receiver import _
from amc_rc_receiver.host_port import HostPortError, HostPortProblem, format_host_port, parse_host_port
from amc_rc_receiver.plugins.rc_receiver_commands import describe_exception

GCS_SYSTEM_ID = 255
GCS_COMPONENT_ID = 190  # MAV_COMP_ID_MISSIONPLANNER

UDPOUT_HEARTBEAT_PERIOD_S = 1.0
DISCOVERY_BACKLOG_LIMIT = 50  # messages kept from before the vehicle heartbeat
_SELECT_SLICE_S = 0.05

# A decoded pymavlink message (pymavlink has no type hints; fields depend on the message type).
MavlinkMessage = Any
_MAX_SENDERS_NAMED = 4

_MAV_AUTOPILOT_ARDUPILOTMEGA: int = int(_mavlink.MAV_AUTOPILOT_ARDUPILOTMEGA)
_MAV_AUTOPILOT_INVALID: int = int(_mavlink.MAV_AUTOPILOT_INVALID)
_MAV_TYPE_GCS: int = int(_mavlink.MAV_TYPE_GCS)

# Heartbeat types that ArduPilot firmware also uses for peripherals, not for the vehicle itself.
_NON_VEHICLE_TYPE_NAMES = (
    "MAV_TYPE_GCS",
    "MAV_TYPE_ONBOARD_CONTROLLER",
    "MAV_TYPE_GIMBAL",
    "MAV_TYPE_ADSB",
    "MAV_TYPE_CAMERA",
    "MAV_TYPE_CHARGING_STATION",
    "MAV_TYPE_FLARM",
    "MAV_TYPE_SERVO",
    "MAV_TYPE_ODID",
    "MAV_TYPE_BATTERY",
    "MAV_TYPE_LOG",
    "MAV_TYPE_OSD",
    "MAV_TYPE_IMU",
    "MAV_TYPE_GPS",
    "MAV_TYPE_WINCH",
)
_NON_VEHICLE_TYPES: frozenset[int] = frozenset(
    int(getattr(_mavlink, name)) for name in _NON_VEHICLE_TYPE_NAMES if hasattr(_mavlink, name)
)
_MAV_COMP_ID_GIMBAL = 154

_AUTOPILOT_LABELS = {
    int(_mavlink.MAV_AUTOPILOT_PX4): "PX4",
    int(_mavlink.MAV_AUTOPILOT_GENERIC): "generic",
}

_NETWORK_SCHEMES = ("tcp", "tcpin", "udp", "udpin", "udpout")
_SERVER_SCHEMES = frozenset({"tcpin", "udp", "udpin"})
_WINDOWS_COM_PORT = re.compile(r"^(\\\\\.\\)?COM\d+$", re.IGNORECASE)


def _enum_label(enum_name: str, value: int, prefix: str) -> str:
    entries: Any = _mavlink.enums.get(enum_name, {})
    name = getattr(entries.get(value), "name", None)
    if isinstance(name, str) and name.startswith(prefix):
        return name[len(prefix) :].lower().replace("_", " ")
    return str(value)


def _msg_type(msg: object) -> str | None:
    getter = getattr(msg, "get_type", None)
    if not callable(getter):
        return None
    value = getter()
    return value if isinstance(value, str) else None


def _msg_int(msg: object, field: str, default: int = -1) -> int:
    value = getattr(msg, field, default)
    return value if isinstance(value, int) else default


def _msg_source(msg: object) -> tuple[int, int]:
    get_system = getattr(msg, "get_srcSystem", None)
    get_component = getattr(msg, "get_srcComponent", None)
    system = get_system() if callable(get_system) else -1
    component = get_component() if callable(get_component) else -1
    return (system if isinstance(system, int) else -1, component if isinstance(component, int) else -1)


@dataclass(frozen=True)
class HeartbeatSender:
    """Who sent a heartbeat during discovery, kept to explain a failed connect."""

    system_id: int
    component_id: int
    autopilot: int
    mav_type: int

    @property
    def is_ardupilot_vehicle(self) -> bool:
        return (
            self.autopilot == _MAV_AUTOPILOT_ARDUPILOTMEGA
            and self.mav_type not in _NON_VEHICLE_TYPES
            and self.component_id != _MAV_COMP_ID_GIMBAL
        )

    def describe(self) -> str:
        ids = f"{self.system_id}/{self.component_id}"
        kind = _enum_label("MAV_TYPE", self.mav_type, "MAV_TYPE_")
        if self.mav_type == _MAV_TYPE_GCS:
            return _("a GCS ({ids})").format(ids=ids)
        if self.autopilot == _MAV_AUTOPILOT_ARDUPILOTMEGA:
            return _("an ArduPilot {kind} component ({ids})").format(kind=kind, ids=ids)
        if self.autopilot == _MAV_AUTOPILOT_INVALID:
            return _("a {kind} component without autopilot ({ids})").format(kind=kind, ids=ids)
        label = _AUTOPILOT_LABELS.get(self.autopilot) or _enum_label(
            "MAV_AUTOPILOT", self.autopilot, "MAV_AUTOPILOT_"
        )
        return _("a {autopilot} autopilot ({ids})").format(autopilot=label, ids=ids)


def _join_descriptions(descriptions: Sequence[str]) -> str:
    named = list(descriptions[:_MAX_SENDERS_NAMED])
    extra = len(descriptions) - len(named)
    if extra > 0:
        named.append(_("{count} more").format(count=extra))
    if len(named) == 1:
        return named[0]
    return _("{first} and {last}").format(first=", ".join(named[:-1]), last=named[-1])


@dataclass
class _DiscoveryLog:
    """What connect() heard while no ArduPilot vehicle answered, to explain the failure."""

    heartbeats: int = 0
    other_messages: int = 0
    bad_data: int = 0
    senders: dict[tuple[int, int], HeartbeatSender] = field(default_factory=dict)

    def explain(self, shown: str, timeout: float) -> str:
        if self.heartbeats:
            return _(
                "No ArduPilot vehicle found on {device} within {timeout:g} s: heard {count} heartbeats, "
                "from {senders}, but no ArduPilot vehicle."
            ).format(
                device=shown,
                timeout=timeout,
                count=self.heartbeats,
                senders=_join_descriptions([s.describe() for s in self.senders.values()]),
            )
        if self.other_messages:
            return _(
                "No heartbeat from {device} within {timeout:g} s, although {count} other MAVLink "
                "messages arrived; is this a vehicle?"
            ).format(device=shown, timeout=timeout, count=self.other_messages)
        if self.bad_data:
            return _(
                "No MAVLink heartbeat from {device} within {timeout:g} s: the data that arrived is not "
                "MAVLink (wrong baud rate or wrong port protocol?)."
            ).format(device=shown, timeout=timeout)
        return _(
            "No MAVLink heartbeat from {device} within {timeout:g} s. Check that the vehicle is powered, "
            "the connection string and port are right, and no other program holds the link."
        ).format(device=shown, timeout=timeout)


@dataclass
class FlightControllerInfo:
    system_id: str = ""
    component_id: str = ""
    autopilot: int | None = None
    vehicle_type: int | None = None

    @property
    def system_id_int(self) -> int | None:
        return int(self.system_id) if self.system_id.isdigit() else None

    @property
    def component_id_int(self) -> int | None:
        return int(self.component_id) if self.component_id.isdigit() else None


class DeviceError(Exception):
    """A device string that cannot work; the message is a readable reason."""


@dataclass(frozen=True)
class _Endpoint:
    scheme: str  # one of _NETWORK_SCHEMES, or "serial"
    address: str  # "host:port" for network schemes, the port path for serial
    host: str = ""
    port: int = 0


def parse_device(device: str) -> _Endpoint:
    """Split a pymavlink device string, rejecting forms that would do something unexpected.

    pymavlink would replay an existing file as a log, or even execute it, and would treat unknown
    "x:y" strings as UDP: here only network schemes and serial ports are accepted.
    """
    text = device.strip()
    if not text:
        raise DeviceError(_("the connection string is empty"))
    scheme, sep, rest = text.partition(":")
    if sep and scheme.lower() in _NETWORK_SCHEMES:
        host, port = _validate_host_port(scheme.lower(), rest)
        return _Endpoint(scheme.lower(), format_host_port(host, port), host, port)
    looks_like_path = text.startswith(("/", "\\", ".")) or bool(_WINDOWS_COM_PORT.match(text))
    if sep and not looks_like_path:
        raise DeviceError(
            _(
                "unknown connection type '{scheme}'; use tcp:HOST:PORT, tcpin:HOST:PORT, udp:HOST:PORT, "
                "udpin:HOST:PORT, udpout:HOST:PORT or a serial port such as /dev/ttyACM0 or COM3"
            ).format(scheme=scheme)
        )
    if os.path.isfile(text):
        raise DeviceError(_("{path} is a file, not a serial port").format(path=text))
    return _Endpoint("serial", text)


def _validate_host_port(scheme: str, rest: str) -> tuple[str, int]:
    example = "127.0.0.1:14550"
    try:
        # pymavlink splits the address at its first colon: no IPv6 host can reach it
        host, port = parse_host_port(rest, default_host="", ipv6=False)
    except HostPortError as error:
        if error.problem is HostPortProblem.FORM:
            raise DeviceError(
                _("expected {scheme}:HOST:PORT, for example {scheme}:{example}").format(
                    scheme=scheme, example=example
                )
            ) from None
        raise DeviceError(
            _("'{port}' is not a port number (0 to 65535)").format(port=error.port_text)
        ) from None
    server = scheme in _SERVER_SCHEMES
    if not server and (not host or port == 0):
        raise DeviceError(
            _("{scheme} needs the address and port of the vehicle, for example {scheme}:{example}").format(
                scheme=scheme, example=example
            )
        )
    return host, port


class _TimedTcpConnection(mavutil.mavtcp):  # type: ignore[misc] # pymavlink has no type hints
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


class _VehicleUdpServer(mavutil.mavudp):  # type: ignore[misc] # pymavlink has no type hints
    """pymavlink's UDP server with bounded memory of who sent to it.

    The stock server remembers every source address for ever and sends each packet to all of
    them, so a flood from spoofed source ports grows memory and turns one command into thousands
    of datagrams.  This one remembers the few latest senders while looking for the vehicle and,
    once the vehicle's heartbeat arrived, answers only the address it came from.
    """

    MAX_REMEMBERED_SENDERS = 4

    def __init__(self, address: str, **ids: int) -> None:
        super().__init__(address, input=True, **ids)
        self.last_sender: tuple[str, int] | None = None
        self.vehicle_address: tuple[str, int] | None = None

    def recv(self, n: int | None = None) -> bytes:
        del n  # one datagram at a time, whatever the parser would like
        try:
            data, sender = self.port.recvfrom(mavutil.UDP_MAX_PACKET_LEN)
        except (BlockingIOError, InterruptedError, ConnectionRefusedError):
            return b""
        self.last_sender = sender
        if self.vehicle_address is None:
            self.clients.add(sender)
            self.clients_last_alive[sender] = time.time()
            while len(self.clients) > self.MAX_REMEMBERED_SENDERS:
                oldest = min(self.clients, key=lambda client: self.clients_last_alive.get(client, 0.0))
                self.clients.discard(oldest)
                self.clients_last_alive.pop(oldest, None)
        elif sender == self.vehicle_address:
            self.clients_last_alive[sender] = time.time()
        return bytes(data)

    def pin_vehicle(self) -> None:
        """Answer only the sender of the datagram read last (the vehicle's heartbeat)."""
        if self.last_sender is None:
            return
        self.vehicle_address = self.last_sender
        self.clients = {self.vehicle_address}
        self.clients_last_alive = {self.vehicle_address: time.time()}


def _bind_towards(sock: socket.socket, destination: tuple[str, int]) -> None:
    """Bind an outbound UDP socket to the one local address that reaches ``destination``.

    Left unbound, the kernel binds it to every interface (0.0.0.0) at the first send, so a vehicle
    on the loopback would expose our port to the network.
    """
    if ipaddress.ip_address(destination[0]).is_loopback:
        sock.bind(("127.0.0.1", 0))
        return
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(destination)  # no datagram is sent: this only asks the routing table
        sock.bind((probe.getsockname()[0], 0))


def _open(endpoint: _Endpoint, baudrate: int, timeout: float) -> Any:
    ids = {"source_system": GCS_SYSTEM_ID, "source_component": GCS_COMPONENT_ID}
    if endpoint.scheme == "tcp":
        return _TimedTcpConnection(endpoint.address, connect_timeout=max(timeout, 0.1))
    if endpoint.scheme == "tcpin":
        return mavutil.mavtcpin(endpoint.address, **ids)
    if endpoint.scheme in ("udp", "udpin"):
        return _VehicleUdpServer(endpoint.address, **ids)
    if endpoint.scheme == "udpout":
        # pymavlink resolves lazily and swallows the error on every send: resolve once, loudly
        resolved = socket.getaddrinfo(endpoint.host, endpoint.port, socket.AF_INET, socket.SOCK_DGRAM)[0][4]
        link = mavutil.mavudp(endpoint.address, input=False, **ids)
        _bind_towards(link.port, (str(resolved[0]), endpoint.port))
        return link
    return mavutil.mavserial(endpoint.address, baud=baudrate, **ids)


def _use_mavlink2(master: Any) -> None:
    """Give this one connection a MAVLink 2 ardupilotmega codec (see the module docstring)."""
    mav = _mavlink.MAVLink(master, srcSystem=GCS_SYSTEM_ID, srcComponent=GCS_COMPONENT_ID)
    mav.robust_parsing = True
    master.mav = mav
    master.WIRE_PROTOCOL_VERSION = "2.0"
    master.first_byte = False


def _explain_open_error(error: BaseException) -> str:
    if isinstance(error, DeviceError):
        return str(error)
    if isinstance(error, socket.gaierror):
        return _("the host name could not be resolved ({reason})").format(reason=describe_exception(error))
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
        return describe_exception(error)
    return f"{type(error).__name__}: {describe_exception(error)}"


class FlightController:
    """The connection to one ArduPilot vehicle; see the module docstring for the strategy.

    ``wait_clock`` measures connect's timeout, which is a real wait on the link.  Every
    successful ``connect()`` makes a new ``master`` object: that identity is how a plugin knows
    the connection changed, as in the methodic configurator.
    """

    def __init__(self, wait_clock: Callable[[], float] = time.monotonic) -> None:
        self._wait_clock = wait_clock
        self.master: mavutil.mavfile | None = None
        self.info = FlightControllerInfo()
        self.device: str | None = None
        self.fc_parameters: dict[str, float] = {}
        self._discovery_messages: tuple[MavlinkMessage, ...] = ()

    # ---- connection ------------------------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        return self.master is not None

    @property
    def link_closed(self) -> bool:
        """True once the peer closed a TCP link (pymavlink's ``portdead``); reconnect to recover."""
        return self.master is not None and getattr(self.master, "portdead", False) is True

    @property
    def discovery_messages(self) -> tuple[MavlinkMessage, ...]:
        """Non-heartbeat messages read while waiting for the vehicle (the last 50, oldest first)."""
        return self._discovery_messages

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        """Open ``device`` and wait for an ArduPilot vehicle heartbeat; "" or a readable error."""
        self.disconnect()
        shown = device.strip() or repr(device)
        try:
            endpoint = parse_device(device)
            master = _open(endpoint, baudrate, timeout)
        except Exception as error:  # every failure becomes a sentence, never a crash
            return _("Could not open {device}: {reason}.").format(
                device=shown, reason=_explain_open_error(error)
            )
        try:
            _use_mavlink2(master)
            error_text = self._discover(master, endpoint, shown, timeout)
        except Exception as error:  # a link that dies mid-discovery, a parser error: same
            error_text = _("Lost {device} while looking for the vehicle: {reason}.").format(
                device=shown, reason=_explain_open_error(error)
            )
        if error_text:
            _close_quietly(master)
            self.info = FlightControllerInfo()
            return error_text
        self.master = master
        self.device = device.strip()
        return ""

    def _discover(self, master: Any, endpoint: _Endpoint, shown: str, timeout: float) -> str:
        heard = _DiscoveryLog()
        backlog: deque[MavlinkMessage] = deque(maxlen=DISCOVERY_BACKLOG_LIMIT)
        start = self._wait_clock()
        deadline = start + timeout
        next_gcs_heartbeat = start
        overtime_reads = 0
        while True:
            now = self._wait_clock()
            if endpoint.scheme == "udpout" and now >= next_gcs_heartbeat:
                _send_gcs_heartbeat(master)
                next_gcs_heartbeat = now + UDPOUT_HEARTBEAT_PERIOD_S
            msg = master.recv_msg()
            if msg is None:
                if getattr(master, "portdead", False) is True:
                    return _("{device} closed the connection before a vehicle heartbeat arrived.").format(
                        device=shown
                    )
                if now >= deadline:
                    break
                master.select(min(_SELECT_SLICE_S, max(deadline - now, 0.0)))
                continue
            kind = _msg_type(msg)
            if kind == "BAD_DATA":
                heard.bad_data += 1
            elif kind == "HEARTBEAT":
                heard.heartbeats += 1
                system_id, component_id = _msg_source(msg)
                sender = HeartbeatSender(
                    system_id, component_id, _msg_int(msg, "autopilot"), _msg_int(msg, "type")
                )
                if sender.is_ardupilot_vehicle:
                    self._adopt(master, sender)
                    self._discovery_messages = tuple(backlog)
                    return ""
                heard.senders.setdefault((system_id, component_id), sender)
            else:
                heard.other_messages += 1
                backlog.append(msg)
            if now >= deadline:
                # what already arrived still counts, but a flood must not stretch the timeout
                overtime_reads += 1
                if overtime_reads > DISCOVERY_BACKLOG_LIMIT:
                    break
        return heard.explain(shown, timeout)

    def _adopt(self, master: Any, sender: HeartbeatSender) -> None:
        self.info = FlightControllerInfo(
            system_id=str(sender.system_id),
            component_id=str(sender.component_id),
            autopilot=sender.autopilot,
            vehicle_type=sender.mav_type,
        )
        # pymavlink's own helpers (and anything using master.target_*) then address the vehicle
        master.target_system = sender.system_id
        master.target_component = sender.component_id
        if isinstance(master, _VehicleUdpServer):
            master.pin_vehicle()

    def disconnect(self) -> None:
        """Close the link; safe to call at any time."""
        master, self.master = self.master, None
        if master is not None:
            _close_quietly(master)
        self.info = FlightControllerInfo()
        self.fc_parameters = {}
        self._discovery_messages = ()


def _send_gcs_heartbeat(master: Any) -> None:
    # the next period retries, and connect reports the silence if it lasts
    with contextlib.suppress(Exception):
        master.mav.heartbeat_send(_MAV_TYPE_GCS, _MAV_AUTOPILOT_INVALID, 0, 0, int(_mavlink.MAV_STATE_ACTIVE))


def _close_quietly(master: Any) -> None:
    # closing a dead link must not fail a disconnect
    with contextlib.suppress(Exception):
        master.close()

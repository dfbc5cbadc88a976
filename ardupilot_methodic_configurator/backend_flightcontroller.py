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

Once the vehicle is found, connect reads its first parameter (PARAM_REQUEST_READ, index 0) on every
kind of link.  ArduPilot sends its status texts only on links it has received a message on, so
without one a text the vehicle sends before the plugin's first request (such as "RCInput: decoding
…", sent once, when a receiver is first decoded) would never arrive.  A read changes nothing on
the vehicle; a single HEARTBEAT would not do: from system 255 it makes ArduPilot count the link as
its ground station, whose silence afterwards is a GCS failsafe where FS_GCS_ENABLE is set.

Then it asks for the vehicle's AUTOPILOT_VERSION (MAV_CMD_REQUEST_MESSAGE), once per connection,
as every ground station does, so a reconnection after a reboot asks again.  Neither is waited
for: the version reaches the plugin with the rest of the link's messages (the methodic
configurator reads it in its own connect and offers ``info.flight_sw_version`` instead), and the
version-aware rules use it.

The device string is checked by `connection.devices`, the connection opened by `connection.opening`
(bounded, quiet, MAVLink 2), and a failed search explained by `connection.discovery`.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from . import _
from .connection.devices import DeviceEndpoint, parse_device
from .connection.discovery import DiscoveryLog, HeartbeatSender
from .connection.opening import (
    BootClock,
    VehicleSerial,
    VehicleUdpClient,
    VehicleUdpServer,
    explain_open_error,
    open_connection,
    use_mavlink2,
)

UDPOUT_HEARTBEAT_PERIOD_S = 1.0
DISCOVERY_BACKLOG_LIMIT = 50  # messages kept from before the vehicle heartbeat
_SELECT_SLICE_S = 0.05

# A decoded pymavlink message (pymavlink has no type hints; fields depend on the message type).
MavlinkMessage = Any
_MAV_AUTOPILOT_INVALID: int = int(_mavlink.MAV_AUTOPILOT_INVALID)
_MAV_TYPE_GCS: int = int(_mavlink.MAV_TYPE_GCS)
_MAV_CMD_REQUEST_MESSAGE: int = int(_mavlink.MAV_CMD_REQUEST_MESSAGE)
_AUTOPILOT_VERSION: int = int(_mavlink.MAVLINK_MSG_ID_AUTOPILOT_VERSION)


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


class FlightController:
    """The connection to one ArduPilot vehicle; see the module docstring for the strategy.

    ``wait_clock`` measures connect's timeout, which is a real wait on the link.  Every
    successful ``connect()`` makes a new ``master`` object: that identity is how a plugin knows
    the connection changed, as in the methodic configurator.
    """

    def __init__(
        self,
        wait_clock: Callable[[], float] = time.monotonic,
        link_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wait_clock = wait_clock
        # The clock the vehicle's boot clock is watched on (how long a new clock has held).
        self._link_clock = link_clock
        self.master: mavutil.mavfile | None = None
        self.info = FlightControllerInfo()
        self.device: str | None = None
        self.fc_parameters: dict[str, float] = {}
        self._discovery_messages: tuple[MavlinkMessage, ...] = ()
        self._scheme = ""

    # ---- connection ------------------------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        return self.master is not None

    @property
    def link_closed(self) -> bool:
        """True once the link is gone: the peer closed a TCP link, or a serial device vanished
        (pymavlink's ``portdead``); reconnect to recover."""
        return self.master is not None and getattr(self.master, "portdead", False) is True

    @property
    def link_kind(self) -> str:
        """``serial``, ``tcp``, ``tcpin``, ``udpin`` or ``udpout`` of the open link ("" without one)."""
        return self._scheme if self.master is not None else ""

    @property
    def vehicle_restarted(self) -> bool:
        """True when the vehicle's boot clock went back on a link that stayed open (a reboot)."""
        clock = getattr(self.master, "boot_clock", None)
        return isinstance(clock, BootClock) and clock.restarted

    @property
    def vehicle_clock_conflict(self) -> bool:
        """True when two boot clocks keep taking turns on the vehicle's ids: two vehicles share them."""
        clock = getattr(self.master, "boot_clock", None)
        return isinstance(clock, BootClock) and clock.conflict

    @property
    def vehicle_moved_to(self) -> tuple[str, int] | None:
        """A UDP vehicle that fell silent while its ids arrive from a new address (a restart)."""
        if isinstance(self.master, VehicleUdpServer):
            return self.master.vehicle_moved_to
        return None

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
            master = open_connection(endpoint, baudrate, timeout)
        except Exception as error:  # every failure becomes a sentence, never a crash
            return _("Could not open {device}: {reason}.").format(
                device=shown, reason=explain_open_error(error)
            )
        try:
            use_mavlink2(master)
            error_text = self._discover(master, endpoint, shown, timeout)
        except Exception as error:  # a link that dies mid-discovery, a parser error: same
            error_text = _("Lost {device} while looking for the vehicle: {reason}.").format(
                device=shown, reason=explain_open_error(error)
            )
        if error_text:
            _close_quietly(master)
            self.info = FlightControllerInfo()
            return error_text
        self.master = master
        self.device = device.strip()
        self._scheme = endpoint.scheme
        return ""

    def _discover(self, master: Any, endpoint: DeviceEndpoint, shown: str, timeout: float) -> str:
        heard = DiscoveryLog()
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
            # Messages here come from our own MAVLink 2 parser, so their getters and fields are
            # there and typed; a frame it could not decode is BAD_DATA.
            kind = msg.get_type()
            if kind == "BAD_DATA":
                heard.bad_data += 1
            elif kind == "HEARTBEAT":
                heard.heartbeats += 1
                system_id, component_id = msg.get_srcSystem(), msg.get_srcComponent()
                sender = HeartbeatSender(system_id, component_id, msg.autopilot, msg.type)
                if sender.is_ardupilot_vehicle:
                    self._adopt(master, sender)
                    self._discovery_messages = tuple(backlog)
                    _say_hello(master, sender)
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
        if isinstance(master, VehicleUdpServer | VehicleUdpClient):
            master.pin_vehicle((sender.system_id, sender.component_id))
        if isinstance(master, VehicleSerial):
            master.allow_writes()
        if isinstance(getattr(master, "boot_clock", None), BootClock):
            # Watched from the vehicle's discovery on, on this facade's clock.
            master.boot_clock = BootClock(self._link_clock)
            master.boot_clock.vehicle = (sender.system_id, sender.component_id)

    def disconnect(self) -> None:
        """Close the link; safe to call at any time."""
        master, self.master = self.master, None
        if master is not None:
            _close_quietly(master)
        self.info = FlightControllerInfo()
        self.fc_parameters = {}
        self._discovery_messages = ()


def _say_hello(master: Any, vehicle: HeartbeatSender) -> None:
    # a link that cannot send fails the plugin's first request too, which says so in its words
    with contextlib.suppress(Exception):
        master.mav.param_request_read_send(vehicle.system_id, vehicle.component_id, b"", 0)
    # the firmware's version, asked as every ground station asks it; the answer stays on the link
    # for whoever reads it (the plugin), and its ACK is nobody's business
    with contextlib.suppress(Exception):
        master.mav.command_long_send(
            vehicle.system_id,
            vehicle.component_id,
            _MAV_CMD_REQUEST_MESSAGE,
            0,
            _AUTOPILOT_VERSION,
            0,
            0,
            0,
            0,
            0,
            0,
        )


def _send_gcs_heartbeat(master: Any) -> None:
    # the next period retries, and connect reports the silence if it lasts
    with contextlib.suppress(Exception):
        master.mav.heartbeat_send(_MAV_TYPE_GCS, _MAV_AUTOPILOT_INVALID, 0, 0, int(_mavlink.MAV_STATE_ACTIVE))


def _close_quietly(master: Any) -> None:
    # closing a dead link must not fail a disconnect
    with contextlib.suppress(Exception):
        master.close()

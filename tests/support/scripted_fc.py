# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A scripted flight controller: a real MAVLink 2 endpoint on a loopback UDP socket for tests.

It behaves like ArduPilot's UDP server mode: it binds 127.0.0.1:0, learns the ground station's
address from the datagrams it receives (following the newest sender, so a reconnect from a new
port works), answers COMMAND_LONGs by a settable policy and records every byte it receives.
Tests script everything else (RC_CHANNELS, SYS_STATUS, foreign heartbeats, raw bytes) explicitly,
so a test states exactly what the vehicle said.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from tests.support.waiting import DEADLINE_S, wait_for

MAV_CMD_SET_MESSAGE_INTERVAL = 511
RC_RECEIVER_SENSOR_BIT = 0x10000  # MAV_SYS_STATUS_SENSOR_RC_RECEIVER
_UNUSED_CHANNEL = 0  # ArduPilot reports channels beyond chancount as 0
_MAX_DATAGRAM = 65535


class AckPolicy(Enum):
    """How the scripted vehicle answers a SET_MESSAGE_INTERVAL command."""

    ACCEPT = "MAV_RESULT_ACCEPTED"
    DENY = "MAV_RESULT_DENIED"
    UNSUPPORTED = "MAV_RESULT_UNSUPPORTED"
    SILENT = "no answer"


_POLICY_RESULT = {
    AckPolicy.ACCEPT: mavlink2.MAV_RESULT_ACCEPTED,
    AckPolicy.DENY: mavlink2.MAV_RESULT_DENIED,
    AckPolicy.UNSUPPORTED: mavlink2.MAV_RESULT_UNSUPPORTED,
}


class ScriptedFlightController:
    """A real MAVLink endpoint on a loopback UDP socket (bound 127.0.0.1:0), acting as a vehicle.

    Optional parameters beyond the contract: ``autopilot`` / ``mav_type`` of its own heartbeat,
    ``send_heartbeats=False`` for a vehicle that never announces itself, ``heartbeat_interval``,
    ``other_command_result`` for COMMAND_LONGs other than SET_MESSAGE_INTERVAL, and
    ``on_gcs_learned(endpoint)``, a script run whenever a new GCS address is learned (e.g. to greet
    each connect with foreign heartbeats).
    """

    def __init__(
        self,
        system_id: int = 1,
        component_id: int = 1,
        *,
        autopilot: int = mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA,
        mav_type: int = mavlink2.MAV_TYPE_QUADROTOR,
        send_heartbeats: bool = True,
        heartbeat_interval: float = 1.0,
        other_command_result: int | None = mavlink2.MAV_RESULT_UNSUPPORTED,
        on_gcs_learned: Callable[[ScriptedFlightController], None] | None = None,
    ) -> None:
        self.system_id = system_id
        self.component_id = component_id
        self.autopilot = autopilot
        self.mav_type = mav_type
        self.send_heartbeats = send_heartbeats
        self.heartbeat_interval = heartbeat_interval
        self.other_command_result = other_command_result
        # called from the endpoint's thread each time a new GCS address is learned (each connect)
        self.on_gcs_learned = on_gcs_learned
        self.script_errors: list[Exception] = []
        self.ack_policy: AckPolicy | Mapping[int, AckPolicy] = AckPolicy.ACCEPT
        # message id -> interval in microseconds, as last accepted; -1 means off, 0 the default
        self.message_intervals: dict[int, float] = {}
        # Parameters answered to PARAM_REQUEST_READ by name, as ArduPilot does; unknown names and
        # reads by index get no answer.
        self.parameters: dict[str, float] = {}
        # AUTOPILOT_VERSION.flight_sw_version sent after the ACK of a MAV_CMD_REQUEST_MESSAGE for
        # it, as ArduPilot answers; None answers the request with its ACK alone.
        self.flight_sw_version: int | None = None
        # The flight mode (HEARTBEAT.custom_mode) every heartbeat reports, as ArduPilot's do.
        self.custom_mode = 0

        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.setblocking(False)
        port = self._sock.getsockname()[1]
        self.device = f"udpout:127.0.0.1:{port}"
        self.port: int = port

        self._lock = threading.Lock()
        self._encoder = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
        self._parser = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
        self._parser.robust_parsing = True
        self._received: list[Any] = []
        self._received_bytes = bytearray()
        self._handled_bytes = 0
        self._gcs_address: tuple[str, int] | None = None
        self._gcs_ids: tuple[int, int] = (255, 190)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_time = time.monotonic()

    # ---- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the background thread that receives, answers commands and sends heartbeats."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="scripted-fc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the socket; idempotent."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        self._sock.close()

    def __enter__(self) -> ScriptedFlightController:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ---- what the GCS sent -----------------------------------------------------------------------

    @property
    def received(self) -> list[Any]:
        """A copy of every MAVLink message decoded from what the GCS sent (BAD_DATA included)."""
        return self.received_messages()

    def received_messages(self) -> list[Any]:
        with self._lock:
            return list(self._received)

    def received_bytes(self) -> bytes:
        with self._lock:
            return bytes(self._received_bytes)

    def handled_bytes(self) -> int:
        """How many received bytes were fully handled: recorded, and every answer to them sent."""
        with self._lock:
            return self._handled_bytes

    def received_of_type(self, type_name: str) -> list[Any]:
        return [m for m in self.received_messages() if m.get_type() == type_name]

    def commands_received(self, command: int | None = None) -> list[tuple[int, tuple[float, ...]]]:
        """(command id, 7 params) of every COMMAND_LONG received (of ``command`` only, if given),
        in arrival order."""
        return [
            (
                int(m.command),
                (m.param1, m.param2, m.param3, m.param4, m.param5, m.param6, m.param7),
            )
            for m in self.received_of_type("COMMAND_LONG")
            if command is None or int(m.command) == command
        ]

    @property
    def gcs_address(self) -> tuple[str, int] | None:
        with self._lock:
            return self._gcs_address

    def wait_for_gcs(self, deadline_s: float = DEADLINE_S) -> None:
        """Wait until the GCS has sent its first datagram (so the vehicle knows where to answer)."""
        wait_for(lambda: self.gcs_address is not None, "the GCS's first datagram", deadline_s)

    # ---- what the vehicle says -------------------------------------------------------------------

    def send(self, msg: Any, system_id: int | None = None, component_id: int | None = None) -> None:
        """Encode a pymavlink message with the chosen source ids and send it to the GCS."""
        with self._lock:
            address = self._gcs_address
            if address is None:
                raise RuntimeError("the scripted flight controller has not heard from a GCS yet")
            self._encoder.srcSystem = self.system_id if system_id is None else system_id
            self._encoder.srcComponent = self.component_id if component_id is None else component_id
            data = msg.pack(self._encoder)
            self._encoder.seq = (self._encoder.seq + 1) % 256
        self._sendto(data, address)

    def send_raw(self, data: bytes) -> None:
        with self._lock:
            address = self._gcs_address
        if address is None:
            raise RuntimeError("the scripted flight controller has not heard from a GCS yet")
        self._sendto(data, address)

    def time_boot_ms(self) -> int:
        return int((time.monotonic() - self._start_time) * 1000) & 0xFFFFFFFF

    def send_rc_channels(
        self,
        pwm: Sequence[int],
        chancount: int = 8,
        rssi: int = 255,
        *,
        time_boot_ms: int | None = None,
        system_id: int | None = None,
        component_id: int | None = None,
    ) -> None:
        channels = [int(v) for v in pwm[:18]] + [_UNUSED_CHANNEL] * (18 - min(len(pwm), 18))
        msg = mavlink2.MAVLink_rc_channels_message(
            self.time_boot_ms() if time_boot_ms is None else time_boot_ms, chancount, *channels, rssi
        )
        self.send(msg, system_id, component_id)

    def send_sys_status(
        self,
        present: bool,
        enabled: bool,
        healthy: bool,
        other_failing: int = 0,
        *,
        system_id: int | None = None,
        component_id: int | None = None,
    ) -> None:
        """SYS_STATUS with the RC receiver bits as given; ``other_failing`` is a mask of other
        sensors reported present and enabled but unhealthy."""
        bit = RC_RECEIVER_SENSOR_BIT
        msg = mavlink2.MAVLink_sys_status_message(
            (bit if present else 0) | other_failing,
            (bit if enabled else 0) | other_failing,
            (bit if healthy else 0),
            0,
            12600,
            -1,
            -1,
            0,
            0,
            0,
            0,
            0,
            0,
        )
        self.send(msg, system_id, component_id)

    def send_heartbeat(
        self,
        autopilot: int | None = None,
        mav_type: int | None = None,
        *,
        system_id: int | None = None,
        component_id: int | None = None,
    ) -> None:
        msg = self._heartbeat(autopilot, mav_type)
        self.send(msg, system_id, component_id)

    def send_command_ack(
        self, command: int, result: int, *, system_id: int | None = None, component_id: int | None = None
    ) -> None:
        """An unsolicited COMMAND_ACK (e.g. from a foreign system) addressed to the GCS."""
        gcs_system, gcs_component = self._gcs_ids
        msg = mavlink2.MAVLink_command_ack_message(command, result, 0, 0, gcs_system, gcs_component)
        self.send(msg, system_id, component_id)

    # ---- internals -------------------------------------------------------------------------------

    def _heartbeat(self, autopilot: int | None = None, mav_type: int | None = None) -> Any:
        return mavlink2.MAVLink_heartbeat_message(
            self.mav_type if mav_type is None else mav_type,
            self.autopilot if autopilot is None else autopilot,
            mavlink2.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED,
            self.custom_mode,
            mavlink2.MAV_STATE_STANDBY,
            3,
        )

    def _sendto(self, data: bytes, address: tuple[str, int]) -> None:
        # a closed GCS port answers ICMP unreachable; a real vehicle keeps going too
        with contextlib.suppress(OSError):
            self._sock.sendto(data, address)

    def _policy_for(self, message_id: int) -> AckPolicy:
        policy = self.ack_policy
        if isinstance(policy, AckPolicy):
            return policy
        return policy.get(message_id, AckPolicy.ACCEPT)

    def _run(self) -> None:
        next_heartbeat = 0.0
        while not self._stop.is_set():
            try:
                readable, _, _ = select.select([self._sock], [], [], 0.05)
            except (OSError, ValueError):
                return
            if readable:
                self._receive_all()
            now = time.monotonic()
            if self.send_heartbeats and self.gcs_address is not None and now >= next_heartbeat:
                self._safe_send(self._heartbeat())
                next_heartbeat = now + self.heartbeat_interval

    def _receive_all(self) -> None:
        for _ in range(100):  # bounded per wake-up
            try:
                data, address = self._sock.recvfrom(_MAX_DATAGRAM)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            with self._lock:
                new_gcs = self._gcs_address != address
                self._gcs_address = address
                self._received_bytes.extend(data)
                try:
                    messages = self._parser.parse_buffer(data) or []
                except Exception:  # a test endpoint records, it never dies on input
                    messages = []
                self._received.extend(messages)
            if new_gcs:
                if self.send_heartbeats:
                    # answer at once, like a vehicle that streams to every new link
                    self._safe_send(self._heartbeat())
                if self.on_gcs_learned is not None:
                    try:
                        self.on_gcs_learned(self)
                    except Exception as error:  # a broken script must show up in the test, not kill us
                        self.script_errors.append(error)
            for msg in messages:
                if msg.get_type() in {"COMMAND_LONG", "HEARTBEAT"}:
                    self._gcs_ids = (msg.get_srcSystem(), msg.get_srcComponent())
                if msg.get_type() == "COMMAND_LONG":
                    self._answer(msg)
                elif msg.get_type() == "PARAM_REQUEST_READ":
                    self._answer_param_read(msg)
            with self._lock:
                # Counted only once every answer to this datagram has been sent.
                self._handled_bytes += len(data)

    def _answer(self, msg: Any) -> None:
        if msg.target_system not in (0, self.system_id):
            return
        if msg.target_component not in (0, self.component_id):
            return
        command = int(msg.command)
        if command == MAV_CMD_SET_MESSAGE_INTERVAL:
            message_id = int(msg.param1)
            policy = self._policy_for(message_id)
            if policy is AckPolicy.SILENT:
                return
            if policy is AckPolicy.ACCEPT:
                self.message_intervals[message_id] = msg.param2
            result = _POLICY_RESULT[policy]
        elif self.other_command_result is None:
            return
        else:
            result = self.other_command_result
        ack = mavlink2.MAVLink_command_ack_message(
            command, result, 0, 0, msg.get_srcSystem(), msg.get_srcComponent()
        )
        self._safe_send(ack)
        wants_version = (
            command == mavlink2.MAV_CMD_REQUEST_MESSAGE
            and int(msg.param1) == mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION
        )
        if wants_version and self.flight_sw_version is not None:
            self._safe_send(
                mavlink2.MAVLink_autopilot_version_message(
                    0, self.flight_sw_version, 0, 0, 0, bytes(8), bytes(8), bytes(8), 0, 0, 0
                )
            )

    def _answer_param_read(self, msg: Any) -> None:
        if msg.target_system not in (0, self.system_id) or msg.target_component not in (0, self.component_id):
            return
        raw = msg.param_id
        text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes) else str(raw)
        name = text.split("\x00")[0]
        names = list(self.parameters)
        if int(msg.param_index) != -1 or name not in self.parameters:
            return
        value = mavlink2.MAVLink_param_value_message(
            name.encode("ascii"),
            float(self.parameters[name]),
            mavlink2.MAV_PARAM_TYPE_REAL32,
            len(names),
            names.index(name),
        )
        self._safe_send(value)

    def _safe_send(self, msg: Any) -> None:
        with contextlib.suppress(RuntimeError):
            self.send(msg)

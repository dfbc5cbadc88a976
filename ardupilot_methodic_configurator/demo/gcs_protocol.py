# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the simulated vehicle answers a ground station, as ArduPilot does.

``GcsProtocol`` maps each incoming message type to a handler (a table, not an if-chain) and
sends the replies through the vehicle:

- COMMAND_LONG / COMMAND_INT: SET_MESSAGE_INTERVAL (ACCEPTED or DENIED as real SITL does),
  REQUEST_MESSAGE (ACK, then the message; FAILED for one the vehicle cannot produce),
  REQUEST_AUTOPILOT_CAPABILITIES (ACK, then AUTOPILOT_VERSION), DO_SEND_BANNER (ACK, then the
  banner), RUN_PREARM_CHECKS (ACK, then the receiver's "PreArm: …" texts the vehicle's state and
  parameters give, `vehicle_rules.prearm_receiver_texts`); anything else UNSUPPORTED.  Commands
  for another system or component are ignored.
- REQUEST_DATA_STREAM: the legacy stream rates MAVProxy and Mission Planner still send.
- PARAM_REQUEST_LIST: the banner (ArduPilot sends it here "as a convenient way to get extra
  information"), then every PARAM_VALUE in order, paced (the link says how fast) and held back
  while a TCP client is not reading.
- PARAM_REQUEST_READ by name (index -1) or by index: one PARAM_VALUE; unknown ones are ignored.
- PARAM_SET: refused as ArduPilot refuses a read-only parameter, with "Param write denied" and a
  PARAM_VALUE carrying the unchanged value, so no ground station believes a write happened.
- FILE_TRANSFER_PROTOCOL: the read-only MAVFTP server (packed parameter download).

Everything runs on the vehicle's thread; the stream table is shared with readers on other
threads and is only touched under the vehicle's lock.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from .identity import FirmwareIdentity
from .mavftp import MavftpServer, VirtualFiles
from .parameter_store import Parameter, ParameterStore
from .vehicle_rules import StreamTable, data_stream_messages

PARAM_STREAM_HZ = 200.0  # PARAM_VALUE messages per second during a list download
MAX_PARAMS_PER_PUMP = 50
PARAM_VALUE_WIRE_SIZE = 37  # MAVLink 2 framing + the 25-byte PARAM_VALUE payload, untruncated
STATUSTEXT_MAX = 50
PARAM_FILE_PATH = "@PARAM/param.pck"

SendMessage = Callable[[Any], bool]
Handler = Callable[[Any], None]
CommandHandler = Callable[[Any], tuple[int, list[Any]]]


class GcsProtocol:
    """Replies to one link's ground station; ``reset()`` when a different station takes over."""

    def __init__(
        self,
        *,
        mav: Any,
        send: SendMessage,
        has_room: Callable[[int], bool],
        streams: StreamTable,
        lock: threading.Lock,
        build_stream_message: Callable[[int], Any],
        identity: FirmwareIdentity,
        parameters: ParameterStore,
        vehicle_type: int,
        system_id: int,
        component_id: int,
        param_rate_hz: float = PARAM_STREAM_HZ,
        pace_clock: Callable[[], float] = time.monotonic,
        prearm_texts: Callable[[], list[str]] = list,
    ) -> None:
        self._mav = mav
        # The texts the vehicle's pre-arm checks would send now (the vehicle knows its receiver).
        self._prearm_texts = prearm_texts
        self._send = send
        self._has_room = has_room
        self._streams = streams
        self._lock = lock
        self._build_stream_message = build_stream_message
        self._identity = identity
        self._parameters = parameters
        self._vehicle_type = vehicle_type
        self._system_id = system_id
        self._component_id = component_id
        self._param_rate_hz = param_rate_hz
        self._pace_clock = pace_clock
        self._ftp = MavftpServer(VirtualFiles({PARAM_FILE_PATH: parameters.packed_file}))
        self._handlers: dict[str, Handler] = {
            "COMMAND_LONG": self._on_command,
            "COMMAND_INT": self._on_command,
            "REQUEST_DATA_STREAM": self._on_request_data_stream,
            "PARAM_REQUEST_LIST": self._on_param_request_list,
            "PARAM_REQUEST_READ": self._on_param_request_read,
            "PARAM_SET": self._on_param_set,
            "FILE_TRANSFER_PROTOCOL": self._on_file_transfer,
        }
        self._commands: dict[int, CommandHandler] = {
            mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL: self._set_message_interval,
            mavlink2.MAV_CMD_REQUEST_MESSAGE: self._request_message,
            mavlink2.MAV_CMD_REQUEST_AUTOPILOT_CAPABILITIES: self._request_capabilities,
            mavlink2.MAV_CMD_DO_SEND_BANNER: self._send_banner_command,
            mavlink2.MAV_CMD_RUN_PREARM_CHECKS: self._run_prearm_checks,
        }
        self._list_next: int | None = None
        self._list_allowance = 0.0
        self._list_last_pump = 0.0

    def reset(self) -> None:
        """Forget the previous ground station's open FTP session and unfinished list download."""
        self._ftp.reset()
        self._list_next = None

    def handle(self, message: Any) -> None:
        handler = self._handlers.get(message.get_type())
        if handler is not None and self._addressed_to_us(message):
            handler(message)

    @property
    def pacing(self) -> bool:
        """Whether a parameter list download is under way, paced by `pump` calls."""
        return self._list_next is not None

    def pump(self) -> None:
        """Send the next paced part of a running parameter list download."""
        if self._list_next is None:
            return
        now = self._pace_clock()
        elapsed = max(0.0, now - self._list_last_pump)
        self._list_last_pump = now
        self._list_allowance = min(self._list_allowance + elapsed * self._param_rate_hz, MAX_PARAMS_PER_PUMP)
        count = self._parameters.count
        while self._list_allowance >= 1.0 and self._list_next < count:
            if not self._has_room(PARAM_VALUE_WIRE_SIZE):
                return  # a TCP client is behind: wait for it, as ArduPilot waits for port space
            parameter = self._parameters.by_index(self._list_next)
            if parameter is not None:
                self._send(self._param_value(parameter))
            self._list_next += 1
            self._list_allowance -= 1.0
        if self._list_next >= count:
            self._list_next = None

    def send_statustext(self, text: str, severity: int = mavlink2.MAV_SEVERITY_INFO) -> None:
        encoded = text.encode("ascii", errors="replace")[:STATUSTEXT_MAX]
        self._send(self._mav.statustext_encode(severity, encoded))

    def send_banner(self) -> None:
        for line in self._identity.banner(self._vehicle_type):
            self.send_statustext(line)

    def autopilot_version(self) -> Any:
        return self._mav.autopilot_version_encode(**self._identity.autopilot_version_fields())

    # ------------------------------------------------------------------ routing
    def _addressed_to_us(self, message: Any) -> bool:
        target_system = getattr(message, "target_system", 0)
        target_component = getattr(message, "target_component", 0)
        return target_system in (0, self._system_id) and target_component in (0, self._component_id)

    # ------------------------------------------------------------------ commands
    def _on_command(self, message: Any) -> None:
        command = int(message.command)
        handler = self._commands.get(command)
        follow_ups: list[Any] = []
        if handler is None:
            result = int(mavlink2.MAV_RESULT_UNSUPPORTED)
        else:
            result, follow_ups = handler(message)
        self._send(
            self._mav.command_ack_encode(
                command,
                result,
                0,
                0,
                target_system=message.get_srcSystem(),
                target_component=message.get_srcComponent(),
            )
        )
        for follow_up in follow_ups:
            self._send(follow_up)

    def _set_message_interval(self, message: Any) -> tuple[int, list[Any]]:
        param1, param2 = float(message.param1), float(message.param2)
        if not (math.isfinite(param1) and math.isfinite(param2)) or param1 != int(param1):
            return int(mavlink2.MAV_RESULT_DENIED), []
        with self._lock:
            return self._streams.set_interval(int(param1), int(param2), self._pace_clock()), []

    def _request_message(self, message: Any) -> tuple[int, list[Any]]:
        param1 = float(message.param1)
        if not math.isfinite(param1) or param1 != int(param1):
            return int(mavlink2.MAV_RESULT_FAILED), []
        message_id = int(param1)
        if message_id == mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION:
            return int(mavlink2.MAV_RESULT_ACCEPTED), [self.autopilot_version()]
        with self._lock:
            can_stream = self._streams.can_stream(message_id)
        if not can_stream:
            return int(mavlink2.MAV_RESULT_FAILED), []
        return int(mavlink2.MAV_RESULT_ACCEPTED), [self._build_stream_message(message_id)]

    def _run_prearm_checks(self, _message: Any) -> tuple[int, list[Any]]:
        # ArduPilot acknowledges at once and sends each failing check's text after the ACK.
        texts = [
            self._mav.statustext_encode(mavlink2.MAV_SEVERITY_CRITICAL, text.encode("ascii")[:STATUSTEXT_MAX])
            for text in self._prearm_texts()
        ]
        return int(mavlink2.MAV_RESULT_ACCEPTED), texts

    def _request_capabilities(self, _message: Any) -> tuple[int, list[Any]]:
        return int(mavlink2.MAV_RESULT_ACCEPTED), [self.autopilot_version()]

    def _send_banner_command(self, _message: Any) -> tuple[int, list[Any]]:
        lines = self._identity.banner(self._vehicle_type)
        texts = [
            self._mav.statustext_encode(mavlink2.MAV_SEVERITY_INFO, line.encode("ascii")[:STATUSTEXT_MAX])
            for line in lines
        ]
        return int(mavlink2.MAV_RESULT_ACCEPTED), texts

    def _on_request_data_stream(self, message: Any) -> None:
        rate = float(message.req_message_rate) if message.start_stop else 0.0
        with self._lock:
            messages = data_stream_messages(int(message.req_stream_id))
            self._streams.set_stream_rate(messages, rate, self._pace_clock())

    # ------------------------------------------------------------------ parameters
    def _param_value(self, parameter: Parameter) -> Any:
        return self._mav.param_value_encode(
            parameter.name.encode("ascii"),
            parameter.value,
            parameter.mav_param_type,
            self._parameters.count,
            parameter.index,
        )

    def _on_param_request_list(self, _message: Any) -> None:
        self.send_banner()
        self._list_next = 0
        self._list_allowance = 1.0
        self._list_last_pump = self._pace_clock()
        self.pump()

    def _on_param_request_read(self, message: Any) -> None:
        parameter = self._parameters.lookup(_param_name(message.param_id), int(message.param_index))
        if parameter is not None:
            self._send(self._param_value(parameter))

    def _on_param_set(self, message: Any) -> None:
        parameter = self._parameters.by_name(_param_name(message.param_id))
        if parameter is None or not math.isfinite(float(message.param_value)):
            return  # ArduPilot ignores sets of unknown parameters and of NaN/inf values
        self.send_statustext(f"Param write denied ({parameter.name})", mavlink2.MAV_SEVERITY_WARNING)
        self._send(self._param_value(parameter))

    # ------------------------------------------------------------------ MAVFTP
    def _on_file_transfer(self, message: Any) -> None:
        for payload in self._ftp.handle(bytes(message.payload)):
            self._send(
                self._mav.file_transfer_protocol_encode(
                    0, message.get_srcSystem(), message.get_srcComponent(), list(payload)
                )
            )


def _param_name(raw: Any) -> str:
    text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes) else str(raw)
    return text.split("\x00", 1)[0]

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A simulated ArduPilot vehicle: real MAVLink 2 on loopback UDP, RC input through the SITL JSON link.

It reproduces the ArduPilot behaviour an RC receiver check depends on (stream rates that start
at the firmware default and change only through SET_MESSAGE_INTERVAL, RC_RECEIVER bits that mean
"ever seen" and "not in failsafe", channels frozen at their last values during failsafe) and gets
its RC input exactly as ArduPilot SITL does: it sends binary servo packets to a physics back end
and reads ``rc.rc_N`` from the JSON replies.  The pure rules live in ``RcInput`` and
``StreamTable``; ``SimulatedVehicle`` is the single-threaded socket shell around them.

The injected ``clock`` drives the RC failsafe timing and ``time_boot_ms``; send cadence is paced
by the real monotonic clock because it only decides when bytes leave a socket.
"""

from __future__ import annotations

import contextlib
import math
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.sim_bridge._service import (
    ThreadedService,
    bind_udp,
    drain_udp,
    local_address,
)
from amc_rc_receiver.sim_bridge.ardupilot_json import decode_state, encode_servo_packet
from amc_rc_receiver.sim_bridge.errors import CodecError

MAV_TYPE_QUADROTOR: int = mavlink2.MAV_TYPE_QUADROTOR
MAV_TYPE_GROUND_ROVER: int = mavlink2.MAV_TYPE_GROUND_ROVER
MSG_ID_HEARTBEAT: int = mavlink2.MAVLINK_MSG_ID_HEARTBEAT
MSG_ID_SYS_STATUS: int = mavlink2.MAVLINK_MSG_ID_SYS_STATUS
MSG_ID_RC_CHANNELS: int = mavlink2.MAVLINK_MSG_ID_RC_CHANNELS
MAV_CMD_SET_MESSAGE_INTERVAL: int = mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
RC_RECEIVER_BIT: int = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER

# Copter streams nothing on its first MAVLink port until asked; Rover streams these at 1 Hz.
COPTER_DEFAULT_STREAM_HZ = 0.0
ROVER_DEFAULT_STREAM_HZ = 1.0
HEARTBEAT_HZ = 1.0
MAX_STREAM_HZ = 50.0  # caps a tiny requested interval so per-tick work stays bounded
RC_FAILSAFE_TIMEOUT_S = 1.0  # RC_FS_TIMEOUT default
SERVO_CHANNELS = 16
RC_CHANNELS_FIELDS = 18  # RC_CHANNELS carries chan1_raw..chan18_raw
MAX_RC_INPUT_CHANNELS = 16  # AP_RCProtocol_FDM takes at most 16 channels
RSSI_UNKNOWN = 255

RADIO_FAILSAFE_TEXT = "Radio Failsafe - Disarming"  # a disarmed vehicle at rest disarms on failsafe
RADIO_FAILSAFE_CLEARED_TEXT = "Radio Failsafe Cleared"

_OTHER_SENSORS = (
    mavlink2.MAV_SYS_STATUS_SENSOR_3D_GYRO
    | mavlink2.MAV_SYS_STATUS_SENSOR_3D_ACCEL
    | mavlink2.MAV_SYS_STATUS_SENSOR_3D_MAG
    | mavlink2.MAV_SYS_STATUS_SENSOR_ABSOLUTE_PRESSURE
    | mavlink2.MAV_SYS_STATUS_SENSOR_GPS
    | mavlink2.MAV_SYS_STATUS_SENSOR_MOTOR_OUTPUTS
    | mavlink2.MAV_SYS_STATUS_AHRS
    | mavlink2.MAV_SYS_STATUS_SENSOR_BATTERY
)
_BASE_MODE_DISARMED = (
    mavlink2.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED
    | mavlink2.MAV_MODE_FLAG_STABILIZE_ENABLED
    | mavlink2.MAV_MODE_FLAG_MANUAL_INPUT_ENABLED
)
MAX_DATAGRAMS_PER_WAKEUP = 64
MAX_TICK_S = 0.01
RECV_BUFFER_SIZE = 65536


@dataclass(frozen=True)
class VehicleRcStatus:
    """The vehicle's view of its RC input at one instant."""

    ever_seen: bool
    in_failsafe: bool
    chancount: int
    channels: tuple[int, ...]  # RC_CHANNELS_FIELDS values; 0 beyond chancount
    frame_count: int
    replies_accepted: int
    replies_rejected: int
    last_reply_error: str | None = None

    @property
    def healthy(self) -> bool:
        return self.ever_seen and not self.in_failsafe


class RcInput:
    """RC receiver state as ArduPilot keeps it: last PWM values, ever-seen latch, failsafe timer."""

    def __init__(self, failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S) -> None:
        self._timeout_s = failsafe_timeout_s
        # SITL's rcin starts at 0.0, which becomes 1000 µs for a channel below the count never sent.
        self._pwm = [1000] * MAX_RC_INPUT_CHANNELS
        self._count = 0
        self._last_input_at: float | None = None
        self._in_failsafe = False

    @property
    def ever_seen(self) -> bool:
        return self._last_input_at is not None

    @property
    def in_failsafe(self) -> bool:
        return self._in_failsafe

    @property
    def chancount(self) -> int:
        return self._count

    def channels(self) -> tuple[int, ...]:
        values = [self._pwm[i] if i < self._count else 0 for i in range(MAX_RC_INPUT_CHANNELS)]
        return tuple(values + [0] * (RC_CHANNELS_FIELDS - MAX_RC_INPUT_CHANNELS))

    def on_input(self, rc: Sequence[float | None], now: float) -> bool:
        """Take one frame of RC input; return True if this ended an RC failsafe."""
        count = min(len(rc), MAX_RC_INPUT_CHANNELS)
        if count == 0:
            return False
        for i in range(count):
            value = rc[i]
            if value is not None and math.isfinite(value):
                self._pwm[i] = max(0, min(65535, round(value)))
        self._count = count
        self._last_input_at = now
        if self._in_failsafe:
            self._in_failsafe = False
            return True
        return False

    def check(self, now: float) -> bool:
        """Advance the failsafe timer; return True if RC failsafe started just now."""
        if self._in_failsafe or self._last_input_at is None:
            return False
        if now - self._last_input_at > self._timeout_s:
            self._in_failsafe = True
            return True
        return False


class StreamTable:
    """Per-message stream rates for one link, with ArduPilot's SET_MESSAGE_INTERVAL semantics."""

    def __init__(self, defaults_hz: dict[int, float], max_hz: float = MAX_STREAM_HZ) -> None:
        self._defaults = dict(defaults_hz)
        self._rates = dict(defaults_hz)
        self._next_due: dict[int, float] = dict.fromkeys(defaults_hz, 0.0)
        self._max_hz = max_hz

    def rates(self) -> dict[int, float]:
        return dict(self._rates)

    def set_interval(self, message_id: int, interval_us: int, now: float) -> int:
        """Apply a request and return the MAV_RESULT to acknowledge it with."""
        if message_id not in self._rates:
            return int(mavlink2.MAV_RESULT_DENIED)
        if interval_us > 0:
            rate = min(1e6 / interval_us, self._max_hz)
        elif interval_us == 0:
            rate = self._defaults[message_id]
        elif interval_us == -1:
            rate = 0.0
        else:
            return int(mavlink2.MAV_RESULT_DENIED)
        self._rates[message_id] = rate
        self._next_due[message_id] = now
        return int(mavlink2.MAV_RESULT_ACCEPTED)

    def due(self, now: float) -> list[int]:
        """Message ids to send now; each is rescheduled one period on (or from now if late)."""
        result = []
        for message_id, rate in self._rates.items():
            if rate <= 0 or now < self._next_due[message_id]:
                continue
            period = 1.0 / rate
            next_due = self._next_due[message_id] + period
            self._next_due[message_id] = next_due if next_due > now else now + period
            result.append(message_id)
        return result

    def seconds_until_next(self, now: float) -> float | None:
        waits = [self._next_due[m] - now for m, rate in self._rates.items() if rate > 0]
        return max(0.0, min(waits)) if waits else None


class SimulatedVehicle(ThreadedService):
    """An ArduPilot-like vehicle on 127.0.0.1 that a GCS reaches with ``udpout:`` (see ``device``).

    Like ArduPilot's udpin ports it learns the GCS address from the datagrams it receives; the
    latest MAVLink sender wins, so a GCS that reconnects from a new ephemeral port is served
    again.  Sockets are bound in the constructor so addresses are known at once; one background
    thread serves both.  ``start()``/``stop()`` are idempotent; a stopped vehicle cannot be restarted.
    """

    def __init__(
        self,
        backend_address: tuple[str, int] | None = None,
        *,
        listen: tuple[str, int] = ("127.0.0.1", 0),
        servo_listen: tuple[str, int] = ("127.0.0.1", 0),
        gcs_address: tuple[str, int] | None = None,
        vehicle_type: int = MAV_TYPE_QUADROTOR,
        system_id: int = 1,
        component_id: int = 1,
        default_stream_hz: float = COPTER_DEFAULT_STREAM_HZ,
        servo_rate_hz: float = 50.0,
        rc_failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S,
        rssi_source: Callable[[], int] | None = None,
        send_statustext: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if servo_rate_hz <= 0 or servo_rate_hz > 65535:
            raise ValueError(f"servo_rate_hz must be in (0, 65535], got {servo_rate_hz}")
        super().__init__("demo-vehicle")
        self._clock = clock
        self._boot_time = clock()
        self._vehicle_type = vehicle_type
        self._system_id = system_id
        self._component_id = component_id
        self._servo_rate_hz = servo_rate_hz
        self._rssi_source = rssi_source
        self._statustext_enabled = send_statustext
        self._mav = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
        self._parser = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
        self._parser.robust_parsing = True

        self._lock = threading.Lock()
        self._backend_address = backend_address
        self._gcs_address = gcs_address
        self._rc = RcInput(rc_failsafe_timeout_s)
        self._streams = StreamTable(
            {
                MSG_ID_HEARTBEAT: HEARTBEAT_HZ,
                MSG_ID_SYS_STATUS: default_stream_hz,
                MSG_ID_RC_CHANNELS: default_stream_hz,
            }
        )
        self._frame_count = 0
        self._awaiting_reply = False
        self._replies_accepted = 0
        self._replies_rejected = 0
        self._last_reply_error: str | None = None
        self._servo_pwm: tuple[int, ...] = (1000, 1000, 1000, 1000) + (0,) * (SERVO_CHANNELS - 4)

        self._mav_sock = bind_udp(listen)
        try:
            self._servo_sock = bind_udp(servo_listen)
        except OSError:
            self._mav_sock.close()
            raise
        self._address: tuple[str, int] = local_address(self._mav_sock)
        self._servo_address: tuple[str, int] = local_address(self._servo_sock)

    # ---------------------------------------------------------------- public API
    @property
    def device(self) -> str:
        """The connection string a GCS on this machine passes to FlightController.connect()."""
        return f"udpout:{self._address[0]}:{self._address[1]}"

    @property
    def address(self) -> tuple[str, int]:
        return self._address

    @property
    def servo_address(self) -> tuple[str, int]:
        """Where the servo packets come from (the physics back end replies here)."""
        return self._servo_address

    @property
    def backend_address(self) -> tuple[str, int] | None:
        with self._lock:
            return self._backend_address

    @backend_address.setter
    def backend_address(self, address: tuple[str, int] | None) -> None:
        with self._lock:
            self._backend_address = address

    @property
    def gcs_address(self) -> tuple[str, int] | None:
        with self._lock:
            return self._gcs_address

    def rc_status(self) -> VehicleRcStatus:
        with self._lock:
            return VehicleRcStatus(
                ever_seen=self._rc.ever_seen,
                in_failsafe=self._rc.in_failsafe,
                chancount=self._rc.chancount,
                channels=self._rc.channels(),
                frame_count=self._frame_count,
                replies_accepted=self._replies_accepted,
                replies_rejected=self._replies_rejected,
                last_reply_error=self._last_reply_error,
            )

    def stream_rates(self) -> dict[int, float]:
        with self._lock:
            return self._streams.rates()

    # ---------------------------------------------------------------- thread
    def _close(self) -> None:
        self._mav_sock.close()
        self._servo_sock.close()

    def _run(self) -> None:
        next_servo = time.monotonic()
        servo_period = 1.0 / self._servo_rate_hz
        handlers = (
            (self._mav_sock, self._handle_mavlink_datagram),
            (self._servo_sock, self._handle_backend_datagram),
        )
        sockets = [sock for sock, _handler in handlers]
        while not self._stop_event.is_set():
            pace_now = time.monotonic()
            with self._lock:
                until_stream = self._streams.seconds_until_next(pace_now)
            timeout = min(MAX_TICK_S, max(0.0, next_servo - pace_now))
            if until_stream is not None:
                timeout = min(timeout, until_stream)
            try:
                readable, _w, _x = select.select(sockets, [], [], timeout)
            except (OSError, ValueError):
                return  # sockets closed by stop()
            for sock, handler in handlers:
                if sock in readable:
                    drain_udp(sock, handler, MAX_DATAGRAMS_PER_WAKEUP, RECV_BUFFER_SIZE)

            self._check_failsafe()
            pace_now = time.monotonic()
            if pace_now >= next_servo:
                self._send_servo_packet()
                next_servo += servo_period
                if next_servo <= pace_now:
                    next_servo = pace_now + servo_period
            self._send_due_streams(pace_now)

    # ---------------------------------------------------------------- MAVLink side
    def _handle_mavlink_datagram(self, data: bytes, sender: tuple[str, int]) -> None:
        try:
            messages = self._parser.parse_buffer(data) or []
        except Exception:  # pymavlink raises assorted exception types on junk
            return
        valid = [m for m in messages if m.get_type() != "BAD_DATA"]
        if not valid:
            return
        with self._lock:
            # The latest MAVLink sender is the GCS, so a reconnecting GCS on a new port is served.
            self._gcs_address = sender
        for message in valid:
            if message.get_type() in ("COMMAND_LONG", "COMMAND_INT"):
                self._handle_command(message)

    def _handle_command(self, message: Any) -> None:
        if message.target_system not in (0, self._system_id):
            return
        if message.target_component not in (0, self._component_id):
            return
        command = int(message.command)
        if command == MAV_CMD_SET_MESSAGE_INTERVAL:
            result = self._set_message_interval(float(message.param1), float(message.param2))
        else:
            result = int(mavlink2.MAV_RESULT_UNSUPPORTED)
        ack = self._mav.command_ack_encode(
            command,
            result,
            0,
            0,
            target_system=message.get_srcSystem(),
            target_component=message.get_srcComponent(),
        )
        self._send_mavlink(ack)

    def _set_message_interval(self, param1: float, param2: float) -> int:
        if not (math.isfinite(param1) and math.isfinite(param2)) or param1 != int(param1):
            return int(mavlink2.MAV_RESULT_DENIED)
        with self._lock:
            return self._streams.set_interval(int(param1), int(param2), time.monotonic())

    def _send_due_streams(self, pace_now: float) -> None:
        with self._lock:
            if self._gcs_address is None:
                return
            due = self._streams.due(pace_now)
        for message_id in due:
            self._send_mavlink(self._build_stream_message(message_id))

    def _build_stream_message(self, message_id: int) -> Any:
        if message_id == MSG_ID_HEARTBEAT:
            return self._mav.heartbeat_encode(
                self._vehicle_type,
                mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA,
                _BASE_MODE_DISARMED,
                0,
                mavlink2.MAV_STATE_STANDBY,
                3,
            )
        with self._lock:
            ever_seen = self._rc.ever_seen
            healthy = ever_seen and not self._rc.in_failsafe
            channels = self._rc.channels()
            chancount = self._rc.chancount
        if message_id == MSG_ID_SYS_STATUS:
            present = _OTHER_SENSORS | (RC_RECEIVER_BIT if ever_seen else 0)
            health = _OTHER_SENSORS | (RC_RECEIVER_BIT if healthy else 0)
            return self._mav.sys_status_encode(present, present, health, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0)
        return self._mav.rc_channels_encode(self._time_boot_ms(), chancount, *channels, self._rssi())

    def _rssi(self) -> int:
        if self._rssi_source is None:
            return RSSI_UNKNOWN
        try:
            value = int(self._rssi_source())
        except Exception:  # a faulty source must not stop the vehicle; 255 = unknown
            return RSSI_UNKNOWN
        return max(0, min(RSSI_UNKNOWN, value))

    def _time_boot_ms(self) -> int:
        return int(max(0.0, self._clock() - self._boot_time) * 1000) & 0xFFFFFFFF

    def _send_statustext(self, text: str) -> None:
        if self._statustext_enabled:
            message = self._mav.statustext_encode(mavlink2.MAV_SEVERITY_WARNING, text.encode("ascii"))
            self._send_mavlink(message)

    def _send_mavlink(self, message: Any) -> None:
        address = self.gcs_address
        if address is None:
            return
        # A vanished GCS is not an error: it is re-learned from its next datagram.
        with contextlib.suppress(OSError):
            self._mav_sock.sendto(message.pack(self._mav), address)

    # ---------------------------------------------------------------- JSON physics side
    def _send_servo_packet(self) -> None:
        with self._lock:
            address = self._backend_address
            frame_count = self._frame_count
        if address is None:
            return
        packet = encode_servo_packet(min(65535, round(self._servo_rate_hz)), frame_count, self._servo_pwm)
        try:
            self._servo_sock.sendto(packet, address)
        except OSError:
            return
        with self._lock:
            self._awaiting_reply = True

    def _handle_backend_datagram(self, data: bytes, _sender: tuple[str, int]) -> None:
        try:
            state = decode_state(data)
        except CodecError as error:
            with self._lock:
                self._replies_rejected += 1
                self._last_reply_error = str(error)
            return
        if state.attitude is None and state.quaternion is None:
            with self._lock:
                self._replies_rejected += 1
                self._last_reply_error = "Did not receive attitude or quaternion"
            return
        now = self._clock()
        with self._lock:
            self._replies_accepted += 1
            if self._awaiting_reply:
                # Like SITL: one step per accepted reply; unanswered frames are resent unchanged.
                self._frame_count = (self._frame_count + 1) & 0xFFFFFFFF
                self._awaiting_reply = False
            cleared = self._rc.on_input(state.rc, now) if state.rc is not None else False
        if cleared:
            self._send_statustext(RADIO_FAILSAFE_CLEARED_TEXT)

    def _check_failsafe(self) -> None:
        now = self._clock()
        with self._lock:
            started = self._rc.check(now)
        if started:
            self._send_statustext(RADIO_FAILSAFE_TEXT)

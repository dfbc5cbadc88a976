# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A simulated ArduPilot vehicle: real MAVLink 2 on one port, RC input through the SITL JSON link.

It reproduces the ArduPilot behaviour an RC receiver check depends on (stream rates that start
at the firmware default and change only when a ground station asks, RC_RECEIVER bits that mean
"ever seen" and "not in failsafe", channels frozen at their last values during failsafe) and gets
its RC input exactly as ArduPilot SITL does: it sends binary servo packets to a physics back end
and reads ``rc.rc_N`` from the JSON replies.  Enough of the rest of ArduPilot's ground-station
protocol (identity, banner, parameters, MAVFTP) is answered by ``GcsProtocol`` for any ground
station to connect.  Its MAVLink port is a ``MavlinkLink``: by default a loopback UDP port that
answers whoever speaks to it, or a TCP server / UDP sender for ``--serve-demo``.

This module is the single-threaded socket shell; the rules live in ``demo.vehicle_rules``.  The
injected ``clock`` drives the RC failsafe timing and ``time_boot_ms``; send cadence is paced by
the real monotonic clock because it only decides when bytes leave a socket.  No exception from
handling one datagram may stop the thread: each is counted in ``handler_errors`` instead.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Callable
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from ..net.services import ThreadedService, bind_udp, drain_udp, local_address
from ..sim_bridge.protocols.ardupilot_json import decode_state
from ..sim_bridge.protocols.errors import CodecError
from ..sim_bridge.protocols.sitl_servo_packet import encode_servo_packet
from .flight_modes import COPTER_MODES, PLANE_MODES, ROVER_MODES, FlightModeSwitch, ModeRules
from .gcs_protocol import GcsProtocol
from .identity import FirmwareIdentity
from .link_base import MavlinkLink
from .mavlink_link import LinkEndpoint, UdpLink, open_link
from .parameter_store import ParameterStore, default_parameters
from .vehicle_rules import (
    MSG_ID_HEARTBEAT,
    MSG_ID_RC_CHANNELS,
    MSG_ID_SYS_STATUS,
    RC_FAILSAFE_TIMEOUT_S,
    RSSI_UNKNOWN,
    RcInput,
    StreamTable,
    VehicleRcStatus,
    prearm_receiver_texts,
)

MAV_TYPE_QUADROTOR: int = mavlink2.MAV_TYPE_QUADROTOR
MAV_TYPE_GROUND_ROVER: int = mavlink2.MAV_TYPE_GROUND_ROVER
RC_RECEIVER_BIT: int = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER

# Copter streams nothing on its first MAVLink port until asked; Rover streams these at 1 Hz.
COPTER_DEFAULT_STREAM_HZ = 0.0
ROVER_DEFAULT_STREAM_HZ = 1.0
HEARTBEAT_HZ = 1.0
SERVO_CHANNELS = 16

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
# Physics frames a second the demo exchanges with its JSON back end.  Each frame wakes three threads
# (vehicle, relay, back end) and goes through the JSON codec three times; 25 a second is five
# times the receiver streams' 5 Hz, and half the processor time 50 took.
SERVO_RATE_HZ = 25.0
MAX_TICK_S = 0.01
RECV_BUFFER_SIZE = 65536


class SimulatedVehicle(ThreadedService):
    """An ArduPilot-like vehicle that a ground station reaches with ``device``.

    Without ``endpoint`` it listens on ``listen`` (127.0.0.1, ephemeral port) like ArduPilot's
    udpin ports and answers the latest MAVLink sender, or ``gcs_address`` before anyone spoke.
    Sockets are bound in the constructor so addresses are known at once; one background thread
    serves them.  ``start()``/``stop()`` are idempotent; a stopped vehicle cannot be restarted.
    """

    def __init__(
        self,
        backend_address: tuple[str, int] | None = None,
        *,
        listen: tuple[str, int] = ("127.0.0.1", 0),
        servo_listen: tuple[str, int] = ("127.0.0.1", 0),
        gcs_address: tuple[str, int] | None = None,
        endpoint: LinkEndpoint | None = None,
        vehicle_type: int = MAV_TYPE_QUADROTOR,
        system_id: int = 1,
        component_id: int = 1,
        default_stream_hz: float = COPTER_DEFAULT_STREAM_HZ,
        servo_rate_hz: float = SERVO_RATE_HZ,
        rc_failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S,
        rssi_source: Callable[[], int] | None = None,
        send_statustext: bool = True,
        identity: FirmwareIdentity | None = None,
        parameters: ParameterStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        rc_input: RcInput | None = None,
        receiver_protocol: str | None = None,
    ) -> None:
        if servo_rate_hz <= 0 or servo_rate_hz > 65535:
            raise ValueError(f"servo_rate_hz must be in (0, 65535], got {servo_rate_hz}")
        super().__init__("demo-vehicle")
        self._clock = clock
        self._boot_time = clock()
        self._vehicle_type = vehicle_type
        self._servo_rate_hz = servo_rate_hz
        self._rssi_source = rssi_source
        self._statustext_enabled = send_statustext
        # Announced at the first RC input, as ArduPilot announces the protocol it detected.
        self._receiver_protocol = receiver_protocol
        self._protocol_announced_to: int | None = None
        self._mav = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)

        self._lock = threading.Lock()
        self._backend_address = backend_address
        # A demo set-up passes RC failsafe rules that follow its parameters (demo_setups).
        self._rc = rc_input if rc_input is not None else RcInput(rc_failsafe_timeout_s)
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
        self._last_reply_at: float | None = None
        self._replies_rejected = 0
        self._last_reply_error: str | None = None
        self._handler_errors = 0
        self._last_handler_error: str | None = None
        self._servo_pwm: tuple[int, ...] = (1000, 1000, 1000, 1000) + (0,) * (SERVO_CHANNELS - 4)

        self._link: MavlinkLink = (
            UdpLink(listen, peer=gcs_address, learn_peer=True)
            if endpoint is None
            else open_link(endpoint, first_peer=gcs_address)
        )
        try:
            self._servo_sock = bind_udp(servo_listen)
        except OSError:
            self._link.close()
            raise
        self._servo_address: tuple[str, int] = local_address(self._servo_sock)
        self._peer_generation = self._link.peer_generation
        self._protocol_parameters = store = (
            parameters
            if parameters is not None
            else default_parameters(
                system_id=system_id,
                rc_failsafe_timeout_s=rc_failsafe_timeout_s,
                reports_rssi=rssi_source is not None,
            )
        )
        self._modes = FlightModeSwitch(_mode_rules(vehicle_type), lambda name: _value(store, name))
        self._protocol = GcsProtocol(
            mav=self._mav,
            send=self._send_mavlink,
            has_room=self._link.has_room,
            streams=self._streams,
            lock=self._lock,
            build_stream_message=self._build_stream_message,
            identity=identity or FirmwareIdentity(),
            parameters=store,
            vehicle_type=vehicle_type,
            system_id=system_id,
            component_id=component_id,
            param_rate_hz=self._link.param_rate_hz,
            prearm_texts=self._prearm_texts,
        )

    # ---------------------------------------------------------------- public API
    @property
    def device(self) -> str:
        """The connection string a ground station on this machine passes to pymavlink."""
        return self._link.gcs_device

    @property
    def address(self) -> tuple[str, int]:
        """The vehicle's own MAVLink address (the listening port for udpin and tcp)."""
        return self._link.local_address

    @property
    def rc_seen(self) -> bool:
        """Whether the vehicle's receiver has delivered since boot (RC failsafe needs that first)."""
        with self._lock:
            return self._rc.ever_seen

    def _prearm_texts(self) -> list[str]:
        """What ArduPilot's pre-arm checks would say of this vehicle's receiver now (on its thread)."""
        store = self._protocol_parameters

        def value(name: str) -> float | None:
            parameter = store.by_name(name)
            return None if parameter is None else float(parameter.value)

        with self._lock:
            in_failsafe, chancount = self._rc.in_failsafe, self._rc.chancount
        return prearm_receiver_texts(in_failsafe=in_failsafe, chancount=chancount, value=value)

    @property
    def in_rc_failsafe(self) -> bool:
        """Whether the vehicle is in RC failsafe now (its receiver fell silent after it was seen)."""
        with self._lock:
            return self._rc.in_failsafe

    @property
    def withheld_messages(self) -> int:
        """Messages not written to a serial device at our path that may be another one (a newcomer)."""
        with self._lock:
            return int(getattr(self._link, "withheld_messages", 0))

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
        """The ground station being served (the TCP client, the UDP peer), if any."""
        with self._lock:
            return self._link.peer

    @property
    def handler_errors(self) -> int:
        """Exceptions raised while handling traffic; each was survived."""
        with self._lock:
            return self._handler_errors

    @property
    def last_handler_error(self) -> str | None:
        with self._lock:
            return self._last_handler_error

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
        with self._lock:
            self._link.close()
        self._servo_sock.close()

    def _guarded(self, action: Callable[..., None], *args: Any) -> None:
        try:
            action(*args)
        except Exception as error:  # one bad datagram or reply must never stop the vehicle
            self._count_error(error)

    def _count_error(self, error: BaseException) -> None:
        with self._lock:
            self._handler_errors += 1
            self._last_handler_error = f"{type(error).__name__}: {error}"

    def _run(self) -> None:
        next_servo = time.monotonic()
        servo_period = 1.0 / self._servo_rate_hz
        while not self._stop_event.is_set():
            pace_now = time.monotonic()
            with self._lock:
                # Streams wait for a ground station; without one, only the servo cadence wakes us.
                serving = self._link.peer is not None
                until_stream = self._streams.seconds_until_next(pace_now) if serving else None
                link_read = self._link.read_sockets()
                link_write = self._link.write_sockets()
                pacing = self._protocol.pacing
            # The servo cadence (SERVO_RATE_HZ) wakes the loop anyway; only a parameter download is
            # paced in finer steps (a 10 ms tick at all times woke it up to 100 times a second more).
            timeout = max(0.0, next_servo - pace_now)
            if pacing:
                timeout = min(timeout, MAX_TICK_S)
            if until_stream is not None:
                timeout = min(timeout, until_stream)
            try:
                readable, writable, _x = select.select(
                    [*link_read, self._servo_sock], link_write, [], timeout
                )
            except (OSError, ValueError) as error:
                if self._stop_event.is_set():
                    return  # sockets closed by stop()
                self._count_error(error)
                self._stop_event.wait(MAX_TICK_S)  # do not spin on a broken socket
                continue
            if self._servo_sock in readable:
                drain_udp(
                    self._servo_sock, self._on_backend_datagram, MAX_DATAGRAMS_PER_WAKEUP, RECV_BUFFER_SIZE
                )
            for sock in link_read:
                if sock in readable:
                    self._guarded(self._read_link, sock)
            for sock in writable:
                self._guarded(self._link.on_writable, sock)

            self._guarded(self._greet_new_peer)
            self._guarded(self._check_failsafe)
            pace_now = time.monotonic()
            if pace_now >= next_servo:
                self._guarded(self._send_servo_packet)
                next_servo += servo_period
                if next_servo <= pace_now:
                    next_servo = pace_now + servo_period
            self._guarded(self._send_due_streams, pace_now)
            self._guarded(self._protocol.pump)

    # ---------------------------------------------------------------- MAVLink side
    def _read_link(self, sock: Any) -> None:
        with self._lock:
            messages = self._link.on_readable(sock)
        self._greet_new_peer()
        for message in messages:
            self._guarded(self._protocol.handle, message)

    def _greet_new_peer(self) -> None:
        with self._lock:
            generation = self._link.peer_generation
            if generation == self._peer_generation:
                return
            self._peer_generation = generation
            # A new ground station hears a heartbeat first, as from SITL once a client connects.
            self._streams.restart(MSG_ID_HEARTBEAT, time.monotonic())
        self._protocol.reset()

    def _send_due_streams(self, pace_now: float) -> None:
        with self._lock:
            if self._link.peer is None:
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
                self._flight_mode(),
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
        except Exception:  # a faulty source must not stop the vehicle
            return RSSI_UNKNOWN
        return max(0, min(RSSI_UNKNOWN, value))

    def _time_boot_ms(self) -> int:
        return int(max(0.0, self._clock() - self._boot_time) * 1000) & 0xFFFFFFFF

    def _send_mavlink(self, message: Any) -> bool:
        data = message.pack(self._mav)
        with self._lock:
            return self._link.send(data)

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

    def _on_backend_datagram(self, data: bytes, sender: tuple[str, int]) -> None:
        self._guarded(self._handle_backend_datagram, data, sender)

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
            self._last_reply_at = now
            if self._awaiting_reply:
                # Like SITL: one step per accepted reply; unanswered frames are resent unchanged.
                self._frame_count = (self._frame_count + 1) & 0xFFFFFFFF
                self._awaiting_reply = False
            cleared = self._rc.on_input(state.rc, now) if state.rc is not None else False
            # The mode switch is read from what the vehicle took in (its last values survive a gap).
            refusal = None if state.rc is None else self._modes.on_input(self._rc.channels(), now)
            # Once for each ground station: one that connects later would never hear it otherwise.
            peer = self._link.peer_generation
            announce = state.rc is not None and self._receiver_protocol is not None
            announce = announce and self._protocol_announced_to != peer
            if announce:
                self._protocol_announced_to = peer
        if announce and self._statustext_enabled:
            self._protocol.send_statustext(
                f"RCInput: decoding {self._receiver_protocol}(1)", mavlink2.MAV_SEVERITY_INFO
            )
        if cleared and self._statustext_enabled:
            self._protocol.send_statustext(RADIO_FAILSAFE_CLEARED_TEXT, mavlink2.MAV_SEVERITY_WARNING)
        if refusal is not None and self._statustext_enabled:
            self._protocol.send_statustext(refusal, mavlink2.MAV_SEVERITY_WARNING)

    def _flight_mode(self) -> int:
        with self._lock:
            return self._modes.mode

    def _check_failsafe(self) -> None:
        """RC failsafe runs on the physics' time, as SITL's does: the receiver is silent once the
        back end's replies come without RC for the timeout.  Replies that stop altogether stop
        that time too (SITL waits for its physics in lockstep), so a demo starved of the processor
        for a second does not fail over while its pilot holds the sticks."""
        with self._lock:
            last_reply = self._last_reply_at
            started = last_reply is not None and self._rc.check(last_reply)
        if started and self._statustext_enabled:
            self._protocol.send_statustext(RADIO_FAILSAFE_TEXT, mavlink2.MAV_SEVERITY_WARNING)


def _mode_rules(vehicle_type: int) -> ModeRules:
    """The mode switch of the firmware a HEARTBEAT type belongs to (Heli flies Copter's modes)."""
    if vehicle_type == mavlink2.MAV_TYPE_FIXED_WING:
        return PLANE_MODES
    if vehicle_type == mavlink2.MAV_TYPE_GROUND_ROVER:
        return ROVER_MODES
    return COPTER_MODES


def _value(store: ParameterStore, name: str) -> float | None:
    parameter = store.by_name(name)
    return None if parameter is None else parameter.value

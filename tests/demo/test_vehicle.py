# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the simulated ArduPilot vehicle, checked against what real SITL does.

A ground station made of a loopback UDP socket and pymavlink's MAVLink 2 encoder/parser talks to
the vehicle; a scripted physics back end (a loopback socket answering servo packets with JSON
state built by the project's codec) supplies or withholds RC input.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.vehicle import (
    RADIO_FAILSAFE_CLEARED_TEXT,
    RADIO_FAILSAFE_TEXT,
    RC_RECEIVER_BIT,
    ROVER_DEFAULT_STREAM_HZ,
    RcInput,
    SimulatedVehicle,
    StreamTable,
)
from amc_rc_receiver.demo.vehicle_rules import data_stream_messages
from amc_rc_receiver.sim_bridge.protocols.ardupilot_json import FdmState, encode_state
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import decode_servo_packet
from tests.support.clock import ManualClock
from tests.support.fixtures import close_after
from tests.support.udp import DEADLINE_S, address_of, udp_socket
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

RC_CHANNELS = mavlink2.MAVLINK_MSG_ID_RC_CHANNELS
SYS_STATUS = mavlink2.MAVLINK_MSG_ID_SYS_STATUS
SET_INTERVAL = mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
STICKS = (1100.0, 1200.0, 1300.0, 1400.0, 1500.0, 1600.0, 1700.0, 1800.0)


class Gcs:
    """A ground station: one UDP socket plus pymavlink's MAVLink 2 encoder and parser (255/190)."""

    def __init__(self, vehicle_address: tuple[str, int]) -> None:
        self.vehicle_address = vehicle_address
        self.sock = udp_socket()
        self.mav = mavlink2.MAVLink(None, srcSystem=255, srcComponent=190)
        self.mav.robust_parsing = True
        self.raw: list[bytes] = []

    @property
    def address(self) -> tuple[str, int]:
        return address_of(self.sock)

    def send(self, message: Any) -> None:
        self.sock.sendto(message.pack(self.mav), self.vehicle_address)

    def send_heartbeat(self) -> None:
        self.send(self.mav.heartbeat_encode(mavlink2.MAV_TYPE_GCS, mavlink2.MAV_AUTOPILOT_INVALID, 0, 0, 0))

    def send_command(self, command: int, param1: float = 0.0, param2: float = 0.0, target: int = 1) -> None:
        self.send(self.mav.command_long_encode(target, 1, command, 0, param1, param2, 0, 0, 0, 0, 0))

    def set_interval(self, message_id: int, interval_us: int) -> Any:
        self.send_command(SET_INTERVAL, message_id, interval_us)
        return self.wait_for_message(lambda m: m.get_type() == "COMMAND_ACK" and m.command == SET_INTERVAL)

    def receive(self, duration_s: float) -> list[Any]:
        """Every valid message that arrives within ``duration_s``."""
        end = time.monotonic() + duration_s
        messages: list[Any] = []
        while time.monotonic() < end:
            messages.extend(self._read_once())
        return messages

    def wait_for_message(self, predicate: Callable[[Any], bool], deadline_s: float = DEADLINE_S) -> Any:
        """The first message that matches ``predicate`` (each read waits up to the socket's timeout)."""
        found: list[Any] = []

        def matched() -> bool:
            found.extend(message for message in self._read_once() if predicate(message))
            return bool(found)

        wait_for(matched, "the expected MAVLink message", deadline_s, interval_s=0.0)
        return found[0]

    def _read_once(self) -> list[Any]:
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return []
        self.raw.append(data)
        return [m for m in (self.mav.parse_buffer(data) or []) if m.get_type() != "BAD_DATA"]

    def close(self) -> None:
        self.sock.close()


class ScriptedBackend:
    """A physics back end whose RC output a test controls: ``rc`` tuple, ``None`` (no rc), or silence."""

    def __init__(self) -> None:
        self.sock = udp_socket()
        self.lock = threading.Lock()
        self.rc: tuple[float | None, ...] | None = None
        self.replying = True
        self.junk_reply: bytes | None = None
        self.frame_counts: list[int] = []
        self.replies = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def address(self) -> tuple[str, int]:
        return address_of(self.sock)

    def set(self, *, rc: tuple[float | None, ...] | None = None, replying: bool = True) -> None:
        with self.lock:
            self.rc = rc
            self.replying = replying

    def packets_seen(self) -> int:
        with self.lock:
            return len(self.frame_counts)

    def replies_sent(self) -> int:
        with self.lock:
            return self.replies

    def counts(self) -> list[int]:
        with self.lock:
            return list(self.frame_counts)

    def _run(self) -> None:
        t = 0.0
        while not self._stop.is_set():
            try:
                data, sender = self.sock.recvfrom(65536)
            except (TimeoutError, OSError):
                continue
            packet = decode_servo_packet(data)
            with self.lock:
                self.frame_counts.append(packet.frame_count)
                replying, rc, junk = self.replying, self.rc, self.junk_reply
                if not replying:
                    continue
                t += 0.02
                reply = junk if junk is not None else encode_state(_at_rest(t, rc))
                self.sock.sendto(reply, sender)
                self.replies += 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5.0)
        self.sock.close()


def _at_rest(t: float, rc: tuple[float | None, ...] | None) -> FdmState:
    return FdmState(
        timestamp=t,
        gyro=(0.0, 0.0, 0.0),
        accel_body=(0.0, 0.0, -9.80665),
        velocity=(0.0, 0.0, 0.0),
        attitude=(0.0, 0.0, 0.0),
        rc=rc,
    )


def _is(type_name: str) -> Callable[[Any], bool]:
    return lambda m: m.get_type() == type_name


def _rc_bits(status: Any) -> tuple[bool, bool, bool]:
    return (
        bool(status.onboard_control_sensors_present & RC_RECEIVER_BIT),
        bool(status.onboard_control_sensors_enabled & RC_RECEIVER_BIT),
        bool(status.onboard_control_sensors_health & RC_RECEIVER_BIT),
    )


def _channels(message: Any) -> tuple[int, ...]:
    return tuple(getattr(message, f"chan{i}_raw") for i in range(1, 19))


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> ScriptedBackend:
    return close_after(request, ScriptedBackend())


@pytest.fixture
def vehicle(backend: ScriptedBackend) -> Iterator[SimulatedVehicle]:
    with SimulatedVehicle(backend.address) as running:
        yield running


@pytest.fixture
def gcs(vehicle: SimulatedVehicle, request: pytest.FixtureRequest) -> Gcs:
    return close_after(request, Gcs(vehicle.address))


@pytest.fixture
def streaming_gcs(gcs: Gcs) -> Gcs:
    """A GCS that has asked for RC_CHANNELS and SYS_STATUS at 5 Hz."""
    gcs.send_heartbeat()
    assert gcs.set_interval(RC_CHANNELS, 200_000).result == mavlink2.MAV_RESULT_ACCEPTED
    assert gcs.set_interval(SYS_STATUS, 200_000).result == mavlink2.MAV_RESULT_ACCEPTED
    return gcs


# ------------------------------------------------------------------ link and heartbeat


def test_heartbeat_arrives_once_the_gcs_has_sent_its_first_datagram(
    vehicle: SimulatedVehicle, gcs: Gcs
) -> None:
    """
    GIVEN a vehicle that has not heard from any ground station (udpin style, no address yet)
    WHEN the GCS sends its first heartbeat to the vehicle's device address
    THEN MAVLink 2 heartbeats from system 1 component 1, an ArduPilot quadrotor, arrive at the GCS.
    """
    assert vehicle.gcs_address is None
    assert vehicle.device == f"udpout:127.0.0.1:{vehicle.address[1]}"
    gcs.send_heartbeat()
    heartbeat = gcs.wait_for_message(_is("HEARTBEAT"))
    assert heartbeat.autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
    assert heartbeat.type == mavlink2.MAV_TYPE_QUADROTOR
    assert (heartbeat.get_srcSystem(), heartbeat.get_srcComponent()) == (1, 1)
    assert gcs.raw[-1][0] == 0xFD  # MAVLink 2 start byte
    assert vehicle.gcs_address == gcs.address


def test_a_configured_gcs_address_gets_heartbeats_without_speaking_first(backend: ScriptedBackend) -> None:
    """
    GIVEN a ground station socket whose address the vehicle is configured with
    WHEN the vehicle starts and the GCS never sends anything
    THEN heartbeats arrive anyway.
    """
    station = Gcs(("127.0.0.1", 9))
    try:
        with SimulatedVehicle(backend.address, gcs_address=station.address):
            assert (
                station.wait_for_message(_is("HEARTBEAT")).autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
            )
    finally:
        station.close()


def test_a_reconnecting_gcs_on_a_new_port_is_served(vehicle: SimulatedVehicle, gcs: Gcs) -> None:
    """
    GIVEN a GCS that connected and then went away
    WHEN a new GCS socket (new ephemeral port) sends a heartbeat
    THEN heartbeats go to the new GCS.
    """
    gcs.send_heartbeat()
    gcs.wait_for_message(_is("HEARTBEAT"))
    second = Gcs(vehicle.address)
    try:
        second.send_heartbeat()
        assert second.wait_for_message(_is("HEARTBEAT")).autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
    finally:
        second.close()


def test_rc_channels_and_sys_status_are_silent_at_the_copter_default_rate(gcs: Gcs) -> None:
    """
    GIVEN a Copter-like vehicle (0 Hz default for RC_CHANNELS and SYS_STATUS on its first port)
    WHEN a GCS connects and listens for two heartbeats without requesting anything
    THEN neither RC_CHANNELS nor SYS_STATUS arrives.
    """
    gcs.send_heartbeat()
    heard: list[str] = []
    end = time.monotonic() + DEADLINE_S
    while heard.count("HEARTBEAT") < 2 and time.monotonic() < end:
        heard.extend(m.get_type() for m in gcs.receive(0.1))
    assert heard.count("HEARTBEAT") >= 2
    assert "RC_CHANNELS" not in heard
    assert "SYS_STATUS" not in heard


# ------------------------------------------------------------------ SET_MESSAGE_INTERVAL


def test_interval_200ms_is_accepted_and_streams_about_five_per_second(
    vehicle: SimulatedVehicle, streaming_gcs: Gcs
) -> None:
    """
    GIVEN a GCS that asked for RC_CHANNELS and SYS_STATUS every 200000 µs (ACKs were ACCEPTED)
    WHEN it listens for 1.5 s
    THEN the vehicle runs both streams at 5 Hz and at least 3 of each arrive (a loose check).
    """
    rates = vehicle.stream_rates()
    assert rates[RC_CHANNELS] == pytest.approx(5.0)
    assert rates[SYS_STATUS] == pytest.approx(5.0)
    types = [m.get_type() for m in streaming_gcs.receive(1.5)]
    assert types.count("RC_CHANNELS") >= 3
    assert types.count("SYS_STATUS") >= 3


def test_ack_is_addressed_to_the_sender(streaming_gcs: Gcs) -> None:
    """
    GIVEN a GCS with system 255 component 190
    WHEN it sends SET_MESSAGE_INTERVAL
    THEN the COMMAND_ACK names 255/190 as its target and comes from 1/1.
    """
    ack = streaming_gcs.set_interval(RC_CHANNELS, 100_000)
    assert (ack.target_system, ack.target_component) == (255, 190)
    assert (ack.get_srcSystem(), ack.get_srcComponent()) == (1, 1)


def test_interval_zero_restores_the_default_rate(vehicle: SimulatedVehicle, streaming_gcs: Gcs) -> None:
    """
    GIVEN RC_CHANNELS streaming at 5 Hz on a Copter-like vehicle
    WHEN the GCS sends interval 0 (restore default)
    THEN the ACK is ACCEPTED and no RC_CHANNELS follows it (the default is 0 Hz).
    """
    streaming_gcs.wait_for_message(_is("RC_CHANNELS"))
    ack = streaming_gcs.set_interval(RC_CHANNELS, 0)
    assert ack.result == mavlink2.MAV_RESULT_ACCEPTED
    assert vehicle.stream_rates()[RC_CHANNELS] == 0.0
    after = [m.get_type() for m in streaming_gcs.receive(1.0)]
    assert "RC_CHANNELS" not in after
    assert "SYS_STATUS" in after  # the other stream on this link is untouched


def test_rover_streams_at_one_hertz_by_default_and_zero_brings_that_back(backend: ScriptedBackend) -> None:
    """
    GIVEN a Rover-like vehicle (1 Hz default streams)
    WHEN a GCS connects without asking, then sets 200000 µs, then 0
    THEN RC_CHANNELS arrives unasked, and after interval 0 the rate is 1 Hz again and it still arrives.
    """
    with SimulatedVehicle(
        backend.address,
        vehicle_type=mavlink2.MAV_TYPE_GROUND_ROVER,
        default_stream_hz=ROVER_DEFAULT_STREAM_HZ,
    ) as rover:
        station = Gcs(rover.address)
        try:
            station.send_heartbeat()
            assert station.wait_for_message(_is("HEARTBEAT")).type == mavlink2.MAV_TYPE_GROUND_ROVER
            station.wait_for_message(_is("RC_CHANNELS"))
            station.wait_for_message(_is("SYS_STATUS"))
            station.set_interval(RC_CHANNELS, 200_000)
            assert station.set_interval(RC_CHANNELS, 0).result == mavlink2.MAV_RESULT_ACCEPTED
            assert rover.stream_rates()[RC_CHANNELS] == ROVER_DEFAULT_STREAM_HZ
            station.wait_for_message(_is("RC_CHANNELS"))
        finally:
            station.close()


def test_interval_minus_one_turns_a_stream_off(vehicle: SimulatedVehicle, streaming_gcs: Gcs) -> None:
    """
    GIVEN SYS_STATUS streaming at 5 Hz
    WHEN the GCS sends interval -1
    THEN the ACK is ACCEPTED and SYS_STATUS stops.
    """
    ack = streaming_gcs.set_interval(SYS_STATUS, -1)
    assert ack.result == mavlink2.MAV_RESULT_ACCEPTED
    assert vehicle.stream_rates()[SYS_STATUS] == 0.0
    assert "SYS_STATUS" not in [m.get_type() for m in streaming_gcs.receive(0.6)]


@pytest.mark.parametrize(
    ("message_id", "interval_us"),
    [
        pytest.param(RC_CHANNELS, -2, id="interval -2"),
        pytest.param(9999, 200_000, id="unknown message id"),
    ],
)
def test_invalid_interval_requests_are_denied(
    vehicle: SimulatedVehicle, gcs: Gcs, message_id: int, interval_us: int
) -> None:
    """
    GIVEN a connected GCS
    WHEN it asks for interval -2, or for a message id the vehicle cannot stream
    THEN the ACK is DENIED and the stream rates are unchanged.
    """
    gcs.send_heartbeat()
    before = vehicle.stream_rates()
    assert gcs.set_interval(message_id, interval_us).result == mavlink2.MAV_RESULT_DENIED
    assert vehicle.stream_rates() == before


@pytest.mark.parametrize(
    "command",
    [
        mavlink2.MAV_CMD_COMPONENT_ARM_DISARM,
        mavlink2.MAV_CMD_PREFLIGHT_REBOOT_SHUTDOWN,
        mavlink2.MAV_CMD_PREFLIGHT_CALIBRATION,
        mavlink2.MAV_CMD_DO_SET_MODE,
        mavlink2.MAV_CMD_PREFLIGHT_STORAGE,
    ],
    ids=["arm", "reboot", "calibrate", "set-mode", "storage"],
)
def test_other_commands_are_unsupported(gcs: Gcs, command: int) -> None:
    """
    GIVEN a connected GCS
    WHEN it sends a command other than the read-only ones (arm, reboot, calibrate, mode, storage)
    THEN the ACK for that command is UNSUPPORTED.
    """
    gcs.send_heartbeat()
    gcs.send_command(command, 1.0)
    ack = gcs.wait_for_message(_is("COMMAND_ACK"))
    assert ack.command == command
    assert ack.result == mavlink2.MAV_RESULT_UNSUPPORTED


def test_commands_for_another_system_are_not_answered(gcs: Gcs) -> None:
    """
    GIVEN a connected GCS
    WHEN it sends SET_MESSAGE_INTERVAL to system 7, then to system 1
    THEN the only ACK that arrives is for the request sent to system 1 (DENIED for id 9999 proves which).
    """
    gcs.send_heartbeat()
    gcs.send_command(SET_INTERVAL, RC_CHANNELS, 200_000, target=7)
    gcs.send_command(SET_INTERVAL, 9999, 200_000, target=1)
    ack = gcs.wait_for_message(_is("COMMAND_ACK"))
    assert ack.result == mavlink2.MAV_RESULT_DENIED


# ------------------------------------------------------------------ RC receiver bits and channels


def test_before_any_rc_input_the_receiver_is_not_present(
    backend: ScriptedBackend, streaming_gcs: Gcs
) -> None:
    """
    GIVEN a vehicle whose back end replies without an rc object (no transmitter ever seen)
    WHEN SYS_STATUS and RC_CHANNELS arrive
    THEN RC_RECEIVER is neither present, enabled nor healthy, other sensors are healthy,
    AND RC_CHANNELS reports 0 channels, all 0, with rssi 255.
    """
    backend.set(rc=None)
    status = streaming_gcs.wait_for_message(_is("SYS_STATUS"))
    assert _rc_bits(status) == (False, False, False)
    assert status.onboard_control_sensors_health & mavlink2.MAV_SYS_STATUS_SENSOR_3D_GYRO
    assert status.onboard_control_sensors_health == status.onboard_control_sensors_present
    channels = streaming_gcs.wait_for_message(_is("RC_CHANNELS"))
    assert channels.chancount == 0
    assert set(_channels(channels)) == {0}
    assert channels.rssi == 255


def test_with_rc_input_the_receiver_is_present_enabled_and_healthy(
    vehicle: SimulatedVehicle, backend: ScriptedBackend, streaming_gcs: Gcs
) -> None:
    """
    GIVEN a back end sending rc_1..rc_8
    WHEN the vehicle reports
    THEN RC_RECEIVER is present, enabled and healthy, chancount is 8, CH1-CH8 carry the sticks,
    AND channels 9-18 read 0 and rssi is 255 (unknown).
    """
    backend.set(rc=STICKS)
    status = streaming_gcs.wait_for_message(lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m)[2])
    assert _rc_bits(status) == (True, True, True)
    channels = streaming_gcs.wait_for_message(lambda m: m.get_type() == "RC_CHANNELS" and m.chancount > 0)
    assert channels.chancount == 8
    assert _channels(channels) == tuple(int(v) for v in STICKS) + (0,) * 10
    assert channels.rssi == 255
    assert vehicle.rc_status().healthy


def test_chancount_is_the_number_of_channels_received(backend: ScriptedBackend, streaming_gcs: Gcs) -> None:
    """
    GIVEN a back end sending only rc_1..rc_5
    WHEN RC_CHANNELS arrives
    THEN chancount is 5 and channels 6-18 read 0.
    """
    backend.set(rc=STICKS[:5])
    channels = streaming_gcs.wait_for_message(lambda m: m.get_type() == "RC_CHANNELS" and m.chancount > 0)
    assert channels.chancount == 5
    assert _channels(channels) == tuple(int(v) for v in STICKS[:5]) + (0,) * 13


def test_when_rc_stops_health_drops_after_the_timeout_and_channels_freeze_then_recover(
    vehicle: SimulatedVehicle, backend: ScriptedBackend, streaming_gcs: Gcs
) -> None:
    """
    GIVEN a healthy receiver with known stick values
    WHEN the back end's replies stop carrying rc (transmitter off) for more than 1 s
    THEN RC_RECEIVER health clears while present and enabled stay set, "Radio Failsafe - Disarming"
    is announced, and RC_CHANNELS keep the last values;
    AND WHEN rc returns with new values THEN health and channels recover with "Radio Failsafe Cleared".
    """
    backend.set(rc=STICKS)
    streaming_gcs.wait_for_message(lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m)[2])
    backend.set(rc=None)
    text = streaming_gcs.wait_for_message(_is("STATUSTEXT"))
    assert text.text == RADIO_FAILSAFE_TEXT
    status = streaming_gcs.wait_for_message(_is("SYS_STATUS"))
    assert _rc_bits(status) == (True, True, False)
    frozen = streaming_gcs.wait_for_message(_is("RC_CHANNELS"))
    assert frozen.chancount == 8
    assert _channels(frozen) == tuple(int(v) for v in STICKS) + (0,) * 10

    moved = (1900.0, *STICKS[1:])
    backend.set(rc=moved)
    cleared = streaming_gcs.wait_for_message(_is("STATUSTEXT"))
    assert cleared.text == RADIO_FAILSAFE_CLEARED_TEXT
    status = streaming_gcs.wait_for_message(_is("SYS_STATUS"))
    assert _rc_bits(status) == (True, True, True)
    channels = streaming_gcs.wait_for_message(_is("RC_CHANNELS"))
    assert channels.chan1_raw == 1900
    assert vehicle.rc_status().healthy


def test_a_silent_back_end_stops_the_physics_time_so_no_failsafe_and_the_same_frame_is_resent(
    vehicle: SimulatedVehicle, backend: ScriptedBackend, streaming_gcs: Gcs
) -> None:
    """
    GIVEN a healthy receiver fed by a replying back end
    WHEN the back end stops replying altogether for longer than the RC failsafe timeout
    THEN the vehicle keeps sending servo packets with one unchanging frame_count, as SITL resends
    its servos and waits in lockstep, AND its receiver stays healthy: RC failsafe runs on the
    physics' time, which stopped with the replies (a demo starved of the processor does not fail
    over)
    """
    backend.set(rc=STICKS)
    streaming_gcs.wait_for_message(lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m)[2])
    backend.set(rc=STICKS, replying=False)
    seen = backend.packets_seen()
    wait_for(
        lambda: backend.packets_seen() >= seen + 2, "2 more packets at the physics back end", interval_s=0.01
    )
    seen = backend.packets_seen()  # no reply can still be in flight now
    # More than the 1 s timeout of servo packets at 25 Hz.
    wait_for(
        lambda: backend.packets_seen() >= seen + 30,
        "30 more packets at the physics back end",
        interval_s=0.01,
    )
    tail = backend.counts()[seen:]
    assert len(set(tail)) == 1
    assert tail[0] == vehicle.rc_status().frame_count
    assert not vehicle.rc_status().in_failsafe
    assert vehicle.rc_status().healthy


def test_frame_count_advances_once_per_accepted_reply(
    backend: ScriptedBackend, vehicle: SimulatedVehicle
) -> None:
    """
    GIVEN a back end that answers every servo packet
    WHEN the vehicle has sent 20 packets
    THEN frame counts never go backwards, never jump by more than one, and do advance.
    """
    backend.set(rc=STICKS)
    wait_for(lambda: backend.packets_seen() >= 20, "20 packets at the physics back end", interval_s=0.01)
    counts = backend.counts()
    steps = [b - a for a, b in itertools.pairwise(counts)]
    assert all(step in (0, 1) for step in steps)
    assert counts[-1] > counts[0]
    assert vehicle.rc_status().frame_count >= counts[-1]


def test_invalid_replies_are_rejected_and_give_no_rc(backend: ScriptedBackend) -> None:
    """
    GIVEN a back end that answers every servo packet with text that is not a valid JSON state
    WHEN a vehicle starts and receives those replies
    THEN they are counted as rejected with a readable reason, the frame count stays 0, and no RC is seen.
    """
    with backend.lock:
        backend.junk_reply = b"\n{not json}\n"
    with SimulatedVehicle(backend.address) as vehicle:
        wait_for(lambda: vehicle.rc_status().replies_rejected >= 3, "3 rejected replies", interval_s=0.01)
        status = vehicle.rc_status()
    assert status.last_reply_error
    assert status.frame_count == 0
    assert status.replies_accepted == 0
    assert not status.ever_seen
    assert set(backend.counts()) == {0}


def test_rssi_comes_from_the_configured_source_and_faults_read_as_unknown(backend: ScriptedBackend) -> None:
    """
    GIVEN a vehicle whose RSSI source reports 42, and one whose source raises
    WHEN RC_CHANNELS arrives
    THEN the first reports rssi 42 and the second 255 (unknown), without stopping the vehicle.
    """

    def broken() -> int:
        raise OSError("receiver gone")

    for source, expected in ((lambda: 42), 42), (broken, 255):
        with SimulatedVehicle(backend.address, rssi_source=source) as running:
            station = Gcs(running.address)
            try:
                station.send_heartbeat()
                station.set_interval(RC_CHANNELS, 100_000)
                assert station.wait_for_message(_is("RC_CHANNELS")).rssi == expected
            finally:
                station.close()


def test_injected_clock_decides_when_failsafe_starts(backend: ScriptedBackend) -> None:
    """
    GIVEN a vehicle on a manual clock that has seen RC input, after which the back end's replies
    come without RC (the transmitter switched off)
    WHEN the clock moves 0.9 s, THEN the receiver is still healthy;
    WHEN it moves past 1.0 s in total, THEN the vehicle enters RC failsafe.
    """
    clock = ManualClock()
    backend.set(rc=STICKS)
    with SimulatedVehicle(backend.address, clock=clock) as running:
        wait_for(lambda: running.rc_status().ever_seen, "the receiver seen", interval_s=0.01)
        backend.set(rc=None)
        # Replies without RC must be coming before the clock moves.
        accepted = running.rc_status().replies_accepted
        wait_for(
            lambda: running.rc_status().replies_accepted >= accepted + 2,
            "replies without RC accepted",
            interval_s=0.01,
        )
        clock.now += 0.9
        seen = backend.packets_seen()
        wait_for(
            lambda: backend.packets_seen() >= seen + 3,
            "3 more packets at the physics back end",
            interval_s=0.01,
        )  # several vehicle loop turns later
        assert running.rc_status().healthy
        clock.now += 0.2
        wait_for(lambda: running.rc_status().in_failsafe, "RC failsafe", interval_s=0.01)
        assert running.rc_status().ever_seen


def test_start_and_stop_are_idempotent(backend: ScriptedBackend) -> None:
    """
    GIVEN a vehicle
    WHEN start() and stop() are each called twice
    THEN nothing fails, and a stopped vehicle refuses to restart.
    """
    vehicle = SimulatedVehicle(backend.address)
    vehicle.start()
    vehicle.start()
    vehicle.stop()
    vehicle.stop()
    with pytest.raises(RuntimeError):
        vehicle.start()


# ------------------------------------------------------------------ pure rules


def test_rc_input_rules_follow_ardupilot() -> None:
    """
    GIVEN the RC input rules with a 1 s failsafe timeout
    WHEN input arrives at t=0, stops, and returns at t=2
    THEN failsafe starts only after 1 s, channels stay frozen, and the return ends failsafe once.
    """
    rc = RcInput(1.0)
    assert not rc.check(5.0)  # never seen: no failsafe
    assert not rc.on_input((1500.0, None, 1200.0), 0.0)
    assert rc.channels()[:4] == (1500, 1000, 1200, 0)  # an unsent channel below the count is 1000
    assert not rc.check(1.0)
    assert rc.check(1.01)
    assert not rc.check(1.5)  # reported once
    assert rc.in_failsafe
    assert rc.channels()[:3] == (1500, 1000, 1200)
    assert rc.on_input((1600.0,), 2.0)
    assert not rc.in_failsafe
    assert rc.chancount == 1


def test_stream_table_caps_tiny_intervals_and_keeps_unknown_ids_out() -> None:
    """
    GIVEN a stream table with RC_CHANNELS at 0 Hz
    WHEN a 1 µs interval is requested
    THEN the rate is capped at 50 Hz, so per-tick work stays bounded.
    """
    table = StreamTable({RC_CHANNELS: 0.0})
    assert table.set_interval(RC_CHANNELS, 1, 0.0) == mavlink2.MAV_RESULT_ACCEPTED
    assert table.rates()[RC_CHANNELS] == 50.0
    assert table.set_interval(42, 1000, 0.0) == mavlink2.MAV_RESULT_DENIED
    assert table.due(0.0) == [RC_CHANNELS]
    assert table.due(0.01) == []
    assert table.due(0.02) == [RC_CHANNELS]


def test_stream_table_layers_default_data_stream_and_interval_like_ardupilot() -> None:
    """
    GIVEN a stream table with RC_CHANNELS and SYS_STATUS at the Copter default of 0 Hz
    WHEN REQUEST_DATA_STREAM sets RC_CHANNELS' stream to 4 Hz, SET_MESSAGE_INTERVAL overrides it
    with 10 Hz, and interval 0 removes the override
    THEN the rate is 4, then 10, then the stream's 4 again (not the firmware default), and
    SYS_STATUS in its own stream group is untouched throughout.
    """
    table = StreamTable({RC_CHANNELS: 0.0, SYS_STATUS: 0.0})
    table.set_stream_rate(data_stream_messages(mavlink2.MAV_DATA_STREAM_RC_CHANNELS), 4, 0.0)
    assert table.rates() == {RC_CHANNELS: 4.0, SYS_STATUS: 0.0}
    table.set_interval(RC_CHANNELS, 100_000, 0.0)
    assert table.rates()[RC_CHANNELS] == pytest.approx(10.0)
    table.set_interval(RC_CHANNELS, 0, 0.0)
    assert table.rates() == {RC_CHANNELS: 4.0, SYS_STATUS: 0.0}
    table.set_stream_rate(data_stream_messages(mavlink2.MAV_DATA_STREAM_ALL), 0, 0.0)
    assert table.rates() == {RC_CHANNELS: 0.0, SYS_STATUS: 0.0}
    assert data_stream_messages(mavlink2.MAV_DATA_STREAM_POSITION) == ()

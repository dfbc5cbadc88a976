# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the FlightController facade: connecting, discovery, commands, RC stream requests.

Everything runs over real loopback sockets against the scripted vehicle.  Connect timeouts that
must expire use a gated wait clock that jumps past the deadline once the scripted vehicle has said
its piece, so no test depends on how fast this machine is.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.connection.devices import DeviceError, parse_device
from amc_rc_receiver.connection.opening import GCS_COMPONENT_ID, GCS_SYSTEM_ID
from tests.support import fixtures as support_fixtures
from tests.support.fixtures import CONNECT_TIMEOUT_S, read_messages
from tests.support.scripted_fc import ScriptedFlightController
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

scripted_fc = support_fixtures.scripted_fc  # the shared fixtures, requested by name below
connected_fc = support_fixtures.connected_fc

SET_MESSAGE_INTERVAL = 511
MAVLINK2_MAGIC = 0xFD


class GatedClock:
    """Real elapsed time until ``gate`` is set, then far beyond any deadline.

    A connect that must time out then ends as soon as the scripted vehicle has sent everything it
    was scripted to send (queued datagrams are still read), and never hangs if the gate never opens.
    """

    def __init__(self, gate: threading.Event) -> None:
        self._gate = gate
        self._start = time.monotonic()

    def __call__(self) -> float:
        if self._gate.is_set():
            return 1e9
        return time.monotonic() - self._start


def greeting(
    *messages: tuple[Any, int, int],
) -> tuple[Callable[[ScriptedFlightController], None], threading.Event]:
    """A script that sends ``(msg, system, component)`` triples to each newly learned GCS, then
    opens the returned gate."""
    gate = threading.Event()

    def greet(vehicle: ScriptedFlightController) -> None:
        for msg, system_id, component_id in messages:
            vehicle.send(msg, system_id, component_id)
        gate.set()

    return greet, gate


def heartbeat(autopilot: int, mav_type: int) -> Any:
    return mavlink2.MAVLink_heartbeat_message(mav_type, autopilot, 0, 0, mavlink2.MAV_STATE_ACTIVE, 3)


GCS_HEARTBEAT = heartbeat(mavlink2.MAV_AUTOPILOT_INVALID, mavlink2.MAV_TYPE_GCS)
PX4_HEARTBEAT = heartbeat(mavlink2.MAV_AUTOPILOT_PX4, mavlink2.MAV_TYPE_QUADROTOR)
ARDUPILOT_GIMBAL_HEARTBEAT = heartbeat(mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, mavlink2.MAV_TYPE_GIMBAL)
ARDUPILOT_ROVER_HEARTBEAT = heartbeat(mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, mavlink2.MAV_TYPE_GROUND_ROVER)


@pytest.fixture
def silent_vehicle() -> Iterator[ScriptedFlightController]:
    """A scripted endpoint that never sends its own heartbeat; tests script what it says."""
    vehicle = ScriptedFlightController(send_heartbeats=False)
    vehicle.start()
    yield vehicle
    vehicle.stop()


def wait_commands(vehicle: ScriptedFlightController, count: int) -> None:
    wait_for(lambda: len(vehicle.commands_received()) >= count, f"{count} commands at the vehicle")


# ---- connecting ---------------------------------------------------------------------------------


def test_connect_finds_the_vehicle_and_reports_its_ids_as_strings_and_ints(
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a scripted ArduPilot quadrotor with system 1, component 1
    WHEN the facade connects to it
    THEN connect returns "", the ids are "1"/"1" and 1/1, the vehicle type is known, and the
         connection's own target ids point at the vehicle too
    """
    fc = FlightController()
    assert fc.master is None
    assert fc.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S) == ""
    try:
        assert fc.is_connected
        assert fc.device == scripted_fc.device
        assert (fc.info.system_id, fc.info.component_id) == ("1", "1")
        assert (fc.info.system_id_int, fc.info.component_id_int) == (1, 1)
        assert fc.master is not None
        assert (fc.master.target_system, fc.master.target_component) == (1, 1)
        assert fc.info.autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
        assert fc.info.vehicle_type == mavlink2.MAV_TYPE_QUADROTOR
        assert fc.fc_parameters == {}
    finally:
        fc.disconnect()


def test_every_successful_connect_makes_a_new_connection_object(
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a facade connected once
    WHEN it connects again (directly, and after a disconnect and a failed attempt)
    THEN each success brings a new ``master`` object (how a plugin recognises a new connection, as
         in the methodic configurator), a disconnect leaves none and a failed connect none either
    """
    fc = FlightController()
    masters = []
    for _ in range(2):
        assert fc.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S) == ""
        masters.append(fc.master)
    fc.disconnect()
    assert fc.master is None
    assert fc.connect("udpin:127.0.0.1:not-a-port") != ""
    assert fc.master is None
    assert fc.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S) == ""
    masters.append(fc.master)
    fc.disconnect()
    assert len({id(master) for master in masters}) == 3
    assert None not in masters


def test_connect_picks_the_vehicle_among_gcs_and_peripheral_heartbeats(
    silent_vehicle: ScriptedFlightController,
) -> None:
    """
    GIVEN a link on which a GCS, a PX4 autopilot and an ArduPilot gimbal announce themselves
          before an ArduPilot rover (system 42, component 1)
    WHEN the facade connects
    THEN it selects the rover (42/1)
    """
    silent_vehicle.on_gcs_learned, _gate = greeting(
        (GCS_HEARTBEAT, 255, 190),
        (PX4_HEARTBEAT, 7, 1),
        (ARDUPILOT_GIMBAL_HEARTBEAT, 42, 154),
        (ARDUPILOT_ROVER_HEARTBEAT, 42, 1),
    )
    fc = FlightController()
    assert fc.connect(silent_vehicle.device, timeout=CONNECT_TIMEOUT_S) == ""
    try:
        assert (fc.info.system_id, fc.info.component_id) == ("42", "1")
        assert fc.info.vehicle_type == mavlink2.MAV_TYPE_GROUND_ROVER
    finally:
        fc.disconnect()


def test_without_an_ardupilot_vehicle_the_error_says_what_was_heard(
    silent_vehicle: ScriptedFlightController,
) -> None:
    """
    GIVEN a link on which only a GCS (255/190), a PX4 autopilot (1/1) and an ArduPilot gimbal speak
    WHEN the facade tries to connect and the timeout passes
    THEN connect fails naming the device, the three senders and the number of heartbeats heard
    """
    silent_vehicle.on_gcs_learned, gate = greeting(
        (GCS_HEARTBEAT, 255, 190),
        (PX4_HEARTBEAT, 1, 1),
        (PX4_HEARTBEAT, 1, 1),
        (ARDUPILOT_GIMBAL_HEARTBEAT, 1, 154),
    )
    fc = FlightController(wait_clock=GatedClock(gate))
    error = fc.connect(silent_vehicle.device, timeout=CONNECT_TIMEOUT_S)
    assert silent_vehicle.device in error
    assert "heard 4 heartbeats" in error
    assert "a GCS (255/190)" in error
    assert "a PX4 autopilot (1/1)" in error
    assert "ArduPilot gimbal component (1/154)" in error
    assert "no ArduPilot vehicle" in error
    assert not fc.is_connected
    assert fc.info.system_id == ""
    assert fc.master is None


def test_messages_before_the_vehicle_heartbeat_are_kept_and_after_it_left_on_the_link(
    silent_vehicle: ScriptedFlightController,
) -> None:
    """
    GIVEN a vehicle that sends RC_CHANNELS, then its HEARTBEAT, then SYS_STATUS
    WHEN the facade connects and the data model then reads with master.recv_msg()
    THEN the early RC_CHANNELS is kept in discovery_messages and the SYS_STATUS is still on the link
    """
    rc_channels = mavlink2.MAVLink_rc_channels_message(10, 8, *([1234] * 18), 255)
    sys_status = mavlink2.MAVLink_sys_status_message(
        0x10000, 0x10000, 0x10000, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0
    )
    silent_vehicle.on_gcs_learned, _gate = greeting(
        (rc_channels, 1, 1),
        (heartbeat(mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, mavlink2.MAV_TYPE_QUADROTOR), 1, 1),
        (sys_status, 1, 1),
    )
    fc = FlightController()
    assert fc.connect(silent_vehicle.device, timeout=CONNECT_TIMEOUT_S) == ""
    try:
        assert [m.get_type() for m in fc.discovery_messages] == ["RC_CHANNELS"]
        seen = read_messages(fc, lambda s: any(m.get_type() == "SYS_STATUS" for m in s))
        assert [m.get_type() for m in seen] == ["SYS_STATUS"]
    finally:
        fc.disconnect()


def test_connecting_over_udpout_sends_a_gcs_heartbeat_about_every_second_in_mavlink2(
    silent_vehicle: ScriptedFlightController,
) -> None:
    """
    GIVEN a UDP server-mode vehicle that only answers after it has heard two GCS heartbeats
    WHEN the facade connects with udpout: (wait clock advancing 0.25 s per reading)
    THEN the connect succeeds, and the vehicle received MAVLink 2 GCS heartbeats from 255/190
    """

    def answer_after_two_heartbeats() -> None:
        def two_heartbeats() -> bool:
            return len(silent_vehicle.received_of_type("HEARTBEAT")) >= 2

        try:
            wait_for(two_heartbeats, "two GCS heartbeats", CONNECT_TIMEOUT_S)
        except pytest.fail.Exception:
            return  # never answered: the connect below fails and says so
        silent_vehicle.send_heartbeat()

    responder = threading.Thread(target=answer_after_two_heartbeats, daemon=True)
    responder.start()
    ticks = iter(range(1_000_000))
    fc = FlightController(wait_clock=lambda: next(ticks) * 0.25)
    try:
        assert fc.connect(silent_vehicle.device, timeout=10.0) == ""
    finally:
        responder.join(timeout=CONNECT_TIMEOUT_S)
        fc.disconnect()
    heartbeats = silent_vehicle.received_of_type("HEARTBEAT")
    assert len(heartbeats) >= 2
    assert all(h.type == mavlink2.MAV_TYPE_GCS for h in heartbeats)
    assert all(
        (h.get_srcSystem(), h.get_srcComponent()) == (GCS_SYSTEM_ID, GCS_COMPONENT_ID) for h in heartbeats
    )
    assert silent_vehicle.received_bytes()[0] == MAVLINK2_MAGIC


def test_connect_does_not_switch_pymavlink_to_mavlink2_process_wide(
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN the MAVLINK20 environment variable as it is before connecting
    WHEN the facade connects and reads MAVLink 2 traffic
    THEN the variable is unchanged (MAVLink 2 is chosen per connection)
    """
    before = os.environ.get("MAVLINK20")
    fc = FlightController()
    assert fc.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S) == ""
    scripted_fc.send_rc_channels([1500] * 8)
    read_messages(fc, lambda s: any(m.get_type() == "RC_CHANNELS" for m in s))
    fc.disconnect()
    assert os.environ.get("MAVLINK20") == before


# ---- bad and unreachable devices ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("device", "reason"),
    [
        ("", "empty"),
        ("bluetooth:00:11", "unknown connection type"),
        ("udpin:127.0.0.1:not-a-port", "not a port number"),
        ("udpout:127.0.0.1:70000", "not a port number"),
        ("tcp:127.0.0.1", "HOST:PORT"),
        ("udpout:127.0.0.1:0", "needs the address and port"),
        ("udpout:host.invalid:14550", "could not be resolved"),
        ("/dev/ttyDOES_NOT_EXIST_42", "no such serial port"),
    ],
)
def test_a_bad_device_string_gives_a_readable_error_naming_the_device(device: str, reason: str) -> None:
    """
    GIVEN a device string that cannot work
    WHEN the facade connects to it
    THEN connect returns (never raises) a sentence that names the device and the reason
    """
    fc = FlightController()
    error = fc.connect(device, timeout=0.2)
    assert reason in error
    assert (device or "''") in error
    assert not fc.is_connected


def test_a_regular_file_is_refused_instead_of_being_replayed_as_a_log(tmp_path: Path) -> None:
    """
    GIVEN an existing regular file (pymavlink would replay it as a log, or even execute it)
    WHEN the facade is asked to connect to it
    THEN it refuses with an error naming the file
    """
    log = tmp_path / "flight.tlog"
    log.write_bytes(b"\xfe\x09\x00\x01\x01\x00" + bytes(11))
    error = FlightController().connect(str(log), timeout=0.2)
    assert f"{log} is a file, not a serial port" in error


def test_a_tcp_port_where_nobody_listens_gives_connection_refused() -> None:
    """
    GIVEN a loopback TCP port that is bound but not listening
    WHEN the facade connects with tcp:
    THEN the error names the device and says the connection was refused
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as closed:
        closed.bind(("127.0.0.1", 0))
        device = f"tcp:127.0.0.1:{closed.getsockname()[1]}"
        error = FlightController().connect(device, timeout=CONNECT_TIMEOUT_S)
    assert device in error
    assert "refused" in error


def test_a_udp_port_held_by_another_program_gives_a_readable_error() -> None:
    """
    GIVEN a loopback UDP port already bound by another socket
    WHEN the facade listens on it with udpin:
    THEN the error names the device and says the port is in use
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind(("127.0.0.1", 0))
        device = f"udpin:127.0.0.1:{holder.getsockname()[1]}"
        error = FlightController().connect(device, timeout=0.2)
    assert device in error
    assert "already in use" in error


def test_a_silent_udp_endpoint_times_out_with_an_error_naming_the_device() -> None:
    """
    GIVEN a loopback UDP socket that receives but never answers
    WHEN the facade connects with udpout: and a short timeout
    THEN the error says no heartbeat came from that device, and our GCS heartbeat did go out
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as mute:
        mute.bind(("127.0.0.1", 0))
        device = f"udpout:127.0.0.1:{mute.getsockname()[1]}"
        error = FlightController().connect(device, timeout=0.3)
        mute.settimeout(CONNECT_TIMEOUT_S)
        first_datagram = mute.recv(1024)
    assert device in error
    assert "No MAVLink heartbeat" in error
    assert first_datagram[0] == MAVLINK2_MAGIC


def test_a_tcp_vehicle_is_reached_with_tcp_and_hears_one_parameter_read_and_one_version_request() -> None:
    """
    GIVEN a loopback TCP server that sends an ArduPilot heartbeat (from 3/1) to whoever connects
    WHEN the facade connects with tcp:
    THEN the vehicle is found, and it receives one MAVLink 2 read of its first parameter from
         255/190, addressed to it (ArduPilot sends its status texts only on links it has heard
         from), then one MAV_CMD_REQUEST_MESSAGE for AUTOPILOT_VERSION (the firmware version, as
         every ground station asks it), and nothing else: no heartbeat that would make it count us
         as its ground station
    """
    encoder = mavlink2.MAVLink(None, srcSystem=3, srcComponent=1)
    data = heartbeat(mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, mavlink2.MAV_TYPE_FIXED_WING).pack(encoder)
    heard = bytearray()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(CONNECT_TIMEOUT_S)

        def serve() -> None:
            conn, _addr = server.accept()
            with conn:
                conn.settimeout(CONNECT_TIMEOUT_S)
                conn.sendall(data)
                while chunk := conn.recv(4096):  # until the facade disconnects
                    heard.extend(chunk)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        fc = FlightController()
        error = fc.connect(f"tcp:127.0.0.1:{server.getsockname()[1]}", timeout=CONNECT_TIMEOUT_S)
        fc.disconnect()
        thread.join(timeout=CONNECT_TIMEOUT_S)
    assert error == ""
    parsed = mavlink2.MAVLink(None).parse_buffer(bytes(heard)) or []
    assert [m.get_type() for m in parsed] == ["PARAM_REQUEST_READ", "COMMAND_LONG"]
    hello, version = parsed
    assert (hello.target_system, hello.target_component, hello.param_index) == (3, 1, 0)
    assert (hello.get_srcSystem(), hello.get_srcComponent()) == (GCS_SYSTEM_ID, GCS_COMPONENT_ID)
    assert (version.target_system, version.target_component) == (3, 1)
    assert version.command == mavlink2.MAV_CMD_REQUEST_MESSAGE
    assert version.param1 == mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION
    assert (version.get_srcSystem(), version.get_srcComponent()) == (GCS_SYSTEM_ID, GCS_COMPONENT_ID)
    assert heard[0] == MAVLINK2_MAGIC


@pytest.mark.parametrize(("device", "host"), [("udpin::14550", "127.0.0.1"), ("tcpin::5760", "127.0.0.1")])
def test_an_empty_host_means_this_computer_as_everywhere_else(device: str, host: str) -> None:
    """GIVEN a server device string without a host (it meant 0.0.0.0 here, 127.0.0.1 for --serve-demo)
    WHEN parsed
    THEN the host is 127.0.0.1: a port listens beyond the loopback only when an address is named
    """
    endpoint = parse_device(device)
    assert endpoint.host == host
    assert endpoint.address.startswith(f"{host}:")


@given(st.text(max_size=40))
def test_parse_device_either_accepts_or_explains(device: str) -> None:
    """
    GIVEN any text as a device string
    WHEN it is parsed
    THEN it is accepted as a network or serial endpoint, or rejected with a DeviceError sentence
    """
    reason = ""
    try:
        endpoint = parse_device(device)
    except DeviceError as error:
        reason = str(error)
        assert reason
    else:
        assert endpoint.scheme in {"tcp", "tcpin", "udp", "udpin", "udpout", "serial"}


def test_disconnect_is_idempotent_and_forgets_the_vehicle(connected_fc: FlightController) -> None:
    """
    GIVEN a connected facade
    WHEN it disconnects twice
    THEN it is not connected and has neither vehicle ids nor parameters
    """
    connected_fc.disconnect()
    connected_fc.disconnect()
    assert not connected_fc.is_connected
    assert connected_fc.master is None
    assert (connected_fc.info.system_id, connected_fc.info.component_id) == ("", "")
    assert connected_fc.fc_parameters == {}


def test_a_tcp_peer_that_closes_before_any_heartbeat_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """
    GIVEN a loopback TCP server that accepts and closes the connection at once
    WHEN the facade connects with tcp:
    THEN connect fails at once saying the device closed the connection, without printing to stdout
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(CONNECT_TIMEOUT_S)

        def accept_and_close() -> None:
            conn, _addr = server.accept()
            conn.close()

        thread = threading.Thread(target=accept_and_close, daemon=True)
        thread.start()
        device = f"tcp:127.0.0.1:{server.getsockname()[1]}"
        error = FlightController().connect(device, timeout=CONNECT_TIMEOUT_S)
        thread.join(timeout=CONNECT_TIMEOUT_S)
    assert error == f"{device} closed the connection before a vehicle heartbeat arrived."
    assert capsys.readouterr().out == ""

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""UDP links under other senders: bounded memory, no reflection, no forged evidence.

A real loopback UDP vehicle socket sends ArduPilot heartbeats to our `udpin` port; thousands of
other loopback sockets (each a new source port) send too, before and after the vehicle is found.
Then the simulated vehicle feeds the check while a second program sends in the vehicle's name.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.report import build_report
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus
from amc_rc_receiver.plugins.rc_receiver.wording import notice_lines
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode
from tests.support.waiting import poll_until

pytestmark = pytest.mark.loopback

SPOOFED_SENDERS = 3000
HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
)
GCS_HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_GCS, mavlink2.MAV_AUTOPILOT_INVALID, 0, 0, mavlink2.MAV_STATE_ACTIVE, 3
)


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def flood(port: int, count: int) -> None:
    datagram = encode(GCS_HEARTBEAT, 200, 190)
    for _ in range(count):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as spoofed:
            spoofed.sendto(datagram, ("127.0.0.1", port))


def test_spoofed_source_ports_neither_grow_the_client_list_nor_multiply_a_command() -> None:
    """
    GIVEN our udpin link, 3,000 senders with distinct source ports before the vehicle speaks and
          3,000 more after it was found
    WHEN every datagram has been read and the plugin sends one COMMAND_LONG
    THEN the link remembers only the vehicle's address, and the connect's one parameter read, its
         request for AUTOPILOT_VERSION and the command leave exactly once each, to it
    """
    port = free_udp_port()
    flight_controller = FlightController()
    result: list[str] = []
    connecting = threading.Thread(
        target=lambda: result.append(flight_controller.connect(f"udpin:127.0.0.1:{port}", timeout=DEADLINE_S))
    )
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as vehicle:
        vehicle.bind(("127.0.0.1", 0))
        vehicle_address = vehicle.getsockname()
        vehicle.settimeout(DEADLINE_S)
        connecting.start()
        # the link is bound once connect() started reading; the flood is read during discovery
        vehicle.sendto(encode(GCS_HEARTBEAT, 201, 190), ("127.0.0.1", port))
        flood(port, SPOOFED_SENDERS)
        while connecting.is_alive():
            vehicle.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
            connecting.join(0.05)
        assert result == [""]
        master = flight_controller.master
        assert master is not None
        try:
            flood(port, SPOOFED_SENDERS)
            # The flood overflows the socket buffer (the kernel drops the excess), so the end
            # marker is repeated until it is read.
            marker = encode(mavlink2.MAVLink_statustext_message(6, b"end of flood"), 1, 1)
            deadline = time.monotonic() + DEADLINE_S
            while True:
                msg = master.recv_msg()
                if msg is not None and msg.get_type() == "STATUSTEXT":
                    break
                if msg is None:
                    assert time.monotonic() < deadline, "the end-of-flood marker never arrived"
                    vehicle.sendto(marker, ("127.0.0.1", port))
                    master.select(0.05)
            while master.recv_msg() is not None:
                pass  # repeated markers

            master.mav.command_long_send(
                1, 1, mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, 0, 65, 200_000, 0, 0, 0, 0, 0
            )
            # The connect's own parameter read and version request came first, then the command.
            received = [vehicle.recv(4096), vehicle.recv(4096), vehicle.recv(4096)]
            vehicle.settimeout(0.5)
            extra = []
            with contextlib.suppress(TimeoutError):
                extra.append(vehicle.recv(4096))
        finally:
            flight_controller.disconnect()

    assert master.clients == {vehicle_address}
    decoder = mavlink2.MAVLink(None)
    parsed = [message for datagram in received for message in decoder.parse_buffer(datagram) or []]
    assert [m.get_type() for m in parsed] == ["PARAM_REQUEST_READ", "COMMAND_LONG", "COMMAND_LONG"]
    assert parsed[0].param_index == 0
    assert (parsed[1].command, parsed[1].param1) == (
        mavlink2.MAV_CMD_REQUEST_MESSAGE,
        mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION,
    )
    assert (parsed[2].command, parsed[2].param1) == (mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, 65)
    assert extra == []


RC_BIT = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
# The receiver present and enabled, not healthy: what a vehicle in RC failsafe reports.
FORGED_DATAGRAMS = 100
FORGED_STATUS = mavlink2.MAVLink_sys_status_message(RC_BIT, RC_BIT, 0, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0)


def test_a_second_sender_in_the_vehicles_name_forges_no_failsafe_and_is_named() -> None:
    """
    GIVEN the check on udpin, the simulated vehicle sending to it (`--serve-demo udpout:`), and a
          second program on another source port that claims system 1 / component 1
    WHEN that program sends SYS_STATUS with the receiver present and unhealthy, 100 times in two
         seconds
    THEN no failsafe is observed, its datagrams are counted as another sender on this port (the
         notice says so), and the snapshot names the link kind the report records
    """
    port = free_udp_port()
    flight_controller = FlightController()
    with DemoSystem(endpoint=LinkEndpoint(LinkKind.UDP_OUT, "127.0.0.1", port)) as demo:
        assert flight_controller.connect(f"udpin:127.0.0.1:{port}", timeout=DEADLINE_S) == ""
        try:
            model = RCReceiverDataModel(flight_controller)
            model.activate()
            poll_until(
                model.poll,
                lambda state: state.failsafe is FailsafeStatus.NOT_ACTIVE,
                "a healthy receiver",
                DEADLINE_S,
                interval_s=0.02,
            )
            forged = encode(FORGED_STATUS, 1, 1)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as impostor:
                impostor.bind(("127.0.0.1", 0))
                # A count, not a time: under load fewer would be sent in two seconds.
                for _datagram in range(FORGED_DATAGRAMS):
                    impostor.sendto(forged, ("127.0.0.1", port))
                    state = model.poll()
                    time.sleep(0.02)
            state = poll_until(
                model.poll,
                lambda state: state.impostor_datagrams > 20,
                "the count of the impostor",
                DEADLINE_S,
                interval_s=0.02,
            )
        finally:
            flight_controller.disconnect()
    assert demo.transmitter_on
    assert not state.failsafe_observed
    assert state.failsafe is FailsafeStatus.NOT_ACTIVE
    assert state.impostor_datagrams == state.foreign_datagrams > 20
    assert state.link_kind == "udpin"
    notices, _problem = notice_lines(state, None)
    assert any(line.startswith("Another sender on this port claims to be the vehicle") for line in notices)
    report = build_report(state)
    assert report["link"] == {
        "kind": "udpin",
        "foreign_datagrams": state.foreign_datagrams,
        "impostor_datagrams": state.impostor_datagrams,
    }


def test_a_udpout_link_reads_only_the_address_it_sends_to() -> None:
    """
    GIVEN the check on udpout to a vehicle (our demo's udpin), and a second program that learns the
          check's port and sends it SYS_STATUS in the vehicle's name
    WHEN the check polls
    THEN the forged statuses are dropped and counted, and no failsafe is observed
    """
    flight_controller = FlightController()
    with DemoSystem(endpoint=LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", free_udp_port())) as demo:
        assert flight_controller.connect(demo.device.replace("udpin", "udpout"), timeout=DEADLINE_S) == ""
        try:
            model = RCReceiverDataModel(flight_controller)
            model.activate()
            poll_until(
                model.poll,
                lambda state: state.failsafe is FailsafeStatus.NOT_ACTIVE,
                "a healthy receiver",
                DEADLINE_S,
                interval_s=0.02,
            )
            master = flight_controller.master
            assert master is not None
            check_port = master.port.getsockname()
            forged = encode(FORGED_STATUS, 1, 1)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as impostor:
                for _ in range(30):
                    impostor.sendto(forged, check_port)
            state = poll_until(
                model.poll,
                lambda state: state.impostor_datagrams >= 30,
                "the forged statuses counted",
                DEADLINE_S,
                interval_s=0.02,
            )
        finally:
            flight_controller.disconnect()
    assert not state.failsafe_observed
    assert state.link_kind == "udpout"

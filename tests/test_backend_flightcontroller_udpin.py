# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `udpin:` link under a flood of spoofed source ports: bounded memory, no reflection.

A real loopback UDP vehicle socket sends ArduPilot heartbeats to our `udpin` port; thousands of
other loopback sockets (each a new source port) send too, before and after the vehicle is found.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode

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
    THEN the link remembers only the vehicle's address and the command leaves exactly once, to it
    """
    port = free_udp_port()
    flight_controller = FlightController()
    result: list[str] = []
    connecting = threading.Thread(
        target=lambda: result.append(
            flight_controller.connect(f"udpin:127.0.0.1:{port}", timeout=DEADLINE_S)
        )
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
            received = vehicle.recv(4096)
            vehicle.settimeout(0.5)
            extra = []
            with contextlib.suppress(TimeoutError):
                extra.append(vehicle.recv(4096))
        finally:
            flight_controller.disconnect()

    assert master.clients == {vehicle_address}
    parsed = mavlink2.MAVLink(None).parse_buffer(received) or []
    assert [m.get_type() for m in parsed] == ["COMMAND_LONG"]
    assert extra == []

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The RC receiver model on a TCP link whose peer goes away (a stopped SITL, a rebooted bridge).

The peer is a real loopback TCP server that speaks MAVLink 2 and then closes its side, so the
close is seen the way pymavlink sees it in the field, not through a mocked transport.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.snapshot import IntervalRequestOutcome
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode, rc_channels, sys_status
from tests.support.waiting import poll_until

pytestmark = pytest.mark.loopback

RC_RECEIVER = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
)


class ClosingTcpVehicle:
    """Accepts one client, streams heartbeat and receiver telemetry until told to close its side."""

    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self.close_now = threading.Event()
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> ClosingTcpVehicle:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close_now.set()
        self._thread.join(DEADLINE_S)
        self._server.close()

    def _serve(self) -> None:
        self._server.settimeout(DEADLINE_S)
        try:
            conn, _address = self._server.accept()
        except OSError:
            return
        with conn:
            while not self.close_now.is_set():
                for message in (HEARTBEAT, rc_channels(), sys_status(RC_RECEIVER, RC_RECEIVER, RC_RECEIVER)):
                    conn.sendall(encode(message, 1, 1))
                self.close_now.wait(0.05)
            conn.shutdown(socket.SHUT_RDWR)
        self.closed.set()


@pytest.fixture
def vehicle() -> Iterator[ClosingTcpVehicle]:
    with ClosingTcpVehicle() as created:
        yield created


def test_a_peer_that_closes_its_tcp_side_clears_the_readings_at_once_and_says_so(
    vehicle: ClosingTcpVehicle,
) -> None:
    """
    GIVEN a model showing live channels and receiver status from a vehicle on TCP
    WHEN the vehicle closes its side of the connection
    THEN the next polls clear every live reading and say the flight controller closed the
         connection, long before the 3 s freshness limit could (the injected clock stands still)
    """
    flight_controller = FlightController()
    assert flight_controller.connect(f"tcp:127.0.0.1:{vehicle.port}", timeout=DEADLINE_S) == ""
    try:
        model = RCReceiverDataModel(flight_controller, clock=lambda: 50.0)
        model.activate()
        live = poll_until(
            model.poll,
            lambda s: s.rc_channels_live and s.sys_status_live,
            "live telemetry",
            DEADLINE_S,
            interval_s=0.01,
        )
        assert live.link_error is None

        vehicle.close_now.set()
        assert vehicle.closed.wait(DEADLINE_S)
        closed = poll_until(
            model.poll,
            lambda s: s.link_error is not None,
            "the close to be noticed",
            DEADLINE_S,
            interval_s=0.01,
        )
    finally:
        flight_controller.disconnect()

    assert closed.link_error == "The flight controller closed the connection."
    assert not closed.rc_channels_live
    assert not closed.sys_status_live
    assert closed.receiver_present is None
    assert all(channel.pwm is None for channel in closed.channels)


def test_stream_requests_on_a_link_the_vehicle_closed_are_reported_as_send_failed(
    vehicle: ClosingTcpVehicle,
) -> None:
    """
    GIVEN a model on a TCP link whose vehicle closed its side (the close already noticed)
    WHEN the check is started again on that same link (deactivated and activated)
    THEN both stream requests read "send failed" with the reason, instead of waiting for an
         answer that cannot come (pymavlink itself swallows the write error)
    """
    flight_controller = FlightController()
    assert flight_controller.connect(f"tcp:127.0.0.1:{vehicle.port}", timeout=DEADLINE_S) == ""
    try:
        model = RCReceiverDataModel(flight_controller, clock=lambda: 50.0)
        vehicle.close_now.set()
        assert vehicle.closed.wait(DEADLINE_S)
        poll_until(
            model.poll,
            lambda s: s.link_error is not None,
            "the close to be noticed",
            DEADLINE_S,
            interval_s=0.01,
        )

        model.activate()
        state = model.poll()
    finally:
        flight_controller.disconnect()

    assert [r.outcome for r in state.interval_requests] == [IntervalRequestOutcome.SEND_FAILED] * 2
    assert all("closed" in (r.reason or "") for r in state.interval_requests)

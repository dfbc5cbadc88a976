# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Only the same device is reopened: a newcomer at a vanished board's path is left as it was.

Linux gives a new pseudo-terminal the lowest free number, so the moment the check lets go of a
vanished ``/dev/pts/N`` the next program to ask for a pseudo-terminal may get ``/dev/pts/N``.  A
device without an identity can only be told by what it says: the check may open it, but writes
nothing to it before the vehicle's heartbeat, and gives its terminal settings back when it lets go.
Everything here is real: pseudo-terminals from Python's ``pty``, the facade and the link follower.
"""

from __future__ import annotations

import os
import termios
import threading
import time
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.standalone.link_follower import LinkFollower
from amc_rc_receiver.standalone.link_watch import DEVICE_POLL_S, RestartWatch
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode
from tests.support.clock import ManualClock
from tests.support.ptys import drain, pty_named

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/dev/pts"), reason="Linux pseudo-terminals"),
]

HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
)
# How long one reconnect attempt listens for the vehicle on the newcomer.
ATTEMPT_S = 0.3


class _Session:
    def __init__(self) -> None:
        self.flight_controller = FlightController()
        self.connects: list[str] = []
        self.kept: list[Any] = []

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        self.connects.append(device)
        return self.flight_controller.connect(device, baudrate=baudrate, timeout=timeout)

    def keep_test_before_reconnect(self, state: Any) -> None:
        self.kept.append(state)


def _settle(follower: LinkFollower) -> list[str]:
    said: list[str] = []
    deadline = time.monotonic() + DEADLINE_S
    while True:
        said += follower.poll()
        if not follower.attempting:
            return said
        assert time.monotonic() < deadline, "the reconnect attempt never ended"
        time.sleep(0.01)


def test_a_new_pseudo_terminal_that_takes_the_vanished_ones_number_gets_no_byte_and_keeps_its_settings() -> (
    None
):
    """GIVEN the check connected to a vehicle on /dev/pts/N, followed by the link follower WHEN the
    pseudo-terminal vanishes and a new one takes number N THEN the check tries it (it has no identity
    to tell it by) but writes not one byte into it before a vehicle heartbeat, and its terminal
    settings are as they were each time the check lets go; WHEN the vehicle's heartbeat comes on it
    THEN the check connects and only then says hello."""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    session = _Session()
    connected: list[str] = []
    connecting = threading.Thread(
        target=lambda: connected.append(session.connect(name, timeout=DEADLINE_S)), daemon=True
    )
    connecting.start()
    while connecting.is_alive():
        os.write(master, encode(HEARTBEAT, 1, 1))
        connecting.join(0.05)
    assert connected == [""]
    os.close(slave)
    clock = ManualClock(0.0)
    watch = RestartWatch(session.flight_controller, name, list_ports=list)
    follower = LinkFollower(session, watch, baudrate=115200, timeout=ATTEMPT_S, clock=clock)
    fc_master = session.flight_controller.master
    assert fc_master is not None
    os.close(master)  # the "board" vanishes: the check reads an error
    deadline = time.monotonic() + DEADLINE_S
    while not session.flight_controller.link_closed:
        assert time.monotonic() < deadline, "the vanished device was never noticed"
        fc_master.recv_msg()
        time.sleep(0.01)
    said = follower.poll()  # closes the link: number N is free
    assert len(said) == 1
    assert "USB port closed" in said[0]
    with pty_named(name) as newcomer:
        if newcomer is None:
            pytest.skip(f"another program took {name} first")
        new_master, new_slave = newcomer
        os.set_blocking(new_master, False)
        settings = termios.tcgetattr(new_slave)
        try:
            clock.now += DEVICE_POLL_S
            said = follower.poll()
            assert said == [f"The flight controller is back on {name}; connecting…"]
            said += _settle(follower)
            clock.now += 5.0
            follower.poll()
            said += _settle(follower)
            assert len(session.connects) == 3  # the first connection and two attempts on the newcomer
            assert drain(new_master) == b""
            assert termios.tcgetattr(new_slave) == settings
            assert not session.flight_controller.is_connected

            # The vehicle really is back on it: its heartbeat, and the check connects and says hello.
            clock.now += 5.0
            follower.poll()
            deadline = time.monotonic() + DEADLINE_S
            while follower.attempting:
                os.write(new_master, encode(HEARTBEAT, 1, 1))
                said += follower.poll()
                assert time.monotonic() < deadline, "the check never connected to the returned vehicle"
                time.sleep(0.02)
            said += follower.poll()
            assert any(text.startswith(f"Reconnected to {name}") for text in said), said
            hello = b""
            deadline = time.monotonic() + DEADLINE_S
            while not hello:
                assert time.monotonic() < deadline, "the check said nothing to the vehicle"
                hello = drain(new_master)
                time.sleep(0.01)
        finally:
            follower.close()
            session.flight_controller.disconnect()

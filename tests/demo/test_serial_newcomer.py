# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""``--serve-demo`` on a serial path writes nothing into a device that took its vanished one's path.

The simulated vehicle reopens its serial device when it comes back after being unplugged.  A new
pseudo-terminal from Python's ``pty`` takes the lowest free number, so the device at the path may
be another program's terminal: the vehicle reads it, but writes not one byte into it until a ground
station speaks MAVLink on it, and gives it its terminal settings back when it lets go.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.system import DemoSystem
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode
from tests.support.ptys import drain, pty_named
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/dev/pts"), reason="Linux pseudo-terminals"),
]

GCS_HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_GCS, mavlink2.MAV_AUTOPILOT_INVALID, 0, 0, mavlink2.MAV_STATE_ACTIVE, 3
)


def _until(condition: Callable[[], object], what: str) -> None:
    wait_for(lambda: bool(condition()), what, DEADLINE_S, interval_s=0.01)


def test_serve_demo_writes_nothing_into_a_new_pseudo_terminal_that_took_its_number() -> None:
    """GIVEN the simulated vehicle served on /dev/pts/N, its heartbeats arriving at the other end
    WHEN that pseudo-terminal vanishes and a new one takes number N THEN the vehicle reopens it but
    writes not one byte into it while it would have sent its heartbeats; WHEN a ground station sends a
    heartbeat on it THEN the vehicle answers; WHEN the vehicle stops THEN the newcomer has its own
    terminal settings back."""
    termios = pytest.importorskip("termios")
    master, slave = os.openpty()
    name = os.ttyname(slave)
    demo = DemoSystem(endpoint=LinkEndpoint(LinkKind.SERIAL, path=name, baudrate=115200))
    os.close(slave)
    demo.start()
    try:
        os.set_blocking(master, False)
        heard = bytearray()
        _until(lambda: heard.extend(drain(master)) or len(heard) > 0, "the vehicle's first heartbeat")
        os.close(master)  # unplugged: the vehicle's read fails and it lets go of number N
        _until(lambda: demo.vehicle.gcs_address is None, f"the vehicle to let go of {name}")
        with pty_named(name) as newcomer:
            if newcomer is None:
                pytest.skip(f"another program took {name} first")
            new_master, new_slave = newcomer
            os.set_blocking(new_master, False)
            settings = termios.tcgetattr(new_slave)
            vehicle = demo.vehicle
            _until(lambda: vehicle.withheld_messages >= 2, "two messages for the newcomer")
            assert drain(new_master) == b""
            os.write(new_master, encode(GCS_HEARTBEAT, 255, 190))  # a ground station speaks on it
            answer = bytearray()
            _until(lambda: answer.extend(drain(new_master)) or len(answer) > 0, "the vehicle's answer")
            demo.stop()
            assert termios.tcgetattr(new_slave) == settings
    finally:
        demo.stop()

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""pytest fixtures for a scripted loopback vehicle and a FlightController connected to it.

Register them suite-wide with ``pytest_plugins = ["tests.support.fixtures"]`` in the root
tests/conftest.py, or import them explicitly into a test module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ardupilot_methodic_configurator.backend_flightcontroller import FlightController
from tests.support.scripted_fc import ScriptedFlightController

CONNECT_TIMEOUT_S = 10.0  # generous: shared CI machines are slow, a healthy connect takes milliseconds


@pytest.fixture
def scripted_fc() -> Iterator[ScriptedFlightController]:
    """A started scripted ArduPilot vehicle (system 1, component 1) on 127.0.0.1:<ephemeral>."""
    vehicle = ScriptedFlightController()
    vehicle.start()
    yield vehicle
    vehicle.stop()


@pytest.fixture
def connected_fc(scripted_fc: ScriptedFlightController) -> Iterator[FlightController]:
    """A FlightController connected to ``scripted_fc``; disconnected afterwards."""
    flight_controller = FlightController()
    error = flight_controller.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S)
    assert error == "", error
    yield flight_controller
    flight_controller.disconnect()


def read_messages(
    flight_controller: FlightController,
    until: Callable[[list[Any]], bool],
    timeout: float = 10.0,
) -> list[Any]:
    """Read the link the way the data model does (``master.recv_msg()``, every message passed to
    ``handle_message``) until ``until(messages_so_far)`` holds or ``timeout`` passes."""
    master = flight_controller.master
    assert master is not None, "not connected"
    seen: list[Any] = []
    deadline = time.monotonic() + timeout
    while not until(seen) and time.monotonic() < deadline:
        msg = master.recv_msg()
        if msg is None:
            master.select(0.02)
            continue
        flight_controller.handle_message(msg)
        seen.append(msg)
    return seen

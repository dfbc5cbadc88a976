# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""pytest fixtures shared across the suite: a scripted loopback vehicle and a FlightController
connected to it, a Tk root window, and loopback UDP sockets and relays that are closed afterwards.

Register them suite-wide with ``pytest_plugins = ["tests.support.fixtures"]`` in the root
tests/conftest.py, or import them explicitly into a test module.  A module that wants another
root window size overrides ``tk_geometry``.
"""

from __future__ import annotations

import socket
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

import pytest

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from tests.support.program_runs import (
    CONCURRENT_RUNS,
    PROGRAM_RUN_MARK,
    QUICK_CONCURRENT_RUNS,
    FinishedRun,
    RunPool,
    runs_of,
)
from tests.support.run_once import run_folder
from tests.support.scripted_fc import ScriptedFlightController
from tests.support.tk import tk_root
from tests.support.udp import udp_socket

CONNECT_TIMEOUT_S = 10.0  # generous: shared CI machines are slow, a healthy connect takes milliseconds


class SupportsClose(Protocol):
    def close(self) -> object: ...


ClosableT = TypeVar("ClosableT", bound=SupportsClose)


def close_after(request: pytest.FixtureRequest, thing: ClosableT) -> ClosableT:
    """``thing``, closed when the fixture that asked for ``request`` is torn down."""
    request.addfinalizer(thing.close)
    return thing


@pytest.fixture(scope="session", autouse=True)
def program_runs(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[RunPool]:
    """The session's whole program runs, started at this worker's first test (`program_runs`)."""
    quick = bool(request.config.getoption("quick", default=False))
    pool = RunPool(run_folder(tmp_path_factory), QUICK_CONCURRENT_RUNS if quick else CONCURRENT_RUNS)
    pool.start(runs_of(request.session.items))
    yield pool
    pool.join()


@pytest.fixture
def program_run(request: pytest.FixtureRequest, program_runs: RunPool) -> FinishedRun:
    """The finished run the test's ``program_run`` marker names."""
    mark = request.node.get_closest_marker(PROGRAM_RUN_MARK)
    if mark is None:
        pytest.fail("the program_run fixture needs the test marked program_run(ProgramRun(...))")
    return program_runs.result(mark.args[0])


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


@pytest.fixture
def tk_geometry() -> str | None:
    """The size of the ``root`` window; ``None`` leaves it to Tk.  Override it per module."""
    return None


@pytest.fixture
def root(tk_geometry: str | None) -> Iterator[tk.Tk]:
    """A Tk root window of ``tk_geometry`` size, destroyed after the test."""
    yield from tk_root(tk_geometry)


@pytest.fixture
def sockets(request: pytest.FixtureRequest) -> Callable[[], socket.socket]:
    """A maker of ephemeral loopback UDP sockets; each one is closed after the test."""
    return lambda: close_after(request, udp_socket())


@pytest.fixture
def relays() -> Iterator[Callable[..., UdpRelay]]:
    """A maker of started ``UdpRelay``s (config, optional clock); each one is stopped after the test."""
    made: list[UdpRelay] = []

    def make(config: RelayConfig, clock: Callable[[], float] = time.monotonic) -> UdpRelay:
        relay = UdpRelay(config, clock=clock)
        relay.start()
        made.append(relay)
        return relay

    yield make
    for relay in made:
        relay.stop()


def read_messages(
    link: Any,
    until: Callable[[list[Any]], bool],
    timeout: float = 10.0,
) -> list[Any]:
    """Read ``link.master`` the way the data model does (``recv_msg()``, every message shown to
    ``link.handle_message`` where the link has one, as the model shows its command tracker) until
    ``until(messages_so_far)`` holds or ``timeout`` passes."""
    handle_message = getattr(link, "handle_message", None)
    master = link.master
    assert master is not None, "not connected"
    seen: list[Any] = []
    deadline = time.monotonic() + timeout
    while not until(seen) and time.monotonic() < deadline:
        msg = master.recv_msg()
        if msg is None:
            master.select(0.02)
            continue
        if handle_message is not None:
            handle_message(msg)
        seen.append(msg)
    return seen

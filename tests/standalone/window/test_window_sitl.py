# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window on real ArduPilot SITL shows each vehicle's own receiver step.

As `amc-rc-receiver --sitl ../shared/sitl/<binary>` does: the session starts SITL with the
vehicle's upstream defaults, the window (real Tk under Xvfb, with its SITL console) connects to it,
and the vehicle, its receiver step and the step's example file follow what SITL reports (ArduPlane:
a fixed wing; ArduCopter's helicopter build: a helicopter; ArduRover: a ground rover), as in the
methodic configurator 5.0.1.  Skipped, saying why, where ``../shared/sitl/`` is absent; each
vehicle has its own preferred instance (50-52).
"""

from __future__ import annotations

import gc
import sys
import tkinter as tk
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.sitl_panel import SitlWindowSupport
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.standalone.window.test_window_geometry import assert_readings_in_view, assert_reads_whole
from tests.support.sitl import SITL_DIR, free_instance, sitl_binary
from tests.support.tk import pump_until

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

# SITL boots, and its first HEARTBEAT leaves MAV_STATE_BOOT, within seconds; a loaded machine is slower.
WAIT_S = 90.0


@dataclass(frozen=True)
class SitlVehicle:
    binary: str
    defaults: str
    instance: int
    vehicle: str
    step: str


VEHICLES = {
    "plane": SitlVehicle("arduplane", "plane.parm", 50, "ArduPlane", "05_remote_controller_receiver.param"),
    "heli": SitlVehicle("arducopter-heli", "heli.parm", 51, "Heli", "08_remote_controller_receiver.param"),
    "rover": SitlVehicle("ardurover", "rover.parm", 52, "Rover", "08_remote_controller_receiver.param"),
}


@pytest.fixture
def tk_geometry() -> str:
    """The smallest screen the window is laid out for."""
    return "1280x720"


@pytest.fixture(autouse=True)
def _collect_tk_garbage_on_the_main_thread() -> Iterator[None]:
    """Destroyed widget trees are collected here, on the Tk thread, not in a connect worker."""
    yield
    gc.collect()


def sitl_session(spec: SitlVehicle) -> VehicleSession:
    binary = sitl_binary(spec.binary)
    session = VehicleSession()
    config = SitlConfig(binary, defaults=(SITL_DIR / spec.defaults,), instance=free_instance(spec.instance))
    error = session.start_sitl(config)
    if error:
        session.close()
        pytest.fail(error)
    return session


def check_state(window: StandaloneWindow) -> RCReceiverState | None:
    state = getattr(window.host.active_model, "state", None)
    return state if isinstance(state, RCReceiverState) else None


@pytest.mark.parametrize("name", list(VEHICLES))
def test_the_window_on_sitl_shows_the_vehicles_own_receiver_step(root: tk.Tk, name: str) -> None:
    """GIVEN real SITL of ArduPlane, ArduCopter's helicopter build or ArduRover, and the window
    showing ArduCopter's step as it starts
    WHEN the window connects to it, as `--sitl` does
    THEN it shows that vehicle's own receiver step and its example file, the check names the same
    vehicle, its readings are live, and at 1280x720 with the SITL console (closed to its summary)
    nothing is clipped and the verdict, the current step with its buttons, CH1-CH5, RSSI and the
    receiver status are in view unscrolled."""
    spec = VEHICLES[name]
    session = sitl_session(spec)
    assert session.sitl is not None
    window = StandaloneWindow(root, session, device=session.sitl.device, connect_timeout=WAIT_S)
    window.automatic_transmitter_test = True
    support = SitlWindowSupport(root, window, before=window.step_frame)
    try:
        assert window.vehicle == "ArduCopter"
        window.connect(session.sitl.device)

        def live() -> bool:
            state = check_state(window)
            view = window.host.active_view
            return (
                not window.is_connecting
                and state is not None
                and state.guided.mav_type is not None
                and isinstance(view, RCReceiverView)
                and view.channel_rows[0].text.endswith("µs")
            )

        assert pump_until(root, live, WAIT_S), f"live readings from SITL: {window.status_text}"
        assert window.vehicle == spec.vehicle
        assert window.step is not None
        assert window.step.filename == spec.step
        table = window.parameter_table
        assert table is not None
        assert f"{spec.vehicle}/{spec.step}" in table.source_text
        state = check_state(window)
        assert state is not None
        assert state.guided.family.value == spec.vehicle
        assert support.panel is not None
        assert not support.panel.expanded
        view = window.host.active_view
        assert isinstance(view, RCReceiverView)
        root.update()
        assert_reads_whole(root, f"{name} on SITL")
        assert_readings_in_view(view)
    finally:
        support.close()
        window.close()

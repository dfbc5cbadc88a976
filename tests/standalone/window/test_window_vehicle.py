# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's vehicle follows the connected one, as in the methodic configurator 5.0.1, and a
person's own choice stays.

The window is real (Tk under Xvfb) and connects to the embedded demo vehicle, which reports the
HEARTBEAT type of the firmware it plays (`--demo-vehicle`).
"""

from __future__ import annotations

import gc
import tkinter as tk
from collections.abc import Iterator

import pytest

from amc_rc_receiver.demo.setups import DEFAULT_SETUP, DemoChoice, DemoVehicle
from amc_rc_receiver.host.param_file import read_example_receiver_params
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk

DEADLINE_S = 20.0


@pytest.fixture(autouse=True)
def _collect_tk_garbage_on_the_main_thread() -> Iterator[None]:
    """Destroyed widget trees are collected here, on the Tk thread, not in a connect worker."""
    yield
    gc.collect()


def demo_window(root: tk.Tk, vehicle: DemoVehicle) -> StandaloneWindow:
    session = VehicleSession(demo_choice=DemoChoice(vehicle, DEFAULT_SETUP))
    return StandaloneWindow(root, session, port_lister=list, connect_timeout=5.0)


def check_runs(window: StandaloneWindow) -> bool:
    view = window.host.active_view
    state = getattr(window.host.active_model, "state", None)
    return (
        not window.is_connecting
        and isinstance(view, RCReceiverView)
        and isinstance(state, RCReceiverState)
        and state.guided.mav_type is not None
        and view.channel_rows[0].text.endswith("µs")
    )


@pytest.mark.parametrize(
    ("vehicle", "shown", "step"),
    [
        (DemoVehicle.HELI, "Heli", "08_remote_controller_receiver.param"),
        (DemoVehicle.PLANE, "ArduPlane", "05_remote_controller_receiver.param"),
        (DemoVehicle.ROVER, "Rover", "08_remote_controller_receiver.param"),
    ],
)
def test_the_window_shows_the_connected_vehicles_receiver_step_and_example(
    root: tk.Tk, vehicle: DemoVehicle, shown: str, step: str
) -> None:
    """GIVEN the window showing ArduCopter, nobody having chosen a vehicle
    WHEN it connects to a demo vehicle that reports a helicopter, fixed-wing or ground rover
    HEARTBEAT type
    THEN it shows that vehicle's receiver step and its example file, and the check runs on it with
    the program's transmitter."""
    window = demo_window(root, vehicle)
    window.automatic_transmitter_test = True  # as `--demo` runs it
    try:
        assert window.vehicle == "ArduCopter"
        window.connect(DEMO_DEVICE)
        assert pump_until(root, lambda: check_runs(window), DEADLINE_S), "the check on the demo"
        assert window.vehicle == shown
        assert window.step is not None
        assert window.step.filename == step
        table = window.parameter_table
        assert table is not None
        assert f"{shown}/{step}" in table.source_text
        assert [row[0] for row in table.rows] == [entry.name for entry in read_example_receiver_params(shown)]
        state = getattr(window.host.active_model, "state", None)
        assert isinstance(state, RCReceiverState)
        assert state.guided.family.value == shown
        assert state.guided.guide.automatic  # the program's transmitter is lent to the new check
    finally:
        window.close()


def test_a_vehicle_the_person_chose_stays_whatever_is_connected(root: tk.Tk) -> None:
    """GIVEN the window where the person chose Rover
    WHEN it connects to the demo helicopter
    THEN the window keeps Rover's step: the person's choice is not overridden."""
    window = demo_window(root, DemoVehicle.HELI)
    try:
        window.vehicle_combobox.set("Rover")
        window.vehicle_combobox.event_generate("<<ComboboxSelected>>")
        root.update()
        window.connect(DEMO_DEVICE)
        assert pump_until(root, lambda: check_runs(window), DEADLINE_S), "the check on the demo"
        assert window.vehicle == "Rover"
        assert window.step is not None
        assert window.step.filename == "08_remote_controller_receiver.param"
        table = window.parameter_table
        assert table is not None
        assert "Rover/08_remote_controller_receiver.param" in table.source_text
    finally:
        window.close()

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole plugin, as the methodic configurator would run it, only reads.

The plugin is created through the real factory and host for the real receiver step, talks to a
scripted vehicle over loopback UDP, and is driven through a full test: live telemetry, failsafe,
recovery, "Start a new test", a file browser pause, a step change.  Every byte the vehicle
received is then decoded: nothing but SET_MESSAGE_INTERVAL for the two receiver streams,
MAV_CMD_RUN_PREARM_CHECKS (ArduPilot's own pre-arm checks, which change nothing), PARAM_REQUEST_READ
by name for the receiver parameters (and the host's hello of connect: a read of parameter 0 and a
request for AUTOPILOT_VERSION) may be there - no parameter write, no arming, no calibration.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.host.configuration_steps import load_configuration_steps
from amc_rc_receiver.host.plugin_host import PluginHost
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (
    RCReceiverView,
    register_rc_receiver_plugin,
)
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import plugin_factory
from amc_rc_receiver.plugins.rc_receiver.firmware import (
    MAX_RC_CHANNEL,
    RCMAP_DEFAULTS,
    VehicleFamily,
    wanted_parameters,
)
from amc_rc_receiver.plugins.rc_receiver.parameter_reads import MAX_ATTEMPTS, param_name
from tests.plugins.data_model_rc_receiver_harness import decode_all, without_facade_hello
from tests.support.scripted_fc import ScriptedFlightController
from tests.support.tk import pump_until
from tests.support.waiting import wait_for

pytestmark = pytest.mark.tk

RECEIVER_STEP = "05_remote_controller_receiver.param"  # ArduCopter, as in the methodic configurator 5.0.1
ALLOWED_INTERVAL_TARGETS = {65, 1}
RCMAP_VALUES = {name: float(channel) for name, channel in RCMAP_DEFAULTS.items()}
# Every channel the receiver may deliver adds its calibration and direction: whether RC_CHANNELS
# comes before the reads is a race, so the allowed names are those of all sixteen.
COPTER_RECEIVER_PARAMETERS = set(wanted_parameters(VehicleFamily.COPTER, RCMAP_VALUES, MAX_RC_CHANNEL))


@pytest.fixture
def registered_plugin() -> None:
    if not plugin_factory.is_registered(PLUGIN_RC_RECEIVER):
        register_rc_receiver_plugin()


def send_receiver_telemetry(vehicle: ScriptedFlightController, *, healthy: bool) -> None:
    vehicle.send_rc_channels([1500, 1400, 1000, 1600, 1900], chancount=8, rssi=180)
    vehicle.send_sys_status(present=True, enabled=True, healthy=healthy)


def streamed_until(root: tk.Tk, vehicle: ScriptedFlightController, condition: Callable[[], bool]) -> bool:
    """Healthy receiver telemetry twice a second until ``condition()`` holds (False after 20 s)."""
    for _second in range(40):
        send_receiver_telemetry(vehicle, healthy=True)
        if pump_until(root, condition, 0.5):
            return True
    return False


def prearm_requests(vehicle: ScriptedFlightController) -> int:
    return len(vehicle.commands_received(mavlink2.MAV_CMD_RUN_PREARM_CHECKS))


def lamp_text(view: RCReceiverView, name: str) -> str:
    return str(getattr(view, name).text)


@pytest.mark.usefixtures("registered_plugin")
def test_a_whole_plugin_session_sends_nothing_but_interval_requests_prearm_checks_and_reads(
    root: tk.Tk, scripted_fc: ScriptedFlightController, connected_fc: FlightController
) -> None:
    """
    GIVEN the rc_receiver plugin shown by the host on the ArduCopter receiver step, connected to
          a scripted vehicle that answers parameter reads like ArduPilot
    WHEN telemetry flows, RC failsafe comes and goes, the user starts a new test, a file browser
         pauses the plugin and the user moves to another step
    THEN the view showed each state, and besides the host's hello when it connected (one read of
         parameter 0, one MAV_CMD_REQUEST_MESSAGE for AUTOPILOT_VERSION) the vehicle received only
         GCS heartbeats, COMMAND_LONG MAV_CMD_SET_MESSAGE_INTERVAL for RC_CHANNELS and SYS_STATUS
         (5 Hz, then 0), COMMAND_LONG MAV_CMD_RUN_PREARM_CHECKS without parameters (once the
         parameters were read, in each of the two tests) and PARAM_REQUEST_READ by name for
         receiver parameters - each asked a bounded number of times
    """
    scripted_fc.parameters = dict.fromkeys(COPTER_RECEIVER_PARAMETERS, 1.0) | RCMAP_VALUES
    steps = load_configuration_steps("ArduCopter")
    host = PluginHost(root, connected_fc)
    layout = host.show_step(steps.step(RECEIVER_STEP))
    assert layout is not None
    assert layout.placement == "left"
    view = host.active_view
    assert isinstance(view, RCReceiverView)

    assert pump_until(
        root, lambda: len(scripted_fc.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)) >= 2
    )
    send_receiver_telemetry(scripted_fc, healthy=True)
    assert pump_until(root, lambda: lamp_text(view, "failsafe_lamp") == "not active")
    assert pump_until(root, lambda: prearm_requests(scripted_fc) == 1)
    send_receiver_telemetry(scripted_fc, healthy=False)
    assert pump_until(root, lambda: lamp_text(view, "failsafe_lamp") == "active")
    send_receiver_telemetry(scripted_fc, healthy=True)
    assert pump_until(root, lambda: lamp_text(view, "recovery_lamp").startswith("yes"))
    assert lamp_text(view, "failsafe_observed_lamp").startswith("yes")

    view.reset_button.invoke()
    assert pump_until(root, lambda: lamp_text(view, "failsafe_observed_lamp") == "not yet")
    with host.paused():
        root.update()
    # Streamed, as a vehicle does: a single message may reach the plugin before it has resumed.
    assert streamed_until(root, scripted_fc, lambda: lamp_text(view, "present_lamp") == "yes")
    assert pump_until(root, lambda: prearm_requests(scripted_fc) == 2)

    host.show_step(next(step for step in steps.steps if step.plugin is None))
    assert host.active_view is None
    wait_for(
        lambda: len(scripted_fc.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)) >= 4,
        "4 interval commands at the vehicle",
    )
    host.close()

    # One snapshot of the bytes, decoded afresh: datagrams still in flight cannot make the count
    # and the bytes disagree, and every byte must belong to a well-formed message.
    received = scripted_fc.received_bytes()
    messages = decode_all(received)
    assert sum(len(message.get_msgbuf()) for message in messages) == len(received)
    messages = without_facade_hello(messages)
    kinds = {message.get_type() for message in messages}
    assert kinds <= {"HEARTBEAT", "COMMAND_LONG", "PARAM_REQUEST_READ"}
    assert "PARAM_REQUEST_READ" in kinds
    intervals = []
    prearm = []
    reads: dict[str, int] = {}
    for message in messages:
        if message.get_type() == "HEARTBEAT":
            assert message.type == mavlink2.MAV_TYPE_GCS
            continue
        if message.get_type() == "PARAM_REQUEST_READ":
            name = param_name(message.param_id)
            assert message.param_index == -1
            assert name in COPTER_RECEIVER_PARAMETERS
            reads[name] = reads.get(name, 0) + 1
            continue
        assert (message.target_system, message.target_component) == (1, 1)
        if message.command == mavlink2.MAV_CMD_RUN_PREARM_CHECKS:
            prearm.append((message.param1, message.param2, message.param7))
            continue
        assert message.command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
        assert int(message.param1) in ALLOWED_INTERVAL_TARGETS
        intervals.append((int(message.param1), int(message.param2)))
    assert intervals == [(65, 200_000), (1, 200_000), (65, 0), (1, 0)]
    # once the parameters were read while the receiver delivered, before and after "Start a new test"
    assert prearm == [(0, 0, 0), (0, 0, 0)]
    # Read at activation and again after the pause (the host may have written meanwhile).
    assert max(reads.values()) <= 2 * MAX_ATTEMPTS

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A vehicle session on real SITL, in-process: what the check's own link carries, and the window.

The check may send nothing but SET_MESSAGE_INTERVAL, MAV_CMD_RUN_PREARM_CHECKS and parameter reads
(our host's request for AUTOPILOT_VERSION goes out when it connects); switching the simulated
receiver into failsafe (``SIM_RC_FAIL``) is the simulator runner's business on SITL's second
MAVLink port.
Every byte the check's connection writes is decoded here to prove it.  The window test drives the
real window (under Xvfb) through a failsafe test and a SITL restart.  Skipped, saying why, where
``../shared/sitl/`` is absent; instances 26 and 27 (or 126, 127… when taken) are used only here.
"""

from __future__ import annotations

import sys
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.sitl_panel import SitlWindowSupport
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.sitl import free_instance, sitl_binary, sitl_processes
from tests.support.waiting import poll_until

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

WAIT_S = 90.0
MAV_CMD_SET_MESSAGE_INTERVAL = 511
MAV_CMD_RUN_PREARM_CHECKS = 401
PARAMETER_READS = ("PARAM_REQUEST_READ", "PARAM_REQUEST_LIST")


@pytest.fixture
def session() -> Iterator[VehicleSession]:
    built = VehicleSession()
    yield built
    built.close()


class WriteRecorder:
    """Wraps a pymavlink connection's ``write`` so every byte the check sends is kept."""

    def __init__(self, master: Any) -> None:
        self.data = bytearray()
        original = master.write

        def write(buf: bytes) -> Any:
            self.data.extend(buf)
            return original(buf)

        master.write = write

    def messages(self) -> list[Any]:
        parser = mavlink.MAVLink(None)
        parser.robust_parsing = True
        decoded = parser.parse_buffer(bytes(self.data)) or []
        assert all(message.get_type() != "BAD_DATA" for message in decoded), decoded
        return list(decoded)


def test_the_checks_own_link_carries_only_interval_requests_while_the_runner_switches_sim_rc_fail(
    session: VehicleSession,
) -> None:
    """GIVEN a check on real ArduCopter SITL WHEN a whole no-pulses failsafe test runs (transmitter
    off, failsafe, on, recovery, leaving the check) THEN every message the check's connection sent
    is a SET_MESSAGE_INTERVAL command, a MAV_CMD_RUN_PREARM_CHECKS (at most twice) or a parameter
    read, while SIM_RC_FAIL was set by the runner's own link."""
    binary = sitl_binary("arducopter")
    assert session.start_sitl(SitlConfig(binary, instance=free_instance(26))) == ""
    assert session.sitl is not None
    assert session.connect(session.sitl.device, timeout=WAIT_S) == ""
    recorder = WriteRecorder(session.flight_controller.master)
    session.model.activate()
    poll_until(
        session.model.poll,
        lambda state: state.failsafe is FailsafeStatus.NOT_ACTIVE,
        "a healthy receiver",
        WAIT_S,
        interval_s=0.05,
    )
    session.set_transmitter_on(False)
    poll_until(
        session.model.poll,
        lambda state: state.failsafe is FailsafeStatus.ACTIVE,
        "the RC failsafe",
        WAIT_S,
        interval_s=0.05,
    )
    session.set_transmitter_on(True)
    poll_until(
        session.model.poll, lambda state: state.recovery_observed, "the recovery", WAIT_S, interval_s=0.05
    )
    session.model.deactivate()
    session.model.poll()

    sent = recorder.messages()
    commands = [message for message in sent if message.get_type() == "COMMAND_LONG"]
    assert len(commands) >= 4  # two stream requests, two restores
    allowed = (MAV_CMD_SET_MESSAGE_INTERVAL, MAV_CMD_RUN_PREARM_CHECKS)
    assert all(command.command in allowed for command in commands), commands
    assert len([c for c in commands if c.command == MAV_CMD_RUN_PREARM_CHECKS]) <= 2
    others = {message.get_type() for message in sent if message.get_type() != "COMMAND_LONG"}
    assert others <= set(PARAMETER_READS), others
    control = session.sitl.control
    assert control is not None
    assert control.confirmed_rc_fail == 0


def test_the_window_runs_a_failsafe_test_on_sitl_shows_its_console_and_follows_a_restart(root: tk.Tk) -> None:
    """GIVEN the window on real ArduCopter SITL WHEN the transmitter switch goes off and on, and
    then SITL is killed THEN the failsafe and recovery show, SITL's console is readable in the
    window, SITL's decoded protocol (UDP) shows before and after the restart, and after the restart
    the window reconnects by itself, says so, and shows live channels from the new SITL."""
    binary = sitl_binary("arducopter")
    session = VehicleSession()
    instance = free_instance(27)
    assert session.start_sitl(SitlConfig(binary, instance=instance)) == ""
    assert session.sitl is not None
    window = StandaloneWindow(root, session, connect_timeout=WAIT_S)
    support = SitlWindowSupport(root, window, before=window.step_frame)
    try:
        window.connect(session.sitl.device)

        def view() -> RCReceiverView:
            current = window.host.active_view
            assert isinstance(current, RCReceiverView)
            return current

        def live() -> bool:
            return not window.is_connecting and view().channel_rows[0].text.endswith("µs")

        pump_until(root, live, "live channels")
        # SITL's announcement of the protocol it decodes, shown beside the receiver's lamps.
        pump_until(root, lambda: view().protocol_value.cget("text") == "UDP", "the decoded protocol")
        panel = support.panel
        assert panel is not None
        pump_until(root, lambda: "receiver: delivering" in str(panel.status_label.cget("text")), "summary")
        assert window.connection_bar.transmitter_shown
        window.connection_bar.transmitter_check.invoke()
        pump_until(root, lambda: view().failsafe_lamp.text == "active", "the RC failsafe")
        window.connection_bar.transmitter_check.invoke()
        pump_until(root, lambda: view().recovery_lamp.text.startswith("yes"), "the recovery")
        pump_until(root, lambda: "SITL confirmed SIM_RC_FAIL = 0." in panel.text_content(), "the console")
        assert "JSON received:" in panel.text_content()
        assert "running (process" in str(panel.status_label.cget("text"))

        assert session.sitl.kill_sitl() is not None
        pump_until(
            root,
            lambda: "Reconnected to" in window.connection_bar.status_text,
            "the window to reconnect to the restarted SITL",
        )
        assert "a fresh test started" in window.connection_bar.status_text
        pump_until(
            root,
            lambda: live() and view().recovery_lamp.text == "not yet",
            "a fresh test on the new SITL",
            lambda: (view().channel_rows[0].text, view().recovery_lamp.text, view().notice.cget("text")),
        )
        assert "restarts: 1" in str(panel.status_label.cget("text"))
        # The restarted SITL announced it again, to the window's new link.
        pump_until(root, lambda: view().protocol_value.cget("text") == "UDP", "the new protocol text")
    finally:
        support.close()
        window.close()
    assert sitl_processes(binary, instance) == []


def pump_until(
    root: tk.Tk, condition: Callable[[], bool], what: str, shown: Callable[[], object] = lambda: ""
) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}: {shown()}")
        root.update()
        time.sleep(0.01)

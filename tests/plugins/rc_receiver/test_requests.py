# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the plugin's non-blocking command tracking, over a real loopback MAVLink link.

Commands travel to a scripted vehicle on a UDP socket through a connected FlightController's
``master``, as the plugin sends them; ACKs are real pymavlink COMMAND_ACKs read back the way the
data model reads (``master.recv_msg()``).  Time is an injected clock.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.plugins.rc_receiver.commands import CommandManager, CommandOutcome, PendingCommand
from tests.support import fixtures as support_fixtures
from tests.support.clock import ManualClock
from tests.support.fixtures import CONNECT_TIMEOUT_S, read_messages
from tests.support.scripted_fc import AckPolicy, ScriptedFlightController
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

scripted_fc = support_fixtures.scripted_fc  # the shared fixture, requested by name below

SET_MESSAGE_INTERVAL = 511


class NullLink:
    """The smallest transport the manager needs: a real pymavlink encoder writing nowhere."""

    def __init__(self) -> None:
        self.mav = mavlink2.MAVLink(self, srcSystem=255, srcComponent=190)
        self.written: list[bytes] = []

    def write(self, buf: bytes) -> None:
        self.written.append(bytes(buf))


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


class PluginLink:
    """A connected FlightController plus the plugin's CommandManager, addressed as the model does."""

    def __init__(self, flight_controller: FlightController, clock: ManualClock) -> None:
        self.flight_controller = flight_controller
        self.commands = CommandManager(clock=clock)

    @property
    def master(self) -> Any:
        return self.flight_controller.master

    def send_command(self, command: int, params: tuple[float, ...] = ()) -> PendingCommand:
        info = self.flight_controller.info
        return self.commands.send(self.master, command, params, int(info.system_id), int(info.component_id))

    def expire_commands(self) -> None:
        self.commands.expire()

    def handle_message(self, msg: Any) -> None:
        self.commands.handle_message(msg)


@pytest.fixture
def fc(scripted_fc: ScriptedFlightController, clock: ManualClock) -> Iterator[PluginLink]:
    """A FlightController connected to the scripted vehicle, with a hand-moved command clock."""
    flight_controller = FlightController()
    assert flight_controller.connect(scripted_fc.device, timeout=CONNECT_TIMEOUT_S) == ""
    yield PluginLink(flight_controller, clock)
    flight_controller.disconnect()


def done(handle: PendingCommand) -> bool:
    return handle.outcome is not CommandOutcome.PENDING


def until_done(*handles: PendingCommand) -> Any:
    return lambda _seen: all(done(h) for h in handles)


def wait_commands(vehicle: ScriptedFlightController, count: int) -> None:
    """``count`` of the test's own commands (the facade asked for AUTOPILOT_VERSION before them)."""
    wait_for(
        lambda: len(vehicle.commands_received(SET_MESSAGE_INTERVAL)) >= count,
        f"{count} commands at the vehicle",
    )


def decoded(msg: Any, system_id: int, component_id: int) -> Any:
    """Encode with pymavlink and decode again, so the message carries real header source ids."""
    encoder = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
    parser = mavlink2.MAVLink(None)
    return parser.parse_char(msg.pack(encoder))


# ---- outcomes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "outcome", "result_name"),
    [
        (AckPolicy.ACCEPT, CommandOutcome.ACCEPTED, "MAV_RESULT_ACCEPTED"),
        (AckPolicy.DENY, CommandOutcome.REJECTED, "MAV_RESULT_DENIED"),
        (AckPolicy.UNSUPPORTED, CommandOutcome.REJECTED, "MAV_RESULT_UNSUPPORTED"),
    ],
)
def test_the_vehicles_answer_decides_the_outcome(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
    policy: AckPolicy,
    outcome: CommandOutcome,
    result_name: str,
) -> None:
    """
    GIVEN a vehicle that answers SET_MESSAGE_INTERVAL with a given MAV_RESULT
    WHEN a command is sent and the poller passes the messages it reads to the facade
    THEN the handle ends with the matching outcome and the MAV_RESULT name
    """
    scripted_fc.ack_policy = policy
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    read_messages(fc, until_done(handle))
    assert handle.outcome is outcome
    assert handle.result_name == result_name
    assert handle.error is None
    assert fc.commands.pending == ()


def test_a_silent_vehicle_times_the_command_out_after_0_8_seconds(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
    clock: ManualClock,
) -> None:
    """
    GIVEN a vehicle that never answers
    WHEN 0.79 s and then 0.8 s pass on the command clock
    THEN the command is still pending at 0.79 s and timed out with a readable reason at 0.8 s
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    wait_commands(scripted_fc, 1)
    clock.now += 0.79
    fc.expire_commands()
    assert handle.outcome is CommandOutcome.PENDING
    clock.now += 0.01
    fc.expire_commands()
    assert handle.outcome is CommandOutcome.TIMED_OUT
    assert "no answer" in (handle.error or "")
    assert "MAV_CMD_SET_MESSAGE_INTERVAL" in (handle.error or "")
    assert fc.commands.pending == ()


def test_send_command_returns_a_pending_handle_without_reading_or_waiting(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
    clock: ManualClock,
) -> None:
    """
    GIVEN a silent vehicle and an RC_CHANNELS message already waiting on the link
    WHEN a command is sent
    THEN the handle is PENDING at once, stamped with the current clock, and the waiting
         RC_CHANNELS is still there for the poller (send read nothing)
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    scripted_fc.send_rc_channels([1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800])
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    assert handle.outcome is CommandOutcome.PENDING
    assert not done(handle)
    assert handle.sent_at == clock.now
    assert fc.commands.pending == (handle,)
    seen = read_messages(fc, lambda s: any(m.get_type() == "RC_CHANNELS" for m in s))
    rc = [m for m in seen if m.get_type() == "RC_CHANNELS"]
    assert [rc[0].chan1_raw, rc[0].chan8_raw] == [1100, 1800]
    wait_commands(scripted_fc, 1)
    assert handle.outcome is CommandOutcome.PENDING


def test_a_command_on_a_tcp_link_the_vehicle_closed_ends_as_send_failed() -> None:
    """
    GIVEN a TCP link whose peer (a real loopback server) accepted and then closed its side, and
          the closing read by the link (pymavlink then swallows every write error)
    WHEN a command is sent
    THEN the handle is SEND_FAILED saying the connection is closed, and nothing is left pending
    """
    with socket.create_server(("127.0.0.1", 0)) as server:
        heartbeat = mavlink2.MAVLink_heartbeat_message(
            mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, 0, 3
        )
        flight_controller = FlightController()

        def serve() -> None:
            conn, _address = server.accept()
            with conn:
                conn.sendall(heartbeat.pack(mavlink2.MAVLink(None, srcSystem=1, srcComponent=1)))

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        device = f"tcp:127.0.0.1:{server.getsockname()[1]}"
        error = flight_controller.connect(device, timeout=CONNECT_TIMEOUT_S)
        thread.join(CONNECT_TIMEOUT_S)
    assert error == ""
    master = flight_controller.master
    assert master is not None
    deadline = time.monotonic() + CONNECT_TIMEOUT_S
    while not getattr(master, "portdead", False) and time.monotonic() < deadline:
        master.recv_msg()
        master.select(0.02)

    manager = CommandManager(clock=ManualClock(100.0))
    handle = manager.send(master, SET_MESSAGE_INTERVAL, (65, 200_000), 1, 1)
    flight_controller.disconnect()

    assert handle.outcome is CommandOutcome.SEND_FAILED
    assert "connection to the flight controller is closed" in (handle.error or "")
    assert "MAV_CMD_SET_MESSAGE_INTERVAL" in (handle.error or "")
    assert manager.pending == ()


@pytest.mark.pure  # no socket: the rest of this file needs loopback
def test_send_command_without_a_connection_fails_readably() -> None:
    """
    GIVEN a FlightController that never connected
    WHEN a command is sent
    THEN the handle is SEND_FAILED saying no flight controller is connected
    """
    handle = CommandManager().send(FlightController().master, SET_MESSAGE_INTERVAL, (65, 200_000), 1, 1)
    assert handle.outcome is CommandOutcome.SEND_FAILED
    assert "no flight controller is connected" in (handle.error or "")


def test_more_than_seven_parameters_fail_without_sending(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a connected vehicle
    WHEN a command with 8 parameters is requested
    THEN it is SEND_FAILED with a reason and nothing goes out; fewer params are zero-padded to 7
    """
    bad = fc.send_command(SET_MESSAGE_INTERVAL, (1, 2, 3, 4, 5, 6, 7, 8))
    assert bad.outcome is CommandOutcome.SEND_FAILED
    assert "7" in (bad.error or "")
    good = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    assert good.params == (65.0, 200_000.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    wait_commands(scripted_fc, 1)
    assert scripted_fc.commands_received(SET_MESSAGE_INTERVAL) == [(SET_MESSAGE_INTERVAL, good.params)]


# ---- ACK matching -------------------------------------------------------------------------------


def test_acks_for_the_same_command_complete_pending_commands_oldest_first(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN two pending SET_MESSAGE_INTERVAL commands to a vehicle that does not answer by itself
    WHEN a DENIED and then an ACCEPTED ACK for that command arrive
    THEN the first command is REJECTED and the second ACCEPTED (the autopilot answers in order)
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    first = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    second = fc.send_command(SET_MESSAGE_INTERVAL, (1, 200_000))
    wait_commands(scripted_fc, 2)
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_DENIED)
    read_messages(fc, until_done(first))
    assert first.outcome is CommandOutcome.REJECTED
    assert second.outcome is CommandOutcome.PENDING
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_ACCEPTED)
    read_messages(fc, until_done(second))
    assert second.outcome is CommandOutcome.ACCEPTED


def test_acks_from_other_systems_components_or_commands_are_ignored(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a pending SET_MESSAGE_INTERVAL to vehicle 1/1
    WHEN ACKs arrive from system 2, from component 1/154, for another command, addressed to another
         GCS, and IN_PROGRESS, and finally a real ACK from 1/1
    THEN only the last one completes the command
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    wait_commands(scripted_fc, 1)
    denied = mavlink2.MAV_RESULT_DENIED
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, denied, system_id=2, component_id=1)
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, denied, system_id=1, component_id=154)
    scripted_fc.send_command_ack(400, denied)
    scripted_fc.send(mavlink2.MAVLink_command_ack_message(SET_MESSAGE_INTERVAL, denied, 0, 0, 254, 190))
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_IN_PROGRESS)
    seen = read_messages(fc, lambda s: len([m for m in s if m.get_type() == "COMMAND_ACK"]) >= 5)
    assert len([m for m in seen if m.get_type() == "COMMAND_ACK"]) == 5
    assert handle.outcome is CommandOutcome.PENDING
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_ACCEPTED)
    read_messages(fc, until_done(handle))
    assert handle.outcome is CommandOutcome.ACCEPTED


def test_a_command_to_component_zero_accepts_an_ack_from_any_component_of_that_system(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a command sent straight through the manager to system 1, component 0 (broadcast)
    WHEN component 1/154 answers
    THEN that ACK completes it
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    handle = fc.commands.send(fc.master, SET_MESSAGE_INTERVAL, (65, 0), 1, 0)
    wait_commands(scripted_fc, 1)
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_ACCEPTED, component_id=154)
    read_messages(fc, until_done(handle))
    assert handle.outcome is CommandOutcome.ACCEPTED


def test_handle_message_leaves_every_message_with_the_caller(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a pending command and a vehicle that sends its ACK between RC_CHANNELS and SYS_STATUS
    WHEN the poller reads and passes every message to the manager
    THEN the ACK completes the command (handle_message says so) and all three messages stay with
         the poller, unchanged
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    wait_commands(scripted_fc, 1)
    scripted_fc.send_rc_channels([1500] * 8)
    scripted_fc.send_command_ack(SET_MESSAGE_INTERVAL, mavlink2.MAV_RESULT_ACCEPTED)
    scripted_fc.send_sys_status(present=True, enabled=True, healthy=True)
    wanted = {"RC_CHANNELS", "COMMAND_ACK", "SYS_STATUS"}
    # read without the helper so handle_message's return value is visible
    master = fc.master
    assert master is not None
    seen: dict[str, tuple[Any, bool]] = {}
    deadline = time.monotonic() + 10.0
    while not wanted <= seen.keys() and time.monotonic() < deadline:
        msg = master.recv_msg()
        if msg is None:
            master.select(0.02)
        else:
            seen[msg.get_type()] = (msg, fc.commands.handle_message(msg))
    assert seen["COMMAND_ACK"][1] is True
    assert seen["RC_CHANNELS"][1] is False
    assert seen["SYS_STATUS"][1] is False
    assert seen["RC_CHANNELS"][0].chan1_raw == 1500
    assert seen["SYS_STATUS"][0].onboard_control_sensors_health & 0x10000
    assert handle.outcome is CommandOutcome.ACCEPTED


def test_a_connection_change_ends_pending_commands_with_a_reason(
    fc: PluginLink,
    scripted_fc: ScriptedFlightController,
) -> None:
    """
    GIVEN a pending command to a silent vehicle
    WHEN the connection it was sent on goes away (the model cancels everything with a reason)
    THEN the command ends SEND_FAILED with that reason and nothing stays pending
    """
    scripted_fc.ack_policy = AckPolicy.SILENT
    handle = fc.send_command(SET_MESSAGE_INTERVAL, (65, 200_000))
    fc.flight_controller.disconnect()
    fc.commands.cancel_all("The flight controller was disconnected.")
    assert handle.outcome is CommandOutcome.SEND_FAILED
    assert "disconnected" in (handle.error or "")
    assert fc.commands.pending == ()


# ---- properties ---------------------------------------------------------------------------------


@given(st.binary(max_size=600))
def test_any_bytes_decoded_from_the_link_never_break_or_wrongly_complete_a_command(data: bytes) -> None:
    """
    GIVEN a pending command for system 1 component 1 and arbitrary bytes parsed by pymavlink
    WHEN every resulting message (BAD_DATA included) is passed to the manager
    THEN it never raises, and only a COMMAND_ACK for that command from 1/1 can complete it
    """
    clock = ManualClock(100.0)
    manager = CommandManager(clock=clock)  # NullLink sends as 255/190
    handle = manager.send(NullLink(), SET_MESSAGE_INTERVAL, (65, 0), 1, 1)
    parser = mavlink2.MAVLink(None)
    parser.robust_parsing = True
    messages = parser.parse_buffer(data) or []
    for msg in messages:
        completed = manager.handle_message(msg)
        if completed:
            assert msg.get_type() == "COMMAND_ACK"
            assert (msg.command, msg.get_srcSystem(), msg.get_srcComponent()) == (SET_MESSAGE_INTERVAL, 1, 1)
    assert done(handle) == (handle not in manager.pending)


@given(st.sampled_from([0, 1, 2, 3, 4, 7, 8, 6, 200]), st.integers(1, 254), st.integers(1, 254))
def test_every_mav_result_except_in_progress_ends_the_command(
    result: int, system: int, component: int
) -> None:
    """
    GIVEN a pending command to system/component S/C
    WHEN a real COMMAND_ACK from S/C with any MAV_RESULT arrives
    THEN ACCEPTED maps to ACCEPTED, IN_PROGRESS (5) keeps it pending, anything else is REJECTED
         with the pymavlink MAV_RESULT name
    """
    manager = CommandManager(clock=ManualClock(100.0))
    handle = manager.send(NullLink(), SET_MESSAGE_INTERVAL, (65, 0), system, component)
    ack = decoded(
        mavlink2.MAVLink_command_ack_message(SET_MESSAGE_INTERVAL, result, 0, 0, 255, 190), system, component
    )
    assert manager.handle_message(ack) is True
    expected = CommandOutcome.ACCEPTED if result == 0 else CommandOutcome.REJECTED
    assert handle.outcome is expected
    entry = mavlink2.enums["MAV_RESULT"].get(result)
    assert handle.result_name == (entry.name if entry else f"MAV_RESULT_{result}")
    in_progress = manager.send(NullLink(), SET_MESSAGE_INTERVAL, (65, 0), system, component)
    ack = decoded(
        mavlink2.MAVLink_command_ack_message(SET_MESSAGE_INTERVAL, 5, 0, 0, 255, 190), system, component
    )
    assert manager.handle_message(ack) is False
    assert in_progress.outcome is CommandOutcome.PENDING

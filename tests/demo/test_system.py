# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""End-to-end behaviour of the embedded demo, seen through the real FlightController facade.

The demo's vehicle, relay and physics back end run on loopback sockets; the test connects with
FlightController, requests the RC streams the way the RC receiver check does, and reads every
message with non-blocking ``recv_msg()`` so nothing is discarded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.demo.system import DemoSystem, receiver_rssi
from amc_rc_receiver.plugins.rc_receiver.commands import CommandManager, CommandOutcome, PendingCommand
from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.protocols.ardupilot_json import decode_state
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import MAGIC_16, decode_servo_packet
from amc_rc_receiver.sim_bridge.snapshot import Direction
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

DEADLINE_S = 10.0
RC_BIT = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
SET_INTERVAL = mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL


class Poller:
    """Reads every message the way the data model does: non-blocking, each one shown to the command
    tracker, so waiting for one message never discards another."""

    def __init__(self, fc: FlightController) -> None:
        self.fc = fc
        self.commands = CommandManager()

    def request_rc_streams(self) -> list[PendingCommand]:
        """Ask for RC_CHANNELS and SYS_STATUS at 5 Hz, as the RC receiver check does."""
        system, component = self.fc.info.system_id_int, self.fc.info.component_id_int
        assert system is not None
        assert component is not None
        return [
            self.commands.send(self.fc.master, SET_INTERVAL, (message_id, 200_000), system, component)
            for message_id in (mavlink2.MAVLINK_MSG_ID_RC_CHANNELS, mavlink2.MAVLINK_MSG_ID_SYS_STATUS)
        ]

    def wait_for_message(self, predicate: Callable[[Any], bool], deadline_s: float = DEADLINE_S) -> Any:
        """The first message that matches ``predicate``; every message read is shown to the commands."""
        master = self.fc.master
        assert master is not None
        found: list[Any] = []

        def matched() -> bool:
            while (msg := master.recv_msg()) is not None:
                self.commands.handle_message(msg)
                if predicate(msg):
                    found.append(msg)
                    return True
            return False

        wait_for(matched, "the expected MAVLink message", deadline_s)
        return found[0]


def _channels(msg: Any) -> tuple[int, ...]:
    return tuple(getattr(msg, f"chan{i}_raw") for i in range(1, 9))


def _is_status(healthy: bool) -> Callable[[Any], bool]:
    def predicate(msg: Any) -> bool:
        return (
            msg.get_type() == "SYS_STATUS"
            and bool(msg.onboard_control_sensors_present & RC_BIT)
            and bool(msg.onboard_control_sensors_health & RC_BIT) == healthy
        )

    return predicate


def _is_rc(msg: Any) -> bool:
    return bool(msg.get_type() == "RC_CHANNELS")


@pytest.fixture
def demo() -> Iterator[DemoSystem]:
    with DemoSystem() as running:
        yield running


@pytest.fixture
def poller(demo: DemoSystem) -> Iterator[Poller]:
    """A FlightController connected to the demo, read through a Poller."""
    fc = FlightController()
    assert fc.connect(demo.device, timeout=DEADLINE_S) == ""
    try:
        yield Poller(fc)
    finally:
        fc.disconnect()


def test_the_demo_vehicle_is_found_and_accepts_the_rc_stream_requests(
    poller: Poller,
) -> None:
    """
    GIVEN a running demo system
    WHEN the FlightController connects to its device and requests RC_CHANNELS and SYS_STATUS
    THEN it identifies an ArduPilot quadrotor 1/1 and both requests are ACCEPTED.
    """
    fc = poller.fc
    assert fc.info.autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
    assert fc.info.vehicle_type == mavlink2.MAV_TYPE_QUADROTOR
    assert (fc.info.system_id_int, fc.info.component_id_int) == (1, 1)
    requests = poller.request_rc_streams()
    poller.wait_for_message(
        lambda _msg: all(request.outcome is not CommandOutcome.PENDING for request in requests)
    )
    assert [request.outcome for request in requests] == [CommandOutcome.ACCEPTED] * 2


def test_channels_move_while_the_transmitter_is_on(poller: Poller) -> None:
    """
    GIVEN a connected demo with the transmitter on
    WHEN RC_CHANNELS stream at 5 Hz
    THEN the receiver is present and healthy and CH1 takes at least three different values.
    """
    poller.request_rc_streams()
    poller.wait_for_message(_is_status(healthy=True))
    seen: set[int] = set()
    poller.wait_for_message(lambda msg: _is_rc(msg) and (seen.add(msg.chan1_raw) or len(seen) >= 3))
    assert all(1000 <= value <= 2000 for value in seen)


def test_transmitter_off_triggers_failsafe_with_frozen_channels_and_on_recovers(
    demo: DemoSystem, poller: Poller
) -> None:
    """
    GIVEN a connected demo with a healthy receiver
    WHEN the transmitter is switched off
    THEN the RC_RECEIVER health bit clears (present stays set) and RC_CHANNELS repeat the same values;
    AND WHEN it is switched on again THEN the receiver is healthy and the channels move again.
    """
    poller.request_rc_streams()
    poller.wait_for_message(_is_status(healthy=True))

    demo.set_transmitter_on(False)
    assert not demo.transmitter_on
    switched_off = time.monotonic()
    poller.wait_for_message(_is_status(healthy=False))
    failsafe_after_s = time.monotonic() - switched_off
    first = _channels(poller.wait_for_message(_is_rc))
    second = _channels(poller.wait_for_message(_is_rc))
    third = _channels(poller.wait_for_message(_is_rc))
    assert first == second == third
    assert first[0] != 0
    # A figure for the log, not a limit: machines are shared and noisy.
    print(f"health bit cleared {failsafe_after_s:.2f} s after the transmitter went off")

    demo.set_transmitter_on(True)
    assert demo.transmitter_on
    poller.wait_for_message(_is_status(healthy=True))
    poller.wait_for_message(lambda msg: _is_rc(msg) and _channels(msg) != first)


def test_the_relay_recorded_servo_packets_and_json_replies(demo: DemoSystem, poller: Poller) -> None:
    """
    GIVEN a running demo whose radio link goes through the relay
    WHEN the relay's capture ring is drained after RC has reached the vehicle
    THEN it holds 40-byte servo packets from the vehicle and JSON states with rc from the back end,
    AND a BridgeMonitor over the demo's relays counts traffic in both directions without errors.
    """
    poller.request_rc_streams()
    poller.wait_for_message(_is_status(healthy=True))
    (relay,) = demo.relays
    assert relay.config.protocol == "ardupilot-json"
    records = relay.drain(500)
    servo = [r for r in records if r.direction is Direction.FROM_PEER]
    replies = [r for r in records if r.direction is Direction.FROM_TARGET]
    assert servo
    assert replies
    assert all(decode_servo_packet(r.data).magic == MAGIC_16 for r in servo)
    assert any(decode_state(r.data).rc is not None for r in replies)
    assert relay.peer == demo.vehicle.servo_address

    monitor = BridgeMonitor(demo.relays)
    end = time.monotonic() + DEADLINE_S
    link = monitor.poll().links[0]
    while (link.from_peer.packets == 0 or link.from_target.packets == 0) and time.monotonic() < end:
        time.sleep(0.05)
        link = monitor.poll().links[0]
    assert link.from_peer.packets > 0
    assert link.from_target.packets > 0
    assert link.from_peer.decode_error_total == 0
    assert link.from_target.decode_error_total == 0


def test_stop_is_idempotent_and_closes_the_demo() -> None:
    """
    GIVEN a started demo system
    WHEN stop() is called twice
    THEN nothing fails and the relay is no longer running.
    """
    demo = DemoSystem(transmitter_on=False)
    demo.start()
    demo.start()
    assert demo.relays[0].running
    demo.stop()
    demo.stop()
    assert not demo.relays[0].running


def test_demo_rssi_is_in_the_upper_range_and_zero_without_transmitter() -> None:
    """GIVEN the demo receiver WHEN its RSSI is read over time THEN 0-254 with the transmitter, 0 without."""
    readings = [receiver_rssi(True, t / 10) for t in range(200)]
    assert all(170 <= value <= 210 for value in readings)
    assert len(set(readings)) > 5
    assert receiver_rssi(False, 3.0) == 0

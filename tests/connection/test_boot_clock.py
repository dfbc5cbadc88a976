# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A reboot is a vehicle that stays rebooted: the boot clock's rules, and two clocks on one link.

Two vehicles with the same system id on one link (a second board on the radio, a SITL left
running) give the check two ``time_boot_ms`` clocks that take turns.  Each turn looks like a
reboot to a rule that believes one message, and the check would reconnect, and start a new test,
several times a second.  The pure tests drive `BootClock` on a hand-moved clock; the loopback tests
send real pymavlink messages over loopback UDP and TCP to the real facade and link follower, with
the link's clock moved by the test (12 s of the vehicles' time pass in a fraction of a second).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.connection.opening import CLOCK_CONFLICT_SWITCHES, BootClock
from amc_rc_receiver.standalone.link_follower import LinkFollower
from amc_rc_receiver.standalone.link_watch import RestartWatch
from tests.plugins.data_model_rc_receiver_harness import DEADLINE_S, encode

HEARTBEAT = mavlink2.MAVLink_heartbeat_message(
    mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, mavlink2.MAV_STATE_STANDBY, 3
)
# Each vehicle sends its RC_CHANNELS at 5 Hz, as the check asks; the two interleave.
PERIOD_S = 0.2
ALTERNATING_FOR_S = 12.0


def rc_channels(boot_ms: int) -> mavlink2.MAVLink_rc_channels_message:
    return mavlink2.MAVLink_rc_channels_message(boot_ms, 8, *([1500] * 18), 200)


def stamped(message: Any, system: int = 1, component: int = 1) -> Any:
    """``message`` as it comes out of the parser: with its sender's ids."""
    return mavlink2.MAVLink(None).parse_char(encode(message, system, component))


def alternating_clocks(seconds: float) -> Iterator[tuple[float, int]]:
    """(local time, time_boot_ms) of two vehicles, one up 90 s and one just booted, taking turns."""
    steps = int(seconds / PERIOD_S)
    for step in range(steps):
        at = step * PERIOD_S
        yield at, 90_000 + int(at * 1000)
        yield at + PERIOD_S / 2, 3_000 + int(at * 1000)


@pytest.mark.pure
def test_two_clocks_taking_turns_for_12_s_are_no_restart_but_two_vehicles_named_once() -> None:
    """GIVEN the vehicle's ids WHEN two clocks (90 s and 3 s since boot) take turns for 12 s
    THEN the boot clock never says restarted, and says conflict from the third turn on."""
    now = [0.0]
    clock = BootClock(clock=lambda: now[0])
    clock.vehicle = (1, 1)
    for turns, (at, boot_ms) in enumerate(alternating_clocks(ALTERNATING_FOR_S), start=1):
        now[0] = at
        clock.observe(stamped(rc_channels(boot_ms)))
        assert not clock.restarted
        assert clock.conflict == (turns >= 2 * CLOCK_CONFLICT_SWITCHES + 1)


@pytest.mark.pure
def test_a_vehicle_that_falls_silent_and_comes_back_on_a_new_clock_restarted_at_once() -> None:
    """GIVEN a vehicle 90 s after boot WHEN it says nothing for 1.5 s (it boots) and then sends
    time_boot_ms 800 THEN that one message is the restart."""
    now = [0.0]
    clock = BootClock(clock=lambda: now[0])
    clock.vehicle = (1, 1)
    clock.observe(stamped(rc_channels(90_000)))
    now[0] = 1.5
    clock.observe(stamped(rc_channels(800)))
    assert clock.restarted


def _streams_stop_for(seconds: float, last_ms: int, back_ms: int) -> BootClock:
    """A vehicle's stamped stream up to ``last_ms`` of its clock, then only its HEARTBEATs (once
    a second) for ``seconds``, then a stamped message at ``back_ms``."""
    now = [0.0]
    clock = BootClock(clock=lambda: now[0])
    clock.vehicle = (1, 1)
    for step in range(5):
        now[0] = step * 0.2
        clock.observe(stamped(rc_channels(last_ms - 800 + step * 200)))
    start = now[0]
    while now[0] < start + seconds:
        now[0] = round(now[0] + 1.0, 6)
        clock.observe(stamped(HEARTBEAT))
    now[0] = start + seconds
    clock.observe(stamped(rc_channels(back_ms)))
    return clock


@pytest.mark.pure
@pytest.mark.parametrize(
    ("back_ms", "restarted"),
    [(2_500, True), (3_400, True), (3_500, False), (3_600, False), (3_500 + 5_000, False)],
)
def test_a_clock_that_comes_back_below_where_its_streams_stopped_restarted(
    back_ms: int, restarted: bool
) -> None:
    """
    GIVEN a vehicle 3.5 s after its boot (a second reboot soon after the first), whose stamped
          streams stop while its HEARTBEATs go on (rebooted behind a link that stays up, it sends
          its streams at 0 Hz until they are asked for again)
    WHEN 5 s later a stamped message comes at 2.5 s or 3.4 s of its clock (below where it stopped,
         though by less than the 2 s a clock must go back otherwise: a new boot), or at 3.5 s or
         3.6 s (a SITL that stalled on a loaded machine and goes on where it stopped), or at 8.5 s
         (a vehicle that ran on in real time)
    THEN the first two are a restart at once and the others are not
    """
    assert _streams_stop_for(5.0, 3_500, back_ms).restarted is restarted


@pytest.mark.pure
def test_a_new_clock_while_the_old_one_was_heard_a_moment_ago_must_hold_before_it_counts() -> None:
    """GIVEN a vehicle heard on its old clock WHEN five messages on a new clock come within half a
    second THEN no restart yet; WHEN the new clock still holds a second after the old was heard
    THEN restarted."""
    now = [0.0]
    clock = BootClock(clock=lambda: now[0])
    clock.vehicle = (1, 1)
    clock.observe(stamped(rc_channels(90_000)))
    for step in range(5):
        now[0] = 0.1 * (step + 1)
        clock.observe(stamped(rc_channels(500 + 100 * step)))
    assert not clock.restarted
    now[0] = 1.1
    clock.observe(stamped(rc_channels(1_600)))
    assert clock.restarted


class _Session:
    """What the link follower needs of a session, around a real facade."""

    def __init__(self, flight_controller: FlightController) -> None:
        self.flight_controller = flight_controller
        self.kept: list[Any] = []
        self.connects: list[str] = []

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        self.connects.append(device)
        return self.flight_controller.connect(device, baudrate=baudrate, timeout=timeout)

    def keep_test_before_reconnect(self, state: Any) -> None:
        self.kept.append(state)


def _free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# The device connected to, how the vehicle sends, and how it is closed.
Vehicle = tuple[str, Callable[[bytes], Any], Callable[[], None]]


def _connected_udp(flight_controller: FlightController) -> Vehicle:
    port = _free_port(socket.SOCK_DGRAM)
    device = f"udpin:127.0.0.1:{port}"
    vehicle = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    vehicle.bind(("127.0.0.1", 0))
    result: list[str] = []
    connecting = threading.Thread(
        target=lambda: result.append(flight_controller.connect(device, timeout=DEADLINE_S))
    )
    connecting.start()
    while connecting.is_alive():  # heartbeats until the check has found the vehicle
        vehicle.sendto(encode(HEARTBEAT, 1, 1), ("127.0.0.1", port))
        connecting.join(0.05)
    assert result == [""]
    return device, lambda data: vehicle.sendto(data, ("127.0.0.1", port)), vehicle.close


def _connected_tcp(flight_controller: FlightController) -> Vehicle:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    device = f"tcp:127.0.0.1:{listener.getsockname()[1]}"
    result: list[str] = []
    connecting = threading.Thread(
        target=lambda: result.append(flight_controller.connect(device, timeout=DEADLINE_S))
    )
    connecting.start()
    listener.settimeout(DEADLINE_S)
    vehicle, _address = listener.accept()
    listener.close()
    while connecting.is_alive():
        vehicle.sendall(encode(HEARTBEAT, 1, 1))
        connecting.join(0.05)
    assert result == [""]
    return device, vehicle.sendall, vehicle.close


@pytest.mark.loopback
@pytest.mark.parametrize("link", ["udp", "tcp"])
def test_a_link_with_two_alternating_boot_clocks_for_12_s_gives_one_notice_and_no_reconnect(
    link: str,
) -> None:
    """GIVEN the check connected over loopback UDP or TCP to a vehicle, followed by the link follower
    WHEN two vehicles with system id 1 alternate their clocks (90 s and 3 s since boot) for 12 s
    THEN the follower never reconnects nor keeps a test, and says once that two vehicles may share
    system id 1; the link stays connected."""
    now = [0.0]
    flight_controller = FlightController(link_clock=lambda: now[0])
    device, send, close_vehicle = (_connected_udp if link == "udp" else _connected_tcp)(flight_controller)
    session = _Session(flight_controller)
    watch = RestartWatch(flight_controller, device)
    follower = LinkFollower(session, watch, baudrate=115200, timeout=DEADLINE_S)
    master = flight_controller.master
    assert master is not None
    said: list[str] = []
    try:
        for at, boot_ms in alternating_clocks(ALTERNATING_FOR_S):
            send(encode(rc_channels(boot_ms), 1, 1))
            deadline = time.monotonic() + DEADLINE_S
            while True:  # each message is read before the next is sent: the event, not a sleep
                message = master.recv_msg()
                if message is not None and message.get_type() == "RC_CHANNELS":
                    break
                assert time.monotonic() < deadline, "the vehicle's message never arrived"
                master.select(0.05)
            assert message.time_boot_ms == boot_ms
            now[0] = at
            said += follower.poll()
        assert session.connects == []
        assert session.kept == []
        assert not follower.reconnecting
        assert flight_controller.is_connected
        assert said == [
            "Two boot clocks take turns on this link: two vehicles with system id 1? The check stays "
            "connected; give each vehicle its own SYSID_THISMAV."
        ]
    finally:
        follower.close()
        flight_controller.disconnect()
        close_vehicle()


@pytest.mark.loopback
def test_a_udp_vehicle_that_reboots_and_stays_rebooted_is_reconnected_once() -> None:
    """GIVEN the check on udpin, followed by the link follower WHEN the vehicle's clock starts again
    and holds for a second (the link's clock) THEN the follower says the flight controller restarted
    and reconnects, once."""
    now = [0.0]
    flight_controller = FlightController(link_clock=lambda: now[0])
    device, send, close_vehicle = _connected_udp(flight_controller)
    session = _Session(flight_controller)
    follower = LinkFollower(session, RestartWatch(flight_controller, device), baudrate=115200, timeout=0.2)
    master = flight_controller.master
    assert master is not None
    said: list[str] = []
    try:
        for step, boot_ms in enumerate([60_000, 60_200] + [500 + 200 * n for n in range(8)]):
            send(encode(rc_channels(boot_ms), 1, 1))
            deadline = time.monotonic() + DEADLINE_S
            while (message := master.recv_msg()) is None or message.get_type() != "RC_CHANNELS":
                assert time.monotonic() < deadline, "the vehicle's message never arrived"
                master.select(0.05)
            now[0] = 0.2 * step
            said += follower.poll()
            if said:
                break
        assert said == [
            f"The flight controller restarted: its clock started again. Reconnecting to {device}…"
        ]
        assert step >= 2 + 4, "the new clock counted before it held"
    finally:
        follower.close()
        flight_controller.disconnect()
        close_vehicle()

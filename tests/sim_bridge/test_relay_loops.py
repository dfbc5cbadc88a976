# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Relays on real loopback sockets that get back what they forwarded: two relays feeding each
other, simulators that echo; and each protocol's own repetitions, which must pass untouched.

Every socket binds 127.0.0.1.  Waits poll for the counts to settle; nothing asserts how long
anything took.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator

import pytest

from amc_rc_receiver.demo.physics_backend import FrameStepper
from amc_rc_receiver.sim_bridge.loop_guard import DEFAULT_RETURNS_TO_CUT
from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_addresses import format_address
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.sim_bridge.snapshot import LoopCounts
from tests.support.udp import LOOPBACK, MAX_DATAGRAM, address_of, free_udp_port, receive
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

# The acceptance bound: a loop is cut before this many datagrams have gone round.
MAX_LOOPED = 100
SERVO = struct.Struct("<HHI16H")


def feeding_each_other(relays: Callable[..., UdpRelay], protocol: str) -> tuple[UdpRelay, UdpRelay]:
    """Relay a sends to b's listen port and b to a's: the issue's two bridges, built directly."""
    port_b = free_udp_port()
    a = relays(RelayConfig("a", protocol=protocol, target=(LOOPBACK, port_b), relearn_after_s=2.0))
    b = relays(RelayConfig("b", protocol=protocol, listen=(LOOPBACK, port_b), target=a.listen_address))
    return a, b


def settled(a: UdpRelay, b: UdpRelay, injected: int) -> bool:
    """Nothing is in flight between the two: each has received all the other forwarded."""
    ca, cb = a.counters(), b.counters()
    return ca.received_from_peer == cb.forwarded_from_peer + injected and (
        cb.received_from_peer == ca.forwarded_from_peer
    )


@pytest.mark.parametrize("protocol", ["ardupilot-json", "rflysim", "xrp"])
def test_two_relays_feeding_each_other_cut_the_loop_within_a_few_rounds_and_name_it(
    sockets, relays, protocol: str
) -> None:
    """GIVEN two relays, each sending to the other's listen port (the issue: 7,700 datagrams/s
    for ever) WHEN one datagram that names no peer arrives
    THEN it goes round a few times, the relay it first came to holds it back, names where it came
    back from and where it had sent it, and fewer than 100 datagrams went round in all."""
    a, b = feeding_each_other(relays, protocol)
    sockets().sendto(b"hello", a.listen_address)

    wait_for(lambda: a.counters().loop.loops_cut == 1, "the loop cut")
    wait_for(lambda: settled(a, b, injected=1), "nothing in flight")

    ca, cb = a.counters(), b.counters()
    assert ca.forwarded_from_peer + cb.forwarded_from_peer <= MAX_LOOPED
    assert ca.loop == LoopCounts(
        returned=DEFAULT_RETURNS_TO_CUT,
        held_back=1,
        loops_cut=1,
        came_back_from=format_address(b.outbound_address),
        sent_to=format_address(b.listen_address),
    )
    assert cb.loop == LoopCounts()


def test_a_cut_loop_leaves_the_relay_forwarding_what_its_sender_sends_next(sockets, relays) -> None:
    """GIVEN two relays feeding each other whose loop was cut
    WHEN the sender goes on with other datagrams, and then with servo packets that name it the peer
    THEN each new datagram is forwarded, a new loop is held at its first return, and once the peer
    is learned the other relay's copies are dropped as a stranger's."""
    a, b = feeding_each_other(relays, "ardupilot-json")
    sender = sockets()
    sender.sendto(b"hello", a.listen_address)
    wait_for(lambda: a.counters().loop.loops_cut == 1, "the loop cut")

    sender.sendto(b"again", a.listen_address)
    wait_for(lambda: a.counters().loop.held_back == 2, "the second loop held at once")
    sender.sendto(SERVO.pack(18458, 400, 1, *([1500] * 16)), a.listen_address)
    wait_for(lambda: a.counters().unexpected_senders == 1, "the copy from b dropped")
    wait_for(lambda: settled(a, b, injected=3), "nothing in flight")

    counters = a.counters()
    assert a.peer == address_of(sender)
    assert counters.loop.loops_cut == 1
    assert counters.forwarded_from_peer == DEFAULT_RETURNS_TO_CUT + 2


@pytest.fixture
def echoing_simulator() -> Iterator[Callable[[socket.socket, socket.socket, tuple[str, int]], None]]:
    """A simulator that sends every datagram it receives on one socket, from another (or the same),
    to a fixed address: started on demand, in its own thread, stopped after the test."""
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def run(inbound: socket.socket, outbound: socket.socket, destination: tuple[str, int]) -> None:
        while not stop.is_set():
            try:
                data = inbound.recv(MAX_DATAGRAM)
            except TimeoutError:
                continue
            except OSError:
                return
            outbound.sendto(data, destination)

    def start(inbound: socket.socket, outbound: socket.socket, destination: tuple[str, int]) -> None:
        thread = threading.Thread(target=run, args=(inbound, outbound, destination), daemon=True)
        threads.append(thread)
        thread.start()

    yield start
    stop.set()
    for thread in threads:
        thread.join(5.0)


def test_a_simulator_that_sends_back_from_the_target_address_is_cut(
    sockets, relays, echoing_simulator
) -> None:
    """GIVEN a relay whose target sends every datagram it gets to the relay's listen port, from the
    very address the relay forwards to WHEN one datagram starts it THEN the echo is cut, named."""
    echo = sockets()
    relay = relays(RelayConfig("echo", protocol="rflysim", target=address_of(echo)))
    echoing_simulator(echo, echo, relay.listen_address)
    sockets().sendto(b"start", relay.listen_address)

    wait_for(lambda: relay.counters().loop.held_back >= 1, "the echo held back")
    loop = relay.counters().loop
    assert loop.loops_cut == 1
    assert loop.came_back_from == format_address(address_of(echo))
    assert relay.counters().forwarded_from_peer <= DEFAULT_RETURNS_TO_CUT


def test_a_simulator_that_echoes_from_another_socket_is_cut(sockets, relays, echoing_simulator) -> None:
    """GIVEN a relay whose target echoes every datagram to the listen port from a second socket of
    its own WHEN a client's datagram starts it THEN the loop is cut, naming that second socket."""
    inbound, outbound = sockets(), sockets()
    relay = relays(RelayConfig("echo", protocol="xrp", target=address_of(inbound)))
    echoing_simulator(inbound, outbound, relay.listen_address)
    sockets().sendto(b"\x00", relay.listen_address)

    wait_for(lambda: relay.counters().loop.held_back >= 1, "the echo held back")
    assert relay.counters().loop.came_back_from == format_address(address_of(outbound))
    assert relay.counters().forwarded_from_peer <= DEFAULT_RETURNS_TO_CUT


def test_the_monitor_shows_the_cut_loop_in_the_links_snapshot(sockets, relays) -> None:
    """GIVEN two relays whose loop was cut WHEN the monitor polls
    THEN the link of the relay that cut it carries the loop, the other's none."""
    a, b = feeding_each_other(relays, "ardupilot-json")
    sockets().sendto(b"hello", b.listen_address)
    wait_for(lambda: b.counters().loop.loops_cut == 1, "the loop cut")

    snapshot = BridgeMonitor([a, b]).poll()
    loops = {link.name: link.loop for link in snapshot.links}
    assert loops["b"].loops_cut == 1
    assert loops["b"].came_back_from == format_address(a.outbound_address)
    assert loops["a"] == LoopCounts()


# --------------------------------------------------------------------------- real traffic passes


def answer_like_sitls_physics(target: socket.socket, stepper: FrameStepper) -> Callable[[], None]:
    """The JSON back end's way: reply to each servo packet's sender, the cached reply to a repeat."""

    def answer() -> None:
        data, source = receive(target)
        reply = stepper.handle(data)
        if reply is not None:
            target.sendto(reply, source)

    return answer


def test_sitl_json_with_resends_and_repeated_replies_passes_untouched(sockets, relays) -> None:
    """GIVEN SITL's side and a physics back end behind a relay
    WHEN SITL steps 400 frames, then resends one frame unanswered (as it does every ~1.1 s) and
    again at once (a rejected reply), each time answered with the same cached reply
    THEN every datagram is forwarded both ways and nothing counts as coming back."""
    sitl, physics = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(physics)))
    answer = answer_like_sitls_physics(physics, FrameStepper())
    frames = [SERVO.pack(18458, 400, count, *([1500 + count % 100] * 16)) for count in range(400)]
    frames += [frames[-1]] * 20
    for frame in frames:
        sitl.sendto(frame, relay.listen_address)
        answer()
        receive(sitl)

    wait_for(lambda: relay.counters().forwarded_from_target == len(frames), "every reply forwarded")
    counters = relay.counters()
    assert counters.forwarded_from_peer == counters.received_from_peer == len(frames)
    assert counters.loop == LoopCounts()


def test_rflysim_sil_packets_that_do_not_change_pass_untouched(sockets, relays) -> None:
    """GIVEN RflySim's client sending the same PX4SILIntFloat (controls unchanged) to CopterSim
    through a relay WHEN 500 identical 120-byte packets pass THEN all reach CopterSim."""
    client, coptersim = sockets(), sockets()
    relay = relays(RelayConfig("rfly", protocol="rflysim", target=address_of(coptersim)))
    packet = struct.pack("<10i20f", 1234567897, 1, 3, 0, 0, 0, 0, 0, 401541234, 1162591234, *([0.5] * 20))
    for _index in range(500):
        client.sendto(packet, relay.listen_address)
        assert receive(coptersim)[0] == packet

    wait_for(lambda: relay.counters().forwarded_from_peer == 500, "every packet counted")
    assert relay.counters().loop == LoopCounts()


def test_xrp_between_wpilib_and_the_robot_passes_untouched_with_repeated_datagrams(sockets, relays) -> None:
    """GIVEN WPILib and an XRP robot that answers from its one port (3540's role), through a relay
    WHEN WPILib sends each datagram twice and the robot answers each with the same datagram
    THEN every datagram is forwarded both ways and nothing counts as coming back."""
    wpilib, robot = sockets(), sockets()
    relay = relays(RelayConfig("xrp", protocol="xrp", target=address_of(robot)))
    for sequence in range(1, 151):
        command = struct.pack(">HB", sequence, 1) + b"\x06\x12\x00" + struct.pack(">f", 0.25)
        state = struct.pack(">HB", sequence, 0) + b"\x03\x14\x00\x01"
        for _copy in range(2):
            wpilib.sendto(command, relay.listen_address)
            _data, via = receive(robot)
            robot.sendto(state, via)
            assert receive(wpilib)[0] == state

    wait_for(lambda: relay.counters().forwarded_from_target == 300, "every answer forwarded")
    counters = relay.counters()
    assert counters.forwarded_from_peer == 300
    assert counters.loop == LoopCounts()

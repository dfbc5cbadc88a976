# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""VehicleSession wiring: user bridges, the demo switch and teardown, on real UDP sockets."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from amc_rc_receiver.demo.system import DEMO_RELAY_NAME
from amc_rc_receiver.net import host_port
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import encode_servo_packet
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.snapshot import FrameField
from amc_rc_receiver.sim_bridge.spec import parse_bridge_spec
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.udp import DEADLINE_S, free_udp_port, udp_socket
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback


def test_a_user_bridge_relays_and_is_monitored() -> None:
    """GIVEN a session with an ardupilot-json bridge to a local target
    WHEN a servo packet is sent to the bridge's listen port
    THEN the target receives it and the monitor counts it on that link with no decode error."""
    target = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    target.bind(("127.0.0.1", 0))
    target.settimeout(10)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    session = VehicleSession()
    try:
        spec = parse_bridge_spec(f"ardupilot-json,127.0.0.1:0,127.0.0.1:{target.getsockname()[1]}")
        assert session.add_bridge(spec) == ""
        (relay,) = session.relays
        packet = encode_servo_packet(50, 7, [1500] * 16)
        sender.sendto(packet, relay.listen_address)
        data, _address = target.recvfrom(2048)
        assert data == packet
        deadline = time.monotonic() + 10
        snapshot = session.monitor.poll()
        while snapshot.links[0].from_peer.packets == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
            snapshot = session.monitor.poll()
        link = snapshot.links[0]
        assert link.protocol == "ardupilot-json"
        assert link.from_peer.decode_error_total == 0
        assert relay.config.relearn_after_s is not None
    finally:
        session.close()
        target.close()
        sender.close()
    assert session.relays == ()


def test_a_bridge_on_a_taken_port_gives_a_readable_error() -> None:
    """GIVEN a port already bound by another socket WHEN a bridge listens there THEN an error names it."""
    taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    taken.bind(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    session = VehicleSession()
    try:
        error = session.add_bridge(parse_bridge_spec(f"xrp,127.0.0.1:{port}"))
        assert f"127.0.0.1:{port}" in error
        # Said once, in our words: the address and the reason, no errno.
        assert error.count(f"127.0.0.1:{port}") == 1
        assert error.count("listen") == 1
        assert "[Errno" not in error
        assert session.relays == ()
    finally:
        session.close()
        taken.close()


def test_the_transmitter_switch_needs_the_demo() -> None:
    """GIVEN a session without the demo WHEN the transmitter is switched THEN a sentence says why not."""
    session = VehicleSession()
    try:
        assert "simulated vehicle" in session.set_transmitter_on(False)
    finally:
        session.close()


def test_closing_twice_is_harmless() -> None:
    """GIVEN a running demo session WHEN it is closed twice THEN nothing raises and the demo is gone."""
    session = VehicleSession()
    assert session.start_demo() == ""
    session.close()
    session.close()
    assert session.demo is None


# --------------------------------------------------------------------------- bridges and the demo together


def _servo_to(relay: UdpRelay, sender: socket.socket, frame_count: int) -> None:
    sender.sendto(encode_servo_packet(50, frame_count, [1500] * 16), relay.listen_address)


def test_starting_the_demo_keeps_the_statistics_of_a_running_bridge() -> None:
    """GIVEN a session whose listen-only bridge has counted 3 servo packets
    WHEN the embedded demo starts and later stops
    THEN the bridge's link still shows its 3 packets and its last frame, beside the demo's link."""
    sender = udp_socket()
    session = VehicleSession()
    try:
        assert session.add_bridge(parse_bridge_spec("ardupilot-json,127.0.0.1:0")) == ""
        (bridge,) = session.relays
        for frame in (1, 2, 3):
            _servo_to(bridge, sender, frame)

        def third_frame_shown() -> bool:
            frame = session.monitor.poll().links[0].from_peer.last_frame
            return frame is not None and (FrameField.FRAME_COUNT, 3) in frame.fields

        wait_for(third_frame_shown, "the third frame shown")
        before = session.monitor.poll().links[0].from_peer

        assert session.start_demo() == ""
        with_demo = session.monitor.poll()
        session.stop_demo()
        after = session.monitor.poll()
    finally:
        session.close()
        sender.close()

    assert sorted(link.name for link in with_demo.links) == sorted([bridge.config.name, DEMO_RELAY_NAME])
    kept = next(link for link in with_demo.links if link.name == bridge.config.name).from_peer
    assert (kept.packets, kept.last_frame) == (3, before.last_frame)
    assert [link.name for link in after.links] == [bridge.config.name]
    assert (after.links[0].from_peer.packets, after.links[0].from_peer.last_frame) == (3, before.last_frame)


class WatchedLock:
    """The session's lock, saying when a thread has to wait for it."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.waited = threading.Event()

    def __enter__(self) -> WatchedLock:
        if not self._lock.acquire(blocking=False):
            self.waited.set()
            self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def test_a_bridge_added_while_the_demo_starts_on_another_thread_never_vanishes() -> None:
    """GIVEN the demo starting on a worker thread (as the window's connect does)
    WHEN a bridge is added on the main thread just while the worker sets up the session's monitor
    THEN the monitor ends up with both the demo's link and the bridge's.

    The session's clock (the one thing a test may script) holds the worker at its first reading,
    which is where a monitor is being built, until the bridge has been added or the main thread
    waits for the session's lock to add it: the interleaving that made a --bridge vanish from the
    panel, made certain instead of left to chance, and over as soon as one of the two happened.
    """
    worker_reads_clock = threading.Event()
    bridge_added = threading.Event()
    lock = WatchedLock()
    worker: list[threading.Thread] = []

    def clock() -> float:
        if worker and threading.current_thread() is worker[0] and not worker_reads_clock.is_set():
            worker_reads_clock.set()
            deadline = time.monotonic() + DEADLINE_S
            while not (bridge_added.wait(0.005) or lock.waited.is_set()) and time.monotonic() < deadline:
                pass
        return time.monotonic()

    session = VehicleSession(clock=clock)
    session._relays_lock = lock  # type: ignore[assignment]  # instrumented, not replaced in kind
    errors: list[str] = []
    worker.append(threading.Thread(target=lambda: errors.append(session.start_demo())))
    try:
        worker[0].start()
        while not worker_reads_clock.wait(0.01) and worker[0].is_alive():
            pass
        assert session.add_bridge(parse_bridge_spec("xrp,127.0.0.1:0")) == ""
        bridge_name = next(relay.config.name for relay in session.relays if relay.config.protocol == "xrp")
        bridge_added.set()
        worker[0].join(DEADLINE_S)
        names = sorted(link.name for link in session.monitor.poll().links)
    finally:
        bridge_added.set()
        session.close()

    assert errors == [""]
    assert names == sorted([bridge_name, DEMO_RELAY_NAME])


def test_a_bridge_on_port_0_is_named_by_the_port_it_got() -> None:
    """GIVEN --bridge auto,127.0.0.1:0 WHEN started THEN its name and listen address show the bound port."""
    session = VehicleSession()
    try:
        assert session.add_bridge(parse_bridge_spec("auto,127.0.0.1:0")) == ""
        (relay,) = session.relays
        port = relay.listen_address[1]
        assert port != 0
        (link,) = session.monitor.poll().links
        assert link.name == f"auto 127.0.0.1:{port}"
        assert link.listen == f"127.0.0.1:{port}"
    finally:
        session.close()


def test_a_bridge_on_the_loopback_says_nothing_about_the_network() -> None:
    """GIVEN a bridge on 127.0.0.1 WHEN started THEN there is no notice to show."""
    session = VehicleSession()
    try:
        assert session.add_bridge(parse_bridge_spec("auto,127.0.0.1:0")) == ""
        assert session.take_notices() == []
    finally:
        session.close()


def test_a_bridge_beyond_the_loopback_is_announced_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """GIVEN a bridge whose listen address counts as a network address (127.0.0.2 made to stand for
         one, as tests bind only on loopback)
    WHEN it starts and the notices are taken twice
    THEN the first time one sentence names the bridge's address and says the network can reach it;
         the second time there is nothing
    """
    monkeypatch.setattr(host_port, "is_loopback_host", lambda host: host != "127.0.0.2")
    session = VehicleSession()
    try:
        assert session.add_bridge(parse_bridge_spec("xrp,127.0.0.2:0")) == ""
        (relay,) = session.relays
        (notice,) = session.take_notices()
        assert f"127.0.0.2:{relay.listen_address[1]}" in notice
        assert "other computers on the network can reach it" in notice
        assert session.take_notices() == []
    finally:
        session.close()


def test_a_bridge_that_closes_a_circle_with_a_running_one_is_refused_naming_both() -> None:
    """GIVEN a running bridge on a port the system chose, sending to port P
    WHEN a second bridge would listen on P and send to the port the first one got
    THEN it is refused before it opens a socket, with a sentence naming both bridges, and a
    bridge that only extends the chain is started."""
    session = VehicleSession()
    port = free_udp_port()
    try:
        assert session.add_bridge(parse_bridge_spec(f"ardupilot-json,127.0.0.1:0,127.0.0.1:{port}")) == ""
        (first,) = session.relays
        closing = parse_bridge_spec(f"ardupilot-json,127.0.0.1:{port},127.0.0.1:{first.listen_address[1]}")

        error = session.add_bridge(closing)

        assert first.config.name in error
        assert closing.name in error
        assert "circle" in error
        assert session.relays == (first,)
        assert session.add_bridge(parse_bridge_spec(f"ardupilot-json,127.0.0.1:{port},127.0.0.1:9")) == ""
        assert len(session.relays) == 2
    finally:
        session.close()

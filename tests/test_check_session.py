# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""CheckSession wiring: user bridges, the demo switch and teardown, on real UDP sockets."""

from __future__ import annotations

import socket
import time

from amc_rc_receiver.bridge_spec import parse_bridge_spec
from amc_rc_receiver.check_session import CheckSession, demo_receiver_rssi
from amc_rc_receiver.sim_bridge.ardupilot_json import encode_servo_packet


def test_a_user_bridge_relays_and_is_monitored() -> None:
    """GIVEN a session with an ardupilot-json bridge to a local target
    WHEN a servo packet is sent to the bridge's listen port
    THEN the target receives it and the monitor counts it on that link with no decode error."""
    target = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    target.bind(("127.0.0.1", 0))
    target.settimeout(10)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    session = CheckSession()
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
    session = CheckSession()
    try:
        error = session.add_bridge(parse_bridge_spec(f"xrp,127.0.0.1:{port}"))
        assert f"127.0.0.1:{port}" in error
        assert session.relays == ()
    finally:
        session.close()
        taken.close()


def test_the_transmitter_switch_needs_the_demo() -> None:
    """GIVEN a session without the demo WHEN the transmitter is switched THEN a sentence says why not."""
    session = CheckSession()
    try:
        assert "simulated vehicle" in session.set_transmitter_on(False)
    finally:
        session.close()


def test_demo_rssi_is_in_the_upper_range_and_zero_without_transmitter() -> None:
    """GIVEN the demo receiver WHEN its RSSI is read over time THEN 0-254 with the transmitter, 0 without."""
    readings = [demo_receiver_rssi(True, t / 10) for t in range(200)]
    assert all(170 <= value <= 210 for value in readings)
    assert len(set(readings)) > 5
    assert demo_receiver_rssi(False, 3.0) == 0


def test_closing_twice_is_harmless() -> None:
    """GIVEN a running demo session WHEN it is closed twice THEN nothing raises and the demo is gone."""
    session = CheckSession()
    assert session.start_demo() == ""
    session.close()
    session.close()
    assert session.demo is None

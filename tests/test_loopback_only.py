# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Nothing a session opens is reachable from the network: every socket is bound to the loopback.

The sockets are found the way `ss -p` finds them, not through the objects that made them: each
of this process's file descriptors that is a socket has an inode, and /proc/self/net lists the
local address of every IP socket by inode.  A socket that a part opens behind our back (a
library, a forgotten outbound socket) is therefore seen too.  Sockets that existed before the
session started are ignored, so the rest of the test run does not matter.
"""

from __future__ import annotations

import os
import socket
import struct
import sys
from pathlib import Path

import pytest

from amc_rc_receiver.sim_bridge.spec import parse_bridge_spec
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.udp import DEADLINE_S, LOOPBACK, address_of, receive, udp_socket
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lists sockets through Linux's /proc"),
]

_TABLES = {"udp": socket.AF_INET, "udp6": socket.AF_INET6, "tcp": socket.AF_INET, "tcp6": socket.AF_INET6}


def _decode_address(text: str, family: socket.AddressFamily) -> tuple[str, int]:
    """/proc/net prints each 32-bit word of the address in host byte order, then the port in hex."""
    host_hex, port_hex = text.split(":")
    words = [int(host_hex[index : index + 8], 16) for index in range(0, len(host_hex), 8)]
    packed = b"".join(struct.pack("=I", word) for word in words)
    return socket.inet_ntop(family, packed), int(port_hex, 16)


def open_ip_sockets() -> dict[int, tuple[str, str, int]]:
    """inode -> (table, local host, local port) of every IP socket this process holds open."""
    inodes = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:[") : -1]))
    found: dict[int, tuple[str, str, int]] = {}
    for table, family in _TABLES.items():
        path = Path("/proc/self/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            inode = int(fields[9])
            if inode in inodes:
                host, port = _decode_address(fields[1], family)
                found[inode] = (table, host, port)
    return found


def opened_since(before: set[int]) -> list[tuple[str, str, int]]:
    """(table, host, port) of every IP socket open now that was not open in ``before``."""
    return sorted(entry for inode, entry in open_ip_sockets().items() if inode not in before)


def test_a_demo_session_binds_every_simulator_socket_to_the_loopback() -> None:
    """GIVEN a fresh session WHEN the embedded demo starts (vehicle, relay, physics back end)
    THEN every socket it opened is bound to 127.0.0.1, including the relay's outbound one."""
    before = set(open_ip_sockets())
    session = VehicleSession()
    try:
        assert session.start_demo() == ""
        opened = opened_since(before)
    finally:
        session.close()

    assert len(opened) >= 4, opened  # vehicle MAVLink + servo, relay listen + outbound, back end
    assert [host for _table, host, _port in opened] == [LOOPBACK] * len(opened), opened


def test_a_connected_demo_session_binds_its_mavlink_socket_to_the_loopback_too() -> None:
    """GIVEN a fresh session WHEN it connects to the embedded demo vehicle
    THEN every socket it opened, the MAVLink link's included, is bound to 127.0.0.1."""
    before = set(open_ip_sockets())
    session = VehicleSession()
    try:
        assert session.connect(DEMO_DEVICE, timeout=DEADLINE_S) == ""
        opened = opened_since(before)
    finally:
        session.close()

    assert len(opened) >= 5, opened
    assert [host for _table, host, _port in opened] == [LOOPBACK] * len(opened), opened


def test_a_bridge_session_binds_its_listen_and_outbound_sockets_to_the_loopback() -> None:
    """GIVEN a fresh session WHEN a --bridge to a loopback target starts and relays a datagram
    THEN both of its sockets are bound to 127.0.0.1 and nothing else was opened."""
    target, sender = udp_socket(), udp_socket()
    before = set(open_ip_sockets())
    session = VehicleSession()
    try:
        spec = parse_bridge_spec(f"ardupilot-json,127.0.0.1:0,127.0.0.1:{address_of(target)[1]}")
        assert session.add_bridge(spec) == ""
        (relay,) = session.relays
        sender.sendto(b"hello", relay.listen_address)
        receive(target)
        wait_for(lambda: relay.counters().forwarded_from_peer == 1, "the datagram relayed")
        opened = opened_since(before)
    finally:
        session.close()
        target.close()
        sender.close()

    assert [(table, host) for table, host, _port in opened] == [("udp", LOOPBACK), ("udp", LOOPBACK)], opened

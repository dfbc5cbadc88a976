# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Loopback UDP helpers for tests: ephemeral sockets, their addresses and patient receives.

Every socket binds 127.0.0.1 port 0, so tests never collide over a port.  Waiting is a polling
loop with a generous deadline that fails the test with a readable reason; nothing asserts how
long anything took.
"""

from __future__ import annotations

import socket
import time

import pytest

DEADLINE_S = 10.0
LOOPBACK = "127.0.0.1"
# Short, so polling loops notice their deadline soon after it passes.
POLL_TIMEOUT_S = 0.05
MAX_DATAGRAM = 70000


def udp_socket(timeout: float = POLL_TIMEOUT_S) -> socket.socket:
    """A UDP socket bound to an ephemeral loopback port, with ``timeout`` on every receive."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((LOOPBACK, 0))
    sock.settimeout(timeout)
    return sock


def address_of(sock: socket.socket) -> tuple[str, int]:
    """The (host, port) ``sock`` is bound to."""
    host, port = sock.getsockname()[:2]
    return str(host), int(port)


def receive(sock: socket.socket, deadline_s: float = DEADLINE_S) -> tuple[bytes, tuple[str, int]]:
    """The next datagram on ``sock`` and its source; fails the test if none comes in ``deadline_s``."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            data, source = sock.recvfrom(MAX_DATAGRAM)
        except TimeoutError:
            continue
        return data, (str(source[0]), int(source[1]))
    pytest.fail("no datagram arrived")


def free_udp_port() -> int:
    """A loopback UDP port no socket is bound to right now, for a test that must name a port
    before the socket that takes it exists (the caller must cope with losing a race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])

# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Following a restarted SITL: when to reconnect, and what the terminal view is told.

The link and session are small stand-ins with the two facts a restart produces on a real TCP
link: ``link_closed`` (pymavlink's ``portdead`` after SITL's socket closed) and, when the check
runs SITL itself, a new runner generation.  Real SITL restarts are in tests/e2e/test_sitl.py.
"""

from __future__ import annotations

import threading

import pytest

from amc_rc_receiver.standalone.link_follower import LinkFollower, RestartWatch, followable
from tests.support.udp import wait_for


class Link:
    def __init__(self) -> None:
        self.is_connected = True
        self.link_closed = False
        self.disconnects = 0

    def disconnect(self) -> None:
        self.disconnects += 1
        self.is_connected = False
        self.link_closed = False


class Session:
    """Answers connect() with the next scripted result once ``release`` is set."""

    def __init__(self, results: list[str]) -> None:
        self.flight_controller = Link()
        self.results = results
        self.calls: list[tuple[str, float]] = []
        self.release = threading.Event()
        self.release.set()

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        self.release.wait(10.0)
        self.calls.append((device, timeout))
        result = self.results.pop(0)
        if not result:
            self.flight_controller.is_connected = True
        return result


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def settle(follower: LinkFollower) -> list[str]:
    """Poll until the attempt under way has ended; everything the follower said meanwhile."""
    said: list[str] = []

    def ended() -> bool:
        said.extend(follower.poll())
        return not follower.attempting

    wait_for(ended, "a reconnect attempt to end")
    return said


@pytest.mark.parametrize(
    ("device", "expected"),
    [
        ("tcp:127.0.0.1:5760", True),
        ("TCP:localhost:5770", True),
        ("udpin:127.0.0.1:14550", False),
        ("/dev/ttyACM0", False),
    ],
)
def test_only_tcp_links_are_followed(device: str, expected: bool) -> None:
    """GIVEN a device WHEN asked
    THEN only a TCP client link, whose close proves the peer left, is followed."""
    assert followable(device) is expected


def test_a_closed_tcp_link_asks_for_a_reconnect_and_a_serial_one_does_not() -> None:
    """GIVEN a connected link WHEN its peer closes it THEN a TCP link wants a reconnect, a serial one not."""
    link = Link()
    tcp = RestartWatch(link, "tcp:127.0.0.1:5760")
    serial = RestartWatch(link, "/dev/ttyACM0")
    assert tcp.reason() is None
    link.link_closed = True
    assert tcp.reason() is not None
    assert "closed the connection" in (tcp.reason() or "")
    assert serial.reason() is None


def test_a_new_runner_generation_is_a_restart_even_before_the_link_reports_closed() -> None:
    """GIVEN the check runs SITL WHEN the runner started SITL again THEN a reconnect is due, and once
    connected to the new SITL it is not due any more."""
    link = Link()
    generation = [1]
    watch = RestartWatch(link, "tcp:127.0.0.1:5760", generation=lambda: generation[0])
    assert watch.reason() is None  # the first generation seen connected is the one connected to
    generation[0] = 2
    assert watch.reason() == "SITL restarted."
    watch.connected()
    assert watch.reason() is None


def test_nothing_is_due_while_not_connected() -> None:
    """GIVEN no connection (the person disconnected) WHEN SITL restarts THEN nothing reconnects by itself."""
    link = Link()
    link.is_connected = False
    link.link_closed = True
    assert RestartWatch(link, "tcp:127.0.0.1:5760").reason() is None


def test_the_follower_closes_the_dead_link_reconnects_and_says_so() -> None:
    """GIVEN a followed link WHEN SITL closes it THEN the follower closes it on the caller's thread,
    reconnects on a worker with the configured timeout, and reports both steps."""
    session = Session([""])
    watch = RestartWatch(session.flight_controller, "tcp:127.0.0.1:5760")
    follower = LinkFollower(session, watch, baudrate=115200, timeout=42.0)
    assert follower.poll() == []
    session.flight_controller.link_closed = True
    messages = follower.poll()
    assert session.flight_controller.disconnects == 1
    assert len(messages) == 1
    assert "Reconnecting to tcp:127.0.0.1:5760" in messages[0]
    finished = settle(follower)
    assert finished == ["Reconnected to tcp:127.0.0.1:5760: a fresh test started."]
    assert session.calls == [("tcp:127.0.0.1:5760", 42.0)]
    assert not follower.reconnecting
    follower.close()


def test_a_failed_reconnect_is_retried_and_reported_once() -> None:
    """GIVEN SITL not back yet WHEN reconnects fail twice with the same error THEN it is said once,
    retried after the retry period, and the third attempt's success is reported."""
    session = Session(["refused.", "refused.", ""])
    clock = Clock()
    watch = RestartWatch(session.flight_controller, "tcp:127.0.0.1:5760")
    follower = LinkFollower(session, watch, baudrate=115200, timeout=5.0, retry_s=1.0, clock=clock)
    session.flight_controller.link_closed = True
    said = follower.poll()
    said += settle(follower)
    assert said[-1] == "Reconnect failed: refused. Retrying…"
    assert follower.poll() == []  # not before the retry period
    clock.now += 1.0
    follower.poll()
    said_again = settle(follower)
    assert said_again == []  # the same failure is not repeated
    clock.now += 1.0
    follower.poll()
    assert settle(follower) == ["Reconnected to tcp:127.0.0.1:5760: a fresh test started."]
    assert len(session.calls) == 3
    follower.close()

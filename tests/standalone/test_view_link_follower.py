# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's way of following its link (`ViewLinkFollower`), without Tk: what it asks the view
to do when the link is lost, when it tries again, and when it lets the person take over.

The view is a stand-in with the window's connect path reduced to its facts: ``connect`` starts an
attempt (``is_connecting`` until the test ends it), a failed attempt leaves the view disconnected
with a status line.  The window itself on a real serial line is in
tests/standalone/window/test_window_serial.py, on real SITL in tests/e2e/test_sitl_session.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from amc_rc_receiver.standalone.link_follower import VIEW_RETRY_S, ViewLinkFollower
from tests.support.clock import ManualClock

pytestmark = pytest.mark.pure

TCP = "tcp:127.0.0.1:5760"


class Link:
    def __init__(self, device: str) -> None:
        self.device = device
        self.is_connected = True
        self.link_closed = False

    def disconnect(self) -> None:
        self.is_connected = False


class Runner:
    def __init__(self, device: str) -> None:
        self.device = device
        self.generation = 1


class Session:
    def __init__(self, link: Link, sitl: Runner | None = None) -> None:
        self.flight_controller = link
        self.sitl = sitl

    def list_ports(self) -> list[Any]:
        return []


class View:
    """The window's side of following: its connect path, its status line and the test's timeline."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.is_connecting = False
        self.closed = False
        self.status_text = ""
        self.disconnected = False
        self.attempts: list[str] = []
        self.lost: list[str] = []
        self.timeline: list[str] = []

    def show_status(self, text: str, *, error: bool = False, ok: bool = False) -> None:
        self.status_text = text

    def connect(self, device: str, baudrate: int = 115200) -> None:
        self.attempts.append(device)
        self.is_connecting = True

    def link_lost(self, text: str) -> None:
        self.lost.append(text)
        self.session.flight_controller.disconnect()
        self.disconnected = True
        self.status_text = text

    def note_link_event(self, text: str) -> None:
        self.timeline.append(text)

    def attempt_ends(self, error: str = "") -> None:
        self.is_connecting = False
        if error:
            self.status_text = error
            return
        self.session.flight_controller = Link(self.attempts[-1])
        self.disconnected = False


def following(link: Link, sitl: Runner | None = None) -> tuple[View, ViewLinkFollower, ManualClock]:
    view = View(Session(link, sitl))
    clock = ManualClock(100.0)
    follower = ViewLinkFollower(view, baudrate=115200, clock=clock)
    follower.tick()  # sees the connected link and follows it from now on
    return view, follower, clock


def test_a_closed_tcp_link_is_reconnected_at_once_through_the_views_connect_and_said() -> None:
    """GIVEN a view connected over TCP WHEN the peer closes the connection THEN the view is told
    the link is lost (once) and connects again to the same address at once; WHEN that attempt
    succeeds THEN the status line and the new test's timeline say it reconnected."""
    link = Link(TCP)
    view, follower, _clock = following(link)
    follower.tick()
    assert view.lost == []
    link.link_closed = True
    follower.tick()
    assert view.lost == [f"{TCP} closed the connection: the flight controller may be rebooting."]
    assert view.attempts == [TCP]
    assert view.status_text.endswith(f"Reconnecting to {TCP}…")
    follower.tick()  # the attempt is still running: nothing more is asked
    assert view.attempts == [TCP]
    view.attempt_ends()
    follower.tick()
    assert view.status_text == (
        f"{TCP} closed the connection: the flight controller may be rebooting. "
        f"Reconnected to {TCP}: a fresh test started."
    )
    assert view.timeline == [view.status_text]
    assert len(view.lost) == 1


def test_a_failed_reconnect_is_retried_after_the_retry_time_until_the_person_takes_over() -> None:
    """GIVEN a lost TCP link whose reconnect fails WHEN less than the retry time has passed THEN no
    new attempt; WHEN it has THEN another attempt; WHEN that fails too and the person changes the
    status line (presses Disconnect) THEN the follower stops trying."""
    link = Link(TCP)
    view, follower, clock = following(link)
    link.link_closed = True
    follower.tick()
    view.attempt_ends("Connection refused.")
    follower.tick()  # takes note of the failure
    clock.now += VIEW_RETRY_S - 0.1
    follower.tick()
    assert view.attempts == [TCP]
    clock.now += 0.2
    follower.tick()
    assert view.attempts == [TCP, TCP]
    view.attempt_ends("Connection refused.")
    follower.tick()
    view.status_text = "Disconnected."
    clock.now += VIEW_RETRY_S * 3
    follower.tick()
    follower.tick()
    assert view.attempts == [TCP, TCP]


def test_a_sitl_restart_is_told_by_the_runners_start_count_before_the_link_says_anything() -> None:
    """GIVEN a view connected to the SITL the program runs WHEN the runner starts SITL again THEN the
    loss is said as a SITL restart and the view reconnects, although the old link still looks up."""
    runner = Runner(TCP)
    link = Link(TCP)
    view, follower, _clock = following(link, runner)
    runner.generation += 1
    follower.tick()
    assert view.lost == ["SITL restarted."]
    assert view.attempts == [TCP]
